//! Search engines, generic over [`Game`]: one file per algorithm.

pub mod alphabeta;
pub mod clock;
pub mod flat_mc;
pub mod mcts;
pub mod memory;
pub mod parallel;
pub mod random;

pub use clock::{Budget, Deadline};

use crate::game::Game;

/// A search's value of its chosen move, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Score {
    /// An evaluation in the engine's own hundredths (Ataxx: centi-pieces).
    Centi(i32),
    /// A proven win reached this many plies from the root ...
    WinIn(u32),
    /// ... or a proven loss.
    LossIn(u32),
    /// A Monte Carlo mean, 0..1.
    WinRate(f64),
}

/// What a search returns: the move to play and a one-line summary for Botzone's `debug`.
#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    pub best: M,
    pub summary: String,
    /// The value of `best`, where the search has one.
    pub score: Option<Score>,
    /// The deepest completed iteration of a depth-first search (0 for others).
    pub depth: u32,
    /// The search's work in its own unit (tree nodes, alpha-beta nodes): the bench
    /// signature is built from it.
    pub nodes: u64,
    /// Root statistics `(move, visits, mean value for the side to move)`, where the
    /// engine has them; root parallelism merges these.
    pub root_stats: Vec<(M, u64, f64)>,
}

/// A search algorithm with its settings.
pub trait Engine<G: Game>: Send {
    /// Chooses one of `root_moves` (non-empty, all legal in `game`).
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move>;

    /// Every move of the game so far, given before each search, so that an engine that
    /// keeps its tree between turns (keep-running) can find the new root in it.
    fn set_history(&mut self, _moves: &[G::Move]) {}
}
