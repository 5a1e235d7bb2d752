//! The arena judges fake bots correctly, summarises matches in both forms, logs and
//! replays games, runs SPRT and kept-running bots, and plays a human through piped input.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const FAKE: &str = env!("CARGO_BIN_EXE_fakebot");

fn arena(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(ARENA).args(args).output().expect("arena runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn fake(mode: &str, game: &str) -> String {
    format!("{FAKE} --mode {mode} --game {game}")
}

/// A file in the temporary folder whose name holds this test process's id.
fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("arena-{}-{name}", std::process::id()))
}

/// The limit a turn for bots that answer at once (random movers): generous, so that a
/// busy machine cannot make them late. The tests of the limit itself use short limits
/// against bots that sleep far past them.
const AMPLE_MS: &str = "2000";

/// A match of `game` between two random fake bots, with `more` options.
fn random_bots(game: &str, more: &[&str]) -> (i32, String, String) {
    let bot = fake("random", game);
    arena(&[&[game, "--a", &bot, "--b", &bot, "--time-ms", AMPLE_MS], more].concat())
}

/// Bot A misbehaves in `mode` at `time_ms` a turn against a random mover (which has
/// AMPLE_MS); returns the JSON summary.
fn faulty_match(game: &str, mode: &str, time_ms: &str) -> Value {
    let (a, b) = (fake(mode, game), fake("random", game));
    let limits = ["--time-ms", time_ms, "--time-ms-b", AMPLE_MS];
    let (code, stdout, stderr) =
        arena(&[&[game, "--a", &a, "--b", &b, "--games", "2"], &limits[..], &["--json", "--quiet"]].concat());
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(stdout.trim()).expect("one JSON object")
}

fn assert_a_lost_by(summary: &Value, kind: &str) {
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["losses_a"], 2, "{summary}");
    assert_eq!(summary["faults_a"][kind], 2, "{summary}");
    for other in ["illegal", "bad-output", "crash", "timeout"] {
        assert_eq!(summary["faults_b"][other], 0);
        if other != kind {
            assert_eq!(summary["faults_a"][other], 0);
        }
    }
}

#[test]
fn illegal_moves_lose() {
    for game in ["ataxx", "nogo", "dots"] {
        assert_a_lost_by(&faulty_match(game, "illegal", AMPLE_MS), "illegal");
    }
}

#[test]
fn garbage_output_loses() {
    assert_a_lost_by(&faulty_match("ataxx", "garbage", AMPLE_MS), "bad-output");
}

#[test]
fn crashes_lose() {
    assert_a_lost_by(&faulty_match("nogo", "crash", AMPLE_MS), "crash");
}

#[test]
fn sleeping_past_the_limit_loses_and_is_killed() {
    let start = std::time::Instant::now();
    let s = faulty_match("nogo", "sleep", "100");
    assert_a_lost_by(&s, "timeout");
    // Killed long before its 30 s sleep ends.
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn each_bot_has_its_own_limit_with_time_ms_b() {
    // B takes 1500 ms over its first answer (then answers at once): within its own limit
    // of 2 x 2000 ms on a first turn, far past A's 2 x 250 ms; A answers at once.
    let (a, b) = (fake("random", "nogo"), format!("{} --sleep-ms 1500", fake("slow-first", "nogo")));
    let summary = |time_ms_b: &str| -> Value {
        let args = ["nogo", "--a", &a, "--b", &b, "--games", "2", "--time-ms", "250", "--time-ms-b", time_ms_b];
        let (code, stdout, stderr) = arena(&[&args[..], &["--json", "--quiet"]].concat());
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str(stdout.trim()).expect("one JSON object")
    };
    let slower = summary("2000");
    assert_eq!(slower["faults_b"]["timeout"], 0, "{slower}");
    assert_eq!(slower["faults_a"]["timeout"], 0, "{slower}");
    assert!(slower["max_ms_b"].as_u64().unwrap() >= 1500, "{slower}");
    let same = summary("250");
    assert_eq!(same["faults_b"]["timeout"], 2, "{same}");
}

#[test]
fn pencil_bot_that_never_passes_loses() {
    let log = temp_file("nopass.log");
    // B is seeded: against a clock-seeded random opponent a game could end without A ever
    // having to pass (a clean-clone CI run counted 3 illegal moves in 4 games).
    let (a, b) = (fake("nopass", "dots"), format!("{} --seed 7", fake("random", "dots")));
    let (code, stdout, _) = arena(&[
        "dots",
        "--a",
        &a,
        "--b",
        &b,
        "--games",
        "4",
        "--time-ms",
        AMPLE_MS,
        "--json",
        "--quiet",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let s: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(s["faults_a"]["illegal"], 4, "{s}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.lines().all(|l| l.contains("moved but had to pass")), "{text}");
    let _ = std::fs::remove_file(log);
}

#[test]
fn match_between_simple_bots_summarises_in_both_forms_and_replays() {
    let log = temp_file("simple.log");
    let (code, text, stderr) =
        random_bots("ataxx", &["--games", "4", "--openings", "4", "--log", log.to_str().unwrap(), "--jobs", "2"]);
    assert_eq!(code, 0, "{stderr}");
    for needle in [
        "4 games of ataxx",
        "W-D-L (A):",
        "Elo (A - B):",
        "95% interval",
        "LOS",
        "time per move",
        "faults: A none; B none",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    // Progress went to stderr, one line per game when it is not a terminal.
    assert!(stderr.contains("game 4/4"), "{stderr}");
    let records: Vec<Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 4);
    // Pairs share their opening with colours swapped.
    for pair in [0, 2] {
        let (x, y) = (
            records.iter().find(|r| r["game"] == pair).unwrap(),
            records.iter().find(|r| r["game"] == pair + 1).unwrap(),
        );
        assert_eq!(x["opening"], y["opening"]);
        assert_eq!(x["opening"].as_array().unwrap().len(), 4);
        assert_ne!(x["a_first"], y["a_first"]);
    }
    let (code, replay, _) = arena(&["replay", log.to_str().unwrap(), "--game", "1"]);
    assert_eq!(code, 0);
    assert!(replay.contains("game 1 of ataxx") && replay.contains("turn 0:") && replay.contains("result:"), "{replay}");
    // The result says why the game ended, by the rules: the final count ("black 30,
    // white 19") or the side wiped out ("white has no pieces left").
    let result = replay.lines().last().unwrap();
    assert!(!result.contains("(game over)") && (result.contains("black") || result.contains("white")), "{result}");

    let (code, json, _) = random_bots("ataxx", &["--games", "2", "--json", "--quiet"]);
    assert_eq!(code, 0);
    let s: Value = serde_json::from_str(json.trim()).unwrap();
    for field in [
        "games", "wins_a", "draws", "losses_a", "score_a", "elo", "elo_ci95", "faults_a", "faults_b", "max_ms_a",
        "max_ms_b",
    ] {
        assert!(!s[field].is_null(), "{field} missing: {s}");
    }
    let _ = std::fs::remove_file(log);
}

#[test]
fn a_logged_match_sums_up_as_it_was_counted_and_compares_game_by_game() {
    let (log, changed) = (temp_file("summary.log"), temp_file("summary-changed.log"));
    let log_path = log.to_str().unwrap();
    let (code, played, stderr) = random_bots(
        "nogo",
        &["--games", "6", "--openings", "2", "--log", log_path, "--jobs", "2", "--json", "--quiet"],
    );
    assert_eq!(code, 0, "{stderr}");
    let played: Value = serde_json::from_str(played.trim()).unwrap();
    let summary = |args: &[&str]| -> Value {
        let (code, out, err) = arena(&[&["summary", "--json"], args].concat());
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(out.trim()).unwrap()
    };
    // Read back, the log gives what the match counted (the steal figure aside).
    let read = summary(&[log_path]);
    for field in [
        "games",
        "wins_a",
        "draws",
        "losses_a",
        "elo",
        "elo_ci95",
        "faults_a",
        "faults_b",
        "mean_ms_a",
        "max_ms_b",
        "points_a_first",
        "games_a_second",
    ] {
        assert_eq!(read[field], played[field], "{field}: {read} against {played}");
    }
    assert!(read["versus"].is_null());
    // Two runs add up; against itself every game is the same.
    let twice = summary(&[log_path, log_path]);
    assert_eq!(twice["games"], 12);
    assert_eq!(twice["score_a"], played["score_a"]);
    let itself = summary(&[log_path, "--versus", log_path]);
    assert_eq!(itself["versus"]["same"], 6, "{itself}");
    assert_eq!(itself["versus"]["better"].as_u64().unwrap() + itself["versus"]["worse"].as_u64().unwrap(), 0);
    // One game's result turned round: that game is better or worse, and only that one.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (a_side, other_side) = if lines[0]["a_first"] == true { ("first", "second") } else { ("second", "first") };
    let a_won = lines[0]["result"] == a_side;
    lines[0]["result"] = Value::from(if a_won { other_side } else { a_side });
    std::fs::write(&changed, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let versus = summary(&[changed.to_str().unwrap(), "--versus", log_path])["versus"].clone();
    let (better, worse) = if a_won { (0, 1) } else { (1, 0) };
    assert_eq!((versus["better"].as_u64(), versus["worse"].as_u64()), (Some(better), Some(worse)), "{versus}");
    assert_eq!(versus["same"], 5);
    // A line that is not a game's record is named by file and line.
    std::fs::write(&changed, format!("{}\n{{\"game_type\": \"nogo\"}}\n", text.lines().next().unwrap())).unwrap();
    let (code, _, err) = arena(&["summary", changed.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("line 2") && err.contains(changed.to_str().unwrap()), "{err}");
    let _ = std::fs::remove_file(log);
    let _ = std::fs::remove_file(changed);
}

#[test]
fn a_book_starts_each_pair_from_its_line_in_turn() {
    let (book, log) = (temp_file("book.txt"), temp_file("book.log"));
    // Two Ataxx positions: a black clone, and a clone for each side.
    let lines =
        [r#"[{"x0":0,"y0":0,"x1":1,"y1":1}]"#, r#"[{"x0":0,"y0":0,"x1":1,"y1":1},{"x0":6,"y0":0,"x1":5,"y1":1}]"#];
    std::fs::write(&book, format!("# a comment\n{}\n\n{}\n", lines[0], lines[1])).unwrap();
    let (code, _, stderr) = random_bots(
        "ataxx",
        &["--games", "6", "--book", book.to_str().unwrap(), "--log", log.to_str().unwrap(), "--quiet"],
    );
    assert_eq!(code, 0, "{stderr}");
    let records: Vec<Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 6);
    for r in &records {
        let pair = r["game"].as_u64().unwrap() / 2;
        let want: Value = serde_json::from_str(lines[pair as usize % 2]).unwrap();
        assert_eq!(r["opening"], want, "game {}", r["game"]);
    }
    // A book with an illegal move is refused before any game, naming the line and move.
    std::fs::write(&book, "[]\n[{\"x0\":0,\"y0\":0,\"x1\":3,\"y1\":3}]\n").unwrap();
    let (code, _, stderr) = random_bots("ataxx", &["--book", book.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("line 2: move 1"), "{stderr}");
    let _ = (std::fs::remove_file(book), std::fs::remove_file(log));
}

#[test]
fn sprt_stops_early_on_a_clear_result() {
    let (a, b) = (fake("random", "nogo"), fake("crash", "nogo"));
    let (code, stdout, _) = arena(&[
        "nogo",
        "--a",
        &a,
        "--b",
        &b,
        "--games",
        "400",
        "--time-ms",
        AMPLE_MS,
        "--json",
        "--quiet",
        "--sprt",
        "0,50",
    ]);
    assert_eq!(code, 0);
    let s: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(s["sprt"]["decision"], "H1", "{s}");
    assert!(s["games"].as_u64().unwrap() < 400);
}

/// Two games with both bots asked to keep running; `bot` is their command. The summary
/// comes as JSON or as text.
fn kept_running_match(bot: &str, json: bool) -> (i32, String, String) {
    let mut args = vec!["dots", "--a", bot, "--b", bot, "--keep-running-a", "--keep-running-b"];
    args.extend(["--games", "2", "--time-ms", AMPLE_MS, "--quiet"]);
    if json {
        args.push("--json");
    }
    arena(&args)
}

#[test]
fn kept_running_bots_play_whole_games() {
    // The bot's own flag makes it stay (Pencil's pass turns included).
    let bot = format!("{} --keep-running", fake("random", "dots"));
    let (code, stdout, stderr) = kept_running_match(&bot, true);
    assert_eq!(code, 0, "{stderr}");
    let s: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(s["games"], 2);
    assert_eq!(s["faults_a"]["crash"], 0, "{s}");
    assert_eq!(s["faults_a"]["illegal"], 0, "{s}");
    assert_eq!(s["faults_b"]["illegal"], 0, "{s}");
    assert_eq!(s["restarts_a"], 0, "{s}");
    assert_eq!(s["restarts_b"], 0, "{s}");
}

#[test]
fn a_bot_that_leaves_keep_running_is_restarted_and_reported() {
    // Without its flag the bot exits after each answer: the judge restarts it with the
    // full history, as Botzone does, and says so, since nothing was kept.
    let bot = fake("random", "dots");
    let (code, stdout, stderr) = kept_running_match(&bot, true);
    assert_eq!(code, 0, "{stderr}");
    let s: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(s["faults_a"]["crash"], 0, "{s}");
    assert!(s["restarts_a"].as_u64().unwrap() >= 20, "{s}");
    assert!(s["restarts_b"].as_u64().unwrap() >= 20, "{s}");
    let (_, text, _) = kept_running_match(&bot, false);
    assert!(text.contains("keep-running: A exited after answering and was restarted"), "{text}");
}

#[test]
fn human_play_reads_moves_and_commands_from_input() {
    let save = temp_file("human.json");
    let script = format!("4 4\nundo\n9 9\nhello\n0 0\nsave {0}\nload {0}\nnew\nquit\n", save.display());
    let mut child = Command::new(ARENA)
        .args(["play", "nogo", "--bot", &fake("random", "nogo"), "--human", "black", "--time-ms", AMPLE_MS])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for needle in [
        "bot plays",
        "took back your last move",
        "off the 9x9 board",
        "not understood",
        "saved to",
        "loaded",
        "new game",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    // The save file is a Botzone history for the side to move: black, after one pair.
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    assert_eq!(saved["requests"].as_array().unwrap().len(), 2);
    assert_eq!(saved["responses"][0], serde_json::json!({"x": 0, "y": 0}));
    let _ = std::fs::remove_file(save);
}

#[test]
fn ctrl_c_ends_the_match_after_the_games_under_way_with_a_summary() {
    let bot = fake("random", "nogo");
    let child = Command::new(ARENA)
        .args(["nogo", "--a", &bot, "--b", &bot, "--games", "40", "--time-ms", AMPLE_MS])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let a few games be played, then interrupt.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("match started: 40 games"), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    // The game under way is finished and counted; the rest are not played.
    let played: usize = stdout
        .strip_prefix("interrupted: ")
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!((1..40).contains(&played), "{stdout}");
    assert!(stdout.contains(" of 40 games played"), "{stdout}");
    assert!(stdout.contains("W-D-L (A)"), "{stdout}");
}

/// A match of fake bot A (`mode`, kept running or not) against a random mover, in the
/// sandbox with an address-space cap of `mb`; the JSON summary.
fn sandboxed_match(mode: &str, keep_running: bool, mb: &str) -> Value {
    let a = if keep_running { format!("{} --keep-running", fake(mode, "nogo")) } else { fake(mode, "nogo") };
    let b = fake("random", "nogo");
    let mut args = vec!["nogo", "--a", &a, "--b", &b, "--games", "2", "--time-ms", AMPLE_MS, "--json", "--quiet"];
    args.extend(["--sandbox", "--sandbox-mb", mb]);
    if keep_running {
        args.push("--keep-running-a");
    }
    let (code, stdout, stderr) = arena(&args);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(stdout.trim()).expect("one JSON object")
}

#[test]
fn the_sandbox_clears_the_environment_and_caps_the_memory() {
    for keep_running in [false, true] {
        // A bot that needs an empty environment plays whole games there, fresh or kept.
        let summary = sandboxed_match("bare-env", keep_running, "256");
        assert_eq!(summary["faults_a"]["crash"], 0, "{summary}");
        assert_eq!(summary["wins_a"].as_u64().unwrap() + summary["losses_a"].as_u64().unwrap(), 2, "{summary}");
        if keep_running {
            // Its kept-running process's peak memory is reported (a few MB for a random mover).
            let kb = summary["peak_kb_a"].as_u64().expect("a kept process's peak");
            assert!((100..64 << 10).contains(&kb), "{summary}");
        }
        // A bot that maps 128 MB crashes under a 64 MB cap, and is judged so.
        assert_a_lost_by(&sandboxed_match("hog", keep_running, "64"), "crash");
    }
    // Under Botzone's 256 MB the same bot plays.
    let summary = sandboxed_match("hog", false, "256");
    assert_eq!(summary["faults_a"]["crash"], 0, "{summary}");
    // Outside the sandbox the environment is the judge's (not empty): the bot refuses.
    assert_a_lost_by(&faulty_match("nogo", "bare-env", AMPLE_MS), "crash");
}

/// The games of a log by their number in the match: (opening, A first, moves).
fn games_by_number(log: &std::path::Path) -> std::collections::BTreeMap<u64, (Value, Value, Vec<Value>)> {
    let text = std::fs::read_to_string(log).unwrap();
    text.lines()
        .map(|line| {
            let g: Value = serde_json::from_str(line).unwrap();
            let moves = g["moves"].as_array().unwrap().iter().map(|t| t["move"].clone()).collect();
            (g["game"].as_u64().unwrap(), (g["opening"].clone(), g["a_first"].clone(), moves))
        })
        .collect()
}

#[test]
fn a_match_split_into_shards_plays_the_same_games_and_sums_up_as_one() {
    // Seeded random movers answer the same position with the same move: the games are the
    // same wherever they are played.
    let bot = format!("{} --seed 5", fake("random", "dots"));
    let common = ["dots", "--a", &bot, "--b", &bot, "--games", "8", "--openings", "4", "--seed", "9"];
    let whole = temp_file("whole.jsonl");
    let (code, _, stderr) =
        arena(&[&common[..], &["--time-ms", AMPLE_MS, "--quiet", "--log", whole.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{stderr}");
    let shards: Vec<_> = (0..2).map(|k| temp_file(&format!("shard{k}.jsonl"))).collect();
    for (k, log) in shards.iter().enumerate() {
        let shard = format!("{k}/2");
        let more = ["--time-ms", AMPLE_MS, "--quiet", "--shard", &shard, "--log", log.to_str().unwrap()];
        let (code, _, stderr) = arena(&[&common[..], &more[..]].concat());
        assert_eq!(code, 0, "{stderr}");
        // Shard k holds pairs 2k and 2k+1: games 4k..4k+3.
        let numbers: Vec<u64> = games_by_number(log).into_keys().collect();
        assert_eq!(numbers, (4 * k as u64..4 * k as u64 + 4).collect::<Vec<_>>());
    }
    let mut sharded = games_by_number(&shards[0]);
    sharded.extend(games_by_number(&shards[1]));
    assert_eq!(sharded, games_by_number(&whole), "openings, colours and moves");
    // The shards' logs sum up to the whole match's summary.
    let summary = |logs: &[&std::path::PathBuf]| -> Value {
        let mut args = vec!["summary".to_string()];
        args.extend(logs.iter().map(|l| l.display().to_string()));
        args.push("--json".into());
        let (code, stdout, stderr) = arena(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str(stdout.trim()).unwrap()
    };
    let (one, two) = (summary(&[&whole]), summary(&[&shards[0], &shards[1]]));
    for field in ["games", "wins_a", "draws", "losses_a", "elo", "elo_ci95"] {
        assert_eq!(one[field], two[field], "{field}: {one} vs {two}");
    }
    // Every game names the machine that played it: here, one machine.
    assert_eq!(two["hosts"].as_array().map(Vec::len), Some(1), "{two}");
    assert!(two["hosts"][0].as_str().unwrap().contains('('), "CPU model and instruction sets: {two}");
    for log in shards.iter().chain([&whole]) {
        let _ = std::fs::remove_file(log);
    }
}

#[test]
fn a_shard_that_does_not_fit_the_match_is_refused_before_playing() {
    let bot = fake("random", "nogo");
    for (shard, why) in [("3/3", "0 <= K < N"), ("1/3", "cannot share the 4 pairs"), ("x", "K/N"), ("1/0", "K < N")] {
        let (code, _, stderr) = arena(&["nogo", "--a", &bot, "--b", &bot, "--games", "8", "--shard", shard]);
        assert_eq!(code, 2, "{shard}: {stderr}");
        assert!(stderr.contains(why) && !stderr.contains("game 1"), "{shard}: {stderr}");
    }
}
