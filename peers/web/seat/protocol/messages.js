// Frame bodies: one class per message type (spec/08-wire.md 8.5), as protocol/messages.py.
//
// Each body has `encode()` to a canonical-msgpack value and a strict static `decode()`
// that validates every point and scalar in 8.5's order, so a body that decodes is
// well-formed. A byte field is read as at most its length plus one, then checked exactly
// by its own decoder (with its own code).

import { asArray, asBytes, asInt, asList } from "./canonical.js";
import { DecryptionShare } from "./deck.js";
import { DleqProof, dleqProofBytes } from "./dleq.js";
import { ciphertextBytes, decodeDeck, encodeDeck } from "./elgamal.js";
import { EncodingError } from "./errors.js";
import { SchnorrProof, schnorrProofBytes } from "./schnorr.js";
import { DecryptionShare as SealShare } from "./seal.js";
import { SealProof } from "./seal_proofs.js";
import { decodeSeal } from "./sealed.js";
import { ShuffleProof, proofBytes } from "./shuffle.js";

/** A first-player commitment's length (8.5 KEY). */
export const COMMITMENT_BYTES = 32;
/** A first-player nonce's length (8.5 NONCE). */
export const NONCE_BYTES = 32;

/** The largest "cannot play" proof: 91 elements and three scalars (6.5, 8.5). */
export function maxClaimBytes(suite) {
  return 91 * suite.pointBytes + 3 * suite.scalarBytes;
}

const num = (x) => (typeof x === "bigint" ? Number(x) : x);
const point = (suite, data, what) => suite.decodePoint(asBytes(data, what, null,
  suite.pointBytes + 1));

/** KEY: the seat's key share Y_i, its Schnorr proof, and its first-player commitment. */
export class KeyBody {
  constructor(keyShare, proof, commitment) {
    Object.assign(this, { keyShare, proof, commitment });
  }

  encode(suite) { return [this.keyShare.data, this.proof.encode(suite), this.commitment]; }

  static decode(suite, obj) {
    const [key, proof, commit] = asArray(obj, 3, "key body");
    return new KeyBody(point(suite, key, "key share"),
      SchnorrProof.decode(suite, asBytes(proof, "key proof", null, schnorrProofBytes(suite) + 1)),
      asBytes(commit, "commitment", COMMITMENT_BYTES));
  }
}

/** NONCE: the opening of the seat's first-player commitment. */
export class NonceBody {
  constructor(nonce) { this.nonce = nonce; }

  encode() { return [this.nonce]; }

  static decode(obj) {
    const [nonce] = asArray(obj, 1, "nonce body");
    return new NonceBody(asBytes(nonce, "nonce", NONCE_BYTES));
  }
}

/** SHUFFLE: the seat's output deck and its proof of shuffle. */
export class ShuffleBody {
  constructor(deck, proof) { Object.assign(this, { deck, proof }); }

  encode(suite) { return [encodeDeck(this.deck), this.proof.encode(suite)]; }

  static decode(suite, obj, n) {
    const [deck, proof] = asArray(obj, 2, "shuffle body");
    // Only a shorter deck is left for the proof's shuffle/size (8.5).
    return new ShuffleBody(
      decodeDeck(suite, asBytes(deck, "deck", null, n * ciphertextBytes(suite) + 1)),
      ShuffleProof.decode(suite, asBytes(proof, "shuffle proof", null,
        proofBytes(suite, n) + 1), n));
  }
}

/** One decryption share for one deck position, with its DLEQ proof. */
export class ShareEntry {
  constructor(position, share) { Object.assign(this, { position, share }); }

  encode(suite) {
    return [this.position, this.share.share.data, this.share.proof.encode(suite)];
  }

  static decode(suite, obj) {
    const [position, share, proof] = asArray(obj, 3, "share entry");
    return new ShareEntry(num(asInt(position, "position", 0, 4095)),
      decodeShare(suite, share, proof));
  }
}

/** A decryption share and its proof, from their wire values (8.5 entry). */
export function decodeShare(suite, share, proof) {
  return new DecryptionShare(point(suite, share, "share"),
    DleqProof.decode(suite, asBytes(proof, "share proof", null, dleqProofBytes(suite) + 1)));
}

/**
 * DEAL, REVEAL and DRAW: decryption shares for a list of positions, ascending. In
 * dealerless/2 each share carries its own DLEQ proof; from dealerless/3 one batched proof
 * covers them all (6.3.1), or none for an empty list. The suite's version picks the form.
 */
export class SharesBody {
  constructor(positions, shares, proofs) { Object.assign(this, { positions, shares, proofs }); }

  encode(suite) {
    if (suite.version < 3) {
      return this.positions.map((p, i) => [p, this.shares[i].data, this.proofs[i].encode(suite)]);
    }
    const rows = this.positions.map((p, i) => [p, this.shares[i].data]);
    return [rows, this.proofs.length ? this.proofs[0].encode(suite) : null];
  }

  static decode(suite, obj) {
    let body;
    if (suite.version < 3) {
      const entries = asList(obj, "shares").map((e) => ShareEntry.decode(suite, e));
      body = new SharesBody(entries.map((e) => e.position), entries.map((e) => e.share.share),
        entries.map((e) => e.share.proof));
    } else {
      const [rows, proof] = asArray(obj, 2, "shares body");
      const pairs = asList(rows, "shares").map((r) => batchEntry(suite, r));
      body = new SharesBody(pairs.map((p) => p[0]), pairs.map((p) => p[1]),
        batchProof(suite, proof, pairs.length));
    }
    if (body.positions.some((p, i) => i > 0 && body.positions[i - 1] >= p)) {
      throw new EncodingError("body/positions", "positions must be strictly ascending");
    }
    return body;
  }
}

function batchEntry(suite, obj) {
  const [position, share] = asArray(obj, 2, "share entry");
  return [num(asInt(position, "position", 0, 4095)), point(suite, share, "share")];
}

/**
 * nil for no shares, else one DLEQ proof (8.5): a proof that is not nil is read as bytes
 * first, and only then is its presence checked against the shares.
 */
function batchProof(suite, proof, n) {
  const data = proof === null ? null
    : asBytes(proof, "share proof", null, dleqProofBytes(suite) + 1);
  if (data === null && n === 0) return [];
  if (data === null || n === 0) {
    throw new EncodingError("dleq/length",
      "a batch of shares carries one DLEQ proof, and an empty batch none (nil)");
  }
  return [DleqProof.decode(suite, data)];
}

/**
 * MOVE: a move id and, when the move plays a tile, the opening that proves it (the
 * position and the mover's decryption share); `claim`, a "cannot play" proof (6.5) when
 * the rules force play and the move is none.
 */
export class MoveBody {
  constructor(moveId, opening, claim = null) { Object.assign(this, { moveId, opening, claim }); }

  encode(suite) {
    const head = [this.moveId, ...(this.opening ? this.opening.encode(suite) : [null, null, null])];
    return this.claim === null ? head : [...head, this.claim];
  }

  static decode(suite, obj) {
    const items = asList(obj, "move body", 5);
    let claim = null;
    if (items.length === 5) { // a claim is never nil: without one the body has 4 items
      claim = asBytes(items[4], "claim", null, maxClaimBytes(suite) + 1);
    }
    const [moveId, position, share, proof] = asArray(items.slice(0, 4), 4, "move body");
    const id = num(asInt(moveId, "move id", 0, 1 << 20));
    if (position === null && share === null && proof === null) return new MoveBody(id, null, claim);
    return new MoveBody(id, ShareEntry.decode(suite, [position, share, proof]), claim);
  }

  get move_id() { return this.moveId; }
}

/** KEY of a simultaneous game: the seat's share key y and its proof (10.8, 6.6.2). */
export class SealKeyBody {
  constructor(key, proof) { Object.assign(this, { key, proof }); }

  encode(suite) { return [this.key.data, ...this.proof.encode(suite)]; }

  static decode(suite, obj) {
    const [key, c, z] = asArray(obj, 3, "share key body");
    const width = suite.scalarBytes + 1;
    return new SealKeyBody(point(suite, key, "share key"),
      SealProof.decode(suite, asBytes(c, "key proof c", null, width),
        asBytes(z, "key proof z", null, width)));
  }
}

/** COMMIT: the seat's seal of its orders and nonce for the stage (10.8, 6.6.5). */
export class CommitBody {
  constructor(seal) { this.seal = seal; }

  encode(suite) { return this.seal.encode(suite); }

  /** Strictly, for the seal's context; SealError blames the committer. */
  static decode(obj, ctx) { return new CommitBody(decodeSeal(obj, ctx)); }
}

/** OPEN: the seal secret s of the seat's COMMIT (10.8, 6.6.6). */
export class OpenBody {
  constructor(secret) { this.secret = secret; }

  encode(suite) { return [suite.encodeScalar(this.secret)]; }

  static decode(suite, obj) {
    const [secret] = asArray(obj, 1, "open body");
    return new OpenBody(suite.decodeScalar(asBytes(secret, "seal secret", null,
      suite.scalarBytes + 1)));
  }
}

/**
 * ABSENT: the sender declares that `seat` missed its deadline in `stage` (10.8); against
 * a sealed OPEN it carries the sender's decryption share of that seat's seal.
 */
export class AbsentBody {
  constructor(seat, stage, share = null) { Object.assign(this, { seat, stage, share }); }

  encode(suite) {
    const head = [this.seat, this.stage];
    return this.share === null ? head : [...head, this.share.encode(suite)];
  }

  /** Strictly; a decryption share by 6.6.7 checks 1-2, blaming `sender`. */
  static decode(suite, obj, sender) {
    const items = asList(obj, "absent body", 3);
    if (items.length < 2) {
      throw new EncodingError("schema/array",
        "absent body: [seat, stage] or [seat, stage, decryption share]");
    }
    const seat = num(asInt(items[0], "absent seat", 0, 255));
    const stage = num(asInt(items[1], "stage", 0, 1 << 16));
    if (items.length === 2) return new AbsentBody(seat, stage);
    return new AbsentBody(seat, stage, SealShare.decode(suite, items[2], sender));
  }
}

/** CHOOSE: the token winner names the elimination candidate among the dead (10.8). */
export class ChooseBody {
  constructor(seat) { this.seat = seat; }

  encode() { return [this.seat]; }

  static decode(obj) {
    const [seat] = asArray(obj, 1, "choose body");
    return new ChooseBody(num(asInt(seat, "chosen seat", 0, 255)));
  }
}
