/**
 * Starting a joiner's seat (spec/12-peers.md 12.3, 12.4, 12.5); mirrors what
 * peers/net/launch.py, the joiner's part of peers/net/handshake.py (its store) and
 * peers/net/announce.py do for a `join` and a `resume`:
 *
 * - `openJoin`: dial the invitation (entering its relay room with the room key);
 * - `handshake`: the joiner's handshake on that link (net/handshake.js), then the game's
 *   store, created before anything of the game is sent, with the seats' identity keys and
 *   bindings and what a resume needs (the invitation without its `#` part, the room
 *   seed); the joiner's record is erased only once the store holds the agreed nonce;
 * - `reopen`: a stored game's link again (the stored URL with the stored room seed; the
 *   link asks the relay for what it lacks with `?from=` whenever it reconnects);
 * - `joinGame` and `resumeGame`: a Peer (net/peer.js) started on either.
 * @module net/launch
 */

import { SYSTEM } from "../entropy.js";
import { bytesEqual, fromHex, toHex } from "../protocol/frames.js";
import { fingerprint, shortAuthString } from "../protocol/identity.js";
import { GameStore, StoreError } from "../store/games.js";
import { BINDINGS_META, KEYS_META, keysMeta } from "../store/seats.js";
import { SetupEvent, rulesText } from "../table/driver.js";
import { JOIN, PeerError } from "./config.js";
import { Handshake } from "./handshake.js";
import { checkInvitation, dialUrl } from "./invitation.js";
import { Joining, joinMeta, relayRoomSeed } from "./joining.js";
import { ClientLink, LinkError } from "./link.js";

/**
 * A seat's configuration with its defaults (peers/net/config.py PeerConfig, as a joiner
 * reads it). Times in seconds.
 * @typedef {object} PeerConfig
 * @property {string} [role] "join" (a browser seat never hosts)
 * @property {import("../protocol/identity.js").Identity} identity
 * @property {(view: import("../protocol/seat.js").SeatView) => Promise<*>} choose the move
 *   (deck games: one of `view.legal`), the orders (Mined Games COMMIT) or the seat named
 *   (Mined Games CHOOSE: one of `view.legal`)
 * @property {(event: object) => void} [notify] every table/driver.js event
 * @property {string|import("./config.js").Invitation} [invitation] the invitation
 *   `URL#PIN.SEAT.ROOM.SECRET` (required to sit down; a resume may go without)
 * @property {string|null} [suite] the suite to insist on; null plays the host's
 * @property {string} [suiteSaid] how this seat says so when the host plays another
 * @property {number} [moveTimeout] 300
 * @property {number} [syncInterval] 0.5
 * @property {number} [linger] 3
 * @property {Object<string, string>} [meta] more meta values for a new store (`bot`)
 * @property {(rules: string) => void} [offerCheck] throws PeerError to refuse rules
 * @property {(setup: object, store: object) => void} [onSetup] once a new game is stored
 * @property {(game: object, store: object) => void} [onGame] before the first view event
 *   of a run, new or resumed (the page learns the Game it draws)
 * @property {(key: Uint8Array) => string} [describeKey] an opponent's key for people
 *   (default: its fingerprint)
 * @property {{create: Function, open: Function}} [stores] where games are stored: the
 *   class or object with GameStore's static `create(setup, seat, seed, meta)` and
 *   `open(gameId)` (default: store/games.js, IndexedDB)
 * @property {Joining} [record] the joiner's handshake record taken up (net/joining.js);
 *   else `recordData` (its bytes, or null) with `saveRecord(bytes)` and `eraseRecord()`
 * @property {(label: string, n: number) => Uint8Array} [randomBytes] fresh bytes
 * @property {(text: string) => void} [log] what was ignored or dropped, and why (no secret
 *   is ever in it)
 */

/** `config` with every default filled in and the invitation read (PeerError if bad). */
export function peerConfig(config) {
  if (config.normalized) return config;
  const cfg = { role: JOIN, notify: () => {}, suite: null, suiteSaid: undefined,
    moveTimeout: 300.0, syncInterval: 0.5, linger: 3.0, meta: {}, offerCheck: null,
    onSetup: null, onGame: null, describeKey: fingerprint, stores: GameStore,
    record: null, recordData: null, saveRecord: null, eraseRecord: null,
    randomBytes: (label, n) => SYSTEM.bytes(label, n), log: () => {}, ...config,
    normalized: true };
  if (cfg.role !== JOIN) throw new PeerError("a browser seat joins a table; it does not host one");
  if (typeof cfg.choose !== "function") throw new TypeError("a seat needs config.choose");
  if (typeof cfg.invitation === "string") {
    cfg.invitationUrl = cfg.invitation;
    cfg.invitation = checkInvitation(cfg.invitation);
  }
  return cfg;
}

/**
 * The joiner's handshake on `link` (12.3), then its game's store (12.4), which
 * `stored(store)` hears of at once (from then on there is a game to resume). Emits the
 * SetupEvent and calls `onSetup`. PeerError when the handshake ends for good.
 */
export async function handshake(link, cfg, answers, stored) {
  if (!cfg.invitation) throw new PeerError("a networked seat needs its table's invitation (12.3)");
  const me = cfg.identity.publicKey;
  const record = cfg.record ?? Joining.takeUp(cfg.recordData, me, {
    randomBytes: (n) => cfg.randomBytes("joining", n), save: cfg.saveRecord });
  // The handshake erases its record at the reveal; this seat erases it only once the store
  // holds the agreed nonce, so that a page closed in between keeps its seat (12.3).
  const erase = record.erase ?? cfg.eraseRecord;
  record.erase = null;
  const removed = async () => { if (erase) await erase(); };
  let agreed;
  try {
    agreed = await new Handshake(link, { identity: cfg.identity, invitation: cfg.invitation,
      record, randomBytes: (n) => cfg.randomBytes("handshake", n), suite: cfg.suite,
      suiteSaid: cfg.suiteSaid, moveTimeout: cfg.moveTimeout, syncInterval: cfg.syncInterval,
      offerCheck: cfg.offerCheck, log: cfg.log }).run();
  } catch (exc) {
    if (exc instanceof PeerError) await removed();   // over for good
    throw exc;
  }
  const store = await createStore(cfg, agreed.setup, agreed.seat, agreed.roster);
  stored(store);
  await removed();   // the nonce is in the game's store now
  announce(cfg, agreed.setup, store, agreed.roster.keys);
  if (cfg.onSetup) cfg.onSetup(agreed.setup, store);
  return store;
}

/** The game's store, with the roster's keys and bindings and what a resume needs. */
async function createStore(cfg, setup, seat, roster) {
  const meta = { role: cfg.role, ...(cfg.invitationUrl ? joinMeta(cfg.invitationUrl) : {}),
    ...cfg.meta, [KEYS_META]: keysMeta(roster.keys), [BINDINGS_META]: keysMeta(roster.bindings) };
  // Where to dial; never the pin and secrets after its '#' (12.4).
  if ("url" in meta) meta.url = dialUrl(meta.url);
  try {
    return await cfg.stores.create(setup, seat, cfg.randomBytes("secret seed", 32), meta);
  } catch (exc) {
    if (!(exc instanceof StoreError) || exc.code !== "store/exists") throw exc;
    // A join run again after its store was made, before its record was erased: the game
    // is this seat's own, and goes on from what it stored.
    const store = await cfg.stores.open(setup.gameId);
    if (!bytesEqual(store.setup.encode(), setup.encode()) || store.seat !== seat) {
      store.close();
      throw exc;
    }
    return store;
  }
}

/** The SetupEvent (peers/net/announce.py): the opponents' keys and the SAS to compare. */
function announce(cfg, setup, store, keys) {
  const others = [...Array(setup.seats).keys()].filter((s) => s !== store.seat);
  const opponent = setup.seats === 2 ? cfg.describeKey(keys[others[0]])
    : others.map((s) => `seat ${s}: ${cfg.describeKey(keys[s])}`).join("; ");
  cfg.notify(SetupEvent(toHex(setup.gameId), store.seat, rulesText(setup), opponent,
    shortAuthString(setup.gameId), setup.seats, setup.suiteName));
}

/**
 * A joiner's link to the table `invitation` names (peers/net/launch.py open_join): a
 * wrong or dead invitation fails here (InvitationError, LinkError), before anything
 * waits. A join of a table this key's record says it reached before (`joinedBefore`)
 * keeps trying for up to `timeout` seconds instead: the relay or host may be restarting.
 * @param {string} invitation
 * @param {{onRetry?: (text: string) => void, joinedBefore?: boolean, timeout?: number,
 *          WebSocket?: typeof WebSocket}} [options]
 * @returns {Promise<ClientLink>}
 */
export async function openJoin(invitation, options = {}) {
  const inv = checkInvitation(invitation);
  const back = Boolean(options.joinedBefore);
  let last = "";
  const link = new ClientLink(dialUrl(invitation), { failFast: !back, WebSocket: options.WebSocket,
    roomSeed: relayRoomSeed(invitation, inv.room),
    onRetry: (text) => { last = text; if (options.onRetry) options.onRetry(text); } });
  link.start();
  if (!back) {
    try {
      await link.waitConnected();
    } catch (exc) {
      await link.close();
      throw exc;
    }
    return link;
  }
  const timeout = options.timeout ?? 300;
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, timeout * 1000, "late"); });
  try {
    if (await Promise.race([link.waitConnected(), late]) === "late") {
      await link.close();
      const why = last.replace(/, retrying \(\d+\)$/, "") || "no answer";
      throw new LinkError(`cannot connect to ${dialUrl(invitation)}: ${why}; gave up after `
        + `${timeout.toFixed(0)} s (the move timeout); joining with this invitation again takes `
        + "the handshake up again");
    }
  } finally {
    clearTimeout(timer);
  }
  return link;
}

/**
 * A stored game's link again (peers/net/launch.py reopen): the stored URL, entered with the
 * stored room seed, redialled without giving up (the other side may be on its way back).
 * @param {{meta: (key: string) => Promise<string>}} store
 * @param {{onRetry?: (text: string) => void, WebSocket?: typeof WebSocket}} [options]
 */
export async function reopen(store, options = {}) {
  const stored = await store.meta("url");
  if (!stored) throw new PeerError(`game ${store.name} stored no URL to reconnect to`);
  const kept = await store.meta("room_seed");
  const seed = /^[0-9a-f]{64}$/.test(kept) ? fromHex(kept) : null;
  const link = new ClientLink(dialUrl(stored), { onRetry: options.onRetry, roomSeed: seed,
    WebSocket: options.WebSocket });
  link.start();
  return link;
}

/**
 * Join a table from its invitation: dial it, then run a Peer (handshake, store, game).
 * Resolves to `{peer, done}` once the link is up: `done` is `peer.run()`'s promise (the
 * PeerResult, or null after `peer.stop()`).
 * @param {string} invitation
 * @param {PeerConfig & {onRetry?: Function, joinedBefore?: boolean, WebSocket?: Function}} config
 *   (`joinedBefore` defaults to whether a record is given)
 */
export async function joinGame(invitation, config) {
  const { Peer } = await import("./peer.js");
  // A join whose record is kept reached the table before: it keeps trying (launch.py).
  const joinedBefore = config.joinedBefore ?? Boolean(config.record || config.recordData);
  const link = await openJoin(invitation, { onRetry: config.onRetry, WebSocket: config.WebSocket,
    joinedBefore, timeout: config.moveTimeout });
  const peer = new Peer(link, { ...config, invitation });
  return { peer, done: peer.run() };
}

/**
 * Resume a stored game (12.4): the position at once, then the game from where it stood.
 * A game already over reports its verdict and connects to nobody (`done` resolves to its
 * PeerResult at once; `peer` is null then).
 * @param {object} store an open store (store/games.js GameStore.open, or the same API)
 * @param {PeerConfig & {onRetry?: Function, WebSocket?: Function}} config
 */
export async function resumeGame(store, config) {
  const { Peer, PeerResult } = await import("./peer.js");
  const { replay } = await import("../protocol/verifier.js");
  const data = await store.exportTranscript();
  const over = replay(data);
  if (over.complete || !over.valid) {
    return { peer: null, done: Promise.resolve(new PeerResult(over, store.name,
      "the game is already over; nothing to resume (export its transcript)")) };
  }
  const link = await reopen(store, { onRetry: config.onRetry, WebSocket: config.WebSocket });
  const peer = new Peer(link, config, store);
  return { peer, done: peer.run() };
}
