/**
 * Mid-game answers to handshake messages (spec/12-peers.md 12.3, last paragraphs of
 * "Handshake"); mirrors the joiner's part of peers/net/handshake_answers.py: a seat
 * repeats its last handshake message to a seat that shows it lacks it. A joiner answers
 * the host's roster with its `open` (the host lacks it), rebuilt from the agreed setup.
 *
 * Judging a handshake message costs a signature check; a verdict is a pure function of
 * the message and what it is checked against, so it is remembered by the SHA-256 of
 * those bytes, and a byte-identical repeat (a replay) is judged from memory.
 * @module net/handshake_answers
 */

import sodium from "../vendor/sodium.mjs";
import { pack } from "../protocol/canonical.js";
import { DealerlessError } from "../protocol/errors.js";
import { checkSignature, signedBytes } from "../protocol/handshake_auth.js";
import { checkFrameKey, readJoinHello } from "./messages.js";

/** How many verdicts are remembered (12.3: the last 256). */
export const REMEMBERED = 256;

/** What a check throws on a malformed or forged message (the caller ignores it). */
export const rejected = (exc) => exc instanceof DealerlessError || exc instanceof TypeError
  || exc instanceof RangeError;

/**
 * Verdicts on handshake messages: what a check returned, or the error it threw, by the
 * SHA-256 of everything the check reads; the least recently used are forgotten first.
 */
export class Judged {
  constructor(size = REMEMBERED) {
    this.size = size;
    this.seen = new Map();
  }

  /**
   * A joiner's hello whose signature verifies under the key it names, with a frame key
   * valid in the suite it names and bound to that key at its seat (12.3's order).
   */
  joinHello(obj, rid) {
    return this.judge([new TextEncoder().encode("hello"), rid, obj], () => {
      const hello = readJoinHello(obj.slice(0, -1));
      checkSignature(hello.key, rid, obj);
      if (hello.frameKey.length) {
        checkFrameKey(hello.suite, hello.key, hello.frameKey, rid, hello.seat, hello.binding);
      }
      return hello;
    });
  }

  /** checkSignature(key, rid, obj), remembered. */
  signed(obj, key, rid) {
    return this.judge([new TextEncoder().encode("signed"), rid, key, obj],
                      () => checkSignature(key, rid, obj));
  }

  judge(what, check) {
    const digest = Array.from(sodium.crypto_hash_sha256(pack(what)),
                              (b) => b.toString(16).padStart(2, "0")).join("");
    let verdict = this.seen.get(digest);
    if (verdict !== undefined) {
      this.seen.delete(digest);   // most recently used last
    } else {
      try {
        verdict = [check(), null];
      } catch (exc) {
        if (!rejected(exc)) throw exc;
        verdict = [null, exc];
      }
    }
    this.seen.set(digest, verdict);
    while (this.seen.size > this.size) this.seen.delete(this.seen.keys().next().value);
    if (verdict[1] !== null) throw verdict[1];
    return verdict[0];
  }
}

/** Every seat's verdicts on this page: a verdict holds whoever asks. */
export const JUDGED = new Judged();

/**
 * Mid-game, a joiner repeats its `open` to a host that shows it lacks it (12.3): the
 * host's roster, signed by the host (seat 0's identity key), is answered with
 * ["open", key, nonce], at most once per half sync interval (`answers`, net/pacing.js).
 * Anything else, or a message that does not verify, is ignored (`log` hears why).
 * @param {{send: (m: Uint8Array) => Promise<void>}} link
 * @param {{setup: {nonces: Uint8Array[]}, seat: number, keys: Uint8Array[]}} game the
 *   agreed setup, this seat, and every seat's identity key in seat order (the roster's)
 * @param {Array} obj the message, parsed (net/messages.js parseMessage)
 * @param {import("./pacing.js").AnswerLimit} answers
 * @param {import("../protocol/identity.js").Identity} identity (or an IdentityKey,
 *   whose `sign` is async)
 * @param {Uint8Array} rid
 * @param {(text: string) => void} [log]
 */
export async function answerHandshake(link, game, obj, answers, identity, rid, log = null) {
  if (game.seat === 0 || obj[0] !== "roster") return;
  try {
    if (!answers.mayAnswer("open")) return;
    JUDGED.signed(obj, game.keys[0], rid);
    const body = ["open", game.keys[game.seat], game.setup.nonces[game.seat]];
    await link.send(pack([...body, await identity.sign(signedBytes(rid, body))]));
  } catch (exc) {
    if (!rejected(exc)) throw exc;
    if (log) log(`ignored a bad handshake message: ${exc.message}`);
  }
}
