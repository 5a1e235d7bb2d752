//! `make bench`: speed figures of the rules and searches, and a bench signature.
//!
//! Prints perft speed, playouts per second, alpha-beta and solver speed, and the bench
//! signature: the nodes that each bot's default engine, built through the registry as the
//! bot builds it, searches on fixed positions at a fixed budget. A change that claims no
//! behaviour change must keep the signature (as Stockfish's `bench` is used).

use botzone_games::botzone::{BotzoneGame, Match};
use botzone_games::engines::dots::{seed_endgame, solver::Solver};
use botzone_games::engines::{self, Registry, Without};
use botzone_games::game::{mix64, Game, Player};
use botzone_games::nogo::groups::{shared_points_playout, SharedRule};
use botzone_games::search::alphabeta::Evaluator;
use botzone_games::search::{mcts, Budget, Deadline, Engine};
use botzone_games::{ataxx, dots, nogo};
use std::time::{Duration, Instant};

fn playouts_per_second<G: BotzoneGame>(seconds: f64) -> f64 {
    let mut rng = fastrand::Rng::with_seed(1);
    let start = Instant::now();
    let mut moves = Vec::new();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < seconds {
        let mut g = G::start();
        loop {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.usize(..moves.len())]);
        }
        n += 1;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Playouts per second from the empty NoGo board with one of the group-board playouts.
fn nogo_playouts_per_second(
    playout: fn(&mut nogo::GroupBoard, &mut fastrand::Rng, &mut Vec<(Player, nogo::Point)>) -> f64,
    seconds: f64,
) -> f64 {
    let mut rng = fastrand::Rng::with_seed(1);
    let start = Instant::now();
    let empty = nogo::GroupBoard::new(&nogo::Position::start());
    let mut played = Vec::with_capacity(81);
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < seconds {
        played.clear();
        playout(&mut empty.clone(), &mut rng, &mut played);
        n += 1;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Plain UCT from the start (the signature kept from before the registry existed).
fn uct_signature<G: BotzoneGame>(iterations: u64) -> (String, f64) {
    let game = G::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut uct = mcts::uct::<G>(12345);
    let start = Instant::now();
    let result = uct.search(&game, &moves, &Budget::iterations(iterations));
    let speed = iterations as f64 / start.elapsed().as_secs_f64();
    (format!("nodes={} best={}", result.nodes, G::json_move(Some(result.best))), speed)
}

/// The start position and positions after 8, 16 and 24 seeded random plies.
fn bench_positions<G: BotzoneGame>() -> Vec<G> {
    let mut rng = fastrand::Rng::with_seed(2024);
    let mut moves = Vec::new();
    [0, 8, 16, 24]
        .iter()
        .filter_map(|&plies| {
            let mut g = G::start();
            for _ in 0..plies {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    return None;
                }
                g.play(moves[rng.usize(..moves.len())]);
            }
            g.outcome().is_none().then_some(g)
        })
        .collect()
}

/// The default engine's nodes and a hash of its answers over [`bench_positions`], each
/// searched by a fresh engine built by the registry (seed 12345) with `budget` units.
fn engine_signature<G: BotzoneGame>(registry: &Registry<G>, budget: u64) -> (u64, u64, f64) {
    let (mut nodes, mut answers) = (0, 0);
    let start = Instant::now();
    for game in bench_positions::<G>() {
        let mut searcher = registry.searcher(None, &Without::default(), 12345, 1).expect("the default engine");
        let result = searcher.choose(&game, &[], &Budget::iterations(budget));
        nodes += result.nodes;
        answers = mix64(answers ^ G::move_index(result.best) as u64);
    }
    (nodes, answers, start.elapsed().as_secs_f64())
}

/// A Pencil position with `undrawn` edges left, reached by seeded random play that takes
/// boxes and avoids handing them over.
fn dots_position(undrawn: u32, seed: u64) -> dots::Position {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut g = dots::Position::start();
    let mut moves = Vec::new();
    while 60 - g.drawn_count() > undrawn {
        g.legal_moves(&mut moves);
        let safe: Vec<_> =
            moves.iter().copied().filter(|&e| g.sides_after_hint(e) == 0 || g.boxes_completed_by(e) > 0).collect();
        let pool = if safe.is_empty() { &moves } else { &safe };
        g.play(pool[rng.usize(..pool.len())]);
    }
    g
}

/// Time for the chain-theory solver (`best`'s endgame) to find the exact value of five
/// positions with `undrawn` edges left.
fn dots_solver_time(undrawn: u32, cap: Duration) -> String {
    let (mut times, mut nodes) = (Vec::new(), 0);
    for seed in 0..5 {
        let g = dots_position(undrawn, u64::from(undrawn) * 100 + seed);
        let mut solver = Solver::new(20);
        let start = Instant::now();
        let budget = Budget::until(Deadline::new(start, cap));
        if solver.value(&g, &budget).is_none() {
            return format!("{undrawn} undrawn: position {seed} not solved within {:.0} s", cap.as_secs_f64());
        }
        times.push(start.elapsed().as_secs_f64());
        nodes += solver.nodes();
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let max = times.iter().copied().fold(0.0, f64::max);
    format!("{undrawn} undrawn: 5 positions solved, mean {mean:.3} s, slowest {max:.3} s, {nodes} nodes in all")
}

/// Time for the generic alpha-beta (seed 004's endgame) to solve one such position.
fn dots_alphabeta_time(undrawn: u32, cap: Duration) -> String {
    let g = dots_position(undrawn, u64::from(undrawn) * 100);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut ab = seed_endgame();
    let start = Instant::now();
    let budget = Budget::until(Deadline::new(start, cap));
    let (score, _, depth) = ab.iterate(&g, &moves, &budget);
    let t = start.elapsed().as_secs_f64();
    if depth as u32 >= undrawn {
        format!("{undrawn} undrawn: solved in {t:.3} s, margin {score:+}, {} nodes", ab.nodes())
    } else {
        format!("{undrawn} undrawn: not solved within {:.0} s (depth {depth})", cap.as_secs_f64())
    }
}

/// Alpha-beta speed (`ab` engine's search) from an Ataxx position, for a fixed node count.
fn ataxx_ab_speed(label: &str, board: ataxx::Board, without: &[&str]) {
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    let mut ab = engines::ataxx::ab(&Without(without.iter().map(|f| f.to_string()).collect()));
    let start = Instant::now();
    let (score, _, depth) = ab.iterate(&board, &moves, &Budget::iterations(2_000_000));
    let s = start.elapsed().as_secs_f64();
    println!(
        "  {label}: {} nodes in {s:.2} s ({:.2} M nodes/s), depth {depth}, score {score}",
        ab.nodes(),
        ab.nodes() as f64 / s / 1e6
    );
}

/// Static evaluations per second of the network and of the hand-made terms, over the
/// positions of a few random games.
fn ataxx_eval_speed() {
    let mut rng = fastrand::Rng::with_seed(4);
    let mut boards = Vec::new();
    let mut moves = Vec::new();
    while boards.len() < 4000 {
        let mut b = *ataxx::Position::start().board();
        while b.outcome().is_none() {
            b.legal_moves(&mut moves);
            b.play(moves[rng.usize(..moves.len())]);
            boards.push(b);
        }
    }
    let net = ataxx::net::embedded();
    let time = |f: &dyn Fn(&ataxx::Board) -> i32| {
        let start = Instant::now();
        let mut sum = 0i64;
        for _ in 0..50 {
            sum += boards.iter().map(|b| i64::from(f(b))).sum::<i64>();
        }
        std::hint::black_box(sum);
        (50 * boards.len()) as f64 / start.elapsed().as_secs_f64() / 1e6
    };
    let network = time(&|b| net.evaluate_board(b));
    let terms = time(&|b| ataxx::eval::evaluate(b, &ataxx::eval::WEIGHTS));
    println!("ataxx static evaluations: network {network:.1} M/s, hand-made terms {terms:.1} M/s");
    // As the search asks: each child of a position from that position's hidden layer.
    let (mut families, mut parents) = (Vec::new(), 0);
    for parent in boards.iter().step_by(10).filter(|b| b.outcome().is_none()) {
        parents += 1;
        parent.legal_moves(&mut moves);
        for &mv in &moves {
            let mut child = *parent;
            child.play(mv);
            families.push((*parent, child));
        }
    }
    let eval = botzone_games::engines::ataxx::AtaxxEval::default();
    let time_children = |f: &dyn Fn(&ataxx::Board, &ataxx::Board) -> i32| {
        let start = Instant::now();
        let sum: i64 = families.iter().map(|(p, c)| i64::from(f(p, c))).sum();
        std::hint::black_box(sum);
        families.len() as f64 / start.elapsed().as_secs_f64() / 1e6
    };
    let afresh = time_children(&|_, c| eval.evaluate(c));
    let from_parent = time_children(&|p, c| eval.evaluate_child(p, c));
    println!(
        "ataxx network on {} children of {} positions: {afresh:.1} M/s afresh, \
         {from_parent:.1} M/s from the parent's hidden layer",
        families.len(),
        parents
    );
}

/// `make bench`: takes no arguments but `--help`.
#[derive(clap::Parser)]
#[command(
    name = "bench",
    about = "Speed figures (perft, playouts, alpha-beta, the Pencil solver) and the bench signature: \
             the nodes each bot's default engine searches on fixed positions at a fixed budget. \
             Run from the repository root (it reads fixtures/ataxx/midgame.json); about a minute."
)]
struct Cli {}

fn main() {
    let _ = <Cli as clap::Parser>::parse();
    let start = ataxx::Position::start();
    for depth in [5, 6] {
        let t = Instant::now();
        let leaves = start.perft(depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "ataxx perft {depth}: {leaves} leaves in {s:.3} s ({:.1} M leaves/s, bulk counting)",
            leaves as f64 / s / 1e6
        );
    }
    let mid = std::fs::read_to_string("fixtures/ataxx/midgame.json")
        .ok()
        .and_then(|text| Match::<ataxx::Position>::from_text(&text).ok());
    for (label, without) in [("network (default)", &[][..]), ("hand-made terms, --without network", &["network"])] {
        println!("ataxx alpha-beta, evaluation {label}:");
        ataxx_ab_speed("start position", *ataxx::Position::start().board(), without);
        match &mid {
            Some(m) => ataxx_ab_speed("fixtures/ataxx/midgame.json", *m.game.board(), without),
            None => println!("  (run from the repository root for the middlegame fixture)"),
        }
    }
    ataxx_eval_speed();
    println!("random playouts per second (one core):");
    println!("  ataxx {:>10.0}", playouts_per_second::<ataxx::Position>(1.0));
    println!("  nogo  {:>10.0}", playouts_per_second::<nogo::Position>(1.0));
    println!("  dots  {:>10.0}", playouts_per_second::<dots::Position>(1.0));
    println!("nogo playouts per second on the group board (one core):");
    println!("  uniformly random {:>10.0}", nogo_playouts_per_second(nogo::groups::uniform_playout, 1.0));
    println!("  decisive         {:>10.0}", nogo_playouts_per_second(nogo::groups::decisive_playout, 1.0));
    let mover_may = nogo_playouts_per_second(|b, r, p| shared_points_playout(b, r, p, SharedRule::WhileMoverMay), 1.0);
    println!("  shared points    {mover_may:>10.0}  (a shared point played while the mover may: the engine's)");
    let both_may = nogo_playouts_per_second(|b, r, p| shared_points_playout(b, r, p, SharedRule::WhileBothMay), 1.0);
    println!("  ... both may     {both_may:>10.0}  (played only while both sides may)");
    println!("dots exact value, chain-theory solver (engine best):");
    for undrawn in [20, 25, 30, 35, 40] {
        println!("  {}", dots_solver_time(undrawn, Duration::from_secs(10)));
    }
    println!("dots exact value, generic alpha-beta with transposition table (engine seed):");
    for undrawn in [20, 25, 30] {
        println!("  {}", dots_alphabeta_time(undrawn, Duration::from_secs(5)));
    }
    println!("uct signature (20000 iterations from the start, seed 12345):");
    for (name, (sig, speed)) in [
        ("ataxx", uct_signature::<ataxx::Position>(20_000)),
        ("nogo", uct_signature::<nogo::Position>(20_000)),
        ("dots", uct_signature::<dots::Position>(20_000)),
    ] {
        println!("  {name:<5} {sig}  ({speed:.0} iterations/s)");
    }
    println!("bench signature (each bot's default engine, seed 12345, 4 positions each):");
    let rows = [
        ("ataxx", "200000 nodes", engine_signature(&engines::ataxx::registry(), 200_000)),
        ("nogo", "5000 iterations", engine_signature(&engines::nogo::registry(), 5_000)),
        ("dots", "5000 iterations", engine_signature(&engines::dots::registry(), 5_000)),
    ];
    let mut total = 0;
    let mut answers = 0;
    for (name, budget, (nodes, hash, s)) in rows {
        println!("  {name:<5} {budget:<16} nodes={nodes} answers={hash:016x} ({s:.2} s)");
        total += nodes;
        answers = mix64(answers ^ hash);
    }
    println!("bench signature: {total} nodes, answers {answers:016x}");
}
