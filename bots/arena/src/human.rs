//! `arena play GAME --bot CMD`: a human against a bot in the terminal, with the seed 003
//! GUI's functions: new game, undo, save and load (the file is the Botzone JSON history,
//! so a saved game is also a fixture), quit.

use crate::competitor::{Competitor, CompetitorSpec, TurnInput};
use crate::games::ArenaGame;
use crate::judge::{ask_move, input_with_limit, side_name};
use botzone_games::botzone::{parse_simple_line, BotzoneGame, Match, Transcript};
use botzone_games::game::{Outcome, Player as Side};
use std::io::{self, BufRead, Write};
use std::time::Duration;

const HELP: &str = "moves: the move's integers (Ataxx `x0 y0 x1 y1`, NoGo and Pencil `x y`); \
commands: new, undo, save FILE, load FILE, quit";

/// The game so far as the answers given, passes included, replayed on demand.
pub(crate) struct Session<G: BotzoneGame> {
    pub(crate) answers: Vec<Option<G::Move>>,
    pub(crate) transcript: Transcript<G>,
    /// A bot fault ends the game in the human's favour.
    pub(crate) bot_fault: Option<String>,
}

/// The bot's answer to one turn: its move as Botzone JSON (`None` a pass), or why it
/// faulted; its time and debug text.
pub(crate) struct BotTurn {
    pub verdict: Result<Option<serde_json::Value>, String>,
    pub ms: u128,
    pub debug: Option<String>,
}

impl<G: BotzoneGame> Session<G> {
    pub(crate) fn new() -> Self {
        Session { answers: Vec::new(), transcript: Transcript::new(), bot_fault: None }
    }

    pub(crate) fn answer(&mut self, mv: Option<G::Move>) -> Result<(), String> {
        self.transcript.answer(mv)?;
        self.answers.push(mv);
        Ok(())
    }

    fn replay(answers: &[Option<G::Move>]) -> Self {
        let mut s = Session::new();
        for &a in answers {
            s.answer(a).expect("answers were legal when given");
        }
        s
    }

    /// Takes back the human's last move and every answer after it; returns how many bot
    /// moves went with it (`None`: nothing to undo).
    pub(crate) fn undo(&mut self, human: Side) -> Option<usize> {
        let mut t = Transcript::<G>::new();
        let mut last_human_move = None;
        // Bot moves since the human's last move.
        let mut bot_moves = 0;
        for (i, &a) in self.answers.iter().enumerate() {
            match (t.asked() == human, a.is_some()) {
                (true, true) => (last_human_move, bot_moves) = (Some(i), 0),
                (false, true) => bot_moves += 1,
                _ => {}
            }
            t.answer(a).expect("answers were legal when given");
        }
        *self = Session::replay(&self.answers[..last_human_move?]);
        Some(bot_moves)
    }

    /// Rebuilds from a Botzone history: its moves replayed with the passes they imply.
    fn load(text: &str) -> Result<Self, String> {
        let m = Match::<G>::from_text(text).map_err(|e| e.to_string())?;
        let mut s = Session::new();
        for &mv in &m.moves {
            while s.transcript.must_pass() {
                s.answer(None)?;
            }
            s.answer(Some(mv))?;
        }
        Ok(s)
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.transcript.game().outcome()
    }
}

impl<G: ArenaGame> Session<G> {
    /// Asks the bot for the asked player's move (twice the limit on its first turn, as the
    /// judge gives) and records it; a fault ends the game in the human's favour.
    pub(crate) fn ask_bot(&mut self, bot: &mut Competitor<G>, limit: Duration, first_turn: bool) -> BotTurn {
        let t = &self.transcript;
        let (full_input, request) = (input_with_limit(t, limit), t.last_request().to_string());
        let turn = TurnInput {
            full_input: &full_input,
            request: &request,
            moves: t.moves(),
            game: t.game(),
            side: t.asked(),
            limit: if first_turn { 2 * limit } else { limit },
        };
        let asked = ask_move(bot, &turn, |mv| t.check(mv));
        let verdict = match asked.answer {
            Ok((mv, value)) => {
                self.answer(mv).expect("checked by ask_move");
                Ok(mv.map(|_| value))
            }
            Err(f) => {
                let why = format!("{}: {}", f.kind.name(), f.detail);
                self.bot_fault = Some(why.clone());
                Err(why)
            }
        };
        BotTurn { verdict, ms: asked.elapsed.as_millis(), debug: asked.debug }
    }
}

pub fn play<G: ArenaGame>(
    bot_spec: CompetitorSpec,
    human: Side,
    limit: Duration,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut s = Session::<G>::new();
    let mut bot = Competitor::<G>::new(&bot_spec);
    let mut bot_asked = false;
    writeln!(out, "{} against a bot; you play {}. {HELP}", G::NAME, side_name(human))?;
    let mut show = true;
    loop {
        let over = s.outcome().is_some() || s.bot_fault.is_some();
        if !over && s.transcript.asked() != human {
            let asked = s.ask_bot(&mut bot, limit, !bot_asked);
            bot_asked = true;
            match asked.verdict {
                Ok(None) => writeln!(out, "bot passes")?,
                Ok(Some(v)) => writeln!(out, "bot plays {v} ({} ms)", asked.ms)?,
                Err(e) => writeln!(out, "the bot faulted ({e}): you win")?,
            }
            show = true;
            continue;
        }
        if !over && s.transcript.must_pass() {
            s.answer(None).expect("a pass is due");
            writeln!(out, "you pass: the bot moves again")?;
            continue;
        }
        if show {
            writeln!(out, "{}", s.transcript.game())?;
            show = false;
        }
        if let Some(outcome) = s.outcome() {
            let text = match outcome {
                Outcome::Win(p) if p == human => "you win",
                Outcome::Win(_) => "the bot wins",
                Outcome::Draw => "a draw",
            };
            let why = s.transcript.game().end_reason().unwrap_or_default();
            writeln!(out, "game over ({why}): {text}. new, undo, save FILE, load FILE or quit?")?;
        }
        write!(out, "> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        let line = line.trim();
        let (command, arg) = line.split_once(char::is_whitespace).map_or((line, ""), |(c, a)| (c, a.trim()));
        match command {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "help" => writeln!(out, "{HELP}")?,
            "new" => {
                s = Session::new();
                // A bot that keeps a board (kept running, or an engine) starts afresh.
                bot.stop();
                bot_asked = false;
                show = true;
                writeln!(out, "new game")?;
            }
            "undo" => match s.undo(human) {
                Some(bot_moves) => {
                    bot.stop();
                    show = true;
                    let answers = match bot_moves {
                        0 => "",
                        1 => " and the bot's answer",
                        _ => " and the bot's answers",
                    };
                    writeln!(out, "took back your last move{answers}")?;
                }
                None => writeln!(out, "nothing to undo")?,
            },
            "save" if !arg.is_empty() => match std::fs::write(arg, format!("{}\n", s.transcript.input())) {
                Ok(()) => writeln!(out, "saved to {arg}")?,
                Err(e) => writeln!(out, "cannot save to {arg}: {e}")?,
            },
            "load" if !arg.is_empty() => {
                match std::fs::read_to_string(arg).map_err(|e| e.to_string()).and_then(|t| Session::load(&t)) {
                    Ok(loaded) => {
                        s = loaded;
                        bot.stop();
                        show = true;
                        writeln!(out, "loaded {arg}")?;
                    }
                    Err(e) => writeln!(out, "cannot load {arg}: {e}")?,
                }
            }
            _ if over => writeln!(out, "the game is over: new, undo, save FILE, load FILE or quit")?,
            _ => match parse_simple_line::<G>(line) {
                Ok(Some(mv)) => match s.answer(Some(mv)) {
                    Ok(()) => show = true,
                    Err(e) => writeln!(out, "illegal move: {e}")?,
                },
                Ok(None) => writeln!(out, "that is a pass; you have a move to make")?,
                Err(e) => writeln!(out, "not understood ({e}). {HELP}")?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::game::Game;
    use botzone_games::nogo;

    /// A random game that the side `last` ends with its own move.
    fn game_ended_by(last: Side) -> Session<nogo::Position> {
        let mut moves = Vec::new();
        for seed in 0.. {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut s = Session::<nogo::Position>::new();
            while s.outcome().is_none() {
                let mover = s.transcript.asked();
                s.transcript.game().legal_moves(&mut moves);
                s.answer(Some(moves[rng.usize(..moves.len())])).unwrap();
                if s.outcome().is_some() && mover == last {
                    return s;
                }
            }
        }
        unreachable!()
    }

    #[test]
    fn undo_says_whether_a_bot_answer_went_too() {
        // The human's move ended the game: there is no bot answer to take back.
        let mut s = game_ended_by(Side::First);
        let before = s.answers.len();
        assert_eq!(s.undo(Side::First), Some(0));
        assert_eq!(s.answers.len(), before - 1);
        // The bot answered last: its answer goes with the human's move.
        let mut s = game_ended_by(Side::Second);
        let before = s.answers.len();
        assert_eq!(s.undo(Side::First), Some(1));
        assert_eq!(s.answers.len(), before - 2);
        assert_eq!(Session::<nogo::Position>::new().undo(Side::First), None);
    }
}
