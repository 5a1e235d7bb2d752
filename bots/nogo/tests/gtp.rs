//! `nogo --gtp` conversations through the binary: the GTP v2 commands GoGui and
//! gogui-twogtp use, NoGo's refusals (capture, suicide, pass, out of turn), ids, and
//! malformed commands (an error answer, never a crash).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Sends `script` (one command a line) and returns the answers, each without its blank
/// terminating line.
fn converse(script: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nogo"))
        .args(["--gtp", "--nodes", "300", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the bot starts");
    let mut stdin = child.stdin.take().unwrap();
    for line in script {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let mut answers = Vec::new();
    let mut current = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines().map_while(Result::ok) {
        if line.is_empty() {
            answers.push(std::mem::take(&mut current));
        } else {
            if !current.is_empty() {
                current.push('\n');
            }
            current.push_str(&line);
        }
    }
    assert!(child.wait().unwrap().success());
    answers
}

#[test]
fn the_standard_commands_answer() {
    let a = converse(&[
        "protocol_version",
        "1 name",
        "version",
        "known_command genmove",
        "known_command foo",
        "list_commands",
    ]);
    assert_eq!(a[0], "= 2");
    assert!(a[1].starts_with("=1 "), "{}", a[1]);
    assert!(a[2].starts_with("= "));
    assert_eq!(&a[3..5], ["= true", "= false"]);
    for c in ["play", "genmove", "boardsize", "clear_board", "komi", "time_settings", "time_left", "showboard", "quit"]
    {
        assert!(a[5].lines().any(|l| l.trim_start_matches("= ") == c), "{c}: {}", a[5]);
    }
}

#[test]
fn moves_that_capture_suicide_pass_or_come_out_of_turn_are_refused() {
    let a = converse(&[
        "boardsize 9",
        "clear_board",
        "komi 7.5",
        "play b A2",
        "play w A1", // legal: B1 is still a liberty
        "play b B1", // would capture white's A1: refused
        "play b pass",
        "play w E5", // out of turn
        "play b Z9",
        "boardsize 19",
        "genmove b",
        "showboard",
    ]);
    assert_eq!(&a[0..5], ["=", "=", "=", "=", "="], "{a:?}");
    assert!(a[5].starts_with("? illegal move"), "{}", a[5]);
    assert!(a[6].starts_with("? illegal move") && a[6].contains("no pass"), "{}", a[6]);
    assert!(a[7].starts_with("? illegal move") && a[7].contains("black's turn"), "{}", a[7]);
    assert!(a[8].starts_with("? illegal move"), "{}", a[8]);
    assert!(a[9].starts_with("? unacceptable size"), "{}", a[9]);
    let mv = a[10].trim_start_matches("= ");
    assert_eq!(mv.len(), 2, "{}", a[10]);
    assert!(a[11].contains("white"), "{}", a[11]);
}

#[test]
fn a_suicide_is_refused() {
    // White surrounds A9's neighbours A8 and B9; black at A9 would have no liberty.
    let a = converse(&["play b E5", "play w A8", "play b E4", "play w B9", "play b A9"]);
    assert!(a[4].starts_with("? illegal move"), "{a:?}");
}

#[test]
fn genmove_plays_on_and_a_lost_side_resigns() {
    let mut script = vec!["clear_board".to_string(), "time_settings 0 1 1".to_string()];
    for _ in 0..90 {
        script.push("genmove b".into());
        script.push("genmove w".into());
    }
    let refs: Vec<&str> = script.iter().map(String::as_str).collect();
    let a = converse(&refs);
    let moves: Vec<&String> = a[2..].iter().collect();
    // Every answer is a vertex until one side has none left; then it resigns (and so does
    // every later request, the game being over).
    let first_resign = moves.iter().position(|m| m.as_str() == "= resign").expect("someone runs out of moves");
    assert!(first_resign > 10, "{moves:?}");
    assert!(moves[..first_resign].iter().all(|m| m.len() == 4 && m.starts_with("= ")), "{moves:?}");
}

#[test]
fn malformed_commands_get_errors_and_the_engine_goes_on() {
    let a = converse(&[
        "",
        "frobnicate",
        "play",
        "play b",
        "genmove",
        "genmove purple",
        "time_left b x 0",
        "protocol_version",
    ]);
    assert_eq!(a.len(), 7, "{a:?}");
    assert!(a[..6].iter().all(|l| l.starts_with('?')), "{a:?}");
    assert_eq!(a[6], "= 2");
}
