// The fixed facts of one game, derived from its setup (spec/10-session.md 10.1 and 10.3),
// as protocol/game.py: the rule set, the number of seats, the game id, the deck tiles,
// the owner of each deck position as dealt, and the state before the first frame.

import { Context } from "./context.js";
import { LocalError } from "./errors.js";
import { BONEYARD, HIDDEN, Phase, PublicState, isSimultaneous, stagePosition } from "./state.js";

/** The fixed facts of one game, derived from its setup. */
export class Game {
  constructor(setup) {
    this.setup = setup;
    Object.defineProperty(this, "_cache", { value: {}, enumerable: false });
    Object.freeze(this);
  }

  _memo(name, make) {
    if (!(name in this._cache)) this._cache[name] = make();
    return this._cache[name];
  }

  get rules() { return this._memo("rules", () => this.setup.ruleset); }
  get seats() { return this.setup.seats; }
  get gameId() { return this.setup.gameId; }
  get suite() { return this._memo("suite", () => this.setup.suite); }

  /** A rule set of simultaneous orders by commit-reveal, with no deck (10.8). */
  get simultaneous() { return this._memo("simultaneous", () => isSimultaneous(this.rules)); }

  /** The rules of a simultaneous game (10.8). */
  get stages() {
    if (!this.simultaneous) {
      throw new LocalError("session/not-simultaneous", "a deck game has no stages");
    }
    return this.rules;
  }

  /** The tiles shuffled, in canonical order (none in a simultaneous game). */
  get deckTiles() {
    return this._memo("deckTiles", () => (this.simultaneous ? []
      : this.rules.deal.deckTiles(this.rules.tileSet)));
  }

  /** Seat s gets positions [s*h, (s+1)*h); then the hidden ones; then the boneyard. */
  get owners() {
    return this._memo("owners", () => {
      if (this.simultaneous) return [];
      const plan = this.rules.deal;
      const owners = [];
      for (let s = 0; s < this.seats; s++) for (let i = 0; i < plan.handSize; i++) owners.push(s);
      for (let i = 0; i < plan.hidden; i++) owners.push(HIDDEN);
      while (owners.length < this.deckTiles.length) owners.push(BONEYARD);
      return Object.freeze(owners);
    });
  }

  /**
   * Whether draws can turn the dealt owners into `owners`: the same, except that the
   * first boneyard positions (in order) may have gone to seats (10.3).
   */
  ownersReachable(owners) {
    const dealt = this.owners;
    if (owners.length !== dealt.length) return false;
    const drawn = [];
    for (let p = 0; p < dealt.length; p++) {
      if (dealt[p] === BONEYARD) drawn.push(owners[p] >= 0);
      else if (owners[p] !== dealt[p]) return false;
    }
    // Drawn positions come first: no `true` after a `false`.
    return drawn.every((d, i) => i === 0 || !d || drawn[i - 1]);
  }

  /** The state before the first frame (10.3). */
  initialState() {
    if (this.simultaneous) {
      const rs = this.stages.startState();
      const [phase, turn] = stagePosition(this.stages.due(rs));
      return new PublicState({
        gameId: this.gameId, seq: 0, prev: this.gameId, phase, turn, keyShares: [],
        commitments: [], nonces: [], firstPlayer: null, deck: [], owners: [], shares: [],
        opened: [], played: [], rulesState: rs,
      });
    }
    const n = this.deckTiles.length;
    return new PublicState({
      gameId: this.gameId, seq: 0, prev: this.gameId, phase: Phase.KEYS, turn: 0,
      keyShares: [], commitments: [], nonces: [], firstPlayer: null, deck: [],
      owners: this.owners,
      shares: Array.from({ length: n }, () => new Array(this.seats).fill(null)),
      opened: new Array(n).fill(null), played: new Array(n).fill(false),
    });
  }

  /** Every proof in a frame is bound to (game id, the frame's seq, its sender) (6.1). */
  ctx(frame) {
    return new Context(this.suite, this.gameId, frame.seq, frame.seat);
  }

  get game_id() { return this.gameId; }
  get deck_tiles() { return this.deckTiles; }
}
