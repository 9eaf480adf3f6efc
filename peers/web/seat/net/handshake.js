/**
 * The handshake: K seats agree on a setup by commit, then reveal (spec/12-peers.md 12.3
 * "Handshake: commit, roster, open, reveal"); mirrors the frame of
 * peers/net/handshake.py. A browser seat joins tables; it never hosts one, so only the
 * joiner's side (net/handshake_join.js) is here.
 *
 * Every seat commits to a fresh nonce first (the host in its hello, a joiner in its
 * answer). Once K-1 joiners have answered, the host fixes the roster; a joiner opens its
 * nonce only when it finds itself in that roster, and the host opens its own (and passes
 * on the others) only when every joiner has opened. So each seat's setup is fixed before
 * its own nonce is known to anybody (12.2's short authentication string rests on it).
 * @module net/handshake
 */

import { pack } from "../protocol/canonical.js";
import { signedBytes } from "../protocol/handshake_auth.js";
import { HOST, JOIN, PeerError } from "./config.js";
import { JoinerSide } from "./handshake_join.js";
import { MAX_SYNC_INTERVAL, monotonic } from "./pacing.js";

/**
 * What a joining seat is given (peers/net/config.py PeerConfig, as far as a joiner reads
 * it). Times in seconds.
 * @typedef {object} JoinConfig
 * @property {string} [role] "join" (the default); "host" is refused
 * @property {import("../protocol/identity.js").Identity} identity or any object with
 *   `publicKey`, `frameKey(suite)` and a (possibly async) `sign(message)`, such as
 *   keys/identity_key.js IdentityKey
 * @property {import("./config.js").Invitation} invitation
 * @property {import("./joining.js").Joining} record the joiner's handshake record
 * @property {(n: number) => Uint8Array} randomBytes fresh bytes
 * @property {string|null} [suite] the suite it was asked to play, or null for the host's
 * @property {string} [suiteSaid] how it says so if the host plays another (config.js)
 * @property {number} [syncInterval] 0.5
 * @property {number} [moveTimeout] 300
 * @property {(rules: string) => void} [offerCheck] throws PeerError to leave
 * @property {(text: string) => void} [log] what the handshake ignored, and why
 */

/**
 * One seat's side of the handshake; `run()` resolves to the agreed game: `{setup, seat,
 * roster, offer, nonce}` (the setup a protocol/setup.js GameSetup).
 */
export class Handshake extends JoinerSide {
  /**
   * @param {{send: (m: Uint8Array) => Promise<void>,
   *          recv: (timeout: number) => Promise<Uint8Array|null>}} link
   * @param {JoinConfig} config
   */
  constructor(link, config) {
    super();
    this.link = link;
    this.cfg = { role: JOIN, suite: null, syncInterval: 0.5, moveTimeout: 300.0,
      suiteSaid: undefined, ...config };
    if (!this.cfg.invitation) {
      throw new PeerError("a networked seat needs its table's invitation (12.3)");
    }
    this.inv = this.cfg.invitation;
    // Messages are repeated with back-off up to `cap`; the host forgets a would-be joiner
    // it has not heard from for `stale` seconds.
    this.cap = Math.min(MAX_SYNC_INTERVAL, 4 * this.cfg.syncInterval);
    this.stale = 4 * this.cap + this.cfg.syncInterval;
    this.stranger = "";
  }

  /** The agreed game, or PeerError. */
  async run() {
    const deadline = monotonic() + this.cfg.moveTimeout;
    if (this.cfg.role === HOST) {
      throw new PeerError("a browser seat joins a table; it does not host one");
    }
    return this.join(deadline);
  }

  /**
   * pack(body + its signature by this seat's identity key over the rendezvous id) (12.3):
   * protocol/handshake_auth.js `sign`, awaiting the signature, since a key kept in
   * WebCrypto (keys/identity_key.js IdentityKey) signs asynchronously.
   * @param {Array} body
   * @returns {Promise<Uint8Array>}
   */
  async signed(body) {
    const signature = await this.cfg.identity.sign(signedBytes(this.inv.rid, body));
    return pack([...body, signature]);
  }

  log(text) {
    if (this.cfg.log) this.cfg.log(text);
  }
}
