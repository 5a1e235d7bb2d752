//! A set of points of the 9x9 NoGo board, one bit per point in a `u128`.
//!
//! ```text
//!        x=0 x=1 ... x=8
//!  y=0    0   1  ...  8
//!  y=1    9  10  ... 17
//!  ...
//!  y=8   72  73  ... 80
//! ```
//! Point index = 9*y + x (Botzone's `x` is the column). Bits 81..127 stay zero.

/// A point index, 0..81.
pub type Point = u8;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u128);

const FULL_BITS: u128 = (1 << 81) - 1;
const fn column_mask(x: u32) -> u128 {
    let mut m = 0;
    let mut y = 0;
    while y < 9 {
        m |= 1 << (9 * y + x);
        y += 1;
    }
    m
}
const NOT_COLUMN_0: u128 = FULL_BITS & !column_mask(0);
const NOT_COLUMN_8: u128 = FULL_BITS & !column_mask(8);
const _: () = assert!(FULL_BITS.count_ones() == 81);

/// Each point's orthogonal neighbours, looked up: a set's shifts cost a few u128 operations,
/// and playouts ask for a single point's many times per move.
const POINT_NEIGHBOURS: [Bitboard; 81] = {
    let mut table = [Bitboard(0); 81];
    let mut p = 0;
    while p < 81 {
        table[p] = Bitboard(1 << p).neighbours();
        p += 1;
    }
    table
};

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(FULL_BITS);

    pub const fn point(x: u8, y: u8) -> Point {
        9 * y + x
    }
    pub const fn coords(p: Point) -> (u8, u8) {
        (p % 9, p / 9)
    }
    pub const fn from_point(p: Point) -> Bitboard {
        Bitboard(1 << p)
    }
    pub const fn contains(self, p: Point) -> bool {
        self.0 >> p & 1 != 0
    }
    pub const fn with(self, p: Point) -> Bitboard {
        Bitboard(self.0 | 1 << p)
    }
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether the set has two points or more: cheaper than `count` where the build has no
    /// popcount instruction (Botzone's generic x86-64).
    pub const fn has_two(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn and(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
    pub const fn or(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
    pub const fn minus(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & !o.0)
    }
    pub const fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL_BITS)
    }

    /// The orthogonal neighbours of the set, excluding the set itself unless a point of it
    /// neighbours another.
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        Bitboard((b << 1 & NOT_COLUMN_0) | (b >> 1 & NOT_COLUMN_8) | (b << 9 & FULL_BITS) | b >> 9)
    }

    /// The set and every point next to it, diagonal neighbours included.
    pub const fn with_surroundings(self) -> Bitboard {
        let b = self.0;
        let row = b | (b << 1 & NOT_COLUMN_0) | (b >> 1 & NOT_COLUMN_8);
        Bitboard(row | (row << 9 & FULL_BITS) | row >> 9)
    }

    /// The orthogonal neighbours of one point.
    pub const fn around(p: Point) -> Bitboard {
        POINT_NEIGHBOURS[p as usize]
    }

    /// The 4-connected component of `within` that contains `seed`.
    pub fn flood(seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut group = seed.and(within);
        loop {
            let next = group.or(group.neighbours()).and(within);
            if next == group {
                return group;
            }
            group = next;
        }
    }

    /// The lowest point of a non-empty set.
    pub fn first(self) -> Point {
        self.0.trailing_zeros() as Point
    }

    pub fn iter(self) -> Points {
        Points(self.0)
    }
}

/// The points of a bitboard, lowest first.
pub struct Points(u128);

impl Iterator for Points {
    type Item = Point;
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as Point;
        self.0 &= self.0 - 1;
        Some(p)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}
impl ExactSizeIterator for Points {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_do_not_wrap_around_edges() {
        let corner = Bitboard::from_point(Bitboard::point(8, 0));
        let expected = Bitboard::EMPTY.with(Bitboard::point(7, 0)).with(Bitboard::point(8, 1));
        assert_eq!(corner.neighbours(), expected);
        let bottom_left = Bitboard::from_point(Bitboard::point(0, 8));
        assert_eq!(bottom_left.neighbours().count(), 2);
        assert_eq!(Bitboard::from_point(40).neighbours().count(), 4);
    }

    #[test]
    fn looked_up_neighbours_and_two_points_agree_with_the_counts() {
        for p in 0..81 {
            assert_eq!(Bitboard::around(p), Bitboard::from_point(p).neighbours(), "point {p}");
            let single = Bitboard::from_point(p);
            assert!(!single.has_two());
            for q in (0..81).filter(|&q| q != p) {
                assert!(single.with(q).has_two());
            }
        }
        assert!(!Bitboard::EMPTY.has_two());
        assert!(Bitboard::FULL.has_two());
    }

    #[test]
    fn a_point_with_its_surroundings_is_the_3x3_square_cut_by_the_edge() {
        let sizes = [(0, 0), (8, 4), (4, 4), (8, 8)]
            .map(|(x, y)| Bitboard::from_point(Bitboard::point(x, y)).with_surroundings());
        assert_eq!(sizes.map(|b| b.count()), [4, 6, 9, 4]);
        assert!(sizes[0].contains(Bitboard::point(1, 1)) && !sizes[0].contains(Bitboard::point(2, 0)));
        assert!(sizes[1].contains(Bitboard::point(7, 5)) && !sizes[1].contains(Bitboard::point(0, 5)));
    }
}
