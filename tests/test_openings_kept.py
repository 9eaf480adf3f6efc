"""What a seat must later open is kept across a crash (spec/rules/mined-games.md D17,
spec/12-peers.md 12.4): `SeatAgent.openings` exports the opening of its commitment in the
current stage, the store writes it in the transaction of the COMMIT frame, and a new agent
(a resumed seat) given it back builds the very OPEN frame the first one would have sent.
The real-process crash is in test_crash_commitments.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from peers.entropy import Entropy
from peers.net.config import HOST, PeerConfig
from peers.net.peer import Peer
from peers.store.games import MAX_OPENINGS, CorruptGame, GameStore
from peers.table.selfplay import Table, rule_params
from protocol.canonical import pack
from protocol.errors import LocalError
from protocol.frames import MessageType
from protocol.seat import SeatAgent


def mined_table(seed: int) -> Table:
    return Table.create("mined-games", rule_params("mined-games", 3), ["greedy"] * 3,
                        Entropy(seed))


def until_owed(table: Table, seat: int, mtype: MessageType, stage: int) -> None:
    """Play until `seat` owes a frame of `mtype` in `stage` or later."""
    ref = table.referees[seat]
    while not (ref.awaiting == (seat, mtype) and ref.state.rules_state.stage >= stage):
        assert table.step() is not None, "the game ended first"


def twin(table: Table, seat: int) -> SeatAgent:
    """Another agent of `seat`: the seat after a restart, knowing nothing of its orders.
    (A resumed seat has its old seed; what an OPEN holds comes only from what was kept.)"""
    return SeatAgent(table.referees[seat].game, seat, table.agents[seat].identity,
                     bytes(range(32)))


def committed_table(seed: int, seat: int, stage: int) -> tuple[Table, dict[int, bytes]]:
    """A table where `seat` has committed in `stage` (and owes its OPEN), and what the
    peer would have stored with that COMMIT."""
    table = mined_table(seed)
    until_owed(table, seat, MessageType.COMMIT, stage)
    state = table.referees[seat].state
    wire = table.agents[seat].next_frame(state, table.entropy.bytes("commit"),
                                         table.choosers[seat])
    kept = table.agents[seat].openings(state)   # taken before the frame is applied
    table.deliver(wire)
    until_owed(table, seat, MessageType.OPEN, stage)
    return table, kept


@pytest.mark.parametrize(("seed", "seat", "stage"), [(1, 0, 0), (2, 2, 1), (3, 1, 3)])
def test_a_restored_seat_sends_the_open_the_first_agent_would_have(
        seed: int, seat: int, stage: int) -> None:
    table, kept = committed_table(seed, seat, stage)
    state = table.referees[seat].state
    assert list(kept) == [state.rules_state.stage]
    again = twin(table, seat)
    with pytest.raises(LocalError, match="seat/lost-orders"):   # without what was kept
        again.next_frame(state, bytes(32))
    again.restore_openings(state, kept)
    # Ed25519 signatures are deterministic: the same body gives the same frame.
    wire = again.next_frame(state, table.entropy.bytes("open"))
    assert wire == table.agents[seat].next_frame(state, table.entropy.bytes("other"))
    table.deliver(wire)
    assert table.referees[0].frames[-1].type is MessageType.OPEN


def test_a_kept_opening_that_does_not_open_the_commitment_is_refused() -> None:
    table, kept = committed_table(4, 1, 2)
    state = table.referees[1].state
    (stage, value), = kept.items()
    for bad in (value[:-1] + bytes([value[-1] ^ 1]),      # another nonce
                pack([None, bytes(32)]),                  # other orders
                pack([1, 2, 3]), b"\xc1", pack([None, b"short"])):
        with pytest.raises(LocalError, match="seat/bad-opening"):
            twin(table, 1).restore_openings(state, {stage: bad})
    # Any other stage's opening is spent and ignored; so is one for a deck game.
    twin(table, 1).restore_openings(state, {stage - 1: b"spent"})
    deck = Table.create("bram", rule_params("bram", 2), ["greedy"] * 2, Entropy(5))
    assert deck.agents[0].openings(deck.referees[0].state) == {}
    deck.agents[0].restore_openings(deck.referees[0].state, {0: b"x"})


def test_the_store_writes_the_opening_with_its_commit_frame(tmp_path: Path) -> None:
    table, _ = committed_table(6, 0, 1)
    store = GameStore.create(tmp_path, table.setup, 0, bytes(range(32)), {"role": "host"})
    frames = table.referees[0].transcript().frames
    for seq, wire in enumerate(frames[:-1]):
        store.append(seq, wire)
    store.append(len(frames) - 1, frames[-1], {1: b"opening"})
    store.append(len(frames) - 1, frames[-1], {1: b"other"})   # a resend: already stored
    store.close()
    again = GameStore.open(store.path)
    assert again.openings() == {1: b"opening"} and again.frame_count() == len(frames)
    with pytest.raises(ValueError, match="at most"):
        again.append(len(frames), b"f", {s: b"o" for s in range(MAX_OPENINGS + 1)})
    assert again.frame_count() == len(frames)    # nothing of it was written
    again.append(len(frames), b"f", {})          # an own frame that commits to nothing
    assert again.openings() == {}
    again.close()
    db = sqlite3.connect(again.path)
    with db:
        db.executemany("INSERT INTO openings VALUES (?, ?)", [(2, b"a"), (3, b"b")])
    db.close()
    with pytest.raises(CorruptGame, match="more than 1 opening"):
        GameStore.open(again.path)


class _NoLink:
    """A link the peer never gets to use: it refuses the database first."""

    async def close(self) -> None:
        return None


@pytest.mark.asyncio
async def test_resume_refuses_a_kept_opening_that_does_not_open_the_commitment(
        tmp_path: Path) -> None:
    table, kept = committed_table(7, 0, 2)
    (stage, value), = kept.items()
    store = GameStore.create(tmp_path, table.setup, 0, bytes(range(32)), {"role": "host"})
    frames = table.referees[0].transcript().frames
    for seq, wire in enumerate(frames):
        store.append(seq, wire, {stage: value[:-1] + bytes([value[-1] ^ 1])}
                     if seq == len(frames) - 1 else None)
    config = PeerConfig(games_dir=tmp_path, role=HOST, identity=table.agents[0].identity,
                        choose=None, notify=lambda e: None, rules="mined-games")  # type: ignore[arg-type]
    with pytest.raises(CorruptGame, match="does not open seat 0's seal") as refused:
        await Peer(_NoLink(), config, store).run()  # type: ignore[arg-type]
    assert str(store.path) in str(refused.value)
