//! The data pipeline end to end on a small scale: self-play runs (threads, shards, an
//! interrupted run), training, self-play with the trained network.

use ataxx_net::record::{read_file, RECORD_BYTES};
use botzone_games::ataxx::net::Network;
use std::collections::HashSet;
use std::process::Command;

fn tool(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx-net")).args(args).output().expect("ataxx-net runs");
    assert!(out.status.success(), "ataxx-net {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `ataxx-net datagen` of `games` at 300 nodes a move into a fresh file (extra arguments
/// after), its bytes.
fn run(dir: &std::path::Path, name: &str, games: &str, extra: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    let _ = std::fs::remove_file(&out);
    let args = ["datagen", "--out", out.to_str().unwrap(), "--games", games, "--nodes", "300", "--seed", "5"];
    tool(&[&args[..], extra].concat());
    std::fs::read(&out).unwrap()
}

#[test]
fn a_run_writes_the_same_file_whatever_the_threads_shards_or_interruptions() {
    let dir = std::env::temp_dir().join(format!("ataxx-net-pipeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = run(&dir, "whole.bin", "6", &["--threads", "1"]);
    let data = dir.join("whole.bin");
    let (records, len) = read_file(&data).unwrap();
    assert_eq!(len as usize, whole.len(), "the file holds whole games only");
    assert_eq!(records.iter().filter(|r| r.ends_game()).count(), 6);
    assert!(records.iter().any(|r| r.result == 1) && records.iter().any(|r| r.result == -1));
    assert_eq!(run(&dir, "threads.bin", "6", &["--threads", "3"]), whole);
    // Shards 0/4 .. 3/4 of the same run, concatenated in order.
    let shards: Vec<u8> =
        (0..4).flat_map(|k| run(&dir, &format!("shard{k}.bin"), "6", &["--shard", &format!("{k}/4")])).collect();
    assert_eq!(shards, whole);
    // A run interrupted inside its third game (a torn record at the end) goes on after the
    // two whole games and ends with the same file.
    let second_end = records.iter().enumerate().filter(|(_, r)| r.ends_game()).nth(1).unwrap().0 + 1;
    let resumed = dir.join("resumed.bin");
    let mut torn = whole[..second_end * RECORD_BYTES].to_vec();
    torn.extend_from_slice(&whole[second_end * RECORD_BYTES..][..RECORD_BYTES + 7]);
    std::fs::write(&resumed, &torn).unwrap();
    tool(&["datagen", "--out", resumed.to_str().unwrap(), "--games", "6", "--nodes", "300", "--seed", "5"]);
    assert_eq!(std::fs::read(&resumed).unwrap(), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn training_writes_a_network_that_the_next_run_plays_with() {
    let dir = std::env::temp_dir().join(format!("ataxx-net-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.bin");
    let embedded = run(&dir, "data.bin", "40", &[]);
    // The same games three times over two files: training keeps each position once.
    let twice = dir.join("twice.bin");
    std::fs::write(&twice, [&embedded[..], &embedded[..]].concat()).unwrap();
    let train = |net: &std::path::Path, threads: &str| {
        Command::new(env!("CARGO_BIN_EXE_ataxx-net"))
            .args(["train", "--data", data.to_str().unwrap(), twice.to_str().unwrap()])
            .args(["--out", net.to_str().unwrap(), "--epochs", "30", "--threads", threads])
            .output()
            .unwrap()
    };
    let net = dir.join("test.net");
    let out = train(&net, "1");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let positions = embedded.len() / RECORD_BYTES;
    let (records, _) = read_file(&data).unwrap();
    let distinct: HashSet<_> = records.iter().map(|r| (r.own, r.opp)).collect();
    let said = format!("{} positions met before left out", 3 * positions - distinct.len());
    assert!(String::from_utf8_lossy(&out.stdout).contains(&said), "expected {said:?}");
    let trained = std::fs::read(&net).unwrap();
    // Any number of threads trains the same network.
    let net2 = dir.join("threads.net");
    assert!(train(&net2, "2").status.success());
    assert_eq!(std::fs::read(&net2).unwrap(), trained);
    let loaded = Network::from_bytes(&trained).expect("a network this build reads");
    assert_ne!(loaded, Network::zero(), "training moved the weights");
    // Self-play with that network plays other games than with the built-in one.
    let with_net = run(&dir, "next.bin", "40", &["--net", net.to_str().unwrap()]);
    assert_ne!(with_net, embedded);
    assert_eq!(run(&dir, "next2.bin", "40", &["--net", net.to_str().unwrap()]), with_net);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_taken_from_a_record_file_start_in_its_empty_square_range() {
    let dir = std::env::temp_dir().join(format!("ataxx-net-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (source, endgames) = (dir.join("source.bin"), dir.join("endgames.bin"));
    let common = ["--nodes", "300", "--threads", "1", "--seed", "9"];
    tool(&[&["datagen", "--out", source.to_str().unwrap(), "--games", "5"], &common[..]].concat());
    let (sources, _) = read_file(&source).unwrap();
    assert!(sources.iter().any(|r| (12..=16).contains(&r.empties())), "the source reaches the range");
    tool(
        &[
            &["datagen", "--out", endgames.to_str().unwrap(), "--games", "12"],
            &common[..],
            &["--from", source.to_str().unwrap(), "--empties", "12,16", "--random-plies", "0,0"],
        ]
        .concat(),
    );
    let (records, _) = read_file(&endgames).unwrap();
    assert_eq!(records.iter().filter(|r| r.ends_game()).count(), 12);
    // No move adds an empty square, so every position lies within the range's top; a
    // game's first record is its start, a position of the source.
    assert!(records.iter().all(|r| r.empties() <= 16), "a position beyond the range");
    let source_positions: HashSet<_> = sources.iter().map(|r| (r.own, r.opp)).collect();
    let firsts: Vec<_> =
        std::iter::once(&records[0]).chain(records.windows(2).filter(|w| w[0].ends_game()).map(|w| &w[1])).collect();
    let from_source = firsts.iter().filter(|r| source_positions.contains(&(r.own, r.opp))).count();
    assert_eq!(from_source, firsts.len(), "{from_source} of {} games start at a source position", firsts.len());
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx-net"))
        .args(["datagen", "--out", endgames.to_str().unwrap(), "--from", source.to_str().unwrap()])
        .args(["--empties", "0,0", "--games", "3"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no position with (0, 0) empty squares"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// regenerate.sh's first generations at a small scale: the documented steps run, in any
/// thread count to the same files, and a step before its input is refused.
#[test]
fn the_regeneration_script_makes_the_same_generations_with_any_threads() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/regenerate.sh");
    let dir = std::env::temp_dir().join(format!("ataxx-net-regenerate-{}", std::process::id()));
    let step = |work: &std::path::Path, threads: &str, args: &[&str]| {
        Command::new("bash")
            .arg(script)
            .args(args)
            .env("WORK", work)
            .env("SCALE", "0.0002")
            .env("THREADS", threads)
            .env("ATAXX_NET", env!("CARGO_BIN_EXE_ataxx-net"))
            .output()
            .expect("bash runs")
    };
    let mut made = Vec::new();
    for threads in ["1", "2"] {
        let work = dir.join(format!("threads{threads}"));
        let early = step(&work, threads, &["datagen", "2"]);
        assert!(!early.status.success());
        assert!(String::from_utf8_lossy(&early.stderr).contains("gen1.net first"));
        for args in [["datagen", "1"], ["train", "1"], ["datagen", "2"]] {
            let out = step(&work, threads, &args);
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        let files: Vec<Vec<u8>> =
            ["g1.bin", "gen1.net", "g2.bin"].iter().map(|f| std::fs::read(work.join(f)).unwrap()).collect();
        assert_eq!(read_file(&work.join("g1.bin")).unwrap().0.iter().filter(|r| r.ends_game()).count(), 12);
        made.push(files);
    }
    assert_eq!(made[0], made[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}
