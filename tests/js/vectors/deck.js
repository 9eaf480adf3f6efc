// spec/vectors deck.json (spec/05-deck.md) in every vector set the seat plays: three
// seats on five tiles. Every key proof, shuffle round and decryption share verifies and
// is reproduced byte for byte from its secret and fresh; the joint key, the initial deck
// and both openings are those listed; each negative fails with its code.
import { Context } from "../../../peers/web/seat/protocol/context.js";
import {
  DecryptionShare, initialDeck, jointKey, makeShare, openTile, ownShare, shuffleRound,
  verifyShare,
} from "../../../peers/web/seat/protocol/deck.js";
import { DleqProof } from "../../../peers/web/seat/protocol/dleq.js";
import { decodeDeck, encodeDeck } from "../../../peers/web/seat/protocol/elgamal.js";
import { SchnorrProof, proveKey, verifyKey } from "../../../peers/web/seat/protocol/schnorr.js";
import { ShuffleProof, verifyShuffle } from "../../../peers/web/seat/protocol/shuffle.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { TILE_SETS, parseTile, tileText } from "../../../peers/web/seat/protocol/tiles.js";
import { ctxFrom, hex, outcome, SETS, toHex } from "../vector_common.js";

export async function run(load) {
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const [dir, name, version] of SETS) {
    const S = suite(name, version);
    const g = S.group;
    const v = JSON.parse(await load(`${dir}deck.json`));
    const at = `${dir || "dealerless/2 "}deck.json`;
    const point = (h) => S.decodePoint(hex(h));
    const ts = TILE_SETS[v.set];
    const game = hex(v.game_id);
    const secrets = v.secrets.map(BigInt);
    const keys = v.keys.map(point);
    keys.forEach((key, i) => {
      expect(toHex(g.baseMul(secrets[i]).data) === v.keys[i], `${at}: key ${i}`);
      const ctx = ctxFrom(S, v.key_contexts[i]);
      expect(ctx.encode().join() === new Context(S, game, 0, i).encode().join(),
        `${at}: key context ${i}`);
      const got = outcome(() => verifyKey(key, SchnorrProof.decode(S, hex(v.key_proofs[i])), ctx));
      expect(got === "ok", `${at}: key proof ${i} gave ${got}`);
      expect(toHex(proveKey(secrets[i], ctx, hex(v.key_fresh[i])).encode(S)) === v.key_proofs[i],
        `${at}: key proof ${i}: the prover's bytes`);
    });
    const y = jointKey(S, keys);
    expect(toHex(y.data) === v.joint_key, `${at}: joint key`);
    const tiles = v.tiles.map(parseTile);
    let deck = decodeDeck(S, hex(v.initial_deck));
    expect(toHex(encodeDeck(initialDeck(S, ts, tiles, y))) === v.initial_deck, `${at}: initial deck`);
    expect(deck.every((ct) => ct.c1.equals(g.generator))
      && deck.map((ct) => tileText(ts.decode(S, g.sub(ct.c2, y)))).join() === v.tiles.join(),
    `${at}: the initial deck holds the tiles under randomness 1`);
    for (const rnd of v.rounds) {
      const ctx = ctxFrom(S, rnd.context);
      const out = decodeDeck(S, hex(rnd.deck_out));
      const got = outcome(() => verifyShuffle(deck, out, y,
        ShuffleProof.decode(S, hex(rnd.proof), deck.length), ctx));
      expect(got === "ok", `${at}: round of seat ${rnd.seat} gave ${got}`);
      const [mine, proof] = shuffleRound(deck, y, ctx, hex(rnd.fresh), S.encodeScalar(BigInt(rnd.secret)));
      expect(toHex(encodeDeck(mine)) === rnd.deck_out && toHex(proof.encode(S)) === rnd.proof,
        `${at}: round of seat ${rnd.seat}: the shuffler's deck and proof`);
      deck = out;
    }
    const verified = (opening) => {
      const ct = deck[opening.position];
      return opening.shares.map((s) => {
        const ctx = ctxFrom(S, s.context);
        const ds = new DecryptionShare(point(s.share), DleqProof.decode(S, hex(s.proof)));
        const got = outcome(() => verifyShare(keys[s.seat], ct, ds, ctx));
        expect(got === "ok", `${at}: share of seat ${s.seat} at ${opening.position} gave ${got}`);
        const made = makeShare(secrets[s.seat], ct, ctx, hex(s.fresh));
        expect(toHex(made.share.data) === s.share && toHex(made.proof.encode(S)) === s.proof,
          `${at}: share of seat ${s.seat} at ${opening.position}: the prover's bytes`);
        return ds.share;
      });
    };
    const priv = v.private_opening;
    const own = ownShare(S, secrets[priv.to_seat], deck[priv.position]);
    expect(toHex(own.data) === priv.own_share, `${at}: the receiver's own share`);
    expect(tileText(openTile(S, ts, deck[priv.position], [...verified(priv), own])) === priv.tile,
      `${at}: private opening`);
    const pub = v.public_opening;
    expect(tileText(openTile(S, ts, deck[pub.position], verified(pub))) === pub.tile,
      `${at}: public opening`);
    for (const neg of v.negative) {
      let got;
      if (neg.check === "joint_key") {
        got = outcome(() => jointKey(S, neg.keys.map(point)));
      } else {
        got = outcome(() => openTile(S, ts, deck[neg.position], neg.shares.map(point)));
      }
      expect(got === neg.expected, `${at}: ${neg.name}: got ${got}, expected ${neg.expected}`);
    }
  }
  return { passed, failed };
}
