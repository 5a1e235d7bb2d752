//! The Botzone protocol: reading a turn's input (full JSON or simplified interaction),
//! rebuilding the position from its history with every move checked, kept-running
//! request lines, and writing the answer. The rules themselves are each game's
//! [`Rules`]; `docs/botzone.md` describes the protocol and the judges.

use crate::game::{Player, Rules};
use serde_json::{json, Map, Value};
use std::fmt;

/// How a game's moves are written in Botzone's protocol.
pub trait BotzoneGame: Rules {
    /// Whether Botzone's simplified interaction (plain integers) is defined for the game.
    const SIMPLE_IO: bool;
    /// How many integers a move takes in simplified interaction.
    const SIMPLE_FIELDS: usize;

    /// A request or response object; `None` for the "no move" form (all fields -1).
    /// An error says why the value is not a move of this game (its form, not its legality).
    fn parse_json_move(value: &Value) -> Result<Option<Self::Move>, String>;
    fn json_move(mv: Option<Self::Move>) -> Value;
    /// The same move as simplified interaction integers.
    fn parse_simple_move(fields: &[i64]) -> Result<Option<Self::Move>, String>;
    fn simple_move(mv: Option<Self::Move>) -> String;

    /// The request that tells the next player about `mv` (`None`: a pass or the start).
    /// Pencil adds `pass: 1` when the sender moves again and the receiver must pass.
    fn request_json(mv: Option<Self::Move>, _sender_moves_again: bool) -> Value {
        Self::json_move(mv)
    }

    /// Whether a request object claims that its sender moves again (Pencil's `pass: 1`).
    fn request_claims_extra_turn(_request: &Value) -> Option<bool> {
        None
    }
}

/// Why an input could not be answered. Shown as one line on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// The input is not a Botzone turn at all (not JSON, wrong shape, missing lists).
    Syntax(String),
    /// An entry of the history is not a move of this game (wrong fields, off the board).
    Malformed { at: At, text: String, reason: String },
    /// A well-formed move that the judge would reject.
    Illegal { at: At, mv: String, reason: String },
    /// The history is legal but the game is already over.
    GameOver { turn: usize },
}

/// Where in the history an entry stands: Botzone's turn number and which list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub turn: usize,
    pub entry: Entry,
}

/// Which list of the history an entry comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    Request,
    Response,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let which = match self.entry {
            Entry::Request => "request",
            Entry::Response => "response",
        };
        write!(f, "turn {}, {which}", self.turn)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            InputError::Syntax(what) => write!(f, "bad input: {what}"),
            InputError::Malformed { at, text, reason } => write!(f, "bad move in history: {at} {text}: {reason}"),
            InputError::Illegal { at, mv, reason } => write!(f, "illegal move in history: {at} {mv}: {reason}"),
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
    /// The `data` string our bot saved with its last answer (JSON form only; empty is
    /// none). What it holds is the bot's business: the protocol only carries it.
    pub data: Option<String>,
    /// Optional fields that could not be read and were ignored (for stderr).
    pub warnings: Vec<String>,
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

/// Parses a whole turn's input held in memory: one JSON object, on one line or spread over
/// several (as a user pipes a pretty-printed fixture), or simplified interaction; a UTF-8
/// byte order mark and blank lines are skipped.
pub fn parse_turn_text<G: BotzoneGame>(text: &str) -> Result<Turn<G::Move>, InputError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text).trim();
    if text.starts_with('{') {
        return parse_json_turn::<G>(text);
    }
    let mut lines = text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string);
    let first = lines.next().unwrap_or_default();
    parse_turn::<G>(&first, &mut || lines.next())
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
}

fn parse_json_turn<G: BotzoneGame>(line: &str) -> Result<Turn<G::Move>, InputError> {
    parse_json_value::<G>(&serde_json::from_str(line).map_err(json_syntax)?)
}

/// Why a turn's text is not JSON, in the same words whichever reader found it.
pub fn json_syntax(e: serde_json::Error) -> InputError {
    if e.is_eof() {
        syntax(format!("the input must be one JSON object, and it ends inside it ({e})"))
    } else {
        syntax(format!("invalid JSON: {e}"))
    }
}

/// A turn from its JSON value (the object with `requests`, `responses` and the optional
/// fields).
pub fn parse_json_value<G: BotzoneGame>(value: &Value) -> Result<Turn<G::Move>, InputError> {
    let object = value.as_object().ok_or_else(|| syntax("the input must be one JSON object"))?;
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
            .map(|(turn, v)| parse_json_entry::<G>(v, At { turn, entry }))
            .collect::<Result<Vec<_>, _>>()
    };
    // An optional field that can't be read must not lose the game: ignored, with a word.
    let mut warnings = Vec::new();
    let time_limit_ms = match object.get("time_limit") {
        None | Some(Value::Null) => None,
        Some(v) => time_limit_ms(v).or_else(|| {
            warnings.push(format!("time_limit {} is not a positive number of seconds: ignored", clip(&v.to_string())));
            None
        }),
    };
    let data = match object.get("data") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()).filter(|t| !t.is_empty()),
        Some(v) => {
            warnings.push(format!("data {} is not a string: ignored", clip(&v.to_string())));
            None
        }
    };
    Ok(Turn {
        format: Format::Json,
        requests: parse_all(requests, Entry::Request)?,
        responses: parse_all(responses, Entry::Response)?,
        extra_turn_claims: requests.iter().map(G::request_claims_extra_turn).collect(),
        time_limit_ms,
        data,
        warnings,
    })
}

fn parse_simple_entry<G: BotzoneGame>(line: &str, at: At) -> Result<Option<G::Move>, InputError> {
    parse_simple_line::<G>(line).map_err(|reason| InputError::Malformed {
        at,
        text: format!("{:?}", clip(line.trim())),
        reason,
    })
}

fn parse_json_entry<G: BotzoneGame>(value: &Value, at: At) -> Result<Option<G::Move>, InputError> {
    G::parse_json_move(value).map_err(|reason| InputError::Malformed { at, text: clip(&value.to_string()), reason })
}

/// Botzone documents `time_limit` without a unit: small numbers are read as seconds,
/// larger ones as milliseconds. A number in a string is read the same way.
fn time_limit_ms(v: &Value) -> Option<u64> {
    let t = match v {
        Value::String(text) => text.trim().parse::<f64>().ok()?,
        _ => v.as_f64()?,
    };
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
        let mv = parse_simple_entry::<G>(&line, At { turn, entry })?;
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
        data: None,
        warnings: Vec::new(),
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
    // `4.0` and `1e0` are integers written otherwise: unambiguous, so accepted.
    let integral = || v.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= 1e9).map(|f| f as i64);
    v.as_i64().or_else(integral).ok_or_else(|| format!("field \"{key}\" is not an integer: {v}"))
}

/// The object form of a move value, or an error naming what it is instead.
pub fn move_object(value: &Value) -> Result<&Map<String, Value>, String> {
    value.as_object().ok_or_else(|| format!("a move must be a JSON object, got {value}"))
}

/// A game rebuilt from a Botzone history, from our side's point of view, with the history
/// kept in Botzone's JSON form (what a fresh bot process is fed).
#[derive(Debug, Clone)]
pub struct Match<G: BotzoneGame> {
    pub game: G,
    pub us: Player,
    /// Every move played so far, in order.
    pub moves: Vec<G::Move>,
    /// The next Botzone turn number (requests received so far).
    pub turn: usize,
    /// How the input was written: answers go back in the same form.
    pub format: Format,
    /// The input's `time_limit`, in milliseconds, if it gave one.
    pub time_limit_ms: Option<u64>,
    /// Fields that could not be read and were ignored, not yet reported.
    pub warnings: Vec<String>,
    requests: Vec<Value>,
    responses: Vec<Value>,
}

impl<G: BotzoneGame> Match<G> {
    /// Parses a whole turn's input held in memory (either form; blank lines skipped) and
    /// replays its history with every move checked.
    pub fn from_text(text: &str) -> Result<Match<G>, InputError> {
        Match::rebuild(&parse_turn_text::<G>(text)?)
    }

    /// Replays a whole history with every move checked.
    pub fn rebuild(turn: &Turn<G::Move>) -> Result<Match<G>, InputError> {
        let us = if turn.requests[0].is_none() { Player::First } else { Player::Second };
        let mut m = Match {
            game: G::start(),
            us,
            moves: Vec::new(),
            turn: 0,
            format: turn.format,
            time_limit_ms: turn.time_limit_ms,
            warnings: turn.warnings.clone(),
            requests: Vec::new(),
            responses: Vec::new(),
        };
        for (k, request) in turn.requests.iter().enumerate() {
            if k > 0 {
                m.apply_response(turn.responses[k - 1])?;
            }
            m.apply_request(*request, turn.extra_turn_claims.get(k).copied().flatten())?;
        }
        Ok(m)
    }

    /// Applies one line of a kept-running bot's input: this turn's request in the match's
    /// form, or a whole new history (Botzone may send one), which replaces the match.
    pub fn apply_line(&mut self, line: &str) -> Result<(), InputError> {
        let line = line.trim();
        if line.starts_with('{') && line.contains("\"requests\"") {
            let turn = parse_turn::<G>(line, &mut || None)?;
            let time_limit_ms = turn.time_limit_ms.or(self.time_limit_ms);
            *self = Match::rebuild(&turn)?;
            self.time_limit_ms = time_limit_ms;
            return Ok(());
        }
        let at = At { turn: self.turn, entry: Entry::Request };
        let (request, claim) = match self.format {
            Format::Simple => (parse_simple_entry::<G>(line, at)?, None),
            Format::Json => {
                let value: Value = serde_json::from_str(line).map_err(|e| InputError::Malformed {
                    at,
                    text: clip(line),
                    reason: format!("invalid JSON: {e}"),
                })?;
                (parse_json_entry::<G>(&value, at)?, G::request_claims_extra_turn(&value))
            }
        };
        self.apply_request(request, claim)
    }

    /// Applies this turn's request (the opponent's last answer). Our colour is fixed by
    /// the first request, which for the first player is the "no move" form.
    pub fn apply_request(&mut self, request: Option<G::Move>, extra_turn: Option<bool>) -> Result<(), InputError> {
        let k = self.turn;
        let at = At { turn: k, entry: Entry::Request };
        if !(k == 0 && self.us == Player::First) {
            self.apply(at, request)?;
        }
        // A request after the end is that, whatever its pass flag claims.
        if self.game.outcome().is_some() {
            return Err(InputError::GameOver { turn: k });
        }
        if let Some(claim) = extra_turn {
            let opponent_moves_again = self.game.to_move() != self.us;
            if claim != opponent_moves_again {
                return Err(InputError::Illegal {
                    at,
                    mv: G::json_move(request).to_string(),
                    reason: format!(
                        "pass flag is {} but the opponent {} move again",
                        claim as u8,
                        if opponent_moves_again { "does" } else { "does not" }
                    ),
                });
            }
        }
        self.requests.push(match extra_turn {
            Some(claim) => G::request_json(request, claim),
            None => G::json_move(request),
        });
        self.turn += 1;
        Ok(())
    }

    /// Applies our own answer for the current turn.
    pub fn apply_response(&mut self, response: Option<G::Move>) -> Result<(), InputError> {
        self.apply(At { turn: self.turn - 1, entry: Entry::Response }, response)?;
        self.responses.push(G::json_move(response));
        Ok(())
    }

    /// Whether the rules let us move now (false: we must answer with a pass).
    pub fn our_move(&self) -> bool {
        self.game.to_move() == self.us
    }

    /// Why the judge would reject `answer` from us now, if it would: a pass is due exactly
    /// when it is not our move, else the move must be legal.
    pub fn check(&self, answer: Option<G::Move>) -> Result<(), String> {
        check_answer(&self.game, self.us, answer)
    }

    /// This turn's request in JSON (what a kept-running bot reads).
    pub fn last_request_json(&self) -> &Value {
        self.requests.last().expect("a match has at least one request")
    }

    /// The whole history as Botzone's JSON input (what a fresh bot process reads).
    pub fn history_json(&self) -> Value {
        json!({"requests": self.requests, "responses": self.responses})
    }

    fn apply(&mut self, at: At, mv: Option<G::Move>) -> Result<(), InputError> {
        let by = if at.entry == Entry::Response { self.us } else { self.us.other() };
        let illegal = |mv: String, reason: String| InputError::Illegal { at, mv, reason };
        if self.game.outcome().is_some() {
            return Err(InputError::GameOver { turn: at.turn });
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

/// The judge's verdict on `answer` from `by` in `game`: a pass exactly when the rules give
/// the move to the other side (Pencil after a completed box), else a legal move.
fn check_answer<G: Rules>(game: &G, by: Player, answer: Option<G::Move>) -> Result<(), String> {
    if game.outcome().is_some() {
        return Err("the game is over".into());
    }
    match (answer, game.to_move() == by) {
        (None, true) => Err("answered with a pass but it had to move".into()),
        (Some(_), false) => Err("moved but had to pass: the opponent moves again".into()),
        (Some(mv), true) => game.clone().try_play(mv),
        (None, false) => Ok(()),
    }
}

/// Botzone keeps at most this much of a turn's `data` ("100 KB", read as 100,000 bytes,
/// the smaller of its two readings).
pub const MAX_DATA_BYTES: usize = 100_000;

/// Our answer in the input's format: a JSON line `{"response":..,"debug":..,"data":..}`
/// (`data` only when there is some), or the simplified move line followed by the debug
/// line (simplified interaction carries no data here).
pub fn format_answer<G: BotzoneGame>(format: Format, mv: Option<G::Move>, debug: &str, data: Option<&str>) -> String {
    match format {
        Format::Json => match data {
            Some(data) => json!({"response": G::json_move(mv), "debug": debug, "data": data}).to_string(),
            None => json!({"response": G::json_move(mv), "debug": debug}).to_string(),
        },
        Format::Simple => format!("{}\n{}", G::simple_move(mv), debug.replace('\n', " ")),
    }
}

/// The marker that asks Botzone to keep the process running between turns.
pub const KEEP_RUNNING_MARKER: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

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

    /// Why the judge would reject `answer` from the asked player now, if it would.
    pub fn check(&self, answer: Option<G::Move>) -> Result<(), String> {
        check_answer(&self.game, self.asked, answer)
    }

    /// Records the asked player's answer, or says why the judge rejects it.
    pub fn answer(&mut self, answer: Option<G::Move>) -> Result<(), String> {
        self.check(answer)?;
        if let Some(mv) = answer {
            self.game.play(mv);
            self.moves.push(mv);
        }
        let me = self.asked;
        self.responses[me.index()].push(G::json_move(answer));
        let again = self.game.outcome().is_none() && self.game.to_move() == me;
        self.requests[me.other().index()].push(G::request_json(answer, again));
        self.asked = me.other();
        Ok(())
    }
}
