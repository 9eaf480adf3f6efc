// A stage's sealed commitments: whom a seal is for, what it holds, and how the table
// opens it (spec/10-session.md 10.8, built on spec/06-proofs.md 6.6).
//
// A seat's COMMIT is a seal of the fixed-length plaintext
// pad(msgpack([orders, nonce]), PLAINTEXT_BYTES) for the seal's holders: every other
// seat with a share key. The seal's context binds the game, the stage, the committer and
// the holders' keys. The committer opens it with the seal secret s (OPEN); without it, a
// majority of the holders opens it with their decryption shares (ABSENT). Decryption is
// deterministic, so both ways give the same plaintext, and a plaintext that does not
// decode is the committer's fault.
import { pack, unpack } from "./canonical.js";
import { EncodingError, SealError } from "./errors.js";
import { bytesEqual } from "./groups/base.js";
import { Seal, sealContext, sealThreshold, unpad } from "./seal.js";

/** Every sealed plaintext is this long (10.8): u16 length, msgpack([orders, nonce]) of at
 * most 128 + 35 bytes, zeros. Fixed, so a ciphertext's length tells nothing of the orders. */
export const PLAINTEXT_BYTES = 192;
export const NONCE_BYTES = 32;
/** Orders are at most this many bytes of msgpack (10.8). */
export const MAX_ORDERS_BYTES = 128;

const isBytes = (x) => x instanceof Uint8Array;

/** The context of `seat`'s seal in `stage` (10.8): its holders are every other seat with
 * a share key (`keys[s]`, bytes, or null for none), in seat order. The keys were checked
 * when they were sent. */
export function holdersContext(suite, gameId, stage, seat, keys) {
  const recipients = [];
  keys.forEach((y, s) => {
    if (s !== seat && y !== null && y !== undefined) recipients.push([s, suite.decodePoint(y)]);
  });
  return sealContext(suite, gameId, stage, seat, recipients);
}

/** A COMMIT body's seal, strictly (6.6.5); SealError blames the committer. */
export function decodeSeal(value, ctx) {
  return Seal.decode(value, ctx, PLAINTEXT_BYTES);
}

/** A seal kept in the rules' state as its msgpack bytes (rules/mined-games.md 9). */
export function storedSeal(data, ctx) {
  let value;
  try {
    value = unpack(data, data.length);
  } catch (exc) {
    if (exc instanceof EncodingError) throw new SealError(exc.code, exc.detail, ctx.committer);
    throw exc;
  }
  return decodeSeal(value, ctx);
}

/**
 * Throw RangeError (the Python's ValueError) unless `data` is the msgpack of a seal's
 * shape for this many holders: a state's stored seal (rules/mined-games.md 9). Its points
 * and proofs were checked when it was sent; a forged state is refused by shape here and
 * cannot crash a later step.
 */
export function checkSealBytes(suite, data, holders) {
  let value;
  try {
    value = unpack(data, data.length);
  } catch (exc) {
    if (!(exc instanceof EncodingError)) throw exc;
    throw new RangeError(`a stored seal is not msgpack: ${exc.detail}`);
  }
  const t = sealThreshold(holders);
  const shares = holders >= 2 ? holders : 0;
  const sizes = [suite.pointBytes, suite.scalarBytes, suite.scalarBytes];
  const ok = Array.isArray(value) && value.length === 3 && Array.isArray(value[0])
    && value[0].length === t && Array.isArray(value[1]) && value[1].length === shares
    && isBytes(value[2]) && value[2].length === PLAINTEXT_BYTES
    && value[0].every((c) => isBytes(c) && c.length === suite.pointBytes)
    && value[1].every((e) => Array.isArray(e) && e.length === 3
      && e.every((b, i) => isBytes(b) && b.length === sizes[i]))
    && bytesEqual(pack(value), data);
  if (!ok) throw new RangeError("a stored seal has the shape of 6.6.5 for its holders");
}

/** What a seat seals (10.8): msgpack([orders, nonce]), to be padded. */
export function sealedPlaintext(orders, nonce) {
  return pack([orders, nonce]);
}

/**
 * [orders, nonce] from an opened seal, strictly: SealError blames the committer for
 * padding that does not unpad (`seal/padding`), bytes that are not canonical msgpack of
 * [orders, 32-byte nonce], or orders longer than 128 bytes (`open/plaintext`) (10.8).
 */
export function readPlaintext(padded, committer) {
  const data = unpad(padded, committer);
  let value;
  try {
    value = unpack(data, data.length);
  } catch (exc) {
    if (!(exc instanceof EncodingError)) throw exc;
    throw new SealError("open/plaintext", `seat ${committer}'s sealed plaintext is not `
      + `canonical msgpack (${exc.code})`, committer);
  }
  if (!(Array.isArray(value) && value.length === 2 && isBytes(value[1])
      && value[1].length === NONCE_BYTES)) {
    throw new SealError("open/plaintext", `seat ${committer}'s sealed plaintext is not `
      + "[orders, 32-byte nonce]", committer);
  }
  const [orders, nonce] = value;
  if (pack(orders).length > MAX_ORDERS_BYTES) {
    throw new SealError("open/plaintext", `seat ${committer}'s sealed orders take more than `
      + `${MAX_ORDERS_BYTES} bytes`, committer);
  }
  return [orders, nonce];
}

/** The seat a seal check blames: a SealError names its own, else `fallback`. */
export function blamed(exc, fallback) {
  return exc instanceof SealError ? exc.seat : fallback;
}
