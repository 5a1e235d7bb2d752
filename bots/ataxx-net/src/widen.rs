//! A network twice as wide that computes nearly what a narrower one computes, as the
//! start of a fine-tuning (`ataxx-net widen`, then `train --init`).
//!
//! A wider network trained from random weights needs far more data than we have (256
//! hidden units on 6.6M positions matched 128: see docs/lab/ataxx-network.md). Starting it
//! from a trained network keeps what that one knows and adds units to learn more. Each
//! hidden unit of the narrow network becomes two units with its input weights and bias;
//! its output weight is split between them unevenly at random, so that the sum, and with
//! `noise` 0 every value, is unchanged. Identical copies would stay identical in
//! training (Adam's steps hardly depend on the scale of a weight's gradient), so the
//! second copy's input weights get a small random integer noise: the values then move by
//! a few centi-pieces (the trainer prints the held-out loss it starts from). A narrow
//! network from before the engine's int8 input rows has its input weights clipped into
//! them here, as the trainer clips a network it starts from.

use botzone_games::ataxx::net::{FileRows, Network, HIDDEN, INPUT_MAX};

/// The width a network file must have to be widened into this build's `HIDDEN`.
pub const NARROW: usize = HIDDEN / 2;

/// The widened network of a network file with `NARROW` hidden units; the second copy of
/// each input weight moves by up to `noise` (in 1/QA).
pub fn widen(bytes: &[u8], seed: u64, noise: u8) -> Result<Network, String> {
    let narrow = FileRows::read(bytes, NARROW).map_err(|e| format!("{e} (widening into {HIDDEN} hidden units)"))?;
    let mut net = Network::zero();
    let mut rng = fastrand::Rng::with_seed(seed);
    for (row, narrow_row) in net.input_weights.iter_mut().zip(narrow.input_weights.chunks(NARROW)) {
        for (h, &w) in narrow_row.iter().enumerate() {
            row[h] = w.clamp(-INPUT_MAX, INPUT_MAX) as i8;
            let noisy = w.saturating_add(rng.i16(-i16::from(noise)..=i16::from(noise)));
            row[h + NARROW] = noisy.clamp(-INPUT_MAX, INPUT_MAX) as i8;
        }
    }
    net.input_bias[..NARROW].copy_from_slice(&narrow.input_bias);
    net.input_bias[NARROW..].copy_from_slice(&narrow.input_bias);
    for (row, narrow_row) in net.output_weights.iter_mut().zip(narrow.output_weights.chunks(NARROW)) {
        for (h, &w) in narrow_row.iter().enumerate() {
            let part = (f32::from(w) * (0.2 + 0.6 * rng.f32())).round() as i16;
            row[h] = part;
            row[h + NARROW] = w - part;
        }
    }
    net.output_bias = narrow.output_bias;
    Ok(net)
}

/// The largest input weight of a unit drawn afresh by [`refresh`], in 1/QA: the trainer's
/// random start (+-0.15).
const FRESH_INPUT: i8 = 38;

/// A widened network whose copies still train alike, half of it drawn afresh: each pair
/// (unit h and unit h + `NARROW`) merged into unit h (the mean of their input weights and
/// biases, the sum of their output weights: where the copies are alike, about the pair's
/// value), and unit h + `NARROW` given random input weights, bias 0 and output weight 0 (so
/// the values are the merged network's; the trainer's first steps give the new units
/// output weights, and then their input weights a gradient). Fine-tuned with `train
/// --init`, the new units can learn features the copies never had.
pub fn refresh(bytes: &[u8], seed: u64) -> Result<Network, String> {
    let mut net = Network::from_bytes(bytes)?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mean = |a: i16, b: i16| ((i32::from(a) + i32::from(b)) as f32 / 2.0).round() as i16;
    for row in net.input_weights.iter_mut() {
        for h in 0..NARROW {
            row[h] = mean(i16::from(row[h]), i16::from(row[h + NARROW])) as i8;
            row[h + NARROW] = rng.i8(-FRESH_INPUT..=FRESH_INPUT);
        }
    }
    for h in 0..NARROW {
        net.input_bias[h] = mean(net.input_bias[h], net.input_bias[h + NARROW]);
        net.input_bias[h + NARROW] = 0;
    }
    for row in net.output_weights.iter_mut() {
        for h in 0..NARROW {
            row[h] = row[h].saturating_add(row[h + NARROW]);
            row[h + NARROW] = 0;
        }
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::ataxx::net::{BUCKETS, INPUTS, QA, QB, SCALE, STATES, WINDOWS};

    /// A random network of `NARROW` units.
    fn random_narrow(seed: u64) -> FileRows {
        let mut rng = fastrand::Rng::with_seed(seed);
        FileRows {
            input_weights: (0..INPUTS * NARROW).map(|_| rng.i16(-INPUT_MAX..=INPUT_MAX)).collect(),
            input_bias: (0..NARROW).map(|_| rng.i16(-100..100)).collect(),
            output_weights: (0..BUCKETS * NARROW).map(|_| rng.i16(-127..127)).collect(),
            output_bias: std::array::from_fn(|_| rng.i32(-20000..20000)),
        }
    }

    /// A random state in each window: a position's inputs as the network reads them.
    fn random_features(rng: &mut fastrand::Rng) -> [u16; WINDOWS] {
        std::array::from_fn(|w| (w * STATES + rng.usize(..STATES)) as u16)
    }

    #[test]
    fn the_wide_network_gives_the_narrow_ones_values_exactly_without_noise_and_nearly_with() {
        let narrow_net = random_narrow(3);
        let FileRows { input_weights: w1, input_bias: b1, output_weights: w2, output_bias: b2 } = &narrow_net;
        let bytes = narrow_net.to_bytes();
        let wide = widen(&bytes, 7, 0).unwrap();
        let noisy = widen(&bytes, 7, 2).unwrap();
        assert_ne!(noisy.input_weights, wide.input_weights);
        let (mut moved, mut total_off, mut total_size) = (0, 0, 0);
        let mut rng = fastrand::Rng::with_seed(9);
        let mut split_unevenly = 0;
        for h in 0..NARROW {
            split_unevenly += usize::from(wide.output_weights[0][h] != wide.output_weights[0][h + NARROW]);
        }
        assert!(split_unevenly > NARROW / 2, "the copies must differ to drift apart in training");
        for _ in 0..50 {
            // A random state in each window, a random bucket.
            let f = random_features(&mut rng);
            let b = rng.usize(..BUCKETS);
            // The narrow network's value, with the engine's integer arithmetic.
            let sum: i32 = (0..NARROW)
                .map(|h| {
                    let a = b1[h] + f.iter().map(|&i| w1[i as usize * NARROW + h]).sum::<i16>();
                    let c = i32::from(a.clamp(0, QA as i16));
                    c * i32::from(w2[b * NARROW + h]) * c
                })
                .sum();
            let narrow = (sum / QA + b2[b]) * SCALE / (QA * QB);
            assert_eq!(wide.evaluate_features(&f, b), narrow);
            let off = (noisy.evaluate_features(&f, b) - narrow).abs();
            moved += usize::from(off > 0);
            total_off += off;
            total_size += narrow.abs();
        }
        assert!(moved > 0, "the noise changed nothing: the copies would train alike");
        assert!(total_off * 20 < total_size, "noise of 2/255 moved the values by {total_off} of {total_size} in all");
    }

    /// Refreshing a network widened without noise gives back the narrow network's values
    /// exactly (its copies merge into the unit they came from, the new units weigh
    /// nothing), with new units that are not copies.
    #[test]
    fn refreshing_merges_each_pair_and_draws_new_units() {
        let bytes = random_narrow(5).to_bytes();
        let wide = widen(&bytes, 11, 0).unwrap();
        let fresh = refresh(&wide.to_bytes(), 12).unwrap();
        let mut rng = fastrand::Rng::with_seed(13);
        for _ in 0..50 {
            let f = random_features(&mut rng);
            let b = rng.usize(..BUCKETS);
            assert_eq!(fresh.evaluate_features(&f, b), wide.evaluate_features(&f, b));
        }
        let copies = (0..NARROW).filter(|&h| fresh.input_weights.iter().all(|row| row[h] == row[h + NARROW])).count();
        assert_eq!(copies, 0, "every new unit is drawn afresh");
        assert!(fresh.output_weights.iter().all(|row| row[NARROW..].iter().all(|&w| w == 0)));
        assert!(refresh(b"nonsense", 1).unwrap_err().contains("magic"));
    }

    #[test]
    fn a_file_of_another_width_is_refused_with_its_shape() {
        let bytes = random_narrow(1).to_bytes();
        let mut other = bytes.clone();
        other[12..16].copy_from_slice(&(HIDDEN as u32).to_le_bytes());
        assert!(widen(&other, 1, 2).unwrap_err().contains("shape"));
        assert!(widen(&bytes[..bytes.len() - 2], 1, 2).unwrap_err().contains("bytes"));
        assert!(widen(b"nonsense", 1, 2).unwrap_err().contains("magic"));
    }
}
