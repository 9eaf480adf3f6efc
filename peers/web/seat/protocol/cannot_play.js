// Proof that no hand tile is playable (spec/06-proofs.md 6.5).
//
// Seat s holds deck positions j privately opened to it (5.6). For each, everyone can
// compute the partial opening R_j = c2_j - sum_{i != s} D_i = M_j + x_s*c1_j. To pass or
// draw when the rules force play, s shows that no M_j is a tile point P_t of a public
// forbidden set F, without revealing M_j. One blinding scalar r serves every pair, so the
// pair value of Camenisch-Shoup splits as C_{j,t} = Q_t - K_j with K_j = r*M_j (one point
// a hand position) and Q_t = r*P_t (one a forbidden tile), and the h x f inequality
// proofs collapse into one sigma protocol in the witnesses r and a = r*x_s:
//
//     O   = a*G   - r*Y_s
//     K_j = r*R_j - a*c1_j       (so K_j = r*(R_j - x_s*c1_j) = r*M_j)
//     Q_t = r*P_t
//
// Received K_j and Q_t are never O, so r != 0, and K_j != Q_t (comparing encodings) is
// then exactly M_j != P_t. Cost O(h + f) group operations; the argument is 6.5.6's.
import { EncodingError, LocalError, ProofError } from "./errors.js";
import { bytesEqual, toHex } from "./groups/base.js";
import { concatBytes } from "./groups/xmd.js";
import { Tag, lp, requireFresh, u64 } from "./tags.js";

/** At most one hand position per tile of the largest set (double-twelve). */
export const MAX_HAND = 91;
const U64_LIMIT = 1n << 64n;
const encoder = new TextEncoder();

/** One deck position j privately opened to the prover (6.5.1): `c1` is the first
 * component of its ciphertext, `partial` R_j = c2_j minus every other seat's verified
 * decryption share, the verifier's own value (see partialOpening). */
export class HandPosition {
  /** @param {number|bigint} position */
  constructor(position, c1, partial) {
    this.position = position;
    this.c1 = c1;
    this.partial = partial;
  }

  /** u64(j) || c1_j || R_j: 72 bytes with 32-byte points. */
  encode() {
    return concatBytes(u64(this.position), this.c1.data, this.partial.data);
  }
}

/**
 * The public claim of 6.5.1: no M_j (j in hand) equals P_t (t in forbidden). The
 * prover's seat is the `seat` of the proof context; `key` is its key share Y_s.
 * Positions strictly increasing, forbidden tiles strictly increasing in the set's
 * canonical order (5.1); anything else is a LocalError, checked in 6.5.5 step 1's order,
 * since the verifier builds the statement from its own public state.
 */
export class CannotPlayStatement {
  constructor(suite, tileSet, key, hand, forbidden) {
    const f = forbidden.length;
    if (!(hand.length >= 1 && hand.length <= MAX_HAND)) {
      throw new LocalError("cannot-play/size", `the hand has 1..${MAX_HAND} positions`);
    }
    if (!(f >= 1 && f <= tileSet.tiles.length)) {
      throw new LocalError("cannot-play/size",
        `the forbidden set has 1..${tileSet.tiles.length} tiles`);
    }
    const positions = hand.map((h) => h.position);
    const u64ok = (p) => (typeof p === "bigint" || Number.isInteger(p)) && p >= 0
      && BigInt(p) < U64_LIMIT;
    if (!positions.every((p, i) => u64ok(p) && (i === 0 || BigInt(positions[i - 1]) < BigInt(p)))) {
      throw new LocalError("cannot-play/order", "positions must be strictly increasing u64");
    }
    const indices = forbidden.map((t) => tileSet.indexOf(t));
    if (indices.includes(-1)) {
      throw new LocalError("tile/not-in-set", `a forbidden tile is not in ${tileSet.name}`);
    }
    if (!indices.every((x, i) => i === 0 || indices[i - 1] < x)) {
      throw new LocalError("cannot-play/order",
        "forbidden tiles must be strictly increasing in canonical order");
    }
    this.suite = suite;
    this.tileSet = tileSet;
    this.key = key;
    this.hand = [...hand];
    this.forbidden = [...forbidden];
    const points = tileSet.points(suite);
    this.forbiddenPoints = indices.map((x) => points[x]);
  }

  /** stmt = ctx || G || Y_s || lp(set) || lp(hand block) || lp(forbidden block) (6.5.1). */
  encode(ctx) {
    const hand = concatBytes(...this.hand.map((h) => h.encode()));
    const forbidden = concatBytes(...this.forbidden.flatMap((t, i) => [Uint8Array.of(t[0], t[1]),
      this.forbiddenPoints[i].data]));
    return concatBytes(ctx.encode(), this.suite.group.generator.data, this.key.data,
      lp(encoder.encode(this.tileSet.name)), lp(hand), lp(forbidden));
  }
}

/** (K_0..K_{h-1}, Q_0..Q_{f-1}, c, z_r, z_a) of 6.5.3. */
export class CannotPlayProof {
  constructor(blindedHand, blindedForbidden, c, zR, zA) {
    this.blindedHand = blindedHand; //           K_j = r*M_j, in statement order
    this.blindedForbidden = blindedForbidden; // Q_t = r*P_t, in statement order
    this.c = c;
    this.zR = zR;
    this.zA = zA;
  }

  /** K_0 || .. || K_{h-1} || Q_0 || .. || Q_{f-1} || c || z_r || z_a (6.5.4). */
  encode(suite) {
    return concatBytes(...this.blindedHand.map((p) => p.data),
      ...this.blindedForbidden.map((p) => p.data),
      ...[this.c, this.zR, this.zA].map((x) => suite.encodeScalar(x)));
  }

  /** Strict decoding for the statement's sizes (6.5.4): exact length
   * (`cannot-play/length`), then every point by 2.3 and every scalar by 2.4, in order. */
  static decode(data, statement) {
    const h = statement.hand.length;
    const f = statement.forbidden.length;
    const suite = statement.suite;
    const pw = suite.pointBytes;
    const sw = suite.scalarBytes;
    const size = pw * (h + f) + 3 * sw;
    if (!(data instanceof Uint8Array) || data.length !== size) {
      throw new EncodingError("cannot-play/length",
        `a proof for ${h} positions and ${f} tiles is ${size} bytes`);
    }
    const off = pw * (h + f);
    const points = [];
    for (let i = 0; i < off; i += pw) points.push(suite.decodePoint(data.slice(i, i + pw)));
    const [c, zR, zA] = [0, 1, 2].map((i) => suite.decodeScalar(
      data.subarray(off + i * sw, off + (i + 1) * sw)));
    return new CannotPlayProof(points.slice(0, h), points.slice(h), c, zR, zA);
  }
}

/** R_j = c2 - sum of the other seats' verified shares (5.6, 6.5.1). */
export function partialOpening(suite, ct, otherShares) {
  return suite.group.sub(ct.c2, suite.group.sum(otherShares));
}

function challenge(statement, stmt, blindedHand, blindedForbidden, t0, tHand, uForbidden) {
  const data = (points) => concatBytes(...points.map((p) => p.data));
  return statement.suite.hashToScalar(Tag.CANNOT_PLAY, stmt, data(blindedHand),
    data(blindedForbidden), t0.data, data(tHand), data(uForbidden));
}

/**
 * Prove the statement with key share `secret` = x_s (6.5.3). Refuses (LocalError
 * `cannot-play/witness`) unless `secret` is the key behind `statement.key` and no hand
 * position holds a forbidden tile: a seat that can play never gets a proof from here.
 * @param {bigint} secret
 * @returns {CannotPlayProof}
 */
export function proveCannotPlay(secret, statement, ctx, fresh) {
  requireFresh(fresh);
  const g = statement.suite.group;
  const x = g.reduce(secret);
  if (!bytesEqual(g.baseMul(x).data, statement.key.data)) {
    throw new LocalError("cannot-play/witness", "the secret is not the key share's");
  }
  const plain = handPoints(x, statement);
  const forbidden = new Set(statement.forbidden.map((t) => `${t[0]}-${t[1]}`));
  plain.forEach((m, i) => {
    const held = statement.tileSet.decode(statement.suite, m); // deck/not-a-tile
    if (forbidden.has(`${held[0]}-${held[1]}`)) {
      throw new LocalError("cannot-play/witness", `position ${statement.hand[i].position} `
        + `holds the forbidden tile ${held[0]}-${held[1]}`);
    }
  });
  return prove(x, statement, ctx, fresh, plain);
}

/** M_j = R_j - x_s*c1_j: the prover's own tiles. */
function handPoints(x, statement) {
  const g = statement.suite.group;
  return statement.hand.map((h) => g.sub(h.partial, g.mul(x, h.c1)));
}

/** The prover of 6.5.3 without the witness check: for tests that need the proof of a
 * false claim, which verification must reject (`cannot-play/identity`). */
export function _proveUnchecked(secret, statement, ctx, fresh) {
  const x = statement.suite.group.reduce(secret);
  return prove(x, statement, ctx, fresh, handPoints(x, statement));
}

function prove(x, statement, ctx, fresh, plain) {
  requireFresh(fresh);
  const suite = statement.suite;
  const g = suite.group;
  const q = suite.order;
  const stmt = statement.encode(ctx);
  const [r, kR, kA] = suite.nonceScalars(Tag.CANNOT_PLAY.value, suite.encodeScalar(x), stmt,
    fresh, 3);
  if (r === 0n) { // probability 2^-252; K_j and Q_t would be O
    throw new LocalError("cannot-play/nonce", "the blinding scalar r is zero");
  }
  const a = r * x % q;
  const blindedHand = plain.map((m) => g.mul(r, m));
  const points = statement.forbiddenPoints;
  const blindedForbidden = points.map((p) => g.mul(r, p));
  const t0 = g.baseMul(mod(kA - kR * x, q)); //        = k_a*G - k_r*Y_s
  const minusKA = mod(-kA, q);
  const tHand = statement.hand.map((h) => g.msm([kR, minusKA], [h.partial, h.c1]));
  const uForbidden = points.map((p) => g.mul(kR, p));
  const c = challenge(statement, stmt, blindedHand, blindedForbidden, t0, tHand, uForbidden);
  return new CannotPlayProof(blindedHand, blindedForbidden, c, (kR + c * r) % q,
    (kA + c * a) % q);
}

function recompute(statement, proof) {
  if (proof.blindedHand.length !== statement.hand.length
      || proof.blindedForbidden.length !== statement.forbidden.length) {
    throw new EncodingError("cannot-play/length", "the proof does not fit the statement");
  }
  const g = statement.suite.group;
  const q = statement.suite.order;
  const { c, zR, zA } = proof;
  const minusC = mod(-c, q);
  const minusZA = mod(-zA, q);
  return {
    t0: g.sub(g.baseMul(zA), g.mul(zR, statement.key)),
    tHand: statement.hand.map((h, i) => g.msm([zR, minusZA, minusC],
      [h.partial, h.c1, proof.blindedHand[i]])),
    uForbidden: statement.forbiddenPoints.map((p, i) => g.msm([zR, minusC],
      [p, proof.blindedForbidden[i]])),
  };
}

/** T_0', T_0'..T_{h-1}', U_0'..U_{f-1}' of 6.5.5 step 3, in hashed order. */
export function recomputeCommitments(statement, proof) {
  const { t0, tHand, uForbidden } = recompute(statement, proof);
  return [t0, ...tHand, ...uForbidden];
}

/**
 * Throw unless `proof` shows that no hand position holds a forbidden tile (6.5.5 steps
 * 3 and 4): ProofError `cannot-play/challenge` when the recomputed challenge differs,
 * `cannot-play/identity` for a valid proof in which some C_{j,t} = Q_t - K_j is O
 * (position j holds t). Step 1 is the statement's constructor, step 2 CannotPlayProof.decode.
 */
export function verifyCannotPlay(statement, proof, ctx) {
  const { t0, tHand, uForbidden } = recompute(statement, proof);
  const stmt = statement.encode(ctx);
  if (challenge(statement, stmt, proof.blindedHand, proof.blindedForbidden, t0, tHand,
    uForbidden) !== proof.c) {
    throw new ProofError("cannot-play/challenge", "recomputed challenge differs");
  }
  const blinded = new Set(proof.blindedForbidden.map((p) => toHex(p.data)));
  proof.blindedHand.forEach((k, i) => {
    if (blinded.has(toHex(k.data))) {
      throw new ProofError("cannot-play/identity",
        `C = O: position ${statement.hand[i].position} holds a forbidden tile`);
    }
  });
}

function mod(a, q) {
  const r = a % q;
  return r < 0n ? r + q : r;
}

