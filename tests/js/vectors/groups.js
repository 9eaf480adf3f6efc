// spec/vectors/groups.json: the groups of the ciphersuites (spec/02-group.md 2.5), the
// edwards25519 and ristretto255 entries (BLS12-381 G1 is out of the browser seat's reach:
// libsodium has none, and its entries are neither run nor counted).
import { group } from "../../../peers/web/seat/protocol/groups/index.js";

const unhex = (t) => Uint8Array.from(t.match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const ascii = (t) => new TextEncoder().encode(t);

export async function run(load) {
  const d = JSON.parse(await load("groups.json"));
  let passed = 0;
  const failed = [];
  const check = (name, fn) => {
    let why;
    try { why = fn(); } catch (err) { why = `threw ${err.code ?? ""} ${err.message}`; }
    if (why === undefined) passed += 1;
    else failed.push(`${name}: ${why}`);
  };
  const outcome = (fn) => { try { fn(); return "ok"; } catch (err) { return err.code ?? `${err}`; } };
  for (const name of ["edwards25519", "ristretto255"]) {
    const v = d[name];
    const g = group(name);
    check(`${name} parameters`, () => {
      if (g.order !== BigInt(v.order)) return "order";
      if (g.elementBytes !== v.element_bytes) return "element_bytes";
      if (g.byteorder !== v.scalar_byteorder) return "byteorder";
      if (hex(g.generator.data) !== v.generator) return "generator";
      if (hex(g.identity.data) !== v.identity) return "identity";
      if (v.h2c_suite !== undefined && g.h2cSuite !== v.h2c_suite) return "h2c_suite";
      return undefined;
    });
    for (const [k, enc] of v.multiples) {
      check(`${name} ${k}*G`, () => {
        if (hex(g.baseMul(BigInt(k)).data) !== enc) return "baseMul differs";
        if (hex(g.mul(BigInt(k), g.generator).data) !== enc) return "mul differs";
        // k*G by repeated addition from the identity, the group law's own check.
        let acc = g.identity;
        for (let i = 0; i < k; i++) acc = g.add(acc, g.generator);
        if (hex(acc.data) !== enc) return "sum differs";
        if (k > 0 && hex(g.sub(g.identity, g.neg(acc)).data) !== enc) return "neg differs";
        if (k > 0 && hex(g.decode(unhex(enc)).data) !== enc) return "decode differs";
        if (k === 0 && outcome(() => g.decode(unhex(enc))) !== "point/identity") return "identity decoded";
        return undefined;
      });
    }
    for (const r of v.refused) {
      check(`${name} refused ${r.name}`, () => {
        const got = outcome(() => g.decode(unhex(r.hex)));
        return got === r.code ? undefined : `expected ${r.code}, got ${got}`;
      });
    }
    for (const sc of v.scalars) {
      check(`${name} scalar ${sc.name}`, () => {
        let value;
        const got = outcome(() => { value = g.decodeScalar(unhex(sc.hex)); });
        if (got !== sc.code) return `expected ${sc.code}, got ${got}`;
        if (got === "ok" && value !== BigInt(sc.value)) return `value ${value}`;
        return undefined;
      });
    }
    check(`${name} msm`, () => {
      const points = v.msm.points.map((p) => g.decode(unhex(p)));
      const sum = g.msm(v.msm.scalars.map(BigInt), points);
      if (hex(sum.data) !== v.msm.sum) return "msm differs";
      if (outcome(() => g.msm([1n], [])) === "ok") return "length mismatch accepted";
      return undefined;
    });
    for (const [i, u] of (v.from_uniform ?? []).entries()) {
      check(`${name} from_uniform ${i}`, () => (
        hex(g.fromUniform(unhex(u.input)).data) === u.element ? undefined : "element differs"));
    }
    for (const [i, h] of (v.hash_to_group ?? []).entries()) {
      check(`${name} hash_to_group ${i}`, () => (
        hex(g.hashToGroup(unhex(h.msg), ascii(h.dst)).data) === h.element ? undefined : "element differs"));
    }
  }
  check("bls12381g1 refused clearly", () => {
    const got = outcome(() => group("bls12381g1"));
    return got === "group/unsupported" ? undefined : got;
  });
  return { passed, failed };
}
