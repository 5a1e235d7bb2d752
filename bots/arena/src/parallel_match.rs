//! Seed 001's strength claim, at equal iterations: two root-parallel workers of `n`
//! iterations each against one search of `r * n` (the paper: 2 x 100 about even with 150).
//! Both sides plain UCT, in-process, paired openings (two random plies, colours swapped),
//! so the result does not depend on the machine's load. At r = 2 the work is equal (one
//! core, as on Botzone); at r = 1 the time is equal on two cores.

use crate::in_process::play_out;
use crate::stats::Tally;
use botzone_games::game::{Player, Rules};
use botzone_games::search::mcts;
use botzone_games::search::parallel::RootParallel;
use botzone_games::search::{Budget, Engine};

pub const CSV_HEADER: &str = "game,per_worker,serial,games,wins,draws,losses,score,elo,elo_low,elo_high";

/// `games` games (pairs share an opening) of two workers with `per_worker` iterations
/// each (A) against one search of `serial` iterations (B); A's tally.
pub fn run<G: Rules>(per_worker: u64, serial: u64, games: usize, seed: u64, done: &dyn Fn(usize)) -> Tally {
    let mut tally = Tally::default();
    let mut pair = 0.0;
    let mut moves = Vec::new();
    for game in 0..games {
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_add((game / 2) as u64));
        let mut start = G::start();
        for _ in 0..2 {
            start.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            start.play(moves[rng.usize(..moves.len())]);
        }
        let engine_seed = seed.wrapping_mul(1000).wrapping_add(game as u64 * 3);
        let workers: Vec<Box<dyn Engine<G>>> =
            (0..2).map(|i| Box::new(mcts::uct::<G>(engine_seed + i)) as Box<dyn Engine<G>>).collect();
        let a: Box<dyn Engine<G>> = Box::new(RootParallel { engines: workers });
        let b: Box<dyn Engine<G>> = Box::new(mcts::uct::<G>(engine_seed + 2));
        let a_first = game % 2 == 0;
        let mut players = if a_first { [a, b] } else { [b, a] };
        let a_side = if a_first { Player::First } else { Player::Second };
        let iterations = |side| Budget::iterations(if side == a_side { per_worker } else { serial });
        let first = play_out(&start, &mut players, iterations);
        let score = if a_first { first } else { 1.0 - first };
        match score {
            s if s > 0.75 => tally.wins += 1,
            s if s < 0.25 => tally.losses += 1,
            _ => tally.draws += 1,
        }
        pair += score;
        if game % 2 == 1 {
            tally.pair_scores.push(pair);
            pair = 0.0;
        }
        done(game + 1);
    }
    tally
}

pub fn csv_line(game: &str, per_worker: u64, serial: u64, tally: &Tally) -> String {
    let (low, high) = tally.elo_interval();
    format!(
        "{game},{per_worker},{serial},{},{},{},{},{:.4},{:.0},{:.0},{:.0}",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.score(),
        tally.elo(),
        low,
        high
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::dots;

    #[test]
    fn more_iterations_beat_fewer_and_the_tally_holds_every_pair() {
        // Two workers of 400 iterations against one search of 20: A should win clearly.
        let tally = run::<dots::Position>(400, 20, 8, 5, &|_| {});
        assert_eq!(tally.games(), 8);
        assert_eq!(tally.pair_scores.len(), 4);
        assert!(tally.score() > 0.6, "{tally:?}");
        let line = csv_line("dots", 400, 20, &tally);
        assert_eq!(line.split(',').count(), CSV_HEADER.split(',').count());
        assert!(line.starts_with("dots,400,20,8,"));
    }
}
