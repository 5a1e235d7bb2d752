//! The match logs the page replays: `--log` files and folders (every `*.jsonl` in them),
//! read again on each request so that a log a running match is writing shows its new games.
//! A line that is not a logged game is named (file, line) and skipped, never fatal.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// One logged game: where it is and its record (the arena's JSON line).
#[derive(Debug, Clone)]
pub struct LoggedGame {
    pub file: PathBuf,
    /// 1-based, as an editor shows it.
    pub line: usize,
    pub record: Value,
}

/// A line (or a whole file) that could not be read as a game, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub file: PathBuf,
    /// 0 when the file itself could not be read.
    pub line: usize,
    pub error: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.file.display(), self.error),
            n => write!(f, "{} line {n}: {}", self.file.display(), self.error),
        }
    }
}

#[derive(Debug, Default)]
pub struct Logs {
    pub games: Vec<LoggedGame>,
    pub skipped: Vec<Skipped>,
}

/// The log files named by `paths`: files as given, folders as their `*.jsonl` files (sorted).
pub fn log_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            inside.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
            // The games under way of a match writing this log (see `crate::live`).
            let live = crate::live::live_path(path);
            if !crate::live::is_live(path) && live.is_file() {
                files.push(live);
            }
        }
    }
    files
}

/// Reads every game in `paths`.
pub fn load(paths: &[PathBuf]) -> Logs {
    let mut logs = Logs::default();
    for file in log_files(paths) {
        match std::fs::read_to_string(&file) {
            Ok(text) => read_log(&file, &text, &mut logs),
            Err(e) => logs.skipped.push(Skipped { file, line: 0, error: format!("cannot read: {e}") }),
        }
    }
    logs
}

/// The games in one log's text; the last line may be one a running match is still writing.
pub fn read_log(file: &Path, text: &str, logs: &mut Logs) {
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let skip = |error: String| Skipped { file: file.to_path_buf(), line: n + 1, error };
        match serde_json::from_str::<Value>(line) {
            Ok(record) if record["game_type"].is_string() && record["moves"].is_array() => {
                logs.games.push(LoggedGame { file: file.to_path_buf(), line: n + 1, record })
            }
            Ok(_) => logs.skipped.push(skip("not a logged game (no game_type or moves)".into())),
            Err(e) => logs.skipped.push(skip(format!("not JSON: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_named_and_skipped() {
        let mut logs = Logs::default();
        let text = "{\"game\":0,\"game_type\":\"dots\",\"moves\":[]}\n\nnot json\n{\"game\":1}\n";
        read_log(Path::new("m.jsonl"), text, &mut logs);
        assert_eq!(logs.games.len(), 1);
        assert_eq!(logs.games[0].line, 1);
        let named: Vec<String> = logs.skipped.iter().map(|s| s.to_string()).collect();
        assert_eq!(named.len(), 2);
        assert!(named[0].starts_with("m.jsonl line 3: not JSON"), "{named:?}");
        assert!(named[1].starts_with("m.jsonl line 4: not a logged game"), "{named:?}");
    }

    #[test]
    fn folders_give_their_jsonl_files_and_missing_files_are_named() {
        let dir = std::env::temp_dir().join(format!("arena-logs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("b.jsonl"), "{\"game_type\":\"nogo\",\"moves\":[]}\n").unwrap();
        std::fs::write(dir.join("a.jsonl"), "").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        let files = log_files(std::slice::from_ref(&dir));
        assert_eq!(files, vec![dir.join("a.jsonl"), dir.join("b.jsonl")]);
        // A log given by name brings its live sibling (games under way), once.
        std::fs::write(dir.join("b.live.jsonl"), "{\"game_type\":\"nogo\",\"moves\":[]}\n").unwrap();
        assert_eq!(log_files(&[dir.join("b.jsonl")]), vec![dir.join("b.jsonl"), dir.join("b.live.jsonl")]);
        assert_eq!(log_files(&[dir.join("b.live.jsonl")]), vec![dir.join("b.live.jsonl")]);
        std::fs::remove_file(dir.join("b.live.jsonl")).unwrap();
        let logs = load(&[dir.clone(), dir.join("gone.jsonl")]);
        assert_eq!(logs.games.len(), 1);
        assert_eq!(logs.skipped.len(), 1);
        assert!(logs.skipped[0].to_string().contains("gone.jsonl: cannot read"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
