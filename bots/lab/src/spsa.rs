//! Tunes the numbers of Ataxx's `ab` search ([`SearchParams`]) by SPSA, simultaneous
//! perturbation stochastic approximation (Spall, 1992), run as engine testers run it:
//! each step draws a sign for every number, plays a pair of games from one random opening
//! (colours swapped) between the numbers moved up by `c_k` along those signs and moved
//! down, and moves every number along its sign by the pair's result (wins less losses of
//! the upper side). One pair estimates the gradient in all numbers at once; the noise is
//! large, so the steps shrink as the run goes on (`c_k = c / k^0.101`, `a_k = a / (A +
//! k)^0.602`, with `c` and `a` set so that the last step perturbs a number by its
//! `c_end` and moves it by `r_end * c_end` per unit of result).
//!
//! Games are played in-process, at a fixed number of nodes a move or at a fixed time.
//! Fixed nodes do not depend on the machine's load, and with one thread such a run is the
//! same run on any machine; but they do not charge a change for what its nodes cost, so a
//! set found so must still win at equal time (the first run's set scored +21 at its 60,000
//! nodes and -7 at 100 ms, its nodes 8% dearer; docs/lab/ataxx-search.md, "The search's
//! numbers tuned by SPSA"). A fixed time (`ms`) charges it, at the price of a run that
//! needs a core per thread and nothing else running. With more threads each worker takes
//! the next step and applies its result when its pair ends (the asynchronous SPSA of
//! engine testers): the run then depends on the threads' timing.

use crate::in_process::play_out;
use botzone_games::ataxx::Position;
use botzone_games::engines::ataxx::{ab_config_with, AtaxxEval, SearchParams};
use botzone_games::engines::{OnModel, Without};
use botzone_games::game::Game;
use botzone_games::search::alphabeta::AlphaBeta;
use botzone_games::search::{Budget, Deadline, Engine};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A number SPSA moves: its bounds, and the perturbation of the run's last step.
pub struct Tuned {
    pub name: &'static str,
    pub min: f64,
    pub max: f64,
    /// About the change that moves strength by a few Elo: smaller drowns in the noise,
    /// larger measures far from the point.
    pub c_end: f64,
}

/// Every number of [`SearchParams`], in its order. A depth or a count moves by whole
/// steps: its perturbation of 1 (or more) rounds to a real change on each side.
pub const TUNED: [Tuned; 15] = [
    Tuned { name: "rfp-margin", min: 10.0, max: 200.0, c_end: 10.0 },
    Tuned { name: "rfp-max-depth", min: 1.0, max: 12.0, c_end: 1.0 },
    Tuned { name: "fp-base", min: 0.0, max: 500.0, c_end: 30.0 },
    Tuned { name: "fp-per-ply", min: 10.0, max: 300.0, c_end: 15.0 },
    Tuned { name: "fp-max-depth", min: 1.0, max: 12.0, c_end: 1.0 },
    Tuned { name: "fp-min-moves", min: 1.0, max: 12.0, c_end: 1.0 },
    Tuned { name: "lmr-base", min: -0.5, max: 2.5, c_end: 0.15 },
    Tuned { name: "lmr-scale", min: 0.1, max: 1.2, c_end: 0.06 },
    Tuned { name: "lmr-history-divisor", min: 2048.0, max: 65536.0, c_end: 2500.0 },
    Tuned { name: "lmp-min-moves", min: 1.0, max: 12.0, c_end: 1.0 },
    Tuned { name: "iir-depth", min: 2.0, max: 10.0, c_end: 1.0 },
    Tuned { name: "singular-min-depth", min: 3.0, max: 14.0, c_end: 1.0 },
    Tuned { name: "singular-depth-margin", min: 1.0, max: 6.0, c_end: 1.0 },
    Tuned { name: "aspiration-delta", min: 4.0, max: 80.0, c_end: 4.0 },
    Tuned { name: "aspiration-min-depth", min: 1.0, max: 14.0, c_end: 1.0 },
];

/// The numbers of [`TUNED`] named in `names`, in `TUNED`'s order; all of them for none.
pub fn tuned_by_name(names: &[String]) -> Result<Vec<&'static Tuned>, String> {
    if let Some(unknown) = names.iter().find(|n| !TUNED.iter().any(|t| t.name == n.as_str())) {
        let known: Vec<_> = TUNED.iter().map(|t| t.name).collect();
        return Err(format!("{unknown:?} is not a search number (known: {})", known.join(", ")));
    }
    Ok(TUNED.iter().filter(|t| names.is_empty() || names.iter().any(|n| n == t.name)).collect())
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

pub struct SpsaConfig {
    /// Game pairs (steps) in the run.
    pub pairs: u64,
    /// Alpha-beta nodes per move, for both sides (unless `ms` is set).
    pub nodes: u64,
    /// Milliseconds per move, for both sides, in place of `nodes`.
    pub ms: Option<u64>,
    /// Random plies that open each pair's games.
    pub opening_plies: usize,
    pub threads: usize,
    pub seed: u64,
    /// The learning rate at the run's end, per unit of `c_end` (engine testers use 0.002
    /// over tens of thousands of pairs; a run of a few thousand needs more).
    pub r_end: f64,
    /// Print the numbers every this many pairs.
    pub report_every: u64,
    pub start: SearchParams,
    /// The numbers moved (the others stay at `start`): fewer numbers, less noise in each.
    pub tuned: Vec<&'static Tuned>,
}

/// Where the run stands: the numbers as floats (rounded only when a game is played).
struct State {
    theta: Vec<f64>,
    next_pair: u64,
    done: u64,
    /// Wins less losses of the upper side, summed over the pairs.
    result_sum: i64,
}

/// `experiments ataxx-spsa`: runs SPSA from `config.start`; prints the numbers as it goes
/// and returns the last ones.
pub fn spsa(config: &SpsaConfig) -> SearchParams {
    let n = config.pairs.max(1) as f64;
    let big_a = 0.1 * n;
    // Per number: c, and a so that a_N / c_N = r_end * c_end.
    let c: Vec<f64> = config.tuned.iter().map(|t| t.c_end * n.powf(GAMMA)).collect();
    let a: Vec<f64> = config.tuned.iter().map(|t| config.r_end * t.c_end * t.c_end * (big_a + n).powf(ALPHA)).collect();
    let theta = config.tuned.iter().map(|t| config.start.get(t.name).expect("a known number")).collect();
    let state = Mutex::new(State { theta, next_pair: 1, done: 0, result_sum: 0 });
    let started = Instant::now();
    let per_move = match config.ms {
        Some(ms) => format!("{ms} ms"),
        None => format!("{} nodes", config.nodes),
    };
    println!(
        "SPSA: {} pairs at {per_move} a move, {} random plies, r_end {}, {} threads, seed {}",
        config.pairs, config.opening_plies, config.r_end, config.threads, config.seed
    );
    println!("start: {}", describe(&config.tuned, &state.lock().expect("state").theta));
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| loop {
                let (k, theta) = {
                    let mut s = state.lock().expect("state");
                    if s.next_pair > config.pairs {
                        return;
                    }
                    s.next_pair += 1;
                    (s.next_pair - 1, s.theta.clone())
                };
                let mut rng = fastrand::Rng::with_seed(config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k);
                let signs: Vec<f64> = config.tuned.iter().map(|_| if rng.bool() { 1.0 } else { -1.0 }).collect();
                let ck: Vec<f64> = c.iter().map(|c| c / (k as f64).powf(GAMMA)).collect();
                let moved = |direction: f64| {
                    let mut p = config.start;
                    for (i, t) in config.tuned.iter().enumerate() {
                        let v = (theta[i] + direction * ck[i] * signs[i]).clamp(t.min, t.max);
                        p.set(t.name, v).expect("a known number");
                    }
                    p
                };
                let result = play_pair(&moved(1.0), &moved(-1.0), config, &mut rng);
                let mut s = state.lock().expect("state");
                for (i, t) in config.tuned.iter().enumerate() {
                    let ak = a[i] / (big_a + k as f64).powf(ALPHA);
                    s.theta[i] = (s.theta[i] + ak / ck[i] * f64::from(result) * signs[i]).clamp(t.min, t.max);
                }
                s.done += 1;
                s.result_sum += i64::from(result);
                if s.done.is_multiple_of(config.report_every.max(1)) || s.done == config.pairs {
                    println!(
                        "pair {:>6} ({:.0} s, upper side's W-L so far {:+}): {}",
                        s.done,
                        started.elapsed().as_secs_f64(),
                        s.result_sum,
                        describe(&config.tuned, &s.theta)
                    );
                }
            });
        }
    });
    let theta = state.into_inner().expect("state").theta;
    let mut tuned = config.start;
    for (t, &v) in config.tuned.iter().zip(&theta) {
        tuned.set(t.name, v).expect("a known number");
    }
    tuned
}

fn describe(tuned: &[&Tuned], theta: &[f64]) -> String {
    tuned.iter().zip(theta).map(|(t, v)| format!("{}={:.3}", t.name, v)).collect::<Vec<_>>().join(" ")
}

/// Wins less losses of `upper` in two games against `lower` from one random opening,
/// each side first once.
fn play_pair(upper: &SearchParams, lower: &SearchParams, config: &SpsaConfig, rng: &mut fastrand::Rng) -> i32 {
    let start = random_opening(config.opening_plies, rng);
    let mut result = 0;
    for upper_first in [true, false] {
        let (u, l) = (engine(upper), engine(lower));
        let mut players = if upper_first { [u, l] } else { [l, u] };
        let first = play_out(&start, &mut players, |_| match config.ms {
            Some(ms) => Budget::until(Deadline::new(Instant::now(), Duration::from_millis(ms))),
            None => Budget::iterations(config.nodes),
        });
        let upper_reward = if upper_first { first } else { 1.0 - first };
        result += match upper_reward {
            r if r > 0.75 => 1,
            r if r < 0.25 => -1,
            _ => 0,
        };
    }
    result
}

fn engine(params: &SearchParams) -> Box<dyn Engine<Position>> {
    let search = AlphaBeta::new(ab_config_with(&Without::default(), params), AtaxxEval::default());
    Box::new(OnModel::new(search))
}

/// The start position after `plies` random legal moves (fewer if the game ends first).
fn random_opening(plies: usize, rng: &mut fastrand::Rng) -> Position {
    let mut p = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        p.legal_moves(&mut moves);
        if moves.is_empty() || p.outcome().is_some() {
            break;
        }
        p.play(moves[rng.usize(..moves.len())]);
    }
    p
}
