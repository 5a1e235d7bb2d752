//! Search behaviour that must hold whatever the tuning: UCT beats a random player.

use botzone_games::botzone::{BotzoneGame, Transcript};
use botzone_games::game::{Outcome, Player};
use botzone_games::search::mcts;
use botzone_games::search::random::RandomMover;
use botzone_games::search::{Budget, Engine};
use botzone_games::{ataxx, dots, nogo};

/// Plays one game between two engines through Botzone's turn order.
fn play<G: BotzoneGame>(players: &mut [Box<dyn Engine<G>>; 2], iterations: u64) -> Outcome {
    let mut t = Transcript::<G>::new();
    let mut moves = Vec::new();
    while t.game().outcome().is_none() {
        if t.must_pass() {
            t.answer(None).unwrap();
            continue;
        }
        t.game().legal_moves(&mut moves);
        let engine = &mut players[t.asked().index()];
        let best = engine.search(t.game(), &moves, &Budget::iterations(iterations)).best;
        t.answer(Some(best)).unwrap();
    }
    t.game().outcome().unwrap()
}

fn uct_score_against_random<G: BotzoneGame>(games: u64, iterations: u64) -> f64 {
    let mut score = 0.0;
    for g in 0..games {
        let uct: Box<dyn Engine<G>> = Box::new(mcts::uct::<G>(g));
        let random: Box<dyn Engine<G>> = Box::new(RandomMover::new(g + 1000));
        let uct_side = if g % 2 == 0 { Player::First } else { Player::Second };
        let mut players = if uct_side == Player::First { [uct, random] } else { [random, uct] };
        score += play(&mut players, iterations).reward(uct_side);
    }
    score / games as f64
}

#[test]
fn uct_beats_a_random_player_at_ataxx() {
    let s = uct_score_against_random::<ataxx::Position>(10, 300);
    assert!(s >= 0.9, "score {s}");
}

#[test]
fn uct_beats_a_random_player_at_nogo() {
    let s = uct_score_against_random::<nogo::Position>(10, 300);
    assert!(s >= 0.9, "score {s}");
}

#[test]
fn uct_beats_a_random_player_at_dots() {
    let s = uct_score_against_random::<dots::Position>(10, 300);
    assert!(s >= 0.9, "score {s}");
}
