//! The 3x3 neighbourhood of an empty point, seen by the side about to play there: a
//! number that indexes a table of learned move weights (the `mcts` engine's pattern
//! prior). Orthogonal neighbours tell off-board, empty, and each side's stones with one
//! liberty or more (a neighbouring group with one liberty has it at this point, so the
//! four orthogonal cells decide whether either side may play here); diagonal neighbours
//! tell off-board, empty, own, opponent.

use super::bitboard::Point;
use super::GroupBoard;
use crate::game::Player;

/// Distinct neighbourhoods: 6 states for each orthogonal cell, 4 for each diagonal one.
pub const PATTERNS: usize = 6 * 6 * 6 * 6 * 4 * 4 * 4 * 4;

const ORTHOGONAL_STATES: u32 = 6;
const DIAGONAL_STATES: u32 = 4;
/// Where the diagonal cells start in the index.
const DIAGONAL_BASE: u32 = 6 * 6 * 6 * 6;

/// Offsets (dx, dy) of the orthogonal cells N, E, S, W and of the diagonal cells NE, SE,
/// SW, NW: a quarter turn moves every cell one place along its list.
const ORTHOGONAL: [(i8, i8); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
const DIAGONAL: [(i8, i8); 4] = [(1, -1), (1, 1), (-1, 1), (-1, -1)];

const OFF_BOARD: u32 = 0;
const EMPTY: u32 = 1;

/// A neighbour cell off the board in [`CELLS`].
const OFF: u8 = u8::MAX;

/// Each point's eight neighbour cells in the index's order (N, E, S, W, then NE, SE, SW,
/// NW), [`OFF`] where off the board: looked up, since the prior asks for the pattern of
/// every legal point of each new tree node.
const CELLS: [[u8; 8]; 81] = {
    let mut table = [[OFF; 8]; 81];
    let mut p = 0;
    while p < 81 {
        let (x, y) = ((p % 9) as i8, (p / 9) as i8);
        let mut k = 0;
        while k < 8 {
            let (dx, dy) = if k < 4 { ORTHOGONAL[k] } else { DIAGONAL[k - 4] };
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 0 && nx < 9 && ny >= 0 && ny < 9 {
                table[p][k] = (9 * ny + nx) as u8;
            }
            k += 1;
        }
        p += 1;
    }
    table
};

/// Each cell's state as `mover` sees it, from one pass over the stones: the pattern prior
/// reads the pattern of every legal point of a new tree node, and a learned value of the
/// whole board (`experiments nogo-value-fit`) two patterns for each empty point.
#[derive(Debug, Clone)]
pub struct Surroundings {
    /// Each cell's orthogonal state as `mover` sees it (empty, own or opponent stone in a
    /// group with two liberties or more, or with one), indexed by point; the off-board
    /// cell [`OFF`] is [`OFF_BOARD`].
    state: [u8; 256],
}

/// An orthogonal state as the side that sees it (unchanged), and as the other side does
/// (own and opponent swapped).
const AS_SEEN: [u32; 6] = [OFF_BOARD, EMPTY, 2, 3, 4, 5];
const SWAPPED: [u32; 6] = [OFF_BOARD, EMPTY, 4, 5, 2, 3];
/// The diagonal state of an orthogonal one (liberties dropped), for the side that sees it
/// and for the other side.
const DIAGONAL_AS_SEEN: [u32; 6] = [OFF_BOARD, EMPTY, 2, 2, 3, 3];
const DIAGONAL_SWAPPED: [u32; 6] = [OFF_BOARD, EMPTY, 3, 3, 2, 2];

impl Surroundings {
    pub fn new(board: &GroupBoard, mover: Player) -> Surroundings {
        let mut state = [OFF_BOARD as u8; 256];
        state[..81].fill(EMPTY as u8);
        let them = mover.other();
        for (stones, safe, first) in
            [(board.stones(mover), board.safe(mover), 2), (board.stones(them), board.safe(them), 4)]
        {
            for q in stones.iter() {
                state[usize::from(q)] = first + u8::from(!safe.contains(q));
            }
        }
        Surroundings { state }
    }

    /// The index of the neighbourhood of `p` (below [`PATTERNS`]).
    pub fn pattern(&self, p: Point) -> u32 {
        self.index(p, &AS_SEEN, &DIAGONAL_AS_SEEN)
    }

    /// The pattern of `p` as `mover` sees it, and as the other side does.
    pub fn both_patterns(&self, p: Point) -> (u32, u32) {
        (self.pattern(p), self.index(p, &SWAPPED, &DIAGONAL_SWAPPED))
    }

    /// The index of `p`'s neighbourhood with each cell's state mapped by `orthogonal` and
    /// `diagonal`.
    fn index(&self, p: Point, orthogonal: &[u32; 6], diagonal: &[u32; 6]) -> u32 {
        let cells = &CELLS[p as usize];
        let mut index = 0;
        let mut scale = 1;
        for &q in &cells[..4] {
            index += orthogonal[usize::from(self.state[usize::from(q)])] * scale;
            scale *= ORTHOGONAL_STATES;
        }
        for &q in &cells[4..] {
            index += diagonal[usize::from(self.state[usize::from(q)])] * scale;
            scale *= DIAGONAL_STATES;
        }
        index
    }
}

/// Whether the side that sees a neighbourhood this way may play its point: the four
/// orthogonal cells decide (no opponent group whose last liberty it is, and an empty
/// neighbour or an own group with another liberty), as [`GroupBoard::can_play`].
pub fn mover_may_play(index: u32) -> bool {
    let (orthogonal, _) = digits(index);
    let captures = orthogonal.contains(&5);
    let breathes = orthogonal.iter().any(|&d| d == EMPTY || d == 2);
    !captures && breathes
}

fn digits(index: u32) -> ([u32; 4], [u32; 4]) {
    let mut orthogonal = [0; 4];
    let mut rest = index;
    for d in &mut orthogonal {
        *d = rest % ORTHOGONAL_STATES;
        rest /= ORTHOGONAL_STATES;
    }
    let mut diagonal = [0; 4];
    for d in &mut diagonal {
        *d = rest % DIAGONAL_STATES;
        rest /= DIAGONAL_STATES;
    }
    (orthogonal, diagonal)
}

fn from_digits(orthogonal: [u32; 4], diagonal: [u32; 4]) -> u32 {
    let o = orthogonal.iter().rev().fold(0, |acc, &d| acc * ORTHOGONAL_STATES + d);
    let d = diagonal.iter().rev().fold(0, |acc, &d| acc * DIAGONAL_STATES + d);
    o + DIAGONAL_BASE * d
}

/// The same neighbourhood under the eight symmetries of the square (the first is itself).
pub fn symmetries(index: u32) -> [u32; 8] {
    let (mut o, mut d) = digits(index);
    let mut out = [0; 8];
    for k in 0..4 {
        out[2 * k] = from_digits(o, d);
        // Mirror left-right: E and W swap, NE with NW and SE with SW.
        out[2 * k + 1] = from_digits([o[0], o[3], o[2], o[1]], [d[3], d[2], d[1], d[0]]);
        // A quarter turn clockwise: N takes W's cell, NE takes NW's.
        o = [o[3], o[0], o[1], o[2]];
        d = [d[3], d[0], d[1], d[2]];
    }
    out
}

/// The smallest index among a neighbourhood's symmetries: one weight per class.
pub fn canonical(index: u32) -> u32 {
    symmetries(index).into_iter().min().expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nogo::{Bitboard, Position};

    #[test]
    fn symmetric_points_have_the_same_class_and_the_classes_are_closed() {
        // Black at (2, 2) and (3, 2), white at (6, 6): the board mirrored left-right maps
        // (4, 3) to (4, 3) with the stones at (6, 2), (5, 2) and (2, 6).
        let a = Position::after(&[(2, 2), (6, 6), (3, 2)]);
        let b = Position::after(&[(6, 2), (2, 6), (5, 2)]);
        let (sa, sb) = (
            Surroundings::new(&GroupBoard::new(&a), Player::Second),
            Surroundings::new(&GroupBoard::new(&b), Player::Second),
        );
        for (x, y) in [(3, 3), (2, 1), (0, 0), (7, 7), (4, 2)] {
            let pa = sa.pattern(Bitboard::point(x, y));
            let pb = sb.pattern(Bitboard::point(8 - x, y));
            assert_eq!(canonical(pa), canonical(pb), "({x}, {y})");
            assert!(symmetries(pa).contains(&pb));
        }
        for index in (0..PATTERNS as u32).step_by(97) {
            let class = symmetries(index);
            for s in class {
                assert_eq!(canonical(s), canonical(index));
            }
        }
    }

    #[test]
    fn a_pattern_tells_the_edge_and_a_group_with_one_liberty() {
        // White's stone at (1, 0) has liberties (0, 0), (2, 0) and (1, 1) until black
        // plays two of them.
        let p = Position::after(&[(2, 0), (1, 0), (1, 1)]);
        let board = GroupBoard::new(&p);
        let white = Surroundings::new(&board, Player::Second);
        let (o, d) = digits(white.pattern(Bitboard::point(0, 0)));
        // N off, E own stone in atari, S empty, W off; diagonals: SE black, others off.
        assert_eq!(o, [OFF_BOARD, 3, EMPTY, OFF_BOARD]);
        assert_eq!(d, [OFF_BOARD, 3, OFF_BOARD, OFF_BOARD]);
        let black = Surroundings::new(&board, Player::First);
        let (o, _) = digits(black.pattern(Bitboard::point(0, 0)));
        assert_eq!(o, [OFF_BOARD, 5, EMPTY, OFF_BOARD]);
    }

    /// Every position of a game of random legal moves, from the start to its end.
    fn random_game(seed: u64) -> Vec<Position> {
        use crate::game::Game;
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut p, mut moves, mut game) = (Position::start(), Vec::new(), Vec::new());
        loop {
            game.push(p);
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                return game;
            }
            p.play(moves[rng.usize(..moves.len())]);
        }
    }

    #[test]
    fn the_pattern_alone_tells_whether_each_side_may_play_its_point() {
        let mut checked = 0;
        for p in random_game(5) {
            let board = GroupBoard::new(&p);
            for viewer in [Player::First, Player::Second] {
                let around = Surroundings::new(&board, viewer);
                for q in board.empty().iter() {
                    assert_eq!(mover_may_play(around.pattern(q)), board.can_play(q, viewer), "ply {}", p.ply());
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn the_other_sides_pattern_is_the_one_it_sees_itself() {
        use crate::game::Game;
        for p in (8..12).flat_map(random_game) {
            let board = GroupBoard::new(&p);
            let mover = p.to_move();
            let (mine, theirs) = (Surroundings::new(&board, mover), Surroundings::new(&board, mover.other()));
            for q in board.empty().iter() {
                assert_eq!(mine.both_patterns(q), (mine.pattern(q), theirs.pattern(q)), "ply {}", p.ply());
            }
        }
    }
}
