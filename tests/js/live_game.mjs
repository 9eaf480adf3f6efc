// A live game of the browser seat's game loop against Python seats (spec/12-peers.md 12.3,
// 12.4, 12.5), not a test of the suite: it starts `dealerless relay` and `dealerless host
// --relay ... --bot random` on loopback, joins seat 1 with the JavaScript seat
// (peers/web/seat/net/peer.js, an in-memory store, a random legal move each turn) and the
// other seats with `dealerless join --bot random`, plays to the end, then checks:
//   - every frame the JS seat sent was in its store first, and every frame it accepted was
//     stored before anything else left (12.4), watched on the link;
//   - `dealerless verify FILE --json` of the JS seat's transcript: valid and complete, and
//     the verdict the JS verifier gives (toJson) the same; `dealerless verify FILE` prints
//     what table/report.js account() gives;
//   - the host's (and each Python joiner's) `dealerless export` byte for byte the JS seat's;
//   - the JS seat's StepEvents (table/driver.js) are the lines the host prints for its steps.
//
//   cd /work/main && node --experimental-websocket tests/js/live_game.mjs [RULES ...]
//       [--keep] [--seats K] [--suite S] [--timeout SECONDS] [--chaos [--chaos-seed N]]
//       [--resume-after N] [--stop-after-commit] [--kill-joiner-at SEQ]
//       [--pause-joiner-at SEQ --pause-for SECONDS] [--stop-in-handshake]
//
// --chaos: the relay drops, duplicates and reorders a fifth of what it forwards each.
// --resume-after N: the JS seat is stopped (peer.stop()) when asked for its (N+1)-th move,
// then resumed from its store (net/launch.js resumeGame: a new link to the stored URL with
// the stored room seed, the referee and the agent rebuilt from the stored frames, seed and
// openings), and plays on to the end. --stop-after-commit (mined-games): the same, stopped
// once its COMMIT of a round is stored and sent, so the resumed seat opens what it sealed.
// --kill-joiner-at SEQ (3 seats): the Python joiner is killed once the JS seat accepts frame
// SEQ; in mined-games the others then declare it absent (10.8) after --timeout.
// --pause-joiner-at SEQ --pause-for S: it is stopped (SIGSTOP) there and continued after S
// seconds: about --timeout, its late frame races the others' declarations (10.8 rivals).
// --stop-in-handshake: the JS seat is stopped once its record holds the roster (before its
// open leaves), then joins again from that record (12.3 "Restarting a seat"): the same
// nonce opened, the same seat kept, the record erased once the store holds the setup.
//
// RULES: bram (2 seats), mexican-train (3), mineshaft (2), mined-games (3), or `all` (the
// default). Every wait is bounded; each game ends within GAME_LIMIT, and every process
// started is stopped at the end.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { SYSTEM } from "../../peers/web/seat/entropy.js";
import { openJoin, reopen } from "../../peers/web/seat/net/launch.js";
import { parseMessage } from "../../peers/web/seat/net/messages.js";
import { Peer } from "../../peers/web/seat/net/peer.js";
import { bytesEqual } from "../../peers/web/seat/protocol/frames.js";
import { Identity } from "../../peers/web/seat/protocol/identity.js";
import { account } from "../../peers/web/seat/table/report.js";
import { MemoryGameStore } from "./memory_store.mjs";
import { randomChoose } from "./random_seat.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYTHON = process.env.PYTHON ?? "python3";
const GAME_LIMIT = 420_000;   // ms a game, handshake to export
const SEATS = { bram: 2, "mexican-train": 3, mineshaft: 2, "mined-games": 3 };
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 && at + 1 < argv.length ? argv[at + 1] : fallback;
};
const suiteName = option("--suite", "ristretto255-sha512");
const timeout = Number(option("--timeout", "60"));
const VALUED = ["--suite", "--timeout", "--chaos-seed", "--resume-after", "--kill-joiner-at",
  "--pause-joiner-at", "--pause-for", "--seats"];
const named = argv.filter((a, i) => !a.startsWith("--") && !VALUED.includes(argv[i - 1]));
const wanted = !named.length || named.includes("all") ? Object.keys(SEATS) : named;
const keepDir = argv.includes("--keep");
const began = performance.now();
const say = (text) => console.log(`[${((performance.now() - began) / 1000).toFixed(1)} s] ${text}`);
const children = [];

/** A `dealerless` command as a child process, its output collected. */
function dealerless(args) {
  const child = spawn(PYTHON, ["-m", "peers.cli", ...args], { cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"] });
  child.output = "";
  const keep = (chunk) => { child.output += chunk.toString(); };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.exited = new Promise((resolve) => child.once("exit", resolve));
  children.push(child);
  return child;
}

/** Run a `dealerless` command to its end (at most `ms`): {code, stdout, stderr}. */
function run(args, ms = 60_000) {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, ["-m", "peers.cli", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => { stdout += c; });
    child.stderr.on("data", (c) => { stderr += c; });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("exit", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

async function waitFor(child, pattern, ms) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const found = pattern.exec(child.output);
    if (found) return found;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${pattern} never appeared; output so far:\n${child.output.slice(-3000)}`);
}

async function exited(child, ms) {
  const timer = new Promise((resolve) => setTimeout(resolve, ms, "late"));
  return Promise.race([child.exited, timer]);
}

async function stop(child) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    if (await exited(child, 5000) === "late") child.kill("SIGKILL");
  }
}

/** The link's send, watched: a frame leaves only once stored, and only after every frame
 * the referee accepted is stored (12.4). Problems are collected in `broken`. */
function watched(link, peer, broken) {
  const send = link.send.bind(link);
  link.send = async (message) => {
    const store = peer.store;
    if (store !== null && peer.ref) {
      const stored = await store.frames();
      const obj = parseMessage(message);
      if (obj?.[0] === "frame" && !stored.some((w) => bytesEqual(w, obj[1]))) {
        broken.push(`a frame left before it was stored (${stored.length} stored)`);
      }
      if (stored.length < peer.ref.frames.length) {
        broken.push(`a ${obj?.[0]} left with ${peer.ref.frames.length} frames accepted, `
          + `${stored.length} stored`);
      }
    }
    return send(message);
  };
  return link;
}

async function game(rules, home) {
  const seats = Number(option("--seats", String(SEATS[rules])));
  const out = { rules, seats, reached: "nothing" };
  const chaos = argv.includes("--chaos") ? ["--chaos-drop", "0.2", "--chaos-dup", "0.2",
    "--chaos-reorder", "0.2", "--chaos-seed", option("--chaos-seed", "3")] : [];
  const relay = dealerless(["relay", "--listen", "127.0.0.1:0", ...chaos]);
  const [, port] = await waitFor(relay, /relay listening on ws:\/\/127\.0\.0\.1:(\d+)/, 20_000);
  const host = dealerless(["host", "--relay", `ws://127.0.0.1:${port}`, "--rules", rules,
    "--seats", String(seats), "--suite", suiteName, "--bot", "random", "--home",
    path.join(home, "h0"), "--timeout", String(timeout)]);
  const last = seats === 2 ? /invitation: dealerless join (\S+)/
    : new RegExp(`invitation for seat ${seats - 1}: dealerless join (\\S+)`);
  await waitFor(host, last, 60_000);
  const invitations = [...host.output.matchAll(/dealerless join (\S+)/g)].map((m) => m[1]);
  const joiners = invitations.slice(1).map((url, i) => dealerless(["join", url, "--bot",
    "random", "--home", path.join(home, `h${i + 2}`), "--timeout", String(timeout)]));
  out.reached = "the host's invitations";
  const events = [];
  const steps = [];   // the StepEvents as `dealerless host --bot` prints its own
  const broken = [];
  let firstAsked = null;
  let moves = 0;
  const started = performance.now();
  const resumeAfter = Number(option("--resume-after", "-1"));
  let gameId = null;
  let mySeat = null;
  const afterCommit = argv.includes("--stop-after-commit");
  const killAt = Number(option("--kill-joiner-at", "-1"));
  const pauseAt = Number(option("--pause-joiner-at", "-1"));
  const inHandshake = argv.includes("--stop-in-handshake");
  const pauseFor = Number(option("--pause-for", "0"));
  let stopping = null;
  const config = {
    identity: new Identity(SYSTEM.bytes("identity", 32)), invitation: invitations[0],
    stores: MemoryGameStore, moveTimeout: timeout, meta: { bot: "random" },
    choose: async (view) => {
      firstAsked ??= performance.now();
      if (moves === resumeAfter && stopping === null) {
        stopping = current.stop();
        return new Promise(() => {});   // the person left: never answered
      }
      moves += 1;
      return randomChoose(view);
    },
    notify: (event) => {
      events.push(event.type);
      if (event.type === "step") {
        steps.push(`  frame ${String(event.seq).padStart(3)}  seat ${event.seat}  `
          + `${event.kind.padEnd(8)} ${event.note}`);
      }
      if (event.type === "step" && afterCommit && event.kind === "commit" && event.seat === mySeat
          && event.seq > 12 && stopping === null) {
        stopping = current.stop();   // its orders are sealed and stored: resume must open them
      }
      if (event.type === "step" && killAt >= 0 && event.seq >= killAt && joiners.length
          && joiners[0].exitCode === null && !out.killed) {
        out.killed = `the Python joiner (seat 2) killed after frame ${event.seq}`;
        say(`${rules}: ${out.killed}`);
        joiners[0].kill("SIGKILL");
      }
      if (event.type === "step" && pauseAt >= 0 && event.seq >= pauseAt && joiners.length
          && !out.paused) {
        out.paused = `the Python joiner (seat 2) paused after frame ${event.seq} for ${pauseFor} s`;
        say(`${rules}: ${out.paused}`);
        joiners[0].kill("SIGSTOP");
        setTimeout(() => joiners[0].kill("SIGCONT"), pauseFor * 1000);
      }
      if (event.type === "setup") {
        out.setupEvent = { rules: event.rules, sas: event.sas, suite: event.suite };
        mySeat = event.seat;
        gameId = event.gameId;
        out.setupAt = (performance.now() - started) / 1000;
        say(`${rules}: setup agreed, seat ${event.seat} of ${event.seats}, SAS ${event.sas}`);
      }
    },
    log: (text) => { if (!/dropped a frame that is no evidence: frame \d+: frame\/sequence/.test(text)) say(`JS seat: ${text}`); },
  };
  // The joiner's handshake record (net/joining.js), as a page keeps it in IndexedDB.
  let record = null;
  let saves = 0;
  config.saveRecord = (data) => {
    record = data.slice();
    saves += 1;
    // The third save holds the roster, written before the open leaves: stop right there.
    if (inHandshake && saves === 3 && stopping === null) stopping = current.stop();
  };
  config.eraseRecord = () => { record = null; };
  const link = await openJoin(invitations[0], { onRetry: (t) => say(`JS link: ${t}`) });
  let current = new Peer(link, config);
  watched(link, current, broken);
  const limit = () => new Promise((_, reject) => setTimeout(
    () => reject(new Error(`the JS seat did not finish within ${GAME_LIMIT / 1000} s`)), GAME_LIMIT));
  let result = await Promise.race([current.run(), limit()]);
  if (result === null && gameId === null) {
    await stopping;
    out.stoppedInHandshake = `after ${saves} record writes; record ${record === null ? "erased" : `kept (${record.length} bytes)`}`;
    say(`${rules}: the JS seat stopped in the handshake ${out.stoppedInHandshake}; joining again`);
    stopping = null;
    const again = await openJoin(invitations[0], { joinedBefore: true, timeout,
      onRetry: (t) => say(`JS link (again): ${t}`) });
    current = new Peer(again, { ...config, recordData: record });
    watched(again, current, broken);
    result = await Promise.race([current.run(), limit()]);
    out.recordAfter = record === null ? "erased" : "still kept";
  }
  if (result === null) {
    await stopping;
    const store = await MemoryGameStore.open(gameId);
    out.stoppedAt = await store.frameCount();
    say(`${rules}: the JS seat stopped with ${out.stoppedAt} frames stored; resuming`);
    const again = await reopen(store, { onRetry: (t) => say(`JS link (resumed): ${t}`) });
    current = new Peer(again, config, store);
    watched(again, current, broken);
    result = await Promise.race([current.run(), limit()]);
  }
  out.seconds = (performance.now() - started) / 1000;
  out.firstMove = firstAsked === null ? null : (firstAsked - started) / 1000;
  out.moves = moves;
  out.reached = "the JS seat's end";
  out.verdict = result.verdict.toJson();
  out.message = result.message;
  out.broken = [...new Set(broken)];
  out.events = Object.fromEntries([...new Set(events)].map((t) => [t, events.filter((e) => e === t).length]));
  const mine = await (await MemoryGameStore.open(result.verdict.setup.gameId)).exportTranscript();
  const file = path.join(home, "js.t");
  writeFileSync(file, mine);
  const checked = await run(["verify", file, "--json"]);
  out.verifyCode = checked.code;
  let pyVerdict = null;
  try {
    pyVerdict = JSON.parse(checked.stdout);
  } catch {
    out.verifyError = checked.stderr.slice(-500);
  }
  out.verify = pyVerdict && { valid: pyVerdict.valid, complete: pyVerdict.complete, frames: pyVerdict.frames };
  const { file: _ignored, ...mineJson } = out.verdict;
  out.sameVerdictJson = pyVerdict !== null && JSON.stringify(pyVerdict) === JSON.stringify(mineJson);
  if (!out.sameVerdictJson && pyVerdict) {
    const keys = Object.keys(pyVerdict).filter((k) => JSON.stringify(pyVerdict[k]) !== JSON.stringify(mineJson[k]));
    out.verdictDiffers = keys;
  }
  const text = await run(["verify", file]);
  out.sameAccount = text.stdout.trimEnd() === account(result.verdict);
  if (!out.sameAccount) {
    const py = text.stdout.trimEnd().split("\n");
    const js = account(result.verdict).split("\n");
    const at = py.findIndex((l, i) => l !== js[i]);
    out.accountDiffers = { line: at, python: py[at], js: js[at] };
  }
  out.reached = "verified";
  const hostCode = await exited(host, 60_000);
  out.hostExit = hostCode;
  out.joinExits = [];
  for (const j of joiners) out.joinExits.push(await exited(j, 30_000));
  out.identical = {};
  for (const [i, child] of [[0, host], ...joiners.map((j, n) => [n + 2, j])]) {
    const dir = path.join(home, `h${i}`, "games");
    let names = [];
    try { names = readdirSync(dir).filter((n) => n.endsWith(".sqlite")); } catch { /* none */ }
    if (!names.length) {
      out.identical[`seat ${i === 0 ? 0 : i}`] = `no game database (${child.output.slice(-300)})`;
      continue;
    }
    const exported = path.join(home, `h${i}.t`);
    const done = await run(["export", path.join(dir, names[0]), exported, "--home", path.join(home, `h${i}`)]);
    out.identical[`seat ${i === 0 ? 0 : i}`] = done.code !== 0 ? `export failed: ${done.stderr.trim()}`
      : bytesEqual(new Uint8Array(readFileSync(exported)), mine);
  }
  // The host printed a line for each step it accepted, as the JS seat described each
  // (table/driver.js describe); after a rewind both hold the same chain's last words.
  const printed = new Map();
  for (const line of host.output.split("\n").filter((l) => l.startsWith("  frame "))) {
    printed.set(Number(line.slice(8, 11)), line);
  }
  const told = new Map(steps.map((line) => [Number(line.slice(8, 11)), line]));
  const differs = [...told].filter(([seq, line]) => printed.get(seq) !== line);
  out.sameSteps = differs.length === 0 && printed.size === told.size;
  if (!out.sameSteps) out.stepsDiffer = differs.slice(0, 3).map(([seq, l]) => [l, printed.get(seq)]);
  // The SetupEvent's words are the host's (peers/net/announce.py, cli/network.py).
  const said = /rules (.*); suite (\S+)\n[^]*?short authentication string: (\S+)/.exec(host.output);
  out.sameSetup = said !== null && said[1] === out.setupEvent?.rules
    && said[2] === out.setupEvent?.suite && said[3] === out.setupEvent?.sas;
  if (!out.sameSetup) out.setupDiffers = [said?.slice(1), out.setupEvent];
  out.reached = "compared";
  await stop(relay);
  return out;
}

const overall = setTimeout(() => {
  say("gave up: the whole run took too long");
  for (const child of children) child.kill("SIGKILL");
  process.exit(2);
}, GAME_LIMIT * wanted.length + 60_000);

let code = 0;
for (const rules of wanted) {
  const home = mkdtempSync(path.join(tmpdir(), `dealerless-live-game-${rules}-`));
  if (keepDir) say(`${rules}: homes under ${home}`);
  try {
    const out = await game(rules, home);
    say(`${rules}: ${JSON.stringify(out)}`);
    const ok = out.verify?.valid && out.verify?.complete && out.sameVerdictJson && out.sameAccount
      && out.sameSteps && out.sameSetup      && Object.entries(out.identical).every(([k, v]) => v === true || (out.killed && k === "seat 2"))
      && !out.broken.length;
    say(`${rules}: ${ok ? "OK" : "NOT OK"}`);
    if (!ok) code = 1;
  } catch (exc) {
    code = 1;
    say(`${rules}: stopped: ${exc?.name}: ${exc?.message}\n${exc?.stack ?? ""}`);
    for (const child of children) {
      if (child.exitCode === null) say(`  still running: ${child.spawnargs.slice(3, 5).join(" ")}; output tail:\n${child.output.slice(-1500)}`);
    }
  } finally {
    for (const child of children) await stop(child);
    children.length = 0;
    if (!keepDir) rmSync(home, { recursive: true, force: true });
  }
}
clearTimeout(overall);
process.exit(code);
