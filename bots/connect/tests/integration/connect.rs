//! The local-AI connector against a mock Botzone on 127.0.0.1 that speaks the documented
//! protocol: two concurrent matches (JSON and simplified requests), a server error, a slow
//! reply, a finished and an aborted match.

use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use crate::common::fakebot;

const CONNECT: &str = env!("CARGO_BIN_EXE_connect");

fn header(req: &tiny_http::Request, name: &str) -> Option<String> {
    req.headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str().to_string())
}

#[test]
fn connector_answers_concurrent_matches_and_survives_errors() {
    let server = tiny_http::Server::http("127.0.0.1:0").expect("bind");
    let port = server.server_addr().to_ip().expect("ip").port();
    let (tx, rx) = mpsc::channel::<(String, Option<String>, Option<String>)>();
    let mock = std::thread::spawn(move || {
        for poll in 0..4 {
            let req = server.recv().expect("a poll");
            let url = req.url().to_string();
            tx.send((url, header(&req, "X-Match-1"), header(&req, "X-Match-2"))).unwrap();
            let body = match poll {
                // Two new matches, we move first in both; match 2 uses simplified interaction.
                0 => "2 0\n1\n{\"x\":-1,\"y\":-1}\n2\n-1 -1\n".to_string(),
                1 => {
                    let _ = req.respond(tiny_http::Response::from_string("busy").with_status_code(500));
                    continue;
                }
                // Slow reply: white answers in match 1; match 2 finished; match 7 aborted.
                2 => {
                    std::thread::sleep(Duration::from_millis(800));
                    "1 2\n1\n{\"x\":8,\"y\":8}\n2 0 2 2 0\n7 1 0\n".to_string()
                }
                _ => "0 0\n".to_string(),
            };
            let _ = req.respond(tiny_http::Response::from_string(body));
        }
    });
    // A fixed seed: the random bot's first move must not be (8,8), where the mock's scripted
    // opponent answers (an unseeded bot played it about one time in ten).
    let bot = format!("{} --mode random --game nogo --seed 1", fakebot());
    let journal = std::env::temp_dir().join(format!("connect-journal-concurrent-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&journal);
    let status = Command::new(CONNECT)
        .args([
            "--game",
            "nogo",
            "--user",
            "u1",
            "--secret",
            "s1",
            "--bot",
            &bot,
            "--time-ms",
            "2000",
            "--max-polls",
            "3",
            "--journal",
            journal.to_str().unwrap(),
        ])
        .args(["--server", &format!("http://127.0.0.1:{port}")])
        .status()
        .expect("connect runs");
    assert!(status.success());
    mock.join().unwrap();
    let polls: Vec<_> = rx.try_iter().collect();
    assert_eq!(polls.len(), 4);
    assert!(polls.iter().all(|(url, _, _)| url == "/api/u1/s1/localai"));
    assert_eq!(polls[0].1, None, "nothing to answer on the first poll");
    // Poll 2 carries both answers, each in its request's form; the failed poll's answers are
    // sent again.
    let json_answer = polls[1].1.clone().expect("answer to match 1");
    let v: serde_json::Value = serde_json::from_str(&json_answer).expect("JSON answer");
    assert!((0..9).contains(&v["x"].as_i64().unwrap()) && (0..9).contains(&v["y"].as_i64().unwrap()));
    let simple = polls[1].2.clone().expect("answer to match 2");
    let fields: Vec<i64> = simple.split_whitespace().map(|f| f.parse().unwrap()).collect();
    assert_eq!(fields.len(), 2, "{simple}");
    assert_eq!(polls[2].1, polls[1].1);
    assert_eq!(polls[2].2, polls[1].2);
    // Poll 4: the second answer in match 1, nothing for the finished match 2.
    let second: serde_json::Value = serde_json::from_str(&polls[3].1.clone().expect("turn 2 answer")).unwrap();
    assert_ne!(second, v);
    assert_ne!(second, serde_json::json!({"x": 8, "y": 8}));
    assert_eq!(polls[3].2, None);
    // The journal keeps the running match and forgets the finished one.
    assert!(journal.join("NoGo-1.json").exists());
    assert!(!journal.join("NoGo-2.json").exists());
    let _ = std::fs::remove_dir_all(journal);
}

/// A whole game through the connector: the mock plays the platform and a random opponent
/// with the shared rules, and checks every answer the connector sends.
fn whole_game<G: botzone_games::botzone::BotzoneGame>(game: &str) {
    use botzone_games::botzone::Transcript;
    use botzone_games::game::Player;
    let server = tiny_http::Server::http("127.0.0.1:0").expect("bind");
    let port = server.server_addr().to_ip().expect("ip").port();
    // Seeded, so that the game is the same every run (an unseeded random bot sometimes
    // ended an Ataxx game in 6 answers, under the 10 asked for below).
    let bot = format!("{} --mode random --game {game} --seed 7", fakebot());
    let mut child = Command::new(CONNECT)
        .args(["--game", game, "--user", "u", "--secret", "s", "--bot", &bot, "--time-ms", "2000", "--no-journal"])
        // The mock answers at once: a poll each 200 ms (Botzone's pace) would make a game
        // take most of a minute.
        .args(["--min-poll-ms", "10"])
        .args(["--server", &format!("http://127.0.0.1:{port}")])
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("connect runs");
    let mut t = Transcript::<G>::new();
    let mut rng = fastrand::Rng::with_seed(5);
    let mut moves = Vec::new();
    let mut awaiting = false;
    let mut answers = 0;
    loop {
        let req = server.recv_timeout(Duration::from_secs(20)).expect("poll").expect("a poll in time");
        if awaiting {
            let a = header(&req, "X-Match-1").expect("an answer to the pending request");
            let mv = G::parse_json_move(&serde_json::from_str(&a).expect("JSON answer")).expect("a move form");
            t.answer(mv).expect("the connector's answer is legal");
            answers += 1;
        }
        // The opponent (second player) moves, or passes when it must.
        while t.game().outcome().is_none() && t.asked() == Player::Second {
            if t.must_pass() {
                t.answer(None).unwrap();
            } else {
                t.game().legal_moves(&mut moves);
                t.answer(Some(moves[rng.usize(..moves.len())])).unwrap();
            }
        }
        let body = if t.game().outcome().is_none() {
            awaiting = true;
            format!("1 0\n1\n{}\n", t.last_request())
        } else {
            let _ = req.respond(tiny_http::Response::from_string("0 1\n1 0 2 1 0\n"));
            break;
        };
        let _ = req.respond(tiny_http::Response::from_string(body));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(t.game().outcome().is_some());
    assert!(answers >= 10, "{answers} answers");
}

#[test]
fn whole_ataxx_game_through_the_connector() {
    whole_game::<botzone_games::ataxx::Position>("ataxx");
}

#[test]
fn whole_nogo_game_through_the_connector() {
    whole_game::<botzone_games::nogo::Position>("nogo");
}

#[test]
fn whole_pencil_game_with_passes_through_the_connector() {
    whole_game::<botzone_games::dots::Position>("dots");
}
