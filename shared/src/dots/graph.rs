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

use super::board::{BOXES, BOX_EDGES, EDGE_BOXES};
use super::chains::{bits, ALL_EDGES};
use super::{Edge, Position};
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
    /// edges beside the boxes `touched` only. A path of either position that holds no
    /// edge drawn since and no box that became or stopped being a box of two undrawn
    /// sides is a path of the other as well (its ends keep their names), so only the
    /// others are walked: `base`'s through those boxes or along those edges, and this
    /// position's through those boxes. A safe edge between two boxes that stay joints
    /// costs one walk, along its own path.
    pub fn graph_key_from(&self, base: &Position, key: u64, touched: u32) -> u64 {
        let (two_before, two_now) = (base.two_sided(), self.two_sided());
        let changed = touched & (two_before ^ two_now);
        let drawn = self.edge_word() & !base.edge_word();
        key.wrapping_sub(base.paths_along(two_before, changed, drawn))
            .wrapping_add(self.paths_along(two_now, changed, 0))
    }

    /// The untaken boxes with two undrawn sides (passing a path on), one bit per box.
    fn two_sided(&self) -> u32 {
        self.side_counts().boxes_with(2) & self.untaken_boxes()
    }

    /// The boxes (one or two) that edge `e` is a side of, one bit per box.
    pub fn boxes_beside(e: Edge) -> u32 {
        EDGE_BOXES[usize::from(e)]
    }

    /// The sum of the hashes of the paths that contain a box of `boxes` (untaken ones),
    /// each path once.
    fn paths_through(&self, boxes: u32) -> u64 {
        self.paths_along(self.two_sided(), boxes, 0)
    }

    /// The sum of the hashes of the paths that contain a box of `boxes` (untaken ones) or
    /// one of the undrawn `edges`, each path once; `two` is [`Position::two_sided`].
    fn paths_along(&self, two: u32, boxes: u32, edges: u64) -> u64 {
        let untaken = self.untaken_boxes();
        let undrawn = !self.edge_word() & ALL_EDGES;
        // The edges of the paths already summed: paths share no edge.
        let mut done = 0u64;
        let mut sum = 0u64;
        for r in bits(boxes & untaken) {
            if two >> r & 1 != 0 {
                sum = sum.wrapping_add(path_of_two_sided(r, two, undrawn, &mut done));
            } else {
                let mut free = BOX_EDGES[r] & undrawn & !done;
                while free != 0 {
                    let side = free.trailing_zeros() as usize;
                    sum = sum.wrapping_add(path_from_joint(r, side, two, undrawn, &mut done));
                    free &= !done;
                }
            }
        }
        let mut left = edges & undrawn & !done;
        while left != 0 {
            let e = left.trailing_zeros() as usize;
            // Walked from a box beside it: through it if it passes the path on, else out
            // along `e` from that joint.
            let r = EDGE_BOXES[e].trailing_zeros() as usize;
            if two >> r & 1 != 0 {
                sum = sum.wrapping_add(path_of_two_sided(r, two, undrawn, &mut done));
            } else {
                sum = sum.wrapping_add(path_from_joint(r, e, two, undrawn, &mut done));
            }
            left &= !done;
        }
        sum
    }
}

/// The hash of the path through box `r` of two undrawn sides (0 if `done` holds it
/// already), its edges added to `done`.
fn path_of_two_sided(r: usize, two: u32, undrawn: u64, done: &mut u64) -> u64 {
    let free = BOX_EDGES[r] & undrawn;
    if free & !*done == 0 {
        return 0;
    }
    let a = free.trailing_zeros() as usize;
    let b = (free & !(1 << a)).trailing_zeros() as usize;
    let first = walk(r, a, two, undrawn);
    *done |= first.edges;
    if first.end == Some(r) {
        return path_hash(LOOP, LOOP, first.boxes + 1);
    }
    let second = walk(r, b, two, undrawn);
    *done |= second.edges;
    path_hash(name(first.end), name(second.end), first.boxes + second.boxes + 1)
}

/// The hash of the path from joint `r` out along its undrawn side `side`, its edges added
/// to `done`.
fn path_from_joint(r: usize, side: usize, two: u32, undrawn: u64, done: &mut u64) -> u64 {
    let path = walk(r, side, two, undrawn);
    *done |= path.edges;
    path_hash(r as u64, name(path.end), path.boxes)
}

/// A path end's name: a joint's square, or the ground.
fn name(end: Option<usize>) -> u64 {
    end.map_or(GROUND, |j| j as u64)
}

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

    /// The key of a position reached by several edges at once (as the solver's forced
    /// captures reach one) from the base's key equals the key computed afresh.
    #[test]
    fn the_key_after_several_edges_equals_the_fresh_one() {
        let mut rng = fastrand::Rng::with_seed(8);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut base = Position::start();
            loop {
                base.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let (mut p, mut touched) = (base, 0);
                for _ in 0..rng.usize(1..=moves.len().min(5)) {
                    p.legal_moves(&mut moves);
                    let e = moves[rng.usize(..moves.len())];
                    p.play(e);
                    touched |= Position::boxes_beside(e);
                }
                assert_eq!(p.graph_key_from(&base, base.graph_key(), touched), p.graph_key(), "{base}\nto\n{p}");
                base = p;
            }
        }
    }
}
