// The page: a view over this machine's own peer (spec/12-peers.md 12.8). Everything
// cryptographic happens in the peer; the page sends what the person picks and draws
// what the peer says. The launch token comes from the address (#token=...) and goes
// with every request; it never leaves for any other site.

import { el } from "./dominoes.js";
import { drawTable } from "./table.js";

const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("token") || await redeem(params.get("code"));

// The browser `dealerless web` opens is given a one-time code, not the token, since a
// process's arguments are readable by every local user (12.8.1): trade it once for the
// token, and keep the token in this page's own address, as if it had been given.
async function redeem(code) {
  if (!code) return null;
  try {
    const response = await fetch("/api/code", { method: "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }) });
    if (!response.ok) return null;
    const given = (await response.json()).token;
    params.delete("code");
    params.set("token", given);
    history.replaceState(null, "", `#${params}`);
    return given;
  } catch {
    return null;
  }
}
const $ = (id) => document.getElementById(id);
let lobby = null;
let socket = null;
let current = null;      // the table shown: its snapshot, kept up to date

function fatal(text) {
  stopped = true;
  $("fatal").textContent = text;
  $("fatal").hidden = false;
}

export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.timer);
  box.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

export async function api(path, options = {}) {
  const headers = { "X-Dealerless-Token": token, ...(options.headers || {}) };
  let body = options.body;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const response = await fetch(path, { method: options.method || "GET", headers, body });
  if (!response.ok) {
    let reason = `${response.status} ${response.statusText}`;
    try { reason = (await response.json()).error || reason; } catch { /* not JSON */ }
    throw new Error(reason);
  }
  return options.raw ? response : response.json();
}

function setHash(table) {
  const next = new URLSearchParams({ token });
  if (table) next.set("table", table);
  history.replaceState(null, "", `#${next}`);
}

// -- the live table ------------------------------------------------------------------

let failures = 0;     // connections to the peer lost or refused in a row
let stopped = false;  // a fatal error is shown: retrying cannot help

// A page the peer dropped (it stopped reading) is let back at once. A peer that does not
// answer has stopped: the person is told so at once, and it is asked again less and less
// often (1 s, 2 s, ... 30 s), not every second for ever.
function connect() {
  const url = `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
  socket = new WebSocket(url);
  socket.onopen = () => {
    failures = 0;
    setOffline(false);
    if (current) watch(current.id);
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (stopped) return;
    if (failures > 0) setOffline(true);
    const delay = failures === 0 ? 0 : 1000 * Math.min(30, 2 ** (failures - 1));
    failures += 1;
    setTimeout(connect, delay);
  };
}

function setOffline(gone) {
  $("offline").hidden = !gone;
  if (current && Boolean(current.offline) !== gone) {
    current.offline = gone;
    redraw();
  }
}

function sendDraft(choice) {
  if (current && socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "draft", table: current.id, choice }));
  }
}

function watch(id) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "watch", table: id }));
  }
}

export function pick(choice) {
  if (!current || !socket || socket.readyState !== WebSocket.OPEN) {
    toast("not connected to your peer; retrying");
    return;
  }
  socket.send(JSON.stringify({ type: "pick", table: current.id, choice }));
  current.asked = false;   // until the peer asks again
  redraw();
}

function receive(message) {
  if (message.type === "refused") {
    toast(message.error);
    // A refused pick leaves the peer still asking: the person chooses again.
    if (current && message.table === current.id && message.asked !== undefined) {
      current.asked = message.asked;
    }
    if (current) redraw();
    return;
  }
  if (message.type === "table") {
    if (current && message.id !== current.id) return;
    current = { ...message, clockOffset: Date.now() / 1000 - message.now,
                offline: !$("offline").hidden };
    redraw();
    return;
  }
  if (!current || message.table !== current.id) return;
  switch (message.type) {
    case "view":
      Object.assign(current, { view: message.view, awaiting: message.awaiting,
                               asked: message.asked, history: message.history });
      break;
    case "asked": current.asked = message.asked; break;
    case "log": current.log.push(message.entry); break;
    case "setup": Object.assign(current, { setup: message.setup, seat: message.seat }); break;
    case "end": Object.assign(current, { end: message.end, awaiting: null, asked: false });
      break;
    case "error": current.error = message.error; current.asked = false; break;
    case "standings": current.match = message.match; break;
    case "lobby": current.lobby = message.lobby; break;
    case "rounds": current.rounds = message.rounds; break;
    case "draft": current.draftReply = message.draft; break;
    default: return;
  }
  redraw();
}

function redraw() {
  if (current) drawTable(current, { pick, draft: sendDraft, api, toast, download });
}

function openTable(id, kind) {
  // Drawn at once, before the table's first message: what is known is how it began.
  current = { id, kind, log: [], placeholder: true };
  setHash(id);
  $("lobby").hidden = true;
  $("table").hidden = false;
  redraw();
  watch(id);
}

// -- the lobby -----------------------------------------------------------------------

async function showLobby() {
  current = null;
  setHash(null);
  $("table").hidden = true;
  $("lobby").hidden = false;
  try {
    lobby = await api("/api/lobby");
  } catch (error) {
    fatal(`cannot reach your peer: ${error.message}`);
    return;
  }
  $("who").textContent = `your key ${lobby.fingerprint}`;
  fillRules();
  listTables();
  listGames(lobby.games);
  performance.mark("dealerless-ready");   // the lobby is usable (tools/bench_web.py)
}

function rulesOf(name) {
  return lobby.rules.find((r) => r.name === name);
}

function options(select, values, chosen, label = (v) => v) {
  select.replaceChildren(...values.map((v) => el("option", { value: v, selected: v === chosen },
                                                 label(v))));
}

// The ciphersuite of a new table (spec/03-hashing.md 3.5), in each form's Advanced
// settings: `dealerless web --suite`'s by default; a joiner plays the host's unless told.
function fillSuites() {
  for (const form of [$("play-form"), $("host-form"), $("join-form")]) {
    const select = form.elements.suite;
    if (select.options.length) continue;
    const joining = form.id === "join-form";
    options(select, [...(joining ? [""] : []), ...lobby.suites],
            joining ? "" : lobby.suite,
            (v) => v === "" ? "the host's" : v === lobby.suite && !joining ? `${v} (default)` : v);
  }
}

function fillRules() {
  fillSuites();
  for (const form of [$("play-form"), $("host-form")]) {
    const rules = form.elements.rules;
    if (!rules.options.length) {
      options(rules, lobby.rules.map((r) => r.name), "bram");
      rules.addEventListener("change", () => fitForm(form, true));
      form.elements.seats.addEventListener("change", () => fitForm(form, false));
    }
    fitForm(form, false);
  }
}

// Offer only what the chosen rules take: their seat counts, komi, sets, bots.
function fitForm(form, rulesChanged) {
  const r = rulesOf(form.elements.rules.value);
  const seats = form.elements.seats;
  const seatsNow = rulesChanged ? r.default_seats : Number(seats.value) || r.default_seats;
  options(seats, r.seats, r.seats.includes(seatsNow) ? seatsNow : r.default_seats);
  form.querySelector(".komi").hidden = !r.komi;
  form.querySelector(".set").hidden = !r.sets.length;
  const match = form.querySelector(".match");
  if (match) match.hidden = !r.match;
  if (r.sets.length) options(form.elements.set, r.sets, form.elements.set.value || r.sets[0]);
  if (form.elements.seat) {
    const n = Number(seats.value);
    options(form.elements.seat, [...Array(n).keys()], Number(form.elements.seat.value) || 0);
  }
  if (form.elements.bot) {
    options(form.elements.bot, r.bots, r.bots.includes("greedy") ? "greedy" : r.bots[0]);
  }
}

function formRules(form) {
  const f = form.elements;
  const r = rulesOf(f.rules.value);
  const body = { rules: f.rules.value, seats: Number(f.seats.value), suite: f.suite.value };
  if (r.komi && f.komi.value.trim() !== "") body.komi = Number(f.komi.value);
  if (r.sets.length) body.set = f.set.value;
  return body;
}

function listTables() {
  const list = $("table-list");
  list.replaceChildren(...lobby.tables.map((t) => el("li", {},
    el("span", {}, `${t.rules || "setting up"} · seat ${t.seat} · ${t.kind}`,
       t.over ? " · over" : t.asked ? " · your turn" : ""),
    el("button", { type: "button", onclick: () => openTable(t.id) }, "Open"))));
  $("in-play").hidden = !lobby.tables.length;
}

function listGames(games) {
  const list = $("game-list");
  if (!games.length) {
    list.replaceChildren(el("li", { class: "dim" }, "no saved games yet"));
    return;
  }
  list.replaceChildren(...games.map((g) => el("li", {},
    el("span", { class: "mono" }, g.game_id.slice(0, 16)),
    el("span", {}, `${g.rules} · seat ${g.seat} · ${g.frames} frames · ${g.status}`),
    el("span", { class: "actions" },
      g.status !== "complete" && !g.playing
        ? el("button", { type: "button", onclick: () => resume(g) }, "Resume") : null,
      el("button", { type: "button", onclick: () => exportGame(g) }, "Export"),
      !g.playing ? el("button", { type: "button", class: "danger",
                                  onclick: () => deleteGame(g) }, "Delete") : null))));
}

async function start(path, body) {
  try {
    const { table } = await api(path, { method: "POST", json: body });
    openTable(table, { "/api/join": "join", "/api/host": "host" }[path]);
  } catch (error) {
    toast(error.message);
  }
}

async function resume(game) {
  await start(`/api/games/${game.game_id}/resume`, {});
}

export async function download(path, name) {
  try {
    const response = await api(path, { raw: true });
    const url = URL.createObjectURL(await response.blob());
    const link = el("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (error) {
    toast(error.message);
  }
}

function exportGame(game) {
  return download(`/api/games/${game.game_id}/transcript`, `${game.game_id.slice(0, 16)}.transcript`);
}

async function deleteGame(game) {
  if (!confirm(`Delete game ${game.game_id.slice(0, 16)} and its saved frames?`)) return;
  try {
    await api(`/api/games/${game.game_id}`, { method: "DELETE" });
    listGames(await api("/api/games"));
  } catch (error) {
    toast(error.message);
  }
}

function wireForms() {
  $("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target.elements;
    const match = rulesOf(f.rules.value).match && f.match.checked;
    start("/api/play", { ...formRules(event.target), seat: Number(f.seat.value),
                         bots: [f.bot.value], match });
  });
  $("host-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target.elements;
    const body = { ...formRules(event.target), timeout: Number(f.timeout.value) };
    if (f.relay.value.trim()) body.relay = f.relay.value.trim();
    else if (f.listen.value.trim()) body.listen = f.listen.value.trim();
    start("/api/host", body);
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target.elements;
    const body = { invitation: f.invitation.value, timeout: Number(f.timeout.value) };
    if (f.suite.value) body.suite = f.suite.value;   // else the host's
    start("/api/join", body);
  });
  $("verify-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = event.target.elements.file.files[0];
    if (!file) { toast("choose a transcript file first"); return; }
    const out = $("verify-result");
    try {
      const verdict = await api("/api/verify", { method: "POST", body: file,
        headers: { "Content-Type": "application/octet-stream" } });
      out.textContent = verdict.text;
      out.className = `verdict ${verdict.exit_code === 0 ? "ok" : "bad"}`;
    } catch (error) {
      out.textContent = `not verified: ${error.message}`;
      out.className = "verdict bad";
    }
    out.hidden = false;
  });
  $("back").addEventListener("click", showLobby);
  $("home").addEventListener("click", (event) => { event.preventDefault(); showLobby(); });
}

document.addEventListener("dealerless-redraw", redraw);

if (!token) {
  fatal("This page needs the address `dealerless web` printed (it ends in #token=...).");
} else {
  wireForms();
  connect();
  const table = params.get("table");
  if (table) {
    api("/api/lobby").then((l) => {
      lobby = l;
      if (l.tables.some((t) => t.id === table)) openTable(table);
      else showLobby();
    }).catch((error) => fatal(`cannot reach your peer: ${error.message}`));
  } else {
    showLobby();
  }
}
