//! Dots-and-Boxes (Pencil) engines: `best` (MCTS whose playouts end in exact chain
//! values, then the exact solver), `seed` (seed 004's three-stage UCT with an alpha-beta
//! endgame) and the generic `uct` and `random`.

pub mod solver;

use crate::bot::{generic_engines, EngineSpec};
use crate::dots::{loony_value, Capture, Component, Edge, Position};
use crate::game::{mix64, Game, Outcome, Player};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, Evaluator};
use crate::search::mcts::{Knowledge, Mcts, MctsConfig, Policy, RandomPlayouts};
use crate::search::memory::Features;
use crate::search::{Budget, Engine, SearchResult};
use solver::Solver;

/// Box difference for the side to move: the boxes taken so far (the rest is search).
pub struct BoxDifference;

fn margin(p: &Position, side: Player) -> i32 {
    p.score(side) as i32 - p.score(side.other()) as i32
}

impl Evaluator<Position> for BoxDifference {
    fn evaluate(&self, p: &Position) -> i32 {
        margin(p, p.to_move())
    }
    fn terminal(&self, p: &Position, _outcome: Outcome) -> i32 {
        margin(p, p.to_move())
    }
    fn plies_left(&self, p: &Position) -> Option<i32> {
        Some(60 - p.drawn_count() as i32)
    }

    /// The edges, the side to move and the first player's boxes (equal edges with a
    /// different split of boxes have different values).
    fn hash(&self, p: &Position) -> u64 {
        let (h, v) = p.edge_words();
        let extra = u64::from(p.score(Player::First)) << 1 | u64::from(p.to_move() == Player::Second);
        mix64(u64::from(h) | u64::from(v) << 30) ^ mix64(extra ^ 0xabcd_ef01)
    }
    /// Take boxes first; edges that hand a box over last.
    fn order(&self, p: &Position, e: Edge) -> i32 {
        let gives = p.sides_after_hint(e);
        2 * p.boxes_completed_by(e) as i32 - gives
    }
}

/// Seed 004's UCB: `X + C sqrt(2 ln N / T) + G`, with G = +0.2 for an edge that takes a box
/// and -0.05 for one that gives a box away during the opening, and a C that falls during
/// the middle game.
#[derive(Debug, Clone, Copy)]
pub struct Seed004 {
    pub opening_moves: u32,
    pub middle_end: u32,
}

pub const SEED_004: Seed004 = Seed004 { opening_moves: 10, middle_end: 30 };

impl Policy<Position> for Seed004 {
    fn has_knowledge(&self) -> bool {
        true
    }

    fn knowledge(&self, parent: &Position, e: Edge) -> Knowledge {
        if parent.drawn_count() >= self.opening_moves {
            return Knowledge::default();
        }
        let g = if parent.boxes_completed_by(e) > 0 {
            0.2
        } else if parent.sides_after_hint(e) > 0 {
            -0.05
        } else {
            0.0
        };
        Knowledge { bias: g, ..Knowledge::default() }
    }

    /// C = 1 in the opening, then from 1.5 down to 0.5 across the middle game. (The
    /// paper's sqrt(2 ln N / T) is C*sqrt(2)*sqrt(ln N / T) in our formula.)
    fn exploration(&self, root: &Position, _base: f64) -> f64 {
        let drawn = root.drawn_count();
        let c = if drawn < self.opening_moves {
            1.0
        } else {
            let t = f64::from(drawn - self.opening_moves) / f64::from(self.middle_end - self.opening_moves);
            1.5 - t.min(1.0)
        };
        c * std::f64::consts::SQRT_2
    }

    fn playout(&mut self, state: &mut Position, rng: &mut fastrand::Rng, played: &mut Vec<(Player, Edge)>) -> f64 {
        <RandomPlayouts as Policy<Position>>::playout(&mut RandomPlayouts, state, rng, played)
    }
}

/// The strong engine's knowledge and playouts: a box that can be taken is taken; otherwise
/// a random edge that hands nothing over; once none is left, the position's exact value
/// if it is made of independent chains and loops, else the edge that gives away the
/// fewest boxes (and so on).
#[derive(Debug, Clone, Copy)]
pub struct SafeEdges;

/// A random safe edge, or else a random one among those that hand over the fewest boxes;
/// `Err` with the chains and loops when the rest of the game is valued by chain theory.
fn quiet_playout_move(p: &Position, moves: &[Edge], rng: &mut fastrand::Rng) -> Result<Edge, Vec<Component>> {
    let mut safe = Vec::with_capacity(moves.len());
    let mut least = Vec::new();
    let mut least_given = i32::MAX;
    for &e in moves {
        let given = p.sides_after_hint(e);
        if given == 0 {
            safe.push(e);
        } else if safe.is_empty() {
            if given < least_given {
                least_given = given;
                least.clear();
            }
            if given == least_given {
                least.push(e);
            }
        }
    }
    if safe.is_empty() {
        if let Some(parts) = p.simple_components() {
            return Err(parts);
        }
    }
    let pool = if safe.is_empty() { &least } else { &safe };
    Ok(pool[rng.usize(..pool.len())])
}

impl Policy<Position> for SafeEdges {
    fn has_knowledge(&self) -> bool {
        true
    }

    fn knowledge(&self, parent: &Position, e: Edge) -> Knowledge {
        let bias = 0.3 * parent.boxes_completed_by(e) as f32 - 0.2 * parent.sides_after_hint(e) as f32;
        Knowledge { bias, ..Knowledge::default() }
    }

    fn playout(&mut self, state: &mut Position, rng: &mut fastrand::Rng, played: &mut Vec<(Player, Edge)>) -> f64 {
        let mut moves = Vec::with_capacity(60);
        loop {
            let e = match state.capture() {
                Some(capture) => capture.take(),
                None => {
                    state.legal_moves(&mut moves);
                    if moves.is_empty() {
                        return state.outcome().expect("all edges drawn").reward(Player::First);
                    }
                    match quiet_playout_move(state, &moves, rng) {
                        Ok(e) => e,
                        Err(parts) => return exact_reward(state, &parts),
                    }
                }
            };
            played.push((state.to_move(), e));
            state.play(e);
        }
    }
}

/// The first player's reward in a position made of `parts` only, from chain theory.
fn exact_reward(p: &Position, parts: &[Component]) -> f64 {
    let final_margin = margin(p, p.to_move()) + loony_value(parts);
    let winner = if final_margin > 0 { p.to_move() } else { p.to_move().other() };
    Outcome::Win(winner).reward(Player::First)
}

/// The strong engine: MCTS with [`SafeEdges`], and the exact [`Solver`] from
/// `solve_from` undrawn edges on (given `solver_share` of the time while more than 25
/// edges remain, all of it after). A box whose taking is forced is taken at once.
pub struct Best {
    mcts: Mcts<Position, SafeEdges>,
    solver: Solver,
    solve_from: u32,
    solver_share: f64,
}

impl Engine<Position> for Best {
    fn search(&mut self, game: &Position, root_moves: &[Edge], budget: &Budget) -> SearchResult<Edge> {
        if let Some(Capture::Forced(e)) = game.capture() {
            return SearchResult { best: e, summary: "forced capture".into(), root_stats: Vec::new() };
        }
        let undrawn = 60 - game.drawn_count();
        if undrawn <= self.solve_from {
            // Half the time (200 solver nodes per MCTS iteration under a fixed cap), all
            // of it once the solver is sure to finish.
            let sub = budget.share(if undrawn <= 25 { 1.0 } else { self.solver_share }, 200.0);
            if let Some(solved) = self.solver.solve(game, root_moves, &sub) {
                let verdict = if solved.winning { "win" } else { "loss" };
                let summary = format!(
                    "solver: {verdict}, value {}, {} nodes, {} ms",
                    solved.value,
                    self.solver.nodes(),
                    budget.deadline.elapsed().as_millis()
                );
                return SearchResult { best: solved.best, summary, root_stats: Vec::new() };
            }
        }
        self.mcts.search(game, root_moves, budget)
    }

    fn set_history(&mut self, moves: &[Edge]) {
        self.mcts.set_history(moves);
    }
}

/// MCTS until `endgame_edges` edges remain, alpha-beta after (seed 004's stages; the
/// alpha-beta's answer is used even when time runs out before it solves the position).
pub struct ThreeStage<P: Policy<Position>> {
    mcts: Mcts<Position, P>,
    endgame: AlphaBeta<Position, BoxDifference>,
    endgame_edges: u32,
}

impl<P: Policy<Position>> Engine<Position> for ThreeStage<P> {
    fn search(&mut self, game: &Position, root_moves: &[Edge], budget: &Budget) -> SearchResult<Edge> {
        if 60 - game.drawn_count() <= self.endgame_edges {
            self.endgame.search(game, root_moves, budget)
        } else {
            self.mcts.search(game, root_moves, budget)
        }
    }

    fn set_history(&mut self, moves: &[Edge]) {
        self.mcts.set_history(moves);
    }
}

/// phi(s): each edge drawn (1) or not (0), and the box margin of the side to move / 25.
impl Features for Position {
    fn features(&self) -> Vec<f32> {
        let mut phi: Vec<f32> = (0..60).map(|e| f32::from(u8::from(self.is_drawn(e)))).collect();
        phi.push(margin(self, self.to_move()) as f32 / 25.0);
        phi
    }
}

/// The engines of the `dots` bot; the first is the default.
pub fn engines() -> Vec<EngineSpec<Position>> {
    let mut list = vec![
        EngineSpec {
            name: "best",
            about: "MCTS with solver and safe-edge playouts ending in exact chain values; the exact chain-theory solver from 40 edges left",
            features: &[("solver", "the chain-theory solver (off: MCTS alone, its playouts still ending in exact chain values)")],
            make: |seed, without| {
                let config = MctsConfig { name: "best", exploration: 0.7, solver: true, bias_decays: true, reuse_tree: true, ..MctsConfig::UCT };
                Box::new(Best { mcts: Mcts::new(config, SafeEdges, seed), solver: Solver::new(20), solve_from: if without.has("solver") { 0 } else { 40 }, solver_share: 0.5 })
            },
        },
        EngineSpec {
        name: "seed",
        about: "seed 004: UCT with greedy bonus G in the opening, falling C in the middle game, alpha-beta once 30 edges remain, early stop",
        features: &[],
        make: |seed, _| {
            let config = MctsConfig { name: "seed004", bias_decays: false, early_stop: true, ..MctsConfig::UCT };
            let endgame = AlphaBetaConfig { name: "seed004-ab", rfp_margin: None, late_move_reductions: false, aspiration: None, ..Default::default() };
            Box::new(ThreeStage { mcts: Mcts::new(config, SEED_004, seed), endgame: AlphaBeta::new(endgame, BoxDifference), endgame_edges: 30 })
        },
    }];
    list.push(super::mmcts_engine());
    list.extend(generic_engines());
    list
}
