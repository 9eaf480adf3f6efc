// Verifiable re-encryption shuffle: the Terelius-Wikstrom proof (spec/07-shuffle.md).
//
// A shuffler maps an input deck e_0..e_{N-1} to an output deck with
//
//     e'_i = e_{pi(i)} + (r'_i*G, r'_i*Y)          (output i holds input pi(i))
//
// and proves it without revealing pi or r'. The proof follows the pseudocode of Haenni,
// Locher, Koenig and Dubuis (FC 2017; CHVote ePrint 2017/325, GenShuffleProof and
// CheckShuffleProof), additive and 0-based, with the index conventions of 7.1:
//
// 1. a Pedersen commitment to the permutation matrix, c_{pi(i)} = r_{pi(i)}*G + h_i;
// 2. challenges u_j for the *input* positions, hashed from the statement and c;
// 3. a commitment chain c^_i = r^_i*G + u_{pi(i)}*c^_{i-1}, c^_{-1} = h, which commits
//    to prod(u) and so shows that the committed matrix is a permutation;
// 4. one sigma protocol for the five linear relations, its challenge over the whole
//    statement and every commitment. From dealerless/3 the t^_i are sent and checked as
//    one random linear combination (7.5.1).
//
// The generators h, h_i are hash-to-point images of public labels: a known relation
// between them would let a prover swap tiles, so nobody may choose them.
import { encodeDeck, reencrypt } from "./elgamal.js";
import { EncodingError, LocalError, ProofError } from "./errors.js";
import { bytesEqual } from "./groups/base.js";
import { concatBytes } from "./groups/xmd.js";
import { Tag, requireFresh, u64 } from "./tags.js";

export const MAX_DECK = 1 << 16;
/** A key share x_i, 32 bytes in the suite's scalar encoding (7.3). */
export const MIN_SECRET_BYTES = 32;

const ASCII = (text) => new TextEncoder().encode(text);
const H_LABEL = ASCII("h");
const HI_LABEL = ASCII("h_i");
const PI_LABEL = ASCII("pi");
const R_LABEL = ASCII("r");
const NONCE_LABEL = ASCII("shuffle");

// Per suite: h, the h_i made so far, and sums of their prefixes (7.2); hashing to the
// group is the dearest thing a verifier would otherwise repeat every round.
const generators = new WeakMap();

function cache(suite) {
  let entry = generators.get(suite);
  if (!entry) {
    entry = { h: suite.hashToPoint(Tag.GENERATOR, H_LABEL), hs: [], sums: new Map() };
    generators.set(suite, entry);
  }
  return entry;
}

/** h = H2P(GENERATOR, "h") (7.2). */
export function commitmentBase(suite) {
  return cache(suite).h;
}

/** h_i = H2P(GENERATOR, "h_i", u64(i)) for i = 0..n-1 (7.2). */
export function commitmentGenerators(suite, n) {
  const { hs } = cache(suite);
  while (hs.length < n) hs.push(suite.hashToPoint(Tag.GENERATOR, HI_LABEL, u64(hs.length)));
  return hs.slice(0, n);
}

function generatorSum(suite, n) {
  const { sums } = cache(suite);
  if (!sums.has(n)) sums.set(n, suite.group.sum(commitmentGenerators(suite, n)));
  return sums.get(n);
}

/** The shuffler's secret: pi (output i holds input pi[i]) and r'_i (7.1). */
export class ShuffleWitness {
  /** @param {number[]} permutation @param {bigint[]} randomness */
  constructor(permutation, randomness) {
    this.permutation = permutation;
    this.randomness = randomness;
  }

  /** u64(pi[0]) || ... || u64(pi[N-1]) || r'_0 || ... || r'_{N-1} (7.3), for nonces. */
  encode(suite) {
    return concatBytes(...this.permutation.map((p) => u64(p)),
      ...this.randomness.map((r) => suite.encodeScalar(r)));
  }
}

/** The proof of 7.4: c, c^, chal, s1..s4, s^, s', and from dealerless/3 t^ (7.6). */
export class ShuffleProof {
  constructor(commitments, chain, challenge, s1, s2, s3, s4, sHat, sPrime, tHat = []) {
    this.commitments = commitments; // c_0..c_{N-1}, the permutation commitment
    this.chain = chain; //             c^_0..c^_{N-1}, the commitment chain
    this.challenge = challenge;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
    this.s4 = s4;
    this.sHat = sHat;
    this.sPrime = sPrime;
    this.tHat = tHat; //               t^_0..t^_{N-1}, sent from dealerless/3 (7.5.1)
  }

  get size() {
    return this.commitments.length;
  }

  /** The bytes of 7.6: points c, c^, t^, then the 2N + 5 scalars. */
  encode(suite) {
    const pts = [...this.commitments, ...this.chain, ...this.tHat].map((p) => p.data);
    const sc = [this.challenge, this.s1, this.s2, this.s3, this.s4, ...this.sHat,
      ...this.sPrime].map((x) => suite.encodeScalar(x));
    return concatBytes(...pts, ...sc);
  }

  /** Strict decoding for a deck of n (7.6): exact length (`shuffle/length`), then every
   * point by 2.3 and every scalar by 2.4, in order. */
  static decode(suite, data, n) {
    const size = proofBytes(suite, n);
    if (!(data instanceof Uint8Array) || data.length !== size) {
      throw new EncodingError("shuffle/length", `a shuffle proof for ${n} tiles is ${size} bytes`);
    }
    const pw = suite.pointBytes;
    const sw = suite.scalarBytes;
    const off = proofPoints(suite, n) * pw;
    const pts = [];
    for (let i = 0; i < off; i += pw) pts.push(suite.decodePoint(data.slice(i, i + pw)));
    const sc = [];
    for (let i = off; i < data.length; i += sw) {
      sc.push(suite.decodeScalar(data.subarray(i, i + sw)));
    }
    return new ShuffleProof(pts.slice(0, n), pts.slice(n, 2 * n), sc[0], sc[1], sc[2], sc[3],
      sc[4], sc.slice(5, 5 + n), sc.slice(5 + n), pts.slice(2 * n));
  }
}

/** c and c^, and from dealerless/3 the t^ the verifier batches (7.5.1, 7.6). */
export function proofPoints(suite, n) {
  return (suite.version < 3 ? 2 : 3) * n;
}

/** 2N points (3N from dealerless/3) and 2N + 5 scalars (7.6). */
export function proofBytes(suite, n) {
  return proofPoints(suite, n) * suite.pointBytes + (2 * n + 5) * suite.scalarBytes;
}

/**
 * Draw pi (Fisher-Yates) and r' from `hedge` and `fresh` (7.3). Each draw is a 64-byte
 * hash reduced mod (i+1), or a scalar of the suite: uniform for every practical purpose.
 * @returns {ShuffleWitness}
 */
export function deriveWitness(suite, n, fresh, hedge = new Uint8Array(0)) {
  if (!Number.isInteger(n) || n < 1 || n > MAX_DECK) {
    throw new LocalError("shuffle/size", `deck size must be in 1..${MAX_DECK}`);
  }
  requireFresh(fresh);
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const digest = suite.H(Tag.SHUFFLE_WITNESS, hedge, fresh, PI_LABEL, u64(i));
    // int_le(digest) mod (i+1), Horner from the most significant byte; i+1 <= 2^16
    // keeps every step an exact Number.
    let j = 0;
    for (let b = digest.length - 1; b >= 0; b--) j = (j * 256 + digest[b]) % (i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const rand = [];
  for (let i = 0; i < n; i++) {
    rand.push(suite.hashToScalar(Tag.SHUFFLE_WITNESS, hedge, fresh, R_LABEL, u64(i)));
  }
  return new ShuffleWitness(perm, rand);
}

/** H(SHUFFLE_WITNESS, secret, ctx, deck(e)): the hedge of deriveWitness (7.3). A short
 * secret would make it guessable, so it is refused (`shuffle/secret-too-short`). */
export function shuffleHedge(secret, ctx, deckIn) {
  if (!(secret instanceof Uint8Array) || secret.length < MIN_SECRET_BYTES) {
    throw new LocalError("shuffle/secret-too-short",
      `a shuffle secret must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return ctx.suite.H(Tag.SHUFFLE_WITNESS, secret, ctx.encode(), encodeDeck(deckIn));
}

/** e'_i = e_{pi(i)} + (r'_i*G, r'_i*Y) (7.1). */
export function applyShuffle(suite, deck, jointKey, witness) {
  const n = deck.length;
  const seen = new Uint8Array(n);
  const fits = witness.permutation.length === n && witness.randomness.length === n
    && witness.permutation.every((j) => Number.isInteger(j) && j >= 0 && j < n && !seen[j]++);
  if (!fits) throw new LocalError("shuffle/witness", "the witness does not fit the deck");
  return witness.permutation.map((j, i) => reencrypt(suite, deck[j], witness.randomness[i],
    jointKey));
}

function statementBytes(ctx, jointKey, deckIn, deckOut) {
  const suite = ctx.suite;
  return concatBytes(ctx.encode(), suite.group.generator.data, jointKey.data,
    commitmentBase(suite).data, ...commitmentGenerators(suite, deckIn.length).map((p) => p.data),
    encodeDeck(deckIn), encodeDeck(deckOut));
}

/** u_j = H_scalar(SHUFFLE_U, seed, u64(j)), seed = H(SHUFFLE_U, stmt, c) (7.4 step 2). */
export function shuffleChallenges(suite, statement, commitments) {
  const seed = suite.H(Tag.SHUFFLE_U, statement, joined(commitments));
  return commitments.map((_, j) => suite.hashToScalar(Tag.SHUFFLE_U, seed, u64(j)));
}

/** chal = H_scalar(SHUFFLE_C, stmt, c, c^, t1||t2||t3||t4_1||t4_2||t^_0..) (7.4 step 5). */
export function shuffleChallenge(suite, statement, commitments, chain, t) {
  return suite.hashToScalar(Tag.SHUFFLE_C, statement, joined(commitments), joined(chain),
    joined(t));
}

/**
 * GenShuffleProof, additive and 0-based (7.4). `witness` is what made deckOut from deckIn
 * (deriveWitness, applyShuffle); `fresh` hedges the nonces (3.4).
 * @returns {ShuffleProof}
 */
export function proveShuffle(deckIn, deckOut, jointKey, witness, ctx, fresh) {
  const n = deckIn.length;
  if (n < 1 || deckOut.length !== n || witness.permutation.length !== n) {
    throw new LocalError("shuffle/size", "decks and witness differ in size");
  }
  const pi = witness.permutation;
  const suite = ctx.suite;
  const g = suite.group;
  const q = suite.order;
  const h = commitmentBase(suite);
  const hs = commitmentGenerators(suite, n);
  const statement = statementBytes(ctx, jointKey, deckIn, deckOut);
  const nonces = suite.nonceScalars(NONCE_LABEL, witness.encode(suite), statement, fresh,
    4 * n + 4);
  const r = nonces.slice(0, n); //       commitment randomness, by input position
  const rHat = nonces.slice(n, 2 * n);
  const wHat = nonces.slice(2 * n, 3 * n);
  const wPrime = nonces.slice(3 * n, 4 * n);
  const [w1, w2, w3, w4] = nonces.slice(4 * n);

  const commitments = new Array(n);
  pi.forEach((j, i) => { commitments[j] = g.add(g.baseMul(r[j]), hs[i]); });
  const u = shuffleChallenges(suite, statement, commitments);
  const uPrime = pi.map((j) => u[j]);

  const chain = [];
  let prev = h;
  for (let i = 0; i < n; i++) {
    prev = g.add(g.baseMul(rHat[i]), g.mul(uPrime[i], prev));
    chain.push(prev);
  }

  const t1 = g.baseMul(w1);
  const t2 = g.baseMul(w2);
  const t3 = g.add(g.baseMul(w3), g.msm(wPrime, hs));
  const t41 = g.sub(g.msm(wPrime, deckOut.map((e) => e.c1)), g.baseMul(w4));
  const t42 = g.sub(g.msm(wPrime, deckOut.map((e) => e.c2)), g.mul(w4, jointKey));
  const tHat = [];
  for (let i = 0; i < n; i++) {
    tHat.push(g.add(g.baseMul(wHat[i]), g.mul(wPrime[i], i === 0 ? h : chain[i - 1])));
  }
  const chal = shuffleChallenge(suite, statement, commitments, chain,
    [t1, t2, t3, t41, t42, ...tHat]);

  const v = new Array(n).fill(1n); //     v_i = prod_{k > i} u'_k
  for (let i = n - 1; i > 0; i--) v[i - 1] = uPrime[i] * v[i] % q;
  let rBar = 0n; let rHatSum = 0n; let rTilde = 0n; let rPrime = 0n;
  for (let i = 0; i < n; i++) {
    rBar += r[i];
    rHatSum += rHat[i] * v[i];
    rTilde += r[i] * u[i];
    rPrime += witness.randomness[i] * uPrime[i];
  }
  const resp = (w, x) => mod(w - chal * (x % q), q);
  return new ShuffleProof(commitments, chain, chal, resp(w1, rBar), resp(w2, rHatSum),
    resp(w3, rTilde), resp(w4, rPrime), wHat.map((w, i) => resp(w, rHat[i])),
    wPrime.map((w, i) => resp(w, uPrime[i])), suite.version >= 3 ? tHat : []);
}

/** The verifier's intermediate values (7.5), kept for the vectors: u, the t in their
 * hashed order, and the challenge they hash to. */
export class ShuffleTrace {
  constructor(u, t, challenge) {
    this.u = u;
    this.t = t;
    this.challenge = challenge;
  }
}

function checkShapes(deckIn, deckOut, proof, ctx) {
  const n = deckIn.length;
  if (n === 0 || deckOut.length !== n) {
    throw new ProofError("shuffle/size", "input and output decks must have the same size N > 0");
  }
  if (!(proof.commitments.length === n && proof.chain.length === n && proof.sHat.length === n
      && proof.sPrime.length === n && proof.tHat.length === (ctx.suite.version >= 3 ? n : 0))) {
    throw new ProofError("shuffle/size", `the proof is not for a deck of ${n}`);
  }
  // Decryption proofs bind to c1 (6.3): two positions sharing one c1 would share every
  // decryption share, so opening one would open the other.
  const c1s = new Set(deckOut.map((e) => latin1(e.c1.data)));
  if (c1s.size !== n) {
    throw new ProofError("shuffle/repeated-c1", "two output ciphertexts share their c1");
  }
}

function recompute(deckIn, deckOut, jointKey, proof, ctx, statement) {
  const n = deckIn.length;
  const suite = ctx.suite;
  const g = suite.group;
  const q = suite.order;
  const h = commitmentBase(suite);
  const hs = commitmentGenerators(suite, n);
  const { commitments: c, chain, challenge: chal, sPrime: sp } = proof;
  const u = shuffleChallenges(suite, statement, c);

  const cBar = g.sub(g.sum(c), generatorSum(suite, n)); // = r_bar*G for an honest c
  let uProd = 1n;
  for (const x of u) uProd = uProd * x % q;
  const cHat = g.sub(chain[n - 1], g.mul(uProd, h)); //     = r^*G for an honest chain
  // chal*c_tilde, chal*a and chal*b fold into the MSMs over s' (one sum each, exactly
  // the values of 7.5): (chal*u_j) terms beside the s'_i terms.
  const cu = u.map((x) => chal * x % q);
  const t1 = g.add(g.mul(chal, cBar), g.baseMul(proof.s1));
  const t2 = g.add(g.mul(chal, cHat), g.baseMul(proof.s2));
  const t3 = g.add(g.msm([...cu, ...sp], [...c, ...hs]), g.baseMul(proof.s3));
  const t41 = g.sub(g.msm([...cu, ...sp], [...deckIn.map((e) => e.c1),
    ...deckOut.map((e) => e.c1)]), g.baseMul(proof.s4));
  const t42 = g.sub(g.msm([...cu, ...sp], [...deckIn.map((e) => e.c2),
    ...deckOut.map((e) => e.c2)]), g.mul(proof.s4, jointKey));
  let tHat;
  if (suite.version >= 3) {
    tHat = proof.tHat; //                       sent, and checked together by 7.5.1
  } else {
    tHat = chain.map((ci, i) => g.add(g.msm([chal, sp[i]], [ci, i === 0 ? h : chain[i - 1]]),
      g.baseMul(proof.sHat[i])));
  }
  const t = [t1, t2, t3, t41, t42, ...tHat];
  return new ShuffleTrace(u, t, shuffleChallenge(suite, statement, c, chain, t));
}

/** CheckShuffleProof up to, not including, the final comparison (7.5): the trace. */
export function recomputeShuffle(deckIn, deckOut, jointKey, proof, ctx) {
  checkShapes(deckIn, deckOut, proof, ctx);
  return recompute(deckIn, deckOut, jointKey, proof, ctx,
    statementBytes(ctx, jointKey, deckIn, deckOut));
}

/** CheckShuffleProof (7.5, and 7.5.1 from dealerless/3): return, or throw ProofError
 * (`shuffle/size`, `shuffle/repeated-c1`, `shuffle/challenge`). deckIn and jointKey are
 * the verifier's own; deckOut and proof were decoded (decodeDeck, ShuffleProof.decode). */
export function verifyShuffle(deckIn, deckOut, jointKey, proof, ctx) {
  checkShapes(deckIn, deckOut, proof, ctx);
  const statement = statementBytes(ctx, jointKey, deckIn, deckOut);
  if (recompute(deckIn, deckOut, jointKey, proof, ctx, statement).challenge !== proof.challenge) {
    throw new ProofError("shuffle/challenge",
      "recomputed challenge differs: the output is not a proven shuffle");
  }
  if (ctx.suite.version >= 3 && !holds(proof, ctx, statement)) {
    throw new ProofError("shuffle/challenge",
      "the proof's t^ do not fit its chain: the output is not a proven shuffle");
  }
}

/** The N equations t^_i = chal*c^_i + s^_i*G + s'_i*c^_{i-1} as one random linear
 * combination (7.5.1): true when they hold. */
export function chainHolds(deckIn, deckOut, jointKey, proof, ctx) {
  return holds(proof, ctx, statementBytes(ctx, jointKey, deckIn, deckOut));
}

function holds(proof, ctx, statement) {
  const suite = ctx.suite;
  const g = suite.group;
  const q = suite.order;
  const n = proof.size;
  const chal = proof.challenge;
  const sp = proof.sPrime;
  const seed = suite.H(Tag.SHUFFLE_WEIGHT, statement, proof.encode(suite));
  const a = [1n];
  for (let i = 1; i < n; i++) a.push(suite.hashToScalar(Tag.SHUFFLE_WEIGHT, seed, u64(i)));
  // c^_i appears in equation i (times chal) and, as c^_{i-1}, in equation i+1.
  const onChain = a.map((ai, i) => mod(-(ai * chal + (i + 1 < n ? a[i + 1] * sp[i + 1] : 0n)), q));
  const total = g.msm([...a, ...onChain, mod(-sp[0], q)],
    [...proof.tHat, ...proof.chain, commitmentBase(suite)]);
  let sHat = 0n;
  for (let i = 0; i < n; i++) sHat += a[i] * proof.sHat[i];
  return bytesEqual(total.data, g.baseMul(sHat % q).data);
}

/** The encodings of `points`, one after another. */
const joined = (points) => concatBytes(...points.map((p) => p.data));

function mod(a, q) {
  const r = a % q;
  return r < 0n ? r + q : r;
}

function latin1(bytes) {
  return String.fromCharCode.apply(null, bytes);
}

