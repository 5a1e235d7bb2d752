//! The 8 symmetries of the square board (rotations and reflections) acting on edges, and
//! the corner boxes' pairs of border edges. (The solver's table used to key positions on
//! a canonical form of the drawn edges under these symmetries and the corner swaps; it
//! now keys them on their strings-and-coins graph, `graph.rs`, which merges the corner
//! swaps and many more positions, and where naming the joints by the symmetric image
//! merged fewer positions than naming them as they are.)

use super::board::H_EDGES;
use super::{Edge, EDGES};

/// Dots per side.
const DOTS: i32 = 6;

/// The image of dot `(x, y)` under symmetry `s` (0 is the identity).
const fn map_dot(s: usize, x: i32, y: i32) -> (i32, i32) {
    let m = DOTS - 1;
    let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
    let x = if s & 1 != 0 { m - x } else { x };
    let y = if s & 2 != 0 { m - y } else { y };
    (x, y)
}

/// The edge joining two neighbouring dots.
const fn edge_between(a: (i32, i32), b: (i32, i32)) -> Edge {
    if a.1 == b.1 {
        let x = if a.0 < b.0 { a.0 } else { b.0 };
        (5 * a.1 + x) as Edge
    } else {
        let y = if a.1 < b.1 { a.1 } else { b.1 };
        H_EDGES + (6 * y + a.0) as Edge
    }
}

/// The two dots an edge joins.
const fn dots_of(e: Edge) -> ((i32, i32), (i32, i32)) {
    let e = e as i32;
    if e < H_EDGES as i32 {
        let (y, x) = (e / 5, e % 5);
        ((x, y), (x + 1, y))
    } else {
        let (y, x) = ((e - 30) / 6, (e - 30) % 6);
        ((x, y), (x, y + 1))
    }
}

const fn edge_images() -> [[Edge; EDGES]; 8] {
    let mut t = [[0; EDGES]; 8];
    let mut s = 0;
    while s < 8 {
        let mut e = 0;
        while e < EDGES {
            let (a, b) = dots_of(e as Edge);
            t[s][e] = edge_between(map_dot(s, a.0, a.1), map_dot(s, b.0, b.1));
            e += 1;
        }
        s += 1;
    }
    t
}

/// `IMAGE[s][e]`: where symmetry `s` sends edge `e`.
pub const IMAGE: [[Edge; EDGES]; 8] = edge_images();

/// The symmetry that undoes `s`: the reflections undo themselves, and of the two
/// quarter turns (a transposition then one flip) each undoes the other.
pub const fn inverse(s: usize) -> usize {
    match s {
        5 => 6,
        6 => 5,
        _ => s,
    }
}

/// For each symmetry and each byte of the 60-bit edge word, the image of that byte's bits.
const fn byte_images() -> [[[u64; 256]; 8]; 8] {
    let mut t = [[[0u64; 256]; 8]; 8];
    let mut s = 0;
    while s < 8 {
        let mut chunk = 0;
        while chunk < 8 {
            let mut byte = 0;
            while byte < 256 {
                let mut image = 0u64;
                let mut bit = 0;
                while bit < 8 {
                    let e = chunk * 8 + bit;
                    if byte >> bit & 1 != 0 && e < EDGES {
                        image |= 1 << IMAGE[s][e];
                    }
                    bit += 1;
                }
                t[s][chunk][byte] = image;
                byte += 1;
            }
            chunk += 1;
        }
        s += 1;
    }
    t
}

static BYTE_IMAGES: [[[u64; 256]; 8]; 8] = byte_images();

/// The image of a 60-bit edge word (bit `e` for edge `e`) under symmetry `s`.
pub fn image_of_word(s: usize, word: u64) -> u64 {
    let mut image = 0;
    for (chunk, table) in BYTE_IMAGES[s].iter().enumerate() {
        image |= table[(word >> (8 * chunk) & 0xff) as usize];
    }
    image
}

/// The two border edges of each corner box (top or bottom, then left or right). In
/// strings-and-coins terms both are strings from the corner coin to the ground, so
/// drawing one or the other gives positions of equal value (Barker and Korf's corner
/// symmetry).
pub const CORNER_PAIRS: [(Edge, Edge); 4] = [(0, 30), (4, 35), (25, 54), (29, 59)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_permutes_the_edges_and_keeps_boxes_whole() {
        for s in 0..8 {
            let mut seen = [false; EDGES];
            for e in 0..EDGES {
                seen[IMAGE[s][e] as usize] = true;
                assert_eq!(IMAGE[inverse(s)][IMAGE[s][e] as usize] as usize, e, "symmetry {s} undone");
            }
            assert!(seen.iter().all(|&x| x), "symmetry {s} is a permutation");
        }
        // Box 0's four sides go to the four sides of one box (the corner of the image).
        let sides = [0u64, 5, 30, 31].iter().fold(0u64, |w, &e| w | 1 << e);
        for s in 0..8 {
            let image = image_of_word(s, sides);
            assert_eq!(image.count_ones(), 4);
            assert!([0u64, 4, 20, 24].iter().any(|&b| {
                let (bx, by) = (b % 5, b / 5);
                let mine = [5 * by + bx, 5 * (by + 1) + bx, 30 + 6 * by + bx, 30 + 6 * by + bx + 1];
                mine.iter().fold(0u64, |w, &e| w | 1 << e) == image
            }));
        }
    }

    #[test]
    fn corner_pairs_are_the_border_edges_of_the_corner_boxes() {
        for (corner, (a, b)) in [0usize, 4, 20, 24].into_iter().zip(CORNER_PAIRS) {
            let only_corner = 1u32 << corner;
            let touched = |e: Edge| super::super::board::EDGE_BOXES[e as usize];
            assert!(touched(a) == only_corner && touched(b) == only_corner, "box {corner}");
            assert!(a < H_EDGES && b >= H_EDGES, "horizontal first");
        }
    }
}
