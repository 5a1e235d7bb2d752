//! Everything a bot binary does, shared by the three games: the command line, one
//! Botzone turn (or a kept-running series of turns), and the debugging commands.
//! Binaries only pick the game and its engines.

use crate::botzone::{self, BotzoneGame, InputError, Match};
use crate::game::Game;
use crate::search::mcts;
use crate::search::parallel::search_parallel;
use crate::search::random::RandomMover;
use crate::search::{Budget, Deadline, Engine};
use clap::Parser;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// A selectable search algorithm of a bot.
pub struct EngineSpec<G: Game> {
    pub name: &'static str,
    pub about: &'static str,
    /// The features `--without` can switch off, each with what it is (ablation: what a
    /// feature is worth is measured by a match of the engine with and without it).
    pub features: &'static [(&'static str, &'static str)],
    pub make: fn(seed: u64, without: &Without) -> Box<dyn Engine<G>>,
}

/// The engine features switched off with `--without`.
#[derive(Debug, Clone, Default)]
pub struct Without(pub Vec<String>);

impl Without {
    pub fn has(&self, feature: &str) -> bool {
        self.0.iter().any(|f| f == feature)
    }
}

impl<G: Game> EngineSpec<G> {
    /// The engine with `without` switched off, or why that is not possible.
    pub fn build(&self, seed: u64, without: &Without) -> Result<Box<dyn Engine<G>>, String> {
        for f in &without.0 {
            if !self.features.iter().any(|(name, _)| name == f) {
                let names: Vec<_> = self.features.iter().map(|(name, _)| *name).collect();
                return Err(if names.is_empty() {
                    format!("engine {} has no feature to switch off (asked: {f:?})", self.name)
                } else {
                    format!("engine {} has no feature {f:?} to switch off; it has: {}", self.name, names.join(", "))
                });
            }
        }
        Ok((self.make)(seed, without))
    }

    /// One line of `--help`, with the features `--without` takes.
    fn help_line(&self) -> String {
        let mut line = format!("  {:<8} {}", self.name, self.about);
        for (name, what) in self.features {
            line.push_str(&format!("\n             --without {name}: {what}"));
        }
        line
    }
}

/// The engines every game has.
pub fn generic_engines<G: Game>() -> Vec<EngineSpec<G>> {
    vec![
        EngineSpec {
            name: "uct",
            about: "plain UCT, C = sqrt(2), uniformly random playouts (the seeds' baseline)",
            features: &[],
            make: |seed, _| Box::new(mcts::uct::<G>(seed)),
        },
        EngineSpec {
            name: "random",
            about: "a uniformly random legal move",
            features: &[],
            make: |seed, _| Box::new(RandomMover::new(seed)),
        },
    ]
}

#[derive(Parser, Debug, Clone)]
#[command(about = "A Botzone bot: reads one turn's JSON (or simplified) input on stdin, prints one move.")]
pub struct Args {
    /// Budget per turn in ms, counted from process start (first turn: twice this).
    /// Default: the input's time_limit less 10% (at least 35 ms), else 900.
    #[arg(long, value_name = "MS")]
    pub time_ms: Option<u64>,
    /// Random seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A fixed number of search iterations instead of a time budget (with --seed: the
    /// same input gives the same answer).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Independent root searches merged at the end (seed 001's root parallelism).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Search engine (see the list below; default: the first).
    #[arg(long)]
    pub engine: Option<String>,
    /// Switch off these features of the engine (comma-separated; listed below per engine),
    /// to measure what each is worth.
    #[arg(long, value_name = "FEATURES", value_delimiter = ',')]
    pub without: Vec<String>,
    /// Print every legal response for the input's position as a JSON array, then exit.
    #[arg(long)]
    pub legal: bool,
    /// Print the number of leaf positions N plies ahead (empty input: the start position).
    #[arg(long, value_name = "N")]
    pub perft: Option<u32>,
    /// Print the input's position as a board, then exit.
    #[arg(long)]
    pub show: bool,
    /// Botzone keep-running mode: after each answer print the marker and wait for the
    /// next request line.
    #[arg(long)]
    pub keep_running: bool,
}

/// Why a bot could not answer.
#[derive(Debug)]
pub enum BotError {
    Input(InputError),
    Usage(String),
    Io(io::Error),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            BotError::Input(e) => write!(f, "{e}"),
            BotError::Usage(e) => write!(f, "{e}"),
            BotError::Io(e) if e.kind() == io::ErrorKind::InvalidData => write!(f, "bad input: not UTF-8 text"),
            BotError::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl From<InputError> for BotError {
    fn from(e: InputError) -> Self {
        BotError::Input(e)
    }
}
impl From<io::Error> for BotError {
    fn from(e: io::Error) -> Self {
        BotError::Io(e)
    }
}

/// The whole program of a bot binary: parse flags, answer, exit 0 (or 2 with a message).
pub fn main<G: BotzoneGame>(engines: Vec<EngineSpec<G>>) -> ! {
    let start = Instant::now();
    let names: Vec<String> = engines.iter().map(EngineSpec::help_line).collect();
    let command =
        <Args as clap::CommandFactory>::command().name(G::NAME).after_help(format!("Engines:\n{}", names.join("\n")));
    let args = match command.try_get_matches().and_then(|m| <Args as clap::FromArgMatches>::from_arg_matches(&m)) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    match run::<G>(start, &args, &engines, &mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("{}: {e}", G::NAME);
            std::process::exit(2)
        }
    }
}

/// The first line of input that is not blank, without its line end; `None` at end of input.
fn next_line(input: &mut dyn BufRead) -> io::Result<Option<String>> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if !line.trim().is_empty() {
            return Ok(Some(line.trim().to_string()));
        }
    }
}

/// Runs one invocation of a bot on `input`, writing to `output`.
pub fn run<G: BotzoneGame>(
    start: Instant,
    args: &Args,
    engines: &[EngineSpec<G>],
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), BotError> {
    let spec = match &args.engine {
        None => &engines[0],
        Some(name) => engines.iter().find(|e| e.name == name).ok_or_else(|| {
            let names: Vec<_> = engines.iter().map(|e| e.name).collect();
            BotError::Usage(format!("unknown engine {name:?}; engines: {}", names.join(", ")))
        })?,
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    });
    let first = next_line(input)?;
    if first.is_none() && (args.perft.is_some() || args.show) {
        let game = G::start();
        return write_info(args, &game, output);
    }
    let first = first.ok_or_else(|| InputError::Syntax("empty input".into()))?;
    let mut more = || next_line(input).ok().flatten();
    let turn = botzone::parse_turn::<G>(&first, &mut more)?;
    let mut game_match = Match::<G>::rebuild(&turn)?;
    if args.perft.is_some() || args.show || args.legal {
        if args.legal {
            let legal: Vec<_> = if game_match.our_move() {
                game_match.game.legal_responses().into_iter().map(|m| G::json_move(Some(m))).collect()
            } else {
                vec![G::json_move(None)]
            };
            writeln!(output, "{}", serde_json::Value::Array(legal))?;
            return Ok(());
        }
        return write_info(args, &game_match.game, output);
    }

    // Engines allocate their tables now, not for the informational flags above.
    let without = Without(args.without.clone());
    let mut searchers: Vec<Box<dyn Engine<G>>> = (0..u64::from(args.threads))
        .map(|i| spec.build(seed.wrapping_add(i), &without))
        .collect::<Result<_, _>>()
        .map_err(BotError::Usage)?;
    let format = turn.format;
    let mut time_limit = turn.time_limit_ms;
    let mut clock_start = start;
    let mut first_turn = turn.number() == 0;
    loop {
        let budget = turn_budget(args, clock_start, first_turn, time_limit);
        let (mv, summary) = choose(&mut game_match, &mut searchers, &budget);
        writeln!(output, "{}", botzone::format_answer::<G>(format, mv, &summary))?;
        if !args.keep_running {
            output.flush()?;
            return Ok(());
        }
        writeln!(output, "{}", botzone::KEEP_RUNNING_MARKER)?;
        output.flush()?;
        game_match.apply_response(mv)?;
        let Some(line) = next_line(input)? else { return Ok(()) };
        clock_start = Instant::now();
        first_turn = false;
        if line.starts_with('{') && line.contains("\"requests\"") {
            // A full history instead of one request: start over from it.
            let turn = botzone::parse_turn::<G>(&line, &mut || None)?;
            time_limit = turn.time_limit_ms.or(time_limit);
            game_match = Match::rebuild(&turn)?;
            continue;
        }
        let (request, claim) =
            botzone::parse_request_line::<G>(format, &line).map_err(|reason| InputError::Illegal {
                turn: game_match.turn,
                entry: botzone::Entry::Request,
                mv: line.chars().take(60).collect(),
                reason,
            })?;
        game_match.apply_request(request, claim)?;
    }
}

fn write_info<G: BotzoneGame>(args: &Args, game: &G, output: &mut dyn Write) -> Result<(), BotError> {
    if let Some(depth) = args.perft {
        writeln!(output, "{}", game.perft(depth))?;
    } else {
        writeln!(output, "{game}")?;
    }
    Ok(())
}

/// The least time a bot leaves between its deadline and the input's limit. On a loaded
/// 2-core machine answers came up to 33 ms after the deadline (process start-up and
/// scheduling), and about one in a few thousand 35-60 ms; at Botzone's 1000 ms the 10%
/// margin (100 ms) covers both.
const SHORT_LIMIT_MARGIN_MS: u64 = 35;

/// The search budget of one turn: `--nodes` alone fixes the work and ignores the clock;
/// otherwise the time budget, doubled on the bot's first turn as Botzone does.
fn turn_budget(args: &Args, start: Instant, first_turn: bool, time_limit_ms: Option<u64>) -> Budget {
    if args.nodes.is_some() && args.time_ms.is_none() {
        return Budget { deadline: Deadline::never(), max_iterations: args.nodes };
    }
    // Without --time-ms: the input's limit less a margin for start-up, scheduling and
    // output: 10%, and at least SHORT_LIMIT_MARGIN_MS, since at short limits the fixed
    // costs dominate.
    let normal_ms = args.time_ms.unwrap_or_else(|| {
        time_limit_ms.map_or(900, |limit| limit - (limit / 10).max(SHORT_LIMIT_MARGIN_MS).min(limit / 2))
    });
    let ms = if first_turn { 2 * normal_ms } else { normal_ms };
    Budget { deadline: Deadline::new(start, Duration::from_millis(ms)), max_iterations: args.nodes }
}

/// Our answer for the match's current turn: `None` (pass) when the rules give the move to
/// the opponent (Pencil after it completed a box), else the engine's choice.
fn choose<G: BotzoneGame>(
    game_match: &mut Match<G>,
    searchers: &mut [Box<dyn Engine<G>>],
    budget: &Budget,
) -> (Option<G::Move>, String) {
    if !game_match.our_move() {
        return (None, "pass: the opponent moves again".into());
    }
    let game = &game_match.game;
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let preferred: Vec<_> = moves.iter().copied().filter(|&m| !game.avoid_at_root(m)).collect();
    let root_moves = if preferred.is_empty() { moves } else { preferred };
    if root_moves.len() == 1 {
        return (Some(root_moves[0]), "only move".into());
    }
    for searcher in searchers.iter_mut() {
        searcher.set_history(&game_match.moves);
    }
    let result = search_parallel(searchers, game, &root_moves, budget);
    (Some(result.best), result.summary)
}
