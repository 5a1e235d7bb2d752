//! Ataxx engines: `ab` (alpha-beta, the strongest), `seed` (seed 003's MCTS as written),
//! and the generic `uct` and `random`.

use super::{generic_engines, EngineSpec, HasModel, OnModel, Registry, Without};
use crate::ataxx::eval::{self, Weights, HAND_SET, MATERIAL_ONLY, WEIGHTS};
use crate::ataxx::net::{self, Network, RecentParents};
use crate::ataxx::{Board, Move, Position};
use crate::game::{Game, Player};
use crate::search::alphabeta::{
    AlphaBeta, AlphaBetaConfig, Aspiration, Evaluator, Futility, LateMovePruning, Reductions, ReverseFutility, Singular,
};
use crate::search::mcts::{Knowledge, Mcts, MctsConfig, Policy};
use crate::search::memory::{signed_cells, Features, MemoryMcts};
use std::cell::RefCell;

impl HasModel for Position {
    type Model = Board;
    fn model(&self) -> Board {
        *self.board()
    }
}

/// How `ab` values a position.
#[derive(Clone, Copy)]
pub enum Evaluation {
    /// The learned network (`ataxx::net`, the embedded one).
    Network(&'static Network),
    /// The hand-made terms of `ataxx::eval` with these weights.
    Terms(Weights),
}

/// The evaluation for alpha-beta, and where its endgame starts.
pub struct AtaxxEval {
    pub evaluation: Evaluation,
    /// At most this many empty squares: the endgame, searched full-width (None: never).
    pub endgame_empties: Option<u32>,
    /// The network's hidden layers of the last parents valued from, each seen by the
    /// side to move at its children ([`Network::evaluate_from`]).
    pub parents: RefCell<RecentParents>,
}

/// Empty squares from which `ab --without endgame-pruning` searches full-width, so that
/// what it proves there is exact. It costs too much depth: with forward pruning also in
/// the endgame, `ab` reaches 11-17 plies there instead of 6-8 and scores 70% against the
/// full-width version at 100 ms (shared/EXPERIMENTS.md).
pub const ENDGAME_EMPTIES: u32 = 8;

impl AtaxxEval {
    /// Forward pruning everywhere.
    pub fn new(evaluation: Evaluation) -> Self {
        AtaxxEval { evaluation, endgame_empties: None, parents: RefCell::default() }
    }
}

/// The default: the embedded network.
impl Default for AtaxxEval {
    fn default() -> Self {
        AtaxxEval::new(Evaluation::Network(net::embedded()))
    }
}

impl Evaluator<Board> for AtaxxEval {
    fn evaluate(&self, b: &Board) -> i32 {
        match self.evaluation {
            Evaluation::Network(net) => net.evaluate_board(b),
            Evaluation::Terms(weights) => eval::evaluate(b, &weights),
        }
    }
    /// From the parent's hidden layer, kept while its children are valued: the windows a
    /// move changes are 8 of the 36 on average, and the search values some 6-10 leaves in
    /// a row under one parent.
    fn evaluate_child(&self, parent: &Board, child: &Board) -> i32 {
        match self.evaluation {
            Evaluation::Network(net) => {
                let me = child.to_move();
                let from = (parent.pieces(me), parent.pieces(me.other()));
                let to = (child.pieces(me), child.pieces(me.other()));
                net.evaluate_from(self.parents.borrow_mut().slot(from), from, to)
            }
            Evaluation::Terms(_) => self.evaluate(child),
        }
    }
    fn hash(&self, b: &Board) -> u64 {
        eval::hash(b)
    }
    /// Clones before jumps, then by the pieces turned: a clone turning none ranks with a
    /// jump turning two. The material order (`2 * flips + clone`, seed 003's playouts')
    /// tries any capturing jump first, though a jump leaves a hole behind; it measured
    /// weaker (EXPERIMENTS.md, "Clones first in the search's order").
    fn order(&self, b: &Board, mv: Move) -> i32 {
        2 * i32::from(!mv.is_jump()) + b.flips(mv) as i32
    }
    /// A jump that turns no piece: it leaves a hole and gains nothing.
    fn prunable(&self, b: &Board, mv: Move) -> bool {
        mv.is_jump() && b.flips(mv) == 0
    }
    fn endgame(&self, b: &Board) -> bool {
        self.endgame_empties.is_some_and(|n| b.empty().count() <= n)
    }
}

/// Seed 003: selection `UCT' = mean + c0 sqrt(ln N / n) + c1 relscore + c2 clone`
/// (the report's signs are for values stored from the opponent's side), greedy playouts
/// cut after `cut` plies and scored by piece difference, proven wins flagged.
#[derive(Debug, Clone, Copy)]
pub struct Seed003 {
    pub c1: f32,
    pub c2: f32,
    pub cut: usize,
}

pub const SEED_003: Seed003 = Seed003 { c1: 0.5, c2: 0.1, cut: 40 };

impl Policy<Board> for Seed003 {
    fn has_knowledge(&self) -> bool {
        true
    }

    fn knowledge(&self, parent: &Board, mv: Move) -> Knowledge {
        let rel = eval::relscore_after(parent, mv) as f32 / 49.0;
        Knowledge {
            prior_value: 0.0,
            prior_visits: 0.0,
            bias: self.c1 * rel + self.c2 * f32::from(u8::from(!mv.is_jump())),
        }
    }

    fn playout(&mut self, state: &mut Board, rng: &mut fastrand::Rng, played: &mut Vec<(Player, Move)>) -> f64 {
        eval::greedy_playout(state, self.cut, rng, played)
    }
}

/// phi(s): +1 own piece, -1 enemy piece, 0 empty, from the side to move's view.
impl Features for Board {
    fn features(&self) -> Vec<f32> {
        let me = self.to_move();
        let (own, enemy) = (self.pieces(me), self.pieces(me.other()));
        signed_cells(49, |sq| own.contains(sq), |sq| enemy.contains(sq))
    }
}

/// The numbers of `ab`'s search that tuning moves (`experiments ataxx-spsa`); the rest of
/// its settings are switches and depths. [`SearchParams::DEFAULT`] is what the bot plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchParams {
    /// Reverse futility pruning's margin per ply (centi-pieces).
    pub rfp_margin: i32,
    /// Futility pruning's margin: `fp_base + fp_per_ply * depth`.
    pub fp_base: i32,
    pub fp_per_ply: i32,
    /// Late-move reductions: `lmr_base + lmr_scale * ln(depth) * ln(move number)` plies,
    /// a ply less (more) per `lmr_history_divisor` of good (bad) history.
    pub lmr_base: f32,
    pub lmr_scale: f32,
    pub lmr_history_divisor: i32,
    /// The aspiration window's first half-width.
    pub aspiration_delta: i32,
}

impl SearchParams {
    /// Zataxx's hand-set numbers, but for the LMR pair that SPSA found (was 0.8 + 0.4 ln d
    /// ln m: now a little less at shallow depths, much more for late moves deep in the tree,
    /// 6.6 plies instead of 4.4 for the 20th move at depth 20; shared/EXPERIMENTS.md, "The
    /// search's numbers tuned by SPSA").
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_margin: 50,
        fp_base: 160,
        fp_per_ply: 80,
        lmr_base: 0.436,
        lmr_scale: 0.691,
        lmr_history_divisor: 12288,
        aspiration_delta: 16,
    };

    /// The names [`SearchParams::get`] and [`SearchParams::set`] know, in this order.
    pub const NAMES: [&'static str; 7] =
        ["rfp-margin", "fp-base", "fp-per-ply", "lmr-base", "lmr-scale", "lmr-history-divisor", "aspiration-delta"];

    pub fn get(&self, name: &str) -> Option<f64> {
        Some(match name {
            "rfp-margin" => f64::from(self.rfp_margin),
            "fp-base" => f64::from(self.fp_base),
            "fp-per-ply" => f64::from(self.fp_per_ply),
            "lmr-base" => f64::from(self.lmr_base),
            "lmr-scale" => f64::from(self.lmr_scale),
            "lmr-history-divisor" => f64::from(self.lmr_history_divisor),
            "aspiration-delta" => f64::from(self.aspiration_delta),
            _ => return None,
        })
    }

    /// Sets `name` to `value` (rounded where the number is an integer).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let int = value.round() as i32;
        match name {
            "rfp-margin" => self.rfp_margin = int,
            "fp-base" => self.fp_base = int,
            "fp-per-ply" => self.fp_per_ply = int,
            "lmr-base" => self.lmr_base = value as f32,
            "lmr-scale" => self.lmr_scale = value as f32,
            "lmr-history-divisor" => self.lmr_history_divisor = int.max(1),
            "aspiration-delta" => self.aspiration_delta = int.max(1),
            _ => return Err(format!("{name:?} is not a search parameter (known: {})", Self::NAMES.join(", "))),
        }
        Ok(())
    }
}

/// The search settings of `ab`, less the features in `without`.
pub fn ab_config(without: &Without) -> AlphaBetaConfig {
    ab_config_with(without, &SearchParams::DEFAULT)
}

/// [`ab_config`] with other numbers.
pub fn ab_config_with(without: &Without, params: &SearchParams) -> AlphaBetaConfig {
    let on = |feature: &str| !without.has(feature);
    let p = params;
    AlphaBetaConfig {
        name: "ab",
        aspiration: Some(Aspiration { min_depth: 7, delta: p.aspiration_delta, reduce_on_fail_high: true })
            .filter(|_| on("aspiration")),
        reverse_futility: Some(ReverseFutility { margin: p.rfp_margin, max_depth: 6 }).filter(|_| on("rfp")),
        futility: Some(Futility { max_depth: 6, min_moves: 3, base: p.fp_base, per_ply: p.fp_per_ply })
            .filter(|_| on("fp")),
        reductions: if on("lmr") {
            Reductions::Logarithmic { base: p.lmr_base, scale: p.lmr_scale, history_divisor: p.lmr_history_divisor }
        } else {
            Reductions::Off
        },
        // Jumps that turn no piece come last in the order; past the first two moves they
        // are skipped at any depth (in the middle game nearly every useful jump captures).
        late_move_pruning: Some(LateMovePruning { max_depth: i32::MAX, min_moves: 2, per_ply: 0 })
            .filter(|_| on("lmp")),
        iir_depth: Some(3).filter(|_| on("iir")),
        history_malus: on("history-malus"),
        singular: Some(Singular { min_depth: 6, depth_margin: 3 }).filter(|_| on("singular")),
        pv_table_cutoffs: on("pv-table-cutoffs"),
        ..AlphaBetaConfig::EXACT
    }
}

/// The `ab` engine less the features in `without`: the one builder that the bot, the
/// bench and the experiments use.
pub fn ab(without: &Without) -> AlphaBeta<Board, AtaxxEval> {
    ab_with(without, net::embedded())
}

/// `ab` with `network` in place of the embedded one (`ataxx-net datagen --net`: self-play
/// of a network not yet built in).
pub fn ab_with(without: &Without, network: &'static Network) -> AlphaBeta<Board, AtaxxEval> {
    let evaluation = if !without.has("network") {
        Evaluation::Network(network)
    } else if without.has("fitted-weights") {
        Evaluation::Terms(HAND_SET)
    } else {
        Evaluation::Terms(WEIGHTS)
    };
    let endgame_empties = Some(ENDGAME_EMPTIES).filter(|_| without.has("endgame-pruning"));
    let eval = AtaxxEval { endgame_empties, ..AtaxxEval::new(evaluation) };
    AlphaBeta::new(ab_config(without), eval)
}

/// The engines of the `ataxx` bot; the first is the default.
pub fn registry() -> Registry<Position> {
    let mut list = vec![
        EngineSpec {
            name: "ab",
            about: "alpha-beta: PVS, iterative deepening, aspiration, TT, killers, history with malus, RFP, FP, \
                    log LMR, LMP, IIR, singular extensions, table cut-offs at PV nodes; eval: a learned network \
                    (2x2 windows, 256 hidden, 4 phase buckets)",
            features: &[
                ("lmr", "late-move reductions (logarithmic in depth and move number, less for good history)"),
                ("rfp", "reverse futility pruning (50 centi-pieces per ply, to 6 plies)"),
                ("fp", "futility pruning of late moves (160 + 80 per ply below alpha, to 6 plies)"),
                ("lmp", "late-move pruning: jumps that turn no piece, after the first two moves"),
                ("iir", "internal iterative reduction (a ply less without a table move, from depth 3)"),
                ("history-malus", "history with a malus for the moves tried before a cut-off (off: depth^2 bonus)"),
                ("singular", "singular extensions from depth 6, with multi-cut and negative extensions"),
                ("pv-table-cutoffs", "table cut-offs at PV nodes too (off: only at null-window nodes)"),
                (
                    "endgame-pruning",
                    "forward pruning also in the endgame (off: full-width search from 8 empty squares)",
                ),
                ("aspiration", "aspiration windows (full window at every depth)"),
                ("network", "the learned evaluation (off: the hand-made terms, Texel-fitted)"),
                ("fitted-weights", "with the network off: the Texel-fitted weights (off: the hand-set ones)"),
            ],
            make: |_seed, without| Box::new(OnModel::new(ab(without))),
        },
        EngineSpec {
            name: "ab-material",
            about: "the same alpha-beta with a material-only evaluation (measures the evaluation's terms)",
            features: &[],
            make: |_seed, _| {
                let config = AlphaBetaConfig { name: "ab-material", ..ab_config(&Without::default()) };
                Box::new(OnModel::new(AlphaBeta::new(config, AtaxxEval::new(Evaluation::Terms(MATERIAL_ONLY)))))
            },
        },
        EngineSpec {
            name: "seed",
            about: "seed 003: MCTS with relscore/clone selection terms, greedy playouts cut at 40 plies, \
                    proven wins",
            features: &[],
            make: |seed, _| {
                let config = MctsConfig { name: "seed003", solver: true, bias_decays: false, ..MctsConfig::UCT };
                Box::new(OnModel::new(Mcts::new(config, SEED_003, seed)))
            },
        },
        EngineSpec {
            name: "mmcts",
            about: super::MMCTS_ABOUT,
            features: &[],
            make: |seed, _| Box::new(OnModel::new(MemoryMcts::<Board>::new(super::MMCTS_CONFIG, seed))),
        },
    ];
    list.extend(generic_engines());
    Registry::new(list)
}
