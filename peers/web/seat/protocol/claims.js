// Forced play: "cannot play" claims, proven live and audited at the end
// (spec/10-session.md 10.4).
//
// When the rules say a seat must play if it can and it draws or passes instead, its MOVE
// carries a proof (spec/06-proofs.md 6.5) that none of its unplayed positions holds a
// forbidden tile: a tile that is not public yet and that the rules would let it play.
// Everything in the statement comes from the public state, so every seat and the
// verifier build the same one. Each accepted claim is kept in the state; once the hands
// are revealed, the audit re-judges every claim from the opened tiles.
import {
  CannotPlayProof, CannotPlayStatement, HandPosition, partialOpening, verifyCannotPlay,
} from "./cannot_play.js";
import { DealerlessError, Violation } from "./errors.js";
import { playableTiles } from "./rules/base.js";
import { Claim } from "./state.js";

const sameTile = (a, b) => a[0] === b[0] && a[1] === b[1];

/**
 * The tiles the seat to move could play if it held them, among those not yet public
 * (10.4 step 1a): a tile is public once any position has opened it (played or revealed);
 * tiles set out on the table never enter the deck. In the set's canonical order (5.1).
 */
export function forbiddenTiles(game, state) {
  const opened = state.opened.filter((t) => t !== null && t !== undefined);
  const hidden = game.deckTiles.filter((t) => !opened.some((u) => sameTile(u, t)));
  return playableTiles(game.rules, state.rulesState, hidden);
}

/** The seat's unplayed positions: those it owns whose tile is not public. */
export function claimPositions(state, seat) {
  const out = [];
  state.owners.forEach((o, p) => {
    if (o === seat && (state.opened[p] === null || state.opened[p] === undefined)) out.push(p);
  });
  return out;
}

/**
 * What a claim by `seat` in `state` proves (6.5.1), from public data alone; null when
 * there is nothing to prove (no forbidden tile, or no tile in hand). A position whose
 * other shares are not all public is the Violation `claim/unopened`.
 * @returns {CannotPlayStatement|null}
 */
export function claimStatement(game, state, seat) {
  const forbidden = forbiddenTiles(game, state);
  const positions = claimPositions(state, seat);
  if (!forbidden.length || !positions.length) return null;
  const hand = positions.map((p) => {
    const others = state.shares[p].filter((_, i) => i !== seat);
    if (others.some((share) => share === null || share === undefined)) {
      // Every other seat's share of a dealt or drawn position is public (10.4).
      throw new Violation("claim/unopened", `position ${p} is not opened to seat ${seat}`,
        seat, state.seq);
    }
    return new HandPosition(p, state.deck[p].c1, partialOpening(game.suite, state.deck[p], others));
  });
  return new CannotPlayStatement(game.suite, game.rules.tileSet, state.keyShares[seat], hand,
    forbidden);
}

/**
 * Verify the proof of a move that says its seat cannot play (10.4 PLAY): the Claim to
 * keep, or null when there was nothing to prove. `proof` is the claim's bytes or null.
 * Throws the proof's own errors, `move/missing-claim` or `move/unexpected-claim`.
 */
export function checkClaim(game, state, seat, proof, ctx) {
  const statement = claimStatement(game, state, seat);
  if (statement === null) {
    if (proof !== null && proof !== undefined) {
      throw new DealerlessError("move/unexpected-claim",
        "nothing is forbidden, so the move carries no proof");
    }
    return null;
  }
  if (proof === null || proof === undefined) {
    throw new DealerlessError("move/missing-claim",
      "this move says the seat cannot play: it must carry the proof (6.5)");
  }
  verifyCannotPlay(statement, CannotPlayProof.decode(proof, statement), ctx);
  return new Claim(state.seq, seat, statement.hand.map((h) => h.position), statement.forbidden);
}

/**
 * Re-judge every claim from the revealed tiles (10.6); the first false one is a violation
 * of its claimant at the frame that made it (`audit/false-claim`). A claim whose proof
 * verified cannot be false unless the proof system failed: this is the check of last
 * resort that a reader of the transcript can redo without any cryptography.
 */
export function audit(claims, opened) {
  for (const claim of claims) {
    for (const p of claim.positions) {
      const tile = opened[p];
      if (tile !== null && tile !== undefined && claim.forbidden.some((t) => sameTile(t, tile))) {
        throw new Violation("audit/false-claim", `seat ${claim.seat} claimed it could not play, `
          + `but position ${p} held ${tile[0]}-${tile[1]}`, claim.seat, claim.seq);
      }
    }
  }
}
