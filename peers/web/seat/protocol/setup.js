// The game setup and the game id (spec/08-wire.md 8.2), as protocol/setup.py.
//
// Before the first frame the seats agree on a setup: the protocol version, the rule set
// and its parameters, every seat's frame key in seat order, one fresh 32-byte nonce per
// seat and, from dealerless/3, the ciphersuite. The game id is the hash of its canonical
// encoding, so it binds all of these, and every frame and proof carries it.

import { asArray, asBytes, asInt, asList, asStr, pack, unpack } from "./canonical.js";
import { EncodingError, LocalError } from "./errors.js";
import { makeRules } from "./rules/index.js";
import { SUITE_NAMES, suite as suiteOf } from "./suite.js";
import { Tag } from "./tags.js";
import { PROTOCOL, checkVersion } from "./version.js";

/** The suite of every dealerless/2 game (spec/02-group.md 2.5). */
export const V2_SUITE = "edwards25519-sha512";
/** Item 0 of every setup (8.2). */
export const SETUP_MAGIC = "dealerless/setup";
/** A setup nonce's length (8.2). */
export const NONCE_BYTES = 32;
/** The largest setup (8.2). */
export const MAX_SETUP_BYTES = 4096;
/** The length of a frame key in each suite (8.2 rule 5, 8.3). */
const FRAME_KEY_BYTES = Object.freeze({
  "edwards25519-sha512": 32, "ristretto255-sha512": 32, "bls12381g1-sha256": 48,
});

const isParamValue = (v) => typeof v === "number" || typeof v === "bigint"
  || typeof v === "string" || typeof v === "boolean";

/** Code-point order of text keys, as Python's sorted() (8.1). */
export function compareText(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Two parameter values as Python compares them (an int is an int, Number or BigInt). */
function sameValue(a, b) {
  const num = (v) => typeof v === "number" || typeof v === "bigint";
  if (num(a) && num(b)) return BigInt(a) === BigInt(b);
  return typeof a === typeof b && a === b;
}

/** Entries of a params object or Map, sorted by key. */
function entriesOf(params) {
  const items = params instanceof Map ? [...params.entries()] : Object.entries(params);
  return items.sort((p, q) => compareText(p[0], q[0]));
}

function sameParams(a, b) {
  const x = entriesOf(a);
  const y = entriesOf(b);
  return x.length === y.length
    && x.every(([k, v], i) => k === y[i][0] && sameValue(v, y[i][1]));
}

function dict(entries) {
  const out = Object.create(null);
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** A setup (8.2): the rules, every parameter spelled out, the frame keys, the nonces. */
export class GameSetup {
  /**
   * `params` are [key, value] pairs sorted by key; throws LocalError (setup/..., rules/...)
   * for a setup that breaks 8.2 rules 8-11.
   */
  constructor(rules, params, identities, nonces, suiteName = V2_SUITE, version = PROTOCOL) {
    this.rules = rules;
    this.params = params.map(([k, v]) => [k, v]);
    this.identities = [...identities];
    this.nonces = [...nonces];
    this.suiteName = suiteName;
    this.version = version;
    Object.defineProperty(this, "_cache", { value: {}, enumerable: false });
    this._check();
    Object.freeze(this);
  }

  _check() {
    if ((this.version === 2 && this.suiteName !== V2_SUITE)
        || !SUITE_NAMES.includes(this.suiteName)) {
      throw new LocalError("setup/suite",
        `no suite '${this.suiteName}' in dealerless/${this.version}`);
    }
    const ruleset = this.ruleset; // validates the name and the parameters
    if (!sameParams(dict(this.params), ruleset.params)) {
      // One setup, one encoding: defaults are spelled out, never implied.
      throw new LocalError("setup/params", "the parameters must list every key, in full");
    }
    const k = ruleset.deal.seats;
    if (this.identities.length !== k || this.nonces.length !== k) {
      throw new LocalError("setup/seats", `${this.rules} needs ${k} identities and nonces`);
    }
    const distinct = new Set(this.identities.map((key) => Array.from(key).join(",")));
    if (distinct.size !== k) {
      throw new LocalError("setup/seats", "two seats have the same identity key");
    }
    const signer = this.suite.signer;
    for (const key of this.identities) {
      if (!(key instanceof Uint8Array) || key.length !== signer.keyBytes) {
        throw new LocalError("setup/identity",
          `a frame key of ${this.suiteName} is ${signer.keyBytes} bytes`);
      }
      try {
        signer.checkKey(key);
      } catch (exc) {
        if (!(exc instanceof EncodingError)) throw exc;
        throw new LocalError("setup/identity",
          `an identity key is no point of the prime-order group (${exc.code})`);
      }
    }
    for (const nonce of this.nonces) {
      if (!(nonce instanceof Uint8Array) || nonce.length !== NONCE_BYTES) {
        throw new LocalError("setup/nonce", "a setup nonce is 32 bytes");
      }
    }
  }

  /**
   * A setup with every parameter spelled out, defaults included, of a game in `inSuite`
   * (null: dealerless/2's edwards25519-sha512). `identities` are the seats' frame keys in
   * that suite (`Identity.frameKey`).
   */
  static create(rules, params, identities, nonces, inSuite = null) {
    const chosen = inSuite ?? suiteOf(V2_SUITE, 2);
    let full;
    try {
      full = makeRules(rules, params, chosen).params;
    } catch (exc) {
      if (exc instanceof EncodingError) throw new LocalError(exc.code, exc.detail);
      throw exc;
    }
    return new GameSetup(rules, entriesOf(full), identities, nonces, chosen.name,
      chosen.version);
  }

  /** The rule set with these parameters, in the game's suite. */
  get ruleset() {
    if (this._cache.ruleset === undefined) {
      try {
        this._cache.ruleset = makeRules(this.rules, dict(this.params), this.suite);
      } catch (exc) {
        if (exc instanceof EncodingError) throw new LocalError(exc.code, exc.detail);
        throw exc;
      }
    }
    return this._cache.ruleset;
  }

  /** The game's ciphersuite (3.5), at the setup's protocol version. */
  get suite() {
    return suiteOf(this.suiteName, this.version);
  }

  get seats() {
    return this.identities.length;
  }

  /** The canonical encoding of 8.2 (six items in dealerless/2, seven from 3). */
  encode() {
    if (this._cache.encoded === undefined) {
      const tail = this.version === 2 ? [] : [this.suiteName];
      this._cache.encoded = pack([SETUP_MAGIC, this.version, this.rules, dict(this.params),
        this.identities, this.nonces, ...tail]);
    }
    return this._cache.encoded;
  }

  /** H(GAME, setup bytes), first 32 bytes (8.2). */
  get gameId() {
    if (this._cache.gameId === undefined) {
      this._cache.gameId = this.suite.H(Tag.GAME, this.encode()).slice(0, 32);
    }
    return this._cache.gameId;
  }

  /** Strictly, in the order of 8.2's table; throws EncodingError. */
  static decode(data) {
    const obj = unpack(data, MAX_SETUP_BYTES);
    if (!Array.isArray(obj) || (obj.length !== 6 && obj.length !== 7)) {
      throw new EncodingError("schema/array",
        "setup: expected an array of 6 (dealerless/2) or 7");
    }
    if (obj[0] !== SETUP_MAGIC) throw new EncodingError("setup/version", "not a dealerless setup");
    const version = checkVersion(Number(asInt(obj[1], "setup version")), "setup");
    asArray(obj, version === 2 ? 6 : 7, `a setup of dealerless/${version}`);
    const name = version === 2 ? V2_SUITE : asStr(obj[6], "suite");
    if (!SUITE_NAMES.includes(name)) {
      throw new EncodingError("setup/suite", `no suite named '${name}'`);
    }
    // 8.2 rule 5 reads the frame keys at the suite's length before anything needs the
    // suite itself (the seat cannot build bls12381g1-sha256: libsodium has no BLS12-381).
    const keyBytes = FRAME_KEY_BYTES[name];
    const rules = asStr(obj[2], "setup rules");
    const params = obj[3];
    if (params === null || typeof params !== "object" || Array.isArray(params)
        || params instanceof Uint8Array || !Object.values(params).every(isParamValue)) {
      throw new EncodingError("setup/params", "parameters are a map of scalars");
    }
    const ids = asList(obj[4], "identities", 8).map((x) => asBytes(x, "identity key", keyBytes));
    const nonces = asList(obj[5], "nonces", 8).map((x) => asBytes(x, "setup nonce", NONCE_BYTES));
    asInt(ids.length, "seat count", 2, 8);
    try {
      return new GameSetup(rules, entriesOf(params), ids, nonces, name, version);
    } catch (exc) {
      if (exc instanceof LocalError) throw new EncodingError(exc.code, exc.detail);
      throw exc;
    }
  }

  get suite_name() { return this.suiteName; }
  get game_id() { return this.gameId; }
}
