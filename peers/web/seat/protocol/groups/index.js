/**
 * The prime-order groups a ciphersuite is built on (spec/02-group.md 2.5); mirrors
 * protocol/groups/__init__.py. `group(name)` returns the one object of that group.
 * `bls12381g1` is named (a setup may name its suite) but not built: libsodium has no
 * BLS12-381, so asking for it throws a LocalError `group/unsupported`.
 * @module protocol/groups
 */
import { LocalError } from "../errors.js";
import { Element, Group, HashedGroup } from "./base.js";
import { GROUP as EDWARDS25519 } from "./edwards25519.js";
import { GROUP as RISTRETTO255 } from "./ristretto255.js";

export { Element, Group, HashedGroup };

/** Group name -> the module that builds it in the Python (its `GROUP`). */
export const GROUPS = Object.freeze({
  edwards25519: "edwards25519", ristretto255: "ristretto255", bls12381g1: "bls12381_g1",
});

const BUILT = { edwards25519: EDWARDS25519, ristretto255: RISTRETTO255 };

/**
 * The group called `name`. An unknown name throws LocalError `group/unknown` (the
 * Python's KeyError); `bls12381g1` throws `group/unsupported`.
 * @param {string} name
 * @returns {Group}
 */
export function group(name) {
  if (Object.hasOwn(BUILT, name)) return BUILT[name];
  if (name === "bls12381g1") {
    throw new LocalError("group/unsupported",
      "bls12381g1 is not available in the browser seat: libsodium has no BLS12-381");
  }
  throw new LocalError("group/unknown", `no group called ${name}`);
}
