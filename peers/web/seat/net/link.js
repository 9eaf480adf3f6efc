/**
 * Links: unreliable message pipes between two peers (spec/12-peers.md 12.3 "Links",
 * "Connecting"); mirrors the client side of peers/net/link.py.
 *
 * A link carries binary messages, one per websocket message of at most 65,536 + 256
 * bytes. It promises nothing: a message may be lost while the connection is down, or be
 * duplicated, delayed or reordered by a relay. The peer protocol above it is idempotent
 * and pulls what it misses (SYNC), so a link only has to try.
 *
 * - ClientLink connects outward, to a host or a relay room (entering it as 12.5 says,
 *   net/relay_client.js), and reconnects with backoff capped at 2 s whenever the
 *   connection drops. Until it has reached the other side once, a fresh game gives up
 *   after FIRST_CONTACT_TRIES attempts, or at once on a relay that breaks its entry lines.
 *   A browser's WebSocket shows no HTTP status: a 404 (wrong invitation) or a 503 (a full
 *   relay) looks like any failed attempt, so those too end only after the tries.
 * - MemoryLink is an in-process pair, or a group that acts like a relay room, for tests.
 *
 * The WebSocket constructor is injectable (`options.WebSocket`), so node (20.10+ with
 * --experimental-websocket, 22+ without) runs the same code as a page. Timeouts are in
 * seconds, as in the Python.
 * @module net/link
 */

import { MAX_FRAME_BYTES } from "../protocol/frames.js";
import { EntryError, enter, Place } from "./relay_client.js";
import { checkUrl } from "./invitation.js";

// The Python has check_url here; it lives in net/invitation.js, which reads URLs first.
export { checkUrl };

/** A peer message is a frame plus a small envelope (12.3 "Links"). */
export const MAX_MESSAGE_BYTES = MAX_FRAME_BYTES + 256;
/** A fresh game's client gives up after this many failed attempts before first contact. */
export const FIRST_CONTACT_TRIES = 6;
/** Where a relay's rooms are (12.5); a host serves /dealerless/<id> instead. */
export const RELAY_ROOMS = "/room/";
/** A connection is given this long to open, in seconds. */
export const OPEN_TIMEOUT = 5.0;
/** Messages kept for `recv`; a message that finds the inbox full is dropped (lost). */
export const INBOX = 1024;
/** Bytes a connection may hold unsent before further messages are dropped (lost), as a
 * Python link drops a message the socket does not take within 5 s. */
export const MAX_BUFFERED = 16 << 20;

/** The link cannot reach the other side, and trying again will not help. */
export class LinkError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "LinkError";
  }
}

/** A bounded inbox with `recv(timeout)`, shared by every kind of link. */
class Queued {
  constructor() {
    this.inbox = [];
    this.waiters = [];
  }

  /** Keep a binary message of at most MAX_MESSAGE_BYTES; drop anything else. */
  put(message) {
    if (!(message instanceof Uint8Array) || message.length > MAX_MESSAGE_BYTES) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter(message);
    else if (this.inbox.length < INBOX) this.inbox.push(message);
  }

  /** Wake every `recv` waiting (with null), so that it looks at the link's state again. */
  wake() {
    for (const waiter of this.waiters.splice(0)) waiter(null);
  }

  /**
   * The next message, or null after `timeout` seconds.
   * @param {number} timeout
   * @returns {Promise<Uint8Array|null>}
   */
  recv(timeout) {
    if (this.inbox.length) return Promise.resolve(this.inbox.shift());
    return new Promise((resolve) => {
      const waiter = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(null);
      }, Math.max(0, timeout) * 1000);
      this.waiters.push(waiter);
    });
  }
}

/**
 * One websocket connection, messages queued as they arrive: text as strings, binary as
 * Uint8Array. `recv(timeout)` resolves to the next, or null after `timeout` seconds;
 * once the socket has closed and nothing is queued it rejects with its close reason.
 */
class Connection {
  constructor(ws) {
    this.ws = ws;
    this.queue = [];
    this.waiter = null;
    this.closed = null;   // {code, reason} once closed
    ws.addEventListener("message", (event) => {
      const data = typeof event.data === "string" ? event.data : new Uint8Array(event.data);
      if (this.waiter) this.waiter.resolve(data);
      else this.queue.push(data);
    });
    const closed = (code, reason) => {
      if (this.closed) return;
      this.closed = { code, reason };
      if (this.waiter) this.waiter.reject(closedError(this.closed));
    };
    ws.addEventListener("close", (event) => closed(event.code, event.reason || ""));
    // A failed connection fires "error" before "close"; some runtimes (node 20's) fire
    // no "close" at all then, so an error closes the connection here too.
    ws.addEventListener("error", () => closed(1006, ""));
  }

  recv(timeout) {
    if (this.queue.length) return Promise.resolve(this.queue.shift());
    if (this.closed) return Promise.reject(closedError(this.closed));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(null);
      }, timeout * 1000);
      const done = (f) => (value) => {
        clearTimeout(timer);
        this.waiter = null;
        f(value);
      };
      this.waiter = { resolve: done(resolve), reject: done(reject) };
    });
  }

  send(data) {
    if (this.ws.readyState === 1 && this.ws.bufferedAmount <= MAX_BUFFERED) this.ws.send(data);
  }
}

function closedError({ code, reason }) {
  const error = new Error(reason ? `connection closed (${reason.slice(0, 120)})`
    : `connection closed${code && code !== 1000 && code !== 1005 ? ` (code ${code})` : ""}`);
  error.name = "ConnectionClosed";
  return error;
}

/** A failed connection attempt in words (Python link.py `_why`, as far as a browser sees). */
function why(exc, known, relay) {
  const there = relay ? "the relay" : "the host";
  if (exc.name === "ConnectionRefused") {
    return known ? `could not connect (${there} is down or restarting)`
      : `could not connect (${there} refused, is down, or holds no such game: wrong `
        + "invitation?)";
  }
  if (exc.name === "TimeoutError") return "no answer (timed out)";
  if (exc instanceof EntryError || exc.name === "ConnectionClosed") return exc.message;
  return `unexpected ${exc.name} on the connection to ${there} (${exc.message})`.slice(0, 240);
}

/** What a connection attempt is expected to fail with; anything else is unforeseen. */
const FORESEEN = new Set(["ConnectionRefused", "TimeoutError", "ConnectionClosed"]);

/** Failures that trying again cannot mend: a relay that breaks 12.5's entry lines, or a
 * failure nobody foresaw (a bug here, or something of the other side's no check caught). */
const fatal = (exc) => exc instanceof EntryError || !FORESEEN.has(exc?.name);

/**
 * Connect to `url` and stay connected, reconnecting with capped backoff (12.3 "Links").
 *
 * `failFast` (a fresh game) gives up before first contact after FIRST_CONTACT_TRIES
 * attempts, or at once on a relay that breaks its entry lines; `recv` and
 * `waitConnected` then throw LinkError naming the reason. `onRetry(text)` hears of each
 * failed attempt; `label` names the other side in messages (default: the URL); `roomSeed`
 * is the relay room's key seed (12.5 "Room key").
 */
export class ClientLink extends Queued {
  /**
   * @param {string} url
   * @param {{failFast?: boolean, onRetry?: (text: string) => void, label?: string,
   *          roomSeed?: Uint8Array|null, WebSocket?: typeof WebSocket}} [options]
   */
  constructor(url, options = {}) {
    super();
    this.url = checkUrl(url);
    this.roomSeed = options.roomSeed ?? null;
    this.label = options.label || url;
    this.failFast = Boolean(options.failFast);
    this.onRetry = options.onRetry ?? null;
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    if (typeof this.WebSocket !== "function") {
      throw new LinkError("this runtime has no WebSocket (node: run with "
                          + "--experimental-websocket, or pass options.WebSocket)");
    }
    this.viaRelay = new URL(this.url).pathname.startsWith(RELAY_ROOMS);
    this.place = new Place();   // where this seat is in the relay room's numbering
    this.conn = null;
    this.connected = false;
    this.failure = null;
    this.closing = false;
    this.changed = [];
    this.task = null;
  }

  start() {
    this.task = this.run();
  }

  notify() {
    for (const resolve of this.changed.splice(0)) resolve();
    this.wake();
  }

  /** One connection: open it (within OPEN_TIMEOUT), enter the room if it is a relay's. */
  async connect() {
    const ws = new this.WebSocket(this.place.url(this.url));
    ws.binaryType = "arraybuffer";
    const conn = new Connection(ws);
    this.socket = ws;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(Object.assign(new Error("no answer (timed out)"), { name: "TimeoutError" }));
        ws.close();
      }, OPEN_TIMEOUT * 1000);
      ws.addEventListener("open", () => {
        clearTimeout(timer);
        resolve();
      });
      const failed = () => {
        clearTimeout(timer);
        reject(Object.assign(new Error("could not connect"), { name: "ConnectionRefused" }));
      };
      ws.addEventListener("close", failed);
      ws.addEventListener("error", failed);
    });
    if (this.viaRelay) {
      if (this.roomSeed === null) {
        throw new EntryError("this seat holds no key for its relay room");
      }
      await enter(conn, this.url, this.place, this.roomSeed, () => this.closing);
    }
    return conn;
  }

  async run() {
    let delay = 0.1;
    let tries = 0;
    let reached = false;
    while (!this.closing) {
      try {
        const conn = await this.connect();
        this.conn = conn;
        delay = 0.1;
        tries = 0;
        reached = true;
        this.connected = true;
        this.notify();
        for (;;) {
          const message = await conn.recv(3600);
          if (message === null) continue;
          if (message instanceof Uint8Array) {
            this.place.next += 1;
            this.put(message);
          }   // a text message after entry is no peer's: dropped
        }
      } catch (exc) {
        if (this.closing) break;
        tries += 1;
        const text = why(exc, reached || !this.failFast, this.viaRelay);
        if (this.failFast && !reached && (fatal(exc) || tries >= FIRST_CONTACT_TRIES)) {
          this.failure = new LinkError(`cannot connect to ${this.label}: ${text}`
                                       + (fatal(exc) ? "" : ` (${tries} tries)`));
          this.notify();
          return;
        }
        if (this.onRetry) this.onRetry(`${text}, retrying (${tries})`);
      } finally {
        this.conn = null;
        this.connected = false;
        if (this.socket && this.socket.readyState <= 1) this.socket.close();
      }
      await new Promise((resolve) => setTimeout(resolve, delay * 1000));
      delay = Math.min(delay * 2, 2.0);
    }
  }

  /** Until the first connection is up; throws LinkError if it never will be. */
  async waitConnected() {
    while (!this.connected) {
      if (this.failure) throw this.failure;
      if (this.closing) throw new LinkError(`the link to ${this.label} was closed`);
      await new Promise((resolve) => this.changed.push(resolve));
    }
  }

  /**
   * The next binary message, or null after `timeout` seconds; LinkError once the link has
   * given up and nothing is left to read.
   * @param {number} timeout seconds
   * @returns {Promise<Uint8Array|null>}
   */
  async recv(timeout) {
    if (this.failure && !this.inbox.length) throw this.failure;
    return super.recv(timeout);
  }

  /**
   * Send one binary message; lost if the connection is down (the protocol makes up for it).
   * @param {Uint8Array} message
   */
  async send(message) {
    if (this.conn) this.conn.send(message);
  }

  async close() {
    this.closing = true;
    if (this.socket && this.socket.readyState <= 1) this.socket.close(1000);
    this.notify();
  }
}

/**
 * One end of an in-process pair (`MemoryLink.pair()`), or a member of a group
 * (`MemoryLink.group(n)`) in which every message reaches every other member, as in a
 * relay room.
 */
export class MemoryLink extends Queued {
  constructor() {
    super();
    this.others = [];
  }

  static pair() {
    return MemoryLink.group(2);
  }

  static group(n) {
    const links = Array.from({ length: n }, () => new MemoryLink());
    for (const link of links) link.others = links.filter((other) => other !== link);
    return links;
  }

  async send(message) {
    for (const other of this.others) other.put(message);
  }

  async close() {
    for (const other of this.others) other.others = other.others.filter((o) => o !== this);
    this.others = [];
  }
}
