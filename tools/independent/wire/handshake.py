"""The peer handshake, spec/12-peers.md 12.3: the invitation, the messages, their
signatures and the key exchange over the invitation's secret (CPace).

Nothing here is a verifier's: a seat checks these before any game exists. Checks
spec/vectors/handshake.json (checks.handshake).

Decisions where 12.3 is silent (cited below as [Hn]):
[H1] "The invitation": PIN and SECRET are read only if each is 22 characters of the
     base64url alphabet whose re-encoding is itself, so the 4 unused low bits of the
     last character are zero ("exactly 16 bytes so written"); the rendezvous id (the
     last path segment) is read only if it is 32 lower-case hex digits, as "16 random
     bytes in hex" is written by the host.
[H2] "Authentication": a receiver checks, in this order, item 1 of a hello (its peer
     version), the message's shape (the table of "Messages"), the pin of a host's key
     (a joiner), every identity key and key-exchange share received (2.3), the
     signature (8.3), then a joiner's `confirm` (the host). Keys come before the
     signature because 8.3 step 3 refuses a small-order key, so the host could never
     answer `"key"` to a hello whose key fails 2.3 if the signature came first.
"""

from __future__ import annotations

import base64
import hmac
import re
import string
from typing import Any

from independent.errors import SpecError
from independent.group.hashing import H2P, H, H_scalar, T
from independent.group.ops import decode_point, smul, u64
from independent.wire.ed25519 import ed25519_verify
from independent.wire.msgpack_pure import pack, unpack

#: "Authentication": the prefix of every handshake signature.
PREFIX = b"dealerless/handshake-signature/2\x00"
#: "Messages": the peer protocol's own version.
PEER_VERSION = 3
#: "Links": the largest message.
MAX_MESSAGE = 65_536 + 256
REASONS = ("full", "seated", "key")


class Ignored(SpecError):
    """A message a receiver ignores (or answers with a refusal), naming the check it
    fails: `version`, `shape`, `pin`, `round` or a code (2.3, `handshake/bad-signature`,
    `pake/confirm`)."""


def ignore(check: str) -> Any:
    raise Ignored(check)


# --- "The invitation" ------------------------------------------------------------------
class Refused(ValueError):
    """An invitation `join` stops at before dialling (12.7: a usage error)."""


_B64URL = re.compile(r"[A-Za-z0-9_-]{22}")
_HEX = frozenset(string.digits + "abcdef")


def b64url(b: bytes) -> str:
    """RFC 4648 section 5, without padding."""
    return base64.urlsafe_b64encode(b).decode("ascii").rstrip("=")


def _read16(text: str, what: str) -> bytes:
    """[H1] exactly 16 bytes in unpadded base64url."""
    if not _B64URL.fullmatch(text):
        raise Refused(f"the {what} is not 16 bytes in unpadded base64url")
    raw = base64.urlsafe_b64decode(text + "==")
    if b64url(raw) != text:
        raise Refused(f"the {what} is not 16 bytes in unpadded base64url")
    return raw


def parse_invitation(url: str) -> tuple[bytes, bytes, bytes]:
    """`URL#PIN.SECRET` -> (rendezvous id, pin, secret), or Refused naming the fault."""
    where, hash_mark, fragment = url.partition("#")
    if not hash_mark:
        raise Refused("the invitation has no #PIN.SECRET")
    pin_text, dot, secret_text = fragment.partition(".")
    if not dot:
        raise Refused("the invitation lacks its SECRET")
    pin, secret = _read16(pin_text, "PIN"), _read16(secret_text, "SECRET")
    rid = where.split("?")[0].rstrip("/").rsplit("/", 1)[-1] if "://" in where else ""
    if len(rid) != 32 or not set(rid) <= _HEX:  # [H1] "16 random bytes in hex"
        raise Refused("the rendezvous id is not 16 bytes in hex")
    return bytes.fromhex(rid), pin, secret


def host_pin(key: bytes) -> bytes:
    """The invitation's PIN: H(HOST_PIN, key)[:16]."""
    return H(T["HOST_PIN"], key)[:16]


# --- "Authentication": signatures ------------------------------------------------------
def signed_bytes(rid: bytes, body: list[Any]) -> bytes:
    """PREFIX || pack([rid, body]); `body` is the message without `sig`."""
    return PREFIX + pack([rid, body])


# --- "Authentication": the key exchange over SECRET --------------------------------------
def pake_generator(secret: bytes, rid: bytes) -> bytes:
    """G = H2P(PAKE_GENERATOR, SECRET, rid)."""
    return H2P(T["PAKE_GENERATOR"], secret, rid)


def pake_scalar(seed: bytes, rid: bytes, own_commitment: bytes, fresh: bytes) -> int:
    """y = H_scalar(NONCE, "pake", seed, rid || commitment, fresh, u64(0)): 3.4's k_0
    with label "pake", the identity seed as secret and rid || commitment as public
    (12.3 as clarified: the vectors require 3.4's u64(j), j = 0)."""
    return H_scalar(T["NONCE"], b"pake", seed, rid + own_commitment, fresh, u64(0))


def pake_isk(rid: bytes, y: int, host_share: bytes, joiner_share: bytes,
             other_share: bytes) -> bytes:
    """ISK = H(PAKE_KEY, rid, Y_h, Y_j, K), K = y*Y' after 2.3 validates Y'."""
    return H(T["PAKE_KEY"], rid, host_share, joiner_share, smul(y, decode_point(other_share)))


def pake_confirm(isk: bytes, joiner_key: bytes, joiner_commitment: bytes,
                 host_commitment: bytes) -> bytes:
    return H(T["PAKE_CONFIRM"], isk, joiner_key, joiner_commitment, host_commitment)[:32]


# --- "Messages": shapes ------------------------------------------------------------------
def _b(v: Any, n: int) -> bool:
    return isinstance(v, bytes) and len(v) == n


def _int(v: Any, lo: int, hi: int = 2**64 - 1) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _keys(v: Any) -> bool:
    return isinstance(v, list) and 2 <= len(v) <= 8 and all(_b(x, 32) for x in v)


def _shape_ok(m: list[Any]) -> bool:
    """The table of "Messages", item by item (the signature last, 64 bytes)."""
    kind, n = m[0], len(m)
    if kind == "hello" and n == 11 and m[2] == "host":
        return (_b(m[3], 32) and _b(m[4], 32) and isinstance(m[5], str)
                and isinstance(m[6], dict) and _int(m[7], 2, 8) and _int(m[8], 0)
                and _b(m[9], 32) and _b(m[10], 64))
    if kind == "hello" and n == 9 and m[2] == "join":
        answer = m[5:8]
        return (_b(m[3], 32) and _b(m[4], 32) and _b(m[8], 64)
                and (all(_b(x, 0) for x in answer) or all(_b(x, 32) for x in answer)))
    if kind == "roster" and n == 4:
        return (_keys(m[1]) and _keys(m[2]) and len(m[1]) == len(m[2])
                and len(set(m[1])) == len(m[1]) and _b(m[3], 64))
    if kind == "open" and n == 4:
        return _b(m[1], 32) and _b(m[2], 32) and _b(m[3], 64)
    if kind == "reveal" and n == 3:
        return _keys(m[1]) and _b(m[2], 64)
    if kind == "refuse" and n == 6:
        return (_b(m[1], 32) and _b(m[2], 32) and m[3] in REASONS and _int(m[4], 2, 8)
                and _b(m[5], 64))
    return False


def from_host(m: list[Any]) -> bool:
    """The host signs hellos (its own), rosters, reveals and refusals."""
    return m[0] in ("roster", "reveal", "refuse") or m[:3] == ["hello", PEER_VERSION, "host"]


def named_key(m: list[Any]) -> bytes | None:
    """The key a well-shaped message names as its signer's (a reveal names none)."""
    if m[0] == "hello":
        return bytes(m[3])
    if m[0] == "roster":
        return bytes(m[1][0])
    return bytes(m[1]) if m[0] in ("open", "refuse") else None


def read_message(wire: bytes) -> list[Any]:
    """Version (a hello's item 1, before anything else [H2]), then the shape."""
    try:
        m = unpack(wire, MAX_MESSAGE)
    except SpecError:
        ignore("shape")
    if not isinstance(m, list) or not m or not isinstance(m[0], str):
        ignore("shape")
    if m[0] == "hello" and len(m) > 1 and m[1] != PEER_VERSION:
        ignore("version")
    if not _shape_ok(m):
        ignore("shape")
    return m


# --- receiving ---------------------------------------------------------------------------
def _verify(key: bytes, rid: bytes, m: list[Any]) -> None:
    if ed25519_verify(key, signed_bytes(rid, m[:-1]), m[-1]) != "ok":
        ignore("handshake/bad-signature")


def _valid(*points: bytes) -> None:
    """2.3 for identity keys and shares received; a failure is named by its code."""
    for p in points:
        try:
            decode_point(p)
        except SpecError as e:
            ignore(e.code)


def joiner_reads(wire: bytes, rid: bytes, pin: bytes, host_key: bytes) -> list[Any]:
    """A joiner reads a host's message only if its key is the pinned one and the
    signature verifies under it [H2]; `host_key` is the pinned key a reveal (which
    names none) is checked under."""
    m = read_message(wire)
    if not from_host(m):
        ignore("shape")
    named = named_key(m) or host_key
    if host_pin(named) != pin:
        ignore("pin")
    if m[0] == "hello":
        _valid(m[3], m[9])
    if m[0] == "roster":
        _valid(*m[1])
    _verify(named, rid, m)
    return m


def host_reads(wire: bytes, rid: bytes, pake: dict[str, Any] | None = None) -> list[Any]:
    """The host reads a joiner's hello or open under the key it names [H2]; a hello
    that answers a host hello must carry the `confirm` the host computes from `pake`
    (`y`, `share`, `commitment`: the host's side of that round)."""
    m = read_message(wire)
    if from_host(m):
        ignore("shape")
    if m[0] == "hello":
        _valid(m[3], *([m[6]] if m[6] else []))
    _verify(m[1] if m[0] == "open" else m[3], rid, m)  # the key it names
    if m[0] == "hello" and m[5] and pake is not None:
        if m[5] != pake["commitment"]:
            ignore("round")  # it answers another round: the host sends its hello again
        isk = pake_isk(rid, pake["y"], pake["share"], m[6], m[6])
        if not hmac.compare_digest(m[7], pake_confirm(isk, m[3], m[4], pake["commitment"])):
            ignore("pake/confirm")
    return m
