// spec/vectors seal.json (spec/06-proofs.md 6.6) in every vector set the seat plays:
// the generator; every seal key and its proof; every deal reproduced byte for byte from
// its nonce and fresh (context, commitments, shares, ciphertext, wire), opened by its
// secret, its decryption shares reproduced and verified, and three combinations; every
// case with its code and the seat it blames.
import { pack, unpack } from "../../../peers/web/seat/protocol/canonical.js";
import { SealError } from "../../../peers/web/seat/protocol/errors.js";
import {
  DecryptionShare, Seal, SealProof, combine, deal, decodeSecret, decryptionShare,
  openWithSecret, proveShareKey, sealContext, sealGenerator, sealSecret, shareKey, unpad,
  verifyDecryptionShare, verifySeal, verifyShareKey,
} from "../../../peers/web/seat/protocol/seal.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { hex, SETS, toHex } from "../vector_common.js";

/** [code, seat blamed]: ["ok", null] when fn passes; a SealError's code and seat. */
function outcome(fn) {
  try {
    fn();
  } catch (exc) {
    if (exc instanceof SealError) return [exc.code, exc.seat];
    return [`uncaught ${exc?.name}: ${exc?.code ?? exc?.message}`, null];
  }
  return ["ok", null];
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const [dir, name, version] of SETS) {
    const S = suite(name, version);
    const V = JSON.parse(await load(`${dir}seal.json`));
    const where = `${dir || "dealerless/2 "}seal.json`;
    const keys = new Map(V.keys.map((k) => [k.seat, S.decodePoint(hex(k.y))]));
    const secretOf = new Map(V.keys.map((k) => [k.seat, BigInt(k.x)]));
    const deals = new Map(V.deals.map((d) => [d.name, d]));
    const contextOf = (d, stage = d.stage, committer = d.committer) => sealContext(S,
      hex(d.game_id), stage, committer, d.recipients.map((j) => [j, keys.get(j)]));
    const decodeWire = (wire, ctx, size) => Seal.decode(unpack(hex(wire), 1 << 16), ctx, size);

    expect(toHex(sealGenerator(S).data) === V.generator, `${where}: generator Hs`);
    const game = hex(V.deals[0].game_id);
    for (const k of V.keys) {
      const x = shareKey(S, hex(k.seed), game);
      expect(String(x) === k.x, `${where}: key ${k.seat}: x`);
      const [key, proof] = proveShareKey(S, x, game, k.seat, hex(k.fresh));
      expect(toHex(key.data) === k.y && toHex(S.encodeScalar(proof.c)) === k.c
        && toHex(S.encodeScalar(proof.z)) === k.z, `${where}: key ${k.seat}: y, c, z`);
      const [code] = outcome(() => verifyShareKey(S, key, proof, game, k.seat));
      expect(code === "ok", `${where}: key ${k.seat} gave ${code}`);
    }

    for (const d of V.deals) {
      const at = `${where}: deal ${d.name}`;
      const ctx = contextOf(d);
      expect(toHex(ctx.digest) === d.context && ctx.m === d.m && ctx.t === d.t,
        `${at}: context, m, t`);
      const nonce = hex(d.nonce);
      const seal = deal(ctx, nonce, hex(d.plaintext), hex(d.fresh));
      expect(toHex(pack(seal.encode(S))) === d.wire, `${at}: wire`);
      expect(seal.commitments.map((c) => toHex(c.data)).join() === d.commitments.join(),
        `${at}: commitments`);
      expect(seal.shares.map((s) => toHex(s.point.data)).join()
        === d.shares.map((s) => s.point).join(), `${at}: encrypted shares`);
      expect(toHex(seal.ciphertext) === d.ciphertext, `${at}: ciphertext`);
      const s = sealSecret(ctx, nonce);
      expect(toHex(S.encodeScalar(s)) === d.secret && String(s) === d.coefficients[0],
        `${at}: secret`);
      expect(toHex(S.group.baseMul(s).data) === d.seal_point, `${at}: seal point`);
      let received = null;
      const [got] = outcome(() => {
        received = decodeWire(d.wire, ctx, d.size);
        verifySeal(ctx, received);
      });
      expect(got === "ok", `${at}: the wire gave ${got}`);
      if (received === null) continue;
      const opened = openWithSecret(ctx, received, decodeSecret(ctx, hex(d.secret)));
      expect(toHex(opened) === d.plaintext, `${at}: opened by its secret`);
      const [code, blame] = outcome(() => unpad(opened, ctx.committer));
      expect(code === d.unpad.expected && (code === "ok"
        ? toHex(unpad(opened, ctx.committer)) === d.unpad.data : blame === ctx.committer),
      `${at}: unpad gave ${code}`);
      const shares = new Map();
      for (const ds of d.decryption_shares ?? []) {
        const mine = decryptionShare(ctx, received, ds.seat, secretOf.get(ds.seat), hex(ds.fresh));
        expect(toHex(pack(mine.encode(S))) === ds.wire, `${at}: decryption share of ${ds.seat}`);
        const theirs = DecryptionShare.decode(S, unpack(hex(ds.wire), 1 << 10), ds.seat);
        const [c] = outcome(() => verifyDecryptionShare(ctx, received, ds.seat, theirs));
        expect(c === "ok", `${at}: decryption share of ${ds.seat} gave ${c}`);
        shares.set(ds.seat, theirs.point);
      }
      for (const combo of d.combinations ?? []) {
        const picked = new Map(combo.seats.map((j) => [j, shares.get(j)]));
        expect(toHex(combine(ctx, received, picked)) === combo.plaintext
          && combo.plaintext === d.plaintext, `${at}: combination of ${combo.seats}`);
      }
    }

    const other = V.other_seal;
    const m4 = deals.get("m=4");
    const [otherCode] = outcome(() => {
      const ctx = contextOf(m4, other.stage, other.committer);
      verifySeal(ctx, decodeWire(other.wire, ctx, m4.size));
    });
    expect(otherCode === "ok", `${where}: other_seal gave ${otherCode}`);

    for (const c of V.cases) {
      const [code, blame] = outcome(() => runCase(S, c, deals, contextOf, decodeWire));
      expect(code === c.expected && blame === c.blame,
        `${where}: ${c.check}: ${c.name}: got ${code} blaming ${blame}, expected ${c.expected} blaming ${c.blame}`);
    }
  }
  return { passed, failed };
}

function runCase(S, c, deals, contextOf, decodeWire) {
  if (c.check === "key") {
    verifyShareKey(S, S.decodePoint(hex(c.y)), SealProof.decode(S, hex(c.c), hex(c.z)),
      hex(c.game_id), c.seat);
    return;
  }
  if (c.check === "unpad") {
    if (toHex(unpad(hex(c.padded), c.committer)) !== c.data) throw new Error("unpadded wrong");
    return;
  }
  const d = deals.get(c.deal);
  const ctx = contextOf(d);
  if (c.check === "seal") {
    verifySeal(ctx, decodeWire(c.wire, ctx, c.size));
    return;
  }
  const seal = decodeWire(d.wire, ctx, d.size);
  if (c.check === "opening") {
    const opened = openWithSecret(ctx, seal, decodeSecret(ctx, hex(c.secret)));
    if (toHex(opened) !== d.plaintext) throw new Error("opened wrong");
    return;
  }
  if (c.check !== "decryption") throw new Error(`unknown check ${c.check}`);
  const share = DecryptionShare.decode(S, unpack(hex(c.wire), 1 << 10), c.seat);
  verifyDecryptionShare(ctx, seal, c.seat, share);
}
