/**
 * Joining a table from a browser (spec/12-peers.md 12.3, 12.5): the invitation read, the
 * link dialled (a relay room entered with its room key), the joiner's handshake run to
 * the reveal. Also the joiner's handshake record, as peers/net/joining.py keeps it, and
 * the relay-room helpers of peers/net/launch.py a joiner needs.
 *
 * The record: a joiner's hello commits to its nonce, and once a roster holds that
 * commitment the seat is the joiner's only if it opens that very nonce. So before a hello
 * with a new commitment leaves, and before the nonce is opened, the joiner writes down
 * pack(["joining", 1, nonce, offer, roster]) (the host hello it answers and the roster it
 * opens for, each as the message arrived, or nil). Where it is written is the caller's
 * (`save`, `erase`: IndexedDB in a page); without them it lives in memory only.
 * @module net/joining
 */

import { SYSTEM } from "../entropy.js";
import { asArray, asBytes, pack, unpack } from "../protocol/canonical.js";
import { DealerlessError } from "../protocol/errors.js";
import { Identity, shortAuthString } from "../protocol/identity.js";
import { roomSeed } from "../protocol/relay_entry.js";
import { NONCE_BYTES } from "../protocol/setup.js";
import { PeerError } from "./config.js";
import { Handshake } from "./handshake.js";
import { checkInvitation, dialUrl, parseInvitation, roomId } from "./invitation.js";
import { ClientLink, MAX_MESSAGE_BYTES } from "./link.js";
import {
  bytesEqual, helloCommitment, otherVersion, parseMessage, readOffer, readRoster,
} from "./messages.js";

/** The record's name and format version, its first two items. */
export const FORMAT = Object.freeze(["joining", 1]);

/** Fresh bytes from the page's CSPRNG (entropy.js). */
export const randomBytes = (n) => SYSTEM.bytes("joining", n);

/** A record that cannot be read: the caller names where it is kept. */
export class RecordError extends PeerError {}

/**
 * A joiner's handshake so far: its nonce, the offer it answers and the roster it opens
 * for (each a message as it arrived, or null). `save(bytes)` and `erase()` keep it where
 * the caller wants (both may be async); without them it is kept in memory only.
 */
export class Joining {
  /**
   * @param {Uint8Array} nonce
   * @param {{offer?: Uint8Array|null, roster?: Uint8Array|null,
   *          save?: (data: Uint8Array) => any, erase?: () => any}} [options]
   */
  constructor(nonce, options = {}) {
    Object.defineProperty(this, "nonce", { value: nonce, writable: true, enumerable: false });
    this.offer = options.offer ?? null;
    this.roster = options.roster ?? null;
    this.save = options.save ?? null;
    this.erase = options.erase ?? null;
  }

  /**
   * The record `data` (as `encode` wrote it) of this key's join, or a fresh one (new nonce)
   * if `data` is null; RecordError if it cannot be read, or if its roster does not seat
   * `key` with its nonce. A record whose host hello is of another peer protocol version is
   * dropped (a fresh one is returned), as no host of this version answers its round.
   */
  static takeUp(data, key, options = {}) {
    const random = options.randomBytes ?? randomBytes;
    if (data === null || data === undefined) return new Joining(random(NONCE_BYTES), options);
    try {
      const [tag, version, nonce, offer, roster] = asArray(unpack(data, 3 * MAX_MESSAGE_BYTES),
                                                           5, "joining record");
      if (tag !== FORMAT[0] || version !== FORMAT[1]) {
        throw new RecordError(`the record is not a ${FORMAT[0]} record of version ${FORMAT[1]}`);
      }
      const kept = new Joining(asBytes(nonce, "nonce", NONCE_BYTES), options);
      if (offer !== null) {
        kept.offer = asBytes(offer, "offer", { maxLen: MAX_MESSAGE_BYTES });
        if (otherVersion(kept.message(kept.offer, "hello"))) {
          return new Joining(random(NONCE_BYTES), options);
        }
        kept.offered();
      }
      if (roster !== null) {
        kept.roster = asBytes(roster, "roster", { maxLen: MAX_MESSAGE_BYTES });
        const seated = kept.seated();
        const seat = seated.seatOf(key);
        if (seat < 0 || !bytesEqual(seated.commitments[seat], helloCommitment(kept.nonce))) {
          throw new RecordError("the record holds a roster that does not seat this key with "
                                + "this nonce");
        }
      }
      return kept;
    } catch (exc) {
      if (exc instanceof RecordError) throw exc;
      if (!(exc instanceof DealerlessError || exc instanceof PeerError)) throw exc;
      throw new RecordError(`the record does not decode (${exc.message}); remove it to join `
                            + "afresh");
    }
  }

  /** The host hello this joiner answers (its signature was checked on arrival). */
  offered() {
    return readOffer(this.message(this.offer, "hello").slice(0, -1));
  }

  /** The roster this joiner opens its nonce for. */
  seated() {
    return readRoster(this.message(this.roster, "roster").slice(0, -1), this.offered());
  }

  message(data, kind) {
    const obj = parseMessage(data ?? new Uint8Array(0));
    if (obj === null || obj.length < 3 || obj[0] !== kind) {
      throw new RecordError(`the record holds a ${kind} that does not decode`);
    }
    return obj;
  }

  /** pack(["joining", 1, nonce, offer, roster]). */
  encode() {
    return pack([...FORMAT, this.nonce, this.offer, this.roster]);
  }

  /** Write the record down, before what it commits to leaves. */
  async keep() {
    if (this.save) await this.save(this.encode());
  }

  async remove() {
    if (this.erase) await this.erase();
  }
}

/**
 * The key seed of the relay room `url` names, from the invitations' room secret (12.5
 * "Room key"; peers/net/launch.py relay_room_seed).
 * @param {string} url
 * @param {Uint8Array} room R
 */
export function relayRoomSeed(url, room) {
  return roomSeed(room, roomId(url));
}

/**
 * What a joiner keeps of its invitation `url` for a resume (12.4): the invitation, and the
 * relay room's key seed (peers/net/launch.py join_meta).
 */
export function joinMeta(url) {
  const seed = relayRoomSeed(url, parseInvitation(url).room);
  return { url, room_seed: Array.from(seed, (b) => b.toString(16).padStart(2, "0")).join("") };
}

/**
 * Join the table an invitation names (12.3): dial its URL (entering the relay room with
 * the room key, 12.5), then run the joiner's handshake to the reveal.
 *
 * Resolves to `{link, setup, seat, roster, offer, sas, meta}`: the open link (the game's
 * messages follow on it), the agreed setup (protocol/setup.js), this seat, the roster
 * (identity keys, commitments, frame keys, bindings in seat order), the host's offer (its
 * key, rules, params, seats, suite), the short authentication string (12.2) and what to
 * keep for a resume. Rejects with an InvitationError before dialling, a LinkError when
 * the link cannot be made, or a PeerError when the handshake ends for good; the link is
 * closed then.
 *
 * @param {string} invitation `URL#PIN.SEAT.ROOM.SECRET`
 * @param {Identity|Uint8Array} identity this seat's identity, or its 32-byte seed
 * @param {object} [options]
 * @param {typeof WebSocket} [options.WebSocket] the WebSocket constructor (default: the
 *   global one)
 * @param {Joining} [options.record] a record taken up (Joining.takeUp); default: a fresh
 *   one, with `options.save` and `options.erase` if given
 * @param {boolean} [options.joinedBefore] this join reached the table before (its record
 *   is kept): the link then keeps retrying instead of giving up after 6 attempts
 * @param {(text: string) => void} [options.onRetry] each failed connection attempt
 * @param {(text: string) => void} [options.log] messages the handshake ignored
 * @param {string|null} [options.suite] the suite to insist on (null: the host's)
 * @param {number} [options.moveTimeout] seconds (300)
 * @param {number} [options.syncInterval] seconds (0.5)
 * @param {(rules: string) => void} [options.offerCheck] throws PeerError to refuse rules
 * @param {(n: number) => Uint8Array} [options.randomBytes]
 */
export async function join(invitation, identity, options = {}) {
  const inv = checkInvitation(invitation);
  const me = identity instanceof Uint8Array ? new Identity(identity) : identity;
  const random = options.randomBytes ?? randomBytes;
  const record = options.record ?? Joining.takeUp(null, me.publicKey, {
    randomBytes: random, save: options.save, erase: options.erase });
  const link = new ClientLink(dialUrl(invitation), {
    failFast: !options.joinedBefore, onRetry: options.onRetry, WebSocket: options.WebSocket,
    roomSeed: relayRoomSeed(invitation, inv.room) });
  link.start();
  try {
    await link.waitConnected();
    const handshake = new Handshake(link, {
      identity: me, invitation: inv, record, randomBytes: random, suite: options.suite ?? null,
      suiteSaid: options.suiteSaid, moveTimeout: options.moveTimeout ?? 300.0,
      syncInterval: options.syncInterval ?? 0.5, offerCheck: options.offerCheck,
      log: options.log });
    const agreed = await handshake.run();
    return { link, ...agreed, sas: shortAuthString(agreed.setup.gameId),
      meta: joinMeta(invitation) };
  } catch (exc) {
    await link.close();
    throw exc;
  }
}
