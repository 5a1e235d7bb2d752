//! Seed 000's Section 4 grid: M-MCTS against the GGP platform's plain Monte Carlo player
//! (`flat-mc`), and against plain UCT, on the paper's four games, for each back-up step
//! sigma and each budget; half the games of a cell with M-MCTS first, half second (the
//! paper's 50 games, then roles swapped).

use super::breakthrough::Breakthrough;
use super::connect4::Connect4;
use super::in_a_row::{Connect5, TicTacToe5};
use crate::in_process::play_out;
use botzone_games::search::flat_mc::FlatMc;
use botzone_games::search::mcts;
use botzone_games::search::memory::{Features, MemoryConfig, MemoryMcts};
use botzone_games::search::{Budget, Engine};
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PaperGame {
    /// Tic-Tac-Toe (Large): 5x5, five in a row.
    Ttt5,
    /// Connect 4 on 6x7.
    Connect4,
    /// Connect 5: 8x8, five in a row.
    Connect5,
    /// Breakthrough on 6x6.
    Breakthrough,
}

/// Which M-MCTS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Variant {
    /// As the paper ran it: the memory query returns the node's own value (K = 1).
    AsRun,
    /// The memory query over the K = 8 nearest states (Xiao, Mei and Mueller's M-MCTS).
    Knn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Opponent {
    /// The paper's baseline: flat Monte Carlo.
    FlatMc,
    /// Plain UCT, C = sqrt(2).
    Uct,
}

/// One cell of the grid.
#[derive(Debug, Clone, Copy)]
pub struct Cell {
    pub game: PaperGame,
    pub variant: Variant,
    pub sigma: f64,
    pub opponent: Opponent,
    /// Iterations (playouts) per move, for both sides.
    pub iterations: u64,
}

/// A cell's result, from M-MCTS's side.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }
}

impl fmt::Display for PaperGame {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            PaperGame::Ttt5 => "ttt5",
            PaperGame::Connect4 => "connect4",
            PaperGame::Connect5 => "connect5",
            PaperGame::Breakthrough => "breakthrough",
        })
    }
}

impl PaperGame {
    /// The paper's claim against flat Monte Carlo at 15-60 s per move.
    pub fn claim(self) -> &'static str {
        match self {
            PaperGame::Ttt5 => "> 55%",
            PaperGame::Connect4 => "88-99%",
            PaperGame::Connect5 | PaperGame::Breakthrough => "100%",
        }
    }
}

impl Cell {
    fn config(&self) -> MemoryConfig {
        let base = match self.variant {
            Variant::AsRun => MemoryConfig::AS_RUN,
            Variant::Knn => MemoryConfig::PAPER,
        };
        MemoryConfig { sigma: self.sigma, ..base }
    }

    /// Game `index` of the cell: M-MCTS's score (1, 0.5 or 0). The first half of a cell's
    /// games M-MCTS moves first.
    pub fn play(&self, index: usize, games: usize) -> f64 {
        match self.game {
            PaperGame::Ttt5 => self.play_game::<TicTacToe5>(index, games),
            PaperGame::Connect4 => self.play_game::<Connect4>(index, games),
            PaperGame::Connect5 => self.play_game::<Connect5>(index, games),
            PaperGame::Breakthrough => self.play_game::<Breakthrough>(index, games),
        }
    }

    fn play_game<G: Features + Default>(&self, index: usize, games: usize) -> f64 {
        let seed = 1 + index as u64;
        let memory: Box<dyn Engine<G>> = Box::new(MemoryMcts::<G>::new(self.config(), seed));
        let opponent: Box<dyn Engine<G>> = match self.opponent {
            Opponent::FlatMc => Box::new(FlatMc::new(seed + 1_000_000)),
            Opponent::Uct => Box::new(mcts::uct::<G>(seed + 1_000_000)),
        };
        let memory_first = index < games.div_ceil(2);
        let mut players = if memory_first { [memory, opponent] } else { [opponent, memory] };
        let first = play_out(&G::default(), &mut players, |_| Budget::iterations(self.iterations));
        if memory_first {
            first
        } else {
            1.0 - first
        }
    }
}

/// Plays every cell's `games` games on `jobs` threads (a progress bar over all games) and
/// returns each cell's tally, in the order given; `done` hears of each cell as soon as its
/// last game ends (so that a long grid's results are kept as they come).
pub fn run(cells: &[Cell], games: usize, jobs: usize, done: &(dyn Fn(&Cell, &Tally) + Sync)) -> Vec<Tally> {
    let tallies = Mutex::new(vec![Tally::default(); cells.len()]);
    let next = AtomicUsize::new(0);
    let total = cells.len() * games;
    let bar = indicatif::ProgressBar::new(total as u64);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let task = next.fetch_add(1, Ordering::Relaxed);
                if task >= total {
                    break;
                }
                let (cell, index) = (task / games, task % games);
                let score = cells[cell].play(index, games);
                let mut t = tallies.lock().expect("no thread panics holding the tally");
                match score {
                    s if s > 0.75 => t[cell].wins += 1,
                    s if s < 0.25 => t[cell].losses += 1,
                    _ => t[cell].draws += 1,
                }
                if t[cell].games() as usize == games {
                    done(&cells[cell], &t[cell]);
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    tallies.into_inner().expect("no thread panicked")
}

/// The CSV line of a cell (see [`CSV_HEADER`]).
pub fn csv_line(cell: &Cell, tally: &Tally) -> String {
    format!(
        "{},{:?},{},{:?},{},{},{},{},{},{:.4}",
        cell.game,
        cell.variant,
        cell.sigma,
        cell.opponent,
        cell.iterations,
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.score()
    )
}

pub const CSV_HEADER: &str = "game,variant,sigma,opponent,iterations,games,wins,draws,losses,score";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_plays_both_colours_and_counts_every_game() {
        let cell = Cell {
            game: PaperGame::Ttt5,
            variant: Variant::AsRun,
            sigma: 0.5,
            opponent: Opponent::FlatMc,
            iterations: 50,
        };
        let finished = Mutex::new(0);
        let tallies = run(&[cell], 4, 2, &|_, t| *finished.lock().unwrap() += t.games());
        assert_eq!(*finished.lock().unwrap(), 4, "the cell is reported once, when complete");
        assert_eq!(tallies[0].games(), 4);
        // The same game index gives the same game: the seeds come from it.
        assert_eq!(cell.play(1, 4), cell.play(1, 4));
    }
}
