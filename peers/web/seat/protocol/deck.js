/**
 * Joint key, initial deck, shuffle rounds and openings (spec/05-deck.md); mirrors
 * protocol/deck.py.
 *
 * Each seat i holds a key share x_i with public Y_i = x_i*G; the deck is encrypted under
 * Y = sum Y_i, so opening a position needs a decryption share D_i = x_i*c1 from every
 * seat. A private opening to seat s publishes every share except s's own; a public one
 * publishes all. Every published share carries a DLEQ proof (6.3, from dealerless/3 one
 * batched proof a seat's shares, 6.3.1).
 * @module protocol/deck
 */
import { proveDleq, verifyDleq } from "./dleq.js";
import { proveDleqBatch, verifyDleqBatch } from "./dleq_batch.js";
import { Ciphertext } from "./elgamal.js";
import { DeckError, LocalError } from "./errors.js";
import { applyShuffle, deriveWitness, proveShuffle, shuffleHedge } from "./shuffle.js";
import { tileText } from "./tiles.js";

export const MIN_SEATS = 2;
export const MAX_SEATS = 8;

/**
 * Y = sum Y_i over 2..8 key shares; never the identity (5.3).
 * @param {import("./suite.js").Suite} suite
 * @param {import("./groups/base.js").Element[]} keys
 */
export function jointKey(suite, keys) {
  if (!(keys.length >= MIN_SEATS && keys.length <= MAX_SEATS)) {
    throw new LocalError("deck/seats", `a game has ${MIN_SEATS} to ${MAX_SEATS} seats`);
  }
  const y = suite.group.sum(keys);
  if (y.equals(suite.group.identity)) {
    // Only possible if the shares cancel, which a Schnorr-proven set of keys cannot do
    // by accident; refusing it keeps every tile from being public.
    throw new DeckError("deck/joint-key-identity", "the joint key is the identity");
  }
  return y;
}

/**
 * (G, M_t + Y) for each tile, in the given order (5.4). The randomness is the public
 * value 1, since (identity, M_t) would not be a valid encoding; the first shuffle round
 * makes it secret.
 * @param {import("./suite.js").Suite} suite
 * @param {import("./tiles.js").TileSet} ts
 * @param {import("./tiles.js").Tile[]} tiles
 * @param {import("./groups/base.js").Element} key
 * @returns {Ciphertext[]}
 */
export function initialDeck(suite, ts, tiles, key) {
  if (!tiles.length || new Set(tiles.map(tileText)).size !== tiles.length) {
    throw new LocalError("deck/tiles", "the deck needs distinct tiles");
  }
  const g = suite.group;
  return tiles.map((t) => new Ciphertext(g.generator, g.add(ts.point(suite, t), key)));
}

/**
 * One seat's shuffle: permute and re-encrypt `deck`, and prove it. `fresh` is at least
 * 32 bytes from a CSPRNG (or a fixed seed in tests); the witness comes from it hedged
 * with the seat's `secret`, the context and the deck (7.3), the proof nonces hedged
 * with the witness and the statement (3.4).
 * @param {Ciphertext[]} deck
 * @param {import("./groups/base.js").Element} key
 * @param {import("./context.js").Context} ctx
 * @param {Uint8Array} fresh
 * @param {Uint8Array} secret
 * @returns {[Ciphertext[], import("./shuffle.js").ShuffleProof]}
 */
export function shuffleRound(deck, key, ctx, fresh, secret) {
  const witness = deriveWitness(ctx.suite, deck.length, fresh, shuffleHedge(secret, ctx, deck));
  const out = applyShuffle(ctx.suite, deck, key, witness);
  return [out, proveShuffle(deck, out, key, witness, ctx, fresh)];
}

/** D_i = x_i*c1 with its DLEQ proof against the seat's key share Y_i (6.3). */
export class DecryptionShare {
  /**
   * @param {import("./groups/base.js").Element} share
   * @param {import("./dleq.js").DleqProof} proof
   */
  constructor(share, proof) {
    this.share = share;
    this.proof = proof;
    Object.freeze(this);
  }
}

/**
 * A seat's share of `ct` with its proof (6.3).
 * @param {bigint} secret
 * @param {Ciphertext} ct
 * @param {import("./context.js").Context} ctx
 * @param {Uint8Array} fresh
 * @returns {DecryptionShare}
 */
export function makeShare(secret, ct, ctx, fresh) {
  const [share, proof] = proveDleq(secret, ct.c1, ctx, fresh);
  return new DecryptionShare(share, proof);
}

/**
 * ProofError unless ds.share = x_i*c1 for the x_i behind `keyShare` (6.3).
 * @param {import("./groups/base.js").Element} keyShare
 * @param {Ciphertext} ct
 * @param {DecryptionShare} ds
 * @param {import("./context.js").Context} ctx
 */
export function verifyShare(keyShare, ct, ds, ctx) {
  verifyDleq(keyShare, ct.c1, ds.share, ds.proof, ctx);
}

/**
 * A seat's shares of `cts` with their proofs: one a share in dealerless/2 (6.3), one
 * batched proof for all from dealerless/3 (6.3.1), none for no shares.
 * @param {bigint} secret
 * @param {Ciphertext[]} cts
 * @param {import("./context.js").Context} ctx
 * @param {Uint8Array} fresh
 * @returns {[import("./groups/base.js").Element[], import("./dleq.js").DleqProof[]]}
 */
export function makeShares(secret, cts, ctx, fresh) {
  if (ctx.suite.version < 3) {
    const made = cts.map((ct) => makeShare(secret, ct, ctx, fresh));
    return [made.map((d) => d.share), made.map((d) => d.proof)];
  }
  if (!cts.length) return [[], []];
  const [shares, proof] = proveDleqBatch(secret, cts.map((ct) => ct.c1), ctx, fresh);
  return [shares, [proof]];
}

/**
 * ProofError unless every share is x_i*c1 of its ciphertext (6.3 or 6.3.1). The proofs
 * are as many as the wire form of the version has them (8.5 decoding).
 * @param {import("./groups/base.js").Element} keyShare
 * @param {Ciphertext[]} cts
 * @param {import("./groups/base.js").Element[]} shares
 * @param {import("./dleq.js").DleqProof[]} proofs
 * @param {import("./context.js").Context} ctx
 */
export function verifyShares(keyShare, cts, shares, proofs, ctx) {
  if (ctx.suite.version < 3) {
    // The Python zips strictly: lengths that differ are a caller's bug.
    if (cts.length !== shares.length || shares.length !== proofs.length) {
      throw new LocalError("dleq/lengths", "as many shares and proofs as ciphertexts");
    }
    cts.forEach((ct, i) => verifyShare(keyShare, ct, new DecryptionShare(shares[i], proofs[i]), ctx));
  } else if (shares.length || proofs.length) {
    if (proofs.length !== 1) {
      throw new LocalError("dleq/batch", "a batch of shares carries exactly one proof");
    }
    verifyDleqBatch(keyShare, cts.map((ct) => ct.c1), shares, proofs[0], ctx);
  }
}

/**
 * The share a seat computes privately to finish a private opening.
 * @param {import("./suite.js").Suite} suite
 * @param {bigint} secret
 * @param {Ciphertext} ct
 */
export function ownShare(suite, secret, ct) {
  return suite.group.mul(secret, ct.c1);
}

/**
 * M = c2 - sum D_i, decoded to a tile (5.6). `shares` must hold one per seat.
 * @param {import("./suite.js").Suite} suite
 * @param {import("./tiles.js").TileSet} ts
 * @param {Ciphertext} ct
 * @param {import("./groups/base.js").Element[]} shares
 * @returns {import("./tiles.js").Tile}
 */
export function openTile(suite, ts, ct, shares) {
  const g = suite.group;
  return ts.decode(suite, g.sub(ct.c2, g.sum(shares)));
}
