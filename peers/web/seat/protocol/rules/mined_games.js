// Mined Games as a rule set refereed by commit-reveal (spec/rules/mined-games.md sections
// 1, 2, 5, 6 and 8). Mirrors protocol/rules/mined_games.py.
//
// There is no deck: the session runs stages of commit-reveal instead (spec/10-session.md
// 10.8), asking this rule set what is owed (`due`) and handing it every commitment,
// opening, declaration of absence and choice. Stage 0 draws the map seed (skipped when a
// map is given), stage 1 places the miners on B1, stage r + 1 is round r. In every stage
// each living seat, in seat order, commits to its orders, then each opens them; once all
// are open the stage resolves (mined_stage.js). The state and its JSON are mined_state.js.

import { EncodingError, LocalError } from "../errors.js";
import { v2Suite } from "../suite.js";
import { DOUBLE_SIX } from "../tiles.js";
import { DealPlan, RuleViolation, replace } from "./base.js";
import { MAX_SIDE, MIN_SIDE, parseMap } from "./mined_map.js";
import { Miner, Orders, parseOrders } from "./mined_round.js";
import { MinedOutcome, resolveStage } from "./mined_stage.js";
import {
  MAX_ROUNDS, MinedState, Result, SEED_STAGE, START_STAGE, checkStageOrders, decodeStageOrders,
  majority, stateFromJson, stateToJson,
} from "./mined_state.js";
import { Carries } from "./simultaneous.js";

/** The registry name (section 1). */
export const NAME = "mined-games";
/** The mine's width and height when the setup names none (section 2). */
export const DEFAULT_SIDE = 7;

/**
 * Seats, width, height, map and rounds from a setup's parameters, defaults filled in
 * (section 2); EncodingError rules/params for anything else.
 */
function readParams(params) {
  const known = ["seats", "width", "height", "map", "rounds"];
  const unknown = Object.keys(params).filter((k) => !known.includes(k));
  if (unknown.length) {
    throw new EncodingError("rules/params", `unknown parameters ${JSON.stringify(unknown.sort())}`);
  }
  const get = (k, d) => (Object.hasOwn(params, k) ? params[k] : d);
  const seats = get("seats", 5);
  const rounds = get("rounds", MAX_ROUNDS);
  const text = get("map", "");
  if (typeof text !== "string") throw new EncodingError("rules/params", "map is the text of a map (section 2.2)");
  // A width or height given as null counts as missing, as the Python's params.get reads it.
  let width = get("width", null);
  let height = get("height", null);
  if (text) {
    const given = parseMap(text);
    if (!((width === null && height === null) || (width === given.width && height === given.height))) {
      throw new EncodingError("rules/params", `the map is ${given.width} wide and `
        + `${given.height} high; width and height must match`);
    }
    width = given.width;
    height = given.height;
  }
  width = width === null ? DEFAULT_SIDE : width;
  height = height === null ? DEFAULT_SIDE : height;
  for (const [name, v, lo, hi] of [["seats", seats, 2, 8], ["width", width, MIN_SIDE, MAX_SIDE],
    ["height", height, MIN_SIDE, MAX_SIDE], ["rounds", rounds, 1, MAX_ROUNDS]]) {
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new EncodingError("rules/params", `${name} is an integer ${lo}..${hi}`);
    }
  }
  return { seats, width, height, map: text, rounds };
}

const SHARE_RULE = new Map([
  [Carries.NOTHING, "a declaration carries a decryption share only against a sealed OPEN, "
    + "and there only once t holders have declared (the t-th may carry its own)"],
  [Carries.SHARE, "once t holders have declared a sealed OPEN absent, an ABSENT only posts "
    + "its signer's decryption share"],
]);

/**
 * The rule set `mined-games` (section 1): `seats`, `width`, `height`, `map` (its text, or
 * "" for a generated one), `rounds`, and `suite`, the game's suite (not a parameter: the
 * setup names it), whose elements the state's share keys and decryption shares are.
 */
export class MinedGamesRules {
  constructor({ seats = 5, width = DEFAULT_SIDE, height = DEFAULT_SIDE, map = "",
    rounds = MAX_ROUNDS, suite = null } = {}) {
    Object.assign(this, { seats, width, height, map, rounds });
    this.suite = suite ?? v2Suite();
    Object.freeze(this);
  }

  /** From a setup's `params` in `suite` (null: dealerless/2's edwards25519-sha512). */
  static fromParams(params, suite = null) {
    return new MinedGamesRules({ ...readParams(params), suite: suite ?? v2Suite() });
  }

  get name() { return NAME; }

  get params() {
    return { seats: this.seats, width: this.width, height: this.height, map: this.map,
      rounds: this.rounds };
  }

  // -- the deck-game interface: a simultaneous game has no deck and no turns ----------

  /** Unused: the session never builds a deck for this rule set (10.8). */
  get tileSet() { return DOUBLE_SIX; }

  /** Only `seats` is used: there is no deck to deal (10.8). */
  get deal() { return new DealPlan({ seats: this.seats, handSize: 1, hidden: 0, onTable: [] }); }

  firstPlayer(drawn) { return drawn; }

  initialState() { return this.startState(); }

  toMove(state) {
    const due = this.due(state);
    return due === null ? null : due[1];
  }

  legalMoves() { return []; } // orders are checked by `check`, never enumerated

  apply(state, seat) {
    throw new RuleViolation("rules/bad-move", "Mined Games takes orders by commit-reveal", seat);
  }

  outcome() { throw new LocalError("rules/not-a-deck-game", "use verdict"); }

  playedTile() { return null; }

  moveId() { throw new LocalError("rules/not-a-deck-game", "Mined Games has no move ids"); }

  moveFromId() { throw new EncodingError("rules/move-id", "Mined Games has no move ids"); }

  moveText(move) { return move instanceof Orders ? move.text() : String(move); }

  parseMove(text) { return parseOrders(text); }

  // -- the stages ---------------------------------------------------------------------

  startState() {
    const k = this.seats;
    const mine = this.map ? parseMap(this.map) : null;
    const none = Array(k).fill(null);
    return new MinedState({ seats: k, stage: mine ? START_STAGE : SEED_STAGE, mine,
      dur: mine ? mine.freshDurability() : [], miners: Array(k).fill(new Miner({ at: null })),
      commits: none, opened: none, nonces: none, keys: none });
  }

  isOver(state) { return state.end !== null; }

  /**
   * What is owed next and by whom: ["keys" | "commit" | "open" | "choose", seat], or null.
   * While a seat is being declared absent it still owes its frame (10.8).
   */
  due(state) {
    if (state.result !== null) return state.result.ec !== null ? null : ["choose", winnerOf(state)];
    const playing = state.playing();
    for (const [kind, missing] of [["keys", state.keys], ["commit", state.commits],
      ["open", state.nonces]]) {
      for (const s of playing) if (missing[s] === null) return [kind, s];
    }
    throw new LocalError("mined/state", "every seat has opened but the stage is unresolved");
  }

  /** Every stage but the map seed's (section 4.1: its orders are nil). */
  takesOrders(state) { return state.stage > 0; }

  /** The wire orders of this stage, strictly (4.1); RuleViolation if malformed. */
  decodeOrders(state, obj) { return decodeStageOrders(state, obj); }

  /** RuleViolation if decoded `orders` break the rules for `seat` (section 4.2). */
  check(state, seat, orders) { checkStageOrders(state, seat, orders); }

  /** Record the seat's share key (10.8), which the session has checked. */
  shareKey(state, seat, key) {
    return replace(state, { keys: state.keys.map((y, s) => (s === seat ? key : y)), absent: null });
  }

  /** Record the seat's seal (10.8), which the session has checked. */
  commit(state, seat, value) {
    return replace(state, { commits: state.commits.map((c, s) => (s === seat ? value : c)),
      absent: null });
  }

  /**
   * Record an opening (the session checked it against the commitment); resolve the stage
   * once every living seat has opened.
   */
  open(gameId, state, seat, orders, nonce) {
    const s = replace(state, { opened: state.opened.map((o, i) => (i === seat ? orders : o)),
      nonces: state.nonces.map((n, i) => (i === seat ? nonce : n)), absent: null });
    return this.maybeResolve(gameId, s);
  }

  /**
   * Check and resolve one stage from every living seat's wire orders (`orders`: a Map or
   * object from seat to orders), as if each had committed and opened them with `nonce`
   * (the rules vectors, section 10). Returns [state, report]; RuleViolation, with the seat,
   * for the first seat whose orders break the rules.
   */
  playStage(gameId, state, orders, nonce = new Uint8Array(32)) {
    const given = orders instanceof Map ? orders
      : new Map(Object.entries(orders).map(([s, o]) => [Number(s), o]));
    const seats = [...given.keys()].sort((a, b) => a - b);
    const playing = state.playing();
    if (seats.length !== playing.length || seats.some((s, i) => s !== playing[i])) {
      throw new LocalError("mined/orders", "one set of orders per living seat");
    }
    for (const seat of playing) {
      try {
        this.check(state, seat, this.decodeOrders(state, given.get(seat)));
      } catch (exc) {
        if (exc instanceof RuleViolation) throw new RuleViolation(exc.code, exc.detail, seat);
        throw exc;
      }
    }
    const k = this.seats;
    const seatsRange = Array.from({ length: k }, (_, s) => s);
    const s = replace(state, {
      commits: seatsRange.map((i) => (given.has(i) ? new Uint8Array(32) : null)),
      opened: seatsRange.map((i) => (given.has(i) ? given.get(i) : null)),
      nonces: seatsRange.map((i) => (given.has(i) ? nonce : null)),
    });
    return resolveStage(this.suite, gameId, s, this.width, this.height, this.rounds);
  }

  maybeResolve(gameId, state) {
    if (state.playing().some((s) => state.nonces[s] === null)) return state;
    return resolveStage(this.suite, gameId, state, this.width, this.height, this.rounds)[0];
  }

  /**
   * `declarer` says `seat`, which owes the next KEY, COMMIT or OPEN of `stage`, missed its
   * deadline (section 8, D16, D19, D20). Against a sealed OPEN the declarer is a holder of
   * the seal and `share` its decryption share, as `admits` allows; the session opens the
   * seal once t shares are in. Otherwise, once a majority of the other living seats has
   * declared, `seat` forfeits and the stage goes on without it.
   */
  declareAbsent(gameId, state, declarer, seat, stage, share = null) {
    const due = this.due(state);
    if (due === null || due[0] === "choose" || seat !== due[1] || stage !== state.stage) {
      const owing = due === null || due[0] === "choose" ? "no seat owes" : `seat ${due[1]} owes`;
      throw new RuleViolation("absent/wrong-seat", `${owing} the next frame of stage `
        + `${state.stage}; the declaration names seat ${seat} in stage ${stage}`);
    }
    const eligible = this.declarers(state, seat);
    const carries = state.admits(seat, declarer);
    if (carries === null) {
      let why;
      if (eligible.includes(declarer)) why = "it already has";
      else if (eligible.length) why = `only seats ${eligible.join(", ")} may`;
      else why = "it is the only seat that could, and one seat's word alone makes nobody forfeit";
      throw new RuleViolation("absent/declarer", `seat ${declarer} may not declare seat ${seat} absent: ${why}`);
    }
    if (!carries.allows(share)) throw new RuleViolation("absent/share", SHARE_RULE.get(carries));
    const declared = [...(state.absent !== null ? state.absent[1] : []), [declarer, share]];
    if (this.sealed(state, seat) || declared.length < majority(eligible.length)) {
      return replace(state, { absent: [seat, declared] });
    }
    return this.forfeit(gameId, state, seat, declared.map(([d]) => d).sort((a, b) => a - b));
  }

  /** What an ABSENT of `declarer` against `seat` may carry now (10.8). */
  admits(state, seat, declarer) { return state.admits(seat, declarer); }

  /** Whether the OPEN `seat` owes can be recovered from its seal without it (10.8). */
  sealed(state, seat) { return state.sealed(seat); }

  /** The seats that may declare `seat` absent (10.8); none if only one could. */
  declarers(state, seat) { return state.declarers(seat); }

  /**
   * The table opened `seat`'s seal from the holders' shares (D20): the orders count as if
   * the seat had opened them, and the state records whose shares opened it.
   */
  recovered(gameId, state, seat, orders, nonce) {
    if (state.absent === null || state.absent[0] !== seat) {
      throw new LocalError("mined/state", `seat ${seat} is not being declared absent`);
    }
    const openers = state.absent[1].filter(([, sh]) => sh !== null).map(([d]) => d)
      .sort((a, b) => a - b);
    const s = replace(state, { withheld: [...state.withheld, [seat, state.stage, openers]] });
    return this.open(gameId, s, seat, orders, nonce);
  }

  forfeit(gameId, state, seat, declared) {
    const clear = (xs) => xs.map((x, i) => (i === seat ? null : x));
    let s = replace(state, {
      miners: state.miners.map((m, i) => (i === seat ? replace(m, { status: "forfeit", died: state.stage }) : m)),
      commits: clear(state.commits), opened: clear(state.opened), nonces: clear(state.nonces),
      absent: null, forfeits: [...state.forfeits, [seat, state.stage, declared]],
    });
    // Every declarer is alive, so someone is still playing.
    if (s.playing().every((i) => s.commits[i] !== null)) s = this.maybeResolve(gameId, s);
    return s;
  }

  /**
   * The seat declared absent sent its frame before the declarations were complete: they
   * lapse (section 8).
   */
  answered(state) { return replace(state, { absent: null }); }

  /** The winner names the elimination candidate among the dead (D13). */
  choose(state, seat, chosen) {
    const { result } = state;
    if (result === null) throw new LocalError("mined/state", "no choice is owed");
    if (!result.chooseFrom.includes(chosen)) {
      throw new RuleViolation("mined/choice", `seat ${chosen} is not one of the dead miners `
        + `[${result.chooseFrom.join(", ")}]`);
    }
    return replace(state, { result: new Result(result.winner, chosen, result.how, result.chooseFrom) });
  }

  /** The dead miners the winner chooses among (D13), once the verdict is reached. */
  choices(state) { return state.result !== null ? state.result.chooseFrom : []; }

  verdict(state) {
    const { result } = state;
    if (result === null || result.ec === null || state.end === null) {
      throw new LocalError("rules/not-over", "the game is not over");
    }
    return new MinedOutcome(result.winner, result.ec, state.end, result.how,
      state.miners.map((m) => m.money), state.miners.map((m) => m.status), state.forfeits,
      state.pool, state.reports, state.miners.map((m) => m.ironRounds), state.withheld);
  }

  // -- the state as JSON (section 9) --------------------------------------------------

  stateToJson(state) { return stateToJson(state); }

  stateFromJson(obj) {
    return stateFromJson(obj, this.seats, this.width, this.height, this.map, this.rounds, this.suite);
  }
}

function winnerOf(state) {
  return state.result.winner;
}
