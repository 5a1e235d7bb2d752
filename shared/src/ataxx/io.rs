//! Ataxx moves in Botzone's forms: `{"x0":..,"y0":..,"x1":..,"y1":..}` or `x0 y0 x1 y1`.

use super::bitboard::Bitboard;
use super::board::{Move, Position};
use crate::botzone::{int_field, move_object, BotzoneGame};
use serde_json::{json, Value};

fn move_from_coords(c: [i64; 4]) -> Result<Option<Move>, String> {
    if c == [-1; 4] {
        return Ok(None);
    }
    if c.iter().any(|&v| !(0..7).contains(&v)) {
        return Err(format!("coordinates {c:?} are off the 7x7 board"));
    }
    let sq = |x: i64, y: i64| Bitboard::square(x as u8, y as u8);
    Ok(Some(Move { from: sq(c[0], c[1]), to: sq(c[2], c[3]) }))
}

fn coords(mv: Option<Move>) -> [i64; 4] {
    match mv {
        None => [-1; 4],
        Some(mv) => {
            let (x0, y0) = Bitboard::coords(mv.from);
            let (x1, y1) = Bitboard::coords(mv.to);
            [x0, y0, x1, y1].map(i64::from)
        }
    }
}

impl BotzoneGame for Position {
    const SIMPLE_IO: bool = true;
    const SIMPLE_FIELDS: usize = 4;

    fn parse_json_move(value: &Value) -> Result<Option<Move>, String> {
        let o = move_object(value)?;
        move_from_coords([int_field(o, "x0")?, int_field(o, "y0")?, int_field(o, "x1")?, int_field(o, "y1")?])
    }

    fn json_move(mv: Option<Move>) -> Value {
        let [x0, y0, x1, y1] = coords(mv);
        json!({"x0": x0, "y0": y0, "x1": x1, "y1": y1})
    }

    fn parse_simple_move(fields: &[i64]) -> Result<Option<Move>, String> {
        move_from_coords([fields[0], fields[1], fields[2], fields[3]])
    }

    fn simple_move(mv: Option<Move>) -> String {
        let [x0, y0, x1, y1] = coords(mv);
        format!("{x0} {y0} {x1} {y1}")
    }
}
