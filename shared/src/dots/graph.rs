//! The position as a strings-and-coins graph, for the solver's table. A position's value
//! (the boxes still to come, mine minus theirs) depends only on the graph whose vertices
//! are the untaken boxes and the ground (the border) and whose edges are the undrawn
//! sides, and many edge sets give the same graph. A box with two undrawn sides only passes
//! a string on, so the graph is kept as *paths*: from a joint (a box with one, three or
//! four undrawn sides, named by its square) or the ground, through `k` boxes of two
//! undrawn sides, to a joint or the ground; a loop of such boxes touching no joint is a
//! path too. The key is the sum of the paths' hashes: two positions whose boxes of two
//! undrawn sides lie elsewhere but make paths of the same lengths between the same joints
//! share it. Each undrawn edge lies on exactly one path, and drawing an edge changes only
//! the paths through the one or two boxes beside it, so a child's key costs a walk along
//! those paths ([`Position::play_keyed`]).

use super::board::{BOXES, EDGE_BOXES};
use super::chains::{bits, ALL_EDGES};
use super::{Edge, Position, EDGES};
use crate::game::{mix64, Game};

/// The ground's name at a path's end.
const GROUND: u64 = BOXES as u64;
/// Both ends' name for a loop that touches no joint.
const LOOP: u64 = GROUND + 1;

/// A path's hash from its two ends' names (in either order) and its boxes of degree 2.
fn path_hash(a: u64, b: u64, k: u64) -> u64 {
    mix64(((a.min(b) << 5 | a.max(b)) << 5 | k) ^ 0x5851_F42D_4C95_7F2D)
}

impl Position {
    /// The graph key: equal for positions with the same contracted graph, different
    /// otherwise but for a hash collision (64 bits).
    pub fn graph_key(&self) -> u64 {
        self.paths_through(self.untaken_boxes())
    }

    /// Draws `e` and returns the new position's graph key, given this one's.
    pub fn play_keyed(&mut self, e: Edge, key: u64) -> u64 {
        let base = *self;
        self.play(e);
        self.graph_key_from(&base, key, Self::boxes_beside(e))
    }

    /// The graph key of this position, reached from `base` (whose key is `key`) by drawing
    /// edges beside the boxes `touched` only: the paths through no touched box are the
    /// same in both (their boxes' sides are), so only those through one are walked.
    pub fn graph_key_from(&self, base: &Position, key: u64, touched: u32) -> u64 {
        key.wrapping_sub(base.paths_through(touched)).wrapping_add(self.paths_through(touched))
    }

    /// The boxes (one or two) that edge `e` is a side of, one bit per box.
    pub fn boxes_beside(e: Edge) -> u32 {
        EDGE_BOXES[usize::from(e)]
    }

    /// The sum of the hashes of the paths that contain a box of `boxes` (untaken ones),
    /// each path once.
    fn paths_through(&self, boxes: u32) -> u64 {
        let untaken = self.untaken_boxes();
        let two = self.side_counts().boxes_with(2) & untaken;
        let undrawn = !self.edge_word() & ALL_EDGES;
        // The edges of the paths already summed: paths share no edge.
        let mut done = 0u64;
        let mut sum = 0u64;
        for r in bits(boxes & untaken) {
            let mut free = BOX_EDGES[r] & undrawn & !done;
            if two >> r & 1 != 0 {
                if free == 0 {
                    continue;
                }
                let a = free.trailing_zeros() as usize;
                let b = (BOX_EDGES[r] & undrawn & !(1 << a)).trailing_zeros() as usize;
                let first = walk(r, a, two, undrawn);
                done |= first.edges;
                if first.end == Some(r) {
                    sum = sum.wrapping_add(path_hash(LOOP, LOOP, first.boxes + 1));
                } else {
                    let second = walk(r, b, two, undrawn);
                    done |= second.edges;
                    sum =
                        sum.wrapping_add(path_hash(name(first.end), name(second.end), first.boxes + second.boxes + 1));
                }
            } else {
                while free != 0 {
                    let side = free.trailing_zeros() as usize;
                    free &= free - 1;
                    let path = walk(r, side, two, undrawn);
                    done |= path.edges;
                    free &= !path.edges;
                    sum = sum.wrapping_add(path_hash(r as u64, name(path.end), path.boxes));
                }
            }
        }
        sum
    }
}

/// A path end's name: a joint's square, or the ground.
fn name(end: Option<usize>) -> u64 {
    end.map_or(GROUND, |j| j as u64)
}

/// Each box's four sides as bits of an edge word.
const BOX_EDGES: [u64; BOXES] = {
    let mut t = [0u64; BOXES];
    let mut e = 0;
    while e < EDGES {
        let mut b = 0;
        while b < BOXES {
            if EDGE_BOXES[e] >> b & 1 != 0 {
                t[b] |= 1 << e;
            }
            b += 1;
        }
        e += 1;
    }
    t
};

/// From box `from` out along its undrawn side `side`, through the boxes of degree 2
/// (`two`), to the first box of another degree (or back to `from`) or the ground.
fn walk(from: usize, side: usize, two: u32, undrawn: u64) -> Walk {
    let (mut edges, mut boxes) = (1u64 << side, 0);
    let (mut came_by, mut at) = (side, from);
    loop {
        let beyond = EDGE_BOXES[came_by] & !(1 << at);
        if beyond == 0 {
            return Walk { end: None, boxes, edges };
        }
        let b = beyond.trailing_zeros() as usize;
        if b == from || two >> b & 1 == 0 {
            return Walk { end: Some(b), boxes, edges };
        }
        boxes += 1;
        came_by = (BOX_EDGES[b] & undrawn & !(1 << came_by)).trailing_zeros() as usize;
        edges |= 1 << came_by;
        at = b;
    }
}

/// Where a walk along a path ended.
struct Walk {
    /// The box it reached (`None`: the ground).
    end: Option<usize>,
    /// Boxes of degree 2 passed on the way.
    boxes: u64,
    /// The undrawn edges walked along.
    edges: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along random games, the key kept move by move equals the key computed afresh.
    #[test]
    fn the_kept_key_equals_the_fresh_one() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut moves = Vec::new();
        for _ in 0..200 {
            let mut p = Position::start();
            let mut key = p.graph_key();
            loop {
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let e = moves[rng.usize(..moves.len())];
                key = p.play_keyed(e, key);
                assert_eq!(key, p.graph_key(), "after {e} in\n{p}");
            }
        }
    }
}
