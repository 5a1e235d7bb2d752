// The arena's page: replay logged games, play against a bot. The server computes every
// board (rules never live here); this file only draws frames and sends clicks.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const NAMES = { ataxx: "Ataxx", nogo: "NoGo", dots: "Pencil" };

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

async function api(path, body) {
  const options = body === undefined ? {} : { method: "POST", body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function sideName(gameType, side) {
  if (gameType === "dots") return side === "first" ? "red (first)" : "blue (second)";
  return side === "first" ? "black (first)" : "white (second)";
}

// ---- Boards ---------------------------------------------------------------------------
// draw(svg, gameType, board, {prev, move, pick, selected}) draws one frame. `prev` is the
// board before the move (Ataxx: flipped pieces are marked), `move` the move in Botzone's
// JSON, `pick(move)` makes the legal moves clickable (play page).

function drawBoard(svg, gameType, board, opts) {
  svg.replaceChildren();
  svg.dataset.rows = board.rows.join("/");
  svg.dataset.game = gameType;
  ({ ataxx: drawAtaxx, nogo: drawNogo, dots: drawDots })[gameType](svg, board, opts || {});
}

function drawAtaxx(svg, board, opts) {
  const n = 7, cell = 64, off = 16;
  const centre = (v) => off + v * cell + cell / 2;
  const sources = new Map();
  for (const m of opts.pick ? board.legal : []) {
    const key = m.x0 + "," + m.y0;
    if (!sources.has(key)) sources.set(key, []);
    sources.get(key).push(m);
  }
  const targets = opts.selected ? sources.get(opts.selected) || [] : [];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const rect = el("rect", { x: off + x * cell, y: off + y * cell, width: cell, height: cell,
        fill: (x + y) % 2 ? "#e9e3d0" : "#f3efe2", stroke: "#b9b09a", "data-x": x, "data-y": y }, svg);
      const c = board.rows[y][x];
      if (c !== ".") {
        el("circle", { cx: centre(x), cy: centre(y), r: 24, fill: c === "X" ? "#1d1d1f" : "#f4f4f4",
          stroke: "#333", "stroke-width": 2, class: "piece", "data-x": x, "data-y": y, "pointer-events": "none" }, svg);
        const was = opts.prev && opts.prev.rows[y][x];
        if (was && was !== "." && was !== c) {
          el("circle", { cx: centre(x), cy: centre(y), r: 8, fill: "#e8902a", class: "flipped", "pointer-events": "none" }, svg);
        }
      }
      const key = x + "," + y;
      if (opts.pick && sources.has(key)) {
        rect.setAttribute("class", "legal source");
        rect.setAttribute("stroke", opts.selected === key ? "#e8902a" : "#6a9f5b");
        rect.setAttribute("stroke-width", 3);
        // Pieces let clicks through to their square.
        rect.addEventListener("click", () => opts.select(key));
      }
    }
  }
  for (const m of targets) {
    const jump = Math.max(Math.abs(m.x1 - m.x0), Math.abs(m.y1 - m.y0)) > 1;
    const dot = el("circle", { cx: centre(m.x1), cy: centre(m.y1), r: 10, fill: jump ? "#e8902a" : "#6a9f5b",
      class: `legal target ${jump ? "jump" : "clone"}`, "data-x": m.x1, "data-y": m.y1 }, svg);
    dot.addEventListener("click", () => opts.pick(m));
  }
  const m = opts.move;
  if (m && m.x0 >= 0) {
    const jump = Math.max(Math.abs(m.x1 - m.x0), Math.abs(m.y1 - m.y0)) > 1;
    el("rect", { x: off + m.x0 * cell + 3, y: off + m.y0 * cell + 3, width: cell - 6, height: cell - 6,
      fill: "none", stroke: "#e8902a", "stroke-width": 3, "stroke-dasharray": jump ? "6 4" : "", "pointer-events": "none" }, svg);
    if (jump) {
      el("line", { x1: centre(m.x0), y1: centre(m.y0), x2: centre(m.x1), y2: centre(m.y1),
        stroke: "#e8902a", "stroke-width": 5, "marker-end": "url(#arrow)", opacity: 0.85, "pointer-events": "none" }, svg);
      const defs = el("defs", {}, svg);
      const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 7, refY: 5,
        markerWidth: 4, markerHeight: 4, orient: "auto" }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#e8902a" }, marker);
    }
    el("rect", { x: off + m.x1 * cell + 3, y: off + m.y1 * cell + 3, width: cell - 6, height: cell - 6,
      fill: "none", stroke: "#d0433a", "stroke-width": 3, "pointer-events": "none" }, svg);
  }
}

function drawNogo(svg, board, opts) {
  const n = 9, step = 50, off = 40;
  const at = (v) => off + v * step;
  el("rect", { x: 0, y: 0, width: 480, height: 480, fill: "#e3c07b" }, svg);
  for (let i = 0; i < n; i++) {
    el("line", { x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i), stroke: "#5b4a2a" }, svg);
    el("line", { x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1), stroke: "#5b4a2a" }, svg);
  }
  el("circle", { cx: at(4), cy: at(4), r: 4, fill: "#5b4a2a" }, svg);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const c = board.rows[y][x];
      if (c !== ".") {
        el("circle", { cx: at(x), cy: at(y), r: 22, fill: c === "X" ? "#1d1d1f" : "#f7f7f7",
          stroke: "#222", class: "stone", "data-x": x, "data-y": y }, svg);
      }
    }
  }
  for (const m of opts.pick ? board.legal : []) {
    const spot = el("circle", { cx: at(m.x), cy: at(m.y), r: 20, fill: "#4caf50", "fill-opacity": 0.18,
      class: "legal", "data-x": m.x, "data-y": m.y }, svg);
    spot.addEventListener("click", () => opts.pick(m));
  }
  const m = opts.move;
  if (m && m.x >= 0) el("circle", { cx: at(m.x), cy: at(m.y), r: 7, fill: "#d0433a", class: "last" }, svg);
}

function drawDots(svg, board, opts) {
  const step = 80, off = 40;
  const at = (v) => off + (v / 2) * step;
  const legal = new Set((opts.pick ? board.legal : []).map((m) => m.x + "," + m.y));
  for (let y = 0; y < 11; y++) {
    for (let x = 0; x < 11; x++) {
      const c = board.rows[y][x];
      if (x % 2 === 1 && y % 2 === 1 && c !== ".") {
        el("rect", { x: at(x - 1) + 3, y: at(y - 1) + 3, width: step - 6, height: step - 6,
          fill: c === "A" ? "#d0433a" : "#2f6fd0", "fill-opacity": 0.55, class: "box", "data-x": x, "data-y": y }, svg);
      }
    }
  }
  for (let y = 0; y < 11; y++) {
    for (let x = 0; x < 11; x++) {
      if ((x + y) % 2 === 0) continue;
      const [x1, y1, x2, y2] = x % 2 ? [at(x - 1), at(y), at(x + 1), at(y)] : [at(x), at(y - 1), at(x), at(y + 1)];
      const drawn = board.rows[y][x] === "1";
      const last = opts.move && opts.move.x === x && opts.move.y === y;
      el("line", { x1, y1, x2, y2, stroke: last ? "#e8902a" : drawn ? "#263238" : "#d5d5d5",
        "stroke-width": drawn ? 7 : 2, "stroke-dasharray": drawn ? "" : "4 6", "stroke-linecap": "round",
        class: drawn ? "edge drawn" : "edge", "data-x": x, "data-y": y }, svg);
      if (legal.has(x + "," + y)) {
        // A band along the edge (a line has no area to click on), short of the dots.
        const [w, h] = x % 2 ? [x2 - x1 - 16, 18] : [18, y2 - y1 - 16];
        const hit = el("rect", { x: (x1 + x2 - w) / 2, y: (y1 + y2 - h) / 2, width: w, height: h, rx: 6,
          fill: "#4caf50", "fill-opacity": 0.25, class: "legal", "data-x": x, "data-y": y }, svg);
        hit.addEventListener("click", () => opts.pick({ x, y }));
      }
    }
  }
  for (let y = 0; y < 11; y += 2) {
    for (let x = 0; x < 11; x += 2) el("circle", { cx: at(x), cy: at(y), r: 6, fill: "#263238", "pointer-events": "none" }, svg);
  }
}

function countsText(gameType, counts) {
  const what = { ataxx: "pieces", nogo: "stones", dots: "boxes" }[gameType];
  return `${what}: ${sideName(gameType, "first")} ${counts[0]}, ${sideName(gameType, "second")} ${counts[1]}`;
}

function moveText(move) {
  if (!move) return "no move (fault)";
  if ("x0" in move) return move.x0 < 0 ? "pass" : `(${move.x0},${move.y0}) to (${move.x1},${move.y1})`;
  return move.x < 0 ? "pass" : `(${move.x},${move.y})`;
}

function resultText(view) {
  if (view.result === null || view.result === undefined) return "";
  const who = view.result === "draw" ? "a draw" : `${sideName(view.game_type, view.result)} wins`;
  return `result: ${who}${view.reason ? ` (${view.reason})` : ""}`;
}

// ---- Replay ---------------------------------------------------------------------------

const replay = { games: [], view: null, at: 0, timer: null, id: null };

async function loadGames() {
  const data = await api("/api/games");
  replay.games = data.games;
  renderGameList();
  const skipped = $("skipped");
  skipped.replaceChildren(...data.skipped.map((s) => Object.assign(document.createElement("li"), { textContent: s })));
  $("skipped-box").hidden = data.skipped.length === 0;
  if ($("watch").checked) await followOpenGame();
}

// Following: the open game, if it was under way, is read again; at its last turn the view
// stays at the last turn. A game that ended has moved from LOG.live.jsonl to LOG.
async function followOpenGame() {
  const v = replay.view;
  if (!v || v.result !== null || replay.timer) return;
  const same = (g) => g.game === v.game && (g.file === v.file || g.file === v.file.replace(/\.live\.jsonl$/, ".jsonl"));
  const found = replay.games.find((g) => same(g) && g.result !== null) || replay.games.find(same);
  if (!found) return;
  const atEnd = replay.at === v.frames.length - 1;
  await openGame(found.id, atEnd ? Number.MAX_SAFE_INTEGER : replay.at);
}

function renderGameList() {
  const filter = $("filter-game").value;
  const shown = replay.games.filter((g) => !filter || g.game_type === filter);
  $("games-count").textContent = `${shown.length} games`;
  $("games").replaceChildren(...shown.map((g) => {
    const li = document.createElement("li");
    li.dataset.id = g.id;
    if (g.id === replay.id) li.className = "selected";
    const result = g.result === "draw" ? "draw" : g.result ? `${g.result} won` : "under way";
    li.innerHTML = `<b>${NAMES[g.game_type] || g.game_type}</b> ${escapeHtml(shortName(g.players.first))} vs ${escapeHtml(shortName(g.players.second))}` +
      `<br>${result}, ${g.moves} turns${g.fault ? ' <span class="fault">fault</span>' : ""}` +
      `<br><span class="where">${escapeHtml(g.file)}:${g.line}</span>`;
    li.addEventListener("click", () => openGame(g.id));
    return li;
  }));
}

// A player as the log names it, its programs' folders left out (the list gets narrow).
function shortName(command) {
  return String(command).replace(/\S*\//g, "");
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

async function openGame(id, at) {
  stopAutoplay();
  try {
    replay.view = await api(`/api/games/${id}`);
  } catch (e) {
    $("game-title").textContent = `cannot show game ${id}: ${e.message}`;
    return;
  }
  replay.id = id;
  const v = replay.view;
  $("game-title").textContent = `${NAMES[v.game_type]}: ${shortName(v.players.first)} (first) vs ${shortName(v.players.second)} (second)`;
  $("game-title").title = `${v.players.first} vs ${v.players.second}`;
  $("slider").max = v.frames.length - 1;
  renderGameList();
  show(at === undefined ? 0 : Math.min(at, v.frames.length - 1));
}

function show(at) {
  const v = replay.view;
  if (!v) return;
  replay.at = Math.max(0, Math.min(at, v.frames.length - 1));
  const frame = v.frames[replay.at];
  const prev = replay.at > 0 ? v.frames[replay.at - 1].board : null;
  drawBoard($("board"), v.game_type, frame.board, { prev, move: frame.move });
  $("slider").value = replay.at;
  const last = v.frames.length - 1;
  $("turn").textContent = replay.at === 0
    ? `after the ${v.opening_moves}-move opening (${last} turns follow)`
    : `turn ${frame.turn + 1} of ${last}`;
  $("counts").textContent = countsText(v.game_type, frame.board.counts);
  $("move-info").textContent = frame.turn === null ? ""
    : `${sideName(v.game_type, frame.by)}: ${moveText(frame.move)}, ${frame.ms} ms` +
      (frame.value === null ? "" : `, first player's chance ${(100 * frame.value).toFixed(1)}%`);
  $("debug").textContent = frame.debug || "";
  $("result").textContent = replay.at === last ? resultText(v) : "";
  history.replaceState(null, "", `#game=${replay.id}&turn=${replay.at}`);
  drawGraph();
}

function drawGraph() {
  const svg = $("graph"), v = replay.view;
  svg.replaceChildren();
  const W = 640, top = 10, mid = 150, bottom = 210, left = 40, right = 630;
  const n = Math.max(1, v.frames.length - 1);
  const x = (k) => left + (right - left) * k / n;
  const y = (value) => top + (mid - top) * (1 - value);
  el("rect", { x: left, y: top, width: right - left, height: mid - top, fill: "#fbfbf8", stroke: "#ccc" }, svg);
  for (const [value, label] of [[1, "100%"], [0.5, "50%"], [0, "0%"]]) {
    el("line", { x1: left, y1: y(value), x2: right, y2: y(value), stroke: "#e0e0e0" }, svg);
    el("text", { x: 4, y: y(value) + 4, "font-size": 11, fill: "#777" }, svg).textContent = label;
  }
  const maxMs = Math.max(1, ...v.frames.map((f) => f.ms || 0));
  el("text", { x: 4, y: mid + 18, "font-size": 11, fill: "#777" }, svg).textContent = `${maxMs} ms`;
  const paths = { first: "", second: "" };
  v.frames.forEach((f, k) => {
    if (f.turn === null) return;
    const h = (bottom - mid - 8) * (f.ms || 0) / maxMs;
    el("rect", { x: x(k) - 1, y: bottom - h, width: Math.max(1.5, (right - left) / n - 1), height: h,
      fill: f.fault ? "#d0433a" : "#b0bec5" }, svg);
    if (f.value !== null) paths[f.by] += `${paths[f.by] ? "L" : "M"}${x(k).toFixed(1)},${y(f.value).toFixed(1)}`;
  });
  el("path", { d: paths.first, fill: "none", stroke: "#1d1d1f", "stroke-width": 2 }, svg);
  el("path", { d: paths.second, fill: "none", stroke: "#9e9e9e", "stroke-width": 2, "stroke-dasharray": "5 3" }, svg);
  el("line", { x1: x(replay.at), y1: top, x2: x(replay.at), y2: bottom, stroke: "#e8902a", "stroke-width": 2 }, svg);
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    const px = (event.clientX - box.left) * W / box.width;
    show(Math.round((px - left) / (right - left) * n));
  };
}

function stopAutoplay() {
  clearInterval(replay.timer);
  replay.timer = null;
  $("autoplay").textContent = "autoplay";
}

function toggleAutoplay() {
  if (replay.timer) return stopAutoplay();
  if (!replay.view) return;
  $("autoplay").textContent = "stop";
  replay.timer = setInterval(() => {
    if (replay.at >= replay.view.frames.length - 1) return stopAutoplay();
    show(replay.at + 1);
  }, 600);
}

// ---- Play -----------------------------------------------------------------------------

const play = { id: null, state: null, selected: null, busy: false };

async function loadBots() {
  const data = await api("/api/bots");
  $("play-bot").replaceChildren(...data.bots.map((b) =>
    Object.assign(document.createElement("option"), { value: b.id, textContent: `${NAMES[b.game_type]}: ${b.label}` })));
  if (data.bots.length === 0) $("play-status").textContent = "no bot to play: start the server with --bot GAME=COMMAND";
}

async function playRequest(path, body, waiting) {
  if (play.busy) return;
  play.busy = true;
  $("play-status").textContent = waiting;
  try {
    const data = await api(path, body);
    return data;
  } catch (e) {
    $("play-status").textContent = e.message;
    renderPlay(false);
    return null;
  } finally {
    play.busy = false;
  }
}

async function newGame(event) {
  event.preventDefault();
  const body = { bot: Number($("play-bot").value), human: $("play-side").value, time_ms: Number($("play-ms").value) };
  const data = await playRequest("/api/play", body, "starting: the bot may move first...");
  if (!data) return;
  play.id = data.id;
  play.state = data.state;
  play.selected = null;
  $("play-saved").textContent = "";
  renderPlay(true);
}

// A move or an undo: the server answers with the game's new state.
async function playAction(action, body, waiting) {
  const state = await playRequest(`/api/play/${play.id}/${action}`, body, waiting);
  if (state) {
    play.state = state;
    play.selected = null;
    renderPlay(true);
  }
}

const sendMove = (move) => playAction("move", { move }, "the bot is thinking...");
const undo = () => playAction("undo", {}, "taking back...");

async function save() {
  const saved = await playRequest(`/api/play/${play.id}/save`, {}, "saving...");
  if (saved) {
    $("play-saved").textContent = `saved: ${saved.fixture} (a Botzone history) and a line in ${saved.log}`;
    renderPlay(true);
  }
}

function renderPlay(updateStatus) {
  const s = play.state;
  if (!s) return;
  const frames = s.frames;
  const frame = frames[frames.length - 1];
  const prev = frames.length > 1 ? frames[frames.length - 2].board : null;
  const ours = !s.over && frame.board.to_move === s.human && !frame.board.must_pass;
  drawBoard($("play-board"), s.game_type, frame.board, {
    prev, move: frame.move, selected: play.selected,
    pick: ours ? sendMove : null,
    select: (key) => { play.selected = play.selected === key ? null : key; renderPlay(false); },
  });
  $("play-counts").textContent = countsText(s.game_type, frame.board.counts);
  const lastBot = [...frames].reverse().find((f) => f.turn !== null && f.by !== s.human);
  $("play-debug").textContent = lastBot ? `bot: ${moveText(lastBot.move)}, ${lastBot.ms} ms\n${lastBot.debug || ""}` : "";
  if (updateStatus) {
    $("play-status").textContent = s.over
      ? (s.fault ? `the bot faulted (${s.fault}): you win` : resultText(s))
      : `your move: you are ${sideName(s.game_type, s.human)}`;
  }
  $("play-status").dataset.over = s.over;
  $("play-undo").disabled = false;
  $("play-save").disabled = false;
}

// ---- Wiring ---------------------------------------------------------------------------

function switchTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  for (const page of ["replay", "play", "figures"]) $(page).hidden = name !== page;
  if (name === "figures") loadFigures();
}

async function loadFigures() {
  const data = await api("/api/figures");
  const list = $("figure-list");
  if (data.figures.length === 0) list.textContent = "no figures: start the server with --figures DIR";
  else list.replaceChildren(...data.figures.map((name) => {
    const figure = document.createElement("figure");
    const img = Object.assign(document.createElement("img"), { src: `/figures/${name}`, alt: name });
    figure.append(img, Object.assign(document.createElement("figcaption"), { textContent: name }));
    return figure;
  }));
}

document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => switchTab(tab.dataset.tab)));
$("filter-game").addEventListener("change", renderGameList);
$("first").addEventListener("click", () => show(0));
$("back").addEventListener("click", () => show(replay.at - 1));
$("forward").addEventListener("click", () => show(replay.at + 1));
$("last").addEventListener("click", () => replay.view && show(replay.view.frames.length - 1));
$("autoplay").addEventListener("click", toggleAutoplay);
$("slider").addEventListener("input", (e) => show(Number(e.target.value)));
$("new-game").addEventListener("submit", newGame);
$("play-undo").addEventListener("click", undo);
$("play-save").addEventListener("click", save);
document.addEventListener("keydown", (e) => {
  if ($("replay").hidden || e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  const keys = { ArrowLeft: () => show(replay.at - 1), ArrowRight: () => show(replay.at + 1),
    Home: () => show(0), End: () => replay.view && show(replay.view.frames.length - 1), " ": toggleAutoplay };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});

let watchTimer = null;
$("watch").addEventListener("change", (e) => {
  clearInterval(watchTimer);
  if (e.target.checked) watchTimer = setInterval(loadGames, 3000);
});

(async function start() {
  await Promise.all([loadGames(), loadBots()]);
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("game")) await openGame(Number(hash.get("game")), Number(hash.get("turn") || 0));
  document.body.dataset.ready = "true";
})();
