#!/usr/bin/env python3
"""Independent verifier of dealerless/1 transcript files.

Written from spec/ alone (sections 1-3, 5-8, 10, 11, rules/bram.md,
rules/mexican-train.md, rules/mineshaft.md and rules/mined-games.md): no code of the
project is read or imported except tools/independent_check.py, itself a spec-only
implementation of the group, hashing and proof primitives, tools/independent_mexican_train.py,
tools/independent_mineshaft.py and tools/independent_mined.py, the rule sets
`mexican-train`, `mineshaft` and `mined-games` (with its commit-reveal stages, 10.8) each
written from its document alone. It parses a transcript (8.6),
decodes the setup (8.2), replays every frame through the checks of 10.5 in order, judges
the evidence records (11.2 step 4) and reports the verdict of 11.1.

Usage:
    python tools/independent_verify.py FILE...        one line per file
    python tools/independent_verify.py --json FILE    the 11.1 JSON object per file
    python tools/independent_verify.py --golden       every transcript of
        spec/vectors/transcripts/index.json against its expected verdict, plus the state
        hash (10.3) of every frame of the `valid` and `mined-games-5` transcripts; exit 0
        iff nothing failed.
    python tools/independent_verify.py --disputes     spec/vectors/setup.json against
        decode_setup, spec/vectors/disputes/ (every golden frame's package rebuilt by 11.3
        and judged by check_step, 11.4; the crafted packages) and spec/vectors/files.json
        (transcript and match files, 11.2 and 11.5), by tools/independent_dispute.py.
    python tools/independent_verify.py --all          --golden, then --disputes.
    python tools/independent_verify.py --perft        the rule vectors of
        spec/vectors/rules/mineshaft_perft.json (rules/mineshaft.md 11) against
        tools/independent_mineshaft.py; exit 0 iff all agree.

Exit codes as 11.1: 0 valid and complete, 1 invalid, 2 usage/unreadable, 3 valid prefix
(several files: the worst of them, in the order 2, 1, 3, 0).
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import itertools
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import independent_check as ic
import independent_mexican_train as imt
import independent_mined as imd
import independent_mineshaft as ims
import msgpack
from nacl import bindings as nb
from nacl import exceptions as nacl_exc

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "spec" / "vectors" / "transcripts" / "index.json"

L, G, IDENT, T = ic.L, ic.G, ic.IDENT, ic.T
u64, add, sub, smul, bmul, total, msm = (
    ic.u64, ic.add, ic.sub, ic.smul, ic.bmul, ic.total, ic.msm)

# Decisions where the spec is ambiguous or silent (cited below as [Dn]):
# [D1] 8.4 rows 4-5: a negative or boolean `version`/`type` fails the int accessor
#      (schema/int, default range 0..2^64-1) before frame/version or frame/unknown-type.
# [D2] 8.2 row 2 (as clarified): the magic first (setup/version), then the version read
#      as int(0, 2^64-1), so `true` is schema/int, then equal to 1 (setup/version).
# [D3] 8.2 rows 4/9 (as clarified): a value that is not an integer, text or boolean is
#      setup/params (row 4); a parameter the rule set refuses (unknown key, missing
#      required one, wrong type, out of range, bad `after`) is rules/params (row 9); a map
#      the rule set accepts but that omits a default is setup/params (row 9).
# [D4] 10.4 PLAY 1 vs rules/bram.md 4: an id in 57..2^20 is move/unknown-id (bram.md
#      calls an out-of-range id rules/move-id).
# [D5] 11.2 steps 1 and 4: a transcript error and transcript/bad-evidence are reported
#      with authenticated = false; a proven frame/equivocation or frame/out-of-turn with
#      authenticated = true (the equivocation vector confirms the latter).
# [D6] 7.5 / 8.5: the output deck is read as bytes of at most 64N + 1 (N = the current
#      deck), so only a *shorter* deck reaches shuffle/size, and the proof length is
#      checked (for N = |e|) before shuffle/size (independent_check.py does size first).
# [D7] 8.1 rule 5: within one map the keys are checked (msgpack/map-key) before the
#      values are walked; a container at depth 17 is msgpack/too-deep; the parser stack
#      of rule 3 is msgpack-python's (1024 nested containers -> msgpack/malformed).
# [D8] 10.3: the `turn` of the rules map stays an integer (1 - last mover) once the hand
#      is over, although bram.md's to_move is none then; the vectors' state hashes of
#      the REVEAL frames require this.
# [D9] 11.2 step 3: a frame failing checks 1-4 (not authenticated) still ends the replay
#      with verdict invalid, although 10.7 says such failures are "reported and not
#      kept" (bad-signature and other-game vectors require this).
# [D10] bram.md 8: halves_text of a negative odd count is "-" + the text of its absolute
#      value ("-1.5"); only "-0.5" is given as an example.
# Further gaps (draws, claims, Mexican Train) are marked `# SPEC GAP:` where they are decided.

# 1.4: LocalErrors are bugs of the verifier itself, never blamed on a seat (10.5).
LOCAL_CODES = {"hash/untagged", "nonce/fresh-too-short", "context/game-id", "shuffle/witness",
               "deck/seats", "tile/not-in-set", "rules/bad-hand", "rules/not-over",
               "rules/bad-move", "rules/bad-state", "rules/first-player",
               "cannot-play/size", "cannot-play/order", "cannot-play/witness",
               "session/boneyard"}

MAX_SETUP_BYTES = 4096      # 8.2
MAX_FRAME_BYTES = 65536     # 8.4
MAX_LIST = 4096             # 8.1 list(m) default


class Err(ic.SpecError):
    """A failed check with its stable `area/rule` code (1.4) and a free-text detail."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.detail = detail or code


def fail(code: str, detail: str = "") -> NoReturn:
    raise Err(code, detail)


def detail_of(e: ic.SpecError) -> str:
    return getattr(e, "detail", e.code)


@dataclass
class Violation(Exception):
    """10.1: the rule broken, the seat to blame (or None), the frame, authenticated."""

    rule: str
    seat: int | None
    frame: int | None
    authenticated: bool
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "frame": self.frame, "rule": self.rule,
                "detail": self.detail, "authenticated": self.authenticated}


# --- 8.1 canonical msgpack --------------------------------------------------------------
class _ExtMet(Exception):
    pass


def _ext_hook(code: int, data: bytes) -> NoReturn:
    # With max_ext_len=0 every ext with a payload is already malformed (rule 3); what
    # reaches the hook is an ext with an empty payload other than type -1 (rule 3').
    raise _ExtMet(code)


def _canon(v: Any, depth: int) -> Any:
    """8.1 rule 5: walk the value as the re-encoding does; sort every map's keys [D7]."""
    if v is None or isinstance(v, bool | str | bytes):
        return v
    if isinstance(v, int):
        if not -(2**63) <= v <= 2**64 - 1:
            fail("msgpack/unencodable")
        return v
    if isinstance(v, list | tuple):
        if depth >= 16:
            fail("msgpack/too-deep", "more than 16 nested containers")
        return [_canon(x, depth + 1) for x in v]
    if isinstance(v, dict):
        if depth >= 16:
            fail("msgpack/too-deep", "more than 16 nested containers")
        if any(not isinstance(k, str) for k in v):
            fail("msgpack/map-key", "a map key is not text")
        return {k: _canon(v[k], depth + 1) for k in sorted(v)}  # code-point order
    fail("msgpack/type", f"{type(v).__name__} has no encoding")


def pack(v: Any) -> bytes:
    """8.1: msgpack-python's packb(value, use_bin_type=True) with sorted map keys."""
    return msgpack.packb(_canon(v, 0), use_bin_type=True)


def unpack(data: Any, max_size: int) -> Any:
    """8.1 strict decoding, rules 1 to 6 in order."""
    if not isinstance(data, bytes):
        fail("msgpack/type")
    if len(data) > max_size:
        fail("msgpack/too-large", f"{len(data)} > {max_size} bytes")
    try:
        value = msgpack.unpackb(
            data, raw=False, use_list=True, strict_map_key=True, timestamp=0,
            max_str_len=max_size, max_bin_len=max_size, max_array_len=4096,
            max_map_len=4096, max_ext_len=0, ext_hook=_ext_hook)
    except _ExtMet:
        fail("msgpack/ext")
    except msgpack.ExtraData:
        fail("msgpack/trailing-bytes")
    except Exception as e:  # any parse failure: truncated, bad UTF-8, limits, stack
        fail("msgpack/malformed", f"{type(e).__name__}: {e}")
    if pack(value) != data:
        fail("msgpack/non-canonical")
    return value


# --- 8.1 typed field accessors -----------------------------------------------------------
def f_array(v: Any, n: int, what: str) -> list[Any]:
    if not isinstance(v, list) or len(v) != n:
        fail("schema/array", f"{what}: expected an array of {n}")
    return v


def f_list(v: Any, what: str, m: int = MAX_LIST) -> list[Any]:
    if not isinstance(v, list) or len(v) > m:
        fail("schema/array", f"{what}: expected an array of at most {m}")
    return v


def f_bytes(v: Any, what: str, n: int | None = None, at_most: int | None = None) -> bytes:
    if not isinstance(v, bytes) or (n is not None and len(v) != n) or (
            at_most is not None and len(v) > at_most):
        fail("schema/bytes", f"{what}: expected bytes" + (f"({n})" if n is not None else
                                                          f" of at most {at_most}"))
    return v


def f_int(v: Any, what: str, lo: int = 0, hi: int = 2**64 - 1) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        fail("schema/int", f"{what}: expected an integer in [{lo}, {hi}]")
    return v


def f_text(v: Any, what: str, m: int = 64) -> str:
    if not isinstance(v, str) or len(v) > m:
        fail("schema/str", f"{what}: expected text of at most {m} code points")
    return v


# --- 2.3 / 2.4 decoding ------------------------------------------------------------------
def decode_point(b: bytes) -> bytes:
    """2.3. The accepted set is exactly crypto_core_ed25519_is_valid_point; the slow
    pure-Python classifier of independent_check only names the rule on failure."""
    if len(b) == 32 and nb.crypto_core_ed25519_is_valid_point(b):
        return b
    fail(ic._point_rule(b) or "point/not-on-curve")


def decode_scalar(b: bytes) -> int:
    return ic.decode_scalar(b)


# --- 3 hashing, 5.1 tiles -----------------------------------------------------------------
def H(tag: str, *parts: bytes) -> bytes:
    return ic.H(T[tag], *parts)


def H_scalar(tag: str, *parts: bytes) -> int:
    return ic.H_scalar(T[tag], *parts)


Tile = tuple[int, int]


def tile_text(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


# --- rules/bram.md -------------------------------------------------------------------------
@dataclass(frozen=True)
class BramState:
    """rules/bram.md 3 (without `played`, which the line determines)."""

    line: tuple[Tile, ...]
    hand_counts: tuple[int, ...]
    turn: int
    first_player: int
    passes: int
    finished: str | None

    @property
    def played(self) -> set[Tile]:
        return {(min(a, b), max(a, b)) for a, b in self.line}

    def to_json(self) -> dict[str, Any]:
        # 10.3 / bram.md 3; `turn` is this field, an integer even once over [D8].
        return {"finished": self.finished, "first_player": self.first_player,
                "hand_counts": list(self.hand_counts), "line": [list(x) for x in self.line],
                "passes": self.passes, "turn": self.turn}


@dataclass(frozen=True)
class Move:
    tile: Tile | None  # None: Pass
    end: str = ""      # "L" or "R"

    def text(self) -> str:  # bram.md 4
        return "pass" if self.tile is None else f"{tile_text(self.tile)}>{self.end}"


@dataclass
class Outcome:
    winner: int | None
    reason: str
    hand_pips: list[int]
    pips_halves: list[int]
    margin_halves: int
    hidden: list[Tile]

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "draw": self.winner is None, "reason": self.reason,
                "pips": [halves_text(x) for x in self.pips_halves],
                "pips_halves": self.pips_halves, "hand_pips": self.hand_pips,
                "margin": halves_text(self.margin_halves),
                "margin_halves": self.margin_halves}


def halves_text(h: int) -> str:
    """bram.md 8: a half-pip count as exact decimal text: "12.5", "-0.5", "3" [D10]."""
    sign, a = ("-" if h < 0 else ""), abs(h)
    return f"{sign}{a // 2}" + (".5" if a % 2 else "")


class Bram:
    """The rule set `bram` (rules/bram.md)."""

    name = "bram"
    drawing_rules = False    # 10.4: never draws, no forced play
    set_name = "double-six"
    seats, hand_size, hidden, on_table = 2, 13, 1, ((6, 6),)   # bram.md 2 DealPlan
    tiles: tuple[Tile, ...] = tuple((a, b) for a in range(7) for b in range(a, 7))  # 5.1

    def __init__(self, params: dict[str, Any]) -> None:
        # bram.md 1/2, 8.2 row 9 [D3]: an omitted key takes its default (decode_setup then
        # refuses a map without every parameter spelled out, setup/params); an unknown key,
        # a wrong type or a value out of range is rules/params.
        k = params.get("komi_halves", 0) if isinstance(params, dict) else None
        if (not isinstance(params, dict) or set(params) - {"komi_halves"}
                or not isinstance(k, int) or isinstance(k, bool) or not -336 <= k <= 336):
            fail("rules/params", f"bram takes {{komi_halves: -336..336}}, got {params}")
        self.komi = k
        self.params = {"komi_halves": k}

    # bram.md 3
    def initial_state(self, first_player: int) -> BramState:
        return BramState(((6, 6),), (13, 13), first_player, first_player, 0, None)

    def to_move(self, s: BramState) -> int | None:
        return None if s.finished else s.turn

    def is_over(self, s: BramState) -> bool:
        return s.finished is not None

    # bram.md 4
    def move_from_id(self, move_id: int) -> Move | None:
        """None for an id that names no move: the session's move/unknown-id [D4]."""
        if not 0 <= move_id <= 56:
            return None
        if move_id == 0:
            return Move(None)
        return Move(self.tiles[(move_id - 1) // 2], "L" if (move_id - 1) % 2 == 0 else "R")

    def played_tile(self, m: Move) -> Tile | None:
        return m.tile

    # bram.md 6
    def apply(self, s: BramState, seat: int, m: Move) -> BramState:
        def violate(code: str, detail: str) -> NoReturn:
            fail(code, f"{m.text()}: {detail}")

        if s.finished is not None:
            violate("rules/game-over", "the hand is over")
        if seat != s.turn:
            violate("rules/not-your-turn", f"seat {s.turn} is to move")
        nxt = 1 - seat
        if m.tile is None:
            passes = s.passes + 1
            return BramState(s.line, s.hand_counts, nxt, s.first_player, passes,
                             "blocked" if passes == 2 else None)
        t = m.tile
        if t not in self.tiles:
            violate("rules/not-in-set", "not a double-six tile")
        if t in s.played:
            violate("rules/tile-already-played", "the tile is already on the table")
        left, right = s.line[0][0], s.line[-1][1]
        p = left if m.end == "L" else right
        if p not in t:
            violate("rules/tile-does-not-match", f"that end shows {p}")
        if m.end == "L" and left == right:
            violate("rules/non-canonical-end", "both ends are equal: play on the right")
        other = t[1] if t[0] == p else t[0]
        line = ((other, p), *s.line) if m.end == "L" else (*s.line, (p, other))
        counts = list(s.hand_counts)
        counts[seat] -= 1
        return BramState(line, tuple(counts), nxt, s.first_player, 0,
                         "out" if counts[seat] == 0 else None)

    # bram.md 8
    def outcome(self, s: BramState, hands: list[list[Tile]], hidden: list[Tile]) -> Outcome:
        if s.finished is None:
            raise RuntimeError("rules/not-over")
        every = [t for h in hands for t in h] + hidden + sorted(s.played)
        if (any(len(h) != c or len(set(h)) != len(h) for h, c in zip(
                hands, s.hand_counts, strict=True)) or len(hidden) != 1
                or sorted(every) != sorted(self.tiles)):
            fail("rules/reveal-mismatch", "the revealed tiles disagree with the public state")
        hand_pips = [sum(a + b for a, b in h) for h in hands]
        pips = [2 * p + (self.komi if s_ == s.first_player else 0)
                for s_, p in enumerate(hand_pips)]
        if s.finished == "out":
            winner = s.hand_counts.index(0)
            margin = 2 * hand_pips[1 - winner]
        elif pips[0] == pips[1]:
            winner, margin = None, 0
        else:
            winner = 0 if pips[0] < pips[1] else 1
            margin = abs(pips[0] - pips[1])
        return Outcome(winner, s.finished, hand_pips, pips, margin, list(hidden))


RULESETS: dict[str, Any] = {"bram": Bram, "mexican-train": imt.MexicanTrain,
                            "mineshaft": ims.Mineshaft, "mined-games": imd.MinedGames}
HIDDEN, BONEYARD = -1, -2


# --- 8.2 the setup and the game ----------------------------------------------------------
@dataclass
class Game:
    """10.1: the fixed facts derived from the setup."""

    setup: bytes
    rules: Any               # Bram, imt.MexicanTrain or ims.Mineshaft
    identities: list[bytes]
    k: int
    game_id: bytes
    deck_tiles: list[Tile]
    owners: list[int]
    point_of: dict[Tile, bytes]
    tile_of: dict[bytes, Tile]


def decode_setup(data: bytes) -> Game:
    """8.2: the checks in their order."""
    v = f_array(unpack(data, MAX_SETUP_BYTES), 6, "setup")
    magic, version, rules_name, params, ids, nonces = v
    if magic != "dealerless/setup":                                             # [D2]
        fail("setup/version", "magic is not dealerless/setup")
    if f_int(version, "version") != 1:
        fail("setup/version", f"version {version}")
    f_text(rules_name, "rules")
    if not isinstance(params, dict) or any(
            not isinstance(x, int | str) for x in params.values()):  # bool is an int
        fail("setup/params", "params must map names to integers, text or booleans")
    for x in f_list(ids, "identities", 8):
        f_bytes(x, "identity", 32)
    for x in f_list(nonces, "nonces", 8):
        f_bytes(x, "nonce", 32)
    if not 2 <= len(ids) <= 8:
        fail("schema/int", "2 to 8 identities")
    if rules_name not in RULESETS:
        fail("rules/unknown-ruleset", f"unknown rule set {rules_name!r}")   # 8.2 row 8
    rules = RULESETS[rules_name](params)
    if params != rules.params:
        fail("setup/params")
    k = rules.seats
    if len(ids) != k or len(nonces) != k or len(set(ids)) != k:
        fail("setup/seats", f"{k} distinct identities and {k} nonces")
    for key in ids:                                                     # 8.2 row 11
        try:
            decode_point(key)
        except ic.SpecError as e:
            fail("setup/identity", f"an identity key is no prime-order point ({e})")
    game_id = H("GAME", data)[:32]
    if getattr(rules, "simultaneous", False):  # 10.8: no deck
        return Game(data, rules, list(ids), k, game_id, [], [], {}, {})
    # 10.3 positions and owners; 5.1 the tile table of the whole set.
    deck_tiles = [t for t in rules.tiles if t not in rules.on_table]
    h = rules.hand_size
    owners = [s for s in range(k) for _ in range(h)] + [HIDDEN] * rules.hidden
    owners += [BONEYARD] * (len(deck_tiles) - len(owners))
    table = ic.tile_points(rules.set_name)
    point_of = {rules.tiles[i]: pt for i, pt in enumerate(table.values())}  # canonical order
    return Game(data, rules, list(ids), k, game_id, deck_tiles, owners, point_of,
                {pt: t for t, pt in point_of.items()})


# --- 8.6 the transcript file ---------------------------------------------------------------
MAGIC = b"DEALERLESS-T1\n"


@dataclass
class Transcript:
    setup: bytes
    game: Game
    frames: list[bytes]
    evidence: list[bytes]


def parse_transcript(data: bytes) -> tuple[Transcript | None, Err | None, Game | None]:
    """8.6 decoding checks, in order, record by record."""
    game: Game | None = None
    setup = b""
    frames: list[bytes] = []
    evidence: list[bytes] = []
    try:
        if not data.startswith(MAGIC):
            fail("transcript/magic")
        i = len(MAGIC)
        while i < len(data):
            if len(data) - i < 5:
                fail("transcript/truncated", f"record header at byte {i}")
            kind, n = data[i : i + 1], int.from_bytes(data[i + 1 : i + 5], "big")
            if n > (MAX_SETUP_BYTES if kind == b"S" else MAX_FRAME_BYTES):
                fail("transcript/too-large", f"record of {n} bytes at byte {i}")
            if len(data) - i - 5 < n:
                fail("transcript/truncated", f"record payload at byte {i}")
            payload = data[i + 5 : i + 5 + n]
            i += 5 + n
            if (kind not in (b"S", b"F", b"E") or (kind == b"S" and game is not None)
                    or (kind != b"S" and game is None) or (kind == b"F" and evidence)
                    or (kind == b"E" and len(evidence) == 16)):
                fail("transcript/record", f"record {kind!r} not allowed here")
            if kind == b"S":
                setup, game = payload, decode_setup(payload)
            elif kind == b"F":
                if len(frames) == 4096:
                    fail("transcript/too-large", "more than 4096 frames")
                frames.append(payload)
            else:
                evidence.append(payload)
        if game is None:
            fail("transcript/no-setup")
    except Err as e:
        return None, e, game
    return Transcript(setup, game, frames, evidence), None, game


# --- 8.4 frames --------------------------------------------------------------------------
TYPES = {1: ("KEY", "key", "keys"), 2: ("NONCE", "nonce", "nonces"),
         3: ("SHUFFLE", "shuffle", "shuffle"), 4: ("DEAL", "deal", "deal"),
         5: ("MOVE", "move", "play"), 6: ("REVEAL", "reveal", "reveal"),
         7: ("DRAW", "draw", "draw"), 8: ("COMMIT", "commit", "commit"),
         9: ("OPEN", "open", "open"), 10: ("ABSENT", "absent", "absent"),
         11: ("CHOOSE", "choose", "choose")}
# SPEC GAP: 10.3 lists the phases as keys, nonces, shuffle, deal, play, reveal, done; the
# phase `draw` of 10.2/10.4 is missing there. It is a phase like the others here.
PHASE_TYPE = {ph: t for t, (_, _, ph) in TYPES.items()}  # 10.2 the phase table


@dataclass
class Frame:
    wire: bytes
    payload: bytes
    signature: bytes
    game_id: bytes
    seq: int
    prev: bytes
    seat: int
    type: int
    state_hash: bytes
    body: Any


def parse_frame(wire: bytes) -> Frame:
    """8.4: parsing checks 1 to 6; the body is not examined."""
    outer = f_array(unpack(wire, MAX_FRAME_BYTES), 2, "frame")
    payload = f_bytes(outer[0], "payload", at_most=MAX_FRAME_BYTES)
    signature = f_bytes(outer[1], "signature", 64)
    p = f_array(unpack(payload, MAX_FRAME_BYTES), 8, "payload")
    # [D1]: the int accessor (schema/int) before the value checks.
    if f_int(p[0], "version") != 1:
        fail("frame/version")
    if f_int(p[5], "type") not in TYPES:
        fail("frame/unknown-type", f"type {p[5]}")
    game_id = f_bytes(p[1], "game_id", 32)
    seq = f_int(p[2], "seq")
    prev = f_bytes(p[3], "prev", 32)
    seat = f_int(p[4], "seat", 0, 255)
    state_hash = f_bytes(p[6], "state_hash", 32)
    return Frame(wire, payload, signature, game_id, seq, prev, seat, p[5], state_hash, p[7])


def signature_ok(pk: bytes, frame: Frame) -> bool:
    """8.3: libsodium's crypto_sign_open over the prefixed payload bytes."""
    if len(pk) != 32 or len(frame.signature) != 64:
        return False
    m = b"dealerless/frame-signature/1\x00" + frame.payload
    try:
        return nb.crypto_sign_open(frame.signature + m, pk) == m
    except (nacl_exc.CryptoError, ValueError, TypeError):
        return False


def frame_hash(wire: bytes) -> bytes:
    return H("FRAME", wire)[:32]  # 8.4


# --- 10.3 the public state ---------------------------------------------------------------
@dataclass
class State:
    game_id: bytes
    seq: int
    prev: bytes
    phase: str
    turn: int | None
    key_shares: list[bytes]
    commitments: list[bytes]
    nonces: list[bytes]
    first_player: int | None
    deck: bytes
    owners: list[int]
    shares: list[list[bytes | None]]
    opened: list[Tile | None]
    played: list[bool]
    rules: Any                     # BramState, imt.MexState, ims.MineState or None
    drawing: int | None = None     # 10.3: in phase draw, the position opened to its drawer
    # 10.3: the proven "cannot play" claims, each [seq, seat, [position, ...], ["a-b", ...]]
    claims: list[Any] = field(default_factory=list)

    def encode(self) -> bytes:
        """10.3: the canonical encoding (8.1) of the 18-key map."""
        return pack({
            "magic": "dealerless/state", "game_id": self.game_id, "seq": self.seq,
            "prev": self.prev, "phase": self.phase, "turn": self.turn,
            "key_shares": self.key_shares, "commitments": self.commitments,
            "nonces": self.nonces, "first_player": self.first_player, "deck": self.deck,
            "owners": self.owners, "shares": self.shares,
            "opened": [None if t is None else tile_text(t) for t in self.opened],
            "played": self.played,
            "rules": None if self.rules is None else self.rules.to_json(),
            "drawing": self.drawing, "claims": self.claims})

    def hash(self) -> bytes:
        return H("STATE", self.encode())[:32]

    def ct(self, p: int) -> tuple[bytes, bytes]:
        return self.deck[64 * p : 64 * p + 32], self.deck[64 * p + 32 : 64 * p + 64]


def initial_state(g: Game) -> State:
    if getattr(g.rules, "simultaneous", False):   # 10.8
        st = State(g.game_id, 0, g.game_id, "commit", 0, [], [], [], None, b"", [], [], [],
                   [], g.rules.start())
        stage_due(g, st)
        return st
    n = len(g.deck_tiles)
    return State(g.game_id, 0, g.game_id, "keys", 0, [], [], [], None, b"", list(g.owners),
                 [[None] * g.k for _ in range(n)], [None] * n, [False] * n, None)


def awaiting(st: State) -> tuple[int, str] | None:
    """10.2: (turn, label of the phase's message type), none once done."""
    if st.phase == "done":
        return None
    return st.turn, TYPES[PHASE_TYPE[st.phase]][1]


# --- 8.5 body decoding helpers -------------------------------------------------------------
def read_point(v: Any, what: str) -> bytes:
    """8.5: bytes of at most 33 (schema/bytes), then 2.3 (point/length first)."""
    return decode_point(f_bytes(v, what, at_most=33))


def read_proof64(v: Any, what: str, length_code: str) -> tuple[int, int]:
    """8.5: bytes of at most 65, then `length_code`, then two scalars (2.4)."""
    b = f_bytes(v, what, at_most=65)
    if len(b) != 64:
        fail(length_code, f"{what}: {len(b)} bytes")
    return decode_scalar(b[:32]), decode_scalar(b[32:])


@dataclass
class Entry:
    position: int
    share: bytes
    proof: tuple[int, int]


def read_entry(v: Any) -> Entry:
    e = f_array(v, 3, "entry")
    return Entry(f_int(e[0], "position", 0, 4095), read_point(e[1], "share"),
                 read_proof64(e[2], "share proof", "dleq/length"))


def read_entries(v: Any) -> list[Entry]:
    entries = [read_entry(x) for x in f_list(v, "entries")]
    pos = [e.position for e in entries]
    if any(a >= b for a, b in itertools.pairwise(pos)):
        fail("body/positions", "positions are not strictly ascending")
    return entries


# --- 6.2 / 6.3 / 7.5 proof checks -----------------------------------------------------------
def ctx_of(st: State, fr: Frame) -> bytes:
    return st.game_id + u64(fr.seq) + u64(fr.seat)  # 10.4 / 6.1


def check_schnorr(y: bytes, proof: tuple[int, int], ctx: bytes) -> None:
    c, s = proof
    r = sub(bmul(s), smul(c, y))
    if H_scalar("SCHNORR", ctx, G, y, r) != c:
        fail("schnorr/challenge", "recomputed challenge differs: key proof invalid")


def check_dleq(y: bytes, c1: bytes, d: bytes, proof: tuple[int, int], ctx: bytes) -> None:
    c, s = proof
    a = sub(bmul(s), smul(c, y))
    b = sub(smul(s, c1), smul(c, d))
    if H_scalar("DLEQ", ctx, G, y, c1, d, a, b) != c:
        fail("dleq/challenge", "recomputed challenge differs: share proof invalid")


def check_shuffle(ctx: bytes, y: bytes, deck_in: bytes, body: Any) -> bytes:
    """8.5 SHUFFLE decoding order [D6], then 7.5. Returns the output deck bytes."""
    n = len(deck_in) // 64
    b = f_array(body, 2, "shuffle body")
    out = f_bytes(b[0], "deck", at_most=64 * n + 1)
    if len(out) % 64:
        fail("deck/length", f"{len(out)} bytes")
    for i in range(0, len(out), 32):
        decode_point(out[i : i + 32])
    proof = f_bytes(b[1], "shuffle proof", at_most=128 * n + 161)
    if len(proof) != 128 * n + 160:
        fail("shuffle/length", f"{len(proof)} bytes for N = {n}")
    pts = [decode_point(proof[32 * i : 32 * i + 32]) for i in range(2 * n)]
    scs = [decode_scalar(proof[64 * n + 32 * i : 64 * n + 32 * i + 32])
           for i in range(2 * n + 5)]
    if n < 1 or len(out) != 64 * n:
        fail("shuffle/size", f"{len(out) // 64} ciphertexts for N = {n}")
    e = [(deck_in[64 * i : 64 * i + 32], deck_in[64 * i + 32 : 64 * i + 64]) for i in range(n)]
    e2 = [(out[64 * i : 64 * i + 32], out[64 * i + 32 : 64 * i + 64]) for i in range(n)]
    c, ch = pts[:n], pts[n:]
    chal, s1, s2, s3, s4 = scs[:5]
    sh, sp = scs[5 : 5 + n], scs[5 + n :]
    hs = ic.gens(n)
    stmt = ctx + G + y + ic.H_GEN + b"".join(hs) + deck_in + out        # 7.4 stmt
    seed_u = H("SHUFFLE_U", stmt, b"".join(c))
    u = [H_scalar("SHUFFLE_U", seed_u, u64(j)) for j in range(n)]
    c_bar = sub(total(c), total(hs))
    c_hat = sub(ch[-1], smul(math.prod(u) % L, ic.H_GEN))
    c_tilde = msm(u, c)
    a, bb = msm(u, [x[0] for x in e]), msm(u, [x[1] for x in e])
    t = [add(smul(chal, c_bar), bmul(s1)),
         add(smul(chal, c_hat), bmul(s2)),
         add(add(smul(chal, c_tilde), bmul(s3)), msm(sp, hs)),
         sub(add(smul(chal, a), msm(sp, [x[0] for x in e2])), bmul(s4)),
         sub(add(smul(chal, bb), msm(sp, [x[1] for x in e2])), smul(s4, y))]
    prev = [ic.H_GEN, *ch]
    t += [add(add(smul(chal, ch[i]), bmul(sh[i])), smul(sp[i], prev[i])) for i in range(n)]
    if H_scalar("SHUFFLE_C", stmt, b"".join(c), b"".join(ch), b"".join(t)) != chal:
        fail("shuffle/challenge",
             "recomputed challenge differs: the output is not a proven shuffle")
    return out


def open_position(g: Game, st: State, p: int) -> Tile:
    """5.6: M = c2 - sum of the non-nil shares, decoded in the whole set's table (5.1)."""
    m = sub(st.ct(p)[1], total([d for d in st.shares[p] if d is not None]))
    if m not in g.tile_of:
        fail("deck/not-a-tile", f"position {p} opens to no tile")
    return g.tile_of[m]


# --- 10.4 the phases step by step -----------------------------------------------------------
def on_key(g: Game, st: State, fr: Frame) -> None:
    b = f_array(fr.body, 3, "KEY body")
    y = read_point(b[0], "key_share")
    proof = read_proof64(b[1], "key proof", "schnorr/length")
    commitment = f_bytes(b[2], "commitment", 32)
    check_schnorr(y, proof, ctx_of(st, fr))
    st.key_shares.append(y)
    st.commitments.append(commitment)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    if total(st.key_shares) == IDENT:
        fail("deck/joint-key-identity", "the key shares cancel")
    st.phase, st.turn = "nonces", 0


def on_nonce(g: Game, st: State, fr: Frame) -> None:
    n_i = f_bytes(f_array(fr.body, 1, "NONCE body")[0], "nonce", 32)
    if H("COMMIT", st.game_id, bytes([fr.seat]), n_i)[:32] != st.commitments[fr.seat]:
        fail("nonce/commitment-mismatch", "the nonce does not open the commitment")
    st.nonces.append(n_i)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    digest = H("FIRST_PLAYER", st.game_id, *st.nonces)
    st.first_player = int.from_bytes(digest, "big") % g.k
    y = total(st.key_shares)
    st.deck = b"".join(G + add(g.point_of[t], y) for t in g.deck_tiles)  # 5.4
    st.phase, st.turn = "shuffle", 0


def on_shuffle(g: Game, st: State, fr: Frame) -> None:
    st.deck = check_shuffle(ctx_of(st, fr), total(st.key_shares), st.deck, fr.body)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
    else:
        st.phase, st.turn = "deal", 0


def check_entries(st: State, fr: Frame, entries: list[Entry]) -> None:
    """DEAL/REVEAL: DLEQ proofs in entry order against Y_i and c1 of deck[p]; store D_i."""
    ctx, y = ctx_of(st, fr), st.key_shares[fr.seat]
    for e in entries:
        check_dleq(y, st.ct(e.position)[0], e.share, e.proof, ctx)
    for e in entries:
        st.shares[e.position][fr.seat] = e.share


def on_deal(g: Game, st: State, fr: Frame) -> None:
    entries = read_entries(fr.body)
    want = [p for p, o in enumerate(st.owners) if o >= 0 and o != fr.seat]
    got = [e.position for e in entries]
    if got != want:
        fail("deal/positions", f"expected shares for positions {want}, got {got}")
    check_entries(st, fr, entries)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    st.rules = g.rules.initial_state(st.first_player)
    st.phase, st.turn = "play", g.rules.to_move(st.rules)


class ClaimError(Err):
    """audit/false-claim: blamed on the claimant at the claim's frame (10.4 REVEAL)."""

    # SPEC GAP: 10.4/10.5 do not say whether audit/false-claim is authenticated; it is
    # (the claimant signed the claim frame). Nor what 11.3/11.4 report when the frame judged
    # (the last REVEAL) is not the violation's frame (the claim's): here frame = the claim's.

    def __init__(self, seat: int, frame: int, detail: str) -> None:
        super().__init__("audit/false-claim", detail)
        self.seat, self.frame = seat, frame


# 8.5: the claim is bytes of at most 3008 (read as at most 3009).
# SPEC GAP: 6.5.4 allows a proof of up to 32*(91 + 91 + 3) = 5920 bytes; 8.5 caps the claim
# at 3008 = 32*(91 + 3), the bound of a *true* claim (h + f <= 91). A claim whose statement has
# h + f > 91 thus fails schema/bytes at body decoding, before cannot-play/length; kept so.
MAX_CLAIM_BYTES = 3008


def on_move(g: Game, st: State, fr: Frame) -> None:
    # 8.5 MOVE decoding order: array of 4 or 5; the claim; move_id; the entry.
    b = fr.body
    if not isinstance(b, list) or len(b) not in (4, 5):
        fail("schema/array", "MOVE body: expected an array of 4 or 5")
    claim = f_bytes(b[4], "claim", at_most=MAX_CLAIM_BYTES + 1) if len(b) == 5 else None
    move_id = f_int(b[0], "move_id", 0, 2**20)
    entry = None if all(x is None for x in b[1:4]) else read_entry(b[1:4])
    move = g.rules.move_from_id(move_id)                                    # 1
    if move is None:
        fail("move/unknown-id", f"no move has id {move_id}")
    t = g.rules.played_tile(move)
    mover = fr.seat
    # SPEC GAP: 1a comes before apply (4), so a move apply would reject anyway (a pass in
    # mexican-train's `declare`, say) but that must_play_if_able calls a claim is reported as
    # move/missing-claim, not as its rules/... code. The order of 10.4 is followed.
    if g.rules.drawing_rules and g.rules.must_play_if_able(st.rules, mover, move):  # 1a
        check_claim(g, st, fr, move, claim)
    elif claim is not None:
        fail("move/unexpected-claim", f"{move.text()} claims nothing")
    if t is None:                                                            # 2
        if entry is not None:
            fail("move/unexpected-opening", f"{move.text()} opens no tile")
    else:                                                                    # 3
        if entry is None:
            fail("move/missing-opening", f"{move.text()} needs an opening")
        p = entry.position
        if p >= len(st.owners) or st.owners[p] != mover:
            fail("move/not-dealt-to-seat", f"position {p} was not dealt to seat {mover}")
        if st.opened[p] is not None:
            fail("move/already-played", f"position {p} was already played ({st.opened[p]})")
        check_dleq(st.key_shares[mover], st.ct(p)[0], entry.share, entry.proof,
                   ctx_of(st, fr))
        st.shares[p][mover] = entry.share
        tile = open_position(g, st, p)
        if tile != t:
            fail("move/tile-mismatch", f"position {p} holds {tile}, not the {t} claimed")
        st.opened[p], st.played[p] = t, True
    st.rules = g.rules.apply(st.rules, mover, move)                          # 4
    if g.rules.drawing_rules and g.rules.draws(move):
        pile = [p for p, o in enumerate(st.owners) if o == BONEYARD]
        if not pile:
            fail("session/boneyard", "the rules drew from a pile the session finds empty")
        st.owners[pile[0]], st.drawing = mover, pile[0]
        st.phase, st.turn = "draw", min(s for s in range(g.k) if s != mover)
    elif g.rules.is_over(st.rules):
        st.phase, st.turn = "reveal", 0
    else:
        st.turn = g.rules.to_move(st.rules)


def check_claim(g: Game, st: State, fr: Frame, move: Any, claim: bytes | None) -> None:
    """10.4 PLAY 1a: the statement of 6.5.1 from the state alone, then 6.5.5."""
    mover = fr.seat
    # SPEC GAP: 10.4 1a builds the hand (claim/unopened) before F, so claim/unopened can be
    # raised even when F turns out empty (nothing to prove); the text's order is followed.
    hand: list[tuple[int, bytes, bytes]] = []
    for p, o in enumerate(st.owners):
        if o != mover or st.opened[p] is not None:
            continue
        others = [st.shares[p][j] for j in range(g.k) if j != mover]
        if any(d is None for d in others):
            fail("claim/unopened", f"position {p} is not privately opened to seat {mover}")
        hand.append((p, st.ct(p)[0], sub(st.ct(p)[1], total(others))))  # R_p
    opened = {t for t in st.opened if t is not None}
    forb = g.rules.forbidden_tiles(st.rules, [t for t in g.deck_tiles if t not in opened])
    forb = sorted(forb, key=g.rules.tiles.index)       # canonical order (5.1)
    if not forb or not hand:
        if claim is not None:
            fail("move/unexpected-claim", f"{move.text()}: nothing to prove")
        # SPEC GAP: 10.4 PLAY 1a does not say whether a claim with nothing to prove (F or
        # the hand empty) is appended to `claims`; it is not (the golden state hashes).
        return
    if claim is None:
        fail("move/missing-claim", f"{move.text()} claims the seat cannot play: no proof")
    verify_cannot_play(g, ctx_of(st, fr), st.key_shares[mover], hand, forb, claim)
    st.claims.append([fr.seq, mover, [p for p, _, _ in hand], [tile_text(t) for t in forb]])


def verify_cannot_play(g: Game, ctx: bytes, y: bytes, hand: list[tuple[int, bytes, bytes]],
                       forb: list[Tile], proof: bytes) -> None:
    """6.5.5 (statement 6.5.1, decoding 6.5.4), from the verifier's own values."""
    h, f = len(hand), len(forb)
    if not 1 <= h <= 91 or not 1 <= f <= len(g.rules.tiles):                   # 1
        fail("cannot-play/size")
    if any(a >= b for a, b in itertools.pairwise(j for j, _, _ in hand)):
        fail("cannot-play/order")
    if any(t not in g.point_of for t in forb):
        fail("tile/not-in-set")
    if any(a >= b for a, b in itertools.pairwise(g.rules.tiles.index(t) for t in forb)):
        fail("cannot-play/order")
    pt = [g.point_of[t] for t in forb]
    hand_b = b"".join(u64(j) + c1 + r for j, c1, r in hand)
    forb_b = b"".join(bytes(t) + p for t, p in zip(forb, pt, strict=True))
    stmt = ctx + G + y + ic.lp(g.rules.set_name.encode()) + ic.lp(hand_b) + ic.lp(forb_b)
    if len(proof) != 32 * (h + f + 3):                                           # 2
        fail("cannot-play/length", f"{len(proof)} bytes for h = {h}, f = {f}")
    pts = [decode_point(proof[32 * i : 32 * i + 32]) for i in range(h + f)]
    c, z_r, z_a = (decode_scalar(proof[32 * (h + f + i) : 32 * (h + f + i + 1)])
                   for i in range(3))
    k, q = pts[:h], pts[h:]
    t0 = sub(bmul(z_a), smul(z_r, y))                                            # 3
    tj = [sub(sub(smul(z_r, r), smul(z_a, c1)), smul(c, kj))
          for (_, c1, r), kj in zip(hand, k, strict=True)]
    ut = [sub(smul(z_r, p), smul(c, qt)) for p, qt in zip(pt, q, strict=True)]
    if H_scalar("CANNOT_PLAY", stmt, b"".join(k), b"".join(q), t0, b"".join(tj),
                b"".join(ut)) != c:
        fail("cannot-play/challenge", "recomputed challenge differs: claim proof invalid")
    for (j, _, _), kj in zip(hand, k, strict=True):                              # 4
        for t, qt in zip(forb, q, strict=True):
            if kj == qt:
                fail("cannot-play/identity",
                     f"C = O: position {j} holds the forbidden tile {tile_text(t)}")


def on_draw(g: Game, st: State, fr: Frame) -> None:
    """10.4 DRAW: one entry for position `drawing`, from every seat but the drawer."""
    # SPEC GAP: 8.5 gives the DRAW body as `[entry]` but decodes it as list(4096) of entries
    # like DEAL; it is read as a list, and any list but one entry for `drawing` is
    # draw/positions.
    entries = read_entries(fr.body)
    got = [e.position for e in entries]
    if got != [st.drawing]:
        fail("draw/positions", f"expected a share for position {st.drawing}, got {got}")
    check_entries(st, fr, entries)
    drawer = st.owners[st.drawing]
    later = [s for s in range(fr.seat + 1, g.k) if s != drawer]
    if later:
        st.turn = later[0]
        return
    st.drawing, st.phase, st.turn = None, "play", g.rules.to_move(st.rules)


def on_reveal(g: Game, st: State, fr: Frame) -> None:
    entries = read_entries(fr.body)
    want = [p for p, o in enumerate(st.owners)
            if (o == fr.seat and st.opened[p] is None) or o == HIDDEN]
    got = [e.position for e in entries]
    if got != want:
        fail("reveal/positions", f"expected shares for positions {want}, got {got}")
    check_entries(st, fr, entries)
    for p in want:
        if all(d is not None for d in st.shares[p]):
            st.opened[p] = open_position(g, st, p)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    # 10.4 REVEAL: the audit re-judges every claim in order (audit/false-claim).
    # SPEC GAP: "a position of a claim now holds one of its forbidden tiles" is read as
    # opened[p] (revealed, or played after the claim) being in the claim's F.
    for seq, claimant, positions, forbidden in st.claims:
        for p in positions:
            if st.opened[p] is not None and tile_text(st.opened[p]) in forbidden:
                raise ClaimError(claimant, seq, f"position {p} held {tile_text(st.opened[p])}"
                                 f", forbidden when seat {claimant} claimed at frame {seq}")
    st.phase, st.turn = "done", None
    compute_outcome(g, st)  # 10.6: the last REVEAL is accepted only if this succeeds


def stage_due(g: Game, st: State) -> None:
    """10.8: the phase and turn are what the rules' state owes."""
    due = g.rules.due(st.rules)
    st.phase, st.turn = ("done", None) if due is None else due


def answering(g: Game, st: State, fr: Frame, kind: str) -> None:
    """10.8: a COMMIT or OPEN in phase absent lapses the declarations, if it is owed."""
    if st.phase == "absent":
        st.rules.absent = None
        if g.rules.due(st.rules) != (kind, fr.seat):
            raise ic.SpecError("frame/unexpected-type")


def on_commit(g: Game, st: State, fr: Frame) -> None:
    answering(g, st, fr, "commit")
    g.rules.on_commit(st.rules, fr.seat, fr.body)
    stage_due(g, st)


def on_open(g: Game, st: State, fr: Frame) -> None:
    answering(g, st, fr, "open")
    g.rules.on_open(g.game_id, st.rules, fr.seat, fr.body)
    stage_due(g, st)


def on_absent(g: Game, st: State, fr: Frame) -> None:
    g.rules.on_absent(g.game_id, st.rules, fr.seat, fr.body)
    stage_due(g, st)


def on_choose(g: Game, st: State, fr: Frame) -> None:
    g.rules.on_choose(st.rules, fr.seat, fr.body)
    stage_due(g, st)


HANDLERS = {1: on_key, 2: on_nonce, 3: on_shuffle, 4: on_deal, 5: on_move, 6: on_reveal,
            7: on_draw, 8: on_commit, 9: on_open, 10: on_absent, 11: on_choose}
FIRST_ABSENT = (10, ("commit", "open"))  # 10.5 check 8, 10.8: out of turn, once


def compute_outcome(g: Game, st: State) -> Outcome:
    """10.6: hands and hidden tiles from the opened, unplayed positions, ascending."""
    hands: list[list[Tile]] = [[] for _ in range(g.k)]
    hidden: list[Tile] = []
    for p, t in enumerate(st.opened):
        if t is None or st.played[p]:
            continue
        if st.owners[p] >= 0:
            hands[st.owners[p]].append(t)
        elif st.owners[p] == HIDDEN:
            hidden.append(t)
    return g.rules.outcome(st.rules, hands, hidden)


# --- 10.5 the checks of a step ----------------------------------------------------------------
def step(g: Game, st: State, wire: bytes) -> tuple[State, Frame]:
    """One frame through checks 1 to 10 of 10.5; raises Violation (frame = state.seq)."""
    i = st.seq

    def v(code: str, seat: int | None, auth: bool, detail: str = "") -> Violation:
        return Violation(code, seat, i, auth, detail or code)

    try:                                                                     # 1
        fr = parse_frame(wire)
    except ic.SpecError as e:
        raise v(e.code, None, False, detail_of(e)) from None
    if fr.seat >= g.k:
        raise v("frame/unknown-seat", None, False, f"seat {fr.seat}")
    if not signature_ok(g.identities[fr.seat], fr):                          # 2
        raise v("frame/bad-signature", fr.seat, False, "the signature does not verify")
    if fr.game_id != g.game_id:                                              # 3
        raise v("frame/wrong-game", fr.seat, False, "the frame belongs to another game")
    if fr.seq != st.seq:                                                     # 4
        raise v("frame/sequence", fr.seat, False, f"seq {fr.seq}, expected {st.seq}")
    if fr.prev != st.prev:                                                   # 5
        raise v("frame/chain", fr.seat, False, "prev is not the last frame's hash")
    if fr.state_hash != st.hash():                                           # 6
        raise v("state/hash-mismatch", fr.seat, True,
                "the frame commits to a different public state")
    if st.phase == "done":                                                   # 7
        raise v("frame/after-end", fr.seat, True, "the game is over")
    first_absent = fr.type == FIRST_ABSENT[0] and st.phase in FIRST_ABSENT[1]
    answer = (st.phase == "absent" and fr.type in (8, 9)        # 10.8: the declared seat
              and fr.seat == st.rules.absent[0])                # answers after all
    first_absent = first_absent or answer
    if fr.seat != st.turn and not first_absent:                              # 8
        raise v("frame/out-of-turn", fr.seat, True, f"seat {st.turn} owes the next frame")
    if PHASE_TYPE[st.phase] != fr.type and not first_absent:                 # 9
        raise v("frame/unexpected-type", fr.seat, True,
                f"{TYPES[fr.type][0]} in phase {st.phase}")
    nxt = copy.deepcopy(st)  # 10.4: a step is atomic
    try:                                                                     # 10
        HANDLERS[fr.type](g, nxt, fr)
    except ClaimError as e:  # 10.5 REVEAL: the claimant, at the claim's frame
        raise Violation(e.code, e.seat, e.frame, True, e.detail) from None
    except ic.SpecError as e:
        if e.code in LOCAL_CODES:
            raise RuntimeError(f"verifier bug: {e.code}") from e
        raise v(e.code, fr.seat, True, detail_of(e)) from None
    nxt.seq, nxt.prev = st.seq + 1, frame_hash(wire)
    return nxt, fr


# --- 11.2 verification ------------------------------------------------------------------------
@dataclass
class Verdict:
    exit: int
    frames: int = 0
    game: Game | None = None
    state: State | None = None
    violation: Violation | None = None
    outcome: Outcome | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    # (seq, state hash the frame carries, hash recomputed from the replayed state)
    hashes: list[tuple[int, bytes, bytes]] = field(default_factory=list)
    decided: dict[str, Any] | None = None   # 11.2 step 5, for a valid prefix
    stage_outcome: dict[str, Any] | None = None  # 11.1 outcome of mined-games

    @property
    def valid(self) -> bool:
        return self.violation is None

    @property
    def complete(self) -> bool:
        return self.valid and self.state is not None and self.state.phase == "done"

    def to_json(self) -> dict[str, Any]:
        g, st = self.game, self.state
        aw = awaiting(st) if (st is not None and self.valid and not self.complete) else None
        return {
            "valid": self.valid, "complete": self.complete, "frames": self.frames,
            "game_id": g.game_id.hex() if g else None,
            "rules": {"name": g.rules.name, "params": g.rules.params} if g else None,
            "seats": [{"seat": s, "fingerprint": fingerprint(k)}
                      for s, k in enumerate(g.identities)] if g else [],
            "first_player": st.first_player if st else None,
            "outcome": self.outcome.to_json() if self.outcome else self.stage_outcome,
            "hidden_tile": [tile_text(t) for t in self.outcome.hidden] if self.outcome
            else None,
            "moves": self.moves,
            "violation": self.violation.to_json() if self.violation else None,
            "awaiting": {"seat": aw[0], "message": aw[1]} if aw else None,
            "decided": self.decided,
        }


def fingerprint(pk: bytes) -> str:
    """8.3: OpenSSH's SHA256 fingerprint of an ssh-ed25519 key."""
    blob = (11).to_bytes(4, "big") + b"ssh-ed25519" + (32).to_bytes(4, "big") + pk
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def judge_evidence(g: Game, accepted: list[Frame], wire: bytes) -> Violation:
    """11.2 step 4: what one E record proves, or transcript/bad-evidence [D5]."""
    def bad(why: str) -> Violation:
        return Violation("transcript/bad-evidence", None, None, False, why)

    try:
        ev = parse_frame(wire)
    except ic.SpecError as e:
        return bad(f"the evidence does not parse: {e.code}")
    if ev.seat >= g.k or not signature_ok(g.identities[ev.seat], ev):
        return bad("the evidence is not signed by a seat of this game")
    if ev.seq >= len(accepted) or ev.game_id != g.game_id:
        return bad("the evidence is for no accepted step of this game")
    a = accepted[ev.seq]
    if ev.seat == a.seat and ev.wire != a.wire:
        return Violation("frame/equivocation", ev.seat, ev.seq, True,
                         f"seat {ev.seat} signed two different frames for step {ev.seq}")
    if ev.seat != a.seat and ev.prev == a.prev and ev.state_hash == a.state_hash and (
            10 not in (ev.type, a.type)):   # 10.7: an ABSENT race proves nothing
        return Violation("frame/out-of-turn", ev.seat, ev.seq, True,
                         f"seat {ev.seat} signed a frame for step {ev.seq} it did not owe")
    return bad("the evidence proves nothing")


def verify(data: bytes) -> Verdict:
    tr, err, game = parse_transcript(data)                                   # 1
    if tr is None:
        return Verdict(1, 0, game, None, Violation(err.code, None, None, False,
                                                   detail_of(err)))
    g = tr.game                                                              # 2
    st = initial_state(g)
    verdict = Verdict(1, 0, g, st)
    accepted: list[Frame] = []
    for wire in tr.frames:                                                   # 3
        before = st.hash()
        try:
            st, fr = step(g, st, wire)
        except Violation as vio:  # any failure ends the replay, authenticated or not [D9]
            verdict.violation = vio
            if vio.authenticated:  # it passed check 5 or failed it: record both hashes
                verdict.hashes.append((st.seq, parse_frame(wire).state_hash, before))
            break
        verdict.hashes.append((fr.seq, fr.state_hash, before))
        accepted.append(fr)
        if fr.type == 5:
            move = g.rules.move_from_id(fr.body[0])
            verdict.moves.append({"frame": fr.seq, "seat": fr.seat, "move": move.text()})
        elif fr.type in (9, 10, 11):   # 11.1 moves of mined-games
            text = (imd.orders_text(fr.body[0]) if fr.type == 9 else
                    f"declares seat {fr.body[0]} absent in stage {fr.body[1]}"
                    if fr.type == 10 else f"names seat {fr.body[0]} the elimination candidate")
            verdict.moves.append({"frame": fr.seq, "seat": fr.seat, "move": text})
        verdict.state, verdict.frames = st, len(accepted)
    if verdict.violation is None or not verdict.violation.authenticated:   # 4
        # 11.2 step 4: after an unauthenticated failure, an evidence record that
        # proves a violation names the seat really to blame.
        proven: Violation | None = None
        for wire in tr.evidence:
            vio = judge_evidence(g, accepted, wire)
            if vio.rule == "transcript/bad-evidence":
                proven = vio
                break
            proven = proven or vio
        if verdict.violation is None or (proven is not None and proven.authenticated):
            verdict.violation = proven
    if verdict.violation is not None:
        return verdict
    if st.phase == "done" and getattr(g.rules, "simultaneous", False):
        verdict.exit, verdict.stage_outcome = 0, g.rules.outcome(st.rules)
    elif st.phase == "done":                                                 # 5
        verdict.exit, verdict.outcome = 0, compute_outcome(g, st)
    else:
        verdict.exit, verdict.decided = 3, decided(g, st)
    return verdict


def decided(g: Game, st: State) -> dict[str, Any] | None:
    """11.2 step 5 / bram.md D14: in the reveal phase, the one seat that played every
    position dealt to it went out and has won; the margin once only hidden positions
    are unopened (they then hold the deck tiles nothing opened), else null."""
    if st.phase != "reveal":
        return None
    # SPEC GAP: "every position dealt to it" is read with the current owners, the positions
    # a seat drew included (10.3: draws change `owners`).
    out = [s for s in range(g.k)
           if all(st.played[p] for p, o in enumerate(st.owners) if o == s)]
    if len(out) != 1:
        return None
    verdict = {"winner": out[0], "reason": "out", "margin": None, "margin_halves": None}
    # SPEC GAP: 11.2 step 5 asks for every position "whose owner is not HIDDEN" to be
    # opened, which BONEYARD positions never are, and takes the unopened deck tiles as the
    # hidden ones. With a boneyard (mexican-train) we require every seat-owned position
    # opened and pass the rules their own hidden count of tiles: none without hidden
    # positions (for bram, which has no boneyard, this is the text as written).
    if all(t is not None for t, o in zip(st.opened, st.owners, strict=True) if o >= 0):
        hands: list[list[Tile]] = [[] for _ in range(g.k)]
        for p, t in enumerate(st.opened):
            if st.owners[p] >= 0 and not st.played[p]:
                hands[st.owners[p]].append(t)
        left = [t for t in g.deck_tiles if t not in set(st.opened)] if g.rules.hidden else []
        o = g.rules.outcome(st.rules, hands, left)
        verdict.update(reason=o.reason, margin=halves_text(o.margin_halves),
                       margin_halves=o.margin_halves)
    return verdict


def summary(name: str, v: Verdict) -> str:
    j = v.to_json()
    if v.violation:
        x = v.violation
        what = (f"INVALID {x.rule} seat={x.seat} frame={x.frame} "
                f"authenticated={str(x.authenticated).lower()} ({x.detail})")
    elif v.complete and v.stage_outcome is not None:
        o = v.stage_outcome
        what = (f"VALID complete token_winner={o['token_winner']} "
                f"ec={o['elimination_candidate']} end={o['end']!r} money={o['money']}")
    elif v.complete:
        o = j["outcome"]
        what = (f"VALID complete winner={o['winner']} reason={o['reason']} "
                f"pips_halves={o['pips_halves']} margin_halves={o['margin_halves']} "
                f"hidden={j['hidden_tile']}")
    else:
        what = f"VALID prefix awaiting seat {j['awaiting']['seat']} {j['awaiting']['message']}"
        if j["decided"]:
            d = j["decided"]
            what += (f" decided winner={d['winner']} reason={d['reason']} "
                     f"margin_halves={d['margin_halves']}")
    return f"{name}: exit {v.exit} frames={v.frames} first_player={j['first_player']} {what}"


# --- --golden ----------------------------------------------------------------------------------
def golden() -> int:
    index = json.loads(INDEX.read_text())["transcripts"]
    passed = failed = 0

    def check(label: str, ok: bool, why: str = "") -> None:
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print(f"{'PASS' if ok else 'FAIL'} {label}" + ("" if ok else f": {why}"))

    for name, want in index.items():
        v = verify((INDEX.parent / want["file"]).read_bytes())
        got = v.to_json()
        diffs = []

        def cmp(what: str, g_: Any, w_: Any, diffs: list[str] = diffs) -> None:
            if g_ != w_:
                diffs.append(f"{what}: got {g_!r}, want {w_!r}")

        cmp("exit", v.exit, want["exit"])
        for key in ("valid", "complete", "frames", "first_player", "awaiting", "hidden_tile",
                    "decided"):
            cmp(key, got[key], want[key])
        wv, gv = want["violation"], got["violation"]
        if wv is None or gv is None:
            cmp("violation", gv, wv)
        else:
            for key in ("rule", "seat", "frame", "authenticated"):
                cmp(f"violation.{key}", gv[key], wv[key])
        wo, go = want["outcome"], got["outcome"]
        if wo is None or go is None:
            cmp("outcome", go, wo)
        else:
            for key in wo:
                cmp(f"outcome.{key}", go.get(key), wo[key])
        check(f"{name}: verdict", not diffs, "; ".join(diffs))
        # Every frame that reached check 5 (accepted, or an authenticated violation) must
        # carry the hash of the replayed state, except one that fails check 5 itself.
        if name in ("valid", "mined-games-5"):
            for seq, carried, mine in v.hashes:
                check(f"{name}: frame {seq} state hash {mine.hex()[:16]}",
                      carried == mine, f"frame carries {carried.hex()}")
        else:
            bad = [seq for seq, carried, mine in v.hashes if carried != mine]
            expect_bad = [v.violation.frame] if (
                v.violation and v.violation.rule == "state/hash-mismatch") else []
            check(f"{name}: state hashes of {len(v.hashes)} frames", bad == expect_bad,
                  f"mismatch at frames {bad}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--golden", action="store_true", help="check spec/vectors/transcripts")
    ap.add_argument("--json", action="store_true", help="print the 11.1 JSON verdict")
    ap.add_argument("--disputes", action="store_true",
                    help="check spec/vectors/disputes, files.json and setup.json")
    ap.add_argument("--all", action="store_true", help="--golden, then --disputes")
    ap.add_argument("--perft", action="store_true",
                    help="check spec/vectors/rules/mineshaft_perft.json")
    args = ap.parse_args(argv)
    if args.perft:
        ok, bad = ims.self_check()
        passed, failed = ims.check_perft()
        print(f"mineshaft encoding: {ok} passed, {bad} failed; "
              f"perft: {passed} passed, {failed} failed")
        return 0 if bad == 0 and failed == 0 else 1
    if args.golden and not args.all:
        return golden()
    if args.disputes or args.all:
        import independent_dispute as idp  # imports this module: loaded only when asked

        rc = golden() if args.all else 0
        passed, failed = idp.run()
        print(f"disputes, files and setups: {passed} passed, {failed} failed")
        return rc or (0 if failed == 0 else 1)
    if not args.files:
        ap.print_usage(sys.stderr)
        return 2
    codes = set()
    for path in args.files:
        try:
            data = path.read_bytes()
        except OSError as e:
            print(f"{path}: exit 2 cannot read: {e}")
            codes.add(2)
            continue
        v = verify(data)
        print(json.dumps(v.to_json()) if args.json else summary(str(path), v))
        codes.add(v.exit)
    # Several files: the worst verdict wins (unreadable, invalid, prefix, complete).
    return next((c for c in (2, 1, 3) if c in codes), 0)


if __name__ == "__main__":
    sys.exit(main())
