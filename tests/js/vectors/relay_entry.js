// spec/vectors relay_entry.json (12.5 "Room key"): each case's seed, key, entry message and
// signature are reproduced from its secret, room and challenge; the signature verifies
// under the key, and fails for the other challenge and the other room; the key is valid.
import {
  entryMessage, entryValid, keyValid, roomKey, roomSeed, signEntry,
} from "../../../peers/web/seat/protocol/relay_entry.js";
import { hex, toHex } from "../vector_common.js";

/** A point of order 8 (RFC 8032's small-order list): no room key may be one. */
const SMALL_ORDER = "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a";

export async function run(load) {
  const vectors = JSON.parse(await load("relay_entry.json"));
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  for (const c of vectors.cases) {
    const name = `room ${c.room.slice(0, 8)}`;
    const seed = roomSeed(hex(c.secret), c.room);
    const key = hex(c.key);
    const challenge = hex(c.challenge);
    expect(toHex(seed) === c.seed, `${name}: seed`);
    expect(toHex(roomKey(seed)) === c.key, `${name}: key`);
    expect(toHex(entryMessage(challenge, c.room)) === c.message, `${name}: entry message`);
    expect(toHex(signEntry(seed, challenge, c.room)) === c.signature, `${name}: signature`);
    expect(keyValid(key), `${name}: the key is a valid room key`);
    const signature = hex(c.signature);
    expect(entryValid(key, challenge, c.room, signature), `${name}: the signature verifies`);
    expect(!entryValid(key, hex(c.other_challenge), c.room, signature),
      `${name}: it fails for the other challenge`);
    expect(!entryValid(key, challenge, c.other_room, signature),
      `${name}: it fails for the other room`);
    const flipped = signature.slice();
    flipped[0] ^= 1;
    expect(!entryValid(key, challenge, c.room, flipped), `${name}: a flipped bit fails`);
  }
  expect(!keyValid(hex(SMALL_ORDER)), "a small-order point is no room key");
  expect(!keyValid(new Uint8Array(31)), "31 bytes are no room key");
  return { passed, failed };
}
