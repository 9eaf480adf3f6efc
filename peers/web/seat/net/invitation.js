/**
 * Invitations (spec/12-peers.md 12.3, "The invitation" and "Authentication"); mirrors
 * peers/net/invitation.py.
 *
 * `URL#PIN.SEAT.ROOM.SECRET`: URL is where to connect, its last path segment the
 * rendezvous id (16 random bytes in hex); after the `#`, which no browser sends to any
 * server, PIN pins the host's identity key, SEAT is the joining seat the invitation is for
 * (one ASCII digit 1..7), ROOM the table's room secret (what a relay room's key comes
 * from) and SECRET that seat's own secret, each of PIN, ROOM and SECRET 16 bytes in
 * canonical unpadded base64url. Any other spelling is refused, naming the first part at
 * fault from left to right, so that each invitation has exactly one text.
 * @module net/invitation
 */

import { hostPin, PIN_BYTES, roomSecret, SECRET_BYTES } from "../protocol/handshake_auth.js";
import { Invitation, MAX_SEATS, PeerError } from "./config.js";

const RID = /\/([0-9a-f]{32})\/?$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const SEAT = new RegExp(`^[1-${MAX_SEATS - 1}]$`);

/**
 * An invitation `join` stops at before dialling (12.3 "The invitation", 12.7), with the
 * part at fault: `rid` (the URL's last path segment), `fragment` (no PIN.SEAT.ROOM.SECRET
 * after the '#'), `PIN`, `SEAT`, `ROOM` or `SECRET`.
 */
export class InvitationError extends PeerError {
  /** @param {string} part @param {string} text */
  constructor(part, text) {
    super(text);
    this.part = part;
  }
}

/** `text` up to (not including) the first `sep`, as Python's str.partition()[0]. */
function before(text, sep) {
  const at = text.indexOf(sep);
  return at < 0 ? text : text.slice(0, at);
}

const quote = (text) => JSON.stringify(text).replace(/^"|"$/g, "'");

/**
 * The rendezvous id of a game's URL (with or without the invitation's `#` part).
 * @param {string} url
 * @returns {Uint8Array} 16 bytes
 */
export function rendezvousId(url) {
  const found = RID.exec(before(before(url, "#"), "?"));
  if (!found) {
    throw new InvitationError("rid", `${quote(before(url, "#"))} names no game: an `
                              + "invitation URL ends with its 32-hex-digit rendezvous id");
  }
  return fromHex(found[1]);
}

/**
 * Bytes in unpadded base64url (RFC 4648 section 5), as the host writes them.
 * @param {Uint8Array} data
 * @returns {string}
 */
export function b64(data) {
  let out = "";
  for (let i = 0; i < data.length; i += 3) {
    const chunk = (data[i] << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((data.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += ALPHABET[(chunk >> (18 - 6 * j)) & 63];
  }
  return out;
}

/**
 * `size` bytes written as 12.3 says: unpadded base64url, canonically (the unused low bits
 * of the last character zero), so that each invitation has one spelling.
 */
function field(text, size, part) {
  const where = `the ${part} of this invitation`;
  const length = Math.ceil((size * 8) / 6);
  if (text.includes("=")) {
    throw new InvitationError(part, `${where} is written with '=' padding: an invitation `
      + "writes base64url without it (copy it exactly as the host printed it)");
  }
  const bad = [...text].find((c) => !ALPHABET.includes(c));
  if (bad !== undefined) {
    throw new InvitationError(part, `${where} holds ${quote(bad)}, which base64url does not `
      + "use (A-Z, a-z, 0-9, '-' and '_'; copy it exactly)");
  }
  if (text.length !== length) {
    throw new InvitationError(part, `${where} has ${text.length} characters, not ${length}: `
      + `it is not ${size} bytes (copy the whole invitation)`);
  }
  let bits = 0n;
  for (const c of text) bits = (bits << 6n) | BigInt(ALPHABET.indexOf(c));
  const spare = BigInt(length * 6 - size * 8);
  if (bits & ((1n << spare) - 1n)) {
    throw new InvitationError(part, `${where} is not canonical base64url: its last `
      + `character ${quote(text[text.length - 1])} sets bits past its ${size} bytes, which `
      + "a host writes as zero (copy it exactly)");
  }
  bits >>= spare;
  const data = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--, bits >>= 8n) data[i] = Number(bits & 0xffn);
  return data;
}

/**
 * The host's own invitation for the table at `url`, whose table secret is `table`.
 * @returns {Invitation}
 */
export function hostInvitation(url, hostKey, table) {
  return new Invitation(rendezvousId(url), hostPin(hostKey), roomSecret(table), 0, table);
}

/**
 * The invitation in `url`; an InvitationError naming the part at fault, read in the order
 * rendezvous id, fragment, PIN, SEAT, ROOM, SECRET (12.3 "The invitation").
 * @param {string} url
 * @returns {Invitation}
 */
export function parseInvitation(url) {
  const rid = rendezvousId(url);
  const hash = url.indexOf("#");
  const parts = hash < 0 ? [] : url.slice(hash + 1).split(".");
  if (hash < 0 || parts.length !== 4) {
    throw new InvitationError("fragment", "this invitation lacks the host's pin, the seat "
      + "and the secrets after its '#' (copy the whole invitation; one from an older "
      + "dealerless does not work with this one)");
  }
  const pin = field(parts[0], PIN_BYTES, "PIN");
  if (!SEAT.test(parts[1])) {
    throw new InvitationError("SEAT", `the SEAT of this invitation, ${quote(parts[1].slice(0, 8))}`
      + `, is not one digit 1 to ${MAX_SEATS - 1}`);
  }
  const room = field(parts[2], SECRET_BYTES, "ROOM");
  const secret = field(parts[3], SECRET_BYTES, "SECRET");
  return new Invitation(rid, pin, room, Number(parts[1]), secret);
}

/**
 * The invitation URL of a joining seat: `base` (where to connect) with the pin, the seat
 * and the secrets.
 * @param {Invitation} inv
 * @param {string} base
 * @returns {string}
 */
export function invitationUrl(inv, base) {
  if (inv.seat === 0) {
    throw new RangeError("the host's own invitation is never handed out: it holds the "
                         + "table secret");
  }
  return `${dialUrl(base)}#${b64(inv.pin)}.${inv.seat}.${b64(inv.room)}.${b64(inv.secret)}`;
}

/**
 * `url` if it is a ws:// or wss:// URL with a host and a valid port, else an Error with a
 * message a person can act on (checked before anything waits).
 * @param {string} url
 * @param {string} [what]
 * @returns {string}
 */
export function checkUrl(url, what = "URL") {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${what} ${quote(url)} is not a websocket URL (malformed); it looks like `
                    + "ws://HOST:PORT/...");
  }
  if (!["ws:", "wss:"].includes(parsed.protocol) || !parsed.hostname) {
    throw new Error(`${what} ${quote(url)} is not a websocket URL; it looks like `
                    + "ws://HOST:PORT/...");
  }
  return url;
}

/**
 * The invitation a person gave (the page's join form, or the URL fragment of an
 * invitation link), or an Error saying what is wrong with it.
 * @param {string} url
 * @returns {Invitation}
 */
export function checkInvitation(url) {
  checkUrl(dialUrl(url));
  return parseInvitation(url);
}

/**
 * What to connect to: the part before `#`, which no server ever sees.
 * @param {string} url
 * @returns {string}
 */
export function dialUrl(url) {
  return before(url, "#");
}

/**
 * The room id a URL names: its last path segment, as the path writes it (12.5: hashed as
 * its ASCII hex digits, never decoded).
 * @param {string} url
 * @returns {string}
 */
export function roomId(url) {
  const path = before(dialUrl(url), "?").replace(/\/+$/, "");
  return path.slice(path.lastIndexOf("/") + 1);
}

function fromHex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
