//! A competitor in a game: a Botzone-protocol bot (a fresh process per turn, or kept running),
//! or a foreign engine given as `uai:CMD` (Ataxx) or `gtp:CMD` (NoGo), started once per
//! game, kept running and driven with the per-move limit. Whatever the player believes,
//! its answer comes back as a Botzone move object and the judge applies Botzone's rules.

use crate::games::{ArenaGame, EngineProtocol};
use crate::runner::{fault, kill_after, timeout, Answer, Bot, BotSpec, Fault, FaultKind, LineProcess, Sandbox};
use botzone_games::game::Player as Side;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// How to start a competitor: a command line, prefixed `uai:` or `gtp:` for a foreign engine.
#[derive(Debug, Clone)]
pub enum CompetitorSpec {
    Botzone(BotSpec),
    Engine(EngineProtocol, Vec<String>),
}

impl CompetitorSpec {
    /// `keep_running` applies to Botzone bots (foreign engines are always kept).
    pub fn parse(command: &str, keep_running: bool) -> Result<CompetitorSpec, String> {
        let engine = |protocol, rest: &str| {
            let spec = BotSpec::parse(rest, true)?;
            Ok(CompetitorSpec::Engine(protocol, spec.argv))
        };
        match command.trim_start().split_once(':') {
            Some(("uai", rest)) => engine(EngineProtocol::Uai, rest),
            Some(("gtp", rest)) => engine(EngineProtocol::Gtp, rest),
            _ => BotSpec::parse(command, keep_running).map(CompetitorSpec::Botzone),
        }
    }

    /// The same competitor, a Botzone bot run in `sandbox`; a foreign engine is left as it
    /// is (it stands for a program elsewhere, not for a Botzone upload).
    pub fn sandboxed(&self, sandbox: Option<Sandbox>) -> CompetitorSpec {
        match self {
            CompetitorSpec::Botzone(b) => CompetitorSpec::Botzone(BotSpec { sandbox, ..b.clone() }),
            engine => engine.clone(),
        }
    }

    /// The program it starts.
    pub fn program(&self) -> &str {
        match self {
            CompetitorSpec::Botzone(b) => &b.argv[0],
            CompetitorSpec::Engine(_, argv) => &argv[0],
        }
    }

    /// Whether this competitor can play `G` (its protocol fits, its program exists).
    pub fn check<G: ArenaGame>(&self) -> Result<(), String> {
        self.check_protocol::<G>()?;
        let program = self.program();
        let found = if program.contains('/') {
            std::path::Path::new(program).is_file()
        } else {
            std::env::var_os("PATH")
                .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
        };
        if found {
            Ok(())
        } else {
            Err(format!("cannot find the program {program:?}"))
        }
    }

    /// Whether this competitor's protocol fits `G`.
    fn check_protocol<G: ArenaGame>(&self) -> Result<(), String> {
        match self {
            CompetitorSpec::Engine(protocol, _) if G::ENGINE_PROTOCOL != Some(*protocol) => Err(format!(
                "{} engines cannot play {} (its engine protocol: {})",
                protocol_name(*protocol),
                G::NAME,
                G::ENGINE_PROTOCOL.map_or("none", protocol_name)
            )),
            _ => Ok(()),
        }
    }
}

fn protocol_name(p: EngineProtocol) -> &'static str {
    match p {
        EngineProtocol::Uai => "UAI",
        EngineProtocol::Gtp => "GTP",
    }
}

/// What a competitor is asked in one turn.
pub struct TurnInput<'a, G: ArenaGame> {
    /// The full Botzone JSON input (a fresh Botzone bot's stdin).
    pub full_input: &'a str,
    /// This turn's request alone (a kept Botzone bot's next line).
    pub request: &'a str,
    /// Every move of the game so far and the position they lead to (foreign engines).
    pub moves: &'a [G::Move],
    pub game: &'a G,
    /// The side asked, and the limit of the turn (doubled on its first).
    pub side: Side,
    pub limit: Duration,
}

pub enum Competitor<G: ArenaGame> {
    Botzone(Bot),
    Engine(Engine<G>),
}

impl<G: ArenaGame> Competitor<G> {
    pub fn new(spec: &CompetitorSpec) -> Self {
        match spec {
            CompetitorSpec::Botzone(b) => Competitor::Botzone(Bot::new(b.clone())),
            CompetitorSpec::Engine(protocol, argv) => Competitor::Engine(Engine {
                protocol: *protocol,
                argv: argv.clone(),
                process: None,
                moves_sent: 0,
                last_info: None,
                _game: PhantomData,
            }),
        }
    }

    pub fn ask(&mut self, turn: &TurnInput<G>) -> Answer {
        match self {
            Competitor::Botzone(bot) => bot.ask(turn.full_input, turn.request, turn.limit),
            Competitor::Engine(engine) => engine.ask(turn),
        }
    }

    /// The peak resident memory of its kept-running process, in KB, where known.
    pub fn peak_kb(&self) -> Option<u64> {
        match self {
            Competitor::Botzone(bot) => bot.peak_kb(),
            Competitor::Engine(engine) => engine.process.as_ref().and_then(LineProcess::peak_kb),
        }
    }

    /// How often a kept-running Botzone bot left and was started again.
    pub fn restarts(&self) -> u32 {
        match self {
            Competitor::Botzone(bot) => bot.restarts(),
            Competitor::Engine(_) => 0,
        }
    }

    pub fn stop(&mut self) {
        match self {
            Competitor::Botzone(bot) => bot.stop(),
            Competitor::Engine(engine) => engine.stop(),
        }
    }
}

/// A foreign engine in one game.
pub struct Engine<G: ArenaGame> {
    protocol: EngineProtocol,
    argv: Vec<String>,
    process: Option<LineProcess>,
    /// GTP: how many of the game's moves the engine has on its board.
    moves_sent: usize,
    /// UAI: the last `info` line of this turn's search (its score and depth), kept as the
    /// answer's debug text.
    last_info: Option<String>,
    _game: PhantomData<G>,
}

/// Time an engine gets to start and answer the handshake (not counted as thinking time).
const HANDSHAKE: Duration = Duration::from_secs(10);

impl<G: ArenaGame> Engine<G> {
    /// The answer and the time the engine thought (from the move request to the answer;
    /// starting it and its handshake are not counted).
    fn ask(&mut self, turn: &TurnInput<G>) -> Answer {
        let start = Instant::now();
        self.last_info = None;
        let result = self.ask_inner(turn);
        let elapsed = result.as_ref().map_or(start.elapsed(), |(_, thought)| *thought);
        let response = match result {
            Ok((_, thought)) if thought > turn.limit => Err(timeout(thought, turn.limit, false)),
            Ok((text, _)) => match turn.game.parse_engine_move(&text) {
                Ok(mv) => Ok(G::json_move(mv)),
                Err(e) => Err(fault(FaultKind::Illegal, format!("{text}: {e}"))),
            },
            Err(f) => Err(f),
        };
        if response.is_err() {
            self.stop();
        }
        Answer { response, elapsed, debug: self.last_info.take(), data: None }
    }

    /// The engine's move text and the time from the request for a move to the answer.
    fn ask_inner(&mut self, turn: &TurnInput<G>) -> Result<(String, Duration), Fault> {
        if self.process.is_none() {
            self.process = Some(LineProcess::start(&self.argv)?);
            self.handshake(turn.limit)?;
        }
        match self.protocol {
            EngineProtocol::Uai => self.uai_turn(turn),
            EngineProtocol::Gtp => self.gtp_turn(turn),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let process = self.process.as_mut().expect("started");
        process.send(line).map_err(|e| fault(FaultKind::Crash, format!("the engine stopped reading: {e}")))
    }

    /// Lines until one that `done` accepts (returned), by `deadline`.
    fn read_until(
        &mut self,
        deadline: Instant,
        limit: Duration,
        start: Instant,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, Fault> {
        let process = self.process.as_mut().expect("started");
        loop {
            match process.next_line(deadline) {
                Ok(Some(line)) if done(line.trim()) => return Ok(line.trim().to_string()),
                Ok(Some(line)) if line.starts_with("info ") => self.last_info = Some(line.trim().to_string()),
                Ok(Some(_)) => {}
                Ok(None) => {
                    let status = process.exit_status().map_or("no status".into(), |s| s.to_string());
                    return Err(fault(FaultKind::Crash, format!("the engine exited ({status})")));
                }
                Err(_) => return Err(timeout(start.elapsed(), limit, true)),
            }
        }
    }

    fn handshake(&mut self, limit: Duration) -> Result<(), Fault> {
        let start = Instant::now();
        let deadline = start + HANDSHAKE;
        match self.protocol {
            EngineProtocol::Uai => {
                self.send("uai")?;
                self.read_until(deadline, HANDSHAKE, start, |l| l == "uaiok")?;
                self.send("uainewgame")?;
                self.send("isready")?;
                self.read_until(deadline, HANDSHAKE, start, |l| l == "readyok")?;
            }
            EngineProtocol::Gtp => {
                // A byo-yomi of the per-move limit, one stone per period.
                let seconds = gtp_seconds(engine_limit(limit));
                for command in ["boardsize 9".to_string(), "clear_board".into(), format!("time_settings 0 {seconds} 1")]
                {
                    self.gtp(&command, deadline, HANDSHAKE, start)?;
                }
            }
        }
        Ok(())
    }

    fn uai_turn(&mut self, turn: &TurnInput<G>) -> Result<(String, Duration), Fault> {
        let moves: Vec<String> = turn.moves.iter().map(|&m| G::engine_move_text(m)).collect();
        let position = if moves.is_empty() {
            "position startpos".into()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let start = Instant::now();
        self.send(&format!("go movetime {}", engine_limit(turn.limit).as_millis()))?;
        let line = self.read_until(start + kill_after(turn.limit), turn.limit, start, |l| l.starts_with("bestmove"))?;
        let text = line.split_whitespace().nth(1).unwrap_or("").to_string();
        Ok((text, start.elapsed()))
    }

    fn gtp_turn(&mut self, turn: &TurnInput<G>) -> Result<(String, Duration), Fault> {
        let setup = Instant::now() + HANDSHAKE;
        let color = |side: Side| if side == Side::First { "b" } else { "w" };
        // Moves the engine has not seen: the opening and the opponent's answers.
        let mut replay = Side::First;
        for (i, &mv) in turn.moves.iter().enumerate() {
            if i >= self.moves_sent {
                let command = format!("play {} {}", color(replay), G::engine_move_text(mv));
                self.gtp(&command, setup, HANDSHAKE, Instant::now())?;
            }
            replay = replay.other();
        }
        let seconds = gtp_seconds(engine_limit(turn.limit));
        self.gtp(&format!("time_left {} {seconds} 1", color(turn.side)), setup, HANDSHAKE, Instant::now())?;
        let start = Instant::now();
        let text =
            self.gtp(&format!("genmove {}", color(turn.side)), start + kill_after(turn.limit), turn.limit, start)?;
        self.moves_sent = turn.moves.len() + 1;
        Ok((text, start.elapsed()))
    }

    /// One GTP command; its answer's text, or a fault for an error answer.
    fn gtp(&mut self, command: &str, deadline: Instant, limit: Duration, start: Instant) -> Result<String, Fault> {
        self.send(command)?;
        let line = self.read_until(deadline, limit, start, |l| l.starts_with('=') || l.starts_with('?'))?;
        let text = line[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
        if line.starts_with('?') {
            return Err(fault(FaultKind::BadOutput, format!("the engine refused {command:?}: {text}")));
        }
        // The answer ends with an empty line.
        self.read_until(deadline, limit, start, str::is_empty)?;
        Ok(text)
    }

    fn stop(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.send("quit");
            process.kill();
        }
        self.moves_sent = 0;
    }
}

/// What an engine (always kept running) is told it may spend of a turn's `limit`: what our
/// kept-running Botzone bots take of it after their first turn (the limit less 5%, at
/// least 20 ms), so both sides think about as long.
fn engine_limit(limit: Duration) -> Duration {
    Duration::from_millis(frontend::kept_turn_ms(limit.as_millis() as u64))
}

/// A per-move limit in whole seconds where it is whole, as GTP's integers expect, else
/// in fractions (our bots read those).
fn gtp_seconds(limit: Duration) -> String {
    let ms = limit.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{:.3}", limit.as_secs_f64())
    }
}

impl<G: ArenaGame> Drop for Engine<G> {
    fn drop(&mut self) {
        self.stop();
    }
}
