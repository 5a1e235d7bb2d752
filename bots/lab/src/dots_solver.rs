//! The Pencil solver's reach: how fast it values real middle games (`experiments
//! dots-solver`), and whether the bot keeps a won position won within its turn
//! (`experiments dots-perfect`), on the positions of logged arena games.

use crate::logged::{logged_dots_lines, SolverTally};
use botzone_games::dots;
use botzone_games::engines::Without;
use botzone_games::game::{Game, Player};
use botzone_games::search::{Budget, Deadline};
use std::time::{Duration, Instant};

/// `experiments dots-solver`: for each count of undrawn edges, the solver on every logged
/// position with that many, each given `cap_s`: the exact value, or with `verdict` what the
/// bot asks (a winning move, else the smallest loss).
pub fn dots_solver(
    log: &std::path::Path,
    undrawn: &[u32],
    cap_s: f64,
    table_bits: u32,
    each: bool,
    verdict: bool,
) -> Result<(), String> {
    use botzone_games::engines::dots::solver::Solver;
    for &n in undrawn {
        let mut tally = SolverTally::default();
        // With --verdict: the positions found won, and those found lost.
        let (mut won, mut lost) = (SolverTally::default(), SolverTally::default());
        for (log_line, p, _) in &logged_dots_lines(log, n)? {
            let mut solver = Solver::new(table_bits);
            let start = Instant::now();
            let budget = Budget::until(Deadline::new(start, Duration::from_secs_f64(cap_s)));
            let value = if verdict {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                let solved = solver.solve(p, &moves, &budget);
                if let Some(solved) = solved {
                    let side = if solved.winning { &mut won } else { &mut lost };
                    side.add(start.elapsed().as_secs_f64(), solver.nodes(), true);
                }
                if each {
                    let verdict = match solved {
                        Some(s) if s.winning => "wins",
                        Some(_) => "loses",
                        None => "unknown",
                    };
                    let (mover, secs) = (p.to_move(), start.elapsed().as_secs_f64());
                    println!("  {n} undrawn, log line {log_line}: {mover:?} to move {verdict} ({secs:.2} s)");
                }
                solved.map(|solved| solved.value)
            } else {
                solver.value(p, &budget)
            };
            if each && !verdict {
                // Final margin for the first player with best play from here.
                let first = p.to_move() == Player::First;
                let so_far = dots::eval::margin(p, Player::First);
                let fin = value.map(|v| so_far + if first { v } else { -v });
                println!("  {n}: first's final margin {fin:?}");
            }
            tally.add(start.elapsed().as_secs_f64(), solver.nodes(), value.is_some());
        }
        let limit = format!("{cap_s} s");
        tally.print(&format!("{n} undrawn"), &limit);
        if verdict {
            won.print("  of which won (a winning move found)", &limit);
            lost.print("  of which lost (every move refuted, the smallest loss found)", &limit);
        }
    }
    Ok(())
}

/// An engine of a bot's registry by name (the default when `None`) with features off.
pub struct EngineChoice<'a> {
    pub name: Option<&'a str>,
    pub without: Without,
}

/// `experiments dots-perfect`: on each logged position, the exact verdict, then the engine's
/// answer within `ms` (fresh, or kept running through the game), then whether that answer
/// still wins.
pub fn dots_perfect(
    log: &std::path::Path,
    undrawn: &[u32],
    ms: u64,
    engine: &EngineChoice,
    cap_s: f64,
    seed: u64,
    keep_running: bool,
) -> Result<(), String> {
    use botzone_games::engines::dots::{registry, solver::Solver};
    let registry = registry();
    let cap = || Budget::until(Deadline::new(Instant::now(), Duration::from_secs_f64(cap_s)));
    for &n in undrawn {
        let (mut won, mut kept, mut unknown, mut slowest) = (0, 0, 0, Duration::ZERO);
        let positions = logged_dots_lines(log, n)?;
        for (log_line, p, line) in &positions {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            // A fresh engine for each answer, as a bot started once per turn has; kept
            // running, the same engine has answered each of this side's earlier turns of
            // the game first (within the same time; the logged moves are the ones played).
            let mut searcher = registry.searcher(engine.name, &engine.without, seed, 1)?;
            if keep_running {
                let mut q = dots::Position::start();
                for (i, &e) in line.iter().enumerate() {
                    if q.to_move() == p.to_move() {
                        let turn = Budget::until(Deadline::new(Instant::now(), Duration::from_millis(ms)));
                        searcher.choose(&q, &line[..i], &turn);
                    }
                    q.play(e);
                }
            }
            let start = Instant::now();
            let budget = Budget::until(Deadline::new(start, Duration::from_millis(ms)));
            let answer = searcher.choose(p, if keep_running { line } else { &[] }, &budget);
            slowest = slowest.max(start.elapsed());
            let mut solver = Solver::new(22);
            let Some(verdict) = solver.solve(p, &moves, &cap()) else {
                unknown += 1;
                continue;
            };
            if !verdict.winning {
                continue;
            }
            won += 1;
            match solver.solve_in_order(p, &[answer.best], &cap()) {
                Some(s) if s.winning => kept += 1,
                Some(_) => println!(
                    "  {n} undrawn: lost a won position (log line {log_line}): answered {} ({})",
                    answer.best, answer.summary
                ),
                None => unknown += 1,
            }
        }
        println!(
            "{n} undrawn: {} positions, {won} won, the engine kept {kept} of them within {ms} ms (slowest \
             answer {} ms); {unknown} verdicts not reached within {cap_s} s",
            positions.len(),
            slowest.as_millis()
        );
    }
    Ok(())
}
