//! What every bot binary does, for the three games: the command line, one Botzone turn
//! (or a kept-running series of turns), and the debugging commands. The data path is
//! stdin -> protocol (`botzone`) -> match -> engine (`engines`) -> answer -> stdout; the
//! binaries only name their game's engine registry.

mod gtp;
mod uai;

use botzone_games::botzone::{self, BotzoneGame, InputError, Match};
use botzone_games::engines::{Registry, Searcher, Without};
use botzone_games::search::{Budget, Deadline};
use botzone_games::{ataxx, dots, nogo};
use clap::Parser;
use std::io::{self, BufRead, Read as _, Write};
use std::time::{Duration, Instant};

/// The engine protocols a game speaks besides Botzone's: UAI for Ataxx, GTP for NoGo.
pub trait EngineProtocols: BotzoneGame {
    fn serve_uai(_args: &Args, _registry: &Registry<Self>) -> Result<(), BotError> {
        Err(BotError::Usage(format!("{} speaks no UAI (UAI is the Ataxx engines' protocol)", Self::NAME)))
    }
    fn serve_gtp(_args: &Args, _registry: &Registry<Self>) -> Result<(), BotError> {
        Err(BotError::Usage(format!("{} speaks no GTP (GTP is NoGo's protocol here)", Self::NAME)))
    }
}

impl EngineProtocols for ataxx::Position {
    fn serve_uai(args: &Args, registry: &Registry<Self>) -> Result<(), BotError> {
        uai::serve(args, registry)
    }
}

impl EngineProtocols for nogo::Position {
    fn serve_gtp(args: &Args, registry: &Registry<Self>) -> Result<(), BotError> {
        gtp::serve(args, registry)
    }
}

impl EngineProtocols for dots::Position {}

#[derive(Parser, Debug, Clone)]
#[command(about = "A Botzone bot: reads one turn's input on stdin, prints one move.")]
pub struct Args {
    /// Budget per turn in ms, counted from process start (first turn: twice this).
    /// Default: the input's time_limit (else Botzone's 1000 ms, doubled on the first turn)
    /// less 10% (at least 35 ms) when the turn started the process, less 5% (at least 20
    /// ms) on a kept-running bot's later turns. The smallest time_limit measured safe is 50 ms: 1000
    /// answers per bot, each a fresh process with the other core busy, all within it
    /// (slowest 37 ms); at 30 ms one in a thousand came late, at 20 ms a few.
    #[arg(long, value_name = "MS")]
    pub time_ms: Option<u64>,
    /// Random seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A fixed number of search iterations instead of a time budget (with --seed: the
    /// same input gives the same answer). With --uai or --gtp: a cap on each search, on
    /// top of the clock the engine is given.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Independent root searches merged at the end (seed 001's root parallelism).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Search engine (see the list below; default: the first).
    #[arg(long)]
    pub engine: Option<String>,
    /// Switch off these features of the engine (comma-separated; listed below per engine),
    /// to measure what each is worth.
    #[arg(long, value_name = "FEATURES", value_delimiter = ',')]
    pub without: Vec<String>,
    /// Print every legal response for the input's position as a JSON array, then exit.
    #[arg(long)]
    pub legal: bool,
    /// Print the number of leaf positions N plies ahead (empty input: the start position).
    #[arg(long, value_name = "N")]
    pub perft: Option<u32>,
    /// Print the input's position as a board, then exit.
    #[arg(long)]
    pub show: bool,
    /// Answer the turn as Botzone would, then describe that answer for a person instead
    /// of printing it: the board, the move, the engine's summary and how large the `data`
    /// it carries is (`make run`). Without this flag the output is exactly Botzone's.
    #[arg(long, conflicts_with_all = ["keep_running", "legal", "perft", "show"])]
    pub explain: bool,
    /// Botzone keep-running mode: after each answer print the marker and wait for the
    /// next request line. The default of the upload build (`make dist`), which Botzone
    /// starts with no arguments.
    #[arg(long, conflicts_with = "afresh")]
    pub keep_running: bool,
    /// Answer one turn and exit (the default, but in the upload build of `make dist`).
    #[arg(long)]
    pub afresh: bool,
    /// Kept running: start each turn's search with new tables (no table, history or tree
    /// kept from the turns before), as a process started afresh without `data` does, to
    /// measure what keeping them between turns is worth.
    #[arg(long, requires = "keep_running")]
    pub fresh_search: bool,
    /// Neither read nor write Botzone's `data` (with it, a bot that answers afresh carries
    /// the top of its search tree to its next turn; engines with a tree only).
    #[arg(long)]
    pub no_carry: bool,
    /// Speak UAI (Ataxx engines' protocol) on stdin/stdout instead of Botzone's. Rules are
    /// Botzone's: no pass (a blocked side ends the game and the other side takes the
    /// empty squares), the 401-move cap and CIRCULAR_MOVE; UAI's usual rules let a blocked
    /// side pass (`0000`), which this engine refuses in `position` and never plays.
    #[arg(long, conflicts_with_all = ["gtp", "keep_running", "afresh", "legal", "perft", "show", "explain"])]
    pub uai: bool,
    /// Speak GTP (Go engines' protocol, NoGo's) on stdin/stdout instead of Botzone's.
    #[arg(long, conflicts_with_all = ["keep_running", "afresh", "legal", "perft", "show", "explain"])]
    pub gtp: bool,
}

/// Whether a bot started with no flags keeps running: true in the upload build (`make
/// dist`, the `upload` feature), since Botzone passes an uploaded program no arguments;
/// false elsewhere, so that pipes, judges and fixtures get one answer and an exit.
pub const KEEPS_RUNNING_BY_DEFAULT: bool = cfg!(feature = "upload");

impl Args {
    /// Whether this run keeps running after its answer (`--keep-running`, or the upload
    /// build's default unless `--afresh`).
    pub fn keeps_running(&self) -> bool {
        self.keep_running || (KEEPS_RUNNING_BY_DEFAULT && !self.afresh)
    }
}

/// Why a bot could not answer.
#[derive(Debug)]
pub enum BotError {
    Input(InputError),
    Usage(String),
    Io(io::Error),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            BotError::Input(e) => write!(f, "{e}"),
            BotError::Usage(e) => write!(f, "{e}"),
            BotError::Io(e) if e.kind() == io::ErrorKind::InvalidData => write!(f, "bad input: not UTF-8 text"),
            BotError::Io(e) if e.kind() == io::ErrorKind::FileTooLarge => {
                write!(f, "bad input: {e}; no Botzone turn is that large")
            }
            BotError::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl From<InputError> for BotError {
    fn from(e: InputError) -> Self {
        BotError::Input(e)
    }
}
impl From<io::Error> for BotError {
    fn from(e: io::Error) -> Self {
        BotError::Io(e)
    }
}

/// The whole program of a bot binary: parse flags, answer, exit 0 (or 2 with a message).
pub fn main<G: EngineProtocols>(registry: Registry<G>) -> ! {
    let start = Instant::now();
    let input = if G::SIMPLE_IO { "JSON or simplified-interaction" } else { "JSON" };
    let about = format!("A Botzone bot for {}: reads one turn's {input} input on stdin, prints one move.", G::NAME);
    let command = <Args as clap::CommandFactory>::command().name(G::NAME).about(about).after_help(registry.help());
    let args = match command.try_get_matches().and_then(|m| <Args as clap::FromArgMatches>::from_arg_matches(&m)) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    let result = if args.uai {
        G::serve_uai(&args, &registry)
    } else if args.gtp {
        G::serve_gtp(&args, &registry)
    } else if args.explain {
        explain::<G>(start, &args, &registry, &mut io::stdin().lock(), &mut io::stdout().lock(), &mut io::stderr())
    } else {
        run::<G>(start, &args, &registry, &mut io::stdin().lock(), &mut io::stdout().lock(), &mut io::stderr())
    };
    match result {
        Ok(()) => std::process::exit(0),
        Err(e) => {
            eprintln!("{}: {e}", G::NAME);
            std::process::exit(2)
        }
    }
}

/// The most input a turn may take. Botzone's histories are tens of kilobytes (a 401-move
/// Ataxx game is about 30 KB, `data` at most 100 KB): anything larger is refused before
/// it is parsed, so a huge input cannot take the memory.
const MAX_INPUT: u64 = 4 << 20;

fn too_large() -> io::Error {
    io::Error::new(io::ErrorKind::FileTooLarge, format!("more than {} MB", MAX_INPUT >> 20))
}

/// How a turn starts: a JSON object (read whole), or the first line of simplified
/// interaction (whose move lines are read as the parser needs them).
enum TurnStart {
    Json(serde_json::Value),
    Simple(String),
}

/// The start of a turn: its first line that is not blank (a byte order mark dropped) and,
/// when that line opens a JSON object, the object read once to its closing brace, over as
/// many lines as it takes (a pretty-printed input). Nothing past the turn is read, since
/// Botzone may keep stdin open: the deserializer takes its bytes one at a time.
fn read_turn_start(input: &mut dyn BufRead) -> Result<Option<TurnStart>, BotError> {
    let Some(first) = next_line(input)? else { return Ok(None) };
    let first = first.strip_prefix('\u{feff}').unwrap_or(&first).trim_start();
    if !first.starts_with('{') {
        return Ok(Some(TurnStart::Simple(first.to_string())));
    }
    let first = format!("{first}\n");
    let rest = MAX_INPUT.saturating_sub(first.len() as u64);
    let mut reader = io::Cursor::new(first).chain(input.take(rest));
    let value = serde_json::Deserializer::from_reader(&mut reader).into_iter::<serde_json::Value>().next();
    match value {
        Some(Ok(value)) => {
            // The rest of the object's last line must be blank, as for a one-line input.
            let mut rest = String::new();
            reader.read_line(&mut rest)?;
            if !rest.trim().is_empty() {
                let junk: String = rest.trim().chars().take(40).collect();
                return Err(InputError::Syntax(format!(
                    "invalid JSON: trailing characters after the object: {junk:?}"
                ))
                .into());
            }
            Ok(Some(TurnStart::Json(value)))
        }
        Some(Err(e)) if e.is_eof() && reader.get_ref().1.limit() == 0 => Err(too_large().into()),
        Some(Err(e)) => Err(botzone::json_syntax(e).into()),
        None => Err(InputError::Syntax("empty input".into()).into()),
    }
}

/// The first line of input that is not blank, without its line end; `None` at end of
/// input. A line longer than `MAX_INPUT` is refused before it is all read.
fn next_line(input: &mut dyn BufRead) -> io::Result<Option<String>> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.take(MAX_INPUT + 1).read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if line.len() as u64 > MAX_INPUT {
            return Err(too_large());
        }
        if !line.trim().is_empty() {
            return Ok(Some(line.trim().to_string()));
        }
    }
}

/// Runs one invocation of a bot on `input`, writing answers to `output` and warnings
/// (optional fields ignored) to `log`.
pub fn run<G: BotzoneGame>(
    start: Instant,
    args: &Args,
    registry: &Registry<G>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<(), BotError> {
    // An unknown engine is a usage error even for the informational flags.
    registry.find(args.engine.as_deref()).map_err(BotError::Usage)?;
    let seed = seed(args);
    let first = read_turn_start(input)?;
    if first.is_none() && (args.perft.is_some() || args.show) {
        return write_info(args, &G::start(), output);
    }
    let turn = match first.ok_or_else(|| InputError::Syntax("empty input".into()))? {
        TurnStart::Json(value) => botzone::parse_json_value::<G>(&value)?,
        TurnStart::Simple(first) => botzone::parse_turn::<G>(&first, &mut || next_line(input).ok().flatten())?,
    };
    let carried = if args.no_carry { None } else { turn.data.clone() };
    let mut game_match = Match::<G>::rebuild(&turn)?;
    report_warnings(&mut game_match, log);
    if args.legal {
        let legal: Vec<_> = if game_match.our_move() {
            game_match.game.legal_responses().into_iter().map(|m| G::json_move(Some(m))).collect()
        } else {
            vec![G::json_move(None)]
        };
        writeln!(output, "{}", serde_json::Value::Array(legal))?;
        return Ok(());
    }
    if args.perft.is_some() || args.show {
        return write_info(args, &game_match.game, output);
    }

    // Engines allocate their tables now, not for the informational flags above.
    let without = Without(args.without.clone());
    let new_searcher =
        || registry.searcher(args.engine.as_deref(), &without, seed, args.threads).map_err(BotError::Usage);
    let mut searcher = new_searcher()?;
    if let Some(data) = carried {
        if let Err(why) = resume(&mut searcher, &data, &game_match.moves) {
            let _ = writeln!(log, "{}: warning: data ignored: {why}", G::NAME);
        }
    }
    let (mut clock_start, mut clock) = (start, TurnClock::Started);
    let mut first_turn = game_match.turn == 1;
    loop {
        let budget = turn_budget(args, clock_start, first_turn, clock, game_match.time_limit_ms);
        let (mv, summary) = choose(&game_match, &mut searcher, &budget);
        // Botzone ignores data in keep-running mode: only a bot that leaves carries any.
        let data = match mv {
            Some(mv) if !args.keeps_running() && !args.no_carry => carry(&searcher, mv),
            _ => None,
        };
        writeln!(output, "{}", botzone::format_answer::<G>(game_match.format, mv, &summary, data.as_deref()))?;
        if !args.keeps_running() {
            output.flush()?;
            // The process ends now: freeing a search tree of tens of megabytes would only
            // delay the exit, and Botzone counts the time until the process is gone.
            std::mem::forget(searcher);
            return Ok(());
        }
        writeln!(output, "{}", botzone::KEEP_RUNNING_MARKER)?;
        output.flush()?;
        if args.fresh_search {
            // New tables while the opponent thinks: the old ones' freeing and the new ones'
            // allocation stay off our clock, and only what was kept is lost.
            searcher = new_searcher()?;
        }
        game_match.apply_response(mv)?;
        let Some(line) = next_line(input)? else { return Ok(()) };
        (clock_start, clock) = (Instant::now(), TurnClock::Kept);
        first_turn = false;
        game_match.apply_line(&line)?;
        report_warnings(&mut game_match, log);
    }
}

/// `--explain`: the turn answered exactly as Botzone would receive it, then read back for
/// a person: the board before the move, the move, the engine's summary and the size of
/// the `data` (up to 100 KB of base64 that says nothing on a terminal).
pub fn explain<G: BotzoneGame>(
    start: Instant,
    args: &Args,
    registry: &Registry<G>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<(), BotError> {
    let mut turn = String::new();
    input.take(MAX_INPUT + 1).read_to_string(&mut turn)?;
    if turn.len() as u64 > MAX_INPUT {
        return Err(too_large().into());
    }
    let board = Args { show: true, explain: false, ..args.clone() };
    run::<G>(start, &board, registry, &mut turn.as_bytes(), output, log)?;
    let mut answer = Vec::new();
    let answering = Args { explain: false, ..args.clone() };
    run::<G>(start, &answering, registry, &mut turn.as_bytes(), &mut answer, log)?;
    write!(output, "\n{}", describe_answer(&String::from_utf8_lossy(&answer)))?;
    Ok(())
}

/// A bot's answer (one JSON object, or simplified interaction's two lines) as a person
/// reads it: the move, the engine's summary, and the carried `data` by its size only.
pub fn describe_answer(answer: &str) -> String {
    let Ok(serde_json::Value::Object(fields)) = serde_json::from_str::<serde_json::Value>(answer.trim()) else {
        let mut lines = answer.lines();
        let (mv, debug) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""));
        return format!("move:  {mv}\ndebug: {debug}\ndata:  none (simplified interaction carries none)\n");
    };
    let debug = fields.get("debug").and_then(|d| d.as_str()).unwrap_or("");
    let data = match fields.get("data").and_then(|d| d.as_str()) {
        Some(data) => format!(
            "{:.1} KB carried to the next turn (Botzone keeps up to {} KB)",
            data.len() as f64 / 1000.0,
            botzone::MAX_DATA_BYTES / 1000
        ),
        None => "none".into(),
    };
    let mv = fields.get("response").map_or("none".into(), |r| r.to_string());
    format!("move:  {mv}\ndebug: {debug}\ndata:  {data}\n")
}

/// Botzone's `data` from what the searcher carries after choosing `played`: `TAG:BASE64`,
/// within Botzone's 100 KB; `None` when the engine carries nothing.
fn carry<G: BotzoneGame>(searcher: &Searcher<G>, played: G::Move) -> Option<String> {
    use base64::Engine as _;
    // Base64 writes 4 characters for 3 bytes; the tag takes a few dozen.
    let room = (botzone::MAX_DATA_BYTES - 64) / 4 * 3;
    let (tag, bytes) = searcher.carry(played, room)?;
    Some(format!("{tag}:{}", base64::engine::general_purpose::STANDARD_NO_PAD.encode(bytes)))
}

/// Gives the searcher back what [`carry`] wrote on an earlier turn of this game (`moves`:
/// the whole history now); the reason when the data is not ours, not this game's, or
/// damaged.
fn resume<G: BotzoneGame>(searcher: &mut Searcher<G>, data: &str, moves: &[G::Move]) -> Result<(), String> {
    use base64::Engine as _;
    if data.len() > 2 * botzone::MAX_DATA_BYTES {
        return Err(format!("{} bytes, more than Botzone keeps", data.len()));
    }
    let (tag, text) = data.split_once(':').ok_or("not written by this bot (no tag)")?;
    let bytes =
        base64::engine::general_purpose::STANDARD_NO_PAD.decode(text).map_err(|e| format!("not base64: {e}"))?;
    searcher.resume(tag, &bytes, moves)
}

fn report_warnings<G: BotzoneGame>(game_match: &mut Match<G>, log: &mut dyn Write) {
    for warning in game_match.warnings.drain(..) {
        let _ = writeln!(log, "{}: warning: {warning}", G::NAME);
    }
}

fn write_info<G: BotzoneGame>(args: &Args, game: &G, output: &mut dyn Write) -> Result<(), BotError> {
    if let Some(depth) = args.perft {
        writeln!(output, "{}", game.perft(depth))?;
    } else {
        writeln!(output, "{game}")?;
    }
    Ok(())
}

/// The least time a bot leaves between its deadline and the input's limit. On a loaded
/// 2-core machine answers came up to 33 ms after the deadline (process start-up and
/// scheduling), and about one in a few thousand 35-60 ms.
const SHORT_LIMIT_MARGIN_MS: u64 = 35;

/// What a turn that starts a process (every turn afresh; a kept-running bot's first) may
/// spend of a limit of `limit_ms`: the limit less a margin for start-up, scheduling and
/// output: 10%, and at least SHORT_LIMIT_MARGIN_MS, since at short limits the fixed costs
/// dominate (but never more than half). At Botzone's 1000 ms: 900 ms. 7% was tried: in the
/// sandbox (one CPU, the other busy) an Ataxx answer then came 68 ms after its deadline,
/// 2 ms inside the limit (docs/lab/time-memory-delivery.md, "Time safety").
pub fn safe_ms(limit_ms: u64) -> u64 {
    limit_ms - (limit_ms / 10).max(SHORT_LIMIT_MARGIN_MS).min(limit_ms / 2)
}

/// What a kept-running bot's later turns may spend of `limit_ms`, counted from reading
/// the request: no process to start, so 5%, at least 20 ms (but never more than half).
/// At Botzone's 1000 ms: 950 ms.
pub fn kept_turn_ms(limit_ms: u64) -> u64 {
    limit_ms - (limit_ms / 20).max(20).min(limit_ms / 2)
}

/// Botzone's limit per turn when the input states none (the first turn gets twice this).
const BOTZONE_LIMIT_MS: u64 = 1000;

/// What an engine kept running (UAI, GTP) may spend of `ms` it was given for a move: no
/// process start-up to cover, so only 2% (at least 5 ms) for reading the command and
/// writing the answer. A GUI or the arena already allows for its own overheads.
pub fn kept_safe_ms(ms: u64) -> u64 {
    ms - (ms / 50).max(5).min(ms / 2)
}

/// The seed of `--seed`, else one from the clock.
fn seed(args: &Args) -> u64 {
    args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
    })
}

/// How a turn's clock started: with the process (`Started`: every turn afresh, and a
/// kept-running bot's first), or when a kept-running bot read the request (`Kept`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TurnClock {
    Started,
    Kept,
}

/// The search budget of one turn: `--nodes` alone fixes the work and ignores the clock;
/// otherwise `--time-ms`, or the input's `time_limit` (else Botzone's 1000 ms) less the
/// margin that the turn's clock needs. Our own budgets are doubled on the bot's first
/// turn, as Botzone doubles its limit; a limit the input states is never exceeded
/// (whether Botzone's field already counts the doubling is not documented).
fn turn_budget(args: &Args, start: Instant, first_turn: bool, clock: TurnClock, time_limit_ms: Option<u64>) -> Budget {
    if args.nodes.is_some() && args.time_ms.is_none() {
        return Budget { max_iterations: args.nodes, ..Budget::until(Deadline::never()) };
    }
    let within = |limit| match clock {
        TurnClock::Started => safe_ms(limit),
        TurnClock::Kept => kept_turn_ms(limit),
    };
    let (normal_ms, doubled) = match (args.time_ms, time_limit_ms) {
        (Some(ms), _) => (ms, true),
        (None, Some(limit)) => (within(limit), false),
        (None, None) => (within(BOTZONE_LIMIT_MS), true),
    };
    let ms = if first_turn && doubled { 2 * normal_ms } else { normal_ms };
    Budget { max_iterations: args.nodes, ..Budget::until(Deadline::new(start, Duration::from_millis(ms))) }
}

/// Our answer for the match's current turn: `None` (pass) when the rules give the move to
/// the opponent (Pencil after it completed a box), else the engine's choice.
fn choose<G: BotzoneGame>(
    game_match: &Match<G>,
    searcher: &mut Searcher<G>,
    budget: &Budget,
) -> (Option<G::Move>, String) {
    if !game_match.our_move() {
        return (None, "pass: the opponent moves again".into());
    }
    let result = searcher.choose(&game_match.game, &game_match.moves, budget);
    (Some(result.best), result.summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget_ms(flags: &[&str], first_turn: bool, clock: TurnClock, time_limit_ms: Option<u64>) -> u128 {
        let mut argv = vec!["bot"];
        argv.extend_from_slice(flags);
        let args = Args::parse_from(argv);
        let budget = turn_budget(&args, Instant::now(), first_turn, clock, time_limit_ms);
        budget.deadline.length().expect("a time budget").as_millis()
    }

    #[test]
    fn an_answer_is_described_by_its_move_summary_and_data_size() {
        let data = "A".repeat(96_000);
        let json = format!(r#"{{"response":{{"x":3,"y":4}},"debug":"mcts n=5","data":"{data}"}}"#);
        let text = describe_answer(&json);
        assert!(text.contains(r#"move:  {"x":3,"y":4}"#) && text.contains("debug: mcts n=5"), "{text}");
        assert!(text.contains("data:  96.0 KB") && !text.contains("AAAA"), "{text}");
        assert!(describe_answer(r#"{"response":{"x":-1,"y":-1},"debug":""}"#).contains("data:  none"));
        let simple = describe_answer("1 2 3 4\nab depth=3");
        assert!(simple.contains("move:  1 2 3 4") && simple.contains("debug: ab depth=3"), "{simple}");
    }

    #[test]
    fn a_time_limit_in_the_input_is_never_exceeded_even_on_the_first_turn() {
        use TurnClock::{Kept, Started};
        // 300 ms less the 35 ms margin, on the first turn as on the others.
        assert_eq!(budget_ms(&[], true, Started, Some(300)), 265);
        assert_eq!(budget_ms(&[], false, Started, Some(300)), 265);
        // Botzone's 1000 ms when none is stated; doubled on the first turn, as Botzone's
        // limit is.
        assert_eq!(budget_ms(&[], true, Started, None), 1800);
        assert_eq!(budget_ms(&[], false, Started, None), 900);
        assert_eq!(budget_ms(&["--time-ms", "200"], true, Started, Some(1000)), 400);
        // Kept running, a later turn has no process start-up to cover: a smaller margin.
        assert_eq!(budget_ms(&[], false, Kept, None), 950);
        assert_eq!(budget_ms(&[], false, Kept, Some(1000)), 950);
        assert_eq!(budget_ms(&[], false, Kept, Some(300)), 280);
    }

    #[test]
    fn margins_never_take_more_than_half_the_limit() {
        for limit in [1, 2, 10, 40, 50, 70, 100, 1000, 2000] {
            assert!(safe_ms(limit) >= limit - limit / 2, "{limit}");
            assert!(kept_turn_ms(limit) >= safe_ms(limit), "{limit}");
            assert!(kept_turn_ms(limit) < limit.max(2), "{limit}");
        }
    }

    #[test]
    fn keep_running_is_a_flag_here_and_the_upload_build_default() {
        let parse = |flags: &[&str]| Args::try_parse_from(std::iter::once("bot").chain(flags.iter().copied()));
        assert!(parse(&["--keep-running"]).unwrap().keeps_running());
        assert!(!parse(&["--afresh"]).unwrap().keeps_running());
        assert_eq!(parse(&[]).unwrap().keeps_running(), KEEPS_RUNNING_BY_DEFAULT);
        assert!(parse(&["--afresh", "--keep-running"]).is_err());
    }
}
