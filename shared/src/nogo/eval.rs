//! Seed 002's position knowledge for NoGo, beside the rules but outside them: eyes,
//! tiger mouths (虎口) and forbidden points (禁入点).

use super::bitboard::Bitboard;
use super::board::Position;
use crate::game::Player;

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
