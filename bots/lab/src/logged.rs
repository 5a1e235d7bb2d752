//! Positions of logged arena games (`arena GAME --log`), for the solver experiments, and
//! the tally those experiments print.

use arena::judge::GameRecord;
use botzone_games::botzone::BotzoneGame;
use botzone_games::game::Game;
use botzone_games::{dots, nogo};

/// Each game of an arena log (`arena GAME --log`): its line number and its moves as
/// Botzone JSON, the opening's first.
pub fn logged_games(log: &std::path::Path) -> Result<Vec<(usize, Vec<serde_json::Value>)>, String> {
    let text = std::fs::read_to_string(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let game: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: line {}: {e}", log.display(), n + 1))?;
        games.push((n + 1, GameRecord::logged_answers(&game)));
    }
    Ok(games)
}

/// How a solver fared on a set of positions, each given the same limit.
#[derive(Default)]
pub struct SolverTally {
    solved: usize,
    times: Vec<f64>,
    nodes: u64,
}

impl SolverTally {
    pub fn add(&mut self, seconds: f64, nodes: u64, solved: bool) {
        self.times.push(seconds);
        self.nodes += nodes;
        self.solved += usize::from(solved);
    }

    /// `limit` says what each position was given, e.g. `10 s` or `500000 nodes`.
    pub fn print(&self, label: &str, limit: &str) {
        let mean = self.times.iter().sum::<f64>() / self.times.len().max(1) as f64;
        let max = self.times.iter().copied().fold(0.0, f64::max);
        let within = |s: f64| self.times.iter().filter(|&&t| t <= s).count();
        println!(
            "{label}: {}/{} solved within {limit} ({} within 0.5 s, {} within 1 s); mean {mean:.3} s, slowest \
             {max:.3} s, {} nodes",
            self.solved,
            self.times.len(),
            within(0.5),
            within(1.0),
            self.nodes
        );
    }
}

/// Each logged game that reaches `undrawn` undrawn edges: its line in the log, the
/// position and the edges drawn to it.
pub fn logged_dots_lines(
    log: &std::path::Path,
    undrawn: u32,
) -> Result<Vec<(usize, dots::Position, Vec<dots::Edge>)>, String> {
    let mut found = Vec::new();
    for (line, moves) in logged_games(log)? {
        let mut p = dots::Position::start();
        let mut drawn = Vec::new();
        for value in moves.iter().filter(|v| !v.is_null()) {
            if 60 - p.drawn_count() == undrawn {
                break;
            }
            let edge = dots::Position::parse_json_move(value).map_err(|e| format!("line {line}: {e}"))?;
            if let Some(e) = edge {
                p.play(e);
                drawn.push(e);
            }
        }
        if 60 - p.drawn_count() == undrawn {
            found.push((line, p, drawn));
        }
    }
    Ok(found)
}

/// Each logged NoGo game as its positions, the start included, every move checked. A game
/// lost by a fault (a late or missing answer, logged as a null move) ends at the position
/// the faulting side was to move in: such a game's last position still has legal points.
pub fn logged_nogo_games(log: &std::path::Path) -> Result<Vec<(usize, Vec<nogo::Position>)>, String> {
    let mut games = Vec::new();
    for (line, moves) in logged_games(log)? {
        let mut positions = vec![nogo::Position::start()];
        for value in moves.iter().take_while(|v| !v.is_null()) {
            let point = nogo::Position::parse_json_move(value).map_err(|e| format!("line {line}: {e}"))?;
            let point = point.ok_or_else(|| format!("line {line}: a pass in a NoGo game"))?;
            let mut p = *positions.last().expect("the start is there");
            p.try_play(point).map_err(|e| format!("line {line}: {e}"))?;
            positions.push(p);
        }
        games.push((line, positions));
    }
    Ok(games)
}

/// The position of each logged NoGo game after `plies` moves (opening included), where
/// the game went on past it.
pub fn logged_nogo_positions(log: &std::path::Path, plies: usize) -> Result<Vec<nogo::Position>, String> {
    let games = logged_nogo_games(log)?;
    Ok(games.into_iter().filter(|(_, positions)| positions.len() > plies + 1).map(|(_, p)| p[plies]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_with(name: &str, lines: &[&str]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("logged-{name}-{}.jsonl", std::process::id()));
        std::fs::write(&path, lines.join("\n")).expect("a temporary file");
        path
    }

    #[test]
    fn a_faulted_nogo_game_ends_where_the_answer_is_missing() {
        let played = r#"{"opening":[{"x":0,"y":0}],"moves":[{"move":{"x":8,"y":8}},{"move":{"x":4,"y":4}}]}"#;
        let faulted = r#"{"opening":[{"x":0,"y":0}],"moves":[{"move":{"x":8,"y":8}},{"move":null}]}"#;
        let path = log_with("faulted", &[played, faulted]);
        let games = logged_nogo_games(&path).expect("both games read");
        std::fs::remove_file(&path).ok();
        assert_eq!(games.iter().map(|(line, p)| (*line, p.len())).collect::<Vec<_>>(), vec![(1, 4), (2, 3)]);
    }

    #[test]
    fn an_illegal_logged_nogo_move_is_an_error_naming_its_line() {
        let twice = r#"{"opening":[{"x":0,"y":0}],"moves":[{"move":{"x":0,"y":0}}]}"#;
        let path = log_with("illegal", &[twice]);
        let error = logged_nogo_games(&path).expect_err("a point played twice");
        std::fs::remove_file(&path).ok();
        assert!(error.starts_with("line 1:"), "{error}");
    }
}
