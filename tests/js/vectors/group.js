// spec/vectors/group.json (edwards25519-sha512 at dealerless/2) and the suites' own
// group.json (edwards25519-sha512 and ristretto255-sha512 at dealerless/3): scalar and
// point decoding, H / H_scalar / H2P, the tag table and hedged nonces (spec 2, 3).
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { Tag, tags } from "../../../peers/web/seat/protocol/tags.js";

const unhex = (t) => Uint8Array.from(t.match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const ascii = (t) => new TextEncoder().encode(t);

const FILES = [
  ["group.json", "edwards25519-sha512", 2],
  ["suites/edwards25519-sha512/group.json", "edwards25519-sha512", 3],
  ["suites/ristretto255-sha512/group.json", "ristretto255-sha512", 3],
];

export async function run(load) {
  let passed = 0;
  const failed = [];
  const check = (name, fn) => {
    let why;
    try { why = fn(); } catch (err) { why = `threw ${err.code ?? ""} ${err.message}`; }
    if (why === undefined) passed += 1;
    else failed.push(`${name}: ${why}`);
  };
  const outcome = (fn) => { try { fn(); return "ok"; } catch (err) { return err.code ?? `${err}`; } };
  for (const [file, name, version] of FILES) {
    const d = JSON.parse(await load(file));
    const s = suite(name, version);
    check(`${file} version`, () => (s.contextText === d.version ? undefined : `context ${s.contextText}`));
    check(`${file} tags`, () => {
      const want = Object.entries(d.tags).sort();
      const got = tags(version).map((t) => [t.name, t.text]).sort();
      return JSON.stringify(got) === JSON.stringify(want) ? undefined : "the tag table differs";
    });
    for (const v of d.scalars) {
      check(`${file} scalar ${v.name}`, () => {
        let value;
        const got = outcome(() => { value = s.decodeScalar(unhex(v.hex)); });
        if (got !== v.expected) return `expected ${v.expected}, got ${got}`;
        if (got === "ok" && value !== BigInt(v.value)) return `value ${value}`;
        if (got === "ok" && hex(s.encodeScalar(value)) !== v.hex) return "re-encoding differs";
        return undefined;
      });
    }
    for (const v of d.points) {
      check(`${file} point ${v.name}`, () => {
        let pt;
        const got = outcome(() => { pt = s.decodePoint(unhex(v.hex)); });
        if (got !== v.expected) return `expected ${v.expected}, got ${got}`;
        if (v.scalar !== undefined && hex(s.group.baseMul(BigInt(v.scalar)).data) !== v.hex) {
          return "k*G differs";
        }
        if (v.name === "base point G" && !pt.equals(s.group.generator)) return "not the generator";
        return undefined;
      });
    }
    const byText = new Map(Object.values(Tag).map((t) => [t.text, t]));
    for (const [i, v] of d.hash.entries()) {
      check(`${file} hash ${i}`, () => {
        const tag = byText.get(v.tag);
        const parts = v.parts.map(unhex);
        if (hex(s.H(tag, ...parts)) !== v.digest) return "digest differs";
        if (v.scalar !== undefined && s.hashToScalar(tag, ...parts) !== BigInt(v.scalar)) {
          return "H_scalar differs";
        }
        if (v.point !== undefined && hex(s.hashToPoint(tag, ...parts).data) !== v.point) {
          return "H2P differs";
        }
        return undefined;
      });
    }
    check(`${file} nonce`, () => {
      const n = d.nonce;
      const got = s.nonceScalars(unhex(n.label), unhex(n.secret_bytes), unhex(n.public),
        unhex(n.fresh), n.scalars.length);
      return got.every((k, j) => k === BigInt(n.scalars[j])) ? undefined : "nonces differ";
    });
  }
  // The peer hash and the context encoding have no vector file of their own here.
  check("hash of an unknown tag is refused", () => {
    const code = outcome(() => suite("ristretto255-sha512", 3).H({ value: ascii("x") }));
    return code === "hash/untagged" ? undefined : code;
  });
  check("dealerless/2 has no FRAME_KEY tag", () => {
    const code = outcome(() => suite("edwards25519-sha512", 2).H(Tag.FRAME_KEY));
    return code === "hash/untagged" ? undefined : code;
  });
  return { passed, failed };
}
