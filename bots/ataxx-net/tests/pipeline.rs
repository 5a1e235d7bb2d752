//! The data pipeline end to end on a small scale: self-play, a resumed run, training.

use ataxx_net::record::{read_file, RECORD_BYTES};
use botzone_games::ataxx::net::Network;
use std::collections::HashSet;
use std::process::Command;

fn tool(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx-net")).args(args).output().expect("ataxx-net runs");
    assert!(out.status.success(), "ataxx-net {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn datagen_resumes_without_duplicates_and_training_writes_a_loadable_network() {
    let dir = std::env::temp_dir().join(format!("ataxx-net-pipeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.bin");
    let data_arg = data.to_str().unwrap();
    let gen = |positions: &str| {
        tool(&[
            "datagen",
            "--out",
            data_arg,
            "--positions",
            positions,
            "--nodes",
            "300",
            "--threads",
            "2",
            "--seed",
            "5",
        ])
    };
    gen("300");
    let (first, len) = read_file(&data).unwrap();
    assert!(first.len() >= 300);
    assert_eq!(len, std::fs::metadata(&data).unwrap().len(), "the file holds whole games only");
    assert!(first.last().unwrap().ends_game());

    // A torn game at the end (an interrupted writer) is cut off when the run resumes.
    let mut bytes = std::fs::read(&data).unwrap();
    bytes.extend_from_slice(&first[0].encode()[..RECORD_BYTES - 3]);
    std::fs::write(&data, &bytes).unwrap();
    gen("600");
    let (all, _) = read_file(&data).unwrap();
    assert!(all.len() >= 600);
    assert_eq!(&all[..first.len()], &first[..], "resuming keeps what was there");
    let distinct: HashSet<_> = all.iter().map(|r| (r.own, r.opp)).collect();
    assert_eq!(distinct.len(), all.len(), "every position once");
    assert!(all.iter().any(|r| r.result == 1) && all.iter().any(|r| r.result == -1));
    let net = dir.join("test.net");
    tool(&["train", "--data", data_arg, "--out", net.to_str().unwrap(), "--epochs", "1", "--batch", "256"]);
    let loaded = Network::from_bytes(&std::fs::read(&net).unwrap()).expect("a network this build reads");
    assert_ne!(loaded, Network::zero(), "training moved the weights");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_taken_from_a_record_file_start_in_its_empty_square_range() {
    let dir = std::env::temp_dir().join(format!("ataxx-net-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (source, endgames) = (dir.join("source.bin"), dir.join("endgames.bin"));
    let common = ["--nodes", "300", "--threads", "1", "--seed", "9"];
    tool(&[&["datagen", "--out", source.to_str().unwrap(), "--positions", "400"], &common[..]].concat());
    let (sources, _) = read_file(&source).unwrap();
    assert!(sources.iter().any(|r| (12..=16).contains(&r.empties())), "the source reaches the range");
    tool(
        &[
            &["datagen", "--out", endgames.to_str().unwrap(), "--positions", "200"],
            &common[..],
            &["--from", source.to_str().unwrap(), "--empties", "12,16", "--random-plies", "0,0"],
        ]
        .concat(),
    );
    let (records, _) = read_file(&endgames).unwrap();
    assert!(records.len() >= 200);
    // No move adds an empty square, so every position lies within the range's top; a
    // game's first record is its start, a position of the source (unless an earlier game
    // started there too and took it).
    assert!(records.iter().all(|r| r.empties() <= 16), "a position beyond the range");
    let source_positions: HashSet<_> = sources.iter().map(|r| (r.own, r.opp)).collect();
    let firsts: Vec<_> =
        std::iter::once(&records[0]).chain(records.windows(2).filter(|w| w[0].ends_game()).map(|w| &w[1])).collect();
    let from_source = firsts.iter().filter(|r| source_positions.contains(&(r.own, r.opp))).count();
    assert!(from_source * 2 > firsts.len(), "{from_source} of {} games start at a source position", firsts.len());
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx-net"))
        .args(["datagen", "--out", endgames.to_str().unwrap(), "--from", source.to_str().unwrap()])
        .args(["--empties", "0,0", "--positions", "300"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no position with (0, 0) empty squares"));
    std::fs::remove_dir_all(&dir).unwrap();
}
