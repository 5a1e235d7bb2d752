//! Breakthrough on a 6 x 6 board: each side starts with its two home rows full of pawns. A
//! pawn steps one row forward, straight onto an empty cell or diagonally onto an empty
//! cell or an opponent's pawn (capturing it). Reaching the far row wins; so does taking
//! every opponent pawn. (A side with pawns always has a move: its most advanced pawn can
//! step diagonally onto an empty cell or a capture.)

use botzone_games::game::{Game, Outcome, Player};
use botzone_games::search::memory::{signed_cells, Features};

const SIZE: u8 = 6;
const CELLS: u8 = SIZE * SIZE;
const ROW: u64 = (1 << SIZE) - 1;

/// Cell `6 * row + column` is that bit; the first player starts on rows 0-1 and moves up
/// (towards row 5), the second on rows 4-5 and moves down.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Breakthrough {
    pawns: [u64; 2],
    to_move: Player,
}

impl Default for Breakthrough {
    fn default() -> Self {
        Breakthrough { pawns: [ROW | ROW << SIZE, ROW << (4 * SIZE) | ROW << (5 * SIZE)], to_move: Player::First }
    }
}

/// A move: the pawn's cell times 3 plus the direction (0: forward and to a lower column,
/// 1: straight forward, 2: forward and to a higher column).
pub type Step = u8;

impl Breakthrough {
    /// The cell a step lands on, if it stays on the board.
    fn target(player: Player, step: Step) -> Option<u8> {
        let (from, dir) = (step / 3, step % 3);
        let (row, col) = ((from / SIZE) as i8, (from % SIZE) as i8);
        let row = row + if player == Player::First { 1 } else { -1 };
        let col = col + dir as i8 - 1;
        ((0..SIZE as i8).contains(&row) && (0..SIZE as i8).contains(&col)).then(|| row as u8 * SIZE + col as u8)
    }

    fn far_row(player: Player) -> u64 {
        match player {
            Player::First => ROW << (5 * SIZE),
            Player::Second => ROW,
        }
    }

    /// The pawns of `player`, one bit per cell.
    pub fn pawns(&self, player: Player) -> u64 {
        self.pawns[player.index()]
    }
}

impl Game for Breakthrough {
    type Move = Step;
    const MOVE_SPACE: usize = CELLS as usize * 3;

    fn move_index(mv: Step) -> usize {
        usize::from(mv)
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<Step>) {
        moves.clear();
        let me = self.to_move;
        let (mine, theirs) = (self.pawns(me), self.pawns(me.other()));
        // The opponent's last move reached its far row or took every pawn: game over.
        if Self::far_row(me.other()) & theirs != 0 || mine == 0 {
            return;
        }
        for from in (0..CELLS).filter(|&c| mine >> c & 1 != 0) {
            for dir in 0..3 {
                let step = from * 3 + dir;
                let Some(to) = Self::target(me, step) else { continue };
                let free = (mine | theirs) >> to & 1 == 0;
                if free || (dir != 1 && theirs >> to & 1 != 0) {
                    moves.push(step);
                }
            }
        }
    }

    fn play(&mut self, step: Step) {
        let me = self.to_move;
        let to = Self::target(me, step).expect("a step on the board");
        self.pawns[me.index()] &= !(1 << (step / 3));
        self.pawns[me.index()] |= 1 << to;
        self.pawns[me.other().index()] &= !(1 << to);
        self.to_move = me.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = self.to_move.other();
        (Self::far_row(last) & self.pawns(last) != 0 || self.pawns(self.to_move) == 0).then_some(Outcome::Win(last))
    }
}

/// phi(s): each cell +1 (a pawn of the side to move), -1 (the opponent's) or 0, from the
/// side to move's view (the board turned for the second player).
impl Features for Breakthrough {
    fn features(&self) -> Vec<f32> {
        let me = self.to_move;
        let (mine, theirs) = (self.pawns(me), self.pawns(me.other()));
        let view = |c: u8| if me == Player::First { c } else { CELLS - 1 - c };
        signed_cells(CELLS, |c| mine >> view(c) & 1 != 0, |c| theirs >> view(c) & 1 != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(g: &Breakthrough) -> Vec<Step> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves
    }

    #[test]
    fn the_start_has_twelve_pawns_each_and_sixteen_moves() {
        let g = Breakthrough::default();
        assert_eq!((g.pawns(Player::First).count_ones(), g.pawns(Player::Second).count_ones()), (12, 12));
        // Row 1's six pawns: 3 steps each, less the two that would leave the board.
        assert_eq!(legal(&g).len(), 16);
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn straight_steps_need_an_empty_cell_and_diagonals_capture() {
        let mut g = Breakthrough { pawns: [1 << 14, 1 << 20 | 1 << 21], to_move: Player::First };
        // Pawn on (row 2, col 2): straight to 20 is blocked, diagonals to 19 (empty) and
        // 21 (capture) are legal.
        let moves = legal(&g);
        assert_eq!(moves, vec![14 * 3, 14 * 3 + 2]);
        g.play(14 * 3 + 2);
        assert_eq!(g.pawns(Player::Second), 1 << 20, "the pawn on 21 is taken");
        assert_eq!(g.pawns(Player::First), 1 << 21);
    }

    #[test]
    fn reaching_the_far_row_or_taking_every_pawn_wins() {
        let mut g = Breakthrough { pawns: [1 << 26, 1 << 2], to_move: Player::First };
        g.play(26 * 3 + 1); // to 32, on row 5
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
        assert!(legal(&g).is_empty());
        let mut g = Breakthrough { pawns: [1 << 8, 1 << 15], to_move: Player::First };
        g.play(8 * 3 + 2); // takes the last pawn on 15
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
        // The second player moves down: from row 1 to row 0 wins for it.
        let mut g = Breakthrough { pawns: [1 << 30, 1 << 7], to_move: Player::Second };
        g.play(7 * 3);
        assert_eq!(g.outcome(), Some(Outcome::Win(Player::Second)));
    }

    #[test]
    fn random_games_end_and_a_side_with_pawns_can_always_move() {
        // The most advanced pawn of a side can always step diagonally (onto an empty cell
        // or a capture): no move exactly when the game is over.
        let mut rng = fastrand::Rng::with_seed(5);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut g = Breakthrough::default();
            for ply in 0.. {
                assert!(ply < 200, "a game ends: every move advances a pawn");
                g.legal_moves(&mut moves);
                assert_eq!(moves.is_empty(), g.outcome().is_some(), "{g:?}");
                if moves.is_empty() {
                    break;
                }
                g.play(moves[rng.usize(..moves.len())]);
            }
        }
    }

    #[test]
    fn features_turn_the_board_for_the_second_player() {
        // The first player's pawn on 6 steps to 12, then the second player's mirror-image
        // pawn on 29 steps to 23: a symmetric position that each side sees alike.
        let mut g = Breakthrough::default();
        g.play(6 * 3 + 1);
        g.play(29 * 3 + 1);
        let first_view = g.features();
        let second_view = Breakthrough { to_move: Player::Second, ..g }.features();
        assert_eq!(first_view, second_view);
        assert_eq!(first_view[12], 1.0);
        assert_eq!(first_view[6], 0.0);
        assert_eq!(first_view.iter().filter(|&&x| x == -1.0).count(), 12);
    }
}
