// spec/vectors/rules/mined_games.json (edwards25519-sha512 at dealerless/2) and the
// suites' own (edwards25519-sha512, ristretto255-sha512 at dealerless/3), spec/rules/
// mined-games.md section 10: each stage's state before decodes and re-encodes exactly; its
// orders, played as if committed and opened with the file's nonce, give the whole state
// after (and every expectation the seed's text states), or the illegal orders' code and the
// seat blamed; the state after decodes again. The map generator: the joint seed from the
// nonces, and the map from the seed, in each suite's H (3.5).
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { makeRules } from "../../../peers/web/seat/protocol/rules/index.js";
import { RuleViolation } from "../../../peers/web/seat/protocol/rules/base.js";
import { generateMap, mapSeed, parseMap } from "../../../peers/web/seat/protocol/rules/mined_map.js";
import { jsonEqual } from "../../../peers/web/seat/protocol/rules/mined_state.js";

const FILES = [
  ["rules/mined_games.json", "edwards25519-sha512", 2],
  ["suites/edwards25519-sha512/rules/mined_games.json", "edwards25519-sha512", 3],
  ["suites/ristretto255-sha512/rules/mined_games.json", "ristretto255-sha512", 3],
];

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const bytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));

/** "B2 r1 c3" -> [1, 1, 3]. */
function pos(text) {
  const [b, r, c] = text.split(" ");
  return [Number(b.slice(1)) - 1, Number(r.slice(1)), Number(c.slice(1))];
}

/** What in `state` contradicts `expect` (tools/gen_mined_vectors.py check_expect). */
function expectProblems(state, expect) {
  const problems = [];
  for (const [seat, where] of Object.entries(expect.at ?? {})) {
    const at = state.miners[Number(seat)].at;
    if (!jsonEqual(at === null ? null : [...at], pos(where))) problems.push(`seat ${seat} at ${at}, not ${where}`);
  }
  for (const [key, attr] of [["money", "money"], ["garnets", "garnets"], ["status", "status"]]) {
    for (const [seat, value] of Object.entries(expect[key] ?? {})) {
      const got = state.miners[Number(seat)][attr];
      if (got !== value) problems.push(`seat ${seat} ${key} ${got}, not ${value}`);
    }
  }
  for (const [where, value] of Object.entries(expect.dur ?? {})) {
    const [f, r, c] = pos(where);
    const got = state.dur[f][r * state.mine.width + c];
    if (got !== value) problems.push(`${where} durability ${got}, not ${value}`);
  }
  if ("pool" in expect && state.pool !== expect.pool) problems.push(`pool ${state.pool}`);
  if ("end" in expect && state.end !== expect.end) problems.push(`end ${state.end}`);
  const res = state.result;
  for (const key of ["winner", "ec", "how"]) {
    if (key in expect && (res === null || res[key] !== expect[key])) {
      problems.push(`${key} ${res === null ? null : res[key]}, not ${expect[key]}`);
    }
  }
  if ("choose_from" in expect && (res === null || !jsonEqual([...res.chooseFrom], expect.choose_from))) {
    problems.push("choose_from");
  }
  return problems;
}

function checkCase(s, file, c, note) {
  const rules = makeRules("mined-games", { seats: c.seats, map: c.map }, s);
  const state = rules.stateFromJson(c.before);
  if (!jsonEqual(rules.stateToJson(state), c.before)) note("the state before does not re-encode");
  const orders = new Map(c.orders.map((o, seat) => [seat, o]));
  const gameId = bytes(file.game_id);
  let after;
  try {
    [after] = rules.playStage(gameId, state, orders, bytes(file.nonce));
  } catch (exc) {
    if (!(exc instanceof RuleViolation)) throw exc;
    const got = { seat: exc.seat, code: exc.code };
    if (!jsonEqual(got, c.error ?? null)) note(`blamed ${JSON.stringify(got)}: ${exc.detail}`);
    return;
  }
  if (c.error) {
    note(`expected ${JSON.stringify(c.error)}, the orders were legal`);
    return;
  }
  for (const p of expectProblems(after, c.expect)) note(p);
  const json = rules.stateToJson(after);
  if (!jsonEqual(json, c.after)) note("the state after differs");
  if (!jsonEqual(rules.stateToJson(rules.stateFromJson(c.after)), c.after)) {
    note("the state after does not decode and re-encode");
  }
}

function checkMap(s, m, note) {
  const seed = mapSeed(s, bytes(m.game_id), m.nonces.map(bytes));
  if (hex(seed) !== m.seed) note(`seed ${hex(seed)}`);
  const mine = generateMap(s, bytes(m.seed), m.width, m.height);
  if (mine.text() !== m.map) note(`map ${mine.text()}`);
  if (parseMap(m.map).text() !== m.map) note("the map text does not round-trip");
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  for (const [name, suiteName, version] of FILES) {
    const file = JSON.parse(await load(name));
    const s = suite(suiteName, version);
    for (const [kind, items, check] of [["case", file.cases, checkCase], ["map", file.maps, checkMap]]) {
      for (const item of items) {
        const why = [];
        try {
          if (kind === "case") check(s, file, item, (w) => why.push(w));
          else check(s, item, (w) => why.push(w));
        } catch (exc) {
          why.push(`threw ${exc.code ?? ""} ${exc.message}`);
        }
        if (why.length) failed.push(`${name} ${item.name ?? item.label}: ${why.join("; ")}`);
        else passed += 1;
      }
    }
  }
  return { passed, failed };
}
