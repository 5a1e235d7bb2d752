//! Dots-and-Boxes (Pencil) engines: `best` (MCTS whose playouts end in exact values, then
//! the exact solver), `best-rave` (the same with RAVE), `seed` (seed 004's three-stage UCT
//! with an alpha-beta endgame) and the generic `uct` and `random`.

pub mod solver;

use super::{generic_engines, mmcts_engine, EngineSpec, Registry, Without};
use crate::dots::eval::{self, margin};
use crate::dots::{Capture, Edge, Position};
use crate::game::{Game, Outcome, Player};
use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig, Evaluator};
use crate::search::mcts::{Knowledge, Mcts, MctsConfig, Policy, RandomPlayouts, Rave};
use crate::search::memory::Features;
use crate::search::{Budget, Engine, SearchResult};
use solver::Solver;

/// Box difference for the side to move: the boxes taken so far (the rest is search).
pub struct BoxDifference;

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
    fn hash(&self, p: &Position) -> u64 {
        eval::hash(p)
    }
    fn order(&self, p: &Position, e: Edge) -> i32 {
        eval::move_order(p, e)
    }
}

/// Seed 004's UCB: `X + C sqrt(2 ln N / T) + G`, with G = +0.2 for an edge that takes a box
/// and -0.05 for one that gives a box away during the opening, and a C that falls during
/// the middle game.
#[derive(Debug, Clone, Copy)]
pub struct Seed004 {
    pub opening_moves: u32,
    pub middle_end: u32,
    /// The opening's greedy bonus G (off: G = 0 throughout).
    pub greedy_bonus: bool,
    /// C falling from 1.5 to 0.5 across the middle game (off: C = 1 throughout).
    pub falling_c: bool,
}

pub const SEED_004: Seed004 = Seed004 { opening_moves: 10, middle_end: 30, greedy_bonus: true, falling_c: true };

impl Policy<Position> for Seed004 {
    fn has_knowledge(&self) -> bool {
        true
    }

    fn knowledge(&self, parent: &Position, e: Edge) -> Knowledge {
        if !self.greedy_bonus || parent.drawn_count() >= self.opening_moves {
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
        let c = if !self.falling_c || drawn < self.opening_moves {
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

/// The strong engine's knowledge (take boxes, don't hand them over) and playouts
/// ([`eval::safe_edge_playout`]: safe edges, then chain theory's exact values, or the
/// solver's once no safe edge is left).
pub struct SafeEdges {
    /// Whether tree nodes keep only the moves worth trying ([`Position::moves_worth_trying`]).
    pub move_rules: bool,
    /// Where a playout runs out of safe edges, the solver values the rest if it can
    /// within a few thousand nodes (`None`: random handouts until only chains and loops
    /// are left).
    pub exact_endgames: Option<PlayoutSolver>,
}

/// The solver a playout asks once no safe edge is left: the fight for control (who hands
/// over what to be the one who takes the long chains) played exactly instead of by
/// random handouts, which is where random playouts misjudge a middle game.
pub struct PlayoutSolver {
    /// Its own small table, kept from playout to playout and turn to turn (its values
    /// are exact, so never stale).
    solver: Solver,
}

impl PlayoutSolver {
    /// Asked only from this many undrawn edges down. At 100 ms against the same bot with
    /// random handouts (200 games each, the same openings) from 28 scored +52 [+7, +100]
    /// at 2.5 times fewer iterations; from 36, -28 [-76, +20] at 5 times fewer.
    const FROM_UNDRAWN: u32 = 28;
    /// Nodes an ask may search (the solver reads its cap every 1,024 nodes): about a
    /// millisecond.
    const NODE_CAP: u64 = 4096;
    /// 2^18 slots of 16 bytes: 4 MB.
    const TABLE_BITS: u32 = 18;

    pub fn new() -> PlayoutSolver {
        PlayoutSolver { solver: Solver::new(Self::TABLE_BITS) }
    }

    /// The boxes still to come in `p`, the side to move's less the other's, if the
    /// solver finds it within the cap.
    fn value(&mut self, p: &Position) -> Option<i32> {
        if 60 - p.drawn_count() > Self::FROM_UNDRAWN {
            return None;
        }
        self.solver.value(p, &Budget::iterations(Self::NODE_CAP))
    }
}

impl Default for PlayoutSolver {
    fn default() -> PlayoutSolver {
        PlayoutSolver::new()
    }
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
        match self.exact_endgames.as_mut() {
            Some(exact) => eval::safe_edge_playout(state, rng, played, &mut |p| exact.value(p)),
            None => eval::safe_edge_playout(state, rng, played, &mut |_| None),
        }
    }

    /// The solver's move rules: capture candidates, no redundant sacrifice, one edge of
    /// an open corner pair.
    fn keep_worth_trying(&self, state: &Position, moves: &mut Vec<Edge>) {
        if !self.move_rules {
            return;
        }
        let worth = state.moves_worth_trying();
        if !worth.is_empty() {
            moves.retain(|e| worth.contains(e));
        }
    }
}

/// The strong engine: MCTS with [`SafeEdges`], and the exact [`Solver`] from
/// `solve_from` undrawn edges on: while more than 25 edges remain MCTS runs first for
/// `mcts_share` of the time and the solver gets the rest, trying MCTS's favourite moves
/// first; from 25 edges the solver alone. A box whose taking is forced is taken at once.
pub struct Best {
    mcts: Mcts<Position, SafeEdges>,
    solver: Solver,
    solve_from: u32,
    /// The share of the time MCTS gets before the solver while more than 25 edges remain.
    mcts_share: f64,
}

impl Engine<Position> for Best {
    fn search(&mut self, game: &Position, root_moves: &[Edge], budget: &Budget) -> SearchResult<Edge> {
        if let Some(Capture::Forced(e)) = game.capture() {
            return SearchResult {
                score: None,
                depth: 0,
                best: e,
                summary: "forced capture".into(),
                nodes: 0,
                root_stats: Vec::new(),
            };
        }
        // The tree keeps only the moves worth trying at every node, the root included.
        let mut kept = root_moves.to_vec();
        self.mcts.policy().keep_worth_trying(game, &mut kept);
        let root_moves = if kept.is_empty() { root_moves } else { &kept };
        let undrawn = 60 - game.drawn_count();
        if undrawn > self.solve_from {
            return self.mcts.search(game, root_moves, budget);
        }
        if undrawn <= 25 {
            // The solver is sure to finish (200 solver nodes per MCTS iteration under a
            // fixed cap).
            if let Some(solved) = self.solver.solve(game, root_moves, &budget.share(1.0, 200.0)) {
                return self.solved(solved, budget);
            }
            return self.mcts.search(game, root_moves, budget);
        }
        // MCTS first for a share of the time (its tree kept from earlier turns when the
        // bot keeps running), then the solver, trying the moves MCTS likes best first;
        // MCTS's answer stands if the solver does not finish.
        let guess = self.mcts.search(game, root_moves, &budget.share(self.mcts_share, 1.0));
        let mut ordered = guess.root_stats.clone();
        ordered.sort_by_key(|s| std::cmp::Reverse(s.1));
        let mut moves: Vec<Edge> = ordered.iter().map(|s| s.0).collect();
        let unvisited: Vec<Edge> = root_moves.iter().copied().filter(|e| !moves.contains(e)).collect();
        moves.extend(unvisited);
        if let Some(solved) = self.solver.solve_in_order(game, &moves, &budget.share(1.0, 200.0)) {
            return self.solved(solved, budget);
        }
        // Unfinished: MCTS's favourite among the moves not yet proved to lose the game.
        let refuted = self.solver.refuted();
        let summary = format!("{} (solver unfinished, {} moves refuted)", guess.summary, refuted.len());
        match moves.iter().find(|e| !refuted.contains(e)) {
            Some(&best) => SearchResult { best, summary, ..guess },
            None => SearchResult { summary, ..guess },
        }
    }

    fn set_history(&mut self, moves: &[Edge]) {
        self.mcts.set_history(moves);
    }

    // No `carry`: the MCTS subtree carried in Botzone's `data` to the next afresh turn lost
    // at 100 ms (83-0-117, -60 [-111, -10] over 200 games) and showed no gain at 1000 ms
    // (24-0-16, +70 [-58, +222]); see docs/lab/time-memory-delivery.md, "Kept running against afresh".
}

impl Best {
    fn solved(&self, solved: solver::Solved, budget: &Budget) -> SearchResult<Edge> {
        let verdict = if solved.winning { "win" } else { "loss" };
        let summary = format!(
            "solver: {verdict}, value {}, {} nodes, {} ms",
            solved.value,
            self.solver.nodes(),
            budget.deadline.elapsed().as_millis()
        );
        SearchResult {
            score: None,
            depth: 0,
            best: solved.best,
            summary,
            nodes: self.solver.nodes(),
            root_stats: Vec::new(),
        }
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

/// Seed 004's endgame: exact alpha-beta on the box margin (no forward pruning, no
/// aspiration), used by the `seed` engine and by the bench.
pub fn seed_endgame() -> AlphaBeta<Position, BoxDifference> {
    let config = AlphaBetaConfig { name: "seed004-ab", ..AlphaBetaConfig::EXACT };
    AlphaBeta::new(config, BoxDifference)
}

/// The features of `best` (and `best-rave`) that `--without` switches off.
const BEST_FEATURES: &[(&str, &str)] = &[
    ("solver", "the chain-theory solver (off: MCTS alone, its playouts still ending in exact chain values)"),
    (
        "exact-playouts",
        "a playout that runs out of safe edges from 28 undrawn edges down ends in the solver's exact value \
         when it finds one within 4,096 nodes (off: random handouts until only chains and loops are left)",
    ),
    (
        "move-rules",
        "tree nodes keep only the moves worth trying: capture candidates, no redundant sacrifice, one edge \
         of an open corner (off: every legal edge)",
    ),
];

/// The strong engine, its MCTS selecting with `rave` where given. RAVE (a safe edge that is
/// good later in a playout is mostly good now) won +156 Elo at 100 ms and +60 [+12, +109] at
/// 1000 ms against the child's own mean (20 virtual draws; 8 and 50 within the noise,
/// Gelly and Silver's schedule far worse), but against Dabble at 1000 ms it scored 263-0-37
/// afresh and 182-0-18 kept running where the same openings gave 275-0-25 and 187-0-13
/// without it (docs/lab/dots-search-and-dabble.md, "Issue #56, eleventh session" and "twelfth session"): the
/// gain is against our own bot only, so `best` plays without it.
fn best(seed: u64, without: &Without, rave: Option<Rave>) -> Box<dyn Engine<Position>> {
    let config = MctsConfig {
        name: "best",
        exploration: 0.7,
        solver: true,
        bias_decays: true,
        reuse_tree: true,
        rave,
        ..MctsConfig::UCT
    };
    Box::new(Best {
        mcts: Mcts::new(
            config,
            SafeEdges {
                move_rules: !without.has("move-rules"),
                exact_endgames: (!without.has("exact-playouts")).then(PlayoutSolver::new),
            },
            seed,
        ),
        solver: Solver::new(22),
        solve_from: if without.has("solver") { 0 } else { 44 },
        // From 44 undrawn edges, MCTS 10% first and the solver the rest: on logged positions
        // it kept more won positions than 30% first or the solver alone (`experiments
        // dots-perfect`), and against Dabble it went 85-0-15 where 40 edges and 30% went
        // 73-0-27 (docs/lab/sparring-partners.md).
        mcts_share: 0.1,
    })
}

/// The engines of the `dots` bot; the first is the default.
pub fn registry() -> Registry<Position> {
    let mut list = vec![
        EngineSpec {
            name: "best",
            about: "MCTS with solver and safe-edge playouts ending in exact chain values; the exact \
                    chain-theory solver from 44 edges left",
            features: BEST_FEATURES,
            make: |seed, without| best(seed, without, None),
        },
        EngineSpec {
            name: "best-rave",
            about: "`best` whose MCTS selects with count-weighted RAVE (20 virtual draws): +60 Elo \
                    against `best` at 1000 ms, but 87.7% against Dabble afresh where `best` scores 91.7%",
            features: BEST_FEATURES,
            make: |seed, without| best(seed, without, Some(Rave::Counts { prior: 20.0 })),
        },
        EngineSpec {
            name: "seed",
            about: "seed 004: UCT with greedy bonus G in the opening, falling C in the middle game, \
                    alpha-beta once 30 edges remain, early stop",
            features: &[
                ("greedy-bonus", "the opening's bonus G for edges that take (+0.2) or give (-0.05) a box"),
                ("falling-c", "C falling from 1.5 to 0.5 across the middle game (off: C = 1 throughout)"),
                ("endgame", "alpha-beta once 30 edges remain (off: UCT to the end)"),
                ("early-stop", "stop once one root move's mean beats every other move's upper bound"),
            ],
            make: |seed, without| {
                let config = MctsConfig {
                    name: "seed004",
                    bias_decays: false,
                    early_stop: !without.has("early-stop"),
                    ..MctsConfig::UCT
                };
                let policy = Seed004 {
                    greedy_bonus: !without.has("greedy-bonus"),
                    falling_c: !without.has("falling-c"),
                    ..SEED_004
                };
                Box::new(ThreeStage {
                    mcts: Mcts::new(config, policy, seed),
                    endgame: seed_endgame(),
                    endgame_edges: if without.has("endgame") { 0 } else { 30 },
                })
            },
        },
        mmcts_engine(),
    ];
    list.extend(generic_engines());
    Registry::new(list)
}
