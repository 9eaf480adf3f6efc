/**
 * The proof context bound into every Fiat-Shamir challenge (spec/06-proofs.md 6.1);
 * mirrors protocol/context.py.
 * @module protocol/context
 */
import { LocalError } from "./errors.js";
import { concatBytes } from "./groups/xmd.js";
import { u64 } from "./tags.js";

export const GAME_ID_BYTES = 32;

const inU64 = (n) => (typeof n === "bigint" || Number.isInteger(n)) && n >= 0 && BigInt(n) < 1n << 64n;

/**
 * Where a proof belongs: the game, the protocol step and the proving seat; and the suite
 * the game is played in, which the game id binds. A proof made for one context never
 * verifies under another. Frozen, as the Python's dataclass.
 */
export class Context {
  /**
   * @param {import("./suite.js").Suite} suite
   * @param {Uint8Array} gameId 32 bytes
   * @param {number|bigint} step
   * @param {number|bigint} seat
   */
  constructor(suite, gameId, step, seat) {
    if (!(gameId instanceof Uint8Array) || gameId.length !== GAME_ID_BYTES) {
      throw new LocalError("context/game-id", "the game id is exactly 32 bytes");
    }
    if (!inU64(step) || !inU64(seat)) {
      throw new LocalError("context/range", "step and seat are 64-bit unsigned integers");
    }
    this.suite = suite;
    this.gameId = gameId;
    this.step = step;
    this.seat = seat;
    Object.freeze(this);
  }

  /**
   * game_id (32 bytes) || u64(step) || u64(seat): 48 bytes.
   * @returns {Uint8Array}
   */
  encode() {
    return concatBytes(this.gameId, u64(this.step), u64(this.seat));
  }
}
