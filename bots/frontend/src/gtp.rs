//! `nogo --gtp`: the Go Text Protocol (version 2) for NoGo on stdin/stdout, with the same
//! engines, root rule and time safety as the Botzone bot.
//!
//! NoGo's rules hold: a move that captures or is suicide is refused with an error, there
//! is no pass, and a side without a legal move answers `genmove` with `resign` (it has
//! lost). Moves must come in turn (black first), as in a NoGo game.

use crate::{kept_safe_ms, seed, Args, BotError};
use botzone_games::engines::{Registry, Searcher, Without};
use botzone_games::game::{Game, Player};
use botzone_games::nogo::notation::{color_name, parse_color, parse_vertex, vertex};
use botzone_games::nogo::{Point, Position};
use botzone_games::search::{Budget, Deadline};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "time_settings",
    "time_left",
    "showboard",
    "quit",
];

/// GTP's clock: `time_settings` (main time, byo-yomi time and stones, in seconds) and the
/// last `time_left` of each colour (seconds, stones; 0 stones: in main time).
#[derive(Default)]
struct Clock {
    settings: Option<(f64, f64, u32)>,
    left: [Option<(f64, u32)>; 2],
}

impl Clock {
    /// The time for one move of `side` in `p`, in ms, before the safety margin; `None`
    /// when no limit is known.
    fn move_ms(&self, side: Player, p: &Position) -> Option<u64> {
        // A game lasts at most as long as both sides have points to play.
        let legal = p.legal_for_both();
        let moves_left = f64::from(legal[side.index()].count().div_ceil(2).max(8));
        let seconds = match (self.left[side.index()], self.settings) {
            (Some((t, stones)), _) if stones > 0 => t / f64::from(stones),
            (Some((t, _)), _) => t / moves_left,
            (None, Some((main, byo, stones))) if main <= 0.0 && byo > 0.0 && stones > 0 => byo / f64::from(stones),
            (None, Some((main, _, _))) if main > 0.0 => main / moves_left,
            _ => return None,
        };
        Some((seconds * 1000.0).max(1.0) as u64)
    }
}

struct Session<'a> {
    args: &'a Args,
    searcher: Searcher<Position>,
    position: Position,
    moves: Vec<Point>,
    clock: Clock,
}

pub fn serve(args: &Args, registry: &Registry<Position>) -> Result<(), BotError> {
    let searcher = registry
        .searcher(args.engine.as_deref(), &Without(args.without.clone()), seed(args), args.threads)
        .map_err(BotError::Usage)?;
    let mut session =
        Session { args, searcher, position: Position::start(), moves: Vec::new(), clock: Clock::default() };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let received = Instant::now();
        let line = line?;
        // GTP: comments after '#', control characters dropped, tabs as spaces.
        let line: String =
            line.split('#').next().unwrap_or("").chars().filter(|c| !c.is_control() || *c == '\t').collect();
        let mut words = line.split_whitespace().peekable();
        let id = words.next_if(|w| w.parse::<u64>().is_ok()).unwrap_or("");
        let Some(command) = words.next() else { continue };
        let args: Vec<&str> = words.collect();
        let (ok, text) = match session.command(command, &args, received) {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        write!(out, "{ok}{id}")?;
        if !text.is_empty() {
            write!(out, " {text}")?;
        }
        write!(out, "\n\n")?;
        out.flush()?;
        if command == "quit" {
            break;
        }
    }
    Ok(())
}

impl Session<'_> {
    fn command(&mut self, command: &str, args: &[&str], received: Instant) -> Result<String, String> {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("botzone-games nogo".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&args.first().copied().unwrap_or("")).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => match args.first().map(|s| s.parse::<u32>()) {
                Some(Ok(9)) => Ok(String::new()),
                _ => Err("unacceptable size (NoGo here is 9x9)".into()),
            },
            "clear_board" => {
                self.position = Position::start();
                self.moves.clear();
                Ok(String::new())
            }
            "komi" => Ok(String::new()), // NoGo has no komi: ignored
            "play" => self.play(args),
            "genmove" => self.genmove(args, received),
            "time_settings" => {
                let [main, byo, stones] = args else { return Err("time_settings takes main byo stones".into()) };
                let secs = |s: &str| s.parse::<f64>().ok().filter(|t| *t >= 0.0).ok_or("not a time in seconds");
                let stones = stones.parse::<u32>().map_err(|_| "stones is a count")?;
                let (main, byo) = (secs(main)?, secs(byo)?);
                // 0 0 0: no time limit (GTP's convention).
                self.clock.settings = (main > 0.0 || byo > 0.0).then_some((main, byo, stones));
                self.clock.left = [None, None];
                Ok(String::new())
            }
            "time_left" => {
                let [color, time, stones] = args else { return Err("time_left takes color time stones".into()) };
                let side = parse_color(color)?;
                let time = time.parse::<f64>().map_err(|_| "time is in seconds")?;
                let stones = stones.parse::<u32>().map_err(|_| "stones is a count")?;
                self.clock.left[side.index()] = Some((time.max(0.0), stones));
                Ok(String::new())
            }
            "showboard" => Ok(format!("\n{}", self.position)),
            _ => Err("unknown command".into()),
        }
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let [color, point] = args else { return Err("play takes a colour and a vertex".into()) };
        let side = parse_color(color)?;
        let p = parse_vertex(point).map_err(|e| format!("illegal move: {e}"))?;
        self.check_turn(side)?;
        self.position.try_play(p).map_err(|e| format!("illegal move: {e}"))?;
        self.moves.push(p);
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[&str], received: Instant) -> Result<String, String> {
        let [color] = args else { return Err("genmove takes a colour".into()) };
        let side = parse_color(color)?;
        self.check_turn(side)?;
        if self.position.outcome().is_some() {
            return Ok("resign".into());
        }
        let budget = match (self.args.nodes, self.args.time_ms.or(self.clock.move_ms(side, &self.position))) {
            (Some(nodes), None) => Budget::iterations(nodes),
            (nodes, ms) => {
                // Without a clock: Botzone's 1 s less its margin, as the kept-running bot.
                let ms = ms.map_or(crate::kept_turn_ms(1000), kept_safe_ms);
                Budget { max_iterations: nodes, ..Budget::until(Deadline::new(received, Duration::from_millis(ms))) }
            }
        };
        let result = self.searcher.choose(&self.position, &self.moves, &budget);
        self.position.play(result.best);
        self.moves.push(result.best);
        Ok(vertex(result.best).to_ascii_uppercase())
    }

    fn check_turn(&self, side: Player) -> Result<(), String> {
        let to_move = self.position.to_move();
        if side == to_move || self.position.outcome().is_some() {
            return Ok(());
        }
        Err(format!("illegal move: it is {}'s turn", color_name(to_move)))
    }
}
