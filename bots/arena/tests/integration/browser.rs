//! The web page in a real browser: headless Chromium loads `arena serve`, steps a logged
//! game of each kind to its end with the page's own button and checks the final board,
//! counts and result in the DOM; then plays a few moves of each game against a random bot
//! by clicking, takes one back and saves the game. Screenshots of each page go to
//! `target/browser-screenshots/` (test output, not committed).
//!
//! Driven through WebDriver (the `fantoccini` client) by ChromeDriver. Needs Debian's
//! `chromium` and `chromium-driver` (`/usr/bin/chromium` and `/usr/bin/chromedriver`, or
//! the paths in `CHROMIUM` and `CHROMEDRIVER`). It is an ignored test: `make test` runs it
//! where they are, and says it skipped it where they are not (a failure under
//! `ARENA_BROWSER_TESTS=required`, as `.ci/run` sets after installing them).

use arena::web::view::game_view;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::error::Error;
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const FAKE: &str = env!("CARGO_BIN_EXE_fakebot");
const GAMES: [&str; 3] = ["ataxx", "nogo", "dots"];

type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

fn program(variable: &str, default: &str) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var(variable).unwrap_or_else(|_| default.into()));
    path.is_file().then_some(path)
}

/// A process killed when dropped (the server, ChromeDriver).
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Served {
    _server: Running,
    url: String,
}

fn random_bot(game: &str) -> String {
    format!("{FAKE} --mode random --game {game}")
}

/// One logged game of each kind, between two random movers.
fn write_logs(dir: &Path) {
    for game in GAMES {
        let status = Command::new(ARENA)
            .args([game, "--a", &random_bot(game), "--b", &random_bot(game), "--games", "1", "--time-ms", "500"])
            .args(["--quiet", "--seed", "3", "--log"])
            .arg(dir.join(format!("{game}.jsonl")))
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "the {game} match failed");
    }
    // A line the page must name and skip.
    std::fs::write(dir.join("broken.jsonl"), "not a game\n").unwrap();
}

fn serve(dir: &Path) -> Served {
    let mut command = Command::new(ARENA);
    command.args(["serve", "--port", "0", "--log"]).arg(dir).arg("--save-dir").arg(dir.join("saved"));
    command.arg("--figures").arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/figures"));
    for game in GAMES {
        command.args(["--bot", &format!("{game}={}", random_bot(game))]);
    }
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().nth(1).expect("serving URL").to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    Served { _server: Running(child), url }
}

async fn eval(c: &Client, expression: &str) -> Result<Value> {
    Ok(c.execute(&format!("return {expression};"), vec![]).await?)
}

async fn text(c: &Client, id: &str) -> Result<String> {
    Ok(eval(c, &format!("document.getElementById('{id}').textContent")).await?.as_str().unwrap_or("").to_string())
}

async fn rows(c: &Client, board: &str) -> Result<String> {
    Ok(eval(c, &format!("document.getElementById('{board}').dataset.rows")).await?.as_str().unwrap_or("").to_string())
}

async fn click(c: &Client, css: &str) -> Result<()> {
    let element = c.find(Locator::Css(css)).await.map_err(|e| format!("no {css}: {e}"))?;
    element.click().await.map_err(|e| format!("cannot click {css}: {e}"))?;
    Ok(())
}

/// Waits until `expression` is true in the page.
async fn wait_for(c: &Client, expression: &str, what: &str) -> Result<()> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if eval(c, expression).await? == Value::Bool(true) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(format!("timed out waiting for {what}").into())
}

async fn screenshot(c: &Client, name: &str) -> Result<()> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../browser-screenshots");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(format!("{name}.png")), c.screenshot().await?)?;
    Ok(())
}

async fn replay_each_game_to_its_end(c: &Client, served: &Served, dir: &Path) -> Result<()> {
    c.goto(&served.url).await?;
    wait_for(c, "document.body.dataset.ready === 'true'", "the page").await?;
    assert_eq!(eval(c, "document.querySelectorAll('#games li').length").await?, json!(3));
    assert!(text(c, "skipped").await?.contains("broken.jsonl line 1: not JSON"));
    for game in GAMES {
        let record: Value = serde_json::from_str(std::fs::read_to_string(dir.join(format!("{game}.jsonl")))?.trim())?;
        let view = game_view(&record)?;
        let frames = view["frames"].as_array().unwrap();
        let last = frames.last().unwrap();
        // The list follows the files' order: ataxx, dots, nogo (broken.jsonl has no game).
        let id = ["ataxx", "dots", "nogo"].iter().position(|g| *g == game).unwrap();
        click(c, &format!("#games li[data-id='{id}']")).await?;
        wait_for(c, &format!("document.getElementById('board').dataset.game === '{game}'"), "the game").await?;
        // Step to the end with the page's own button, one turn a click.
        let forward = c.find(Locator::Css("#forward")).await?;
        for _ in 1..frames.len() {
            forward.click().await?;
        }
        let end = format!("document.getElementById('slider').value === '{}'", frames.len() - 1);
        wait_for(c, &end, "the end").await?;
        let expected: Vec<&str> =
            last["board"]["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        assert_eq!(rows(c, "board").await?, expected.join("/"), "{game}: the final board");
        let counts = &last["board"]["counts"];
        let shown = text(c, "counts").await?;
        assert!(shown.contains(&format!(" {}, ", counts[0])) && shown.ends_with(&format!(" {}", counts[1])), "{shown}");
        let result = text(c, "result").await?;
        let winner = record["result"].as_str().unwrap();
        assert!(result.starts_with("result: "), "{game}: {result}");
        assert!(winner == "draw" || result.contains(&format!("({winner}) wins")), "{game}: {result} for {winner}");
        screenshot(c, &format!("replay-{game}")).await?;
    }
    Ok(())
}

/// A game under way (as `LOG.live.jsonl` holds it) is listed, followed as it grows while
/// the view is at its last turn, and shown finished once its line is in the log.
async fn follow_a_game_under_way(c: &Client, dir: &Path) -> Result<()> {
    let record: Value = serde_json::from_str(std::fs::read_to_string(dir.join("nogo.jsonl"))?.trim())?;
    let under_way = |turns: usize| {
        let mut r = record.clone();
        r["moves"] = json!(r["moves"].as_array().unwrap()[..turns]);
        r["result"] = Value::Null;
        format!("{r}\n")
    };
    std::fs::write(dir.join("zz.live.jsonl"), under_way(5))?;
    click(c, "#watch").await?;
    wait_for(c, "document.querySelectorAll('#games li').length === 4", "the game under way").await?;
    assert!(text(c, "games").await?.contains("under way, 5 turns"));
    click(c, "#games li[data-id='3']").await?;
    wait_for(c, "document.getElementById('slider').max === '5'", "the game under way").await?;
    click(c, "#last").await?;
    std::fs::write(dir.join("zz.live.jsonl"), under_way(10))?;
    wait_for(c, "document.getElementById('slider').value === '10'", "the next turns").await?;
    std::fs::remove_file(dir.join("zz.live.jsonl"))?;
    std::fs::write(dir.join("zz.jsonl"), format!("{record}\n"))?;
    wait_for(c, "document.getElementById('result').textContent.startsWith('result: ')", "the result").await?;
    click(c, "#watch").await?;
    Ok(())
}

/// Clicks one legal move (Ataxx: a piece, then one of its targets).
async fn click_a_legal_move(c: &Client, game: &str) -> Result<()> {
    if game != "ataxx" {
        return click(c, "#play-board .legal").await;
    }
    // A clone adds a piece, so three moves add at least three (the check below): the first
    // piece that can clone, then its clone.
    for k in 0.. {
        let sources = c.find_all(Locator::Css("#play-board rect.legal.source")).await?;
        sources.get(k).ok_or("no piece can clone")?.click().await?;
        wait_for(c, "document.querySelectorAll('#play-board .legal.target').length > 0", "targets").await?;
        if eval(c, "document.querySelectorAll('#play-board .legal.target.clone').length > 0").await? == json!(true) {
            return click(c, "#play-board .legal.target.clone").await;
        }
    }
    unreachable!()
}

async fn play_each_game_by_clicking(c: &Client, served: &Served, dir: &Path) -> Result<()> {
    c.goto(&served.url).await?;
    wait_for(c, "document.body.dataset.ready === 'true'", "the page").await?;
    click(c, "#tab-play").await?;
    let my_move = "document.getElementById('play-status').textContent.startsWith('your move')";
    for (bot, game) in GAMES.iter().enumerate() {
        click(c, &format!("#play-bot option[value='{bot}']")).await?;
        click(c, "#play-ms option[value='100']").await?;
        click(c, "#play-new").await?;
        wait_for(c, my_move, "the first move").await?;
        let mut boards = vec![rows(c, "play-board").await?];
        for _ in 0..3 {
            click_a_legal_move(c, game).await?;
            // The bot answers: the board changes and it is our move again.
            let before = boards.last().unwrap().clone();
            let changed = format!("document.getElementById('play-board').dataset.rows !== '{before}' && {my_move}");
            wait_for(c, &changed, "the bot").await?;
            boards.push(rows(c, "play-board").await?);
        }
        let played = |rows: &str| rows.chars().filter(|c| "XO1".contains(*c)).count();
        assert!(played(&boards[3]) >= played(&boards[0]) + 3, "{game}: {boards:?}");
        screenshot(c, &format!("play-{game}")).await?;
        click(c, "#play-undo").await?;
        let undone = format!("document.getElementById('play-board').dataset.rows === '{}' && {my_move}", boards[2]);
        wait_for(c, &undone, "undo").await?;
        click(c, "#play-save").await?;
        wait_for(c, "document.getElementById('play-saved').textContent.startsWith('saved: ')", "save").await?;
    }
    // The figures page shows the experiments' figures as images that load.
    click(c, "#tab-figures").await?;
    let loaded =
        "[...document.querySelectorAll('#figure-list img')].filter((i) => i.complete && i.naturalWidth > 0).length";
    wait_for(c, &format!("{loaded} >= 3"), "the figures").await?;
    screenshot(c, "figures").await?;
    let played = std::fs::read_to_string(dir.join("saved/played.jsonl"))?;
    assert_eq!(played.lines().count(), 3);
    Ok(())
}

/// ChromeDriver on a free port, once it accepts connections.
fn start_chromedriver(program: &Path) -> Result<(Running, u16)> {
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let child =
        Command::new(program).arg(format!("--port={port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
    let running = Running(child);
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(20) {
            return Err("ChromeDriver did not start".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok((running, port))
}

/// Ignored by a plain `cargo test`, so that a machine without Chromium counts it as
/// ignored, not passed: `make test` runs it as a second step where Chromium is present.
#[test]
#[ignore = "needs Chromium and ChromeDriver: make test runs it where they are installed"]
fn the_page_replays_and_plays_each_game_in_chromium() -> Result<()> {
    let (chromium, driver) =
        match (program("CHROMIUM", "/usr/bin/chromium"), program("CHROMEDRIVER", "/usr/bin/chromedriver")) {
            (Some(chromium), Some(driver)) => (chromium, driver),
            _ => return Err("the browser test needs Chromium and ChromeDriver (CHROMIUM, CHROMEDRIVER)".into()),
        };
    let dir = std::env::temp_dir().join(format!("arena-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    write_logs(&dir);
    let served = serve(&dir);
    let (_driver, port) = start_chromedriver(&driver)?;
    // As root and on a closed network, Chromium needs these (see the machine notes).
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
    ];
    let capabilities = json!({"goog:chromeOptions": {"binary": chromium, "args": args}});
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities.as_object().unwrap().clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await?;
        let outcome = async {
            replay_each_game_to_its_end(&client, &served, &dir).await?;
            follow_a_game_under_way(&client, &dir).await?;
            play_each_game_by_clicking(&client, &served, &dir).await
        }
        .await;
        client.close().await?;
        outcome
    })?;
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
