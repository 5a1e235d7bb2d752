//! Monte Carlo tree search with UCT selection and uniformly random playouts: the seeds'
//! baseline (`--engine uct`).
//!
//! Nodes live in one `Vec`, indexed by `u32`; a node's children are contiguous. Each node
//! stores the side that made the move leading to it, and rewards are counted for that side,
//! so games where a move can keep the turn (Dots-and-Boxes) need no special case.

use super::{Budget, Engine, SearchResult};
use crate::game::{Game, Player};

#[derive(Debug, Clone, Copy)]
pub struct UctConfig {
    /// The exploration constant C in `mean + C * sqrt(ln N / n)`.
    pub exploration: f64,
    /// The tree stops growing at this many nodes (playouts go on from its leaves).
    pub max_nodes: usize,
}

impl Default for UctConfig {
    fn default() -> Self {
        UctConfig { exploration: std::f64::consts::SQRT_2, max_nodes: 2_000_000 }
    }
}

#[derive(Debug, Clone)]
struct Node<M> {
    mv: Option<M>,
    /// Who played `mv`; rewards below are this side's.
    mover: Player,
    first_child: u32,
    child_count: u32,
    expanded: bool,
    visits: u32,
    reward: f64,
}

pub struct Uct {
    config: UctConfig,
    rng: fastrand::Rng,
}

impl Uct {
    pub fn new(config: UctConfig, seed: u64) -> Uct {
        Uct { config, rng: fastrand::Rng::with_seed(seed) }
    }
}

/// One search's tree.
struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
}

impl<G: Game> Tree<G> {
    fn new(root: &G) -> Tree<G> {
        let root_node = Node {
            mv: None,
            mover: root.to_move().other(),
            first_child: 0,
            child_count: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        };
        Tree { nodes: vec![root_node] }
    }

    fn expand(&mut self, node: usize, state: &G, moves: &[G::Move], rng: &mut fastrand::Rng) {
        let first = self.nodes.len();
        let mover = state.to_move();
        let start = first;
        self.nodes.extend(moves.iter().map(|&mv| Node {
            mv: Some(mv),
            mover,
            first_child: 0,
            child_count: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        }));
        // Unvisited children are tried in this order: shuffle so that no move generator
        // order biases the search.
        let new = &mut self.nodes[start..];
        for i in (1..new.len()).rev() {
            new.swap(i, rng.usize(..=i));
        }
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.child_count = moves.len() as u32;
        n.expanded = true;
    }

    fn select(&self, node: usize, c: f64) -> usize {
        let n = &self.nodes[node];
        let children = n.first_child as usize..(n.first_child + n.child_count) as usize;
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut best = children.start;
        let mut best_score = f64::NEG_INFINITY;
        for i in children {
            let child = &self.nodes[i];
            if child.visits == 0 {
                return i;
            }
            let v = f64::from(child.visits);
            let score = child.reward / v + c * (log_n / v).sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    fn root_children(&self) -> &[Node<G::Move>] {
        let root = &self.nodes[0];
        &self.nodes[root.first_child as usize..(root.first_child + root.child_count) as usize]
    }
}

impl<G: Game> Engine<G> for Uct {
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        let mut tree = Tree::<G>::new(game);
        tree.expand(0, game, root_moves, &mut self.rng);
        let mut moves = Vec::with_capacity(128);
        let mut path = Vec::with_capacity(64);
        let mut iterations = 0u64;
        while !budget.exhausted(iterations) {
            iterations += 1;
            let mut state = game.clone();
            let mut node = 0usize;
            path.clear();
            path.push(0usize);
            // Selection and expansion: descend until a node never visited before.
            loop {
                let n = &tree.nodes[node];
                if !n.expanded {
                    if n.visits == 0 || tree.nodes.len() >= self.config.max_nodes {
                        break;
                    }
                    state.legal_moves(&mut moves);
                    tree.expand(node, &state, &moves, &mut self.rng);
                }
                if tree.nodes[node].child_count == 0 {
                    break; // the game is over here
                }
                node = tree.select(node, self.config.exploration);
                state.play(tree.nodes[node].mv.expect("only the root has no move"));
                path.push(node);
            }
            // Playout: uniformly random legal moves to the end.
            let outcome = loop {
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    break state.outcome().expect("no legal move means the game is over");
                }
                state.play(moves[self.rng.usize(..moves.len())]);
            };
            for &i in &path {
                let n = &mut tree.nodes[i];
                n.visits += 1;
                n.reward += outcome.reward(n.mover);
            }
        }
        let children = tree.root_children();
        let best = children
            .iter()
            .max_by(|a, b| (a.visits, a.reward).partial_cmp(&(b.visits, b.reward)).expect("rewards are finite"))
            .expect("at least one root move");
        let value = if best.visits > 0 { best.reward / f64::from(best.visits) } else { 0.5 };
        let summary = format!(
            "uct iters={iterations} nodes={} visits={} value={value:.3} ms={}",
            tree.nodes.len(),
            best.visits,
            budget.deadline.elapsed().as_millis()
        );
        let root_stats = children
            .iter()
            .map(|c| {
                let mean = if c.visits > 0 { c.reward / f64::from(c.visits) } else { 0.0 };
                (c.mv.expect("children have moves"), u64::from(c.visits), mean)
            })
            .collect();
        SearchResult { best: best.mv.expect("children have moves"), summary, root_stats }
    }
}
