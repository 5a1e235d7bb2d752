//! NoGo points as GTP writes them: a column letter `A`-`J` without `I` from Botzone's left
//! (x) and a row number 1-9 from the bottom (row 9 is Botzone's y = 0), e.g. `E5` for the
//! centre. Colours are `b`/`black` and `w`/`white`.

use super::bitboard::{Bitboard, Point};
use crate::game::Player;

const COLUMNS: &[u8; 9] = b"ABCDEFGHJ";

/// `A1`..`J9`.
pub fn vertex(p: Point) -> String {
    let (x, y) = Bitboard::coords(p);
    format!("{}{}", char::from(COLUMNS[x as usize]), 9 - y)
}

/// A vertex, any case; `pass` is refused (NoGo has none).
pub fn parse_vertex(text: &str) -> Result<Point, String> {
    let upper = text.trim().to_ascii_uppercase();
    if upper == "PASS" {
        return Err("NoGo has no pass".into());
    }
    let (column, row) = upper.split_at(upper.len().min(1));
    let x = COLUMNS.iter().position(|&c| column.as_bytes() == [c]);
    let y = row.parse::<u8>().ok().filter(|r| (1..=9).contains(r));
    match (x, y) {
        (Some(x), Some(row)) => Ok(Bitboard::point(x as u8, 9 - row)),
        _ => Err(format!("{text:?} is not a vertex A1-J9 of the 9x9 board")),
    }
}

pub fn parse_color(text: &str) -> Result<Player, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Player::First),
        "w" | "white" => Ok(Player::Second),
        _ => Err(format!("{text:?} is not a colour (b, w, black, white)")),
    }
}

pub fn color_name(p: Player) -> &'static str {
    match p {
        Player::First => "black",
        Player::Second => "white",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nogo::CENTRE;

    #[test]
    fn vertices_round_trip_and_skip_i() {
        assert_eq!(vertex(CENTRE), "E5");
        assert_eq!(vertex(Bitboard::point(0, 0)), "A9");
        assert_eq!(vertex(Bitboard::point(8, 8)), "J1");
        for x in 0..9 {
            for y in 0..9 {
                let p = Bitboard::point(x, y);
                assert_eq!(parse_vertex(&vertex(p)), Ok(p));
                assert_eq!(parse_vertex(&vertex(p).to_lowercase()), Ok(p));
            }
        }
        for bad in ["I5", "K1", "A0", "A10", "", "pass", "E"] {
            assert!(parse_vertex(bad).is_err(), "{bad}");
        }
    }
}
