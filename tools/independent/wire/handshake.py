"""The peer handshake, spec/12-peers.md 12.3 (peer protocol 10): the invitation, the
table secret's room and seat secrets, the messages, their signatures and the key
exchange over each joining seat's secret (CPace).

Nothing here is a verifier's: a seat checks these before any game exists, so every hash
is H of edwards25519-sha512 at this build's protocol version, context
`dealerless/3/edwards25519-sha512` (3.5 "What is not the game's": suites.PRE_GAME).
Checks spec/vectors/handshake.json (checks.handshake).

Decisions where 12.3 is silent, and what it now says that they follow (cited below
as [Hn]):
[H1] "The invitation": the fragment is exactly four fields PIN.SEAT.ROOM.SECRET split
     at "."; SEAT is one ASCII character "1".."7"; PIN, ROOM and SECRET are each 22
     characters of the base64url alphabet, no "=", whose re-encoding is itself (the 4
     unused low bits of the last character zero: "canonical unpadded base64url"); the
     rendezvous id (the last path segment) is read only if it is 32 lower-case hex
     digits, as "16 random bytes in hex" is written by the host. A refusal names the
     first part at fault from left to right: rid, fragment, PIN, SEAT, ROOM, SECRET.
[H2] "Authentication", "The order of checks": a joiner reading a host's message checks
     the pin of the key it names, then a hello's item 1 (the version), then the
     signature, then the shape and every key and share it carries (2.3), and a roster's
     frame keys in the suite of the hello it follows; the host reading a joiner's message
     checks a hello's item 1, the shape, the key it names (2.3: a failure is answered
     with `"key"`, which the signature, 8.3 step 3, would hide), the signature, a hello's
     frame key and its binding in the suite it names (`hello/frame-key`, 2.5's codes),
     then its seat, its suite, its round, its share (2.3) and `confirm`.
[H3] "Messages": a hello's `seat` is read as an integer 1..7 and a host hello's
     `shares` as exactly K-1 byte strings of 32; the host reads a joiner hello that
     names a seat it has not (not below its K, step 3 "for seat i (1..K-1)") as
     `seat`, after the signature and before the round and the confirm.
[H4] "Messages": a joiner hello's `suite` is text, "" or a suite of 3.5, "" only with no
     answer; its `frame key` is at most 48 bytes, empty exactly when `answers` is, its
     `binding` at most 128, empty with no answer; a roster's `frame keys` are as many as
     its keys, distinct, and so are its `bindings` (at most 128 bytes each). A hello
     naming a suite the host does not play is `suite` (not counted: the host answers with
     its own hello).
"""

from __future__ import annotations

import base64
import hmac
import re
import string
from typing import Any

from independent.errors import SpecError
from independent.group.hashing import T
from independent.group.ops import decode_point, smul, u64
from independent.group.suites import PRE_GAME, SUITES, suite
from independent.wire.ed25519 import ed25519_sign, ed25519_verify, public_key
from independent.wire.msgpack_pure import pack, unpack

#: "Authentication": the prefix of every handshake signature.
PREFIX = b"dealerless/handshake-signature/10\x00"
#: "Authentication": the prefix of both signatures of a frame-key binding.
BINDING_PREFIX = b"dealerless/frame-key-binding/10\x00"
#: "Messages": the peer protocol's own version.
PEER_VERSION = 10
#: 8.3: the suites whose frame keys are the seats' Ed25519 identity keys.
ED25519_SUITES = ("edwards25519-sha512", "ristretto255-sha512")
#: "Links": the largest message.
MAX_MESSAGE = 65_536 + 256
REASONS = ("full", "seated", "key")


class Ignored(SpecError):
    """A message a receiver ignores (or answers with a refusal), naming the check it
    fails: `version`, `shape`, `pin`, `seat`, `round` or a code (2.3,
    `handshake/bad-signature`, `pake/confirm`)."""


def ignore(check: str) -> Any:
    raise Ignored(check)


# --- "The invitation" ------------------------------------------------------------------
class Refused(ValueError):
    """An invitation `join` stops at before dialling (12.7: a usage error); `part` is
    the part at fault [H1]."""

    def __init__(self, part: str, text: str) -> None:
        super().__init__(text)
        self.part = part


_B64URL = re.compile(r"[A-Za-z0-9_-]{22}")
_HEX = frozenset(string.digits + "abcdef")
_SEATS = "1234567"  # [H1] one ASCII digit 1..7


def b64url(b: bytes) -> str:
    """RFC 4648 section 5, without padding."""
    return base64.urlsafe_b64encode(b).decode("ascii").rstrip("=")


def _read16(text: str, what: str) -> bytes:
    """[H1] exactly 16 bytes in canonical unpadded base64url."""
    if not _B64URL.fullmatch(text):
        raise Refused(what, f"the {what} is not 22 characters of base64url")
    raw = base64.urlsafe_b64decode(text + "==")
    if b64url(raw) != text:
        raise Refused(what, f"the {what} is not canonical: bits past its 16 bytes are set")
    return raw


def parse_invitation(url: str) -> tuple[bytes, bytes, int, bytes, bytes]:
    """`URL#PIN.SEAT.ROOM.SECRET` -> (rendezvous id, pin, seat, room secret, seat
    secret), or Refused naming the first part at fault, left to right [H1]."""
    where, hash_mark, fragment = url.partition("#")
    rid = where.split("?")[0].rstrip("/").rsplit("/", 1)[-1] if "://" in where else ""
    if len(rid) != 32 or not set(rid) <= _HEX:  # [H1] "16 random bytes in hex"
        raise Refused("rid", "the rendezvous id is not 16 bytes in hex")
    fields = fragment.split(".")
    if not hash_mark or len(fields) != 4:
        raise Refused("fragment", "the invitation has no #PIN.SEAT.ROOM.SECRET")
    pin_text, seat_text, room_text, secret_text = fields
    pin = _read16(pin_text, "PIN")
    if len(seat_text) != 1 or seat_text not in _SEATS:
        raise Refused("SEAT", "the invitation's SEAT is not one digit 1..7")
    room, secret = _read16(room_text, "ROOM"), _read16(secret_text, "SECRET")
    return bytes.fromhex(rid), pin, int(seat_text), room, secret


def host_pin(key: bytes) -> bytes:
    """The invitation's PIN: H(HOST_PIN, key)[:16]."""
    return H(T["HOST_PIN"], key)[:16]


def u8(i: int) -> bytes:
    """One byte (10.4's u8, as 12.3 uses it for a seat)."""
    return bytes([i])


def room_secret(table: bytes) -> bytes:
    """ROOM: R = H(INVITE_ROOM, T)[:16], the same in every invitation of the table."""
    return H(T["INVITE_ROOM"], table)[:16]


def seat_secret(table: bytes, seat: int) -> bytes:
    """SECRET of seat i's invitation: S_i = H(INVITE_SEAT, T, u8(i))[:16]."""
    return H(T["INVITE_SEAT"], table, u8(seat))[:16]


def H(tag: bytes | str, *parts: bytes) -> bytes:
    """3.5 "What is not the game's": H of edwards25519-sha512 at protocol version 3."""
    return PRE_GAME.H(tag, *parts)


def H_scalar(tag: bytes | str, *parts: bytes) -> int:
    return PRE_GAME.H_scalar(tag, *parts)


def H2P(tag: bytes | str, *parts: bytes) -> bytes:
    """3.3's H2P (from_uniform of the first 32 bytes of H), with PRE_GAME's H."""
    return PRE_GAME.H2P(tag, *parts)


# --- "Authentication": signatures ------------------------------------------------------
def signed_bytes(rid: bytes, body: list[Any]) -> bytes:
    """PREFIX || pack([rid, body]); `body` is the message without `sig`."""
    return PREFIX + pack([rid, body])


# --- "Key exchange over the seat's secret" ----------------------------------------------
def pake_generator(secret: bytes, rid: bytes) -> bytes:
    """G_i = H2P(PAKE_GENERATOR, S_i, rid)."""
    return H2P(T["PAKE_GENERATOR"], secret, rid)


def pake_scalar(seed: bytes, rid: bytes, own_commitment: bytes, seat: int,
                fresh: bytes) -> int:
    """y = H_scalar(NONCE, "pake", seed, rid || commitment || u8(i), fresh, u64(0)):
    3.4's k_0 with label "pake", the identity seed as secret and rid || the sender's
    own commitment || u8(i) as public."""
    return H_scalar(T["NONCE"], b"pake", seed, rid + own_commitment + u8(seat), fresh,
                    u64(0))


def pake_isk(rid: bytes, seat: int, y: int, host_share: bytes, joiner_share: bytes,
             other_share: bytes) -> bytes:
    """ISK = H(PAKE_KEY, rid, u8(i), Y_h,i, Y_j, K), K = y*Y' after 2.3 validates Y'
    (the other side's share)."""
    k = smul(y, decode_point(other_share))
    return H(T["PAKE_KEY"], rid, u8(seat), host_share, joiner_share, k)


def pake_confirm(isk: bytes, joiner_key: bytes, joiner_commitment: bytes,
                 host_commitment: bytes) -> bytes:
    return H(T["PAKE_CONFIRM"], isk, joiner_key, joiner_commitment, host_commitment)[:32]


# --- "Messages": shapes ------------------------------------------------------------------
def _b(v: Any, n: int) -> bool:
    return isinstance(v, bytes) and len(v) == n


def _int(v: Any, lo: int, hi: int = 2**64 - 1) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _shares(v: Any, k: Any) -> bool:
    """[H3] `shares`: K-1 shares, one per joining seat."""
    return isinstance(v, list) and len(v) == k - 1 and all(_b(x, 32) for x in v)


def _keys(v: Any) -> bool:
    return isinstance(v, list) and 2 <= len(v) <= 8 and all(_b(x, 32) for x in v)


def _frame_keys(v: Any, keys: Any) -> bool:
    """[H4] a roster's frame keys: one per key, at most 48 bytes each, distinct."""
    return (isinstance(v, list) and len(v) == len(keys) and len(set(v)) == len(v)
            and all(isinstance(x, bytes) and len(x) <= 48 for x in v))


def _shape_ok(m: list[Any]) -> bool:
    """The table of "Messages", item by item (the signature last, 64 bytes)."""
    kind, n = m[0], len(m)
    if kind == "hello" and n == 12 and m[2] == "host":
        return (_b(m[3], 32) and _b(m[4], 32) and isinstance(m[5], str)
                and isinstance(m[6], dict) and _int(m[7], 2, 8) and _int(m[8], 0)
                and _shares(m[9], m[7]) and isinstance(m[10], str) and _b(m[11], 64))
    if kind == "hello" and n == 13 and m[2] == "join":
        answer = m[6:9]  # answers, share, confirm: all empty or all 32 bytes
        answered = all(_b(x, 32) for x in answer)
        return (_b(m[3], 32) and _b(m[4], 32) and _int(m[5], 1, 7) and _b(m[12], 64)
                and (all(_b(x, 0) for x in answer) or answered)
                and m[9] in ("", *SUITES) and (m[9] != "" or not answered)  # [H4]
                and isinstance(m[10], bytes) and len(m[10]) <= 48
                and (len(m[10]) > 0) == answered
                and isinstance(m[11], bytes) and len(m[11]) <= 128
                and (answered or not m[11]))
    if kind == "roster" and n == 6:
        return (_keys(m[1]) and _keys(m[2]) and len(m[1]) == len(m[2])
                and len(set(m[1])) == len(m[1]) and _frame_keys(m[3], m[1])
                and isinstance(m[4], list) and len(m[4]) == len(m[1])
                and all(isinstance(x, bytes) and len(x) <= 128 for x in m[4])
                and _b(m[5], 64))
    if kind == "open" and n == 4:
        return _b(m[1], 32) and _b(m[2], 32) and _b(m[3], 64)
    if kind == "reveal" and n == 3:
        return _keys(m[1]) and _b(m[2], 64)
    if kind == "refuse" and n == 6:
        return (_b(m[1], 32) and _b(m[2], 32) and m[3] in REASONS and _int(m[4], 2, 8)
                and _b(m[5], 64))
    return False


def from_host(m: list[Any]) -> bool:
    """The host signs hellos (its own, of any version), rosters, reveals and refusals."""
    return m[0] in ("roster", "reveal", "refuse") or (
        m[0] == "hello" and len(m) > 2 and m[2] == "host")


def named_key(m: list[Any]) -> bytes | None:
    """The key a well-shaped message names as its signer's (a reveal names none)."""
    if m[0] == "hello":
        return bytes(m[3])
    if m[0] == "roster":
        return bytes(m[1][0])
    return bytes(m[1]) if m[0] in ("open", "refuse") else None


def _unpacked(wire: bytes) -> list[Any]:
    """A message: a msgpack array whose item 0 is its kind."""
    try:
        m = unpack(wire, MAX_MESSAGE)
    except SpecError:
        ignore("shape")
    if not isinstance(m, list) or not m or not isinstance(m[0], str):
        ignore("shape")
    return m


def _version(m: list[Any]) -> None:
    """A hello's item 1, the peer protocol version [H2]."""
    if m[0] == "hello" and len(m) > 1 and m[1] != PEER_VERSION:
        ignore("version")


def read_message(wire: bytes) -> list[Any]:
    """Version (a hello's item 1, before anything else a host reads [H2]), then the
    shape."""
    m = _unpacked(wire)
    _version(m)
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


def frame_key(suite_name: str, seed: bytes) -> bytes:
    """8.3: a seat's frame key in a suite, from its identity seed: its Ed25519 key, or in
    bls12381g1-sha256 Y = x*G1 with x = H_scalar(FRAME_KEY, seed) (3.5), 1 for a zero x."""
    if suite_name in ED25519_SUITES:
        return public_key(seed)
    s = suite(suite_name, 3)
    return s.encode_element(s.group.base_mul(s.H_scalar("FRAME_KEY", seed) or 1))


def binding_bytes(rid: bytes, seat: int, key: bytes, frame_key: bytes) -> bytes:
    """"Authentication": what both halves of seat `seat`'s frame-key binding sign."""
    return BINDING_PREFIX + pack([rid, seat, key, frame_key])


def binding(suite_name: str, seed: bytes, rid: bytes, seat: int) -> bytes:
    """"Authentication": the seed's binding at seat `seat`: empty in the suites signed by
    Ed25519, else its Ed25519 signature of binding_bytes, then its frame key's Schnorr
    signature (8.3) of them with the nonce of 3.4 from 32 zero fresh bytes."""
    if suite_name in ED25519_SUITES:
        return b""
    s = suite(suite_name, 3)
    x = s.H_scalar("FRAME_KEY", seed) or 1
    y = s.encode_element(s.group.base_mul(x))
    m = binding_bytes(rid, seat, public_key(seed), y)
    o = s.ops
    k = s.nonce(b"dealerless/frame-signature", o.sc(x), y + m, bytes(32), 0)
    c = s.H_scalar("FRAME_SIGNATURE", y, o.base(k), m)
    return ed25519_sign(seed, m) + o.sc(c) + o.sc((k + c * x) % o.L)


def _schnorr_ok(suite_name: str, key: bytes, m: bytes, sig: bytes) -> bool:
    """8.3 "Schnorr over G1": R' = s*G1 - c*Y; valid exactly if c = H_scalar(
    FRAME_SIGNATURE, Y, R', m), the key already decoded by 2.5."""
    s = suite(suite_name, 3)
    o = s.ops
    try:
        c, z = o.scalar(sig[:32]), o.scalar(sig[32:])
    except SpecError:
        return False
    r = o.sub(o.base(z), o.mul(c, o.accept(key)))
    return s.H_scalar("FRAME_SIGNATURE", key, r, m) == c


def check_frame_key(suite_name: str, key: bytes, frame_key: bytes, rid: bytes = b"",
                    seat: int = 0, bound: bytes = b"", code: str = "hello/frame-key") -> None:
    """8.3: in the suites signed by Ed25519 a seat's frame key is its identity key, its
    binding empty; in bls12381g1-sha256 a key of G1, 48 bytes that decode by 2.5, whose
    binding (12.3 "Authentication") is 128 bytes: the identity key's signature of
    binding_bytes, then the frame key's (`code`, else 2.5's code)."""
    if suite_name in ED25519_SUITES:
        if frame_key != key or bound:
            ignore(code)
        return
    s = suite(suite_name, 3)
    if len(frame_key) != s.frame_key_bytes:
        ignore(code)
    try:
        s.decode_element(frame_key)
    except SpecError as e:
        ignore(e.code)
    m = binding_bytes(rid, seat, key, frame_key)
    if len(bound) != 128 or ed25519_verify(key, m, bound[:64]) != "ok" \
            or not _schnorr_ok(suite_name, frame_key, m, bound[64:]):
        ignore(code)


def _named(m: list[Any], host_key: bytes) -> bytes:
    """The key a host's message names before its shape is known: item 3 of a hello, item
    1 of a refusal; a roster or a reveal is read under the pinned `host_key` [H2]."""
    where = {"hello": 3, "refuse": 1}.get(m[0])
    if where is None:
        return host_key
    if m[0] == "refuse" and len(m) != 6:
        ignore("shape")  # a refusal is read only with its six items, before the pin
    key = m[where] if len(m) > where else None
    return key if isinstance(key, bytes) else b""


def joiner_reads(wire: bytes, rid: bytes, pin: bytes, host_key: bytes,
                 suite_name: str | None = None) -> list[Any]:
    """A joiner reads a host's message in [H2]'s order: the pin of the key it names, a
    hello's version, the signature under that key, then its shape and every key and
    share it carries; `host_key` is the pinned key a roster or reveal is checked
    under, and with `suite_name` (that of the host hello it follows) a roster's frame
    keys and their bindings are checked in that suite (`roster/binding`)."""
    m = _unpacked(wire)
    if not from_host(m):
        ignore("shape")
    named = _named(m, host_key)
    if host_pin(named) != pin:
        ignore("pin")
    _version(m)
    if not m or not isinstance(m[-1], bytes) or len(m[-1]) != 64:
        ignore("handshake/bad-signature")  # no signature where it belongs (8.3)
    _verify(named, rid, m)
    if not _shape_ok(m):
        ignore("shape")
    if m[0] == "hello":
        _valid(m[3], *m[9])  # the joiner validates every share of the hello
    if m[0] == "roster":
        _valid(*m[1])
        if suite_name is not None:  # the shape gave as many frame keys as keys
            for seat, (key, fk, bound) in enumerate(zip(m[1], m[3], m[4], strict=True)):
                check_frame_key(suite_name, key, fk, rid, seat, bound, "roster/binding")
    return m


def host_reads(wire: bytes, rid: bytes, pake: dict[str, Any] | None = None) -> list[Any]:
    """The host reads a joiner's hello or open under the key it names [H2]; with `pake`,
    the host's side of this round (`commitment`, `suite`, and `seats`: seat i -> (y_h,i,
    Y_h,i) for each joining seat 1..K-1), a hello for a seat it has not is `seat`
    [H3], one naming another suite `suite` [H4], and one that answers a host hello must
    answer this round's and carry the `confirm` the host computes for its seat, compared
    in constant time."""
    m = read_message(wire)
    if from_host(m):
        ignore("shape")
    if m[0] == "hello":
        _valid(m[3])  # before the signature: a failure is answered with "key" [H2]
    _verify(m[1] if m[0] == "open" else m[3], rid, m)  # the key it names
    if m[0] != "hello":
        return m
    if m[6]:
        check_frame_key(m[9], m[3], m[10], rid, m[5], m[11])  # after the signature [H2]
    if pake is not None:
        if m[5] not in pake["seats"]:
            ignore("seat")  # [H3] not a seat 1..K-1 of this table
        if m[9] not in ("", pake.get("suite", "ristretto255-sha512")):
            ignore("suite")  # [H4] the host answers with its hello, naming its suite
        if m[6] and m[6] != pake["commitment"]:
            ignore("round")  # it answers another round: the host sends its hello again
    if m[6]:
        _valid(m[7])  # the share, after the signature and the round [H2]
    if m[6] and pake is not None:
        y_h, share_h = pake["seats"][m[5]]
        isk = pake_isk(rid, m[5], y_h, share_h, m[7], m[7])
        want = pake_confirm(isk, m[3], m[4], pake["commitment"])
        if not hmac.compare_digest(m[8], want):
            ignore("pake/confirm")
    return m
