//! Today's standings, drawn from the Elo log: `docs/strength.md` (one table per game,
//! exactly one row per opponent, time per move and mode: the latest measurement) and the
//! README's lines on where each bot stands. Both are written by `experiments figures` and
//! checked by a test, so the log is the one place a result is written.

use crate::elo_log::{Mode, Run};
use arena::stats::Tally;
use std::collections::BTreeMap;
use std::path::Path;

/// The games with standings, in the page's order: (log name, title, named opponent).
const GAMES: [(&str, &str, &str); 3] = [
    ("ataxx", "Ataxx (`ataxx`)", "Zataxx"),
    ("nogo", "NoGo (`nogo`)", "HaHaNoGo"),
    ("dots", "Dots-and-Boxes, Botzone's Pencil (`dots`)", "Dabble"),
];

/// The README's standings lie between these two lines.
pub const README_BEGIN: &str = "<!-- standings: written by `experiments figures` from docs/figures/elo_log.csv -->";
pub const README_END: &str = "<!-- end of standings -->";

/// One row of the standings: the latest measurement of an (opponent, time, mode), all runs
/// of its series added up.
#[derive(Debug)]
pub struct Standing<'a> {
    pub opponent: &'a str,
    pub mode: Mode,
    pub time_ms: f64,
    pub runs: Vec<&'a Run>,
    pub tally: Tally,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl Standing<'_> {
    fn latest(&self) -> &Run {
        self.runs.last().expect("a standing has a run")
    }

    /// What the interval says of our bot against this opponent.
    fn verdict(&self) -> &'static str {
        if self.low > 0.0 {
            "ahead"
        } else if self.high < 0.0 {
            "behind"
        } else {
            "not separated"
        }
    }

    fn elo_text(&self) -> String {
        format!("{:+.0} [{:+.0}, {:+.0}]", self.elo, self.low, self.high)
    }
}

/// The standings of one game, ordered: the named sparring partners first, then other
/// programs, then our own baselines (`seed`, `uct`); within each, 1000 ms before 100 ms,
/// kept running before afresh.
pub fn standings<'a>(runs: &'a [Run], game: &str) -> Vec<Standing<'a>> {
    let mut latest: BTreeMap<(&str, Mode, u64), &Run> = BTreeMap::new();
    for r in runs.iter().filter(|r| r.game == game) {
        if let Some((opponent, mode)) = &r.standing {
            latest.insert((opponent.as_str(), *mode, r.time_ms.to_bits()), r);
        }
    }
    let mut rows: Vec<Standing> = latest
        .into_values()
        .map(|last| {
            let (opponent, mode) = last.standing.as_ref().map(|(o, m)| (o.as_str(), *m)).expect("a standing run");
            let same = |r: &&Run| r.game == game && r.standing == last.standing && r.time_ms == last.time_ms;
            let measured: Vec<&Run> = runs.iter().filter(same).filter(|r| r.series == last.series).collect();
            let tally = Tally {
                wins: measured.iter().map(|r| r.tally.wins).sum(),
                draws: measured.iter().map(|r| r.tally.draws).sum(),
                losses: measured.iter().map(|r| r.tally.losses).sum(),
                pair_scores: Vec::new(),
            };
            // One run: the interval the arena printed (over its pairs); several: from the
            // summed W-D-L, as the runs' pairs are not on record here.
            let (elo, low, high) = if measured.len() == 1 {
                (last.elo, last.low, last.high)
            } else {
                let (low, high) = tally.elo_interval();
                (tally.elo(), low, high)
            };
            Standing { opponent, mode, time_ms: last.time_ms, runs: measured, tally, elo, low, high }
        })
        .collect();
    let rank = |s: &Standing| {
        if GAMES.iter().any(|g| s.opponent.starts_with(g.2)) {
            0
        } else if ["seed", "uct"].contains(&s.opponent) {
            2
        } else {
            1
        }
    };
    rows.sort_by(|a, b| {
        (rank(a).cmp(&rank(b)))
            .then(a.opponent.cmp(b.opponent))
            .then(b.time_ms.total_cmp(&a.time_ms))
            .then(a.mode.cmp(&b.mode))
    });
    rows
}

/// The sentence saying where a game's bot stands against its named opponent at Botzone's
/// 1000 ms, in both modes.
fn sentence(rows: &[Standing], title: &str, opponent: &str) -> String {
    let at_botzone: Vec<String> = rows
        .iter()
        .filter(|s| s.opponent == opponent && s.time_ms == 1000.0)
        .map(|s| {
            format!(
                "{:.1}% {} over {} games ({}: {})",
                100.0 * s.tally.score(),
                s.mode.words(),
                s.tally.games(),
                s.elo_text(),
                s.verdict()
            )
        })
        .collect();
    let name = title.split(" (").next().unwrap_or(title);
    if at_botzone.is_empty() {
        format!("**{name}**: not measured against {opponent} at 1000 ms.")
    } else {
        format!("**{name}** against {opponent} at 1000 ms: {}.", at_botzone.join("; "))
    }
}

/// GitHub's anchor of a heading: lower case, only letters, digits, `_`, `-` and spaces
/// kept, spaces made `-`.
pub fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown file's headings, repeated ones numbered as GitHub does.
fn anchors(markdown: &str) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut in_code = false;
    let mut out = Vec::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        let Some(text) = line.strip_prefix('#').filter(|_| !in_code) else { continue };
        let text = text.trim_start_matches('#');
        let Some(text) = text.strip_prefix(' ') else { continue };
        let base = anchor(text.trim());
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// Checks that every entry the log names is a heading of a notebook file in `lab`, each
/// file read once.
fn check_entries(runs: &[Run], lab: &Path) -> Result<(), String> {
    let mut files: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for run in runs.iter().filter(|r| !r.entry.is_empty()) {
        let bad = |why: String| format!("elo_log.csv line {}: entry {}: {why}", run.line, run.entry);
        // The log's parser accepts only `FILE.md#anchor` entries.
        let (file, anchor) = run.entry.split_once('#').ok_or_else(|| bad("no anchor".into()))?;
        if !files.contains_key(file) {
            let text = std::fs::read_to_string(lab.join(file)).map_err(|e| bad(format!("{file}: {e}")))?;
            files.insert(file, anchors(&text));
        }
        if !files[file].iter().any(|a| a == anchor) {
            return Err(bad(format!("no heading of {file} has that anchor")));
        }
    }
    Ok(())
}

fn table(rows: &[Standing]) -> String {
    let mut t = String::from(
        "| opponent | our time | mode | games | W-D-L | score | Elo [95%] | date | commit | measured (notebook) |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for s in rows {
        let last = s.latest();
        let runs = if s.runs.len() > 1 { format!(" ({} runs)", s.runs.len()) } else { String::new() };
        let mut commits: Vec<&str> = s.runs.iter().map(|r| r.commit.as_str()).collect();
        commits.dedup();
        let first_date = &s.runs[0].date;
        let date = if *first_date == last.date { last.date.clone() } else { format!("{first_date} to {}", last.date) };
        let t_ms = s.time_ms;
        t.push_str(&format!(
            "| {} | {t_ms} ms | {} | {}{runs} | {}-{}-{} | {:.1}% | {} | {date} | {} | [{}](lab/{}) |\n",
            s.opponent,
            s.mode.words(),
            s.tally.games(),
            s.tally.wins,
            s.tally.draws,
            s.tally.losses,
            100.0 * s.tally.score(),
            s.elo_text(),
            commits.join(", "),
            last.series,
            last.entry,
        ));
    }
    t
}

/// `docs/strength.md` and the README's lines between [`README_BEGIN`] and [`README_END`],
/// from the log's runs; `figures` is the folder of the figures drawn from them, `lab` the
/// notebook folder every standing's entry must point into.
pub fn render(runs: &[Run], figures: &Path, lab: &Path) -> Result<(String, String), String> {
    let mut page = String::from(
        "# Where each bot stands\n\n\
         Written by `experiments figures` from [`figures/elo_log.csv`](figures/elo_log.csv): do not\n\
         edit it by hand (a test fails when this page is not what the log gives; how to record a\n\
         result: [`lab/README.md`](lab/README.md)). One row per opponent, our time per move and\n\
         mode: the latest measurement of each, all runs of its series added up. W-D-L is our\n\
         bot's; Elo with a 95% interval, over the pairs of openings (colours swapped) for one run\n\
         and from the summed W-D-L for several; one thread each. \"Kept running\" is Botzone's\n\
         keep-running mode (`BOT --keep-running` with the arena's `--keep-running-a`), \"afresh\"\n\
         a new process each turn fed the whole history (and its `data`). The last column names\n\
         the bot measured and links the notebook entry with the command; the sparring partners\n\
         are built as [`lab/sparring-partners.md`](lab/sparring-partners.md) says.\n",
    );
    check_entries(runs, lab)?;
    let mut readme = String::new();
    for (game, title, opponent) in GAMES {
        let rows = standings(runs, game);
        if rows.is_empty() {
            continue;
        }
        if let Some(s) = rows.iter().find(|s| s.latest().entry.is_empty()) {
            return Err(format!("elo_log.csv line {}: a standing needs its notebook entry", s.latest().line));
        }
        let line = sentence(&rows, title, opponent);
        page.push_str(&format!("\n## {title}\n\n{line}\n\n{}", table(&rows)));
        let figure = format!("elo_{game}_vs_{}.svg", opponent.to_lowercase());
        if figures.join(&figure).exists() {
            page.push_str(&format!("\n![Every match against {opponent}, in the order measured](figures/{figure})\n"));
        }
        readme.push_str(&format!("- {line}\n"));
    }
    Ok((page, readme))
}

/// Where the standings are read from and written to.
pub struct Pages<'a> {
    /// The figures' folder, holding `elo_log.csv`.
    pub figures: &'a Path,
    /// The notebook's folder.
    pub lab: &'a Path,
    pub strength: &'a Path,
    pub readme: &'a Path,
}

impl Pages<'_> {
    /// The two files' texts as the log gives them.
    fn drawn(&self) -> Result<[(std::path::PathBuf, String); 2], String> {
        let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
        let csv = self.figures.join("elo_log.csv");
        let runs = crate::elo_log::parse(&read(&csv)?).map_err(|e| format!("{}: {e}", csv.display()))?;
        let (page, lines) = render(&runs, self.figures, self.lab)?;
        let readme = replace_readme_lines(&read(self.readme)?, &lines)?;
        Ok([(self.strength.to_path_buf(), page), (self.readme.to_path_buf(), readme)])
    }

    /// Writes the standings page and the README's lines; returns the files written.
    pub fn write(&self) -> Result<Vec<std::path::PathBuf>, String> {
        let mut written = Vec::new();
        for (path, text) in self.drawn()? {
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            written.push(path);
        }
        Ok(written)
    }

    /// The files that are not what the log gives (empty when both are).
    pub fn stale(&self) -> Result<Vec<std::path::PathBuf>, String> {
        let drawn = self.drawn()?;
        Ok(drawn
            .into_iter()
            .filter(|(path, text)| std::fs::read_to_string(path).ok().as_ref() != Some(text))
            .map(|d| d.0)
            .collect())
    }
}

/// `readme` with its standings lines replaced by `lines`.
pub fn replace_readme_lines(readme: &str, lines: &str) -> Result<String, String> {
    let missing = || format!("README.md has no lines `{README_BEGIN}` ... `{README_END}`");
    let start = readme.find(README_BEGIN).ok_or_else(missing)? + README_BEGIN.len();
    let end = start + readme[start..].find(README_END).ok_or_else(missing)?;
    Ok(format!("{}\n{lines}{}", &readme[..start], &readme[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo_log::{parse, HEADER};

    fn lab() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("standings_lab_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("x.md"),
            "# X\n\n## The match: 60% (2026-12-06)\n\ntext\n\n## The match: 60% (2026-12-06)\n",
        )
        .unwrap();
        dir
    }

    #[test]
    fn anchors_are_githubs() {
        assert_eq!(anchor("The match: 60% (2026-12-06)"), "the-match-60-2026-12-06");
        assert_eq!(anchor("Issue #56, `best` and the solver's 2.9x"), "issue-56-best-and-the-solvers-29x");
        let md = "# A\n```\n# not a heading\n```\n## A\n#nospace\n";
        assert_eq!(anchors(md), ["a", "a-1"]);
    }

    #[test]
    fn one_row_per_opponent_time_and_mode_the_latest_series_with_its_runs_added() {
        let text = format!(
            "{HEADER}\n\
             ataxx,old,Zataxx,kept,1000,10,0,10,0,-100,100,2026-12-01,aaaaaaa,x.md#x\n\
             ataxx,new,Zataxx,kept,1000,60,0,40,70,7,139,2026-12-05,bbbbbbb,x.md#x\n\
             ataxx,a feature,,,1000,70,0,30,,,,2026-12-05,bbbbbbb,\n\
             ataxx,new,Zataxx,kept,1000,66,0,34,115,47,193,2026-12-06,ccccccc,x.md#the-match-60-2026-12-06-1\n\
             ataxx,new,Zataxx,afresh,1000,45,0,55,-35,-100,30,2026-12-06,ccccccc,x.md#x\n\
             ataxx,new,uct,afresh,100,30,0,0,1200,348,1200,2026-12-06,ccccccc,x.md#x\n\
             ataxx,new,Zataxx,kept,100,50,0,50,0,-60,60,2026-12-06,ccccccc,x.md#x\n"
        );
        let runs = parse(&text).unwrap();
        let rows = standings(&runs, "ataxx");
        let keys: Vec<(&str, Mode, f64)> = rows.iter().map(|s| (s.opponent, s.mode, s.time_ms)).collect();
        assert_eq!(
            keys,
            [
                ("Zataxx", Mode::Kept, 1000.0),
                ("Zataxx", Mode::Afresh, 1000.0),
                ("Zataxx", Mode::Kept, 100.0),
                ("uct", Mode::Afresh, 100.0)
            ]
        );
        // The two runs of "new" kept at 1000 ms, not the older series: 126-0-74.
        let kept = &rows[0];
        assert_eq!((kept.tally.wins, kept.tally.losses, kept.runs.len()), (126, 74, 2));
        let (low, high) = kept.tally.elo_interval();
        assert_eq!((kept.low, kept.high), (low, high));
        assert_eq!(kept.verdict(), "ahead");
        // One run keeps the arena's interval.
        assert_eq!((rows[1].elo, rows[1].low, rows[1].high), (-35.0, -100.0, 30.0));
        assert_eq!(rows[1].verdict(), "not separated");
        assert!(standings(&runs, "nogo").is_empty());
    }

    #[test]
    fn the_page_names_each_row_once_and_refuses_a_standing_without_its_entry() {
        let lab = lab();
        let line = |entry: &str| {
            format!("{HEADER}\ndots,best,Dabble,afresh,1000,185,0,15,436,352,583,2026-12-05,890687a,{entry}\n")
        };
        let runs = parse(&line("x.md#the-match-60-2026-12-06")).unwrap();
        std::fs::write(lab.join("elo_dots_vs_dabble.svg"), "<svg/>").unwrap();
        let (page, readme) = render(&runs, &lab, &lab).unwrap();
        assert!(page.contains(
            "| Dabble | 1000 ms | afresh | 200 | 185-0-15 | 92.5% | +436 [+352, +583] | 2026-12-05 | 890687a | \
             [best](lab/x.md#the-match-60-2026-12-06) |"
        ));
        assert!(page.contains("](figures/elo_dots_vs_dabble.svg)"));
        assert_eq!(
            readme,
            "- **Dots-and-Boxes, Botzone's Pencil** against Dabble at 1000 ms: 92.5% afresh over 200 games \
             (+436 [+352, +583]: ahead).\n"
        );
        for entry in ["", "x.md#no-such-heading", "y.md#x"] {
            let err = render(&parse(&line(entry)).unwrap(), &lab, &lab).unwrap_err();
            assert!(err.starts_with("elo_log.csv line 2: "), "{err}");
        }
        std::fs::remove_dir_all(&lab).unwrap();
    }

    #[test]
    fn the_readme_lines_are_replaced_between_their_markers() {
        let readme = format!("# T\n\n{README_BEGIN}\n- old\n{README_END}\n\nmore\n");
        let new = replace_readme_lines(&readme, "- new\n").unwrap();
        assert_eq!(new, format!("# T\n\n{README_BEGIN}\n- new\n{README_END}\n\nmore\n"));
        assert!(replace_readme_lines("# T\n", "- new\n").is_err());
    }

    /// The check CI runs: the committed page and README lines are what the committed log
    /// gives. A copy with an edited page, or a log line added without redrawing, fails it.
    #[test]
    fn the_committed_standings_are_what_the_committed_log_gives() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let (figures, lab) = (root.join("docs/figures"), root.join("docs/lab"));
        let (strength, readme) = (root.join("docs/strength.md"), root.join("README.md"));
        let committed = Pages { figures: &figures, lab: &lab, strength: &strength, readme: &readme };
        let stale = committed.stale().unwrap();
        assert!(
            stale.is_empty(),
            "{stale:?} differ from what docs/figures/elo_log.csv gives: run `experiments figures`"
        );

        let copy = std::env::temp_dir().join(format!("standings_copy_{}", std::process::id()));
        std::fs::create_dir_all(&copy).unwrap();
        std::fs::copy(figures.join("elo_log.csv"), copy.join("elo_log.csv")).unwrap();
        let (strength_copy, readme_copy) = (copy.join("strength.md"), copy.join("README.md"));
        let pages = Pages { figures: &copy, lab: &lab, strength: &strength_copy, readme: &readme_copy };
        std::fs::copy(&readme, &readme_copy).unwrap();
        std::fs::write(&strength_copy, std::fs::read_to_string(&strength).unwrap().replace("| Zataxx |", "| Zatax |"))
            .unwrap();
        assert_eq!(pages.stale().unwrap(), std::slice::from_ref(&strength_copy));
        pages.write().unwrap();
        assert!(pages.stale().unwrap().is_empty());
        let mut log = std::fs::read_to_string(copy.join("elo_log.csv")).unwrap();
        let last = log.lines().rev().find(|l| l.contains(",Zataxx,kept,1000,")).unwrap().to_string();
        // The same run again: the measurement's games and score change.
        log.push_str(&format!("{last}\n"));
        std::fs::write(copy.join("elo_log.csv"), log).unwrap();
        assert_eq!(pages.stale().unwrap(), [strength_copy, readme_copy]);
        std::fs::remove_dir_all(&copy).unwrap();
    }
}
