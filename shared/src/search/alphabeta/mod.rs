//! Alpha-beta search, generic over [`Game`]: negamax with principal variation search,
//! iterative deepening, aspiration windows, a transposition table, move ordering (TT
//! move, a game's own tactical order, killers, history), and, as configured, reverse
//! futility pruning, futility pruning, late-move reductions (at the root too) and
//! pruning, internal iterative reduction, singular extensions and table cut-offs at PV
//! nodes, all under the deadline ([`AlphaBetaConfig::EXACT`] has none of them). Where the
//! evaluator says the game is in its endgame, the search is full-width (no forward
//! pruning), so that what it proves within its depth is exact.
//!
//! Games where a move can keep the turn (Dots) are handled by comparing the side to move
//! before and after a move: the child's score is negated only when the side changes.

mod carry;

use super::{Budget, Engine, Score, SearchResult};
use crate::game::{Game, Outcome, Player};

/// Scores at or beyond `WIN - MAX_PLY` are won games (`WIN - plies to the end`).
pub const WIN: i32 = 1_000_000;
const MAX_PLY: i32 = 1000;
const INF: i32 = WIN + 1;
/// The bound of the history scores where `history_malus` is on.
const HISTORY_MAX: i32 = 16384;
/// Depths and move numbers in the logarithmic reduction table.
const LMR_TABLE: usize = 64;
/// Table entries per millisecond of a timed search: above the ~2,800 nodes a
/// millisecond Ataxx searches (`make bench`, 2026-11-27), since most nodes store. At
/// Botzone's 900 ms afresh that is 2^21 entries, 32 MB: ~15 ms of page faults.
const TT_ENTRIES_PER_MS: u64 = 4096;
const MIN_TT_ENTRIES: usize = 1024;
/// What each search divides the history scores by before it starts: the last search's
/// order still counts, less than this one's.
const HISTORY_DECAY: i32 = 8;
/// Moves of a node picked one by one before the rest is sorted (`next_best`).
const PICKS_BEFORE_SORT: usize = 3;

/// What alpha-beta needs to know about a game beyond its rules.
pub trait Evaluator<G: Game>: Send {
    /// The static value of a running game for the side to move (well inside ±WIN/2).
    fn evaluate(&self, g: &G) -> i32;

    /// [`Evaluator::evaluate`] of `child`, a position one move after `parent`: how the
    /// search values its nodes, which come many to a parent, so that an evaluator may
    /// reuse the parent's work for each of them. The same value as `evaluate(child)`.
    fn evaluate_child(&self, _parent: &G, child: &G) -> i32 {
        self.evaluate(child)
    }

    /// The value of a finished game for the side to move; `WIN` for a win (the search
    /// subtracts the distance).
    fn terminal(&self, g: &G, outcome: Outcome) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == g.to_move() => WIN,
            Outcome::Win(_) => -WIN,
        }
    }

    /// An upper bound on the plies left in the game, where one is known: iterative
    /// deepening stops there, the search being complete.
    fn plies_left(&self, _g: &G) -> Option<i32> {
        None
    }

    /// A hash of the position, side to move included.
    fn hash(&self, g: &G) -> u64;

    /// A move's tactical promise (higher is searched first), e.g. captures.
    fn order(&self, _g: &G, _mv: G::Move) -> i32 {
        0
    }

    /// Whether `mv` is quiet enough that late-move pruning may skip it near the leaves.
    fn prunable(&self, _g: &G, _mv: G::Move) -> bool {
        false
    }

    /// Whether the position is in its endgame, where every move is searched to full
    /// depth (no forward pruning, reductions or IIR).
    fn endgame(&self, _g: &G) -> bool {
        false
    }
}

#[derive(Debug, Clone, Copy)]
pub struct AlphaBetaConfig {
    pub name: &'static str,
    pub tt_bytes: usize,
    /// Aspiration windows around the previous iteration's score (None: full window).
    pub aspiration: Option<Aspiration>,
    /// Reverse futility pruning at non-PV nodes (None: off).
    pub reverse_futility: Option<ReverseFutility>,
    /// Futility pruning of the late moves of a node whose static value is far below alpha
    /// (None: off).
    pub futility: Option<Futility>,
    pub reductions: Reductions,
    /// Late-move pruning of the moves the evaluator calls prunable (None: off; exact
    /// searches leave it off).
    pub late_move_pruning: Option<LateMovePruning>,
    /// Internal iterative reduction: a node this deep with no table move is searched a ply
    /// shallower (None: off).
    pub iir_depth: Option<i32>,
    /// History as a bounded score with a bonus for the move that cut off and a malus for
    /// the moves tried before it (false: `depth^2` added for the cut-off move only).
    pub history_malus: bool,
    /// Singular extensions, with multi-cut and negative extensions (None: off).
    pub singular: Option<Singular>,
    /// Whether a table entry deep enough may end a PV node too, as it ends the others
    /// (false: PV nodes always search, so that the principal variation is searched out).
    pub pv_table_cutoffs: bool,
    pub max_depth: i32,
}

/// Singular extensions: at a non-PV node at least `min_depth` deep whose table move has a
/// lower bound (or exact score) from at least `depth - depth_margin` plies, the other
/// moves are searched at half depth with a null window at the table score less `depth`.
/// If none reaches it, the table move is singular and searched a ply deeper; if that
/// bar is at or above beta, another move also cuts off and the node returns it
/// (multi-cut); else, if the table score beats beta, the table move is searched a ply
/// shallower (the node has alternatives).
#[derive(Debug, Clone, Copy)]
pub struct Singular {
    pub min_depth: i32,
    pub depth_margin: i32,
}

/// Aspiration windows: from `min_depth`, each iteration starts with the window
/// `score ± delta`; a fail widens the failed side by `delta`, which grows by half each
/// time (a fail low also pulls beta to the window's middle). With
/// `reduce_on_fail_high`, each fail high re-searches a ply shallower (the move that failed
/// high is likely good: confirm it cheaply), so the iteration's result may come from less
/// than its depth; off, the search stays exact.
#[derive(Debug, Clone, Copy)]
pub struct Aspiration {
    pub min_depth: i32,
    pub delta: i32,
    pub reduce_on_fail_high: bool,
}

/// Reverse futility pruning: a non-PV node within `max_depth` plies of the leaves whose
/// static value beats beta by `margin` per ply returns that value.
#[derive(Debug, Clone, Copy)]
pub struct ReverseFutility {
    pub margin: i32,
    pub max_depth: i32,
}

/// Futility pruning: at non-PV nodes within `max_depth` plies of the leaves, once
/// `min_moves` moves have been searched, the rest are skipped if the static value plus
/// `base + per_ply * depth` cannot reach alpha (moves come best-first, so the rest promise
/// less).
#[derive(Debug, Clone, Copy)]
pub struct Futility {
    pub max_depth: i32,
    pub min_moves: usize,
    pub base: i32,
    pub per_ply: i32,
}

/// Late-move pruning: at non-PV nodes within `max_depth` plies of the leaves, the moves
/// the evaluator calls prunable are skipped once `min_moves + per_ply * depth` moves have
/// been searched and one of them does not lose.
#[derive(Debug, Clone, Copy)]
pub struct LateMovePruning {
    pub max_depth: i32,
    pub min_moves: usize,
    pub per_ply: usize,
}

/// Late-move reductions: how many plies shallower a late move is first searched with a
/// null window (re-searched at full depth if it beats alpha).
#[derive(Debug, Clone, Copy)]
pub enum Reductions {
    Off,
    /// `base + scale * ln(depth) * ln(move number)` plies from the 3rd move at depth >= 3,
    /// a ply less at PV nodes, less for moves with a good history (more for a bad one: a
    /// ply per `history_divisor` of the bounded history, which lies within +-16384),
    /// never into the leaves.
    Logarithmic {
        base: f32,
        scale: f32,
        history_divisor: i32,
    },
}

impl AlphaBetaConfig {
    /// An exact search: no forward pruning or reductions, no aspiration, so that what it
    /// proves within its depth holds.
    pub const EXACT: AlphaBetaConfig = AlphaBetaConfig {
        name: "ab-exact",
        tt_bytes: 32 << 20,
        aspiration: None,
        reverse_futility: None,
        futility: None,
        reductions: Reductions::Off,
        late_move_pruning: None,
        iir_depth: None,
        history_malus: false,
        singular: None,
        pv_table_cutoffs: false,
        max_depth: 64,
    };
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One table entry, 16 bytes for Ataxx's moves (24 with a whole key and a wider depth):
/// at Botzone's 1000 ms an Ataxx search stores ~2.7 M nodes, more than the table holds,
/// so smaller entries keep more of a turn's work, and of earlier turns' in a kept process.
/// The slot is the key's low bits; `check` is its high half (the key's top 32 bits and
/// the slot's 20-odd together: a false match about once in 2^50 probes).
#[derive(Clone, Copy)]
struct TtEntry<M> {
    check: u32,
    score: i32,
    best: Option<M>,
    /// The draft, clamped into a byte (stored lower only: an entry claims no more
    /// depth than was searched).
    depth: i8,
    bound: Bound,
}

impl<M> TtEntry<M> {
    fn check_of(key: u64) -> u32 {
        (key >> 32) as u32
    }

    fn new(key: u64, depth: i32, score: i32, bound: Bound, best: Option<M>) -> Self {
        let depth = depth.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8;
        TtEntry { check: Self::check_of(key), score, best, depth, bound }
    }
}

/// A node's legal moves, and the same with their ordering keys.
type MoveLists<M> = (Vec<M>, Vec<(i64, M)>);

pub struct AlphaBeta<G: Game, E: Evaluator<G>> {
    config: AlphaBetaConfig,
    eval: E,
    tt: Vec<Option<TtEntry<G::Move>>>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// By side to move, then move index: the same squares mean different plans for the
    /// two sides.
    history: Vec<i32>,
    /// Logarithmic reductions by [depth][move number] (empty unless configured).
    lmr_table: Vec<[u8; LMR_TABLE]>,
    nodes: u64,
    budget: Budget,
    aborted: bool,
    /// Spare move lists, one per ply in use.
    lists: Vec<MoveLists<G::Move>>,
    /// The game's moves before the last search's root, and that root: what the table
    /// carried to the next turn is found from (`carry`).
    history_moves: Vec<G::Move>,
    last_root: Option<G>,
    /// Entries carried from the last turn, put into the table once the search sizes it.
    carried: Vec<(u64, TtEntry<G::Move>)>,
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    pub fn new(config: AlphaBetaConfig, eval: E) -> Self {
        let lmr_table = match config.reductions {
            Reductions::Logarithmic { base, scale, .. } => (0..LMR_TABLE)
                .map(|depth| {
                    std::array::from_fn(|n| {
                        let plies = base + scale * (depth.max(1) as f32).ln() * (n.max(1) as f32).ln();
                        plies.round().clamp(0.0, 64.0) as u8
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        AlphaBeta {
            config,
            eval,
            tt: Vec::new(),
            killers: vec![[None; 2]; MAX_PLY as usize + 1],
            history: vec![0; 2 * G::MOVE_SPACE],
            lmr_table,
            nodes: 0,
            budget: Budget::iterations(0),
            aborted: false,
            lists: Vec::new(),
            history_moves: Vec::new(),
            last_root: None,
            carried: Vec::new(),
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Takes `budget` for the coming search and makes the transposition table big enough
    /// for it. The table is allocated here rather than in `new` because writing all of
    /// `tt_bytes` costs a fresh process ~15 ms of page faults, most of a 100 ms move,
    /// while such a move stores only ~100k positions. It grows (empty) when a later
    /// budget needs more and never shrinks, so a kept process keeps what it learnt.
    fn prepare(&mut self, budget: &Budget) {
        self.budget = *budget;
        let entry = std::mem::size_of::<Option<TtEntry<G::Move>>>().max(1);
        // The most entries `tt_bytes` holds, rounded down to a power of two.
        let most = (1usize << (self.config.tt_bytes / entry).max(1).ilog2()).max(MIN_TT_ENTRIES);
        // Whichever limit comes first: a node cap, or what the time left can store.
        let by_time = budget.deadline.remaining().map(|left| left.as_millis() as u64 * TT_ENTRIES_PER_MS);
        let wanted = budget.max_iterations.into_iter().chain(by_time).min().unwrap_or(u64::MAX);
        let wanted = wanted.min(most as u64).max(MIN_TT_ENTRIES as u64);
        // A power of two, rounded down, so that a slot is the key's low bits.
        let size = 1usize << wanted.ilog2();
        if self.tt.len() < size {
            self.tt = crate::search::pages::filled(size, None);
        }
    }

    fn out_of_time(&mut self) -> bool {
        if !self.aborted && self.nodes.is_multiple_of(1024) && self.budget.exhausted_nodes(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Asks the memory for the table slot of `g`, which the search is about to probe:
    /// the probe's cache miss is a quarter of an Ataxx search's time.
    #[inline(always)]
    fn prefetch(&self, g: &G) {
        self.prefetch_key(self.eval.hash(g));
    }

    /// [`AlphaBeta::prefetch`] for a position whose key is already made.
    #[inline(always)]
    fn prefetch_key(&self, key: u64) {
        crate::search::pages::prefetch(&self.tt[self.tt_index(key)]);
    }

    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    /// The table's entry for `key`, if its slot holds that key's (a sized table only).
    fn probe(&self, key: u64) -> Option<TtEntry<G::Move>> {
        self.tt[self.tt_index(key)].filter(|e| e.check == TtEntry::<G::Move>::check_of(key))
    }

    /// The child's score from the parent's side: negated only when the side to move changed.
    fn child_score(&mut self, parent: &G, child: &G, depth: i32, alpha: i32, beta: i32, ply: i32) -> i32 {
        if child.to_move() == parent.to_move() {
            self.negamax(child, depth, alpha, beta, ply, None, Some(parent))
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply, None, Some(parent))
        }
    }

    /// Fills `scored` with the legal moves and their ordering keys: the TT move, then the
    /// evaluator's order, killers, history. `moves` is scratch space.
    fn score_moves(
        &self,
        g: &G,
        tt_move: Option<G::Move>,
        ply: i32,
        moves: &mut Vec<G::Move>,
        scored: &mut Vec<(i64, G::Move)>,
    ) {
        g.legal_moves(moves);
        // Killers match by move index (a move made another way is the same move), taken
        // once per node rather than once per move.
        let killers = self.killers[ply.min(MAX_PLY) as usize].map(|k| k.map(G::move_index));
        scored.clear();
        scored.extend(moves.iter().map(|&mv| {
            let s = if Some(mv) == tt_move {
                i64::MAX
            } else {
                let killer = if killers.contains(&Some(G::move_index(mv))) { 1 << 40 } else { 0 };
                self.order_key(g, mv) + killer
            };
            (s, mv)
        }));
    }

    /// A move's place in the order without table move or killers: the evaluator's order
    /// first, then history.
    fn order_key(&self, g: &G, mv: G::Move) -> i64 {
        (i64::from(self.eval.order(g, mv)) << 42) + i64::from(self.history[Self::history_slot(g.to_move(), mv)])
    }

    fn history_slot(side: Player, mv: G::Move) -> usize {
        side.index() * G::MOVE_SPACE + G::move_index(mv)
    }

    /// A late move's value by principal variation search: a null window at `depth`
    /// less `reduction` plies, re-searched at full depth if it beats alpha, then with the
    /// full window if it falls inside it.
    #[allow(clippy::too_many_arguments)]
    fn late_move_score(
        &mut self,
        g: &G,
        child: &G,
        depth: i32,
        reduction: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        let mut s = self.child_score(g, child, depth - reduction, alpha, alpha + 1, ply);
        if s > alpha && reduction > 0 {
            s = self.child_score(g, child, depth, alpha, alpha + 1, ply);
        }
        if s > alpha && s < beta {
            s = self.child_score(g, child, depth, alpha, beta, ply);
        }
        s
    }

    /// The static value of `g`, from `parent` where it is known (see
    /// [`Evaluator::evaluate_child`]).
    fn static_value(&self, parent: Option<&G>, g: &G) -> i32 {
        match parent {
            Some(parent) => self.eval.evaluate_child(parent, g),
            None => self.eval.evaluate(g),
        }
    }

    /// The value of `g` searched `depth` plies within (alpha, beta). A singular search
    /// passes `excluded`, the table move: it searches the other moves only and neither
    /// reads cut-offs from the table nor writes its result there. `parent` is the position
    /// before `g`'s last move, where there is one (for [`Evaluator::evaluate_child`]).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        g: &G,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        excluded: Option<G::Move>,
        parent: Option<&G>,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if let Some(outcome) = g.outcome() {
            return farther_from_end(self.eval.terminal(g, outcome), ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.static_value(parent, g);
        }
        let key = self.eval.hash(g);
        let slot = self.tt_index(key);
        let is_pv = beta - alpha > 1;
        let tt_entry = self.probe(key);
        let tt_move = tt_entry.and_then(|e| e.best);
        if let Some(e) = tt_entry.filter(|_| excluded.is_none()) {
            let score = farther_from_end(e.score, ply);
            if (!is_pv || self.config.pv_table_cutoffs) && i32::from(e.depth) >= depth {
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        // Forward pruning is off in the endgame, so that its results are exact to depth.
        let full_width = self.eval.endgame(g);
        // The static value, computed once and only where a pruning rule asks for it.
        let mut stand = None;
        if let Some(rfp) = self.config.reverse_futility.filter(|_| !full_width) {
            if !is_pv && excluded.is_none() && depth <= rfp.max_depth && beta.abs() < WIN / 2 {
                let value = *stand.get_or_insert_with(|| self.static_value(parent, g));
                if value - rfp.margin * depth >= beta {
                    return value;
                }
            }
        }
        if tt_move.is_none() && !full_width && self.config.iir_depth.is_some_and(|d| depth >= d) {
            depth -= 1;
        }
        // Move lists are per ply and kept between nodes; most nodes cut off after a move
        // or two, so the moves are picked best-first as they are needed, not sorted.
        let (mut moves, mut scored) = self.lists.pop().unwrap_or_default();
        self.score_moves(g, tt_move, ply, &mut moves, &mut scored);
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let prune_after = match self.config.late_move_pruning {
            Some(lmp) if !is_pv && !full_width && depth <= lmp.max_depth && alpha.abs() < WIN / 2 => {
                lmp.min_moves + lmp.per_ply * depth as usize
            }
            _ => usize::MAX,
        };
        let futility =
            self.config.futility.filter(|f| !is_pv && !full_width && depth <= f.max_depth && alpha.abs() < WIN / 2);
        for i in 0..scored.len() {
            let mv = next_best(&mut scored, i);
            if Some(mv) == excluded {
                continue;
            }
            // Late-move and futility pruning wait for a searched move that does not lose:
            // while every move so far loses, a skipped one may be the only defence, and
            // skipping it would prove a false win.
            let defended = best > -WIN / 2;
            if defended && i >= prune_after && Some(mv) != tt_move && self.eval.prunable(g, mv) {
                continue;
            }
            if let Some(f) = futility.filter(|f| defended && i >= f.min_moves) {
                let value = *stand.get_or_insert_with(|| self.static_value(parent, g));
                if value + f.base + f.per_ply * depth <= alpha {
                    break;
                }
            }
            let mut extension = 0;
            let singular = tt_entry.filter(|e| {
                Some(mv) == tt_move
                    && excluded.is_none()
                    && !is_pv
                    && !full_width
                    && e.score.abs() < WIN / 2
                    && !matches!(e.bound, Bound::Upper)
                    && self
                        .config
                        .singular
                        .is_some_and(|se| depth >= se.min_depth && i32::from(e.depth) >= depth - se.depth_margin)
            });
            if let Some(e) = singular {
                let bar = e.score - depth;
                let others = self.negamax(g, (depth - 1) / 2, bar - 1, bar, ply, Some(mv), parent);
                if self.aborted {
                    self.lists.push((moves, scored));
                    return 0;
                }
                if others < bar {
                    extension = 1;
                } else if bar >= beta {
                    self.lists.push((moves, scored));
                    return bar;
                } else if e.score >= beta {
                    extension = -1;
                }
            }
            let mut child = g.clone();
            child.play(mv);
            // Past the picks the order is sorted, so the next sibling is known: its table
            // slot is asked for now, and is in the cache when this child's search returns.
            if depth > 1 && i >= PICKS_BEFORE_SORT && i + 1 < scored.len() {
                let mut next = g.clone();
                next.play(scored[i + 1].1);
                self.prefetch(&next);
            }
            let score = if i == 0 {
                self.child_score(g, &child, depth - 1 + extension, alpha, beta, ply + 1)
            } else {
                let reduction = if full_width || Some(mv) == tt_move {
                    0
                } else {
                    self.reduction(depth, i, is_pv, g.to_move(), mv)
                };
                self.late_move_score(g, &child, depth - 1, reduction, alpha, beta, ply + 1)
            };
            if self.aborted {
                self.lists.push((moves, scored));
                return 0;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                best_move = Some(mv);
            }
            if alpha >= beta {
                // By index, as killers are matched: a clone stored again from another
                // source is the same move and must not take the second slot too.
                let k = &mut self.killers[ply.min(MAX_PLY) as usize];
                if k[0].map(G::move_index) != Some(G::move_index(mv)) {
                    k[1] = k[0];
                    k[0] = Some(mv);
                }
                self.reward_history(depth, g.to_move(), mv, &scored[..i]);
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.lists.push((moves, scored));
        if excluded.is_none() {
            // A node that failed low has no best move (all it knows is upper bounds): it
            // keeps the table's old move, or none, so that a later visit gets its IIR and
            // does not search an arbitrary move first.
            let best_move = best_move.or(tt_move);
            self.tt[slot] = Some(TtEntry::new(key, depth, farther_from_end(best, -ply), bound, best_move));
        }
        best
    }

    /// How many plies shallower the `i`-th move (from 0) of a node is first searched.
    fn reduction(&self, depth: i32, i: usize, is_pv: bool, side: Player, mv: G::Move) -> i32 {
        match self.config.reductions {
            Reductions::Off => 0,
            Reductions::Logarithmic { .. } if depth < 3 || i < 2 => 0,
            Reductions::Logarithmic { history_divisor, .. } => {
                let table = self.lmr_table[(depth as usize).min(LMR_TABLE - 1)][(i + 1).min(LMR_TABLE - 1)];
                // Only the bounded history (with malus) has a known scale; the unbounded
                // depth^2 sums would switch reductions off for any move often good.
                let history = if self.config.history_malus {
                    self.history[Self::history_slot(side, mv)] / history_divisor.max(1)
                } else {
                    0
                };
                (i32::from(table) - i32::from(is_pv) - history).clamp(0, depth - 2)
            }
        }
    }

    /// History after a cut-off by `side`'s `mv` at `depth`, `tried` the moves searched
    /// before it.
    fn reward_history(&mut self, depth: i32, side: Player, mv: G::Move, tried: &[(i64, G::Move)]) {
        if !self.config.history_malus {
            let h = &mut self.history[Self::history_slot(side, mv)];
            *h = (*h + depth * depth).min(1 << 30);
            return;
        }
        // Bounded in (-HISTORY_MAX, HISTORY_MAX): each update moves the score part of the
        // way towards the bound, so old results fade as new ones come.
        let bonus = (300 * depth).min(1500);
        let h = &mut self.history[Self::history_slot(side, mv)];
        *h += bonus - bonus * *h / HISTORY_MAX;
        for &(_, other) in tried {
            let h = &mut self.history[Self::history_slot(side, other)];
            *h -= bonus + bonus * *h / HISTORY_MAX;
        }
    }

    /// Searches the root moves to `depth` within (alpha, beta); returns the best score and
    /// move. The previous best move goes first; the others, in the game's order, are
    /// reduced as late moves are at any PV node (every root move is searched: no pruning).
    fn root(&mut self, g: &G, moves: &[G::Move], depth: i32, mut alpha: i32, beta: i32) -> (i32, G::Move) {
        let mut best = (-INF, moves[0]);
        let full_width = self.eval.endgame(g);
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = g.clone();
            child.play(mv);
            let score = if i == 0 {
                self.child_score(g, &child, depth - 1, alpha, beta, 1)
            } else {
                let reduction = if full_width { 0 } else { self.reduction(depth, i, true, g.to_move(), mv) };
                self.late_move_score(g, &child, depth - 1, reduction, alpha, beta, 1)
            };
            if self.aborted {
                break;
            }
            if score > best.0 {
                best = (score, mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// A won or lost score (`WIN - plies to the end`) seen `plies` further from the game's
/// end (negative: nearer); other scores are unchanged. Scores count plies from the root,
/// the table keeps them counted from the node, so that the same position reached at
/// another ply reads the right distance.
fn farther_from_end(score: i32, plies: i32) -> i32 {
    if score >= WIN - MAX_PLY {
        score - plies
    } else if score <= -WIN + MAX_PLY {
        score + plies
    } else {
        score
    }
}

/// A root score as a [`Score`]: won and lost games by their distance.
pub fn score_of(score: i32) -> Score {
    if score >= WIN - MAX_PLY {
        Score::WinIn((WIN - score) as u32)
    } else if score <= -(WIN - MAX_PLY) {
        Score::LossIn((WIN + score) as u32)
    } else {
        Score::Centi(score)
    }
}

/// The `i`-th move of a node in the order of its keys, for `i` counting up from 0. Most
/// nodes cut off after a move or two, so the first few are picked one at a time; a node
/// that gets further (with 30-80 moves in an Ataxx middle game) has the rest sorted at
/// once, since picking each of them cost a pass over all (a sixth of the search's time).
/// The order is the same either way: the sort is stable, as `pick_best` is.
fn next_best<M: Copy>(scored: &mut [(i64, M)], i: usize) -> M {
    match i.cmp(&PICKS_BEFORE_SORT) {
        std::cmp::Ordering::Less => pick_best(scored, i),
        std::cmp::Ordering::Equal => {
            scored[i..].sort_by_key(|m| std::cmp::Reverse(m.0));
            scored[i].1
        }
        std::cmp::Ordering::Greater => scored[i].1,
    }
}

/// Moves the best-keyed of `scored[i..]` to `i` and returns it. The first of equal keys
/// wins and the others keep their order, so the moves come in the order a stable sort by
/// key would give.
fn pick_best<M: Copy>(scored: &mut [(i64, M)], i: usize) -> M {
    let mut best = i;
    for j in i + 1..scored.len() {
        if scored[j].0 > scored[best].0 {
            best = j;
        }
    }
    scored[i..=best].rotate_right(1);
    scored[i].1
}

impl<G: Game, E: Evaluator<G>> Engine<G> for AlphaBeta<G, E> {
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        let (score, best, completed) = self.iterate(game, root_moves, budget);
        let summary = format!(
            "{} depth={completed} nodes={} score={score} ms={}",
            self.config.name,
            self.nodes,
            budget.deadline.elapsed().as_millis()
        );
        SearchResult {
            score: Some(score_of(score)),
            depth: completed.max(0) as u32,
            best,
            summary,
            nodes: self.nodes,
            root_stats: Vec::new(),
        }
    }

    fn set_history(&mut self, moves: &[G::Move]) {
        self.history_moves = moves.to_vec();
    }

    fn carry(&self, played: G::Move, max_bytes: usize) -> Option<Vec<u8>> {
        self.carry_table(played, max_bytes)
    }

    fn resume(&mut self, carried: &[u8], history: &[G::Move], root: &G) -> Result<(), String> {
        self.resume_table(carried, history, root)
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    /// Iterative deepening over `root_moves`: returns (score, best move, deepest
    /// completed depth).
    pub fn iterate(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> (i32, G::Move, i32) {
        self.prepare(budget);
        self.restore_carried();
        self.last_root = Some(game.clone());
        self.nodes = 0;
        self.aborted = false;
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= HISTORY_DECAY);
        let mut moves = root_moves.to_vec();
        let mut best = (self.eval.evaluate(game), moves[0]);
        let mut completed = 0;
        let max_depth = self.eval.plies_left(game).map_or(self.config.max_depth, |p| p.clamp(1, self.config.max_depth));
        let max_depth = budget.max_depth.map_or(max_depth, |d| max_depth.min(d.max(1) as i32));
        for depth in 1..=max_depth {
            // The best move so far first, the rest by the game's order and their history.
            moves[1..].sort_by_cached_key(|&mv| std::cmp::Reverse(self.order_key(game, mv)));
            let aspiration = self.config.aspiration.filter(|a| depth >= a.min_depth && best.0.abs() < WIN / 2);
            let mut delta = aspiration.map_or(INF, |a| a.delta);
            let (mut lo, mut hi) = match aspiration {
                Some(_) => (best.0 - delta, best.0 + delta),
                None => (-INF, INF),
            };
            let mut search_depth = depth;
            let mut result;
            loop {
                result = self.root(game, &moves, search_depth, lo, hi);
                if self.aborted {
                    break;
                }
                if result.0 <= lo && lo > -INF {
                    hi = (lo + hi) / 2;
                    lo = (lo - delta).max(-INF);
                    search_depth = depth;
                } else if result.0 >= hi && hi < INF {
                    hi = (hi + delta).min(INF);
                    if aspiration.is_some_and(|a| a.reduce_on_fail_high) {
                        search_depth = (search_depth - 1).max(1);
                    }
                } else {
                    break;
                }
                // Half as wide again, and at least a point wider: a one-point window
                // (delta / 2 == 0) widened by a point a search, thousands of searches
                // on the way to a won score. From delta 2 up the same as delta * 3 / 2.
                delta = delta.saturating_add((delta / 2).max(1));
            }
            // An interrupted iteration's move is kept only when it beat the previous best
            // (searched first) with a full window.
            if self.aborted {
                if result.1 != best.1 && result.0 > best.0 && result.0 > -INF {
                    best = result;
                }
                break;
            }
            best = result;
            completed = depth;
            let pos = moves.iter().position(|&m| m == best.1).expect("best is a root move");
            moves[..=pos].rotate_right(1);
            if best.0.abs() >= WIN - MAX_PLY {
                break; // a forced result: deeper search changes nothing
            }
            if budget.max_iterations.is_some_and(|n| self.nodes >= n) {
                break;
            }
        }
        (best.0, best.1, completed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ataxx::eval::MATERIAL_ONLY;
    use crate::ataxx::{Board, Move};
    use crate::engines::ataxx::{AtaxxEval, Evaluation};

    struct Flat;
    impl Evaluator<Board> for Flat {
        fn evaluate(&self, _: &Board) -> i32 {
            0
        }
        fn hash(&self, _: &Board) -> u64 {
            0
        }
    }

    /// A search with no time limit, for calling `negamax` directly.
    fn unlimited<G: Game, E: Evaluator<G>>(config: AlphaBetaConfig, eval: E) -> AlphaBeta<G, E> {
        let mut ab = AlphaBeta::new(config, eval);
        ab.prepare(&Budget::until(crate::search::Deadline::never()));
        ab
    }

    /// An Ataxx search on material, with a real hash (so that positions get their own
    /// table slots) and no time limit.
    fn material_search(config: AlphaBetaConfig) -> AlphaBeta<Board, AtaxxEval> {
        unlimited(config, AtaxxEval::new(Evaluation::Terms(MATERIAL_ONLY)))
    }

    #[test]
    fn moves_come_in_the_same_order_picked_or_sorted() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..500 {
            // Few distinct keys, so that ties (kept in their order) are common.
            let n = rng.usize(1..60);
            let keys: Vec<(i64, usize)> = (0..n).map(|m| (rng.i64(0..6), m)).collect();
            let (mut picked, mut sorted) = (keys.clone(), keys.clone());
            let by_picking: Vec<usize> = (0..n).map(|i| pick_best(&mut picked, i)).collect();
            let by_next: Vec<usize> = (0..n).map(|i| next_best(&mut sorted, i)).collect();
            assert_eq!(by_picking, by_next);
        }
    }

    #[test]
    fn the_table_is_sized_to_the_budget_at_the_first_search_and_never_shrinks() {
        let ab = material_search(AlphaBetaConfig::EXACT);
        let full = ab.tt.len();
        // The whole 32 MB: 2^21 entries of 16 bytes.
        assert!(full.is_power_of_two() && full * std::mem::size_of::<Option<TtEntry<Move>>>() == 32 << 20);

        let mut ab = AlphaBeta::new(AlphaBetaConfig::EXACT, Flat);
        assert!(ab.tt.is_empty(), "a new search allocates nothing yet");
        ab.prepare(&Budget::iterations(5_000));
        assert_eq!(ab.tt.len(), 4096, "a node cap's entries, rounded down to a power of two");
        let deadline = crate::search::Deadline::new(std::time::Instant::now(), std::time::Duration::from_millis(50));
        ab.prepare(&Budget::until(deadline));
        let timed = ab.tt.len();
        assert!(timed > 4096 && timed < full, "50 ms takes more than 5,000 nodes and less than the cap: {timed}");
        ab.prepare(&Budget::iterations(10));
        assert_eq!(ab.tt.len(), timed, "a smaller budget keeps the table");

        let mut ab = AlphaBeta::new(AlphaBetaConfig::EXACT, Flat);
        let two_ms = crate::search::Deadline::new(std::time::Instant::now(), std::time::Duration::from_millis(2));
        ab.prepare(&Budget { max_iterations: Some(1 << 20), ..Budget::until(two_ms) });
        assert!(ab.tt.len() <= 2 * TT_ENTRIES_PER_MS as usize, "the time left caps a large node cap: {}", ab.tt.len());
        let a_minute = crate::search::Deadline::new(std::time::Instant::now(), std::time::Duration::from_secs(60));
        ab.prepare(&Budget { max_iterations: Some(5_000), ..Budget::until(a_minute) });
        assert_eq!(ab.tt.len(), 4096, "a small node cap caps a long deadline");
    }

    #[test]
    fn an_ataxx_table_entry_takes_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Option<TtEntry<Move>>>(), 16);
    }

    #[test]
    fn a_stored_depth_is_clamped_down_into_a_byte() {
        let e = TtEntry::<Move>::new(1 << 40, 300, 7, Bound::Lower, None);
        assert_eq!((e.depth, e.score, e.check), (i8::MAX, 7, 1 << 8));
        assert_eq!(TtEntry::<Move>::new(0, -300, 0, Bound::Upper, None).depth, i8::MIN);
    }

    #[test]
    fn a_node_that_fails_low_stores_no_best_move_of_its_own() {
        let g = *crate::ataxx::Position::start().board();
        let fresh = || material_search(AlphaBetaConfig::EXACT);
        let key = fresh().eval.hash(&g);
        let stored_move = |ab: &AlphaBeta<Board, AtaxxEval>| {
            ab.tt[ab.tt_index(key)].filter(|e| e.check == (key >> 32) as u32).unwrap().best
        };
        let bar = WIN / 2;

        let mut ab = fresh();
        assert!(ab.negamax(&g, 2, bar, bar + 1, 0, None, None) <= bar);
        assert_eq!(stored_move(&ab), None, "every move failed low: no move is best");

        let mut ab = fresh();
        ab.negamax(&g, 2, -INF, INF, 0, None, None);
        let best = stored_move(&ab);
        assert!(best.is_some(), "a node with an exact score keeps its best move");
        assert!(ab.negamax(&g, 3, bar, bar + 1, 0, None, None) <= bar);
        assert_eq!(stored_move(&ab), best, "failing low later keeps the move found before");
    }

    #[test]
    fn a_deep_enough_table_entry_ends_a_pv_node_only_where_configured() {
        let g = *crate::ataxx::Position::start().board();
        // A stored exact score no search of the start position could return.
        let stored = 12_345;
        for pv_table_cutoffs in [false, true] {
            let mut ab = material_search(AlphaBetaConfig { pv_table_cutoffs, ..AlphaBetaConfig::EXACT });
            let key = ab.eval.hash(&g);
            let slot = ab.tt_index(key);
            ab.tt[slot] = Some(TtEntry::new(key, 5, stored, Bound::Exact, None));
            let score = ab.negamax(&g, 3, -INF, INF, 1, None, None);
            if pv_table_cutoffs {
                assert_eq!((score, ab.nodes()), (stored, 1), "the entry ends the PV node at once");
            } else {
                assert_ne!(score, stored, "without the option a PV node searches its moves");
                assert!(ab.nodes() > 1);
            }
        }
    }

    /// A node where the side to move (Second) has two moves that lose at once, searched
    /// first, and a prunable one that draws.
    #[derive(Clone)]
    struct LastDefence(u8);

    impl Game for LastDefence {
        type Move = u8;
        const MOVE_SPACE: usize = 4;
        fn to_move(&self) -> Player {
            if self.0 == 0 {
                Player::Second
            } else {
                Player::First
            }
        }
        fn legal_moves(&self, moves: &mut Vec<u8>) {
            moves.clear();
            if self.0 == 0 {
                moves.extend([3, 1, 2]);
            }
        }
        fn play(&mut self, mv: u8) {
            self.0 = mv;
        }
        fn outcome(&self) -> Option<Outcome> {
            match self.0 {
                0 => None,
                3 => Some(Outcome::Draw),
                _ => Some(Outcome::Win(Player::First)),
            }
        }
        fn move_index(mv: u8) -> usize {
            mv as usize
        }
    }

    struct DefencePrunable;
    impl Evaluator<LastDefence> for DefencePrunable {
        fn evaluate(&self, _: &LastDefence) -> i32 {
            0
        }
        fn hash(&self, g: &LastDefence) -> u64 {
            u64::from(g.0) + 1
        }
        fn order(&self, _: &LastDefence, mv: u8) -> i32 {
            i32::from(mv != 3)
        }
        fn prunable(&self, _: &LastDefence, mv: u8) -> bool {
            mv == 3
        }
    }

    #[test]
    fn late_move_pruning_skips_no_move_while_every_move_searched_loses() {
        let lmp = LateMovePruning { max_depth: i32::MAX, min_moves: 2, per_ply: 0 };
        let config = AlphaBetaConfig { late_move_pruning: Some(lmp), ..AlphaBetaConfig::EXACT };
        let mut ab = unlimited(config, DefencePrunable);
        // A null window (a non-PV node, where late-move pruning applies) around a draw.
        let score = ab.negamax(&LastDefence(0), 3, -1, 0, 0, None, None);
        assert_eq!(score, 0, "the third move, prunable, is the draw that saves the game");
    }

    #[test]
    fn logarithmic_reductions_grow_with_depth_and_move_number_and_never_reach_the_leaves() {
        let config = AlphaBetaConfig {
            reductions: Reductions::Logarithmic { base: 0.8, scale: 0.4, history_divisor: 12288 },
            ..AlphaBetaConfig::EXACT
        };
        let ab = AlphaBeta::new(config, Flat);
        let mv = Move { from: 0, to: 1 };
        assert_eq!(ab.reduction(2, 40, false, Player::First, mv), 0, "none below depth 3");
        assert_eq!(ab.reduction(10, 1, false, Player::First, mv), 0, "none for the first two moves");
        for depth in 3..40 {
            for i in 2..100 {
                let r = ab.reduction(depth, i, false, Player::First, mv);
                assert!((0..=depth - 2).contains(&r), "depth {depth} move {i}: {r}");
                assert!(r >= ab.reduction(depth, i - 1, false, Player::First, mv), "more for later moves");
                assert!(r >= ab.reduction(depth - 1, i, false, Player::First, mv), "more for deeper nodes");
                assert!(ab.reduction(depth, i, true, Player::First, mv) <= r, "less at PV nodes");
            }
        }
        assert!(ab.reduction(20, 40, false, Player::First, mv) >= 3, "late moves of deep nodes lose several plies");
    }

    #[test]
    fn good_history_reduces_less_only_where_the_history_is_bounded() {
        let log = Reductions::Logarithmic { base: 0.8, scale: 0.4, history_divisor: 12288 };
        let mv = Move { from: 0, to: 1 };
        for history_malus in [false, true] {
            let config = AlphaBetaConfig { reductions: log, history_malus, ..AlphaBetaConfig::EXACT };
            let mut ab = AlphaBeta::new(config, Flat);
            let before = ab.reduction(20, 40, false, Player::First, mv);
            for _ in 0..200 {
                ab.reward_history(20, Player::First, mv, &[]);
            }
            let after = ab.reduction(20, 40, false, Player::First, mv);
            if history_malus {
                assert!(after < before, "a move with good bounded history is reduced less: {before} -> {after}");
            } else {
                assert_eq!(after, before, "the unbounded depth^2 history has no scale to read reductions from");
            }
            let other_side = ab.reduction(20, 40, false, Player::Second, mv);
            assert_eq!(other_side, before, "one side's history says nothing about the other's moves");
        }
    }
}
