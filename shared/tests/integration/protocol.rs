//! The Botzone protocol: parsing, rebuilding with checks, pass turns, kept-running lines,
//! answers, and typed errors.

use botzone_games::ataxx;
use botzone_games::botzone::{parse_turn, At, BotzoneGame, Entry, Format, InputError, Match, Transcript};
use botzone_games::dots;
use botzone_games::game::{Game, Player};
use botzone_games::nogo;
use serde_json::json;

fn rebuild<G: BotzoneGame>(input: &str) -> Result<Match<G>, InputError> {
    let mut lines = input.lines().skip(1).map(str::to_string);
    let turn = parse_turn::<G>(input.lines().next().unwrap_or(""), &mut || lines.next())?;
    Match::rebuild(&turn)
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
    let input = concat!(
        r#"{"requests":[{"x":-1,"y":-1}],"responses":[],"data":"","globaldata":"x","#,
        r#""time_limit":1,"memory_limit":256,"extra":[1,2]}"#
    );
    let mut lines = std::iter::empty();
    let turn = parse_turn::<nogo::Position>(input, &mut || lines.next()).unwrap();
    assert_eq!(turn.time_limit_ms, Some(1000));
}

#[test]
fn illegal_history_move_names_turn_and_move() {
    // Our response on turn 1 jumps onto an occupied square.
    let input = concat!(
        r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1},{"x0":6,"y0":0,"x1":5,"y1":0}],"#,
        r#""responses":[{"x0":0,"y0":0,"x1":1,"y1":1}, {"x0":1,"y0":1,"x1":0,"y1":0}]}"#
    );
    assert!(matches!(rebuild::<ataxx::Position>(input), Err(InputError::Syntax(_))));
    let input = concat!(
        r#"{"requests":[{"x0":-1,"y0":-1,"x1":-1,"y1":-1},{"x0":6,"y0":0,"x1":5,"y1":0},"#,
        r#"{"x0":5,"y0":0,"x1":4,"y1":0}],"#,
        r#""responses":[{"x0":0,"y0":0,"x1":1,"y1":1},{"x0":1,"y0":1,"x1":0,"y1":0}]}"#
    );
    let err = rebuild::<ataxx::Position>(input).unwrap_err();
    match &err {
        InputError::Illegal { at, mv, .. } => {
            assert_eq!(*at, At { turn: 1, entry: Entry::Response });
            assert_eq!(mv, r#"{"x0":1,"x1":0,"y0":1,"y1":0}"#);
        }
        other => panic!("{other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("turn 1") && text.contains("response") && text.contains("\"x0\":1"), "{text}");
}

#[test]
fn history_of_another_game_is_malformed_not_illegal() {
    let err = rebuild::<ataxx::Position>(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#).unwrap_err();
    match &err {
        InputError::Malformed { at, reason, .. } => {
            assert_eq!(*at, At { turn: 0, entry: Entry::Request });
            assert_eq!(reason, "missing field \"x0\"");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_move_off_the_board_is_malformed_and_an_occupied_point_illegal() {
    let off = r#"{"requests":[{"x":-1,"y":-1},{"x":9,"y":0}],"responses":[{"x":0,"y":0}]}"#;
    assert!(matches!(rebuild::<nogo::Position>(off), Err(InputError::Malformed { at: At { turn: 1, .. }, .. })));
    let occupied = r#"{"requests":[{"x":-1,"y":-1},{"x":0,"y":0}],"responses":[{"x":0,"y":0}]}"#;
    let err = rebuild::<nogo::Position>(occupied).unwrap_err();
    assert!(matches!(&err, InputError::Illegal { at: At { turn: 1, entry: Entry::Request }, .. }), "{err:?}");
}

#[test]
fn an_unreadable_optional_field_is_ignored_with_a_warning() {
    for (limit, read) in [("\"\"", None), ("\"abc\"", None), ("-3", None), ("[1]", None), ("\"2\"", Some(2000))] {
        let input = format!(r#"{{"requests":[{{"x":-1,"y":-1}}],"responses":[],"time_limit":{limit}}}"#);
        let turn = parse_turn::<nogo::Position>(&input, &mut || None).unwrap();
        assert_eq!(turn.time_limit_ms, read, "{limit}");
        assert_eq!(turn.warnings.len(), usize::from(read.is_none()), "{limit}");
        let m = Match::<nogo::Position>::rebuild(&turn).unwrap();
        assert_eq!(m.warnings, turn.warnings);
    }
}

#[test]
fn kept_running_lines_are_requests_or_whole_histories() {
    let mut m = rebuild::<nogo::Position>(r#"{"requests":[{"x":-1,"y":-1}],"responses":[]}"#).unwrap();
    m.apply_response(Some(nogo::Position::parse_json_move(&json!({"x": 0, "y": 0})).unwrap().unwrap())).unwrap();
    m.apply_line(r#"{"x":1,"y":1}"#).unwrap();
    assert_eq!((m.turn, m.moves.len()), (2, 2));
    assert_eq!(m.history_json(), json!({"requests": [{"x":-1,"y":-1},{"x":1,"y":1}], "responses": [{"x":0,"y":0}]}));
    assert_eq!(m.last_request_json(), &json!({"x": 1, "y": 1}));
    // A malformed line and an illegal one are told apart, and name the turn.
    let mut copy = m.clone();
    assert!(matches!(copy.apply_line("{\"x\":1"), Err(InputError::Malformed { at: At { turn: 2, .. }, .. })));
    m.apply_response(Some(nogo::Position::parse_json_move(&json!({"x": 2, "y": 2})).unwrap().unwrap())).unwrap();
    assert!(matches!(m.clone().apply_line(r#"{"x":0,"y":0}"#), Err(InputError::Illegal { .. })));
    // A whole history replaces the match and keeps the time limit it had.
    m.time_limit_ms = Some(500);
    m.apply_line(r#"{"requests":[{"x":4,"y":4}],"responses":[]}"#).unwrap();
    assert_eq!((m.us, m.turn, m.moves.len(), m.time_limit_ms), (Player::Second, 1, 1, Some(500)));
}

#[test]
fn the_judge_checks_answers_the_same_way_for_both_sides() {
    let mut t = Transcript::<dots::Position>::new();
    let edge = |x: i64, y: i64| dots::Position::parse_json_move(&json!({"x": x, "y": y})).unwrap();
    assert!(t.check(None).is_err());
    for (x, y) in [(1, 0), (9, 10), (0, 1), (10, 9), (1, 2)] {
        t.answer(edge(x, y)).unwrap();
    }
    t.answer(edge(2, 1)).unwrap(); // blue completes a box and moves again: red must pass
    assert!(t.check(edge(5, 4)).unwrap_err().contains("had to pass"));
    let m = Match::<dots::Position>::from_text(&t.input().to_string()).unwrap();
    assert_eq!(m.check(None), t.check(None));
    assert_eq!(m.check(edge(5, 4)), t.check(edge(5, 4)));
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
fn simplified_interaction_is_refused_for_pencil() {
    let err = rebuild::<dots::Position>("1\n-1 -1\n").unwrap_err();
    assert!(err.to_string().contains("simplified interaction is not defined"));
}

#[test]
fn pencil_pass_flag_that_contradicts_the_board_is_an_error() {
    let input = r#"{"requests":[{"x":-1,"y":-1,"pass":0},{"x":9,"y":10,"pass":1}],"responses":[{"x":1,"y":0}]}"#;
    let err = rebuild::<dots::Position>(input).unwrap_err();
    match err {
        InputError::Illegal { at, reason, .. } => {
            assert_eq!(at.turn, 1);
            assert!(reason.starts_with("pass flag is 1"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn pass_when_a_move_is_due_is_an_error() {
    let input = r#"{"requests":[{"x":-1,"y":-1},{"x":-1,"y":-1}],"responses":[{"x":2,"y":2}]}"#;
    let err = rebuild::<nogo::Position>(input).unwrap_err();
    assert!(matches!(err, InputError::Illegal { at: At { turn: 1, entry: Entry::Request }, .. }), "{err:?}");
}

#[test]
fn json_answer_format_is_one_line() {
    let line = botzone_games::botzone::format_answer::<nogo::Position>(Format::Json, Some(3), "a\nb", None);
    assert!(!line.contains('\n'));
}
