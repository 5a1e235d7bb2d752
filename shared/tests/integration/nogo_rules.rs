//! NoGo rules, one test per rule.

use botzone_games::game::{Game, Outcome, Player};
use botzone_games::nogo::{Bitboard, Position, CENTRE};

fn pt(x: u8, y: u8) -> u8 {
    Bitboard::point(x, y)
}

fn play_all(moves: &[(u8, u8)]) -> Position {
    let mut p = Position::start();
    for &(x, y) in moves {
        p.try_play(pt(x, y)).unwrap_or_else(|e| panic!("({x},{y}): {e}"));
    }
    p
}

#[test]
fn suicide_is_illegal() {
    // White stones at (1,0) and (0,1) surround the corner: black may not play (0,0).
    let p = play_all(&[(4, 4), (1, 0), (5, 5), (0, 1)]);
    assert_eq!(p.to_move(), Player::First);
    assert!(p.check(pt(0, 0)).unwrap_err().contains("suicide"));
    assert!(!p.legal_points(Player::First).contains(pt(0, 0)));
}

#[test]
fn capture_is_illegal() {
    // A white stone at (0,0) with black on (1,0): black may not take its last liberty.
    let p = play_all(&[(1, 0), (0, 0)]);
    assert!(p.check(pt(0, 1)).unwrap_err().contains("captures"));
    assert!(!p.legal_points(Player::First).contains(pt(0, 1)));
    // White may extend there: the joined group gains liberties at (1,1) and (0,2).
    assert!(p.legal_points(Player::Second).contains(pt(0, 1)));
}

#[test]
fn filling_own_eye_is_legal_while_the_group_keeps_a_liberty() {
    let p = play_all(&[(1, 0), (8, 8), (0, 1), (8, 7)]);
    // Black (0,0) joins both black stones, whose group keeps liberties at (2,0),(1,1),(0,2).
    assert!(p.legal_points(Player::First).contains(pt(0, 0)));
    // White there would be suicide.
    assert!(!p.legal_points(Player::Second).contains(pt(0, 0)));
}

#[test]
fn joining_a_group_in_atari_through_its_last_liberty_is_suicide() {
    // Black (0,0),(1,0) with white (2,0),(1,1),(0,2)... black's group has one liberty (0,1).
    let p = play_all(&[(0, 0), (2, 0), (1, 0), (1, 1), (8, 8), (0, 2)]);
    assert_eq!(p.to_move(), Player::First);
    assert!(p.check(pt(0, 1)).unwrap_err().contains("suicide"));
}

#[test]
fn occupied_point_is_illegal() {
    let p = play_all(&[(3, 3)]);
    assert!(p.check(pt(3, 3)).unwrap_err().contains("occupied"));
}

#[test]
fn side_without_legal_move_loses() {
    // Play random legal games to the end: the side to move at the end has no legal move
    // and the outcome names the other side.
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..20 {
        let mut p = Position::start();
        let mut moves = Vec::new();
        loop {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.play(moves[rng.usize(..moves.len())]);
        }
        assert!(p.legal_points(p.to_move()).is_empty());
        assert_eq!(p.outcome(), Some(Outcome::Win(p.to_move().other())));
    }
}

#[test]
fn the_judge_allows_an_opening_at_the_centre() {
    assert!(Position::start().check(CENTRE).is_ok());
}
