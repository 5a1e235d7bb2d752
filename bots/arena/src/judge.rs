//! One game between two bots, adjudicated with the shared crate's rules through Botzone's
//! turn order (Pencil's pass turns included), and the one way every tool asks a bot for a
//! turn ([`ask_move`]).

use crate::competitor::{Competitor, CompetitorSpec, TurnInput};
use crate::games::ArenaGame;
use crate::runner::{Fault, FaultKind};
use botzone_games::botzone::{BotzoneGame, Transcript};
use botzone_games::game::{forces_win, Outcome, Player};
use serde_json::{json, Value};
use std::time::Duration;

/// One answer in a game record.
#[derive(Debug, Clone)]
pub struct Turn {
    pub by: Player,
    /// The answer as the bot gave it (a pass included).
    pub answer: Value,
    pub ms: u64,
    /// The answer's debug text (our bots: the search's summary and value).
    pub debug: Option<String>,
}

#[derive(Debug, Clone)]
pub struct GameRecord {
    pub index: usize,
    /// Whether bot A played first.
    pub a_first: bool,
    pub opening: Vec<Value>,
    pub turns: Vec<Turn>,
    pub outcome: Outcome,
    pub reason: String,
    /// The side that lost by a fault, and the fault.
    pub fault: Option<(Player, Fault)>,
    /// By side (first, second): how often a kept-running bot exited and was restarted.
    pub restarts: [u32; 2],
    /// By side: the peak resident memory of a kept-running process, in KB, where known.
    pub peak_kb: [Option<u64>; 2],
    /// CPU time the host took from the machine while the game was played, all CPUs
    /// together ([`crate::runner::stolen_ms`]; games played beside it share the figure).
    pub stolen_ms: Option<u64>,
    /// The machine that played it ([`crate::runner::host`]), where the log says.
    pub host: Option<String>,
}

impl GameRecord {
    /// A's score: 1, 0.5 or 0.
    pub fn score_a(&self) -> f64 {
        self.outcome.reward(if self.a_first { Player::First } else { Player::Second })
    }

    pub fn to_json(&self, game: &str, a: &str, b: &str) -> Value {
        let (first, second) = if self.a_first { (a, b) } else { (b, a) };
        let result = match self.outcome {
            Outcome::Win(Player::First) => "first",
            Outcome::Win(Player::Second) => "second",
            Outcome::Draw => "draw",
        };
        json!({
            "game_type": game,
            "game": self.index,
            "players": {"first": first, "second": second},
            "a_first": self.a_first,
            "opening": self.opening,
            "moves": self.turns.iter().map(|t| {
                let mut turn = json!({
                    "by": side_name(t.by),
                    "move": t.answer,
                    "ms": t.ms,
                });
                if let Some(debug) = &t.debug {
                    turn["debug"] = json!(debug);
                }
                turn
            }).collect::<Vec<_>>(),
            "result": result,
            "score_a": self.score_a(),
            "reason": self.reason,
            "restarts": {"first": self.restarts[0], "second": self.restarts[1]},
            "peak_kb": {"first": self.peak_kb[0], "second": self.peak_kb[1]},
            "stolen_ms": self.stolen_ms,
            "host": self.host,
            "fault": self.fault.as_ref().map(|(p, f)| json!({
                "by": side_name(*p),
                "kind": f.kind.name(),
                "detail": f.detail,
            })),
        })
    }

    /// Reads back a finished game's log line ([`GameRecord::to_json`]); what it lacks or
    /// gets wrong is named.
    pub fn from_json(line: &Value) -> Result<GameRecord, String> {
        let field = |name: &str| line.get(name).filter(|v| !v.is_null()).ok_or(format!("no {name:?}"));
        let side = |v: &Value, what: &str| match v.as_str() {
            Some("first") => Ok(Player::First),
            Some("second") => Ok(Player::Second),
            _ => Err(format!("{what}: {v} is neither \"first\" nor \"second\"")),
        };
        let by_side = |name: &str| -> Result<[Option<u64>; 2], String> {
            let v = field(name)?;
            Ok([v["first"].as_u64(), v["second"].as_u64()])
        };
        let outcome = match field("result")?.as_str() {
            Some("draw") => Outcome::Draw,
            _ => Outcome::Win(side(&line["result"], "result")?),
        };
        let turns = field("moves")?
            .as_array()
            .ok_or("\"moves\" is not a list")?
            .iter()
            .enumerate()
            .map(|(k, t)| {
                Ok(Turn {
                    by: side(&t["by"], &format!("move {k}"))?,
                    answer: t["move"].clone(),
                    ms: t["ms"].as_u64().ok_or(format!("move {k}: no \"ms\""))?,
                    debug: t["debug"].as_str().map(str::to_string),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let fault = match line.get("fault").filter(|f| !f.is_null()) {
            None => None,
            Some(f) => {
                let kind =
                    f["kind"].as_str().and_then(FaultKind::from_name).ok_or(format!("fault kind {}", f["kind"]))?;
                let detail = f["detail"].as_str().unwrap_or_default();
                Some((side(&f["by"], "fault")?, crate::runner::fault(kind, detail)))
            }
        };
        let restarts = by_side("restarts")?.map(|n| n.unwrap_or(0) as u32);
        Ok(GameRecord {
            index: field("game")?.as_u64().ok_or("\"game\" is not a number")? as usize,
            a_first: field("a_first")?.as_bool().ok_or("\"a_first\" is not true or false")?,
            opening: field("opening")?.as_array().ok_or("\"opening\" is not a list")?.clone(),
            turns,
            outcome,
            reason: line["reason"].as_str().unwrap_or_default().to_string(),
            fault,
            restarts,
            peak_kb: by_side("peak_kb")?,
            stolen_ms: line["stolen_ms"].as_u64(),
            host: line["host"].as_str().map(String::from),
        })
    }

    /// A game under way as the log writes a game, with no result (see [`crate::live`]).
    pub fn live_json(&self, game: &str, a: &str, b: &str) -> Value {
        let mut line = self.to_json(game, a, b);
        line["result"] = Value::Null;
        line["score_a"] = Value::Null;
        line
    }

    /// The answers of a game logged by [`GameRecord::to_json`], the opening's moves first,
    /// in Botzone's JSON form (passes included); a faulted turn's answer is `null`.
    pub fn logged_answers(record: &Value) -> Vec<Value> {
        let opening = record["opening"].as_array().cloned().unwrap_or_default();
        let turns = record["moves"].as_array().cloned().unwrap_or_default();
        opening.into_iter().chain(turns.into_iter().map(|t| t["move"].clone())).collect()
    }
}

/// A random opening of `plies` moves after which neither side can force a win within
/// `OPEN_PLIES` plies (a random Ataxx opening can leave a side one or two captures from
/// losing every piece: both games of its pair end at once and tell nothing about the
/// bots); in Pencil only edges that complete no box.
pub fn random_opening<G: ArenaGame>(plies: usize, rng: &mut fastrand::Rng) -> Vec<G::Move> {
    'attempt: for _ in 0..100 {
        let mut t = Transcript::<G>::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            t.game().legal_moves(&mut moves);
            moves.retain(|&m| t.game().fits_random_opening(m));
            if moves.is_empty() {
                continue 'attempt;
            }
            t.answer(Some(moves[rng.usize(..moves.len())])).expect("legal by construction");
            if t.game().outcome().is_some() {
                continue 'attempt;
            }
        }
        let game = t.game();
        if forces_win(game, Player::First, OPEN_PLIES) || forces_win(game, Player::Second, OPEN_PLIES) {
            continue 'attempt;
        }
        return t.moves().to_vec();
    }
    Vec::new()
}

/// How far ahead an opening must leave the game undecided.
const OPEN_PLIES: u32 = 4;

/// Plays one game. `bots[0]` is bot A; `a_first` says whether it moves first; `limits`
/// are A's and B's limits per turn (each told its own, as Botzone tells a bot). `on_turn`,
/// if any, sees the game as it stands after each answer (the live log of `arena serve`);
/// without it no record is built before the game ends.
pub fn play_game<G: ArenaGame>(
    index: usize,
    specs: [&CompetitorSpec; 2],
    a_first: bool,
    opening: &[G::Move],
    limits: [Duration; 2],
    on_turn: Option<&dyn Fn(&GameRecord)>,
) -> GameRecord {
    let mut t = Transcript::<G>::new();
    for &mv in opening {
        while t.must_pass() {
            t.answer(None).expect("a pass is due");
        }
        t.answer(Some(mv)).expect("openings are legal");
    }
    // bots by side: [first, second]
    let (first, second) = if a_first { (specs[0], specs[1]) } else { (specs[1], specs[0]) };
    let limit_by_side = if a_first { limits } else { [limits[1], limits[0]] };
    let mut bots = [Competitor::<G>::new(first), Competitor::new(second)];
    let mut asked = [0usize; 2];
    let mut turns = Vec::new();
    let stolen_at_start = crate::runner::stolen_ms();
    let finish = |outcome, reason: String, fault, turns, bots: &[Competitor<G>; 2]| GameRecord {
        index,
        a_first,
        opening: opening.iter().map(|&m| G::json_move(Some(m))).collect(),
        turns,
        outcome,
        reason,
        fault,
        restarts: [bots[0].restarts(), bots[1].restarts()],
        peak_kb: [bots[0].peak_kb(), bots[1].peak_kb()],
        stolen_ms: crate::runner::stolen_since(stolen_at_start),
        host: Some(crate::runner::host().to_string()),
    };
    loop {
        if let Some(outcome) = t.game().outcome() {
            for b in &mut bots {
                b.stop();
            }
            let reason = t.game().end_reason().unwrap_or_else(|| "game over".into());
            return finish(outcome, reason, None, turns, &bots);
        }
        let side = t.asked();
        let limit = limit_by_side[side.index()];
        // Botzone gives each bot's first turn twice the limit.
        let turn_limit = if asked[side.index()] == 0 { 2 * limit } else { limit };
        asked[side.index()] += 1;
        let (full_input, request) = (input_with_limit(&t, limit), t.last_request().to_string());
        let turn = TurnInput {
            full_input: &full_input,
            request: &request,
            moves: t.moves(),
            game: t.game(),
            side,
            limit: turn_limit,
        };
        let asked = ask_move(&mut bots[side.index()], &turn, |mv| t.check(mv));
        let (ms, debug) = (asked.elapsed.as_millis() as u64, asked.debug);
        match asked.answer {
            Ok((mv, value)) => {
                t.answer(mv).expect("checked by ask_move");
                turns.push(Turn { by: side, answer: value, ms, debug });
                if let Some(on_turn) = on_turn {
                    // Under way: no result yet (`GameRecord::live_json` leaves it out).
                    on_turn(&finish(Outcome::Draw, "under way".into(), None, turns.clone(), &bots));
                }
            }
            Err(fault) => {
                turns.push(Turn { by: side, answer: Value::Null, ms, debug });
                for b in &mut bots {
                    b.stop();
                }
                let reason = format!("{} by {}: {}", fault.kind.name(), side_name(side), fault.detail);
                return finish(Outcome::Win(side.other()), reason, Some((side, fault)), turns, &bots);
            }
        }
    }
}

/// A bot's answer to one turn, read as a move of the game and checked.
pub struct Asked<M> {
    /// The move (`None`: a pass) and the answer as the bot wrote it, or the fault.
    pub answer: Result<(Option<M>, Value), Fault>,
    pub elapsed: Duration,
    pub debug: Option<String>,
}

/// Asks `competitor` for one turn, reads the answer as a move of `G` and has `check`
/// judge it.
pub fn ask_move<G: ArenaGame>(
    competitor: &mut Competitor<G>,
    turn: &TurnInput<G>,
    check: impl Fn(Option<G::Move>) -> Result<(), String>,
) -> Asked<G::Move> {
    let reply = competitor.ask(turn);
    let answer = reply.response.and_then(|value| {
        let illegal = |e: String| Fault { kind: FaultKind::Illegal, detail: format!("{value}: {e}") };
        let mv = G::parse_json_move(&value).map_err(illegal)?;
        check(mv).map_err(illegal)?;
        Ok((mv, value))
    });
    Asked { answer, elapsed: reply.elapsed, debug: reply.debug }
}

/// The asked player's full input, with the normal turn limit in seconds as Botzone's
/// optional `time_limit` field (a bot doubles it on its first turn, as the judge does).
pub fn input_with_limit<G: BotzoneGame>(t: &Transcript<G>, limit: Duration) -> String {
    let mut input = t.input();
    input["time_limit"] = json!(limit.as_secs_f64());
    input.to_string()
}

pub fn side_name(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::ataxx::Position;

    #[test]
    fn ataxx_openings_leave_the_game_undecided() {
        let mut rng = fastrand::Rng::with_seed(81);
        for _ in 0..200 {
            let opening = random_opening::<Position>(4, &mut rng);
            assert_eq!(opening.len(), 4);
            let mut t = Transcript::<Position>::new();
            for mv in opening {
                t.answer(Some(mv)).unwrap();
            }
            for side in [Player::First, Player::Second] {
                assert!(!forces_win(t.game(), side, OPEN_PLIES), "opening decided:\n{}", t.game());
            }
        }
    }

    /// An opening seen in a match: black's clone to (5,4) takes white's last piece but one,
    /// and no white move then escapes.
    #[test]
    fn a_win_in_three_plies_is_seen() {
        let mut t = Transcript::<Position>::new();
        for (x0, y0, x1, y1) in [(0, 0, 1, 0), (0, 6, 2, 5), (6, 6, 4, 5), (2, 5, 4, 3)] {
            let mv = Position::parse_json_move(&json!({"x0": x0, "y0": y0, "x1": x1, "y1": y1})).unwrap();
            t.answer(mv).unwrap();
        }
        assert!(forces_win(t.game(), Player::First, 3));
        assert!(!forces_win(t.game(), Player::First, 1));
        assert!(!forces_win(t.game(), Player::Second, 4));
    }
}
