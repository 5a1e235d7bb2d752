use botzone_games::engines::ataxx::SearchParams;
use lab::spsa::{spsa, SpsaConfig, TUNED};

fn run(seed: u64) -> SearchParams {
    let config = SpsaConfig {
        pairs: 3,
        nodes: 300,
        ms: None,
        opening_plies: 4,
        threads: 1,
        seed,
        r_end: 0.05,
        report_every: 1000,
        start: SearchParams::DEFAULT,
    };
    spsa(&config)
}

#[test]
fn a_one_thread_spsa_run_is_the_same_run_for_the_same_seed() {
    let first = run(7);
    assert_eq!(first, run(7));
    // Three pairs of games at 300 nodes each run: in five runs some pair is decided (a
    // pair split 1-1 moves nothing), and the numbers move.
    let moved = (1..=5).map(run).filter(|p| *p != SearchParams::DEFAULT).count();
    assert!(moved > 0, "no run of five moved a number");
}

#[test]
fn spsa_tunes_every_search_number_by_its_name() {
    assert!(TUNED.iter().map(|t| t.name).eq(SearchParams::NAMES), "TUNED and SearchParams::NAMES differ");
    for t in &TUNED {
        let default = SearchParams::DEFAULT.get(t.name).expect("a named number");
        assert!(t.min <= default && default <= t.max, "{}: the bot's {default} outside its bounds", t.name);
    }
}

#[test]
fn a_timed_spsa_run_plays_its_pairs_and_keeps_the_numbers_in_their_bounds() {
    let config = SpsaConfig {
        pairs: 2,
        nodes: 0,
        ms: Some(2),
        opening_plies: 30,
        threads: 1,
        seed: 3,
        r_end: 0.5,
        report_every: 1,
        start: SearchParams::DEFAULT,
    };
    let tuned = spsa(&config);
    for t in &TUNED {
        let v = tuned.get(t.name).expect("a named number");
        assert!(t.min <= v && v <= t.max, "{}: {v} outside [{}, {}]", t.name, t.min, t.max);
    }
}
