//! Seed 000 (memory-augmented MCTS): does the memory's value estimate beat plain UCT and
//! flat Monte Carlo, as the paper's Section 4 claims? `experiments mmcts` plays M-MCTS
//! variants against UCT on Connect 4; `experiments mmcts-paper` runs the paper's own grid
//! (its four games, sigmas, opponents and budgets), one CSV line per cell.

use crate::in_process::play_out;
use crate::paper_games::connect4::Connect4;
use crate::paper_games::mmcts_grid::{self, Cell};
use botzone_games::game::Game;
use botzone_games::search::mcts;
use botzone_games::search::memory::{MemoryConfig, MemoryMcts};
use botzone_games::search::{Budget, Deadline, Engine};
use std::time::{Duration, Instant};

/// A move's budget: milliseconds, or iterations when `per_move` is `Iterations`.
#[derive(Clone, Copy)]
pub enum PerMove {
    Ms(u64),
    Iterations(u64),
}

/// `per_move` as a budget, a time budget starting now.
fn budget(per_move: PerMove) -> Budget {
    match per_move {
        PerMove::Ms(ms) => Budget::until(Deadline::new(Instant::now(), Duration::from_millis(ms))),
        PerMove::Iterations(n) => Budget::iterations(n),
    }
}

/// `experiments mmcts`: M-MCTS variants (a control with the memory unused, the paper's
/// settings, a blend) against plain UCT on Connect 4, at each budget; prints a table.
pub fn connect4_against_uct(games: usize, budgets: &[PerMove]) {
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
                let first = play_out(&start, &mut players, |_| budget(per_move));
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

/// `experiments mmcts-paper`: the cells of seed 000's grid, `per_cell` games each on
/// `jobs` threads; each finished cell's line is appended to `csv` at once.
pub fn paper_grid(cells: &[Cell], per_cell: usize, jobs: usize, csv: &std::path::Path) -> Result<(), String> {
    use std::io::Write;
    // Lines are appended as cells finish (a new file gets the header), so that a grid cut
    // short keeps what it finished; a finished line is flushed at once.
    let fresh = !csv.exists();
    let file = std::fs::OpenOptions::new().create(true).append(true).open(csv);
    let file = std::sync::Mutex::new(file.map_err(|e| format!("{}: {e}", csv.display()))?);
    if fresh {
        writeln!(file.lock().expect("unpoisoned"), "{}", mmcts_grid::CSV_HEADER).map_err(|e| e.to_string())?;
    }
    let done = |cell: &Cell, t: &mmcts_grid::Tally| {
        let mut f = file.lock().expect("unpoisoned");
        if let Err(e) = writeln!(f, "{}", mmcts_grid::csv_line(cell, t)).and_then(|()| f.flush()) {
            eprintln!("experiments: {}: {e}", csv.display());
        }
    };
    let tallies = mmcts_grid::run(cells, per_cell, jobs, &done);
    println!("| game | variant | sigma | opponent | playouts per move | W-D-L | score | paper (vs flat MC) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (cell, t) in cells.iter().zip(&tallies) {
        println!(
            "| {} | {:?} | {} | {:?} | {} | {}-{}-{} | {:.1}% | {} |",
            cell.game,
            cell.variant,
            cell.sigma,
            cell.opponent,
            cell.iterations,
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score(),
            cell.game.claim()
        );
    }
    Ok(())
}
