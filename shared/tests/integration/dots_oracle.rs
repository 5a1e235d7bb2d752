//! Pencil's exact endgame search against a plain memoised exhaustive search (the oracle):
//! on hundreds of random positions with at most 18 undrawn edges, the value alpha-beta
//! finds and the value of the move it chooses equal the oracle's.

use botzone_games::dots::{loony_value, Capture, Component, Edge, Position};
use botzone_games::engines::dots::solver::{moves_to_try, Solver};
use botzone_games::engines::dots::{BoxDifference, PlayoutSolver, SafeEdges};
use botzone_games::game::{Game, Outcome, Player};
use botzone_games::search::alphabeta::{AlphaBeta, AlphaBetaConfig, Aspiration};
use botzone_games::search::mcts::Policy;
use botzone_games::search::Budget;
use std::collections::HashMap;

/// Boxes the side to move still gets minus the other side's, with best play. It depends
/// only on which edges are drawn, so the memo is keyed on the two edge words.
fn oracle(p: &Position, memo: &mut HashMap<(u32, u32), i32>) -> i32 {
    if let Some(&v) = memo.get(&p.edge_words()) {
        return v;
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let value = moves.iter().map(|&e| move_value(p, e, memo)).max().unwrap_or(0);
    memo.insert(p.edge_words(), value);
    value
}

/// The oracle's value of drawing `e`, for the side that draws it.
fn move_value(p: &Position, e: Edge, memo: &mut HashMap<(u32, u32), i32>) -> i32 {
    let taken = p.boxes_completed_by(e) as i32;
    let mut after = *p;
    after.play(e);
    if after.to_move() == p.to_move() {
        taken + oracle(&after, memo)
    } else {
        -oracle(&after, memo)
    }
}

fn margin(p: &Position) -> i32 {
    let me = p.to_move();
    p.score(me) as i32 - p.score(me.other()) as i32
}

/// Random positions with `undrawn` edges left, from play that mostly avoids handing boxes
/// over (so that chains form, as in real games).
fn positions(undrawn: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = Position::start();
        while 60 - g.drawn_count() > undrawn {
            g.legal_moves(&mut moves);
            let safe: Vec<_> = moves.iter().copied().filter(|&e| g.sides_after_hint(e) == 0).collect();
            let pool = if safe.is_empty() || rng.u8(..10) == 0 { &moves } else { &safe };
            g.play(pool[rng.usize(..pool.len())]);
        }
        out.push(g);
    }
    out
}

#[test]
fn exact_search_agrees_with_the_oracle() {
    let mut checked = 0;
    for (undrawn, count) in [(8, 150), (12, 100), (15, 60), (18, 20)] {
        for p in positions(undrawn, count, u64::from(undrawn)) {
            let mut memo = HashMap::new();
            let future = oracle(&p, &mut memo);
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            let config = AlphaBetaConfig {
                aspiration: Some(Aspiration { min_depth: 3, delta: 50, reduce_on_fail_high: false }),
                ..AlphaBetaConfig::EXACT
            };
            let mut ab = AlphaBeta::new(config, BoxDifference);
            let (score, best, depth) = ab.iterate(&p, &moves, &Budget::iterations(u64::MAX));
            assert_eq!(depth as u32, undrawn, "the search must complete");
            assert_eq!(score, margin(&p) + future, "value at {undrawn} undrawn edges\n{p}");
            assert_eq!(move_value(&p, best, &mut memo), future, "the chosen move is not optimal\n{p}");
            checked += 1;
        }
    }
    assert_eq!(checked, 330);
}

/// The chain-theory solver (engines::dots::solver) against the same oracle: its value
/// of the position, and the move it chooses (a winning one when the oracle says the game
/// is won, else one that loses by the least).
#[test]
fn solver_agrees_with_the_oracle() {
    let mut checked = 0;
    for (undrawn, count) in [(8, 150), (12, 100), (15, 60), (18, 40)] {
        for p in positions(undrawn, count, 100 + u64::from(undrawn)) {
            let mut memo = HashMap::new();
            let future = oracle(&p, &mut memo);
            let mut solver = Solver::new(16);
            let unlimited = Budget::iterations(u64::MAX);
            assert_eq!(solver.value(&p, &unlimited), Some(future), "value at {undrawn} undrawn edges\n{p}");
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            let solved = solver.solve(&p, &moves, &unlimited).expect("no limit");
            let chosen = move_value(&p, solved.best, &mut memo);
            let wins = margin(&p) + future > 0;
            assert_eq!(solved.winning, wins, "verdict\n{p}");
            if wins {
                assert!(margin(&p) + chosen > 0, "the chosen move does not win\n{p}");
            } else {
                assert_eq!(chosen, future, "the chosen move loses more than it must\n{p}");
                assert_eq!(solved.value, future);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 350);
}

/// The solver's table is keyed on the contracted strings-and-coins graph
/// (`Position::graph_key`): positions of different edges but the same graph must have the
/// same value, and positions of different values different keys. Checked on the
/// positions a solver meets: every position reached from a start by the moves it tries,
/// of which many share a graph by other edges (other chains taken).
#[test]
fn positions_that_share_a_graph_key_share_their_value() {
    fn tree(p: &Position, seen: &mut HashMap<(u32, u32), Position>) {
        if seen.insert(p.edge_words(), *p).is_none() {
            for e in p.moves_worth_trying() {
                let mut child = *p;
                child.play(e);
                tree(&child, seen);
            }
        }
    }
    let mut shared = 0;
    let mut rng = fastrand::Rng::with_seed(56);
    let mut moves = Vec::new();
    for _ in 0..10 {
        // Random play to 20 edges left (many boxes taken, many short chains: positions
        // that share graphs), then the whole tree of the moves the solver tries.
        let mut start = Position::start();
        while 60 - start.drawn_count() > 20 {
            start.legal_moves(&mut moves);
            start.play(moves[rng.usize(..moves.len())]);
        }
        let mut reached = HashMap::new();
        tree(&start, &mut reached);
        let mut memo = HashMap::new();
        let mut by_key: HashMap<u64, (Position, i32)> = HashMap::new();
        for p in reached.values() {
            let value = oracle(p, &mut memo);
            match by_key.get(&p.graph_key()) {
                Some((q, v)) => {
                    assert_eq!(*v, value, "same graph key, other values:\n{q}\n{p}");
                    shared += 1;
                }
                None => {
                    by_key.insert(p.graph_key(), (*p, value));
                }
            }
        }
    }
    // 31 with these seeds.
    assert!(shared >= 20, "only {shared} positions share another's graph: the test says little");
}

/// Where no box can be taken, the solver's moves (all rules together) include an optimal
/// one; and where a corner box has only its two border edges undrawn, one of them is
/// tried (the corner rule and the sacrifice rule each leave out one of the two, and once
/// left out both).
#[test]
fn the_solvers_moves_include_an_optimal_one() {
    // Positions of mostly safe play in which box 0 keeps its border edges (0 and 30) and
    // has its inner ones (5 below it, 31 right of it) drawn first, and random ones.
    let mut rng = fastrand::Rng::with_seed(33);
    let mut moves = Vec::new();
    let open_corner = (0..300).map(|_| {
        let mut g = Position::start();
        g.play(5);
        g.play(31);
        // Boxes handed over are taken, so that most positions end with none to take.
        while 60 - g.drawn_count() > 16 || g.capture().is_some() {
            if let Some(capture) = g.capture() {
                g.play(capture.take());
                continue;
            }
            g.legal_moves(&mut moves);
            moves.retain(|&e| e != 0 && e != 30);
            let safe: Vec<_> = moves.iter().copied().filter(|&e| g.sides_after_hint(e) == 0).collect();
            let pool = if safe.is_empty() || rng.u8(..10) == 0 { &moves } else { &safe };
            g.play(pool[rng.usize(..pool.len())]);
        }
        g
    });
    let mut corners = 0;
    for p in open_corner.chain(positions(14, 300, 32)) {
        if p.capture().is_some() || p.drawn_count() == 60 {
            continue;
        }
        let tried = moves_to_try(&p);
        if p.box_sides(0) == 2 && !p.is_drawn(0) && !p.is_drawn(30) {
            assert!(tried.contains(&0) || tried.contains(&30), "neither corner edge tried\n{p}");
            corners += 1;
        }
        let mut memo = HashMap::new();
        let best = oracle(&p, &mut memo);
        let kept = tried.iter().map(|&e| move_value(&p, e, &mut memo)).max();
        assert_eq!(kept, Some(best), "{p}");
    }
    assert!(corners >= 20, "only {corners} positions had the corner open");
}

/// Positions made only of chains and loops: from random safe play until no safe edge is
/// left, then whole components opened and taken until at most `undrawn` edges remain.
fn chain_positions(undrawn: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = Position::start();
        play_safe_edges(&mut g, &mut rng);
        while g.simple_components().is_some() && 60 - g.drawn_count() > undrawn {
            g.legal_moves(&mut moves);
            g.play(moves[rng.usize(..moves.len())]);
            while let Some(capture) = g.capture() {
                g.play(capture.take());
            }
        }
        if g.simple_components().is_some_and(|parts| !parts.is_empty()) && 60 - g.drawn_count() <= undrawn {
            out.push(g);
        }
    }
    out
}

#[test]
fn chain_theory_values_agree_with_the_oracle() {
    let mut kinds = std::collections::HashSet::new();
    for p in chain_positions(20, 120, 7) {
        let parts = p.simple_components().unwrap();
        let boxes: u32 = parts
            .iter()
            .map(|c| match *c {
                Component::Chain(n) | Component::Loop(n) => u32::from(n),
            })
            .sum();
        assert_eq!(boxes, p.untaken_boxes().count_ones(), "components cover every untaken box\n{p}");
        let mut memo = HashMap::new();
        assert_eq!(loony_value(&parts), oracle(&p, &mut memo), "{parts:?}\n{p}");
        kinds.extend(parts.iter().map(|c| matches!(c, Component::Loop(_))));
    }
    assert_eq!(kinds.len(), 2, "both chains and loops were tested");
}

/// Wherever a box can be taken, the few moves `capture` keeps include an optimal one.
#[test]
fn capture_candidates_include_an_optimal_move() {
    let mut seen = [0; 4];
    // Random positions, and chains and loops just opened by a random edge.
    let mut rng = fastrand::Rng::with_seed(5);
    let mut moves = Vec::new();
    let opened = chain_positions(16, 200, 9).into_iter().map(|mut p| {
        p.legal_moves(&mut moves);
        p.play(moves[rng.usize(..moves.len())]);
        p
    });
    let random = [10, 14].into_iter().flat_map(|undrawn| positions(undrawn, 400, 200 + u64::from(undrawn)));
    for p in random.chain(opened) {
        let Some(capture) = p.capture() else { continue };
        let mut memo = HashMap::new();
        let best = oracle(&p, &mut memo);
        let kept = capture.moves().iter().map(|&e| move_value(&p, e, &mut memo)).max();
        assert_eq!(kept, Some(best), "{capture:?}\n{p}");
        seen[match capture {
            Capture::Forced(_) => 0,
            Capture::TakeOrDecline(..) => 1,
            Capture::Several(_) => 2,
            Capture::OpenFour(_) => 3,
        }] += 1;
    }
    assert!(seen.iter().all(|&n| n >= 10), "each kind of capture tested often: {seen:?}");
}

/// Where several chain ends can be taken and `capture` says one take is forced (its chain
/// goes on past the next box), that take is optimal: many random positions with boxes
/// handed over, and opened chains and loops, each with at least two boxes to take.
#[test]
fn a_take_forced_among_several_ends_is_optimal() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut moves = Vec::new();
    let opened = chain_positions(16, 600, 12).into_iter().map(|mut p| {
        // Two edges: often two chains opened, or one opened at both ends.
        for _ in 0..2 {
            p.legal_moves(&mut moves);
            p.play(moves[rng.usize(..moves.len())]);
        }
        p
    });
    let random = [10, 12, 14].into_iter().flat_map(|undrawn| positions(undrawn, 1500, 900 + u64::from(undrawn)));
    let (mut checked, mut chain_ends_only) = (0, 0);
    for p in random.chain(opened) {
        let takeable = p.side_counts().boxes_with(3);
        let Some(Capture::Forced(e)) = p.capture() else { continue };
        if takeable.count_ones() < 2 {
            continue;
        }
        let mut memo = HashMap::new();
        assert_eq!(move_value(&p, e, &mut memo), oracle(&p, &mut memo), "forced {e}\n{p}");
        checked += 1;
        // Every box to take ends a chain that goes on (its next box has two undrawn sides):
        // only the rule for several ends makes a take forced here.
        let ends_a_chain = |b: usize| {
            let side = p.free_sides(b).next().expect("one undrawn side");
            Position::across(b, side).is_some_and(|next| p.box_sides(next) == 2)
        };
        chain_ends_only += usize::from((0..25).filter(|&b| takeable >> b & 1 != 0).all(ends_a_chain));
    }
    assert!(
        checked >= 2000 && chain_ends_only >= 1000,
        "{checked} forced takes among several, {chain_ends_only} by that rule"
    );
}

/// Where no box can be taken, leaving out the redundant sacrifices keeps an optimal move.
#[test]
fn redundant_sacrifices_leave_an_optimal_move() {
    let mut moves = Vec::new();
    let mut pruned = 0;
    let random = [10, 14, 16].into_iter().flat_map(|undrawn| positions(undrawn, 300, 700 + u64::from(undrawn)));
    for p in random.chain(chain_positions(16, 200, 19)) {
        if p.capture().is_some() {
            continue;
        }
        p.legal_moves(&mut moves);
        let redundant = p.redundant_sacrifices();
        let mut memo = HashMap::new();
        let best = oracle(&p, &mut memo);
        let kept = moves.iter().filter(|&&e| redundant >> e & 1 == 0).map(|&e| move_value(&p, e, &mut memo)).max();
        assert_eq!(kept, Some(best), "{p}");
        pruned += moves.iter().filter(|&&e| redundant >> e & 1 != 0).count();
    }
    assert!(pruned > 500, "the rule left out only {pruned} moves");
}

/// The solver's bound: where the boxes offered can be declined (`Capture::TakeOrDecline`,
/// `Capture::OpenFour`), the rest is worth at least 0 to the mover, and at least 1 when
/// the boxes left are odd in number (every value has their parity: mine + theirs = left).
/// (Not so with other chain ends: a 3-chain open at both ends cannot be declined, and the
/// counterexample this test found once is kept below.)
#[test]
fn a_declinable_capture_is_worth_at_least_the_parity_of_the_boxes_left() {
    let (mut declinable, mut four, mut odd) = (0, 0, 0);
    for undrawn in [8, 10, 12, 14, 16] {
        // Random play that hands boxes over now and then; then the boxes are taken one by
        // one, every declinable capture on the way checked.
        for mut p in positions(undrawn, 400, 300 + u64::from(undrawn)) {
            while let Some(capture) = p.capture() {
                if let Capture::TakeOrDecline(..) | Capture::OpenFour(_) = capture {
                    declinable += 1;
                    four += usize::from(matches!(capture, Capture::OpenFour(_)));
                    let future = oracle(&p, &mut HashMap::new());
                    let parity = (p.untaken_boxes().count_ones() & 1) as i32;
                    odd += parity;
                    assert!(future >= parity, "worth {future} to the mover, {parity} at least\n{p}");
                }
                p.play(capture.take());
            }
        }
    }
    assert!(
        declinable >= 50 && four >= 5 && odd >= 20,
        "only {declinable} declinable captures, {four} open fours, {odd} odd"
    );
    // A 3-chain open at both ends must be taken whole (its only "decline" takes a box and
    // keeps the turn), and then the mover opens the 4-chain left: 3 - 4.
    let undrawn = [(7, 4), (3, 6), (0, 5), (2, 5), (8, 5), (0, 7), (2, 7)];
    let mut p = Position::start();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    for e in moves {
        let (x, y) = botzone_games::dots::io::grid(e);
        if !undrawn.contains(&(x, y)) {
            p.play(e);
        }
    }
    assert!(matches!(p.capture(), Some(Capture::Several(_))), "{p}");
    assert_eq!(oracle(&p, &mut HashMap::new()), -1, "{p}");
}

/// Where a playout runs out of safe edges before only chains and loops are left, the
/// `best` engine's playout asks the solver (`exact-playouts`): from such positions its
/// playout names the oracle's winner every time, where random handouts do not.
#[test]
fn playouts_that_run_out_of_safe_edges_end_in_the_exact_result() {
    let mut random_wrong = 0;
    let mut exact = SafeEdges { move_rules: true, exact_endgames: Some(PlayoutSolver::new()) };
    let mut random = SafeEdges { move_rules: true, exact_endgames: None };
    let mut rng = fastrand::Rng::with_seed(11);
    for p in without_safe_edges(18, 60, 12) {
        let me = p.to_move();
        let final_margin = margin(&p) + oracle(&p, &mut HashMap::new());
        let winner = if final_margin > 0 { me } else { me.other() };
        let expected = Outcome::Win(winner).reward(Player::First);
        assert_eq!(exact.playout(&mut p.clone(), &mut rng, &mut Vec::new()), expected, "{p}");
        random_wrong += usize::from(random.playout(&mut p.clone(), &mut rng, &mut Vec::new()) != expected);
    }
    assert!(random_wrong > 0, "random handouts named every winner too: the test cannot tell them apart");
}

/// Positions with at most `undrawn` edges left where no box can be taken, no safe edge is
/// left, and some box has three or four undrawn sides (not only chains and loops): random
/// safe edges while there are any, then random handouts, each taken at once.
fn without_safe_edges(undrawn: u32, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = Position::start();
        loop {
            play_safe_edges(&mut g, &mut rng);
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if 60 - g.drawn_count() <= undrawn {
                if g.simple_components().is_none() {
                    out.push(g);
                }
                break;
            }
            g.play(moves[rng.usize(..moves.len())]);
            while let Some(capture) = g.capture() {
                g.play(capture.take());
            }
        }
    }
    out
}

/// Random safe edges (those that hand nothing over) until none is left.
fn play_safe_edges(g: &mut Position, rng: &mut fastrand::Rng) {
    let mut moves = Vec::new();
    loop {
        g.legal_moves(&mut moves);
        moves.retain(|&e| g.sides_after_hint(e) == 0);
        if moves.is_empty() {
            return;
        }
        g.play(moves[rng.usize(..moves.len())]);
    }
}
