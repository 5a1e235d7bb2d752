//! `ataxx --uai`: the Universal Ataxx Interface (UCI's form for Ataxx) on stdin/stdout,
//! with the same engines, root rule and time safety as the Botzone bot.
//!
//! A reader thread takes the input lines so that `stop`, `isready` and `quit` are served
//! while a search runs; everything else waits for the search to end. Rules are Botzone's
//! (see `--help`): a pass (`0000`) in `position` is refused, and a finished game (a side
//! blocked, a side without pieces, the 401-move cap) answers `bestmove 0000`.

use crate::{kept_safe_ms, seed, Args, BotError};
use botzone_games::ataxx::notation::{fen, move_text, parse_fen, parse_move};
use botzone_games::ataxx::Position;
use botzone_games::engines::{Registry, Searcher, Without};
use botzone_games::game::{Game, Player};
use botzone_games::search::{Budget, Deadline, Score};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Set to end the running search.
static STOP: AtomicBool = AtomicBool::new(false);
/// How many `go` commands the reader has read, and up to which of them a `stop` (or
/// `quit`) has been read: commands are read ahead of the search, so a `stop` must reach
/// its own `go`, not an earlier or a later one.
static GOS_READ: AtomicU64 = AtomicU64::new(0);
static STOPPED_UPTO: AtomicU64 = AtomicU64::new(0);

/// Writes one line to stdout and flushes it (the reader thread writes `readyok` too; a
/// locked `println!` keeps lines whole).
fn say(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The engine's settings, changed by `setoption`.
#[derive(Clone)]
struct Options {
    engine: Option<String>,
    without: Without,
    threads: u16,
    seed: u64,
    /// `--nodes`: a cap on every search, on top of what each `go` asks (as in GTP), so that
    /// a judge's time limit can be met by a fixed, machine-independent budget.
    nodes: Option<u64>,
}

struct Session<'a> {
    registry: &'a Registry<Position>,
    options: Options,
    /// Built on first use and after an option changes (tables are allocated once).
    searcher: Option<Searcher<Position>>,
    position: Position,
    /// `go` commands carried out so far.
    gos: u64,
    /// The moves from the start or from the FEN, for tree reuse.
    moves: Vec<<Position as Game>::Move>,
}

pub fn serve(args: &Args, registry: &Registry<Position>) -> Result<(), BotError> {
    // Check the command line's engine and features before saying anything.
    registry.check(args.engine.as_deref(), &Without(args.without.clone())).map_err(BotError::Usage)?;
    let options = Options {
        engine: args.engine.clone(),
        without: Without(args.without.clone()),
        threads: args.threads,
        seed: seed(args),
        nodes: args.nodes,
    };
    let mut session =
        Session { registry, options, searcher: None, position: Position::start(), gos: 0, moves: Vec::new() };
    let (tx, rx) = mpsc::channel::<(String, Instant)>();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            match line.trim() {
                "stop" | "quit" => {
                    STOPPED_UPTO.store(GOS_READ.load(Ordering::SeqCst), Ordering::SeqCst);
                    STOP.store(true, Ordering::SeqCst);
                }
                go if go.split_whitespace().next() == Some("go") => {
                    GOS_READ.fetch_add(1, Ordering::SeqCst);
                }
                // Answered at once, even during a search, as UCI requires.
                "isready" => say("readyok"),
                _ => {}
            }
            if tx.send((line, Instant::now())).is_err() {
                return;
            }
        }
    });
    for (line, received) in rx {
        if !session.command(line.trim(), received) {
            break;
        }
    }
    Ok(())
}

impl Session<'_> {
    /// Carries out one command; false after `quit`.
    fn command(&mut self, line: &str, received: Instant) -> bool {
        let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "" | "stop" | "isready" => {}
            "quit" => return false,
            "uai" | "uci" => self.identify(),
            "uainewgame" | "ucinewgame" => {
                self.searcher = None;
                self.position = Position::start();
                self.moves.clear();
            }
            "position" => {
                if let Err(e) = self.set_position(rest) {
                    say(&format!("info string error: {e}"));
                }
            }
            "go" => {
                // Counted as the reader counts them, even when malformed.
                self.gos += 1;
                match go_budget(rest, received, self.position.to_move()) {
                    Ok(budget) => {
                        let cap = budget.max_iterations.into_iter().chain(self.options.nodes).min();
                        self.go(&Budget { max_iterations: cap, ..budget })
                    }
                    Err(e) => say(&format!("info string error: {e}")),
                }
            }
            "setoption" => {
                if let Err(e) = self.set_option(rest) {
                    say(&format!("info string error: {e}"));
                }
            }
            "d" | "show" => say(&format!("{}\n{}", self.position, fen(&self.position))),
            _ => say(&format!("info string error: unknown command {word:?}")),
        }
        true
    }

    fn identify(&self) {
        say(&format!("id name botzone-games ataxx {}", env!("CARGO_PKG_VERSION")));
        say("id author the botzone-games team");
        let names: Vec<String> = self.registry.engines.iter().map(|e| format!("var {}", e.name)).collect();
        say(&format!("option name Engine type combo default {} {}", self.registry.engines[0].name, names.join(" ")));
        say("option name Without type string default <empty>");
        say("option name Threads type spin default 1 min 1 max 64");
        say("option name Seed type spin default 0 min 0 max 2147483647");
        say("uaiok");
    }

    fn set_option(&mut self, rest: &str) -> Result<(), String> {
        let rest = rest.strip_prefix("name ").ok_or("setoption takes: name NAME value VALUE")?;
        let (name, value) = rest.split_once(" value ").map_or((rest.trim(), ""), |(n, v)| (n.trim(), v.trim()));
        let mut options = self.options.clone();
        match name.to_ascii_lowercase().as_str() {
            "engine" => options.engine = Some(value.to_string()),
            "without" => {
                let value = if value == "<empty>" { "" } else { value };
                options.without =
                    Without(value.split(',').map(str::trim).filter(|f| !f.is_empty()).map(String::from).collect());
            }
            "threads" => {
                options.threads = value.parse().ok().filter(|t| (1..=64).contains(t)).ok_or("Threads is 1 to 64")?;
            }
            "seed" => options.seed = value.parse().map_err(|_| "Seed is a number")?,
            "hash" => return Err("Hash is fixed by the engine (ab: 32 MB); the option is not offered".into()),
            _ => return Err(format!("no option {name:?}")),
        }
        // The engine and its features must go together: kept only if they do, and built
        // at the next `go`.
        self.registry
            .check(options.engine.as_deref(), &options.without)
            .map_err(|e| format!("{e}; option {name} not changed"))?;
        self.options = options;
        self.searcher = None;
        Ok(())
    }

    fn set_position(&mut self, rest: &str) -> Result<(), String> {
        let (base, moves) = match rest.split_once("moves") {
            Some((base, moves)) => (base.trim(), moves.split_whitespace().collect()),
            None => (rest.trim(), Vec::new()),
        };
        let mut position = match base.split_once(char::is_whitespace).map_or((base, ""), |(w, r)| (w, r.trim())) {
            ("startpos", "") => Position::start(),
            ("fen", fen) => parse_fen(fen)?,
            _ => return Err("position takes: startpos | fen FEN, then optionally moves ...".into()),
        };
        let mut played = Vec::with_capacity(moves.len());
        for text in moves {
            if text == "0000" {
                return Err("a pass (0000): on Botzone a blocked side ends the game, there is no pass".into());
            }
            let mv = parse_move(&position, text)?;
            position.try_play(mv)?;
            played.push(mv);
        }
        self.position = position;
        self.moves = played;
        Ok(())
    }

    fn go(&mut self, budget: &Budget) {
        // This is go number `gos`; a `stop` already read for it stops it at once. (The
        // order matters: the reader stores STOPPED_UPTO before it sets STOP.)
        STOP.store(false, Ordering::SeqCst);
        if STOPPED_UPTO.load(Ordering::SeqCst) >= self.gos {
            STOP.store(true, Ordering::SeqCst);
        }
        if self.position.outcome().is_some() {
            say("bestmove 0000");
            return;
        }
        let searcher = match &mut self.searcher {
            Some(searcher) => searcher,
            None => {
                let o = &self.options;
                match self.registry.searcher(o.engine.as_deref(), &o.without, o.seed, o.threads) {
                    Ok(searcher) => self.searcher.insert(searcher),
                    // set_option keeps only settings that build, so this is not expected.
                    Err(e) => return say(&format!("info string error: {e}\nbestmove 0000")),
                }
            }
        };
        let start = Instant::now();
        let result = searcher.choose(&self.position, &self.moves, budget);
        let ms = start.elapsed().as_millis().max(1) as u64;
        let mut info = String::from("info");
        if result.depth > 0 {
            info += &format!(" depth {}", result.depth);
        }
        if let Some(score) = result.score {
            info += &format!(" score {}", uai_score(score));
        }
        info += &format!(
            " nodes {} nps {} time {ms} pv {}",
            result.nodes,
            result.nodes * 1000 / ms,
            move_text(result.best)
        );
        say(&info);
        say(&format!("info string {}", result.summary));
        say(&format!("bestmove {}", move_text(result.best)));
    }
}

/// A score as UAI writes it: centi-pieces, mate in moves (the mover's own, rounded up),
/// or a win rate mapped to centi-pieces on a logistic scale.
fn uai_score(score: Score) -> String {
    match score {
        Score::Centi(cp) => format!("cp {cp}"),
        Score::WinIn(plies) => format!("mate {}", plies.div_ceil(2).max(1)),
        Score::LossIn(plies) => format!("mate -{}", plies.div_ceil(2).max(1)),
        Score::WinRate(w) => {
            let w = w.clamp(0.001, 0.999);
            format!("cp {}", (400.0 * (w / (1.0 - w)).log10()).round() as i32)
        }
    }
}

/// The budget of `go ...`: `movetime`, the clock (`wtime btime winc binc movestogo`),
/// `depth`, `nodes`, `infinite`; with none of them, until `stop`. Time counts from when
/// the command was read, less a small margin (`kept_safe_ms`).
fn go_budget(rest: &str, received: Instant, side: Player) -> Result<Budget, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let value = |key: &str| -> Result<Option<u64>, String> {
        match words.iter().position(|w| *w == key) {
            None => Ok(None),
            Some(i) => {
                let v = words.get(i + 1).ok_or(format!("go {key} needs a number"))?;
                // A clock may be negative after an overrun: read it as nothing left.
                let n: i64 = v.parse().map_err(|_| format!("go {key}: {v:?} is not a number"))?;
                Ok(Some(n.max(0) as u64))
            }
        }
    };
    // The clocks are named by colour as in UCI; in Ataxx black (`x`) moves first.
    let (time, inc) = match side {
        Player::First => (value("btime")?, value("binc")?),
        Player::Second => (value("wtime")?, value("winc")?),
    };
    let movetime = value("movetime")?;
    let moves_to_go = value("movestogo")?;
    let max_iterations = value("nodes")?;
    let max_depth = value("depth")?.map(|d| d.min(u64::from(u32::MAX)) as u32);
    let ms = match (movetime, time) {
        (Some(m), _) => Some(kept_safe_ms(m)),
        (None, Some(t)) => {
            let share = t / moves_to_go.unwrap_or(25).max(1) + inc.unwrap_or(0) * 3 / 4;
            Some(kept_safe_ms(share.min(t / 2).max(1)))
        }
        (None, None) => None,
    };
    let deadline = match ms {
        Some(ms) => Deadline::new(received, Duration::from_millis(ms)),
        None => Deadline::never(),
    };
    Ok(Budget { deadline: deadline.with_stop(&STOP), max_iterations, max_depth })
}
