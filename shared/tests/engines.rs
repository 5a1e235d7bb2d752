//! The engine registry: lookup, the bots' root rule, and one searcher per thread.

use botzone_games::engines::{self, Without};
use botzone_games::game::Game;
use botzone_games::nogo::{self, CENTRE};
use botzone_games::search::Budget;

#[test]
fn nogo_black_never_opens_at_the_centre_but_may_later() {
    let registry = engines::nogo::registry();
    let start = nogo::Position::start();
    let roots = registry.root_moves(&start);
    assert_eq!(roots.len(), 80);
    assert!(!roots.contains(&CENTRE));
    let mut after = start;
    after.play(roots[0]);
    assert!(registry.root_moves(&after).contains(&CENTRE));
    // The searcher applies the same rule.
    let mut searcher = registry.searcher(None, &Without::default(), 1, 1).unwrap();
    for seed in 0..5 {
        let mut searcher_n = registry.searcher(Some("random"), &Without::default(), seed, 1).unwrap();
        assert_ne!(searcher_n.choose(&start, &[], &Budget::iterations(10)).best, CENTRE);
    }
    assert_ne!(searcher.choose(&start, &[], &Budget::iterations(200)).best, CENTRE);
}

#[test]
fn the_first_engine_is_the_default_and_unknown_names_are_refused() {
    let registry = engines::ataxx::registry();
    assert_eq!(registry.find(None).unwrap().name, "ab");
    assert_eq!(registry.find(Some("uct")).unwrap().name, "uct");
    let err = registry.find(Some("nope")).err().unwrap();
    assert!(err.contains("unknown engine") && err.contains("ab, ab-material"), "{err}");
    assert!(registry.searcher(Some("ab"), &Without(vec!["bogus".into()]), 1, 1).is_err());
}

#[test]
fn a_single_root_move_is_answered_without_search() {
    // Pencil after every edge but one is drawn: one move left.
    let mut p = botzone_games::dots::Position::start();
    let mut moves = Vec::new();
    for _ in 0..59 {
        p.legal_moves(&mut moves);
        p.play(moves[0]);
    }
    let mut searcher = engines::dots::registry().searcher(None, &Without::default(), 1, 1).unwrap();
    let result = searcher.choose(&p, &[], &Budget::iterations(1000));
    assert_eq!((result.summary.as_str(), result.nodes), ("only move", 0));
    assert!(p.clone().try_play(result.best).is_ok());
}
