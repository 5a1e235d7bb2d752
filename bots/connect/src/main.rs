//! `connect`: plays one of our bots on Botzone as a local AI (本地AI).
//!
//! `connect --game G --user ID --secret KEY --bot 'COMMAND' [--keep-running] [--server URL]`
//! polls `<server>/api/<user>/<secret>/localai`, keeps each match's history, asks the bot
//! for every request (a fresh process fed the full history, or one kept-running process per
//! match) and sends each answer in the next poll as an `X-Match-<id>` header, in the form
//! the request came in. A bot that fails is replaced, for that turn, by a legal move from
//! the shared rules rather than a forfeit. Each match's history is journaled on disk
//! (`--journal DIR`), so a restarted connector resumes its matches. `connect runmatch
//! --opponent BOTID [--first]` first creates a match against an existing Botzone bot.

mod journal;

use arena::competitor::{Competitor, TurnInput};
use arena::games::{ArenaGame, GameName};
use arena::judge::ask_move;
use arena::runner::{self, Bot, BotSpec};
use arena::with_game;
use botzone_games::botzone::{Format, Match};
use clap::Parser;
use journal::Journal;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "connect", about = "Play a bot on Botzone as a local AI (本地AI)")]
struct Cli {
    /// `runmatch`: create a match against --opponent first, then play.
    #[arg(value_parser = ["runmatch"])]
    action: Option<String>,
    /// The game of the matches to play.
    #[arg(long, value_enum)]
    game: GameName,
    /// Your Botzone user id (on your user page).
    #[arg(long)]
    user: String,
    /// Your local-AI secret key (on your user page); never printed.
    #[arg(long)]
    secret: String,
    /// The bot's command line.
    #[arg(long)]
    bot: String,
    /// One kept-running bot process per match.
    #[arg(long)]
    keep_running: bool,
    /// The Botzone server.
    #[arg(long, default_value = "https://www.botzone.org.cn")]
    server: String,
    /// The bot's limit per turn (first turn: twice this).
    #[arg(long, default_value_t = 1000)]
    time_ms: u64,
    /// runmatch: the Botzone bot id of the opponent.
    #[arg(long)]
    opponent: Option<String>,
    /// runmatch: we move first.
    #[arg(long)]
    first: bool,
    /// Where each running match's history is kept, so that a restart resumes it.
    #[arg(long, default_value = "connect-journal")]
    journal: std::path::PathBuf,
    /// Keep no journal: a restart then takes a running match's next request for a new game.
    #[arg(long)]
    no_journal: bool,
    /// Stop after this many successful polls (tests).
    #[arg(long, hide = true)]
    max_polls: Option<u64>,
    /// The least time between the starts of two polls, in ms (tests: a mock server on this
    /// machine plays a whole game in seconds, not one move per 200 ms).
    #[arg(long, hide = true, default_value_t = MIN_POLL_INTERVAL_MS)]
    min_poll_ms: u64,
}

/// One match: its history rebuilt and checked (none before its first request), and its bot.
struct MatchState<G: ArenaGame> {
    history: Option<Match<G>>,
    bot: Competitor<G>,
    /// An answer the server never got (sent by a connector that stopped): it goes again
    /// as it is, without asking the bot.
    resend: Option<String>,
    /// Why the match cannot be rebuilt: its requests are reported, never answered, as any
    /// move would be a guess.
    unrebuildable: Option<String>,
}

impl<G: ArenaGame> MatchState<G> {
    /// A match first seen in this run with `request`: resumed from its journal if it has one.
    fn open(id: &str, request: &str, spec: &BotSpec, journal: &Journal) -> MatchState<G> {
        let mut state = MatchState {
            history: None,
            // Killed at its limit: the substitute must still be in time.
            bot: Competitor::Botzone(Bot::without_grace(spec.clone())),
            resend: None,
            unrebuildable: None,
        };
        match journal.resume::<G>(id, request) {
            Ok(None) => {}
            Ok(Some(resumed)) => {
                eprintln!(
                    "connect: match {id}: resumed from its journal after {} moves{}",
                    resumed.history.moves.len(),
                    if resumed.resend.is_some() { "; our last answer never arrived and goes again" } else { "" }
                );
                state.history = Some(resumed.history);
                state.resend = resumed.resend;
            }
            Err(e) => state.unrebuildable = Some(e),
        }
        state
    }

    /// The answer to `request`, journaled before it goes out.
    fn respond(&mut self, id: &str, request: &str, limit: Duration, journal: &Journal) -> Result<String, String> {
        if let Some(why) = &self.unrebuildable {
            return Err(format!("the match cannot be rebuilt, so it is not answered: {why}"));
        }
        if let Some(again) = self.resend.take() {
            return Ok(again);
        }
        let a = answer(self, request, limit)?;
        if let Some(history) = &self.history {
            if let Err(e) = journal.save(id, history, request) {
                eprintln!("connect: match {id}: {e}");
            }
        }
        Ok(a)
    }
}

/// Our answer to one request: the bot's if the judge accepts it, else a legal move of our own.
fn answer<G: ArenaGame>(state: &mut MatchState<G>, request_line: &str, limit: Duration) -> Result<String, String> {
    let line = request_line.trim();
    let format = if line.starts_with('{') { Format::Json } else { Format::Simple };
    // Applied to a copy: a request that makes no sense leaves the history as it was.
    let m = match &state.history {
        None => {
            let first_turn = match format {
                Format::Json => format!("{{\"requests\":[{line}],\"responses\":[]}}"),
                Format::Simple => format!("1\n{line}"),
            };
            Match::<G>::from_text(&first_turn)
        }
        Some(m) => {
            let mut next = m.clone();
            next.apply_line(line).map(|()| next)
        }
    }
    .map_err(|e| e.to_string())?;
    let first_turn = m.turn == 1;
    let restarts_before = state.bot.restarts();
    let (full_input, request) = (m.history_json().to_string(), m.last_request_json().to_string());
    let turn = TurnInput {
        full_input: &full_input,
        request: &request,
        moves: &m.moves,
        game: &m.game,
        side: m.us,
        limit: if first_turn { 2 * limit } else { limit },
    };
    let asked = ask_move(&mut state.bot, &turn, |mv| m.check(mv));
    if restarts_before == 0 && state.bot.restarts() == 1 {
        eprintln!(
            "connect: the bot exited after answering and runs afresh each turn: \
             give its command its own --keep-running flag"
        );
    }
    let mv = match asked.answer {
        Ok((mv, _)) => mv,
        Err(fault) => {
            eprintln!(
                "connect: the bot gave no legal answer ({}: {}); playing a legal move instead",
                fault.kind.name(),
                fault.detail
            );
            let mut moves = Vec::new();
            m.game.legal_moves(&mut moves);
            moves.first().copied().filter(|_| m.our_move())
        }
    };
    let mut m = m;
    m.apply_response(mv).map_err(|e| e.to_string())?;
    state.history = Some(m);
    Ok(match format {
        Format::Json => G::json_move(mv).to_string(),
        Format::Simple => G::simple_move(mv),
    })
}

/// Whether a match id can go into an `X-Match-<id>` header name (an HTTP token).
fn sendable_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Handles one poll's body; returns the answers to send with the next poll. The matches
/// asked are answered at once, each by its own bot in its own thread.
fn handle_body<G: ArenaGame>(
    body: &str,
    matches: &mut HashMap<String, MatchState<G>>,
    spec: &BotSpec,
    limit: Duration,
    journal: &Journal,
) -> Result<Vec<(String, String)>, String> {
    let mut lines = body.lines();
    let header = lines.next().unwrap_or("");
    let counts: Vec<usize> = header.split_whitespace().map_while(|n| n.parse().ok()).collect();
    let [m, n] = counts[..] else {
        return Err(format!("the reply is not the local-AI protocol (first line {:?})", runner::clip(header)));
    };
    let mut asked = Vec::new();
    for _ in 0..m {
        let (Some(id), Some(request)) = (lines.next(), lines.next()) else { break };
        let id = id.trim().to_string();
        if !sendable_id(&id) {
            eprintln!("connect: match {id:?}: its id cannot be sent back in an HTTP header; match skipped");
            continue;
        }
        matches.entry(id.clone()).or_insert_with(|| MatchState::open(&id, request, spec, journal));
        asked.push((id, request.trim().to_string()));
    }
    let answers = std::thread::scope(|scope| {
        let threads: Vec<_> = matches
            .iter_mut()
            .filter_map(|(id, state)| asked.iter().find(|(a, _)| a == id).map(|(_, request)| (id, state, request)))
            .map(|(id, state, request)| {
                scope.spawn(move || match state.respond(id, request, limit, journal) {
                    Ok(a) => {
                        eprintln!("connect: match {id}: request {request} -> {a}");
                        Some((id.clone(), a))
                    }
                    Err(e) => {
                        eprintln!("connect: match {id}: cannot answer: {e}");
                        None
                    }
                })
            })
            .collect();
        threads.into_iter().filter_map(|t| t.join().expect("an answering thread panicked")).collect()
    });
    for _ in 0..n {
        let Some(line) = lines.next() else { break };
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some(id) = f.first() else { continue };
        if f.get(2) == Some(&"0") {
            eprintln!("connect: match {id} was aborted");
        } else {
            eprintln!(
                "connect: match {id} finished: we were slot {}, scores {}",
                f.get(1).unwrap_or(&"?"),
                f[3.min(f.len())..].join(" ")
            );
        }
        matches.remove(*id);
        journal.remove::<G>(id);
    }
    Ok(answers)
}

/// A failed HTTP call: worth retrying, or not (a wrong secret, a bad server address).
enum CallError {
    Fatal(String),
    Transient(String),
}

fn classify(e: ureq::Error) -> CallError {
    match e {
        ureq::Error::Status(code @ (401 | 403 | 404), _) => {
            CallError::Fatal(format!("HTTP {code}: the server refuses this user and secret (check --user, --secret)"))
        }
        ureq::Error::Status(code, _) => CallError::Transient(format!("HTTP {code}")),
        ureq::Error::Transport(t) => match t.kind() {
            ureq::ErrorKind::InvalidUrl | ureq::ErrorKind::UnknownScheme | ureq::ErrorKind::InvalidProxyUrl => {
                CallError::Fatal(format!("the server address is unusable: {t}"))
            }
            _ => CallError::Transient(t.to_string()),
        },
    }
}

/// `text` with the secret key replaced: it is part of every URL, and must never be shown.
fn redact(text: &str, secret: &str) -> String {
    if secret.is_empty() {
        text.to_string()
    } else {
        text.replace(secret, "<secret>")
    }
}

/// The least time between the starts of two polls: a server that answers at once (with
/// nothing, or with garbage) is not asked more than 5 times a second.
const MIN_POLL_INTERVAL_MS: u64 = 200;

fn serve<G: ArenaGame>(cli: &Cli, agent: &ureq::Agent, stop: &AtomicBool) -> Result<(), String> {
    let spec = BotSpec::parse(&cli.bot, cli.keep_running)?;
    let url = format!("{}/api/{}/{}/localai", cli.server.trim_end_matches('/'), cli.user, cli.secret);
    let limit = Duration::from_millis(cli.time_ms);
    let journal = Journal::new((!cli.no_journal).then(|| cli.journal.clone()));
    let mut matches = HashMap::new();
    let mut pending: Vec<(String, String)> = Vec::new();
    let mut backoff = Duration::from_millis(500);
    let mut polls = 0;
    let mut last_poll: Option<Instant> = None;
    while !stop.load(Ordering::SeqCst) {
        if let Some(last) = last_poll {
            std::thread::sleep(Duration::from_millis(cli.min_poll_ms).saturating_sub(last.elapsed()));
        }
        last_poll = Some(Instant::now());
        let mut request = agent.get(&url);
        for (id, a) in &pending {
            request = request.set(&format!("X-Match-{id}"), a);
        }
        let reply = request
            .call()
            .map_err(classify)
            .and_then(|r| r.into_string().map_err(|e| CallError::Transient(format!("reading the reply: {e}"))));
        match reply {
            Err(CallError::Fatal(e)) => return Err(redact(&e, &cli.secret)),
            Err(CallError::Transient(e)) => {
                // The answers stay pending: they go with the next successful poll.
                eprintln!("connect: poll failed ({}); retrying in {} ms", redact(&e, &cli.secret), backoff.as_millis());
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
            Ok(body) => {
                backoff = Duration::from_millis(500);
                match handle_body::<G>(&body, &mut matches, &spec, limit, &journal) {
                    Ok(answers) => pending = answers,
                    // Nothing of it is understood: the answers wait for a real reply.
                    Err(e) => eprintln!("connect: {}", redact(&e, &cli.secret)),
                }
                polls += 1;
                if cli.max_polls.is_some_and(|max| polls >= max) {
                    break;
                }
            }
        }
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(10))
        .timeout_read(Duration::from_secs(120))
        .build();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        eprintln!("connect: interrupted, stopping after this poll");
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if cli.action.as_deref() == Some("runmatch") {
        let opponent = cli.opponent.as_deref().ok_or("runmatch needs --opponent BOTID")?;
        let (p0, p1) = if cli.first { ("me", opponent) } else { (opponent, "me") };
        let url = format!("{}/api/{}/{}/runmatch", cli.server.trim_end_matches('/'), cli.user, cli.secret);
        let id = agent
            .get(&url)
            .set("X-Game", with_game!(cli.game, G => G::BOTZONE_NAME))
            .set("X-Player-0", p0)
            .set("X-Player-1", p1)
            .set("X-Timelimit", &(cli.time_ms / 1000).max(1).to_string())
            .call()
            .map_err(|e| match classify(e) {
                CallError::Fatal(e) | CallError::Transient(e) => {
                    format!("runmatch failed: {}", redact(&e, &cli.secret))
                }
            })?
            .into_string()
            .map_err(|e| e.to_string())?;
        eprintln!("connect: created match {}", id.trim());
    }
    with_game!(cli.game, G => serve::<G>(&cli, &agent, &stop))
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("connect: {e}");
        std::process::exit(2);
    }
}
