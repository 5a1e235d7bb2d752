//! Self-play games of an `ataxx` engine at a fixed node count under Botzone's rules (no
//! pass: a blocked side ends the game and the other takes the empties; the move cap;
//! CIRCULAR_MOVE), from openings of a few random plies, appended to a record file.
//! With `from`, each game starts instead at a position drawn from another record file
//! (say, one with 20-30 empty squares), so that endgames can be played out and labelled
//! by a deeper search than the one that reached them.
//!
//! Resumable: an existing file's whole games are kept (a torn last game is cut off), its
//! positions seed the duplicate filter, and game numbering continues after the games it
//! holds, so a rerun with the same seed adds new games. Every position is written once
//! per file (the first time any game reaches it).

use crate::record::{read_file, Record, GAME_END, PROVEN, RECORD_BYTES};
use botzone_games::ataxx::Position;
use botzone_games::engines::{ataxx::registry, Without};
use botzone_games::game::{mix64, Game, Outcome, Player};
use botzone_games::search::{Budget, Score};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

pub struct DatagenConfig {
    pub out: PathBuf,
    /// Stop when the file holds this many positions.
    pub positions: u64,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Random plies at the start of each game: a number in this range.
    pub random_plies: (usize, usize),
    pub engine: String,
    pub without: Without,
    /// Games start at positions of this record file whose empty squares lie in `empties`
    /// (then `random_plies` random plies), instead of at the start position.
    pub from: Option<PathBuf>,
    pub empties: (usize, usize),
}

/// What the writer threads share: the open file, the positions seen, the counts, and the
/// first write error (which stops every thread).
struct Sink {
    file: std::fs::File,
    seen: HashSet<(u64, u64)>,
    positions: u64,
    games: u64,
    error: Option<String>,
}

pub fn datagen(cfg: &DatagenConfig) -> Result<(), String> {
    let registry = registry();
    registry.check(Some(&cfg.engine), &cfg.without)?;
    let (existing, whole_len) = if cfg.out.exists() { read_file(&cfg.out)? } else { (Vec::new(), 0) };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    // Cut a torn last game so that the file stays a sequence of whole games.
    file.set_len(whole_len).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    let games_before = existing.iter().filter(|r| r.ends_game()).count() as u64;
    let seen: HashSet<(u64, u64)> = existing.iter().map(|r| (r.own.0, r.opp.0)).collect();
    let start_positions = existing.len() as u64;
    drop(existing);
    let starts = match &cfg.from {
        Some(path) => {
            let starts = start_positions_in(path, cfg.empties)?;
            println!("{}: {} start positions with {:?} empty squares", path.display(), starts.len(), cfg.empties);
            Some(starts)
        }
        None => None,
    };
    println!(
        "{}: {start_positions} positions in {games_before} games already; engine {} at {} nodes, {} threads",
        cfg.out.display(),
        cfg.engine,
        cfg.nodes,
        cfg.threads
    );
    let sink = Mutex::new(Sink { file, seen, positions: start_positions, games: games_before, error: None });
    let next_game = AtomicU64::new(games_before);
    let bar = ProgressBar::new(cfg.positions);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions {per_sec} eta {eta} {msg}")
            .expect("a valid template"),
    );
    bar.set_position(start_positions);
    let started = Instant::now();
    std::thread::scope(|s| {
        for t in 0..cfg.threads {
            let (sink, next_game, bar, registry, starts) = (&sink, &next_game, &bar, &registry, &starts);
            s.spawn(move || {
                let mut engine = registry
                    .find(Some(&cfg.engine))
                    .and_then(|spec| spec.build(cfg.seed ^ t as u64, &cfg.without))
                    .expect("checked above");
                loop {
                    {
                        let sink = sink.lock().unwrap();
                        if sink.positions >= cfg.positions || sink.error.is_some() {
                            break;
                        }
                    }
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    let records = play_game(cfg, engine.as_mut(), registry, starts.as_deref(), game);
                    let mut sink = sink.lock().unwrap();
                    let mut fresh: Vec<Record> =
                        records.into_iter().filter(|r| sink.seen.insert((r.own.0, r.opp.0))).collect();
                    if let Some(last) = fresh.last_mut() {
                        last.flags |= GAME_END;
                    }
                    let bytes: Vec<u8> = fresh.iter().flat_map(Record::encode).collect();
                    if let Err(e) = sink.file.write_all(&bytes) {
                        sink.error = Some(format!("{}: {e}", cfg.out.display()));
                        break;
                    }
                    sink.positions += fresh.len() as u64;
                    sink.games += 1;
                    bar.set_position(sink.positions.min(cfg.positions));
                    bar.set_message(format!("{} games", sink.games));
                }
            });
        }
    });
    bar.finish();
    let sink = sink.into_inner().unwrap();
    if let Some(e) = sink.error {
        return Err(format!("stopped: {e}"));
    }
    let added = sink.positions - start_positions;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "added {added} positions in {} games in {secs:.0} s ({:.0} positions/s); file: {} positions, {} bytes",
        sink.games - games_before,
        added as f64 / secs,
        sink.positions,
        sink.positions * RECORD_BYTES as u64
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
    engine: &mut dyn botzone_games::search::Engine<Position>,
    registry: &botzone_games::engines::Registry<Position>,
    starts: Option<&[Position]>,
    game: u64,
) -> Vec<Record> {
    let mut rng = fastrand::Rng::with_seed(mix64(cfg.seed ^ mix64(game)));
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
