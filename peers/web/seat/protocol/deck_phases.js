// The deck game's phases, handler by handler (spec/10-session.md 10.2 and 10.4), as
// protocol/deck_phases.py.
//
// Every handler takes (game, state, frame) and returns the next state, or throws a
// DealerlessError that the session blames on the frame's sender. In KEYS, NONCES,
// SHUFFLE, DEAL and REVEAL the seats send in seat order; in PLAY the rules say who moves;
// a move that draws opens the lowest boneyard position to its drawer (DRAW) before play
// goes on. Once every seat has revealed, `deckOutcome` scores the opened hands (10.6).

import { audit, checkClaim } from "./claims.js";
import { initialDeck, jointKey, openTile, verifyShare, verifyShares } from "./deck.js";
import { DealerlessError, EncodingError, LocalError } from "./errors.js";
import { KeyBody, MoveBody, NonceBody, SharesBody, ShuffleBody } from "./messages.js";
import { verifyKey } from "./schnorr.js";
import { verifyShuffle } from "./shuffle.js";
import { BONEYARD, HIDDEN, Phase, isDrawing, sameTile } from "./state.js";
import { Tag } from "./tags.js";

/** The first-player commitment H(COMMIT, game_id, u8 seat, nonce), 32 bytes (10.4). */
export function commitment(suite, gameId, seat, nonce) {
  return suite.H(Tag.COMMIT, gameId, new Uint8Array([seat]), nonce).slice(0, 32);
}

/** H(FIRST_PLAYER, game_id, nonce_0, ..., nonce_{k-1}) mod k: uniform if one seat is. */
export function firstPlayer(suite, gameId, nonces) {
  let n = 0n;
  for (const b of suite.H(Tag.FIRST_PLAYER, gameId, ...nonces)) n = (n << 8n) | BigInt(b);
  return Number(n % BigInt(nonces.length));
}

/** A tile as the reference's details print it: "(3, 6)". */
const shown = (t) => `(${t[0]}, ${t[1]})`;

const bytesEqual = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Seat-order phases: the next seat owes, or the phase ends and `then` decides. */
function nextInOrder(game, state, done, then) {
  return done < game.seats ? state.with_({ turn: done }) : then();
}

/** KEY: the seat's key share and its Schnorr proof, and its first-player commitment. */
export function onKey(game, state, frame) {
  const body = KeyBody.decode(game.suite, frame.body);
  verifyKey(body.keyShare, body.proof, game.ctx(frame));
  const next = state.with_({
    keyShares: [...state.keyShares, body.keyShare],
    commitments: [...state.commitments, body.commitment],
  });
  return nextInOrder(game, next, next.keyShares.length, () => {
    // Throws deck/joint-key-identity, blamed on the last seat.
    jointKey(game.suite, next.keyShares);
    return next.with_({ phase: Phase.NONCES, turn: 0 });
  });
}

/** NONCE: the opening of the seat's commitment; the last one fixes the first player. */
export function onNonce(game, state, frame) {
  const body = NonceBody.decode(frame.body);
  if (!bytesEqual(commitment(game.suite, game.gameId, frame.seat, body.nonce),
    state.commitments[frame.seat])) {
    throw new DealerlessError("nonce/commitment-mismatch",
      "the nonce does not open the seat's commitment");
  }
  const next = state.with_({ nonces: [...state.nonces, body.nonce] });
  return nextInOrder(game, next, next.nonces.length, () => {
    const deck = initialDeck(game.suite, game.rules.tileSet, game.deckTiles,
      jointKey(game.suite, next.keyShares));
    return next.with_({
      phase: Phase.SHUFFLE, turn: 0, deck,
      firstPlayer: game.rules.firstPlayer(firstPlayer(game.suite, game.gameId, next.nonces)),
    });
  });
}

/** SHUFFLE: the seat's output deck with its proof of shuffle (7). */
export function onShuffle(game, state, frame) {
  const body = ShuffleBody.decode(game.suite, frame.body, state.deck.length);
  verifyShuffle(state.deck, body.deck, jointKey(game.suite, state.keyShares), body.proof,
    game.ctx(frame));
  const next = state.with_({ deck: body.deck });
  return nextInOrder(game, next, frame.seat + 1,
    () => next.with_({ phase: Phase.DEAL, turn: 0 }));
}

/** Check that `body` covers exactly `expected` and every share's proof; return the shares. */
function withShares(game, state, frame, body, expected, what) {
  const got = body.positions;
  if (got.length !== expected.length || got.some((p, i) => p !== expected[i])) {
    throw new DealerlessError(`${what}/positions`,
      `expected shares for positions [${expected.join(", ")}], got [${got.join(", ")}]`);
  }
  verifyShares(state.keyShares[frame.seat], got.map((p) => state.deck[p]), body.shares,
    body.proofs, game.ctx(frame));
  const shares = state.shares.map((row) => [...row]);
  got.forEach((p, i) => { shares[p][frame.seat] = body.shares[i]; });
  return shares;
}

/** DEAL: seat i publishes its share of every position dealt to another seat (10.4). */
export function onDeal(game, state, frame) {
  const body = SharesBody.decode(game.suite, frame.body);
  const expected = [];
  state.owners.forEach((o, p) => { if (o >= 0 && o !== frame.seat) expected.push(p); });
  const next = state.with_({ shares: withShares(game, state, frame, body, expected, "deal") });
  return nextInOrder(game, next, frame.seat + 1, () => {
    if (next.firstPlayer === null) {
      throw new LocalError("session/state", "no first player after the nonce phase");
    }
    const rs = game.rules.initialState(next.firstPlayer);
    return next.with_({ phase: Phase.PLAY, rulesState: rs, turn: game.rules.toMove(rs) });
  });
}

/** MOVE: the rules judge the move; a tile played is opened by the mover's share (10.4). */
export function onMove(game, state, frame) {
  const body = MoveBody.decode(game.suite, frame.body);
  const rules = game.rules;
  let move;
  try {
    move = rules.moveFromId(body.moveId);
  } catch (exc) {
    if (!(exc instanceof EncodingError || exc instanceof LocalError)) throw exc;
    throw new DealerlessError("move/unknown-id", exc.detail);
  }
  let current = state;
  if (isDrawing(rules) && rules.mustPlayIfAble(state.rulesState, frame.seat, move)) {
    const claim = checkClaim(game, state, frame.seat, body.claim, game.ctx(frame));
    if (claim !== null && claim !== undefined) {
      current = current.with_({ claims: [...state.claims, claim] });
    }
  } else if (body.claim !== null) {
    throw new DealerlessError("move/unexpected-claim", "this move claims nothing");
  }
  const tile = rules.playedTile(move);
  let { shares, opened, played } = state;
  if (tile === null || tile === undefined) {
    if (body.opening !== null) {
      throw new DealerlessError("move/unexpected-opening", "this move plays no tile");
    }
  } else {
    if (body.opening === null) {
      throw new DealerlessError("move/missing-opening",
        "a tile played must be opened with the mover's share");
    }
    const p = body.opening.position;
    if (p >= state.owners.length || state.owners[p] !== frame.seat) {
      throw new DealerlessError("move/not-dealt-to-seat",
        `position ${p} was not dealt to seat ${frame.seat}`);
    }
    if (state.opened[p] !== null) {
      throw new DealerlessError("move/already-played",
        `position ${p} was already played (${shown(state.opened[p])})`);
    }
    verifyShare(state.keyShares[frame.seat], state.deck[p], body.opening.share, game.ctx(frame));
    const row = [...state.shares[p]];
    row[frame.seat] = body.opening.share.share;
    const got = openTile(game.suite, rules.tileSet, state.deck[p], row.filter((s) => s !== null));
    if (!sameTile(got, tile)) {
      throw new DealerlessError("move/tile-mismatch",
        `position ${p} holds ${shown(got)}, not the ${shown(tile)} claimed`);
    }
    shares = state.shares.map((r, i) => (i === p ? row : r));
    opened = state.opened.map((t, i) => (i === p ? got : t));
    played = state.played.map((b, i) => (i === p ? true : b));
  }
  const rs = rules.apply(state.rulesState, frame.seat, move);
  current = current.with_({ rulesState: rs, shares, opened, played });
  if (isDrawing(rules) && rules.draws(move)) return startDraw(game, current, frame.seat);
  if (rules.isOver(rs)) return current.with_({ phase: Phase.REVEAL, turn: 0 });
  return current.with_({ turn: rules.toMove(rs) });
}

/** The lowest boneyard position becomes `seat`'s; the others open it to it (10.4 DRAW). */
function startDraw(game, state, seat) {
  const p = state.owners.indexOf(BONEYARD);
  if (p < 0) {
    // The rules let a seat draw from an empty pile: their count and ours disagree.
    throw new LocalError("session/boneyard", "the rules allowed a draw from an empty pile");
  }
  const owners = state.owners.map((o, i) => (i === p ? seat : o));
  return state.with_({ phase: Phase.DRAW, drawing: p, owners,
    turn: nextSharer(game, seat, -1) });
}

/** The next seat after `after`, in seat order, that owes the drawer its share. */
function nextSharer(game, drawer, after) {
  for (let s = after + 1; s < game.seats; s++) if (s !== drawer) return s;
  return null;
}

/** DRAW: a seat's share of the position being drawn, with its DLEQ proof (10.4). */
export function onDraw(game, state, frame) {
  const p = state.drawing;
  if (p === null) throw new LocalError("session/state", "no position is being drawn");
  const body = SharesBody.decode(game.suite, frame.body);
  const next = state.with_({ shares: withShares(game, state, frame, body, [p], "draw") });
  const following = nextSharer(game, next.owners[p], frame.seat);
  if (following !== null) return next.with_({ turn: following });
  return next.with_({ phase: Phase.PLAY, drawing: null,
    turn: game.rules.toMove(next.rulesState) });
}

/** REVEAL: seat i opens its unplayed positions and adds its share of the hidden ones. */
export function onReveal(game, state, frame) {
  const body = SharesBody.decode(game.suite, frame.body);
  const seat = frame.seat;
  const expected = [];
  state.owners.forEach((o, p) => {
    if ((o === seat && state.opened[p] === null) || o === HIDDEN) expected.push(p);
  });
  const shares = withShares(game, state, frame, body, expected, "reveal");
  const opened = [...state.opened];
  for (const p of expected) {
    if (shares[p].every((s) => s !== null)) {
      opened[p] = openTile(game.suite, game.rules.tileSet, state.deck[p], shares[p]);
    }
  }
  const next = state.with_({ shares, opened });
  return nextInOrder(game, next, seat + 1, () => {
    const done = next.with_({ phase: Phase.DONE, turn: null });
    audit(done.claims, done.opened); // every "cannot play" claim, re-judged in the open
    deckOutcome(game, done); // the revealed tiles must fit the public state
    return done;
  });
}

/**
 * The rules' outcome from the opened tiles of a finished deck game (10.6): each unplayed
 * position's tile joins its seat's hand, or the hidden tiles. Throws RuleViolation
 * (rules/reveal-mismatch) if the opened tiles do not fit the public state.
 */
export function deckOutcome(game, state) {
  const hands = Array.from({ length: game.seats }, () => []);
  const hidden = [];
  state.owners.forEach((owner, p) => {
    const tile = state.opened[p];
    if (tile === null || state.played[p]) return;
    if (owner >= 0) hands[owner].push(tile);
    else if (owner === HIDDEN) hidden.push(tile);
  });
  return game.rules.outcome(state.rulesState, hands, hidden);
}
