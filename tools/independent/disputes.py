"""The single-step check, spec/11-verify.md: dispute packages from a transcript (11.3)
and check_step (11.4), which judges one frame against the state it follows.

Decisions where the spec is ambiguous or silent are marked `# SPEC GAP:`.
"""

from __future__ import annotations

from typing import Any

from independent.errors import SpecError, check_version, fail_err
from independent.session.frames import MAX_FRAME_BYTES, Frame, parse_frame, signature_ok
from independent.session.game import BONEYARD, Game, decode_setup
from independent.session.state import initial_state
from independent.session.state_decode import MAX_STATE, decode_state
from independent.session.step import Violation, step
from independent.session.transcript import parse_transcript
from independent.wire.fields import f_array, f_bytes, f_int, f_list
from independent.wire.msgpack_lib import pack, unpack

MAX_PACKAGE = 1249280      # 11.3


# --- 11.4 check_step ------------------------------------------------------------------------
def game_owners_ok(g: Game, owners: list[int]) -> bool:
    """10.3: the dealt owners, except that some first boneyard positions, in ascending
    order, belong to seats."""
    if len(owners) != len(g.owners):
        return False
    pile = [p for p, o in enumerate(g.owners) if o == BONEYARD]
    drawn = [p for p in pile if owners[p] != BONEYARD]
    if drawn != pile[: len(drawn)] or any(owners[p] < 0 for p in drawn):
        return False
    return all(owners[p] == o for p, o in enumerate(g.owners) if o != BONEYARD)


def check_step(pkg: bytes, committed: bytes | None = None) -> dict[str, Any]:
    """11.4: {usable: False, code} or the verdict of rules 9 and 10."""
    try:
        v = f_array(unpack(pkg, MAX_PACKAGE), 7, "package")             # 1
        if v[0] != "dealerless/dispute":                                      # 2
            fail_err("dispute/magic")
        version = check_version(f_int(v[1], "package version"), "dispute package")
        g = decode_setup(f_bytes(v[2], "setup", at_most=4096))              # 3
        # SPEC GAP: 11.4 rule 2 asks item 1 to be "the setup's" version, which only rule 3
        # decodes; it is compared once the setup has decoded.
        check_version(version, "dispute package", g.suite.version)
        n = f_int(v[3], "N")                                                  # 4
        sbytes = f_bytes(v[4], "state", at_most=MAX_STATE)                    # 5
        st = decode_state(g, sbytes)
        if st.game_id != g.game_id or st.seq != n or not game_owners_ok(g, st.owners):  # 6
            fail_err("dispute/state", "the state is not of this game and step")
        # SPEC GAP: 11.4 gives the committed hash's refusal (dispute/state) without a place
        # in the order; it is checked with rule 6.
        if committed is not None and st.hash(g.suite) != committed:
            fail_err("dispute/state", "the state is not the committed one")
        wire = f_bytes(v[5], "frame", at_most=MAX_FRAME_BYTES)             # 7
        ev = [f_bytes(x, "evidence", at_most=MAX_FRAME_BYTES)              # 8
              for x in f_list(v[6], "evidence", 16)]
    except SpecError as e:
        return {"usable": False, "code": e.code}
    try:                                                                          # 9
        nxt, fr = step(g, st, wire)
    except Violation as vio:
        auth = vio.authenticated
        # 11.4: without the committed hash, neither a state/hash-mismatch (a forged package
        # state would give the same finding) nor a violation charged to a frame other than
        # N (only the state vouches for that frame: audit/false-claim) is authenticated.
        if committed is None and (vio.rule == "state/hash-mismatch" or vio.frame != n):
            auth = False
        return {"usable": True, "valid": False, "rule": vio.rule, "seat": vio.seat,
                "frame": vio.frame, "authenticated": auth}
    proven: Violation | None = None                                            # 10
    for w in ev:
        vio = judge_evidence(g, fr, w)
        if vio.rule == "transcript/bad-evidence":
            proven = vio
            break
        proven = proven or vio
    if proven is not None:
        return {"usable": True, "valid": False, "rule": proven.rule, "seat": proven.seat,
                "frame": proven.frame, "authenticated": proven.authenticated}
    return {"usable": True, "valid": True, "next_state_hash": nxt.hash(g.suite).hex()}


def judge_evidence(g: Game, a: Frame, wire: bytes) -> Violation:
    """11.4 rule 10: one evidence record against the accepted frame N (11.2 step 4)."""
    def bad(why: str) -> Violation:
        return Violation("transcript/bad-evidence", None, None, False, why)

    ev = evidence_ok(g, wire)
    if ev is None:
        return bad("the evidence does not parse or is not signed by a seat of this game")
    # SPEC GAP: 11.2 step 4 asks for a seq below the number of accepted frames; the package
    # holds one accepted frame, N, so any other seq proves nothing here.
    if ev.seq != a.seq or ev.game_id != g.game_id:
        return bad("the evidence is for another step or game")
    if ev.seat == a.seat and ev.prev == a.prev and ev.wire != a.wire:
        return Violation("frame/equivocation", ev.seat, ev.seq, True, "equivocation")
    if ev.seat != a.seat and ev.prev == a.prev and ev.state_hash == a.state_hash and (
            10 not in (ev.type, a.type)):   # 10.8: rivals for one place prove nothing
        return Violation("frame/out-of-turn", ev.seat, ev.seq, True, "out of turn")
    return bad("the evidence proves nothing")


# --- 11.3 packages from a transcript ---------------------------------------------------------
def encode_package(g: Game, setup: bytes, n: int, state: bytes, frame: bytes,
                   evidence: list[bytes]) -> bytes:
    """11.3: item 1 is the setup's protocol version."""
    return pack(["dealerless/dispute", g.suite.version, setup, n, state, frame, evidence])


def evidence_ok(g: Game, wire: bytes) -> Frame | None:
    """10.5 checks 1 and 2."""
    try:
        fr = parse_frame(wire, g.suite.version)
    except SpecError:
        return None
    if fr.seat >= g.k or not signature_ok(g.suite, g.identities[fr.seat], fr):
        return None
    return fr


def packages(data: bytes) -> list[tuple[bytes, bytes]]:
    """11.3 for every N with a committed state, from one replay: (package, state hash)."""
    tr, err, _ = parse_transcript(data)
    if tr is None:
        raise err  # type: ignore[misc]
    g = tr.game
    ev = [(w, evidence_ok(g, w)) for w in tr.evidence]
    st = initial_state(g)
    out = []
    for n, wire in enumerate(tr.frames):
        recs = [w for w, fr in ev if fr is not None and fr.seq == n]
        sb = st.encode()
        out.append((encode_package(g, tr.setup, n, sb, wire, recs), st.hash(g.suite)))
        try:
            st, _ = step(g, st, wire)
        except Violation:
            break
    return out
