//! The exact Dots-and-Boxes solver: alpha-beta on the value "boxes the side to move still
//! takes minus the other side's". That value depends only on the strings-and-coins graph
//! of the untaken boxes and the undrawn edges (not on the score so far, who is to move,
//! or where the boxes lie), so the transposition table is keyed on that graph with its
//! paths of two-sided boxes contracted ([`Position::graph_key`]): positions that took
//! other chains but left the same graph share an entry, and so do a corner box's two
//! border edges (Barker and Korf's corner symmetry). On logged positions at 40 undrawn
//! edges that is 37% fewer nodes than the canonical edge word under the board's
//! symmetries it replaced, and a quarter less time. The
//! table holds two entries per slot pair and keeps the larger search. What makes it fast
//! is Dots-and-Boxes theory ([`Position::capture`], [`Position::simple_components`]): a
//! box that can be taken leaves one to three moves worth trying, and a position of
//! independent chains and loops is valued without search. Moves are tried safe edges
//! first, then by the boxes they hand over; among equals, those beside boxes with more
//! sides drawn, then central edges; but the table's hint first, and next the sacrifice
//! that refuted the sibling searched before, if one did (12% fewer nodes at 40 undrawn
//! edges).
//!
//! Where no box can be taken, only the moves worth trying are searched
//! ([`Position::quiet_moves_worth_trying`]: no redundant sacrifice, a 2-box segment cut
//! in its middle only, one edge of an open corner). On positions from logged games
//! against Dabble (`experiments dots-solver`), all of this took the mean time to solve 34
//! undrawn edges from 0.65 s to 0.19 s and 36 undrawn edges from 3.4 s (4 of 28 unsolved
//! within 10 s) to 0.62 s (the middle cut of 2-box segments came later: 20% fewer nodes at
//! 38 undrawn edges).
//!
//! Forced captures are taken in a loop, not as nodes, and a position whose one takeable
//! box ends a declinable chain is worth at least 0 to the mover (take both last boxes or
//! hand them over: the same edges follow), which cuts it off wherever the window asks for
//! no more: the exact value at 38 undrawn edges went from 0.36 s to 0.19 s on average.
//! Since a value has the parity of the boxes left, that floor is 1 where they are odd in
//! number: 13% fewer nodes, 10% less time for the verdicts at 40 undrawn edges.
//! Far from the leaves a child already in the table can refute a node before any search
//! (enhanced transposition cutoffs, [`ETC_FROM`]); nearer them the table's hint is searched
//! before the other moves are listed and ordered, which a refuting hint makes needless
//! (on self-play positions at 40 undrawn edges, about 10% less time for 0.13% more nodes).

use crate::dots::eval::margin;
use crate::dots::{edges_in, loony_value, Capture, Edge, Position, EDGES};
use crate::game::Game;
use crate::search::pair_table::{PairEntry, PairTable};
use crate::search::Budget;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// [`slot_key`] of the graph key. A hash: two graphs share one by chance about once in
    /// 2^63 lookups.
    key: u64,
    lower: i8,
    upper: i8,
    best: u8,
    /// Undrawn edges of the position: the size of the search it saves.
    undrawn: u8,
}

impl PairEntry for Slot {
    fn key(&self) -> u64 {
        self.key
    }
    fn weight(&self) -> u64 {
        u64::from(self.undrawn)
    }
}

/// The verdict of a root search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    pub best: Edge,
    /// Future boxes of the side to move minus the opponent's after `best`, exactly, or at
    /// least `value` when `winning` and the search stopped at the first winning move.
    pub value: i32,
    pub winning: bool,
}

pub struct Solver {
    /// Allocated by the first search (a bot that never solves never pays for it).
    table: PairTable<Slot>,
    slots: usize,
    /// Root moves the last search proved not to win.
    refuted: Vec<Edge>,
    /// Whether the last root search refuted every root move (see [`Solver::proved_lost`]).
    lost: bool,
    nodes: u64,
    stopped: bool,
    /// Moves between the root and the node being searched.
    ply: usize,
    /// By ply: the sacrifice that refuted the last sibling searched at that ply, if its
    /// refutation was one ([`NO_EDGE`] otherwise), tried early by the next sibling.
    sibling_sacrifice: [Edge; EDGES + 2],
}

/// No edge: an empty [`Solver::sibling_sacrifice`] entry.
const NO_EDGE: Edge = Edge::MAX;

const UNBOUNDED: i32 = 100;

/// The best move of a node so far, its value, and the window's lower end it raised.
struct Best {
    value: i32,
    edge: Edge,
    alpha: i32,
}

/// Table slots a millisecond of search can fill: two for each of about 2,000 nodes.
const SLOTS_PER_MS: usize = 4096;

/// The smallest table (1 MB), for the shortest turns.
const MIN_SLOTS: usize = 1 << 16;

impl Solver {
    /// A solver with `2^log2_slots` table slots (16 bytes each).
    pub fn new(log2_slots: u32) -> Solver {
        Solver {
            table: PairTable::empty(),
            slots: 1 << log2_slots,
            refuted: Vec::new(),
            lost: false,
            nodes: 0,
            stopped: false,
            ply: 0,
            sibling_sacrifice: [NO_EDGE; EDGES + 2],
        }
    }

    /// The root moves the last [`Solver::solve`] proved not to win before it ended: when
    /// it ran out of time, a caller still knows to avoid them.
    pub fn refuted(&self) -> &[Edge] {
        &self.refuted
    }

    /// Whether the last [`Solver::solve`] refuted every root move: the position is lost,
    /// proved, even where the search for the smallest loss that follows ran out of time
    /// (on one logged position at 44 undrawn edges it took 17 M of the 24 M nodes: the move
    /// that loses by the least needs a proof of its own).
    pub fn proved_lost(&self) -> bool {
        self.lost
    }

    /// Nodes of the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of drawing `e` for the side that draws it, searched in `(alpha, beta)`;
    /// `key` is `p`'s graph key.
    fn move_value(&mut self, p: &Position, key: u64, e: Edge, alpha: i32, beta: i32, budget: &Budget) -> i32 {
        let taken = p.boxes_completed_by(e) as i32;
        let mut child = *p;
        child.play(e);
        let key = PendingKey { base: *p, key, touched: Position::boxes_beside(e) };
        if taken > 0 {
            taken + self.search(&child, key, alpha - taken, beta - taken, budget)
        } else {
            -self.search(&child, key, -beta, -alpha, budget)
        }
    }

    /// The position's value if it lies in `(alpha, beta)`; otherwise a bound on the side
    /// of the window it fell (fail-soft). Meaningless once `stopped`.
    fn search(&mut self, p: &Position, mut key: PendingKey, alpha: i32, beta: i32, budget: &Budget) -> i32 {
        // Forced captures are taken here, in a loop: they are no choice, so neither a node
        // nor a table entry.
        let mut p = *p;
        let mut taken = 0;
        let capture = loop {
            if p.untaken_boxes() == 0 {
                return taken;
            }
            match p.capture() {
                Some(Capture::Forced(e)) => {
                    taken += p.boxes_completed_by(e) as i32;
                    p.play(e);
                    key.touched |= Position::boxes_beside(e);
                }
                other => break other,
            }
        };
        // Where the boxes offered can be declined (a chain's last two, or two pairs at
        // once), the mover can take them and move on (n + R, R the rest's value) or hand
        // them over (-n - R): the same edges are drawn either way, so the better is at
        // least 0, and at least 1 when the boxes left are odd in number (a value has their
        // parity). (Not so with other chain ends: a 3-chain open at both ends cannot be
        // declined.)
        if matches!(capture, Some(Capture::TakeOrDecline(..) | Capture::OpenFour(_))) {
            let floor = (p.untaken_boxes().count_ones() & 1) as i32;
            if beta - taken <= floor {
                return taken + floor;
            }
        }
        taken + self.search_choice(&p, key, capture, alpha - taken, beta - taken, budget)
    }

    /// [`Solver::search`] where the side to move has a choice: `capture` is what
    /// [`Position::capture`] says of `p`.
    fn search_choice(
        &mut self,
        p: &Position,
        key: PendingKey,
        capture: Option<Capture>,
        mut alpha: i32,
        mut beta: i32,
        budget: &Budget,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && budget.exhausted_nodes(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let mut list = MoveList::default();
        match capture {
            // Not passed by `search`, which takes forced captures itself; one move anyway.
            Some(Capture::Forced(e)) => list.push(e),
            Some(Capture::TakeOrDecline(take, decline)) => {
                list.push(take);
                list.push(decline);
            }
            Some(Capture::Several(mask) | Capture::OpenFour(mask)) => edges_in(mask).for_each(|e| list.push(e)),
            None => {
                if let Some(parts) = p.simple_components() {
                    return loony_value(&parts);
                }
            }
        }
        let key = key.resolve(p);
        let mut hint = None;
        if let Some(&slot) = self.table.get(slot_key(key)) {
            let (lower, upper) = (i32::from(slot.lower), i32::from(slot.upper));
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            // The best move of the position that stored the entry: the same graph, but maybe
            // other edges, so only an order hint (it is tried first only if it is a move here).
            hint = Some(slot.best);
        }
        let quiet = list.len == 0;
        let mut best = Best { value: -UNBOUNDED, edge: NO_EDGE, alpha };
        self.sibling_sacrifice[self.ply + 1] = NO_EDGE;
        if quiet {
            if 60 - p.drawn_count() >= ETC_FROM {
                list = ordered_quiet_moves(p, p.quiet_moves_mask());
                if let Some(v) = self.transposition_cutoff(p, key, &list.edges[..list.len], beta) {
                    return v;
                }
            } else {
                // The table's hint is searched before the other moves are listed: where it
                // refutes the node, as it mostly does, they are never needed.
                let mut searched = 0u64;
                if let Some(h) = hint.take().filter(|&h| p.edge_word() >> h & 1 == 0) {
                    searched = 1 << h;
                    self.search_moves(p, key, &[h], beta, &mut best, budget);
                    if self.stopped {
                        return 0;
                    }
                }
                if best.value < beta {
                    list = ordered_quiet_moves(p, p.quiet_moves_mask() & !searched);
                }
            }
        }
        let moves = &mut list.edges[..list.len];
        // First the table's hint, then a sacrifice that refuted a sibling: where safe
        // edges did not refute a sibling, a handout (the fight for control) often refutes
        // this node too, while the static order tries every safe edge first.
        let sacrifice = if quiet { self.sibling_sacrifice[self.ply] } else { NO_EDGE };
        for first in [sacrifice, hint.unwrap_or(NO_EDGE)] {
            if let Some(i) = moves.iter().position(|&e| e == first) {
                moves[..=i].rotate_right(1);
            }
        }
        self.search_moves(p, key, moves, beta, &mut best, budget);
        if self.stopped {
            return 0;
        }
        let (best, best_move) = (best.value, best.edge);
        if quiet && best >= beta {
            let hands_over = p.sides_after_hint(best_move) > 0;
            self.sibling_sacrifice[self.ply] = if hands_over { best_move } else { NO_EDGE };
        }
        let (lower, upper) = if best <= alpha {
            (-UNBOUNDED, best)
        } else if best >= beta {
            (best, UNBOUNDED)
        } else {
            (best, best)
        };
        let undrawn = (60 - p.drawn_count()) as u8;
        self.table.store(Slot { key: slot_key(key), lower: lower as i8, upper: upper as i8, best: best_move, undrawn });
        best
    }

    /// Enhanced transposition cutoff: a child of `p` (by a quiet move of `moves`) that the
    /// table already bounds low enough for the opponent refutes `p` without a search; its
    /// value then. (A quiet move takes no box, so the child's value is the negation of the
    /// move's.) Every child's key first, each slot asked of the memory at once: the misses
    /// overlap instead of following one another.
    fn transposition_cutoff(&self, p: &Position, key: u64, moves: &[Edge], beta: i32) -> Option<i32> {
        let mut keys = [0u64; EDGES];
        for (k, &e) in keys.iter_mut().zip(moves) {
            let mut child = *p;
            *k = slot_key(child.play_keyed(e, key));
            self.table.prefetch(*k);
        }
        keys[..moves.len()]
            .iter()
            .filter_map(|&k| self.table.get(k))
            .map(|child| -i32::from(child.upper))
            .find(|&v| v >= beta)
    }

    /// Searches `moves` of `p` in turn until one reaches `beta`, raising `best` (and its
    /// `alpha`) as they go (`best` may come from moves searched before).
    fn search_moves(&mut self, p: &Position, key: u64, moves: &[Edge], beta: i32, best: &mut Best, budget: &Budget) {
        for &e in moves {
            self.ply += 1;
            let v = self.move_value(p, key, e, best.alpha, beta, budget);
            self.ply -= 1;
            if self.stopped {
                return;
            }
            if v > best.value {
                *best = Best { value: v, edge: e, alpha: best.alpha.max(v) };
                if best.alpha >= beta {
                    return;
                }
            }
        }
    }

    /// Starts a search: the node count (checked against the budget's cap) and the stop
    /// flag belong to one search, the table to all of them. The table is made big enough
    /// for the time the budget leaves (writing all 2^22 slots costs a fresh process about
    /// 35 ms, while a 25 ms search stores a few ten thousand positions): it grows (empty)
    /// when a later budget needs more and never shrinks, so a kept process keeps what it
    /// learnt. A budget with a node cap (a fixed, reproducible search) gets every slot.
    fn start(&mut self, budget: &Budget) {
        let wanted = match (budget.max_iterations, budget.deadline.remaining()) {
            (None, Some(left)) => (left.as_millis() as usize).saturating_mul(SLOTS_PER_MS),
            _ => self.slots,
        };
        let size = wanted.max(MIN_SLOTS).next_power_of_two().min(self.slots);
        if self.table.len() < size {
            self.table = PairTable::new(size);
        }
        self.nodes = 0;
        self.stopped = false;
        self.ply = 0;
        self.sibling_sacrifice = [NO_EDGE; EDGES + 2];
        self.refuted.clear();
        self.lost = false;
    }

    /// The position's exact value, or `None` if the budget ran out first.
    pub fn value(&mut self, p: &Position, budget: &Budget) -> Option<i32> {
        self.start(budget);
        let v = self.search(p, PendingKey::of(p), -UNBOUNDED, UNBOUNDED, budget);
        (!self.stopped).then_some(v)
    }

    /// Solves the root: the first move found that wins the game (the score so far
    /// included), or, when every move loses, the one that loses by the least. `None` if
    /// the budget ran out first.
    pub fn solve(&mut self, p: &Position, root_moves: &[Edge], budget: &Budget) -> Option<Solved> {
        let mut moves = root_moves.to_vec();
        moves.sort_by_key(|&e| p.sides_after_hint(e));
        self.solve_in_order(p, &moves, budget)
    }

    /// [`Solver::solve`], trying `root_moves` in the order given.
    pub fn solve_in_order(&mut self, p: &Position, root_moves: &[Edge], budget: &Budget) -> Option<Solved> {
        self.start(budget);
        // 25 boxes leave no draw: a final margin of at least 1 wins.
        let need = 1 - margin(p, p.to_move());
        let key = p.graph_key();
        let capture = p.capture().map(Capture::moves);
        let mut moves: Vec<Edge> =
            root_moves.iter().copied().filter(|e| capture.as_ref().is_none_or(|c| c.contains(e))).collect();
        if moves.is_empty() {
            moves = root_moves.to_vec();
        }
        // Each refuted move's fail-soft value bounds it from above.
        let mut bounds = Vec::with_capacity(moves.len());
        for &e in &moves {
            let v = self.move_value(p, key, e, need - 1, need, budget);
            if self.stopped {
                return None;
            }
            if v >= need {
                return Some(Solved { best: e, value: v, winning: true });
            }
            self.refuted.push(e);
            bounds.push((e, v));
        }
        // Every move loses: keep the loss as small as possible. Every move's value has the
        // parity of the boxes left, so probing "at least t?" for t from the highest bound
        // down in steps of 2 finds it: where a move first passes, the others are at most
        // t (they failed at t + 2 or were bounded below it) and it is exactly t. Null
        // windows cost far less than a wide one, and the bounds skip most moves.
        self.lost = true;
        let parity = (p.untaken_boxes().count_ones() & 1) as i32;
        let highest = bounds.iter().map(|&(_, v)| v).max().expect("a legal move");
        let mut t = highest - (highest - parity).rem_euclid(2);
        loop {
            for (e, bound) in bounds.iter_mut() {
                if *bound < t {
                    continue;
                }
                let v = self.move_value(p, key, *e, t - 1, t, budget);
                if self.stopped {
                    return None;
                }
                if v >= t {
                    return Some(Solved { best: *e, value: t, winning: false });
                }
                *bound = v;
            }
            t -= 2;
        }
    }
}

/// The moves the solver tries where no box can be taken, in order: those worth trying
/// ([`Position::quiet_moves_worth_trying`]), in the order the solver tries them: safe edges
/// first, then by the boxes they hand over; among equals, those beside boxes with more
/// sides drawn, then central edges.
pub fn moves_to_try(p: &Position) -> Vec<Edge> {
    let list = ordered_quiet_moves(p, p.quiet_moves_mask());
    list.edges[..list.len].to_vec()
}

/// Up to 60 edges on the stack: the solver lists moves at every node.
struct MoveList {
    edges: [Edge; EDGES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList { edges: [0; EDGES], len: 0 }
    }
}

impl MoveList {
    fn push(&mut self, e: Edge) {
        self.edges[self.len] = e;
        self.len += 1;
    }
}

/// Enhanced transposition cutoffs from this many undrawn edges up: on logged positions at
/// 40 undrawn edges (`experiments dots-solver --verdict`) they took 18% of the nodes and
/// 13% of the mean time off (58.6M to 48.1M nodes, 0.54 s to 0.47 s); applied down to 28
/// or 20 undrawn edges, probing every child cost more time than the nodes it saved.
const ETC_FROM: u32 = 32;

/// [`moves_to_try`] without allocating: each edge packed with its order key and the
/// packed words sorted. The key: the boxes it hands over; then, fewer last, the sides
/// already drawn of the boxes beside it (on logged positions at 38 undrawn edges, 6% fewer
/// nodes than without); then the distance from the board's centre; then the edge itself,
/// so that equals keep edge order.
fn ordered_quiet_moves(p: &Position, worth: u64) -> MoveList {
    let counts = p.side_counts();
    let two = counts.boxes_with(2);
    let mut keys = [0u16; EDGES];
    let mut len = 0;
    for e in edges_in(worth) {
        let (x, y) = crate::dots::io::grid(e);
        let distance = ((x - 5).abs() + (y - 5).abs()) as u16;
        let beside = Position::boxes_beside(e);
        // `sides_after_hint`, with the side counts taken once for all edges.
        let handed = (beside & two).count_ones() as u16;
        let fewer_drawn = 8 - counts.drawn_sides_of(beside) as u16;
        // 2 + 4 + 4 + 6 bits: handed 0-2, fewer_drawn 0-8, distance 0-9, the edge 0-59.
        keys[len] = ((handed << 4 | fewer_drawn) << 4 | distance) << 6 | u16::from(e);
        len += 1;
    }
    keys[..len].sort_unstable();
    let mut list = MoveList::default();
    for &key in &keys[..len] {
        list.push((key & 63) as Edge);
    }
    list
}

/// A position's graph key, computed only where the table is asked: that of `base`, and
/// the boxes beside the edges drawn since ([`Position::graph_key_from`]). Many children
/// never get that far (the game ends, or the chains and loops are valued at once), and
/// a run of forced captures costs one walk, not one per box.
#[derive(Clone, Copy)]
struct PendingKey {
    base: Position,
    key: u64,
    touched: u32,
}

impl PendingKey {
    fn of(p: &Position) -> PendingKey {
        PendingKey { base: *p, key: p.graph_key(), touched: 0 }
    }

    /// The key of `p`, the position `base` became.
    fn resolve(&self, p: &Position) -> u64 {
        p.graph_key_from(&self.base, self.key, self.touched)
    }
}

/// The table's key for a graph key: its lowest bit set, as 0 marks an empty slot.
fn slot_key(graph_key: u64) -> u64 {
    graph_key | 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position with `undrawn` edges left: the lowest safe edge each time while there is
    /// one, else the lowest edge.
    fn position(undrawn: u32) -> Position {
        let mut p = Position::start();
        let mut moves = Vec::new();
        while 60 - p.drawn_count() > undrawn {
            p.legal_moves(&mut moves);
            let e = moves.iter().copied().find(|&e| p.sides_after_hint(e) == 0).unwrap_or(moves[0]);
            p.play(e);
        }
        p
    }

    #[test]
    fn a_loss_is_proved_once_every_root_move_is_refuted() {
        let mut solver = Solver::new(16);
        let mut moves = Vec::new();
        let (mut won, mut lost) = (0, 0);
        for undrawn in 8..=20 {
            let p = position(undrawn);
            p.legal_moves(&mut moves);
            let solved = solver.solve(&p, &moves, &Budget::iterations(u64::MAX)).expect("no limit");
            assert_eq!(solver.proved_lost(), !solved.winning, "{undrawn} undrawn: {solved:?}");
            if solved.winning {
                won += 1;
            } else {
                lost += 1;
            }
        }
        assert!(won > 0 && lost > 0, "both kinds among the positions ({won} won, {lost} lost)");
    }

    #[test]
    fn the_node_count_and_cap_belong_to_one_search() {
        let mut solver = Solver::new(16);
        let unlimited = Budget::iterations(u64::MAX);
        let big = position(40);
        let mut moves = Vec::new();
        big.legal_moves(&mut moves);
        solver.solve(&big, &moves, &unlimited).expect("no limit");
        let first = solver.nodes();
        assert!(first > 1000, "the first search is not small ({first} nodes)");
        let small = position(6);
        small.legal_moves(&mut moves);
        // A cap just above the small search's own needs is enough however much came before.
        assert!(solver.solve(&small, &moves, &Budget::iterations(first)).is_some());
        assert!(solver.nodes() < first, "{} nodes counted for the small search", solver.nodes());
    }
}
