//! Ataxx's hand-made evaluation, fitted (Texel's method): self-play of the `ab` engine from
//! random openings, then a logistic fit of the game results on the evaluation's terms.
//! The weights it printed are `eval::FITTED` (the `--without network` evaluation).

use botzone_games::ataxx;
use botzone_games::ataxx::eval::{self, TERMS};
use botzone_games::engines::{ataxx::ab, Without};
use botzone_games::game::Game;
use botzone_games::search::{Budget, Engine};
use std::time::Instant;

/// One training position: the evaluation's terms, the number of empty squares, and the
/// result of the game for the side to move (1, 0.5, 0).
struct Sample {
    terms: [i32; TERMS],
    empties: i32,
    result: f64,
}

/// Self-play of `ab` at `nodes` per move from openings of 6 random plies.
fn self_play(games: usize, nodes: u64, seed: u64) -> Vec<Sample> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut engine = ab(&Without::default());
    let mut samples = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut board = *ataxx::Position::start().board();
        let mut seen = Vec::new();
        let outcome = loop {
            if let Some(outcome) = board.judge() {
                break outcome;
            }
            board.generate(&mut moves);
            let mv = if board.ply() < 6 {
                moves[rng.usize(..moves.len())]
            } else {
                let (terms, empties) = eval::terms(&board);
                seen.push((terms, empties, board.to_move()));
                engine.search(&board, &moves, &Budget::iterations(nodes)).best
            };
            board.make(mv);
        };
        samples.extend(seen.into_iter().map(|(terms, empties, side)| Sample {
            terms,
            empties,
            result: outcome.reward(side),
        }));
    }
    samples
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predicted results with `w` (8 weights: opening, then ending)
/// and scale `s` (centi-pieces per logistic unit).
fn texel_loss(samples: &[Sample], w: &[f64; 2 * TERMS], s: f64) -> f64 {
    samples.iter().map(|x| (sigmoid(texel_eval(x, w) / s) - x.result).powi(2)).sum::<f64>() / samples.len() as f64
}

/// How far the position is from the full board, 1 at the start, as `eval::weigh` blends.
fn opening_share(x: &Sample) -> f64 {
    f64::from(x.empties.min(eval::START_EMPTIES)) / f64::from(eval::START_EMPTIES)
}

fn texel_eval(x: &Sample, w: &[f64; 2 * TERMS]) -> f64 {
    let open = opening_share(x);
    (0..TERMS).map(|k| f64::from(x.terms[k]) * (w[k] * open + w[TERMS + k] * (1.0 - open))).sum()
}

/// `experiments texel`: `games` self-play games at `nodes` per move, then 2,000 steps of Adam
/// on the eight weights; prints the losses and the weights as Rust.
pub fn texel(games: usize, nodes: u64, seed: u64) {
    let start = Instant::now();
    let mut samples = self_play(games, nodes, seed);
    println!("{} positions from {games} games in {:.0} s", samples.len(), start.elapsed().as_secs_f64());
    // Every tenth game's worth of positions held out, by position index (games are long
    // runs of positions, so this splits within games; the test loss is a sanity check).
    fastrand::Rng::with_seed(seed).shuffle(&mut samples);
    let (test, train) = samples.split_at(samples.len() / 10);
    let hand = eval::HAND_SET;
    let mut w = [0.0; 2 * TERMS];
    for k in 0..TERMS {
        w[k] = f64::from(hand.opening[k]);
        w[TERMS + k] = f64::from(hand.ending[k]);
    }
    // The scale that fits the hand-set weights best, then kept fixed.
    let s = (1..=60)
        .map(|i| f64::from(i) * 25.0)
        .min_by(|a, b| texel_loss(train, &w, *a).total_cmp(&texel_loss(train, &w, *b)))
        .unwrap();
    println!("scale {s}: hand-set loss train {:.5} test {:.5}", texel_loss(train, &w, s), texel_loss(test, &w, s));
    // Adam on all eight weights.
    let (mut m, mut v) = ([0.0; 2 * TERMS], [0.0; 2 * TERMS]);
    let (lr, b1, b2) = (1.0, 0.9, 0.999);
    for step in 1..=2000 {
        let mut grad = [0.0; 2 * TERMS];
        for x in train {
            let p = sigmoid(texel_eval(x, &w) / s);
            let common = 2.0 * (p - x.result) * p * (1.0 - p) / s;
            let open = opening_share(x);
            for k in 0..TERMS {
                let f = f64::from(x.terms[k]);
                grad[k] += common * f * open;
                grad[TERMS + k] += common * f * (1.0 - open);
            }
        }
        for k in 0..2 * TERMS {
            let g = grad[k] / train.len() as f64;
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let (mh, vh) = (m[k] / (1.0 - b1.powi(step)), v[k] / (1.0 - b2.powi(step)));
            w[k] -= lr * mh / (vh.sqrt() + 1e-9);
        }
        if step % 500 == 0 {
            println!("step {step}: loss train {:.5} test {:.5}", texel_loss(train, &w, s), texel_loss(test, &w, s));
        }
    }
    let round = |ws: &[f64]| ws.iter().map(|x| format!("{}", x.round() as i32)).collect::<Vec<_>>().join(", ");
    println!("Weights {{ opening: [{}], ending: [{}] }}", round(&w[..TERMS]), round(&w[TERMS..]));
}
