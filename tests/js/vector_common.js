// What the seat's vector modules (vectors/*.js) share: the vector sets of the two
// libsodium suites, hex, the outcome of a check as its code, and a negative's fields
// over its positive case's (spec/vectors/README.md).
import { Context } from "../../peers/web/seat/protocol/context.js";
import { DealerlessError } from "../../peers/web/seat/protocol/errors.js";

/** The vector sets of the libsodium suites: [folder, suite name, version]. */
export const SETS = [["", "edwards25519-sha512", 2],
  ["suites/edwards25519-sha512/", "edwards25519-sha512", 3],
  ["suites/ristretto255-sha512/", "ristretto255-sha512", 3]];

export const hex = (text) => Uint8Array.from(text.match(/../g) ?? [], (b) => parseInt(b, 16));
export const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** "ok", or the code of the DealerlessError `fn` throws (anything else is reported). */
export function outcome(fn) {
  try {
    fn();
  } catch (exc) {
    if (exc instanceof DealerlessError) return exc.code;
    return `uncaught ${exc?.name}: ${exc?.message}`;
  }
  return "ok";
}

/** A vector's context (a map of game_id, step and seat) in suite `S`. */
export const ctxFrom = (S, obj) => new Context(S, hex(obj.game_id), obj.step, obj.seat);
/** A negative: its positive case's fields, with its own over them. */
export const withCase = (neg, positives) => ({ ...positives.find((p) => p.name === neg.case), ...neg });
