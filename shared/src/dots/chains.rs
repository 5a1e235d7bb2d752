//! Chain analysis: the structure Dots-and-Boxes theory reasons about (Berlekamp, "The
//! Dots-and-Boxes Game"). An untaken box's *degree* is its number of undrawn sides; a box
//! of degree 1 can be taken; an edge that leaves no box of degree 1 behind is *safe*.
//! Once every untaken box has degree 2 the boxes form independent chains (ending on the
//! board's border at both ends) and loops, and the game's value follows from their
//! lengths alone ([`loony_value`]).

use super::board::{BOXES, BOX_EDGES, EDGES, EDGE_BOXES};
use super::symmetry::CORNER_PAIRS;
use super::{Edge, Position};
use crate::game::Game;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Every edge's bit in an edge word.
pub(super) const ALL_EDGES: u64 = (1 << EDGES) - 1;

/// A part of a position in which every box has degree 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    /// `n` boxes in a row, both ends on the border.
    Chain(u8),
    /// `n` boxes in a cycle.
    Loop(u8),
}

/// What to consider when a box can be taken. Every other move does no better (see
/// [`Position::capture`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// The one move worth trying: taking the box with this edge changes no other box's
    /// degree to 1, or the only alternative, declining, would hand over more than the
    /// chain's last two boxes ([`Position::declines_too_early`]).
    Forced(Edge),
    /// The only box that can be taken is one end of a chain that goes on: take it (the
    /// first edge), or decline with the double-dealing edge (the second), the far side of
    /// the next box.
    TakeOrDecline(Edge, Edge),
    /// Several chain ends can be taken (other than [`Capture::OpenFour`]): each taking
    /// edge, plus a double-dealing edge shared by all of them or one that takes a box
    /// itself. One bit per edge.
    Several(u64),
    /// Four boxes in a row, both end boxes takeable (an opened loop's last four, or a
    /// 4-chain open at both ends): each taking edge, and the edge between the middle two,
    /// which declines at both ends at once (it takes nothing and hands over two pairs).
    /// One bit per edge.
    OpenFour(u64),
}

impl Capture {
    /// A taking edge (playouts always take).
    pub fn take(self) -> Edge {
        match self {
            Capture::Forced(e) | Capture::TakeOrDecline(e, _) => e,
            Capture::Several(mask) | Capture::OpenFour(mask) => mask.trailing_zeros() as Edge,
        }
    }

    /// The edges to try.
    pub fn moves(self) -> Vec<Edge> {
        match self {
            Capture::Forced(e) => vec![e],
            Capture::TakeOrDecline(take, decline) => vec![take, decline],
            Capture::Several(mask) | Capture::OpenFour(mask) => edges_in(mask).collect(),
        }
    }
}

impl Position {
    /// The undrawn sides of box `b`.
    pub fn free_sides(&self, b: usize) -> impl Iterator<Item = Edge> {
        edges_in(BOX_EDGES[b] & !self.edge_word())
    }

    /// The box on the other side of `e` from box `b`, or `None` at the border.
    pub fn across(b: usize, e: Edge) -> Option<usize> {
        let other = EDGE_BOXES[e as usize] & !(1 << b);
        (other != 0).then(|| other.trailing_zeros() as usize)
    }

    /// The undrawn side of `b` other than `e` (for a box of degree 2).
    fn other_free_side(&self, b: usize, e: Edge) -> Edge {
        let other = BOX_EDGES[b] & !self.edge_word() & !(1 << e);
        debug_assert!(other != 0, "a box of degree 2");
        other.trailing_zeros() as Edge
    }

    /// The captures to consider, if some box can be taken. Let box B be taken by edge
    /// `e`. Any move `m` that takes nothing and touches no box whose degree `e` changes is
    /// worse than taking first: after "take, then `m`" the opponent faces the position
    /// they face after "`m`, opponent takes", with a box less. So a capture that changes
    /// no other box to degree 1 is forced; when the box ends a chain that goes on, only
    /// the double-dealing edge (the far side of the next box) also touches a changed
    /// box, and it is worth trying only where it hands over the chain's last two boxes;
    /// with several chain ends, one whose chain goes on past its next box is taken first
    /// (but at four in a row open at both ends), and each one's double-dealing edge is
    /// beaten by taking at another end unless it also touches that end's next box.
    pub fn capture(&self) -> Option<Capture> {
        // At most one chain end per box; an array, as the solver asks at every node.
        let counts = self.side_counts();
        let three = counts.boxes_with(3);
        if three == 0 {
            return None;
        }
        let two = counts.boxes_with(2);
        let mut found = [(0 as Edge, 0 as Edge); BOXES];
        let mut count = 0;
        for b in bits(three) {
            let e = self.free_sides(b).next().expect("degree 1");
            match Self::across(b, e) {
                Some(next) if two >> next & 1 != 0 => {
                    found[count] = (e, self.other_free_side(next, e));
                    count += 1;
                }
                _ => return Some(Capture::Forced(e)),
            }
        }
        let ends = &found[..count];
        match *ends {
            [] => None,
            [(take, decline)] if self.declines_too_early(take, decline) => Some(Capture::Forced(take)),
            [(take, decline)] => Some(Capture::TakeOrDecline(take, decline)),
            [(take_a, decline), (take_b, other)] if decline == other => {
                Some(Capture::OpenFour(1 << take_a | 1 << take_b | 1 << decline))
            }
            _ => {
                // An end whose chain goes on past the next box is taken first, unless its
                // double-dealing edge is another end's too (the middle of four in a row
                // open at both ends, which declines both at once). A turn that ends
                // without that take ends with a move that does better after it: one that
                // touches neither box, or the decline, which hands over more than the last
                // two; and takes elsewhere commute with it.
                let alone = |d: Edge| ends.iter().filter(|&&(_, other)| other == d).count() == 1;
                if let Some(&(take, _)) = ends.iter().find(|&&(t, d)| alone(d) && self.declines_too_early(t, d)) {
                    return Some(Capture::Forced(take));
                }
                let mut mask = 0u64;
                for &(take, decline) in ends {
                    mask |= 1 << take;
                    // `three` holds the boxes an edge completes: no need to count sides again.
                    if EDGE_BOXES[decline as usize] & three != 0 || ends.iter().all(|&(_, d)| d == decline) {
                        mask |= 1 << decline;
                    }
                }
                Some(Capture::Several(mask))
            }
        }
    }

    /// Whether declining with `decline` (the far side of box Y, the box beyond the one
    /// `take` takes) hands over a chain that goes on past Y: then box Z beyond `decline`
    /// has degree 2 and becomes takeable. Taking first and declining one box later leads
    /// to the same edges with the same side to move once the opponent has taken what it
    /// is given, with two boxes more for the decliner, so this decline is never best.
    pub fn declines_too_early(&self, take: Edge, decline: Edge) -> bool {
        let y = bits(EDGE_BOXES[take as usize] & EDGE_BOXES[decline as usize]).next();
        y.and_then(|y| Self::across(y, decline)).is_some_and(|z| self.box_sides(z) == 2)
    }

    /// The legal edges worth trying, in edge order: where a box can be taken, the
    /// [`Position::capture`] candidates; elsewhere [`Position::quiet_moves_worth_trying`].
    /// Always includes an optimal move; empty only when every edge is drawn.
    pub fn moves_worth_trying(&self) -> Vec<Edge> {
        let Some(capture) = self.capture() else { return self.quiet_moves_worth_trying() };
        let candidates = capture.moves();
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.retain(|e| candidates.contains(e));
        moves
    }

    /// Where no box can be taken: every undrawn edge but the redundant sacrifices and, of
    /// a corner box's two border edges, the second while the first is kept (they are
    /// equivalent: strings from one coin to the ground), in edge order.
    pub fn quiet_moves_worth_trying(&self) -> Vec<Edge> {
        edges_in(self.quiet_moves_mask()).collect()
    }

    /// [`Position::quiet_moves_worth_trying`] as a word, bit `e` for edge `e` (the solver's
    /// form: no allocation).
    pub fn quiet_moves_mask(&self) -> u64 {
        let drawn = self.edge_word();
        let redundant = self.redundant_sacrifices();
        // The sacrifice rule may have left out a corner's first edge already.
        let kept = !(drawn | redundant) & ALL_EDGES;
        let mut mask = kept;
        for &(a, b) in &CORNER_PAIRS {
            if kept >> a & 1 != 0 {
                mask &= !(1 << b);
            }
        }
        mask
    }

    /// Edges not worth trying when no box can be taken: sacrifices that another edge of
    /// the same chain makes as well or better. A *segment* is a maximal path of boxes of
    /// degree 2 (or a cycle of them); the edges it can be cut at are its inner sides and
    /// its two end sides (towards the border or a box of degree 3 or 4). Cutting either end
    /// leads, whatever the opponent does (take it all, or all but the last two), to the
    /// same edges, boxes and side to move once the boxes handed over are taken, so one end
    /// is enough. In a segment of 3 or more boxes an inner cut offers the opponent both of
    /// those choices and more, so it is never better than an end. A 2-box segment is cut
    /// in its middle only (the hard-hearted handout: the opponent takes both, and an end
    /// cut would also let them decline both, with the same edges drawn either way); a
    /// cycle needs one cut.
    pub fn redundant_sacrifices(&self) -> u64 {
        let two = self.side_counts().boxes_with(2);
        let mut seen = 0u32;
        let mut redundant = 0u64;
        for start in bits(two) {
            if seen >> start & 1 != 0 {
                continue;
            }
            // Walk to one end of the segment (or round a cycle back to `start`).
            let (mut cur, mut came_by) = (start, self.free_sides(start).next().expect("degree 2"));
            let mut cycle = false;
            loop {
                let out = self.other_free_side(cur, came_by);
                match Self::across(cur, out) {
                    Some(next) if two >> next & 1 != 0 => {
                        if next == start {
                            cycle = true;
                            break;
                        }
                        (cur, came_by) = (next, out);
                    }
                    _ => {
                        came_by = out;
                        break;
                    }
                }
            }
            // From that end, walk the cuts in order: end side, inner sides, far end side.
            // All but the first are redundant, but for a 2-box path: all but the second.
            let first = came_by;
            let (mut cur, mut came_by) = (cur, came_by);
            let (mut later, mut second, mut cuts) = (0u64, None, 1usize);
            loop {
                seen |= 1 << cur;
                let out = self.other_free_side(cur, came_by);
                later |= 1 << out;
                second = second.or(Some(out));
                cuts += 1;
                match Self::across(cur, out) {
                    Some(next) if two >> next & 1 != 0 && seen >> next & 1 == 0 => (cur, came_by) = (next, out),
                    _ => break,
                }
            }
            if cycle {
                cuts -= 1; // the closing side is the first one again
            }
            let boxes = cuts - usize::from(!cycle);
            // A 2-box path keeps only its middle: it hands over both boxes, which the
            // opponent then takes (no other box comes down to one undrawn side), while an
            // end cut lets them take both or decline both, the same edges drawn either way.
            let kept = if !cycle && boxes == 2 { second.expect("a segment has a second cut") } else { first };
            redundant |= (later | 1 << first) & !(1 << kept);
        }
        redundant
    }

    /// The chains and loops of the position when every untaken box has degree 2 (then no
    /// move is safe and none takes a box); `None` otherwise.
    pub fn simple_components(&self) -> Option<Vec<Component>> {
        let untaken = self.untaken_boxes();
        if untaken & !self.side_counts().boxes_with(2) != 0 {
            return None;
        }
        let mut seen = 0u32;
        let mut parts = Vec::new();
        // Chains: walk from a box with a side on the border to the border again.
        for b in bits(untaken) {
            if seen >> b & 1 != 0 {
                continue;
            }
            let Some(border) = self.free_sides(b).find(|&e| Self::across(b, e).is_none()) else { continue };
            let (mut cur, mut came_by, mut len) = (b, border, 0u8);
            loop {
                seen |= 1 << cur;
                len += 1;
                let out = self.other_free_side(cur, came_by);
                match Self::across(cur, out) {
                    Some(next) => (cur, came_by) = (next, out),
                    None => break,
                }
            }
            parts.push(Component::Chain(len));
        }
        // Loops: whatever is left, walked round back to its first box.
        for b in bits(untaken) {
            if seen >> b & 1 != 0 {
                continue;
            }
            let (mut cur, mut came_by, mut len) = (b, self.free_sides(b).next().expect("degree 2"), 0u8);
            loop {
                seen |= 1 << cur;
                len += 1;
                let out = self.other_free_side(cur, came_by);
                let next = Self::across(cur, out).expect("a loop never reaches the border");
                if next == b {
                    break;
                }
                (cur, came_by) = (next, out);
            }
            parts.push(Component::Loop(len));
        }
        Some(parts)
    }
}

/// The edges of an edge word (bit `e` for edge `e`), lowest first.
pub fn edges_in(mut word: u64) -> impl Iterator<Item = Edge> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let e = word.trailing_zeros() as Edge;
            word &= word - 1;
            e
        })
    })
}

pub(super) fn bits(mut word: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let b = word.trailing_zeros() as usize;
            word &= word - 1;
            b
        })
    })
}

/// The value, for the side to move, of a position made only of `parts`: the boxes it
/// will still take minus the opponent's, with best play. The side to move must open a
/// component; the other side then takes it all and moves next, or keeps control by
/// taking all but 2 boxes of a chain (all but 4 of a loop) and handing those back.
/// Opening a 2-chain in its middle denies that choice, so short chains are simply lost.
pub fn loony_value(parts: &[Component]) -> i32 {
    let mut sorted = parts.to_vec();
    sorted.sort_unstable();
    LOONY_MEMO.with_borrow_mut(|memo| {
        if memo.len() > LOONY_MEMO_CAP {
            memo.clear();
        }
        loony_value_sorted(&sorted, memo)
    })
}

thread_local! {
    /// Kept between calls: the solver asks for the same few thousand sets of chains and
    /// loops at hundreds of thousands of leaves, and a fresh memo per call was a twentieth
    /// of its time.
    static LOONY_MEMO: std::cell::RefCell<LoonyMemo> = std::cell::RefCell::new(LoonyMemo::default());
}

/// Entries (32 bytes each) after which the memo starts again: a bound on its memory (8 MB)
/// above what a game's searches fill.
const LOONY_MEMO_CAP: usize = 1 << 18;

/// The memo of [`loony_value`], keyed on a sorted list of components packed 6 bits each
/// (a 5x5 board has at most 10 chains, their 20 ends on the border, and 6 loops).
type LoonyMemo = HashMap<u128, i32, BuildHasherDefault<PackedHasher>>;

fn pack(parts: &[Component]) -> u128 {
    debug_assert!(parts.len() <= 21, "{} components do not fit the key", parts.len());
    parts.iter().fold(0u128, |key, &part| {
        let code = match part {
            Component::Chain(n) => n,
            Component::Loop(n) => 32 | n,
        };
        key << 6 | u128::from(code)
    })
}

/// A multiplicative hash for the packed keys: the standard hasher was a tenth of the
/// solver's time.
#[derive(Default)]
struct PackedHasher(u64);

impl Hasher for PackedHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = crate::game::mix64(key as u64 ^ crate::game::mix64((key >> 64) as u64));
    }
}

fn loony_value_sorted(parts: &[Component], memo: &mut LoonyMemo) -> i32 {
    if parts.is_empty() {
        return 0;
    }
    let key = pack(parts);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = i32::MIN;
    let mut rest = Vec::with_capacity(parts.len());
    for i in 0..parts.len() {
        if i > 0 && parts[i] == parts[i - 1] {
            continue;
        }
        rest.clear();
        rest.extend(parts.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &part)| part));
        let r = loony_value_sorted(&rest, memo);
        let value = match parts[i] {
            Component::Chain(n) if n <= 2 => -i32::from(n) - r,
            Component::Chain(n) => (-i32::from(n) - r).min(4 - i32::from(n) + r),
            Component::Loop(n) => (-i32::from(n) - r).min(8 - i32::from(n) + r),
        };
        best = best.max(value);
    }
    memo.insert(key, best);
    best
}
