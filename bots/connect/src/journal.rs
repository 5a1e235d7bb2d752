//! The connector's journal: each running match's history on disk, so that a restarted
//! connector resumes its matches instead of taking a mid-game request for a new game.
//!
//! One file per match, `<dir>/<game>-<match id>.json`, rewritten atomically (a temporary
//! file, synced, then renamed over the old one) after every answer and removed when the
//! match ends. It holds the history including our last answer, the match's form (JSON or
//! simplified) and the request that answer was for.

use arena::games::ArenaGame;
use botzone_games::botzone::{Format, Match};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the journal lives; `None` keeps nothing on disk.
#[derive(Debug, Clone)]
pub struct Journal {
    dir: Option<PathBuf>,
}

/// A match picked up again from its journal.
#[derive(Debug)]
pub struct Resumed<G: ArenaGame> {
    /// The history up to and including our last answer.
    pub history: Match<G>,
    /// Set when the request is the one our last answer was for: the server never got that
    /// answer (the connector stopped before sending it), so it goes again unchanged.
    pub resend: Option<String>,
}

impl Journal {
    pub fn new(dir: Option<PathBuf>) -> Journal {
        Journal { dir }
    }

    /// The file of match `id`; none for an id that is not plain letters, digits, `-` and
    /// `_` (Botzone's are hex), so that no id can name a path outside the folder.
    fn path<G: ArenaGame>(&self, id: &str) -> Option<PathBuf> {
        let plain = !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        self.dir.as_ref().filter(|_| plain).map(|d| d.join(format!("{}-{id}.json", G::BOTZONE_NAME)))
    }

    /// Records `history` (ending with our answer to `request`) for match `id`.
    pub fn save<G: ArenaGame>(&self, id: &str, history: &Match<G>, request: &str) -> Result<(), String> {
        let Some(path) = self.path::<G>(id) else { return Ok(()) };
        let record = json!({
            "game": G::BOTZONE_NAME,
            "format": match history.format { Format::Json => "json", Format::Simple => "simple" },
            "history": history.history_json(),
            "request": request.trim(),
        });
        write_atomically(&path, record.to_string().as_bytes())
            .map_err(|e| format!("cannot write the journal {}: {e}", path.display()))
    }

    /// Forgets match `id` (it has ended).
    pub fn remove<G: ArenaGame>(&self, id: &str) {
        if let Some(path) = self.path::<G>(id) {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Match `id` as its journal left it, checked against this `request`: `Ok(None)` when
    /// there is no journal (a new match), an error when the journal cannot be read or does
    /// not fit the request (the match cannot be rebuilt).
    pub fn resume<G: ArenaGame>(&self, id: &str, request: &str) -> Result<Option<Resumed<G>>, String> {
        let Some(path) = self.path::<G>(id) else { return Ok(None) };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read the journal {}: {e}", path.display())),
        };
        let broken = |why: String| format!("the journal {} {why}", path.display());
        let record: Value = serde_json::from_str(&text).map_err(|e| broken(format!("is not JSON: {e}")))?;
        let (history, resend) = replay::<G>(&record).map_err(broken)?;
        if history.clone().apply_line(request).is_ok() {
            return Ok(Some(Resumed { history, resend: None }));
        }
        if record["request"].as_str() == Some(request.trim()) {
            return Ok(Some(Resumed { history, resend: Some(resend) }));
        }
        Err(broken(format!("does not fit the request {request:?}: neither the next request nor the last one answered")))
    }
}

/// The match a journal record describes, rebuilt with every move checked, and our last
/// answer in the match's form.
fn replay<G: ArenaGame>(record: &Value) -> Result<(Match<G>, String), String> {
    if record["game"].as_str() != Some(G::BOTZONE_NAME) {
        return Err(format!("is for {}, not {}", record["game"], G::BOTZONE_NAME));
    }
    let format = match record["format"].as_str() {
        Some("json") => Format::Json,
        Some("simple") => Format::Simple,
        other => return Err(format!("has no usable format ({other:?})")),
    };
    let requests = record["history"]["requests"].as_array().ok_or("has no requests")?;
    let responses = record["history"]["responses"].as_array().ok_or("has no responses")?;
    let Some((last, earlier)) = responses.split_last() else { return Err("has no answer".into()) };
    if requests.len() != responses.len() {
        return Err(format!("has {} requests for {} answers", requests.len(), responses.len()));
    }
    let before = json!({"requests": requests, "responses": earlier}).to_string();
    let mut history = Match::<G>::from_text(&before).map_err(|e| format!("does not replay: {e}"))?;
    history.format = format;
    let answer = G::parse_json_move(last).map_err(|e| format!("ends with an unreadable answer: {e}"))?;
    history.apply_response(answer).map_err(|e| format!("ends with an answer that does not fit: {e}"))?;
    let sent = match format {
        Format::Json => G::json_move(answer).to_string(),
        Format::Simple => G::simple_move(answer),
    };
    Ok((history, sent))
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = path.with_extension("json.tmp");
    let mut file = std::fs::File::create(&temporary)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::botzone::BotzoneGame;
    use botzone_games::nogo::Position;

    fn temporary_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("journal-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// We are black, and our first answer, (2,3), is in the history.
    fn black_after_first_answer() -> Match<Position> {
        let mut m = Match::<Position>::from_text("{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}").unwrap();
        m.apply_response(Position::parse_json_move(&json!({"x": 2, "y": 3})).unwrap()).unwrap();
        m
    }

    /// A journal in a fresh folder holding match m1 as [`black_after_first_answer`] left
    /// it, answered for `request`.
    fn journal_of_m1(name: &str, request: &str) -> (PathBuf, Journal) {
        let dir = temporary_dir(name);
        let journal = Journal::new(Some(dir.clone()));
        journal.save("m1", &black_after_first_answer(), request).unwrap();
        (dir, journal)
    }

    #[test]
    fn a_saved_match_resumes_on_its_next_request() {
        let (dir, journal) = journal_of_m1("next", "{\"x\":-1,\"y\":-1}");
        let resumed = journal.resume::<Position>("m1", "{\"x\":5,\"y\":5}").unwrap().expect("a journal");
        assert!(resumed.resend.is_none());
        assert_eq!(resumed.history.moves.len(), 1);
        let mut m = resumed.history;
        m.apply_line("{\"x\":5,\"y\":5}").unwrap();
        assert_eq!(m.moves.len(), 2);
        assert_eq!(m.us, botzone_games::game::Player::First);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_request_already_answered_gets_the_same_answer_again() {
        let (dir, journal) = journal_of_m1("again", " {\"x\":-1,\"y\":-1}\n");
        let resumed = journal.resume::<Position>("m1", "{\"x\":-1,\"y\":-1}").unwrap().expect("a journal");
        assert_eq!(resumed.resend.as_deref(), Some("{\"x\":2,\"y\":3}"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_request_that_fits_nothing_is_refused_and_a_removed_match_is_new() {
        let (dir, journal) = journal_of_m1("misfit", "{\"x\":-1,\"y\":-1}");
        // White cannot play on our stone.
        let e = journal.resume::<Position>("m1", "{\"x\":2,\"y\":3}").unwrap_err();
        assert!(e.contains("does not fit"), "{e}");
        // Another game's journal is not this one's.
        assert!(journal.resume::<botzone_games::ataxx::Position>("m1", "{}").unwrap().is_none());
        journal.remove::<Position>("m1");
        assert!(journal.resume::<Position>("m1", "{\"x\":5,\"y\":5}").unwrap().is_none());
        assert!(Journal::new(None).resume::<Position>("m1", "{\"x\":5,\"y\":5}").unwrap().is_none());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_id_that_could_name_another_path_gets_no_journal() {
        let dir = temporary_dir("ids");
        let journal = Journal::new(Some(dir.join("inner")));
        std::fs::create_dir_all(dir.join("inner")).unwrap();
        let outside = dir.join("NoGo-x.json");
        std::fs::write(&outside, "keep me").unwrap();
        for id in ["a/../../NoGo-x", "../x", "a/b", ".", ""] {
            journal.save(id, &black_after_first_answer(), "{\"x\":-1,\"y\":-1}").unwrap();
            journal.remove::<Position>(id);
            assert!(journal.resume::<Position>(id, "{\"x\":5,\"y\":5}").unwrap().is_none());
        }
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
        assert_eq!(std::fs::read_dir(dir.join("inner")).unwrap().count(), 0);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_damaged_journal_is_reported() {
        let dir = temporary_dir("damaged");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("NoGo-m1.json"), "{\"game\":\"NoGo\",\"history\":").unwrap();
        let e = Journal::new(Some(dir.clone())).resume::<Position>("m1", "{\"x\":5,\"y\":5}").unwrap_err();
        assert!(e.contains("is not JSON"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
