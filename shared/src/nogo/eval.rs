//! NoGo position knowledge for the engines, beside the rules but outside them: seed 002's
//! eyes, tiger mouths (虎口) and forbidden points (禁入点), mobility and the position hash.
//! (The playouts, which need the group board, are in `groups.rs`.)

use super::bitboard::Bitboard;
use super::board::Position;
use crate::game::{mix64, Game, Player};

/// The side to move's legal points less the opponent's: in NoGo the side left without a
/// legal point loses.
pub fn mobility(p: &Position) -> i32 {
    let legal = p.legal_for_both();
    let me = p.to_move().index();
    legal[me].count() as i32 - legal[1 - me].count() as i32
}

/// A 64-bit hash of the stones and the side to move.
pub fn hash(p: &Position) -> u64 {
    let side = if p.to_move() == Player::First { 0 } else { 0x9e37_79b9_7f4a_7c15 };
    let (black, white) = (p.stones(Player::First).0, p.stones(Player::Second).0);
    mix64(black as u64 ^ mix64((black >> 64) as u64))
        ^ mix64(white as u64 ^ mix64((white >> 64) as u64)).rotate_left(23)
        ^ side
}

/// Weights of S(N) = n1*eyes + n2*tiger_mouths - n3*forbidden.
#[derive(Debug, Clone, Copy)]
pub struct SeedWeights {
    pub eye: i32,
    pub tiger_mouth: i32,
    pub forbidden: i32,
}

pub const SEED_WEIGHTS: SeedWeights = SeedWeights { eye: 2, tiger_mouth: 1, forbidden: 2 };

/// The terms of S for `player`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    /// Empty points whose every neighbour is `player`'s stone: the other side can never
    /// play there (it would be suicide or a capture).
    pub eyes: u32,
    /// Empty points surrounded by `player` on all sides but one empty one: an enemy stone
    /// there would have a single liberty.
    pub tiger_mouths: u32,
    /// Empty points where `player` may not play.
    pub forbidden: u32,
}

pub fn terms(p: &Position, player: Player) -> Terms {
    let own = p.stones(player);
    let empty = p.empty();
    let not_own = own.not();
    let eyes = empty.minus(not_own.neighbours());
    let mut tiger_mouths = 0;
    for point in empty.minus(eyes).iter() {
        let around = Bitboard::from_point(point).neighbours();
        let others = around.minus(own);
        if others.count() == 1 && !others.and(empty).is_empty() {
            tiger_mouths += 1;
        }
    }
    let forbidden = empty.minus(p.legal_points(player)).count();
    Terms { eyes: eyes.count(), tiger_mouths, forbidden }
}

/// S(N) from `player`'s view.
pub fn seed_score(p: &Position, player: Player, w: &SeedWeights) -> i32 {
    let t = terms(p, player);
    w.eye * t.eyes as i32 + w.tiger_mouth * t.tiger_mouths as i32 - w.forbidden * t.forbidden as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn corner_surrounded_by_black_is_a_black_eye() {
        let mut p = Position::start();
        for point in [Bitboard::point(1, 0), Bitboard::point(8, 8), Bitboard::point(0, 1)] {
            p.play(point);
        }
        let t = terms(&p, Player::First);
        assert_eq!(t.eyes, 1);
        // White may not play the eye: it is forbidden for white, not for black.
        assert_eq!(terms(&p, Player::Second).forbidden, 1);
        assert_eq!(t.forbidden, 0);
    }
}

#[cfg(test)]
mod hash_tests {
    use super::*;
    use crate::game::Game;
    use crate::nogo::Point;

    /// Plays `moves` alternately from the start (black first).
    fn after(moves: &[Point]) -> Position {
        let mut p = Position::start();
        for &m in moves {
            p.place_unchecked(m);
        }
        p
    }

    #[test]
    fn hash_tells_apart_stones_in_either_half_of_the_board_word() {
        // Points p and p + 64 share a bit position in the two halves of the u128: white
        // stones on both (or on neither) must not hash alike. The first version folded the
        // halves of white's word before mixing them, and the late solver's table took such
        // positions for one another (it claimed wins in lost NoGo endgames).
        let (a, b) = (3, 3 + 64);
        let (c, d) = (5, 5 + 64);
        let with_ab = after(&[40, a, 41, b]);
        let with_cd = after(&[40, c, 41, d]);
        assert_eq!(with_ab.to_move(), with_cd.to_move());
        assert_ne!(hash(&with_ab), hash(&with_cd));
        let black_ab = after(&[a, 40, b, 41]);
        let black_cd = after(&[c, 40, d, 41]);
        assert_ne!(hash(&black_ab), hash(&black_cd));
    }
}
