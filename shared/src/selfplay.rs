//! Numbered self-play games for the data tools (`ataxx-net`, `nogo-patterns`): run on
//! threads, written in their numbered order, and split into shards of consecutive games.
//!
//! A run is a seed and a count of games; game g plays the same whatever the threads or the
//! machine (each game seeds its own engine and random numbers from the run's seed and g),
//! so the file a run writes depends on nothing else. Shard K of N is the K-th of N equal
//! runs of consecutive games: shards made on many machines, concatenated in order 0..N,
//! are byte for byte the file of the whole run.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Reads `K/N` (0 <= K < N), as a `--shard` argument.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("{text:?}: a shard is K/N with 0 <= K < N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n) = (k.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
    if k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The games of shard `k` of `n` in a run of `games`: consecutive, the shards in order
/// covering every game once.
pub fn shard_games((k, n): (u64, u64), games: u64) -> Range<u64> {
    k * games / n..(k + 1) * games / n
}

/// Plays `games` on `threads` threads (`play(g)` gives game g's bytes) and hands each
/// game's bytes to `write` in the games' order, as soon as every earlier game is written.
/// The first error (of `play` or `write`) stops the run and is returned.
pub fn play_in_order<P, W>(games: Range<u64>, threads: usize, play: P, write: W) -> Result<(), String>
where
    P: Fn(u64) -> Result<Vec<u8>, String> + Sync,
    W: FnMut(u64, &[u8]) -> Result<(), String> + Send,
{
    struct Sink<W> {
        write: W,
        /// The next game to write, and the games finished before it.
        next: u64,
        finished: BTreeMap<u64, Vec<u8>>,
        error: Option<String>,
    }
    let sink = Mutex::new(Sink { write, next: games.start, finished: BTreeMap::new(), error: None });
    let next_game = AtomicU64::new(games.start);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let game = next_game.fetch_add(1, Ordering::Relaxed);
                if game >= games.end || sink.lock().expect("sink").error.is_some() {
                    return;
                }
                let played = play(game);
                let mut guard = sink.lock().expect("sink");
                let sink = &mut *guard;
                let bytes = match played {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        sink.error.get_or_insert(e);
                        return;
                    }
                };
                sink.finished.insert(game, bytes);
                while let Some(bytes) = sink.finished.remove(&sink.next) {
                    let g = sink.next;
                    if let Err(e) = (sink.write)(g, &bytes) {
                        sink.error.get_or_insert(e);
                        return;
                    }
                    sink.next += 1;
                }
            });
        }
    });
    match sink.into_inner().expect("sink").error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_and_bad_shards_are_refused() {
        let ranges: Vec<_> = (0..4).map(|k| shard_games((k, 4), 10)).collect();
        assert_eq!(ranges, [0..2, 2..5, 5..7, 7..10]);
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        for bad in ["4/4", "1", "a/2", "1/0", "-1/3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn games_are_written_in_their_order_whatever_the_threads() {
        // Later games finish first: their bytes wait for the earlier ones.
        let play = |g: u64| {
            std::thread::sleep(std::time::Duration::from_millis(20 - 2 * (g % 10)));
            Ok(vec![g as u8; (g % 3 + 1) as usize])
        };
        let run = |threads| {
            let mut out = Vec::new();
            play_in_order(3..12, threads, play, |_, bytes: &[u8]| {
                out.extend_from_slice(bytes);
                Ok(())
            })
            .expect("no error");
            out
        };
        let one = run(1);
        assert_eq!(&one[..3], &[3, 4, 4]);
        assert_eq!(run(4), one);
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let mut written = Vec::new();
        let result = play_in_order(
            0..50,
            3,
            |g| if g == 5 { Err(format!("game {g} failed")) } else { Ok(vec![g as u8]) },
            |g, _: &[u8]| {
                written.push(g);
                Ok(())
            },
        );
        assert_eq!(result, Err("game 5 failed".to_string()));
        assert!(written.iter().all(|&g| g < 5), "{written:?}");
    }
}
