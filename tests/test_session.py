"""Full games through the session, and every class of cheating caught (spec/10, spec/11).

Each cheat in peers/cheats/deck_games.py is played against an honest seat: the honest
seat's own referee must name the violation and the cheater, keep its accepted
frames, and `dealerless verify` must reach the same verdict on the transcript
the honest seat saves.
"""

from __future__ import annotations

import pytest

from peers.cheats.deck_games import CHEATS
from peers.entropy import Entropy
from peers.table.selfplay import Table, selfplay
from protocol.errors import Violation
from protocol.frames import MessageType
from protocol.state import HIDDEN, Phase
from protocol.verifier import replay


def test_seeded_selfplay_is_complete_valid_and_reproducible() -> None:
    a = selfplay(seed=11)
    b = selfplay(seed=11)
    assert a.encode() == b.encode()
    verdict = replay(a.encode())
    assert verdict.exit_code == 0 and verdict.complete
    out = verdict.outcome
    assert out is not None
    # The outcome is consistent with the pips the verdict reports.
    if out.reason == "blocked":
        if out.pips_halves[0] == out.pips_halves[1]:
            assert out.winner is None
        else:
            assert out.winner == min((0, 1), key=lambda s: out.pips_halves[s])
    else:
        assert out.hand_pips[out.winner] == 0
    assert len(out.hidden) == 1 and out.hidden[0] != (6, 6)


@pytest.mark.parametrize("bots", [("greedy", "random"), ("random", "random"),
                                  ("greedy", "greedy")])
def test_every_tile_is_accounted_for_exactly_once(bots: tuple[str, str]) -> None:
    table = Table.create("bram", {"komi_halves": 1}, bots, Entropy(5))
    data = table.play().encode()
    verdict = replay(data)
    assert verdict.exit_code == 0
    state = table.referees[0].state
    assert sorted(t for t in state.opened if t) == sorted(
        t for t in table.referees[0].game.deck_tiles)
    assert verdict.to_json()["rules"]["params"] == {"komi_halves": 1}


def test_unseeded_games_differ() -> None:
    assert selfplay().encode() != selfplay().encode()


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_cheat_is_caught_by_the_honest_seat_and_by_verify(name: str) -> None:
    cheat = CHEATS[name]()
    honest = cheat.table.referees[1 - cheat.seat]
    accepted_before = list(honest.frames)
    if cheat.bad_frame is None:
        # Silence cannot be a signed violation: the referee names who owes what.
        assert honest.awaiting == (cheat.seat, MessageType.REVEAL)
    else:
        with pytest.raises(Violation) as err:
            honest.receive(cheat.bad_frame)
        assert (err.value.code, err.value.seat) == (cheat.rule, cheat.seat)
        assert err.value.frame == cheat.frame
        assert honest.frames == accepted_before      # nothing accepted, nothing lost
        saved = replay(honest.transcript().encode())  # what the honest seat keeps
        if err.value.authenticated:
            assert saved.violation is not None
            assert (saved.violation.code, saved.violation.seat) == (cheat.rule, cheat.seat)
        else:  # not evidence: the saved chain stays a valid prefix
            assert saved.exit_code == 3
    verdict = replay(cheat.transcript())
    if cheat.bad_frame is None:
        assert verdict.exit_code == 3
        assert verdict.awaiting == (cheat.seat, cheat.rule)
    else:
        assert verdict.exit_code == 1
        v = verdict.violation
        assert v is not None and (v.code, v.seat) == (cheat.rule, cheat.seat)


def test_a_proven_cheat_is_final_but_unauthenticated_garbage_is_not() -> None:
    cheat = CHEATS["bad-signature"]()
    honest = cheat.table.referees[1 - cheat.seat]
    with pytest.raises(Violation) as err:
        honest.receive(cheat.bad_frame)
    assert not err.value.authenticated
    assert honest.violation is None                 # anyone could have sent it
    cheat.table.step()                              # the real frame still goes through
    proven = CHEATS["out-of-turn"]()
    ref = proven.table.referees[1 - proven.seat]
    with pytest.raises(Violation):
        ref.receive(proven.bad_frame)
    with pytest.raises(Violation):                  # absorbing: nothing after it counts
        ref.receive(proven.prefix[0])


def test_duplicates_are_ignored() -> None:
    table = Table.create("bram", {}, ("greedy", "greedy"), Entropy(3))
    for _ in range(4):
        table.step()
    ref = table.referees[0]
    n = len(ref.frames)
    assert ref.receive(ref.frames[1].wire) is None
    assert len(ref.frames) == n


def test_no_view_ever_contains_another_seats_unplayed_tile_or_the_hidden_tile() -> None:
    table = Table.create("bram", {}, ("random", "greedy"), Entropy(21))
    seen: list[tuple[int, object]] = []
    for seat, chooser in enumerate(list(table.choosers)):
        def spy(view: object, seat: int = seat, chooser: object = chooser) -> object:
            seen.append((seat, view))                # exactly what the bot receives
            return chooser(view)  # type: ignore[operator]
        table.choosers[seat] = spy
    hands_at: list[tuple[dict[int, set[tuple[int, int]]], object]] = []
    while True:
        state = table.referees[0].state
        if state.phase is Phase.PLAY:
            hands = {s: set(table.agents[s].hand_positions(state).values()) for s in (0, 1)}
            views = {s: table.agents[s].view(state) for s in (0, 1)}
            hands_at.append((hands, views))
            # The public state shows only played tiles; the hidden one stays closed.
            assert all(state.opened[p] is None for p, o in enumerate(state.owners)
                       if o == HIDDEN)
            assert all(state.played[p] for p, t in enumerate(state.opened) if t)
        if table.step() is None:
            break
    hidden = set(replay(table.referees[0].transcript().encode()).outcome.hidden)
    assert len(hands_at) > 10 and len(seen) > 5
    for hands, views in hands_at:
        for seat, view in views.items():
            assert set(view.hand) == hands[seat]
            assert _tiles_in(view).isdisjoint(hands[1 - seat] | hidden)
    for _seat, view in seen:
        assert _tiles_in(view).isdisjoint(hidden)


def _tiles_in(obj: object) -> set[tuple[int, int]]:
    """Every (a, b) int pair anywhere inside obj, however wrapped; counts are skipped."""
    found: set[tuple[int, int]] = set()

    def walk(x: object) -> None:
        if isinstance(x, tuple) and len(x) == 2 and all(type(i) is int for i in x):
            found.add((min(x), max(x)))
        if isinstance(x, tuple | list | set | frozenset):
            for i in x:
                walk(i)
        elif hasattr(x, "__dataclass_fields__"):
            for name in x.__dataclass_fields__:
                if "count" not in name:
                    walk(getattr(x, name))

    walk(obj)
    return found


@pytest.mark.parametrize("key", [
    bytes([1]) + bytes(31),                                                    # the identity
    bytes.fromhex("ec" + "ff" * 30 + "7f"),                                    # order 2
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # 8
    bytes.fromhex("ee" + "ff" * 30 + "7f"),                                    # y >= p
])
def test_setup_refuses_identity_keys_outside_the_prime_order_group(key: bytes) -> None:
    """spec/08-wire.md 8.2 rule 11: ports with cofactored and cofactorless Ed25519 would
    disagree on such keys, so no setup holds one (`setup/identity`)."""
    import os

    from protocol.errors import EncodingError, LocalError
    from protocol.identity import Identity
    from protocol.setup import GameSetup

    honest = Identity(os.urandom(32)).public_key
    with pytest.raises(LocalError) as made:
        GameSetup.create("bram", {}, [honest, key], [bytes(32), bytes(32)])
    assert made.value.code == "setup/identity"
    good = GameSetup.create("bram", {}, [honest, Identity(os.urandom(32)).public_key],
                            [bytes(32), bytes(32)])
    forged = good.encode().replace(good.identities[1], key)
    with pytest.raises(EncodingError) as decoded:
        GameSetup.decode(forged)
    assert decoded.value.code == "setup/identity"
