// spec/vectors transcripts/ (11.1, 11.2) in every vector set the seat plays: each golden
// transcript replays from nothing to the verdict index.json gives it: the exit code,
// valid, complete, accepted frames, the violation (rule, seat, frame, authenticated; a
// differing detail is printed), who is awaited, the first player, the outcome (winner,
// pips, margin, or Mined Games' verdict), the hidden tile and a winner decided by play.
// The scripted self-play games are then played again by the seat's own SeatAgents from
// the generator's seeds, every frame byte-identical to the golden one, and so are the
// scripted absences of Mined Games (ABSENT with and without a decryption share); the long
// rounds and the absences in the default suite only. The longest times are printed.
import sodium from "../../../peers/web/seat/vendor/sodium.mjs";
import { openedOrders } from "../../../peers/web/seat/protocol/commit_reveal.js";
import { MessageType, bytesEqual } from "../../../peers/web/seat/protocol/frames.js";
import { Identity } from "../../../peers/web/seat/protocol/identity.js";
import { ChooseBody, MoveBody } from "../../../peers/web/seat/protocol/messages.js";
import { Referee } from "../../../peers/web/seat/protocol/referee.js";
import { SeatAgent } from "../../../peers/web/seat/protocol/seat.js";
import { GameSetup } from "../../../peers/web/seat/protocol/setup.js";
import { Transcript } from "../../../peers/web/seat/protocol/transcript.js";
import { replay } from "../../../peers/web/seat/protocol/verifier.js";

/**
 * The scripted self-play games of tools/gen_transcripts.py: rules, parameters, seats and
 * the seed of peers/entropy.py's stream that gave every key, nonce, secret and `fresh`.
 */
const SELFPLAY = {
  valid: ["bram", { komi_halves: 1 }, 2, 5],
  "valid-out": ["bram", { komi_halves: -3 }, 2, 5],
  "mexican-train-3": ["mexican-train", { seats: 3 }, 3, 1],
  "mineshaft-4": ["mineshaft", { seats: 4 }, 4, 1],
  "mined-games-5": ["mined-games", { seats: 5 }, 5, 1],
  // peers/cheats/mined_games.py's scripted absences (ABSENT frames, with and without a
  // decryption share): [what the script does, the seat, the stage].
  "mined-forfeit": ["mined-games", { seats: 5 }, 5, 5, ["commit", 3, 3]],
  "mined-withheld": ["mined-games", { seats: 5 }, 5, 5, ["open", 3, 3]],
  "mined-answered-late": ["mined-games", { seats: 5 }, 5, 5, ["answer", 3, 2]],
};

/** peers/entropy.py's seeded stream: SHA-512 of prefix, seed, "/", label, u64 counter. */
class SeededEntropy {
  constructor(seed) {
    this.seed = new Uint8Array(16);
    this.seed[15] = seed;
    this.counter = 0n;
  }

  bytes(label, n = 32) {
    this.counter += 1n;
    const count = new Uint8Array(8);
    new DataView(count.buffer).setBigUint64(0, this.counter);
    const text = new TextEncoder();
    const data = [text.encode("dealerless-seeded-entropy/"), this.seed, text.encode("/"),
      text.encode(label), count];
    const all = new Uint8Array(data.reduce((k, d) => k + d.length, 0));
    data.reduce((at, d) => { all.set(d, at); return at + d.length; }, 0);
    return sodium.crypto_hash_sha512(all).slice(0, n);
  }
}

/**
 * Play a scripted game again with the seat's own SeatAgents from the generator's seeds,
 * each player choosing what the golden transcript shows it chose (its move id, its orders
 * as the OPEN later opened them, its choice): every frame must be the golden frame, byte
 * for byte. A JavaScript seat at a table of Python seats signs exactly their frames.
 */
function playAgain(data, [rules, params, seats, seed, script]) {
  const golden = Transcript.decode(data);
  const suite = golden.setup.suite;
  const entropy = new SeededEntropy(seed);
  const ids = Array.from({ length: seats },
    (_, i) => new Identity(entropy.bytes(`identity ${i}`)));
  const nonces = Array.from({ length: seats }, (_, i) => entropy.bytes(`setup nonce ${i}`));
  const setup = GameSetup.create(rules, params, ids.map((i) => i.frameKey(suite)), nonces, suite);
  if (!bytesEqual(setup.encode(), golden.setup.encode())) return "the setup differs";
  const ref = new Referee(setup);
  const agents = ids.map((ident, i) => new SeatAgent(ref.game, i, ident,
    entropy.bytes(`seat secret ${i}`)));
  for (let i = 0; i < seats; i++) entropy.bytes(`bot ${i}`);
  // What each seat chose: by the golden replay, the orders each OPEN opened.
  const judge = new Referee(golden.setup);
  const orders = new Map();
  for (const wire of golden.frames) {
    const before = judge.state;
    const frame = judge.receive(wire, false);
    // An OPEN opens its sender's orders; the ABSENT that completes the table's opening
    // of a withheld seal, the orders of the seat that owed the OPEN.
    const opened = openedOrders(judge.game, before, frame);
    if (opened !== null) {
      const seat = frame.type === MessageType.OPEN ? frame.seat : before.turn;
      orders.set(`${before.rulesState.stage}/${seat}`, opened);
    }
  }
  const choose = (view) => {
    const frame = judge.frames[ref.state.seq];
    if (frame.type === MessageType.MOVE) {
      const id = MoveBody.decode(suite, frame.body).moveId;
      return view.legal.find((m) => ref.game.rules.moveId(m) === id);
    }
    if (frame.type === MessageType.CHOOSE) return ChooseBody.decode(frame.body).seat;
    return orders.get(`${ref.state.rulesState.stage}/${view.seat}`);
  };
  const send = (wire) => {
    const i = ref.frames.length;
    if (!bytesEqual(wire, golden.frames[i] ?? new Uint8Array(0))) {
      throw new Error(`frame ${i} differs`);
    }
    ref.receive(wire);
  };
  const stepOnce = () => {
    const due = ref.awaiting;
    if (due === null) throw new Error(`the game ended before frame ${ref.frames.length}`);
    send(agents[due[0]].nextFrame(ref.state, entropy.bytes(`fresh ${due[0]}`), choose));
  };
  if (script) {
    // The cheat's script: play until `seat` owes its COMMIT or OPEN of `stage`, then the
    // others declare it absent, in the script's order, until it no longer owes that frame.
    const [what, seat, stage] = script;
    const phase = what === "commit" ? "commit" : "open";
    while (!(ref.state.phase === phase && ref.state.turn === seat
      && ref.state.rulesState.stage === stage)) stepOnce();
    const rs = ref.state.rulesState;
    const others = rs.playing().filter((s) => s !== seat);
    let declarers = [others[0]];
    if (what === "commit") declarers = [...others].reverse().slice(0, (others.length >> 1) + 1);
    if (what === "open") declarers = [...rs.holders(seat)].reverse();
    if (what !== "answer") entropy.bytes("late"); // the late frame the cheat keeps
    const due = ref.awaiting;
    for (const d of [...declarers, ...declarers]) {
      if (ref.awaiting?.[0] !== due[0] || ref.awaiting?.[1] !== due[1]) break;
      if (agents[d].mayDeclare(ref.state)) {
        send(agents[d].declareAbsent(ref.state, entropy.bytes(`declare ${d}`)));
      }
    }
    if (what === "answer") send(agents[seat].nextFrame(ref.state, entropy.bytes("answer")));
  }
  while (ref.frames.length < golden.frames.length) stepOnce();
  return ref.awaiting === null && ref.complete ? null : "the game is not over";
}

/** The vector sets of the libsodium suites (dealerless/2's games, then each suite's). */
const SETS = ["", "suites/edwards25519-sha512/", "suites/ristretto255-sha512/"];
const FIELDS = ["exit", "valid", "complete", "frames", "violation", "awaiting", "first_player",
  "outcome", "hidden_tile", "decided"];

/** JSON with sorted keys, so that two objects compare by content. */
function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Every golden transcript's verdict, and the scripted games played again. `quick` (the
 * default suite's run) replays the default suite's transcripts only and plays none
 * again; the whole run is under -m slow (tests/test_seat_vectors.py).
 */
export async function run(load, { quick = false } = {}) {
  let passed = 0;
  const failed = [];
  const times = [];
  const details = [];
  for (const dir of quick ? ["suites/ristretto255-sha512/"] : SETS) {
    const index = JSON.parse(await load(`${dir}transcripts/index.json`)).transcripts;
    for (const [name, expected] of Object.entries(index)) {
      const data = await load(`${dir}transcripts/${expected.file}`, "bytes");
      const started = performance.now();
      let got;
      try {
        const verdict = replay(data);
        got = { ...verdict.toJson(), exit: verdict.exitCode };
      } catch (exc) {
        failed.push(`${dir}${name}: uncaught ${exc?.name}: ${exc?.code ?? ""} ${exc?.message}`);
        continue;
      }
      const ms = performance.now() - started;
      times.push([ms, `${dir}${name}`, got.frames, data.length]);
      // The violation's detail is text for people, some of it the foundation's (a
      // signature's failing step): a different wording is noted, not failed.
      const bare = (v) => (v === null ? null : { ...v, detail: undefined });
      const [gv, ev] = [got.violation, expected.violation];
      if (gv && ev && gv.detail !== ev.detail) {
        details.push(`${dir}${name}: "${gv.detail}", reference "${ev.detail}"`);
      }
      const wrong = FIELDS.filter((k) => (k === "violation"
        ? canon(bare(got[k])) !== canon(bare(expected[k])) : canon(got[k]) !== canon(expected[k])))
        .map((k) => `${k} ${canon(got[k])}, expected ${canon(expected[k])}`);
      if (wrong.length) failed.push(`${dir}${name}: ${wrong.join("; ")}`);
      else passed += 1;
      // The long rounds (draws, claims) are played again in the default suite only.
      const long = ["mexican-train-3", "mineshaft-4", "mined-forfeit", "mined-withheld",
        "mined-answered-late"].includes(name);
      if (!quick && SELFPLAY[name] && (!long || dir === "suites/ristretto255-sha512/")) {
        const again = performance.now();
        let problem;
        try {
          problem = playAgain(data, SELFPLAY[name]);
        } catch (exc) {
          problem = exc?.constructor === Error ? exc.message
            : `uncaught ${exc?.name}: ${exc?.code ?? ""} ${exc?.message}`;
        }
        if (problem) failed.push(`${dir}${name} played again by the seat: ${problem}`);
        else passed += 1;
        times.push([performance.now() - again, `${dir}${name} played again`, got.frames,
          data.length]);
      }
    }
  }
  times.sort((a, b) => b[0] - a[0]);
  for (const [ms, name, frames, size] of times.slice(0, 5)) {
    console.log(`  replay ${name}: ${frames} frames, ${size} bytes, ${Math.round(ms)} ms`);
  }
  for (const line of details) console.log(`  note: detail differs: ${line}`);
  return { passed, failed };
}
