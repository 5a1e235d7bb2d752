//! The arena plays foreign engines (`uai:CMD` for Ataxx, `gtp:CMD` for NoGo) against
//! Botzone bots and judges them by Botzone's rules: whole games between our bots' UAI/GTP
//! modes and their Botzone modes, and engines that pass, resign or never answer losing.
//!
//! The real bots are found beside the arena binary (`make test` builds them first).

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const FAKE: &str = env!("CARGO_BIN_EXE_fakebot");

fn bot(name: &str) -> String {
    let path: PathBuf = PathBuf::from(ARENA).with_file_name(name);
    assert!(path.exists(), "{} is missing: build the bots first (make build)", path.display());
    path.display().to_string()
}

fn summary(args: &[&str]) -> Value {
    let out = Command::new(ARENA).args(args).args(["--json", "--quiet"]).output().expect("arena runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("one JSON object")
}

/// No fault on either side in `games` games, and no answer slower than the first turn's
/// limit.
fn assert_clean(s: &Value, games: u64, limit_ms: u64) {
    assert_eq!(s["games"], games, "{s}");
    for side in ["faults_a", "faults_b"] {
        for kind in ["illegal", "bad-output", "crash", "timeout"] {
            assert_eq!(s[side][kind], 0, "{side} {kind}: {s}");
        }
    }
    // First turns have twice the limit.
    assert!(s["max_ms_a"].as_u64().unwrap() <= 2 * limit_ms, "{s}");
}

// Both sides search a fixed number of nodes (a few ms a move), under a limit that a busy
// machine cannot make them miss: these tests are about playing whole games through the
// protocols, not about time (which the overrun experiment measures).

#[test]
fn a_uai_engine_plays_whole_games_against_a_botzone_bot() {
    let (engine, botzone) =
        (format!("uai:{} --uai --nodes 20000", bot("ataxx")), format!("{} --nodes 20000", bot("ataxx")));
    let s =
        summary(&["ataxx", "--a", &engine, "--b", &botzone, "--games", "2", "--time-ms", "2000", "--openings", "2"]);
    assert_clean(&s, 2, 2000);
}

#[test]
fn a_gtp_engine_plays_whole_games_against_a_botzone_bot() {
    let (engine, botzone) =
        (format!("gtp:{} --gtp --nodes 2000", bot("nogo")), format!("{} --nodes 2000", bot("nogo")));
    let s = summary(&["nogo", "--a", &engine, "--b", &botzone, "--games", "2", "--time-ms", "2000", "--openings", "2"]);
    assert_clean(&s, 2, 2000);
}

fn fake(mode: &str) -> String {
    format!("{FAKE} --mode {mode}")
}

fn random(game: &str) -> String {
    format!("{FAKE} --mode random --game {game}")
}

#[test]
fn engines_that_pass_resign_or_hang_lose_by_botzone_rules() {
    for (game, engine, fault) in [
        ("ataxx", format!("uai:{}", fake("uai-pass")), "illegal"),
        ("nogo", format!("gtp:{}", fake("gtp-resign")), "illegal"),
        ("ataxx", format!("uai:{}", fake("uai-sleep")), "timeout"),
    ] {
        // A's 200 ms is what the hanging engine overruns; B, a random mover, has ample time.
        let limits = ["--time-ms", "200", "--time-ms-b", "2000"];
        let s = summary(&[&[game, "--a", &engine, "--b", &random(game), "--games", "2"], &limits[..]].concat());
        assert_eq!(s["losses_a"], 2, "{engine}: {s}");
        assert_eq!(s["faults_a"][fault], 2, "{engine}: {s}");
    }
}

#[test]
fn an_engine_of_another_game_is_refused_before_playing() {
    let out = Command::new(ARENA)
        .args(["dots", "--a", "uai:whatever", "--b", "whatever", "--games", "2"])
        .output()
        .expect("arena runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("UAI engines cannot play dots"), "{stderr}");
}

#[test]
fn a_program_that_does_not_exist_fails_the_match_at_once() {
    for b in ["no-such-bot-anywhere", "./no/such/bot", "uai:/no/such/engine --uai"] {
        let out = Command::new(ARENA).args(["ataxx", "--a", FAKE, "--b", b, "--games", "20"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{b}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("bot B: cannot find the program"), "{b}: {stderr}");
    }
}
