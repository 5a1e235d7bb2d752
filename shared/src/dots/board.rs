//! Dots-and-Boxes rules: drawing the fourth side of a box scores it and keeps the turn.
//!
//! Edges are two 30-bit words (seed 004):
//! ```text
//!   H (horizontal): 6 rows of 5,  bit 5*row + col       o-0-o-1-o-2-o-3-o-4-o
//!   V (vertical):   5 rows of 6,  bit 6*row + col       |   |   |   |   |   |
//!                                                       0   1   2   3   4   5
//! ```
//! An [`Edge`] numbers them 0..30 for H and 30..60 for V. Box (bx, by) has top H
//! `5*by+bx`, bottom H `5*(by+1)+bx`, left V `6*by+bx`, right V `6*by+bx+1`.

use crate::game::{Game, Outcome, Player, Rules};
use std::fmt;

/// An edge index: 0..30 horizontal, 30..60 vertical.
pub type Edge = u8;
pub const EDGES: usize = 60;
pub const BOXES: usize = 25;
pub(super) const H_EDGES: u8 = 30;

/// The (H, V) edge masks of each box.
const fn box_masks() -> [(u32, u32); BOXES] {
    let mut t = [(0, 0); BOXES];
    let mut b = 0;
    while b < BOXES {
        let (bx, by) = ((b % 5) as u32, (b / 5) as u32);
        t[b] = (1 << (5 * by + bx) | 1 << (5 * (by + 1) + bx), 1 << (6 * by + bx) | 1 << (6 * by + bx + 1));
        b += 1;
    }
    t
}
pub(super) const BOX_MASKS: [(u32, u32); BOXES] = box_masks();

/// The boxes (at most two) each edge borders, as a 25-bit mask.
const fn edge_boxes() -> [u32; EDGES] {
    let mut t = [0u32; EDGES];
    let mut b = 0;
    while b < BOXES {
        let (h, v) = BOX_MASKS[b];
        let mut e = 0;
        while e < EDGES {
            let on = if e < 30 { h >> e & 1 } else { v >> (e - 30) & 1 };
            if on != 0 {
                t[e] |= 1 << b;
            }
            e += 1;
        }
        b += 1;
    }
    t
}
pub(super) const EDGE_BOXES: [u32; EDGES] = edge_boxes();
const _: () = assert!(EDGE_BOXES[0].count_ones() == 1 && EDGE_BOXES[5].count_ones() == 2);

/// Each box's four sides as bits of an edge word.
pub(super) const BOX_EDGES: [u64; BOXES] = {
    let mut t = [0u64; BOXES];
    let mut e = 0;
    while e < EDGES {
        let mut b = 0;
        while b < BOXES {
            if EDGE_BOXES[e] >> b & 1 != 0 {
                t[b] |= 1 << e;
            }
            b += 1;
        }
        e += 1;
    }
    t
};

const FULL_EDGES: u32 = (1 << 30) - 1;
const ALL_BOXES: u32 = (1 << BOXES) - 1;

/// The number of drawn sides of every box, bit-sliced: box b has
/// `ones[b] + 2 twos[b] + 4 fours[b]` sides drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideCounts {
    ones: u32,
    twos: u32,
    fours: u32,
}

impl SideCounts {
    /// The boxes with exactly `n` sides drawn (0 to 4), one bit per box.
    pub fn boxes_with(&self, n: u32) -> u32 {
        let pick = |plane: u32, bit: u32| if n >> bit & 1 != 0 { plane } else { !plane };
        pick(self.ones, 0) & pick(self.twos, 1) & pick(self.fours, 2) & ALL_BOXES
    }

    const NONE: SideCounts = SideCounts { ones: 0, twos: 0, fours: 0 };

    /// One more side drawn for each box of `boxes` (each has at most three drawn): a
    /// bit-sliced increment.
    fn add_side(&mut self, boxes: u32) {
        let carry = self.ones & boxes;
        self.ones ^= boxes;
        self.fours |= self.twos & carry;
        self.twos ^= carry;
    }

    /// The drawn sides of the boxes `boxes` (one bit per box), all together.
    pub fn drawn_sides_of(&self, boxes: u32) -> u32 {
        (boxes & self.ones).count_ones() + 2 * (boxes & self.twos).count_ones() + 4 * (boxes & self.fours).count_ones()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    h: u32,
    v: u32,
    /// Boxes taken by each side, one bit per box (5*by + bx).
    boxes: [u32; 2],
    to_move: Player,
    /// Every box's drawn sides, kept up to date by each edge drawn: the solver and the
    /// playouts ask at every node, and an increment costs a few word operations where
    /// counting all four sides of every box cost a few dozen.
    counts: SideCounts,
}

impl Default for Position {
    fn default() -> Self {
        Self::start()
    }
}

impl Position {
    pub fn start() -> Position {
        Position { h: 0, v: 0, boxes: [0; 2], to_move: Player::First, counts: SideCounts::NONE }
    }

    pub fn is_drawn(&self, e: Edge) -> bool {
        if e < H_EDGES {
            self.h >> e & 1 != 0
        } else {
            self.v >> (e - H_EDGES) & 1 != 0
        }
    }
    /// The boxes nobody has taken yet, one bit per box.
    pub fn untaken_boxes(&self) -> u32 {
        ALL_BOXES & !(self.boxes[0] | self.boxes[1])
    }
    /// Who took box `b` (5*by + bx), if anyone has.
    pub fn box_owner(&self, b: usize) -> Option<Player> {
        Player::BOTH.into_iter().find(|p| self.boxes[p.index()] >> b & 1 != 0)
    }
    pub fn score(&self, player: Player) -> u32 {
        self.boxes[player.index()].count_ones()
    }
    pub fn drawn_count(&self) -> u32 {
        self.h.count_ones() + self.v.count_ones()
    }
    /// The two 30-bit edge words (H, V).
    pub fn edge_words(&self) -> (u32, u32) {
        (self.h, self.v)
    }
    /// Every edge in one word, bit `e` for edge `e` (H in bits 0-29, V in 30-59).
    pub fn edge_word(&self) -> u64 {
        u64::from(self.h) | u64::from(self.v) << 30
    }

    /// How many sides of box `b` are drawn.
    pub fn box_sides(&self, b: usize) -> u32 {
        let (h, v) = BOX_MASKS[b];
        (self.h & h).count_ones() + (self.v & v).count_ones()
    }

    /// Every box's drawn sides at once, as bit planes.
    pub fn side_counts(&self) -> SideCounts {
        self.counts
    }

    /// [`Position::side_counts`] counted afresh from the edges (whole-board word
    /// operations, not 25 boxes one at a time): what the kept counts must equal.
    fn side_counts_counted(&self) -> SideCounts {
        // One 25-bit word per side, bit b for box b = 5*by + bx: the top side is H bit b,
        // the bottom H bit b+5, the left V bit 6*by+bx, the right that plus one.
        let top = self.h & ALL_BOXES;
        let bottom = self.h >> 5 & ALL_BOXES;
        let (mut left, mut right) = (0, 0);
        for row in 0..5 {
            left |= (self.v >> (6 * row) & 31) << (5 * row);
            right |= (self.v >> (6 * row + 1) & 31) << (5 * row);
        }
        // Add the four one-bit words: ones + 2 twos + 4 fours.
        let (sum_tb, carry_tb) = (top ^ bottom, top & bottom);
        let (sum_lr, carry_lr) = (left ^ right, left & right);
        let carry = sum_tb & sum_lr;
        SideCounts {
            ones: sum_tb ^ sum_lr,
            twos: carry_tb ^ carry_lr ^ carry,
            fours: carry_tb & carry_lr | (carry_tb ^ carry_lr) & carry,
        }
    }

    /// How many boxes drawing `e` would complete (0, 1 or 2).
    pub fn boxes_completed_by(&self, e: Edge) -> u32 {
        (EDGE_BOXES[e as usize] & self.side_counts().boxes_with(3)).count_ones()
    }

    /// How many boxes drawing `e` would leave with three sides drawn (boxes handed to the
    /// opponent), not counting boxes it completes.
    pub fn sides_after_hint(&self, e: Edge) -> i32 {
        (EDGE_BOXES[e as usize] & self.side_counts().boxes_with(2)).count_ones() as i32
    }

    pub fn check(&self, e: Edge) -> Result<(), String> {
        if e as usize >= EDGES {
            return Err("edge off the board".into());
        }
        if self.is_drawn(e) {
            return Err("edge already drawn".into());
        }
        Ok(())
    }

    pub fn try_play(&mut self, e: Edge) -> Result<(), String> {
        self.check(e)?;
        self.draw(e);
        Ok(())
    }

    fn draw(&mut self, e: Edge) {
        if e < H_EDGES {
            self.h |= 1 << e;
        } else {
            self.v |= 1 << (e - H_EDGES);
        }
        let beside = EDGE_BOXES[e as usize];
        self.counts.add_side(beside);
        debug_assert_eq!(self.counts, self.side_counts_counted());
        let completed = beside & self.counts.fours;
        if completed == 0 {
            self.to_move = self.to_move.other();
        } else {
            self.boxes[self.to_move.index()] |= completed;
        }
    }
}

impl Game for Position {
    const MOVE_SPACE: usize = EDGES;

    fn move_index(mv: Edge) -> usize {
        usize::from(mv)
    }

    type Move = Edge;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut Vec<Edge>) {
        moves.clear();
        let mut free = !self.h & FULL_EDGES;
        while free != 0 {
            moves.push(free.trailing_zeros() as Edge);
            free &= free - 1;
        }
        let mut free = !self.v & FULL_EDGES;
        while free != 0 {
            moves.push(free.trailing_zeros() as Edge + H_EDGES);
            free &= free - 1;
        }
    }

    fn play(&mut self, e: Edge) {
        debug_assert_eq!(self.check(e), Ok(()));
        self.draw(e);
    }

    /// The game ends when every edge is drawn; 25 boxes leave no draw.
    fn outcome(&self) -> Option<Outcome> {
        if self.h != FULL_EDGES || self.v != FULL_EDGES {
            return None;
        }
        let (a, b) = (self.score(Player::First), self.score(Player::Second));
        Some(if a > b {
            Outcome::Win(Player::First)
        } else if b > a {
            Outcome::Win(Player::Second)
        } else {
            Outcome::Draw
        })
    }
}

impl Rules for Position {
    const NAME: &'static str = "dots";

    fn start() -> Self {
        Position::start()
    }
    fn try_play(&mut self, e: Edge) -> Result<(), String> {
        Position::try_play(self, e)
    }

    fn end_reason(&self) -> Option<String> {
        self.outcome()?;
        let (red, blue) = (self.score(Player::First), self.score(Player::Second));
        Some(format!("every edge drawn; boxes red {red}, blue {blue}"))
    }
}

impl fmt::Display for Position {
    /// Botzone's 11x11 grid: `+` dots, `-` and `|` drawn edges, `R`/`B` boxes of
    /// the first (red) and second (blue) player.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "   0 1 2 3 4 5 6 7 8 9 10")?;
        for y in 0..11u8 {
            write!(f, "{y:>2}")?;
            for x in 0..11u8 {
                let c = match (x % 2, y % 2) {
                    (0, 0) => '+',
                    (1, 1) => {
                        let b = 5 * (y / 2) + x / 2;
                        if self.boxes[0] >> b & 1 != 0 {
                            'R'
                        } else if self.boxes[1] >> b & 1 != 0 {
                            'B'
                        } else {
                            ' '
                        }
                    }
                    (1, 0) => {
                        if self.is_drawn(5 * (y / 2) + x / 2) {
                            '-'
                        } else {
                            ' '
                        }
                    }
                    _ => {
                        if self.is_drawn(H_EDGES + 6 * (y / 2) + x / 2) {
                            '|'
                        } else {
                            ' '
                        }
                    }
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let side = if self.to_move == Player::First { "red" } else { "blue" };
        write!(
            f,
            "{} edges drawn, {side} to move, red {} blue {}",
            self.drawn_count(),
            self.score(Player::First),
            self.score(Player::Second)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along random games, the side counts kept edge by edge equal those counted afresh,
    /// and a box is scored exactly when its fourth side is drawn.
    #[test]
    fn the_kept_side_counts_equal_the_counted_ones() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut p = Position::start();
            loop {
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let e = moves[rng.usize(..moves.len())];
                let before = p.untaken_boxes();
                let completing = (0..BOXES).filter(|&b| EDGE_BOXES[e as usize] >> b & 1 != 0 && p.box_sides(b) == 3);
                let expected: u32 = completing.map(|b| 1 << b).sum();
                p.play(e);
                assert_eq!(p.side_counts(), p.side_counts_counted(), "after {e} in\n{p}");
                assert_eq!(before & !p.untaken_boxes(), expected, "boxes taken by {e}");
            }
            assert_eq!(p.side_counts().boxes_with(4).count_ones(), 25);
        }
    }
}
