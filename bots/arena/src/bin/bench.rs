//! `make bench`: speed figures of the rules and searches, and a bench signature.
//!
//! Prints perft speed, uniformly random playouts per second per game, and the node count
//! of fixed-budget searches on fixed positions (a refactor that claims no behaviour change
//! must keep the signature).

use botzone_games::botzone::BotzoneGame;
use botzone_games::search::mcts;
use botzone_games::search::{Budget, Engine};
use botzone_games::{ataxx, dots, nogo};
use std::time::Instant;

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

fn signature<G: BotzoneGame>(iterations: u64) -> (String, f64) {
    let game = G::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut uct = mcts::uct::<G>(12345);
    let start = Instant::now();
    let result = uct.search(&game, &moves, &Budget::iterations(iterations));
    let summary = result.summary;
    let nodes = summary.split_whitespace().find(|w| w.starts_with("nodes=")).unwrap_or("nodes=?").to_string();
    (format!("{nodes} best={}", G::json_move(Some(result.best))), iterations as f64 / start.elapsed().as_secs_f64())
}

fn main() {
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
    println!("random playouts per second (one core):");
    println!("  ataxx {:>10.0}", playouts_per_second::<ataxx::Position>(1.0));
    println!("  nogo  {:>10.0}", playouts_per_second::<nogo::Position>(1.0));
    println!("  dots  {:>10.0}", playouts_per_second::<dots::Position>(1.0));
    println!("uct bench signature (20000 iterations from the start, seed 12345):");
    for (name, (sig, speed)) in [
        ("ataxx", signature::<ataxx::Position>(20_000)),
        ("nogo", signature::<nogo::Position>(20_000)),
        ("dots", signature::<dots::Position>(20_000)),
    ] {
        println!("  {name:<5} {sig}  ({speed:.0} iterations/s)");
    }
}
