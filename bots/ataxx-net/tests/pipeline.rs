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
