//! Feeds many random and mutated inputs to each bot: every one must end with a legal
//! answer or a clear error, never a panic or a hang.

use botzone_games::botzone::{BotzoneGame, Match};
use botzone_games::engines::{generic_engines, Registry};
use botzone_games::{ataxx, dots, nogo};
use clap::Parser;
use frontend::Args;
use std::time::{Duration, Instant};

fn fixtures(game: &str) -> Vec<String> {
    let dir = format!("{}/../../fixtures/{game}", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let ext = path.extension().and_then(|e| e.to_str());
        if matches!(ext, Some("json") | Some("txt")) && !path.ends_with("perft.txt") {
            out.push(std::fs::read_to_string(&path).unwrap());
        }
    }
    assert!(out.len() >= 4, "fixtures of {game}");
    out
}

fn mutate(input: &str, rng: &mut fastrand::Rng) -> String {
    let mut s: Vec<char> = input.chars().collect();
    let n = s.len().max(1);
    match rng.u8(..10) {
        0 => s.truncate(rng.usize(..n)),
        1 => {
            for _ in 0..rng.usize(1..4) {
                if !s.is_empty() {
                    let i = rng.usize(..s.len());
                    s.remove(i);
                }
            }
        }
        2 => {
            let junk = ['{', '}', '[', ']', ',', ':', '"', '-', '9', 'x', ' ', '\n', '\0', 'é'];
            for _ in 0..rng.usize(1..4) {
                let i = rng.usize(..=s.len());
                s.insert(i, junk[rng.usize(..junk.len())]);
            }
        }
        3 => {
            return input.replacen(
                "-1",
                ["99999999999999999999", "1e3", "null", "\"a\"", "-2", "2.5"][rng.usize(..6)],
                1,
            )
        }
        4 => return input.replace("requests", "responses").replacen("responses", "requests", 1),
        5 => return input.replace("\"x", "\"y").replace("\"y", "\"x"),
        6 => {
            // swap two digits somewhere
            let digits: Vec<usize> = (0..s.len()).filter(|&i| s[i].is_ascii_digit()).collect();
            if digits.len() >= 2 {
                let (a, b) = (digits[rng.usize(..digits.len())], digits[rng.usize(..digits.len())]);
                s.swap(a, b);
            }
        }
        7 => {
            let digits: Vec<usize> = (0..s.len()).filter(|&i| s[i].is_ascii_digit()).collect();
            if let Some(&i) = digits.get(rng.usize(..digits.len().max(1))) {
                s[i] = char::from(b'0' + rng.u8(..10));
            }
        }
        8 => return format!("{}{}", "[".repeat(rng.usize(1..5000)), input),
        _ => {
            return input.replace(
                "\"responses\":[",
                "\"responses\":[{\"x\":-1,\"y\":-1,\"x0\":-1,\"y0\":-1,\"x1\":-1,\"y1\":-1},",
            )
        }
    }
    s.into_iter().collect()
}

/// Runs the bot; an answer must be legal in the input's position.
fn check_one<G: BotzoneGame>(input: &str) -> bool {
    let args = Args::parse_from(["bot", "--nodes", "20", "--seed", "1"]);
    let mut out = Vec::new();
    let start = Instant::now();
    let registry = Registry::new(generic_engines());
    let result = frontend::run::<G>(Instant::now(), &args, &registry, &mut input.as_bytes(), &mut out, &mut Vec::new());
    assert!(start.elapsed() < Duration::from_secs(5), "too slow on {input:?}");
    match result {
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
        Ok(()) => {
            let text = String::from_utf8(out).unwrap();
            // Blank lines are skipped, as the bot's reader does.
            let m = Match::<G>::from_text(input).unwrap();
            let line = text.lines().next().unwrap();
            let answer = if line.starts_with('{') {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                G::parse_json_move(&v["response"]).unwrap()
            } else {
                botzone_games::botzone::parse_simple_line::<G>(line).unwrap()
            };
            match answer {
                None => assert!(!m.our_move(), "passed when it had to move: {input}"),
                Some(mv) => {
                    let mut g = m.game.clone();
                    assert!(g.try_play(mv).is_ok(), "illegal answer to {input}");
                }
            }
            true
        }
    }
}

fn fuzz<G: BotzoneGame>(seed: u64, rounds: usize) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let base = fixtures(G::NAME);
    let (mut answered, mut refused) = (0, 0);
    for _ in 0..rounds {
        let mut input = base[rng.usize(..base.len())].clone();
        for _ in 0..rng.usize(1..3) {
            input = mutate(&input, &mut rng);
        }
        if check_one::<G>(&input) {
            answered += 1;
        } else {
            refused += 1;
        }
    }
    // Both paths must have been exercised.
    assert!(answered > rounds / 20 && refused > rounds / 20, "answered {answered}, refused {refused}");
}

#[test]
fn ataxx_survives_mutated_inputs() {
    fuzz::<ataxx::Position>(1, 1500);
}

#[test]
fn nogo_survives_mutated_inputs() {
    fuzz::<nogo::Position>(2, 1500);
}

#[test]
fn dots_survives_mutated_inputs() {
    fuzz::<dots::Position>(3, 1500);
}

#[test]
fn very_long_history_is_answered_or_refused_quickly() {
    // 5000 requests of "no move": refused at turn 1, not after quadratic work.
    let entries = vec![r#"{"x":-1,"y":-1}"#; 5000].join(",");
    let input = format!(r#"{{"requests":[{entries}],"responses":[{}]}}"#, vec![r#"{"x":-1,"y":-1}"#; 4999].join(","));
    assert!(!check_one::<nogo::Position>(&input));
    // A real 398-move Ataxx history is answered.
    let cap =
        std::fs::read_to_string(format!("{}/../../fixtures/ataxx/near_move_cap.json", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    assert!(check_one::<ataxx::Position>(&cap));
}

#[test]
fn random_bytes_are_refused() {
    let mut rng = fastrand::Rng::with_seed(4);
    let registry = Registry::new(generic_engines());
    for _ in 0..500 {
        let bytes: Vec<u8> = (0..rng.usize(..200)).map(|_| rng.u8(..)).collect();
        let args = Args::parse_from(["bot", "--nodes", "10"]);
        let mut out = Vec::new();
        let result = frontend::run::<ataxx::Position>(
            Instant::now(),
            &args,
            &registry,
            &mut bytes.as_slice(),
            &mut out,
            &mut Vec::new(),
        );
        let err = result.expect_err(&format!("random bytes answered: {bytes:?}"));
        assert!(err.to_string().starts_with("bad input"), "{err}");
        assert!(out.is_empty(), "an answer was written for random bytes");
    }
}
