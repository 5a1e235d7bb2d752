//! Fixed start positions for a match (`arena ... --book FILE`): one position per line, as
//! the JSON array of moves that leads to it in Botzone's move form (a logged game's
//! `"opening"`, or its opening followed by some of its moves). Blank lines and lines
//! starting with `#` are skipped. Pencil's pass turns are left out of a line (passes in
//! it are skipped): the judge answers them itself, as it does after any opening.
//!
//! Start positions taken from the middle of real games let a match measure one phase of
//! the game (say, the Ataxx endgame) on positions that occur in play, paired and with
//! colours swapped like random openings: [`book_from_log`] (`arena book`) cuts the games
//! of a match log where a given number of places is left to play.

use crate::games::ArenaGame;
use crate::judge::GameRecord;
use botzone_games::botzone::{BotzoneGame, Transcript};
use serde_json::Value;

/// Reads and checks a book: every move legal in turn, and no line that ends the game.
pub fn parse_book<G: BotzoneGame>(text: &str) -> Result<Vec<Vec<G::Move>>, String> {
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: String| format!("line {number}: {what}");
        let value: Value = serde_json::from_str(line).map_err(|e| at(format!("not JSON: {e}")))?;
        let array = value.as_array().ok_or_else(|| at("not a JSON array of moves".into()))?;
        let mut t = Transcript::<G>::new();
        for (i, json) in array.iter().enumerate() {
            let move_at = |what: String| at(format!("move {} ({json}): {what}", i + 1));
            let Some(mv) = G::parse_json_move(json).map_err(move_at)? else { continue };
            if t.game().outcome().is_some() {
                return Err(move_at("the game is already over".into()));
            }
            while t.must_pass() {
                t.answer(None).map_err(move_at)?;
            }
            t.answer(Some(mv)).map_err(move_at)?;
        }
        if t.game().outcome().is_some() {
            return Err(at("the position is already decided (the game is over)".into()));
        }
        lines.push(t.moves().to_vec());
    }
    if lines.is_empty() {
        return Err("no positions in the book".into());
    }
    Ok(lines)
}

/// Each game of a match log (`arena ... --log`) cut at its first position with `left`
/// places left to play ([`ArenaGame::places_left`]), as book lines; games that end
/// before it are left out.
pub fn book_from_log<G: ArenaGame>(log: &str, left: u32) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (number, line) in log.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = |what: String| format!("log line {}: {what}", number + 1);
        let record: Value = serde_json::from_str(line).map_err(|e| at(format!("not JSON: {e}")))?;
        let mut t = Transcript::<G>::new();
        // A fault's turn has no answer: the game ended there.
        for answer in GameRecord::logged_answers(&record).into_iter().take_while(|a| !a.is_null()) {
            if t.game().outcome().is_some() || t.game().places_left() == left {
                break;
            }
            let mv = G::parse_json_move(&answer).map_err(at)?;
            while mv.is_some() && t.must_pass() {
                t.answer(None).map_err(at)?;
            }
            t.answer(mv).map_err(at)?;
        }
        if t.game().outcome().is_none() && t.game().places_left() == left {
            let moves: Vec<Value> = t.moves().iter().map(|&m| G::json_move(Some(m))).collect();
            lines.push(Value::Array(moves).to_string());
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::game::Game;
    use botzone_games::{ataxx, dots};

    #[test]
    fn a_book_line_is_the_moves_to_its_position() {
        let text = "# two Ataxx positions\n[]\n\n[{\"x0\":0,\"y0\":0,\"x1\":1,\"y1\":1}]\n";
        let book = parse_book::<ataxx::Position>(text).unwrap();
        assert_eq!(book.len(), 2);
        assert!(book[0].is_empty());
        assert_eq!(book[1].len(), 1);
    }

    #[test]
    fn games_of_a_log_are_cut_where_the_places_left_are_reached() {
        // One logged Ataxx game: a clone (44 empty squares left), a jump (still 44), a
        // clone (43); another that ends in a fault before 43.
        let clone = r#"{"x0":0,"y0":0,"x1":1,"y1":1}"#;
        let jump = r#"{"x0":6,"y0":0,"x1":4,"y1":0}"#;
        let clone2 = r#"{"x0":1,"y0":1,"x1":2,"y1":2}"#;
        let log = format!(
            "{{\"opening\":[{clone}],\"moves\":[{{\"move\":{jump}}},{{\"move\":{clone2}}}]}}\n\
             {{\"opening\":[{clone}],\"moves\":[{{\"move\":null}}]}}\n"
        );
        let at = |left| book_from_log::<ataxx::Position>(&log, left).unwrap();
        let cut44 = at(44);
        assert_eq!(cut44.len(), 2);
        let first: Value = serde_json::from_str(&cut44[0]).unwrap();
        assert_eq!(first.as_array().unwrap().len(), 1, "cut at the first position with 44 left");
        let cut43 = at(43);
        assert_eq!(cut43.len(), 1);
        assert_eq!(parse_book::<ataxx::Position>(&cut43[0]).unwrap()[0].len(), 3);
        assert!(at(20).is_empty());
    }

    #[test]
    fn an_illegal_move_is_named_by_line_and_move() {
        // The first move is black's clone; the second tries black's piece again for white.
        let text = "[]\n[{\"x0\":0,\"y0\":0,\"x1\":1,\"y1\":1},{\"x0\":0,\"y0\":0,\"x1\":0,\"y1\":1}]\n";
        let err = parse_book::<ataxx::Position>(text).unwrap_err();
        assert!(err.starts_with("line 2: move 2"), "{err}");
        assert!(parse_book::<ataxx::Position>("[1,2]").unwrap_err().starts_with("line 1: move 1"));
        assert!(parse_book::<ataxx::Position>("{}").unwrap_err().contains("not a JSON array"));
        assert!(parse_book::<ataxx::Position>("# nothing\n").is_err());
    }

    #[test]
    fn pencil_passes_are_left_to_the_judge() {
        // Always the first legal edge, until a box is completed: its drawer moves again,
        // so the other side's pass turn comes in between, written in the line and skipped.
        let mut t = Transcript::<dots::Position>::new();
        let (mut moves, mut line, mut passes) = (Vec::new(), Vec::new(), 0);
        while passes == 0 || t.must_pass() {
            while t.must_pass() {
                line.push(dots::Position::json_move(None));
                t.answer(None).unwrap();
                passes += 1;
            }
            t.game().legal_moves(&mut moves);
            line.push(dots::Position::json_move(Some(moves[0])));
            t.answer(Some(moves[0])).unwrap();
        }
        let text = serde_json::to_string(&line).unwrap();
        let book = parse_book::<dots::Position>(&text).unwrap();
        assert_eq!(book[0], t.moves().to_vec());
        assert!(line.len() > book[0].len());
    }
}
