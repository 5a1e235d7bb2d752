//! Flat Monte Carlo: seed 000's baseline, the GGP platform's plain Monte Carlo player. No
//! tree: uniformly random playouts from each root move in turn, and the move with the best
//! mean result is played.

use super::mcts::random_playout;
use super::{Budget, Engine, Score, SearchResult};
use crate::game::Game;

pub struct FlatMc {
    rng: fastrand::Rng,
}

impl FlatMc {
    pub fn new(seed: u64) -> FlatMc {
        FlatMc { rng: fastrand::Rng::with_seed(seed) }
    }
}

impl<G: Game> Engine<G> for FlatMc {
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        let me = game.to_move();
        // Per root move: playouts and the sum of `me`'s rewards.
        let mut stats = vec![(0u64, 0.0f64); root_moves.len()];
        let mut played = Vec::new();
        let mut iterations = 0u64;
        // Round robin, so that every move has its share whenever the budget ends; at
        // least one playout each.
        while iterations < root_moves.len() as u64 || !budget.exhausted(iterations) {
            let i = (iterations % root_moves.len() as u64) as usize;
            let mut state = game.clone();
            state.play(root_moves[i]);
            played.clear();
            let first = random_playout(&mut state, &mut self.rng, &mut played);
            let reward = if me == crate::game::Player::First { first } else { 1.0 - first };
            stats[i].0 += 1;
            stats[i].1 += reward;
            iterations += 1;
        }
        let mean = |&(n, sum): &(u64, f64)| sum / n as f64;
        // The first of the best means (a strict comparison keeps the earliest).
        let best = (1..stats.len()).fold(0, |b, i| if mean(&stats[i]) > mean(&stats[b]) { i } else { b });
        SearchResult {
            best: root_moves[best],
            summary: format!(
                "flat-mc playouts={iterations} best={:?} mean={:.3} ms={}",
                root_moves[best],
                mean(&stats[best]),
                budget.deadline.elapsed().as_millis()
            ),
            score: Some(Score::WinRate(mean(&stats[best]))),
            depth: 0,
            nodes: iterations,
            root_stats: root_moves.iter().zip(&stats).map(|(&m, s)| (m, s.0, mean(s))).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nogo::Position;

    #[test]
    fn shares_playouts_evenly_and_the_same_seed_gives_the_same_answer() {
        // (That it takes an immediate win is tested on Connect 4, in the arena's paper games.)
        let g = Position::start();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let run = |seed| FlatMc::new(seed).search(&g, &moves, &Budget::iterations(81 * 7));
        let result = run(9);
        assert_eq!(result.nodes, 81 * 7);
        assert!(result.root_stats.iter().all(|s| s.1 == 7), "{:?}", result.root_stats);
        assert_eq!(result.root_stats, run(9).root_stats);
        assert_ne!(result.root_stats, run(10).root_stats);
    }
}
