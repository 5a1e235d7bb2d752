//! Fixed start positions for a match (`arena ... --book FILE`): one position per line, as
//! the JSON array of moves that leads to it in Botzone's move form (a logged game's
//! `"opening"`, or its opening followed by some of its moves). Blank lines and lines
//! starting with `#` are skipped. Pencil's pass turns are left out of a line (passes in
//! it are skipped): the judge answers them itself, as it does after any opening.
//!
//! Start positions taken from the middle of real games let a match measure one phase of
//! the game (say, the Ataxx endgame) on positions that occur in play, paired and with
//! colours swapped like random openings.

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
