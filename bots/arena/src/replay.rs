//! `arena replay FILE [--game K]`: shows a logged game move by move on the board.

use crate::games::GameName;
use crate::with_game;
use botzone_games::botzone::{BotzoneGame, Transcript};
use clap::ValueEnum;
use serde_json::Value;
use std::fmt::Write as _;

/// Finds game `index` (the first game when `None`) in a JSON-lines log and renders it.
pub fn replay(log: &str, index: Option<usize>) -> Result<String, String> {
    let mut seen = 0;
    for (n, line) in log.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).map_err(|e| format!("line {}: not JSON: {e}", n + 1))?;
        let this = record["game"].as_u64().map(|g| g as usize);
        if index.is_none() || this == index {
            let game_type = record["game_type"].as_str().unwrap_or("");
            let game = GameName::from_str(game_type, false)
                .map_err(|_| format!("line {}: unknown game_type {game_type:?}", n + 1))?;
            return with_game!(game, G => render::<G>(&record));
        }
        seen += 1;
    }
    Err(match index {
        Some(k) => format!("no game {k} in the log ({seen} games)"),
        None => "the log holds no game".into(),
    })
}

fn render<G: BotzoneGame>(record: &Value) -> Result<String, String> {
    let mut out = String::new();
    let players = &record["players"];
    let _ = writeln!(
        out,
        "game {} of {}: first {} vs second {}",
        record["game"],
        G::NAME,
        players["first"],
        players["second"]
    );
    let mut t = Transcript::<G>::new();
    let opening = record["opening"].as_array().cloned().unwrap_or_default();
    for mv in &opening {
        let mv = G::parse_json_move(mv)?.ok_or("a pass in the opening")?;
        while t.must_pass() {
            t.answer(None)?;
        }
        t.answer(Some(mv))?;
    }
    let _ = writeln!(out, "after the {}-move opening:\n{}\n", opening.len(), t.game());
    for (k, turn) in record["moves"].as_array().cloned().unwrap_or_default().iter().enumerate() {
        let by = turn["by"].as_str().unwrap_or("?");
        if turn["move"].is_null() {
            let _ = writeln!(out, "turn {k}: {by} faulted ({} ms)", turn["ms"]);
            continue;
        }
        let mv = G::parse_json_move(&turn["move"])?;
        t.answer(mv)?;
        if mv.is_none() {
            let _ = writeln!(out, "turn {k}: {by} passes");
            continue;
        }
        let _ = writeln!(out, "turn {k}: {by} plays {} ({} ms)\n{}\n", turn["move"], turn["ms"], t.game());
    }
    // The rules say why a game ended (older logs say only "game over"); a fault, the log.
    let reason = t.game().end_reason().unwrap_or_else(|| record["reason"].as_str().unwrap_or("").to_string());
    let _ = writeln!(out, "result: {} ({reason})", record["result"]);
    Ok(out)
}
