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
/// full-width version at 100 ms (docs/lab/ataxx-search.md).
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
    /// weaker (docs/lab/ataxx-search.md, "Clones first in the search's order").
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

/// The numbers of `ab`'s search that tuning moves (`experiments ataxx-spsa`): margins and
/// reductions, and the depths and move counts where each pruning starts or stops; what is
/// left are the switches of `without`. [`SearchParams::DEFAULT`] is what the bot plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchParams {
    /// Reverse futility pruning's margin per ply (centi-pieces), to `rfp_max_depth` plies.
    pub rfp_margin: i32,
    pub rfp_max_depth: i32,
    /// Futility pruning's margin: `fp_base + fp_per_ply * depth`, to `fp_max_depth` plies,
    /// after `fp_min_moves` moves.
    pub fp_base: i32,
    pub fp_per_ply: i32,
    pub fp_max_depth: i32,
    pub fp_min_moves: i32,
    /// Late-move reductions: `lmr_base + lmr_scale * ln(depth) * ln(move number)` plies,
    /// a ply less (more) per `lmr_history_divisor` of good (bad) history.
    pub lmr_base: f32,
    pub lmr_scale: f32,
    pub lmr_history_divisor: i32,
    /// Late-move pruning skips jumps that turn no piece after this many moves.
    pub lmp_min_moves: i32,
    /// Internal iterative reduction from this depth.
    pub iir_depth: i32,
    /// Singular extensions from `singular_min_depth`, the table entry at most
    /// `singular_depth_margin` plies shallower.
    pub singular_min_depth: i32,
    pub singular_depth_margin: i32,
    /// The aspiration window's first half-width, from depth `aspiration_min_depth`.
    pub aspiration_delta: i32,
    pub aspiration_min_depth: i32,
}

impl SearchParams {
    /// Zataxx's hand-set numbers, but for the LMR pair that SPSA found (was 0.8 + 0.4 ln d
    /// ln m: now a little less at shallow depths, much more for late moves deep in the tree,
    /// 6.6 plies instead of 4.4 for the 20th move at depth 20; docs/lab/ataxx-search.md, "The
    /// search's numbers tuned by SPSA").
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_margin: 50,
        rfp_max_depth: 6,
        fp_base: 160,
        fp_per_ply: 80,
        fp_max_depth: 6,
        fp_min_moves: 3,
        lmr_base: 0.436,
        lmr_scale: 0.691,
        lmr_history_divisor: 12288,
        lmp_min_moves: 2,
        iir_depth: 3,
        singular_min_depth: 6,
        singular_depth_margin: 3,
        aspiration_delta: 16,
        aspiration_min_depth: 7,
    };

    /// The names [`SearchParams::get`] and [`SearchParams::set`] know, in this order.
    pub const NAMES: [&'static str; 15] = [
        "rfp-margin",
        "rfp-max-depth",
        "fp-base",
        "fp-per-ply",
        "fp-max-depth",
        "fp-min-moves",
        "lmr-base",
        "lmr-scale",
        "lmr-history-divisor",
        "lmp-min-moves",
        "iir-depth",
        "singular-min-depth",
        "singular-depth-margin",
        "aspiration-delta",
        "aspiration-min-depth",
    ];

    pub fn get(&self, name: &str) -> Option<f64> {
        match name {
            "lmr-base" => Some(f64::from(self.lmr_base)),
            "lmr-scale" => Some(f64::from(self.lmr_scale)),
            // The integers are found by `integer_mut`, on a copy: one list of their names.
            _ => {
                let mut copy = *self;
                copy.integer_mut(name).map(|v| f64::from(*v))
            }
        }
    }

    /// Sets `name` to `value` (rounded where the number is an integer; depths, counts and
    /// divisors at least 1).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        match name {
            "lmr-base" => self.lmr_base = value as f32,
            "lmr-scale" => self.lmr_scale = value as f32,
            _ => {
                let is_margin = matches!(name, "rfp-margin" | "fp-base" | "fp-per-ply");
                let int = value.round() as i32;
                let known = Self::NAMES.join(", ");
                let slot = self
                    .integer_mut(name)
                    .ok_or_else(|| format!("{name:?} is not a search parameter (known: {known})"))?;
                *slot = if is_margin { int } else { int.max(1) };
            }
        }
        Ok(())
    }

    fn integer_mut(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "rfp-margin" => &mut self.rfp_margin,
            "rfp-max-depth" => &mut self.rfp_max_depth,
            "fp-base" => &mut self.fp_base,
            "fp-per-ply" => &mut self.fp_per_ply,
            "fp-max-depth" => &mut self.fp_max_depth,
            "fp-min-moves" => &mut self.fp_min_moves,
            "lmr-history-divisor" => &mut self.lmr_history_divisor,
            "lmp-min-moves" => &mut self.lmp_min_moves,
            "iir-depth" => &mut self.iir_depth,
            "singular-min-depth" => &mut self.singular_min_depth,
            "singular-depth-margin" => &mut self.singular_depth_margin,
            "aspiration-delta" => &mut self.aspiration_delta,
            "aspiration-min-depth" => &mut self.aspiration_min_depth,
            _ => return None,
        })
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
        aspiration: Some(Aspiration {
            min_depth: p.aspiration_min_depth,
            delta: p.aspiration_delta,
            reduce_on_fail_high: true,
        })
        .filter(|_| on("aspiration")),
        reverse_futility: Some(ReverseFutility { margin: p.rfp_margin, max_depth: p.rfp_max_depth })
            .filter(|_| on("rfp")),
        futility: Some(Futility {
            max_depth: p.fp_max_depth,
            min_moves: p.fp_min_moves as usize,
            base: p.fp_base,
            per_ply: p.fp_per_ply,
        })
        .filter(|_| on("fp")),
        reductions: if on("lmr") {
            Reductions::Logarithmic { base: p.lmr_base, scale: p.lmr_scale, history_divisor: p.lmr_history_divisor }
        } else {
            Reductions::Off
        },
        // Jumps that turn no piece come last in the order; past the first `lmp_min_moves`
        // moves they are skipped at any depth (in the middle game nearly every useful jump
        // captures).
        late_move_pruning: Some(LateMovePruning {
            max_depth: i32::MAX,
            min_moves: p.lmp_min_moves as usize,
            per_ply: 0,
        })
        .filter(|_| on("lmp")),
        iir_depth: Some(p.iir_depth).filter(|_| on("iir")),
        history_malus: on("history-malus"),
        singular: Some(Singular { min_depth: p.singular_min_depth, depth_margin: p.singular_depth_margin })
            .filter(|_| on("singular")),
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
