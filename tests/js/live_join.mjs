// A live check of the browser seat's joining side (spec/12-peers.md 12.3, 12.5), not a
// test of the suite: it starts a `dealerless relay` and a `dealerless host --relay` (a bot
// seat) on loopback, then joins the host's table with the JavaScript joiner
// (peers/web/seat/net/joining.js) through the relay, and reports how far it got: the room
// entered (prove C, the room key's signature), the hello answered with the key exchange,
// the roster, the open, the reveal, the setup agreed, and whether the short authentication
// string it computes is the one the host prints. Then it stops both processes.
//
//   cd /work/main && node --experimental-websocket tests/js/live_join.mjs [--direct] [--keep]
//       [--seats K] [--rules R] [--suite S] [--chaos [--chaos-seed N]] [--async-key]
//       [--late]
//
// --seats K: a table of K seats (default 2; mexican-train unless --rules says), each
// joining seat taken by its own JavaScript joiner. --suite S: the table's suite.
// --chaos: the relay drops, duplicates and reorders a fifth of what it forwards each
// (--chaos-seed N, default 3). --async-key: the joiners' keys sign asynchronously and give
// no seed, as a key kept in WebCrypto (keys/identity_key.js). --late: once the game has
// started, another key joins with seat 1's invitation, and must be refused ("full").
// --direct: no relay; the host listens (`host --listen 127.0.0.1:PORT`) and the joiner
// dials it. --keep: keep the temporary homes (their path is printed).
// (node 22+ needs no flag.) Every wait is bounded; the whole run ends within LIMIT.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { Identity } from "../../peers/web/seat/protocol/identity.js";
import { IdentityKey } from "../../peers/web/seat/keys/identity_key.js";
import { SYSTEM } from "../../peers/web/seat/entropy.js";
import { join } from "../../peers/web/seat/net/joining.js";
import { parseMessage } from "../../peers/web/seat/net/messages.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYTHON = process.env.PYTHON ?? "python3";
const LIMIT = 120_000;   // ms, the whole run
const started = performance.now();
const say = (text) => {
  console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${text}`);
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const children = [];

/** A `dealerless` command as a child process, its output (stdout and stderr) collected. */
function dealerless(args, env) {
  const child = spawn(PYTHON, ["-m", "peers.cli", ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  child.output = "";
  const keep = (chunk) => { child.output += chunk.toString(); };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  children.push(child);
  return child;
}

/** The first match of `pattern` in `child`'s output, waiting at most `ms`. */
async function waitFor(child, pattern, ms) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const found = pattern.exec(child.output);
    if (found) return found;
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${pattern} never appeared; output so far:\n${child.output}`);
}

function stopAll() {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
}

const timer = setTimeout(() => {
  say(`gave up: the run took more than ${LIMIT / 1000} s`);
  stopAll();
  process.exit(2);
}, LIMIT);

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 && at + 1 < argv.length ? argv[at + 1] : fallback;
};
const keepDir = argv.includes("--keep");
const direct = argv.includes("--direct");
const seats = Number(option("--seats", "2"));
const rules = option("--rules", seats > 2 ? "mexican-train" : "bram");
const suiteName = option("--suite", "ristretto255-sha512");
const home = mkdtempSync(path.join(tmpdir(), "dealerless-live-join-"));
if (keepDir) say(`homes under ${home}`);
let reached = "nothing";
let code = 1;
let results = [];
try {
  const port = await freePort();
  let where = ["--listen", `127.0.0.1:${port}`];
  if (!direct) {
    const chaos = argv.includes("--chaos") ? ["--chaos-drop", "0.2", "--chaos-dup", "0.2",
      "--chaos-reorder", "0.2", "--chaos-seed", option("--chaos-seed", "3")] : [];
    const relay = dealerless(["relay", "--listen", `127.0.0.1:${port}`, ...chaos]);
    await waitFor(relay, /relay listening/, 20_000);
    say(`relay listening on 127.0.0.1:${port}`);
    reached = "a relay";
    where = ["--relay", `ws://127.0.0.1:${port}`];
  }
  const host = dealerless(["host", ...where, "--rules", rules, "--seats", String(seats),
    "--suite", suiteName, "--bot", "random", "--home", path.join(home, "host"),
    "--timeout", "60"]);
  const last = seats === 2 ? /invitation: dealerless join (\S+)/
    : new RegExp(`invitation for seat ${seats - 1}: dealerless join (\\S+)`);
  await waitFor(host, last, 60_000);
  const invitations = [...host.output.matchAll(/dealerless join (\S+)/g)].map((m) => m[1]);
  say(`the host ${direct ? "listens" : "opened its room"} and printed ${invitations.length} `
      + `invitation(s), for ${rules} at ${seats} seats in ${suiteName}`);
  reached = "the host's invitations";

  const ignored = [];
  // --async-key: each joiner's key signs as a WebCrypto key does (keys/identity_key.js
  // IdentityKey: an async sign, no seed to hedge the key exchange with).
  const identity = () => {
    const held = new Identity(SYSTEM.bytes("identity", 32));
    return argv.includes("--async-key")
      ? new IdentityKey(held.publicKey, async (message) => held.sign(message)) : held;
  };
  results = await Promise.all(invitations.map((invitation, i) => join(
    invitation, identity(), {
      moveTimeout: 60,
      onRetry: (text) => say(`joiner ${i + 1}'s link: ${text}`),
      log: (text) => ignored.push(text),
    })));
  reached = "the reveal: the setup agreed";
  for (const result of results) {
    say(`joined: seat ${result.seat} of ${result.setup.identities.length}; rules `
        + `${result.setup.rules} ${JSON.stringify(Object.fromEntries(
          result.setup.params.map(([k, v]) => [k, String(v)])))}; suite ${result.setup.suiteName}`
        + (direct ? "" : `; relay room epoch ${result.link.place.epoch}`));
    say(`  game id ${Array.from(result.setup.gameId.slice(0, 8),
      (b) => b.toString(16).padStart(2, "0")).join("")}...; short authentication string `
        + result.sas);
  }
  if (ignored.length) say(`the handshakes ignored ${ignored.length} message(s): ${ignored[0]}`);

  const [, hostSas] = await waitFor(host, /short authentication string: (\d{4}-\d{4}-\d{4})/,
                                    20_000);
  say(`the host prints the short authentication string ${hostSas}`);
  if (results.every((result) => result.sas === hostSas)) {
    reached = "the reveal: the setup agreed, the same on every side (the host's SAS matches)";
    code = 0;
  } else {
    reached = "the reveal, but the seats hold different setups (SAS differs)";
  }
  if (argv.includes("--late")) {
    // Another key with seat 1's invitation, once the game has started: refused "full".
    try {
      const late = await join(invitations[0], identity(), { moveTimeout: 15 });
      await late.link.close();
      say("a late joiner was seated: wrong");
      code = 1;
    } catch (exc) {
      say(`a late joiner with seat 1's invitation: ${exc?.name}: ${exc?.message}`);
      if (!/table is full/.test(exc?.message)) code = 1;
    }
  }
  // What the table sends next is the game (frames, or SYNCs while a seat waits for ours).
  const first = await results[0].link.recv(5);
  if (first) {
    say(`the next message from the table: ${parseMessage(first)?.[0]}, ${first.length} bytes`);
  }
} catch (exc) {
  say(`stopped: ${exc?.name}: ${exc?.message}`);
} finally {
  for (const result of results) await result.link.close();
  clearTimeout(timer);
  stopAll();
  for (const child of children) {
    if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
  }
  if (!keepDir) rmSync(home, { recursive: true, force: true });
  say(`reached: ${reached}`);
  process.exit(code);
}
