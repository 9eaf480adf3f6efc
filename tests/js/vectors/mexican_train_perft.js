// spec/vectors/rules/mexican_train_perft.json (spec/rules/mexican-train.md section 10): for
// each case, the deal and the prefix are rebuilt from the seed as
// tools/gen_mexican_perft.py derives them (SHA-256 orders the 91 tiles; each prefix move
// picks among the legal moves), the prefix is replayed through the rules (a draw takes the
// boneyard's first tile; each move's text and id round-tripping), and the state, its JSON,
// the hands, the boneyard, the legal moves and every perft count must match.
import sodium from "../../../peers/web/seat/vendor/sodium.mjs";
import { makeRules } from "../../../peers/web/seat/protocol/rules/index.js";
import { Draw, Play, TILE_SET } from "../../../peers/web/seat/protocol/rules/mexican_train_state.js";
import { parseTile, tileText } from "../../../peers/web/seat/protocol/tiles.js";

const encoder = new TextEncoder();
const hashInt = (seed, label) => {
  const d = sodium.crypto_hash_sha256(encoder.encode(`${seed}/${label}`));
  return BigInt(`0x${Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("")}`);
};
const texts = (tiles) => tiles.map(tileText).sort();
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The position after `move` by the seat to move: [state, hands, boneyard]. */
function step(rules, [state, hands, boneyard], move) {
  const seat = state.turn;
  const after = rules.apply(state, seat, move);
  let mine = hands[seat];
  let rest = boneyard;
  if (move instanceof Play) mine = mine.filter((t) => t[0] !== move.tile[0] || t[1] !== move.tile[1]);
  else if (move instanceof Draw) [mine, rest] = [[...mine, boneyard[0]], boneyard.slice(1)];
  return [after, hands.map((h, s) => (s === seat ? mine : h)), rest];
}

const legal = (rules, [state, hands]) => (state.finished !== null ? []
  : rules.legalMoves(state, hands[state.turn]));

/** counts[d] += sequences of d more moves from here, for d up to `depth` (perft). */
function walk(rules, pos, depth, counts, d = 0) {
  counts[d] += 1;
  if (d === depth) return;
  for (const m of legal(rules, pos)) walk(rules, step(rules, pos, m), depth, counts, d + 1);
}

function checkCase(c, note) {
  const rules = makeRules("mexican-train", c.params);
  if (!same(rules.params, c.params)) note("params");
  const hands0 = c.hands.map((h) => h.map(parseTile));
  const boneyard0 = c.boneyard.map(parseTile);
  // The deal from the seed: the 91 tiles by SHA-256(seed/"a-b"), hands first.
  const keyed = TILE_SET.tiles.map((t) => [hashInt(c.seed, tileText(t)), t]);
  const deck = keyed.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).map(([, t]) => t);
  const h = rules.deal.handSize;
  const dealt = hands0.every((hand, s) => same(texts(deck.slice(s * h, (s + 1) * h)), texts(hand)));
  if (!dealt || !same(deck.slice(rules.seats * h).map(tileText), c.boneyard)) note("the deal is not the seed's");
  let pos = [rules.initialState(c.first_player), hands0, boneyard0];
  c.prefix.forEach((text, i) => {
    const move = rules.parseMove(text);
    if (rules.moveText(move) !== text) note(`prefix ${i}: ${text} does not round-trip`);
    if (rules.moveText(rules.moveFromId(rules.moveId(move))) !== text) note(`prefix ${i}: id`);
    const options = legal(rules, pos);
    const want = options.length
      ? rules.moveText(options[Number(hashInt(c.seed, `move/${i}`) % BigInt(options.length))]) : "-";
    if (want !== text) note(`prefix ${i}: the seed picks ${want}, not ${text}`);
    pos = step(rules, pos, move);
  });
  const [state, hands, boneyard] = pos;
  if (!same(rules.stateToJson(state), c.state)) note("state after the prefix");
  if (!same(rules.stateToJson(rules.stateFromJson(c.state)), c.state)) note("stateFromJson");
  if (!same(hands.map(texts), c.hands_now.map((x) => [...x].sort()))) note("hands_now");
  if (boneyard.length !== c.boneyard_now || state.boneyard !== c.boneyard_now) note("boneyard_now");
  const moves = legal(rules, pos).map((m) => rules.moveText(m));
  if (!same(moves, c.legal)) note(`legal ${moves}`);
  const counts = Array(c.perft.length).fill(0);
  walk(rules, pos, c.perft.length - 1, counts);
  if (!same(counts, c.perft)) note(`perft ${counts}`);
}

export async function run(load) {
  const file = JSON.parse(await load("rules/mexican_train_perft.json"));
  let passed = 0;
  const failed = [];
  if (file.ruleset !== "mexican-train") failed.push(`ruleset ${file.ruleset}`);
  for (const c of file.cases) {
    const why = [];
    try {
      checkCase(c, (w) => why.push(w));
    } catch (exc) {
      why.push(`threw ${exc.code ?? ""} ${exc.message}`);
    }
    if (why.length) failed.push(`${c.name}: ${why.join("; ")}`);
    else passed += 1;
  }
  return { passed, failed };
}
