//! Trains the network of `botzone_games::ataxx::net` on record files: floats and Adam
//! here, integers in the file it writes. Each sample is seen under a random one of the
//! board's 8 symmetries. The target blends the game's result with the search score
//! (squashed by a logistic scale fitted to the results), and the loss is the squared
//! error of the output's sigmoid. A factoriser (a row per window state shared by all
//! windows, [`Model::wf`]) trains beside the input rows and is folded into them when the
//! network is written. Input weights are kept within the engine's int8 rows after every
//! step (a network it starts from is clipped first, and the loss that costs printed).

use crate::record::{read_file, Record, PROVEN};
use botzone_games::ataxx::net::{
    self, FileRows, Network, BUCKETS, HIDDEN, INPUTS, INPUT_MAX, QA, QB, SCALE, STATES, WINDOWS,
};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;

pub struct TrainConfig {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub result_weight: f32,
    /// The score half of the target as a lambda-return over the game's later search
    /// scores ([`score_targets`]); 0: the position's own score only.
    pub td_lambda: f32,
    pub threads: usize,
    pub seed: u64,
    /// Start from this network's weights instead of random ones (fine-tuning).
    pub init: Option<PathBuf>,
    /// Train a window-independent row per window state beside the 36 x 81 rows (see
    /// [`Model::wf`]).
    pub factoriser: bool,
}

/// Float weights, the same shape as [`Network`]; also used for gradients and Adam's moments.
#[derive(Clone)]
struct Model {
    w1: Vec<f32>,
    /// The factoriser: one row per window state (`STATES` rows of `HIDDEN`), added to
    /// that state's row in every window. What a state is worth wherever it lies is then
    /// learned from all 36 windows' samples at once, and each window's own row learns
    /// only where it differs; rare states gain most. It folds into the input rows when
    /// the network is written, so the engine never sees it.
    wf: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// The largest weight that quantises into i16 with room to spare (accumulators of 36
/// rows stay well inside i16, and a clipped activation times an output weight too).
const CLIP: f32 = 1.98;
/// The largest input weight, whose integer fits the engine's int8 rows. The factoriser
/// folds into the input rows, so the sum of the two is kept within it.
const INPUT_CLIP: f32 = INPUT_MAX as f32 / QA as f32;
/// Float rounding of a weight near INPUT_CLIP split into row and factoriser parts.
const ROUNDING: f32 = 1e-5;

impl Model {
    fn zeros() -> Model {
        Model {
            w1: vec![0.0; INPUTS * HIDDEN],
            wf: vec![0.0; STATES * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; BUCKETS * HIDDEN],
            b2: vec![0.0; BUCKETS],
        }
    }

    fn random(rng: &mut fastrand::Rng) -> Model {
        let mut m = Model::zeros();
        let mut uniform = |scale: f32| (rng.f32() * 2.0 - 1.0) * scale;
        m.w1.iter_mut().for_each(|w| *w = uniform(0.15));
        m.w2.iter_mut().for_each(|w| *w = uniform(0.15));
        m
    }

    /// The float weights of a network file's numbers (exact: each is a multiple of its
    /// scale). The file may be one from before the int8 input rows: its input weights
    /// are then beyond [`INPUT_CLIP`] until [`Model::clip_inputs`].
    fn from_rows(n: &FileRows) -> Model {
        let f = |w: &[i16], scale: i32| w.iter().map(|&w| f32::from(w) / scale as f32).collect();
        Model {
            w1: f(&n.input_weights, QA),
            wf: vec![0.0; STATES * HIDDEN],
            b1: f(&n.input_bias, QA),
            w2: f(&n.output_weights, QB),
            b2: n.output_bias.iter().map(|&b| b as f32 / (QA * QB) as f32).collect(),
        }
    }

    /// Keeps each input weight as the engine reads it (its row plus the factoriser's)
    /// within [`INPUT_CLIP`], by moving the row's part; returns how many were beyond it
    /// by more than float rounding (a weight just clipped may come out an ulp beyond when
    /// its two parts are added again; it is clipped again, but not counted).
    fn clip_inputs(&mut self) -> usize {
        let mut clipped = 0;
        for (i, row) in self.w1.chunks_mut(HIDDEN).enumerate() {
            let shared = &self.wf[i % STATES * HIDDEN..][..HIDDEN];
            for (w, &v) in row.iter_mut().zip(shared) {
                let sum = *w + v;
                if sum.abs() > INPUT_CLIP {
                    *w = sum.clamp(-INPUT_CLIP, INPUT_CLIP) - v;
                    clipped += usize::from(sum.abs() > INPUT_CLIP + ROUNDING);
                }
            }
        }
        clipped
    }

    fn parts_mut(&mut self) -> [&mut Vec<f32>; 5] {
        [&mut self.w1, &mut self.wf, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    fn parts(&self) -> [&Vec<f32>; 5] {
        [&self.w1, &self.wf, &self.b1, &self.w2, &self.b2]
    }

    fn add(&mut self, other: &Model) {
        for (a, b) in self.parts_mut().into_iter().zip(other.parts()) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
    }

    fn clear(&mut self) {
        self.parts_mut().into_iter().for_each(|p| p.iter_mut().for_each(|x| *x = 0.0));
    }

    /// The output logit for `features` in `bucket`, with the hidden pre-activations.
    fn forward(&self, features: &[u16; WINDOWS], bucket: usize, acc: &mut [f32; HIDDEN]) -> f32 {
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[f as usize * HIDDEN..][..HIDDEN];
            let shared = &self.wf[f as usize % STATES * HIDDEN..][..HIDDEN];
            acc.iter_mut().zip(row).zip(shared).for_each(|((a, w), v)| *a += w + v);
        }
        let w2 = &self.w2[bucket * HIDDEN..][..HIDDEN];
        self.b2[bucket] + acc.iter().zip(w2).map(|(&a, w)| screlu(a) * w).sum::<f32>()
    }

    /// Adds the gradient of one sample's loss into `grad`; returns the loss.
    fn backward(&self, s: &Sample, grad: &mut Model) -> f32 {
        let mut acc = [0.0; HIDDEN];
        let out = self.forward(&s.features, s.bucket, &mut acc);
        let p = sigmoid(out);
        let d_out = 2.0 * (p - s.target) * p * (1.0 - p);
        grad.b2[s.bucket] += d_out;
        let w2 = &self.w2[s.bucket * HIDDEN..][..HIDDEN];
        let g2 = &mut grad.w2[s.bucket * HIDDEN..][..HIDDEN];
        let mut d_acc = [0.0; HIDDEN];
        for h in 0..HIDDEN {
            g2[h] += d_out * screlu(acc[h]);
            d_acc[h] = if acc[h] > 0.0 && acc[h] < 1.0 { d_out * w2[h] * 2.0 * acc[h] } else { 0.0 };
        }
        grad.b1.iter_mut().zip(&d_acc).for_each(|(g, d)| *g += d);
        for &f in &s.features {
            let row = &mut grad.w1[f as usize * HIDDEN..][..HIDDEN];
            row.iter_mut().zip(&d_acc).for_each(|(g, d)| *g += d);
            let shared = &mut grad.wf[f as usize % STATES * HIDDEN..][..HIDDEN];
            shared.iter_mut().zip(&d_acc).for_each(|(g, d)| *g += d);
        }
        (p - s.target).powi(2)
    }

    fn quantise(&self) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut n = Network::zero();
        // The factoriser folds into each window's rows, clamped into the int8 rows (rounding first
        // and then clamping gives what clamping to INPUT_CLIP and then rounding gives).
        for (i, (row, floats)) in n.input_weights.iter_mut().zip(self.w1.chunks(HIDDEN)).enumerate() {
            let shared = &self.wf[i % STATES * HIDDEN..][..HIDDEN];
            for ((w, &x), &v) in row.iter_mut().zip(floats).zip(shared) {
                *w = q(x + v, QA).clamp(-INPUT_MAX, INPUT_MAX) as i8;
            }
        }
        for h in 0..HIDDEN {
            n.input_bias[h] = q(self.b1[h], QA);
            for b in 0..BUCKETS {
                n.output_weights[b][h] = q(self.w2[b * HIDDEN + h], QB);
            }
        }
        for b in 0..BUCKETS {
            n.output_bias[b] = (self.b2[b] * (QA * QB) as f32).round() as i32;
        }
        n
    }
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One training example, ready for the network.
struct Sample {
    features: [u16; WINDOWS],
    bucket: usize,
    target: f32,
}

/// The logistic scale (centi-pieces per logit) that best predicts the results from the
/// search scores: the score half of the target uses it.
fn fit_score_scale(records: &[Record]) -> f32 {
    let usable: Vec<&Record> = records.iter().filter(|r| r.score.abs() < PROVEN).step_by(7).collect();
    let loss = |k: f32| {
        usable.iter().map(|r| (sigmoid(f32::from(r.score) / k) - result01(r)).powi(2)).sum::<f32>()
            / usable.len() as f32
    };
    (1..=60).map(|i| i as f32 * 25.0).min_by(|a, b| loss(*a).total_cmp(&loss(*b))).unwrap_or(400.0)
}

fn result01(r: &Record) -> f32 {
    (f32::from(r.result) + 1.0) / 2.0
}

/// A search score as a probability of winning for the side to move.
fn score01(r: &Record, score_scale: f32) -> f32 {
    match r.score {
        PROVEN => 1.0,
        s if s == -PROVEN => 0.0,
        s => sigmoid(f32::from(s) / score_scale),
    }
}

/// The score half of each record's target, for records in game order (as files hold
/// them: each game's records one ply apart, alternating sides, its last flagged): the
/// lambda-return `G_t = (1 - lambda) v_t + lambda (1 - G_t+1)` of the search scores `v`
/// (each the side to move's, so the next record's is turned over), the game's result
/// after its last record. A 5,000-node score misses what the search a few plies later
/// sees (the late middle game's surprises); the return blends those later scores in,
/// each `lambda` times less. `lambda` 0 gives each record's own score, 1 its result.
fn score_targets(records: &[Record], score_scale: f32, lambda: f32) -> Vec<f32> {
    let mut targets = vec![0.0; records.len()];
    let mut later: Option<f32> = None;
    for (i, r) in records.iter().enumerate().rev() {
        if r.ends_game() {
            later = None;
        }
        let after = match later {
            Some(g) => 1.0 - g,
            None => result01(r),
        };
        let g = (1.0 - lambda) * score01(r, score_scale) + lambda * after;
        targets[i] = g;
        later = Some(g);
    }
    targets
}

/// A record and the score half of its target ([`score_targets`]).
type Example = (Record, f32);

fn target(r: &Record, score_target: f32, result_weight: f32) -> f32 {
    result_weight * result01(r) + (1.0 - result_weight) * score_target
}

fn sample(&(r, score_target): &Example, symmetry: u8, result_weight: f32) -> Sample {
    let own = net::transform(r.own, symmetry);
    let opp = net::transform(r.opp, symmetry);
    let mut features = [0; WINDOWS];
    net::features(own, opp, &mut features);
    Sample { features, bucket: net::bucket(own.count() + opp.count()), target: target(&r, score_target, result_weight) }
}

/// Each batch's gradient is the sum of this many parts' whatever the threads, added in
/// the same order: the same data and seed train the same network on any machine.
const PARTS: usize = 16;

pub fn train(cfg: &TrainConfig) -> Result<(), String> {
    let mut records = Vec::new();
    for path in &cfg.data {
        let (mut r, _) = read_file(path)?;
        println!("{}: {} positions", path.display(), r.len());
        records.append(&mut r);
    }
    // A position met in several games (the shards of a run, or runs, know nothing of each
    // other's) is trained on once: its first record is kept.
    let mut seen = std::collections::HashSet::with_capacity(records.len());
    let keep: Vec<bool> = records.iter().map(|r| seen.insert((r.own.0, r.opp.0))).collect();
    drop(seen);
    let kept: Vec<Record> = records.iter().zip(&keep).filter(|(_, &k)| k).map(|(r, _)| *r).collect();
    if kept.len() < records.len() {
        println!("{} positions met before left out", records.len() - kept.len());
    }
    if kept.len() < 100 {
        return Err(format!("only {} positions: too few to train on", kept.len()));
    }
    // The last 2% (whole games, as files hold games in order) are held out.
    let training = kept.len() - (kept.len() / 50).max(1);
    let score_scale = fit_score_scale(&kept[..training]);
    // The targets' score halves come from each whole game, repeats included.
    let targets = score_targets(&records, score_scale, cfg.td_lambda);
    drop(records);
    let targets = targets.into_iter().zip(&keep).filter(|(_, &k)| k).map(|(t, _)| t);
    let mut examples: Vec<Example> = kept.into_iter().zip(targets).collect();
    let held = examples.split_off(training);
    println!(
        "{} training positions, {} held out; score scale {score_scale} centi-pieces per logit{}",
        examples.len(),
        held.len(),
        if cfg.td_lambda > 0.0 {
            format!("; score targets a lambda-return, lambda {}", cfg.td_lambda)
        } else {
            String::new()
        }
    );
    let held: Vec<Sample> = held.iter().map(|e| sample(e, 0, cfg.result_weight)).collect();
    let mut rng = fastrand::Rng::with_seed(cfg.seed);
    let mut model = match &cfg.init {
        Some(path) => {
            let mut model = Model::from_rows(&crate::read_rows(path)?);
            let before = held_loss(&model, &held);
            let clipped = model.clip_inputs();
            println!("starting from {} (held-out loss {before:.5})", path.display());
            if clipped > 0 {
                let after = held_loss(&model, &held);
                println!("{clipped} input weights clipped into int8 (held-out loss {after:.5})");
            }
            model
        }
        None => Model::random(&mut rng),
    };
    let (mut m1, mut m2) = (Model::zeros(), Model::zeros());
    let mut grads: Vec<Model> = (0..PARTS).map(|_| Model::zeros()).collect();
    let mut step = 0;
    let steps_per_epoch = examples.len().div_ceil(cfg.batch);
    let bar = ProgressBar::new((cfg.epochs * steps_per_epoch) as u64);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} batches eta {eta} {msg}").expect("template"));
    let started = Instant::now();
    for epoch in 0..cfg.epochs {
        // Step decay: full rate, then a tenth for the last 30%, a hundredth for the last 10%.
        let progress = epoch as f32 / cfg.epochs as f32;
        let lr = cfg.lr
            * if progress >= 0.9 {
                0.01
            } else if progress >= 0.7 {
                0.1
            } else {
                1.0
            };
        rng.shuffle(&mut examples);
        let mut train_loss = 0.0;
        for batch in examples.chunks(cfg.batch) {
            let samples: Vec<Sample> = batch.iter().map(|e| sample(e, rng.u8(..8), cfg.result_weight)).collect();
            // The batch in PARTS parts whatever the threads, their gradients added in order.
            let per_part = samples.len().div_ceil(PARTS);
            let threads = cfg.threads.clamp(1, PARTS);
            let mut shares: Vec<Vec<(usize, &mut Model, &[Sample])>> = (0..threads).map(|_| Vec::new()).collect();
            for (i, (g, chunk)) in grads.iter_mut().zip(samples.chunks(per_part)).enumerate() {
                shares[i % threads].push((i, g, chunk));
            }
            let mut losses = [0.0f32; PARTS];
            std::thread::scope(|s| {
                let handles: Vec<_> = shares
                    .into_iter()
                    .map(|share| {
                        let model = &model;
                        s.spawn(move || {
                            share
                                .into_iter()
                                .map(|(i, g, chunk)| {
                                    g.clear();
                                    (i, chunk.iter().map(|x| model.backward(x, g)).sum::<f32>())
                                })
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                for h in handles {
                    for (i, loss) in h.join().expect("a training thread") {
                        losses[i] = loss;
                    }
                }
            });
            train_loss += losses.iter().sum::<f32>();
            let used = samples.len().div_ceil(per_part);
            let (first, rest) = grads.split_at_mut(1);
            for g in &rest[..used - 1] {
                first[0].add(g);
            }
            if !cfg.factoriser {
                // No gradient, no Adam step: the factoriser stays at zero.
                first[0].wf.iter_mut().for_each(|g| *g = 0.0);
            }
            step += 1;
            adam(&mut model, &first[0], &mut m1, &mut m2, lr, step, samples.len());
            model.clip_inputs();
            bar.inc(1);
        }
        let held_loss = held_loss(&model, &held);
        bar.suspend(|| {
            println!(
                "epoch {}: lr {lr:.5} train loss {:.5} held-out loss {held_loss:.5} ({:.0} s)",
                epoch + 1,
                train_loss / examples.len() as f32,
                started.elapsed().as_secs_f64()
            )
        });
    }
    bar.finish_and_clear();
    let network = model.quantise();
    report_quantisation(&model, &network, &held);
    std::fs::write(&cfg.out, network.to_bytes()).map_err(|e| format!("{}: {e}", cfg.out.display()))?;
    println!("wrote {}", cfg.out.display());
    Ok(())
}

fn held_loss(model: &Model, held: &[Sample]) -> f32 {
    let mut acc = [0.0; HIDDEN];
    held.iter().map(|s| (sigmoid(model.forward(&s.features, s.bucket, &mut acc)) - s.target).powi(2)).sum::<f32>()
        / held.len() as f32
}

/// How far the integer network is from the float one, in centi-pieces.
fn report_quantisation(model: &Model, network: &Network, held: &[Sample]) {
    let mut acc = [0.0; HIDDEN];
    let mut worst = 0.0f32;
    let mut total = 0.0f32;
    let n = held.len().min(20_000);
    for s in &held[..n] {
        let float = model.forward(&s.features, s.bucket, &mut acc) * SCALE as f32;
        let int = network.evaluate_features(&s.features, s.bucket) as f32;
        worst = worst.max((float - int).abs());
        total += (float - int).abs();
    }
    println!(
        "quantised vs float on {n} held-out positions: mean |diff| {:.2} cp, worst {worst:.1} cp",
        total / n as f32
    );
}

/// One Adam step on the summed gradient of `n` samples; weights are clipped into the
/// range the integer network can hold.
fn adam(model: &mut Model, grad: &Model, m1: &mut Model, m2: &mut Model, lr: f32, step: i32, n: usize) {
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let c1 = 1.0 - b1.powi(step);
    let c2 = 1.0 - b2.powi(step);
    let scale = 1.0 / n as f32;
    let params = model.parts_mut();
    let grads = grad.parts();
    let firsts = m1.parts_mut();
    let seconds = m2.parts_mut();
    for (((p, g), m), v) in params.into_iter().zip(grads).zip(firsts).zip(seconds) {
        for i in 0..p.len() {
            let gi = g[i] * scale;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            p[i] = (p[i] - lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps)).clamp(-CLIP, CLIP);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::ataxx::Bitboard;

    #[test]
    fn score_targets_run_from_each_records_score_to_its_games_result() {
        // Two games in file order: the first of three records (its mover wins), the
        // second of two (a draw). Scores at the scale give sigmoid(+-1), or proven.
        let rec = |score: i16, result: i8, last: bool| Record {
            own: Bitboard(1),
            opp: Bitboard(2),
            score,
            result,
            flags: if last { crate::record::GAME_END } else { 0 },
        };
        let records =
            [rec(100, 1, false), rec(-100, -1, false), rec(PROVEN, 1, true), rec(100, 0, false), rec(0, 0, true)];
        let scale = 100.0;
        let own: Vec<f32> = records.iter().map(|r| score01(r, scale)).collect();
        assert_eq!(score_targets(&records, scale, 0.0), own, "lambda 0: each record's own score");
        let results: Vec<f32> = records.iter().map(result01).collect();
        assert_eq!(score_targets(&records, scale, 1.0), results, "lambda 1: the game's result");
        // lambda 1/2 by hand, from each game's end: G = v/2 + (1 - G_next)/2, and after
        // a game's last record its result.
        let s = sigmoid(1.0);
        let g2 = 0.5 * 1.0 + 0.5 * 1.0;
        let g1 = 0.5 * (1.0 - s) + 0.5 * (1.0 - g2);
        let g0 = 0.5 * s + 0.5 * (1.0 - g1);
        let g4 = 0.5 * 0.5 + 0.5 * 0.5;
        let g3 = 0.5 * s + 0.5 * (1.0 - g4);
        let half = score_targets(&records, scale, 0.5);
        for (got, want) in half.iter().zip([g0, g1, g2, g3, g4]) {
            assert!((got - want).abs() < 1e-6, "{half:?}");
        }
        assert!(half[0] > own[0], "the first game's mover wins: its later scores raise its target");
    }

    #[test]
    fn a_network_read_back_into_floats_quantises_to_itself() {
        // Fine-tuning (`--init`) starts from the floats of a network file; they must be
        // that network exactly, or a run with no training would already change it.
        let mut rng = fastrand::Rng::with_seed(7);
        let network = Model::random(&mut rng).quantise();
        let floats = Model::from_rows(&network.rows());
        assert_eq!(floats.quantise(), network);
        assert_eq!(Model::from_rows(&net::embedded().rows()).quantise(), *net::embedded());
    }

    #[test]
    fn input_weights_stay_within_the_engines_int8_rows() {
        // The engine reads input weights as int8: the trainer keeps each one (its row's
        // part plus the factoriser's) within INPUT_CLIP, and the network it writes loads.
        let mut rng = fastrand::Rng::with_seed(5);
        let mut model = Model::random(&mut rng);
        model.w1.iter_mut().for_each(|w| *w *= 4.0);
        model.wf.iter_mut().for_each(|w| *w = (rng.f32() - 0.5) * 0.4);
        assert!(model.clip_inputs() > 0, "weights up to 0.6 + 0.2 are beyond 127/255");
        for (i, row) in model.w1.chunks(HIDDEN).enumerate() {
            for (w, v) in row.iter().zip(&model.wf[i % STATES * HIDDEN..][..HIDDEN]) {
                assert!((w + v).abs() <= INPUT_CLIP + ROUNDING, "{w} + {v}");
            }
        }
        assert_eq!(model.clip_inputs(), 0, "a clipped model is within the range");
        let written = model.quantise().to_bytes();
        assert_eq!(Network::from_bytes(&written).unwrap(), model.quantise());
    }

    #[test]
    fn the_factoriser_folds_into_the_written_network() {
        // The engine reads only the 36 x 81 rows: the written network must give what
        // the float model with its factoriser gives, and differ from the model without.
        let mut rng = fastrand::Rng::with_seed(11);
        let mut model = Model::random(&mut rng);
        model.w1.iter_mut().for_each(|w| *w *= 0.3);
        model.wf.iter_mut().for_each(|w| *w = (rng.f32() - 0.3) * 0.2);
        // Every weight on the quantisation grid, so that the float model and the network
        // differ only by the integer arithmetic's rounding, whatever HIDDEN is (off the
        // grid, rounding the output weights alone moves a random 256-unit model's value by
        // some 30 centi-pieces).
        let snap = |w: &mut f32, scale: i32| *w = (*w * scale as f32).round() / scale as f32;
        model.w1.iter_mut().chain(model.wf.iter_mut()).for_each(|w| snap(w, QA));
        model.w2.iter_mut().for_each(|w| snap(w, QB));
        let network = model.quantise();
        let mut without = model.clone();
        without.wf.iter_mut().for_each(|w| *w = 0.0);
        let record =
            |own: u64, opp: u64| Record { own: Bitboard(own), opp: Bitboard(opp), score: 0, result: 0, flags: 0 };
        let mut acc = [0.0; HIDDEN];
        let mut moved = 0;
        for (own, opp) in [(0x41, 0x1_0000_0000_0040), (0x0f0f_0000, 0xf0_0000_00f0), (0x3, 0x1_8000_0000_0000)] {
            let s = sample(&(record(own, opp), 0.5), 0, 0.5);
            let float = model.forward(&s.features, s.bucket, &mut acc) * SCALE as f32;
            let int = network.evaluate_features(&s.features, s.bucket) as f32;
            assert!((float - int).abs() < 5.0, "{float} vs {int}");
            moved += usize::from((without.forward(&s.features, s.bucket, &mut acc) * SCALE as f32 - float).abs() > 5.0);
        }
        assert!(moved > 0, "the factoriser changed no value: the test shows nothing");
    }
}
