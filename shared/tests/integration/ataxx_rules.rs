//! Ataxx rules as Botzone's judge applies them, one test per rule.

use botzone_games::ataxx::{Bitboard, Move, Position, MOVE_CAP};
use botzone_games::game::{Game, Outcome, Player};

fn sq(x: u8, y: u8) -> u8 {
    Bitboard::square(x, y)
}
fn mv(x0: u8, y0: u8, x1: u8, y1: u8) -> Move {
    Move { from: sq(x0, y0), to: sq(x1, y1) }
}
fn board(squares: &[(u8, u8)]) -> Bitboard {
    squares.iter().fold(Bitboard::EMPTY, |b, &(x, y)| b.with(sq(x, y)))
}

#[test]
fn clone_keeps_source() {
    let mut p = Position::start();
    p.try_play(mv(0, 0, 1, 1)).unwrap();
    assert!(p.pieces(Player::First).contains(sq(0, 0)));
    assert!(p.pieces(Player::First).contains(sq(1, 1)));
    assert_eq!(p.pieces(Player::First).count(), 3);
}

#[test]
fn jump_empties_source() {
    let mut p = Position::start();
    p.try_play(mv(0, 0, 2, 2)).unwrap();
    assert!(!p.pieces(Player::First).contains(sq(0, 0)));
    assert!(p.pieces(Player::First).contains(sq(2, 2)));
    assert_eq!(p.pieces(Player::First).count(), 2);
}

#[test]
fn move_flips_all_eight_enemy_neighbours_only() {
    let white = board(&[(2, 2), (3, 2), (4, 2), (2, 3), (4, 3), (2, 4), (3, 4), (4, 4), (6, 6)]);
    let black = board(&[(3, 5), (0, 0)]);
    let mut p = Position::from_parts(black, white, Player::First, 10);
    p.try_play(mv(3, 5, 3, 3)).unwrap(); // a jump two rows up
    assert_eq!(p.pieces(Player::First).count(), 10);
    assert_eq!(p.pieces(Player::Second), board(&[(6, 6)]));
}

#[test]
fn distance_three_and_occupied_targets_are_illegal() {
    let p = Position::start();
    assert!(p.check(mv(0, 0, 3, 0)).unwrap_err().contains("neither a clone nor a jump"));
    assert!(p.check(mv(0, 0, 6, 0)).is_err());
    assert!(p.check(mv(6, 0, 5, 0)).unwrap_err().contains("no piece of the side to move"));
}

#[test]
fn wiped_out_side_loses_at_once() {
    let black = board(&[(0, 0)]);
    let white = board(&[(1, 1)]);
    let mut p = Position::from_parts(black, white, Player::First, 5);
    p.try_play(mv(0, 0, 1, 0)).unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn blocked_side_gives_empties_to_opponent() {
    // White fills rows 0-2 (21 pieces), black rows 3-4 but (3,4) (13 pieces), rows 5-6 empty.
    let mut white = Bitboard::EMPTY;
    let mut black = Bitboard::EMPTY;
    for x in 0..7 {
        for y in 0..3 {
            white = white.with(sq(x, y));
        }
        for y in 3..5 {
            black = black.with(sq(x, y));
        }
    }
    let black = black.without(sq(3, 4));
    let mut p = Position::from_parts(black, white, Player::First, 100);
    assert!(p.can_move(Player::Second), "white can still jump into (3,4)");
    p.try_play(mv(3, 3, 3, 4)).unwrap();
    // White is now blocked: no pass on Botzone, the game ends and black, who can still
    // move, takes the 14 empty squares: 14 + 14 against 21.
    assert!(!p.can_move(Player::Second));
    assert!(p.pieces(Player::Second).count() > p.pieces(Player::First).count());
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::First)));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn mover_that_blocks_itself_hands_empties_to_opponent() {
    // Black's single piece in the corner clones into the last square it can reach.
    let black = board(&[(0, 0)]);
    let mut white = Bitboard::FULL;
    for &(x, y) in &[(0, 0), (1, 0), (6, 6), (5, 6)] {
        white = white.without(sq(x, y));
    }
    let mut p = Position::from_parts(black, white, Player::First, 50);
    p.try_play(mv(0, 0, 1, 0)).unwrap();
    assert_eq!(p.pieces(Player::First).count(), 6);
    assert!(!p.can_move(Player::First));
    assert!(p.can_move(Player::Second));
    // White is credited with the two empty squares: 41 + 2 against 6.
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::Second)));
}

#[test]
fn equal_counts_at_the_cap_are_a_draw() {
    let black = board(&[(0, 0), (0, 1)]);
    let white = board(&[(6, 6), (6, 5)]);
    let mut p = Position::from_parts(black, white, Player::First, MOVE_CAP - 1);
    p.try_play(mv(0, 0, 2, 0)).unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Draw));
}

#[test]
fn game_ends_at_the_move_cap() {
    let black = board(&[(0, 0)]);
    let white = board(&[(6, 6), (6, 5)]);
    let mut p = Position::from_parts(black, white, Player::First, MOVE_CAP - 1);
    assert_eq!(p.outcome(), None);
    p.try_play(mv(0, 0, 2, 0)).unwrap();
    assert_eq!(p.ply(), MOVE_CAP);
    // Both sides could move, so nobody takes the empties: 1 against 2.
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::Second)));
}

#[test]
fn circular_move_is_illegal() {
    // Both sides jump back and forth without flipping: the fifth move would repeat the
    // pair (snapshot 0, snapshot 1).
    let mut p = Position::start();
    for m in [mv(0, 0, 2, 0), mv(6, 0, 4, 1), mv(2, 0, 0, 0), mv(4, 1, 6, 0)] {
        p.try_play(m).unwrap();
    }
    assert_eq!(p, {
        let mut q = Position::start();
        q.try_play(mv(0, 0, 2, 0)).unwrap();
        q.try_play(mv(6, 0, 4, 1)).unwrap();
        q.try_play(mv(2, 0, 0, 0)).unwrap();
        q.try_play(mv(4, 1, 6, 0)).unwrap();
        q
    });
    let repeat = mv(0, 0, 2, 0);
    assert!(p.is_circular(repeat));
    assert!(p.check(repeat).unwrap_err().contains("CIRCULAR_MOVE"));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(!moves.contains(&repeat));
    assert!(p.source_target_pairs().iter().all(|&m| m != repeat));
    // Another jump is fine, and a clone resets the history.
    assert!(p.check(mv(0, 0, 2, 1)).is_ok());
    p.try_play(mv(0, 0, 1, 0)).unwrap();
    assert!(!p.is_circular(mv(6, 0, 4, 1)));
}

#[test]
fn circular_rule_needs_an_earlier_pair_not_the_last_one() {
    let mut p = Position::start();
    p.try_play(mv(0, 0, 2, 0)).unwrap();
    p.try_play(mv(6, 0, 4, 1)).unwrap();
    // Jumping back is not a repetition: the pair (s2, s3) has not occurred.
    assert!(p.check(mv(2, 0, 0, 0)).is_ok());
}

#[test]
fn perft_matches_published_counts() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/ataxx/perft.txt")).unwrap();
    let start = Position::start();
    let mut checked = 0;
    for line in text.lines().filter(|l| l.starts_with("perft ")) {
        let f: Vec<u64> = line.split_whitespace().skip(1).map(|v| v.parse().unwrap()).collect();
        if f[0] <= 5 {
            assert_eq!(start.perft(f[0] as u32), f[1], "depth {}", f[0]);
            checked += 1;
        }
    }
    assert_eq!(checked, 5);
}

#[test]
fn a_single_move_has_one_index_whatever_its_source() {
    let to = (3, 3);
    let single = |x0, y0| <Position as Game>::move_index(mv(x0, y0, to.0, to.1));
    assert_eq!(single(2, 2), single(4, 3), "the same clone from two neighbours");
    let jump = <Position as Game>::move_index(mv(1, 1, to.0, to.1));
    assert_ne!(jump, single(2, 2), "a jump to the same square is another move");
    assert_ne!(jump, <Position as Game>::move_index(mv(5, 5, to.0, to.1)), "jumps differ by source");
    assert!(single(2, 2) < <Position as Game>::MOVE_SPACE);
}
