//! Pencil moves on Botzone's 11x11 grid: an edge at (x, y) with x + y odd;
//! horizontal when x is odd (y even), vertical when x is even (y odd).

use super::board::{Edge, Position};
use crate::botzone::{int_field, move_object, BotzoneGame};
use serde_json::{json, Value};

fn edge_from_grid(x: i64, y: i64) -> Result<Option<Edge>, String> {
    if (x, y) == (-1, -1) {
        return Ok(None);
    }
    if !(0..=10).contains(&x) || !(0..=10).contains(&y) {
        return Err(format!("({x},{y}) is off the 11x11 grid"));
    }
    if (x + y) % 2 == 0 {
        return Err(format!("({x},{y}) is a dot or a box, not an edge"));
    }
    let (x, y) = (x as u8, y as u8);
    Ok(Some(if x % 2 == 1 { 5 * (y / 2) + x / 2 } else { 30 + 6 * (y / 2) + x / 2 }))
}

/// Botzone's grid coordinates of an edge.
pub fn grid(e: Edge) -> (i64, i64) {
    let (x, y) = if e < 30 { (2 * (e % 5) + 1, 2 * (e / 5)) } else { (2 * ((e - 30) % 6), 2 * ((e - 30) / 6) + 1) };
    (x.into(), y.into())
}

impl BotzoneGame for Position {
    const SIMPLE_IO: bool = false;
    const SIMPLE_FIELDS: usize = 2;

    fn parse_json_move(value: &Value) -> Result<Option<Edge>, String> {
        let o = move_object(value)?;
        edge_from_grid(int_field(o, "x")?, int_field(o, "y")?)
    }

    fn json_move(e: Option<Edge>) -> Value {
        let (x, y) = e.map_or((-1, -1), grid);
        json!({"x": x, "y": y})
    }

    fn parse_simple_move(fields: &[i64]) -> Result<Option<Edge>, String> {
        edge_from_grid(fields[0], fields[1])
    }

    fn simple_move(e: Option<Edge>) -> String {
        let (x, y) = e.map_or((-1, -1), grid);
        format!("{x} {y}")
    }

    fn request_json(e: Option<Edge>, sender_moves_again: bool) -> Value {
        let (x, y) = e.map_or((-1, -1), grid);
        json!({"x": x, "y": y, "pass": u8::from(sender_moves_again)})
    }

    fn request_claims_extra_turn(request: &Value) -> Option<bool> {
        match request.get("pass")?.as_i64()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_coordinates_round_trip_for_every_edge() {
        for e in 0..60 {
            let (x, y) = grid(e);
            assert_eq!((x + y) % 2, 1);
            assert_eq!(edge_from_grid(x, y), Ok(Some(e)));
        }
    }
}
