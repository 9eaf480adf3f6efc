// spec/vectors/msgpack.json: strict decoding of canonical msgpack (spec/08-wire.md 8.1).
import { pack, unpack } from "../../../peers/web/seat/protocol/canonical.js";

const unhex = (t) => Uint8Array.from(t.match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

export async function run(load) {
  const { vectors } = JSON.parse(await load("msgpack.json"));
  let passed = 0;
  const failed = [];
  for (const v of vectors) {
    const data = unhex(v.data);
    let got;
    try {
      const value = unpack(data, v.max_size);
      const again = hex(pack(value));
      got = again === v.data ? "ok" : `re-encodes to ${again}`;
    } catch (err) {
      got = err.code ?? `${err}`;
    }
    if (got === v.expected) passed += 1;
    else failed.push(`${v.name}: expected ${v.expected}, got ${got}`);
  }
  return { passed, failed };
}
