//! Connect 4 on the standard 6x7 board: a test game of seed 000's experiments, not a
//! bot. Its tests also check the generic searches the experiments lean on (flat Monte
//! Carlo, the memory-augmented MCTS as the paper ran it) on a game small enough to reason
//! about.
//!
//! Bitboard layout: column-major with one spare bit on top of each column, bit
//! 7*column + row (row 0 at the bottom), so that shifts by 1 (vertical), 7 (horizontal),
//! 6 and 8 (diagonals) never wrap into a neighbouring column's cells.

use botzone_games::game::{Game, Outcome, Player};
use botzone_games::search::memory::Features;

const HEIGHT: u32 = 6;
const WIDTH: u32 = 7;
const COLUMN: u32 = HEIGHT + 1;
const BOTTOM: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < WIDTH {
        b |= 1 << (c * COLUMN);
        c += 1;
    }
    b
};
const FULL: u64 = BOTTOM * ((1 << HEIGHT) - 1);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Connect4 {
    /// Stones of each player.
    stones: [u64; 2],
    to_move: Player,
    moves: u8,
}

impl Default for Connect4 {
    fn default() -> Self {
        Connect4 { stones: [0; 2], to_move: Player::First, moves: 0 }
    }
}

fn has_four(b: u64) -> bool {
    [1, COLUMN, COLUMN - 1, COLUMN + 1].iter().any(|&d| {
        let m = b & (b >> d);
        m & (m >> (2 * d)) != 0
    })
}

impl Connect4 {
    pub fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// +1 own, -1 opponent, 0 empty for each of the 42 cells, from the side to move's view.
    pub fn cells_for_side_to_move(&self) -> Vec<f32> {
        let me = self.to_move.index();
        let mut out = Vec::with_capacity(42);
        for c in 0..WIDTH {
            for r in 0..HEIGHT {
                let bit = 1u64 << (c * COLUMN + r);
                out.push(if self.stones[me] & bit != 0 {
                    1.0
                } else if self.stones[1 - me] & bit != 0 {
                    -1.0
                } else {
                    0.0
                });
            }
        }
        out
    }
}

impl Game for Connect4 {
    type Move = u8;
    const MOVE_SPACE: usize = WIDTH as usize;

    fn move_index(mv: u8) -> usize {
        mv as usize
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let top = (self.occupied() + BOTTOM) & FULL;
        for c in 0..WIDTH {
            if top & (((1 << HEIGHT) - 1) << (c * COLUMN)) != 0 {
                moves.push(c as u8);
            }
        }
    }

    fn play(&mut self, column: u8) {
        let column_bits = ((1u64 << HEIGHT) - 1) << (u32::from(column) * COLUMN);
        let next = (self.occupied() + BOTTOM) & column_bits;
        debug_assert!(next != 0, "column {column} is full");
        self.stones[self.to_move.index()] |= next;
        self.to_move = self.to_move.other();
        self.moves += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = self.to_move.other();
        if has_four(self.stones[last.index()]) {
            Some(Outcome::Win(last))
        } else if u32::from(self.moves) == WIDTH * HEIGHT {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

impl Features for Connect4 {
    fn features(&self) -> Vec<f32> {
        self.cells_for_side_to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_in_a_row_wins_in_each_direction() {
        let play = |cols: &[u8]| {
            let mut g = Connect4::default();
            for &c in cols {
                g.play(c);
            }
            g
        };
        assert_eq!(play(&[0, 1, 0, 1, 0, 1, 0]).outcome(), Some(Outcome::Win(Player::First))); // vertical
        assert_eq!(play(&[0, 0, 1, 1, 2, 2, 3]).outcome(), Some(Outcome::Win(Player::First))); // horizontal
        assert_eq!(play(&[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]).outcome(), Some(Outcome::Win(Player::First))); // diagonal
        assert_eq!(play(&[0, 1, 0, 1, 0, 1]).outcome(), None);
    }

    #[test]
    fn full_column_is_not_a_move() {
        let mut g = Connect4::default();
        for _ in 0..6 {
            g.play(3);
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert_eq!(moves, vec![0, 1, 2, 4, 5, 6]);
    }

    #[test]
    fn flat_monte_carlo_takes_an_immediate_win() {
        use botzone_games::search::{flat_mc::FlatMc, Budget, Engine};
        // First player has three in column 0; the second has stones in column 1.
        let mut g = Connect4::default();
        for c in [0, 1, 0, 1, 0, 1] {
            g.play(c);
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let result = FlatMc::new(3).search(&g, &moves, &Budget::iterations(700));
        assert_eq!(result.best, 0, "column 0 wins at once: {}", result.summary);
        assert!(result.root_stats.iter().all(|s| s.1 == 100), "{:?}", result.root_stats);
        assert_eq!(result.root_stats[0].2, 1.0);
    }
}
