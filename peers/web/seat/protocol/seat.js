// A seat's private side: its secrets, its hand, and the frames it owes
// (spec/10-session.md 10.4 and 10.8), as protocol/seat.py.
//
// The session is public and judges everyone; a SeatAgent is what one player adds to it:
// the key share x_i, the first-player nonce, and the hand it decrypts after the deal. It
// builds the frame its seat owes from the public state, with all randomness passed in as
// `fresh` bytes (at least 32 from entropy.js), so a seed makes a game reproducible while
// real play feeds it from the CSPRNG. What a bot or a page may see is a SeatView: the
// public rule state, this seat's hand, its legal moves and the rules' public parameters.

import { proveCannotPlay } from "./cannot_play.js";
import { asArray, asBytes, pack, unpack } from "./canonical.js";
import { claimStatement } from "./claims.js";
import { Context } from "./context.js";
import { jointKey, makeShare, makeShares, openTile, ownShare, shuffleRound } from "./deck.js";
import { commitment } from "./deck_phases.js";
import { DealerlessError, LocalError } from "./errors.js";
import { MAX_FRAME_BYTES, MessageType, buildFrame, bytesEqual } from "./frames.js";
import {
  AbsentBody, ChooseBody, KeyBody, MoveBody, NonceBody, OpenBody, SealKeyBody, ShareEntry,
  SharesBody, ShuffleBody,
} from "./messages.js";
import { Carries } from "./rules/simultaneous.js";
import { proveKey } from "./schnorr.js";
import { deal, decryptionShare, openWithSecret, pad, sealSecret } from "./seal.js";
import { proveShareKey, shareKey } from "./seal_proofs.js";
import { PLAINTEXT_BYTES, holdersContext, sealedPlaintext, storedSeal } from "./sealed.js";
import { awaiting } from "./session.js";
import { HIDDEN, Phase, compareTiles, isDrawing, sameTile } from "./state.js";
import { Tag, requireFresh, u64 } from "./tags.js";

const ascii = (text) => new TextEncoder().encode(text);
const BEFORE_DEAL = [Phase.KEYS, Phase.NONCES, Phase.SHUFFLE, Phase.DEAL];

/** Everything a seat's player may know when choosing a move. */
export class SeatView {
  constructor(seat, rulesState, hand, legal, params = {}) {
    Object.assign(this, { seat, rulesState, hand, legal, params });
    Object.freeze(this);
  }

  get rules_state() { return this.rulesState; }
}

/** One seat's secrets and frame builder. Never shared with other seats. */
export class SeatAgent {
  #x;
  #nonce;
  #hand = null;
  #ordersKey;
  #pending = new Map(); // stage -> [orders, nonce]
  #sealX;

  /**
   * `identity` must be seat `seat`'s; `secretSeed` (32+ fresh bytes, kept with the game
   * so that a resumed seat rebuilds the same secrets) derives every secret.
   * @param {import("./game.js").Game} game the referee's `game`
   * @param {number} seat
   * @param {import("./identity.js").Identity} identity
   * @param {Uint8Array} secretSeed
   */
  constructor(game, seat, identity, secretSeed) {
    if (!bytesEqual(identity.frameKey(game.suite), game.setup.identities[seat])) {
      throw new LocalError("seat/identity", `this identity is not seat ${seat}'s`);
    }
    requireFresh(secretSeed);
    this.game = game;
    this.seat = seat;
    Object.defineProperty(this, "identity", { value: identity, enumerable: false });
    const suite = game.suite;
    this.suite = suite;
    // Bound to the game: a seed reused by mistake still gives unrelated secrets.
    const gid = game.gameId;
    this.#x = suite.hashToScalar(Tag.KEY_SHARE, secretSeed, gid, ascii("x")) || 1n;
    this.#nonce = suite.H(Tag.KEY_SHARE, secretSeed, gid, ascii("first-player nonce"))
      .slice(0, 32);
    this.#ordersKey = suite.H(Tag.MINED_NONCE, secretSeed, gid, ascii("orders nonce key"))
      .slice(0, 32);
    // The share key of a simultaneous game (10.8): its seals' holders decrypt with it.
    this.#sealX = game.simultaneous ? shareKey(suite, secretSeed, gid) : 0n;
  }

  toString() { return `SeatAgent(seat=${this.seat})`; } // never print secrets

  /** The type of the frame this seat owes now, or null (an ABSENT is never owed). */
  owed(state) {
    const due = awaiting(state);
    return due !== null && due[0] === this.seat ? due[1] : null;
  }

  owes(state) { return this.owed(state) !== null; }

  /** Whether the `mtype` frame this seat owes carries its player's choice. */
  asks(state, mtype) {
    if (mtype === MessageType.COMMIT) return this.asksOrders(state);
    return mtype === MessageType.MOVE || mtype === MessageType.CHOOSE;
  }

  /**
   * Position -> tile of this seat's unplayed tiles (a Map; known once the deal is done, a
   * drawn tile once every other seat's share of it is in).
   */
  handPositions(state) {
    if (BEFORE_DEAL.includes(state.phase)) return new Map();
    const hand = this.#hand ?? new Map();
    const ts = this.game.rules.tileSet;
    state.owners.forEach((owner, p) => {
      if (owner === this.seat && !hand.has(p) && p !== state.drawing) {
        const others = state.shares[p].filter((s, i) => i !== this.seat && s !== null);
        hand.set(p, openTile(this.suite, ts, state.deck[p],
          [...others, ownShare(this.suite, this.#x, state.deck[p])]));
      }
    });
    this.#hand = hand;
    return new Map([...hand].filter(([p]) => !state.played[p]));
  }

  /** What this seat's player may see (the hand sorted, the legal moves when it is to move). */
  view(state) {
    if (this.game.simultaneous) {
      const rs = state.rulesState;
      const among = state.phase === Phase.CHOOSE ? this.game.stages.choices(rs) : [];
      return new SeatView(this.seat, rs, [], among);
    }
    const hand = [...this.handPositions(state).values()].sort(compareTiles);
    const legal = state.phase === Phase.PLAY && this.owes(state)
      ? this.game.rules.legalMoves(state.rulesState, hand) : [];
    return new SeatView(this.seat, state.rulesState, hand, legal, this.game.rules.params);
  }

  /** The body of the frame this seat owes now, as [type, canonical value]. */
  body(state, fresh, choose = null) {
    if (!this.owes(state)) throw new LocalError("seat/not-our-turn", `seat ${this.seat} owes nothing now`);
    const suite = this.suite;
    const ctx = new Context(suite, this.game.gameId, state.seq, this.seat);
    if (this.game.simultaneous) return this.#stageBody(state, fresh, choose);
    switch (state.phase) {
      case Phase.KEYS: return [MessageType.KEY, new KeyBody(suite.group.baseMul(this.#x),
        proveKey(this.#x, ctx, fresh),
        commitment(suite, this.game.gameId, this.seat, this.#nonce)).encode(suite)];
      case Phase.NONCES: return [MessageType.NONCE, new NonceBody(this.#nonce).encode()];
      case Phase.SHUFFLE: {
        const [deck, proof] = shuffleRound(state.deck, jointKey(suite, state.keyShares), ctx,
          fresh, suite.encodeScalar(this.#x));
        return [MessageType.SHUFFLE, new ShuffleBody(deck, proof).encode(suite)];
      }
      case Phase.DEAL: {
        const positions = [];
        state.owners.forEach((o, p) => { if (o >= 0 && o !== this.seat) positions.push(p); });
        return [MessageType.DEAL, this.sharesBody(state, positions, fresh).encode(suite)];
      }
      case Phase.PLAY: {
        const move = this.#choice(state, choose);
        return [MessageType.MOVE, this.#moveBody(state, move, fresh).encode(suite)];
      }
      case Phase.DRAW:
        if (state.drawing === null) throw new LocalError("seat/state", "a draw phase without a position");
        return [MessageType.DRAW, this.sharesBody(state, [state.drawing], fresh).encode(suite)];
      case Phase.REVEAL: {
        const positions = [];
        state.owners.forEach((o, p) => {
          if ((o === this.seat && state.opened[p] === null) || o === HIDDEN) positions.push(p);
        });
        return [MessageType.REVEAL, this.sharesBody(state, positions, fresh).encode(suite)];
      }
      default: throw new LocalError("seat/done", "the game is over");
    }
  }

  /** KEY, COMMIT, OPEN or CHOOSE of a simultaneous rule set (10.8). */
  #stageBody(state, fresh, choose) {
    const rules = this.game.stages;
    const rs = state.rulesState;
    const gid = this.game.gameId;
    const suite = this.suite;
    if (state.phase === Phase.KEYS) {
      const [key, proof] = proveShareKey(suite, this.#sealX, gid, this.seat, fresh);
      return [MessageType.KEY, new SealKeyBody(key, proof).encode(suite)];
    }
    if (state.phase === Phase.COMMIT) {
      const ctx = holdersContext(suite, gid, rs.stage, this.seat, rs.keys);
      let kept = this.#recommit(rs);
      if (kept === null) {
        // (A seat that committed in this stage on a branch a rival took seals the same
        // orders and nonce again, so its OPEN is the same whichever COMMIT stays: 10.8.)
        let orders = null;
        if (rules.takesOrders(rs)) {
          if (choose === null) throw new LocalError("seat/no-chooser", "orders need a chooser");
          orders = choose(this.view(state));
        }
        try {
          rules.check(rs, this.seat, rules.decodeOrders(rs, orders));
        } catch (exc) {
          if (!(exc instanceof DealerlessError)) throw exc;
          throw new LocalError("seat/illegal-choice",
            `the chooser's orders break ${exc.code}: ${exc.detail}`);
        }
        requireFresh(fresh);
        kept = [orders, suite.H(Tag.MINED_NONCE, this.#ordersKey, u64(rs.stage), fresh)
          .slice(0, 32)];
      }
      // The one thing to remember until the OPEN: the seal is rebuilt from it.
      this.#pending.set(rs.stage, kept);
      const plaintext = pad(sealedPlaintext(kept[0], kept[1]), PLAINTEXT_BYTES);
      return [MessageType.COMMIT, deal(ctx, kept[1], plaintext, fresh).encode(suite)];
    }
    if (state.phase === Phase.OPEN) {
      if (!this.#pending.has(rs.stage)) {
        throw new LocalError("seat/lost-orders",
          `this seat's orders of stage ${rs.stage} were not kept (mined-games.md D17)`);
      }
      const nonce = this.#pending.get(rs.stage)[1];
      const ctx = holdersContext(suite, gid, rs.stage, this.seat, rs.keys);
      return [MessageType.OPEN, new OpenBody(sealSecret(ctx, nonce)).encode(suite)];
    }
    if (state.phase === Phase.CHOOSE) {
      return [MessageType.CHOOSE, new ChooseBody(this.#choice(state, choose)).encode()];
    }
    throw new LocalError("seat/done", "the game is over");
  }

  /** The orders and nonce sealed in the current stage on another branch, if still legal. */
  #recommit(rs) {
    const kept = this.#pending.get(rs.stage);
    if (kept === undefined) return null;
    const rules = this.game.stages;
    try {
      rules.check(rs, this.seat, rules.decodeOrders(rs, kept[0]));
    } catch (exc) {
      if (exc instanceof DealerlessError) return null;
      throw exc;
    }
    return kept;
  }

  /** Whether this seat's COMMIT now needs its player's orders (10.8). */
  asksOrders(state) {
    const rs = state.rulesState;
    return this.game.stages.takesOrders(rs) && this.#recommit(rs) === null;
  }

  /**
   * What this seat must keep to open its commitment of the current stage, as a Map
   * {stage: pack([orders, nonce])}, empty when it holds none (mined-games.md D17). Store it
   * with the COMMIT frame, before that frame leaves; it is as secret as the seed.
   */
  openings(state) {
    if (!this.game.simultaneous || !this.#pending.has(state.rulesState.stage)) return new Map();
    const stage = state.rulesState.stage;
    return new Map([[stage, pack([...this.#pending.get(stage)])]]);
  }

  /** Take back what `openings` gave, on the state a resumed seat rebuilt (D17). */
  restoreOpenings(state, openings) {
    if (!this.game.simultaneous) return;
    const rs = state.rulesState;
    const kept = openings instanceof Map ? openings.get(rs.stage) : openings[rs.stage];
    if (kept === undefined || rs.commits[this.seat] === null) return;
    const stage = rs.stage;
    let orders;
    let nonce;
    try {
      [orders, nonce] = asArray(unpack(kept, MAX_FRAME_BYTES), 2, "opening");
      nonce = asBytes(nonce, "nonce", 32);
    } catch (exc) {
      if (!(exc instanceof DealerlessError)) throw exc;
      throw new LocalError("seat/bad-opening",
        `the kept opening of stage ${stage} does not decode: ${exc.detail}`);
    }
    const ctx = holdersContext(this.suite, this.game.gameId, stage, this.seat, rs.keys);
    let sealed = new Uint8Array(0);
    try {
      sealed = openWithSecret(ctx, storedSeal(rs.commits[this.seat], ctx), sealSecret(ctx, nonce));
    } catch (exc) {
      if (!(exc instanceof DealerlessError)) throw exc;
    }
    if (!bytesEqual(sealed, pad(sealedPlaintext(orders, nonce), PLAINTEXT_BYTES))) {
      throw new LocalError("seat/bad-opening",
        `the kept opening of stage ${stage} does not open seat ${this.seat}'s seal`);
    }
    this.#pending.set(stage, [orders, nonce]);
  }

  /** What the chooser picks from this seat's view; a pick that is not legal is never sent. */
  #choice(state, choose) {
    if (choose === null) throw new LocalError("seat/no-chooser", "a move or a choice needs a chooser");
    const view = this.view(state);
    const picked = choose(view);
    const rules = this.game.rules;
    const same = (m) => m === picked || (typeof m === "object" && m !== null
      && typeof picked === "object" && picked !== null && rules.moveId(m) === rules.moveId(picked));
    if (!view.legal.some(same)) throw new LocalError("seat/illegal-choice", "the chooser picked an illegal move");
    return picked;
  }

  /** Whether this seat may send an ABSENT against the seat that owes now (10.8). */
  mayDeclare(state) { return this.#carries(state) !== null; }

  /** Whether this seat's ABSENT now would post its decryption share (10.8). */
  sharesNow(state) { return this.#carries(state) === Carries.SHARE; }

  #carries(state) {
    const due = awaiting(state);
    if (!this.game.simultaneous || due === null || due[0] === this.seat
        || ![MessageType.KEY, MessageType.COMMIT, MessageType.OPEN].includes(due[1])) return null;
    return this.game.stages.admits(state.rulesState, due[0], this.seat) ?? null;
  }

  /**
   * An ABSENT frame naming the seat that owes the next KEY, COMMIT or OPEN (10.8), for
   * when it missed the agreed deadline; against a sealed OPEN it carries this seat's
   * decryption share of that seat's seal whenever the rules admit one.
   */
  declareAbsent(state, fresh) {
    const carries = this.#carries(state);
    if (carries === null) throw new LocalError("seat/no-absence", "this seat may not declare anyone absent now");
    const [owing] = awaiting(state);
    const rs = state.rulesState;
    let share = null;
    if (carries !== Carries.NOTHING) {
      const ctx = holdersContext(this.suite, this.game.gameId, rs.stage, owing, rs.keys);
      const seal = storedSeal(rs.commits[owing], ctx);
      share = decryptionShare(ctx, seal, this.seat, this.#sealX, fresh);
    }
    return this.sign(state, MessageType.ABSENT,
      new AbsentBody(owing, rs.stage, share).encode(this.suite), fresh);
  }

  /** This seat's decryption share of `position`, proven for the current step. */
  shareFor(state, position, fresh) {
    const ctx = new Context(this.suite, this.game.gameId, state.seq, this.seat);
    return makeShare(this.#x, state.deck[position], ctx, fresh);
  }

  /** This seat's shares of `positions` with their proof(s), for the current step. */
  sharesBody(state, positions, fresh) {
    const ctx = new Context(this.suite, this.game.gameId, state.seq, this.seat);
    const [shares, proofs] = makeShares(this.#x, positions.map((p) => state.deck[p]), ctx, fresh);
    return new SharesBody([...positions], shares, proofs);
  }

  #moveBody(state, move, fresh) {
    const rules = this.game.rules;
    const tile = rules.playedTile(move);
    if (isDrawing(rules) && rules.mustPlayIfAble(state.rulesState, this.seat, move)) {
      const statement = claimStatement(this.game, state, this.seat);
      if (statement !== null && statement !== undefined) {
        const ctx = new Context(this.suite, this.game.gameId, state.seq, this.seat);
        const proof = proveCannotPlay(this.#x, statement, ctx, fresh);
        return new MoveBody(rules.moveId(move), null, proof.encode(this.suite));
      }
    }
    if (tile === null || tile === undefined) return new MoveBody(rules.moveId(move), null);
    const [position] = [...this.handPositions(state)].find(([, t]) => sameTile(t, tile));
    return new MoveBody(rules.moveId(move),
      new ShareEntry(position, this.shareFor(state, position, fresh)));
  }

  /** Wrap a body into this seat's signed frame for the current step (8.4). */
  sign(state, mtype, body, fresh = new Uint8Array(0)) {
    return buildFrame(this.identity, this.suite, this.game.gameId, state.seq, state.prev,
      this.seat, mtype, state.hash(this.game.rules, this.suite), body, fresh);
  }

  /**
   * The wire bytes of the frame this seat owes now (10.4, 10.8). Store them, then send
   * them and feed them to this seat's own referee.
   * @param {import("./state.js").PublicState} state the referee's current state
   * @param {Uint8Array} fresh at least 32 fresh bytes (entropy.js)
   * @param {((view: SeatView) => *)|null} [choose] picks a move from `view.legal`, the
   *   winner's choice, or a stage's orders, when the frame carries one (`asks`)
   * @returns {Uint8Array|Promise<Uint8Array>} a Promise where the identity signs so (frames.js)
   */
  nextFrame(state, fresh, choose = null) {
    const [mtype, body] = this.body(state, fresh, choose);
    return this.sign(state, mtype, body, fresh);
  }
}
