//! The NoGo endgame solver: a depth-first proof search on the group board.
//!
//! NoGo has no draw and no game outlasts its empty points, so a position is simply won or
//! lost for the side to move, and a search needs no evaluation and no depth: it proves.
//! Each node plays all its moves once on copies of the group board (a few bitboard
//! operations each) to order them, and in doing so finds at once a move that leaves the
//! opponent without a legal point, or a child the table already knows to be lost for the
//! opponent (an enhanced transposition cutoff). The rest are searched in order of the
//! opponent's legal points left, then the mover's: in NoGo the side left without a legal
//! point loses, so a move that takes the opponent's points and keeps one's own is the
//! likely refutation. The table keeps proofs only (won or lost for the side to move), two
//! slots per key, and where both are taken the smaller proof gives way.

use crate::game::{mix64, Player};
use crate::nogo::{GroupBoard, Point, Position};
use crate::search::pair_table::{PairEntry, PairTable};
use crate::search::Budget;

/// A proven position: its key, whether the side to move wins, and (for a win) the move.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// 0: empty slot; 1: the side to move wins; 2: it loses.
    value: u8,
    best: Point,
    /// Nodes the proof took: of two entries competing for a slot pair, the one that saves
    /// less search gives way.
    work: u32,
}

impl PairEntry for Entry {
    fn key(&self) -> u64 {
        self.key
    }
    fn weight(&self) -> u64 {
        u64::from(self.work)
    }
}

const WIN: u8 = 1;
const LOSS: u8 = 2;

/// A proof's result at the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proven {
    /// The side to move wins by playing this move.
    Win(Point),
    /// Every move loses against best play.
    Loss,
}

/// The `mcts` engine's table for the proof search: 8 MB (the experiments that measure
/// what the bot's search reaches use the same).
pub const BOT_TABLE_BYTES: usize = 8 << 20;

pub struct Solver {
    table: PairTable<Entry>,
    table_bytes: usize,
    nodes: u64,
    aborted: bool,
}

/// A 64-bit key of the stones and the side to move (the solver's own; the table is its).
fn key_of(board: &GroupBoard) -> u64 {
    let (black, white) = (board.stones(Player::First).0, board.stones(Player::Second).0);
    let side = if board.to_move() == Player::First { 0 } else { 0x9e37_79b9_7f4a_7c15 };
    mix64(black as u64 ^ mix64((black >> 64) as u64 ^ 0x5851_f42d_4c95_7f2d))
        ^ mix64(white as u64 ^ mix64((white >> 64) as u64 ^ 0x1405_7b7e_f767_814f)).rotate_left(29)
        ^ side
}

impl Solver {
    /// A solver whose table takes at most `table_bytes`: the largest power of two of
    /// entries that fits (allocated on the first search, so that a bot that never reaches
    /// the endgame never pays for it).
    pub fn new(table_bytes: usize) -> Solver {
        Solver { table: PairTable::empty(), table_bytes, nodes: 0, aborted: false }
    }

    /// Nodes searched by the last call of `solve`.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves `p` won or lost for the side to move, or gives up (`None`) when the budget
    /// runs out (its iteration cap counts nodes).
    pub fn solve(&mut self, p: &Position, budget: &Budget) -> Option<Proven> {
        if self.table.is_empty() {
            self.table = PairTable::new(PairTable::<Entry>::slots_within(self.table_bytes).max(1024));
        }
        self.nodes = 0;
        self.aborted = false;
        let board = GroupBoard::new(p);
        let key = key_of(&board);
        let win = self.search(&board, key, budget);
        if self.aborted {
            return None;
        }
        if !win {
            return Some(Proven::Loss);
        }
        let entry = self.table.get(key).expect("the root's proof is the last stored");
        debug_assert_eq!(entry.value, WIN);
        Some(Proven::Win(entry.best))
    }

    fn probe(&self, key: u64) -> u8 {
        self.table.get(key).map_or(0, |e| e.value)
    }

    /// Stores a proof that took `work` nodes.
    fn store(&mut self, key: u64, value: u8, best: Point, work: u64) {
        self.table.store(Entry { key, value, best, work: work.min(u64::from(u32::MAX)) as u32 });
    }

    /// Whether the side to move wins `board`, whose key is `key`. On abort the answer
    /// means nothing.
    fn search(&mut self, board: &GroupBoard, key: u64, budget: &Budget) -> bool {
        self.nodes += 1;
        let start = self.nodes;
        if self.nodes.is_multiple_of(1024) && budget.exhausted_nodes(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return false;
        }
        match self.probe(key) {
            WIN => return true,
            LOSS => return false,
            _ => {}
        }
        let mover = board.to_move();
        let (me, them) = (mover.index(), mover.other().index());
        let mine = board.legal_for_both()[me];
        // Order: every move played once; a move that wins at once ends the node.
        // (order, move, the child's key, kept for its search)
        let mut order: [(i32, Point, u64); 81] = [(0, 0, 0); 81];
        let mut count = 0;
        for point in mine.iter() {
            let mut child = board.clone();
            child.play(point);
            let legal = child.legal_for_both();
            if legal[them].is_empty() {
                self.store(key, WIN, point, self.nodes - start + 1);
                return true;
            }
            let child_key = key_of(&child);
            // Probed below, once every child is played: by then the slot is in the cache.
            self.table.prefetch(child_key);
            // Fewest legal points left to the opponent first, then most kept for the mover.
            // (Measured with `experiments nogo-solver --nodes 500000`: better than the
            // difference of the two, and than a history of refuting moves as tie-break.)
            let (theirs, ours) = (legal[them].count() as i32, legal[me].count() as i32);
            order[count] = (theirs * 128 - ours, point, child_key);
            count += 1;
        }
        let order = &mut order[..count];
        if let Some(&(_, point, _)) = order.iter().find(|&&(_, _, child_key)| self.probe(child_key) == LOSS) {
            self.store(key, WIN, point, self.nodes - start + 1);
            return true;
        }
        order.sort_unstable();
        for &(_, point, child_key) in order.iter() {
            let mut child = board.clone();
            child.play(point);
            let child_wins = self.search(&child, child_key, budget);
            if self.aborted {
                return false;
            }
            if !child_wins {
                self.store(key, WIN, point, self.nodes - start + 1);
                return true;
            }
        }
        self.store(key, LOSS, 0, self.nodes - start + 1);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::nogo::late_solver;
    use crate::game::Game;
    use crate::search::alphabeta::WIN as AB_WIN;

    /// The position after `plies` uniformly random legal moves from `seed`, if the game
    /// is still on.
    fn random_late_position(seed: u64, plies: usize) -> Option<Position> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut p = Position::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                return None;
            }
            p.play(moves[rng.usize(..moves.len())]);
        }
        p.outcome().is_none().then_some(p)
    }

    #[test]
    fn agrees_with_the_alpha_beta_solver_on_random_endgames() {
        let mut checked = 0;
        let mut moves = Vec::new();
        for seed in 0..400 {
            if checked == 40 {
                break;
            }
            let Some(p) = random_late_position(seed, 60 + (seed % 8) as usize) else { continue };
            let mut solver = Solver::new(1 << 20);
            let Some(proven) = solver.solve(&p, &Budget::iterations(2_000_000)) else { continue };
            p.legal_moves(&mut moves);
            let mut ab = late_solver();
            let (score, _, _) = ab.iterate(&p, &moves, &Budget::iterations(2_000_000));
            if score.abs() < AB_WIN / 2 {
                continue;
            }
            assert_eq!(proven == Proven::Loss, score < 0, "seed {seed}: {proven:?} vs {score}\n{p}");
            if let Proven::Win(m) = proven {
                // The winning move is legal and leaves a position lost for the opponent.
                assert!(p.legal_points(p.to_move()).contains(m));
                let mut after = p;
                after.play(m);
                let again = Solver::new(1 << 20).solve(&after, &Budget::iterations(2_000_000));
                assert_eq!(again, Some(Proven::Loss), "seed {seed}: {m} does not win\n{p}");
            }
            checked += 1;
        }
        assert_eq!(checked, 40, "too few positions compared");
    }

    #[test]
    fn a_side_without_legal_points_has_lost() {
        // Fill the board randomly until the side to move is about to be left without a
        // move: a position one move from the end is a win in one.
        let mut moves = Vec::new();
        let mut found = 0;
        for seed in 0..200 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut p = Position::start();
            loop {
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let wins_at_once = moves.iter().find(|&&m| {
                    let mut q = p;
                    q.play(m);
                    q.outcome().is_some()
                });
                if let Some(&m) = wins_at_once {
                    let proven = Solver::new(1 << 16).solve(&p, &Budget::iterations(1_000_000));
                    let Some(Proven::Win(w)) = proven else { panic!("seed {seed}: {proven:?}") };
                    let mut q = p;
                    q.play(w);
                    assert!(q.outcome().is_some(), "seed {seed}: {w} instead of {m}");
                    found += 1;
                    break;
                }
                p.play(moves[rng.usize(..moves.len())]);
            }
        }
        assert!(found >= 100);
    }
}
