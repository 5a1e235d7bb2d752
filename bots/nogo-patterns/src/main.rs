//! `nogo-patterns`: the NoGo bot's pattern prior, made from scratch.
//!
//! `nogo-patterns datagen --out FILE --games N [--shard K/N]`: self-play of the `mcts`
//! engine at a fixed number of simulations; each position is kept with the root's visit
//! counts. Game g of a run always plays the same (its seed is the run's seed and g), and
//! the file holds the games in their order, so shards concatenated are the whole run.
//! `nogo-patterns train --data FILE... --out TABLE`: one weight per 3x3 neighbourhood
//! class (`botzone_games::nogo::patterns`), fitted so that a softmax over the legal
//! points reproduces the search's visit shares; written as one signed byte per
//! neighbourhood for `shared/src/engines/nogo/patterns.bin`. The commands that made the shipped table are in
//! docs/lab/nogo-search.md.

use botzone_games::engines::nogo::{registry, PATTERN_SCALE};
use botzone_games::engines::Without;
use botzone_games::game::Game;
use botzone_games::nogo::patterns::{canonical, Surroundings, PATTERNS};
use botzone_games::nogo::{GroupBoard, Position};
use botzone_games::search::Budget;
use botzone_games::selfplay::{parse_shard, play_in_order, shard_games};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Parser)]
#[command(name = "nogo-patterns", about = "Self-play data and training for the NoGo bot's pattern prior")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Appends self-play games to a record file.
    Datagen {
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// MCTS simulations per move.
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies that open each game: at most this many (at least 1).
        #[arg(long, default_value_t = 6)]
        random_plies: usize,
        /// Features of the `mcts` engine switched off, as the bot's `--without`.
        #[arg(long, value_delimiter = ',')]
        without: Vec<String>,
        /// Plays only shard K of N (0-based) of the run's games: the K-th of N equal runs of
        /// consecutive games. The shards' files, concatenated in order 0..N, are the file the
        /// whole run writes, so any batch runner can make the data on many machines.
        #[arg(long, value_name = "K/N", value_parser = parse_shard)]
        shard: Option<(u64, u64)>,
    },
    /// Fits the pattern weights on record files and writes the table.
    Train {
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 8)]
        epochs: usize,
        #[arg(long, default_value_t = 0.05)]
        lr: f32,
        /// Pull of each weight towards 0, per update.
        #[arg(long, default_value_t = 1e-4)]
        l2: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// One position: each root move's neighbourhood (its raw pattern index, as the side to
/// move sees it) and its visits.
struct Sample {
    moves: Vec<(u32, u32)>,
}

impl Sample {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(u8::try_from(self.moves.len()).expect("at most 81 moves"));
        for &(pattern, visits) in &self.moves {
            out.extend_from_slice(&pattern.to_le_bytes());
            out.extend_from_slice(&visits.to_le_bytes());
        }
    }

    fn read_all(bytes: &[u8]) -> Result<Vec<Sample>, String> {
        let mut samples = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            let n = usize::from(bytes[at]);
            let body = bytes.get(at + 1..at + 1 + 8 * n).ok_or_else(|| format!("record cut short at byte {at}"))?;
            let word = |k: usize| u32::from_le_bytes(body[4 * k..4 * k + 4].try_into().expect("4 bytes"));
            let moves: Vec<(u32, u32)> = (0..n).map(|i| (word(2 * i), word(2 * i + 1))).collect();
            if moves.iter().any(|&(pattern, _)| pattern as usize >= PATTERNS) {
                return Err(format!("a pattern index out of range at byte {at}"));
            }
            samples.push(Sample { moves });
            at += 1 + 8 * n;
        }
        Ok(samples)
    }
}

fn datagen(
    out: &PathBuf,
    games: std::ops::Range<u64>,
    nodes: u64,
    threads: usize,
    seed: u64,
    random_plies: usize,
    without: &Without,
) -> Result<(), String> {
    let registry = registry();
    registry.check(Some("mcts"), without)?;
    let mut file =
        OpenOptions::new().create(true).append(true).open(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let positions = AtomicU64::new(0);
    let bar = ProgressBar::new(games.end - games.start);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg} [{elapsed} < {eta}]").expect("style"),
    );
    let play = |game: u64| {
        let samples = play_game(&registry, without, nodes, seed ^ game.wrapping_mul(0x9E37_79B9), random_plies)?;
        positions.fetch_add(samples.len() as u64, Ordering::Relaxed);
        let mut bytes = Vec::new();
        samples.iter().for_each(|s| s.write(&mut bytes));
        Ok(bytes)
    };
    play_in_order(games.clone(), threads, play, |_, bytes| {
        file.write_all(bytes).map_err(|e| format!("{}: {e}", out.display()))?;
        bar.set_message(format!("{} positions", positions.load(Ordering::Relaxed)));
        bar.inc(1);
        Ok(())
    })?;
    bar.finish();
    println!("{}: {} positions added in games {games:?}", out.display(), positions.into_inner());
    Ok(())
}

fn play_game(
    registry: &botzone_games::engines::Registry<Position>,
    without: &Without,
    nodes: u64,
    seed: u64,
    random_plies: usize,
) -> Result<Vec<Sample>, String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut searcher = registry.searcher(Some("mcts"), without, seed, 1)?;
    let mut position = Position::start();
    let mut history = Vec::new();
    let mut samples = Vec::new();
    let opening = rng.usize(1..=random_plies.max(1));
    loop {
        // The bot's own root rule (it never opens at the centre) for the random plies too.
        let moves = registry.root_moves(&position);
        if moves.is_empty() {
            return Ok(samples);
        }
        let mv = if history.len() < opening {
            moves[rng.usize(..moves.len())]
        } else {
            let result = searcher.choose(&position, &history, &Budget::iterations(nodes));
            if result.root_stats.len() > 1 && result.root_stats.iter().any(|&(_, v, _)| v > 0) {
                let around = Surroundings::new(&GroupBoard::new(&position), position.to_move());
                let moves = result
                    .root_stats
                    .iter()
                    .map(|&(p, v, _)| (around.pattern(p), u32::try_from(v).unwrap_or(u32::MAX)))
                    .collect();
                samples.push(Sample { moves });
            }
            result.best
        };
        history.push(mv);
        position.play(mv);
    }
}

/// A position ready for training: each move's class and its share of the visits.
struct Example {
    classes: Vec<u32>,
    targets: Vec<f32>,
}

fn train(data: &[PathBuf], out: &PathBuf, epochs: usize, lr: f32, l2: f32, seed: u64) -> Result<(), String> {
    let mut samples = Vec::new();
    for path in data {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        samples.extend(Sample::read_all(&bytes).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    // A dense id for each class seen, keyed by the class's canonical index.
    let mut ids: HashMap<u32, u32> = HashMap::new();
    let examples: Vec<Example> = samples
        .iter()
        .map(|s| {
            let total: f32 = s.moves.iter().map(|&(_, v)| v as f32).sum();
            let classes = s
                .moves
                .iter()
                .map(|&(pattern, _)| {
                    let class = canonical(pattern);
                    let next = ids.len() as u32;
                    *ids.entry(class).or_insert(next)
                })
                .collect();
            Example { classes, targets: s.moves.iter().map(|&(_, v)| v as f32 / total).collect() }
        })
        .collect();
    let held_out = examples.len() / 20;
    let (fit, test) = examples.split_at(examples.len() - held_out);
    println!("{} positions ({} held out), {} classes", examples.len(), held_out, ids.len());
    let mut w = vec![0f32; ids.len()];
    let mut order: Vec<usize> = (0..fit.len()).collect();
    let mut rng = fastrand::Rng::with_seed(seed);
    report("uniform", &w, test);
    for epoch in 1..=epochs {
        rng.shuffle(&mut order);
        let mut probs = Vec::new();
        for &i in &order {
            let e = &fit[i];
            softmax(&w, &e.classes, &mut probs);
            for ((&c, &p), &t) in e.classes.iter().zip(&probs).zip(&e.targets) {
                let wc = &mut w[c as usize];
                *wc -= lr * (p - t + l2 * *wc);
            }
        }
        report(&format!("epoch {epoch}"), &w, test);
    }
    // Centre the weights on the mean candidate, so that an average point's prior is 0.
    let (sum, count) =
        fit.iter().flat_map(|e| &e.classes).fold((0f64, 0u64), |(s, n), &c| (s + f64::from(w[c as usize]), n + 1));
    let centre = (sum / count.max(1) as f64) as f32;
    let mut table = vec![0u8; PATTERNS];
    for (raw, byte) in table.iter_mut().enumerate() {
        if let Some(&id) = ids.get(&canonical(raw as u32)) {
            let q = ((w[id as usize] - centre) * PATTERN_SCALE).round().clamp(-127.0, 127.0) as i8;
            *byte = q as u8;
        }
    }
    std::fs::write(out, &table).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{}: {} bytes (centre {centre:.3})", out.display(), table.len());
    Ok(())
}

fn softmax(w: &[f32], classes: &[u32], probs: &mut Vec<f32>) {
    probs.clear();
    probs.extend(classes.iter().map(|&c| w[c as usize]));
    let max = probs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for p in probs.iter_mut() {
        *p = (*p - max).exp();
        sum += *p;
    }
    probs.iter_mut().for_each(|p| *p /= sum);
}

/// Held-out cross-entropy against the visit shares, and how often the highest weight is
/// the most visited move.
fn report(label: &str, w: &[f32], test: &[Example]) {
    let (mut loss, mut hits) = (0f64, 0f64);
    let mut probs = Vec::new();
    for e in test {
        softmax(w, &e.classes, &mut probs);
        loss -= e.targets.iter().zip(&probs).map(|(&t, &p)| f64::from(t) * f64::from(p.max(1e-9)).ln()).sum::<f64>();
        // The most visited move's share of first place (shared with any equal weight).
        let best = (0..e.targets.len()).max_by(|&a, &b| e.targets[a].total_cmp(&e.targets[b])).unwrap_or(0);
        let top = probs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        if probs[best] >= top {
            hits += 1.0 / probs.iter().filter(|&&p| p >= top).count() as f64;
        }
    }
    let n = test.len().max(1);
    println!(
        "{label}: held-out cross-entropy {:.4}, most visited move ranked first {:.1}%",
        loss / n as f64,
        100.0 * hits / n as f64
    );
}

fn main() {
    let outcome = match Cli::parse().command {
        Command::Datagen { out, games, nodes, threads, seed, random_plies, without, shard } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
            let games = shard_games(shard.unwrap_or((0, 1)), games);
            datagen(&out, games, nodes, threads, seed, random_plies, &Without(without))
        }
        Command::Train { data, out, epochs, lr, l2, seed } => train(&data, &out, epochs, lr, l2, seed),
    };
    if let Err(e) = outcome {
        eprintln!("nogo-patterns: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_as_written_and_a_cut_record_is_an_error() {
        let samples = [Sample { moves: vec![(7, 100), (331_775, 0)] }, Sample { moves: vec![(0, 3)] }];
        let mut bytes = Vec::new();
        samples.iter().for_each(|s| s.write(&mut bytes));
        let back = Sample::read_all(&bytes).expect("whole records");
        assert_eq!(
            back.iter().map(|s| s.moves.clone()).collect::<Vec<_>>(),
            vec![samples[0].moves.clone(), samples[1].moves.clone()]
        );
        assert!(Sample::read_all(&bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn the_same_seed_writes_the_same_file_whatever_the_threads_or_shards() {
        let dir = std::env::temp_dir();
        let path = |name: &str| dir.join(format!("nogo-patterns-test-{}-{name}.bin", std::process::id()));
        let run = |name: &str, games, threads| {
            let out = path(name);
            let _ = std::fs::remove_file(&out);
            datagen(&out, games, 40, threads, 9, 6, &Without::default()).expect("datagen");
            let bytes = std::fs::read(&out).expect("written");
            let _ = std::fs::remove_file(&out);
            bytes
        };
        let whole = run("whole", 0..5, 1);
        assert!(!whole.is_empty());
        assert_eq!(run("threads", 0..5, 2), whole);
        // Three shards of the five games, concatenated in order: the whole run's file.
        let shards: Vec<u8> = (0..3).flat_map(|k| run(&format!("shard{k}"), shard_games((k, 3), 5), 2)).collect();
        assert_eq!(shards, whole);
    }
}
