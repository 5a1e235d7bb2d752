//! Reproducible experiments for the seeds' claims (results in shared/docs/experiments.md).
//!
//! `experiments mmcts [--games N] [--ms 10,50,200]`: seed 000 on Connect 4: M-MCTS (the
//! paper's variant and a blend) against plain UCT at several times per move, in-process,
//! colours alternating, starting positions varied by two random plies per pair.
//!
//! `experiments parallel [--iterations N]`: seed 001: wall time of a fixed total number of
//! UCT iterations with one thread and with two root-parallel threads, for each game.

use botzone_games::botzone::BotzoneGame;
use botzone_games::game::{Game, Player};
use botzone_games::search::connect4::Connect4;
use botzone_games::search::mcts;
use botzone_games::search::memory::{MemoryConfig, MemoryMcts};
use botzone_games::search::parallel::search_parallel;
use botzone_games::search::{Budget, Deadline, Engine};
use botzone_games::{ataxx, dots, nogo};
use clap::{Parser, Subcommand};
use std::time::{Duration, Instant};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Mmcts {
        #[arg(long, default_value_t = 40)]
        games: usize,
        #[arg(long, default_value = "10,50,200", value_delimiter = ',')]
        ms: Vec<u64>,
        /// Fixed iterations per move instead of time (isolates the method from its cost).
        #[arg(long, value_delimiter = ',')]
        iterations: Vec<u64>,
    },
    Parallel {
        #[arg(long, default_value_t = 40_000)]
        iterations: u64,
    },
}

/// Plays one game; returns the first player's reward.
/// A move's budget: milliseconds, or iterations when `per_move` is `Iterations`.
#[derive(Clone, Copy)]
enum PerMove {
    Ms(u64),
    Iterations(u64),
}

fn play<G: Game>(start: &G, players: &mut [Box<dyn Engine<G>>; 2], per_move: PerMove) -> f64 {
    let mut g = start.clone();
    let mut moves = Vec::new();
    loop {
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            return g.outcome().expect("over").reward(Player::First);
        }
        let budget = match per_move {
            PerMove::Ms(ms) => {
                Budget { deadline: Deadline::new(Instant::now(), Duration::from_millis(ms)), max_iterations: None }
            }
            PerMove::Iterations(n) => Budget::iterations(n),
        };
        let mv = players[g.to_move().index()].search(&g, &moves, &budget).best;
        g.play(mv);
    }
}

fn mmcts_experiment(games: usize, budgets: &[PerMove]) {
    let variants = [
        (
            "control: memory kept but unused (lambda=0, mean back-up)",
            MemoryConfig { name: "control", lambda: 0.0, sigma: 0.0, ..MemoryConfig::PAPER },
        ),
        ("M-MCTS (lambda=1, sigma=0.5: the paper)", MemoryConfig::PAPER),
        (
            "M-MCTS blend (lambda=0.5, mean back-up)",
            MemoryConfig { name: "mmcts-blend", lambda: 0.5, sigma: 0.0, ..MemoryConfig::PAPER },
        ),
    ];
    println!("| variant | per move | games | W-D-L vs UCT | score |");
    println!("|---|---|---|---|---|");
    for (label, config) in variants {
        for &per_move in budgets {
            let (mut w, mut d, mut l) = (0, 0, 0);
            let mut rng = fastrand::Rng::with_seed(0);
            for game in 0..games {
                if game % 2 == 0 {
                    rng = fastrand::Rng::with_seed(1000 + game as u64);
                }
                let mut start = Connect4::default();
                let mut opening_rng = rng.clone();
                for _ in 0..2 {
                    start.play(opening_rng.u8(..7));
                }
                let memory: Box<dyn Engine<Connect4>> = Box::new(MemoryMcts::new(config, game as u64));
                let uct: Box<dyn Engine<Connect4>> = Box::new(mcts::uct::<Connect4>(game as u64 + 7));
                let memory_first = game % 2 == 0;
                let mut players = if memory_first { [memory, uct] } else { [uct, memory] };
                let first = play(&start, &mut players, per_move);
                let score = if memory_first { first } else { 1.0 - first };
                match score {
                    s if s > 0.75 => w += 1,
                    s if s < 0.25 => l += 1,
                    _ => d += 1,
                }
            }
            let score = (f64::from(w) + 0.5 * f64::from(d)) / games as f64;
            let budget = match per_move {
                PerMove::Ms(ms) => format!("{ms} ms"),
                PerMove::Iterations(n) => format!("{n} iterations"),
            };
            println!("| {label} | {budget} | {games} | {w}-{d}-{l} | {:.1}% |", 100.0 * score);
        }
    }
}

fn time_parallel<G: BotzoneGame>(iterations: u64) -> (f64, f64) {
    let game = G::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let time = |threads: u64| {
        let mut engines: Vec<Box<dyn Engine<G>>> =
            (0..threads).map(|i| Box::new(mcts::uct::<G>(i)) as Box<dyn Engine<G>>).collect();
        let start = Instant::now();
        search_parallel(&mut engines, &game, &moves, &Budget::iterations(iterations / threads));
        start.elapsed().as_secs_f64()
    };
    (time(1), time(2))
}

fn parallel_experiment(iterations: u64) {
    println!("| game | {iterations} iterations, 1 thread | 2 threads x {} | ratio |", iterations / 2);
    println!("|---|---|---|---|");
    for (name, (one, two)) in [
        ("ataxx", time_parallel::<ataxx::Position>(iterations)),
        ("nogo", time_parallel::<nogo::Position>(iterations)),
        ("dots", time_parallel::<dots::Position>(iterations)),
    ] {
        println!("| {name} | {one:.3} s | {two:.3} s | {:.0}% |", 100.0 * two / one);
    }
}

fn main() {
    match Cli::parse().command {
        Command::Mmcts { games, ms, iterations } => {
            let budgets: Vec<PerMove> = if iterations.is_empty() {
                ms.into_iter().map(PerMove::Ms).collect()
            } else {
                iterations.into_iter().map(PerMove::Iterations).collect()
            };
            mmcts_experiment(games, &budgets)
        }
        Command::Parallel { iterations } => parallel_experiment(iterations),
    }
}
