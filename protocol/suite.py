"""Ciphersuites: a group, the hash H over it and its domain, and the frame signature
(spec/02-group.md 2.5, spec/03-hashing.md 3.5), in the manner of RFC 9591 section 6.

Every proof and deck operation is written once over `Suite`: it asks the suite for its
group's operations, for H and for the hashes to a scalar and to the group, and never
names a curve. A suite's `context` is the first item of every hash it makes, so no
hash of one suite, or of one protocol version, is ever a hash of another.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .errors import DeckError, LocalError
from .groups import Element, Group, HashedGroup, group
from .groups.edwards25519 import Edwards25519
from .groups.ops import OPS
from .groups.xmd import XmdPrefix, expand_message_xmd
from .signature import Ed25519Signer, FrameSigner, SchnorrSigner
from .tags import Tag, lp, require_fresh, tags, u64
from .version import PROTOCOL


@dataclass(frozen=True, eq=False)
class Suite(ABC):
    """One ciphersuite at one protocol version.

    name: the suite's name in the setup (e.g. "ristretto255-sha512");
    group: its prime-order group;
    hash_name: the hashlib name of H ("sha512" or "sha256");
    version: the protocol version, which the context carries.
    """

    name: str
    group: Group
    hash_name: str
    version: int
    #: The first item of every hash: "dealerless/<version>" then, from dealerless/3,
    #: "/" and the suite's name (3.1).
    context: bytes = field(init=False)
    _block: int = field(init=False, repr=False)
    _digest_size: int = field(init=False, repr=False)
    #: lp(context) || lp(tag) for each tag of the version: every hash starts so, and a
    #: tag missing here is one the version does not have.
    _heads: dict[Tag, bytes] = field(init=False, repr=False)
    _new: Callable[..., Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        ctx = b"dealerless/%d" % self.version
        if self.version >= 3:
            ctx += b"/" + self.name.encode()
        h = hashlib.new(self.hash_name)
        object.__setattr__(self, "context", ctx)
        object.__setattr__(self, "_block", h.block_size)
        object.__setattr__(self, "_digest_size", h.digest_size)
        object.__setattr__(self, "_heads", {t: lp(ctx) + lp(t.value) for t in tags(self.version)})
        object.__setattr__(self, "_new", getattr(hashlib, self.hash_name))

    # -- sizes and encodings ---------------------------------------------------------

    @property
    def order(self) -> int:
        return self.group.order

    @property
    def point_bytes(self) -> int:
        return self.group.element_bytes

    @property
    def scalar_bytes(self) -> int:
        return self.group.scalar_bytes

    @property
    def digest_bytes(self) -> int:
        """How many bytes H gives: 64 for SHA-512, 32 for SHA-256."""
        return self._digest_size

    def encode_scalar(self, k: int) -> bytes:
        return self.group.encode_scalar(k)

    def decode_scalar(self, data: bytes) -> int:
        return self.group.decode_scalar(data)

    def decode_point(self, data: bytes) -> Element:
        return self.group.decode(data)

    # -- hashing (3.1, 3.3, 3.4) ------------------------------------------------------

    def preimage(self, tag: Tag, parts: tuple[bytes, ...]) -> bytes:
        """lp(context) || lp(tag) || lp(part_1) || ... : what H hashes."""
        head = self._heads.get(tag) if isinstance(tag, Tag) else None
        if head is None:
            raise LocalError("hash/untagged", "every hash needs a tag from the domain table "
                             "of its version")
        try:
            return head + b"".join([len(p).to_bytes(4, "big") + p for p in parts])
        except OverflowError:
            raise LocalError("hash/part-too-long", "a hash input part is limited to 2^32-1 "
                             "bytes") from None

    def H(self, tag: Tag, *parts: bytes) -> bytes:
        """The hash of 3.1 over the suite's hash function."""
        data = self.preimage(tag, parts)
        OPS.hashes += 1
        OPS.hash_bytes += len(data)
        # Compression blocks, for on-chain estimates: the padding adds a 0x80 byte and
        # a length of a sixteenth of a block (FIPS 180-4 5.1).
        OPS.hash_blocks += (len(data) + 1 + self._block // 8 + self._block - 1) // self._block
        digest: bytes = self._new(data).digest()
        return digest

    def hash_to_scalar(self, tag: Tag, *parts: bytes) -> int:
        """H(...) read as a little-endian integer mod the order (bias < 2^-259)."""
        return int.from_bytes(self.H(tag, *parts), "little") % self.order

    @abstractmethod
    def hash_to_point(self, tag: Tag, *parts: bytes) -> Element:
        """The group's hash to the group of H's input (3.3); never the identity."""

    def nonce_scalars(self, label: bytes, secret: bytes, public: bytes, fresh: bytes,
                      count: int) -> list[int]:
        """Hedged nonces k_j = H_scalar(NONCE, label, secret, public, fresh, u64(j)) (3.4).

        Mixing the secret and the whole public statement in means a repeated or weak
        `fresh` still gives distinct nonces for distinct statements; `fresh` (from the OS
        CSPRNG in peers/) protects against fault and side-channel attacks on a pure
        derivation. The common prefix is hashed once: a shuffle asks for thousands of
        nonces of one statement of kilobytes.
        """
        require_fresh(fresh)
        prefix = self._new(self.preimage(Tag.NONCE, (label, secret, public, fresh)))
        out = []
        for j in range(count):
            h = prefix.copy()
            h.update(lp(u64(j)))
            out.append(int.from_bytes(h.digest(), "little") % self.order)
        return out

    def stream(self, tag: Tag, size: int, *parts: bytes) -> bytes:
        """`size` bytes: H(tag, parts, u64(k)) for blocks k = 0, 1, ... (6.6.3)."""
        blocks = -(-size // self.digest_bytes)
        return b"".join(self.H(tag, *parts, u64(k)) for k in range(blocks))[:size]

    @property
    def signer(self) -> FrameSigner:
        """The frame signature (8.3): Ed25519 in the suites for players."""
        return ED25519

    def __repr__(self) -> str:
        return f"Suite({self.name!r}, {self.context.decode()!r})"


ED25519 = Ed25519Signer()


class Edwards25519Sha512(Suite):
    """edwards25519-sha512: the group, hashes and bytes of dealerless/2 (3.3)."""

    def hash_to_point(self, tag: Tag, *parts: bytes) -> Element:
        """from_uniform of the first 32 bytes of H(...)."""
        assert isinstance(self.group, Edwards25519)
        pt = self.group.from_uniform(self.H(tag, *parts)[:32])
        if pt == self.group.identity:   # probability ~2^-252; refuse rather than use it
            raise DeckError("h2p/identity", "hash-to-point gave the identity")
        return pt


class Rfc9380Suite(Suite):
    """A suite whose hashes to the group and to a scalar are RFC 9380's (3.5).

    The message is H's whole input, so the context and tag are hashed as they are by H;
    the domain separation tag names the protocol version and the RFC 9380 suite.
    """

    @property
    def dst(self) -> bytes:
        """"dealerless-V<version>-" and the RFC 9380 suite identifier."""
        assert isinstance(self.group, HashedGroup)
        return b"dealerless-V%d-" % self.version + self.group.h2c_suite.encode()

    def hash_to_point(self, tag: Tag, *parts: bytes) -> Element:
        assert isinstance(self.group, HashedGroup)
        pt = self.group.hash_to_group(self.preimage(tag, parts), self.dst)
        if pt == self.group.identity:
            raise DeckError("h2p/identity", "hash-to-point gave the identity")
        return pt


#: RFC 9380 5.1's L for a 255-bit order and 128-bit security: ceil((255 + 128) / 8).
SCALAR_FIELD_BYTES = 48


class Sha256Suite(Rfc9380Suite):
    """A suite over SHA-256, whose 32-byte digest is too short to reduce to a scalar
    without bias: a scalar is RFC 9380's hash_to_field, 48 bytes from
    expand_message_xmd read big-endian mod the order (bias < 2^-128). Its frames are
    signed by Schnorr over its group, which a chain checks natively (2.6)."""

    @cached_property
    def signer(self) -> FrameSigner:
        return SchnorrSigner(self)

    def hash_to_scalar(self, tag: Tag, *parts: bytes) -> int:
        data = self.preimage(tag, parts)
        OPS.hashes += 1
        OPS.hash_bytes += len(data)
        return self._field(expand_message_xmd(self.hash_name, data, self.dst + b"-scalar",
                                              SCALAR_FIELD_BYTES))

    def _field(self, wide: bytes) -> int:
        return int.from_bytes(wide, "big") % self.order

    def nonce_scalars(self, label: bytes, secret: bytes, public: bytes, fresh: bytes,
                      count: int) -> list[int]:
        require_fresh(fresh)
        head = self.preimage(Tag.NONCE, (label, secret, public, fresh))
        messages = XmdPrefix(self.hash_name, head, self.dst + b"-scalar", SCALAR_FIELD_BYTES)
        return [self._field(messages.expand(lp(u64(j)))) for j in range(count)]


def _make(name: str, version: int) -> Suite:
    if name == "edwards25519-sha512":
        return Edwards25519Sha512(name, group("edwards25519"), "sha512", version)
    if name == "ristretto255-sha512":
        return Rfc9380Suite(name, group("ristretto255"), "sha512", version)
    if name == "bls12381g1-sha256":
        return Sha256Suite(name, group("bls12381g1"), "sha256", version)
    raise KeyError(name)


SUITE_NAMES = ("edwards25519-sha512", "ristretto255-sha512", "bls12381g1-sha256")
_BUILT: dict[tuple[str, int], Suite] = {}


#: The suite a new game is played in unless the players choose another (2.5).
DEFAULT = "ristretto255-sha512"


def table_suite() -> Suite:
    """The suite of a new game when the players choose none: DEFAULT at this version."""
    return suite(DEFAULT, PROTOCOL)


def v2_suite() -> Suite:
    """The one suite of dealerless/2: edwards25519-sha512 at that version (3.5)."""
    return suite("edwards25519-sha512", 2)


def suite(name: str, version: int) -> Suite:
    """The suite called `name` at protocol `version`; KeyError for an unknown name."""
    key = (name, version)
    if key not in _BUILT:
        _BUILT[key] = _make(name, version)
    return _BUILT[key]

