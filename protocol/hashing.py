"""The peer protocol's hash (spec/03-hashing.md 3.1): H of `edwards25519-sha512` at this
protocol version, for what two seats hash before any game or suite exists (the
handshake, the relay's entry and work, the short authentication string). A game's own
hashes are its suite's (protocol/suite.py).
"""

from __future__ import annotations

from .suite import suite
from .tags import Tag, lp, require_fresh, u64
from .version import PROTOCOL

__all__ = ["PEER", "H", "Tag", "lp", "require_fresh", "u64"]

PEER = suite("edwards25519-sha512", PROTOCOL)
H = PEER.H
