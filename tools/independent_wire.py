#!/usr/bin/env python3
"""Independent check of the wire vectors: ed25519.json, msgpack.json and setup.json.

Written from spec/ (01-notation, 02-group, 03-hashing, 08-wire, rules/*.md 2) and
spec/vectors/ only: no code of the project is imported or read, and no library does the
cryptography or the msgpack parsing. Ed25519 verification is spec/08-wire.md 8.3 "Verify"
step by step on pure-Python edwards25519 arithmetic (RFC 8032 5.1) with hashlib's SHA-512;
strict msgpack decoding is 8.1's rules on a hand-written parser and encoder; setup decoding
is 8.2's eleven rules in order, with 2.3 point decoding for rule 11.

Used by tools/independent_check.py (its Tally counts the checks); on its own,
`python tools/independent_wire.py` runs the three files.

Decisions where the spec is ambiguous or silent (cited below as [Wn]):
[W1] 8.1 rule 5: on meeting a container the re-encoding first checks its depth
     (msgpack/too-deep), then, for a map, all its keys (msgpack/map-key), then walks the
     entries in ascending key order (the order it writes them).
[W2] 8.1 rule 3/3': an ext of type -1 with an empty payload is neither "an ext value with
     a payload" (rule 3) nor covered by rule 3' ("other than type -1"); it is taken as
     msgpack/malformed (a timestamp of length 0 is not a well-formed msgpack value).
[W3] 8.1 rule 3: the 1024 limit and rule 5's 16 count containers, empty ones included
     (so "91" * 15 + "90" is 16 deep), as the vectors' "16 nested containers" says.
[W4] 8.1: a map with a repeated key keeps the last value (rule 6 rejects it anyway).
[W5] 8.2 rule 2: item 0 is checked first (setup/version), then item 1 with the int
     accessor (schema/int: `true`, a negative or a non-integer), then its value (setup/version).
[W6] 8.2 rule 9 with rules/*.md 2: unknown keys, ill-typed or out-of-range values and a
     missing *required* parameter (`seats`) are rules/params; a parameter with a default
     left out is setup/params. `after` must be "" or 64 lowercase hex digits (11.5);
     Mineshaft refuses a `round` other than the highest double unless `long` (D13).
[W7] 8.3 step 5: RFC 8032 5.1.3 step 4 (x = 0 with the sign bit set fails) is applied;
     it cannot be reached, since y = 1 and y = p - 1 already fail step 3.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

VECTORS = Path(__file__).resolve().parent.parent / "spec" / "vectors"

# --- 1.1 constants, RFC 8032 5.1 ---------------------------------------------------------
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
MASK255 = 2**255 - 1


class WireError(Exception):
    """A failed check with its stable `area/rule` code (1.4)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def fail(code: str) -> NoReturn:
    raise WireError(code)


def int_le(b: bytes) -> int:
    return int.from_bytes(b, "little")


# --- edwards25519: -x^2 + y^2 = 1 + d x^2 y^2, extended coordinates (X, Y, Z, T) ---------
Point = tuple[int, int, int, int]
NEUTRAL: Point = (0, 1, 1, 0)


def pt_add(a: Point, b: Point) -> Point:
    """RFC 8032 5.1.4 addition (complete for a = -1)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa, bb = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    cc, dd = 2 * D * t1 * t2 % P, 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def pt_neg(a: Point) -> Point:
    return (-a[0] % P, a[1], a[2], -a[3] % P)


def pt_mul(k: int, a: Point) -> Point:
    acc = NEUTRAL
    for bit in bin(k)[2:] if k > 0 else "":
        acc = pt_add(acc, acc)
        if bit == "1":
            acc = pt_add(acc, a)
    return acc


def pt_eq(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def encode(a: Point) -> bytes:
    """RFC 8032 5.1.2: y little-endian, bit 255 the low bit of x."""
    zi = pow(a[2], P - 2, P)
    x, y = a[0] * zi % P, a[1] * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def recover_x(y: int, sign: int) -> int | None:
    """RFC 8032 5.1.3 steps 2-4 for a y < p: x from y and its sign bit, or None."""
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if v * x * x % P == u:
        pass
    elif v * x * x % P == -u % P:
        x = x * SQRT_M1 % P
    else:
        return None  # no square root
    if x == 0 and sign:
        return None  # [W7]
    if x & 1 != sign:
        x = P - x
    return x


def decode(b: bytes) -> Point | None:
    """RFC 8032 5.1.3 decoding of 32 bytes; None on failure (non-canonical y or no root)."""
    if len(b) != 32 or (y := int_le(b) & MASK255) >= P:
        return None
    x = recover_x(y, b[31] >> 7)
    return None if x is None else (x, y, 1, x * y % P)


_B = decode((4 * pow(5, P - 2, P) % P).to_bytes(32, "little"))  # y = 4/5, x even
assert _B is not None
B: Point = _B
assert encode(B) == bytes.fromhex("58" + "66" * 31)  # the RFC 8032 base point


# --- 2.3 decoding a received point (setup rule 11) -----------------------------------------
def point_rule(b: bytes) -> str | None:
    """2.3: the first broken rule in table order (None: accepted)."""
    if len(b) != 32:
        return "point/length"
    y, sign = int_le(b) & MASK255, b[31] >> 7
    if y >= P or (y in (1, P - 1) and sign):
        return "point/non-canonical"
    if b == bytes([1]) + bytes(31):
        return "point/identity"
    x = recover_x(y, sign)
    if x is None:
        return "point/not-on-curve"
    a = (x, y, 1, x * y % P)
    if pt_eq(pt_mul(8, a), NEUTRAL):
        return "point/small-order"
    if not pt_eq(pt_mul(L, a), NEUTRAL):
        return "point/torsion"
    return None


# --- 8.3 Verify ------------------------------------------------------------------------------
SIGN_PREFIX = b"dealerless/frame-signature/1\x00"
SMALL_ORDER_Y = frozenset((
    0, 1, P - 1, P, P + 1,
    2707385501144840649318225287225658788936804267575313519463743609750303402022,
    55188659117513257062467267217118295137698188065244968500265048394206261417927))


def ed25519_verify(a_enc: bytes, m: bytes, sig: bytes, skip: frozenset[int] = frozenset(),
                   cofactored: bool = False) -> str:
    """8.3 Verify, step by step: "ok", or the number of the first step that fails.

    `skip` and `cofactored` exist only to test the vectors' notes ("passes step 7 if
    step n is skipped", "valid under the cofactored equation only"); 8.3 uses neither.
    """
    # 1. A_enc is 32 bytes and the signature 64 bytes
    if len(a_enc) != 32 or len(sig) != 64:
        return "1"
    r_enc, s_enc = sig[:32], sig[32:]
    # 2. S = int_le(S_enc) < L
    s = int_le(s_enc)
    if s >= L and 2 not in skip:
        return "2"
    # 3. neither R_enc nor A_enc, bit 255 cleared, is one of the seven small-order encodings
    if 3 not in skip and any((int_le(e) & MASK255) in SMALL_ORDER_Y for e in (r_enc, a_enc)):
        return "3"
    # 4. A_enc is canonical
    if int_le(a_enc) & MASK255 >= P:
        return "4"
    # 5. A_enc decodes to a point A by RFC 8032 5.1.3
    a = decode(a_enc)
    if a is None:
        return "5"
    # 6. k = int_le(SHA-512(R_enc || A_enc || m)) mod L
    k = int_le(hashlib.sha512(r_enc + a_enc + m).digest()) % L
    # 7. R' = [S]B - [k]A; valid exactly if encode(R') = R_enc
    if cofactored:  # [8][S]B = [8]R + [8][k]A, for the notes only
        r = decode(r_enc)
        ok = r is not None and pt_eq(pt_mul(8, pt_mul(s, B)),
                                     pt_mul(8, pt_add(r, pt_mul(k, a))))
        return "ok" if ok else "7"
    r_prime = pt_add(pt_mul(s, B), pt_neg(pt_mul(k, a)))
    return "ok" if encode(r_prime) == r_enc else "7"


def verify_signature(a_enc: bytes, m: bytes, sig: bytes) -> None:
    """8.3: any failure is frame/bad-signature."""
    if ed25519_verify(a_enc, m, sig) != "ok":
        fail("frame/bad-signature")


# --- 8.1 canonical msgpack -------------------------------------------------------------------
MAX_ENTRIES = 4096
MAX_PARSE_DEPTH = 1024
MAX_DEPTH = 16


def pack(v: Any, depth: int = 0) -> bytes:
    """8.1 Encoding: the canonical encoding; `depth` containers enclose v (rule 5)."""
    if v is None:
        return b"\xc0"
    if isinstance(v, bool):
        return b"\xc3" if v else b"\xc2"
    if isinstance(v, int):
        return _pack_int(v)
    if isinstance(v, str):
        raw = v.encode("utf-8")
        return _header(len(raw), 0xA0, 31, b"\xd9\xda\xdb") + raw
    if isinstance(v, bytes):
        return _header(len(v), None, 0, b"\xc4\xc5\xc6") + v
    if isinstance(v, list):
        if depth + 1 > MAX_DEPTH:
            fail("msgpack/too-deep")
        return _header(len(v), 0x90, 15, b"\xdc\xdd") + b"".join(pack(x, depth + 1) for x in v)
    if isinstance(v, dict):
        if depth + 1 > MAX_DEPTH:
            fail("msgpack/too-deep")
        if any(not isinstance(key, str) for key in v):  # [W1]
            fail("msgpack/map-key")
        body = b"".join(pack(key, depth + 1) + pack(v[key], depth + 1) for key in sorted(v))
        return _header(len(v), 0x80, 15, b"\xde\xdf") + body
    fail("msgpack/type")  # a float, or anything else


def _pack_int(v: int) -> bytes:
    if not -(2**63) <= v <= 2**64 - 1:
        fail("msgpack/unencodable")
    if 0 <= v <= 127:
        return bytes([v])
    if v >= 0:
        for tag, n in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8)):
            if v < 2 ** (8 * n):
                return bytes([tag]) + v.to_bytes(n, "big")
    if v >= -32:
        return bytes([v & 0xFF])
    for tag, n in ((0xD0, 1), (0xD1, 2), (0xD2, 4), (0xD3, 8)):
        if v >= -(2 ** (8 * n - 1)):
            return bytes([tag]) + v.to_bytes(n, "big", signed=True)
    raise AssertionError(v)


def _header(n: int, fix: int | None, fix_max: int, tags: bytes) -> bytes:
    """The shortest header for a length n: fix form, then 8-, 16-, 32-bit lengths."""
    if fix is not None and n <= fix_max:
        return bytes([fix | n])
    widths = (1, 2, 4) if len(tags) == 3 else (2, 4)
    for tag, w in zip(tags, widths, strict=True):
        if n < 2 ** (8 * w):
            return bytes([tag]) + n.to_bytes(w, "big")
    fail("msgpack/unencodable")


class _Open:
    """A container header just read: its kind and entry count."""

    def __init__(self, is_map: bool, n: int) -> None:
        self.is_map, self.n = is_map, n


class _Parser:
    """8.1 rules 3 and 3': one front-to-back pass, the first failure in the bytes wins.

    Iterative (an explicit stack of open containers), so 1024 levels need no recursion.
    """

    def __init__(self, data: bytes, max_size: int) -> None:
        self.data, self.pos, self.max_size = data, 0, max_size

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            fail("msgpack/malformed")  # truncated
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def uint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def item(self) -> Any:
        """One header: a complete scalar value, or an _Open for a container."""
        b = self.take(1)[0]
        if b <= 0x7F:
            return b
        if b >= 0xE0:
            return b - 256
        if 0x80 <= b <= 0x8F:
            return _Open(True, b & 0x0F)
        if 0x90 <= b <= 0x9F:
            return _Open(False, b & 0x0F)
        if 0xA0 <= b <= 0xBF:
            return self.text(b & 0x1F)
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if b in simple:
            return simple[b]
        if b in (0xC4, 0xC5, 0xC6):
            n = self.uint({0xC4: 1, 0xC5: 2, 0xC6: 4}[b])
            if n > self.max_size:
                fail("msgpack/malformed")
            return self.take(n)
        if b in (0xC7, 0xC8, 0xC9):
            n = self.uint({0xC7: 1, 0xC8: 2, 0xC9: 4}[b])
            if n > 0:
                fail("msgpack/malformed")  # an ext with a payload
            ext_type = struct.unpack(">b", self.take(1))[0]
            fail("msgpack/malformed" if ext_type == -1 else "msgpack/ext")  # [W2]
        if b == 0xCA:
            return struct.unpack(">f", self.take(4))[0]
        if b == 0xCB:
            return struct.unpack(">d", self.take(8))[0]
        if 0xCC <= b <= 0xCF:
            return self.uint(1 << (b - 0xCC))
        if 0xD0 <= b <= 0xD3:
            return int.from_bytes(self.take(1 << (b - 0xD0)), "big", signed=True)
        if 0xD4 <= b <= 0xD8:
            fail("msgpack/malformed")  # fixext: always a payload of 1 to 16 bytes
        if b in (0xD9, 0xDA, 0xDB):
            return self.text(self.uint({0xD9: 1, 0xDA: 2, 0xDB: 4}[b]))
        if b in (0xDC, 0xDD):
            return _Open(False, self.uint(2 if b == 0xDC else 4))
        if b in (0xDE, 0xDF):
            return _Open(True, self.uint(2 if b == 0xDE else 4))
        fail("msgpack/malformed")  # 0xc1, the reserved byte

    def text(self, n: int) -> str:
        if n > self.max_size:
            fail("msgpack/malformed")
        try:
            return self.take(n).decode("utf-8")
        except UnicodeDecodeError:
            fail("msgpack/malformed")

    def value(self) -> Any:
        """One whole value from the current position."""
        # Each open container: [the list or dict, entries left, the pending map key or
        # _NO_KEY]; a map entry counts once, when its value is attached.
        stack: list[list[Any]] = []
        while True:
            v = self.item()
            if isinstance(v, _Open):
                if v.n > MAX_ENTRIES or len(stack) + 1 > MAX_PARSE_DEPTH:  # [W3]
                    fail("msgpack/malformed")
                if v.n:
                    stack.append([{} if v.is_map else [], v.n, _NO_KEY])
                    continue
                v = {} if v.is_map else []
            while True:  # attach the completed value v to the innermost open container
                if not stack:
                    return v
                top = stack[-1]
                if isinstance(top[0], dict) and top[2] is _NO_KEY:
                    if not isinstance(v, str | bytes):
                        fail("msgpack/malformed")  # map keys are str or bin
                    top[2] = v
                    break
                if isinstance(top[0], dict):
                    top[0][top[2]] = v  # [W4]
                    top[2] = _NO_KEY
                else:
                    top[0].append(v)
                top[1] -= 1
                if top[1]:
                    break
                v = stack.pop()[0]


_NO_KEY = object()


def unpack(data: Any, max_size: int) -> Any:
    """8.1 strict decoding, rules 1 to 6 in order."""
    if not isinstance(data, bytes):
        fail("msgpack/type")  # 1
    if len(data) > max_size:
        fail("msgpack/too-large")  # 2, before any parsing
    parser = _Parser(data, max_size)
    value = parser.value()  # 3 and 3'
    if parser.pos != len(data):
        fail("msgpack/trailing-bytes")  # 4
    if pack(value) != data:  # 5 (pack raises), then 6
        fail("msgpack/non-canonical")
    return value


# --- 8.2 the setup --------------------------------------------------------------------------
MAX_SETUP_BYTES = 4096
HEX64 = re.compile(r"[0-9a-f]{64}")
SETS = {"double-six": 6, "double-nine": 9, "double-twelve": 12}


def _param(params: dict[str, Any], name: str, kind: type, default: Any = None,
           lo: int | None = None, hi: int | None = None) -> Any:
    """One parameter of rules/*.md 2: present and well typed, or its default."""
    if name not in params:
        if default is None:
            fail("rules/params")  # a required parameter [W6]
        return default
    v = params[name]
    if kind is int and (not isinstance(v, int) or isinstance(v, bool)):
        fail("rules/params")
    if kind is not int and not isinstance(v, kind):
        fail("rules/params")
    if lo is not None and hi is not None and not lo <= v <= hi:
        fail("rules/params")
    return v


def _after(params: dict[str, Any]) -> str:
    after: str = _param(params, "after", str, "")
    if after and not HEX64.fullmatch(after):  # 11.5: 64 lowercase hex digits [W6]
        fail("rules/params")
    return after


def _known(params: dict[str, Any], names: set[str]) -> None:
    if set(params) - names:
        fail("rules/params")  # unknown keys (bram.md 1)


def bram_params(params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """rules/bram.md 2: komi_halves, integer -336..336, default 0; 2 seats."""
    _known(params, {"komi_halves"})
    return {"komi_halves": _param(params, "komi_halves", int, 0, -336, 336)}, 2


def mexican_train_params(params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """rules/mexican-train.md 2."""
    _known(params, {"seats", "round", "mexican_train", "after"})
    seats = _param(params, "seats", int, None, 2, 8)
    full = {"seats": seats, "round": _param(params, "round", int, 12, 0, 12),
            "mexican_train": _param(params, "mexican_train", bool, False),
            "after": _after(params)}
    return full, seats


def mineshaft_params(params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """rules/mineshaft.md 2 (max_seats: D3; short games on the highest double: D13)."""
    _known(params, {"set", "seats", "round", "long", "after"})
    tile_set = _param(params, "set", str, "double-six")
    if tile_set not in SETS:
        fail("rules/params")
    top = SETS[tile_set]
    seats = _param(params, "seats", int, None, 2, 4 if tile_set == "double-six" else 8)
    rnd = _param(params, "round", int, top, 0, top)
    long = _param(params, "long", bool, False)
    if not long and rnd != top:
        fail("rules/params")
    full = {"set": tile_set, "seats": seats, "round": rnd, "long": long,
            "after": _after(params)}
    return full, seats


RULESETS: dict[str, Callable[[dict[str, Any]], tuple[dict[str, Any], int]]] = {
    "bram": bram_params, "mexican-train": mexican_train_params, "mineshaft": mineshaft_params}


def H_game(setup: bytes) -> bytes:
    """3.1 H(GAME, setup bytes), first 32 bytes (8.2)."""
    def lp(x: bytes) -> bytes:
        return len(x).to_bytes(4, "big") + x
    parts = (b"dealerless/1", b"dealerless/game-id", setup)
    return hashlib.sha512(b"".join(lp(x) for x in parts)).digest()[:32]


def decode_setup(data: bytes) -> bytes:
    """8.2 "Decoding a received setup", rules 1 to 11 in order; returns the game id."""
    v = unpack(data, MAX_SETUP_BYTES)  # 1
    if not isinstance(v, list) or len(v) != 6:
        fail("schema/array")
    magic, version, rules, params, ids, nonces = v
    if magic != "dealerless/setup":  # 2 [W5]
        fail("setup/version")
    if not isinstance(version, int) or isinstance(version, bool) or not (
            0 <= version <= 2**64 - 1):
        fail("schema/int")
    if version != 1:
        fail("setup/version")
    if not isinstance(rules, str) or len(rules) > 64:  # 3
        fail("schema/str")
    if not isinstance(params, dict) or any(  # 4 (bool is an int in Python)
            not isinstance(x, int | str) for x in params.values()):
        fail("setup/params")
    for items in (ids, nonces):  # 5, 6
        if not isinstance(items, list) or len(items) > 8:
            fail("schema/array")
        if any(not isinstance(x, bytes) or len(x) != 32 for x in items):
            fail("schema/bytes")
    if len(ids) < 2:  # 7
        fail("schema/int")
    if rules not in RULESETS:  # 8
        fail("rules/unknown-ruleset")
    full, k = RULESETS[rules](params)  # 9
    if params != full:
        fail("setup/params")
    if len(ids) != k or len(nonces) != k or len(set(ids)) != k:  # 10
        fail("setup/seats")
    if any(point_rule(key) is not None for key in ids):  # 11
        fail("setup/identity")
    return H_game(data)


# --- the vector files ---------------------------------------------------------------------
def _run(fn: Callable[[], Any]) -> tuple[Any, str]:
    try:
        return fn(), "ok"
    except WireError as e:
        return None, e.code


def _load(t: Any, name: str) -> list[dict[str, Any]]:
    t.file = name
    vectors: list[dict[str, Any]] = json.loads((VECTORS / name).read_text())["vectors"]
    return vectors


def check_ed25519(t: Any) -> None:
    """vectors/ed25519.json: verdict, failing step, and each vector's note."""
    about = json.loads((VECTORS / "ed25519.json").read_text())["about"]
    a_scalar = int(about["scalar_a"])
    for v in _load(t, "ed25519.json"):
        nm, key, m, sig = v["name"], *(bytes.fromhex(v[f]) for f in ("key", "message",
                                                                        "signature"))
        t.ok(f"{nm}: message starts with the 8.3 prefix", m.startswith(SIGN_PREFIX))
        step = ed25519_verify(key, m, sig)
        t.eq(f"{nm}: fails_at_step", step, v["fails_at_step"])
        _, code = _run(lambda key=key, m=m, sig=sig: verify_signature(key, m, sig))
        t.eq(f"{nm}: verdict", code, v["expected"])
        note = v.get("note", "")
        for n in re.findall(r"passes step 7 if step (\d) is skipped", note):
            t.eq(f"{nm}: with step {n} skipped", ed25519_verify(key, m, sig, frozenset({
                int(n)})), "ok")
        if "cofactored equation only" in note or "valid under both equations" in note:
            t.eq(f"{nm}: cofactored equation", ed25519_verify(key, m, sig, cofactored=True),
                 "ok")
        if "scalar a" in nm:
            t.eq(f"{nm}: key = [a]B", key.hex(), encode(pt_mul(a_scalar, B)).hex())
        if "aB + T" in nm:  # the key minus [a]B is a torsion point other than O
            a = decode(key)
            tors = a and pt_add(a, pt_neg(pt_mul(a_scalar, B)))
            t.ok(f"{nm}: key - [a]B is a nonzero small-order point", tors is not None and
                 not pt_eq(tors, NEUTRAL) and pt_eq(pt_mul(8, tors), NEUTRAL))
            t.eq(f"{nm}: 2.3 refuses the key", point_rule(key), "point/torsion")


def check_msgpack(t: Any) -> None:
    """vectors/msgpack.json: unpack(data, max_size) by 8.1."""
    for v in _load(t, "msgpack.json"):
        data = bytes.fromhex(v["data"])
        value, code = _run(lambda d=data, n=v["max_size"]: unpack(d, n))
        t.eq(f"{v['name']}: unpack", code, v["expected"])
        if code == "ok":
            t.eq(f"{v['name']}: re-encodes to itself", pack(value).hex(), v["data"])


def check_setup(t: Any) -> None:
    """vectors/setup.json: 8.2's rules in order, and the game id."""
    for v in _load(t, "setup.json"):
        setup = bytes.fromhex(v["setup"])
        game_id, code = _run(lambda s=setup: decode_setup(s))
        t.eq(f"{v['name']}: decode", code, v["expected"])
        if "game_id" in v or code == "ok":
            t.eq(f"{v['name']}: game id", game_id and game_id.hex(), v.get("game_id"))


CHECKS = (check_ed25519, check_msgpack, check_setup)


class _Tally:
    def __init__(self) -> None:
        self.file = ""
        self.counts: dict[str, list[int]] = {}

    def ok(self, what: str, cond: bool) -> None:
        self.counts.setdefault(self.file, [0, 0])[0 if cond else 1] += 1
        if not cond:
            print(f"FAIL {self.file}: {what}")

    def eq(self, what: str, got: Any, want: Any) -> None:
        self.ok(f"{what}: got {str(got)[:80]}, want {str(want)[:80]}", got == want)


def main() -> int:
    t = _Tally()
    for fn in CHECKS:
        fn(t)
        passed, failed = t.counts.get(t.file, [0, 0])
        print(f"{t.file}: {passed} passed, {failed} failed")
    failed = sum(c[1] for c in t.counts.values())
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
