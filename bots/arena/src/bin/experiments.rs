//! Reproducible experiments for the seeds' claims (results in shared/EXPERIMENTS.md; the
//! seeds are the papers listed in docs/papers.md).
//!
//! `experiments mmcts [--games N] [--ms 10,50,200]`: seed 000 on Connect 4: M-MCTS (the
//! paper's variant and a blend) against plain UCT at several times per move, in-process,
//! colours alternating, starting positions varied by two random plies per pair.
//!
//! `experiments mmcts-paper --csv OUT.csv [--games ttt5,connect4,connect5,breakthrough]
//! [--variants as-run,knn] [--sigmas 0.5,0.8] [--opponents flat-mc,uct]
//! [--iterations 1000,2000,3000,4000] [--per-cell 100] [--jobs 2]`: seed 000's Section 4
//! grid (`arena::paper_games::mmcts_grid`), one CSV line per cell.
//!
//! `experiments figures [--dir shared/figures]`: every figure (SVG) from the CSV files
//! there: the seed 000 grid's (score against playouts per move, one per game), seed 001's
//! (wall time against workers; two workers' score against one search's iterations) and
//! each bot's Elo log against the time per move (`arena::figures`).
//!
//! `experiments parallel-match --csv OUT [--per-worker 100,1000] [--ratios 1,1.5,2]
//! [--games ataxx,nogo,dots] [--per-cell 100]`: seed 001's strength claim: two
//! root-parallel UCT workers of N iterations each against one UCT of r * N
//! (`arena::parallel_match`).
//!
//! `experiments parallel [--iterations N] [--workers 1,2] [--csv OUT]`: seed 001: wall
//! time of a fixed total number of UCT iterations split over N root-parallel threads (the
//! first count listed is the base), for each game.
//!
//! `experiments texel [--games N] [--nodes N]`: tunes the Ataxx evaluation's weights:
//! self-play of the `ab` engine from random openings, then a logistic fit of the game
//! results on the evaluation's terms (Texel's method); prints the weights as Rust.
//!
//! `experiments dots-solver --log GAMES.jsonl [--undrawn 36,38,40] [--cap-s 20] [--each] [--verdict]`:
//! the Pencil solver's time and nodes on the positions of logged arena games with that many
//! undrawn edges (real middle games, unlike the bench's random ones); the exact value, or
//! with `--verdict` what the bot asks (a winning move, else the smallest loss).

use arena::games::{ArenaGame, GameName};
use arena::in_process::play_out;
use arena::judge::{input_with_limit, GameRecord};
use arena::paper_games::connect4::Connect4;
use arena::paper_games::mmcts_grid::{self, Cell, Opponent, PaperGame, Variant};
use arena::with_game;
use botzone_games::ataxx::eval::{self, TERMS};
use botzone_games::botzone::Transcript;
use botzone_games::engines::{ataxx::ab, Without};
use botzone_games::game::{Game, Player, Rules};
use botzone_games::search::mcts;
use botzone_games::search::memory::{MemoryConfig, MemoryMcts};
use botzone_games::search::parallel::search_parallel;
use botzone_games::search::{Budget, Deadline, Engine};
use botzone_games::{ataxx, dots, nogo};
use clap::{Parser, Subcommand};
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "experiments", about = "Reproducible experiments for the seeds' claims (see shared/EXPERIMENTS.md)")]
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
    /// `elo_log.csv` (each bot's Elo against the time per move).
    Figures {
        #[arg(long, default_value = "shared/figures")]
        dir: std::path::PathBuf,
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
        /// Also print each position's value (the first player's final margin); not with
        /// `--verdict`, whose winning values are only bounds.
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
}

/// Plays one game; returns the first player's reward.
/// A move's budget: milliseconds, or iterations when `per_move` is `Iterations`.
#[derive(Clone, Copy)]
enum PerMove {
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

fn mmcts_paper(cells: &[Cell], per_cell: usize, jobs: usize, csv: &std::path::Path) -> Result<(), String> {
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

fn parallel_experiment(iterations: u64, workers: &[u64], csv: Option<&std::path::Path>) -> Result<(), String> {
    let mut lines = vec![arena::figures::PARALLEL_CSV_HEADER.to_string()];
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

fn parallel_match(
    games: &[GameName],
    per_worker: &[u64],
    ratios: &[f64],
    per_cell: usize,
    seed: u64,
    csv: &std::path::Path,
) -> Result<(), String> {
    use arena::parallel_match::{csv_line, run, CSV_HEADER};
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

/// One training position: the evaluation's terms, the number of empty squares, and the
/// result of the game for the side to move (1, 0.5, 0).
struct Sample {
    terms: [i32; TERMS],
    empties: i32,
    result: f64,
}

/// Self-play of `ab` at `nodes` per move from openings of 6 random plies.
fn self_play(games: usize, nodes: u64, seed: u64) -> Vec<Sample> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut engine = ab(&Without::default());
    let mut samples = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut board = *ataxx::Position::start().board();
        let mut seen = Vec::new();
        let outcome = loop {
            if let Some(outcome) = board.judge() {
                break outcome;
            }
            board.generate(&mut moves);
            let mv = if board.ply() < 6 {
                moves[rng.usize(..moves.len())]
            } else {
                let (terms, empties) = eval::terms(&board);
                seen.push((terms, empties, board.to_move()));
                engine.search(&board, &moves, &Budget::iterations(nodes)).best
            };
            board.make(mv);
        };
        samples.extend(seen.into_iter().map(|(terms, empties, side)| Sample {
            terms,
            empties,
            result: outcome.reward(side),
        }));
    }
    samples
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predicted results with `w` (8 weights: opening, then ending)
/// and scale `s` (centi-pieces per logistic unit).
fn texel_loss(samples: &[Sample], w: &[f64; 2 * TERMS], s: f64) -> f64 {
    samples.iter().map(|x| (sigmoid(texel_eval(x, w) / s) - x.result).powi(2)).sum::<f64>() / samples.len() as f64
}

/// How far the position is from the full board, 1 at the start, as `eval::weigh` blends.
fn opening_share(x: &Sample) -> f64 {
    f64::from(x.empties.min(eval::START_EMPTIES)) / f64::from(eval::START_EMPTIES)
}

fn texel_eval(x: &Sample, w: &[f64; 2 * TERMS]) -> f64 {
    let open = opening_share(x);
    (0..TERMS).map(|k| f64::from(x.terms[k]) * (w[k] * open + w[TERMS + k] * (1.0 - open))).sum()
}

fn texel(games: usize, nodes: u64, seed: u64) {
    let start = Instant::now();
    let mut samples = self_play(games, nodes, seed);
    println!("{} positions from {games} games in {:.0} s", samples.len(), start.elapsed().as_secs_f64());
    // Every tenth game's worth of positions held out, by position index (games are long
    // runs of positions, so this splits within games; the test loss is a sanity check).
    fastrand::Rng::with_seed(seed).shuffle(&mut samples);
    let (test, train) = samples.split_at(samples.len() / 10);
    let hand = eval::HAND_SET;
    let mut w = [0.0; 2 * TERMS];
    for k in 0..TERMS {
        w[k] = f64::from(hand.opening[k]);
        w[TERMS + k] = f64::from(hand.ending[k]);
    }
    // The scale that fits the hand-set weights best, then kept fixed.
    let s = (1..=60)
        .map(|i| f64::from(i) * 25.0)
        .min_by(|a, b| texel_loss(train, &w, *a).total_cmp(&texel_loss(train, &w, *b)))
        .unwrap();
    println!("scale {s}: hand-set loss train {:.5} test {:.5}", texel_loss(train, &w, s), texel_loss(test, &w, s));
    // Adam on all eight weights.
    let (mut m, mut v) = ([0.0; 2 * TERMS], [0.0; 2 * TERMS]);
    let (lr, b1, b2) = (1.0, 0.9, 0.999);
    for step in 1..=2000 {
        let mut grad = [0.0; 2 * TERMS];
        for x in train {
            let p = sigmoid(texel_eval(x, &w) / s);
            let common = 2.0 * (p - x.result) * p * (1.0 - p) / s;
            let open = opening_share(x);
            for k in 0..TERMS {
                let f = f64::from(x.terms[k]);
                grad[k] += common * f * open;
                grad[TERMS + k] += common * f * (1.0 - open);
            }
        }
        for k in 0..2 * TERMS {
            let g = grad[k] / train.len() as f64;
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let (mh, vh) = (m[k] / (1.0 - b1.powi(step)), v[k] / (1.0 - b2.powi(step)));
            w[k] -= lr * mh / (vh.sqrt() + 1e-9);
        }
        if step % 500 == 0 {
            println!("step {step}: loss train {:.5} test {:.5}", texel_loss(train, &w, s), texel_loss(test, &w, s));
        }
    }
    let round = |ws: &[f64]| ws.iter().map(|x| format!("{}", x.round() as i32)).collect::<Vec<_>>().join(", ");
    println!("Weights {{ opening: [{}], ending: [{}] }}", round(&w[..TERMS]), round(&w[TERMS..]));
}

/// Inputs for `answers` turns: positions of seeded random games where the asked side must
/// move, each at least its second turn (Botzone doubles the first turn's limit).
fn overrun_inputs<G: ArenaGame>(answers: usize, limit: Duration, seed: u64) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut inputs = Vec::with_capacity(answers);
    let mut moves = Vec::new();
    while inputs.len() < answers {
        let mut t = Transcript::<G>::new();
        while t.game().outcome().is_none() && inputs.len() < answers {
            if t.must_pass() {
                t.answer(None).expect("a pass is due");
                continue;
            }
            if t.answers(t.asked()) > 0 && rng.u8(..4) == 0 {
                inputs.push(input_with_limit(&t, limit));
            }
            t.game().legal_moves(&mut moves);
            t.answer(Some(moves[rng.usize(..moves.len())])).expect("legal");
        }
    }
    inputs
}

/// Whole-process wall time of `bot` on each input: spawn, input, answer, exit.
fn overrun<G: ArenaGame>(bot: &str, answers: usize, time_ms: u64, seed: u64) -> Result<(), String> {
    let argv = shlex::split(bot).filter(|a| !a.is_empty()).ok_or("cannot split the bot's command")?;
    let limit = Duration::from_millis(time_ms);
    let inputs = overrun_inputs::<G>(answers, limit, seed);
    let bar = indicatif::ProgressBar::new(inputs.len() as u64);
    let mut times = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let start = Instant::now();
        let mut child = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {:?}: {e}", argv[0]))?;
        let mut stdin = child.stdin.take().expect("piped");
        std::io::Write::write_all(&mut stdin, format!("{input}\n").as_bytes()).map_err(|e| e.to_string())?;
        drop(stdin);
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        times.push(start.elapsed());
        if !out.status.success() {
            return Err(format!("the bot failed ({}) on {input}", out.status));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let pct = |p: f64| ms(times[((times.len() - 1) as f64 * p) as usize]);
    let over = times.iter().filter(|&&t| t > limit).count();
    println!(
        "{} answers of {} at {time_ms} ms (spawn to exit): mean {:.1} ms, p50 {:.1}, p99 {:.1}, \
         p99.9 {:.1}, max {:.1}; over the limit: {over}",
        times.len(),
        G::NAME,
        times.iter().map(|&t| ms(t)).sum::<f64>() / times.len() as f64,
        pct(0.5),
        pct(0.99),
        pct(0.999),
        ms(*times.last().expect("answers"))
    );
    Ok(())
}

/// Each game of an arena log (`arena GAME --log`): its line number and its moves as
/// Botzone JSON, the opening's first.
fn logged_games(log: &std::path::Path) -> Result<Vec<(usize, Vec<serde_json::Value>)>, String> {
    let text = std::fs::read_to_string(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let game: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: line {}: {e}", log.display(), n + 1))?;
        games.push((n + 1, GameRecord::logged_answers(&game)));
    }
    Ok(games)
}

/// How a solver fared on a set of positions, each given the same limit.
#[derive(Default)]
struct SolverTally {
    solved: usize,
    times: Vec<f64>,
    nodes: u64,
}

impl SolverTally {
    fn add(&mut self, seconds: f64, nodes: u64, solved: bool) {
        self.times.push(seconds);
        self.nodes += nodes;
        self.solved += usize::from(solved);
    }

    /// `limit` says what each position was given, e.g. `10 s` or `500000 nodes`.
    fn print(&self, label: &str, limit: &str) {
        let mean = self.times.iter().sum::<f64>() / self.times.len().max(1) as f64;
        let max = self.times.iter().copied().fold(0.0, f64::max);
        let within = |s: f64| self.times.iter().filter(|&&t| t <= s).count();
        println!(
            "{label}: {}/{} solved within {limit} ({} within 0.5 s, {} within 1 s); mean {mean:.3} s, slowest \
             {max:.3} s, {} nodes",
            self.solved,
            self.times.len(),
            within(0.5),
            within(1.0),
            self.nodes
        );
    }
}

/// The positions of each logged Pencil game at `undrawn` undrawn edges (the side to move
/// about to choose).
fn logged_dots_positions(log: &std::path::Path, undrawn: u32) -> Result<Vec<dots::Position>, String> {
    Ok(logged_dots_lines(log, undrawn)?.into_iter().map(|(_, p, _)| p).collect())
}

/// Each logged game that reaches `undrawn` undrawn edges: its line in the log, the
/// position and the edges drawn to it.
fn logged_dots_lines(
    log: &std::path::Path,
    undrawn: u32,
) -> Result<Vec<(usize, dots::Position, Vec<dots::Edge>)>, String> {
    use botzone_games::botzone::BotzoneGame;
    let mut found = Vec::new();
    for (line, moves) in logged_games(log)? {
        let mut p = dots::Position::start();
        let mut drawn = Vec::new();
        for value in moves.iter().filter(|v| !v.is_null()) {
            if 60 - p.drawn_count() == undrawn {
                break;
            }
            let edge = dots::Position::parse_json_move(value).map_err(|e| format!("line {line}: {e}"))?;
            if let Some(e) = edge {
                p.play(e);
                drawn.push(e);
            }
        }
        if 60 - p.drawn_count() == undrawn {
            found.push((line, p, drawn));
        }
    }
    Ok(found)
}

fn dots_solver(
    log: &std::path::Path,
    undrawn: &[u32],
    cap_s: f64,
    table_bits: u32,
    each: bool,
    verdict: bool,
) -> Result<(), String> {
    use botzone_games::engines::dots::solver::Solver;
    for &n in undrawn {
        let mut tally = SolverTally::default();
        // With --verdict: the positions found won, and those found lost.
        let (mut won, mut lost) = (SolverTally::default(), SolverTally::default());
        for p in &logged_dots_positions(log, n)? {
            let mut solver = Solver::new(table_bits);
            let start = Instant::now();
            let budget = Budget::until(Deadline::new(start, Duration::from_secs_f64(cap_s)));
            let value = if verdict {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                let solved = solver.solve(p, &moves, &budget);
                if let Some(solved) = solved {
                    let side = if solved.winning { &mut won } else { &mut lost };
                    side.add(start.elapsed().as_secs_f64(), solver.nodes(), true);
                }
                solved.map(|solved| solved.value)
            } else {
                solver.value(p, &budget)
            };
            if each && !verdict {
                // Final margin for the first player with best play from here.
                let first = p.to_move() == Player::First;
                let so_far = dots::eval::margin(p, Player::First);
                let fin = value.map(|v| so_far + if first { v } else { -v });
                println!("  {n}: first's final margin {fin:?}");
            }
            tally.add(start.elapsed().as_secs_f64(), solver.nodes(), value.is_some());
        }
        let limit = format!("{cap_s} s");
        tally.print(&format!("{n} undrawn"), &limit);
        if verdict {
            won.print("  of which won (a winning move found)", &limit);
            lost.print("  of which lost (every move refuted, the smallest loss found)", &limit);
        }
    }
    Ok(())
}

/// An engine of a bot's registry by name (the default when `None`) with features off.
struct EngineChoice<'a> {
    name: Option<&'a str>,
    without: Without,
}

fn dots_perfect(
    log: &std::path::Path,
    undrawn: &[u32],
    ms: u64,
    engine: &EngineChoice,
    cap_s: f64,
    seed: u64,
    keep_running: bool,
) -> Result<(), String> {
    use botzone_games::engines::dots::{registry, solver::Solver};
    let registry = registry();
    let cap = || Budget::until(Deadline::new(Instant::now(), Duration::from_secs_f64(cap_s)));
    for &n in undrawn {
        let (mut won, mut kept, mut unknown, mut slowest) = (0, 0, 0, Duration::ZERO);
        let positions = logged_dots_lines(log, n)?;
        for (log_line, p, line) in &positions {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            // A fresh engine for each answer, as a bot started once per turn has; kept
            // running, the same engine has answered each of this side's earlier turns of
            // the game first (within the same time; the logged moves are the ones played).
            let mut searcher = registry.searcher(engine.name, &engine.without, seed, 1)?;
            if keep_running {
                let mut q = dots::Position::start();
                for (i, &e) in line.iter().enumerate() {
                    if q.to_move() == p.to_move() {
                        let turn = Budget::until(Deadline::new(Instant::now(), Duration::from_millis(ms)));
                        searcher.choose(&q, &line[..i], &turn);
                    }
                    q.play(e);
                }
            }
            let start = Instant::now();
            let budget = Budget::until(Deadline::new(start, Duration::from_millis(ms)));
            let answer = searcher.choose(p, if keep_running { line } else { &[] }, &budget);
            slowest = slowest.max(start.elapsed());
            let mut solver = Solver::new(22);
            let Some(verdict) = solver.solve(p, &moves, &cap()) else {
                unknown += 1;
                continue;
            };
            if !verdict.winning {
                continue;
            }
            won += 1;
            match solver.solve_in_order(p, &[answer.best], &cap()) {
                Some(s) if s.winning => kept += 1,
                Some(_) => println!(
                    "  {n} undrawn: lost a won position (log line {log_line}): answered {} ({})",
                    answer.best, answer.summary
                ),
                None => unknown += 1,
            }
        }
        println!(
            "{n} undrawn: {} positions, {won} won, the engine kept {kept} of them within {ms} ms (slowest \
             answer {} ms); {unknown} verdicts not reached within {cap_s} s",
            positions.len(),
            slowest.as_millis()
        );
    }
    Ok(())
}

/// Each logged NoGo game as its positions, the start included, every move checked.
fn logged_nogo_games(log: &std::path::Path) -> Result<Vec<(usize, Vec<nogo::Position>)>, String> {
    use botzone_games::botzone::BotzoneGame;
    let mut games = Vec::new();
    for (line, moves) in logged_games(log)? {
        let mut positions = vec![nogo::Position::start()];
        for value in &moves {
            let point = nogo::Position::parse_json_move(value).map_err(|e| format!("line {line}: {e}"))?;
            let point = point.ok_or_else(|| format!("line {line}: a pass in a NoGo game"))?;
            let mut p = *positions.last().expect("the start is there");
            p.try_play(point).map_err(|e| format!("line {line}: {e}"))?;
            positions.push(p);
        }
        games.push((line, positions));
    }
    Ok(games)
}

/// The position of each logged NoGo game after `plies` moves (opening included), where
/// the game went on past it.
fn logged_nogo_positions(log: &std::path::Path, plies: usize) -> Result<Vec<nogo::Position>, String> {
    let games = logged_nogo_games(log)?;
    Ok(games.into_iter().filter(|(_, positions)| positions.len() > plies + 1).map(|(_, p)| p[plies]).collect())
}

fn nogo_trace(log: &std::path::Path, nodes: u64) -> Result<(), String> {
    use botzone_games::engines::nogo::solver::{Proven, Solver};
    let mut solver = Solver::new(8 << 20);
    for (line, positions) in logged_nogo_games(log)? {
        // From the end back, until three positions in a row are beyond the search.
        let mut trace = Vec::new();
        let mut unsolved_run = 0;
        for (ply, p) in positions.iter().enumerate().rev() {
            let winner = match solver.solve(p, &Budget::iterations(nodes)) {
                Some(Proven::Win(_)) => Some(p.to_move()),
                Some(Proven::Loss) => Some(p.to_move().other()),
                None => None,
            };
            trace.push(format!("{ply}{}", winner.map_or("?", |w| if w == Player::First { "B" } else { "W" })));
            unsolved_run = if winner.is_none() { unsolved_run + 1 } else { 0 };
            if unsolved_run == 3 {
                break;
            }
        }
        trace.reverse();
        println!("line {line}: {}", trace.join(" "));
    }
    Ok(())
}

fn nogo_solver(
    log: &std::path::Path,
    plies: &[usize],
    cap_s: f64,
    nodes: Option<u64>,
    each: bool,
    alpha_beta: bool,
) -> Result<(), String> {
    use botzone_games::engines::nogo::late_solver;
    use botzone_games::engines::nogo::solver::{Proven, Solver};
    use botzone_games::search::alphabeta::WIN;
    let mut moves = Vec::new();
    for &ply in plies {
        let mut tally = SolverTally::default();
        for p in &logged_nogo_positions(log, ply)? {
            let start = Instant::now();
            let budget = match nodes {
                Some(n) => Budget::iterations(n),
                None => Budget::until(Deadline::new(start, Duration::from_secs_f64(cap_s))),
            };
            let (value, nodes) = if alpha_beta {
                p.legal_moves(&mut moves);
                let mut solver = late_solver();
                let (score, _, _) = solver.iterate(p, &moves, &budget);
                let value = (score.abs() >= WIN / 2).then_some(score > 0);
                (value, solver.nodes())
            } else {
                let mut solver = Solver::new(8 << 20);
                let proven = solver.solve(p, &budget);
                (proven.map(|v| v != Proven::Loss), solver.nodes())
            };
            let seconds = start.elapsed().as_secs_f64();
            if each {
                let legal = p.legal_for_both();
                let me = p.to_move().index();
                let value = match value {
                    Some(true) => "win",
                    Some(false) => "loss",
                    None => "unsolved",
                };
                println!(
                    "  ply {ply}: {} legal for the side to move, {} for the other: {value} in {seconds:.2} s",
                    legal[me].count(),
                    legal[1 - me].count(),
                );
            }
            tally.add(seconds, nodes, value.is_some());
        }
        let limit = nodes.map_or(format!("{cap_s} s"), |n| format!("{n} nodes"));
        tally.print(&format!("ply {ply}"), &limit);
    }
    Ok(())
}

fn main() {
    let result = match Cli::parse().command {
        Command::Mmcts { games, ms, iterations } => {
            let budgets: Vec<PerMove> = if iterations.is_empty() {
                ms.into_iter().map(PerMove::Ms).collect()
            } else {
                iterations.into_iter().map(PerMove::Iterations).collect()
            };
            mmcts_experiment(games, &budgets);
            Ok(())
        }
        Command::ParallelMatch { per_worker, ratios, games, per_cell, seed, csv } => {
            parallel_match(&games, &per_worker, &ratios, per_cell, seed, &csv)
        }
        Command::Parallel { iterations, workers, csv } => parallel_experiment(iterations, &workers, csv.as_deref()),
        Command::Texel { games, nodes, seed } => {
            texel(games, nodes, seed);
            Ok(())
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
            mmcts_paper(&cells, per_cell, jobs, &csv)
        }
        Command::Figures { dir } => arena::figures::draw_all(&dir).map(|files| {
            for f in files {
                println!("{}", f.display());
            }
        }),
        Command::DotsSolver { log, undrawn, cap_s, table_bits, each, verdict } => {
            dots_solver(&log, &undrawn, cap_s, table_bits, each, verdict)
        }
        Command::DotsPerfect { log, undrawn, ms, engine, without, cap_s, seed, keep_running } => {
            let engine = EngineChoice { name: engine.as_deref(), without: Without(without) };
            dots_perfect(&log, &undrawn, ms, &engine, cap_s, seed, keep_running)
        }
        Command::NogoSolver { log, plies, cap_s, nodes, each, alpha_beta } => {
            nogo_solver(&log, &plies, cap_s, nodes, each, alpha_beta)
        }
        Command::NogoTrace { log, nodes } => nogo_trace(&log, nodes),
        Command::Overrun { game, bot, answers, time_ms, seed } => {
            with_game!(game, G => overrun::<G>(&bot, answers, time_ms, seed))
        }
    };
    if let Err(e) = result {
        eprintln!("experiments: {e}");
        std::process::exit(2);
    }
}
