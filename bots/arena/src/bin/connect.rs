//! `connect`: plays one of our bots on Botzone as a local AI (本地AI).
//!
//! `connect --game G --user ID --secret KEY --bot 'COMMAND' [--keep-running] [--server URL]`
//! polls `<server>/api/<user>/<secret>/localai`, keeps each match's history, asks the bot
//! for every request (a fresh process fed the full history, or one kept-running process per
//! match) and sends each answer in the next poll as an `X-Match-<id>` header, in the form
//! the request came in. A bot that fails is replaced, for that turn, by a legal move from
//! the shared rules rather than a forfeit. `connect runmatch --opponent BOTID [--first]`
//! first creates a match against an existing Botzone bot.

use arena::runner::{Bot, BotSpec};
use botzone_games::botzone::{parse_simple_line, BotzoneGame, Match};
use botzone_games::{ataxx, dots, nogo};
use clap::{Parser, ValueEnum};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Ataxx,
    Nogo,
    Dots,
}

#[derive(Parser)]
#[command(name = "connect", about = "Play a bot on Botzone as a local AI (本地AI)")]
struct Cli {
    /// `runmatch`: create a match against --opponent first, then play.
    #[arg(value_parser = ["runmatch"])]
    action: Option<String>,
    #[arg(long, value_enum)]
    game: GameName,
    #[arg(long)]
    user: String,
    #[arg(long)]
    secret: String,
    /// The bot's command line.
    #[arg(long)]
    bot: String,
    /// One kept-running bot process per match.
    #[arg(long)]
    keep_running: bool,
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
    /// Stop after this many successful polls (tests).
    #[arg(long, hide = true)]
    max_polls: Option<u64>,
}

/// One match's history as Botzone sent it.
struct MatchState {
    requests: Vec<Value>,
    responses: Vec<Value>,
    bot: Bot,
    answered: usize,
}

/// Botzone's name of each game, for runmatch.
fn botzone_game(g: GameName) -> &'static str {
    match g {
        GameName::Ataxx => "Ataxx",
        GameName::Nogo => "NoGo",
        GameName::Dots => "Pencil",
    }
}

/// Our answer to one request: the bot's if it is legal, else a legal move of our own.
fn answer<G: BotzoneGame>(state: &mut MatchState, request_line: &str, limit: Duration) -> Result<String, String> {
    let simple = !request_line.trim_start().starts_with('{');
    let request: Value = if simple {
        G::json_move(parse_simple_line::<G>(request_line)?)
    } else {
        serde_json::from_str(request_line).map_err(|e| format!("request is not JSON: {e}"))?
    };
    state.requests.push(request.clone());
    let input = json!({"requests": state.requests, "responses": state.responses}).to_string();
    let m = match Match::<G>::from_text(&input) {
        Ok(m) => m,
        Err(e) => {
            // Keep the history as it was: the next request may still make sense of it.
            state.requests.pop();
            return Err(e.to_string());
        }
    };
    let first_turn = state.answered == 0;
    state.answered += 1;
    let restarts_before = state.bot.restarts();
    let reply = state.bot.ask(&input, &request.to_string(), if first_turn { 2 * limit } else { limit });
    if restarts_before == 0 && state.bot.restarts() == 1 {
        eprintln!("connect: the bot exited after answering and runs afresh each turn: give its command its own --keep-running flag");
    }
    let legal = |mv: Option<G::Move>| match mv {
        None => !m.our_move(),
        Some(mv) => m.our_move() && m.game.clone().try_play(mv).is_ok(),
    };
    let bot_move = reply.response.ok().and_then(|v| G::parse_json_move(&v).ok()).filter(|&mv| legal(mv));
    let mv = match bot_move {
        Some(mv) => mv,
        None => {
            eprintln!("connect: the bot gave no legal answer; playing a legal move instead");
            if m.our_move() {
                let mut moves = Vec::new();
                m.game.legal_moves(&mut moves);
                moves.first().copied()
            } else {
                None
            }
        }
    };
    state.responses.push(G::json_move(mv));
    Ok(if simple { G::simple_move(mv) } else { G::json_move(mv).to_string() })
}

/// Handles one poll's body; returns the answers to send with the next poll.
fn handle_body<G: BotzoneGame>(
    body: &str,
    matches: &mut HashMap<String, MatchState>,
    spec: &BotSpec,
    limit: Duration,
) -> Vec<(String, String)> {
    let mut lines = body.lines();
    let header = lines.next().unwrap_or("0 0");
    let mut counts = header.split_whitespace().map(|n| n.parse::<usize>().unwrap_or(0));
    let (m, n) = (counts.next().unwrap_or(0), counts.next().unwrap_or(0));
    let mut answers = Vec::new();
    for _ in 0..m {
        let (Some(id), Some(request)) = (lines.next(), lines.next()) else { break };
        let id = id.trim().to_string();
        let state = matches.entry(id.clone()).or_insert_with(|| MatchState {
            requests: Vec::new(),
            responses: Vec::new(),
            bot: Bot::new(spec.clone()),
            answered: 0,
        });
        match answer::<G>(state, request.trim(), limit) {
            Ok(a) => {
                eprintln!("connect: match {id}: request {} -> {a}", request.trim());
                answers.push((id, a));
            }
            Err(e) => eprintln!("connect: match {id}: cannot answer: {e}"),
        }
    }
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
    }
    answers
}

fn serve<G: BotzoneGame>(cli: &Cli, agent: &ureq::Agent, stop: &AtomicBool) -> Result<(), String> {
    let spec = BotSpec::parse(&cli.bot, cli.keep_running)?;
    let url = format!("{}/api/{}/{}/localai", cli.server.trim_end_matches('/'), cli.user, cli.secret);
    let limit = Duration::from_millis(cli.time_ms);
    let mut matches = HashMap::new();
    let mut pending: Vec<(String, String)> = Vec::new();
    let mut backoff = Duration::from_millis(500);
    let mut polls = 0;
    while !stop.load(Ordering::SeqCst) {
        let mut request = agent.get(&url);
        for (id, a) in &pending {
            request = request.set(&format!("X-Match-{id}"), a);
        }
        match request.call().map_err(|e| e.to_string()).and_then(|r| r.into_string().map_err(|e| e.to_string())) {
            Err(e) => {
                // The answers stay pending: they go with the next successful poll.
                eprintln!("connect: poll failed ({e}); retrying in {} ms", backoff.as_millis());
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
            Ok(body) => {
                backoff = Duration::from_millis(500);
                pending = handle_body::<G>(&body, &mut matches, &spec, limit);
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
            .set("X-Game", botzone_game(cli.game))
            .set("X-Player-0", p0)
            .set("X-Player-1", p1)
            .set("X-Timelimit", &(cli.time_ms / 1000).max(1).to_string())
            .call()
            .map_err(|e| format!("runmatch failed: {e}"))?
            .into_string()
            .map_err(|e| e.to_string())?;
        eprintln!("connect: created match {}", id.trim());
    }
    match cli.game {
        GameName::Ataxx => serve::<ataxx::Position>(&cli, &agent, &stop),
        GameName::Nogo => serve::<nogo::Position>(&cli, &agent, &stop),
        GameName::Dots => serve::<dots::Position>(&cli, &agent, &stop),
    }
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("connect: {e}");
        std::process::exit(2);
    }
}
