//! `arena replay FILE [--game K] [--step]`: shows a logged game on the board, all at once
//! or a turn at a time (Enter: next, `b`: back, a number: that turn, `q`: quit), with each
//! answer's time and the bot's debug text (our bots: the search's value), to find the move
//! where a bot's judgement went wrong.

use crate::games::GameName;
use crate::with_game;
use botzone_games::botzone::{BotzoneGame, Transcript};
use serde_json::Value;
use std::fmt::Write as _;
use std::io::{BufRead, Write};

/// A logged game rendered: a heading, the board after the opening, one frame per turn
/// (the answer and the board after it), and the result.
#[derive(Debug)]
pub struct Replay {
    pub heading: String,
    /// Frame 0 is the position after the opening; frame k + 1 follows turn k.
    pub frames: Vec<String>,
    pub result: String,
}

impl Replay {
    /// The whole game as one text.
    pub fn text(&self) -> String {
        let mut out = self.heading.clone();
        for frame in &self.frames {
            out.push_str(frame);
        }
        out.push_str(&self.result);
        out
    }

    /// Shows the game a frame at a time, reading a command after each from `input`; ends
    /// at `q` or the end of the input.
    pub fn step(&self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        write!(output, "{}", self.heading)?;
        let last = self.frames.len() - 1;
        let mut at = 0;
        let mut lines = input.lines();
        loop {
            write!(output, "{}", self.frames[at])?;
            if at == last {
                write!(output, "{}", self.result)?;
            }
            write!(output, "[turn {} of {}] Enter: next, b: back, N: turn N, q: quit > ", at as i64 - 1, last - 1)?;
            output.flush()?;
            let Some(line) = lines.next().transpose()? else { break };
            let command = line.trim();
            at = match command {
                "" | "n" => (at + 1).min(last),
                "b" => at.saturating_sub(1),
                "q" => break,
                number => match number.parse::<usize>() {
                    Ok(turn) if turn < last => turn + 1,
                    _ => {
                        writeln!(output, "not a command: {command:?}")?;
                        at
                    }
                },
            };
        }
        writeln!(output)
    }
}

/// Finds game `index` (the first game when `None`) in a JSON-lines log and renders it.
pub fn replay(log: &str, index: Option<usize>) -> Result<Replay, String> {
    let mut seen = 0;
    for (n, line) in log.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).map_err(|e| format!("line {}: not JSON: {e}", n + 1))?;
        let this = record["game"].as_u64().map(|g| g as usize);
        if index.is_none() || this == index {
            let game_type = record["game_type"].as_str().unwrap_or("");
            let game =
                GameName::from_name(game_type).ok_or(format!("line {}: unknown game_type {game_type:?}", n + 1))?;
            return with_game!(game, G => render::<G>(&record));
        }
        seen += 1;
    }
    Err(match index {
        Some(k) => format!("no game {k} in the log ({seen} games)"),
        None => "the log holds no game".into(),
    })
}

fn render<G: BotzoneGame>(record: &Value) -> Result<Replay, String> {
    let players = &record["players"];
    let heading =
        format!("game {} of {}: first {} vs second {}\n", record["game"], G::NAME, players["first"], players["second"]);
    let mut t = Transcript::<G>::new();
    let opening = record["opening"].as_array().cloned().unwrap_or_default();
    for mv in &opening {
        let mv = G::parse_json_move(mv)?.ok_or("a pass in the opening")?;
        while t.must_pass() {
            t.answer(None)?;
        }
        t.answer(Some(mv))?;
    }
    let mut frames = vec![format!("after the {}-move opening:\n{}\n\n", opening.len(), t.game())];
    for (k, turn) in record["moves"].as_array().cloned().unwrap_or_default().iter().enumerate() {
        let by = turn["by"].as_str().unwrap_or("?");
        let debug = turn["debug"].as_str().map(|d| format!(" [{d}]")).unwrap_or_default();
        let mut frame = String::new();
        if turn["move"].is_null() {
            let _ = writeln!(frame, "turn {k}: {by} faulted ({} ms){debug}", turn["ms"]);
        } else {
            let mv = G::parse_json_move(&turn["move"])?;
            t.answer(mv)?;
            if mv.is_none() {
                let _ = writeln!(frame, "turn {k}: {by} passes");
            } else {
                let _ =
                    writeln!(frame, "turn {k}: {by} plays {} ({} ms){debug}\n{}\n", turn["move"], turn["ms"], t.game());
            }
        }
        frames.push(frame);
    }
    // The rules say why a game ended (older logs say only "game over"); a fault, the log.
    let reason = t.game().end_reason().unwrap_or_else(|| record["reason"].as_str().unwrap_or("").to_string());
    let result = format!("result: {} ({reason})\n", record["result"]);
    Ok(Replay { heading, frames, result })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = r#"{"game":0,"game_type":"nogo","players":{"first":"a","second":"b"},"opening":[],
"moves":[{"by":"first","move":{"x":0,"y":0},"ms":5,"debug":"value 0.61"},
{"by":"second","move":{"x":8,"y":8},"ms":7},{"by":"first","move":null,"ms":1200}],
"result":"second","reason":"timeout by first"}"#;

    fn one_line(log: &str) -> String {
        log.replace('\n', "")
    }

    #[test]
    fn a_game_renders_with_debug_text_and_the_fault() {
        let r = replay(&one_line(LOG), None).unwrap();
        assert_eq!(r.frames.len(), 4);
        assert!(r.frames[1].contains("turn 0: first plays") && r.frames[1].contains("[value 0.61]"));
        assert!(!r.frames[2].contains('['), "{}", r.frames[2]);
        assert!(r.frames[3].contains("turn 2: first faulted (1200 ms)"));
        assert!(r.text().ends_with("result: \"second\" (timeout by first)\n"));
    }

    #[test]
    fn stepping_goes_forward_back_and_to_a_turn() {
        let r = replay(&one_line(LOG), None).unwrap();
        let mut out = Vec::new();
        r.step("\nb\n1\nx\nq\n\n".as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        // A frame follows the prompt on its line: piped commands are not echoed.
        let shown: Vec<&str> = out
            .lines()
            .map(|l| l.rsplit("> ").next().unwrap())
            .filter(|l| l.starts_with("turn ") || l.starts_with("after"))
            .collect();
        // Start, Enter: turn 0, b: back to the start, 1: turn 1, x: refused (stays), q.
        assert_eq!(shown.len(), 5, "{out}");
        assert!(shown[0].starts_with("after the 0-move opening"));
        assert!(shown[1].starts_with("turn 0:") && shown[2].starts_with("after") && shown[3].starts_with("turn 1:"));
        assert!(shown[4].starts_with("turn 1:"));
        assert!(out.contains("not a command: \"x\""));
        assert!(!out.contains("result:"), "q stopped before the end");
        // Stepping past the end stays on the last turn and shows the result; input's end stops.
        let mut out = Vec::new();
        r.step("\n\n\n\n\n".as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.matches("turn 2: first faulted").count(), 3, "{out}");
        assert!(out.contains("result:"));
    }
}
