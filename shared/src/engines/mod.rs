//! The engine registry: each game's selectable engines (search algorithms of `search`
//! wired to the game's knowledge in `<game>/eval.rs`), built in one place for the bots,
//! the bench, the experiments and every front end alike. The first engine of each list is
//! the bot's default (the strongest by measurement).

pub mod ataxx;
pub mod dots;
pub mod nogo;

use crate::game::{Game, Rules};
use crate::search::flat_mc::FlatMc;
use crate::search::memory::{Features, MemoryConfig, MemoryMcts};
use crate::search::parallel::search_parallel;
use crate::search::random::RandomMover;
use crate::search::{carried_history, mcts, Budget, Engine, SearchResult};

/// A selectable search algorithm of a bot.
pub struct EngineSpec<G: Game> {
    pub name: &'static str,
    pub about: &'static str,
    /// The features `--without` can switch off, each with what it is (ablation: what a
    /// feature is worth is measured by a match of the engine with and without it).
    pub features: &'static [(&'static str, &'static str)],
    pub make: fn(seed: u64, without: &Without) -> Box<dyn Engine<G>>,
}

/// The engine features switched off with `--without`.
#[derive(Debug, Clone, Default)]
pub struct Without(pub Vec<String>);

impl Without {
    pub fn has(&self, feature: &str) -> bool {
        self.0.iter().any(|f| f == feature)
    }
}

impl<G: Game> EngineSpec<G> {
    /// The engine with `without` switched off, or why that is not possible.
    pub fn build(&self, seed: u64, without: &Without) -> Result<Box<dyn Engine<G>>, String> {
        self.check(without)?;
        Ok((self.make)(seed, without))
    }

    /// Whether every feature in `without` is one this engine can switch off.
    pub fn check(&self, without: &Without) -> Result<(), String> {
        for f in &without.0 {
            if !self.features.iter().any(|(name, _)| name == f) {
                let names: Vec<_> = self.features.iter().map(|(name, _)| *name).collect();
                return Err(if names.is_empty() {
                    format!("engine {} has no feature to switch off (asked: {f:?})", self.name)
                } else {
                    format!("engine {} has no feature {f:?} to switch off; it has: {}", self.name, names.join(", "))
                });
            }
        }
        Ok(())
    }

    /// Its entry in a bot's `--help`, with the features `--without` takes.
    pub fn help_line(&self) -> String {
        let mut line = format!("  {:<8} {}", self.name, self.about);
        for (name, what) in self.features {
            line.push_str(&format!("\n             --without {name}: {what}"));
        }
        line
    }
}

/// What a bot plays with: its engines, and the moves it never plays at the root although
/// the judge allows them (a course rule: NoGo's black never opens at the centre).
pub struct Registry<G: Game> {
    pub engines: Vec<EngineSpec<G>>,
    pub avoid_at_root: fn(&G, G::Move) -> bool,
}

impl<G: Game> Registry<G> {
    /// A registry of `engines` without a root rule.
    pub fn new(engines: Vec<EngineSpec<G>>) -> Self {
        Registry { engines, avoid_at_root: |_, _| false }
    }

    /// The engine named `name` (`None`: the default), or why there is none.
    pub fn find(&self, name: Option<&str>) -> Result<&EngineSpec<G>, String> {
        match name {
            None => Ok(&self.engines[0]),
            Some(name) => self.engines.iter().find(|e| e.name == name).ok_or_else(|| {
                let names: Vec<_> = self.engines.iter().map(|e| e.name).collect();
                format!("unknown engine {name:?}; engines: {}", names.join(", "))
            }),
        }
    }

    /// Whether the named engine exists and can switch off `without`, without building it
    /// (an engine allocates its tables when built).
    pub fn check(&self, name: Option<&str>, without: &Without) -> Result<(), String> {
        self.find(name)?.check(without)
    }

    /// `threads` searchers of the named engine (`None`: the default) with `without` off,
    /// seeded `seed`, `seed + 1`, ...
    pub fn searcher(
        &self,
        name: Option<&str>,
        without: &Without,
        seed: u64,
        threads: u16,
    ) -> Result<Searcher<G>, String> {
        let spec = self.find(name)?;
        let engines = (0..u64::from(threads.max(1)))
            .map(|i| spec.build(seed.wrapping_add(i), without))
            .collect::<Result<_, _>>()?;
        Ok(Searcher { name: spec.name, engines, avoid_at_root: self.avoid_at_root })
    }

    /// The moves a bot considers at the root: the legal ones less those it avoids (all of
    /// them if it would avoid every one).
    pub fn root_moves(&self, game: &G) -> Vec<G::Move> {
        root_moves(game, self.avoid_at_root)
    }

    /// The engines' entries for `--help`.
    pub fn help(&self) -> String {
        let lines: Vec<String> = self.engines.iter().map(EngineSpec::help_line).collect();
        format!("Engines:\n{}", lines.join("\n"))
    }
}

fn root_moves<G: Game>(game: &G, avoid: fn(&G, G::Move) -> bool) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let preferred: Vec<_> = moves.iter().copied().filter(|&m| !avoid(game, m)).collect();
    if preferred.is_empty() {
        moves
    } else {
        preferred
    }
}

/// An engine ready to choose moves: one instance per thread (seed 001's root parallelism
/// merges them), and the bot's root rule.
pub struct Searcher<G: Game> {
    /// The engine's name, which carried bytes are tagged with.
    name: &'static str,
    engines: Vec<Box<dyn Engine<G>>>,
    avoid_at_root: fn(&G, G::Move) -> bool,
}

impl<G: Rules> Searcher<G> {
    /// The move to play in `game` (not over), reached by `history`, within `budget`. A
    /// position with one root move is answered without searching.
    pub fn choose(&mut self, game: &G, history: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        let moves = root_moves(game, self.avoid_at_root);
        if moves.len() == 1 {
            return SearchResult {
                score: None,
                depth: 0,
                best: moves[0],
                summary: "only move".into(),
                nodes: 0,
                root_stats: Vec::new(),
            };
        }
        for engine in &mut self.engines {
            engine.set_history(history);
        }
        search_parallel(&mut self.engines, game, &moves, budget)
    }

    /// What the (first) engine carries to its next turn after choosing `played`, at most
    /// `max_bytes`, tagged with the game's and the engine's names: `None` when it carries
    /// nothing.
    pub fn carry(&self, played: G::Move, max_bytes: usize) -> Option<(String, Vec<u8>)> {
        let tag = format!("{}/{}", G::NAME, self.name);
        Some((tag, self.engines.first()?.carry(played, max_bytes)?))
    }

    /// Gives the (first) engine back what [`Searcher::carry`] gave, if `tag` is its own and
    /// the bytes belong to a turn of this game's `history` (the whole history now).
    pub fn resume(&mut self, tag: &str, carried: &[u8], history: &[G::Move]) -> Result<(), String> {
        let own = format!("{}/{}", G::NAME, self.name);
        if tag != own {
            return Err(format!("carried by {tag:?}, not by {own:?}"));
        }
        // The engine checks the bytes against this history (its hash); here only its
        // length is read, to find the position they were carried for.
        let (len, _) = carried_history(carried).ok_or("too short for its header")?;
        let earlier = history.get(..len).ok_or("carried from a later turn")?;
        let mut root = G::start();
        for &mv in earlier {
            root.play(mv);
        }
        self.engines[0].resume(carried, earlier, &root)
    }
}

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

    fn carry(&self, played: G::Move, max_bytes: usize) -> Option<Vec<u8>> {
        self.engine.carry(played, max_bytes)
    }

    fn resume(&mut self, carried: &[u8], history: &[G::Move], root: &G) -> Result<(), String> {
        self.engine.resume(carried, history, &root.model())
    }
}

/// The engines every game has.
pub fn generic_engines<G: Game>() -> Vec<EngineSpec<G>> {
    vec![
        EngineSpec {
            name: "uct",
            about: "plain UCT, C = sqrt(2), uniformly random playouts (the seeds' baseline)",
            features: &[],
            make: |seed, _| Box::new(mcts::uct::<G>(seed)),
        },
        EngineSpec {
            name: "flat-mc",
            about: "flat Monte Carlo: random playouts from each root move in turn, the best mean wins \
                    (seed 000's baseline, the GGP platform's plain Monte Carlo player)",
            features: &[],
            make: |seed, _| Box::new(FlatMc::new(seed)),
        },
        EngineSpec {
            name: "random",
            about: "a uniformly random legal move",
            features: &[],
            make: |seed, _| Box::new(RandomMover::new(seed)),
        },
    ]
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
