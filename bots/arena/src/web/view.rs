//! What the page draws, computed here so that the page never applies a rule: a game turned
//! into frames (the board after each turn, the move, its time, the value the bot reported),
//! and a position's legal moves for the play page. Coordinates are Botzone's, as in the
//! moves themselves: rows by `y`, characters by `x`.

use crate::games::{ArenaGame, GameName};
use crate::judge::side_name;
use crate::with_game;
use botzone_games::botzone::Transcript;
use botzone_games::game::Player;
use botzone_games::{ataxx, dots, nogo};
use serde_json::{json, Value};

/// A board as rows of characters, for the page's SVG.
pub trait BoardView: ArenaGame {
    /// Ataxx and NoGo: `X` first, `O` second, `.` empty, 7 or 9 rows. Pencil: the 11x11
    /// grid, `+` a dot, `1` a drawn edge, `0` an undrawn one, `A`/`B` a box the first or
    /// second player took, `.` an open box.
    fn rows(&self) -> Vec<String>;
    /// What each side has: pieces (Ataxx), stones (NoGo), boxes (Pencil).
    fn counts(&self) -> [u32; 2];
}

/// A square board's rows: `X` where the first player has a piece, `O` the second, `.` none.
fn stone_rows(size: u8, has: impl Fn(Player, u8, u8) -> bool) -> Vec<String> {
    let cell = |x, y| match (has(Player::First, x, y), has(Player::Second, x, y)) {
        (true, _) => 'X',
        (_, true) => 'O',
        _ => '.',
    };
    (0..size).map(|y| (0..size).map(|x| cell(x, y)).collect()).collect()
}

impl BoardView for ataxx::Position {
    fn rows(&self) -> Vec<String> {
        stone_rows(7, |p, x, y| self.pieces(p).contains(ataxx::Bitboard::square(x, y)))
    }
    fn counts(&self) -> [u32; 2] {
        Player::BOTH.map(|p| self.pieces(p).count())
    }
}

impl BoardView for nogo::Position {
    fn rows(&self) -> Vec<String> {
        stone_rows(9, |p, x, y| self.stones(p).contains(nogo::Bitboard::point(x, y)))
    }
    fn counts(&self) -> [u32; 2] {
        Player::BOTH.map(|p| self.stones(p).count())
    }
}

impl BoardView for dots::Position {
    fn rows(&self) -> Vec<String> {
        // Edge and box numbers as in `dots::board` (H 5*row + col, V 30 + 6*row + col).
        (0..11usize)
            .map(|y| {
                (0..11usize)
                    .map(|x| match (x % 2, y % 2) {
                        (0, 0) => '+',
                        (1, 1) => match self.box_owner(5 * (y / 2) + x / 2) {
                            Some(Player::First) => 'A',
                            Some(Player::Second) => 'B',
                            None => '.',
                        },
                        (1, 0) => edge_char(self.is_drawn((5 * (y / 2) + x / 2) as u8)),
                        _ => edge_char(self.is_drawn((30 + 6 * (y / 2) + x / 2) as u8)),
                    })
                    .collect()
            })
            .collect()
    }
    fn counts(&self) -> [u32; 2] {
        Player::BOTH.map(|p| self.score(p))
    }
}

fn edge_char(drawn: bool) -> char {
    if drawn {
        '1'
    } else {
        '0'
    }
}

/// The board part of a frame: rows, counts, whose turn, and with `legal` the legal moves
/// (empty once over; only the play page's last frame needs them).
pub fn board_json<G: BoardView>(t: &Transcript<G>, legal: bool) -> Value {
    let game = t.game();
    let mut moves = Vec::new();
    if legal && game.outcome().is_none() && !t.must_pass() {
        game.legal_moves(&mut moves);
        moves.retain(|&mv| t.check(Some(mv)).is_ok());
    }
    json!({
        "rows": game.rows(),
        "counts": game.counts(),
        "to_move": side_name(t.asked()),
        "must_pass": t.must_pass() && game.outcome().is_none(),
        "legal": moves.into_iter().map(|mv| G::json_move(Some(mv))).collect::<Vec<_>>(),
        "over": game.outcome().is_some(),
        "end_reason": game.end_reason(),
    })
}

/// The value a bot's debug text reports, as the first player's chance (0 to 1): our MCTS
/// engines write `value=V` (the mover's chance), our alpha-beta engines `score=S` (the
/// mover's score, read through a logistic of scale 400 as a rough chance). `None`: neither.
pub fn first_player_value(debug: &str, mover: Player) -> Option<f64> {
    let field = |name: &str| debug.split_whitespace().find_map(|word| word.strip_prefix(name)?.parse::<f64>().ok());
    let mover_chance = field("value=").or_else(|| field("score=").map(|s| 1.0 / (1.0 + (-s / 400.0).exp())))?;
    let chance = mover_chance.clamp(0.0, 1.0);
    Some(if mover == Player::First { chance } else { 1.0 - chance })
}

/// A logged game (one line of an arena log) as the page's frames: frame 0 the position
/// after the opening, frame k + 1 the position after turn k; the last frame lists the
/// legal moves.
pub fn game_view(record: &Value) -> Result<Value, String> {
    let game_type = record["game_type"].as_str().unwrap_or("");
    let game = GameName::from_name(game_type).ok_or(format!("unknown game_type {game_type:?}"))?;
    with_game!(game, G => frames::<G>(record, game_type))
}

fn frames<G: BoardView>(record: &Value, game_type: &str) -> Result<Value, String> {
    let mut t = Transcript::<G>::new();
    let opening = record["opening"].as_array().cloned().unwrap_or_default();
    for (k, mv) in opening.iter().enumerate() {
        let mv = G::parse_json_move(mv).map_err(|e| format!("opening move {k}: {e}"))?;
        while t.must_pass() {
            t.answer(None)?;
        }
        t.answer(Some(mv.ok_or(format!("opening move {k} is a pass"))?))
            .map_err(|e| format!("opening move {k}: {e}"))?;
    }
    let mut frames = vec![json!({"turn": null, "board": board_json(&t, false)})];
    for (k, turn) in record["moves"].as_array().cloned().unwrap_or_default().iter().enumerate() {
        let mover = t.asked();
        let debug = turn["debug"].as_str().unwrap_or("");
        let mut frame = json!({
            "turn": k,
            "by": side_name(mover),
            "ms": turn["ms"],
            "debug": debug,
            "value": first_player_value(debug, mover),
            "fault": turn["move"].is_null(),
            "move": turn["move"],
        });
        if !turn["move"].is_null() {
            let mv = G::parse_json_move(&turn["move"]).map_err(|e| format!("turn {k}: {e}"))?;
            frame["pass"] = json!(mv.is_none());
            t.answer(mv).map_err(|e| format!("turn {k}: {e}"))?;
        }
        frame["board"] = board_json(&t, false);
        frames.push(frame);
    }
    frames.last_mut().expect("frame 0 at least")["board"] = board_json(&t, true);
    Ok(json!({
        "game": record["game"],
        "game_type": game_type,
        "players": record["players"],
        "result": record["result"],
        "reason": record["reason"],
        "opening_moves": opening.len(),
        "frames": frames,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::botzone::BotzoneGame;

    #[test]
    fn the_start_positions_are_drawn_in_botzone_coordinates() {
        let a = ataxx::Position::start();
        let rows = a.rows();
        assert_eq!(rows.len(), 7);
        // Botzone's Ataxx start: the first player's pieces at (0,0) and (6,6).
        assert_eq!((&rows[0][0..1], &rows[6][6..7]), ("X", "X"));
        assert_eq!((&rows[0][6..7], &rows[6][0..1]), ("O", "O"));
        assert_eq!(a.counts(), [2, 2]);
        let d = dots::Position::start();
        let rows = d.rows();
        assert_eq!((rows.len(), rows[0].as_str()), (11, "+0+0+0+0+0+"));
        assert_eq!(rows[1], "0.0.0.0.0.0");
    }

    #[test]
    fn a_drawn_edge_and_a_taken_box_show_where_botzone_puts_them() {
        let mut t = Transcript::<dots::Position>::new();
        // The four sides of the top-left box, in turn: (1,0) first, (0,1) second, (2,1) first,
        // then the second player's (1,2) takes it.
        for (x, y) in [(1, 0), (0, 1), (2, 1), (1, 2)] {
            while t.must_pass() {
                t.answer(None).unwrap();
            }
            t.answer(dots::Position::parse_json_move(&json!({"x": x, "y": y})).unwrap()).unwrap();
        }
        let rows = t.game().rows();
        assert_eq!(&rows[0][..3], "+1+");
        assert_eq!(&rows[1][..3], "1B1", "the box is the second player's: {rows:?}");
        assert_eq!(&rows[2][..3], "+1+");
        assert_eq!(t.game().counts(), [0, 1]);
    }

    #[test]
    fn values_are_read_from_both_kinds_of_debug_text() {
        assert_eq!(first_player_value("mcts iters=5 value=0.652 ms=100", Player::First), Some(0.652));
        let v = first_player_value("mcts value=0.25", Player::Second).unwrap();
        assert!((v - 0.75).abs() < 1e-9);
        let v = first_player_value("ab depth=10 score=0 ms=104", Player::First).unwrap();
        assert!((v - 0.5).abs() < 1e-9);
        assert!(first_player_value("ab score=400", Player::First).unwrap() > 0.7);
        assert_eq!(first_player_value("forced capture", Player::First), None);
        assert_eq!(first_player_value("value=x", Player::First), None);
    }

    const LOG: &str = r#"{"game":0,"game_type":"nogo","players":{"first":"a","second":"b"},"opening":[{"x":4,"y":3}],
"moves":[{"by":"second","move":{"x":0,"y":0},"ms":5,"debug":"value=0.61"},
{"by":"first","move":{"x":8,"y":8},"ms":7},{"by":"second","move":null,"ms":1200}],
"result":"first","reason":"timeout by second"}"#;

    #[test]
    fn a_logged_game_becomes_frames_with_boards_values_and_the_fault() {
        let record: Value = serde_json::from_str(&LOG.replace('\n', "")).unwrap();
        let view = game_view(&record).unwrap();
        let frames = view["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 4);
        assert_eq!(frames[0]["board"]["rows"][3], "....X....");
        assert_eq!(frames[0]["board"]["to_move"], "second");
        assert_eq!(frames[1]["by"], "second");
        assert!((frames[1]["value"].as_f64().unwrap() - 0.39).abs() < 1e-9, "the first player's chance");
        assert_eq!(frames[1]["board"]["rows"][0], "O........");
        assert_eq!(frames[2]["board"]["counts"], json!([2, 1]));
        assert_eq!(frames[3]["fault"], true);
        assert_eq!(frames[3]["board"]["rows"], frames[2]["board"]["rows"]);
        // Only the last frame lists the legal moves: frame 0 is the last of the opening alone.
        assert_eq!(frames[0]["board"]["legal"], json!([]));
        let mut opening_only = record.clone();
        opening_only["moves"] = json!([]);
        let view = game_view(&opening_only).unwrap();
        let legal = view["frames"][0]["board"]["legal"].as_array().unwrap().len();
        assert_eq!(legal, 80, "every empty point is legal for the second player's first move");
    }

    #[test]
    fn an_illegal_logged_move_is_named_by_its_turn() {
        let bad = LOG.replace('\n', "").replace(r#"{"x":8,"y":8}"#, r#"{"x":0,"y":0}"#);
        let err = game_view(&serde_json::from_str(&bad).unwrap()).unwrap_err();
        assert!(err.starts_with("turn 1:"), "{err}");
    }
}
