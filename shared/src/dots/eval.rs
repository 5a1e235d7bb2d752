//! Pencil position knowledge for the engines, beside the rules but outside them: the box
//! margin, the position hash, move ordering, and the playout that ends in chain theory's
//! exact values.

use super::board::{Edge, Position};
use super::chains::{loony_value, Component};
use crate::game::{mix64, Game, Outcome, Player};

/// Boxes taken so far by `side` less the other side's.
pub fn margin(p: &Position, side: Player) -> i32 {
    p.score(side) as i32 - p.score(side.other()) as i32
}

/// A 64-bit hash of the edges, the side to move and the first player's boxes (equal edges
/// with a different split of boxes have different values).
pub fn hash(p: &Position) -> u64 {
    let extra = u64::from(p.score(Player::First)) << 1 | u64::from(p.to_move() == Player::Second);
    mix64(p.edge_word()) ^ mix64(extra ^ 0xabcd_ef01)
}

/// Move ordering: edges that take boxes first, edges that hand a box over last.
pub fn move_order(p: &Position, e: Edge) -> i32 {
    2 * p.boxes_completed_by(e) as i32 - p.sides_after_hint(e)
}

/// A playout's step where no box can be taken ([`quiet_playout_move`]).
pub enum QuietStep {
    /// Draw this edge: a random safe edge, or where none is left (`safe` false) a random
    /// one among those that hand over the fewest boxes.
    Draw { edge: Edge, safe: bool },
    /// No safe edge is left and every untaken box has two undrawn sides: the rest of the
    /// game is these chains and loops, valued by chain theory.
    Loony(Vec<Component>),
}

/// A playout move: a random safe edge, or else a random one among those that hand over
/// the fewest boxes, unless the rest of the game is valued by chain theory.
pub fn quiet_playout_move(p: &Position, moves: &[Edge], rng: &mut fastrand::Rng) -> QuietStep {
    let mut safe = Vec::with_capacity(moves.len());
    let mut least = Vec::new();
    let mut least_given = i32::MAX;
    for &e in moves {
        let given = p.sides_after_hint(e);
        if given == 0 {
            safe.push(e);
        } else if safe.is_empty() {
            if given < least_given {
                least_given = given;
                least.clear();
            }
            if given == least_given {
                least.push(e);
            }
        }
    }
    if !safe.is_empty() {
        return QuietStep::Draw { edge: safe[rng.usize(..safe.len())], safe: true };
    }
    match p.simple_components() {
        Some(parts) => QuietStep::Loony(parts),
        None => QuietStep::Draw { edge: least[rng.usize(..least.len())], safe: false },
    }
}

/// Plays `state` out: a box that can be taken is taken, else a [`quiet_playout_move`];
/// moves are appended to `played`. Returns the first player's reward, exact from chain
/// theory once only chains and loops are left. Before that, wherever no safe edge is left,
/// `endgame` may value the rest of the game exactly (the boxes still to come, the side to
/// move's less the other's); where it says `None` the playout goes on.
pub fn safe_edge_playout(
    state: &mut Position,
    rng: &mut fastrand::Rng,
    played: &mut Vec<(Player, Edge)>,
    endgame: &mut dyn FnMut(&Position) -> Option<i32>,
) -> f64 {
    let mut moves = Vec::with_capacity(60);
    loop {
        let e = match state.capture() {
            Some(capture) => capture.take(),
            None => {
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    return state.outcome().expect("all edges drawn").reward(Player::First);
                }
                match quiet_playout_move(state, &moves, rng) {
                    QuietStep::Draw { edge, safe: true } => edge,
                    QuietStep::Draw { edge, safe: false } => match endgame(state) {
                        Some(future) => return exact_reward(state, future),
                        None => edge,
                    },
                    QuietStep::Loony(parts) => return exact_reward(state, loony_value(&parts)),
                }
            }
        };
        played.push((state.to_move(), e));
        state.play(e);
    }
}

/// The first player's reward in `p` when the boxes still to come give its side to move
/// `future` more than the other side.
fn exact_reward(p: &Position, future: i32) -> f64 {
    let final_margin = margin(p, p.to_move()) + future;
    let winner = if final_margin > 0 { p.to_move() } else { p.to_move().other() };
    Outcome::Win(winner).reward(Player::First)
}
