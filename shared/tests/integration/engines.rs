//! The engine registry: lookup, the bots' root rule, and one searcher per thread.

use botzone_games::engines::{self, Without};
use botzone_games::game::{Game, Rules};
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

#[test]
fn pencil_best_rave_differs_from_best_only_by_rave() {
    // The same seed and iterations: only the selection's AMAF term differs, so the root's
    // visits spread differently with and without it.
    let start = botzone_games::dots::Position::start();
    let visits = |engine: &str| {
        let mut searcher = engines::dots::registry().searcher(Some(engine), &Without::default(), 7, 1).unwrap();
        let result = searcher.choose(&start, &[], &Budget::iterations(3000));
        let mut stats: Vec<_> = result.root_stats.iter().map(|s| (s.0, s.1)).collect();
        stats.sort_unstable();
        stats
    };
    let (with, without) = (visits("best-rave"), visits("best"));
    assert_eq!(with.iter().map(|s| s.1).sum::<u64>(), without.iter().map(|s| s.1).sum::<u64>());
    assert_ne!(with, without);
    assert_eq!(with, visits("best-rave"), "a fixed seed and budget repeat the search");
    assert_eq!(without, visits("best"));
}

/// Plays seeded random games to the end and returns the final positions.
fn finished<G: Rules>(games: u64) -> Vec<G> {
    let mut moves = Vec::new();
    (0..games)
        .map(|seed| {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut g = G::start();
            while g.outcome().is_none() {
                g.legal_moves(&mut moves);
                g.play(moves[rng.usize(..moves.len())]);
            }
            g
        })
        .collect()
}

#[test]
fn a_finished_game_says_why_it_ended_and_a_running_one_says_nothing() {
    assert_eq!(botzone_games::ataxx::Position::start().end_reason(), None);
    for g in finished::<botzone_games::ataxx::Position>(20) {
        let why = g.end_reason().unwrap();
        assert!(
            ["no pieces left", "cannot move", "board is full", "cap", "CIRCULAR"].iter().any(|w| why.contains(w)),
            "{why}"
        );
    }
    for g in finished::<nogo::Position>(5) {
        assert!(g.end_reason().unwrap().contains("has no legal point"));
    }
    for g in finished::<botzone_games::dots::Position>(5) {
        let why = g.end_reason().unwrap();
        assert!(why.starts_with("every edge drawn; boxes red"), "{why}");
    }
}

#[test]
fn ataxx_search_numbers_are_set_by_name_and_unknown_names_refused() {
    use botzone_games::engines::ataxx::SearchParams;
    let mut p = SearchParams::DEFAULT;
    for (i, name) in SearchParams::NAMES.iter().enumerate() {
        let before = p.get(name).expect("a named number");
        let value = before + 3.0 + i as f64;
        p.set(name, value).expect("a named number");
        let got = p.get(name).expect("a named number");
        assert!((got - value).abs() < 1e-5, "{name}: set {value}, got {got}");
    }
    assert_ne!(p, SearchParams::DEFAULT);
    // Integers round to the nearest; the reductions' numbers are floats; a depth or a
    // count is at least 1.
    p.set("rfp-margin", 61.6).unwrap();
    assert_eq!(p.rfp_margin, 62);
    p.set("singular-min-depth", -2.0).unwrap();
    assert_eq!(p.singular_min_depth, 1);
    assert!(p.set("lmr", 1.0).is_err());
    assert_eq!(p.get("lmr"), None);
}
