// spec/vectors relay_work.json (12.5 "Proof of work"): each case's hash is reproduced for
// its nonce, the nonce is the first from 0 that meets its bits (solve), it meets them and
// the nonce before it does not (short_nonce and its short_hash, where the case has one).
import {
  meets, solve, workHash, zeroBits,
} from "../../../peers/web/seat/protocol/relay_work.js";
import { hex, toHex } from "../vector_common.js";

export async function run(load) {
  const vectors = JSON.parse(await load("relay_work.json"));
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const c of vectors.cases) {
    const name = `bits ${c.bits}, room ${c.room.slice(0, 8)}`;
    const challenge = hex(c.challenge);
    const nonce = BigInt(c.nonce);
    expect(toHex(workHash(challenge, c.room, nonce)) === c.hash, `${name}: hash of the nonce`);
    expect(zeroBits(hex(c.hash)) >= c.bits, `${name}: the hash starts with ${c.bits} zero bits`);
    expect(meets(challenge, c.room, nonce, c.bits), `${name}: the nonce meets the bits`);
    expect(solve(challenge, c.room, c.bits) === nonce, `${name}: solve finds the nonce from 0`);
    expect(solve(challenge, c.room, c.bits, nonce + 1n, 0n) === null,
      `${name}: an empty range finds nothing`);
    if ("short_nonce" in c) {
      const short = BigInt(c.short_nonce);
      expect(toHex(workHash(challenge, c.room, short)) === c.short_hash,
        `${name}: hash of the nonce before`);
      expect(!meets(challenge, c.room, short, c.bits), `${name}: the nonce before falls short`);
      expect(zeroBits(hex(c.short_hash)) < c.bits, `${name}: the short hash has fewer zero bits`);
    }
    expect(!meets(challenge.slice(1), c.room, nonce, c.bits),
      `${name}: a challenge of 15 bytes meets nothing`);
    expect(!meets(challenge, c.room, 1n << 64n, 0), `${name}: a nonce of 2^64 meets nothing`);
  }
  let refused = "";
  try {
    solve(new Uint8Array(16), "00", 29);
  } catch (exc) {
    refused = exc.code;
  }
  expect(refused === "work/bits", "solve refuses 29 bits (work/bits)");
  return { passed, failed };
}
