//! A set of squares of the 7x7 Ataxx board, one bit per square in a `u64`.
//!
//! ```text
//!        x=0 x=1 ... x=6
//!  y=0    0   1  ...  6
//!  y=1    7   8  ... 13
//!  ...
//!  y=6   42  43  ... 48
//! ```
//! Square index = 7*y + x, with Botzone's `x` the column and `y` the row (0 at the top).
//! Bits 49..63 are always zero: every shift that could spill is masked.

/// A square index, 0..49.
pub type Square = u8;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

const FULL_BITS: u64 = (1 << 49) - 1;
const fn column_mask(x: u32) -> u64 {
    let mut m = 0;
    let mut y = 0;
    while y < 7 {
        m |= 1 << (7 * y + x);
        y += 1;
    }
    m
}
const NOT_COLUMN_0: u64 = FULL_BITS & !column_mask(0);
const NOT_COLUMN_6: u64 = FULL_BITS & !column_mask(6);
const _: () = assert!(FULL_BITS.count_ones() == 49);
const _: () = assert!(NOT_COLUMN_0.count_ones() == 42);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(FULL_BITS);

    pub const fn square(x: u8, y: u8) -> Square {
        7 * y + x
    }
    pub const fn coords(sq: Square) -> (u8, u8) {
        (sq % 7, sq / 7)
    }
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq)
    }
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq & 1 != 0
    }
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq)
    }
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq))
    }
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }
    pub const fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL_BITS)
    }

    /// Every square at Chebyshev distance at most 1 from a square of the set (the set included).
    pub const fn dilate(self) -> Bitboard {
        let b = self.0;
        let row = b | (b << 1 & NOT_COLUMN_0) | (b >> 1 & NOT_COLUMN_6);
        Bitboard((row | row << 7 | row >> 7) & FULL_BITS)
    }

    /// Iterates the squares from the lowest index up.
    pub fn iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The squares of a bitboard, lowest first (clears the lowest set bit each step).
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as Square;
        self.0 &= self.0 - 1;
        Some(sq)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for Squares {}

const fn ring_table(distance: i32) -> [Bitboard; 49] {
    let mut table = [Bitboard(0); 49];
    let mut sq = 0;
    while sq < 49 {
        let (x, y) = ((sq % 7) as i32, (sq / 7) as i32);
        let mut m = 0u64;
        let mut dy = -distance;
        while dy <= distance {
            let mut dx = -distance;
            while dx <= distance {
                let (nx, ny) = (x + dx, y + dy);
                let cheb = if dx.abs() > dy.abs() { dx.abs() } else { dy.abs() };
                if cheb == distance && nx >= 0 && nx < 7 && ny >= 0 && ny < 7 {
                    m |= 1 << (ny * 7 + nx);
                }
                dx += 1;
            }
            dy += 1;
        }
        table[sq] = Bitboard(m);
        sq += 1;
    }
    table
}

/// Squares at Chebyshev distance exactly 1 (clone targets, flip zone).
pub const RING1: [Bitboard; 49] = ring_table(1);
/// Squares at Chebyshev distance exactly 2 (jump targets).
pub const RING2: [Bitboard; 49] = ring_table(2);
const _: () = assert!(RING1[24].0.count_ones() == 8 && RING2[24].0.count_ones() == 16);
const _: () = assert!(RING1[0].0.count_ones() == 3 && RING2[0].0.count_ones() == 5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilate_matches_ring_table_and_never_wraps() {
        for sq in 0..49 {
            let b = Bitboard::from_square(sq);
            assert_eq!(b.dilate(), RING1[sq as usize].with(sq), "square {sq}");
        }
    }

    #[test]
    fn iter_yields_each_square_once() {
        let b = Bitboard(0b1010_0001 | 1 << 48);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 5, 7, 48]);
        assert_eq!(b.iter().len(), 4);
    }
}
