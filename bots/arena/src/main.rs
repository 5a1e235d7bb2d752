//! `arena`: a local Botzone judge. Matches between any two Botzone-protocol programs with
//! time limits, Elo and records; replays of logged games; a human against a bot.

use arena::book::{book_from_log, parse_book};
use arena::competitor::CompetitorSpec;
use arena::games::{ArenaGame, GameName};
use arena::results::LoggedMatches;
use arena::tournament::{run_match, MatchConfig, Openings};
use arena::{human, replay, stats, web, with_game};
use botzone_games::game::Player;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Parser)]
#[command(name = "arena", about = "A local Botzone judge for Ataxx, NoGo and Dots-and-Boxes (Pencil)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A match of Ataxx games between bots A and B.
    Ataxx(MatchArgs),
    /// A match of NoGo games between bots A and B.
    Nogo(MatchArgs),
    /// A match of Pencil (Dots-and-Boxes) games between bots A and B.
    Dots(MatchArgs),
    /// Show a logged game move by move.
    Replay {
        /// A log written by --log.
        file: PathBuf,
        /// Which game (its "game" number); default: the first in the file.
        #[arg(long)]
        game: Option<usize>,
        /// A turn at a time: Enter shows the next, `b` the one before, a number that turn,
        /// `q` quits.
        #[arg(long)]
        step: bool,
    },
    /// Sum up logged matches as one (W-D-L, Elo with the interval over each log's game
    /// pairs, A's score by colour, times, faults, peak memory), and with --versus compare
    /// them game by game with other logs played from the same openings.
    Summary {
        /// Logs written by --log (of one game; several runs of one setting add up).
        #[arg(required = true)]
        logs: Vec<PathBuf>,
        /// Logs of the same openings played by other bots (e.g. the version before): the
        /// games A did better and worse in, and a sign test.
        #[arg(long, num_args = 1..)]
        versus: Vec<PathBuf>,
        /// Print the summary as one JSON object on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Print a book (`--book`) cut from a match log: each game's moves up to its first
    /// position with LEFT places left to play (Ataxx: empty squares; NoGo: empty points;
    /// Pencil: undrawn edges), one JSON line per game that gets there.
    Book {
        #[arg(value_enum)]
        game: GameName,
        /// A log written by --log.
        log: PathBuf,
        #[arg(long)]
        left: u32,
    },
    /// Play against a bot in the terminal.
    Play {
        #[arg(value_enum)]
        game: GameName,
        /// The bot's command line (a Botzone-protocol program, or `uai:CMD` / `gtp:CMD`).
        #[arg(long)]
        bot: String,
        /// Your side: black (first) or white (second); in Pencil black is red.
        #[arg(long, value_enum, default_value = "black")]
        human: Side,
        /// The bot's limit per turn (first turn: twice this).
        #[arg(long, default_value_t = 1000)]
        time_ms: u64,
    },
    /// A local web page (http://127.0.0.1:PORT/) to replay logged games move by move with
    /// each answer's value and time, to play against a bot by clicking, and to follow a
    /// match's log as it grows.
    Serve {
        /// A match log written by --log, or a folder of them (`*.jsonl`); repeatable.
        #[arg(long)]
        log: Vec<PathBuf>,
        /// A bot to offer on the play page, as GAME=COMMAND (e.g. `nogo=target/release/nogo
        /// --engine uct`, `ataxx=uai:./engine`); repeatable. Our three bots beside this
        /// binary are offered too.
        #[arg(long)]
        bot: Vec<String>,
        /// Where the play page saves games (`played.jsonl`, listed with the logs, and one
        /// Botzone history per game).
        #[arg(long, default_value = "arena-played")]
        save_dir: PathBuf,
        /// The port on 127.0.0.1 (0: any free one, printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The figures page's folder of SVG figures.
        #[arg(long, default_value = "docs/figures")]
        figures: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    Black,
    White,
}

#[derive(Args)]
struct MatchArgs {
    /// Bot A's command line: a Botzone-protocol program, or a foreign engine as `uai:CMD`
    /// (Ataxx) or `gtp:CMD` (NoGo), kept running and driven with the per-move limit.
    #[arg(long)]
    a: String,
    /// Bot B's command line (as --a).
    #[arg(long)]
    b: String,
    /// Number of games (pairs share an opening, colours swapped).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Wall-clock limit per turn in ms; each bot's first turn gets twice this. Our bots
    /// are measured safe from 50 ms (see the bots' --help); below, some answers come late.
    #[arg(long, default_value_t = 1000)]
    time_ms: u64,
    /// Bot B's limit per turn in ms, when it differs from A's (--time-ms): a stronger
    /// setting of the opponent, e.g. twice our time. A `gtp:`/`uai:` engine is told it; an
    /// engine with its own stop on its command line needs that set too.
    #[arg(long, value_name = "MS")]
    time_ms_b: Option<u64>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Play only shard K of N of the match (0 <= K < N): the K-th of N equal runs of
    /// consecutive pairs, each game with the number, opening and colours it has in the
    /// whole match. `arena summary` over the N shards' logs is the whole match's summary.
    /// N must divide the pairs (games / 2).
    #[arg(long, value_name = "K/N", conflicts_with = "sprt")]
    shard: Option<String>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies before the bots take over (Pencil: only edges that take no box).
    #[arg(long, default_value_t = 0, conflicts_with = "book")]
    openings: usize,
    /// Start positions instead of random openings: one per line, the JSON array of moves
    /// that leads to it (a log's "opening"); pair k starts from line k, lines reused in turn.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Write one JSON line per game to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Print the summary as one JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// Keep bot A running between turns (Botzone keep-running mode).
    #[arg(long)]
    keep_running_a: bool,
    /// Keep bot B running between turns.
    #[arg(long)]
    keep_running_b: bool,
    /// Stop early on an SPRT decision between Elo hypotheses "elo0,elo1".
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    /// Run the Botzone bots (not `uai:`/`gtp:` engines) as Botzone does: an empty
    /// environment, one CPU each game (`taskset`), and an address-space cap of 256 MB
    /// (`prlimit --as`; `--sandbox-mb` sets another). Needs util-linux's taskset and prlimit.
    #[arg(long)]
    sandbox: bool,
    /// The sandbox's address-space cap in MB.
    #[arg(long, value_name = "MB", requires = "sandbox", default_value_t = arena::runner::BOTZONE_MEMORY_MB)]
    sandbox_mb: u64,
}

/// Set by the first Ctrl-C: the match plays no more games and prints what it has. A
/// second Ctrl-C ends at once.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn run_match_command<G: ArenaGame>(args: MatchArgs) -> Result<(), String> {
    let sprt = match &args.sprt {
        None => None,
        Some(text) => {
            let (e0, e1) = text.split_once(',').ok_or("--sprt takes elo0,elo1")?;
            let parse = |s: &str| s.trim().parse::<f64>().map_err(|_| format!("--sprt: {s:?} is not a number"));
            Some(stats::Sprt { elo0: parse(e0)?, elo1: parse(e1)? })
        }
    };
    let a = CompetitorSpec::parse(&args.a, args.keep_running_a)?;
    let b = CompetitorSpec::parse(&args.b, args.keep_running_b)?;
    a.check::<G>().map_err(|e| format!("bot A: {e}"))?;
    b.check::<G>().map_err(|e| format!("bot B: {e}"))?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let played = match &args.shard {
        Some(shard) => arena::tournament::shard_of_match(shard, args.games)?,
        None => 0..args.games,
    };
    let openings = match &args.book {
        None => Openings::Random(args.openings),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Openings::Book(parse_book::<G>(&text).map_err(|e| format!("book {}: {e}", path.display()))?)
        }
    };
    let time_ms_b = args.time_ms_b.unwrap_or(args.time_ms);
    if args.time_ms == 0 || time_ms_b == 0 {
        return Err("--time-ms and --time-ms-b must be at least 1".into());
    }
    let cfg = MatchConfig {
        a,
        b,
        a_command: args.a.clone(),
        b_command: args.b.clone(),
        limits: [Duration::from_millis(args.time_ms), Duration::from_millis(time_ms_b)],
        jobs: args.jobs,
        seed: args.seed,
        openings,
        log: args.log,
        sprt,
        progress: !args.quiet,
        sandbox_mb: args.sandbox.then_some(args.sandbox_mb),
        interrupt: Some(&INTERRUPTED),
        played,
    };
    let times = if time_ms_b == args.time_ms {
        format!("{} ms per turn", args.time_ms)
    } else {
        format!("A {} ms, B {time_ms_b} ms per turn", args.time_ms)
    };
    let games = match &args.shard {
        Some(shard) => format!("games {}-{} of {} (shard {shard})", cfg.played.start, cfg.played.end - 1, args.games),
        None => format!("{} games", args.games),
    };
    eprintln!("{}: A = {}  vs  B = {}, {games}, {times}", G::NAME, args.a, args.b);
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("arena: interrupted: finishing the games under way (Ctrl-C again to quit now)");
    });
    let summary = run_match::<G>(&cfg).map_err(|e| format!("cannot write the log: {e}"))?;
    if args.json {
        println!("{}", summary.to_json());
    } else {
        print!("{}", summary.to_text());
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Ataxx(a) => run_match_command::<botzone_games::ataxx::Position>(a),
        Command::Nogo(a) => run_match_command::<botzone_games::nogo::Position>(a),
        Command::Dots(a) => run_match_command::<botzone_games::dots::Position>(a),
        Command::Replay { file, game, step } => {
            let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let replay = replay::replay(&text, game)?;
            if step {
                replay.step(std::io::stdin().lock(), std::io::stdout().lock()).map_err(|e| e.to_string())
            } else {
                print!("{}", replay.text());
                Ok(())
            }
        }
        Command::Summary { logs, versus, json } => {
            let matches = LoggedMatches::read(&logs)?;
            let summary = matches.summary();
            let comparison = if versus.is_empty() {
                None
            } else {
                let other = LoggedMatches::read(&versus)?;
                if other.game != matches.game {
                    return Err(format!("--versus logs are of {}, not {}", other.game.name(), matches.game.name()));
                }
                Some(matches.compare(&other))
            };
            if json {
                let mut out = summary.to_json();
                out["versus"] = comparison.map_or(serde_json::Value::Null, |c| c.to_json());
                println!("{out}");
            } else {
                print!("{}", summary.to_text());
                if let Some(c) = comparison {
                    print!("{}", c.to_text());
                }
            }
            Ok(())
        }
        Command::Book { game, log, left } => {
            let text = std::fs::read_to_string(&log).map_err(|e| format!("cannot read {}: {e}", log.display()))?;
            for line in with_game!(game, G => book_from_log::<G>(&text, left))? {
                println!("{line}");
            }
            Ok(())
        }
        Command::Play { game, bot, human, time_ms } => {
            let spec = CompetitorSpec::parse(&bot, false)?;
            with_game!(game, G => spec.check::<G>())?;
            let human = match human {
                Side::Black => Player::First,
                Side::White => Player::Second,
            };
            let limit = Duration::from_millis(time_ms);
            let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
            let (mut input, mut output) = (stdin.lock(), stdout.lock());
            with_game!(game, G => human::play::<G>(spec, human, limit, &mut input, &mut output))
                .map_err(|e| format!("I/O error: {e}"))
        }
        Command::Serve { log, bot, save_dir, port, figures } => {
            let mut bots = bot.iter().map(|b| web::parse_bot(b)).collect::<Result<Vec<_>, _>>()?;
            for choice in &bots {
                with_game!(choice.game, G => choice.spec.check::<G>())?;
            }
            bots.extend(web::default_bots());
            for skipped in web::logs::load(&log).skipped {
                eprintln!("arena serve: skipped {skipped}");
            }
            let figures = figures.is_dir().then_some(figures);
            let config = web::ServeConfig { logs: log, bots, save_dir, figures };
            web::serve(config, port, |addr| {
                use std::io::Write;
                println!("serving http://{addr}/ (Ctrl-C to stop)");
                let _ = std::io::stdout().flush();
            })
        }
    }
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("arena: {e}");
        std::process::exit(2);
    }
}
