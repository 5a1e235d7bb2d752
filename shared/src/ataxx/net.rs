//! The learned evaluation: a small NNUE-style network, trained by `ataxx-net train` on
//! self-play positions (bots/ataxx-net) and embedded in the binary.
//!
//! Inputs are every 2x2 window of the board (36 windows, each in one of 3^4 states:
//! empty, side to move's, opponent's per cell), so the first layer sees pairs of
//! neighbouring squares, which is where Ataxx's tactics live (a clone flips the
//! neighbours). One hidden layer of `HIDDEN` units with a squared clipped ReLU, then one
//! output chosen by the number of pieces on the board (a phase bucket). The output is
//! a logit of the side to move's result; `SCALE` turns it into the search's centi-pieces.
//!
//! Weights are integers, as NNUE engines quantise them, so that evaluation is integer
//! adds: the hidden sums in int16, the input rows in int8 (the trainer keeps them within
//! it), so that a row is half the bytes and the rows of a 256-unit network (750 KB) stay
//! in a core's L2 cache. A position's hidden layer is made from its parent's (see
//! [`Network::evaluate_from`]), which keeps copy-make search free of extra state.

use super::bitboard::{Bitboard, Square};
use super::board::Board;
use crate::game::Game;
use std::sync::OnceLock;

/// 2x2 windows: the top-left corner at (x, y) with x, y in 0..6.
pub const WINDOWS: usize = 36;
/// States of one window: 3^4.
pub const STATES: usize = 81;
pub const INPUTS: usize = WINDOWS * STATES;
/// 256 since 2026-12-04: at equal time (100 ms a move) +81 [+35, +130] over the 128-unit
/// network it replaced, though each node costs 1.3 times as much (docs/lab/ataxx-network.md,
/// "The device's cores for data").
pub const HIDDEN: usize = 256;
/// Output buckets by the number of pieces on the board.
pub const BUCKETS: usize = 4;
/// Quantisation: hidden activations are in 1/QA, output weights in 1/QB.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// The largest input weight (in 1/QA): input rows are int8.
pub const INPUT_MAX: i16 = i8::MAX as i16;
/// Centi-pieces per logit unit of the output.
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"ATXNET01";

/// The bucket of a position with `occupied` pieces (4..=49).
pub fn bucket(occupied: u32) -> usize {
    (occupied as usize * BUCKETS / 50).min(BUCKETS - 1)
}

/// A 7-bit board row spread into bytes: byte x is bit x (0 or 1).
const SPREAD: [u64; 128] = {
    let mut t = [0; 128];
    let mut row = 0;
    while row < 128 {
        let mut x = 0;
        while x < 7 {
            t[row] |= ((row as u64 >> x) & 1) << (8 * x);
            x += 1;
        }
        row += 1;
    }
    t
};

/// The active input of each window for `own` (the side to move's) and `opp` pieces.
/// A window's cells are (x,y), (x+1,y), (x,y+1), (x+1,y+1), worth 1, 3, 9 and 27 times
/// the cell's value (0 empty, 1 own, 2 opponent's): its state is their sum (0..81).
///
/// The search evaluates at nearly every node, so the 36 windows are read a row pair at
/// a time: each row's cell values held one per byte of a u64, the four cells of the
/// six windows summed bytewise (at most 80, so no byte carries into the next).
#[inline(always)]
pub fn features(own: Bitboard, opp: Bitboard, out: &mut [u16; WINDOWS]) {
    let cells = |y: usize| SPREAD[(own.0 >> (7 * y)) as usize & 127] + 2 * SPREAD[(opp.0 >> (7 * y)) as usize & 127];
    let mut upper = cells(0);
    for y in 0..6 {
        let lower = cells(y + 1);
        let states = upper + 3 * (upper >> 8) + 9 * lower + 27 * (lower >> 8);
        for x in 0..6 {
            let w = 6 * y + x;
            out[w] = (w * STATES) as u16 + ((states >> (8 * x)) & 0xff) as u16;
        }
        upper = lower;
    }
}

/// The squares that are a window's top-left corner: x and y in 0..6.
const WINDOW_CORNERS: u64 = {
    let mut corners = 0;
    let mut y = 0;
    while y < 6 {
        corners |= 0b11_1111 << (7 * y);
        y += 1;
    }
    corners
};

/// The top-left squares of the windows with a square that differs between `a` and `b`.
#[inline(always)]
fn changed_windows(a: Pieces, b: Pieces) -> u64 {
    let changed = (a.0 .0 ^ b.0 .0) | (a.1 .0 ^ b.1 .0);
    let across = changed | changed >> 1;
    (across | across >> 7) & WINDOW_CORNERS
}

/// The widest vector instructions this CPU runs, asked once (a cached load after). The
/// bots are built for any x86-64 (Botzone's machines are not known), which gives the row
/// arithmetic 8 lanes (SSE2); the same code compiled for AVX2 runs 16 and for AVX-512
/// (F and BW: 16-bit lanes) 32. The answer is the same integer on every path.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Simd {
    Avx512,
    Avx2,
    Sse2,
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn simd() -> Simd {
    if std::arch::is_x86_feature_detected!("avx512bw") && std::arch::is_x86_feature_detected!("avx512f") {
        Simd::Avx512
    } else if std::arch::is_x86_feature_detected!("avx2") {
        Simd::Avx2
    } else {
        Simd::Sse2
    }
}

/// The square `sq` under one of the board's 8 symmetries (0 is the identity).
pub fn transform_square(sq: Square, symmetry: u8) -> Square {
    let (mut x, mut y) = Bitboard::coords(sq);
    if symmetry & 1 != 0 {
        x = 6 - x;
    }
    if symmetry & 2 != 0 {
        y = 6 - y;
    }
    if symmetry & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    Bitboard::square(x, y)
}

/// A set of squares under one of the 8 symmetries.
pub fn transform(b: Bitboard, symmetry: u8) -> Bitboard {
    b.iter().fold(Bitboard::EMPTY, |t, sq| t.with(transform_square(sq, symmetry)))
}

/// A network's integer weights.
#[derive(Clone, PartialEq, Debug)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN`, in 1/QA, each within +-[`INPUT_MAX`].
    pub input_weights: Vec<[i8; HIDDEN]>,
    pub input_bias: [i16; HIDDEN],
    /// One row per bucket, in 1/QB.
    pub output_weights: [[i16; HIDDEN]; BUCKETS],
    /// In 1/(QA*QB).
    pub output_bias: [i32; BUCKETS],
}

impl Network {
    /// The value for the side to move, in centi-pieces.
    pub fn evaluate(&self, own: Bitboard, opp: Bitboard) -> i32 {
        let mut inputs = [0; WINDOWS];
        features(own, opp, &mut inputs);
        self.evaluate_features(&inputs, bucket(own.count() + opp.count()))
    }

    /// The value of `b` for its side to move, in centi-pieces.
    pub fn evaluate_board(&self, b: &Board) -> i32 {
        let me = b.to_move();
        self.evaluate(b.pieces(me), b.pieces(me.other()))
    }

    /// The value of a position given by its active inputs and its bucket.
    pub fn evaluate_features(&self, inputs: &[u16; WINDOWS], b: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        match simd() {
            // SAFETY: the CPU supports the instructions of each arm.
            Simd::Avx512 => return unsafe { self.evaluate_features_avx512(inputs, b) },
            Simd::Avx2 => return unsafe { self.evaluate_features_avx2(inputs, b) },
            Simd::Sse2 => {}
        }
        self.evaluate_features_portable(inputs, b)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn evaluate_features_avx512(&self, inputs: &[u16; WINDOWS], b: usize) -> i32 {
        self.evaluate_features_portable(inputs, b)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_features_avx2(&self, inputs: &[u16; WINDOWS], b: usize) -> i32 {
        self.evaluate_features_portable(inputs, b)
    }

    #[inline(always)]
    fn evaluate_features_portable(&self, inputs: &[u16; WINDOWS], b: usize) -> i32 {
        let mut hidden = self.input_bias;
        self.add_rows(&mut hidden, inputs);
        self.output(&hidden, b)
    }

    /// The value of the position `to`, found from `base`, the hidden layer of the position
    /// `from` (both seen by `to`'s side to move): a child differs from its parent in a few
    /// squares, so only the windows that changed are subtracted and added (8 of the 36 on
    /// average in `make bench`'s middle-game search), not all 36 rows summed afresh. `base`
    /// is first remade for `from` if it holds another position ([`Network::remake`]). The
    /// same integer as [`Network::evaluate`] of `to`.
    pub fn evaluate_from(&self, base: &mut Accumulator, from: Pieces, to: Pieces) -> i32 {
        #[cfg(target_arch = "x86_64")]
        match simd() {
            // SAFETY: the CPU supports the instructions of each arm.
            Simd::Avx512 => return unsafe { self.evaluate_from_avx512(base, from, to) },
            Simd::Avx2 => return unsafe { self.evaluate_from_avx2(base, from, to) },
            Simd::Sse2 => {}
        }
        self.evaluate_from_portable(base, from, to)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn evaluate_from_avx512(&self, base: &mut Accumulator, from: Pieces, to: Pieces) -> i32 {
        self.evaluate_from_portable(base, from, to)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_from_avx2(&self, base: &mut Accumulator, from: Pieces, to: Pieces) -> i32 {
        self.evaluate_from_portable(base, from, to)
    }

    #[inline(always)]
    fn evaluate_from_portable(&self, base: &mut Accumulator, from: Pieces, to: Pieces) -> i32 {
        if base.position != Some(from) {
            self.remake(base, from);
        }
        let (own, opp) = to;
        let mut inputs = [0; WINDOWS];
        features(own, opp, &mut inputs);
        let mut hidden = base.hidden;
        self.change_windows(&mut hidden, &base.inputs, &inputs, changed_windows(from, to));
        self.output(&hidden, bucket(own.count() + opp.count()))
    }

    /// Makes `base` the hidden layer of `position`: from the position it holds where few
    /// windows differ, else summed afresh. When the search first values a node's children,
    /// the two recent layers ([`RecentParents`]) hold the node's parent, seen by the other
    /// side, and mostly its grandparent, seen by the same side and two moves away: that one
    /// is replaced. A changed window costs two rows and a window summed afresh one, so
    /// past half the windows summing afresh is cheaper.
    #[inline(always)]
    fn remake(&self, base: &mut Accumulator, position: Pieces) {
        let mut inputs = [0; WINDOWS];
        features(position.0, position.1, &mut inputs);
        match base.position.map(|held| changed_windows(held, position)) {
            Some(changed) if (changed.count_ones() as usize) < WINDOWS / 2 => {
                self.change_windows(&mut base.hidden, &base.inputs, &inputs, changed);
            }
            _ => {
                base.hidden = self.input_bias;
                self.add_rows(&mut base.hidden, &inputs);
            }
        }
        base.inputs = inputs;
        base.position = Some(position);
    }

    /// Replaces in `hidden` the rows of `before` by those of `now` at the windows of
    /// `corners` (their top-left squares): a loop over set bits, as a branch per window
    /// costs more mispredictions than the rows it skips.
    #[inline(always)]
    fn change_windows(
        &self,
        hidden: &mut [i16; HIDDEN],
        before: &[u16; WINDOWS],
        now: &[u16; WINDOWS],
        mut corners: u64,
    ) {
        while corners != 0 {
            let sq = corners.trailing_zeros() as usize;
            corners &= corners - 1;
            let w = sq - sq / 7; // 6y + x from 7y + x
            self.change_row(hidden, before[w], now[w]);
        }
    }

    /// Adds the rows of `inputs` to `hidden`. Wrapping, as the sums of a network within
    /// range never wrap, and so that adding and subtracting rows in any order gives the
    /// same integers.
    #[inline(always)]
    fn add_rows(&self, hidden: &mut [i16; HIDDEN], inputs: &[u16; WINDOWS]) {
        for &i in inputs {
            for (h, &w) in hidden.iter_mut().zip(&self.input_weights[i as usize]) {
                *h = h.wrapping_add(i16::from(w));
            }
        }
    }

    /// Replaces input `before`'s row in `hidden` by input `now`'s.
    #[inline(always)]
    fn change_row(&self, hidden: &mut [i16; HIDDEN], before: u16, now: u16) {
        let (out, inn) = (&self.input_weights[before as usize], &self.input_weights[now as usize]);
        for ((h, &o), &i) in hidden.iter_mut().zip(out).zip(inn) {
            *h = h.wrapping_sub(i16::from(o)).wrapping_add(i16::from(i));
        }
    }

    /// The output of bucket `b` for the hidden layer's sums.
    #[inline(always)]
    fn output(&self, hidden: &[i16; HIDDEN], b: usize) -> i32 {
        // Squared clipped ReLU: clamp to [0, QA], square (QA^2 units), times the output
        // weight (QB); the clamped value times the weight fits in i16, as in NNUE engines.
        let mut sum: i32 = 0;
        for (&a, &w) in hidden.iter().zip(&self.output_weights[b]) {
            let c = a.clamp(0, QA as i16);
            sum += i32::from(c.wrapping_mul(w)) * i32::from(c);
        }
        (sum / QA + self.output_bias[b]) * SCALE / (QA * QB)
    }

    /// Reads the file format `to_bytes` writes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let rows = FileRows::read(bytes, HIDDEN)?;
        if let Some(i) = rows.input_weights.iter().position(|w| w.abs() > INPUT_MAX) {
            return Err(format!(
                "input weight {} (input {}, unit {}) is beyond the int8 rows' +-{INPUT_MAX}: a network from before \
                 them; `ataxx-net train --init` it to clip it",
                rows.input_weights[i],
                i / HIDDEN,
                i % HIDDEN
            ));
        }
        let mut net = Network::zero();
        for (row, file_row) in net.input_weights.iter_mut().zip(rows.input_weights.chunks(HIDDEN)) {
            row.iter_mut().zip(file_row).for_each(|(w, &v)| *w = v as i8);
        }
        net.input_bias.copy_from_slice(&rows.input_bias);
        for (row, file_row) in net.output_weights.iter_mut().zip(rows.output_weights.chunks(HIDDEN)) {
            row.copy_from_slice(file_row);
        }
        net.output_bias = rows.output_bias;
        Ok(net)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.rows().to_bytes()
    }

    /// The numbers of this network, as its file holds them.
    pub fn rows(&self) -> FileRows {
        FileRows {
            input_weights: self.input_weights.iter().flatten().map(|&w| i16::from(w)).collect(),
            input_bias: self.input_bias.to_vec(),
            output_weights: self.output_weights.concat(),
            output_bias: self.output_bias,
        }
    }

    pub fn zero() -> Network {
        Network {
            input_weights: vec![[0; HIDDEN]; INPUTS],
            input_bias: [0; HIDDEN],
            output_weights: [[0; HIDDEN]; BUCKETS],
            output_bias: [0; BUCKETS],
        }
    }
}

/// A position's pieces: the side to move's, then the other side's.
pub type Pieces = (Bitboard, Bitboard);

/// A position's hidden-layer sums, kept so that the positions one move away are
/// evaluated from it ([`Network::evaluate_from`]).
#[derive(Clone, Debug)]
pub struct Accumulator {
    /// The position, if it holds one yet.
    position: Option<Pieces>,
    inputs: [u16; WINDOWS],
    hidden: [i16; HIDDEN],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator { position: None, inputs: [0; WINDOWS], hidden: [0; HIDDEN] }
    }
}

/// The hidden layers of the last two positions whose children were valued: a search
/// values a node from its parent and then the node's leaves from the node, so the two
/// come in turn (and one slot would be remade at every node).
#[derive(Clone, Debug, Default)]
pub struct RecentParents {
    slots: [Accumulator; 2],
    /// The slot used last.
    last: usize,
}

impl RecentParents {
    /// The slot holding `position`, else the one used less recently (to be remade).
    pub fn slot(&mut self, position: Pieces) -> &mut Accumulator {
        let i = (0..2).find(|&i| self.slots[i].position == Some(position)).unwrap_or(1 - self.last);
        self.last = i;
        &mut self.slots[i]
    }
}

/// The numbers of a network file of any width, each layer's rows one after another: what
/// [`Network::from_bytes`] reads into this build's width, and what a tool that changes
/// the width (`ataxx-net widen`) reads from a file of another.
pub struct FileRows {
    /// `INPUTS` rows of `hidden`.
    pub input_weights: Vec<i16>,
    pub input_bias: Vec<i16>,
    /// `BUCKETS` rows of `hidden`.
    pub output_weights: Vec<i16>,
    pub output_bias: [i32; BUCKETS],
}

impl FileRows {
    /// The numbers of a network file of `hidden` units, or what is wrong with it.
    pub fn read(bytes: &[u8], hidden: usize) -> Result<FileRows, String> {
        let header = MAGIC.len() + 4 * 4;
        if bytes.len() < header || &bytes[..8] != MAGIC {
            return Err("not an Ataxx network file (bad magic)".into());
        }
        let dims: Vec<u32> = bytes[8..header].chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        let want = [INPUTS, hidden, BUCKETS, SCALE as usize].map(|d| d as u32);
        if dims != want {
            return Err(format!("network shape {dims:?} (inputs, hidden, buckets, scale); expected {want:?}"));
        }
        let size = header + 2 * (INPUTS * hidden + hidden + BUCKETS * hidden) + 4 * BUCKETS;
        if bytes.len() != size {
            return Err(format!("network file is {} bytes, expected {size}", bytes.len()));
        }
        let mut at = header;
        let mut i16s = |count: usize| {
            let out: Vec<i16> = bytes[at..at + 2 * count].chunks(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * count;
            out
        };
        let input_weights = i16s(INPUTS * hidden);
        let input_bias = i16s(hidden);
        let output_weights = i16s(BUCKETS * hidden);
        let mut output_bias = [0; BUCKETS];
        for (b, chunk) in bytes[size - 4 * BUCKETS..].chunks(4).enumerate() {
            output_bias[b] = i32::from_le_bytes(chunk.try_into().unwrap());
        }
        Ok(FileRows { input_weights, input_bias, output_weights, output_bias })
    }

    /// The file of these numbers (the width is the bias's length), as `read` reads it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for d in [INPUTS, self.input_bias.len(), BUCKETS, SCALE as usize] {
            out.extend((d as u32).to_le_bytes());
        }
        let numbers = self.input_weights.iter().chain(&self.input_bias).chain(&self.output_weights);
        out.extend(numbers.flat_map(|v| v.to_le_bytes()));
        out.extend(self.output_bias.iter().flat_map(|v| v.to_le_bytes()));
        out
    }
}

/// The shipped network (see docs/lab/ataxx-network.md for the commands that made it),
/// read once per process.
pub fn embedded() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED).expect("the embedded network matches this build"))
}

const EMBEDDED: &[u8] = include_bytes!("ataxx.net");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ataxx::board::Position;

    fn random_net(seed: u64) -> Network {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut net = Network::zero();
        net.input_weights.iter_mut().flatten().for_each(|w| *w = rng.i8(-127..=127));
        net.input_bias.iter_mut().for_each(|w| *w = rng.i16(-100..100));
        net.output_weights.iter_mut().flatten().for_each(|w| *w = rng.i16(-127..127));
        net.output_bias.iter_mut().for_each(|w| *w = rng.i32(-20000..20000));
        net
    }

    #[test]
    fn features_are_distinct_windows_in_range() {
        let own = Bitboard(0b11 | 0b11 << 7); // the top-left window all own
        let opp = Bitboard(1 << 48);
        let mut f = [0; WINDOWS];
        features(own, opp, &mut f);
        assert_eq!(f[0], (1 + 3 + 9 + 27) as u16, "window (0,0) fully own: 1+3+9+27");
        assert_eq!(f[35], (35 * STATES + 2 * 27) as u16, "window (5,5): the opponent's piece in its last cell");
        assert_eq!(f[1], (STATES + 1 + 9) as u16, "window (1,0): own pieces in its left cells (bits 0 and 2)");
        for (w, &i) in f.iter().enumerate() {
            assert!((w * STATES..(w + 1) * STATES).contains(&(i as usize)));
        }
    }

    #[test]
    fn features_match_the_windows_cell_by_cell() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            let own = rng.u64(..) & ((1 << 49) - 1);
            let opp = rng.u64(..) & ((1 << 49) - 1) & !own;
            let mut f = [0; WINDOWS];
            features(Bitboard(own), Bitboard(opp), &mut f);
            let value = |x: usize, y: usize| {
                let bit = 1 << (7 * y + x);
                u16::from(own & bit != 0) + 2 * u16::from(opp & bit != 0)
            };
            for y in 0..6 {
                for x in 0..6 {
                    let state = value(x, y) + 3 * value(x + 1, y) + 9 * value(x, y + 1) + 27 * value(x + 1, y + 1);
                    assert_eq!(f[6 * y + x], (6 * y + x) as u16 * STATES as u16 + state);
                }
            }
        }
    }

    #[test]
    fn symmetries_are_permutations_and_the_identity_is_first() {
        for s in 0..8 {
            let image: Vec<Square> = (0..49).map(|sq| transform_square(sq, s)).collect();
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, (0..49).collect::<Vec<_>>(), "symmetry {s}");
            if s == 0 {
                assert_eq!(image, sorted);
            }
        }
        let b = Bitboard(0x1_2345_6789);
        assert_eq!(transform(b, 0), b);
        assert_eq!(transform(b, 1).count(), b.count());
    }

    #[test]
    fn file_format_round_trips_and_rejects_bad_files() {
        let net = random_net(3);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("bytes"));
        let mut other = bytes.clone();
        other[12] ^= 1;
        assert!(Network::from_bytes(&other).unwrap_err().contains("shape"));
        assert!(Network::from_bytes(b"nonsense").is_err());
        // The first input weight (after the 24-byte header) one beyond int8.
        let mut wide = bytes.clone();
        wide[24..26].copy_from_slice(&(INPUT_MAX + 1).to_le_bytes());
        assert!(Network::from_bytes(&wide).unwrap_err().contains("beyond the int8 rows"));
    }

    #[test]
    fn evaluation_matches_a_float_reference() {
        let net = random_net(5);
        let mut rng = fastrand::Rng::with_seed(9);
        for _ in 0..50 {
            let mut own = Bitboard::EMPTY;
            let mut opp = Bitboard::EMPTY;
            for sq in 0..49 {
                match rng.u8(..3) {
                    1 => own = own.with(sq),
                    2 => opp = opp.with(sq),
                    _ => {}
                }
            }
            let mut f = [0; WINDOWS];
            features(own, opp, &mut f);
            let b = bucket(own.count() + opp.count());
            let reference: f64 = (0..HIDDEN)
                .map(|h| {
                    let a: i32 = i32::from(net.input_bias[h])
                        + f.iter().map(|&i| i32::from(net.input_weights[i as usize][h])).sum::<i32>();
                    let c = f64::from(a.clamp(0, QA)) / f64::from(QA);
                    c * c * f64::from(net.output_weights[b][h]) / f64::from(QB)
                })
                .sum::<f64>()
                + f64::from(net.output_bias[b]) / f64::from(QA * QB);
            let got = net.evaluate(own, opp);
            assert!((f64::from(got) - reference * f64::from(SCALE)).abs() <= 2.0, "{got} vs {}", reference * 400.0);
        }
    }

    #[test]
    fn every_instruction_set_gives_the_same_values() {
        let net = random_net(8);
        let mut rng = fastrand::Rng::with_seed(4);
        for _ in 0..200 {
            let mut f = [0; WINDOWS];
            for (w, input) in f.iter_mut().enumerate() {
                *input = (w * STATES + rng.usize(..STATES)) as u16;
            }
            let b = rng.usize(..BUCKETS);
            let portable = net.evaluate_features_portable(&f, b);
            assert_eq!(net.evaluate_features(&f, b), portable);
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: checked just above.
                    assert_eq!(unsafe { net.evaluate_features_avx2(&f, b) }, portable);
                }
                if simd() == Simd::Avx512 {
                    // SAFETY: checked just above.
                    assert_eq!(unsafe { net.evaluate_features_avx512(&f, b) }, portable);
                }
            }
        }
    }

    /// A leaf valued from its parent's hidden layer is valued exactly as afresh, whether
    /// the accumulator holds the parent already, another position, or none.
    #[test]
    fn a_position_valued_from_a_neighbour_is_valued_as_afresh() {
        let net = random_net(9);
        let mut rng = fastrand::Rng::with_seed(5);
        let mut base = Accumulator::default();
        let mut p = Position::start();
        let mut moves = Vec::new();
        for _ in 0..400 {
            if p.outcome().is_some() {
                p = Position::start();
            }
            p.legal_moves(&mut moves);
            let parent = p.clone();
            // The parent seen by the side to move after the move, as a search's leaf is.
            let them = parent.to_move().other();
            let (base_own, base_opp) = (parent.pieces(them), parent.pieces(parent.to_move()));
            for _ in 0..3 {
                let mut child = parent.clone();
                child.play(moves[rng.usize(..moves.len())]);
                let (own, opp) = (child.pieces(them), child.pieces(them.other()));
                assert_eq!(net.evaluate_from(&mut base, (base_own, base_opp), (own, opp)), net.evaluate(own, opp));
            }
            p.play(moves[rng.usize(..moves.len())]);
        }
    }

    /// A hidden layer remade from the one of the position two plies back (as a search
    /// remakes a node's from its grandparent's) gives the same values as one made afresh,
    /// on both of `remake`'s paths: few windows changed, and more than half.
    #[test]
    fn a_layer_remade_from_a_grandparent_values_as_afresh() {
        let net = random_net(11);
        let mut rng = fastrand::Rng::with_seed(6);
        let mut moves = Vec::new();
        let (mut few, mut many) = (0, 0);
        for _ in 0..40 {
            let mut p = Position::start();
            let side = p.to_move().other();
            let seen = |q: &Position| (q.pieces(side), q.pieces(side.other()));
            let mut base = Accumulator::default();
            while p.outcome().is_none() {
                let grandparent = seen(&p);
                for _ in 0..2 {
                    p.legal_moves(&mut moves);
                    p.play(moves[rng.usize(..moves.len())]);
                    if p.outcome().is_some() {
                        break;
                    }
                }
                if p.outcome().is_some() || p.to_move() == side {
                    break;
                }
                // `base` holds the grandparent; the node's children are valued from it.
                if base.position == Some(grandparent) {
                    let changed = changed_windows(grandparent, seen(&p)).count_ones() as usize;
                    *(if changed < WINDOWS / 2 { &mut few } else { &mut many }) += 1;
                }
                p.legal_moves(&mut moves);
                let mut child = p.clone();
                child.play(moves[rng.usize(..moves.len())]);
                let (own, opp) = seen(&child);
                assert_eq!(net.evaluate_from(&mut base, seen(&p), (own, opp)), net.evaluate(own, opp));
            }
        }
        assert!(few > 100 && many > 10, "both paths taken: {few} from the grandparent, {many} afresh");
    }

    /// The embedded network loads and values material: on random boards where one side has
    /// 30 pieces and the other 5, the side far ahead stands better whoever is to move. The
    /// start position, which no training game reaches (every game opens with random plies,
    /// so its value is extrapolated: generation 7 said +180, generation 13 +286, where a
    /// 100,000-node search says +22), is within about four pieces of even.
    #[test]
    fn the_embedded_network_loads_and_values_material() {
        let net = embedded();
        let mut rng = fastrand::Rng::with_seed(1);
        for _ in 0..200 {
            let mut squares: Vec<Square> = (0..49).collect();
            rng.shuffle(&mut squares);
            let many = squares[..30].iter().fold(Bitboard::EMPTY, |b, &sq| b.with(sq));
            let few = squares[30..35].iter().fold(Bitboard::EMPTY, |b, &sq| b.with(sq));
            let (ahead, behind) = (net.evaluate(many, few), net.evaluate(few, many));
            assert!(
                ahead > 0 && behind < 0,
                "30 pieces against 5: {ahead} with the move, {behind} for the side behind"
            );
        }
        let start = net.evaluate_board(Position::start().board());
        assert!(start.abs() < 400, "the start is about even: {start}");
    }
}
