//! Search engines, generic over [`Game`]: one file per algorithm.

pub mod alphabeta;
pub mod clock;
pub mod connect4;
pub mod mcts;
pub mod memory;
pub mod parallel;
pub mod random;

pub use clock::{Budget, Deadline};

use crate::game::Game;

/// What a search returns: the move to play and a one-line summary for Botzone's `debug`.
#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    pub best: M,
    pub summary: String,
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
