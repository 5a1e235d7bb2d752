//! Monte Carlo tree search, generic over [`Game`], with the knobs the seeds and the
//! strong programs use: UCT with exploration C; MCTS-Solver (proven wins and losses backed
//! up, proven nodes never searched again); per-child knowledge from a [`Policy`] (initial
//! values as virtual visits — seed 002 — and a bias term: decaying progressive bias — seed
//! 003 — or a constant greedy bonus G — seed 004); RAVE/AMAF; a per-game playout; early
//! stop once the best root move cannot be overtaken (seed 004); a memory cap; and tree
//! reuse between turns (keep-running).
//!
//! Nodes live in `Vec`s indexed by `u32` (the node, its move, its AMAF counts), children
//! contiguous. Each node records the side that made its move and counts rewards for that
//! side, so turn-keeping games (Dots) need no special case: the search never assumes that
//! sides alternate.

mod carry;

use super::{Budget, Engine, Score, SearchResult};
use crate::game::{Game, Outcome, Player};

/// What a game tells the search about a move, computed once when its node is created.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Knowledge {
    /// Initial mean value for the mover, in 0..1 ...
    pub prior_value: f32,
    /// ... worth this many virtual visits (0: no prior).
    pub prior_visits: f32,
    /// Added to the selection score: divided by (visits + 1) with a decaying bias,
    /// as is with a constant bonus.
    pub bias: f32,
}

/// Per-game knowledge and playouts. The default is plain UCT's: no knowledge, uniformly
/// random playouts to the end.
pub trait Policy<G: Game>: Send {
    fn knowledge(&self, _parent: &G, _mv: G::Move) -> Knowledge {
        Knowledge::default()
    }

    /// Whether `knowledge` says anything (saves computing it for plain engines).
    fn has_knowledge(&self) -> bool {
        false
    }

    /// Plays `state` forward and returns the first player's reward in 0..1. Moves are
    /// appended to `played` (for RAVE).
    fn playout(&mut self, state: &mut G, rng: &mut fastrand::Rng, played: &mut Vec<(Player, G::Move)>) -> f64 {
        random_playout(state, rng, played)
    }

    /// The exploration constant for a search from `root` (seed 004 lowers it as the game
    /// goes on).
    fn exploration(&self, _root: &G, base: f64) -> f64 {
        base
    }

    /// Whether `amaf_priors` says anything.
    fn has_amaf_priors(&self) -> bool {
        false
    }

    /// For each of a new node's children (`moves`, made from `parent`), virtual AMAF
    /// results to start with, as (count, mean for the mover): a prior that weighs less as
    /// real AMAF results come in, and costs no memory. Called only if `has_amaf_priors`.
    fn amaf_priors(&self, _parent: &G, _moves: &[G::Move], _out: &mut Vec<(u32, f32)>) {}

    /// Leaves out of a node's legal `moves` those proved never better than one kept (the
    /// tree's values and proofs stay exact). Kept non-empty. Default: all moves.
    fn keep_worth_trying(&self, _state: &G, _moves: &mut Vec<G::Move>) {}
}

/// Uniformly random legal moves to the end of the game.
pub fn random_playout<G: Game>(state: &mut G, rng: &mut fastrand::Rng, played: &mut Vec<(Player, G::Move)>) -> f64 {
    let mut moves = Vec::with_capacity(64);
    loop {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return state.outcome().expect("no legal move means the game is over").reward(Player::First);
        }
        let mv = moves[rng.usize(..moves.len())];
        played.push((state.to_move(), mv));
        state.play(mv);
    }
}

/// Plain UCT's policy.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomPlayouts;
impl<G: Game> Policy<G> for RandomPlayouts {}

#[derive(Debug, Clone, Copy)]
pub struct MctsConfig {
    /// Shown in the debug line.
    pub name: &'static str,
    /// C in `mean + C * sqrt(ln N / n)`.
    pub exploration: f64,
    /// MCTS-Solver.
    pub solver: bool,
    /// RAVE, and how its AMAF values are mixed in.
    pub rave: Option<Rave>,
    /// Knowledge bias divided by (visits + 1) (progressive bias) instead of constant.
    pub bias_decays: bool,
    /// Stop when the most visited root move can no longer be overtaken.
    pub early_stop: bool,
    /// Keep the subtree of the position reached between two searches.
    pub reuse_tree: bool,
    /// Stop growing the tree at this many bytes of nodes.
    pub memory_bytes: usize,
    /// A leaf gets its children once it has this many visits (1: on its second visit).
    /// Waiting longer keeps the tree small enough for the cache and the memory cap.
    pub expand_after: u32,
}

impl MctsConfig {
    /// Plain UCT: C = sqrt(2), nothing else.
    pub const UCT: MctsConfig = MctsConfig {
        name: "uct",
        exploration: std::f64::consts::SQRT_2,
        solver: false,
        rave: None,
        bias_decays: true,
        early_stop: false,
        reuse_tree: false,
        memory_bytes: 96 << 20,
        expand_after: 1,
    };
}

/// How a child's AMAF value (the results of every simulation through its parent in which
/// its mover played its move later) is mixed with its own mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rave {
    /// Gelly and Silver's schedule: `(1 - beta) * mean + beta * amaf`, with
    /// `beta = sqrt(k / (3n + k))`, plus the usual exploration term.
    Schedule { k: f64 },
    /// Weighted by counts: `(n * mean + m * amaf + C * sqrt(n * ln N)) / (n + m)`, where the
    /// AMAF count m starts at `prior` virtual draws. AMAF keeps a large share for as long
    /// as it keeps gathering results, and exploration shrinks with it (the form the strong
    /// NoGo program HaHaNoGo uses).
    Counts { prior: f32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Proof {
    Unknown,
    /// The side that made this node's move wins with best play.
    Win,
    /// ... loses.
    Loss,
}

/// 16 bytes: the tree's size is what limits it (rewards in f32 are exact sums of results
/// of 0, 1/2 and 1 up to 2^23 visits, more than a turn gives). A node's move and AMAF
/// counts live in arrays of their own beside it (see [`Tree`]).
#[derive(Debug, Clone, Copy)]
struct Node {
    mover: Player,
    proof: Proof,
    /// 0 until the node is expanded, then 1 + its number of children (a flag of its own
    /// would make the node 20 bytes).
    expansion: u16,
    first_child: u32,
    visits: u32,
    reward: f32,
}

/// A node's AMAF counts: results of simulations through its parent in which its mover
/// played its move later.
#[derive(Debug, Clone, Copy, Default)]
struct Amaf {
    visits: u32,
    reward: f32,
}

impl Node {
    fn new(mover: Player) -> Self {
        Node { mover, proof: Proof::Unknown, expansion: 0, first_child: 0, visits: 0, reward: 0.0 }
    }

    fn expanded(&self) -> bool {
        self.expansion != 0
    }

    /// Its number of children (0 until expanded).
    fn child_count(&self) -> usize {
        usize::from(self.expansion.saturating_sub(1))
    }

    /// Marks it expanded, with `count` children from `first`.
    fn set_children(&mut self, first: usize, count: usize) {
        self.first_child = u32::try_from(first).expect("fewer than 2^32 nodes");
        self.expansion = u16::try_from(count + 1).expect("fewer than 65535 moves");
    }

    fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..self.first_child as usize + self.child_count()
    }

    /// Visits, the prior's virtual ones included.
    fn weight(&self, k: &Knowledge) -> f64 {
        f64::from(self.visits) + f64::from(k.prior_visits)
    }

    /// Rewards for the mover, the prior's included.
    fn total(&self, k: &Knowledge) -> f64 {
        f64::from(self.reward) + f64::from(k.prior_value * k.prior_visits)
    }

    /// Mean value for the mover, prior included.
    fn mean(&self, k: &Knowledge) -> f64 {
        let n = self.weight(k);
        if n == 0.0 {
            0.5
        } else {
            self.total(k) / n
        }
    }
}

/// The most children whose scores [`Tree::select`] buffers on the stack (NoGo has 81
/// points at most); a node with more takes the general path.
const MAX_BUFFERED_CHILDREN: usize = 128;

/// The nodes, and beside them, by the same index, each node's move (`None` at the root) and
/// AMAF counts: the AMAF update, which reads every child's move of each node on a
/// simulation's path, touches only these two arrays.
struct Tree<G: Game> {
    nodes: Vec<Node>,
    moves: Vec<Option<G::Move>>,
    amaf: Vec<Amaf>,
    /// Each node's knowledge, by the same index; empty when the policy has none (most
    /// engines), which keeps the nodes small: the tree's size is what limits it.
    knowledge: Vec<Knowledge>,
}

impl<G: Game> Tree<G> {
    /// Bytes per node, all arrays together.
    const NODE_BYTES: usize =
        std::mem::size_of::<Node>() + std::mem::size_of::<Option<G::Move>>() + std::mem::size_of::<Amaf>();

    /// A tree of the root alone, with room for `capacity` nodes.
    fn new(root: &G, knows: bool, capacity: usize) -> Tree<G> {
        let knowledge = if knows { vec![Knowledge::default()] } else { Vec::new() };
        let mut tree = Tree {
            nodes: vec![Node::new(root.to_move().other())],
            moves: vec![None],
            amaf: vec![Amaf::default()],
            knowledge,
        };
        tree.reserve_up_to(capacity);
        tree
    }

    /// Room for `capacity` nodes in every array (the knowledge too, where there is any),
    /// allocated once: arrays grown by doubling were copied in the allocator's heap, where
    /// freed copies stayed resident. Room not yet written costs no memory.
    fn reserve_up_to(&mut self, capacity: usize) {
        self.nodes.reserve_exact(capacity.saturating_sub(self.nodes.len()));
        self.moves.reserve_exact(capacity.saturating_sub(self.moves.len()));
        self.amaf.reserve_exact(capacity.saturating_sub(self.amaf.len()));
        if !self.knowledge.is_empty() {
            self.knowledge.reserve_exact(capacity.saturating_sub(self.knowledge.len()));
        }
    }

    /// A child's move (only the root has none).
    fn mv(&self, node: usize) -> G::Move {
        self.moves[node].expect("only the root has no move")
    }

    fn knowledge(&self, node: usize) -> Knowledge {
        self.knowledge.get(node).copied().unwrap_or_default()
    }

    fn mean(&self, node: usize) -> f64 {
        self.nodes[node].mean(&self.knowledge(node))
    }

    fn expand(&mut self, node: usize, state: &G, moves: &[G::Move], policy: &dyn Policy<G>, rng: &mut fastrand::Rng) {
        let first = self.nodes.len();
        let mover = state.to_move();
        self.nodes.extend(moves.iter().map(|_| Node::new(mover)));
        self.amaf.extend(moves.iter().map(|_| Amaf::default()));
        self.moves.extend(moves.iter().map(|&mv| Some(mv)));
        if policy.has_amaf_priors() {
            let mut priors = Vec::with_capacity(moves.len());
            policy.amaf_priors(state, moves, &mut priors);
            for (amaf, (count, mean)) in self.amaf[first..].iter_mut().zip(priors) {
                *amaf = Amaf { visits: count, reward: count as f32 * mean };
            }
        }
        // Unvisited children are tried in this order: shuffle so that the move generator's
        // order does not bias the search (each child's AMAF prior moves with it).
        for i in (1..moves.len()).rev() {
            let j = rng.usize(..=i);
            self.moves.swap(first + i, first + j);
            self.amaf.swap(first + i, first + j);
        }
        if policy.has_knowledge() {
            for i in first..self.nodes.len() {
                self.knowledge.push(policy.knowledge(state, self.mv(i)));
            }
        }
        self.nodes[node].set_children(first, moves.len());
    }

    fn select(&self, node: usize, cfg: &MctsConfig, c: f64) -> usize {
        if let Some(Rave::Counts { prior }) = cfg.rave {
            if prior > 0.0 && self.knowledge.is_empty() {
                return self.select_by_counts(node, cfg, prior, c);
            }
        }
        self.select_any(node, cfg, c)
    }

    /// [`Tree::select`] for every configuration.
    fn select_any(&self, node: usize, cfg: &MctsConfig, c: f64) -> usize {
        let n = &self.nodes[node];
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut best = usize::MAX;
        let mut best_score = f64::NEG_INFINITY;
        let mut fallback = usize::MAX;
        for i in n.children() {
            let child = &self.nodes[i];
            match child.proof {
                Proof::Win => return i,
                Proof::Loss => {
                    if fallback == usize::MAX || child.visits > self.nodes[fallback].visits {
                        fallback = i;
                    }
                    continue;
                }
                Proof::Unknown => {}
            }
            let k = &self.knowledge(i);
            let visits = child.weight(k);
            let bias = match (k.bias, cfg.bias_decays) {
                // Most engines have no knowledge: spare them a division per child.
                (0.0, _) => 0.0,
                (b, true) => f64::from(b) / (visits + 1.0),
                (b, false) => f64::from(b),
            };
            let score = match cfg.rave {
                Some(Rave::Counts { prior }) => {
                    let amaf = self.amaf[i];
                    let amaf_visits = f64::from(amaf.visits) + f64::from(prior);
                    let amaf_sum = f64::from(amaf.reward) + 0.5 * f64::from(prior);
                    (child.total(k) + amaf_sum + c * (visits * log_n).sqrt()) / (visits + amaf_visits).max(1e-9) + bias
                }
                _ if visits == 0.0 => {
                    // Unvisited and without prior: try it now (its bias breaks ties later).
                    return i;
                }
                Some(Rave::Schedule { k: rave_k }) if self.amaf[i].visits > 0 => {
                    let beta = (rave_k / (3.0 * visits + rave_k)).sqrt();
                    let amaf = f64::from(self.amaf[i].reward) / f64::from(self.amaf[i].visits);
                    (1.0 - beta) * child.mean(k) + beta * amaf + c * (log_n / visits).sqrt() + bias
                }
                _ => child.mean(k) + c * (log_n / visits).sqrt() + bias,
            };
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        if best == usize::MAX {
            fallback
        } else {
            best
        }
    }

    /// [`Tree::select`] for count-weighted RAVE without knowledge (NoGo's `mcts`), where it
    /// is the search's hottest loop (33% of a search's time in f64, child by child): the
    /// same score in f32, every child's at once into a buffer (no branch, no chain from one
    /// child to the next, so the compiler vectorizes it), then the first highest. A proved
    /// win scores +inf (taken at once, as the first one was), a proved loss -inf (skipped).
    /// 21% of the time then, and 11% less time for the same search (docs/lab/nogo-search.md).
    fn select_by_counts(&self, node: usize, cfg: &MctsConfig, prior: f32, c: f64) -> usize {
        let n = &self.nodes[node];
        let range = n.children();
        if range.len() > MAX_BUFFERED_CHILDREN {
            return self.select_any(node, cfg, c);
        }
        let c_log = c as f32 * (n.visits.max(1) as f32).ln().sqrt();
        let half_prior = 0.5 * prior;
        // The children's counts copied out of the nodes first, so that the arithmetic runs
        // on plain arrays, four or eight children at a time.
        let mut visits = [0f32; MAX_BUFFERED_CHILDREN];
        let mut sums = [0f32; MAX_BUFFERED_CHILDREN];
        let mut amaf_visits = [0f32; MAX_BUFFERED_CHILDREN];
        let mut proofs = [0f32; MAX_BUFFERED_CHILDREN];
        let nodes = &self.nodes[range.clone()];
        let amafs = &self.amaf[range.clone()];
        for (j, (child, amaf)) in nodes.iter().zip(amafs).enumerate() {
            visits[j] = child.visits as f32;
            sums[j] = child.reward + amaf.reward;
            amaf_visits[j] = amaf.visits as f32;
            proofs[j] = match child.proof {
                Proof::Unknown => 0.0,
                Proof::Win => f32::INFINITY,
                Proof::Loss => f32::NEG_INFINITY,
            };
        }
        let mut scores = [0f32; MAX_BUFFERED_CHILDREN];
        let scores = &mut scores[..range.len()];
        let counts = visits.iter().zip(&sums).zip(&amaf_visits).zip(&proofs);
        for (score, (((&visits, &sum), &amaf_visits), &proof)) in scores.iter_mut().zip(counts) {
            // The prior's virtual draws keep the denominator positive.
            let value = (sum + half_prior + c_log * visits.sqrt()) / (visits + amaf_visits + prior);
            *score = if proof == 0.0 { value } else { proof };
        }
        let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        if top == f32::NEG_INFINITY {
            // Every child proved lost (rare): the general path's choice among them.
            return self.select_any(node, cfg, c);
        }
        range.start + scores.iter().position(|&s| s == top).expect("the maximum is one of them")
    }

    /// Re-derives `node`'s proof from its children's. Returns whether it changed.
    fn update_proof(&mut self, node: usize) -> bool {
        let n = &self.nodes[node];
        if n.proof != Proof::Unknown || n.child_count() == 0 {
            return false;
        }
        let mut any_win = false;
        let mut all_loss = true;
        let mut child_mover = n.mover;
        for i in n.children() {
            let c = &self.nodes[i];
            child_mover = c.mover;
            any_win |= c.proof == Proof::Win;
            all_loss &= c.proof == Proof::Loss;
        }
        // The side to move here (the children's mover) wins if one child wins, loses if all lose.
        let for_side_to_move = if any_win {
            Proof::Win
        } else if all_loss {
            Proof::Loss
        } else {
            return false;
        };
        let same = child_mover == n.mover;
        self.nodes[node].proof = match (for_side_to_move, same) {
            (p, true) => p,
            (Proof::Win, false) => Proof::Loss,
            (_, false) => Proof::Win,
        };
        true
    }

    /// Keeps only the subtree under `root`, which becomes node 0, compacted in place: a
    /// copy beside the old tree would double the peak memory of a kept-running bot.
    ///
    /// A node's children block always lies after the node (it was appended when the node
    /// was expanded). Moving the kept blocks in the order of their old positions, each to
    /// the next free index, therefore never overwrites a block not yet moved: every block
    /// moves down or stays. A block's parent has moved before it, so its new index is known.
    fn keep_subtree(&mut self, root: usize) {
        let mut blocks: Vec<KeptBlock> = Vec::new();
        let mut stack = vec![root];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i];
            if n.child_count() > 0 {
                blocks.push(KeptBlock { first: n.first_child, count: n.child_count() as u32, parent: u32::MAX });
                stack.extend(n.children());
            }
        }
        blocks.sort_unstable_by_key(|b| b.first);
        self.move_nodes(root, 0, 1, &mut blocks);
        let mut next = 1usize;
        for b in 0..blocks.len() {
            let KeptBlock { first, count, parent } = blocks[b];
            let count = count as usize;
            self.move_nodes(first as usize, next, count, &mut blocks);
            self.nodes[parent as usize].first_child = next as u32;
            next += count;
        }
        self.nodes.truncate(next);
        self.moves.truncate(next);
        self.amaf.truncate(next);
        self.knowledge.truncate(next);
        self.moves[0] = None;
    }

    /// Moves `count` nodes from `from` down to `to` in every array, and tells each kept
    /// block of their children its parent's new index.
    fn move_nodes(&mut self, from: usize, to: usize, count: usize, blocks: &mut [KeptBlock]) {
        debug_assert!(to <= from);
        let range = from..from + count;
        self.nodes.copy_within(range.clone(), to);
        self.moves.copy_within(range.clone(), to);
        self.amaf.copy_within(range.clone(), to);
        if !self.knowledge.is_empty() {
            self.knowledge.copy_within(range, to);
        }
        for i in to..to + count {
            let n = &self.nodes[i];
            if n.child_count() > 0 {
                let b = blocks.binary_search_by_key(&n.first_child, |b| b.first).expect("a kept node's block is kept");
                blocks[b].parent = i as u32;
            }
        }
    }
}

/// A children block kept by [`Tree::keep_subtree`]: where it starts in the old tree, its
/// length, and its parent's index in the new tree.
#[derive(Clone, Copy)]
struct KeptBlock {
    first: u32,
    count: u32,
    parent: u32,
}

/// Plain UCT (the seeds' baseline).
pub fn uct<G: Game>(seed: u64) -> Mcts<G, RandomPlayouts> {
    Mcts::new(MctsConfig::UCT, RandomPlayouts, seed)
}

/// An MCTS engine: a configuration and a policy.
pub struct Mcts<G: Game, P: Policy<G>> {
    config: MctsConfig,
    policy: P,
    rng: fastrand::Rng,
    history: Vec<G::Move>,
    saved: Option<(Vec<G::Move>, Tree<G>)>,
}

impl<G: Game, P: Policy<G>> Mcts<G, P> {
    pub fn new(config: MctsConfig, policy: P, seed: u64) -> Self {
        Mcts { config, policy, rng: fastrand::Rng::with_seed(seed), history: Vec::new(), saved: None }
    }

    /// The game knowledge it searches with.
    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// The saved tree advanced to the current history, if it holds this position with
    /// exactly these root moves.
    fn reused_tree(&mut self, root_moves: &[G::Move]) -> Option<Tree<G>> {
        let (old_history, tree) = self.saved.take()?;
        let extra = self.history.strip_prefix(old_history.as_slice())?;
        let mut node = 0;
        for mv in extra {
            let n = &tree.nodes[node];
            node = n.children().find(|&i| tree.moves[i] == Some(*mv))?;
        }
        let n = &tree.nodes[node];
        if !n.expanded() || n.child_count() != root_moves.len() || n.proof != Proof::Unknown {
            return None;
        }
        let children_match = n.children().all(|i| tree.moves[i].is_some_and(|m| root_moves.contains(&m)));
        if !children_match {
            return None;
        }
        let mut tree = tree;
        tree.keep_subtree(node);
        Some(tree)
    }
}

impl<G: Game, P: Policy<G>> Engine<G> for Mcts<G, P> {
    fn set_history(&mut self, moves: &[G::Move]) {
        self.history.clear();
        self.history.extend_from_slice(moves);
    }

    fn carry(&self, played: G::Move, max_bytes: usize) -> Option<Vec<u8>> {
        self.carry_tree(played, max_bytes)
    }

    fn resume(&mut self, carried: &[u8], history: &[G::Move], root: &G) -> Result<(), String> {
        if !self.config.reuse_tree {
            return Err("this engine keeps no tree between turns".into());
        }
        self.resume_tree(carried, history, root)
    }

    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        let cfg = self.config;
        let max_nodes = (cfg.memory_bytes / Tree::<G>::NODE_BYTES).max(root_moves.len() + 1);
        // The last expansion may pass the cap by one node's children.
        let capacity = max_nodes + G::MOVE_SPACE;
        let mut reused = if cfg.reuse_tree { self.reused_tree(root_moves) } else { None };
        if let Some(t) = reused.as_mut() {
            // Room for the whole tree only now that the old one is freed, so that the
            // allocator can give its memory back to this one.
            t.reserve_up_to(capacity);
        }
        let reused_nodes = reused.as_ref().map_or(0, |t| t.nodes.len());
        let mut tree = reused.unwrap_or_else(|| {
            let mut t = Tree::<G>::new(game, self.policy.has_knowledge(), capacity);
            t.expand(0, game, root_moves, &self.policy, &mut self.rng);
            t
        });
        let c = self.policy.exploration(game, cfg.exploration);
        let mut moves = Vec::with_capacity(128);
        let mut path = Vec::with_capacity(64);
        let mut played: Vec<(Player, G::Move)> = Vec::with_capacity(256);
        let mut seen = if cfg.rave.is_some() { vec![u32::MAX; 2 * G::MOVE_SPACE] } else { Vec::new() };
        let mut iterations = 0u64;
        let mut stopped_early = false;
        while !budget.exhausted(iterations) {
            if tree.nodes[0].proof != Proof::Unknown {
                stopped_early = true;
                break;
            }
            if cfg.early_stop && iterations % 256 == 255 && cannot_be_overtaken(&tree, budget, iterations) {
                stopped_early = true;
                break;
            }
            iterations += 1;
            let mut state = game.clone();
            let mut node = 0usize;
            path.clear();
            path.push(0usize);
            played.clear();
            // Selection and expansion.
            let mut terminal = None;
            loop {
                let n = &tree.nodes[node];
                if n.proof != Proof::Unknown {
                    break;
                }
                if !n.expanded() {
                    if node != 0 && n.visits < cfg.expand_after {
                        // A finished game is proven on its first visit (and never
                        // comes back here); later visits only need the playout.
                        if cfg.solver && n.visits == 0 {
                            terminal = state.outcome();
                        }
                        break;
                    }
                    if tree.nodes.len() >= max_nodes {
                        break;
                    }
                    state.legal_moves(&mut moves);
                    if moves.is_empty() {
                        terminal = state.outcome();
                        tree.nodes[node].set_children(0, 0);
                        break;
                    }
                    self.policy.keep_worth_trying(&state, &mut moves);
                    tree.expand(node, &state, &moves, &self.policy, &mut self.rng);
                }
                if tree.nodes[node].child_count() == 0 {
                    terminal = state.outcome();
                    break;
                }
                node = tree.select(node, &cfg, c);
                let mv = tree.mv(node);
                played.push((state.to_move(), mv));
                state.play(mv);
                path.push(node);
            }
            // Evaluation: a proof, the game's end, or a playout.
            let leaf = &tree.nodes[node];
            let first_reward = match (leaf.proof, terminal) {
                (Proof::Win, _) => reward_of(leaf.mover, 1.0),
                (Proof::Loss, _) => reward_of(leaf.mover, 0.0),
                (_, Some(outcome)) => {
                    if cfg.solver {
                        if let Outcome::Win(w) = outcome {
                            tree.nodes[node].proof = if w == leaf.mover { Proof::Win } else { Proof::Loss };
                        }
                    }
                    outcome.reward(Player::First)
                }
                (_, None) => self.policy.playout(&mut state, &mut self.rng, &mut played),
            };
            // Back-up.
            let mut proof_changed = cfg.solver;
            for (depth, &i) in path.iter().enumerate().rev() {
                if proof_changed && depth + 1 < path.len() {
                    proof_changed = tree.update_proof(i);
                }
                let n = &mut tree.nodes[i];
                n.visits += 1;
                n.reward += (if n.mover == Player::First { first_reward } else { 1.0 - first_reward }) as f32;
            }
            if cfg.rave.is_some() {
                update_amaf(&mut tree, &path, &played, first_reward, &mut seen);
            }
        }
        if cfg.reuse_tree {
            self.saved = Some((self.history.clone(), tree));
            let tree = &self.saved.as_ref().expect("just saved").1;
            return finish(tree, cfg.name, iterations, reused_nodes, stopped_early, budget);
        }
        finish(&tree, cfg.name, iterations, reused_nodes, stopped_early, budget)
    }
}

fn reward_of(mover: Player, value_for_mover: f64) -> f64 {
    if mover == Player::First {
        value_for_mover
    } else {
        1.0 - value_for_mover
    }
}

/// AMAF: every child of a node on the path whose move its mover played later in the
/// simulation shares the result.
fn update_amaf<G: Game>(
    tree: &mut Tree<G>,
    path: &[usize],
    played: &[(Player, G::Move)],
    first_reward: f64,
    seen: &mut [u32],
) {
    // seen[player * MOVE_SPACE + move] = the first ply index at which that side played it.
    seen.iter_mut().for_each(|s| *s = u32::MAX);
    for (ply, &(p, mv)) in played.iter().enumerate().rev() {
        seen[p.index() * G::MOVE_SPACE + G::move_index(mv)] = ply as u32;
    }
    for (depth, &node) in path.iter().enumerate() {
        // The path's node at `depth` was reached after `depth` plies of `played`. Its
        // children share their mover, and so the reward and the half of `seen` they read.
        let range = tree.nodes[node].children();
        if range.is_empty() {
            continue;
        }
        let mover = tree.nodes[range.start].mover;
        let reward = reward_of(mover, first_reward) as f32;
        let seen_by_mover = &seen[mover.index() * G::MOVE_SPACE..][..G::MOVE_SPACE];
        for (mv, amaf) in tree.moves[range.clone()].iter().zip(&mut tree.amaf[range]) {
            let Some(mv) = *mv else { continue };
            let first = seen_by_mover[G::move_index(mv)];
            // Played at or after this depth (u32::MAX, never played, fails the second
            // test). Added without a branch: it goes either way about half the time.
            let hit = u32::from(first as usize >= depth && first != u32::MAX);
            amaf.visits += hit;
            amaf.reward += reward * hit as f32;
        }
    }
}

/// Seed 004's early stop: the most visited root move leads by more visits than the
/// remaining time can give any other.
fn cannot_be_overtaken<G: Game>(tree: &Tree<G>, budget: &Budget, iterations: u64) -> bool {
    let root = &tree.nodes[0];
    let (mut first, mut second) = (0u64, 0u64);
    for i in root.children() {
        let v = u64::from(tree.nodes[i].visits);
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    let left = match (budget.max_iterations, budget.deadline.remaining()) {
        (Some(max), _) => max.saturating_sub(iterations),
        (None, Some(remaining)) => {
            let elapsed = budget.deadline.elapsed().as_secs_f64().max(1e-6);
            (iterations as f64 / elapsed * remaining.as_secs_f64()) as u64
        }
        (None, None) => return false,
    };
    first > second + left
}

fn finish<G: Game>(
    tree: &Tree<G>,
    name: &str,
    iterations: u64,
    reused: usize,
    stopped_early: bool,
    budget: &Budget,
) -> SearchResult<G::Move> {
    let root = &tree.nodes[0];
    let key = |i: usize| {
        let n = &tree.nodes[i];
        let proof_rank = match n.proof {
            Proof::Win => 2,
            Proof::Unknown => 1,
            Proof::Loss => 0,
        };
        (proof_rank, n.visits, (tree.mean(i) * 1e9) as i64)
    };
    let best_index = root.children().max_by_key(|&i| key(i)).expect("at least one root move");
    let best = &tree.nodes[best_index];
    let best_mean = tree.mean(best_index);
    let proof = match best.proof {
        Proof::Win => " proven=win",
        Proof::Loss => " proven=loss",
        Proof::Unknown => "",
    };
    let summary = format!(
        "{name} iters={iterations} nodes={} reused={reused} visits={} value={:.3}{proof}{} ms={}",
        tree.nodes.len(),
        best.visits,
        best_mean,
        if stopped_early { " early-stop" } else { "" },
        budget.deadline.elapsed().as_millis()
    );
    let root_stats = root
        .children()
        .map(|i| {
            let c = &tree.nodes[i];
            (tree.mv(i), u64::from(c.visits), if c.visits > 0 { tree.mean(i) } else { 0.0 })
        })
        .collect();
    let score = match best.proof {
        Proof::Win => Score::WinIn(1),
        Proof::Loss => Score::LossIn(1),
        Proof::Unknown => Score::WinRate(best_mean),
    };
    SearchResult {
        score: Some(score),
        depth: 0,
        best: tree.mv(best_index),
        summary,
        nodes: tree.nodes.len() as u64,
        root_stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_takes_16_bytes_and_at_most_27_with_its_move_and_amaf_counts() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
        // NoGo's points and Pencil's edges are u8; an Ataxx move is two u8 squares.
        assert_eq!(Tree::<crate::nogo::Position>::NODE_BYTES, 26);
        assert_eq!(Tree::<crate::dots::Position>::NODE_BYTES, 26);
        const { assert!(Tree::<crate::ataxx::Position>::NODE_BYTES <= 27) };
    }

    /// Gives each NoGo point its index as the count of virtual AMAF results, at 0.25.
    struct IndexPrior;
    impl Policy<crate::nogo::Position> for IndexPrior {
        fn has_amaf_priors(&self) -> bool {
            true
        }
        fn amaf_priors(&self, _parent: &crate::nogo::Position, moves: &[u8], out: &mut Vec<(u32, f32)>) {
            out.extend(moves.iter().map(|&p| (u32::from(p), 0.25)));
        }
    }

    #[test]
    fn amaf_priors_follow_their_moves_through_the_shuffle() {
        let start = crate::nogo::Position::start();
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        let mut tree = Tree::new(&start, false, 100);
        tree.expand(0, &start, &moves, &IndexPrior, &mut fastrand::Rng::with_seed(1));
        let children = tree.nodes[0].children();
        assert_eq!(children.len(), 81);
        // The shuffle moved the first child away from point 0, so the test can fail.
        assert_ne!(tree.mv(children.start), 0);
        for i in children {
            let p = tree.mv(i);
            assert_eq!((tree.amaf[i].visits, tree.amaf[i].reward), (u32::from(p), 0.25 * f32::from(p)), "point {p}");
        }
    }

    #[test]
    fn the_fast_count_weighted_selection_picks_what_the_general_one_does() {
        let start = crate::nogo::Position::start();
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        let config = MctsConfig { rave: Some(Rave::Counts { prior: 20.0 }), ..MctsConfig::UCT };
        let mut rng = fastrand::Rng::with_seed(5);
        let (mut agreed, mut proofs) = (0, 0);
        for round in 0..400 {
            let mut tree = Tree::new(&start, false, 100);
            tree.expand(0, &start, &moves, &RandomPlayouts, &mut rng);
            let mut total = 0;
            for i in tree.nodes[0].children() {
                let visits = rng.u32(0..5_000);
                tree.nodes[i].visits = visits;
                tree.nodes[i].reward = rng.u32(0..=visits) as f32;
                let amaf = rng.u32(0..20_000);
                tree.amaf[i] = Amaf { visits: amaf, reward: rng.u32(0..=amaf) as f32 };
                // Some rounds prove children, lost or (rarely) won, or all of them lost.
                tree.nodes[i].proof = match (round % 4, rng.u8(0..40)) {
                    (1, 0) => Proof::Win,
                    (1, 1..=9) | (3, _) => Proof::Loss,
                    _ => Proof::Unknown,
                };
                proofs += usize::from(tree.nodes[i].proof != Proof::Unknown);
                total += visits;
            }
            tree.nodes[0].visits = total;
            let fast = tree.select(0, &config, 0.25);
            let general = tree.select_any(0, &config, 0.25);
            // Scores within f32's rounding of each other may order either way.
            let score = |i: usize| {
                let (n, a) = (&tree.nodes[i], &tree.amaf[i]);
                let visits = f64::from(n.visits);
                let log_n = f64::from(total.max(1)).ln();
                (f64::from(n.reward) + f64::from(a.reward) + 10.0 + 0.25 * (visits * log_n).sqrt())
                    / (visits + f64::from(a.visits) + 20.0)
            };
            let (fast_proof, general_proof) = (tree.nodes[fast].proof, tree.nodes[general].proof);
            assert_eq!(fast_proof, general_proof, "round {round}");
            if fast == general {
                agreed += 1;
            } else {
                assert_eq!(fast_proof, Proof::Unknown, "round {round}: proved children are picked alike");
                assert!((score(fast) - score(general)).abs() < 1e-5, "round {round}: {fast} against {general}");
            }
        }
        assert!(agreed >= 390, "only {agreed} of 400 agree");
        assert!(proofs > 1000, "proved children tested ({proofs})");
    }

    /// Compares the subtree at `o` in `old` with the one at `n` in `new`, node by node in
    /// children order; returns how many nodes it holds.
    fn same_subtree<G: Game>(old: &Tree<G>, o: usize, new: &Tree<G>, n: usize) -> usize {
        let (a, b) = (&old.nodes[o], &new.nodes[n]);
        let stats = |x: &Node| (x.mover, x.proof, x.expansion, x.visits, x.reward);
        assert_eq!(stats(a), stats(b), "node {o} kept as {n}");
        assert_eq!((old.amaf[o].visits, old.amaf[o].reward), (new.amaf[n].visits, new.amaf[n].reward));
        if !a.expanded() {
            return 1;
        }
        1 + a
            .children()
            .zip(b.children())
            .map(|(oc, nc)| {
                assert_eq!(old.moves[oc], new.moves[nc]);
                same_subtree(old, oc, new, nc)
            })
            .sum::<usize>()
    }

    #[test]
    fn a_subtree_kept_in_place_holds_every_node_under_the_new_root_and_nothing_else() {
        let start = crate::nogo::Position::start();
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        let config = MctsConfig { reuse_tree: true, rave: Some(Rave::Counts { prior: 20.0 }), ..MctsConfig::UCT };
        let mut mcts = Mcts::new(config, RandomPlayouts, 3);
        mcts.set_history(&[]);
        mcts.search(&start, &moves, &Budget::iterations(20_000));
        let (_, tree) = mcts.saved.take().expect("a kept-running search saves its tree");
        // Two plies down, along the most visited moves: blocks before, between and after
        // the kept ones are dropped.
        let most_visited = |node: usize| tree.nodes[node].children().max_by_key(|&i| tree.nodes[i].visits).unwrap();
        let root = most_visited(most_visited(0));
        assert!(tree.nodes[root].expanded());
        let old = Tree::<crate::nogo::Position> {
            nodes: tree.nodes.clone(),
            moves: tree.moves.clone(),
            amaf: tree.amaf.clone(),
            knowledge: tree.knowledge.clone(),
        };
        let mut kept = tree;
        kept.keep_subtree(root);
        assert_eq!(kept.moves[0], None);
        let count = same_subtree(&old, root, &kept, 0);
        assert_eq!(count, kept.nodes.len());
        assert!(count > 100 && count < old.nodes.len() / 2, "{count} of {}", old.nodes.len());
    }
}
