//! `arena summary`: matches read back from their logs. Several runs of one setting add up
//! as one match counts its games (pairs within each log, so the interval stays the paired
//! one), and `--versus` compares them game by game with other logs played from the same
//! openings: how many games A did better or worse in, and a sign test of those counts.

use crate::games::GameName;
use crate::judge::GameRecord;
use crate::tournament::{Standing, Summary};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;

/// The finished games of a set of logs, each with the number of its log in the set.
pub struct LoggedMatches {
    pub game: GameName,
    pub games: Vec<(usize, GameRecord)>,
}

impl LoggedMatches {
    /// Reads every line of `paths`; a line that is not a finished game's record, or a log of
    /// another game than the first line's, is an error that names its file and line.
    pub fn read(paths: &[PathBuf]) -> Result<LoggedMatches, String> {
        let mut game = None;
        let mut games = Vec::new();
        for (source, path) in paths.iter().enumerate() {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let at = |e: String| format!("{} line {}: {e}", path.display(), n + 1);
                let value: Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
                let name = value["game_type"].as_str().and_then(GameName::from_name);
                let name = name.ok_or_else(|| at(format!("game_type {} is not a game", value["game_type"])))?;
                if *game.get_or_insert(name) != name {
                    return Err(at(format!("a game of {}, not {}", name.name(), game.map_or("", |g| g.name()))));
                }
                games.push((source, GameRecord::from_json(&value).map_err(at)?));
            }
        }
        let game = game.ok_or("the logs hold no game")?;
        Ok(LoggedMatches { game, games })
    }

    /// The summary a match of all these games would print (no steal figure: the logs keep
    /// each game's share, not the machine's).
    pub fn summary(&self) -> Summary {
        let mut standing = Standing::default();
        for (source, record) in &self.games {
            standing.add(record, *source);
        }
        standing.summary(self.game.name())
    }

    /// Each game's score for A, by its opening and A's colour: where both sets of logs
    /// played that game.
    fn scores_by_game(&self) -> HashMap<(String, bool), Vec<f64>> {
        let mut scores: HashMap<(String, bool), Vec<f64>> = HashMap::new();
        for (_, record) in &self.games {
            let opening = Value::Array(record.opening.clone()).to_string();
            scores.entry((opening, record.a_first)).or_default().push(record.score_a());
        }
        scores
    }

    /// Game by game against `other` (the same openings, the same colours): games A scored
    /// more in here, less, or the same. An opening played several times with A on one side
    /// pairs its games in the order the logs hold them.
    pub fn compare(&self, other: &LoggedMatches) -> Comparison {
        let theirs = other.scores_by_game();
        let mut c = Comparison::default();
        for (key, ours) in self.scores_by_game() {
            let there = theirs.get(&key).map_or(&[][..], Vec::as_slice);
            for (k, &here) in ours.iter().enumerate() {
                match there.get(k) {
                    None => c.unmatched += 1,
                    Some(&then) if here > then => c.better += 1,
                    Some(&then) if here < then => c.worse += 1,
                    Some(_) => c.same += 1,
                }
            }
        }
        c
    }
}

/// How the games of one set of logs compare with the same games in another.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Comparison {
    pub better: u32,
    pub worse: u32,
    pub same: u32,
    /// Games with no counterpart in the other logs.
    pub unmatched: u32,
}

impl Comparison {
    /// The two-sided sign test: the chance of a split at least this uneven between the
    /// games that differ if either way were as likely (1 where none differ).
    pub fn sign_test_p(&self) -> f64 {
        let n = self.better + self.worse;
        let k = self.better.min(self.worse);
        // ln C(n, i), walked up from C(n, 0) = 1.
        let mut ln_choose = 0.0;
        let mut tail = 0.0;
        for i in 0..=k {
            if i > 0 {
                ln_choose += f64::from(n - i + 1).ln() - f64::from(i).ln();
            }
            tail += (ln_choose - f64::from(n) * std::f64::consts::LN_2).exp();
        }
        (2.0 * tail).min(1.0)
    }

    pub fn to_text(&self) -> String {
        format!(
            "game by game on the same openings and colours: {} better, {} worse, {} the same \
             (sign test p = {:.3}); {} games not in the other logs\n",
            self.better,
            self.worse,
            self.same,
            self.sign_test_p(),
            self.unmatched
        )
    }

    pub fn to_json(&self) -> Value {
        json!({
            "better": self.better,
            "worse": self.worse,
            "same": self.same,
            "unmatched": self.unmatched,
            "sign_test_p": self.sign_test_p(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_test_is_the_binomial_tail_twice() {
        let c = |better, worse| Comparison { better, worse, ..Comparison::default() };
        // 9 against 1: P(X <= 1) = 11/1024, both tails 22/1024.
        assert!((c(9, 1).sign_test_p() - 22.0 / 1024.0).abs() < 1e-12);
        assert!((c(1, 9).sign_test_p() - 22.0 / 1024.0).abs() < 1e-12);
        assert_eq!(c(5, 5).sign_test_p(), 1.0);
        assert_eq!(c(0, 0).sign_test_p(), 1.0);
        // 27 against 10 (the LMR pair's games at 1000 ms): about 0.008.
        let p = c(27, 10).sign_test_p();
        assert!(p > 0.005 && p < 0.01, "{p}");
    }
}
