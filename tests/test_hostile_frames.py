"""Hostile input never crashes a referee: every bad frame is a typed Violation (spec/10.5).

Frames here are validly signed by the seat that owes the next frame, so they get
past authentication and reach the body decoders and phase handlers.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.canonical import pack
from protocol.errors import EncodingError, Violation
from protocol.frames import (
    MAX_FRAME_BYTES,
    MessageType,
    build_frame,
    signed_message,
)
from protocol.state import Phase

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.binary(max_size=80), st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=12)


def _table_at(phase: Phase) -> Table:
    table = Table.create("bram", {}, ("greedy", "greedy"), Entropy(99))
    while table.referees[0].state.phase is not phase:
        table.step()
    return table


TABLES = {phase: _table_at(phase) for phase in (Phase.KEYS, Phase.NONCES, Phase.SHUFFLE,
                                                Phase.DEAL, Phase.PLAY, Phase.REVEAL)}


def _signed(table: Table, mtype: int, body: object) -> bytes:
    ref = table.referees[0]
    seat = ref.awaiting[0]
    agent = table.agents[seat]
    suite = ref.game.suite
    payload = pack([suite.version, ref.game.game_id, ref.state.seq, ref.state.prev, seat,
                    mtype, ref.state.hash(ref.game.rules, suite), body])
    return pack([payload, suite.signer.sign(agent.identity.seed,
                                            signed_message(suite.version, payload), b"")])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(TABLES)), st.integers(0, 8), values)
def test_signed_garbage_bodies_are_violations_blaming_the_sender(phase: Phase, mtype: int,
                                                                 body: object) -> None:
    table = TABLES[phase]
    ref = table.referees[0]
    before = (ref.state, len(ref.frames))
    seat = ref.awaiting[0]
    try:
        wire = _signed(table, mtype, body)
    except EncodingError:  # not encodable canonically (e.g. an int too large): not a frame
        return
    fresh = type(ref)(ref.game.setup)
    fresh.state, fresh.frames = ref.state, list(ref.frames)
    with pytest.raises(Violation) as err:
        fresh.receive(wire)
    assert err.value.seat in (seat, None)
    assert (ref.state, len(ref.frames)) == before


def _mutate(value: object, data: st.DataObject) -> object:
    """Replace one leaf, or drop or repeat one element, somewhere inside `value`."""
    if isinstance(value, list) and value and data.draw(st.integers(0, 3)):
        i = data.draw(st.integers(0, len(value) - 1))
        action = data.draw(st.sampled_from(["into", "drop", "dup", "replace"]))
        out = list(value)
        if action == "into":
            out[i] = _mutate(out[i], data)
        elif action == "drop":
            del out[i]
        elif action == "dup":
            out.insert(i, out[i])
        else:
            out[i] = data.draw(values)
        return out
    if isinstance(value, bytes) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        return value[:i] + bytes([value[i] ^ data.draw(st.integers(1, 255))]) + value[i + 1:]
    return data.draw(values)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(TABLES)), st.data())
def test_mutated_honest_bodies_are_rejected_or_harmless(phase: Phase,
                                                        data: st.DataObject) -> None:
    table = TABLES[phase]
    ref = table.referees[0]
    seat = ref.awaiting[0]
    mtype, body = table.agents[seat].body(ref.state, b"\x05" * 32, table.choosers[seat])
    mutated = _mutate(body, data)
    try:
        wire = _signed(table, int(mtype), mutated)
    except EncodingError:
        return
    fresh = type(ref)(ref.game.setup)
    fresh.state, fresh.frames = ref.state, list(ref.frames)
    try:
        fresh.receive(wire)
    except Violation as v:
        assert v.seat == seat and v.authenticated
    # Acceptance is fine too: some mutations leave a body that is still legal (another
    # legal move id, another 32-byte commitment). Any other exception fails the test.


@given(st.binary(max_size=300))
def test_random_bytes_are_unauthenticated_violations(data: bytes) -> None:
    ref = TABLES[Phase.PLAY].referees[0]
    with pytest.raises(Violation) as err:
        ref.receive(data)
    assert ref.violation is None or not err.value.authenticated


def test_oversized_frames_are_refused_before_unpacking() -> None:
    table = TABLES[Phase.PLAY]
    ref = table.referees[0]
    with pytest.raises(Violation) as err:
        ref.receive(b"\x92" + os.urandom(MAX_FRAME_BYTES + 1))
    assert err.value.code == "msgpack/too-large"
    seat = ref.awaiting[0]
    with pytest.raises(Exception) as built:
        build_frame(table.agents[seat].identity, ref.game.suite, ref.game.game_id, ref.state.seq,
                    ref.state.prev, seat, MessageType.MOVE, bytes(32),
                    [0, bytes(MAX_FRAME_BYTES), None, None])
    assert "too-large" in str(built.value) or "msgpack" in str(built.value)


def test_deeply_nested_input_is_a_typed_error_not_a_crash() -> None:
    ref = TABLES[Phase.PLAY].referees[0]
    deep = b"\x91" * 5000 + b"\xc0"
    with pytest.raises(Violation) as err:
        ref.receive(deep)
    assert err.value.code.startswith("msgpack/")
    from protocol.canonical import unpack
    with pytest.raises(EncodingError):
        unpack(deep, 1 << 16)


def test_check_step_refuses_an_impossible_state_instead_of_crashing() -> None:
    from protocol.canonical import unpack
    from protocol.verifier import check_step, dispute_package

    table = TABLES[Phase.PLAY]
    data = table.referees[0].transcript().encode()
    package = unpack(dispute_package(data, len(table.referees[0].frames) - 1), 1 << 20)
    state = unpack(package[4], 1 << 20)
    state["phase"], state["rules"] = "play", None
    package[4] = pack(state)
    with pytest.raises(EncodingError) as err:
        check_step(pack(package))
    assert err.value.code == "state/inconsistent"
