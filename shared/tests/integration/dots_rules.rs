//! Dots-and-Boxes (Pencil) rules, one test per rule.

use botzone_games::botzone::BotzoneGame;
use botzone_games::dots::Position;
use botzone_games::game::{Game, Outcome, Player};
use serde_json::json;

/// Draws the edge at Botzone grid (x, y).
fn draw(p: &mut Position, x: i64, y: i64) {
    let e = Position::parse_json_move(&json!({"x": x, "y": y})).unwrap().unwrap();
    p.try_play(e).unwrap();
}

#[test]
fn move_without_box_passes_turn() {
    let mut p = Position::start();
    draw(&mut p, 1, 0);
    assert_eq!(p.to_move(), Player::Second);
}

#[test]
fn box_completion_keeps_turn() {
    let mut p = Position::start();
    draw(&mut p, 1, 0); // red: top of box (1,1)
    draw(&mut p, 1, 2); // blue: bottom
    draw(&mut p, 0, 1); // red: left
    assert_eq!(p.to_move(), Player::Second);
    assert_eq!(p.boxes_completed_by(Position::parse_json_move(&json!({"x":2,"y":1})).unwrap().unwrap()), 1);
    draw(&mut p, 2, 1); // blue: right, completes the box
    assert_eq!(p.score(Player::Second), 1);
    assert_eq!(p.to_move(), Player::Second, "completing a box keeps the turn");
}

#[test]
fn one_edge_can_complete_two_boxes() {
    let mut p = Position::start();
    // Boxes (1,1) and (3,1) share the vertical edge (2,1).
    for (x, y) in [(1, 0), (1, 2), (0, 1), (3, 0), (3, 2), (4, 1)] {
        draw(&mut p, x, y);
    }
    let mover = p.to_move();
    draw(&mut p, 2, 1);
    assert_eq!(p.score(mover), 2);
    assert_eq!(p.to_move(), mover);
}

#[test]
fn drawn_edge_is_illegal() {
    let mut p = Position::start();
    draw(&mut p, 1, 0);
    let e = Position::parse_json_move(&json!({"x": 1, "y": 0})).unwrap().unwrap();
    assert!(p.check(e).unwrap_err().contains("already drawn"));
}

#[test]
fn dots_and_boxes_are_not_edges() {
    assert!(Position::parse_json_move(&json!({"x": 0, "y": 0})).unwrap_err().contains("not an edge"));
    assert!(Position::parse_json_move(&json!({"x": 1, "y": 1})).unwrap_err().contains("not an edge"));
    assert!(Position::parse_json_move(&json!({"x": 11, "y": 0})).unwrap_err().contains("off"));
}

#[test]
fn game_ends_when_every_edge_is_drawn_and_most_boxes_win() {
    let mut rng = fastrand::Rng::with_seed(3);
    let mut p = Position::start();
    let mut moves = Vec::new();
    let mut plies = 0;
    loop {
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        assert_eq!(p.outcome(), None);
        p.play(moves[rng.usize(..moves.len())]);
        plies += 1;
    }
    assert_eq!(plies, 60);
    let (red, blue) = (p.score(Player::First), p.score(Player::Second));
    assert_eq!(red + blue, 25);
    let winner = if red > blue { Player::First } else { Player::Second };
    assert_eq!(p.outcome(), Some(Outcome::Win(winner)));
}

/// Taking an opened chain, the double-dealing decline is worth trying only where it hands
/// over the last two boxes: an earlier one hands over the rest of the chain too.
#[test]
fn a_chain_is_declined_only_at_its_last_two_boxes() {
    use botzone_games::dots::Capture;
    let edge = |x: i64, y: i64| Position::parse_json_move(&json!({"x": x, "y": y})).unwrap().unwrap();
    let mut p = Position::start();
    // The top row of boxes as a 5-chain, both ends on the border, opened at its left end.
    for x in [1, 3, 5, 7, 9] {
        draw(&mut p, x, 0);
        draw(&mut p, x, 2);
    }
    draw(&mut p, 0, 1);
    for take in [2, 4, 6] {
        assert_eq!(p.capture(), Some(Capture::Forced(edge(take, 1))), "{p}");
        draw(&mut p, take, 1);
    }
    assert_eq!(p.capture(), Some(Capture::TakeOrDecline(edge(8, 1), edge(10, 1))), "{p}");
}

#[test]
fn side_counts_agree_with_each_box() {
    // Random edge sets of every density, boxes taken or not: the bit planes count each
    // box's drawn sides as `box_sides` does.
    let mut rng = fastrand::Rng::with_seed(17);
    for _ in 0..300 {
        let mut p = Position::start();
        let mut moves = Vec::new();
        for _ in 0..rng.usize(0..=60) {
            p.legal_moves(&mut moves);
            p.play(moves[rng.usize(..moves.len())]);
        }
        let counts = p.side_counts();
        for b in 0..25 {
            for n in 0..=4 {
                assert_eq!(counts.boxes_with(n) >> b & 1 == 1, p.box_sides(b) == n, "box {b}, {n} sides, {p:?}");
            }
        }
    }
}
