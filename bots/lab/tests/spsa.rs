use botzone_games::engines::ataxx::SearchParams;
use lab::spsa::{spsa, tuned_by_name, SpsaConfig, TUNED};

/// Three pairs at 300 nodes a move over every number: a run that takes a moment.
fn small_run(seed: u64) -> SpsaConfig {
    SpsaConfig {
        pairs: 3,
        nodes: 300,
        ms: None,
        opening_plies: 4,
        threads: 1,
        seed,
        r_end: 0.05,
        report_every: 1000,
        start: SearchParams::DEFAULT,
        tuned: TUNED.iter().collect(),
    }
}

fn run(seed: u64) -> SearchParams {
    spsa(&small_run(seed))
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
    let config =
        SpsaConfig { pairs: 2, nodes: 0, ms: Some(2), opening_plies: 30, r_end: 0.5, report_every: 1, ..small_run(3) };
    let tuned = spsa(&config);
    for t in &TUNED {
        let v = tuned.get(t.name).expect("a named number");
        assert!(t.min <= v && v <= t.max, "{}: {v} outside [{}, {}]", t.name, t.min, t.max);
    }
}

#[test]
fn a_run_moves_only_the_numbers_it_tunes() {
    let tuned = tuned_by_name(&["lmr-base".to_string(), "fp-min-moves".to_string()]).expect("known names");
    assert_eq!(tuned.iter().map(|t| t.name).collect::<Vec<_>>(), ["fp-min-moves", "lmr-base"]);
    assert!(tuned_by_name(&["lmr".to_string()]).is_err());
    assert_eq!(tuned_by_name(&[]).expect("all").len(), TUNED.len());
    let mut moved_any = false;
    for seed in 1..=5 {
        let config = SpsaConfig { r_end: 0.5, tuned: tuned.clone(), ..small_run(seed) };
        let result = spsa(&config);
        for name in SearchParams::NAMES {
            let (before, after) = (SearchParams::DEFAULT.get(name).unwrap(), result.get(name).unwrap());
            if tuned.iter().any(|t| t.name == name) {
                moved_any |= before != after;
            } else {
                assert_eq!(before, after, "{name} moved, though not tuned");
            }
        }
    }
    assert!(moved_any, "five runs moved neither tuned number");
}
