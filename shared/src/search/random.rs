//! A uniformly random player: the floor every engine must beat.

use super::{Budget, Engine, SearchResult};
use crate::game::Game;

pub struct RandomMover {
    rng: fastrand::Rng,
}

impl RandomMover {
    pub fn new(seed: u64) -> RandomMover {
        RandomMover { rng: fastrand::Rng::with_seed(seed) }
    }
}

impl<G: Game> Engine<G> for RandomMover {
    fn search(&mut self, _game: &G, root_moves: &[G::Move], _budget: &Budget) -> SearchResult<G::Move> {
        let best = root_moves[self.rng.usize(..root_moves.len())];
        SearchResult {
            score: None,
            depth: 0,
            best,
            summary: format!("random, {} moves", root_moves.len()),
            nodes: 0,
            root_stats: Vec::new(),
        }
    }
}
