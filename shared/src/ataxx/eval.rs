//! Ataxx evaluation terms and hashing, beside the rules but outside them (search code
//! wires them into engines).

use super::bitboard::{Bitboard, RING1};
use super::board::{Board, Move};
use crate::game::{mix64, Game, Player};

/// The evaluation's terms, each as (side to move's count) - (opponent's), in pieces:
pub const TERMS: usize = 4;
/// - material: pieces on the board;
pub const MATERIAL: usize = 0;
/// - exposed: own pieces next to an empty square the opponent reaches (they can be
///   flipped back);
pub const EXPOSED: usize = 1;
/// - exclusive empties: empty squares only this side reaches (Botzone credits them at a
///   blocked end);
pub const EXCLUSIVE_EMPTY: usize = 2;
/// - threat: the side to move's best immediate gain (clone + flips; only the mover's).
pub const THREAT: usize = 3;

/// Weights of the terms in centi-pieces, at the start (`opening`) and with the board full
/// (`ending`), blended by the number of empty squares (a tapered evaluation).
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    pub opening: [i32; TERMS],
    pub ending: [i32; TERMS],
}

/// Hand-set weights: material first; the rest breaks ties.
pub const HAND_SET: Weights = Weights { opening: [100, -6, 20, 40], ending: [100, -6, 20, 40] };

/// Weights fitted by `experiments texel` (logistic regression of self-play results on the
/// terms; see docs/lab/ataxx-network.md).
pub const WEIGHTS: Weights = Weights { opening: [-72, 0, 18, -40], ending: [320, -76, -13, 209] };

/// Material only: the baseline that measures what the other terms are worth.
pub const MATERIAL_ONLY: Weights = Weights { opening: [100, 0, 0, 0], ending: [100, 0, 0, 0] };

/// Empty squares at the start (49 less the 4 pieces): the evaluation's opening phase.
pub const START_EMPTIES: i32 = 45;

/// The terms for the side to move, and the number of empty squares (the phase).
pub fn terms(b: &Board) -> ([i32; TERMS], i32) {
    let me = b.to_move();
    let (own, opp) = (b.pieces(me), b.pieces(me.other()));
    let empty = b.empty();
    let own_reach = own.dilate().dilate().and(empty);
    let opp_reach = opp.dilate().dilate().and(empty);
    let exposed = |pieces: Bitboard, enemy_reach: Bitboard| {
        // Pieces adjacent to an empty square that the enemy can move to.
        pieces.and(enemy_reach.dilate()).count() as i32
    };
    let mut t = [0; TERMS];
    t[MATERIAL] = own.count() as i32 - opp.count() as i32;
    t[EXPOSED] = exposed(own, opp_reach) - exposed(opp, own_reach);
    t[EXCLUSIVE_EMPTY] = own_reach.and(opp_reach.not()).count() as i32 - opp_reach.and(own_reach.not()).count() as i32;
    t[THREAT] = best_gain(own, opp, empty);
    (t, empty.count() as i32)
}

/// Blends the terms with `w` at a phase of `empties` empty squares.
pub fn weigh(t: &[i32; TERMS], empties: i32, w: &Weights) -> i32 {
    let open = empties.min(START_EMPTIES);
    let dot = |weights: &[i32; TERMS]| t.iter().zip(weights).map(|(a, b)| a * b).sum::<i32>();
    (dot(&w.opening) * open + dot(&w.ending) * (START_EMPTIES - open)) / START_EMPTIES
}

/// Static value for the side to move, in centi-pieces.
pub fn evaluate(b: &Board, w: &Weights) -> i32 {
    let (t, empties) = terms(b);
    weigh(&t, empties, w)
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

/// Seed 003's greedy order (its playouts): most pieces gained, then clones before jumps.
/// The alpha-beta's order is the evaluator's own (engines::ataxx).
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

/// Seed 003's playout: greedy moves (most pieces gained, clones before jumps, ties at
/// random) for at most `cut` plies, appended to `played`; the first player's reward is
/// the piece difference scaled into 0..1, or 1/0 if the game really ended.
pub fn greedy_playout(state: &mut Board, cut: usize, rng: &mut fastrand::Rng, played: &mut Vec<(Player, Move)>) -> f64 {
    let mut moves = Vec::with_capacity(64);
    let mut best = Vec::with_capacity(8);
    for _ in 0..cut {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        best.clear();
        let mut best_score = i32::MIN;
        for &mv in &moves {
            let s = move_order(state, mv);
            if s > best_score {
                best_score = s;
                best.clear();
            }
            if s == best_score {
                best.push(mv);
            }
        }
        let mv = best[rng.usize(..best.len())];
        played.push((state.to_move(), mv));
        state.make(mv);
    }
    match state.outcome() {
        Some(o) => o.reward(Player::First),
        None => {
            let diff = state.pieces(Player::First).count() as f64 - state.pieces(Player::Second).count() as f64;
            0.5 + diff / 98.0
        }
    }
}

/// A 64-bit hash of the board and the side to move (a strong mix of the two bitboards).
pub fn hash(b: &Board) -> u64 {
    let side = if b.to_move() == Player::First { 0 } else { 0x9e37_79b9_7f4a_7c15 };
    mix64(b.pieces(Player::First).0) ^ mix64(b.pieces(Player::Second).0 ^ 0x5555_5555_5555_5555).rotate_left(17) ^ side
}
