/**
 * A seat's side of entering a relay room (spec/12-peers.md 12.5 "Entering a room");
 * mirrors peers/net/relay_client.py.
 *
 * The relay speaks to a seat in text messages before the room's own (binary) traffic,
 * which peers cannot forge since the relay forwards binary messages only:
 * - `work <challenge hex> <bits>` to whoever opens a room: the seat answers with the nonce
 *   in decimal (protocol/relay_work.js) and the room's public key;
 * - `prove <challenge hex>` to whoever enters a room that exists: the seat answers with its
 *   entry signature under the room key (protocol/relay_entry.js), which only those who
 *   hold the invitations' room secret can make;
 * - `room <epoch> <start>` once the seat is in: the room's messages that follow are
 *   numbered from `start`. The seat counts them, and when it reconnects it says what it
 *   holds (`from=<epoch>.<n>`), so the relay sends it only what is new.
 *
 * The relay is untrusted: every line is read by 12.5's exact grammar (ASCII digits, at
 * most 20 and below 2^64; lowercase hex; single spaces), and anything else is an
 * EntryError that says what the relay sent.
 *
 * `conn` is what net/link.js hands over: `recv(timeout)` resolves to the next message (a
 * string for a text message, a Uint8Array for a binary one) or null when `timeout`
 * seconds pass, and `send(data)`.
 * @module net/relay_client
 */

import { roomKey, signEntry } from "../protocol/relay_entry.js";
import { CHALLENGE_BYTES, MAX_WORK_BITS, solve } from "../protocol/relay_work.js";
import { roomId } from "./invitation.js";

/** How long a seat waits for each of the relay's entry lines, in seconds. */
export const ENTRY_TIMEOUT = 10.0;
/** The search runs in slices of this many hashes, yielding between them, so that the page
 * stays responsive and closing the link stops it. */
export const SLICE = 1 << 12;
/** 12.5's numbers (`B`, `N`, `S`, the `n` of `from=E.n`): 1 to 20 ASCII digits. */
export const DECIMAL = /^[0-9]{1,20}$/;
/** A room's epoch: 8 bytes in lowercase hex. */
export const EPOCH = /^[0-9a-f]{16}$/;
export const CHALLENGE = new RegExp(`^[0-9a-f]{${2 * CHALLENGE_BYTES}}$`);
/** The longest entry line a relay sends; anything longer is refused before it is split. */
export const MAX_LINE = 64;
/** How a seat's error names a relay that breaks these rules. */
export const BROKE = "the relay broke the entry protocol (12.5)";

const quote = (text) => JSON.stringify(text).replace(/^"|"$/g, "'");

/**
 * `text` as one of 12.5's numbers (1 to 20 ASCII digits, below 2^64), else null.
 * @param {string} text
 * @returns {bigint|null}
 */
export function decimal(text) {
  if (!DECIMAL.test(text)) return null;
  const value = BigInt(text);
  return value < 1n << 64n ? value : null;
}

/** The relay did not let this seat in the way 12.5 says; trying again will not help. */
export class EntryError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "EntryError";
  }
}

/** No entry line came in time: this connection's failure, which a link may retry. */
export class EntryTimeout extends Error {
  constructor(message = "no answer (timed out)") {
    super(message);
    this.name = "TimeoutError";
  }
}

/**
 * Where this seat is in a relay room's numbering: the room's epoch and the index of the
 * next message it will receive (empty epoch: never entered). `next` can pass 2^53 only
 * after more messages than any room holds, so it is a Number.
 */
export class Place {
  constructor() {
    this.epoch = "";
    this.next = 0;
  }

  /**
   * `url`, saying what this seat holds once it has been in the room (12.5 "Catch-up").
   * @param {string} url
   * @returns {string}
   */
  url(url) {
    if (!this.epoch) return url;
    return `${url}${url.includes("?") ? "&" : "?"}from=${this.epoch}.${this.next}`;
  }
}

async function line(conn) {
  const message = await conn.recv(ENTRY_TIMEOUT);
  if (message === null || message === undefined) throw new EntryTimeout();
  if (typeof message !== "string") {
    throw new EntryError("the relay sent room traffic before letting this seat in "
                         + "(is it an older relay?)");
  }
  if (message.length > MAX_LINE) {
    throw new EntryError(`${BROKE}: a line of ${message.length} characters `
                         + `(${quote(message.slice(0, 40))}...), not at most ${MAX_LINE}`);
  }
  return message;
}

/**
 * A nonce meeting `bits`, searched slice by slice, yielding to the event loop between
 * slices; `stopped()` ends the search (the link was closed).
 * @param {Uint8Array} challenge
 * @param {string} room
 * @param {number} bits
 * @param {() => boolean} [stopped]
 * @returns {Promise<bigint>}
 */
export async function prove(challenge, room, bits, stopped = () => false) {
  for (let start = 0n; ; start += BigInt(SLICE)) {
    const found = solve(challenge, room, bits, start, SLICE);
    if (found !== null) return found;
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (stopped()) throw new EntryError("the link was closed during the proof of work");
  }
}

/**
 * Enter the room `url` names on `conn`: pay its proof of work and give the room key
 * (`seed`'s) if the relay asks, or sign its challenge, then note where the room's
 * numbering starts in `place`. EntryError for any line that is not exactly 12.5's.
 * @param {{recv: (timeout: number) => Promise<string|Uint8Array|null>,
 *          send: (data: string) => void}} conn
 * @param {string} url the room's URL (its last path segment is the room id)
 * @param {Place} place
 * @param {Uint8Array} seed the room key's seed (protocol/relay_entry.js roomSeed)
 * @param {() => boolean} [stopped]
 */
export async function enter(conn, url, place, seed, stopped = () => false) {
  const room = roomId(url);
  let text = await line(conn);
  if (text.startsWith("work ")) {
    const [, challenge, bits] = fields(text, "proof-of-work request");
    if (!CHALLENGE.test(challenge)) {
      throw new EntryError(`${BROKE}: its proof-of-work request ${quote(text)} has C = `
        + `${quote(challenge.slice(0, 40))}, not ${2 * CHALLENGE_BYTES} lowercase hex digits`);
    }
    const b = decimal(bits);
    if (b === null) {
      throw new EntryError(`${BROKE}: its proof-of-work request ${quote(text)} has B = `
        + `${quote(bits.slice(0, 24))}, not a decimal number in ASCII digits`);
    }
    if (b > BigInt(MAX_WORK_BITS)) {
      throw new EntryError(`the relay asks for a proof of work of ${b} bits (at most `
                           + `${MAX_WORK_BITS} are paid)`);
    }
    const nonce = await prove(fromHex(challenge), room, Number(b), stopped);
    conn.send(`${nonce} ${toHex(roomKey(seed))}`);
    text = await line(conn);
  }
  if (text.startsWith("prove ")) {
    const challenge = text.slice("prove ".length);
    if (!CHALLENGE.test(challenge)) {
      throw new EntryError(`${BROKE}: its room-key challenge ${quote(text)} is not \`prove C\``
                           + ` with C ${2 * CHALLENGE_BYTES} lowercase hex digits`);
    }
    conn.send(toHex(signEntry(seed, fromHex(challenge), room)));
    text = await line(conn);
  }
  if (!text.startsWith("room ")) {
    throw new EntryError(`the relay answered ${quote(text)} instead of letting this seat in`);
  }
  const [, epoch, start] = fields(text, "room line");
  const first = decimal(start);
  if (!EPOCH.test(epoch) || first === null) {
    throw new EntryError(`${BROKE}: its room line ${quote(text)} is not \`room E S\` with E `
                         + "16 lowercase hex digits and S 1 to 20 ASCII digits below 2^64");
  }
  place.epoch = epoch;
  place.next = Number(first);
}

/** The three fields of an entry line, separated by single spaces as 12.5 writes them. */
function fields(text, what) {
  const parts = text.split(" ");
  if (parts.length !== 3 || !parts.every(Boolean)) {
    throw new EntryError(`${BROKE}: its ${what} ${quote(text)} is not three fields separated `
                         + "by single spaces");
  }
  return parts;
}

function toHex(data) {
  return Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
