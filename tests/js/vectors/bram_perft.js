// spec/vectors/rules/bram_perft.json (spec/rules/bram.md section 10): for each case, the
// deal and the prefix are rebuilt from the seed as tools/gen_bram_perft.py derives them
// (SHA-256 orders the deck; each prefix move picks among the legal plays), the prefix is
// replayed through the rules (each move's text and id round-tripping), and the state, its
// JSON, the hands, the legal moves, every perft count and the terminal outcomes by komi
// must match.
import sodium from "../../../peers/web/seat/vendor/sodium.mjs";
import { makeRules } from "../../../peers/web/seat/protocol/rules/index.js";
import { DEAL } from "../../../peers/web/seat/protocol/rules/bram.js";
import { Play, TILE_SET } from "../../../peers/web/seat/protocol/rules/bram_state.js";
import { parseTile, tileText } from "../../../peers/web/seat/protocol/tiles.js";

const encoder = new TextEncoder();
const hashInt = (seed, label) => {
  const d = sodium.crypto_hash_sha256(encoder.encode(`${seed}/${label}`));
  return BigInt(`0x${Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("")}`);
};
const texts = (tiles) => tiles.map(tileText).sort();
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The position after `move` by the seat to move: [state, hands]. */
function step(rules, state, hands, move) {
  const seat = state.turn;
  const after = rules.apply(state, seat, move);
  if (!(move instanceof Play)) return [after, hands];
  return [after, hands.map((h, s) => (s === seat
    ? h.filter((t) => t[0] !== move.tile[0] || t[1] !== move.tile[1]) : h))];
}

/** counts[d] += sequences of d more moves from here, for d up to `depth` (perft). */
function walk(rules, state, hands, depth, counts, d = 0) {
  counts[d] += 1;
  if (d === depth || state.finished !== null) return;
  for (const m of rules.legalMoves(state, hands[state.turn])) {
    walk(rules, ...step(rules, state, hands, m), depth, counts, d + 1);
  }
}

function terminals(rules, state, hands, hidden, komi, out) {
  if (state.finished !== null) {
    const r = rules.outcome(state, hands, [hidden]);
    const key = `${r.reason}/${r.winner === null ? "draw" : r.winner}`;
    out[key] = (out[key] ?? 0) + 1;
    return;
  }
  for (const m of rules.legalMoves(state, hands[state.turn])) {
    terminals(rules, ...step(rules, state, hands, m), hidden, komi, out);
  }
}

function checkCase(file, c, note) {
  const rules = makeRules("bram", file.params);
  const hands0 = c.hands.map((h) => h.map(parseTile));
  const hidden = parseTile(c.hidden);
  // The deal from the seed: the 27 shuffled tiles by SHA-256(seed/"a-b").
  const keyed = DEAL.deckTiles(TILE_SET).map((t) => [hashInt(c.seed, tileText(t)), t]);
  const deck = keyed.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).map(([, t]) => t);
  if (tileText(deck[0]) !== c.hidden || !same(texts(deck.slice(1, 14)), texts(hands0[0]))
      || !same(texts(deck.slice(14, 27)), texts(hands0[1]))) note("the deal is not the seed's");
  let state = rules.initialState(c.first_player);
  let hands = hands0;
  c.prefix.forEach((text, i) => {
    const move = rules.parseMove(text);
    if (rules.moveText(move) !== text) note(`prefix ${i}: ${text} does not round-trip`);
    if (rules.moveText(rules.moveFromId(rules.moveId(move))) !== text) note(`prefix ${i}: id`);
    const plays = rules.legalMoves(state, hands[state.turn]).filter((m) => m instanceof Play);
    const want = plays.length
      ? rules.moveText(plays[Number(hashInt(c.seed, `move/${i}`) % BigInt(plays.length))]) : "pass";
    if (want !== text) note(`prefix ${i}: the seed picks ${want}, not ${text}`);
    [state, hands] = step(rules, state, hands, move);
  });
  if (!same(rules.stateToJson(state), c.state)) note("state after the prefix");
  if (!same(rules.stateToJson(rules.stateFromJson(c.state)), c.state)) note("stateFromJson");
  if (!same(hands.map(texts), c.hands_now.map((h) => [...h].sort()))) note("hands_now");
  const legal = rules.legalMoves(state, hands[state.turn]).map((m) => rules.moveText(m));
  if (!same(legal, c.legal)) note(`legal ${legal}`);
  const counts = Array(c.perft.length).fill(0);
  walk(rules, state, hands, c.perft.length - 1, counts);
  if (!same(counts, c.perft)) note(`perft ${counts}`);
  for (const [komi, expected] of Object.entries(c.terminals ?? {})) {
    const got = {};
    const komiRules = makeRules("bram", { komi_halves: Number(komi) });
    terminals(komiRules, state, hands, hidden, Number(komi), got);
    const sortedGot = Object.fromEntries(Object.entries(got).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (!same(sortedGot, expected)) note(`terminals at komi ${komi}: ${JSON.stringify(sortedGot)}`);
  }
}

export async function run(load) {
  const file = JSON.parse(await load("rules/bram_perft.json"));
  let passed = 0;
  const failed = [];
  if (file.ruleset !== "bram") failed.push(`ruleset ${file.ruleset}`);
  for (const c of file.cases) {
    const why = [];
    try {
      checkCase(file, c, (w) => why.push(w));
    } catch (exc) {
      why.push(`threw ${exc.code ?? ""} ${exc.message}`);
    }
    if (why.length) failed.push(`${c.name}: ${why.join("; ")}`);
    else passed += 1;
  }
  return { passed, failed };
}
