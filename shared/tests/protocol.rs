//! The Botzone protocol: parsing, rebuilding with checks, pass turns, answers, errors.

use botzone_games::ataxx;
use botzone_games::bot::{self, Args};
use botzone_games::botzone::{parse_turn, BotzoneGame, Entry, Format, InputError, Match, Transcript};
use botzone_games::dots;
use botzone_games::game::{Game, Player};
use botzone_games::nogo;
use clap::Parser;
use serde_json::{json, Value};
use std::time::Instant;

fn rebuild<G: BotzoneGame>(input: &str) -> Result<Match<G>, InputError> {
    let mut lines = input.lines().skip(1).map(str::to_string);
    let turn = parse_turn::<G>(input.lines().next().unwrap_or(""), &mut || lines.next())?;
    Match::rebuild(&turn)
}

/// Runs a bot with the generic engines on `input` with `flags`; returns (exit status as
/// Result, stdout).
fn run_bot<G: BotzoneGame>(flags: &[&str], input: &str) -> (Result<(), String>, String) {
    run_with::<G>(&bot::generic_engines(), flags, input)
}

fn run_with<G: BotzoneGame>(
    engines: &[bot::EngineSpec<G>],
    flags: &[&str],
    input: &str,
) -> (Result<(), String>, String) {
    let mut argv = vec!["bot"];
    argv.extend_from_slice(flags);
    let args = Args::parse_from(argv);
    let mut out = Vec::new();
    let result = bot::run::<G>(Instant::now(), &args, engines, &mut input.as_bytes(), &mut out);
    (result.map_err(|e| e.to_string()), String::from_utf8(out).unwrap())
}

#[test]
fn first_request_of_minus_ones_makes_us_first() {
    let m = rebuild::<ataxx::Position>(r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1}],"responses":[]}"#).unwrap();
    assert_eq!(m.us, Player::First);
    assert!(m.our_move());
    let m = rebuild::<ataxx::Position>(r#"{"requests":[{"x0":0,"y0":0,"x1":1,"y1":1}],"responses":[]}"#).unwrap();
    assert_eq!(m.us, Player::Second);
    assert_eq!(m.game.pieces(Player::First).count(), 3);
}

#[test]
fn optional_and_unknown_fields_are_accepted() {
    let input = r#"{"requests":[{"x":-1,"y":-1}],"responses":[],"data":"","globaldata":"x","time_limit":1,"memory_limit":256,"extra":[1,2]}"#;
    let mut lines = std::iter::empty();
    let turn = parse_turn::<nogo::Position>(input, &mut || lines.next()).unwrap();
    assert_eq!(turn.time_limit_ms, Some(1000));
}

#[test]
fn illegal_history_move_names_turn_and_move() {
    // Our response on turn 1 jumps onto an occupied square.
    let input = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1},{"x0":6,"y0":0,"x1":5,"y1":0}],"responses":[{"x0":0,"y0":0,"x1":1,"y1":1}, {"x0":1,"y0":1,"x1":0,"y1":0}]}"#;
    assert!(matches!(rebuild::<ataxx::Position>(input), Err(InputError::Syntax(_))));
    let input = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1},{"x0":6,"y0":0,"x1":5,"y1":0},{"x0":5,"y0":0,"x1":4,"y1":0}],"responses":[{"x0":0,"y0":0,"x1":1,"y1":1},{"x0":1,"y0":1,"x1":0,"y1":0}]}"#;
    let err = rebuild::<ataxx::Position>(input).unwrap_err();
    match &err {
        InputError::Illegal { turn, entry, .. } => {
            assert_eq!((*turn, *entry), (1, Entry::Response));
        }
        other => panic!("{other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("turn 1") && text.contains("response") && text.contains("\"x0\":1"), "{text}");
}

#[test]
fn history_of_another_game_is_rejected() {
    let err = rebuild::<ataxx::Position>(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#).unwrap_err();
    assert!(err.to_string().contains("missing field \"x0\""), "{err}");
}

#[test]
fn request_after_game_over_is_an_error() {
    // Drive a NoGo game to its end with the transcript, then ask the loser's successor.
    let mut t = Transcript::<nogo::Position>::new();
    let mut rng = fastrand::Rng::with_seed(11);
    let mut moves = Vec::new();
    while t.game().outcome().is_none() {
        t.game().legal_moves(&mut moves);
        t.answer(Some(moves[rng.usize(..moves.len())])).unwrap();
    }
    let err = rebuild::<nogo::Position>(&t.input().to_string()).unwrap_err();
    assert!(matches!(err, InputError::GameOver { .. }), "{err:?}");
}

#[test]
fn simplified_interaction_round_trips() {
    let input = "2\n-1 -1 -1 -1\n0 0 1 1\n6 0 5 0\n\n\n";
    let m = rebuild::<ataxx::Position>(input).unwrap();
    assert_eq!(m.us, Player::First);
    assert_eq!(m.game.ply(), 2);
    let (status, out) = run_bot::<ataxx::Position>(&["--nodes", "50", "--seed", "1"], input);
    status.unwrap();
    let first = out.lines().next().unwrap();
    let fields: Vec<i64> = first.split_whitespace().map(|f| f.parse().unwrap()).collect();
    assert_eq!(fields.len(), 4, "{out}");
    let mv = ataxx::Position::parse_simple_move(&fields).unwrap().unwrap();
    assert!(m.game.check(mv).is_ok());
}

#[test]
fn simplified_interaction_is_refused_for_pencil() {
    let err = rebuild::<dots::Position>("1\n-1 -1\n").unwrap_err();
    assert!(err.to_string().contains("simplified interaction is not defined"));
}

#[test]
fn crlf_and_trailing_spaces_are_not_errors() {
    let (status, out) = run_bot::<nogo::Position>(
        &["--nodes", "30", "--seed", "2"],
        "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}   \r\n",
    );
    status.unwrap();
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["response"]["x"].is_i64());
}

#[test]
fn pencil_pass_request_is_answered_with_a_pass() {
    // Red draws (1,0),(0,1),(1,2); blue answers elsewhere; red then completes box (1,1) and
    // moves again, so blue is asked with pass 1.
    let mut t = Transcript::<dots::Position>::new();
    let edge = |x: i64, y: i64| dots::Position::parse_json_move(&json!({"x": x, "y": y})).unwrap();
    for (x, y) in [(1, 0), (9, 10), (0, 1), (10, 9), (1, 2)] {
        t.answer(edge(x, y)).unwrap();
    }
    assert_eq!(t.asked(), Player::Second);
    t.answer(edge(2, 1)).unwrap(); // blue completes the box
    assert_eq!(t.asked(), Player::First);
    assert!(t.must_pass());
    assert_eq!(t.last_request()["pass"], 1);
    let (status, out) = run_bot::<dots::Position>(&["--nodes", "50"], &t.input().to_string());
    status.unwrap();
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["response"], json!({"x": -1, "y": -1}));
    // After red's pass, blue is asked with pass 0 and must move.
    t.answer(None).unwrap();
    assert!(!t.must_pass());
    let m = rebuild::<dots::Position>(&t.input().to_string()).unwrap();
    assert!(m.our_move());
    assert_eq!(m.game.score(Player::Second), 1);
}

#[test]
fn pencil_pass_flag_that_contradicts_the_board_is_an_error() {
    let input = r#"{"requests":[{"x":-1,"y":-1,"pass":0},{"x":9,"y":10,"pass":1}],"responses":[{"x":1,"y":0}]}"#;
    let err = rebuild::<dots::Position>(input).unwrap_err();
    assert!(err.to_string().contains("pass flag"), "{err}");
}

#[test]
fn pass_when_a_move_is_due_is_an_error() {
    let input = r#"{"requests":[{"x":-1,"y":-1},{"x":-1,"y":-1}],"responses":[{"x":2,"y":2}]}"#;
    let err = rebuild::<nogo::Position>(input).unwrap_err();
    assert!(err.to_string().contains("turn 1, request"), "{err}");
}

#[test]
fn keep_running_answers_every_turn_with_the_marker() {
    // Three turns: the full first input, then one request per line.
    let input = concat!(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#, "\n");
    let (status, out) = run_bot::<nogo::Position>(&["--nodes", "40", "--seed", "5", "--keep-running"], input);
    status.unwrap();
    let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let ours = nogo::Position::parse_json_move(&first["response"]).unwrap().unwrap();
    // Build the next two requests against our actual answers.
    let mut game = nogo::Position::start();
    game.play(ours);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let reply = moves[0];
    let mut input2 = String::from(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#);
    input2.push('\n');
    input2.push_str(&nogo::Position::json_move(Some(reply)).to_string());
    input2.push('\n');
    let (status, out) = run_bot::<nogo::Position>(&["--nodes", "40", "--seed", "5", "--keep-running"], &input2);
    status.unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(lines[1], ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
    assert_eq!(lines[3], ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
    let second: Value = serde_json::from_str(lines[2]).unwrap();
    let ours2 = nogo::Position::parse_json_move(&second["response"]).unwrap().unwrap();
    game.play(reply);
    assert!(game.check(ours2).is_ok());
}

#[test]
fn keep_running_request_with_an_illegal_move_is_an_error() {
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n{\"x\":42,\"y\":0}\n";
    let (status, _) = run_bot::<nogo::Position>(&["--nodes", "20", "--keep-running"], input);
    let err = status.unwrap_err();
    assert!(err.contains("turn 1") && err.contains("off the 9x9 board"), "{err}");
}

#[test]
fn same_seed_and_node_budget_give_the_same_answer() {
    let input = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1}],"responses":[]}"#;
    let answer = || {
        let out = run_bot::<ataxx::Position>(&["--nodes", "300", "--seed", "9"], input).1;
        let v: Value = serde_json::from_str(out.trim()).unwrap();
        let debug = v["debug"].as_str().unwrap();
        // Everything but the time taken must repeat.
        (v["response"].clone(), debug[..debug.find(" ms=").unwrap()].to_string())
    };
    assert_eq!(answer(), answer());
}

#[test]
fn legal_lists_every_source_target_pair() {
    let input = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1}],"responses":[]}"#;
    let (status, out) = run_bot::<ataxx::Position>(&["--legal"], input);
    status.unwrap();
    let v: Vec<Value> = serde_json::from_str(out.trim()).unwrap();
    // Two corner pieces: 3 clones and 5 jumps each.
    assert_eq!(v.len(), 16);
}

#[test]
fn unknown_engine_is_a_usage_error() {
    let (status, _) = run_bot::<ataxx::Position>(&["--engine", "nope"], "{}");
    assert!(status.unwrap_err().contains("unknown engine"));
}

#[test]
fn json_answer_format_is_one_line() {
    let line = botzone_games::botzone::format_answer::<nogo::Position>(Format::Json, Some(3), "a\nb");
    assert!(!line.contains('\n'));
}

/// Runs the Ataxx bot with its real engines.
fn run_ataxx(flags: &[&str], input: &str) -> (Result<(), String>, String) {
    run_with::<ataxx::Position>(&botzone_games::engines::ataxx::engines(), flags, input)
}

#[test]
fn without_switches_off_named_features_and_rejects_unknown_ones() {
    let start = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1}],"responses":[]}"#;
    let fixed = ["--nodes", "3000", "--seed", "1"];
    let score = |extra: &[&str]| {
        let mut flags = fixed.to_vec();
        flags.extend_from_slice(extra);
        let (result, out) = run_ataxx(&flags, start);
        result.unwrap();
        let answer: Value = serde_json::from_str(out.trim()).unwrap();
        let debug = answer["debug"].as_str().unwrap().to_string();
        debug.split_whitespace().find(|w| w.starts_with("score=")).unwrap().to_string()
    };
    // The hand-set and the fitted weights value the start position differently.
    assert_ne!(score(&[]), score(&["--without", "fitted-weights"]));
    // Several at once, comma-separated.
    assert!(score(&["--without", "aspiration,lmr,rfp"]).starts_with("score="));
    let (result, _) = run_ataxx(&["--without", "lmr,bogus"], start);
    let err = result.unwrap_err();
    assert!(err.contains("no feature \"bogus\"") && err.contains("lmr, rfp"), "{err}");
    let (result, _) = run_ataxx(&["--engine", "seed", "--without", "lmr"], start);
    assert!(result.unwrap_err().contains("engine seed has no feature"));
}
