//! The bots' front end: one turn, simplified interaction, pass turns, keep-running,
//! determinism, `--legal`, `--engine` and `--without`, through `frontend::run`.

use botzone_games::botzone::{BotzoneGame, InputError, Match, Transcript};
use botzone_games::engines::{generic_engines, Registry};
use botzone_games::game::{Game, Player};
use botzone_games::{ataxx, dots, nogo};
use clap::Parser;
use frontend::Args;
use serde_json::{json, Value};
use std::time::Instant;

/// Runs a bot with the generic engines on `input` with `flags`; returns (exit status as
/// Result, stdout).
fn run_bot<G: BotzoneGame>(flags: &[&str], input: &str) -> (Result<(), String>, String) {
    run_with::<G>(&Registry::new(generic_engines()), flags, input).0
}

/// Runs a bot with `registry`; returns ((exit status as Result, stdout), stderr).
fn run_with<G: BotzoneGame>(
    registry: &Registry<G>,
    flags: &[&str],
    input: &str,
) -> ((Result<(), String>, String), String) {
    let mut argv = vec!["bot"];
    argv.extend_from_slice(flags);
    let args = Args::parse_from(argv);
    let (mut out, mut log) = (Vec::new(), Vec::new());
    let result = frontend::run::<G>(Instant::now(), &args, registry, &mut input.as_bytes(), &mut out, &mut log);
    ((result.map_err(|e| e.to_string()), String::from_utf8(out).unwrap()), String::from_utf8(log).unwrap())
}

fn rebuild<G: BotzoneGame>(input: &str) -> Result<Match<G>, InputError> {
    Match::<G>::from_text(input)
}

/// Runs the Ataxx bot with its real engines.
fn run_ataxx(flags: &[&str], input: &str) -> (Result<(), String>, String) {
    run_with::<ataxx::Position>(&botzone_games::engines::ataxx::registry(), flags, input).0
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

/// `--fresh-search` keeps the process but not the search: its second answer is the one a
/// process started afresh on the whole history (without `data`) gives, search figures
/// included.
#[test]
fn a_kept_bot_with_fresh_search_answers_as_a_fresh_process() {
    let first_turn = r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1}],"responses":[]}"#;
    let flags = ["--nodes", "20000", "--seed", "5"];
    let (status, out) = run_ataxx(&flags, first_turn);
    status.unwrap();
    let ours: Value = serde_json::from_str(out.trim()).unwrap();
    let mut game = ataxx::Position::start();
    game.play(ataxx::Position::parse_json_move(&ours["response"]).unwrap().unwrap());
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let reply = ataxx::Position::json_move(Some(moves[0]));
    let kept = format!("{first_turn}\n{reply}\n");
    let (status, out) = run_ataxx(&[&flags[..], &["--keep-running", "--fresh-search"]].concat(), &kept);
    status.unwrap();
    let second: Value = serde_json::from_str(out.lines().nth(2).unwrap()).unwrap();
    let history =
        json!({"requests": [{"x0": -1, "y0": -1, "x1": -1, "y1": -1}, reply], "responses": [ours["response"]]});
    let (status, out) = run_ataxx(&[&flags[..], &["--no-carry"]].concat(), &history.to_string());
    status.unwrap();
    let afresh: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(second["response"], afresh["response"]);
    let figures = |v: &Value| v["debug"].as_str().unwrap().split(" ms=").next().unwrap().to_string();
    assert_eq!(figures(&second), figures(&afresh), "the same search: depth, nodes and score");
}

#[test]
fn keep_running_request_with_an_illegal_move_is_an_error() {
    let input = "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n{\"x\":42,\"y\":0}\n";
    let (status, _) = run_bot::<nogo::Position>(&["--nodes", "20", "--keep-running"], input);
    let err = status.unwrap_err();
    assert!(err.contains("turn 1") && err.contains("off the 9x9 board"), "{err}");
}

#[test]
fn an_unusable_time_limit_is_ignored_with_a_warning_on_stderr() {
    let input = r#"{"requests":[{"x":-1,"y":-1}],"responses":[],"time_limit":""}"#;
    let ((status, out), log) = run_with::<nogo::Position>(&Registry::new(generic_engines()), &["--nodes", "30"], input);
    status.unwrap();
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["response"]["x"].is_i64());
    assert!(log.contains("warning: time_limit \"\""), "{log}");
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
    // The network, the fitted terms and the hand-set terms value the start differently.
    let values = [score(&[]), score(&["--without", "network"]), score(&["--without", "network,fitted-weights"])];
    assert!(values[0] != values[1] && values[1] != values[2], "{values:?}");
    // Several at once, comma-separated.
    assert!(score(&["--without", "aspiration,lmr,rfp"]).starts_with("score="));
    let (result, _) = run_ataxx(&["--without", "lmr,bogus"], start);
    let err = result.unwrap_err();
    assert!(err.contains("no feature \"bogus\"") && err.contains("lmr, rfp"), "{err}");
    let (result, _) = run_ataxx(&["--engine", "seed", "--without", "lmr"], start);
    assert!(result.unwrap_err().contains("engine seed has no feature"));
}

#[test]
fn a_pretty_printed_turn_with_a_byte_order_mark_is_answered() {
    let input = "\u{feff}{\n  \"requests\": [\n    {\"x\": -1, \"y\": -1}\n  ],\n  \"responses\": []\n}\n";
    let (status, out) = run_bot::<nogo::Position>(&["--nodes", "30"], input);
    status.unwrap();
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["response"]["x"].is_i64(), "{out}");
}

#[test]
fn integral_numbers_written_otherwise_are_coordinates() {
    let input = r#"{"requests":[{"x":-1e0,"y":-1.0},{"x":4.0,"y":4e0}],"responses":[{"x":0,"y":0}]}"#;
    let m = rebuild::<nogo::Position>(input).unwrap();
    assert_eq!(m.moves.len(), 2);
    let err = rebuild::<nogo::Position>(r#"{"requests":[{"x":0.5,"y":1}],"responses":[]}"#).unwrap_err();
    assert!(err.to_string().contains("not an integer"), "{err}");
}

#[test]
fn an_unfinished_json_object_is_named_as_such() {
    let (status, _) = run_bot::<nogo::Position>(&[], "{\"requests\":[{\"x\":-1,\"y\":-1}],\n");
    let err = status.unwrap_err();
    assert!(err.contains("must be one JSON object") && err.contains("ends inside it"), "{err}");
}

#[test]
fn a_huge_input_is_refused_before_it_is_read() {
    let huge =
        format!("{{\"requests\":[{}{{\"x\":-1,\"y\":-1}}],\"responses\":[]}}", "{\"x\":-1,\"y\":-1},".repeat(400_000));
    assert!(huge.len() > 5 << 20);
    let start = Instant::now();
    let (status, out) = run_bot::<nogo::Position>(&["--nodes", "10"], &huge);
    let err = status.unwrap_err();
    assert!(err.contains("MB") && err.contains("no Botzone turn"), "{err}");
    assert!(out.is_empty());
    assert!(start.elapsed().as_secs() < 2);
}

#[test]
fn a_huge_input_over_many_lines_is_refused_too() {
    // Each entry on a line of its own: the object is read once, not again at every line.
    let entries = "{\"x\":-1,\"y\":-1},\n".repeat(400_000);
    let huge = format!("{{\"requests\":[\n{entries}{{\"x\":-1,\"y\":-1}}],\n\"responses\":[]}}\n");
    assert!(huge.len() > 5 << 20);
    let (status, out) = run_bot::<nogo::Position>(&["--nodes", "10"], &huge);
    let err = status.unwrap_err();
    assert!(err.contains("MB") && err.contains("no Botzone turn"), "{err}");
    assert!(out.is_empty());
}

#[test]
fn a_pencil_request_after_the_end_is_game_over_whatever_its_pass_flag() {
    // Play a whole game, then claim with pass 1 that the opponent moves again.
    let mut t = Transcript::<dots::Position>::new();
    let mut moves = Vec::new();
    while t.game().outcome().is_none() {
        if t.must_pass() {
            t.answer(None).unwrap();
        } else {
            t.game().legal_moves(&mut moves);
            t.answer(Some(moves[0])).unwrap();
        }
    }
    let mut input = t.input();
    let last = input["requests"].as_array_mut().unwrap().last_mut().unwrap();
    last["pass"] = json!(1);
    let err = rebuild::<dots::Position>(&input.to_string()).unwrap_err();
    assert!(matches!(err, InputError::GameOver { .. }), "{err:?}");
}

/// Runs the NoGo bot with its real engines; ((status, stdout), stderr).
fn run_nogo(flags: &[&str], input: &str) -> ((Result<(), String>, String), String) {
    run_with::<nogo::Position>(&botzone_games::engines::nogo::registry(), flags, input)
}

/// The answer's JSON object.
fn answer_of(out: &str) -> Value {
    serde_json::from_str(out.lines().next().expect("an answer line")).expect("JSON")
}

/// The count after `reused=` in a NoGo answer's debug text.
fn reused(answer: &Value) -> u64 {
    let debug = answer["debug"].as_str().unwrap();
    let field = debug.split_whitespace().find_map(|f| f.strip_prefix("reused=")).expect("a reused count");
    field.parse().unwrap()
}

#[test]
fn data_carries_the_tree_top_to_the_next_afresh_turn() {
    let flags = ["--nodes", "4000", "--seed", "1"];
    let mut t = Transcript::<nogo::Position>::new();
    for &(x, y) in &[(2, 2), (6, 6), (2, 6), (6, 2)] {
        t.answer(Some(nogo::Bitboard::point(x, y))).unwrap();
    }
    // Our turn: an answer with data, within Botzone's 100 KB.
    let ((status, out), _) = run_nogo(&flags, &t.input().to_string());
    status.unwrap();
    let ours = answer_of(&out);
    let data = ours["data"].as_str().expect("data").to_string();
    assert!(data.starts_with("nogo/mcts:") && data.len() <= 100 * 1024, "{} bytes", data.len());
    assert_eq!(reused(&ours), 0);
    t.answer(nogo::Position::parse_json_move(&ours["response"]).unwrap()).unwrap();
    // After a reply the search looked into (one with a subtree: there are a few), our next
    // turn starts from the carried subtree, as a kept-running bot's would.
    let mut replies = Vec::new();
    t.game().legal_moves(&mut replies);
    let mut found = None;
    for &reply in &replies {
        let mut next = t.clone();
        next.answer(Some(reply)).unwrap();
        let mut input = next.input();
        input["data"] = json!(data);
        let ((status, out), log) = run_nogo(&flags, &input.to_string());
        status.unwrap();
        assert!(log.is_empty(), "{log}");
        if reused(&answer_of(&out)) > 0 {
            found = Some(input);
            break;
        }
    }
    let input = found.expect("a reply whose subtree was carried");
    let ((_, out), _) = run_nogo(&["--nodes", "4000", "--seed", "1", "--no-carry"], &input.to_string());
    assert_eq!(reused(&answer_of(&out)), 0);
    assert!(answer_of(&out).get("data").is_none(), "--no-carry writes none either");
}

#[test]
fn bad_data_is_ignored_with_a_warning_and_changes_nothing() {
    let flags = ["--nodes", "3000", "--seed", "4"];
    let fixture =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/nogo/midgame.json")).unwrap();
    let mut input: Value = serde_json::from_str(&fixture).unwrap();
    let ((_, plain), _) = run_nogo(&flags, &input.to_string());
    let plain = answer_of(&plain);
    // This turn's own data belongs to the position after our answer: fed back to this
    // turn it is stale. Then foreign, cut, damaged, empty-headed, oversized, not a string.
    let good = plain["data"].as_str().unwrap().to_string();
    let (tag, body) = good.split_once(':').unwrap();
    let cases = [
        json!(good),
        json!("not ours"),
        json!(format!("ataxx/ab:{body}")),
        json!(format!("{tag}:{}", &body[..body.len() / 2])),
        json!(format!("{tag}:!!!{}", &body[3..])),
        json!(format!("{tag}:AAAAAAAAAAAAAAAAAAAAAAAA")),
        json!("x".repeat(300 * 1024)),
        json!(17),
    ];
    for data in cases {
        input["data"] = data.clone();
        let ((status, out), log) = run_nogo(&flags, &input.to_string());
        status.unwrap_or_else(|e| panic!("{e} with data {:.60}", data.to_string()));
        let answer = answer_of(&out);
        assert_eq!(answer["response"], plain["response"], "data {:.60}", data.to_string());
        assert_eq!(reused(&answer), 0);
        assert!(log.contains("warning") && log.contains("data"), "no warning for {:.60}: {log}", data.to_string());
    }
}
