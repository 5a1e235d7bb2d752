//! The Botzone protocol: reading a turn's input (full JSON or simplified interaction),
//! rebuilding the position from its history with every move checked, and writing the
//! answer. See `../shared/docs/botzone.md`, section 1.

use crate::game::{Game, Player};
use serde_json::{json, Map, Value};
use std::fmt;

/// What a game needs beyond [`Game`] to speak Botzone.
pub trait BotzoneGame: Game + fmt::Display {
    /// The game's name on the command line and in error messages.
    const NAME: &'static str;
    /// Whether Botzone's simplified interaction (plain integers) is defined for the game.
    const SIMPLE_IO: bool;
    /// How many integers a move takes in simplified interaction.
    const SIMPLE_FIELDS: usize;

    fn start() -> Self;

    /// A request or response object; `None` for the "no move" form (all fields -1).
    fn parse_json_move(value: &Value) -> Result<Option<Self::Move>, String>;
    fn json_move(mv: Option<Self::Move>) -> Value;
    /// The same move as simplified interaction integers.
    fn parse_simple_move(fields: &[i64]) -> Result<Option<Self::Move>, String>;
    fn simple_move(mv: Option<Self::Move>) -> String;

    /// Plays `mv` if it is legal here, else says why not.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), String>;

    /// The request that tells the next player about `mv` (`None`: a pass or the start).
    /// Pencil adds `pass: 1` when the sender moves again and the receiver must pass.
    fn request_json(mv: Option<Self::Move>, _sender_moves_again: bool) -> Value {
        Self::json_move(mv)
    }

    /// Whether a request object claims that its sender moves again (Pencil's `pass: 1`).
    fn request_claims_extra_turn(_request: &Value) -> Option<bool> {
        None
    }

    /// Moves our bot never plays at the root although the judge allows them (a course
    /// rule: NoGo's black may not open at the centre).
    fn avoid_at_root(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether a random opening may use this move (Pencil: only edges that take no box).
    fn fits_random_opening(&self, _mv: Self::Move) -> bool {
        true
    }

    /// Every response the judge accepts (moves, not pass) — for `--legal`.
    fn legal_responses(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
    }

    /// Leaf count `depth` plies ahead.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.outcome().is_some() {
            return u64::from(depth == 0 && self.outcome().is_none());
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// Why an input could not be answered. Shown as one line on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// The input is not a Botzone turn at all.
    Syntax(String),
    /// The history contains a move the judge would reject.
    Illegal { turn: usize, entry: Entry, mv: String, reason: String },
    /// The history is legal but the game is already over.
    GameOver { turn: usize },
}

/// Which list of the history an entry comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    Request,
    Response,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            InputError::Syntax(what) => write!(f, "bad input: {what}"),
            InputError::Illegal { turn, entry, mv, reason } => {
                let which = match entry {
                    Entry::Request => "request",
                    Entry::Response => "response",
                };
                write!(f, "illegal move in history: turn {turn}, {which} {mv}: {reason}")
            }
            InputError::GameOver { turn } => {
                write!(f, "bad input: the game is already over at turn {turn}, nothing to answer")
            }
        }
    }
}

impl std::error::Error for InputError {}

fn syntax(what: impl Into<String>) -> InputError {
    InputError::Syntax(what.into())
}

/// How the turn was written, so the answer goes back in the same form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Simple,
}

/// A turn's input: the history in order (requests\[0\], responses\[0\], requests\[1\], ...,
/// the last request), plus the optional fields Botzone may send.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn<M> {
    pub format: Format,
    pub requests: Vec<Option<M>>,
    pub responses: Vec<Option<M>>,
    /// Pencil's `pass` flag of each request, where present.
    pub extra_turn_claims: Vec<Option<bool>>,
    /// The `time_limit` field, if any, in milliseconds.
    pub time_limit_ms: Option<u64>,
}

impl<M> Turn<M> {
    /// Botzone's turn number: how many responses we already gave.
    pub fn number(&self) -> usize {
        self.responses.len()
    }
}

/// Parses one turn. `first_line` is the first non-blank line of the input; the rest of the
/// lines (simplified interaction only) are pulled from `more_lines`.
pub fn parse_turn<G: BotzoneGame>(
    first_line: &str,
    more_lines: &mut dyn FnMut() -> Option<String>,
) -> Result<Turn<G::Move>, InputError> {
    let first = first_line.trim();
    if first.is_empty() {
        return Err(syntax("empty input"));
    }
    if first.starts_with('{') {
        parse_json_turn::<G>(first)
    } else if G::SIMPLE_IO {
        parse_simple_turn::<G>(first, more_lines)
    } else {
        Err(syntax(format!(
            "expected a JSON object (simplified interaction is not defined for {}), got {:?}",
            G::NAME,
            clip(first)
        )))
    }
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
}

fn parse_json_turn<G: BotzoneGame>(line: &str) -> Result<Turn<G::Move>, InputError> {
    let value: Value = serde_json::from_str(line).map_err(|e| syntax(format!("invalid JSON: {e}")))?;
    let object = value.as_object().ok_or_else(|| syntax("the input is not a JSON object"))?;
    let list = |key: &str| -> Result<&Vec<Value>, InputError> {
        object
            .get(key)
            .ok_or_else(|| syntax(format!("missing field \"{key}\"")))?
            .as_array()
            .ok_or_else(|| syntax(format!("field \"{key}\" is not an array")))
    };
    let requests = list("requests")?;
    let responses = list("responses")?;
    if requests.len() != responses.len() + 1 {
        return Err(syntax(format!(
            "\"requests\" must have one more element than \"responses\" (got {} and {})",
            requests.len(),
            responses.len()
        )));
    }
    let parse_all = |values: &[Value], entry: Entry| {
        values
            .iter()
            .enumerate()
            .map(|(turn, v)| {
                G::parse_json_move(v).map_err(|reason| InputError::Illegal {
                    turn,
                    entry,
                    mv: clip(&v.to_string()),
                    reason,
                })
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let time_limit_ms = match object.get("time_limit") {
        None | Some(Value::Null) => None,
        Some(v) => Some(time_limit_ms(v).ok_or_else(|| syntax(format!("bad time_limit {v}")))?),
    };
    Ok(Turn {
        format: Format::Json,
        requests: parse_all(requests, Entry::Request)?,
        responses: parse_all(responses, Entry::Response)?,
        extra_turn_claims: requests.iter().map(G::request_claims_extra_turn).collect(),
        time_limit_ms,
    })
}

/// Botzone documents `time_limit` without a unit: small numbers are read as seconds,
/// larger ones as milliseconds.
fn time_limit_ms(v: &Value) -> Option<u64> {
    let t = v.as_f64()?;
    if !(t > 0.0 && t.is_finite()) {
        return None;
    }
    let ms = if t <= 60.0 { t * 1000.0 } else { t };
    Some(ms.min(3_600_000.0) as u64)
}

fn parse_simple_turn<G: BotzoneGame>(
    first: &str,
    more_lines: &mut dyn FnMut() -> Option<String>,
) -> Result<Turn<G::Move>, InputError> {
    let n: usize =
        first.parse().map_err(|_| syntax(format!("expected a JSON object or a turn count, got {:?}", clip(first))))?;
    if n == 0 || n > 10_000 {
        return Err(syntax(format!("turn count {n} out of range 1..=10000")));
    }
    let mut requests = Vec::with_capacity(n);
    let mut responses = Vec::with_capacity(n);
    for k in 0..2 * n - 1 {
        let (turn, entry) = (k / 2, if k % 2 == 0 { Entry::Request } else { Entry::Response });
        let line =
            more_lines().ok_or_else(|| syntax(format!("input ends after {k} of the {} move lines", 2 * n - 1)))?;
        let mv = parse_simple_line::<G>(&line).map_err(|reason| InputError::Illegal {
            turn,
            entry,
            mv: format!("{:?}", clip(line.trim())),
            reason,
        })?;
        match entry {
            Entry::Request => requests.push(mv),
            Entry::Response => responses.push(mv),
        }
    }
    Ok(Turn {
        format: Format::Simple,
        extra_turn_claims: vec![None; requests.len()],
        requests,
        responses,
        time_limit_ms: None,
    })
}

/// One simplified-interaction move line: `G::SIMPLE_FIELDS` integers.
pub fn parse_simple_line<G: BotzoneGame>(line: &str) -> Result<Option<G::Move>, String> {
    let fields = line
        .split_whitespace()
        .map(|f| f.parse::<i64>().map_err(|_| format!("{f:?} is not an integer")))
        .collect::<Result<Vec<_>, _>>()?;
    if fields.len() != G::SIMPLE_FIELDS {
        return Err(format!("expected {} integers, got {}", G::SIMPLE_FIELDS, fields.len()));
    }
    G::parse_simple_move(&fields)
}

/// Reads an integer field of a move object.
pub fn int_field(object: &Map<String, Value>, key: &str) -> Result<i64, String> {
    let v = object.get(key).ok_or_else(|| format!("missing field \"{key}\""))?;
    v.as_i64().ok_or_else(|| format!("field \"{key}\" is not an integer: {v}"))
}

/// The object form of a move value, or an error naming what it is instead.
pub fn move_object(value: &Value) -> Result<&Map<String, Value>, String> {
    value.as_object().ok_or_else(|| format!("a move must be a JSON object, got {value}"))
}

/// A game rebuilt from a Botzone history, from our side's point of view.
#[derive(Debug, Clone)]
pub struct Match<G: BotzoneGame> {
    pub game: G,
    pub us: Player,
    /// Every move played so far, in order.
    pub moves: Vec<G::Move>,
    /// The next Botzone turn number (requests received so far).
    pub turn: usize,
}

impl<G: BotzoneGame> Match<G> {
    /// Parses a whole turn's input held in memory (either form; blank lines skipped) and
    /// replays its history with every move checked.
    pub fn from_text(text: &str) -> Result<Match<G>, InputError> {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string);
        let first = lines.next().unwrap_or_default();
        Match::rebuild(&parse_turn::<G>(&first, &mut || lines.next())?)
    }

    /// Replays a whole history with every move checked.
    pub fn rebuild(turn: &Turn<G::Move>) -> Result<Match<G>, InputError> {
        let us = if turn.requests[0].is_none() { Player::First } else { Player::Second };
        let mut m = Match { game: G::start(), us, moves: Vec::new(), turn: 0 };
        for (k, request) in turn.requests.iter().enumerate() {
            if k > 0 {
                m.apply(k - 1, Entry::Response, turn.responses[k - 1])?;
            }
            m.apply_request(*request, turn.extra_turn_claims.get(k).copied().flatten())?;
        }
        Ok(m)
    }

    /// Applies this turn's request (the opponent's last answer). Our colour is fixed by
    /// the first request, which for the first player is the "no move" form.
    pub fn apply_request(&mut self, request: Option<G::Move>, extra_turn: Option<bool>) -> Result<(), InputError> {
        let k = self.turn;
        if !(k == 0 && self.us == Player::First) {
            self.apply(k, Entry::Request, request)?;
        }
        if let Some(claim) = extra_turn {
            let opponent_moves_again = self.game.outcome().is_none() && self.game.to_move() != self.us;
            if claim != opponent_moves_again {
                return Err(InputError::Illegal {
                    turn: k,
                    entry: Entry::Request,
                    mv: G::json_move(request).to_string(),
                    reason: format!(
                        "pass flag is {} but the opponent {} move again",
                        claim as u8,
                        if opponent_moves_again { "does" } else { "does not" }
                    ),
                });
            }
        }
        self.turn += 1;
        if self.game.outcome().is_some() {
            return Err(InputError::GameOver { turn: k });
        }
        Ok(())
    }

    /// Applies our own answer for the current turn (keep-running mode).
    pub fn apply_response(&mut self, response: Option<G::Move>) -> Result<(), InputError> {
        self.apply(self.turn - 1, Entry::Response, response)
    }

    /// Whether the rules let us move now (false: we must answer with a pass).
    pub fn our_move(&self) -> bool {
        self.game.to_move() == self.us
    }

    fn apply(&mut self, turn: usize, entry: Entry, mv: Option<G::Move>) -> Result<(), InputError> {
        let by = if entry == Entry::Response { self.us } else { self.us.other() };
        let illegal = |mv: String, reason: String| InputError::Illegal { turn, entry, mv, reason };
        if self.game.outcome().is_some() {
            return Err(InputError::GameOver { turn });
        }
        match mv {
            None if self.game.to_move() == by => {
                Err(illegal(G::json_move(None).to_string(), "a pass, but it is this side's move".into()))
            }
            None => Ok(()),
            Some(mv) if self.game.to_move() != by => {
                Err(illegal(G::json_move(Some(mv)).to_string(), "played out of turn".into()))
            }
            Some(mv) => {
                self.game.try_play(mv).map_err(|reason| illegal(G::json_move(Some(mv)).to_string(), reason))?;
                self.moves.push(mv);
                Ok(())
            }
        }
    }
}

/// Our answer in the input's format: a JSON line `{"response":..,"debug":..}`, or the
/// simplified move line followed by the debug line.
pub fn format_answer<G: BotzoneGame>(format: Format, mv: Option<G::Move>, debug: &str) -> String {
    match format {
        Format::Json => json!({"response": G::json_move(mv), "debug": debug}).to_string(),
        Format::Simple => format!("{}\n{}", G::simple_move(mv), debug.replace('\n', " ")),
    }
}

/// The marker that asks Botzone to keep the process running between turns.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Parses the one-line request of a kept-running turn.
pub fn parse_request_line<G: BotzoneGame>(
    format: Format,
    line: &str,
) -> Result<(Option<G::Move>, Option<bool>), String> {
    let line = line.trim();
    match format {
        Format::Simple => parse_simple_line::<G>(line).map(|mv| (mv, None)),
        Format::Json => {
            let value: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
            Ok((G::parse_json_move(&value)?, G::request_claims_extra_turn(&value)))
        }
    }
}

/// A game as the Botzone platform runs it: the two players are asked strictly in turn,
/// each request carries the other player's last answer, and in Pencil a player whose
/// opponent keeps the turn must answer with a pass. The arena judges with this, and
/// tests use it to write histories.
#[derive(Debug, Clone)]
pub struct Transcript<G: BotzoneGame> {
    game: G,
    requests: [Vec<Value>; 2],
    responses: [Vec<Value>; 2],
    asked: Player,
    moves: Vec<G::Move>,
}

impl<G: BotzoneGame> Default for Transcript<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: BotzoneGame> Transcript<G> {
    pub fn new() -> Transcript<G> {
        Transcript {
            game: G::start(),
            requests: [vec![G::request_json(None, false)], Vec::new()],
            responses: [Vec::new(), Vec::new()],
            asked: Player::First,
            moves: Vec::new(),
        }
    }

    pub fn game(&self) -> &G {
        &self.game
    }
    /// Every move played, in order (passes left out).
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }
    /// The player the platform asks next.
    pub fn asked(&self) -> Player {
        self.asked
    }
    /// Whether the asked player must pass (Pencil, after the opponent completed a box).
    pub fn must_pass(&self) -> bool {
        self.game.to_move() != self.asked
    }
    /// How many answers `player` has given.
    pub fn answers(&self, player: Player) -> usize {
        self.responses[player.index()].len()
    }

    /// The full JSON input the asked player gets now.
    pub fn input(&self) -> Value {
        let i = self.asked.index();
        json!({"requests": self.requests[i], "responses": self.responses[i]})
    }

    /// This turn's request alone (what a kept-running bot reads).
    pub fn last_request(&self) -> &Value {
        self.requests[self.asked.index()].last().expect("the asked player always has a request")
    }

    /// Records the asked player's answer, or says why the judge rejects it.
    pub fn answer(&mut self, answer: Option<G::Move>) -> Result<(), String> {
        if self.game.outcome().is_some() {
            return Err("the game is over".into());
        }
        match (answer, self.must_pass()) {
            (None, false) => return Err("answered with a pass but it had to move".into()),
            (Some(_), true) => return Err("moved but had to pass: the opponent moves again".into()),
            (Some(mv), false) => {
                self.game.try_play(mv)?;
                self.moves.push(mv);
            }
            (None, true) => {}
        }
        let me = self.asked;
        self.responses[me.index()].push(G::json_move(answer));
        let again = self.game.outcome().is_none() && self.game.to_move() == me;
        self.requests[me.other().index()].push(G::request_json(answer, again));
        self.asked = me.other();
        Ok(())
    }
}
