//! `ataxx-net`: the Ataxx bot's learned evaluation, made from scratch.
//!
//! `ataxx-net datagen --out FILE --games N [--shard K/N] [--net NET]`: self-play records
//! (see `record.rs`); the same command writes the same file on any machine, and shards
//! concatenated in order are the whole run.
//! `ataxx-net train --data FILE... --out NET`: a network file for `shared/src/ataxx/`.
//! `ataxx-net dump --data FILE`: records as text (FEN, network value, search score, result).
//! `ataxx-net widen --net NET --out WIDE`: a network of half this build's width, doubled.
//! `ataxx-net refresh --net WIDE --out FRESH`: a widened network's copies merged, half its
//! units drawn afresh.
//! The commands that made the shipped network are in docs/lab/ataxx-network.md.

use ataxx_net::{datagen, dump, train, widen};
use botzone_games::engines::Without;
use botzone_games::selfplay::{parse_shard, shard_games};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "ataxx-net", about = "Self-play data and training for the Ataxx bot's learned evaluation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

#[derive(Subcommand)]
enum Command {
    /// Appends a run's self-play games to a record file (resumes an existing file after
    /// the games it holds).
    Datagen {
        #[arg(long)]
        out: PathBuf,
        /// Games in the run (about 50-75 positions each from the start position).
        #[arg(long)]
        games: u64,
        /// Plays only shard K of N (0-based) of the run's games: the K-th of N equal runs of
        /// consecutive games. The shards' files, concatenated in order 0..N, are the file the
        /// whole run writes, so any batch runner can make the data on many machines.
        #[arg(long, value_name = "K/N", value_parser = parse_shard)]
        shard: Option<(u64, u64)>,
        /// Alpha-beta nodes per move.
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fewest and most random plies that open each game, as `A,B`.
        #[arg(long, default_value = "4,10", value_parser = number_pair)]
        random_plies: (usize, usize),
        /// The `ataxx` engine that plays (`ataxx --help` lists them).
        #[arg(long, default_value = "ab")]
        engine: String,
        /// Features of the engine switched off, as the bot's `--without`.
        #[arg(long, value_delimiter = ',')]
        without: Vec<String>,
        /// A network file (`train --out`) for `ab` in place of the one built in: self-play
        /// of a network not yet shipped, for the next generation's data.
        #[arg(long)]
        net: Option<PathBuf>,
        /// Start each game at a position of this record file (one with `--empties` empty
        /// squares, drawn at random) instead of the start position: endgames played out
        /// again by a deeper search.
        #[arg(long)]
        from: Option<PathBuf>,
        /// Fewest and most empty squares of the start positions taken `--from`, as `A,B`.
        #[arg(long, default_value = "20,30", value_parser = number_pair, requires = "from")]
        empties: (usize, usize),
    },
    /// Trains a network on record files and writes it.
    Train {
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Weight of the game's result in the target; the rest is the search score.
        #[arg(long, default_value_t = 0.5)]
        result_weight: f32,
        /// The score half of the target as a lambda-return over the game's later search
        /// scores (0: the position's own score; 1: the result).
        #[arg(long, default_value_t = 0.0)]
        td_lambda: f32,
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from this network file's weights (fine-tuning) instead of random ones.
        #[arg(long)]
        init: Option<PathBuf>,
        /// Without the factoriser (a row per window state shared by all windows, folded
        /// into the network when it is written).
        #[arg(long)]
        no_factoriser: bool,
    },
    /// Prints records as text, one per line: FEN (the side to move as `x`), the network's
    /// value, the search score and the result, all for the side to move.
    Dump {
        #[arg(long)]
        data: PathBuf,
        /// The network file to evaluate with (default: the shipped one).
        #[arg(long)]
        net: Option<PathBuf>,
        /// Print every N-th record.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// At most this many lines.
        #[arg(long, default_value_t = usize::MAX)]
        limit: usize,
    },
    /// Writes a widened network (`widen`, then trained) with each pair of copies merged into
    /// one unit and the other unit of the pair drawn afresh (random input weights, output
    /// weight 0: the merged network's values), to be fine-tuned with `train --init`.
    Refresh {
        #[arg(long)]
        net: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Seeds the new units' input weights.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Writes a network of this build's width that gives nearly the values of a network
    /// file half as wide (each unit doubled, its output weight split unevenly, a small
    /// noise on the copies' input weights), to be fine-tuned with `train --init`.
    Widen {
        #[arg(long)]
        net: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Seeds the split of the output weights and the noise.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The largest change of a copied input weight, in 1/255 (0: the same values
        /// exactly, but copies that train alike).
        #[arg(long, default_value_t = 2)]
        noise: u8,
    },
}

/// Reads the network file `net`, makes a network of it with `make` and writes that to
/// `out`; an error names the file it concerns.
fn rewrite_network(
    net: &std::path::Path,
    out: &std::path::Path,
    make: impl FnOnce(&[u8]) -> Result<botzone_games::ataxx::net::Network, String>,
) -> Result<(), String> {
    let bytes = std::fs::read(net).map_err(|e| format!("{}: {e}", net.display()))?;
    let made = make(&bytes).map_err(|e| format!("{}: {e}", net.display()))?;
    std::fs::write(out, made.to_bytes()).map_err(|e| format!("{}: {e}", out.display()))
}

/// `A,B` with A <= B.
fn number_pair(text: &str) -> Result<(usize, usize), String> {
    let parse = |s: &str| s.trim().parse::<usize>().map_err(|e| format!("{s:?}: {e}"));
    match text.split_once(',') {
        Some((a, b)) if parse(a)? <= parse(b)? => Ok((parse(a)?, parse(b)?)),
        Some(_) => Err(format!("{text:?}: the smaller number comes first")),
        None => Err(format!("{text:?}: expected two numbers as A,B")),
    }
}

fn main() {
    let outcome = match Cli::parse().command {
        Command::Datagen {
            out,
            games,
            shard,
            nodes,
            threads,
            seed,
            random_plies,
            engine,
            without,
            net,
            from,
            empties,
        } => datagen::datagen(&datagen::DatagenConfig {
            out,
            games: shard_games(shard.unwrap_or((0, 1)), games),
            nodes,
            threads: threads.unwrap_or_else(cores).max(1),
            seed,
            random_plies,
            engine,
            without: Without(without),
            net,
            from,
            empties,
        }),
        Command::Train {
            data,
            out,
            epochs,
            batch,
            lr,
            result_weight,
            td_lambda,
            threads,
            seed,
            init,
            no_factoriser,
        } => train::train(&train::TrainConfig {
            data,
            out,
            epochs,
            batch: batch.max(1),
            lr,
            result_weight: result_weight.clamp(0.0, 1.0),
            td_lambda: td_lambda.clamp(0.0, 1.0),
            threads: threads.unwrap_or_else(cores).max(1),
            seed,
            init,
            factoriser: !no_factoriser,
        }),
        Command::Refresh { net, out, seed } => rewrite_network(&net, &out, |bytes| widen::refresh(bytes, seed)),
        Command::Dump { data, net, every, limit } => dump::dump(&dump::DumpConfig { data, net, every, limit }),
        Command::Widen { net, out, seed, noise } => {
            rewrite_network(&net, &out, |bytes| widen::widen(bytes, seed, noise))
        }
    };
    if let Err(e) = outcome {
        eprintln!("ataxx-net: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::number_pair;

    #[test]
    fn ranges_are_read_as_two_comma_separated_numbers() {
        assert_eq!(number_pair("6,14"), Ok((6, 14)));
        assert_eq!(number_pair("4, 4"), Ok((4, 4)));
        assert!(number_pair("6").is_err());
        assert!(number_pair("14,6").is_err());
        assert!(number_pair("a,6").is_err());
    }
}
