//! N x N boards on which two players in turn mark any empty cell, and K marks in a row
//! (across, down or diagonally) win; a full board without one is a draw. Tic-Tac-Toe
//! (Large) is 5 x 5 with five in a row, Connect 5 is 8 x 8 with five.

use botzone_games::game::{Game, Outcome, Player};
use botzone_games::search::memory::{signed_cells, Features};

/// Cell `N * row + column` is bit of that index in each side's word (N at most 8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct InARow<const N: u32, const K: u32> {
    marks: [u64; 2],
    to_move: Player,
    winner: Option<Player>,
}

/// Tic-Tac-Toe (Large): 5 x 5, five in a row.
pub type TicTacToe5 = InARow<5, 5>;
/// Connect 5: 8 x 8, five in a row (marks go anywhere, no gravity).
pub type Connect5 = InARow<8, 5>;

impl<const N: u32, const K: u32> Default for InARow<N, K> {
    fn default() -> Self {
        const { assert!(N <= 8 && K <= N) };
        InARow { marks: [0; 2], to_move: Player::First, winner: None }
    }
}

impl<const N: u32, const K: u32> InARow<N, K> {
    const CELLS: u32 = N * N;

    fn occupied(&self) -> u64 {
        self.marks[0] | self.marks[1]
    }

    /// Whether `player`'s mark on `cell` completes K in a row through it.
    fn completes_line(&self, player: Player, cell: u32) -> bool {
        let mine = self.marks[player.index()];
        let (row, col) = ((cell / N) as i32, (cell % N) as i32);
        let at = |r: i32, c: i32| {
            (0..N as i32).contains(&r) && (0..N as i32).contains(&c) && mine >> (r * N as i32 + c) & 1 != 0
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let run = |sign: i32| (1..).take_while(|&k| at(row + sign * k * dr, col + sign * k * dc)).count();
            1 + run(1) + run(-1) >= K as usize
        })
    }
}

impl<const N: u32, const K: u32> Game for InARow<N, K> {
    type Move = u8;
    const MOVE_SPACE: usize = (N * N) as usize;

    fn move_index(mv: u8) -> usize {
        usize::from(mv)
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        moves.extend((0..Self::CELLS as u8).filter(|&c| self.occupied() >> c & 1 == 0));
    }

    fn play(&mut self, cell: u8) {
        debug_assert!(self.occupied() >> cell & 1 == 0, "cell {cell} is taken");
        self.marks[self.to_move.index()] |= 1 << cell;
        if self.completes_line(self.to_move, u32::from(cell)) {
            self.winner = Some(self.to_move);
        }
        self.to_move = self.to_move.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(p) => Some(Outcome::Win(p)),
            None if self.occupied().count_ones() == Self::CELLS => Some(Outcome::Draw),
            None => None,
        }
    }
}

/// phi(s): each cell +1 (the side to move's), -1 (the opponent's) or 0.
impl<const N: u32, const K: u32> Features for InARow<N, K> {
    fn features(&self) -> Vec<f32> {
        let (me, them) = (self.marks[self.to_move.index()], self.marks[self.to_move.other().index()]);
        signed_cells(Self::CELLS as u8, |c| me >> c & 1 != 0, |c| them >> c & 1 != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play<const N: u32, const K: u32>(cells: &[u8]) -> InARow<N, K> {
        let mut g = InARow::<N, K>::default();
        for &c in cells {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            assert!(moves.contains(&c), "cell {c} is legal");
            g.play(c);
        }
        g
    }

    #[test]
    fn five_in_a_row_wins_in_each_direction_and_four_does_not() {
        // First player's cells, second player's replies far away (row 4 of the 5x5 board
        // would interfere with the vertical line, so they go to the last column).
        let across = play::<5, 5>(&[0, 5, 1, 6, 2, 7, 3, 8, 4]);
        assert_eq!(across.outcome(), Some(Outcome::Win(Player::First)));
        let down = play::<5, 5>(&[0, 1, 5, 2, 10, 3, 15, 4, 20]);
        assert_eq!(down.outcome(), Some(Outcome::Win(Player::First)));
        let diagonal = play::<5, 5>(&[0, 1, 6, 2, 12, 3, 18, 4, 24]);
        assert_eq!(diagonal.outcome(), Some(Outcome::Win(Player::First)));
        let anti = play::<5, 5>(&[4, 0, 8, 1, 12, 2, 16, 3, 20]);
        assert_eq!(anti.outcome(), Some(Outcome::Win(Player::First)));
        let four = play::<5, 5>(&[0, 5, 1, 6, 2, 7, 3]);
        assert_eq!(four.outcome(), None);
        let mut moves = Vec::new();
        across.legal_moves(&mut moves);
        assert!(moves.is_empty(), "no move after a win");
    }

    #[test]
    fn lines_do_not_wrap_round_the_edge() {
        // On 8x8, cells 5, 6, 7 then 8, 9 (next row) are not five in a row.
        let g = play::<8, 5>(&[5, 40, 6, 41, 7, 50, 8, 51, 9]);
        assert_eq!(g.outcome(), None);
        let g = play::<8, 5>(&[3, 40, 4, 41, 5, 50, 6, 51, 7]);
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        // Columns filled in pairs so that no player gets five: rows alternate the pattern.
        let mut g = TicTacToe5::default();
        let order = [0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24, 5, 6, 7, 8, 9, 15, 16, 17, 18, 19];
        for c in order {
            g.play(c);
        }
        assert_eq!(g.occupied().count_ones(), 25);
        assert_eq!(g.outcome(), Some(Outcome::Draw), "{g:?}");
    }

    #[test]
    fn features_are_from_the_side_to_moves_view() {
        let g = play::<5, 5>(&[0, 1]);
        let phi = g.features();
        assert_eq!((phi[0], phi[1], phi[2]), (1.0, -1.0, 0.0));
    }
}
