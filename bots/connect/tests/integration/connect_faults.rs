//! The connector under faults, against a mock Botzone: a bot that hangs is replaced in
//! time, matches are answered at the same time, a refused secret ends the run with a clear
//! message, the secret is never printed, an unusable match id is skipped, a server
//! that answers at once is not flooded, and a restarted connector resumes its matches.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::fakebot;

const CONNECT: &str = env!("CARGO_BIN_EXE_connect");
const SECRET: &str = "s3cr3tKEY";

/// A poll as the mock saw it: when it came and its match headers.
struct Poll {
    at: Instant,
    answers: Vec<(String, String)>,
}

/// A mock that answers poll k with `replies[k]` (status, body), then "0 0" until `stop`
/// polls; returns the polls it saw, each with when it replied to the one before.
fn mock(replies: Vec<(u16, String)>, stop: usize) -> (u16, std::thread::JoinHandle<Vec<(Poll, Instant)>>) {
    let server = tiny_http::Server::http("127.0.0.1:0").expect("bind");
    let port = server.server_addr().to_ip().expect("ip").port();
    let handle = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut replied = Instant::now();
        for k in 0..stop {
            let Ok(Some(req)) = server.recv_timeout(Duration::from_secs(10)) else { break };
            let answers = req
                .headers()
                .iter()
                .filter(|h| h.field.as_str().as_str().to_ascii_lowercase().starts_with("x-match-"))
                .map(|h| (h.field.as_str().as_str()[8..].to_string(), h.value.as_str().to_string()))
                .collect();
            seen.push((Poll { at: Instant::now(), answers }, replied));
            let (status, body) = replies.get(k).cloned().unwrap_or((200, "0 0\n".into()));
            let _ = req.respond(tiny_http::Response::from_string(body).with_status_code(status));
            replied = Instant::now();
        }
        seen
    });
    (port, handle)
}

/// The connector keeps no journal unless `extra` names one: tests run at the same time and
/// reuse match ids. The bot's limit is 2000 ms a turn unless `extra` sets one: a generous
/// limit that a busy machine does not make a bot miss.
fn connect(port: u16, bot: &str, extra: &[&str]) -> Output {
    let journal: &[&str] = if extra.contains(&"--journal") { &[] } else { &["--no-journal"] };
    let limit: &[&str] = if extra.contains(&"--time-ms") { &[] } else { &["--time-ms", "2000"] };
    Command::new(CONNECT)
        .args(["--game", "nogo", "--user", "u", "--secret", SECRET, "--bot", bot])
        .args(limit)
        .args(["--server", &format!("http://127.0.0.1:{port}")])
        .args(extra)
        .args(journal)
        .output()
        .expect("connect runs")
}

const NEW_MATCH: &str = "{\"x\":-1,\"y\":-1}";

#[test]
fn a_hung_bot_is_replaced_within_the_limit() {
    let (port, mock) = mock(vec![(200, format!("1 0\n1\n{NEW_MATCH}\n"))], 2);
    let out = connect(port, &format!("{} --mode sleep", fakebot()), &["--max-polls", "2", "--time-ms", "500"]);
    assert!(out.status.success());
    let polls = mock.join().unwrap();
    let (poll, asked_at) = &polls[1];
    assert_eq!(poll.answers.len(), 1, "a substitute answer");
    // The bot would sleep 30 s: the substitute comes at the first turn's limit (twice 500
    // ms), not then. How close to the limit it comes is a timing figure for a quiet
    // machine, not a test's: here, only that the connector did not wait for the bot.
    let took = poll.at - *asked_at;
    assert!(took < Duration::from_secs(10), "{took:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("timeout"), "{stderr}");
}

#[test]
fn matches_are_answered_at_the_same_time() {
    let body = format!("3 0\n1\n{NEW_MATCH}\n2\n{NEW_MATCH}\n3\n{NEW_MATCH}\n");
    let (port, mock) = mock(vec![(200, body)], 2);
    let out = connect(port, &format!("{} --mode slow --game nogo", fakebot()), &["--max-polls", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let polls = mock.join().unwrap();
    let (poll, asked_at) = &polls[1];
    assert_eq!(poll.answers.len(), 3);
    // Each bot sleeps 300 ms: one after another could not take under 900 ms, however
    // quiet the machine.
    let took = poll.at - *asked_at;
    assert!(took < Duration::from_millis(900), "{took:?}");
}

#[test]
fn a_refused_secret_ends_the_run_without_showing_it() {
    let (port, mock) = mock(vec![(403, "forbidden".into())], 1);
    let start = Instant::now();
    let out = connect(port, &format!("{} --mode random", fakebot()), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(start.elapsed() < Duration::from_secs(5));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("403") && stderr.contains("--secret"), "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    mock.join().unwrap();
}

#[test]
fn server_errors_are_retried_without_showing_the_secret() {
    let (port, mock) = mock(vec![(500, "oops".into()), (502, "oops".into())], 3);
    let out = connect(port, &format!("{} --mode random", fakebot()), &["--max-polls", "1"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.matches("poll failed").count() == 2, "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
    mock.join().unwrap();
}

#[test]
fn a_server_that_is_down_is_retried_and_its_url_shown_without_the_secret() {
    // A port nothing listens on: the transport error names the URL, secret included.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = Command::new(CONNECT)
        .args(["--game", "nogo", "--user", "u", "--secret", SECRET, "--bot", "true"])
        .args(["--server", &format!("http://127.0.0.1:{port}")])
        .stderr(Stdio::piped())
        .spawn()
        .expect("connect runs");
    std::thread::sleep(Duration::from_millis(1200));
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("poll failed") && stderr.contains("/api/u/<secret>/localai"), "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
}

#[test]
fn an_unusable_match_id_is_skipped_and_the_others_answered() {
    let body = format!("2 0\nbad id:é\n{NEW_MATCH}\n7\n{NEW_MATCH}\n");
    let (port, mock) = mock(vec![(200, body)], 3);
    let out = connect(port, &format!("{} --mode random --game nogo", fakebot()), &["--max-polls", "3"]);
    assert!(out.status.success());
    let polls = mock.join().unwrap();
    assert_eq!(polls.len(), 3, "the connector kept polling");
    let answered: Vec<&str> = polls[1].0.answers.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(answered, ["7"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("match skipped"), "{stderr}");
}

#[test]
fn a_server_that_answers_at_once_is_not_flooded_and_garbage_is_named() {
    let replies = vec![(200, "<html>hello</html>".to_string()); 3];
    let (port, mock) = mock(replies, 8);
    let start = Instant::now();
    let out = connect(port, &format!("{} --mode random", fakebot()), &["--max-polls", "8"]);
    assert!(out.status.success());
    // Eight polls at least 200 ms apart.
    assert!(start.elapsed() >= Duration::from_millis(1400), "{:?}", start.elapsed());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("not the local-AI protocol").count(), 3, "{stderr}");
    let polls = mock.join().unwrap();
    assert_eq!(polls.len(), 8);
}

/// A fresh, empty folder for one test's journal.
fn journal_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("connect-journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_restarted_connector_resumes_its_match_from_the_journal() {
    use botzone_games::botzone::Match;
    use botzone_games::nogo::Position;
    let dir = journal_dir("restart");
    let journal = dir.to_str().unwrap();
    let bot = format!("{} --mode random --game nogo --seed 3", fakebot());
    let first_request = format!("1 0\nm7\n{NEW_MATCH}\n");

    // Run 1 answers the new match and stops before its answer goes out.
    let (port, mock1) = mock(vec![(200, first_request.clone())], 1);
    let out = connect(port, &bot, &["--max-polls", "1", "--journal", journal]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    mock1.join().unwrap();
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("NoGo-m7.json")).expect("a journal")).unwrap();
    let ours = record["history"]["responses"][0].clone();

    // Run 2 is asked the same request again (the server never got the answer): the same
    // answer goes, without asking the bot (this one would crash).
    let crashing = format!("{} --mode crash", fakebot());
    let (port, mock2) = mock(vec![(200, first_request)], 2);
    let out = connect(port, &crashing, &["--max-polls", "2", "--journal", journal]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains("resumed from its journal"), "{stderr}");
    assert!(!stderr.contains("no legal answer"), "the bot was asked: {stderr}");
    let polls = mock2.join().unwrap();
    let again: serde_json::Value = serde_json::from_str(&polls[1].0.answers[0].1).unwrap();
    assert_eq!(again, ours);

    // Run 3 is asked white's move, the match's second request: it answers as black.
    let white = if ours == serde_json::json!({"x": 4, "y": 4}) { "{\"x\":0,\"y\":0}" } else { "{\"x\":4,\"y\":4}" };
    let (port, mock3) = mock(vec![(200, format!("1 0\nm7\n{white}\n"))], 2);
    let out = connect(port, &bot, &["--max-polls", "2", "--journal", journal]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains("resumed from its journal after 1 moves"), "{stderr}");
    let polls = mock3.join().unwrap();
    let next = &polls[1].0.answers.first().expect("an answer to white's move").1;
    let history = format!("{{\"requests\":[{NEW_MATCH},{white}],\"responses\":[{ours}]}}");
    let m = Match::<Position>::from_text(&history).unwrap();
    let mv = <Position as botzone_games::botzone::BotzoneGame>::parse_json_move(&serde_json::from_str(next).unwrap());
    m.check(mv.expect("a move")).expect("black's second move is legal");

    // Run 4 gets a request that fits neither the next turn nor the last one (white on our
    // stone): reported, and no guess is sent.
    let (port, mock4) = mock(vec![(200, format!("1 0\nm7\n{ours}\n"))], 2);
    let out = connect(port, &bot, &["--max-polls", "2", "--journal", journal]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot be rebuilt"), "{stderr}");
    assert!(mock4.join().unwrap()[1].0.answers.is_empty());

    // The match ends: its journal goes.
    let (port, mock5) = mock(vec![(200, "0 1\nm7 0 2 2 0\n".into())], 1);
    assert!(connect(port, &bot, &["--max-polls", "1", "--journal", journal]).status.success());
    mock5.join().unwrap();
    assert!(!dir.join("NoGo-m7.json").exists());
    let _ = std::fs::remove_dir_all(dir);
}
