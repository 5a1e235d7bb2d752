//! Ataxx evaluation terms and hashing, beside the rules but outside them (search code
//! wires them into engines).

use super::bitboard::{Bitboard, RING1};
use super::board::{Board, Move};
use crate::game::{mix64, Game, Player};

/// Weights of the evaluation, in centi-pieces.
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    pub material: i32,
    /// Per own piece next to an empty square the opponent reaches (it can be flipped back).
    pub exposed: i32,
    /// Per empty square only this side reaches (Botzone credits them at a blocked end).
    pub exclusive_empty: i32,
    /// The side to move's best immediate gain, in pieces (clone + flips).
    pub threat: i32,
}

/// Hand-set weights: material first; the rest breaks ties.
pub const WEIGHTS: Weights = Weights { material: 100, exposed: -6, exclusive_empty: 20, threat: 40 };

/// Material only: the baseline that measures what the other terms are worth.
pub const MATERIAL_ONLY: Weights = Weights { material: 100, exposed: 0, exclusive_empty: 0, threat: 0 };

/// Static value for the side to move.
pub fn evaluate(b: &Board, w: &Weights) -> i32 {
    let me = b.to_move();
    let (own, opp) = (b.pieces(me), b.pieces(me.other()));
    let empty = b.empty();
    let own_reach = own.dilate().dilate().and(empty);
    let opp_reach = opp.dilate().dilate().and(empty);
    let material = own.count() as i32 - opp.count() as i32;
    let exposed = |pieces: Bitboard, enemy_reach: Bitboard| {
        // Pieces adjacent to an empty square that the enemy can move to.
        pieces.and(enemy_reach.dilate()).count() as i32
    };
    let exclusive = own_reach.and(opp_reach.not()).count() as i32 - opp_reach.and(own_reach.not()).count() as i32;
    let threat = best_gain(own, opp, empty);
    w.material * material
        + w.exposed * (exposed(own, opp_reach) - exposed(opp, own_reach))
        + w.exclusive_empty * exclusive
        + w.threat * threat
}

/// The most pieces the side to move can gain with one move: flips, plus one for a clone.
fn best_gain(own: Bitboard, opp: Bitboard, empty: Bitboard) -> i32 {
    let mut best = 0;
    for to in own.dilate().dilate().and(empty).iter() {
        let flips = RING1[to as usize].and(opp).count() as i32;
        let clone = i32::from(!RING1[to as usize].and(own).is_empty());
        best = best.max(flips + clone);
    }
    best
}

/// Move ordering: flips first, clones before jumps.
pub fn move_order(b: &Board, mv: Move) -> i32 {
    2 * b.flips(mv) as i32 + i32::from(!mv.is_jump())
}

/// Piece difference after `mv`, from the mover's view (seed 003's relscore).
pub fn relscore_after(b: &Board, mv: Move) -> i32 {
    let me = b.to_move();
    let mut after = *b;
    after.make(mv);
    after.pieces(me).count() as i32 - after.pieces(me.other()).count() as i32
}

/// A 64-bit hash of the board and the side to move (a strong mix of the two bitboards).
pub fn hash(b: &Board) -> u64 {
    let side = if b.to_move() == Player::First { 0 } else { 0x9e37_79b9_7f4a_7c15 };
    mix64(b.pieces(Player::First).0) ^ mix64(b.pieces(Player::Second).0 ^ 0x5555_5555_5555_5555).rotate_left(17) ^ side
}
