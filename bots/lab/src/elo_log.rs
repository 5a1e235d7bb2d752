//! `docs/figures/elo_log.csv`, the one place a match result is written: one line per run,
//! from which the figures ([`crate::figures`]) and the standings ([`crate::standings`]) are
//! drawn.

use arena::stats::Tally;

/// The header of `elo_log.csv`. Per line: the game; the series (a bot version and what it
/// is; the runs of one measurement share it); the opponent and mode when A is the shipped
/// bot against a named opponent (both empty for a feature or a variant measured against
/// our own bot); our time per move; W-D-L from A's side and the Elo interval the arena
/// printed (empty: computed from W-D-L); the date and commit it was recorded at; the
/// notebook entry holding its command (`FILE.md#anchor` in `docs/lab`).
pub const HEADER: &str = "game,series,opponent,mode,time_ms,wins,draws,losses,elo,elo_low,elo_high,date,commit,entry";

/// How our bot ran: Botzone's keep-running mode, or a new process each turn.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Mode {
    Kept,
    Afresh,
}

impl Mode {
    /// As the standings name it.
    pub fn words(self) -> &'static str {
        match self {
            Mode::Kept => "kept running",
            Mode::Afresh => "afresh",
        }
    }
}

/// One run of the log.
#[derive(Clone, Debug)]
pub struct Run {
    /// The CSV line it was read from (1 is the header).
    pub line: usize,
    pub game: String,
    pub series: String,
    /// The named opponent and our mode, when A is the shipped bot.
    pub standing: Option<(String, Mode)>,
    pub time_ms: f64,
    pub tally: Tally,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub date: String,
    pub commit: String,
    /// `FILE.md#anchor` in the notebook, or empty.
    pub entry: String,
}

/// The runs of an `elo_log.csv` text in the order recorded (the CSV's order).
pub fn parse(csv: &str) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for (line, l) in crate::figures::data_lines(csv, HEADER)? {
        let bad = |why: &str| format!("line {line}: {why}: {l}");
        let f: Vec<&str> = l.split(',').collect();
        let [game, series, opponent, mode, time_ms, wins, draws, losses, elo, low, high, date, commit, entry] = f[..]
        else {
            return Err(bad("not 14 fields"));
        };
        let is_date = date.len() == 10
            && date.bytes().enumerate().all(|(i, b)| b.is_ascii_digit() || (i == 4 || i == 7) && b == b'-');
        if !is_date {
            return Err(bad("the date is not YYYY-MM-DD"));
        }
        if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad("the commit is not a hex hash"));
        }
        let standing = match (opponent, mode) {
            ("", "") => None,
            (o, "kept") if !o.is_empty() => Some((o.to_string(), Mode::Kept)),
            (o, "afresh") if !o.is_empty() => Some((o.to_string(), Mode::Afresh)),
            _ => return Err(bad("an opponent needs a mode (kept or afresh) and a mode an opponent")),
        };
        let names_a_heading = entry.contains(".md#") && !entry.contains('/');
        if !entry.is_empty() && !names_a_heading {
            return Err(bad("the entry is not FILE.md#anchor"));
        }
        let count = |s: &str| s.parse::<u32>().map_err(|_| bad("W-D-L are not counts"));
        let tally = Tally { wins: count(wins)?, draws: count(draws)?, losses: count(losses)?, pair_scores: Vec::new() };
        let (elo, low, high) = if elo.is_empty() {
            let (low, high) = tally.elo_interval();
            (tally.elo(), low, high)
        } else {
            let number = |s: &str| s.parse::<f64>().map_err(|_| bad("the Elo fields are not numbers"));
            (number(elo)?, number(low)?, number(high)?)
        };
        runs.push(Run {
            line,
            game: game.into(),
            series: series.into(),
            standing,
            time_ms: time_ms.parse().map_err(|_| bad("the time is not a number"))?,
            tally,
            elo,
            low,
            high,
            date: date.into(),
            commit: commit.into(),
            entry: entry.into(),
        });
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_read_with_its_standing_and_a_missing_interval_computed() {
        let text = format!(
            "{HEADER}\nnogo,A,,,100,30,0,10,,,,2026-11-27,a421f27,\n\
             nogo,A kept,HaHaNoGo,kept,1000,4,0,16,-241,-1200,-70,2026-11-28,5f76e47,x.md#a\n"
        );
        let runs = parse(&text).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].line, runs[1].line), (2, 3));
        assert_eq!(runs[0].standing, None);
        assert_eq!(runs[1].standing, Some(("HaHaNoGo".to_string(), Mode::Kept)));
        // 75% is +191 Elo; the trinomial interval lies around it, above zero.
        assert!((runs[0].elo - 190.8).abs() < 0.5, "{}", runs[0].elo);
        assert!(runs[0].low > 0.0 && runs[0].high > runs[0].elo);
        assert_eq!((runs[1].elo, runs[1].low, runs[1].high), (-241.0, -1200.0, -70.0));
        assert_eq!(runs[1].entry, "x.md#a");
    }

    #[test]
    fn malformed_lines_are_refused_with_their_line_number() {
        let line = |l: &str| parse(&format!("{HEADER}\n{l}\n")).unwrap_err();
        assert!(line("nogo,A,,,100,30,0").contains("line 2: not 14 fields"));
        assert!(line("nogo,A,,,100,30,0,10,,,,28.11.2026,a421f27,").contains("date"));
        assert!(line("nogo,A,,,100,30,0,10,,,,2026-11-28,,").contains("commit"));
        assert!(line("nogo,A,HaHaNoGo,,100,30,0,10,,,,2026-11-28,a421f27,").contains("mode"));
        assert!(line("nogo,A,,kept,100,30,0,10,,,,2026-11-28,a421f27,").contains("mode"));
        assert!(line("nogo,A,X,sometimes,100,30,0,10,,,,2026-11-28,a421f27,").contains("mode"));
        assert!(line("nogo,A,,,100,30,0,10,,,,2026-11-28,a421f27,docs/lab/x.md").contains("entry"));
        assert!(line("nogo,A,,,100,thirty,0,10,,,,2026-11-28,a421f27,").contains("counts"));
        assert!(parse("game,x\n").unwrap_err().contains("header"));
    }
}
