//! The play page's games: a human against a bot the server was started with, the human's
//! moves checked by the judge's rules, the bot asked as the judge asks it (its time limit,
//! its faults), each game kept as an arena log line so the replay page draws it the same way.

use super::view::{game_view, BoardView};
use crate::competitor::{Competitor, CompetitorSpec};
use crate::games::GameName;
use crate::human::Session;
use crate::judge::side_name;
use crate::with_game;
use botzone_games::game::{Outcome, Player};
use serde_json::{json, Value};
use std::time::Duration;

/// A bot the play page offers: its game, the name shown, and how to run it.
#[derive(Debug, Clone)]
pub struct BotChoice {
    pub game: GameName,
    pub label: String,
    pub spec: CompetitorSpec,
}

/// One game being played, whatever the game.
pub trait PlayGame: Send {
    /// The game as the replay page's view, plus who is who.
    fn state(&self) -> Value;
    /// Plays the human's move (Botzone JSON), then lets the bot answer until it is the
    /// human's turn again or the game is over.
    fn human_move(&mut self, mv: &Value) -> Result<(), String>;
    /// Takes back the human's last move and the bot's answers to it; false if none.
    fn undo(&mut self) -> bool;
    /// The game as a Botzone history: the input of the player to move (a fixture).
    fn history(&self) -> Value;
    /// The game as an arena log line.
    fn log_record(&self) -> Value;
}

/// Starts a game; the bot moves at once if it plays first.
pub fn start(choice: &BotChoice, human: Player, limit: Duration) -> Box<dyn PlayGame> {
    with_game!(choice.game, G => {
        let mut play = Play::<G> {
            session: Session::new(),
            bot: Competitor::new(&choice.spec),
            label: choice.label.clone(),
            game_type: choice.game,
            human,
            limit,
            bot_asked: false,
            turns: Vec::new(),
        };
        play.bot_turns();
        Box::new(play)
    })
}

struct Play<G: BoardView> {
    session: Session<G>,
    bot: Competitor<G>,
    label: String,
    game_type: GameName,
    human: Player,
    limit: Duration,
    bot_asked: bool,
    /// One per answer in `session.answers` (passes included), as the arena logs turns; a
    /// bot fault adds a last turn with no move.
    turns: Vec<Value>,
}

impl<G: BoardView> Play<G> {
    fn over(&self) -> bool {
        self.session.outcome().is_some() || self.session.bot_fault.is_some()
    }

    /// The bot's turns (and the human's forced passes) until the human has a move to make.
    fn bot_turns(&mut self) {
        while !self.over() {
            let asked = self.session.transcript.asked();
            if asked == self.human {
                if !self.session.transcript.must_pass() {
                    return;
                }
                self.session.answer(None).expect("a pass is due");
                self.turns.push(json!({"by": side_name(asked), "move": G::json_move(None), "ms": 0}));
                continue;
            }
            let turn = self.session.ask_bot(&mut self.bot, self.limit, !self.bot_asked);
            self.bot_asked = true;
            let mv = match &turn.verdict {
                Ok(Some(value)) => value.clone(),
                Ok(None) => G::json_move(None),
                Err(_) => Value::Null,
            };
            let mut logged = json!({"by": side_name(asked), "move": mv, "ms": turn.ms});
            if let Some(debug) = turn.debug.or_else(|| turn.verdict.as_ref().err().cloned()) {
                logged["debug"] = json!(debug);
            }
            self.turns.push(logged);
        }
    }

    fn result(&self) -> (Value, String) {
        if let Some(fault) = &self.session.bot_fault {
            return (json!(side_name(self.human)), format!("the bot faulted: {fault}"));
        }
        match self.session.outcome() {
            None => (Value::Null, String::new()),
            Some(outcome) => {
                let reason = self.session.transcript.game().end_reason().unwrap_or_default();
                let result = match outcome {
                    Outcome::Win(p) => side_name(p),
                    Outcome::Draw => "draw",
                };
                (json!(result), reason)
            }
        }
    }
}

impl<G: BoardView> PlayGame for Play<G> {
    fn state(&self) -> Value {
        let record = self.log_record();
        let mut view = game_view(&record).unwrap_or_else(|e| json!({"error": e}));
        view["human"] = json!(side_name(self.human));
        view["bot"] = json!(self.label);
        view["over"] = json!(self.over());
        view["fault"] = json!(self.session.bot_fault);
        view
    }

    fn human_move(&mut self, mv: &Value) -> Result<(), String> {
        if self.over() {
            return Err("the game is over".into());
        }
        let t = &self.session.transcript;
        if t.asked() != self.human {
            return Err("it is the bot's turn".into());
        }
        let parsed = G::parse_json_move(mv)?.ok_or("a pass: you have a move to make")?;
        t.check(Some(parsed)).map_err(|e| format!("illegal move: {e}"))?;
        self.session.answer(Some(parsed))?;
        self.turns.push(json!({"by": side_name(self.human), "move": G::json_move(Some(parsed)), "ms": 0}));
        self.bot_turns();
        Ok(())
    }

    fn undo(&mut self) -> bool {
        if self.session.undo(self.human).is_none() {
            return false;
        }
        self.turns.truncate(self.session.answers.len());
        // A bot that keeps a board (kept running, or an engine) starts again from the
        // history; its first answer after this gets the normal limit.
        self.bot.stop();
        self.session.bot_fault = None;
        self.bot_turns();
        true
    }

    fn history(&self) -> Value {
        // What the player to move is given now, as `arena play`'s save writes it.
        self.session.transcript.input()
    }

    fn log_record(&self) -> Value {
        let (human, bot) = ("human", self.label.as_str());
        let (first, second) = if self.human == Player::First { (human, bot) } else { (bot, human) };
        let (result, reason) = self.result();
        json!({
            "game_type": self.game_type.name(),
            "game": 0,
            "players": {"first": first, "second": second},
            "opening": [],
            "moves": self.turns,
            "result": result,
            "reason": reason,
        })
    }
}
