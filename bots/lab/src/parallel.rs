//! Seed 001 (root parallelism): what two workers buy. `experiments parallel` times a fixed
//! number of UCT iterations split over N threads ([`wall_time`]); `experiments
//! parallel-match` measures the strength claim at equal iterations ([`strength`]): two root-parallel workers of `n`
//! iterations each against one search of `r * n` (the paper: 2 x 100 about even with 150).
//! Both sides plain UCT, in-process, paired openings (two random plies, colours swapped),
//! so the result does not depend on the machine's load. At r = 2 the work is equal (one
//! core, as on Botzone); at r = 1 the time is equal on two cores.

use crate::in_process::play_out;
use arena::games::GameName;
use arena::stats::Tally;
use arena::with_game;
use botzone_games::game::{Player, Rules};
use botzone_games::search::mcts;
use botzone_games::search::parallel::{search_parallel, RootParallel};
use botzone_games::search::{Budget, Engine};
use botzone_games::{ataxx, dots, nogo};
use std::time::Instant;

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

/// Wall time of `iterations` plain-UCT iterations from the start, split over `workers`
/// root-parallel threads.
fn time_parallel<G: Rules>(iterations: u64, workers: u64) -> f64 {
    let game = G::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut engines: Vec<Box<dyn Engine<G>>> =
        (0..workers).map(|i| Box::new(mcts::uct::<G>(i)) as Box<dyn Engine<G>>).collect();
    let start = Instant::now();
    search_parallel(&mut engines, &game, &moves, &Budget::iterations(iterations / workers));
    start.elapsed().as_secs_f64()
}

/// `experiments parallel`: the wall time of `iterations` from the start of each game, for
/// each worker count; a table, and the CSV the figure is drawn from when asked.
pub fn wall_time(iterations: u64, workers: &[u64], csv: Option<&std::path::Path>) -> Result<(), String> {
    let mut lines = vec![crate::figures::PARALLEL_CSV_HEADER.to_string()];
    println!("| game | workers | iterations each | wall time | against 1 worker |");
    println!("|---|---|---|---|---|");
    for name in ["ataxx", "nogo", "dots"] {
        let mut one = None;
        for &n in workers {
            let n = n.max(1);
            let seconds = match name {
                "ataxx" => time_parallel::<ataxx::Position>(iterations, n),
                "nogo" => time_parallel::<nogo::Position>(iterations, n),
                _ => time_parallel::<dots::Position>(iterations, n),
            };
            let base = *one.get_or_insert(seconds);
            println!("| {name} | {n} | {} | {seconds:.3} s | {:.0}% |", iterations / n, 100.0 * seconds / base);
            lines.push(format!("{name},{n},{iterations},{seconds:.4}"));
        }
    }
    match csv {
        Some(path) => std::fs::write(path, lines.join("\n") + "\n").map_err(|e| format!("{}: {e}", path.display())),
        None => Ok(()),
    }
}

/// `experiments parallel-match`: [`run`] for each game, workers' iterations and ratio; a
/// table, and each cell's line appended to `csv`.
pub fn strength(
    games: &[GameName],
    per_worker: &[u64],
    ratios: &[f64],
    per_cell: usize,
    seed: u64,
    csv: &std::path::Path,
) -> Result<(), String> {
    use std::io::Write;
    let fresh = !csv.exists();
    let file = std::fs::OpenOptions::new().create(true).append(true).open(csv);
    let mut file = file.map_err(|e| format!("{}: {e}", csv.display()))?;
    if fresh {
        writeln!(file, "{CSV_HEADER}").map_err(|e| e.to_string())?;
    }
    let cells = games.len() * per_worker.len() * ratios.len();
    let bar = indicatif::ProgressBar::new((cells * per_cell) as u64);
    println!("| game | per worker | serial | W-D-L (2 workers) | score | Elo [95%] |");
    println!("|---|---|---|---|---|---|");
    for &game in games {
        for &n in per_worker {
            for &r in ratios {
                let serial = (n as f64 * r).round() as u64;
                let before = bar.position();
                let done = |g: usize| bar.set_position(before + g as u64);
                let (name, tally) = with_game!(game, G => (G::NAME, run::<G>(n, serial, per_cell, seed, &done)));
                let line = csv_line(name, n, serial, &tally);
                writeln!(file, "{line}").and_then(|()| file.flush()).map_err(|e| format!("{}: {e}", csv.display()))?;
                let (low, high) = tally.elo_interval();
                bar.suspend(|| {
                    println!(
                        "| {} | {n} | {serial} | {}-{}-{} | {:.1}% | {:+.0} [{low:+.0}, {high:+.0}] |",
                        name,
                        tally.wins,
                        tally.draws,
                        tally.losses,
                        100.0 * tally.score(),
                        tally.elo()
                    )
                });
            }
        }
    }
    bar.finish_and_clear();
    Ok(())
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
