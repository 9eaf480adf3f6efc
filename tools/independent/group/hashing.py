"""Hashing (spec/03-hashing.md 3): tags, H, H_scalar, hash to point, hedged nonces.

H2P uses libsodium's crypto_core_ed25519_from_uniform (3.3); from_uniform_spec is 3.3's
pseudocode line by line in pure Python, to check libsodium against it.
"""

from __future__ import annotations

import hashlib

from nacl import bindings as nb

from independent.errors import fail
from independent.group.curve import SQRT_M1, D, L, P, encode, pt_mul
from independent.group.ops import IDENT, lp, u64

TAGS = {
    "TILE": "dealerless/h2p/tile",
    "GENERATOR": "dealerless/h2p/generator",
    "SCHNORR": "dealerless/challenge/schnorr",
    "DLEQ": "dealerless/challenge/dleq",
    "CANNOT_PLAY": "dealerless/challenge/cannot-play",
    "SHUFFLE_U": "dealerless/challenge/shuffle-u",
    "SHUFFLE_C": "dealerless/challenge/shuffle-c",
    "NONCE": "dealerless/nonce",
    "SHUFFLE_WITNESS": "dealerless/shuffle-witness",
    "CONTEXT": "dealerless/context",
    "GAME": "dealerless/game-id",
    "FRAME": "dealerless/frame",
    "STATE": "dealerless/state",
    "COMMIT": "dealerless/first-player-commit",
    "FIRST_PLAYER": "dealerless/first-player",
    "KEY_SHARE": "dealerless/key-share",
    "SAS": "dealerless/short-auth-string",
    "HELLO_COMMIT": "dealerless/hello-commit",
    "MINED_NONCE": "dealerless/mined/nonce",
    "MINED_MAP_SEED": "dealerless/mined/map-seed",
    "MINED_MAP": "dealerless/mined/map",
    "MINED_TIE": "dealerless/mined/tie",
    "SEAL_GENERATOR": "dealerless/h2p/seal",
    "SEAL_KEY": "dealerless/seal/key",
    "SEAL_KEY_PROOF": "dealerless/challenge/seal-key",
    "SEAL_CONTEXT": "dealerless/seal/context",
    "SEAL_COEFF": "dealerless/seal/coefficient",
    "SEAL_SHARE": "dealerless/challenge/seal-share",
    "SEAL_DECRYPT": "dealerless/challenge/seal-decrypt",
    "SEAL_STREAM": "dealerless/seal/stream",
    "HOST_PIN": "dealerless/host-pin",
    "INVITE_ROOM": "dealerless/invitation/room",
    "INVITE_SEAT": "dealerless/invitation/seat",
    "PAKE_GENERATOR": "dealerless/h2p/pake",
    "PAKE_KEY": "dealerless/pake/key",
    "PAKE_CONFIRM": "dealerless/pake/confirm",
    "RELAY_WORK": "dealerless/relay/work",
    "RELAY_ROOM_KEY": "dealerless/relay/room-key",
    "RELAY_ENTRY": "dealerless/relay/entry",
}
T = {k: v.encode() for k, v in TAGS.items()}


def H(tag: bytes | str, *parts: bytes) -> bytes:
    """3.1: SHA-512(lp("dealerless/2") || lp(tag) || lp(part_1) || ...); `tag` is the
    tag's bytes or its name in TAGS."""
    if isinstance(tag, str):
        tag = T[tag]
    if tag.decode() not in TAGS.values():
        fail("hash/untagged")
    return hashlib.sha512(b"".join(lp(x) for x in (b"dealerless/2", tag, *parts))).digest()


def H_scalar(tag: bytes | str, *parts: bytes) -> int:
    return int.from_bytes(H(tag, *parts), "little") % L  # 3.3


MONT_A = 486662


def from_uniform_spec(r: bytes) -> bytes:
    """3.3 "from_uniform, exactly", line by line, with no library."""
    sign = r[31] >> 7
    t = int.from_bytes(r[:31] + bytes([r[31] & 0x7F]), "little") % P
    u = -MONT_A * pow(1 + 2 * t * t, P - 2, P) % P
    e = (u**3 + MONT_A * u * u + u) % P
    if pow(e, (P - 1) // 2, P) == P - 1:
        u = (-u - MONT_A) % P
    y = (u - 1) * pow(u + 1, P - 2, P) % P
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)  # square root as in RFC 8032 5.1.3
    if x * x % P != x2:
        x = x * SQRT_M1 % P
    if x * x % P != x2:
        fail("h2p/no-root")  # cannot happen (3.3)
    if x % 2 != sign:
        x = P - x
    return encode(pt_mul(8, (x, y, 1, x * y % P)))  # clear the cofactor: three doublings


def H2P(tag: bytes, *parts: bytes) -> bytes:
    pt = nb.crypto_core_ed25519_from_uniform(H(tag, *parts)[:32])  # 3.3
    if pt == IDENT:
        fail("h2p/identity")
    return pt


def nonce(label: bytes, secret: bytes, public: bytes, fresh: bytes, j: int) -> int:
    """3.4 hedged nonce k_j."""
    if len(fresh) < 32:
        fail("nonce/fresh-too-short")
    return H_scalar(T["NONCE"], label, secret, public, fresh, u64(j))
