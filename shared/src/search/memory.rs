//! Memory-augmented MCTS (seed 000; Xiao, Mei & Müller's M-MCTS): a memory of at most M
//! entries, one per tree node, each (phi(s), V(s), N(s)); the K entries nearest to a
//! state by cosine similarity of phi give V_M(s) = sum_i w_i V(s_i) with softmax weights;
//! selection uses (1 - lambda) V + lambda V_M (lambda = 1 is the paper's V_M alone); back-up
//! is an exponential moving average V <- V + sigma (R - V).
//!
//! Querying is O(M * dim), so a node's neighbours are looked up again on each of its first
//! 16 visits and then at powers of two, while its own value (the nearest entry, similarity
//! 1) enters V_M live at every selection: a cost compromise, documented with the results.
//!
//! Its tree is its own, not `mcts.rs`'s: a node here carries a feature vector, a memory
//! slot and cached neighbours, and backs up an EMA rather than a sum; folding that into
//! the main engine would put seed 000's fields and branches in the hot loop of every
//! other MCTS engine. What the two share is the engine interface, the budget and the
//! playout (`mcts::random_playout`).

use super::{Budget, Engine, Score, SearchResult};
use crate::game::{Game, Player};

/// A state's feature vector for similarity, from the side to move's point of view.
pub trait Features: Game {
    fn features(&self) -> Vec<f32>;
}

#[derive(Debug, Clone, Copy)]
pub struct MemoryConfig {
    pub name: &'static str,
    /// M: most entries kept (least recently used evicted).
    pub capacity: usize,
    /// K nearest entries in a query, the node's own live value included (K = 1: V_M is
    /// that value alone, and no memory is kept).
    pub k: usize,
    /// Softmax temperature over similarities.
    pub temperature: f64,
    /// Weight of V_M in selection.
    pub lambda: f64,
    /// EMA step of the back-up; 0 means the plain running mean (1/n).
    pub sigma: f64,
    pub exploration: f64,
    pub max_nodes: usize,
}

impl MemoryConfig {
    pub const PAPER: MemoryConfig = MemoryConfig {
        name: "mmcts",
        capacity: 1024,
        k: 8,
        temperature: 0.1,
        lambda: 1.0,
        sigma: 0.5,
        exploration: std::f64::consts::SQRT_2,
        max_nodes: 1_000_000,
    };

    /// Seed 000 as its Section 4 ran it: the memory query returns the node's own value, so
    /// the method is UCT with the EMA back-up.
    pub const AS_RUN: MemoryConfig = MemoryConfig { name: "mmcts-as-run", k: 1, ..MemoryConfig::PAPER };
}

#[derive(Debug, Clone)]
struct Entry {
    phi: Vec<f32>,
    norm: f32,
    /// Value for the side to move in the entry's state.
    value: f64,
    visits: u32,
    last_used: u64,
    generation: u32,
}

/// The memory: at most `capacity` entries, least recently used evicted.
#[derive(Debug, Clone)]
pub struct Memory {
    entries: Vec<Entry>,
    capacity: usize,
    clock: u64,
}

/// A handle to an entry that may have been evicted since.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    index: u32,
    generation: u32,
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

impl Memory {
    pub fn new(capacity: usize) -> Memory {
        Memory { entries: Vec::with_capacity(capacity.min(1 << 16)), capacity: capacity.max(1), clock: 0 }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds an entry, evicting the least recently used one when full.
    pub fn add(&mut self, phi: Vec<f32>, value: f64, visits: u32) -> Slot {
        self.clock += 1;
        let entry = Entry { norm: norm(&phi), phi, value, visits, last_used: self.clock, generation: 0 };
        if self.entries.len() < self.capacity {
            self.entries.push(entry);
            return Slot { index: self.entries.len() as u32 - 1, generation: 0 };
        }
        let (victim, _) =
            self.entries.iter().enumerate().min_by_key(|(_, e)| e.last_used).expect("a full memory has entries");
        let generation = self.entries[victim].generation + 1;
        self.entries[victim] = Entry { generation, ..entry };
        Slot { index: victim as u32, generation }
    }

    /// Updates an entry's statistics; false if it was evicted.
    pub fn update(&mut self, slot: Slot, value: f64, visits: u32) -> bool {
        self.clock += 1;
        match self.entries.get_mut(slot.index as usize) {
            Some(e) if e.generation == slot.generation => {
                e.value = value;
                e.visits = visits;
                e.last_used = self.clock;
                true
            }
            _ => false,
        }
    }

    /// V_M: the softmax-weighted value of the K entries most similar to `phi`.
    pub fn query(&self, phi: &[f32], k: usize, temperature: f64) -> Option<f64> {
        self.neighbours(phi, k, temperature, None).map(|(wv, w)| wv / w)
    }

    /// The K entries most similar to `phi` (leaving out `exclude`), as the weighted sum of
    /// their values and the sum of weights, each weight exp((similarity - 1) / temperature):
    /// an identical state weighs 1, so a caller can add its own live statistics.
    pub fn neighbours(&self, phi: &[f32], k: usize, temperature: f64, exclude: Option<Slot>) -> Option<(f64, f64)> {
        let n = norm(phi);
        if n == 0.0 || self.entries.is_empty() || k == 0 {
            return None;
        }
        let excluded = exclude.map(|s| s.index as usize);
        let mut nearest: Vec<(f32, f64)> = Vec::with_capacity(k + 1);
        for (i, e) in self.entries.iter().enumerate() {
            if e.norm == 0.0 || e.visits == 0 || Some(i) == excluded {
                continue;
            }
            let dot: f32 = e.phi.iter().zip(phi).map(|(a, b)| a * b).sum();
            let sim = dot / (e.norm * n);
            if nearest.len() < k || sim > nearest[nearest.len() - 1].0 {
                let at = nearest.partition_point(|x| x.0 >= sim);
                nearest.insert(at, (sim, e.value));
                nearest.truncate(k);
            }
        }
        if nearest.is_empty() {
            return None;
        }
        let (mut wv, mut w) = (0.0, 0.0);
        for (sim, value) in nearest {
            let weight = ((f64::from(sim) - 1.0) / temperature).exp();
            wv += weight * value;
            w += weight;
        }
        Some((wv, w))
    }
}

#[derive(Debug, Clone)]
struct Node<M> {
    mv: Option<M>,
    mover: Player,
    /// Whether the side to move after this node's move is the mover (turn kept).
    mover_moves_next: bool,
    first_child: u32,
    child_count: u32,
    expanded: bool,
    visits: u32,
    /// Value for the mover (EMA or mean).
    value: f64,
    slot: Option<Slot>,
    phi: Vec<f32>,
    /// The K - 1 nearest other states, refreshed now and then: (sum of weight * value for
    /// the mover, sum of weights). V_M adds the node's own live value with weight 1.
    neighbours: Option<(f64, f64)>,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Player, mover_moves_next: bool, phi: Vec<f32>) -> Self {
        Node {
            mv,
            mover,
            mover_moves_next,
            first_child: 0,
            child_count: 0,
            expanded: false,
            visits: 0,
            value: 0.5,
            slot: None,
            phi,
            neighbours: None,
        }
    }
}

/// phi(s) of a board game: +1 for each cell of the side to move, -1 for the opponent's,
/// 0 for an empty one, over cells `0..cells`.
pub fn signed_cells(cells: u8, own: impl Fn(u8) -> bool, enemy: impl Fn(u8) -> bool) -> Vec<f32> {
    (0..cells)
        .map(|c| {
            if own(c) {
                1.0
            } else if enemy(c) {
                -1.0
            } else {
                0.0
            }
        })
        .collect()
}

pub struct MemoryMcts<G: Features> {
    config: MemoryConfig,
    rng: fastrand::Rng,
    _game: std::marker::PhantomData<G>,
}

impl<G: Features> MemoryMcts<G> {
    pub fn new(config: MemoryConfig, seed: u64) -> Self {
        MemoryMcts { config, rng: fastrand::Rng::with_seed(seed), _game: std::marker::PhantomData }
    }
}

/// The mover's value from a value for the side to move in the node's state.
fn for_mover(stm_value: f64, mover_moves_next: bool) -> f64 {
    if mover_moves_next {
        stm_value
    } else {
        1.0 - stm_value
    }
}

impl<G: Features> Engine<G> for MemoryMcts<G> {
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        let cfg = self.config;
        let mut memory = Memory::new(cfg.capacity);
        let mut nodes = vec![Node::new(None, game.to_move().other(), false, Vec::new())];
        let expand =
            |nodes: &mut Vec<Node<G::Move>>, node: usize, state: &G, moves: &[G::Move], rng: &mut fastrand::Rng| {
                let first = nodes.len();
                for &mv in moves {
                    let mut child = state.clone();
                    child.play(mv);
                    let turn_kept = child.to_move() == state.to_move();
                    nodes.push(Node::new(Some(mv), state.to_move(), turn_kept, child.features()));
                }
                let new = &mut nodes[first..];
                for i in (1..new.len()).rev() {
                    new.swap(i, rng.usize(..=i));
                }
                nodes[node].first_child = first as u32;
                nodes[node].child_count = moves.len() as u32;
                nodes[node].expanded = true;
            };
        expand(&mut nodes, 0, game, root_moves, &mut self.rng);
        let mut moves = Vec::with_capacity(128);
        let mut path = Vec::with_capacity(64);
        let mut played = Vec::with_capacity(256);
        let mut iterations = 0u64;
        while !budget.exhausted(iterations) {
            iterations += 1;
            let mut state = game.clone();
            let mut node = 0usize;
            path.clear();
            path.push(0);
            loop {
                if !nodes[node].expanded {
                    if node != 0 && nodes[node].visits == 0 || nodes.len() >= cfg.max_nodes {
                        break;
                    }
                    state.legal_moves(&mut moves);
                    if moves.is_empty() {
                        nodes[node].expanded = true;
                        break;
                    }
                    expand(&mut nodes, node, &state, &moves, &mut self.rng);
                }
                if nodes[node].child_count == 0 {
                    break;
                }
                let n = &nodes[node];
                let log_n = f64::from(n.visits.max(1)).ln();
                let mut best = usize::MAX;
                let mut best_score = f64::NEG_INFINITY;
                let first = n.first_child as usize;
                for (i, c) in nodes.iter().enumerate().skip(first).take(n.child_count as usize) {
                    if c.visits == 0 {
                        best = i;
                        break;
                    }
                    let value = match c.neighbours {
                        Some((wv, w)) => (1.0 - cfg.lambda) * c.value + cfg.lambda * (c.value + wv) / (1.0 + w),
                        None => c.value,
                    };
                    let score = value + cfg.exploration * (log_n / f64::from(c.visits)).sqrt();
                    if score > best_score {
                        best_score = score;
                        best = i;
                    }
                }
                node = best;
                state.play(nodes[node].mv.expect("children have moves"));
                path.push(node);
            }
            played.clear();
            let first_reward = super::mcts::random_playout(&mut state, &mut self.rng, &mut played);
            for &i in &path {
                let n = &mut nodes[i];
                let r = if n.mover == Player::First { first_reward } else { 1.0 - first_reward };
                n.visits += 1;
                let step = if cfg.sigma > 0.0 && n.visits > 1 { cfg.sigma } else { 1.0 / f64::from(n.visits) };
                n.value += step * (r - n.value);
                // K = 1: V_M is the node's own value (seed 000 as its authors ran it), so
                // the memory would cost without changing anything.
                if i == 0 || cfg.k <= 1 {
                    continue;
                }
                // Memory: add on the first visit, update after; refresh the neighbours on
                // each of the first 16 visits, then at powers of two.
                let stm_value = for_mover(n.value, n.mover_moves_next);
                match n.slot {
                    Some(slot) if memory.update(slot, stm_value, n.visits) => {}
                    _ => n.slot = Some(memory.add(n.phi.clone(), stm_value, n.visits)),
                }
                if n.visits <= 16 || n.visits.is_power_of_two() {
                    let stm = n.mover_moves_next;
                    n.neighbours = memory
                        .neighbours(&n.phi, cfg.k.saturating_sub(1), cfg.temperature, n.slot)
                        .map(|(wv, w)| (if stm { wv } else { w - wv }, w));
                }
            }
        }
        let root = &nodes[0];
        let children = &nodes[root.first_child as usize..(root.first_child + root.child_count) as usize];
        let best = children.iter().max_by_key(|c| (c.visits, (c.value * 1e9) as i64)).expect("root moves");
        let summary = format!(
            "{} iters={iterations} nodes={} memory={} visits={} value={:.3} ms={}",
            cfg.name,
            nodes.len(),
            memory.len(),
            best.visits,
            best.value,
            budget.deadline.elapsed().as_millis()
        );
        let root_stats = children.iter().map(|c| (c.mv.expect("moves"), u64::from(c.visits), c.value)).collect();
        SearchResult {
            score: Some(Score::WinRate(best.value)),
            depth: 0,
            best: best.mv.expect("moves"),
            summary,
            nodes: nodes.len() as u64,
            root_stats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_run_is_the_same_search_as_a_memory_left_unused() {
        // K = 1 skips the memory; lambda = 0 keeps it but never reads it: with the same
        // seed both searches visit the same moves the same number of times.
        use crate::nogo::Position;
        let game = Position::start();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let unused = MemoryConfig { lambda: 0.0, ..MemoryConfig::PAPER };
        let run = |config| MemoryMcts::<Position>::new(config, 5).search(&game, &moves, &Budget::iterations(400));
        let (a, b) = (run(MemoryConfig::AS_RUN), run(unused));
        assert_eq!(a.root_stats, b.root_stats);
        // And the K nearest states do change the search.
        assert_ne!(run(MemoryConfig::PAPER).root_stats, a.root_stats);
    }

    #[test]
    fn full_memory_evicts_the_least_recently_used_entry() {
        let mut m = Memory::new(2);
        let a = m.add(vec![1.0, 0.0], 0.9, 1);
        let b = m.add(vec![0.0, 1.0], 0.1, 1);
        assert!(m.update(a, 0.8, 2)); // a is now more recent than b
        let c = m.add(vec![1.0, 1.0], 0.5, 1);
        assert_eq!(m.len(), 2);
        assert!(!m.update(b, 0.2, 2), "b was evicted");
        assert!(m.update(a, 0.7, 3));
        assert!(m.update(c, 0.6, 2));
    }

    #[test]
    fn query_weights_the_nearest_entries_by_similarity() {
        let mut m = Memory::new(10);
        m.add(vec![1.0, 0.0, 0.0], 1.0, 5);
        m.add(vec![0.0, 1.0, 0.0], 0.0, 5);
        m.add(vec![0.0, 0.0, 1.0], 0.0, 5);
        // Close to the first entry: the value leans to 1.
        let v = m.query(&[0.9, 0.1, 0.0], 2, 0.1).unwrap();
        assert!(v > 0.99, "{v}");
        // Equidistant from two entries with values 1 and 0.
        let v = m.query(&[1.0, 1.0, 0.0], 2, 0.1).unwrap();
        assert!((v - 0.5).abs() < 1e-9, "{v}");
        // K = 1 takes the nearest only.
        assert_eq!(m.query(&[0.0, 0.2, 1.0], 1, 0.1), Some(0.0));
        assert_eq!(Memory::new(3).query(&[1.0], 1, 0.1), None);
    }
}
