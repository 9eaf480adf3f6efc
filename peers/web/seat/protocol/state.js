// The public session state and its canonical encoding (spec/10-session.md 10.3), as
// protocol/state.py.
//
// This is everything an on-chain referee would hold between two frames: the phase and
// whose turn it is, the chain position, the key shares and first-player commitments, the
// current encrypted deck, which seat owns which position, every published decryption
// share, every publicly opened tile and the rule set's public state. It holds no secret of
// any seat, so it can be published, hashed into every frame and shipped in a dispute
// package. A PublicState is never changed: `with_` makes the next one.

import { asArray, asBool, asBytes, asInt, asList, asStr, pack, unpack } from "./canonical.js";
import { ciphertextBytes, decodeDeck, encodeDeck } from "./elgamal.js";
import { EncodingError, LocalError } from "./errors.js";
import { Tag } from "./tags.js";
import { parseTile, tileText } from "./tiles.js";

/** The state map's `magic` (10.3). */
export const STATE_MAGIC = "dealerless/state";
/** The largest encoded state a dispute package may carry (10.3, 11.3). */
export const MAX_STATE_BYTES = 1 << 17;
/** Owner of a position that stays face down until the end. */
export const HIDDEN = -1;
/** Owner of an undealt position. */
export const BONEYARD = -2;

/** The session phases (spec/10-session.md 10.2), as their text. */
export const Phase = Object.freeze({
  KEYS: "keys", NONCES: "nonces", SHUFFLE: "shuffle", DEAL: "deal", PLAY: "play",
  DRAW: "draw", REVEAL: "reveal", COMMIT: "commit", OPEN: "open", CHOOSE: "choose",
  DONE: "done",
});
const PHASES = new Set(Object.values(Phase));

/** The phases of a simultaneous rule set by what its rules say is owed (10.8). */
export const STAGE_PHASES = Object.freeze({
  keys: Phase.KEYS, commit: Phase.COMMIT, open: Phase.OPEN, choose: Phase.CHOOSE,
});

/** [phase, turn] of a simultaneous game whose rules say `due` ([what, seat]) is owed. */
export function stagePosition(due) {
  return due === null || due === undefined ? [Phase.DONE, null] : [STAGE_PHASES[due[0]], due[1]];
}

/** Whether a rule set is one of simultaneous orders by commit-reveal (10.8). */
export const isSimultaneous = (rules) => typeof rules.startState === "function"
  && typeof rules.due === "function";

/** Whether a rule set has a boneyard and forced play (10.4). */
export const isDrawing = (rules) => typeof rules.draws === "function"
  && typeof rules.mustPlayIfAble === "function";

/** Tiles ordered as Python orders (low, high) pairs. */
export const compareTiles = (a, b) => (a[0] - b[0]) || (a[1] - b[1]);
/** Whether two tiles are the same tile. */
export const sameTile = (a, b) => a !== null && b !== null && a !== undefined
  && b !== undefined && a[0] === b[0] && a[1] === b[1];

/** Whether `t` is a tile of the set `ts`. */
export function inTileSet(ts, t) {
  if (typeof ts.has === "function") return ts.has(t);
  if (typeof ts.contains === "function") return ts.contains(t);
  return ts.tiles.some((u) => sameTile(u, t));
}

const strictlyAscending = (items, compare) => items.every((x, i) => i === 0
  || compare(items[i - 1], x) < 0);

/**
 * A proven "cannot play" claim, kept for the end-of-game audit (10.4): at frame `seq`,
 * seat `seat` proved that none of the tiles at `positions` is in `forbidden`.
 */
export class Claim {
  constructor(seq, seat, positions, forbidden) {
    this.seq = seq;
    this.seat = seat;
    this.positions = [...positions];
    this.forbidden = [...forbidden];
    Object.freeze(this);
  }

  toObj() {
    return [this.seq, this.seat, [...this.positions], this.forbidden.map(tileText)];
  }
}

const FIELDS = ["gameId", "seq", "prev", "phase", "turn", "keyShares", "commitments",
  "nonces", "firstPlayer", "deck", "owners", "shares", "opened", "played", "rulesState",
  "drawing", "claims"];
/** The Python names of the fields, accepted by `with_` and read as aliases. */
const ALIASES = {
  game_id: "gameId", key_shares: "keyShares", first_player: "firstPlayer",
  rules_state: "rulesState",
};

const HASHES = new WeakMap(); // state -> [[rules, suite, digest]]

/** The public state (10.3). Fields as protocol/state.py's, in camelCase. */
export class PublicState {
  constructor(fields) {
    for (const name of FIELDS) this[name] = fields[name];
    this.rulesState ??= null;
    this.drawing ??= null;
    this.claims ??= [];
    Object.freeze(this);
  }

  /** The state with some fields changed. */
  with_(changes) {
    const next = {};
    for (const name of FIELDS) next[name] = this[name];
    for (const [key, value] of Object.entries(changes)) {
      const name = ALIASES[key] ?? key;
      if (!FIELDS.includes(name)) throw new LocalError("session/state", `no field ${key}`);
      next[name] = value;
    }
    return new PublicState(next);
  }

  with(changes) { return this.with_(changes); }

  /** The state as the map 10.3 encodes. */
  toObj(rules) {
    return {
      magic: STATE_MAGIC,
      game_id: this.gameId,
      seq: this.seq,
      prev: this.prev,
      phase: this.phase,
      turn: this.turn,
      key_shares: this.keyShares.map((k) => k.data),
      commitments: [...this.commitments],
      nonces: [...this.nonces],
      first_player: this.firstPlayer,
      deck: encodeDeck(this.deck),
      owners: [...this.owners],
      shares: this.shares.map((row) => row.map((s) => (s ? s.data : null))),
      opened: this.opened.map((t) => (t ? tileText(t) : null)),
      played: [...this.played],
      rules: this.rulesState === null ? null : rules.stateToJson(this.rulesState),
      drawing: this.drawing,
      claims: this.claims.map((c) => c.toObj()),
    };
  }

  /** The canonical encoding (10.3). */
  encode(rules) {
    return pack(this.toObj(rules));
  }

  /** H(STATE, canonical encoding), first 32 bytes: the state_hash frames carry (10.3). */
  hash(rules, suite) {
    let memo = HASHES.get(this);
    if (memo === undefined) HASHES.set(this, memo = []);
    for (const [known, inSuite, digest] of memo) {
      if (known === rules && inSuite === suite) return digest;
    }
    const digest = suite.H(Tag.STATE, this.encode(rules)).slice(0, 32);
    memo.push([rules, suite, digest]);
    return digest;
  }

  /** Strictly decode a state (e.g. from a dispute package): EncodingError if malformed. */
  static decode(data, rules, seats, suite) {
    const obj = unpack(data, MAX_STATE_BYTES);
    const keys = ["claims", "commitments", "deck", "drawing", "first_player", "game_id",
      "key_shares", "magic", "nonces", "opened", "owners", "phase", "played", "prev",
      "rules", "seq", "shares", "turn"];
    if (obj === null || typeof obj !== "object" || Array.isArray(obj)
        || obj instanceof Uint8Array || Object.keys(obj).sort().join() !== keys.join()
        || obj.magic !== STATE_MAGIC) {
      throw new EncodingError("state/schema", "not a dealerless public state");
    }
    let state;
    try {
      state = fromObj(obj, rules, seats, suite);
    } catch (exc) {
      if (!(exc instanceof LocalError || exc instanceof EncodingError
            || exc instanceof TypeError || exc instanceof RangeError)) throw exc;
      throw new EncodingError("state/schema", exc.detail ?? exc.message);
    }
    const problem = isSimultaneous(rules) ? stageInconsistency(state, rules)
      : inconsistency(state, seats) ?? rulesInconsistency(state, rules);
    if (problem) throw new EncodingError("state/inconsistent", problem);
    const again = state.encode(rules);
    if (again.length !== data.length || again.some((b, i) => b !== data[i])) {
      throw new EncodingError("state/non-canonical", "the state does not re-encode exactly");
    }
    return state;
  }

  get game_id() { return this.gameId; }
  get key_shares() { return this.keyShares; }
  get first_player() { return this.firstPlayer; }
  get rules_state() { return this.rulesState; }
}

const num = (x) => (typeof x === "bigint" ? Number(x) : x);

function fromObj(obj, rules, seats, suite) {
  const tileOf = (text) => {
    const t = parseTile(asStr(text, "tile"));
    if (!inTileSet(rules.tileSet, t)) {
      throw new EncodingError("state/schema", `(${t[0]}, ${t[1]}) is not in the ${rules.tileSet.name}`);
    }
    return t;
  };
  const { turn, first_player: first, drawing } = obj;
  const positions = asList(obj.owners, "owners").length;
  const claimOf = (item) => {
    const [seq, seat, where, tiles] = asArray(item, 4, "claim");
    return new Claim(num(asInt(seq, "claim seq")), num(asInt(seat, "claim seat", 0, seats - 1)),
      asList(where, "claim positions", positions)
        .map((p) => num(asInt(p, "claim position", 0, positions - 1))),
      asList(tiles, "forbidden tiles", rules.tileSet.tiles.length).map(tileOf));
  };
  const fields = {};
  fields.gameId = asBytes(obj.game_id, "game id", 32);
  fields.seq = num(asInt(obj.seq, "seq"));
  fields.prev = asBytes(obj.prev, "prev", 32);
  fields.phase = asStr(obj.phase, "phase");
  if (!PHASES.has(fields.phase)) {
    throw new EncodingError("state/schema", `no phase '${fields.phase}'`);
  }
  fields.turn = turn === null ? null : num(asInt(turn, "turn", 0, seats - 1));
  fields.keyShares = asList(obj.key_shares, "key shares", seats).map(
    (k) => suite.decodePoint(asBytes(k, "key share", suite.pointBytes)));
  fields.commitments = asList(obj.commitments, "commitments", seats)
    .map((c) => asBytes(c, "commitment", 32));
  fields.nonces = asList(obj.nonces, "nonces", seats).map((n) => asBytes(n, "nonce", 32));
  fields.firstPlayer = first === null ? null : num(asInt(first, "first player", 0, seats - 1));
  fields.deck = decodeDeck(suite, asBytes(obj.deck, "deck", null,
    4096 * ciphertextBytes(suite)));
  fields.owners = asList(obj.owners, "owners").map((o) => num(asInt(o, "owner", BONEYARD,
    seats - 1)));
  fields.shares = asList(obj.shares, "shares").map((row) => asArray(row, seats, "shares row")
    .map((x) => (x === null ? null : suite.decodePoint(asBytes(x, "share", suite.pointBytes)))));
  fields.opened = asList(obj.opened, "opened").map((t) => (t === null ? null : tileOf(t)));
  fields.played = asList(obj.played, "played").map((b) => asBool(b, "played"));
  fields.rulesState = obj.rules === null ? null : rules.stateFromJson(obj.rules);
  fields.drawing = drawing === null ? null : num(asInt(drawing, "drawing", 0, positions - 1));
  fields.claims = asList(obj.claims, "claims").map(claimOf);
  return new PublicState(fields);
}

const BEFORE_PLAY = [Phase.KEYS, Phase.NONCES, Phase.SHUFFLE, Phase.DEAL];

/** What makes a decoded state one no game can reach, as far as the step relies on it. */
function inconsistency(s, seats) {
  const n = s.owners.length;
  if (!(s.shares.length === n && s.opened.length === n && s.played.length === n)) {
    return "per-position lists differ in length";
  }
  if ((s.turn === null) !== (s.phase === Phase.DONE)) {
    return "a turn is owed exactly while the game is not done";
  }
  const keysDone = s.phase !== Phase.KEYS;
  if (keysDone && (s.keyShares.length !== seats || s.commitments.length !== seats)) {
    return "every seat's key share is in after the key phase";
  }
  if (s.keyShares.length !== s.commitments.length) return "one commitment per key share";
  const noncesDone = s.phase !== Phase.KEYS && s.phase !== Phase.NONCES;
  if (noncesDone !== (s.nonces.length === seats && s.firstPlayer !== null
      && s.deck.length === n)) {
    return "nonces, the first player and the deck come with the shuffle phase";
  }
  if (!noncesDone && (s.deck.length || s.firstPlayer !== null)) {
    return "no deck before the shuffle phase";
  }
  if ((s.rulesState === null) !== BEFORE_PLAY.includes(s.phase)) {
    return "the rules' state exists from the play phase on";
  }
  if (s.phase === Phase.KEYS && s.keyShares.length !== s.turn) {
    return "in the key phase, the seat to send is the next without a key";
  }
  if (s.phase === Phase.NONCES && s.nonces.length !== s.turn) {
    return "in the nonce phase, the seat to send is the next without a nonce";
  }
  if ((s.drawing === null) !== (s.phase !== Phase.DRAW)) {
    return "a position is being drawn exactly in the draw phase";
  }
  if (s.drawing !== null && (s.owners[s.drawing] < 0 || s.opened[s.drawing] !== null
      || s.owners[s.drawing] === s.turn)) {
    return "the position drawn belongs to a seat other than the one to send, unopened";
  }
  if (s.claims.some((c) => c.seq >= s.seq || !strictlyAscending(c.positions, (a, b) => a - b)
      || !strictlyAscending(c.forbidden, compareTiles))) {
    return "claims are of earlier frames, with ascending positions and tiles";
  }
  return null;
}

/**
 * A simultaneous rule set's state (10.8): no deck, and the phase and turn are what the
 * rules' state says is owed.
 */
function stageInconsistency(s, rules) {
  if (s.keyShares.length || s.commitments.length || s.nonces.length || s.firstPlayer !== null
      || s.deck.length || s.owners.length || s.shares.length || s.opened.length
      || s.played.length || s.drawing !== null || s.claims.length || s.rulesState === null) {
    return "a simultaneous game has no deck and always a rules' state";
  }
  let due;
  try {
    due = rules.due(s.rulesState);
  } catch (exc) {
    if (!(exc instanceof LocalError || exc instanceof RangeError || exc instanceof TypeError)) {
      throw exc;
    }
    return "the rules' state owes nothing and is not over";
  }
  const [phase, turn] = stagePosition(due);
  if (s.phase !== phase || s.turn !== turn) {
    return "the phase and turn are what the rules' state says is owed";
  }
  return null;
}

/**
 * The rules' hand is over exactly in the reveal and done phases, and only a rule set with
 * forced play holds claims (10.3).
 */
export function rulesInconsistency(s, rules) {
  // (The draw phase is in the middle of a turn: a hand never ends on a draw.)
  if (s.rulesState !== null && rules.isOver(s.rulesState)
      !== (s.phase === Phase.REVEAL || s.phase === Phase.DONE)) {
    return "the hand is over exactly in the reveal and done phases";
  }
  if (s.claims.length && !isDrawing(rules)) {
    // Only forced play makes claims (10.4 PLAY), so a referee of bram alone checks that
    // `claims` is empty and needs no audit (10.3).
    return "a rule set without forced play makes no claims";
  }
  return null;
}
