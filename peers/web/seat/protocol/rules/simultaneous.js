// What a rule set of simultaneous orders adds to the rule-set interface (spec/10-session.md
// 10.8): the state the session reads, and the members it calls in each stage of
// commit-reveal. Mirrors protocol/rules/simultaneous.py.
//
// The state the session reads (StageState) has `stage`; `keys` (per seat its share key, a
// point's bytes, or null); `commits` (per seat its seal of this stage, msgpack bytes, or
// null); and `absent`: null, or [the seat being declared absent, its ABSENT frames so far,
// each [signer, that signer's decryption share of the seat's seal or null]].
//
// A simultaneous rule set has no deck: the session never shuffles or deals for it.
// `due(state)` says what is owed next and by whom: ["keys" | "commit" | "open" | "choose",
// seat], or null once the game is over; the session's phase and turn always follow it. The
// session checks the share keys, seals, openings and decryption shares; everything else is
// the rules' to judge, throwing RuleViolation. The members: startState(), due(state),
// shareKey(state, seat, key), commit(state, seat, value), decodeOrders(state, obj),
// takesOrders(state), check(state, seat, orders), open(gameId, state, seat, orders, nonce),
// declareAbsent(gameId, state, declarer, seat, stage, share), sealed(state, seat),
// declarers(state, seat), admits(state, seat, declarer), recovered(gameId, state, seat,
// orders, nonce), answered(state), choose(state, seat, chosen), choices(state) and
// verdict(state), whose result has toJson() (spec/11-verify.md 11.1).

/**
 * What an ABSENT may carry when its signer sends it now (spec/10-session.md 10.8, "Shares
 * wait for t declarations"): NOTHING, EITHER (its decryption share or none) or SHARE.
 */
class Carry {
  constructor(name, value) {
    this.name = name;
    this.value = value;
    Object.freeze(this);
  }

  /** Whether an ABSENT carrying `share` (null: no share) fits. */
  allows(share) {
    const has = share !== null && share !== undefined;
    return this === Carries.EITHER || has === (this === Carries.SHARE);
  }

  toString() {
    return `Carries.${this.name}`;
  }
}

/** The three kinds of ABSENT: NOTHING, EITHER, SHARE (10.8). */
export const Carries = Object.freeze({
  NOTHING: new Carry("NOTHING", "no decryption share"),
  EITHER: new Carry("EITHER", "its decryption share or none"),
  SHARE: new Carry("SHARE", "its decryption share"),
});

const MEMBERS = ["startState", "due", "shareKey", "commit", "decodeOrders", "takesOrders",
  "check", "open", "declareAbsent", "sealed", "declarers", "admits", "recovered", "answered",
  "choose", "choices", "verdict"];

/**
 * Whether `rules` is of the simultaneous family (spec/10-session.md 10.8): the Python's
 * runtime check of the SimultaneousRules protocol, by its members.
 */
export function isSimultaneousRules(rules) {
  return rules !== null && typeof rules === "object"
    && MEMBERS.every((m) => typeof rules[m] === "function");
}
