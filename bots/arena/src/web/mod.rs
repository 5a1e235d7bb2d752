//! `arena serve`: a local web page to replay logged games, play against a bot, and follow
//! a match's log as it grows. The page (HTML, CSS, JS) is compiled into the binary and
//! fetches everything else from this server; the rules stay here (see [`view`]).
//!
//! Routes: `/` the page; `/api/games` the logged games (re-read each time: a running
//! match's log shows its new games); `/api/games/N` one game's frames; `/api/bots` the
//! bots one may play; `POST /api/play` a new game, `/api/play/N` its state, `POST
//! /api/play/N/move|undo|save`; `/api/figures` and `/figures/NAME.svg` the experiments'
//! figures (`--figures`). Anything else is 404.

pub mod logs;
pub mod play;
pub mod view;

use crate::competitor::CompetitorSpec;
use crate::games::GameName;
use crate::runner::BotSpec;
use botzone_games::game::Player;
use play::{BotChoice, PlayGame};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/app.css");

/// The longest time per move the play page may ask of a bot.
pub const MAX_PLAY_MS: u64 = 10_000;

pub struct ServeConfig {
    /// Log files and folders of `*.jsonl` logs.
    pub logs: Vec<PathBuf>,
    /// The bots the play page offers.
    pub bots: Vec<BotChoice>,
    /// Where the play page saves games: `played.jsonl` (a log the replay page lists) and
    /// one Botzone history per saved game.
    pub save_dir: PathBuf,
    /// The experiments' figures the figures page shows (`*.svg`), if any.
    pub figures: Option<PathBuf>,
}

/// An HTTP answer before it is sent.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    fn json(value: Value) -> Reply {
        Reply { status: 200, content_type: "application/json", body: value.to_string() }
    }
    fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply { status, content_type: "application/json", body: json!({"error": message.into()}).to_string() }
    }
    fn asset(content_type: &'static str, body: &str) -> Reply {
        Reply { status: 200, content_type, body: body.to_string() }
    }
}

type SharedGame = Arc<Mutex<Box<dyn PlayGame>>>;

pub struct Server {
    config: ServeConfig,
    plays: Mutex<HashMap<u64, SharedGame>>,
    next_play: AtomicU64,
}

impl Server {
    pub fn new(config: ServeConfig) -> Server {
        Server { config, plays: Mutex::new(HashMap::new()), next_play: AtomicU64::new(1) }
    }

    fn played_log(&self) -> PathBuf {
        self.config.save_dir.join("played.jsonl")
    }

    /// Every log the replay page lists: those given, and the played games once there are any.
    fn log_paths(&self) -> Vec<PathBuf> {
        let mut paths = self.config.logs.clone();
        if self.played_log().exists() && !paths.contains(&self.played_log()) {
            paths.push(self.played_log());
        }
        paths
    }

    /// Answers one request (no I/O here but reading logs and running bots, so the routes
    /// are tested without a socket).
    pub fn respond(&self, method: &str, url: &str, body: &str) -> Reply {
        let path = url.split(['?', '#']).next().unwrap_or("");
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            ("GET", [""]) => Reply::asset("text/html; charset=utf-8", PAGE),
            ("GET", ["app.js"]) => Reply::asset("text/javascript; charset=utf-8", SCRIPT),
            ("GET", ["app.css"]) => Reply::asset("text/css; charset=utf-8", STYLE),
            ("GET", ["api", "games"]) => self.game_list(),
            ("GET", ["api", "games", n]) => self.game(n),
            ("GET", ["api", "bots"]) => self.bot_list(),
            ("POST", ["api", "play"]) => self.new_play(body),
            ("GET", ["api", "play", n]) => self.with_play(n, |g| Ok(g.state())),
            ("POST", ["api", "play", n, "move"]) => {
                let request: Value = match serde_json::from_str(body) {
                    Ok(v) => v,
                    Err(e) => return Reply::error(400, format!("the request is not JSON: {e}")),
                };
                self.with_play(n, |g| g.human_move(&request["move"]).map(|()| g.state()))
            }
            ("POST", ["api", "play", n, "undo"]) => {
                self.with_play(n, |g| if g.undo() { Ok(g.state()) } else { Err("nothing to undo".into()) })
            }
            ("POST", ["api", "play", n, "save"]) => self.save(n),
            ("GET", ["api", "figures"]) => self.figure_list(),
            ("GET", ["figures", name]) => self.figure(name),
            _ => Reply::error(404, format!("no such page: {method} {path}")),
        }
    }

    fn game_list(&self) -> Reply {
        let logs = logs::load(&self.log_paths());
        let games: Vec<Value> = logs
            .games
            .iter()
            .enumerate()
            .map(|(id, g)| {
                let r = &g.record;
                let moves = r["moves"].as_array().map_or(0, Vec::len);
                json!({
                    "id": id,
                    "file": g.file.display().to_string(),
                    "line": g.line,
                    "game": r["game"],
                    "game_type": r["game_type"],
                    "players": r["players"],
                    "result": r["result"],
                    "reason": r["reason"],
                    "moves": moves,
                    "fault": r["fault"],
                })
            })
            .collect();
        let skipped: Vec<String> = logs.skipped.iter().map(|s| s.to_string()).collect();
        Reply::json(json!({"games": games, "skipped": skipped}))
    }

    fn game(&self, n: &str) -> Reply {
        let logs = logs::load(&self.log_paths());
        let Some(game) = n.parse::<usize>().ok().and_then(|n| logs.games.get(n)) else {
            return Reply::error(404, format!("no game {n} ({} logged)", logs.games.len()));
        };
        match view::game_view(&game.record) {
            Ok(mut v) => {
                v["file"] = json!(game.file.display().to_string());
                v["line"] = json!(game.line);
                Reply::json(v)
            }
            Err(e) => Reply::error(422, format!("{} line {}: {e}", game.file.display(), game.line)),
        }
    }

    fn figure_names(&self) -> Vec<String> {
        let Some(dir) = &self.config.figures else { return Vec::new() };
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
            .unwrap_or_default();
        names.retain(|n| n.ends_with(".svg"));
        names.sort();
        names
    }

    fn figure_list(&self) -> Reply {
        Reply::json(json!({"figures": self.figure_names()}))
    }

    /// A figure by its file name, only one of those listed (no path reaches anything else).
    fn figure(&self, name: &str) -> Reply {
        let listed = self.figure_names().into_iter().any(|n| n == name);
        let dir = self.config.figures.as_ref().filter(|_| listed);
        match dir.map(|d| std::fs::read_to_string(d.join(name))) {
            Some(Ok(svg)) => Reply { status: 200, content_type: "image/svg+xml", body: svg },
            _ => Reply::error(404, format!("no figure {name}")),
        }
    }

    fn bot_list(&self) -> Reply {
        let bots: Vec<Value> = (self.config.bots.iter().enumerate())
            .map(|(id, b)| json!({"id": id, "game_type": b.game.name(), "label": b.label}))
            .collect();
        Reply::json(json!({"bots": bots, "max_ms": MAX_PLAY_MS}))
    }

    fn new_play(&self, body: &str) -> Reply {
        let request: Value = match serde_json::from_str(body) {
            Ok(v) => v,
            Err(e) => return Reply::error(400, format!("the request is not JSON: {e}")),
        };
        let Some(choice) = request["bot"].as_u64().and_then(|b| self.config.bots.get(b as usize)) else {
            return Reply::error(400, format!("no bot {} ({} offered)", request["bot"], self.config.bots.len()));
        };
        let human = match request["human"].as_str() {
            Some("first") => Player::First,
            Some("second") => Player::Second,
            other => return Reply::error(400, format!("human must be \"first\" or \"second\", not {other:?}")),
        };
        let ms = request["time_ms"].as_u64().unwrap_or(1000);
        if !(1..=MAX_PLAY_MS).contains(&ms) {
            return Reply::error(400, format!("time_ms must be 1 to {MAX_PLAY_MS}, not {ms}"));
        }
        let game = play::start(choice, human, Duration::from_millis(ms));
        let id = self.next_play.fetch_add(1, Ordering::SeqCst);
        let state = game.state();
        self.plays.lock().expect("no panics while held").insert(id, Arc::new(Mutex::new(game)));
        Reply::json(json!({"id": id, "state": state}))
    }

    fn with_play(&self, n: &str, act: impl FnOnce(&mut dyn PlayGame) -> Result<Value, String>) -> Reply {
        let game =
            n.parse::<u64>().ok().and_then(|n| self.plays.lock().expect("no panics while held").get(&n).cloned());
        let Some(game) = game else {
            return Reply::error(404, format!("no game {n} being played"));
        };
        // A game is played by one request at a time; other games and pages go on meanwhile.
        let mut game = game.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match act(game.as_mut()) {
            Ok(state) => Reply::json(state),
            Err(e) => Reply::error(400, e),
        }
    }

    /// Saves a played game: its history as a fixture file, its record appended to
    /// `played.jsonl`.
    fn save(&self, n: &str) -> Reply {
        let dir = self.config.save_dir.clone();
        let log = self.played_log();
        self.with_play(n, |g| {
            let record = g.log_record();
            std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
            let game_type = record["game_type"].as_str().unwrap_or("game");
            let fixture = dir.join(format!("{game_type}-{stamp}-{n}.json"));
            std::fs::write(&fixture, format!("{}\n", g.history()))
                .map_err(|e| format!("cannot write {}: {e}", fixture.display()))?;
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)
                .map_err(|e| format!("cannot open {}: {e}", log.display()))?;
            writeln!(file, "{record}").map_err(|e| format!("cannot write {}: {e}", log.display()))?;
            Ok(json!({"fixture": fixture.display().to_string(), "log": log.display().to_string()}))
        })
    }
}

/// Our bot for each game where its binary sits beside this one (as `cargo build` and
/// `make dist` leave them), as the play page's default choices.
pub fn default_bots() -> Vec<BotChoice> {
    let Some(dir) = std::env::current_exe().ok().and_then(|p| p.parent().map(PathBuf::from)) else {
        return Vec::new();
    };
    GameName::ALL
        .into_iter()
        .filter_map(|game| {
            let path = dir.join(game.name());
            let argv = vec![path.to_str()?.to_string()];
            let spec = CompetitorSpec::Botzone(BotSpec { argv, keep_running: false, sandbox: None });
            path.is_file().then(|| BotChoice { game, label: format!("{} (ours, default engine)", game.name()), spec })
        })
        .collect()
}

/// `--bot GAME=COMMAND`, e.g. `nogo=target/release/nogo --engine uct` or `ataxx=uai:./engine`.
pub fn parse_bot(text: &str) -> Result<BotChoice, String> {
    let (game, command) = text.split_once('=').ok_or(format!("{text:?}: expected GAME=COMMAND"))?;
    let game = GameName::from_name(game.trim()).ok_or(format!("{text:?}: the game must be ataxx, nogo or dots"))?;
    let spec = CompetitorSpec::parse(command.trim(), false)?;
    Ok(BotChoice { game, label: command.trim().to_string(), spec })
}

/// Serves until killed; `ready` gets the address bound (port 0 picks a free one).
pub fn serve(config: ServeConfig, port: u16, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let http =
        tiny_http::Server::http(("127.0.0.1", port)).map_err(|e| format!("cannot listen on port {port}: {e}"))?;
    let addr = http.server_addr().to_ip().ok_or("not an IP address")?;
    ready(addr);
    let server = Arc::new(Server::new(config));
    for mut request in http.incoming_requests() {
        let server = Arc::clone(&server);
        // One thread a request: a bot thinking for the play page holds up no other page.
        std::thread::spawn(move || {
            let mut body = String::new();
            let reply = match request.as_reader().read_to_string(&mut body) {
                Ok(_) => server.respond(request.method().as_str(), request.url(), &body),
                Err(e) => Reply::error(400, format!("unreadable request body: {e}")),
            };
            let header = tiny_http::Header::from_bytes("Content-Type", reply.content_type).expect("a valid header");
            let response =
                tiny_http::Response::from_string(reply.body).with_status_code(reply.status).with_header(header);
            // A client that left before the answer is no error of ours.
            let _ = request.respond(response);
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server_with_log(text: &str) -> (Server, PathBuf) {
        let dir = std::env::temp_dir().join(format!("arena-web-{}-{}", std::process::id(), fastrand::u64(..)));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("m.jsonl"), text).unwrap();
        let bot = parse_bot("nogo=fakebot").unwrap();
        std::fs::create_dir_all(dir.join("figures")).unwrap();
        std::fs::write(dir.join("figures/elo_x.svg"), "<svg/>").unwrap();
        std::fs::write(dir.join("secret.svg"), "<svg>secret</svg>").unwrap();
        let config = ServeConfig {
            logs: vec![dir.join("m.jsonl")],
            bots: vec![bot],
            save_dir: dir.join("saved"),
            figures: Some(dir.join("figures")),
        };
        (Server::new(config), dir)
    }

    const GAME: &str = concat!(
        r#"{"game":3,"game_type":"nogo","players":{"first":"a","second":"b"},"opening":[],"#,
        r#""moves":[{"by":"first","move":{"x":0,"y":0},"ms":5}],"result":"first","reason":"r"}"#
    );

    #[test]
    fn the_page_the_games_and_404s() {
        let (server, dir) = server_with_log(&format!("{GAME}\nbroken\n"));
        let page = server.respond("GET", "/", "");
        assert_eq!((page.status, page.content_type), (200, "text/html; charset=utf-8"));
        assert!(page.body.contains("app.js"));
        assert_eq!(server.respond("GET", "/app.js", "").status, 200);
        let list: Value = serde_json::from_str(&server.respond("GET", "/api/games", "").body).unwrap();
        assert_eq!(list["games"].as_array().unwrap().len(), 1);
        assert_eq!(list["games"][0]["game"], 3);
        assert!(list["skipped"][0]
            .as_str()
            .unwrap()
            .ends_with("m.jsonl line 2: not JSON: expected value at line 1 column 1"));
        let game: Value = serde_json::from_str(&server.respond("GET", "/api/games/0", "").body).unwrap();
        assert_eq!(game["frames"].as_array().unwrap().len(), 2);
        let figures: Value = serde_json::from_str(&server.respond("GET", "/api/figures", "").body).unwrap();
        assert_eq!(figures["figures"], json!(["elo_x.svg"]));
        let svg = server.respond("GET", "/figures/elo_x.svg", "");
        assert_eq!((svg.status, svg.content_type, svg.body.as_str()), (200, "image/svg+xml", "<svg/>"));
        for bad in ["/api/games/1", "/api/games/x", "/../../etc/passwd", "/app.js/x", "/api/play/9"]
            .into_iter()
            .chain(["/figures/..%2Fsecret.svg", "/figures/../secret.svg", "/figures/secret.svg", "/figures/"])
        {
            assert_eq!(server.respond("GET", bad, "").status, 404, "{bad}");
        }
        assert_eq!(server.respond("DELETE", "/", "").status, 404);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bad_play_requests_are_refused_with_a_reason() {
        let (server, dir) = server_with_log(GAME);
        for (body, why) in [
            ("{", "not JSON"),
            (r#"{"bot":5,"human":"first"}"#, "no bot 5"),
            (r#"{"bot":0,"human":"red"}"#, "human must be"),
            (r#"{"bot":0,"human":"first","time_ms":99999}"#, "time_ms must be"),
        ] {
            let reply = server.respond("POST", "/api/play", body);
            assert_eq!(reply.status, 400, "{body}");
            assert!(reply.body.contains(why), "{body}: {}", reply.body);
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bot_choices_name_their_game() {
        let bot = parse_bot("dots=target/release/dots --engine uct").unwrap();
        assert_eq!((bot.game, bot.label.as_str()), (GameName::Dots, "target/release/dots --engine uct"));
        assert!(parse_bot("go=x").unwrap_err().contains("ataxx, nogo or dots"));
        assert!(parse_bot("nogo").unwrap_err().contains("GAME=COMMAND"));
    }
}
