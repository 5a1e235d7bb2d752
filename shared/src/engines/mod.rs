//! Each game's engines: the search algorithms of `search` wired to the game's knowledge.
//! The first engine of each list is the bot's default (the strongest by measurement).

pub mod ataxx;
pub mod dots;
pub mod nogo;

use crate::bot::EngineSpec;
use crate::game::Game;
use crate::search::memory::{Features, MemoryConfig, MemoryMcts};
use crate::search::{Budget, Engine, SearchResult};

/// Runs an engine written for a simpler model of the game (Ataxx's `Board`, without the
/// repetition history) on the exact game: root moves come from the exact game, so the
/// answer is always legal.
pub struct OnModel<M: Game, E: Engine<M>> {
    engine: E,
    _model: std::marker::PhantomData<M>,
}

impl<M: Game, E: Engine<M>> OnModel<M, E> {
    pub fn new(engine: E) -> Self {
        OnModel { engine, _model: std::marker::PhantomData }
    }
}

/// A game that has a simpler model for search.
pub trait HasModel: Game {
    type Model: Game<Move = Self::Move>;
    fn model(&self) -> Self::Model;
}

impl<G: HasModel, E: Engine<G::Model>> Engine<G> for OnModel<G::Model, E> {
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        self.engine.search(&game.model(), root_moves, budget)
    }

    fn set_history(&mut self, moves: &[G::Move]) {
        self.engine.set_history(moves);
    }
}

/// Seed 000's settings in every bot.
pub const MMCTS_CONFIG: MemoryConfig = MemoryConfig::PAPER;

pub const MMCTS_ABOUT: &str =
    "seed 000: memory-augmented MCTS (K nearest states by cosine similarity, V_M in selection, EMA back-up)";

/// Seed 000's memory-augmented MCTS, as every bot offers it (`--engine mmcts`).
pub fn mmcts_engine<G: Features>() -> EngineSpec<G> {
    EngineSpec {
        name: "mmcts",
        about: MMCTS_ABOUT,
        features: &[],
        make: |seed, _| Box::new(MemoryMcts::<G>::new(MMCTS_CONFIG, seed)),
    }
}
