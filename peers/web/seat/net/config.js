/**
 * What a networked seat is given (spec/12-peers.md 12.3); mirrors the parts of
 * peers/net/config.py that a joining seat needs: the roles, the seat counts, the
 * invitation and the error of a game that cannot start or go on.
 * @module net/config
 */

import { seatSecret } from "../protocol/handshake_auth.js";

export const HOST = "host";
export const JOIN = "join";
export const MIN_SEATS = 2;
export const MAX_SEATS = 8;
/**
 * How a joiner that was asked for a suite says so when the host plays another (12.3;
 * messages.js joinSuiteRefusal). `{mine}` is replaced by that suite.
 */
export const CLI_SUITE = "was asked to play {mine} (join without choosing a suite to play "
  + "the host's)";

/** The game could not start or go on for a reason on this side (not a violation). */
export class PeerError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * What an invitation names beyond where to connect (12.3 "The invitation"): the
 * rendezvous id, the pin of the host's identity key, the room secret R, and the seat it
 * invites to with that seat's secret S_i. The host's own has seat 0 and, as `secret`, the
 * table secret T that every S_i and R come from. Its secrets are never logged: they are
 * kept off the enumerable properties, so JSON.stringify and console.log show none.
 */
export class Invitation {
  /**
   * @param {Uint8Array} rid 16 bytes
   * @param {Uint8Array} pin 16 bytes
   * @param {Uint8Array} room R, 16 bytes
   * @param {number} seat 1..7 (0: the host's own)
   * @param {Uint8Array} secret S_seat (the host's own: T)
   */
  constructor(rid, pin, room, seat, secret) {
    this.rid = rid;
    this.pin = pin;
    this.seat = seat;
    Object.defineProperty(this, "room", { value: room, enumerable: false });
    Object.defineProperty(this, "secret", { value: secret, enumerable: false });
    Object.freeze(this);
  }

  /**
   * S_seat: derived by the host; a joiner knows only its own.
   * @param {number} seat
   * @returns {Uint8Array}
   */
  seatSecret(seat) {
    if (this.seat === 0) return seatSecret(this.secret, seat);
    if (seat !== this.seat) {
      throw new RangeError(`an invitation to seat ${this.seat} holds no other seat's secret`);
    }
    return this.secret;
  }
}
