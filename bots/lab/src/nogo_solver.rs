//! NoGo's endgame proof search on logged games: its reach and speed by ply (`experiments
//! nogo-solver`), what its table kept between turns buys (`experiments nogo-carry`), and
//! where each game was decided (`experiments nogo-trace`).

use crate::logged::{logged_nogo_games, logged_nogo_positions, SolverTally};
use botzone_games::game::{Game, Player};
use botzone_games::search::{Budget, Deadline};
use std::time::{Duration, Instant};

/// `experiments nogo-trace`: each logged game from its end backwards, each position's
/// winner under perfect play, until three positions in a row are beyond `nodes`.
pub fn nogo_trace(log: &std::path::Path, nodes: u64) -> Result<(), String> {
    use botzone_games::engines::nogo::solver::{Proven, Solver, BOT_TABLE_BYTES};
    let mut solver = Solver::new(BOT_TABLE_BYTES);
    for (line, positions) in logged_nogo_games(log)? {
        // From the end back, until three positions in a row are beyond the search.
        let mut trace = Vec::new();
        let mut unsolved_run = 0;
        for (ply, p) in positions.iter().enumerate().rev() {
            let winner = match solver.solve(p, &Budget::iterations(nodes)) {
                Some(Proven::Win(_)) => Some(p.to_move()),
                Some(Proven::Loss) => Some(p.to_move().other()),
                None => None,
            };
            trace.push(format!("{ply}{}", winner.map_or("?", |w| if w == Player::First { "B" } else { "W" })));
            unsolved_run = if winner.is_none() { unsolved_run + 1 } else { 0 };
            if unsolved_run == 3 {
                break;
            }
        }
        trace.reverse();
        println!("line {line}: {}", trace.join(" "));
    }
    Ok(())
}

/// `experiments nogo-carry`: what a proof search's table kept from turn to turn (as a bot
/// kept running keeps it) buys over a new table each turn (a bot started afresh). In each
/// logged game, from the first position where both sides together have at most `points`
/// legal points, every other position (one side's turns) is searched with `nodes`, once
/// by a solver kept for the whole game and once by a new one; each position's proofs
/// are counted by turn from that first position (turn k is 2k plies after it).
pub fn nogo_carry(log: &std::path::Path, points: u32, nodes: u64) -> Result<(), String> {
    use botzone_games::engines::nogo::solver::{Solver, BOT_TABLE_BYTES};
    // Per turn from the first (0, 1, 2, ...): positions, proved kept, proved afresh.
    let mut by_turn: Vec<[usize; 3]> = Vec::new();
    let (mut nodes_kept, mut nodes_fresh) = (0u64, 0u64);
    let (mut earlier, mut later) = (0usize, 0usize);
    for (line, positions) in logged_nogo_games(log)? {
        let Some(first) = positions.iter().position(|p| {
            let legal = p.legal_for_both();
            legal[0].count() + legal[1].count() <= points
        }) else {
            continue;
        };
        let mut kept = Solver::new(BOT_TABLE_BYTES);
        let (mut first_kept, mut first_fresh) = (None, None);
        // The last position is over: nobody is to move in it.
        for (turn, p) in positions[first..positions.len() - 1].iter().step_by(2).enumerate() {
            let proved_kept = kept.solve(p, &Budget::iterations(nodes)).is_some();
            nodes_kept += kept.nodes();
            let mut fresh = Solver::new(BOT_TABLE_BYTES);
            let proved_fresh = fresh.solve(p, &Budget::iterations(nodes)).is_some();
            nodes_fresh += fresh.nodes();
            if by_turn.len() <= turn {
                by_turn.push([0; 3]);
            }
            let row = &mut by_turn[turn];
            row[0] += 1;
            row[1] += usize::from(proved_kept);
            row[2] += usize::from(proved_fresh);
            if proved_kept {
                first_kept.get_or_insert(turn);
            }
            if proved_fresh {
                first_fresh.get_or_insert(turn);
            }
        }
        // A game never proved counts as proved after every turn.
        let never = |first: Option<usize>| first.unwrap_or(usize::MAX);
        match never(first_kept).cmp(&never(first_fresh)) {
            std::cmp::Ordering::Less => earlier += 1,
            std::cmp::Ordering::Greater => later += 1,
            std::cmp::Ordering::Equal => {}
        }
        println!("line {line}: first proof at turn {first_kept:?} kept, {first_fresh:?} afresh (ply {first} first)");
    }
    println!("turn from the first position with at most {points} legal points: positions, proved kept / afresh");
    for (turn, [n, k, f]) in by_turn.iter().enumerate() {
        println!("  {turn}: {n}, {k} / {f}");
    }
    let (k, f): (usize, usize) = by_turn.iter().fold((0, 0), |(k, f), row| (k + row[1], f + row[2]));
    println!(
        "all: {k} proved kept, {f} afresh, within {nodes} nodes each; nodes {nodes_kept} kept, {nodes_fresh} afresh; \
         the first proof came earlier kept in {earlier} games, later in {later}"
    );
    Ok(())
}

/// `experiments nogo-solver`: the proof search (or with `alpha_beta` the earlier solver) on
/// each logged position after each count of plies, within `cap_s` or `nodes`.
pub fn nogo_solver(
    log: &std::path::Path,
    plies: &[usize],
    cap_s: f64,
    nodes: Option<u64>,
    each: bool,
    alpha_beta: bool,
) -> Result<(), String> {
    use botzone_games::engines::nogo::late_solver;
    use botzone_games::engines::nogo::solver::{Proven, Solver, BOT_TABLE_BYTES};
    use botzone_games::search::alphabeta::WIN;
    let mut moves = Vec::new();
    for &ply in plies {
        let mut tally = SolverTally::default();
        for p in &logged_nogo_positions(log, ply)? {
            let start = Instant::now();
            let budget = match nodes {
                Some(n) => Budget::iterations(n),
                None => Budget::until(Deadline::new(start, Duration::from_secs_f64(cap_s))),
            };
            let (value, nodes) = if alpha_beta {
                p.legal_moves(&mut moves);
                let mut solver = late_solver();
                let (score, _, _) = solver.iterate(p, &moves, &budget);
                let value = (score.abs() >= WIN / 2).then_some(score > 0);
                (value, solver.nodes())
            } else {
                let mut solver = Solver::new(BOT_TABLE_BYTES);
                let proven = solver.solve(p, &budget);
                (proven.map(|v| v != Proven::Loss), solver.nodes())
            };
            let seconds = start.elapsed().as_secs_f64();
            if each {
                let legal = p.legal_for_both();
                let me = p.to_move().index();
                let value = match value {
                    Some(true) => "win",
                    Some(false) => "loss",
                    None => "unsolved",
                };
                println!(
                    "  ply {ply}: {} legal for the side to move, {} for the other: {value} in {seconds:.2} s",
                    legal[me].count(),
                    legal[1 - me].count(),
                );
            }
            tally.add(seconds, nodes, value.is_some());
        }
        let limit = nodes.map_or(format!("{cap_s} s"), |n| format!("{n} nodes"));
        tally.print(&format!("ply {ply}"), &limit);
    }
    Ok(())
}

/// `experiments nogo-perfect`: on each logged position after each count of plies, the
/// exact verdict (within `cap_s`); on those won for the side to move, each variant's answer
/// within `ms`, or `iterations` when given (a fresh engine, as a bot started afresh
/// without `data`), and whether that answer keeps the win. A variant is a list of the
/// engine's features switched off.
#[allow(clippy::too_many_arguments)]
pub fn nogo_perfect(
    logs: &[std::path::PathBuf],
    plies: &[usize],
    ms: u64,
    iterations: Option<u64>,
    engine: Option<&str>,
    variants: &[Vec<String>],
    cap_s: f64,
    seed: u64,
) -> Result<(), String> {
    use botzone_games::engines::nogo::registry;
    use botzone_games::engines::nogo::solver::{Proven, Solver};
    use botzone_games::engines::Without;
    let registry = registry();
    let cap = || Budget::until(Deadline::new(Instant::now(), Duration::from_secs_f64(cap_s)));
    let limit = iterations.map_or(format!("{ms} ms"), |n| format!("{n} iterations"));
    let name = |v: &[String]| if v.is_empty() { "as shipped".to_string() } else { format!("without {}", v.join(",")) };
    let mut totals = vec![0usize; variants.len()];
    let mut all_won = 0;
    for &ply in plies {
        let mut positions = Vec::new();
        for log in logs {
            positions.extend(logged_nogo_positions(log, ply)?);
        }
        let (mut won, mut lost, mut unknown) = (0, 0, 0);
        let mut kept = vec![0usize; variants.len()];
        let mut unsettled = vec![0usize; variants.len()];
        let mut slowest = Duration::ZERO;
        for p in &positions {
            // One solver for the verdict and the checks: its table holds proofs only.
            let mut solver = Solver::new(16 << 20);
            match solver.solve(p, &cap()) {
                None => {
                    unknown += 1;
                    continue;
                }
                Some(Proven::Loss) => {
                    lost += 1;
                    continue;
                }
                Some(Proven::Win(_)) => won += 1,
            }
            for (v, without) in variants.iter().enumerate() {
                let mut searcher = registry.searcher(engine, &Without(without.clone()), seed, 1)?;
                let start = Instant::now();
                let budget = match iterations {
                    Some(n) => Budget::iterations(n),
                    None => Budget::until(Deadline::new(start, Duration::from_millis(ms))),
                };
                let answer = searcher.choose(p, &[], &budget);
                slowest = slowest.max(start.elapsed());
                let mut after = *p;
                after.play(answer.best);
                // The answer keeps the win when the opponent, to move after it, has lost.
                match solver.solve(&after, &cap()) {
                    Some(Proven::Loss) => kept[v] += 1,
                    Some(Proven::Win(_)) => {}
                    None => unsettled[v] += 1,
                }
            }
        }
        println!(
            "ply {ply}: {} positions, {won} won and {lost} lost for the side to move, {unknown} verdicts not \
             reached within {cap_s} s; slowest answer {} ms",
            positions.len(),
            slowest.as_millis()
        );
        for (v, without) in variants.iter().enumerate() {
            println!(
                "  {}: kept {} of the {won} wins within {limit} ({} answers not settled within {cap_s} s)",
                name(without),
                kept[v],
                unsettled[v]
            );
            totals[v] += kept[v];
        }
        all_won += won;
    }
    println!("all plies: {all_won} won positions");
    for (v, without) in variants.iter().enumerate() {
        println!("  {}: kept {} ({:.1}%)", name(without), totals[v], 100.0 * totals[v] as f64 / all_won.max(1) as f64);
    }
    Ok(())
}

/// How many proven positions each judge of [`nogo_judges`] named the winner of.
#[derive(Default, Clone, Copy)]
struct JudgesRight {
    proven: usize,
    more_points: usize,
    shared_out: usize,
    mcts: usize,
}

impl JudgesRight {
    fn add(&mut self, other: JudgesRight) {
        self.proven += other.proven;
        self.more_points += other.more_points;
        self.shared_out += other.shared_out;
        self.mcts += other.mcts;
    }
}

/// `experiments nogo-judges`: how well cheap judges tell who wins a late position. On each
/// logged position after each count of plies whose winner the proof search finds within
/// `cap_s`, three guesses that the side to move wins, each scored against that verdict:
/// more legal points than the opponent; more moves than the opponent if the points both
/// may play were shared out in turn, the side to move first (the points only one side
/// may play counted as its own); and a fresh `mcts` search's root value above one half,
/// after `iterations` with the proof search off (so the value is the playouts').
pub fn nogo_judges(logs: &[std::path::PathBuf], plies: &[usize], cap_s: f64, iterations: u64) -> Result<(), String> {
    use botzone_games::engines::nogo::registry;
    use botzone_games::engines::nogo::solver::{Proven, Solver};
    use botzone_games::engines::Without;
    use botzone_games::search::Score;
    let registry = registry();
    let playouts_only = Without(vec!["late-solver".to_string()]);
    let mut all = JudgesRight::default();
    for &ply in plies {
        let mut positions = Vec::new();
        for log in logs {
            positions.extend(logged_nogo_positions(log, ply)?);
        }
        let mut right = JudgesRight::default();
        // MCTS's value summed over the positions lost and won for the side to move, and their count.
        let mut values = [(0.0, 0usize); 2];
        for p in &positions {
            let budget = Budget::until(Deadline::new(Instant::now(), Duration::from_secs_f64(cap_s)));
            let wins = match Solver::new(16 << 20).solve(p, &budget) {
                Some(Proven::Win(_)) => true,
                Some(Proven::Loss) => false,
                None => continue,
            };
            let legal = p.legal_for_both();
            let me = p.to_move().index();
            let (mine, theirs) = (legal[me], legal[1 - me]);
            let shared = mine.and(theirs).count();
            let more_points = mine.count() > theirs.count();
            let shared_out = mine.minus(theirs).count() + shared.div_ceil(2) > theirs.minus(mine).count() + shared / 2;
            let mut searcher = registry.searcher(Some("mcts"), &playouts_only, 1, 1)?;
            let value = match searcher.choose(p, &[], &Budget::iterations(iterations)).score {
                Some(Score::WinRate(v)) => v,
                Some(Score::WinIn(_)) => 1.0,
                Some(Score::LossIn(_)) => 0.0,
                _ => 0.5,
            };
            right.add(JudgesRight {
                proven: 1,
                more_points: usize::from(more_points == wins),
                shared_out: usize::from(shared_out == wins),
                mcts: usize::from((value > 0.5) == wins),
            });
            let v = &mut values[usize::from(wins)];
            *v = (v.0 + value, v.1 + 1);
        }
        let mean = |(sum, n): (f64, usize)| if n == 0 { f64::NAN } else { sum / n as f64 };
        println!(
            "ply {ply}: {} positions, {} proven within {cap_s} s ({} won for the side to move); right: more legal \
             points {}, shared out in turn {}, MCTS {}; MCTS's mean value on the won {:.3}, on the lost {:.3}",
            positions.len(),
            right.proven,
            values[1].1,
            right.more_points,
            right.shared_out,
            right.mcts,
            mean(values[1]),
            mean(values[0]),
        );
        all.add(right);
    }
    let pct = |r: usize| 100.0 * r as f64 / all.proven.max(1) as f64;
    println!(
        "all plies: {} proven; right: more legal points {} ({:.1}%), shared out in turn {} ({:.1}%), MCTS {} ({:.1}%)",
        all.proven,
        all.more_points,
        pct(all.more_points),
        all.shared_out,
        pct(all.shared_out),
        all.mcts,
        pct(all.mcts),
    );
    Ok(())
}

/// `experiments nogo-count-fit`: every position of the logged games (the opening's left
/// out), with (n, d) from `CountValue::count`, bucketed by n, the legal points of both
/// sides together; per bucket, the slope `a` of P(the side to move wins) = logistic(a (d -
/// 1/2)) that fits the games' winners best (maximum likelihood), its mean log loss against
/// a coin's, and how often d >= 1 names the winner.
pub fn nogo_count_fit(logs: &[std::path::PathBuf], bucket: u32) -> Result<(), String> {
    use botzone_games::engines::nogo::CountValue;
    use botzone_games::nogo::GroupBoard;
    let bucket = bucket.max(1);
    // Per bucket: (d, the side to move won) of each position.
    let mut samples: std::collections::BTreeMap<u32, Vec<(f64, bool)>> = Default::default();
    for log in logs {
        for (_, positions) in crate::logged::logged_nogo_games(log)? {
            // The last position's side to move has no legal point: it lost. A game lost by
            // a fault was not decided on the board: its winner says nothing of the count.
            let Some(last) = positions.last() else { continue };
            if last.outcome().is_none() {
                continue;
            }
            let loser = last.to_move();
            for p in positions.iter().skip(2) {
                let (n, d) = CountValue::count(&GroupBoard::new(p));
                samples.entry(n / bucket).or_default().push((f64::from(d), p.to_move() != loser));
            }
        }
    }
    for (b, s) in &samples {
        // Newton's method on the one slope.
        let mut a = 0.5;
        for _ in 0..50 {
            let (mut grad, mut hess) = (0.0, 0.0);
            for &(d, won) in s {
                let x = d - 0.5;
                let p = 1.0 / (1.0 + (-a * x).exp());
                grad += (f64::from(u8::from(won)) - p) * x;
                hess += p * (1.0 - p) * x * x;
            }
            if hess <= 0.0 {
                break;
            }
            a += grad / hess;
        }
        let loss = s
            .iter()
            .map(|&(d, won)| {
                let p = (1.0 / (1.0 + (-a * (d - 0.5)).exp())).clamp(1e-9, 1.0 - 1e-9);
                -(if won { p } else { 1.0 - p }).ln()
            })
            .sum::<f64>()
            / s.len() as f64;
        let right = s.iter().filter(|&&(d, won)| (d >= 1.0) == won).count();
        println!(
            "legal points {:>3}-{:>3}: {:>6} positions, slope {:.3}, log loss {:.4} (a coin's 0.6931), count names \
             the winner {:.1}%",
            b * bucket,
            (b + 1) * bucket - 1,
            s.len(),
            a,
            loss,
            100.0 * right as f64 / s.len() as f64
        );
    }
    Ok(())
}
