//! Pencil's exact endgame search against a plain memoised exhaustive search (the oracle):
//! on hundreds of random positions with at most 18 undrawn edges, the value alpha-beta
//! finds and the value of the move it chooses equal the oracle's.

use botzone_games::dots::{Edge, Position};
use botzone_games::engines::dots::BoxDifference;
use botzone_games::game::Game;
use botzone_games::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
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
            let config =
                AlphaBetaConfig { rfp_margin: None, late_move_reductions: false, ..AlphaBetaConfig::default() };
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
