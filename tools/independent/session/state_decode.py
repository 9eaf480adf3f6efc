"""Decoding a received state, spec/10-session.md 10.3: state/schema, then
state/inconsistent, then state/non-canonical; for the single-step check (11.4).

Decisions where the spec is ambiguous or silent are marked `# SPEC GAP:`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

from independent.errors import SpecError, detail_of, fail_err
from independent.group.points import Tile, tile_text
from independent.rules.state_json import FROM_JSON
from independent.session.game import Game
from independent.session.state import State
from independent.wire.fields import f_array, f_bytes, f_int, f_list, f_text
from independent.wire.msgpack_lib import unpack

MAX_STATE = 131072         # 11.3


PHASES = ("keys", "nonces", "shuffle", "deal", "play", "draw", "reveal", "done")
SIM_PHASES = ("keys", "commit", "open", "choose", "done")   # 10.8
STATE_KEYS = {"magic", "game_id", "seq", "prev", "phase", "turn", "key_shares",
              "commitments", "nonces", "first_player", "deck", "owners", "shares",
              "opened", "played", "rules", "drawing", "claims"}


TILE_TEXT = re.compile(r"(0|[1-9][0-9]*)-(0|[1-9][0-9]*)", re.ASCII)


def decode_state(g: Game, data: bytes) -> State:
    """10.3 Decoding: state/schema, then state/inconsistent, then state/non-canonical."""
    # 10.3: an `unpack` failure keeps its msgpack/* code; the field checks are state/schema.
    v = unpack(data, MAX_STATE)
    try:
        st = _state_fields(g, v)
    except SpecError as e:
        fail_err("state/schema", f"{e.code}: {detail_of(e)}")
    _consistent(g, st)
    if st.encode() != data:
        fail_err("state/non-canonical", "the state re-encodes otherwise")
    return st


def _state_fields(g: Game, v: Any) -> State:
    k = g.k
    if not isinstance(v, dict) or set(v) != STATE_KEYS or v["magic"] != "dealerless/state":
        fail_err("state/schema", "not the 18-key state map")

    def opt_seat(x: Any, what: str) -> int | None:
        return None if x is None else f_int(x, what, 0, k - 1)

    game_id = f_bytes(v["game_id"], "game_id", 32)
    seq = f_int(v["seq"], "seq")
    prev = f_bytes(v["prev"], "prev", 32)
    phase = v["phase"]
    # SPEC GAP: "a known phase" is read per rule set: 10.3's phase row lists the deck
    # game's phases and, for a simultaneous rule set, those of 10.8.
    if phase not in (SIM_PHASES if simultaneous(g) else PHASES):
        fail_err("state/schema", f"phase {phase!r}")
    turn = opt_seat(v["turn"], "turn")
    o = g.suite.ops   # 3.5: points of the game's suite, P bytes each
    key_shares = [o.accept(f_bytes(x, "key share", o.P))
                  for x in f_list(v["key_shares"], "key_shares", k)]
    commitments = [f_bytes(x, "commitment", 32)
                   for x in f_list(v["commitments"], "commitments", k)]
    nonces = [f_bytes(x, "nonce", 32) for x in f_list(v["nonces"], "nonces", k)]
    first_player = opt_seat(v["first_player"], "first_player")
    deck = f_bytes(v["deck"], "deck", at_most=4096 * 2 * o.P)
    if len(deck) % (2 * o.P):                                                  # 5.2
        fail_err("deck/length")
    for i in range(0, len(deck), o.P):
        o.accept(deck[i : i + o.P])
    owners = [f_int(x, "owner", -2, k - 1) for x in f_list(v["owners"], "owners")]
    shares = [[None if d is None else o.accept(f_bytes(d, "share", o.P))
               for d in f_array(row, k, "shares row")]
              for row in f_list(v["shares"], "shares")]
    opened: list[Tile | None] = []
    for x in f_list(v["opened"], "opened"):
        if x is None:
            opened.append(None)
            continue
        # SPEC GAP: "the text of a tile" is read as two decimal numbers without signs or
        # leading zeros joined by "-", in either order (10.3: "6-5" is the tile 5-6).
        m = TILE_TEXT.fullmatch(f_text(x, "opened tile")) if isinstance(x, str) else None
        t = (min(int(m[1]), int(m[2])), max(int(m[1]), int(m[2]))) if m else None
        if t not in g.point_of:
            fail_err("state/schema", f"opened {x!r} is no tile of the set")
        opened.append(t)
    played = []
    for x in f_list(v["played"], "played"):
        if not isinstance(x, bool):
            fail_err("schema/bool", "played")
        played.append(x)
    rules = None if v["rules"] is None else FROM_JSON[g.rules.name](g.rules, v["rules"])
    # SPEC GAP: "a position" is read as int(0, 4095) (8.5 entry); whether it is one of this
    # state's positions is state/inconsistent (10.3 drawing).
    drawing = None if v["drawing"] is None else f_int(v["drawing"], "drawing", 0, 4095)
    n = len(g.deck_tiles)
    claims = []
    for c in f_list(v["claims"], "claims"):
        c = f_array(c, 4, "claim")
        cs = f_int(c[0], "claim seq")
        seat = f_int(c[1], "claim seat", 0, k - 1)
        pos = [f_int(p, "claim position", 0, n - 1)
               for p in f_list(c[2], "claim positions", n)]
        ts = []
        for x in f_list(c[3], "claim tiles", len(g.rules.tiles)):
            m = TILE_TEXT.fullmatch(f_text(x, "claim tile"))
            t = (min(int(m[1]), int(m[2])), max(int(m[1]), int(m[2]))) if m else None
            if t not in g.point_of:
                fail_err("state/schema", f"claim tile {x!r} is no tile of the set")
            ts.append(t)
        claims.append((cs, seat, pos, ts))
    st = State(game_id, seq, prev, phase, turn, key_shares, commitments, nonces,
                  first_player, deck, owners, shares, opened, played, rules, drawing,
                  [[cs, s, p, [tile_text(t) for t in ts]] for cs, s, p, ts in claims])
    st._claim_tiles = [ts for _, _, _, ts in claims]  # type: ignore[attr-defined]
    return st


def simultaneous(g: Game) -> bool:
    return getattr(g.rules, "simultaneous", False)


def _consistent(g: Game, st: State) -> None:
    def need(ok: bool, why: str) -> None:
        if not ok:
            fail_err("state/inconsistent", why)

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
        need(len(st.nonces) == k and st.first_player is not None
             and len(st.deck) == 2 * g.suite.ops.P * n,
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
    # 10.3: only forced play (10.4 PLAY, a DrawingRules rule set) makes claims.
    need(g.rules.drawing_rules or not st.claims, "claims in a rule set without forced play")
    for (cs, _, pos, _), ts in zip(st.claims, st._claim_tiles, strict=True):  # type: ignore
        idx = [g.rules.tiles.index(t) for t in ts]
        need(cs < st.seq and all(a < b for a, b in itertools.pairwise(pos))
             and all(a < b for a, b in itertools.pairwise(idx)),
             "a claim of a later frame or unordered")


def _consistent_stages(g: Game, st: State, need: Callable[[bool, str], None]) -> None:
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
