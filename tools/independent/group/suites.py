"""The ciphersuites: a group, a hash and a context per suite and version (spec/03-hashing.md
3.5, spec/02-group.md 2.5).

    H(tag, part_1, ..., part_n) = HASH(lp(context) || lp(tag) || lp(part_1) || ...)

| suite                 | group        | HASH    | context (version 3)                |
| edwards25519-sha512   | edwards25519 | SHA-512 | dealerless/3/edwards25519-sha512   |
| ristretto255-sha512   | ristretto255 | SHA-512 | dealerless/3/ristretto255-sha512   |
| bls12381g1-sha256     | bls12381g1   | SHA-256 | dealerless/3/bls12381g1-sha256     |

Version 2 is edwards25519-sha512 with the context "dealerless/2" (3.1, 3.3, 3.4): there
`suite("edwards25519-sha512", 2)` gives exactly group.hashing's H, H_scalar, H2P and nonce.

[S1] 3.5 names the contexts of dealerless/3 only; this module knows versions 2 and 3, and
     any other is version/unsupported (as is a suite other than edwards25519-sha512 at 2).
[S2] 3.5 "Hash to a scalar" uses `DST || "-scalar"` before it defines DST; DST is read as
     the suite's hash-to-group DST of the next paragraph, "dealerless-V" || decimal(version)
     || "-" || the RFC 9380 suite identifier.
[S3] Every tag must be one of 3.2's table (hash/untagged), as group.hashing; at version 3 the
     table has 3.5's six more ("Tags of dealerless/3"): FRAME_KEY and FRAME_SIGNATURE (2.6),
     DLEQ_SEED, DLEQ_WEIGHT and DLEQ_BATCH (6.3.1), SHUFFLE_WEIGHT (7.5.1).

Each suite also gives its group's operations on encodings (`ops`, group.encoded), the
frame key's length and the frame signature's prefix (8.2, 8.3). PRE_GAME is the suite of
what seats hash before a game (3.5 "What is not the game's"): edwards25519-sha512 at this
build's protocol version, 3; V2 is the one suite of dealerless/2.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from independent.errors import fail
from independent.group.encoded import ENCODED, Encoded
from independent.group.groups import BLS12381G1, EDWARDS25519, RISTRETTO255, Group
from independent.group.hashing import TAGS
from independent.group.ops import lp, u64
from independent.group.xmd import hash_to_field, short_dst

#: suite -> (group, HASH); 3.5's table.
SUITES: dict[str, tuple[Group[Any], str]] = {
    "edwards25519-sha512": (EDWARDS25519, "sha512"),
    "ristretto255-sha512": (RISTRETTO255, "sha512"),
    "bls12381g1-sha256": (BLS12381G1, "sha256"),
}
VERSIONS = (2, 3)  # [S1]
#: 3.5 "Tags of dealerless/3": the tags version 3 adds to 3.2's table.
TAGS_V3 = {**TAGS, "FRAME_KEY": "dealerless/frame-key",
           "FRAME_SIGNATURE": "dealerless/frame-signature",
           "DLEQ_SEED": "dealerless/dleq-batch/seed",
           "DLEQ_WEIGHT": "dealerless/dleq-batch/weight",
           "DLEQ_BATCH": "dealerless/challenge/dleq-batch",
           "SHUFFLE_WEIGHT": "dealerless/shuffle-weight"}
SCALAR_FIELD_BYTES = 48  # 3.5: RFC 9380 L for r, ceil((255 + 128) / 8)


@dataclass(frozen=True)
class Suite:
    """One suite at one protocol version: its H, H_scalar, hash to the group and nonces."""

    name: str
    version: int
    group: Group[Any]
    hash_name: str  # "sha512" or "sha256"
    context: bytes

    # --- 3.5 the hash -----------------------------------------------------------------------
    def hash_input(self, tag: bytes | str, *parts: bytes) -> bytes:
        """The bytes HASH hashes: lp(context) || lp(tag) || lp(part_1) || ...; `tag` is the
        tag's bytes or its name in 3.2's table (as group.hashing.H) [S3]."""
        table = TAGS if self.version == 2 else TAGS_V3
        tag = table[tag].encode() if isinstance(tag, str) else tag
        if tag.decode(errors="replace") not in table.values():
            fail("hash/untagged")
        return b"".join(lp(x) for x in (self.context, tag, *parts))

    def H(self, tag: bytes | str, *parts: bytes) -> bytes:
        """64 bytes under SHA-512, 32 under SHA-256."""
        return hashlib.new(self.hash_name, self.hash_input(tag, *parts)).digest()

    @property
    def dst(self) -> bytes:
        """3.5: "dealerless-V" || decimal(version) || "-" || RFC 9380 suite identifier."""
        if not self.group.h2c_suite:
            fail("h2p/undefined")  # edwards25519-sha512 keeps 3.3's H2P
        return f"dealerless-V{self.version}-{self.group.h2c_suite}".encode()

    def H_scalar(self, tag: bytes | str, *parts: bytes) -> int:
        """3.5: under SHA-512, H read little-endian mod the order (3.3); under SHA-256,
        RFC 9380 hash_to_field of H's input, one element of 48 bytes of expand_message_xmd
        (SHA-256) under DST || "-scalar" [S2], read big-endian, mod the order."""
        if self.hash_name == "sha512":
            return int.from_bytes(self.H(tag, *parts), "little") % self.group.order
        dst = short_dst(self.dst + b"-scalar", "sha256")
        return hash_to_field(self.hash_input(tag, *parts), dst, 1, self.group.order,
                             SCALAR_FIELD_BYTES, "sha256")[0]

    def hash_to_group(self, tag: bytes | str, *parts: bytes) -> Any:
        """3.5: edwards25519-sha512 keeps 3.3's H2P (from_uniform of H's first 32 bytes);
        the others hash H's input with their RFC 9380 hash_to_curve under `dst`. A result
        equal to the identity fails (h2p/identity)."""
        g = self.group
        if g is EDWARDS25519:
            pt = EDWARDS25519.from_uniform(self.H(tag, *parts)[:32])
        else:
            pt = g.hash_to_group(self.hash_input(tag, *parts), self.dst)
        if g.is_identity(pt):
            fail("h2p/identity")
        return pt

    def H2P(self, tag: bytes | str, *parts: bytes) -> bytes:
        """The encoding of hash_to_group (3.3's H2P at version 2)."""
        return self.group.encode(self.hash_to_group(tag, *parts))

    # --- 3.4 nonces, 2.5 encodings ------------------------------------------------------------
    def nonce(self, label: bytes, secret: bytes, public: bytes, fresh: bytes, j: int) -> int:
        """3.4 / 3.5: k_j = H_scalar(NONCE, label, secret, public, fresh, u64(j))."""
        if len(fresh) < 32:
            fail("nonce/fresh-too-short")
        return self.H_scalar("NONCE", label, secret, public, fresh, u64(j))

    def stream(self, tag: bytes | str, size: int, *parts: bytes) -> bytes:
        """`size` bytes of whole H outputs H(tag, parts, u64(k)), k = 0, 1, ... (6.6.3,
        3.5: blocks of 64 or 32 bytes)."""
        out = b""
        k = 0
        while len(out) < size:
            out += self.H(tag, *parts, u64(k))
            k += 1
        return out[:size]

    # --- encodings (2.5), frame keys and signatures (8.2, 8.3) --------------------------------
    @property
    def ops(self) -> Encoded:
        """The group's operations on encodings (group.encoded)."""
        return ENCODED[self.group.name]

    @property
    def frame_key_bytes(self) -> int:
        """8.2 rule 5: an Ed25519 key (32 bytes), or a key of G1 (48) in bls12381g1-sha256."""
        return 48 if self.group is BLS12381G1 else 32

    @property
    def signature_prefix(self) -> bytes:
        """8.3: "dealerless/frame-signature/3" || 0x00; "/1" in a game of dealerless/2."""
        return b"dealerless/frame-signature/%d\x00" % (1 if self.version == 2 else self.version)

    def decode_element(self, b: bytes) -> Any:
        return self.group.decode(b)

    def encode_element(self, a: Any) -> bytes:
        return self.group.encode(a)

    def decode_scalar(self, b: bytes) -> int:
        return self.group.decode_scalar(b)

    def encode_scalar(self, k: int) -> bytes:
        return self.group.encode_scalar(k)


@cache
def suite(name: str, version: int) -> Suite:
    """The suite `name` at protocol `version` [S1]; one object per pair."""
    if name not in SUITES:
        fail("setup/unknown-suite")
    if version not in VERSIONS or (version == 2 and name != "edwards25519-sha512"):
        fail("version/unsupported")
    group, hash_name = SUITES[name]
    context = b"dealerless/2" if version == 2 else f"dealerless/{version}/{name}".encode()
    return Suite(name, version, group, hash_name, context)


V2 = suite("edwards25519-sha512", 2)
PRE_GAME = suite("edwards25519-sha512", 3)
