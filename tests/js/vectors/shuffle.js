// spec/vectors shuffle.json (spec/07-shuffle.md) in every vector set the seat plays: each
// positive verifies, its hedge, permutation, randomness and output deck are drawn again
// (7.3), the prover reproduces its proof byte for byte from its fresh (7.4), and the
// verifier's u, t and challenge are those listed (7.5, 7.5.1); each negative fails with
// its code, decoded in 7.5's order.
import { decodeDeck, encodeDeck } from "../../../peers/web/seat/protocol/elgamal.js";
import { DealerlessError } from "../../../peers/web/seat/protocol/errors.js";
import {
  ShuffleProof, applyShuffle, deriveWitness, proveShuffle, recomputeShuffle, shuffleHedge,
  verifyShuffle,
} from "../../../peers/web/seat/protocol/shuffle.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { ctxFrom, hex, outcome, SETS, toHex, withCase } from "../vector_common.js";

/** 7.5's order: e (the verifier's own), e' as a deck, the proof for N = |e|, then verify. */
function check(S, v) {
  const deckIn = decodeDeck(S, hex(v.deck_in));
  const deckOut = decodeDeck(S, hex(v.deck_out));
  const proof = ShuffleProof.decode(S, hex(v.proof), v.n);
  verifyShuffle(deckIn, deckOut, S.decodePoint(hex(v.joint_key)), proof, ctxFrom(S, v.context));
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const [dir, name, version] of SETS) {
    const S = suite(name, version);
    const V = JSON.parse(await load(`${dir}shuffle.json`));
    const where = `${dir || "dealerless/2 "}shuffle.json`;
    for (const v of V.positive) {
      const at = `${where}: ${v.name}`;
      const got = outcome(() => check(S, v));
      expect(got === v.expected, `${at}: verify gave ${got}`);
      const deckIn = decodeDeck(S, hex(v.deck_in));
      const key = S.decodePoint(hex(v.joint_key));
      const ctx = ctxFrom(S, v.context);
      const fresh = hex(v.fresh);
      const hedge = shuffleHedge(S.encodeScalar(BigInt(v.secret)), ctx, deckIn);
      expect(toHex(hedge) === v.hedge, `${at}: hedge`);
      const witness = deriveWitness(S, v.n, fresh, hedge);
      expect(witness.permutation.join() === v.permutation.join(), `${at}: permutation`);
      expect(witness.randomness.map(String).join() === v.randomness.join(), `${at}: randomness`);
      const deckOut = applyShuffle(S, deckIn, key, witness);
      expect(toHex(encodeDeck(deckOut)) === v.deck_out, `${at}: output deck`);
      const proof = proveShuffle(deckIn, deckOut, key, witness, ctx, fresh);
      expect(toHex(proof.encode(S)) === v.proof, `${at}: the prover's bytes`);
      expect(String(proof.challenge) === v.challenge, `${at}: challenge`);
      if (v.u) {
        const received = ShuffleProof.decode(S, hex(v.proof), v.n);
        const trace = recomputeShuffle(deckIn, decodeDeck(S, hex(v.deck_out)), key, received, ctx);
        expect(trace.u.map(String).join() === v.u.join(), `${at}: u`);
        expect(trace.t.map((p) => toHex(p.data)).join() === v.t.join(), `${at}: t`);
        expect(String(trace.challenge) === v.challenge, `${at}: recomputed challenge`);
      }
    }
    for (const neg of V.negative) {
      const got = outcome(() => check(S, withCase(neg, V.positive)));
      expect(got === neg.expected, `${where}: ${neg.name}: got ${got}, expected ${neg.expected}`);
    }
  }
  return { passed, failed };
}
