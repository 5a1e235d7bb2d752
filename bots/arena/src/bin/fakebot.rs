//! Misbehaving bots for the arena's tests, and a random mover, in one test binary.
//!
//! `fakebot --mode MODE [--game GAME] [BOT FLAGS...]`:
//! random (a real bot with the random engine; extra flags go to it), slow (the same after
//! 300 ms, or `--sleep-ms N`), slow-first (slow on its first turn only, then at once;
//! answers afresh), garbage (prints
//! text that is not JSON), crash (exits with status 3), sleep (sleeps 30 s), illegal
//! (echoes the opponent's last move, or passes when it must move), nopass (Pencil: plays
//! an undrawn edge even when it must pass); and foreign engines that misbehave:
//! uai-pass (a UAI engine that always answers `bestmove 0000`), uai-sleep (one that never
//! answers `go`), gtp-resign (a GTP engine that always resigns); and for the sandbox:
//! hog (maps and touches 128 MB, then moves at random), bare-env (moves at random only
//! when its environment is empty, else exits with status 3).

use botzone_games::botzone::{BotzoneGame, Match};
use botzone_games::dots;
use botzone_games::engines::{generic_engines, Registry};
use clap::{Parser, ValueEnum};
use frontend::Args;
use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

use arena::games::GameName;
use arena::with_game;

fn random_bot<G: BotzoneGame>(start: Instant, flags: &[String], input: &mut dyn BufRead) -> ! {
    let mut argv = vec!["fakebot".to_string(), "--engine".into(), "random".into()];
    argv.extend_from_slice(flags);
    let args = Args::parse_from(argv);
    let stdout = std::io::stdout();
    let registry = Registry::new(generic_engines());
    match frontend::run::<G>(start, &args, &registry, input, &mut stdout.lock(), &mut std::io::stderr()) {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("fakebot: {e}");
            std::process::exit(2)
        }
    }
}

fn never_passes<G: BotzoneGame>(input: &str) {
    let m = Match::<G>::from_text(input).expect("a valid input with a legal history");
    let mut moves = Vec::new();
    m.game.legal_moves(&mut moves);
    println!("{}", serde_json::json!({"response": G::json_move(moves.first().copied())}));
}

/// A foreign engine that follows its protocol but answers every move request badly.
fn fake_engine(mode: &str) {
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let command = line.split_whitespace().next().unwrap_or("");
        let answer = match (mode, command) {
            ("uai-pass" | "uai-sleep", "uai") => "uaiok",
            ("uai-pass" | "uai-sleep", "isready") => "readyok",
            ("uai-pass", "go") => "bestmove 0000",
            ("uai-sleep", "go") => {
                std::thread::sleep(Duration::from_secs(30));
                continue;
            }
            ("gtp-resign", "genmove") => "= resign\n",
            ("gtp-resign", _) => "=\n",
            (_, "quit") => return,
            _ => continue,
        };
        println!("{answer}");
    }
}

fn main() {
    let start = Instant::now();
    let (mut mode, mut game, mut rest) = (String::new(), String::from("nogo"), Vec::new());
    let mut sleep = Duration::from_millis(300);
    let mut argv = std::env::args().skip(1);
    while let Some(arg) = argv.next() {
        match arg.as_str() {
            "--mode" => mode = argv.next().unwrap_or_default(),
            "--game" => game = argv.next().unwrap_or_default(),
            "--sleep-ms" => sleep = Duration::from_millis(argv.next().and_then(|ms| ms.parse().ok()).unwrap_or(300)),
            _ => rest.push(arg),
        }
    }
    let game = GameName::from_str(&game, false).unwrap_or(GameName::Nogo);
    let stdin = std::io::stdin();
    match mode.as_str() {
        "random" | "slow" => {
            if mode == "slow" {
                std::thread::sleep(sleep);
            }
            with_game!(game, G => random_bot::<G>(start, &rest, &mut stdin.lock()))
        }
        "slow-first" => {
            // The whole turn is read first (so this bot answers afresh only) to see whether
            // it is the first: a JSON history with no responses yet.
            let mut input = String::new();
            stdin.lock().read_to_string(&mut input).expect("input");
            if input.replace(' ', "").contains("\"responses\":[]") {
                std::thread::sleep(sleep);
            }
            with_game!(game, G => random_bot::<G>(start, &rest, &mut input.as_bytes()))
        }
        "hog" => {
            let hoard = vec![1u8; 128 << 20];
            std::hint::black_box(&hoard);
            with_game!(game, G => random_bot::<G>(start, &rest, &mut stdin.lock()))
        }
        "bare-env" => {
            if std::env::vars_os().next().is_some() {
                std::process::exit(3);
            }
            with_game!(game, G => random_bot::<G>(start, &rest, &mut stdin.lock()))
        }
        "garbage" => println!("hello, judge"),
        "crash" => std::process::exit(3),
        "sleep" => std::thread::sleep(Duration::from_secs(30)),
        "illegal" => {
            let mut line = String::new();
            std::io::stdin().lock().read_line(&mut line).expect("input");
            let input: serde_json::Value = serde_json::from_str(&line).expect("JSON input");
            let last = input["requests"].as_array().and_then(|r| r.last()).cloned().unwrap_or_default();
            let mut echo = last.clone();
            if let Some(o) = echo.as_object_mut() {
                o.remove("pass");
            }
            println!("{}", serde_json::json!({ "response": echo }));
        }
        "uai-pass" | "uai-sleep" | "gtp-resign" => fake_engine(&mode),
        "nopass" => {
            let mut input = String::new();
            std::io::stdin().read_to_string(&mut input).expect("input");
            never_passes::<dots::Position>(&input);
        }
        other => {
            eprintln!("fakebot: unknown mode {other:?}");
            std::process::exit(2)
        }
    }
}
