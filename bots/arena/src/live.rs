//! The games under way of a logged match, so that `arena serve` can follow them move by
//! move: beside `--log games.jsonl` the judge keeps `games.live.jsonl`, one line per game
//! being played (the log's format, no result yet), rewritten after every turn and removed
//! when the match ends. A game leaves it once its line is in the log.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The live file beside a log: `games.jsonl` -> `games.live.jsonl` (other names get
/// `.live.jsonl` appended).
pub fn live_path(log: &Path) -> PathBuf {
    let name = log.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".jsonl").unwrap_or(&name);
    log.with_file_name(format!("{stem}.live.jsonl"))
}

pub fn is_live(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".live.jsonl"))
}

pub struct LiveLog {
    path: PathBuf,
    games: Mutex<BTreeMap<usize, String>>,
}

impl LiveLog {
    pub fn beside(log: &Path) -> LiveLog {
        LiveLog { path: live_path(log), games: Mutex::new(BTreeMap::new()) }
    }

    /// Game `index`'s line as it stands (`None`: it is over).
    pub fn update(&self, index: usize, line: Option<String>) {
        let mut games = self.games.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match line {
            Some(line) => games.insert(index, line),
            None => games.remove(&index),
        };
        // Written whole to a temporary file and renamed: a reader never sees half a line.
        // Failing to write it costs the viewer a move, never the match.
        let text: String = games.values().map(|l| format!("{l}\n")).collect();
        let tmp = self.path.with_extension("tmp");
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, &self.path);
        }
    }

    /// The match is over: no game is under way.
    pub fn close(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_file_sits_beside_the_log_and_holds_the_games_under_way() {
        assert_eq!(live_path(Path::new("runs/games.jsonl")), Path::new("runs/games.live.jsonl"));
        assert_eq!(live_path(Path::new("games.log")), Path::new("games.log.live.jsonl"));
        assert!(is_live(Path::new("runs/games.live.jsonl")) && !is_live(Path::new("runs/games.jsonl")));
        let dir = std::env::temp_dir().join(format!("arena-live-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let live = LiveLog::beside(&dir.join("m.jsonl"));
        live.update(3, Some("three".into()));
        live.update(1, Some("one".into()));
        live.update(3, Some("three'".into()));
        assert_eq!(std::fs::read_to_string(dir.join("m.live.jsonl")).unwrap(), "one\nthree'\n");
        live.update(1, None);
        assert_eq!(std::fs::read_to_string(dir.join("m.live.jsonl")).unwrap(), "three'\n");
        live.close();
        assert!(!dir.join("m.live.jsonl").exists());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
