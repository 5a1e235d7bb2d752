//! Root parallelism (seed 001): N independent searches of the same root, each with its own
//! random stream; their root win-rate vectors are merged as X = sum_i w_i x_i, w_i = 1/N,
//! and the move with the best merged win rate is played.

use super::{Budget, Engine, Score, SearchResult};
use crate::game::Game;

/// Merges root statistics `(move, visits, mean)` of several searches with equal weights.
/// Returns `(move, total visits, merged win rate)` in the first-seen move order.
pub fn merge_root_stats<M: Copy + Eq>(searches: &[Vec<(M, u64, f64)>]) -> Vec<(M, u64, f64)> {
    let w = 1.0 / searches.len() as f64;
    let mut merged: Vec<(M, u64, f64)> = Vec::new();
    for stats in searches {
        for &(mv, visits, mean) in stats {
            match merged.iter_mut().find(|(m, _, _)| *m == mv) {
                Some(entry) => {
                    entry.1 += visits;
                    entry.2 += w * mean;
                }
                None => merged.push((mv, visits, w * mean)),
            }
        }
    }
    merged
}

/// The move with the best merged win rate among those searched at least a quarter as much
/// as the most searched one. The guard is ours, not the paper's: a move tried once and won
/// has a win rate of 1 and would otherwise be played on that one sample.
pub fn best_merged_move<M: Copy>(merged: &[(M, u64, f64)]) -> Option<M> {
    let most = merged.iter().map(|m| m.1).max()?;
    merged
        .iter()
        .filter(|m| 4 * m.1 >= most)
        .max_by(|a, b| (a.2, a.1).partial_cmp(&(b.2, b.1)).expect("win rates are finite"))
        .map(|&(mv, _, _)| mv)
}

/// Runs `engines` on the same root in parallel threads and merges their answers.
pub fn search_parallel<G: Game>(
    engines: &mut [Box<dyn Engine<G>>],
    game: &G,
    root_moves: &[G::Move],
    budget: &Budget,
) -> SearchResult<G::Move> {
    if engines.len() == 1 {
        return engines[0].search(game, root_moves, budget);
    }
    let results: Vec<SearchResult<G::Move>> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            engines.iter_mut().map(|engine| scope.spawn(move || engine.search(game, root_moves, budget))).collect();
        handles.into_iter().map(|h| h.join().expect("search thread panicked")).collect()
    });
    let stats: Vec<_> = results.iter().map(|r| r.root_stats.clone()).collect();
    let merged = merge_root_stats(&stats);
    let best = best_merged_move(&merged).unwrap_or(results[0].best);
    let summary = format!("{} threads merged; {}", engines.len(), results[0].summary);
    let nodes = results.iter().map(|r| r.nodes).sum();
    let score = merged.iter().find(|m| m.0 == best).map(|m| Score::WinRate(m.2));
    SearchResult { score, depth: 0, best, summary, nodes, root_stats: merged }
}

/// N root-parallel searches as one engine (each gets the whole budget: with an iteration
/// budget, N times the iterations of one).
pub struct RootParallel<G: Game> {
    pub engines: Vec<Box<dyn Engine<G>>>,
}

impl<G: Game> Engine<G> for RootParallel<G> {
    fn search(&mut self, game: &G, root_moves: &[G::Move], budget: &Budget) -> SearchResult<G::Move> {
        search_parallel(&mut self.engines, game, root_moves, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_averages_win_rates_with_equal_weights() {
        let a = vec![(1, 10, 0.8), (2, 30, 0.4)];
        let b = vec![(2, 20, 0.6), (1, 20, 0.2)];
        let merged = merge_root_stats(&[a, b]);
        assert_eq!(merged.len(), 2);
        let one = merged.iter().find(|m| m.0 == 1).unwrap();
        let two = merged.iter().find(|m| m.0 == 2).unwrap();
        assert_eq!(one.1, 30);
        assert!((one.2 - 0.5).abs() < 1e-12);
        assert!((two.2 - 0.5).abs() < 1e-12);
    }

    #[test]
    fn rarely_searched_moves_cannot_win_the_merge_on_luck() {
        // Move 3 was tried once and won; move 1 is well searched and good.
        let merged = vec![(1, 400, 0.62), (2, 380, 0.55), (3, 1, 1.0)];
        assert_eq!(best_merged_move(&merged), Some(1));
        assert_eq!(best_merged_move::<u8>(&[]), None);
    }

    #[test]
    fn a_move_seen_by_one_search_only_gets_its_share() {
        let merged = merge_root_stats(&[vec![(7, 5, 1.0)], vec![(8, 5, 0.6)]]);
        assert!((merged[0].2 - 0.5).abs() < 1e-12);
        assert!((merged[1].2 - 0.3).abs() < 1e-12);
    }
}
