//! Self-play games of an `ataxx` engine at a fixed node count under Botzone's rules (no
//! pass: a blocked side ends the game and the other takes the empties; the move cap;
//! CIRCULAR_MOVE), from openings of a few random plies, appended to a record file.
//! With `from`, each game starts instead at a position drawn from another record file
//! (say, one with 20-30 empty squares), so that endgames can be played out and labelled
//! by a deeper search than the one that reached them.
//!
//! A run is a seed and a count of games (`botzone_games::selfplay`): game g builds its own
//! engine and draws its own random numbers from the seed and g, and the games are written
//! in their order, so the same command writes the same file whatever the threads, and the
//! files of shards K/N, concatenated in order, are the whole run's. A position is written
//! once per game (a repetition is not written again); `train` drops the positions met in
//! more than one game. Resumable: an existing file's whole games count as the run's first
//! games (a torn last game is cut off) and the run goes on after them.

use crate::record::{read_file, Record, GAME_END, PROVEN, RECORD_BYTES};
use botzone_games::ataxx::net::Network;
use botzone_games::ataxx::Position;
use botzone_games::engines::ataxx::{ab_with, registry};
use botzone_games::engines::{OnModel, Without};
use botzone_games::game::{mix64, Game, Outcome, Player};
use botzone_games::search::{Budget, Engine, Score};
use botzone_games::selfplay::play_in_order;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

pub struct DatagenConfig {
    pub out: PathBuf,
    /// The run's games this file holds (a shard's, or all of them).
    pub games: Range<u64>,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Random plies at the start of each game: a number in this range.
    pub random_plies: (usize, usize),
    pub engine: String,
    pub without: Without,
    /// A network file for `ab` in place of the embedded network.
    pub net: Option<PathBuf>,
    /// Games start at positions of this record file whose empty squares lie in `empties`
    /// (then `random_plies` random plies), instead of at the start position.
    pub from: Option<PathBuf>,
    pub empties: (usize, usize),
}

pub fn datagen(cfg: &DatagenConfig) -> Result<(), String> {
    let registry = registry();
    registry.check(Some(&cfg.engine), &cfg.without)?;
    // Read once; leaked so that every game's engine can borrow it for the whole run.
    let network: Option<&'static Network> = match &cfg.net {
        Some(_) if cfg.engine != "ab" => return Err(format!("--net is for the ab engine, not {}", cfg.engine)),
        Some(path) => Some(Box::leak(Box::new(crate::read_network(path)?))),
        None => None,
    };
    let (existing, whole_len) = if cfg.out.exists() { read_file(&cfg.out)? } else { (Vec::new(), 0) };
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    // Cut a torn last game so that the file stays a sequence of whole games.
    file.set_len(whole_len).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    let games_before = existing.iter().filter(|r| r.ends_game()).count() as u64;
    let positions_before = existing.len() as u64;
    drop(existing);
    let games = (cfg.games.start + games_before).min(cfg.games.end)..cfg.games.end;
    let starts = match &cfg.from {
        Some(path) => {
            let starts = start_positions_in(path, cfg.empties)?;
            println!("{}: {} start positions with {:?} empty squares", path.display(), starts.len(), cfg.empties);
            Some(starts)
        }
        None => None,
    };
    println!(
        "{}: {positions_before} positions in {games_before} games already; games {games:?} to play, engine {} at \
         {} nodes, {} threads",
        cfg.out.display(),
        cfg.engine,
        cfg.nodes,
        cfg.threads
    );
    let added = AtomicU64::new(0);
    let bar = ProgressBar::new(games.end - games.start);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta} {msg}").expect("a valid template"),
    );
    let started = Instant::now();
    let play = |game: u64| {
        let seed = mix64(cfg.seed ^ mix64(game));
        let mut engine: Box<dyn Engine<Position>> = match network {
            Some(net) => Box::new(OnModel::new(ab_with(&cfg.without, net))),
            None => registry.find(Some(&cfg.engine)).and_then(|spec| spec.build(seed, &cfg.without))?,
        };
        let mut records = play_game(cfg, engine.as_mut(), &registry, starts.as_deref(), seed);
        let mut seen = HashSet::new();
        records.retain(|r| seen.insert((r.own.0, r.opp.0)));
        if let Some(last) = records.last_mut() {
            last.flags |= GAME_END;
        }
        added.fetch_add(records.len() as u64, Ordering::Relaxed);
        Ok(records.iter().flat_map(Record::encode).collect())
    };
    play_in_order(games.clone(), cfg.threads, play, |_, bytes| {
        file.write_all(bytes).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
        bar.inc(1);
        bar.set_message(format!("{} positions", added.load(Ordering::Relaxed)));
        Ok(())
    })?;
    bar.finish();
    let added = added.into_inner();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "added {added} positions in {} games in {secs:.0} s ({:.0} positions/s); file: {} positions, {} bytes",
        games.end - games.start,
        added as f64 / secs,
        positions_before + added,
        (positions_before + added) * RECORD_BYTES as u64
    );
    Ok(())
}

/// The positions of the record file at `path` with `empties.0..=empties.1` empty squares,
/// each once, the side to move as the first player. They carry no history, so the move cap
/// and the repetition rule count from there.
fn start_positions_in(path: &std::path::Path, empties: (usize, usize)) -> Result<Vec<Position>, String> {
    let (records, _) = read_file(path)?;
    let mut seen = HashSet::new();
    let starts: Vec<Position> = records
        .iter()
        .filter(|r| (empties.0..=empties.1).contains(&(r.empties() as usize)))
        .filter(|r| seen.insert((r.own.0, r.opp.0)))
        .map(|r| Position::from_parts(r.own, r.opp, Player::First, 0))
        .filter(|p| p.outcome().is_none())
        .collect();
    if starts.is_empty() {
        return Err(format!("{}: no position with {empties:?} empty squares", path.display()));
    }
    Ok(starts)
}

/// One self-play game, from the start or from one of `starts`: the searched positions,
/// each with its score and the result for its side to move.
fn play_game(
    cfg: &DatagenConfig,
    engine: &mut dyn Engine<Position>,
    registry: &botzone_games::engines::Registry<Position>,
    starts: Option<&[Position]>,
    seed: u64,
) -> Vec<Record> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let random_plies = rng.usize(cfg.random_plies.0..=cfg.random_plies.1);
    // Drawn after the plies, so that games from the start take the random numbers they
    // took before `--from` existed.
    let mut pos = match starts {
        Some(starts) => starts[rng.usize(..starts.len())].clone(),
        None => Position::start(),
    };
    let mut history = Vec::new();
    let mut searched: Vec<(Record, Player)> = Vec::new();
    while pos.outcome().is_none() {
        let moves = registry.root_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = if history.len() < random_plies {
            moves[rng.usize(..moves.len())]
        } else {
            engine.set_history(&history);
            let result = engine.search(&pos, &moves, &Budget::iterations(cfg.nodes));
            let me = pos.to_move();
            let score = match result.score {
                Some(Score::Centi(c)) => c.clamp(-(PROVEN as i32 - 1), PROVEN as i32 - 1) as i16,
                Some(Score::WinIn(_)) => PROVEN,
                Some(Score::LossIn(_)) => -PROVEN,
                _ => 0,
            };
            let record = Record { own: pos.pieces(me), opp: pos.pieces(me.other()), score, result: 0, flags: 0 };
            searched.push((record, me));
            result.best
        };
        history.push(mv);
        pos.play(mv);
    }
    let outcome = pos.outcome().unwrap_or(Outcome::Draw);
    searched
        .into_iter()
        .map(|(mut r, side)| {
            r.result = match outcome {
                Outcome::Draw => 0,
                Outcome::Win(p) if p == side => 1,
                Outcome::Win(_) => -1,
            };
            r
        })
        .collect()
}
