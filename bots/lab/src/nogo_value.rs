//! `experiments nogo-value-fit`: a learned guess of who wins a NoGo position, fitted to
//! the winners of logged games, and how well it names them against the count of the
//! `mcts` engine's leaves (`CountValue`) it extends. The model is the count with each
//! point's worth learned from its 3x3 neighbourhood instead of 1 or 0: every empty point
//! is seen twice, as the side to move sees it (its worth counts for that side) and as the
//! opponent does (its worth counts against), and the guess that the side to move wins is
//! the logistic of `slope * (the side to move's worths - the opponent's) + bias`, the slope
//! and bias fitted by tens of legal points left, as the count's slope is. Mixed into the
//! leaves in the count's place it did not play better (docs/lab/nogo-endgame-and-hahanogo.md, "A learned
//! value"); the fit and its table (`--out`) stay for the next try.

use crate::logged::logged_nogo_games;
use botzone_games::engines::nogo::{CountValue, COUNT_SLOPES};
use botzone_games::game::{Game, Player};
use botzone_games::nogo::patterns::{canonical, mover_may_play, Surroundings, PATTERNS};
use botzone_games::nogo::GroupBoard;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A table byte per unit of worth (the table holds signed bytes: worths within +-4).
pub const VALUE_SCALE: f32 = 32.0;

/// How many phases the slopes and biases are fitted for: by tens of legal points (both
/// sides together), the last holding 110 and more.
const PHASES: usize = 12;

/// The phase of a position with `legal_points` legal points for both sides together.
fn phase(legal_points: u32) -> usize {
    (legal_points as usize / 10).min(PHASES - 1)
}

/// Calls `term(pattern, mine)` for each empty point twice: with its neighbourhood as the
/// side to move sees it (`mine` true) and as the opponent does. A point with no stone
/// around looks the same to both sides, its two terms cancel, and it is left out.
fn value_terms(board: &GroupBoard, mut term: impl FnMut(u32, bool)) {
    let around = Surroundings::new(board, board.to_move());
    let stones = board.stones(Player::First).or(board.stones(Player::Second));
    for p in board.empty().and(stones.with_surroundings()).iter() {
        let (mine, theirs) = around.both_patterns(p);
        term(mine, true);
        term(theirs, false);
    }
}

/// The guess that the side to move wins from the sum of worths `sum` (the side to move's
/// less the opponent's) in `phase`, given the slopes and biases by phase.
fn mover_wins(sum: f32, phase: usize, slopes: &[f32; PHASES], biases: &[f32; PHASES]) -> f32 {
    1.0 / (1.0 + (-(slopes[phase] * sum + biases[phase])).exp())
}

/// One logged position: its terms (a class id, shifted left, with the low bit set where
/// the opponent sees the point), its phase, whether the side to move won, and the
/// count's guess that it wins.
struct Example {
    terms: Vec<u32>,
    phase: usize,
    won: bool,
    count: f32,
}

/// The classes seen, each with a dense id and its starting worth.
struct Classes {
    /// The id of each raw neighbourhood's class, `u32::MAX` until seen.
    id_of: Vec<u32>,
    /// The id of each canonical class seen.
    ids: HashMap<u32, u32>,
    /// Per id: its starting worth.
    start: Vec<f32>,
}

impl Classes {
    fn id(&mut self, pattern: u32) -> u32 {
        if self.id_of[pattern as usize] == u32::MAX {
            let class = canonical(pattern);
            let next = self.start.len() as u32;
            let id = *self.ids.entry(class).or_insert(next);
            if id == next {
                self.start.push(start_worth(class));
            }
            self.id_of[pattern as usize] = id;
        }
        self.id_of[pattern as usize]
    }
}

/// The fitted worths, slopes and biases.
struct Model {
    worth: Vec<f32>,
    slopes: [f32; PHASES],
    biases: [f32; PHASES],
}

impl Model {
    fn sum(&self, e: &Example) -> f32 {
        e.terms
            .iter()
            .map(|&t| if t & 1 == 0 { self.worth[(t >> 1) as usize] } else { -self.worth[(t >> 1) as usize] })
            .sum()
    }

    fn guess(&self, e: &Example) -> f32 {
        mover_wins(self.sum(e), e.phase, &self.slopes, &self.biases)
    }
}

fn log_loss(p: f32, won: bool) -> f64 {
    let p = f64::from(p).clamp(1e-6, 1.0 - 1e-6);
    -(if won { p } else { 1.0 - p }).ln()
}

/// Reads the logs' positions (every tenth game held out), fits the model by SGD on the
/// log loss (each worth pulled towards its start by `l2`), prints the held-out log loss
/// by phase against the count's, and writes the table (one signed byte per raw
/// neighbourhood, the worth times `scale`) to `out` if given.
pub fn nogo_value_fit(
    logs: &[PathBuf],
    out: Option<&Path>,
    epochs: usize,
    lr: f32,
    l2: f32,
    scale: f32,
    seed: u64,
) -> Result<(), String> {
    let mut classes = Classes { id_of: vec![u32::MAX; PATTERNS], ids: HashMap::new(), start: Vec::new() };
    let (mut fit, mut test) = (Vec::new(), Vec::new());
    let mut games = 0;
    for log in logs {
        for (_, positions) in logged_nogo_games(log)? {
            // A game lost by a fault was not decided on the board; the last position's side
            // to move has no legal point, and says nothing the search does not know.
            let Some(last) = positions.last() else { continue };
            if last.outcome().is_none() {
                continue;
            }
            let loser = last.to_move();
            let into = if games % 10 == 9 { &mut test } else { &mut fit };
            games += 1;
            for p in positions.iter().take(positions.len() - 1).skip(2) {
                let board = GroupBoard::new(p);
                let legal = board.legal_for_both();
                let first = CountValue::first_wins(legal, p.to_move()) as f32;
                let mut terms = Vec::with_capacity(2 * p.empty().count() as usize);
                value_terms(&board, |pattern, mine| terms.push(classes.id(pattern) << 1 | u32::from(!mine)));
                into.push(Example {
                    terms,
                    phase: phase(legal[0].count() + legal[1].count()),
                    won: p.to_move() != loser,
                    count: if p.to_move() == Player::First { first } else { 1.0 - first },
                });
            }
        }
    }
    println!(
        "{games} games: {} positions fitted, {} held out (every tenth game), {} classes",
        fit.len(),
        test.len(),
        classes.start.len()
    );
    let start = classes.start.clone();
    let mut model = Model { worth: start.clone(), slopes: COUNT_SLOPES.map(|s| s as f32), biases: [0.0; PHASES] };
    report("start (the count's slopes, worth 1 per legal point)", &model, &test);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut order: Vec<usize> = (0..fit.len()).collect();
    for epoch in 1..=epochs {
        rng.shuffle(&mut order);
        for &i in &order {
            let e = &fit[i];
            let sum = model.sum(e);
            let g = f32::from(u8::from(e.won)) - mover_wins(sum, e.phase, &model.slopes, &model.biases);
            let step = lr * g * model.slopes[e.phase];
            for &t in &e.terms {
                let c = (t >> 1) as usize;
                let w = &mut model.worth[c];
                *w += if t & 1 == 0 { step } else { -step } - lr * l2 * (*w - start[c]);
            }
            // The slope and bias see a sum of many terms: a smaller step keeps them steady.
            model.slopes[e.phase] += 0.01 * lr * g * sum;
            model.biases[e.phase] += 0.1 * lr * g;
        }
        report(&format!("epoch {epoch}"), &model, &test);
    }
    by_phase(&model, &test);
    let (low, high) = model.worth.iter().fold((f32::MAX, f32::MIN), |(l, h), &w| (l.min(w), h.max(w)));
    let clipped = model.worth.iter().filter(|&&w| (w * scale).abs() > 127.0).count();
    println!("worths from {low:.3} to {high:.3}; {clipped} classes beyond the table's range");
    println!("slopes: {:?}", model.slopes.map(|s| (s * 1000.0).round() / 1000.0));
    println!("biases: {:?}", model.biases.map(|b| (b * 1000.0).round() / 1000.0));
    if let Some(out) = out {
        let table: Vec<u8> = (0..PATTERNS as u32)
            .map(|raw| {
                let class = canonical(raw);
                let worth = classes.ids.get(&class).map_or_else(|| start_worth(class), |&id| model.worth[id as usize]);
                (worth * scale).round().clamp(-127.0, 127.0) as i8 as u8
            })
            .collect();
        std::fs::write(out, &table).map_err(|e| format!("{}: {e}", out.display()))?;
        println!("{}: {} bytes", out.display(), table.len());
    }
    Ok(())
}

/// A class's worth before the fit, which an unseen class keeps: 1 where the side that sees
/// it may play the point, 0 where not (the count's worth, its parity aside).
fn start_worth(class: u32) -> f32 {
    if mover_may_play(class) {
        1.0
    } else {
        0.0
    }
}

fn report(label: &str, model: &Model, test: &[Example]) {
    let loss = test.iter().map(|e| log_loss(model.guess(e), e.won)).sum::<f64>() / test.len().max(1) as f64;
    let count = test.iter().map(|e| log_loss(e.count, e.won)).sum::<f64>() / test.len().max(1) as f64;
    println!("{label}: held-out log loss {loss:.4} (the count's {count:.4}, a coin's 0.6931)");
}

fn by_phase(model: &Model, test: &[Example]) {
    for ph in 0..PHASES {
        let here: Vec<&Example> = test.iter().filter(|e| e.phase == ph).collect();
        if here.is_empty() {
            continue;
        }
        let n = here.len() as f64;
        let loss = here.iter().map(|e| log_loss(model.guess(e), e.won)).sum::<f64>() / n;
        let count = here.iter().map(|e| log_loss(e.count, e.won)).sum::<f64>() / n;
        let right = here.iter().filter(|e| (model.guess(e) > 0.5) == e.won).count() as f64 / n;
        let count_right = here.iter().filter(|e| (e.count > 0.5) == e.won).count() as f64 / n;
        println!(
            "legal points {:>3}-{:>3}: {:>6} held out, log loss {loss:.4} (count {count:.4}), names the winner \
             {:.1}% (count {:.1}%)",
            ph * 10,
            ph * 10 + 9,
            here.len(),
            100.0 * right,
            100.0 * count_right
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::nogo::patterns::symmetries;

    /// An arena-style log of `games` random NoGo games, every one played to its end.
    fn random_games_log(games: usize) -> PathBuf {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut lines = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut p = botzone_games::nogo::Position::start();
            let mut answers = Vec::new();
            loop {
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.usize(..moves.len())];
                let (x, y) = botzone_games::nogo::Bitboard::coords(m);
                answers.push(format!(r#"{{"move":{{"x":{x},"y":{y}}}}}"#));
                p.play(m);
            }
            lines.push(format!(r#"{{"opening":[],"moves":[{}]}}"#, answers.join(",")));
        }
        let path = std::env::temp_dir().join(format!("nogo-value-{}.jsonl", std::process::id()));
        std::fs::write(&path, lines.join("\n")).expect("a temporary file");
        path
    }

    #[test]
    fn the_points_left_out_are_those_whose_terms_cancel() {
        // Any worth per class: the sum over the points value_terms gives is the sum over
        // every empty point.
        let worth = |pattern: u32| f64::from(canonical(pattern) % 97) - 48.0;
        let mut rng = fastrand::Rng::with_seed(4);
        let mut p = botzone_games::nogo::Position::start();
        let mut moves = Vec::new();
        let mut left_out = 0;
        for _ in 0..30 {
            let board = GroupBoard::new(&p);
            let mut sum = 0.0;
            value_terms(&board, |pattern, mine| sum += if mine { worth(pattern) } else { -worth(pattern) });
            let mover = p.to_move();
            let (mine, theirs) = (Surroundings::new(&board, mover), Surroundings::new(&board, mover.other()));
            let all: f64 = board.empty().iter().map(|q| worth(mine.pattern(q)) - worth(theirs.pattern(q))).sum();
            assert_eq!(sum, all, "ply {}", p.ply());
            let mut terms = 0;
            value_terms(&board, |_, _| terms += 1);
            left_out += 2 * board.empty().count() - terms;
            p.legal_moves(&mut moves);
            p.play(moves[rng.usize(..moves.len())]);
        }
        assert!(left_out > 0);
    }

    #[test]
    fn the_table_gives_a_class_one_worth_and_an_unseen_class_its_start() {
        let log = random_games_log(30);
        let out = log.with_extension("bin");
        nogo_value_fit(std::slice::from_ref(&log), Some(&out), 2, 0.002, 0.01, 32.0, 1).expect("the fit runs");
        let table = std::fs::read(&out).expect("the table written");
        std::fs::remove_file(&log).ok();
        std::fs::remove_file(&out).ok();
        assert_eq!(table.len(), PATTERNS);
        // Every symmetry of a neighbourhood has the same byte.
        for raw in (0..PATTERNS as u32).step_by(101) {
            assert!(symmetries(raw).iter().all(|&s| table[s as usize] == table[raw as usize]), "{raw}");
        }
        // Random games move some worths off their start; a point a side may play starts at
        // 1 (32 in the table), one it may not at 0, and classes no game saw keep that.
        let moved = (0..PATTERNS as u32).filter(|&r| table[r as usize] as i8 != (start_worth(r) * 32.0) as i8).count();
        assert!(moved > 0);
        // North and south both off the board cannot occur on a 9x9 board: such a class is
        // never seen. With east and west empty its point is playable: it keeps worth 1.
        let (north_south_off, east_west_empty) = (0u32, 6 + 216);
        assert!(mover_may_play(north_south_off + east_west_empty));
        assert_eq!(table[east_west_empty as usize] as i8, 32);
    }
}
