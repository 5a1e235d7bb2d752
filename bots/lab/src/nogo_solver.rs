//! NoGo's endgame proof search on logged games: its reach and speed by ply (`experiments
//! nogo-solver`), and where each game was decided (`experiments nogo-trace`).

use crate::logged::{logged_nogo_games, logged_nogo_positions, SolverTally};
use botzone_games::game::{Game, Player};
use botzone_games::search::{Budget, Deadline};
use std::time::{Duration, Instant};

/// `experiments nogo-trace`: each logged game from its end backwards, each position's
/// winner under perfect play, until three positions in a row are beyond `nodes`.
pub fn nogo_trace(log: &std::path::Path, nodes: u64) -> Result<(), String> {
    use botzone_games::engines::nogo::solver::{Proven, Solver};
    let mut solver = Solver::new(8 << 20);
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
    use botzone_games::engines::nogo::solver::{Proven, Solver};
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
                let mut solver = Solver::new(8 << 20);
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
