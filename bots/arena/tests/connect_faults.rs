//! The connector under faults, against a mock Botzone: a bot that hangs is replaced in
//! time, matches are answered at the same time, a refused secret ends the run with a clear
//! message, the secret is never printed, an unusable match id is skipped, and a server
//! that answers at once is not flooded.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const CONNECT: &str = env!("CARGO_BIN_EXE_connect");
const FAKE: &str = env!("CARGO_BIN_EXE_fakebot");
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

fn connect(port: u16, bot: &str, extra: &[&str]) -> Output {
    Command::new(CONNECT)
        .args(["--game", "nogo", "--user", "u", "--secret", SECRET, "--bot", bot, "--time-ms", "500"])
        .args(["--server", &format!("http://127.0.0.1:{port}")])
        .args(extra)
        .output()
        .expect("connect runs")
}

const NEW_MATCH: &str = "{\"x\":-1,\"y\":-1}";

#[test]
fn a_hung_bot_is_replaced_within_the_limit() {
    let (port, mock) = mock(vec![(200, format!("1 0\n1\n{NEW_MATCH}\n"))], 2);
    let out = connect(port, &format!("{FAKE} --mode sleep"), &["--max-polls", "2"]);
    assert!(out.status.success());
    let polls = mock.join().unwrap();
    let (poll, asked_at) = &polls[1];
    assert_eq!(poll.answers.len(), 1, "a substitute answer");
    // The first turn's limit is twice 500 ms; the substitute must come within it.
    let took = poll.at - *asked_at;
    assert!(took < Duration::from_millis(1300), "{took:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("timeout"), "{stderr}");
}

#[test]
fn matches_are_answered_at_the_same_time() {
    let body = format!("3 0\n1\n{NEW_MATCH}\n2\n{NEW_MATCH}\n3\n{NEW_MATCH}\n");
    let (port, mock) = mock(vec![(200, body)], 2);
    let out = connect(port, &format!("{FAKE} --mode slow --game nogo"), &["--max-polls", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let polls = mock.join().unwrap();
    let (poll, asked_at) = &polls[1];
    assert_eq!(poll.answers.len(), 3);
    // Each bot takes 300 ms: one after another would be 900 ms.
    let took = poll.at - *asked_at;
    assert!(took < Duration::from_millis(700), "{took:?}");
}

#[test]
fn a_refused_secret_ends_the_run_without_showing_it() {
    let (port, mock) = mock(vec![(403, "forbidden".into())], 1);
    let start = Instant::now();
    let out = connect(port, &format!("{FAKE} --mode random"), &[]);
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
    let out = connect(port, &format!("{FAKE} --mode random"), &["--max-polls", "1"]);
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
    let out = connect(port, &format!("{FAKE} --mode random --game nogo"), &["--max-polls", "3"]);
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
    let out = connect(port, &format!("{FAKE} --mode random"), &["--max-polls", "8"]);
    assert!(out.status.success());
    // Eight polls at least 200 ms apart.
    assert!(start.elapsed() >= Duration::from_millis(1400), "{:?}", start.elapsed());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("not the local-AI protocol").count(), 3, "{stderr}");
    let polls = mock.join().unwrap();
    assert_eq!(polls.len(), 8);
}
