//! A match of many games between bots A and B: paired openings with colours swapped,
//! games played in parallel, live progress, a summary, a JSON-lines log, optional SPRT.

use crate::competitor::CompetitorSpec;
use crate::games::ArenaGame;
use crate::judge::{play_game, random_opening, GameRecord};
use crate::runner::{FaultKind, Sandbox};
use crate::stats::{Sprt, SprtDecision, Tally};
use botzone_games::game::Player;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Where each pair of games starts.
pub enum Openings<M> {
    /// This many random plies ([`random_opening`]), drawn from the match seed and the pair.
    Random(usize),
    /// Fixed move lists (see [`crate::book`]): pair k starts from line k, lines reused in turn.
    Book(Vec<Vec<M>>),
}

pub struct MatchConfig<M> {
    pub a: CompetitorSpec,
    pub b: CompetitorSpec,
    pub a_command: String,
    pub b_command: String,
    /// The limit per turn of bot A and of bot B (each bot's first turn gets twice its own).
    pub limits: [Duration; 2],
    pub jobs: usize,
    pub seed: u64,
    pub openings: Openings<M>,
    pub log: Option<std::path::PathBuf>,
    pub sprt: Option<Sprt>,
    pub progress: bool,
    /// Run the Botzone bots in Botzone's limits, with this address-space cap in MB (see
    /// [`crate::runner::Sandbox`]); each worker's games on a CPU of their own.
    pub sandbox_mb: Option<u64>,
    /// Set (by Ctrl-C) to start no more games: those under way finish and are counted.
    pub interrupt: Option<&'static AtomicBool>,
    /// The games of the match this run plays (`--shard`; all of them by default): each
    /// keeps its number, so its opening and colours are the whole match's.
    pub played: Range<usize>,
}

/// The games of shard `k` of `n` (`--shard K/N`) of a match of `games`: whole pairs, the
/// K-th of N equal runs of consecutive pairs, so that shard logs summed up together are
/// the whole match. An error when N does not divide the pairs.
pub fn shard_of_match(shard: &str, games: usize) -> Result<Range<usize>, String> {
    let (k, n) = botzone_games::selfplay::parse_shard(shard).map_err(|e| format!("--shard {e}"))?;
    let pairs = games.div_ceil(2) as u64;
    if !pairs.is_multiple_of(n) {
        return Err(format!("--shard {shard}: {n} shards cannot share the {pairs} pairs of {games} games evenly"));
    }
    let own = botzone_games::selfplay::shard_games((k, n), pairs);
    Ok((2 * own.start as usize)..(2 * own.end as usize).min(games))
}

/// Per-bot time and fault figures.
#[derive(Debug, Clone, Default)]
pub struct BotFigures {
    pub moves: u64,
    pub total_ms: u64,
    pub max_ms: u64,
    pub faults: BTreeMap<FaultKind, u32>,
    /// Times the bot, asked to keep running, exited and was started again.
    pub restarts: u64,
    /// The peak resident memory of a kept-running process over the match, in KB.
    pub peak_kb: Option<u64>,
    /// Sums of the search depth and nodes the answers' debug text names ([`debug_figure`]),
    /// and how many answers named each.
    pub depth: (u64, u64),
    pub nodes: (u64, u64),
}

/// The number after `name` in an answer's debug text, as our bots write it (`depth=21`)
/// or a UAI engine's `info` line (`depth 21`); `name` must start a word (`seldepth` is
/// not `depth`).
pub fn debug_figure(debug: &str, name: &str) -> Option<u64> {
    debug.match_indices(name).find_map(|(at, _)| {
        let starts_word = debug[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let rest = debug[at + name.len()..].strip_prefix(['=', ' '])?;
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        starts_word.then(|| rest[..digits].parse().ok()).flatten()
    })
}

impl BotFigures {
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_ms as f64 / self.moves as f64
        }
    }

    /// The mean search depth and nodes a move, where the debug text named them.
    fn mean_search(&self) -> (Option<f64>, Option<f64>) {
        let mean = |(sum, n): (u64, u64)| (n > 0).then(|| sum as f64 / n as f64);
        (mean(self.depth), mean(self.nodes))
    }

    fn search_text(&self) -> String {
        match self.mean_search() {
            (None, None) => "-".into(),
            (depth, nodes) => {
                let depth = depth.map_or(String::new(), |d| format!("depth {d:.1}"));
                let nodes = nodes.map_or(String::new(), |n| format!("{:.3} M nodes", n / 1e6));
                [depth, nodes].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", ")
            }
        }
    }

    fn faults_json(&self) -> Value {
        let mut o = serde_json::Map::new();
        for kind in FaultKind::ALL {
            o.insert(kind.name().into(), json!(self.faults.get(&kind).copied().unwrap_or(0)));
        }
        Value::Object(o)
    }

    fn faults_text(&self) -> String {
        let parts: Vec<String> = self.faults.iter().map(|(k, n)| format!("{} {n}", k.name())).collect();
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

pub struct Summary {
    pub game: &'static str,
    pub tally: Tally,
    pub a: BotFigures,
    pub b: BotFigures,
    /// A's points and games as first player, then as second.
    pub by_colour: [(f64, u32); 2],
    pub sprt: Option<(Sprt, SprtDecision, f64)>,
    /// Games that were asked for, when the match was interrupted before playing them all.
    pub interrupted_of: Option<usize>,
    /// CPU time the host took from the machine over the match ([`crate::runner::stolen_ms`]).
    pub stolen_ms: Option<u64>,
    /// The machines that played the games ([`crate::runner::host`]), each once, in the
    /// order met: one for a match, several for logs of a cluster's shards.
    pub hosts: Vec<String>,
}

impl Summary {
    pub fn to_json(&self) -> Value {
        let (lo, hi) = self.tally.elo_interval();
        json!({
            "game_type": self.game,
            "games": self.tally.games(),
            "interrupted_of": self.interrupted_of,
            "wins_a": self.tally.wins,
            "draws": self.tally.draws,
            "losses_a": self.tally.losses,
            "score_a": self.tally.score(),
            "elo": self.tally.elo(),
            "elo_ci95": [lo, hi],
            "los": self.tally.los(),
            "points_a_first": self.by_colour[0].0,
            "games_a_first": self.by_colour[0].1,
            "points_a_second": self.by_colour[1].0,
            "games_a_second": self.by_colour[1].1,
            "faults_a": self.a.faults_json(),
            "faults_b": self.b.faults_json(),
            "mean_ms_a": self.a.mean_ms(),
            "mean_ms_b": self.b.mean_ms(),
            "max_ms_a": self.a.max_ms,
            "max_ms_b": self.b.max_ms,
            "restarts_a": self.a.restarts,
            "restarts_b": self.b.restarts,
            "peak_kb_a": self.a.peak_kb,
            "peak_kb_b": self.b.peak_kb,
            "mean_depth_a": self.a.mean_search().0,
            "mean_depth_b": self.b.mean_search().0,
            "mean_nodes_a": self.a.mean_search().1,
            "mean_nodes_b": self.b.mean_search().1,
            "stolen_ms": self.stolen_ms,
            "hosts": self.hosts,
            "sprt": self.sprt.map(|(s, d, llr)| json!({
                "elo0": s.elo0, "elo1": s.elo1, "llr": llr,
                "decision": match d {
                    SprtDecision::H0 => "H0",
                    SprtDecision::H1 => "H1",
                    SprtDecision::Continue => "none",
                },
            })),
        })
    }

    pub fn to_text(&self) -> String {
        let t = &self.tally;
        let (lo, hi) = t.elo_interval();
        let mut s = match self.interrupted_of {
            Some(asked) => format!("interrupted: {} of {asked} games played\n", t.games()),
            None => String::new(),
        };
        s += &format!(
            "{} games of {}\nW-D-L (A): {}-{}-{}   score {:.1}%\n\
             Elo (A - B): {:+.1}   95% interval [{:+.1}, {:+.1}]   LOS {:.1}%\n",
            t.games(),
            self.game,
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score(),
            t.elo(),
            lo,
            hi,
            100.0 * t.los()
        );
        let [(first, n_first), (second, n_second)] = self.by_colour;
        s += &format!("A as first player: {first} of {n_first}; as second: {second} of {n_second}\n");
        s += &format!(
            "time per move: A mean {:.1} ms, max {} ms; B mean {:.1} ms, max {} ms\n",
            self.a.mean_ms(),
            self.a.max_ms,
            self.b.mean_ms(),
            self.b.max_ms
        );
        s += &format!("faults: A {}; B {}\n", self.a.faults_text(), self.b.faults_text());
        if self.a.mean_search() != (None, None) || self.b.mean_search() != (None, None) {
            s += &format!(
                "search a move (from the debug text): A {}; B {}\n",
                self.a.search_text(),
                self.b.search_text()
            );
        }
        if self.a.peak_kb.is_some() || self.b.peak_kb.is_some() {
            let mb = |kb: Option<u64>| kb.map_or("-".to_string(), |kb| format!("{:.1} MB", kb as f64 / 1024.0));
            s += &format!("peak memory kept running: A {}; B {}\n", mb(self.a.peak_kb), mb(self.b.peak_kb));
        }
        if !self.hosts.is_empty() {
            s += &format!("host: {}\n", self.hosts.join("; "));
        }
        if let Some(ms) = self.stolen_ms.filter(|&ms| ms > 0) {
            s += &format!(
                "the host took {ms} ms of CPU from this machine during the match (steal time): a late \
                 answer may be the machine's, not the bot's; each game's share is its log line's stolen_ms\n"
            );
        }
        for (name, figures) in [("A", &self.a), ("B", &self.b)] {
            if figures.restarts > 0 {
                s += &format!(
                    "keep-running: {name} exited after answering and was restarted {} times: \
                     it was not kept running (does its command ask for keep-running mode?)\n",
                    figures.restarts
                );
            }
        }
        if let Some((sprt, d, llr)) = self.sprt {
            let (lower, upper) = Sprt::bounds();
            s += &format!(
                "SPRT elo0={} elo1={}: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}) -> {}\n",
                sprt.elo0,
                sprt.elo1,
                match d {
                    SprtDecision::H0 => "H0 accepted",
                    SprtDecision::H1 => "H1 accepted",
                    SprtDecision::Continue => "no decision",
                }
            );
        }
        s
    }
}

/// Plays the match and returns its summary.
pub fn run_match<G: ArenaGame>(cfg: &MatchConfig<G::Move>) -> std::io::Result<Summary> {
    let mut log = match &cfg.log {
        Some(path) => Some(std::io::BufWriter::new(std::fs::File::create(path)?)),
        None => None,
    };
    let live_log = cfg.log.as_deref().map(crate::live::LiveLog::beside);
    let live = live_log.as_ref();
    let next = AtomicUsize::new(cfg.played.start);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let to_play = cfg.played.len();
    let bar = if cfg.progress { ProgressBar::new(to_play as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    // Drawn now and redrawn while the first game is played, not only when it ends.
    bar.set_message(format!("{to_play} games, first under way"));
    bar.enable_steady_tick(Duration::from_millis(500));
    if cfg.progress && !std::io::stderr().is_terminal() {
        eprintln!("match started: {to_play} games, {} at a time", cfg.jobs.max(1));
    }
    let mut standing = Standing::default();
    let mut sprt_state = None;
    let stolen_at_start = crate::runner::stolen_ms();

    std::thread::scope(|scope| {
        let cpus = crate::runner::allowed_cpus();
        for worker in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            let sandbox = cfg.sandbox_mb.map(|memory_mb| Sandbox { cpu: cpus[worker % cpus.len()], memory_mb });
            let specs = [cfg.a.sandboxed(sandbox), cfg.b.sandboxed(sandbox)];
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let interrupted = cfg.interrupt.is_some_and(|i| i.load(Ordering::SeqCst));
                if index >= cfg.played.end || stop.load(Ordering::SeqCst) || interrupted {
                    return;
                }
                let pair = index / 2;
                let opening = match &cfg.openings {
                    Openings::Random(plies) => {
                        let mut rng = fastrand::Rng::with_seed(
                            cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(pair as u64),
                        );
                        random_opening::<G>(*plies, &mut rng)
                    }
                    Openings::Book(lines) => lines[pair % lines.len()].clone(),
                };
                let on_turn = |record: &GameRecord| {
                    let line = record.live_json(G::NAME, &cfg.a_command, &cfg.b_command).to_string();
                    live.expect("only called with a live log").update(index, Some(line));
                };
                let on_turn = live.map(|_| &on_turn as &dyn Fn(&GameRecord));
                let (specs, a_first) = ([&specs[0], &specs[1]], index % 2 == 0);
                let record = play_game::<G>(index, specs, a_first, &opening, cfg.limits, on_turn);
                if tx.send(record).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for record in rx {
            standing.add(&record, 0);
            let tally = &standing.tally;
            if let Some(log) = log.as_mut() {
                let line = record.to_json(G::NAME, &cfg.a_command, &cfg.b_command);
                let _ = writeln!(log, "{line}");
                let _ = log.flush();
                if let Some(live) = &live {
                    live.update(record.index, None);
                }
            }
            let decided = matches!(sprt_state, Some((_, d, _)) if d != SprtDecision::Continue);
            if let Some(sprt) = cfg.sprt.filter(|_| !decided) {
                // Games already under way when the test decides are still counted above,
                // but the decision stands.
                let decision = sprt.decide(tally);
                sprt_state = Some((sprt, decision, tally.llr(sprt.elo0, sprt.elo1)));
                if decision != SprtDecision::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            let (lo, hi) = tally.elo_interval();
            let status = format!(
                "A {}-{}-{}  score {:.1}%  Elo {:+.0} [{:+.0}, {:+.0}]",
                tally.wins,
                tally.draws,
                tally.losses,
                100.0 * tally.score(),
                tally.elo(),
                lo,
                hi
            );
            if cfg.progress && !std::io::stderr().is_terminal() {
                // No terminal to redraw a bar on (a log, CI): one line per game.
                eprintln!("game {}/{to_play}: {status}  ({})", tally.games(), record.reason);
            }
            bar.set_message(status);
            bar.inc(1);
        }
    });
    bar.finish();
    if let Some(mut log) = log {
        log.flush()?;
    }
    if let Some(live) = live {
        live.close();
    }
    let interrupted = cfg.interrupt.is_some_and(|i| i.load(Ordering::SeqCst));
    let interrupted_of = (interrupted && (standing.tally.games() as usize) < to_play).then_some(to_play);
    let stolen_ms = crate::runner::stolen_since(stolen_at_start);
    Ok(Summary { sprt: sprt_state, interrupted_of, stolen_ms, ..standing.summary(G::NAME) })
}

/// What the games of one or more matches add up to, a game at a time, as a match counts
/// them: A's wins, draws and losses with the scores of the finished pairs (the two games
/// of one opening, colours swapped), A's score by colour, and each bot's times, faults,
/// restarts and peak memory.
#[derive(Debug, Default)]
pub struct Standing {
    pub tally: Tally,
    /// Bot A's, then bot B's.
    pub figures: [BotFigures; 2],
    /// A's points and games as first player, then as second.
    pub by_colour: [(f64, u32); 2],
    /// A's score in the first game counted of each pair not yet finished, by (source,
    /// pair): the games of several logs pair only within their own log.
    open_pairs: HashMap<(usize, usize), f64>,
    /// The machines the games name, each once.
    hosts: Vec<String>,
}

impl Standing {
    /// Counts a finished game of match `source` (any number that tells matches apart).
    pub fn add(&mut self, record: &GameRecord, source: usize) {
        let score = record.score_a();
        let tally = &mut self.tally;
        match score {
            s if s > 0.75 => tally.wins += 1,
            s if s < 0.25 => tally.losses += 1,
            _ => tally.draws += 1,
        }
        let pair = (source, record.index / 2);
        if let Some(other) = self.open_pairs.remove(&pair) {
            tally.pair_scores.push(other + score);
        } else {
            self.open_pairs.insert(pair, score);
        }
        let colour = &mut self.by_colour[usize::from(!record.a_first)];
        colour.0 += score;
        colour.1 += 1;
        let a_side = if record.a_first { Player::First } else { Player::Second };
        let figures = &mut self.figures;
        for turn in &record.turns {
            let f = &mut figures[usize::from(turn.by != a_side)];
            f.moves += 1;
            f.total_ms += turn.ms;
            f.max_ms = f.max_ms.max(turn.ms);
            let debug = turn.debug.as_deref().unwrap_or_default();
            for (figure, name) in [(&mut f.depth, "depth"), (&mut f.nodes, "nodes")] {
                if let Some(n) = debug_figure(debug, name) {
                    *figure = (figure.0 + n, figure.1 + 1);
                }
            }
        }
        for side in [Player::First, Player::Second] {
            let f = &mut figures[usize::from(side != a_side)];
            f.restarts += u64::from(record.restarts[side.index()]);
            f.peak_kb = f.peak_kb.max(record.peak_kb[side.index()]);
        }
        if let Some((side, fault)) = &record.fault {
            *figures[usize::from(*side != a_side)].faults.entry(fault.kind).or_default() += 1;
        }
        if let Some(host) = record.host.as_ref().filter(|h| !self.hosts.contains(h)) {
            self.hosts.push(host.clone());
        }
    }

    /// The summary of the games counted, of `game`, with no SPRT, interruption or steal.
    pub fn summary(self, game: &'static str) -> Summary {
        let [a, b] = self.figures;
        let by_colour = self.by_colour;
        let hosts = self.hosts;
        Summary { game, tally: self.tally, a, b, by_colour, sprt: None, interrupted_of: None, stolen_ms: None, hosts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_figures_are_read_from_both_forms_of_debug_text() {
        let ours = "ab depth=21 nodes=1965058 score=34 ms=900";
        let uai = "info depth 19 seldepth 25 score -31 time 1116 nodes 1727643 nps 1548067 pv f2";
        assert_eq!((debug_figure(ours, "depth"), debug_figure(ours, "nodes")), (Some(21), Some(1965058)));
        assert_eq!((debug_figure(uai, "depth"), debug_figure(uai, "nodes")), (Some(19), Some(1727643)));
        assert_eq!(debug_figure("info seldepth 25", "depth"), None);
        assert_eq!(debug_figure("mcts iters=53360 nodes=372600", "depth"), None);
        assert_eq!(debug_figure("forced capture", "nodes"), None);
    }

    #[test]
    fn the_summary_names_the_hosts_steal_only_when_there_was_some() {
        let summary = |stolen_ms| Summary {
            game: "nogo",
            tally: Tally { wins: 1, losses: 1, ..Tally::default() },
            a: BotFigures::default(),
            b: BotFigures::default(),
            by_colour: [(1.0, 1), (0.0, 1)],
            sprt: None,
            interrupted_of: None,
            stolen_ms,
            hosts: vec!["Intel(R) Xeon(R) Processor (avx2 avx512f)".into()],
        };
        assert!(summary(Some(300)).to_text().contains("the host took 300 ms of CPU"));
        assert!(summary(None).to_text().contains("host: Intel(R) Xeon(R) Processor (avx2 avx512f)\n"));
        assert_eq!(summary(None).to_json()["hosts"][0], "Intel(R) Xeon(R) Processor (avx2 avx512f)");
        assert_eq!(summary(Some(300)).to_json()["stolen_ms"], 300);
        for quiet in [Some(0), None] {
            assert!(!summary(quiet).to_text().contains("steal"), "{quiet:?}");
        }
    }
}
