#!/usr/bin/env python3
"""Independent single-step checker (spec/11-verify.md 11.3-11.5) and its vectors.

Written from spec/ alone (10.3 decoding, 11.3 packages, 11.4 check_step, 11.5 matches, the
rule documents' `state_from_json`); it reuses tools/independent_verify.py (the replay, the
state encoding, `step`) and nothing of the project's own code. Run through
`python tools/independent_verify.py --disputes` (or `--all`).

Decisions where the spec is ambiguous or silent are marked `# SPEC GAP:`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import independent_check as ic
import independent_mexican_train as imt
import independent_mined as imd
import independent_mineshaft as ims
import independent_verify as iv

ROOT = Path(__file__).resolve().parent.parent
VEC = ROOT / "spec" / "vectors"
DISPUTES = VEC / "disputes"
TRANSCRIPTS = VEC / "transcripts"

MAX_PACKAGE = 1249280      # 11.3
MAX_STATE = 131072         # 11.3
PHASES = ("keys", "nonces", "shuffle", "deal", "play", "draw", "reveal", "done")
SIM_PHASES = ("commit", "open", "absent", "choose", "done")   # 10.8
STATE_KEYS = {"magic", "game_id", "seq", "prev", "phase", "turn", "key_shares",
              "commitments", "nonces", "first_player", "deck", "owners", "shares",
              "opened", "played", "rules", "drawing", "claims"}
Err, fail = iv.Err, iv.fail
Tile = tuple[int, int]


# --- rules' state_from_json (bram.md 3, mexican-train.md 3, mineshaft.md 3; mined-games.md 9
# is independent_mined.state_from_json) ---------------------------------------------------
def _sj(ok: bool, why: str) -> None:
    if not ok:
        fail("rules/state-json", why)


def _int(v: Any, lo: int | None = None, hi: int | None = None) -> int:
    _sj(isinstance(v, int) and not isinstance(v, bool), f"{v!r} is not an integer")
    _sj((lo is None or v >= lo) and (hi is None or v <= hi), f"{v} out of range")
    return v


def _bool(v: Any) -> bool:
    _sj(isinstance(v, bool), f"{v!r} is not a boolean")
    return v


def _list(v: Any, n: int | None = None) -> list[Any]:
    _sj(isinstance(v, list) and (n is None or len(v) == n), f"{v!r}: expected a list")
    return v


def _keys(obj: Any, keys: set[str]) -> dict[str, Any]:
    _sj(isinstance(obj, dict) and set(obj) == keys, "not an object with exactly the keys")
    return obj


def _line(v: Any, start: int, tiles: set[Tile], seen: set[Tile]) -> tuple[Tile, ...]:
    """A run of distinct set tiles `[inner, outer]` matching from `start`."""
    out = []
    end = start
    for x in _list(v):
        a, b = (_int(y) for y in _list(x, 2))
        t = (min(a, b), max(a, b))
        _sj(t in tiles and t not in seen, f"tile {a}-{b} not in the set or repeated")
        _sj(a == end, f"tile {a}-{b} does not match {end}")
        seen.add(t)
        out.append((a, b))
        end = b
    return tuple(out)


def _finished(v: Any) -> str | None:
    _sj(v in (None, "out", "blocked") and not isinstance(v, bool), f"finished {v!r}")
    return v


def bram_from_json(rules: Any, obj: Any) -> iv.BramState:
    o = _keys(obj, {"finished", "first_player", "hand_counts", "line", "passes", "turn"})
    tiles = set(rules.tiles)
    seen: set[Tile] = set()
    line: list[Tile] = []
    for x in _list(o["line"]):
        a, b = (_int(y) for y in _list(x, 2))
        t = (min(a, b), max(a, b))
        _sj(t in tiles and t not in seen, "line tile not in the set or repeated")
        _sj(not line or line[-1][1] == a, "neighbours do not match")
        seen.add(t)
        line.append((a, b))
    _sj((6, 6) in seen, "the line lacks 6-6")
    counts = tuple(_int(c, 0, 13) for c in _list(o["hand_counts"], 2))
    _sj(sum(counts) == 26 - (len(line) - 1), "hand counts disagree with the line")
    turn, fp = _int(o["turn"], 0, 1), _int(o["first_player"], 0, 1)
    passes, fin = _int(o["passes"], 0, 2), _finished(o["finished"])
    _sj((fin == "blocked") == (passes == 2), "blocked iff two passes")
    _sj((fin == "out") == (0 in counts), "out iff a count is 0")
    _sj(fin != "out" or passes == 0, "out with passes")
    return iv.BramState(tuple(line), counts, turn, fp, passes, fin)


def mexican_from_json(rules: imt.MexicanTrain, obj: Any) -> imt.MexState:
    o = _keys(obj, {"engine", "trains", "mexican", "markers", "pending", "hand_counts",
                    "boneyard", "turn", "first_player", "phase", "drawn", "owes",
                    "first_done", "stalled", "finished"})
    k = rules.seats
    engine = _int(o["engine"])
    _sj(engine == rules.engine, "another engine")
    tiles = set(imt.TILES) - {(engine, engine)}   # trains never contain the engine tile
    seen: set[Tile] = set()
    trains = tuple(_line(x, engine, tiles, seen) for x in _list(o["trains"], k))
    if rules.mexican_train:
        _sj(o["mexican"] is not None, "the Mexican train is on")
        mexican: tuple[Tile, ...] | None = _line(o["mexican"], engine, tiles, seen)
    else:
        _sj(o["mexican"] is None, "the Mexican train is off")
        mexican = None
    markers = tuple(_bool(x) for x in _list(o["markers"], k))
    counts = tuple(_int(c, 0) for c in _list(o["hand_counts"], k))
    full = 91 - k * rules.hand_size
    boneyard = _int(o["boneyard"], 0, full)
    turn, fp = _int(o["turn"], 0, k - 1), _int(o["first_player"], 0, k - 1)
    phase = o["phase"]
    _sj(phase in ("declare", "search", "play"), f"phase {phase!r}")
    drawn, owes = _bool(o["drawn"]), _bool(o["owes"])
    first_done = tuple(_bool(x) for x in _list(o["first_done"], k))
    stalled = _int(o["stalled"], 0)
    fin = _finished(o["finished"])
    pending = o["pending"]
    if pending is not None:
        _int(pending)
        _sj(pending in range(k) or (pending == imt.MEXICAN and mexican is not None),
            "pending names no train")
        tr = mexican if pending == imt.MEXICAN else trains[pending]
        _sj(bool(tr) and tr[-1][0] == tr[-1][1], "pending train does not end in a double")
    out = phase == "play"
    _sj(sum(counts) + boneyard + len(seen) + (1 if out else 0) == 91, "tiles do not add up")
    if not out:
        _sj(not seen and not any(markers) and not any(first_done),
            "something on the table before the engine is out")
    if phase == "declare":
        # SPEC GAP: "in declare nobody has drawn" is read as drawn false and a full boneyard.
        _sj(not drawn and boneyard == full, "a draw in declare")
    # SPEC GAP: "owes = false only in a first turn before any draw" is read as: the engine
    # is out, the seat to move has not finished its first turn and has not drawn.
    _sj(owes or (out and not first_done[turn] and not drawn), "owes false outside a run")
    _sj(stalled == 0 or boneyard == 0, "stalled with a boneyard")
    _sj((fin == "out") == (0 in counts), "out iff a count is 0")
    _sj((fin == "blocked") == (stalled == k), "blocked iff stalled = seats")
    return imt.MexState(engine, trains, mexican, markers, pending, counts, boneyard, turn, fp,
                        phase, drawn, owes, first_done, stalled, fin)


def mineshaft_from_json(rules: ims.Mineshaft, obj: Any) -> ims.MineState:
    o = _keys(obj, {"set", "hub", "shafts", "veins", "hand_counts", "boneyard", "turn",
                    "first_player", "phase", "passes", "finished"})
    _sj(o["set"] == rules.set_name, "another set")
    hub = _int(o["hub"])
    _sj(hub == rules.hub, "another hub")
    k = rules.seats
    tiles = set(rules.tiles) - {(hub, hub)}
    seen: set[Tile] = set()
    lines: list[tuple[Tile, ...]] = []
    shafts = tuple(_line(x, hub, tiles, seen) for x in _list(o["shafts"]))
    lines += shafts
    veins: list[ims.Vein] = []
    for x in _list(o["veins"]):
        v = _keys(x, {"double", "a", "b"})
        d = _int(v["double"], 0, rules.max_pip)
        a = _line(v["a"], d, tiles, seen)
        b = _line(v["b"], d, tiles, seen)
        veins.append(ims.Vein(d, a, b))
        lines += [a, b]
    _sj(len(shafts) <= ims.SHAFTS and all(shafts), "at most six non-empty shafts")
    if len(shafts) < ims.SHAFTS:
        _sj(all(len(s) == 1 for s in shafts) and not veins, "one tile per shaft, no veins")
    for ln in lines:   # a double only as a line's last tile
        _sj(all(a != b for a, b in ln[:-1]), "a double inside a line")
    ends = sorted(ln[-1][0] for ln in lines if ln and ln[-1][0] == ln[-1][1])
    _sj(ends == sorted(v.double for v in veins), "line-ending doubles are not the veins'")
    for i, v in enumerate(veins[:-1]):
        nxt = veins[i + 1].double
        _sj(len(v.a) + len(v.b) >= ims.VEIN_DEPTH or (nxt, nxt) in {
            (min(t), max(t)) for t in v.a + v.b}, "an old vein left unexplored")
    counts = tuple(_int(c, 0) for c in _list(o["hand_counts"], k))
    boneyard = _int(o["boneyard"], 0, rules.pile_size)
    turn, fp = _int(o["turn"], 0, k - 1), _int(o["first_player"], 0, k - 1)
    phase = o["phase"]
    _sj(phase in ("play", "drawn"), f"phase {phase!r}")
    passes, fin = _int(o["passes"], 0, k), _finished(o["finished"])
    _sj(sum(counts) + boneyard + len(seen) + 1 == len(rules.tiles), "tiles do not add up")
    _sj(phase != "drawn" or (boneyard < rules.pile_size and fin is None and 0 not in counts),
        "drawn without a draw, or after the end")
    _sj(passes == 0 or boneyard == 0, "passes with a pile")
    _sj((fin == "out") == (0 in counts), "out iff a count is 0")
    _sj(fin != "out" or passes == 0, "out with passes")
    _sj((fin == "blocked") == (passes == k), "blocked iff passes = seats")
    return ims.MineState(rules.set_name, hub, shafts, tuple(veins), counts, boneyard, turn, fp,
                         phase, passes, fin)


FROM_JSON: dict[str, Callable[[Any, Any], Any]] = {
    "bram": bram_from_json, "mexican-train": mexican_from_json,
    "mineshaft": mineshaft_from_json, "mined-games": imd.state_from_json}


# --- 10.3 decoding a received state ---------------------------------------------------------
TILE_TEXT = re.compile(r"(0|[1-9][0-9]*)-(0|[1-9][0-9]*)", re.ASCII)


def decode_state(g: iv.Game, data: bytes) -> iv.State:
    """10.3 Decoding: state/schema, then state/inconsistent, then state/non-canonical."""
    # SPEC GAP: 10.3 does not say which code an `unpack` failure of the state carries; the
    # msgpack/* code is kept (as for every other unpack), the shape checks are state/schema.
    v = iv.unpack(data, MAX_STATE)
    try:
        st = _state_fields(g, v)
    except ic.SpecError as e:
        fail("state/schema", f"{e.code}: {iv.detail_of(e)}")
    _consistent(g, st)
    if st.encode() != data:
        fail("state/non-canonical", "the state re-encodes otherwise")
    return st


def _state_fields(g: iv.Game, v: Any) -> iv.State:
    k = g.k
    if not isinstance(v, dict) or set(v) != STATE_KEYS or v["magic"] != "dealerless/state":
        fail("state/schema", "not the 18-key state map")

    def opt_seat(x: Any, what: str) -> int | None:
        return None if x is None else iv.f_int(x, what, 0, k - 1)

    game_id = iv.f_bytes(v["game_id"], "game_id", 32)
    seq = iv.f_int(v["seq"], "seq")
    prev = iv.f_bytes(v["prev"], "prev", 32)
    phase = v["phase"]
    # SPEC GAP: "a known phase" is read per rule set: 10.3's phase row lists the deck
    # game's phases and, for a simultaneous rule set, those of 10.8.
    if phase not in (SIM_PHASES if simultaneous(g) else PHASES):
        fail("state/schema", f"phase {phase!r}")
    turn = opt_seat(v["turn"], "turn")
    key_shares = [iv.decode_point(iv.f_bytes(x, "key share", 32))
                  for x in iv.f_list(v["key_shares"], "key_shares", k)]
    commitments = [iv.f_bytes(x, "commitment", 32)
                   for x in iv.f_list(v["commitments"], "commitments", k)]
    nonces = [iv.f_bytes(x, "nonce", 32) for x in iv.f_list(v["nonces"], "nonces", k)]
    first_player = opt_seat(v["first_player"], "first_player")
    deck = iv.f_bytes(v["deck"], "deck", at_most=4096 * 64)
    if len(deck) % 64:                                                         # 5.2
        fail("deck/length")
    for i in range(0, len(deck), 32):
        iv.decode_point(deck[i : i + 32])
    owners = [iv.f_int(x, "owner", -2, k - 1) for x in iv.f_list(v["owners"], "owners")]
    shares = [[None if d is None else iv.decode_point(iv.f_bytes(d, "share", 32))
               for d in iv.f_array(row, k, "shares row")]
              for row in iv.f_list(v["shares"], "shares")]
    opened: list[Tile | None] = []
    for x in iv.f_list(v["opened"], "opened"):
        if x is None:
            opened.append(None)
            continue
        # SPEC GAP: "the text of a tile" is read as two decimal numbers without signs or
        # leading zeros joined by "-", in either order (10.3: "6-5" is the tile 5-6).
        m = TILE_TEXT.fullmatch(iv.f_text(x, "opened tile")) if isinstance(x, str) else None
        t = (min(int(m[1]), int(m[2])), max(int(m[1]), int(m[2]))) if m else None
        if t not in g.point_of:
            fail("state/schema", f"opened {x!r} is no tile of the set")
        opened.append(t)
    played = []
    for x in iv.f_list(v["played"], "played"):
        if not isinstance(x, bool):
            fail("schema/bool", "played")
        played.append(x)
    rules = None if v["rules"] is None else FROM_JSON[g.rules.name](g.rules, v["rules"])
    # SPEC GAP: "a position" is read as int(0, 4095) (8.5 entry); whether it is one of this
    # state's positions is state/inconsistent (10.3 drawing).
    drawing = None if v["drawing"] is None else iv.f_int(v["drawing"], "drawing", 0, 4095)
    n = len(g.deck_tiles)
    claims = []
    for c in iv.f_list(v["claims"], "claims"):
        c = iv.f_array(c, 4, "claim")
        cs = iv.f_int(c[0], "claim seq")
        seat = iv.f_int(c[1], "claim seat", 0, k - 1)
        pos = [iv.f_int(p, "claim position", 0, n - 1)
               for p in iv.f_list(c[2], "claim positions", n)]
        ts = []
        for x in iv.f_list(c[3], "claim tiles", len(g.rules.tiles)):
            m = TILE_TEXT.fullmatch(iv.f_text(x, "claim tile"))
            t = (min(int(m[1]), int(m[2])), max(int(m[1]), int(m[2]))) if m else None
            if t not in g.point_of:
                fail("state/schema", f"claim tile {x!r} is no tile of the set")
            ts.append(t)
        claims.append((cs, seat, pos, ts))
    st = iv.State(game_id, seq, prev, phase, turn, key_shares, commitments, nonces,
                  first_player, deck, owners, shares, opened, played, rules, drawing,
                  [[cs, s, p, [iv.tile_text(t) for t in ts]] for cs, s, p, ts in claims])
    st._claim_tiles = [ts for _, _, _, ts in claims]  # type: ignore[attr-defined]
    return st


def simultaneous(g: iv.Game) -> bool:
    return getattr(g.rules, "simultaneous", False)


def _consistent(g: iv.Game, st: iv.State) -> None:
    def need(ok: bool, why: str) -> None:
        if not ok:
            fail("state/inconsistent", why)

    if simultaneous(g):
        _consistent_stages(g, st, need)
        return

    k, ph = g.k, PHASES.index(st.phase)
    n = len(st.owners)
    need(len(st.shares) == len(st.opened) == len(st.played) == n, "per-position lengths")
    need((st.turn is None) == (st.phase == "done"), "turn nil exactly in done")
    need(len(st.commitments) == len(st.key_shares), "one commitment per key share")
    if st.phase != "keys":
        need(len(st.key_shares) == k, "all key shares after keys")
    if ph >= PHASES.index("shuffle"):
        need(len(st.nonces) == k and st.first_player is not None and len(st.deck) == 64 * n,
             "nonces, first player and deck from shuffle on")
    else:
        need(not st.deck and st.first_player is None, "no deck or first player before shuffle")
    if ph >= PHASES.index("play"):
        need(st.rules is not None, "rules from play on")
        need(g.rules.is_over(st.rules) == (st.phase in ("reveal", "done")),
             "the hand is over exactly in reveal and done")
    else:
        need(st.rules is None, "no rules before play")
    if st.phase == "keys":
        need(st.turn == len(st.key_shares), "keys: turn = number of key shares")
    if st.phase == "nonces":
        need(st.turn == len(st.nonces), "nonces: turn = number of nonces")
    if st.phase == "draw":
        d = st.drawing
        need(d is not None and d < n and st.owners[d] >= 0 and st.owners[d] != st.turn
             and st.opened[d] is None, "drawing: a position of another seat, unopened")
    else:
        need(st.drawing is None, "drawing only in draw")
    for (cs, _, pos, _), ts in zip(st.claims, st._claim_tiles, strict=True):  # type: ignore
        idx = [g.rules.tiles.index(t) for t in ts]
        need(cs < st.seq and all(a < b for a, b in itertools.pairwise(pos))
             and all(a < b for a, b in itertools.pairwise(idx)),
             "a claim of a later frame or unordered")


def _consistent_stages(g: iv.Game, st: iv.State, need: Callable[[bool, str], None]) -> None:
    """10.3 and 10.8 for a simultaneous rule set: no deck, rules from the start, and the
    phase and turn are what the rules' due(state) says is owed."""
    # SPEC GAP: 10.8 says the deck fields "are empty lists" and first_player and drawing nil,
    # without a code; a state that breaks it is read as one no game reaches
    # (state/inconsistent). `owners` (and with it shares, opened, played, which must have
    # its length) are the game's owners, checked by 11.4 rule 6 (dispute/state).
    n = len(st.owners)
    need(len(st.shares) == len(st.opened) == len(st.played) == n, "per-position lengths")
    need(not (st.key_shares or st.commitments or st.nonces or st.deck or st.claims)
         and st.first_player is None and st.drawing is None, "deck fields in a game without "
         "a deck (10.8)")
    need(st.rules is not None, "rules from the first frame on (10.8)")
    due = g.rules.due(st.rules)
    need((st.phase, st.turn) == (("done", None) if due is None else due),
         "the phase and turn are not what the rules owe (10.8)")


# --- 11.4 check_step ------------------------------------------------------------------------
def game_owners_ok(g: iv.Game, owners: list[int]) -> bool:
    """10.3: the dealt owners, except that some first boneyard positions, in ascending
    order, belong to seats."""
    if len(owners) != len(g.owners):
        return False
    pile = [p for p, o in enumerate(g.owners) if o == iv.BONEYARD]
    drawn = [p for p in pile if owners[p] != iv.BONEYARD]
    if drawn != pile[: len(drawn)] or any(owners[p] < 0 for p in drawn):
        return False
    return all(owners[p] == o for p, o in enumerate(g.owners) if o != iv.BONEYARD)


def check_step(pkg: bytes, committed: bytes | None = None) -> dict[str, Any]:
    """11.4: {usable: False, code} or the verdict of rules 9 and 10."""
    try:
        v = iv.f_array(iv.unpack(pkg, MAX_PACKAGE), 7, "package")             # 1
        if v[0] != "dealerless/dispute" or not (isinstance(v[1], int) and not isinstance(
                v[1], bool) and v[1] == 1):                                        # 2
            fail("dispute/magic")
        g = iv.decode_setup(iv.f_bytes(v[2], "setup", at_most=4096))              # 3
        n = iv.f_int(v[3], "N")                                                  # 4
        sbytes = iv.f_bytes(v[4], "state", at_most=MAX_STATE)                    # 5
        st = decode_state(g, sbytes)
        if st.game_id != g.game_id or st.seq != n or not game_owners_ok(g, st.owners):  # 6
            fail("dispute/state", "the state is not of this game and step")
        # SPEC GAP: 11.4 gives the committed hash's refusal (dispute/state) without a place
        # in the order; it is checked with rule 6.
        if committed is not None and st.hash() != committed:
            fail("dispute/state", "the state is not the committed one")
        wire = iv.f_bytes(v[5], "frame", at_most=iv.MAX_FRAME_BYTES)             # 7
        ev = [iv.f_bytes(x, "evidence", at_most=iv.MAX_FRAME_BYTES)              # 8
              for x in iv.f_list(v[6], "evidence", 16)]
    except ic.SpecError as e:
        return {"usable": False, "code": e.code}
    try:                                                                          # 9
        nxt, fr = iv.step(g, st, wire)
    except iv.Violation as vio:
        auth = vio.authenticated
        # 11.4: without the committed hash, neither a state/hash-mismatch (a forged package
        # state would give the same finding) nor a violation charged to a frame other than
        # N (only the state vouches for that frame: audit/false-claim) is authenticated.
        if committed is None and (vio.rule == "state/hash-mismatch" or vio.frame != n):
            auth = False
        return {"usable": True, "valid": False, "rule": vio.rule, "seat": vio.seat,
                "frame": vio.frame, "authenticated": auth}
    proven: iv.Violation | None = None                                            # 10
    for w in ev:
        vio = judge_evidence(g, fr, w)
        if vio.rule == "transcript/bad-evidence":
            proven = vio
            break
        proven = proven or vio
    if proven is not None:
        return {"usable": True, "valid": False, "rule": proven.rule, "seat": proven.seat,
                "frame": proven.frame, "authenticated": proven.authenticated}
    return {"usable": True, "valid": True, "next_state_hash": nxt.hash().hex()}


def judge_evidence(g: iv.Game, a: iv.Frame, wire: bytes) -> iv.Violation:
    """11.4 rule 10: one evidence record against the accepted frame N (11.2 step 4)."""
    def bad(why: str) -> iv.Violation:
        return iv.Violation("transcript/bad-evidence", None, None, False, why)

    ev = evidence_ok(g, wire)
    if ev is None:
        return bad("the evidence does not parse or is not signed by a seat of this game")
    # SPEC GAP: 11.2 step 4 asks for a seq below the number of accepted frames; the package
    # holds one accepted frame, N, so any other seq proves nothing here.
    if ev.seq != a.seq or ev.game_id != g.game_id:
        return bad("the evidence is for another step or game")
    if ev.seat == a.seat and ev.wire != a.wire:
        return iv.Violation("frame/equivocation", ev.seat, ev.seq, True, "equivocation")
    if ev.seat != a.seat and ev.prev == a.prev and ev.state_hash == a.state_hash:
        return iv.Violation("frame/out-of-turn", ev.seat, ev.seq, True, "out of turn")
    return bad("the evidence proves nothing")


# --- 11.3 packages from a transcript ---------------------------------------------------------
def encode_package(setup: bytes, n: int, state: bytes, frame: bytes,
                   evidence: list[bytes]) -> bytes:
    return iv.pack(["dealerless/dispute", 1, setup, n, state, frame, evidence])


def evidence_ok(g: iv.Game, wire: bytes) -> iv.Frame | None:
    """10.5 checks 1 and 2."""
    try:
        fr = iv.parse_frame(wire)
    except ic.SpecError:
        return None
    if fr.seat >= g.k or not iv.signature_ok(g.identities[fr.seat], fr):
        return None
    return fr


def packages(data: bytes) -> list[tuple[bytes, bytes]]:
    """11.3 for every N with a committed state, from one replay: (package, state hash)."""
    tr, err, _ = iv.parse_transcript(data)
    if tr is None:
        raise err  # type: ignore[misc]
    g = tr.game
    ev = [(w, evidence_ok(g, w)) for w in tr.evidence]
    st = iv.initial_state(g)
    out = []
    for n, wire in enumerate(tr.frames):
        recs = [w for w, fr in ev if fr is not None and fr.seq == n]
        sb = st.encode()
        out.append((encode_package(tr.setup, n, sb, wire, recs), iv.H("STATE", sb)[:32]))
        try:
            st, _ = iv.step(g, st, wire)
        except iv.Violation:
            break
    return out


def read_records(path: Path) -> list[bytes]:
    data, out, i = path.read_bytes(), [], 0
    while i < len(data):
        n = int.from_bytes(data[i : i + 4], "big")
        out.append(data[i + 4 : i + 4 + n])
        i += 4 + n
    return out


# --- 11.5 matches ----------------------------------------------------------------------------
MATCH_MAGIC = b"DEALERLESS-M1\n"


def verify_match(data: bytes) -> dict[str, Any]:
    def bad(rule: str, rnd: int | None, vio: iv.Violation | None = None) -> dict[str, Any]:
        if vio is None:
            vio = iv.Violation(rule, None, None, False, rule)
        return {"valid": False, "violation": vio.to_json(), "broken_round": rnd}

    if not data.startswith(MATCH_MAGIC):
        return bad("match/magic", None)
    rounds, i = [], len(MATCH_MAGIC)
    while i < len(data):
        if len(data) - i < 5 or data[i : i + 1] != b"R":
            return bad("match/record", None)
        n = int.from_bytes(data[i + 1 : i + 5], "big")
        if n > 2**24 or len(data) - i - 5 < n or len(rounds) == 13:
            return bad("match/record", None)
        rounds.append(data[i + 5 : i + 5 + n])
        i += 5 + n
    if not rounds:
        return bad("match/record", None)
    prev: tuple[iv.Game, iv.Verdict, bytes] | None = None
    verdicts = []
    for r, tdata in enumerate(rounds):
        v = iv.verify(tdata)
        g = v.game
        # SPEC GAP: 11.5 step 2 does not order the round's own violation and match/link;
        # the link (which needs only the setup and the previous round) is checked first,
        # unless the setup could not be read.
        if g is not None:
            p = g.rules.params
            if not {"round", "after"} <= set(p):
                return bad("match/link", r)
            top = g.rules.tiles[-1][1]
            if prev is None:
                if p["round"] != top or p["after"] != "":
                    return bad("match/link", r)
            else:
                pg, pv, last = prev
                pp = pg.rules.params
                if (not pv.complete or g.rules.name != pg.rules.name
                        or g.identities != pg.identities or p["round"] != pp["round"] - 1
                        or p["after"] != iv.frame_hash(last).hex()
                        or {a: b for a, b in p.items() if a not in ("round", "after")}
                        != {a: b for a, b in pp.items() if a not in ("round", "after")}):
                    return bad("match/link", r)
        if v.violation is not None:
            return bad(v.violation.rule, r, v.violation)
        tr, _, _ = iv.parse_transcript(tdata)
        prev = (g, v, tr.frames[-1] if tr.frames else b"")  # type: ignore[union-attr]
        verdicts.append(v)
    due = verdicts[0].game.rules.tiles[-1][1] + 1  # type: ignore[union-attr]
    return {"valid": True, "violation": None, "broken_round": None,
            "complete": all(v.complete for v in verdicts) and len(rounds) == due}


# --- the vectors ----------------------------------------------------------------------------
class Tally:
    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose
        self.sections: list[tuple[str, int, int]] = []
        self.passed = self.failed = 0

    def check(self, label: str, ok: bool, why: str = "") -> None:
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)
        if not ok or self.verbose:
            print(f"{'PASS' if ok else 'FAIL'} {label}" + ("" if ok else f": {why}"))

    def section(self, name: str) -> None:
        self.sections.append((name, self.passed, self.failed))

    def end_section(self) -> None:
        name, p0, f0 = self.sections[-1]
        print(f"{name}: {self.passed - p0} passed, {self.failed - f0} failed")


VERDICT_KEYS = ("usable", "code", "valid", "next_state_hash", "rule", "seat", "frame",
                "authenticated")


def _cmp_verdict(got: dict[str, Any], want: dict[str, Any]) -> str:
    diffs = [f"{k}: got {got.get(k)!r}, want {want.get(k)!r}" for k in VERDICT_KEYS
             if k in want and got.get(k) != want[k]]
    return "; ".join(diffs)


def check_disputes(t: Tally) -> None:
    idx = json.loads((DISPUTES / "index.json").read_text())
    t.section("disputes/golden")
    for name, gv in idx["golden"].items():
        data = (TRANSCRIPTS / gv["transcript"]).read_bytes()
        built = packages(data)
        shipped = read_records(DISPUTES / gv["packages"]) if gv["packages"] else None
        t.check(f"{name}: {len(gv['steps'])} steps", len(built) == len(gv["steps"]),
                f"{len(built)} packages built")
        for s in gv["steps"]:
            n = s["index"]
            if n >= len(built):
                continue
            pkg, sh = built[n]
            label = f"{name} frame {n}"
            ok = hashlib.sha256(pkg).hexdigest() == s["package_sha256"]
            if shipped is not None:
                ok = ok and shipped[n] == pkg
            t.check(f"{label}: package", ok, "the package built per 11.3 differs")
            t.check(f"{label}: committed state hash", sh.hex() == s["committed_state_hash"],
                    f"got {sh.hex()}")
            ch = s["committed_state_hash"]
            got = check_step(pkg, bytes.fromhex(ch) if ch else None)
            d = _cmp_verdict(got, s)
            t.check(f"{label}: verdict", not d, d)
    t.end_section()
    t.section("disputes/crafted")
    recs = read_records(DISPUTES / idx["crafted"]["packages"])
    for s in idx["crafted"]["steps"]:
        pkg = recs[s["record"]]
        label = f"crafted {s['record']} {s['name']}"
        if hashlib.sha256(pkg).hexdigest() != s["package_sha256"]:
            t.check(label, False, "package bytes do not match package_sha256")
            continue
        ch = s["committed_state_hash"]
        got = check_step(pkg, bytes.fromhex(ch) if ch else None)
        d = _cmp_verdict(got, s)
        t.check(label, not d, d)
    t.end_section()


def _cmp_vio(got: dict[str, Any] | None, want: dict[str, Any] | None) -> list[str]:
    if got is None or want is None:
        return [] if got == want else [f"violation: got {got}, want {want}"]
    return [f"violation.{k}: got {got.get(k)!r}, want {want[k]!r}" for k in want
            if got.get(k) != want[k]]


def check_files(t: Tally) -> None:
    d = json.loads((VEC / "files.json").read_text())
    t.section("files/transcripts")
    for x in d["transcripts"]:
        v = iv.verify(bytes.fromhex(x["file"]))
        j = v.to_json()
        diffs = [f"{k}: got {j[k]!r}, want {x[k]!r}" for k in ("valid", "complete", "frames")
                 if j[k] != x[k]] + _cmp_vio(j["violation"], x["violation"])
        t.check(f"transcript {x['name']}", not diffs, "; ".join(diffs))
    t.end_section()
    t.section("files/matches")
    for x in d["matches"]:
        m = verify_match(bytes.fromhex(x["file"]))
        diffs = [f"{k}: got {m[k]!r}, want {x[k]!r}" for k in ("valid", "broken_round")
                 if m[k] != x[k]] + _cmp_vio(m["violation"], x["violation"])
        t.check(f"match {x['name']}", not diffs, "; ".join(diffs))
    t.end_section()


def check_setups(t: Tally) -> None:
    d = json.loads((VEC / "setup.json").read_text())
    t.section("setup.json (independent_verify.decode_setup)")
    for x in d["vectors"]:
        try:
            g = iv.decode_setup(bytes.fromhex(x["setup"]))
            got, gid = "ok", g.game_id.hex()
        except ic.SpecError as e:
            got, gid = e.code, None
        ok = got == x["expected"] and (got != "ok" or gid == x.get("game_id"))
        t.check(f"setup {x['name']}", ok, f"got {got}, want {x['expected']}")
    t.end_section()


def run(verbose: bool = False, files: bool = True) -> tuple[int, int]:
    t = Tally(verbose)
    check_setups(t)
    check_disputes(t)
    if files:
        check_files(t)
    return t.passed, t.failed



if __name__ == "__main__":
    p, f = run()
    print(f"total: {p} passed, {f} failed")
