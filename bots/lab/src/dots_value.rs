//! A learned value for Pencil middle games (issue #106, lead 2): can a small network,
//! trained on positions the solver values exactly, judge a position before the solver's
//! reach better than the bot's playouts do?
//!
//! `experiments dots-value-data` makes the examples: from logged games' positions at
//! 44-52 undrawn edges (where the losses against Dabble are decided) it plays the bot's
//! playout moves (a box that can be taken is taken, else a random safe edge) down to a
//! quiet position with `at` undrawn edges or fewer, the kind of position a playout passes
//! through, and asks the solver for its exact value there (the boxes still to come, the
//! side to move's less the other's). Beside it, the share of the bot's own playouts from
//! that position that the side to move wins: what MCTS would learn of it.
//!
//! `experiments dots-value-fit` trains a one-hidden-layer network on those examples and
//! compares, on games it never saw, its guess of the winner with the playouts' share.
//! On 13,279 examples at 36 undrawn edges it did no better than a constant (AUC 0.58,
//! the playouts 0.67; docs/lab/dots-search-and-dabble.md, "Issue #106, fourth session"),
//! so the bot does not use it.

use crate::dots_solver::{last_mover_wins, safe_children, safe_edges};
use crate::logged::logged_games;
use botzone_games::botzone::BotzoneGame;
use botzone_games::dots::{self, Position};
use botzone_games::engines::dots::solver::Solver;
use botzone_games::engines::dots::{PlayoutSolver, SafeEdges};
use botzone_games::game::{Game, Player};
use botzone_games::search::mcts::Policy;
use botzone_games::search::{Budget, Deadline};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// One example: the edges drawn, the box margin so far and the exact value of the boxes
/// still to come (both for the side to move), and the share of `playouts` playouts the
/// side to move won.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub game: usize,
    pub edges: u64,
    pub margin: i32,
    pub future: i32,
    pub playout_share: f32,
}

impl Example {
    fn line(&self) -> String {
        format!("{} {:x} {} {} {:.4}", self.game, self.edges, self.margin, self.future, self.playout_share)
    }

    fn parse(line: &str) -> Result<Example, String> {
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = |what: &str| format!("bad {what} in example line '{line}'");
        if f.len() != 5 {
            return Err(bad("field count"));
        }
        Ok(Example {
            game: f[0].parse().map_err(|_| bad("game"))?,
            edges: u64::from_str_radix(f[1], 16).map_err(|_| bad("edges"))?,
            margin: f[2].parse().map_err(|_| bad("margin"))?,
            future: f[3].parse().map_err(|_| bad("future"))?,
            playout_share: f[4].parse().map_err(|_| bad("playout share"))?,
        })
    }

    /// Whether the side to move wins with best play.
    pub fn won(&self) -> bool {
        self.margin + self.future > 0
    }
}

/// A position with these edges drawn (who took which box is not kept: the features do
/// not need it).
fn position_of(edges: u64) -> Position {
    let mut p = Position::start();
    for e in dots::edges_in(edges) {
        p.play(e);
    }
    p
}

/// The bot's playout moves from `p` until it is quiet (no box to take) with at most `at`
/// undrawn edges; `None` if the game reaches a position with no safe edge first (the
/// playout's own exact values take over there, so no value is needed).
fn descend(mut p: Position, at: u32, rng: &mut fastrand::Rng) -> Option<Position> {
    loop {
        if let Some(capture) = p.capture() {
            p.play(capture.take());
            continue;
        }
        if 60 - p.drawn_count() <= at {
            return Some(p);
        }
        let safe: Vec<dots::Edge> = dots::edges_in(safe_edges(&p)).collect();
        if safe.is_empty() {
            return None;
        }
        p.play(safe[rng.usize(..safe.len())]);
    }
}

/// `experiments dots-value-data`: examples from every logged game's positions at `roots`
/// undrawn edges, `per_root` descents from each, valued by the solver within `cap_s`
/// (those it does not finish are left out and counted), written to `out` one per line.
#[allow(clippy::too_many_arguments)]
pub fn dots_value_data(
    logs: &[std::path::PathBuf],
    roots: &[u32],
    at: u32,
    per_root: usize,
    cap_s: f64,
    playouts: usize,
    seed: u64,
    out: &Path,
) -> Result<(), String> {
    let mut file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut solver = Solver::new(20);
    let mut policy = SafeEdges { move_rules: true, exact_endgames: Some(PlayoutSolver::new()) };
    let (mut written, mut unsolved, mut no_descent) = (0usize, 0usize, 0usize);
    let start = Instant::now();
    let mut game_index = 0;
    for log in logs {
        for (line, moves) in logged_games(log)? {
            let mut p = Position::start();
            for value in moves.iter().filter(|v| !v.is_null()) {
                let edge =
                    Position::parse_json_move(value).map_err(|e| format!("{}: line {line}: {e}", log.display()))?;
                let Some(e) = edge else { continue };
                if roots.contains(&(60 - p.drawn_count())) && p.capture().is_none() {
                    for _ in 0..per_root {
                        let Some(q) = descend(p, at, &mut rng) else {
                            no_descent += 1;
                            continue;
                        };
                        let budget = Budget::until(Deadline::new(Instant::now(), Duration::from_secs_f64(cap_s)));
                        let Some(future) = solver.value(&q, &budget) else {
                            unsolved += 1;
                            continue;
                        };
                        let mover = q.to_move();
                        let mut wins = 0;
                        for _ in 0..playouts {
                            let mut r = q;
                            let reward = policy.playout(&mut r, &mut rng, &mut Vec::new());
                            let first_won = reward > 0.5;
                            wins += usize::from(first_won == (mover == Player::First));
                        }
                        let example = Example {
                            game: game_index,
                            edges: q.edge_word(),
                            margin: dots::eval::margin(&q, mover),
                            future,
                            playout_share: wins as f32 / playouts.max(1) as f32,
                        };
                        writeln!(file, "{}", example.line()).map_err(|e| e.to_string())?;
                        written += 1;
                    }
                }
                p.play(e);
            }
            game_index += 1;
        }
    }
    println!(
        "{written} examples from {game_index} games ({unsolved} not solved within {cap_s} s, {no_descent} descents \
         ran out of safe edges first), {:.0} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Reads the examples written by [`dots_value_data`].
pub fn read_examples(path: &Path) -> Result<Vec<Example>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines().filter(|l| !l.trim().is_empty()).map(Example::parse).collect()
}

/// Inputs: each edge drawn; each untaken box's drawn sides (0-3, one-hot); the safe edges
/// left (one-hot, 0 to 15 and more) and their parity; the untaken boxes / 25; the segments
/// of boxes with two sides drawn (chains in the making) by length, 1 to 6 and more, and
/// the loops among them; the long ones (3 boxes or more: the chains control is fought
/// over) counted one-hot (0 to 4 and more) and their parity; with `--target win`, the box
/// margin so far.
pub const INPUTS: usize = 60 + 4 * 25 + 16 + 1 + 1 + 6 + 1 + 5 + 1 + 1;
/// The input that carries the box margin so far / 10 when the network guesses the winner.
const MARGIN_INPUT: usize = INPUTS - 1;

/// The segments of two-sided untaken boxes (joined through their undrawn sides): each
/// one's length and whether it closes on itself (a loop).
fn segments(p: &Position) -> Vec<(u32, bool)> {
    let two = p.side_counts().boxes_with(2) & p.untaken_boxes();
    let mut seen = 0u32;
    let mut found = Vec::new();
    for b in 0..25 {
        if two >> b & 1 == 0 || seen >> b & 1 != 0 {
            continue;
        }
        // Flood over two-sided neighbours; a loop is a segment none of whose boxes has
        // a side leading out of it (to the border or to another box).
        let (mut stack, mut len, mut open) = (vec![b], 0, false);
        seen |= 1 << b;
        while let Some(c) = stack.pop() {
            len += 1;
            for e in p.free_sides(c) {
                match Position::across(c, e) {
                    Some(d) if two >> d & 1 != 0 => {
                        if seen >> d & 1 == 0 {
                            seen |= 1 << d;
                            stack.push(d);
                        }
                    }
                    _ => open = true,
                }
            }
        }
        found.push((len, !open));
    }
    found
}

pub fn features(p: &Position) -> Vec<f32> {
    let mut x = vec![0.0f32; INPUTS];
    for e in dots::edges_in(p.edge_word()) {
        x[e as usize] = 1.0;
    }
    // The examples are quiet (no box with three sides), so a safe edge completes none.
    let safe = safe_edges(p).count_ones() as usize;
    let counts = p.side_counts();
    for n in 0..4 {
        let boxes = counts.boxes_with(n) & p.untaken_boxes();
        for b in 0..25 {
            if boxes >> b & 1 != 0 {
                x[60 + 4 * b + n as usize] = 1.0;
            }
        }
    }
    x[160 + safe.min(15)] = 1.0;
    x[176] = (safe % 2) as f32;
    x[177] = p.untaken_boxes().count_ones() as f32 / 25.0;
    let mut long = 0;
    for (len, is_loop) in segments(p) {
        if is_loop {
            x[184] += 0.5;
        } else {
            x[178 + (len as usize).min(6) - 1] += 0.5;
            long += usize::from(len >= 3);
        }
    }
    x[185 + long.min(4)] = 1.0;
    x[190] = (long % 2) as f32;
    x
}

/// A one-hidden-layer network guessing the boxes still to come / 25.
struct Net {
    hidden: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Net {
    fn new(hidden: usize, rng: &mut fastrand::Rng) -> Net {
        let scale = (2.0 / INPUTS as f32).sqrt();
        let w1 = (0..INPUTS * hidden).map(|_| (rng.f32() * 2.0 - 1.0) * scale).collect();
        let w2 = (0..hidden).map(|_| (rng.f32() * 2.0 - 1.0) * 0.1).collect();
        Net { hidden, w1, b1: vec![0.0; hidden], w2, b2: 0.0 }
    }

    /// The hidden activations and the output.
    fn forward(&self, x: &[f32], h: &mut [f32]) -> f32 {
        h.copy_from_slice(&self.b1);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
                h.iter_mut().zip(row).for_each(|(a, w)| *a += xi * w);
            }
        }
        h.iter_mut().for_each(|a| *a = a.max(0.0));
        self.b2 + h.iter().zip(&self.w2).map(|(a, w)| a * w).sum::<f32>()
    }
}

/// Adam's state for one weight vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }
    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..w.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            w[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// How well a guess of the side to move's chance names the winner: right calls and the
/// mean squared error (Brier score).
#[derive(Default)]
struct Calls {
    right: usize,
    brier: f64,
    n: usize,
}

impl Calls {
    fn add(&mut self, chance: f32, won: bool) {
        self.right += usize::from((chance > 0.5) == won);
        let miss = f64::from(chance) - f64::from(u8::from(won));
        self.brier += miss * miss;
        self.n += 1;
    }
    fn show(&self, label: &str) -> String {
        let n = self.n.max(1) as f64;
        format!("{label}: {:.1}% right, Brier {:.4}", 100.0 * self.right as f64 / n, self.brier / n)
    }
}

/// The chance that a random won example is rated above a random lost one (ties half):
/// how well a guess orders positions, whatever its calibration.
fn auc(guesses: &[f32], won: &[bool]) -> f64 {
    let mut pairs: Vec<(f32, bool)> = guesses.iter().copied().zip(won.iter().copied()).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut lost_below, mut score, mut i) = (0.0f64, 0.0f64, 0);
    while i < pairs.len() {
        let j = (i..pairs.len()).find(|&j| pairs[j].0 != pairs[i].0).unwrap_or(pairs.len());
        let (w, l) = pairs[i..j].iter().fold((0.0, 0.0), |(w, l), p| if p.1 { (w + 1.0, l) } else { (w, l + 1.0) });
        score += w * (lost_below + l / 2.0);
        lost_below += l;
        i = j;
    }
    let wins = won.iter().filter(|&&w| w).count() as f64;
    score / (wins * (won.len() as f64 - wins)).max(1.0)
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `experiments dots-value-fit`: trains the network on the examples of four games in five
/// and reports, on the fifth's, its calls (the chance the side to move wins being the
/// logistic of (margin + guess) / `spread`, the spread fitted on the training games) beside
/// those of the playouts' share.
pub fn dots_value_fit(data: &Path, hidden: usize, epochs: usize, lr: f32, seed: u64, win: bool) -> Result<(), String> {
    let examples = read_examples(data)?;
    let (train, test): (Vec<&Example>, Vec<&Example>) = examples.iter().partition(|e| e.game % 5 != 0);
    if train.is_empty() || test.is_empty() {
        return Err(format!("{}: too few games to hold one in five out", data.display()));
    }
    let inputs = |set: &[&Example]| -> Vec<Vec<f32>> {
        let with_margin = |e: &Example| {
            let mut x = features(&position_of(e.edges));
            if win {
                x[MARGIN_INPUT] = e.margin as f32 / 10.0;
            }
            x
        };
        set.iter().map(|e| with_margin(e)).collect()
    };
    let (x_train, x_test) = (inputs(&train), inputs(&test));
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut net = Net::new(hidden, &mut rng);
    let (mut a1, mut ab1, mut a2) = (Adam::new(net.w1.len()), Adam::new(hidden), Adam::new(hidden));
    let (mut m_b2, mut v_b2) = (0.0f32, 0.0f32);
    let batch = 64;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut h = vec![0.0f32; hidden];
    let mut t = 0;
    for epoch in 0..epochs {
        rng.shuffle(&mut order);
        let mut loss = 0.0f64;
        for chunk in order.chunks(batch) {
            let (mut g1, mut gb1, mut g2, mut gb2) =
                (vec![0.0f32; net.w1.len()], vec![0.0f32; hidden], vec![0.0f32; hidden], 0.0f32);
            for &i in chunk {
                let x = &x_train[i];
                let out = net.forward(x, &mut h);
                // Squared error on the boxes to come / 25, or cross-entropy on the winner.
                let (d, l) = if win {
                    let y = f32::from(u8::from(train[i].won()));
                    let p = logistic(out);
                    (p - y, -(if y > 0.5 { p } else { 1.0 - p }).max(1e-6).ln())
                } else {
                    let y = train[i].future as f32 / 25.0;
                    ((out - y) * 2.0, (out - y) * (out - y))
                };
                let d = d / chunk.len() as f32;
                loss += f64::from(l);
                gb2 += d;
                for j in 0..hidden {
                    g2[j] += d * h[j];
                    if h[j] > 0.0 {
                        let dh = d * net.w2[j];
                        gb1[j] += dh;
                        for (k, &xk) in x.iter().enumerate() {
                            if xk != 0.0 {
                                g1[k * hidden + j] += dh * xk;
                            }
                        }
                    }
                }
            }
            t += 1;
            a1.step(&mut net.w1, &g1, lr, t);
            ab1.step(&mut net.b1, &gb1, lr, t);
            a2.step(&mut net.w2, &g2, lr, t);
            m_b2 = 0.9 * m_b2 + 0.1 * gb2;
            v_b2 = 0.999 * v_b2 + 0.001 * gb2 * gb2;
            net.b2 -= lr * (m_b2 / (1.0 - 0.9f32.powi(t))) / ((v_b2 / (1.0 - 0.999f32.powi(t))).sqrt() + 1e-8);
        }
        if !win && (epoch + 1 == epochs || epoch % 5 == 4) {
            let test_mae: f64 = test
                .iter()
                .zip(&x_test)
                .map(|(e, x)| f64::from((net.forward(x, &mut h) * 25.0 - e.future as f32).abs()))
                .sum::<f64>()
                / test.len() as f64;
            println!(
                "epoch {}: train RMSE {:.2} boxes, test mean error {test_mae:.2} boxes",
                epoch + 1,
                (loss / train.len() as f64).sqrt() * 25.0
            );
        }
    }
    // The spread turning margin + guess into a chance, fitted on the training games.
    // Guessing the winner, the output is already the logit: a spread of 1 and no margin.
    let guesses = |set: &[&Example], xs: &[Vec<f32>], h: &mut [f32]| -> Vec<f32> {
        let guess = |e: &Example, x: &[f32], h: &mut [f32]| match win {
            true => net.forward(x, h),
            false => e.margin as f32 + 25.0 * net.forward(x, h),
        };
        set.iter().zip(xs).map(|(e, x)| guess(e, x, h)).collect()
    };
    let g_train = guesses(&train, &x_train, &mut h);
    let brier = |spread: f32| -> f64 {
        train
            .iter()
            .zip(&g_train)
            .map(|(e, &g)| {
                let miss = f64::from(logistic(g / spread)) - f64::from(u8::from(e.won()));
                miss * miss
            })
            .sum()
    };
    let spreads: &[f32] = if win { &[1.0] } else { &[0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0] };
    let spread = spreads.iter().copied().min_by(|&a, &b| brier(a).total_cmp(&brier(b))).expect("spreads");
    let g_test = guesses(&test, &x_test, &mut h);
    let (mut net_calls, mut playout_calls) = (Calls::default(), Calls::default());
    for (e, &g) in test.iter().zip(&g_test) {
        net_calls.add(logistic(g / spread), e.won());
        playout_calls.add(e.playout_share, e.won());
    }
    let won = test.iter().filter(|e| e.won()).count();
    let mut constant = Calls::default();
    let base = train.iter().filter(|e| e.won()).count() as f32 / train.len() as f32;
    test.iter().for_each(|e| constant.add(base, e.won()));
    println!(
        "held out: {} examples from {} games ({won} won by the side to move); spread {spread}",
        test.len(),
        test.iter().map(|e| e.game).collect::<std::collections::HashSet<_>>().len()
    );
    let net_chances: Vec<f32> = g_test.iter().map(|&g| logistic(g / spread)).collect();
    let shares: Vec<f32> = test.iter().map(|e| e.playout_share).collect();
    let outcomes: Vec<bool> = test.iter().map(|e| e.won()).collect();
    println!("  {}, AUC {:.3}", net_calls.show("network"), auc(&net_chances, &outcomes));
    println!("  {}, AUC {:.3}", playout_calls.show("playouts' share"), auc(&shares, &outcomes));
    println!("  {} (the training games' rate of wins)", constant.show("a constant"));
    Ok(())
}

/// The safe-edge game (who draws the last safe edge; the other must then hand boxes over):
/// a winning safe edge for the side to move, `Some(None)` if every one loses, `None` past
/// `cap` nodes. Memoised on the edges.
fn safe_game_move(
    p: &Position,
    memo: &mut std::collections::HashMap<u64, bool>,
    nodes: &mut u64,
    cap: u64,
) -> Option<Option<dots::Edge>> {
    for e in dots::edges_in(safe_edges(p)) {
        let mut child = *p;
        child.play(e);
        if !last_mover_wins(&child, &safe_children, memo, nodes, cap)? {
            return Some(Some(e));
        }
    }
    Some(None)
}

/// A playout as the bot's ([`dots::eval::safe_edge_playout`] with the solver's exact
/// endings from 28 undrawn edges), except that once at most `safe_game_from` safe edges
/// are left, a safe edge that wins the safe-edge game is drawn where one is found. Returns
/// whether the side to move in `p`, `margin` boxes up so far, won. (`p` may be rebuilt
/// from its edges, so its own box counts are not the game's: only what they gain counts.)
/// What a playout variant changes: the safe-edge game played exactly from this many safe
/// edges (0: never), and the solver's exact endings asked from this many undrawn edges
/// within this many nodes (the bot: 28 and 4,096).
#[derive(Clone, Copy, Debug)]
pub struct PlayoutVariant {
    pub safe_game_from: u32,
    pub exact_from: u32,
    pub exact_nodes: u64,
}

fn variant_playout(
    mut p: Position,
    margin: i32,
    v: PlayoutVariant,
    solver: &mut Solver,
    rng: &mut fastrand::Rng,
) -> bool {
    use dots::eval::{quiet_playout_move, QuietStep};
    let mover = p.to_move();
    let before = dots::eval::margin(&p, mover);
    let mut moves = Vec::with_capacity(60);
    let mut memo = std::collections::HashMap::new();
    // The mover's final margin once the side to move in `q` gets `future` more boxes than
    // the other from here on.
    let final_margin = |q: &Position, future: i32| {
        let future = if q.to_move() == mover { future } else { -future };
        margin + dots::eval::margin(q, mover) - before + future
    };
    loop {
        if let Some(capture) = p.capture() {
            p.play(capture.take());
            continue;
        }
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            return final_margin(&p, 0) > 0;
        }
        let safe = safe_edges(&p);
        if safe != 0 && safe.count_ones() <= v.safe_game_from {
            let mut nodes = 0;
            if let Some(Some(e)) = safe_game_move(&p, &mut memo, &mut nodes, 20_000) {
                p.play(e);
                continue;
            }
        }
        let e = match quiet_playout_move(&p, &moves, rng) {
            QuietStep::Draw { edge, safe: true } => edge,
            QuietStep::Draw { edge, safe: false } => {
                if 60 - p.drawn_count() <= v.exact_from {
                    if let Some(future) = solver.value(&p, &Budget::iterations(v.exact_nodes)) {
                        return final_margin(&p, future) > 0;
                    }
                }
                edge
            }
            QuietStep::Loony(parts) => return final_margin(&p, dots::loony_value(&parts)) > 0,
        };
        p.play(e);
    }
}

/// `experiments dots-value-judge`: the calls of `playouts` playouts of a variant on every
/// example (no training: all of them are judged), beside the bot's playouts' share stored
/// with the examples.
pub fn dots_value_judge(data: &Path, playouts: usize, v: PlayoutVariant, seed: u64) -> Result<(), String> {
    let examples = read_examples(data)?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut solver = Solver::new(18);
    let start = Instant::now();
    let (mut stored, mut variant) = (Calls::default(), Calls::default());
    let mut shares = Vec::with_capacity(examples.len());
    for e in &examples {
        let p = position_of(e.edges);
        let wins = (0..playouts).filter(|_| variant_playout(p, e.margin, v, &mut solver, &mut rng)).count();
        let share = wins as f32 / playouts.max(1) as f32;
        shares.push(share);
        variant.add(share, e.won());
        stored.add(e.playout_share, e.won());
    }
    let won: Vec<bool> = examples.iter().map(|e| e.won()).collect();
    let stored_shares: Vec<f32> = examples.iter().map(|e| e.playout_share).collect();
    println!("{} examples, {playouts} playouts each, {:.0} s", examples.len(), start.elapsed().as_secs_f64());
    println!("  {}, AUC {:.3}", stored.show("the bot's playouts (stored)"), auc(&stored_shares, &won));
    println!("  {}, AUC {:.3}", variant.show(&format!("{v:?}")), auc(&shares, &won));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_example_reads_back_as_written() {
        let e = Example { game: 7, edges: 0x0abc_def0_1234, margin: -3, future: 5, playout_share: 0.375 };
        assert_eq!(Example::parse(&e.line()), Ok(e.clone()));
        assert!(e.won());
        assert!(Example::parse("7 xyz 1 2 0.5").is_err());
    }

    #[test]
    fn a_descent_ends_quiet_at_or_below_its_target() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut reached = 0;
        for _ in 0..50 {
            if let Some(q) = descend(Position::start(), 36, &mut rng) {
                assert!(60 - q.drawn_count() <= 36);
                assert!(q.capture().is_none());
                reached += 1;
            }
        }
        assert!(reached > 0);
    }

    #[test]
    fn auc_is_one_for_a_perfect_order_and_a_half_for_ties() {
        assert_eq!(auc(&[0.1, 0.2, 0.8, 0.9], &[false, false, true, true]), 1.0);
        assert_eq!(auc(&[0.9, 0.8, 0.2, 0.1], &[false, false, true, true]), 0.0);
        assert_eq!(auc(&[0.5, 0.5], &[false, true]), 0.5);
    }

    #[test]
    fn segments_are_chains_and_loops_of_two_sided_boxes() {
        // Box 0 (a corner) with its top and left drawn: a one-box segment open both ways.
        let p = position_of(1 << 0 | 1 << 30);
        assert_eq!(segments(&p), vec![(1, false)]);
        // Boxes 0 and 1 with their tops and bottoms drawn: one segment of two.
        let p = position_of(1 << 0 | 1 << 1 | 1 << 5 | 1 << 6);
        assert_eq!(segments(&p), vec![(2, false)]);
        // The four boxes 0, 1, 5, 6 with their outer sides drawn: a loop of four.
        let outer = [0u64, 1, 10, 11, 30, 36, 32, 38];
        let p = position_of(outer.iter().map(|&e| 1u64 << e).sum());
        assert_eq!(segments(&p), vec![(4, true)]);
    }

    /// Whether the side to move draws the last safe edge, by plain recursion.
    fn naive_safe_win(p: &Position) -> bool {
        dots::edges_in(safe_edges(p)).any(|e| {
            let mut child = *p;
            child.play(e);
            !naive_safe_win(&child)
        })
    }

    #[test]
    fn the_safe_game_move_wins_the_safe_game() {
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut checked, mut winning) = (0, 0);
        for _ in 0..300 {
            let Some(mut q) = descend(Position::start(), 36, &mut rng) else { continue };
            // Random safe edges on, down to at most 9 safe edges (some games not that far).
            let stop = rng.u32(0..10);
            while safe_edges(&q).count_ones() > stop {
                let safe: Vec<_> = dots::edges_in(safe_edges(&q)).collect();
                q.play(safe[rng.usize(..safe.len())]);
            }
            let mut memo = std::collections::HashMap::new();
            let found = safe_game_move(&q, &mut memo, &mut 0, u64::MAX).expect("no cap");
            assert_eq!(found.is_some(), naive_safe_win(&q));
            if let Some(e) = found {
                let mut child = q;
                child.play(e);
                assert!(!naive_safe_win(&child));
                winning += 1;
            }
            checked += 1;
        }
        assert!(checked > 50 && winning > 0 && winning < checked, "{checked} positions, {winning} won");
    }

    #[test]
    fn a_playout_with_no_safe_edge_left_ends_in_the_exact_result() {
        let mut rng = fastrand::Rng::with_seed(12);
        let mut solver = Solver::new(16);
        let exact = PlayoutVariant { safe_game_from: 0, exact_from: 60, exact_nodes: 1 << 30 };
        let mut checked = 0;
        for _ in 0..400 {
            let Some(mut q) = descend(Position::start(), 36, &mut rng) else { continue };
            // Play random safe edges on until none is left.
            while safe_edges(&q) != 0 {
                let safe: Vec<_> = dots::edges_in(safe_edges(&q)).collect();
                q.play(safe[rng.usize(..safe.len())]);
            }
            if q.capture().is_some() || q.drawn_count() == 60 {
                continue;
            }
            let value = solver.value(&q, &Budget::iterations(u64::MAX)).expect("no cap");
            let margin = rng.i32(-3..=3);
            let won = variant_playout(q, margin, exact, &mut solver, &mut rng);
            assert_eq!(won, margin + value > 0);
            checked += 1;
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn features_mark_edges_and_box_sides() {
        let p = position_of(0b1);
        let x = features(&p);
        assert_eq!(x.len(), INPUTS);
        assert_eq!(x[0], 1.0);
        // Edge 0 is box 0's top: box 0 has one side drawn, box 1 none.
        assert_eq!(x[60 + 1], 1.0);
        assert_eq!(x[60 + 4], 1.0);
    }
}
