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
        // With --verdict: the positions found won, and those found lost; and those whose
        // loss was proved (every move refuted) but whose smallest loss was not found in time.
        let (mut won, mut lost) = (SolverTally::default(), SolverTally::default());
        let mut lost_margin_unknown = 0;
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
                } else if solver.proved_lost() {
                    lost_margin_unknown += 1;
                }
                if each {
                    let verdict = match solved {
                        Some(s) if s.winning => "wins",
                        Some(_) => "loses",
                        None if solver.proved_lost() => "loses (the smallest loss unfinished)",
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
            println!(
                "  not counted above: {lost_margin_unknown} proved lost (every move refuted), the smallest loss \
                 unfinished"
            );
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

/// A win-or-lose game over Pencil positions where the side left without a move loses:
/// whether the side to move in `p` wins, the positions each move leads to given by `next`
/// (each with the opponent to move), or `None` past `node_cap` nodes. Memoised on the edges.
pub(crate) fn last_mover_wins(
    p: &dots::Position,
    next: &dyn Fn(&dots::Position) -> Vec<dots::Position>,
    memo: &mut std::collections::HashMap<u64, bool>,
    nodes: &mut u64,
    node_cap: u64,
) -> Option<bool> {
    if let Some(&won) = memo.get(&p.edge_word()) {
        return Some(won);
    }
    *nodes += 1;
    if *nodes > node_cap {
        return None;
    }
    let mut won = false;
    for child in next(p) {
        if !last_mover_wins(&child, next, memo, nodes, node_cap)? {
            won = true;
            break;
        }
    }
    memo.insert(p.edge_word(), won);
    Some(won)
}

/// The safe-edge game of `p` (no box can be taken): the players draw safe edges (edges that
/// leave no box with three sides) in turn, and the one left without any must hand boxes
/// over, the loser of the fight for control if nobody sacrificed. Whether the side to move
/// draws the last safe edge, or `None` past `node_cap` nodes.
pub fn safe_game_winner(p: &dots::Position, node_cap: u64) -> (Option<bool>, u64) {
    let mut nodes = 0;
    (last_mover_wins(p, &safe_children, &mut Default::default(), &mut nodes, node_cap), nodes)
}

/// The safe edges of `p` (no box can be taken): undrawn edges that leave no box with three
/// sides drawn, one bit per edge.
pub(crate) fn safe_edges(p: &dots::Position) -> u64 {
    dots::edges_in(!p.edge_word() & ((1u64 << dots::EDGES) - 1))
        .filter(|&e| p.sides_after_hint(e) == 0)
        .fold(0, |mask, e| mask | 1 << e)
}

/// The safe-edge game's moves from `p`: the position after each safe edge.
pub(crate) fn safe_children(p: &dots::Position) -> Vec<dots::Position> {
    dots::edges_in(safe_edges(p))
        .map(|e| {
            let mut child = *p;
            child.play(e);
            child
        })
        .collect()
}

/// The Nimstring game of `p` (no box can be taken): as Dots-and-Boxes, but a move that lets
/// the opponent keep control (a loony move: the boxes handed over end in two the opponent
/// may decline) loses at once, and boxes count for nothing. Every other move is a safe edge
/// or a short sacrifice (one box, or two cut in their middle) that the opponent takes before
/// moving again. Whether the side to move wins it, that is gets control (the opponent is
/// the first left with only loony moves), or `None` past `node_cap` nodes; and the nodes.
pub fn nimstring_winner(p: &dots::Position, node_cap: u64) -> (Option<bool>, u64) {
    use dots::Capture;
    let next = |p: &dots::Position| {
        let mut children = Vec::new();
        'moves: for e in dots::edges_in(p.quiet_moves_mask()) {
            let mut child = *p;
            child.play(e);
            // The opponent takes what it is given; a choice to decline means the move was
            // loony.
            while let Some(capture) = child.capture() {
                match capture {
                    Capture::Forced(take) => child.play(take),
                    Capture::Several(mask) => {
                        let take = dots::edges_in(mask).find(|&t| child.boxes_completed_by(t) > 0).expect("a take");
                        child.play(take);
                    }
                    Capture::TakeOrDecline(..) | Capture::OpenFour(_) => continue 'moves,
                }
            }
            children.push(child);
        }
        children
    };
    let mut nodes = 0;
    (last_mover_wins(p, &next, &mut Default::default(), &mut nodes, node_cap), nodes)
}

/// `experiments dots-judges`: on logged positions with no box to take, how often cheap
/// judges name the side that wins under perfect play (the solver's verdict within `cap_s`):
/// MCTS's value (the bot's MCTS, solver off, within `mcts_budget`), the safe-edge game (who
/// draws the last safe edge) and the Nimstring game (who gets control), each within
/// `game_nodes` nodes, and the parity of the safe edges left. Only positions the solver
/// settles within `cap_s` count, so the hardest are left out. Of the won positions, also
/// how often MCTS's move keeps the win (the opponent's verdict after it). With `verdicts`, the
/// solver's verdicts are read from that file and those it lacks added to it, so that
/// judges compared one after another on the same positions solve them once.
pub fn dots_judges(
    logs: &[std::path::PathBuf],
    undrawn: &[u32],
    cap_s: f64,
    mcts_budget: &dyn Fn() -> Budget,
    game_nodes: u64,
    verdicts: Option<&std::path::Path>,
) -> Result<(), String> {
    use botzone_games::engines::dots::registry;
    let registry = registry();
    let without = Without(vec!["solver".into()]);
    let mut cache = VerdictCache::open(verdicts, cap_s)?;
    for &n in undrawn {
        let (mut settled, mut skipped) = (0, 0);
        // Right calls of each judge; of the two games also how many calls were made within
        // the node cap, and the Nimstring search's nodes.
        let (mut mcts_right, mut game_right, mut game_called, mut parity_right) = (0, 0, 0, 0);
        let (mut nim_right, mut nim_called, mut nim_nodes) = (0, 0, 0u64);
        let mut mover_wins = 0;
        // Won positions where MCTS's move was judged, kept the win, or could not be judged.
        let (mut won_judged, mut won_kept, mut won_unknown) = (0, 0, 0);
        for log in logs {
            for (_, p, _) in &logged_dots_lines(log, n)? {
                if p.capture().is_some() {
                    skipped += 1;
                    continue;
                }
                let Some(wins) = cache.verdict(p)? else {
                    skipped += 1;
                    continue;
                };
                settled += 1;
                mover_wins += usize::from(wins);
                let mut searcher = registry.searcher(None, &without, 1, 1)?;
                let result = searcher.choose(p, &[], &mcts_budget());
                let value = result.root_stats.iter().max_by_key(|s| s.1).map_or(0.5, |s| s.2);
                mcts_right += usize::from((value > 0.5) == wins);
                if wins {
                    // No box can be taken here, so after MCTS's move the opponent moves:
                    // the move keeps the win if the opponent then loses.
                    let mut child = *p;
                    child.play(result.best);
                    match cache.verdict(&child)? {
                        Some(opponent_wins) => {
                            won_judged += 1;
                            won_kept += usize::from(!opponent_wins);
                        }
                        None => won_unknown += 1,
                    }
                }
                if let (Some(won), _) = safe_game_winner(p, game_nodes) {
                    game_called += 1;
                    game_right += usize::from(won == wins);
                }
                let (won, nodes) = nimstring_winner(p, game_nodes);
                if let Some(won) = won {
                    nim_called += 1;
                    nim_right += usize::from(won == wins);
                }
                nim_nodes += nodes;
                // The parity judge: an odd number of safe edges left is a win for the mover.
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                let safe = moves.iter().filter(|&&e| p.sides_after_hint(e) == 0).count();
                parity_right += usize::from((safe % 2 == 1) == wins);
            }
        }
        println!(
            "{n} undrawn: {settled} settled ({mover_wins} won by the side to move), {skipped} left out; right \
             calls: MCTS {mcts_right}, safe-edge game {game_right} of {game_called}, parity {parity_right}, \
             Nimstring {nim_right} of {nim_called} ({nim_nodes} nodes); MCTS's move keeps the win in \
             {won_kept} of {won_judged} won positions ({won_unknown} moves not settled)"
        );
    }
    Ok(())
}

/// The solver's verdicts (whether the side to move wins), one line per position: its hash,
/// then `win`, `loss` or `unsettled` (not within the cap the file was made with, which its
/// first line records; another cap starts the file again). A file that does not start
/// with that line is refused, never overwritten.
struct VerdictCache {
    file: Option<std::fs::File>,
    known: std::collections::HashMap<u64, Option<bool>>,
    cap_s: f64,
}

impl VerdictCache {
    fn open(path: Option<&std::path::Path>, cap_s: f64) -> Result<VerdictCache, String> {
        use std::io::Write;
        let mut known = std::collections::HashMap::new();
        let Some(path) = path else { return Ok(VerdictCache { file: None, known, cap_s }) };
        let header = format!("cap_s {cap_s}");
        // A missing file starts empty; one that cannot be read is an error, not a blank
        // to overwrite.
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let first = text.lines().next();
        if first.is_some_and(|line| !line.starts_with("cap_s ")) {
            return Err(format!("{}: not a file of verdicts (its first line is not `cap_s SECONDS`)", path.display()));
        }
        let same_cap = first == Some(header.as_str());
        if same_cap {
            for (n, line) in text.lines().enumerate().skip(1) {
                let bad = || format!("{}: line {}: expected `HASH win|loss|unsettled`", path.display(), n + 1);
                let (hash, verdict) = line.split_once(' ').ok_or_else(bad)?;
                let hash = u64::from_str_radix(hash, 16).map_err(|_| bad())?;
                let verdict = match verdict {
                    "win" => Some(true),
                    "loss" => Some(false),
                    "unsettled" => None,
                    _ => return Err(bad()),
                };
                known.insert(hash, verdict);
            }
        }
        let mut options = std::fs::OpenOptions::new();
        let mut file = if same_cap { options.append(true) } else { options.write(true).create(true).truncate(true) }
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if !same_cap {
            writeln!(file, "{header}").map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(VerdictCache { file: Some(file), known, cap_s })
    }

    /// Whether the side to move in `p` wins, if the solver says within the cap.
    fn verdict(&mut self, p: &dots::Position) -> Result<Option<bool>, String> {
        use botzone_games::engines::dots::solver::Solver;
        use std::io::Write;
        let hash = botzone_games::dots::eval::hash(p);
        if let Some(&known) = self.known.get(&hash) {
            return Ok(known);
        }
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut solver = Solver::new(22);
        let cap = Budget::until(Deadline::new(Instant::now(), Duration::from_secs_f64(self.cap_s)));
        let verdict = solver.solve(p, &moves, &cap).map(|solved| solved.winning);
        self.known.insert(hash, verdict);
        if let Some(file) = self.file.as_mut() {
            let word = match verdict {
                Some(true) => "win",
                Some(false) => "loss",
                None => "unsettled",
            };
            writeln!(file, "{hash:016x} {word}").map_err(|e| format!("verdict file: {e}"))?;
        }
        Ok(verdict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::botzone::BotzoneGame;
    use botzone_games::game::Game;

    /// Every horizontal edge drawn but those listed: with none left out, each row of boxes
    /// is a 5-chain with both ends on the border, and every move opens one.
    fn rows_of_chains(left_out: &[(i64, i64)]) -> dots::Position {
        let mut p = dots::Position::start();
        for y in (0..=10).step_by(2) {
            for x in (1..10).step_by(2) {
                if !left_out.contains(&(x, y)) {
                    let e = dots::Position::parse_json_move(&serde_json::json!({"x": x, "y": y})).unwrap().unwrap();
                    p.play(e);
                }
            }
        }
        p
    }

    #[test]
    fn nimstring_control_goes_to_whoever_draws_the_last_safe_edge() {
        let won = |p: &dots::Position| nimstring_winner(p, 1_000_000).0;
        // Only loony moves: the side to move hands control over.
        assert_eq!(won(&rows_of_chains(&[])), Some(false));
        // One safe edge left (the bottom of the bottom row's middle box): drawing it
        // leaves the opponent only loony moves.
        let one_safe = rows_of_chains(&[(5, 10)]);
        assert_eq!(won(&one_safe), Some(true));
        assert_eq!(safe_game_winner(&one_safe, 1_000_000).0, Some(true));
        assert_eq!(safe_game_winner(&rows_of_chains(&[]), 1_000_000).0, Some(false));
        // A cap too small for the search gives no answer.
        assert_eq!(nimstring_winner(&one_safe, 0).0, None);
    }

    #[test]
    fn verdicts_come_back_from_the_file_under_the_same_cap_only() {
        let path = std::env::temp_dir().join(format!("dots_verdicts_{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (lost, won) = (rows_of_chains(&[]), rows_of_chains(&[(5, 10)]));
        let mut cache = VerdictCache::open(Some(&path), 2.0).unwrap();
        assert_eq!(cache.verdict(&lost).unwrap(), Some(false));
        assert_eq!(cache.verdict(&won).unwrap(), Some(true));
        drop(cache);
        // Read back without solving: the same cap finds both, another starts afresh.
        let again = VerdictCache::open(Some(&path), 2.0).unwrap();
        assert_eq!(again.known.get(&botzone_games::dots::eval::hash(&won)), Some(&Some(true)));
        assert_eq!(again.known.len(), 2);
        drop(again);
        assert!(VerdictCache::open(Some(&path), 3.0).unwrap().known.is_empty());
        // Anything else is refused and left as it was.
        std::fs::write(&path, "not verdicts\n").unwrap();
        assert!(VerdictCache::open(Some(&path), 2.0).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not verdicts\n");
        std::fs::remove_file(&path).unwrap();
        // So is a path that cannot be read as a file.
        assert!(VerdictCache::open(Some(&std::env::temp_dir()), 2.0).is_err());
    }
}
