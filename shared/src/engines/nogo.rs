//! NoGo engines: `mcts` (RAVE, solver, seed 002 knowledge as a prior, playouts that
//! prefer points both sides can play), `seed` (seed 002's UCT with initial values S/M),
//! and the generic `uct` and `random`.

use crate::bot::{generic_engines, EngineSpec};
use crate::game::{Game, Player};
use crate::nogo::eval::{seed_score, SEED_WEIGHTS};
use crate::nogo::groups::{decisive_playout, uniform_playout};
use crate::nogo::{GroupBoard, Point, Position};
use crate::search::mcts::{Knowledge, Mcts, MctsConfig, Policy};
use crate::search::memory::{signed_cells, Features};

/// Seed 002: a new child's initial value is S/M (here 0.5 + S/M, the paper's value read as
/// an offset from an even result), worth `weight` virtual visits.
#[derive(Debug, Clone, Copy)]
pub struct Seed002 {
    pub m: f32,
    pub weight: f32,
    /// Playouts that prefer points both sides can play and play decisive and
    /// anti-decisive moves (the `mcts` engine) instead of uniformly random ones (the paper).
    pub smart_playouts: bool,
}

fn prior(parent: &Position, p: Point, m: f32) -> f32 {
    let mover = parent.to_move();
    let mut after = *parent;
    after.place_unchecked(p);
    (0.5 + seed_score(&after, mover, &SEED_WEIGHTS) as f32 / m).clamp(0.05, 0.95)
}

impl Policy<Position> for Seed002 {
    fn has_knowledge(&self) -> bool {
        true
    }

    fn knowledge(&self, parent: &Position, p: Point) -> Knowledge {
        Knowledge { prior_value: prior(parent, p, self.m), prior_visits: self.weight, bias: 0.0 }
    }

    fn playout(&mut self, state: &mut Position, rng: &mut fastrand::Rng, played: &mut Vec<(Player, Point)>) -> f64 {
        let mut board = GroupBoard::new(state);
        if self.smart_playouts {
            decisive_playout(&mut board, rng, played)
        } else {
            uniform_playout(&mut board, rng, played)
        }
    }
}

pub const SEED_002: Seed002 = Seed002 { m: 100.0, weight: 1.0, smart_playouts: false };
pub const STRONG: Seed002 = Seed002 { m: 60.0, weight: 8.0, smart_playouts: true };

/// phi(s): +1 own stone, -1 enemy stone, 0 empty, from the side to move's view.
impl Features for Position {
    fn features(&self) -> Vec<f32> {
        let me = self.to_move();
        let (own, enemy) = (self.stones(me), self.stones(me.other()));
        signed_cells(81, |p| own.contains(p), |p| enemy.contains(p))
    }
}

/// The engines of the `nogo` bot; the first is the default.
pub fn engines() -> Vec<EngineSpec<Position>> {
    let mut list = vec![
        EngineSpec {
            name: "mcts",
            about: "MCTS with RAVE, solver, seed 002 knowledge as a prior, playouts preferring points both sides can play, with decisive and anti-decisive moves",
            make: |seed| {
                let config = MctsConfig {
                    name: "mcts",
                    exploration: 0.4,
                    solver: true,
                    rave: Some(300.0),
                    reuse_tree: true,
                    ..MctsConfig::UCT
                };
                Box::new(Mcts::new(config, STRONG, seed))
            },
        },
        EngineSpec {
            name: "seed",
            about: "seed 002: UCT whose new children start at the position score S/M (eyes, tiger mouths, forbidden points)",
            make: |seed| Box::new(Mcts::new(MctsConfig { name: "seed002", ..MctsConfig::UCT }, SEED_002, seed)),
        },
    ];
    list.push(super::mmcts_engine());
    list.extend(generic_engines());
    list
}
