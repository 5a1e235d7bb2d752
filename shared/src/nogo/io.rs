//! NoGo moves in Botzone's forms: `{"x":..,"y":..}` or `x y`.

use super::bitboard::{Bitboard, Point};
use super::board::Position;
use crate::botzone::{int_field, move_object, BotzoneGame};
use serde_json::{json, Value};

fn point_from_coords(x: i64, y: i64) -> Result<Option<Point>, String> {
    if (x, y) == (-1, -1) {
        return Ok(None);
    }
    if !(0..9).contains(&x) || !(0..9).contains(&y) {
        return Err(format!("({x},{y}) is off the 9x9 board"));
    }
    Ok(Some(Bitboard::point(x as u8, y as u8)))
}

fn coords(p: Option<Point>) -> (i64, i64) {
    p.map_or((-1, -1), |p| {
        let (x, y) = Bitboard::coords(p);
        (x.into(), y.into())
    })
}

impl BotzoneGame for Position {
    const SIMPLE_IO: bool = true;
    const SIMPLE_FIELDS: usize = 2;

    fn parse_json_move(value: &Value) -> Result<Option<Point>, String> {
        let o = move_object(value)?;
        point_from_coords(int_field(o, "x")?, int_field(o, "y")?)
    }

    fn json_move(p: Option<Point>) -> Value {
        let (x, y) = coords(p);
        json!({"x": x, "y": y})
    }

    fn parse_simple_move(fields: &[i64]) -> Result<Option<Point>, String> {
        point_from_coords(fields[0], fields[1])
    }

    fn simple_move(p: Option<Point>) -> String {
        let (x, y) = coords(p);
        format!("{x} {y}")
    }
}
