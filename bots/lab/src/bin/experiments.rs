//! Reproducible experiments for the seeds' claims (results in docs/lab/; the
//! seeds are the papers listed in docs/papers.md).
//!
//! `experiments mmcts [--games N] [--ms 10,50,200]`: seed 000 on Connect 4: M-MCTS (the
//! paper's variant and a blend) against plain UCT at several times per move, in-process,
//! colours alternating, starting positions varied by two random plies per pair.
//!
//! `experiments mmcts-paper --csv OUT.csv [--games ttt5,connect4,connect5,breakthrough]
//! [--variants as-run,knn] [--sigmas 0.5,0.8] [--opponents flat-mc,uct]
//! [--iterations 1000,2000,3000,4000] [--per-cell 100] [--jobs 2]`: seed 000's Section 4
//! grid (`lab::paper_games::mmcts_grid`), one CSV line per cell.
//!
//! `experiments figures [--dir docs/figures]`: every figure (SVG) from the CSV files
//! there: the seed 000 grid's (score against playouts per move, one per game), seed 001's
//! (wall time against workers; two workers' score against one search's iterations) and
//! each bot's Elo log (`lab::figures`); then, from the Elo log, docs/strength.md and the
//! README's standings lines (`lab::standings`).
//!
//! `experiments parallel-match --csv OUT [--per-worker 100,1000] [--ratios 1,1.5,2]
//! [--games ataxx,nogo,dots] [--per-cell 100]`: seed 001's strength claim: two
//! root-parallel UCT workers of N iterations each against one UCT of r * N
//! (`lab::parallel`).
//!
//! `experiments parallel [--iterations N] [--workers 1,2] [--csv OUT]`: seed 001: wall
//! time of a fixed total number of UCT iterations split over N root-parallel threads (the
//! first count listed is the base), for each game.
//!
//! `experiments texel [--games N] [--nodes N]`: tunes the Ataxx evaluation's weights:
//! self-play of the `ab` engine from random openings, then a logistic fit of the game
//! results on the evaluation's terms (Texel's method); prints the weights as Rust.
//!
//! `experiments ataxx-spsa [--pairs N] [--nodes N | --ms MS] [--threads N] [--start name=value,...] [--tune name,...]`:
//! tunes the numbers of Ataxx's `ab` search by SPSA over game pairs in-process
//! (`lab::spsa`); prints them as it goes.
//!
//! `experiments dots-solver --log GAMES.jsonl [--undrawn 36,38,40] [--cap-s 20] [--each] [--verdict]`:
//! the Pencil solver's time and nodes on the positions of logged arena games with that many
//! undrawn edges (real middle games, unlike the bench's random ones); the exact value, or
//! with `--verdict` what the bot asks (a winning move, else the smallest loss; a loss
//! proved by refuting every move but whose smallest loss ran out of time is counted apart).
//!
//! `experiments dots-value-data --log GAMES.jsonl [--roots 44,46,48,50,52] [--at 36] --out FILE`,
//! then `experiments dots-value-fit --data FILE [--hidden 64] [--epochs 30]`: a learned Pencil
//! value trained on positions the solver values exactly, against the playouts' own judgement
//! on games it never saw (`lab::dots_value`).
//!
//! `experiments nogo-perfect --log GAMES.jsonl [--plies 52,54] [--iterations N | --ms 900]
//! [--variant FEATURES]... [--cap-s 10]`: on logged NoGo positions, the proof search's
//! verdict, then on the won ones each variant's answer and whether it keeps the win.
//!
//! `experiments nogo-count-fit --log GAMES.jsonl [--bucket 10]`: the count of points each
//! side may play against the logged games' winners: the best logistic slope per bucket of
//! legal points, and how often the count names the winner.
//!
//! `experiments nogo-value-fit --log GAMES.jsonl [--out TABLE]`: a learned value for NoGo
//! (the count with each point's worth by its 3x3 neighbourhood) fitted to the logged
//! games' winners, its held-out log loss by legal points against the count's; writes the
//! table.
//!
//! `experiments nogo-judges --log GAMES.jsonl [--plies 54,56,58] [--cap-s 1] [--iterations
//! 20000]`: on logged NoGo positions the proof search settles, how often counts of legal
//! points and the playouts' value (MCTS without the proof search) name the winner.

use arena::games::GameName;
use arena::with_game;
use botzone_games::engines::ataxx::SearchParams;
use botzone_games::engines::Without;
use botzone_games::search::{Budget, Deadline};
use clap::{Parser, Subcommand};
use lab::dots_solver::{dots_judges, dots_perfect, dots_solver, EngineChoice};
use lab::dots_value::{dots_value_data, dots_value_fit, dots_value_judge, PlayoutVariant};
use lab::mmcts::{connect4_against_uct, paper_grid, PerMove};
use lab::nogo_solver::{nogo_carry, nogo_count_fit, nogo_judges, nogo_perfect, nogo_solver, nogo_trace};
use lab::nogo_value::{nogo_value_fit, VALUE_SCALE};
use lab::overrun::overrun;
use lab::paper_games::mmcts_grid::{Cell, Opponent, PaperGame, Variant};
use lab::parallel::{strength, wall_time};
use lab::spsa::{spsa, tuned_by_name, SpsaConfig};
use lab::texel::texel;
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "experiments", about = "Reproducible experiments for the seeds' claims (see docs/lab/)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Seed 000 on Connect 4: M-MCTS variants against plain UCT.
    Mmcts {
        #[arg(long, default_value_t = 40)]
        games: usize,
        #[arg(long, default_value = "10,50,200", value_delimiter = ',')]
        ms: Vec<u64>,
        /// Fixed iterations per move instead of time (isolates the method from its cost).
        #[arg(long, value_delimiter = ',')]
        iterations: Vec<u64>,
    },
    /// Seed 000's Section 4 grid: M-MCTS against flat Monte Carlo (the paper's baseline)
    /// and against UCT, on its four games, per sigma and per budget; CSV out.
    MmctsPaper {
        #[arg(long, value_enum, default_value = "ttt5,connect4,connect5,breakthrough", value_delimiter = ',')]
        games: Vec<PaperGame>,
        #[arg(long, value_enum, default_value = "as-run,knn", value_delimiter = ',')]
        variants: Vec<Variant>,
        #[arg(long, default_value = "0.5,0.8", value_delimiter = ',')]
        sigmas: Vec<f64>,
        #[arg(long, value_enum, default_value = "flat-mc,uct", value_delimiter = ',')]
        opponents: Vec<Opponent>,
        /// Playouts per move for both sides, standing for the paper's 15, 30, 45 and 60 s.
        #[arg(long, default_value = "1000,2000,3000,4000", value_delimiter = ',')]
        iterations: Vec<u64>,
        /// Games per cell (half with M-MCTS first).
        #[arg(long, default_value_t = 100)]
        per_cell: usize,
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// The CSV the cells' lines are appended to as they finish (a new file gets the
        /// header first).
        #[arg(long)]
        csv: std::path::PathBuf,
    },
    /// Every figure (SVG) from the CSV files in a folder: `mmcts_paper.csv` (seed 000's
    /// grid, one figure per game), `parallel.csv` and `parallel_match.csv` (seed 001),
    /// `elo_log.csv` (each bot's Elo against the time per move); from `elo_log.csv` also
    /// the standings page and the README's standings lines.
    Figures {
        #[arg(long, default_value = "docs/figures")]
        dir: std::path::PathBuf,
        /// The standings page written from the folder's `elo_log.csv`.
        #[arg(long, default_value = "docs/strength.md")]
        standings: std::path::PathBuf,
        /// The README whose standings lines are rewritten.
        #[arg(long, default_value = "README.md")]
        readme: std::path::PathBuf,
        /// The notebook every standing's entry points into.
        #[arg(long, default_value = "docs/lab")]
        lab: std::path::PathBuf,
    },
    /// Seed 001's strength at equal iterations: two root-parallel UCT workers of N
    /// iterations each against one UCT of r * N, per game; CSV out (appended).
    ParallelMatch {
        /// Iterations per worker (the paper: 100).
        #[arg(long, default_value = "100,1000", value_delimiter = ',')]
        per_worker: Vec<u64>,
        /// The single search's iterations as multiples of one worker's.
        #[arg(long, default_value = "1,1.5,2", value_delimiter = ',')]
        ratios: Vec<f64>,
        #[arg(long, default_value = "ataxx,nogo,dots", value_delimiter = ',')]
        games: Vec<GameName>,
        #[arg(long, default_value_t = 100)]
        per_cell: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        csv: std::path::PathBuf,
    },
    /// Seed 001: wall time of one thread against two root-parallel threads.
    Parallel {
        #[arg(long, default_value_t = 40_000)]
        iterations: u64,
        /// Worker counts to time (each doing iterations / N).
        #[arg(long, default_value = "1,2", value_delimiter = ',')]
        workers: Vec<u64>,
        /// Also write the timings as CSV (game,workers,iterations,seconds).
        #[arg(long)]
        csv: Option<std::path::PathBuf>,
    },
    /// Time safety: runs a bot on N positions from seeded random games, each answer a fresh
    /// process fed the full history with `time_limit`, and times it from spawn to exit.
    Overrun {
        #[arg(value_enum)]
        game: GameName,
        /// The bot's command line.
        #[arg(long)]
        bot: String,
        #[arg(long, default_value_t = 1000)]
        answers: usize,
        /// The limit given in the input's `time_limit` (the first turn of a game is not
        /// asked, so every answer has this limit).
        #[arg(long, default_value_t = 1000)]
        time_ms: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The Pencil solver on positions from logged arena games.
    DotsSolver {
        /// An arena log (`arena dots --log`).
        #[arg(long)]
        log: std::path::PathBuf,
        #[arg(long, default_value = "36,38,40", value_delimiter = ',')]
        undrawn: Vec<u32>,
        /// Time allowed for each position, in seconds.
        #[arg(long, default_value_t = 20.0)]
        cap_s: f64,
        /// The transposition table's size: 2^bits slots (`best` uses 22).
        #[arg(long, default_value_t = 22)]
        table_bits: u32,
        /// Also print each position's value (the first player's final margin); with
        /// `--verdict`, whose winning values are only bounds, each position's log line and
        /// whether the side to move wins.
        #[arg(long)]
        each: bool,
        /// Time what the bot asks (`Solver::solve`: a winning move, or the smallest loss),
        /// not the exact value.
        #[arg(long)]
        verdict: bool,
    },
    /// Whether the Pencil bot's engine keeps a won position won within its time: on the
    /// positions of logged games, the exact verdict (is there a winning move?), then the
    /// engine's answer within `--ms`, then whether that answer still wins.
    DotsPerfect {
        /// An arena log (`arena dots --log`).
        #[arg(long)]
        log: std::path::PathBuf,
        #[arg(long, default_value = "36,38,40,42", value_delimiter = ',')]
        undrawn: Vec<u32>,
        /// The engine's time per answer (the bot's own at Botzone's 1000 ms is 900).
        #[arg(long, default_value_t = 900)]
        ms: u64,
        /// The engine (`dots --engine`), the bot's default when not given.
        #[arg(long)]
        engine: Option<String>,
        /// The engine's features to switch off (`dots --without`).
        #[arg(long, value_delimiter = ',')]
        without: Vec<String>,
        /// Time allowed for the verdicts, in seconds per position.
        #[arg(long, default_value_t = 30.0)]
        cap_s: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep the engine running through the game, as Botzone's keep-running mode does:
        /// it answers every earlier turn of the same side first, its table and tree kept.
        #[arg(long)]
        keep_running: bool,
    },
    /// How often cheap judges name the winner of logged Pencil positions the solver settles:
    /// MCTS's value, the Nimstring game (who gets control), the safe-edge game (who draws the
    /// last safe edge), the safe edges' parity.
    DotsJudges {
        /// Arena logs (`arena dots --log`); repeat for more positions.
        #[arg(long, required = true)]
        log: Vec<std::path::PathBuf>,
        #[arg(long, default_value = "36,40,44", value_delimiter = ',')]
        undrawn: Vec<u32>,
        /// Time allowed for each verdict, in seconds (positions beyond it are left out).
        #[arg(long, default_value_t = 2.0)]
        cap_s: f64,
        /// MCTS iterations for its value.
        #[arg(long, default_value_t = 50_000)]
        iterations: u64,
        /// MCTS's time for its value in ms, instead of a number of iterations.
        #[arg(long)]
        ms: Option<u64>,
        /// Nodes allowed to the safe-edge and Nimstring games' searches, each position.
        #[arg(long, default_value_t = 2_000_000)]
        game_nodes: u64,
        /// A file of the solver's verdicts, read and extended (made again if its cap differs),
        /// so that judges compared one after another solve each position once.
        #[arg(long)]
        verdicts: Option<std::path::PathBuf>,
    },
    /// Pencil examples for a learned value: logged positions at `roots` undrawn edges, played
    /// on by playout moves to a quiet position with `at` undrawn or fewer, valued exactly by
    /// the solver, with the share of the bot's playouts the side to move wins there.
    DotsValueData {
        /// Arena logs (`arena dots --log`); repeat for more positions.
        #[arg(long, required = true)]
        log: Vec<std::path::PathBuf>,
        #[arg(long, default_value = "44,46,48,50,52", value_delimiter = ',')]
        roots: Vec<u32>,
        #[arg(long, default_value_t = 36)]
        at: u32,
        /// Descents from each logged position.
        #[arg(long, default_value_t = 4)]
        per_root: usize,
        /// Time allowed for each value, in seconds (positions beyond it are left out).
        #[arg(long, default_value_t = 2.0)]
        cap_s: f64,
        /// The bot's playouts from each example, for the share it wins.
        #[arg(long, default_value_t = 64)]
        playouts: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Trains a small network on `dots-value-data` examples (four games in five) and compares
    /// its calls of the winner with the playouts' on the fifth.
    DotsValueFit {
        #[arg(long)]
        data: std::path::PathBuf,
        #[arg(long, default_value_t = 64)]
        hidden: usize,
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// What the network learns: `margin` (the boxes still to come) or `win` (the winner,
        /// the margin so far an input).
        #[arg(long, default_value = "margin", value_parser = ["margin", "win"])]
        target: String,
    },
    /// The calls of a playout variant on `dots-value-data` examples, beside the bot's playouts'.
    DotsValueJudge {
        #[arg(long)]
        data: std::path::PathBuf,
        #[arg(long, default_value_t = 64)]
        playouts: usize,
        /// Play the safe-edge game exactly once at most this many safe edges are left (0: never).
        #[arg(long, default_value_t = 0)]
        safe_game_from: u32,
        /// The solver's exact endings from this many undrawn edges (the bot: 28).
        #[arg(long, default_value_t = 28)]
        exact_from: u32,
        /// Nodes each exact ending may search (the bot: 4,096).
        #[arg(long, default_value_t = 4096)]
        exact_nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The NoGo endgame proof search on positions from logged arena games.
    NogoSolver {
        /// An arena log (`arena nogo --log`).
        #[arg(long)]
        log: std::path::PathBuf,
        /// Plies played (the opening's included) before the positions taken.
        #[arg(long, default_value = "52,54,56,58", value_delimiter = ',')]
        plies: Vec<usize>,
        /// Time allowed for each position, in seconds.
        #[arg(long, default_value_t = 10.0)]
        cap_s: f64,
        /// Also print each position's value for the side to move and its legal points.
        #[arg(long)]
        each: bool,
        /// A node cap for each position instead of the time (load-independent).
        #[arg(long)]
        nodes: Option<u64>,
        /// The earlier solver instead: iterative-deepening alpha-beta on the whole-board
        /// position, ordered by legal points (for comparison).
        #[arg(long)]
        alpha_beta: bool,
    },
    /// The NoGo engine on won positions of logged games: the exact verdict of each position
    /// after each count of plies, then each variant's answer within `--ms` on the won ones
    /// and whether it keeps the win.
    NogoPerfect {
        /// Arena logs (`arena nogo --log`); repeat for more positions.
        #[arg(long, required = true)]
        log: Vec<std::path::PathBuf>,
        /// Plies played (the opening's included) before the positions taken.
        #[arg(long, default_value = "52,54", value_delimiter = ',')]
        plies: Vec<usize>,
        /// The engine's time per answer (the bot's own at Botzone's 1000 ms is 900).
        #[arg(long, default_value_t = 900)]
        ms: u64,
        /// A fixed number of iterations per answer instead of the time (load-independent).
        #[arg(long)]
        iterations: Option<u64>,
        /// The engine (`nogo --engine`), the bot's default when not given.
        #[arg(long)]
        engine: Option<String>,
        /// A variant: the engine's features to switch off, comma-separated (`-` for none);
        /// repeat to compare several on the same positions. The engine as shipped when none.
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// Time allowed for each verdict, in seconds.
        #[arg(long, default_value_t = 10.0)]
        cap_s: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// How well cheap judges name the winner of logged NoGo positions the proof search
    /// settles: counts of legal points, and the playouts' value (MCTS, proof search off).
    NogoJudges {
        /// Arena logs (`arena nogo --log`); repeat for more positions.
        #[arg(long, required = true)]
        log: Vec<std::path::PathBuf>,
        /// Plies played (the opening's included) before the positions taken.
        #[arg(long, default_value = "54,56,58", value_delimiter = ',')]
        plies: Vec<usize>,
        /// Time allowed for each verdict, in seconds (positions beyond it are left out).
        #[arg(long, default_value_t = 1.0)]
        cap_s: f64,
        /// MCTS iterations for the playouts' value.
        #[arg(long, default_value_t = 20_000)]
        iterations: u64,
    },
    /// How well the count of points each side may play (`CountValue` in the `mcts` engine)
    /// predicts the logged games' winners, by the legal points left: the logistic slope
    /// that fits best, and how often the count names the winner.
    NogoCountFit {
        /// Arena logs (`arena nogo --log`); repeat for more positions.
        #[arg(long, required = true)]
        log: Vec<std::path::PathBuf>,
        /// Width of a bucket of legal points (both sides together).
        #[arg(long, default_value_t = 10)]
        bucket: u32,
    },
    /// Fits a learned value for NoGo (the count with each point's worth by its 3x3
    /// neighbourhood) to the logged games' winners and compares it with the count on
    /// held-out games; writes the table with `--out`.
    NogoValueFit {
        /// Arena logs (`arena nogo --log`); repeat for more positions.
        #[arg(long, required = true)]
        log: Vec<std::path::PathBuf>,
        /// Where to write the table (one signed byte per neighbourhood).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        #[arg(long, default_value_t = 10)]
        epochs: usize,
        #[arg(long, default_value_t = 0.002)]
        lr: f32,
        /// Pull of each worth towards its start (1 for a point the side may play, else 0).
        #[arg(long, default_value_t = 0.01)]
        l2: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// What the NoGo proof search's table kept from turn to turn buys over a new one each
    /// turn, on the positions of logged games from the proof search's start.
    NogoCarry {
        /// An arena log (`arena nogo --log`).
        #[arg(long)]
        log: std::path::PathBuf,
        /// Start at the first position where both sides together have at most this many
        /// legal points (the bot's proof search starts at 40).
        #[arg(long, default_value_t = 40)]
        points: u32,
        /// Nodes the proof search may spend on each position (about 0.9 M in a turn).
        #[arg(long, default_value_t = 800_000)]
        nodes: u64,
    },
    /// How far logged NoGo positions split into independent regions (games of their own
    /// whose values would add), by ply.
    NogoRegions {
        /// Arena logs (`arena nogo --log`); repeat for more positions.
        #[arg(long, required = true)]
        log: Vec<std::path::PathBuf>,
        /// Plies after which to look, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "40,46,50,54,58")]
        plies: Vec<usize>,
    },
    /// Where each logged NoGo game was decided: from its end backwards, each position's
    /// winner under perfect play (`B`, `W`, or `?` when the proof search gives up).
    NogoTrace {
        /// An arena log (`arena nogo --log`).
        #[arg(long)]
        log: std::path::PathBuf,
        /// Nodes the proof search may spend on each position.
        #[arg(long, default_value_t = 2_000_000)]
        nodes: u64,
    },
    /// Fits the Ataxx evaluation's weights to self-play results (Texel's method).
    Texel {
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Alpha-beta nodes per self-play move.
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Tunes the numbers of Ataxx's `ab` search by SPSA: game pairs in-process at a fixed
    /// number of nodes or a fixed time a move; prints the numbers as the run goes
    /// (`lab::spsa`).
    AtaxxSpsa {
        /// Game pairs (steps).
        #[arg(long, default_value_t = 2000)]
        pairs: u64,
        /// Alpha-beta nodes per move.
        #[arg(long, default_value_t = 30000)]
        nodes: u64,
        /// Milliseconds per move instead of nodes: equal time charges what a change's
        /// nodes cost (one core per thread, nothing else running).
        #[arg(long, conflicts_with = "nodes")]
        ms: Option<u64>,
        /// Random plies that open each pair's games.
        #[arg(long, default_value_t = 4)]
        opening_plies: usize,
        /// The learning rate at the run's end, per unit of a number's `c_end`.
        #[arg(long, default_value_t = 0.02)]
        r_end: f64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 50)]
        report_every: u64,
        /// Start from these numbers instead of the bot's (`name=value`, comma-separated).
        #[arg(long, value_delimiter = ',')]
        start: Vec<String>,
        /// Move only these numbers (comma-separated names; all of them if none).
        #[arg(long, value_delimiter = ',')]
        tune: Vec<String>,
    },
}

fn main() {
    let result = match Cli::parse().command {
        Command::Mmcts { games, ms, iterations } => {
            let budgets: Vec<PerMove> = if iterations.is_empty() {
                ms.into_iter().map(PerMove::Ms).collect()
            } else {
                iterations.into_iter().map(PerMove::Iterations).collect()
            };
            connect4_against_uct(games, &budgets);
            Ok(())
        }
        Command::ParallelMatch { per_worker, ratios, games, per_cell, seed, csv } => {
            strength(&games, &per_worker, &ratios, per_cell, seed, &csv)
        }
        Command::Parallel { iterations, workers, csv } => wall_time(iterations, &workers, csv.as_deref()),
        Command::Texel { games, nodes, seed } => {
            texel(games, nodes, seed);
            Ok(())
        }
        Command::AtaxxSpsa { pairs, nodes, ms, opening_plies, r_end, threads, seed, report_every, start, tune } => {
            search_params(&start).and_then(|start| tuned_by_name(&tune).map(|tuned| (start, tuned))).map(
                |(start, tuned)| {
                    let config = SpsaConfig {
                        pairs,
                        nodes,
                        ms,
                        opening_plies,
                        threads,
                        seed,
                        r_end,
                        report_every,
                        start,
                        tuned,
                    };
                    let tuned = spsa(&config);
                    let names = SearchParams::NAMES.iter();
                    let values = names.map(|n| format!("{n}={}", tuned.get(n).expect("a known number")));
                    println!("tuned: {}", values.collect::<Vec<_>>().join(","));
                },
            )
        }
        Command::MmctsPaper { games, variants, sigmas, opponents, iterations, per_cell, jobs, csv } => {
            let mut cells = Vec::new();
            for &game in &games {
                for &variant in &variants {
                    for &sigma in &sigmas {
                        for &opponent in &opponents {
                            for &iterations in &iterations {
                                cells.push(Cell { game, variant, sigma, opponent, iterations });
                            }
                        }
                    }
                }
            }
            paper_grid(&cells, per_cell, jobs, &csv)
        }
        Command::Figures { dir, standings, readme, lab } => figures(&dir, &standings, &readme, &lab),
        Command::DotsSolver { log, undrawn, cap_s, table_bits, each, verdict } => {
            dots_solver(&log, &undrawn, cap_s, table_bits, each, verdict)
        }
        Command::DotsPerfect { log, undrawn, ms, engine, without, cap_s, seed, keep_running } => {
            let engine = EngineChoice { name: engine.as_deref(), without: Without(without) };
            dots_perfect(&log, &undrawn, ms, &engine, cap_s, seed, keep_running)
        }
        Command::DotsJudges { log, undrawn, cap_s, iterations, ms, game_nodes, verdicts } => {
            let mcts_budget = || match ms {
                Some(ms) => Budget::until(Deadline::new(Instant::now(), Duration::from_millis(ms))),
                None => Budget::iterations(iterations),
            };
            dots_judges(&log, &undrawn, cap_s, &mcts_budget, game_nodes, verdicts.as_deref())
        }
        Command::DotsValueData { log, roots, at, per_root, cap_s, playouts, seed, out } => {
            dots_value_data(&log, &roots, at, per_root, cap_s, playouts, seed, &out)
        }
        Command::DotsValueFit { data, hidden, epochs, lr, seed, target } => {
            dots_value_fit(&data, hidden, epochs, lr, seed, target == "win")
        }
        Command::DotsValueJudge { data, playouts, safe_game_from, exact_from, exact_nodes, seed } => {
            let variant = PlayoutVariant { safe_game_from, exact_from, exact_nodes };
            dots_value_judge(&data, playouts, variant, seed)
        }
        Command::NogoSolver { log, plies, cap_s, nodes, each, alpha_beta } => {
            nogo_solver(&log, &plies, cap_s, nodes, each, alpha_beta)
        }
        Command::NogoPerfect { log, plies, ms, iterations, engine, variants, cap_s, seed } => {
            let mut variants: Vec<Vec<String>> = variants
                .iter()
                .map(|v| v.split(',').filter(|f| !f.is_empty() && *f != "-").map(str::to_string).collect())
                .collect();
            if variants.is_empty() {
                variants.push(Vec::new());
            }
            nogo_perfect(&log, &plies, ms, iterations, engine.as_deref(), &variants, cap_s, seed)
        }
        Command::NogoJudges { log, plies, cap_s, iterations } => nogo_judges(&log, &plies, cap_s, iterations),
        Command::NogoCountFit { log, bucket } => nogo_count_fit(&log, bucket),
        Command::NogoValueFit { log, out, epochs, lr, l2, seed } => {
            nogo_value_fit(&log, out.as_deref(), epochs, lr, l2, VALUE_SCALE, seed)
        }
        Command::NogoTrace { log, nodes } => nogo_trace(&log, nodes),
        Command::NogoCarry { log, points, nodes } => nogo_carry(&log, points, nodes),
        Command::NogoRegions { log, plies } => lab::nogo_regions::nogo_regions(&log, &plies),
        Command::Overrun { game, bot, answers, time_ms, seed } => {
            with_game!(game, G => overrun::<G>(&bot, answers, time_ms, seed))
        }
    };
    if let Err(e) = result {
        eprintln!("experiments: {e}");
        std::process::exit(2);
    }
}

/// `experiments figures`: every figure, then the standings from the match log.
fn figures(dir: &Path, standings: &Path, readme: &Path, lab: &Path) -> Result<(), String> {
    let mut written = lab::figures::draw_all(dir)?;
    if dir.join("elo_log.csv").exists() {
        written.extend(lab::standings::Pages { figures: dir, lab, strength: standings, readme }.write()?);
    }
    for f in written {
        println!("{}", f.display());
    }
    Ok(())
}

/// The bot's search numbers with `name=value` settings applied.
fn search_params(settings: &[String]) -> Result<SearchParams, String> {
    let mut params = SearchParams::DEFAULT;
    for setting in settings {
        let (name, value) = setting.split_once('=').ok_or_else(|| format!("{setting:?}: expected name=value"))?;
        let value: f64 = value.trim().parse().map_err(|_| format!("{setting:?}: the value is not a number"))?;
        params.set(name.trim(), value)?;
    }
    Ok(params)
}
