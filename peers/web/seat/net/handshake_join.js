/**
 * A joiner's side of the handshake (spec/12-peers.md 12.3 "Handshake: commit, roster,
 * open, reveal"); mirrors peers/net/handshake_join.py: answer the host the invitation
 * pins, open its nonce for the roster that seats it, check the reveal.
 *
 * Only messages signed by the pinned host key are obeyed; anything else is ignored, and
 * kept only to say at the timeout why no host was found.
 * @module net/handshake_join
 */

import { asArray, asBytes, asList } from "../protocol/canonical.js";
import { DealerlessError, EncodingError } from "../protocol/errors.js";
import {
  bindFrameKey, checkSignature, hostPin, pakeConfirm, pakeScalar, pakeShare,
} from "../protocol/handshake_auth.js";
import { GameSetup, NONCE_BYTES } from "../protocol/setup.js";
import { HOST, JOIN, MAX_SEATS, PeerError } from "./config.js";
import {
  bytesEqual, helloCommitment, joinSuiteRefusal, otherVersion, parseMessage, PROTOCOL_VERSION,
  readOffer, readRoster, REFUSALS, tableSuiteNamed,
} from "./messages.js";
import { Backoff, monotonic } from "./pacing.js";

const EMPTY = new Uint8Array(0);

/**
 * A message a joiner ignores before its signature is checked: `check` is `pin` (the key
 * it names is not the pinned one) or `version` (a host hello of another peer protocol);
 * the message is what the joiner says at its timeout if nothing better came.
 */
export class NotFromHost extends Error {
  /** @param {string} check @param {string} text */
  constructor(check, text) {
    super(text);
    this.name = "NotFromHost";
    this.check = check;
  }
}

/**
 * The body of the host's message `obj`, which names `key` as its signer, checked in
 * 12.3's order ("The order of checks"): the pin of `key`, then a hello's version (item
 * 1), then the signature. NotFromHost for the first two, SignatureError
 * (handshake/bad-signature) for the third.
 * @param {Array} obj
 * @param {*} key
 * @param {import("./config.js").Invitation} inv
 * @returns {Array}
 */
export function fromPinnedHost(obj, key, inv) {
  if (!(key instanceof Uint8Array) || !bytesEqual(hostPin(key), inv.pin)) {
    throw new NotFromHost("pin", "a host whose identity key is not the one the invitation "
      + "pins answered (someone in the middle, or an invitation for another table)");
  }
  const refused = otherVersion(obj);
  if (refused && obj[0] === "hello") throw new NotFromHost("version", refused);
  return checkSignature(key, inv.rid, obj);
}

/**
 * The joiner's half of net/handshake.js's Handshake, which sets up `link`, `cfg`, `inv`,
 * `cap` and `signed(body)` (async: a WebCrypto key signs so). `cfg.record` is the joiner's
 * record (net/joining.js Joining): its nonce, and the host hello and roster it answers,
 * written down before a hello or an open that commits to them leaves.
 */
export class JoinerSide {
  /**
   * Run the joiner's handshake until the reveal: the agreed setup, this seat, the roster
   * and the host's offer. PeerError when it ends for good.
   * @param {number} deadline on the monotonic clock (net/pacing.js), seconds
   */
  async join(deadline) {
    const kept = this.cfg.record;
    try {
      const agreed = await this.joining(deadline, kept);
      await kept.remove();   // the nonce is in the agreed setup now
      return agreed;
    } catch (exc) {
      if (exc instanceof PeerError) await kept.remove();   // over for good
      throw exc;
    }
  }

  async joining(deadline, kept) {
    const { cfg, inv } = this;
    const me = cfg.identity.publicKey;
    let offer = kept.offer === null ? null : kept.offered();
    if (offer !== null) this.checkOffer(offer);
    let roster = kept.roster === null ? null : kept.seated();   // opened for: only it
    await kept.keep();   // before a hello commits to its nonce
    const repeat = new Backoff(cfg.syncInterval, this.cap);
    const fresh = cfg.randomBytes(32);   // this run's key-exchange scalar, hedged (12.3)
    // 3.4 hedges the scalar with the identity's seed. A key kept in WebCrypto
    // (keys/identity_key.js) does not give its seed out: the scalar is then hedged with
    // 32 more fresh bytes of this run instead. Nobody else ever sees the scalar, so the
    // host cannot tell, and the exchange is the same.
    const hedge = cfg.identity.seed === undefined ? { seed: cfg.randomBytes(32) } : cfg.identity;
    this.stranger = "";
    const frameKeys = new Map();

    /** This seat's frame key in the suite of the host's offer, and its binding (12.3). */
    const frameKey = (seen) => {
      if (!frameKeys.has(seen.suite)) {
        const played = tableSuiteNamed(seen.suite);
        frameKeys.set(seen.suite, [cfg.identity.frameKey(played),
          bindFrameKey(cfg.identity, played, inv.rid, inv.seat)]);
      }
      return frameKeys.get(seen.suite);
    };

    const hello = async () => {
      const commitment = helloCommitment(kept.nonce);
      if (offer === null) {   // the suite it was asked for, or "" for the host's
        return this.signed(["hello", PROTOCOL_VERSION, JOIN, me, commitment, inv.seat, EMPTY,
          EMPTY, EMPTY, cfg.suite ?? "", EMPTY, EMPTY]);
      }
      const y = pakeScalar(hedge, inv.rid, commitment, inv.seat, fresh);
      const share = pakeShare(inv.secret, inv.rid, y);
      const hostShare = offer.share(inv.seat);
      const confirm = pakeConfirm(inv.rid, inv.seat, y, hostShare, share, hostShare, me,
                                  commitment, offer.commitment);
      return this.signed(["hello", PROTOCOL_VERSION, JOIN, me, commitment, inv.seat,
        offer.commitment, share, confirm, offer.suite, ...frameKey(offer)]);
    };

    for (;;) {
      const now = monotonic();
      if (now >= deadline) throw new PeerError(this.joinGaveUp(offer, roster));
      if (repeat.due(now)) {
        await this.link.send(roster !== null ? await this.signed(["open", me, kept.nonce])
          : await hello());
      }
      const message = await this.link.recv(Math.min(repeat.left(now),
                                                    Math.max(deadline - now, 0.01)));
      const obj = message ? parseMessage(message) : null;
      if (obj === null) continue;
      try {
        const kind = obj[0];
        if (kind === "hello" && obj.length > 3 && obj[2] === HOST) {
          const body = this.fromHost(obj, obj[3]);
          if (body === null) continue;
          const seen = readOffer(body);
          if (bytesEqual(seen.key, me)) {
            throw new PeerError("this game's host uses your identity key: join with another "
                                + "one");
          }
          this.checkOffer(seen);
          if (inv.seat >= seen.seats) {
            throw new PeerError(`this invitation is for seat ${inv.seat}, but the host's `
              + `table has ${seen.seats} seats (0 to ${seen.seats - 1}): it is not an `
              + "invitation to this table");
          }
          if (offer === null || seen.round > offer.round) {
            if (roster !== null) {   // a new round: our opened nonce is spent
              kept.nonce = cfg.randomBytes(NONCE_BYTES);
              kept.roster = null;
              roster = null;
            }
            offer = seen;
            kept.offer = message;
            await kept.keep();   // then answer at once
            repeat.reset();
          }
        } else if (kind === "roster" && offer !== null && roster === null) {
          const seated = readRoster(checkSignature(offer.key, inv.rid, obj), offer);
          const seat = seated.seatOf(me);
          if (seat >= 0) {
            this.checkSeat(seated, seat, offer, kept, frameKey);
            roster = seated;
            kept.roster = message;
            await kept.keep();   // then open at once
            repeat.reset();
          }   // else the table is full, or a new round may seat us: wait and see
        } else if (kind === "reveal" && roster !== null && offer !== null) {
          const [, opened] = asArray(checkSignature(offer.key, inv.rid, obj), 2, "reveal");
          const nonces = asList(opened, "nonces", MAX_SEATS)
            .map((n) => asBytes(n, "nonce", NONCE_BYTES));
          if (nonces.length !== roster.keys.length
              || nonces.some((n, i) => !bytesEqual(helloCommitment(n), roster.commitments[i]))) {
            throw new EncodingError("reveal/open", "the nonces do not open the roster's "
                                    + "commitments");
          }
          const setup = GameSetup.create(offer.rules, { ...offer.params }, [...roster.frameKeys],
                                         nonces, tableSuiteNamed(offer.suite));
          return { setup, seat: roster.seatOf(me), roster, offer, nonce: kept.nonce };
        } else if (kind === "refuse" && obj.length === 6 && obj[2] instanceof Uint8Array
                   && bytesEqual(obj[2], me) && roster === null) {
          const body = this.fromHost(obj, obj[1]);
          if (body === null) continue;
          const [, , , reason, seats] = body;
          const text = typeof reason === "string" ? REFUSALS[reason] : undefined;
          const k = typeof seats === "number" && Number.isInteger(seats) ? seats : "";
          throw new PeerError((text ?? "the host refused: {reason}")
            .replaceAll("{seats}", String(k)).replaceAll("{reason}", String(reason).slice(0, 80)));
        }
      } catch (exc) {
        if (!(exc instanceof DealerlessError || exc instanceof TypeError
              || exc instanceof RangeError)) throw exc;
        this.log(`ignored a bad handshake message: ${exc.message}`);
      }
    }
  }

  /** 12.3 step 4: our seat, our commitment, our frame key, then every seat's binding. */
  checkSeat(seated, seat, offer, kept, frameKey) {
    const inv = this.inv;
    if (seat !== inv.seat) {
      throw new EncodingError("roster/seat", `the roster puts us at seat ${seat}, not ${inv.seat}`);
    }
    if (!bytesEqual(seated.commitments[seat], helloCommitment(kept.nonce))) {
      throw new PeerError(`seat ${seat} of this game went to another join with your identity `
                          + "key; one key takes one seat");
    }
    if (!bytesEqual(seated.frameKeys[seat], frameKey(offer)[0])) {
      throw new PeerError(`the host's roster gives seat ${seat} (this seat) a frame key other `
        + `than this seat's own in ${offer.suite} (12.3 step 4, roster/frame-key); no game `
        + "was started");
    }
    try {
      seated.checkBindings(inv.rid, offer.suite);
    } catch (exc) {
      if (!(exc instanceof EncodingError)) throw exc;
      throw new PeerError("the host's roster pairs a seat's identity key with a frame key "
        + `that seat did not bind to it (12.3 step 4, ${exc.code}: ${exc.detail}); the host `
        + "may be misleading this seat about who sits at the table; no game was started");
    }
  }

  /**
   * PeerError if this seat will not play the host's offer: another suite than the one it
   * was asked for (12.3), one it cannot build (bls12381g1-sha256: libsodium has no
   * BLS12-381), or rules its page cannot show (`cfg.offerCheck`).
   */
  checkOffer(offer) {
    const asked = this.cfg.suite;
    if (asked !== null && asked !== undefined && offer.suite !== asked) {
      throw new PeerError(joinSuiteRefusal(offer.suite, asked, this.cfg.suiteSaid));
    }
    try {
      tableSuiteNamed(offer.suite);
    } catch (exc) {
      if (!(exc instanceof DealerlessError)) throw exc;
      throw new PeerError(`the host plays ${offer.suite}, which this seat cannot play `
                          + `(${exc.detail || exc.message}); no game was started`);
    }
    if (this.cfg.offerCheck) this.cfg.offerCheck(offer.rules);
  }

  /** The body of a message signed by the pinned host, else null (ignored, never obeyed;
   * why is kept for the timeout's sentence). */
  fromHost(obj, key) {
    try {
      return fromPinnedHost(obj, key, this.inv);
    } catch (exc) {
      if (!(exc instanceof NotFromHost)) throw exc;
      this.stranger = exc.message;
      return null;
    }
  }

  joinGaveUp(offer, roster) {
    const within = `within ${this.cfg.moveTimeout.toFixed(0)} s`;
    if (offer === null) {
      return `no host answered ${within}${this.stranger ? `; ${this.stranger}` : ""}`;
    }
    if (roster === null) {
      return `the host did not fill its table of ${offer.seats} ${within}; no game was started`;
    }
    return `the game did not start ${within}: the host, or another player who took a seat, `
      + "did not finish the handshake; no game was started";
  }
}
