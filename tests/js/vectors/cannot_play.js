// spec/vectors cannot_play.json (spec/06-proofs.md 6.5) in every vector set the seat
// plays: each positive verifies and is reproduced from its secret and fresh (K_j, Q_t,
// the recomputed commitments, c, z_r, z_a and the proof's bytes, with the nonces r, k_r,
// k_a of 3.4); each negative fails with its code, the statement's points decoded before
// its limits (6.5.5); each `refuse` entry makes the prover itself fail.
import {
  CannotPlayProof, CannotPlayStatement, HandPosition, partialOpening, proveCannotPlay,
  recomputeCommitments, verifyCannotPlay,
} from "../../../peers/web/seat/protocol/cannot_play.js";
import { Ciphertext } from "../../../peers/web/seat/protocol/elgamal.js";
import { DealerlessError, LocalError } from "../../../peers/web/seat/protocol/errors.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { Tag } from "../../../peers/web/seat/protocol/tags.js";
import { TILE_SETS, parseTile } from "../../../peers/web/seat/protocol/tiles.js";
import { ctxFrom, hex, outcome, SETS, toHex, withCase } from "../vector_common.js";

/** The statement from bytes: the key, then each position's c1 and c2 and shares (or its
 * partial opening), each decoded by 2.3, before the limits of 6.5.1. */
function statementFrom(S, v, failed) {
  const point = (h) => S.decodePoint(hex(h));
  const key = point(v.key);
  const hand = v.positions.map((e) => {
    const c1 = point(e.c1);
    let partial;
    if (e.shares) {
      partial = partialOpening(S, new Ciphertext(c1, point(e.c2)), e.shares.map(point));
      if (failed && toHex(partial.data) !== e.partial) failed(`partial opening of ${e.position}`);
    } else {
      partial = point(e.partial);
    }
    return new HandPosition(e.position, c1, partial);
  });
  return new CannotPlayStatement(S, TILE_SETS[v.set], key, hand, v.forbidden.map(parseTile));
}

function check(S, v) {
  const statement = statementFrom(S, v);
  verifyCannotPlay(statement, CannotPlayProof.decode(hex(v.proof), statement), ctxFrom(S, v.context));
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const [dir, name, version] of SETS) {
    const S = suite(name, version);
    const V = JSON.parse(await load(`${dir}cannot_play.json`));
    const where = `${dir || "dealerless/2 "}cannot_play.json`;
    for (const v of V.positive) {
      const at = `${where}: ${v.name}`;
      const got = outcome(() => check(S, v));
      expect(got === v.expected, `${at}: verify gave ${got}`);
      const statement = statementFrom(S, v, (what) => failed.push(`${at}: ${what}`));
      const ctx = ctxFrom(S, v.context);
      const x = BigInt(v.secret);
      const [r, kR, kA] = S.nonceScalars(Tag.CANNOT_PLAY.value, S.encodeScalar(x),
        statement.encode(ctx), hex(v.fresh), 3);
      expect([r, kR, kA].map(String).join() === [v.nonces.r, v.nonces.k_r, v.nonces.k_a].join(),
        `${at}: nonces r, k_r, k_a`);
      const proof = proveCannotPlay(x, statement, ctx, hex(v.fresh));
      expect(toHex(proof.encode(S)) === v.proof, `${at}: the prover's bytes`);
      expect(proof.blindedHand.map((p) => toHex(p.data)).join() === v.blinded_hand.join(),
        `${at}: K_j`);
      expect(proof.blindedForbidden.map((p) => toHex(p.data)).join()
        === v.blinded_forbidden.join(), `${at}: Q_t`);
      const received = CannotPlayProof.decode(hex(v.proof), statement);
      expect(recomputeCommitments(statement, received).map((p) => toHex(p.data)).join()
        === v.commitments.join(), `${at}: commitments T_0', T_j', U_t'`);
      expect([proof.c, proof.zR, proof.zA].map(String).join()
        === [v.challenge, v.z_r, v.z_a].join(), `${at}: c, z_r, z_a`);
    }
    for (const neg of V.negative) {
      const got = outcome(() => check(S, withCase(neg, V.positive)));
      expect(got === neg.expected, `${where}: ${neg.name}: got ${got}, expected ${neg.expected}`);
    }
    for (const ref of V.refuse) {
      const v = withCase(ref, V.positive);
      const statement = statementFrom(S, v);
      let got = "ok";
      try {
        proveCannotPlay(BigInt(v.secret), statement, ctxFrom(S, v.context), hex(v.fresh));
      } catch (exc) {
        got = exc instanceof LocalError ? exc.code : `not a LocalError: ${exc?.code ?? exc}`;
      }
      expect(got === ref.expected,
        `${where}: ${ref.name}: the prover gave ${got}, expected ${ref.expected}`);
    }
  }
  return { passed, failed };
}
