"""Deviating seats: one way to cheat per violation class, for tests and golden vectors.

Each cheat plays a seeded game honestly up to the point where its cheater
deviates, then crafts one bad frame with the cheater's own keys (so every
signature is valid unless the cheat is about signatures). It returns the
honest prefix, the bad frame and what the honest referee must conclude.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.canonical import pack, unpack
from protocol.elgamal import encode_deck
from protocol.errors import EncodingError, LocalError
from protocol.frames import MAX_FRAME_BYTES, MessageType, build_frame
from protocol.messages import MoveBody, ShareEntry, SharesBody, ShuffleBody
from protocol.referee import Referee
from protocol.rules.base import DrawingRules
from protocol.rules.bram_state import End, Play
from protocol.seat import SeatAgent
from protocol.setup import GameSetup
from protocol.state import Phase
from protocol.suite import Suite
from protocol.transcript import Transcript


@dataclass(frozen=True)
class Cheat:
    """The outcome of a cheat: the honest prefix, the bad frame, and the expected verdict."""

    name: str
    prefix: tuple[bytes, ...]
    bad_frame: bytes | None          # None: the cheater stays silent
    seat: int                        # the seat to blame (or that owes, when silent)
    rule: str                        # the expected violation code (or awaited message)
    evidence: tuple[bytes, ...] = ()  # equivocation: the second frame
    table: Any = None
    frames: tuple[bytes, ...] | None = None  # the saved chain, when not prefix + bad frame

    @property
    def frame(self) -> int:
        """The index of the frame the violation is charged to."""
        return len(self.prefix) - (1 if self.evidence else 0)

    def transcript(self) -> bytes:
        """The transcript the honest seat would save: its accepted chain + this frame."""
        frames = self.frames if self.frames is not None else self.prefix + (
            () if self.bad_frame is None or self.evidence else (self.bad_frame,))
        return Transcript(self.table.setup, frames, self.evidence).encode()


def _table(seed: int, in_suite: Suite | None = None) -> Table:
    # Komi 0 named, not the default (1.5 pips since spec/rules/bram.md D15), so the golden
    # cheat transcripts made from these tables stay what they were.
    return Table.create("bram", {"komi_halves": 0}, ("greedy", "greedy"), Entropy(seed),
                        in_suite=in_suite)


def _advance_to(table: Table, done: Callable[[Table], bool]) -> None:
    while not done(table):
        if table.step() is None:
            raise RuntimeError("the game ended before the cheat point")


def _state(table: Table) -> Any:
    return table.referees[0].state


def _at(phase: Phase, seat: int | None = None) -> Callable[[Table], bool]:
    def done(t: Table) -> bool:
        due = t.referees[0].awaiting
        return _state(t).phase is phase and (seat is None or (due is not None
                                                               and due[0] == seat))
    return done


def _prefix(table: Table) -> tuple[bytes, ...]:
    return tuple(f.wire for f in table.referees[0].frames)


def _sign(table: Table, seat: int, mtype: MessageType, body: Any) -> bytes:
    return table.agents[seat].sign(_state(table), mtype, body)


def _body(table: Table, seat: int) -> tuple[MessageType, Any]:
    return table.agents[seat].body(_state(table), table.entropy.bytes("cheat"),
                                   table.choosers[seat])


def bad_shuffle_proof(seed: int = 7) -> Cheat:
    t = _table(seed)
    _advance_to(t, _at(Phase.SHUFFLE, 1))
    mtype, raw = _body(t, 1)
    body = ShuffleBody.decode(t.suite, raw, len(_state(t).deck))
    deck = list(body.deck)
    deck[0], deck[1] = deck[1], deck[0]  # reorder after proving: the proof no longer fits
    wire = _sign(t, 1, mtype, [encode_deck(deck), body.proof.encode(t.suite)])
    return Cheat("bad shuffle proof", _prefix(t), wire, 1, "shuffle/challenge", table=t)


def wrong_decryption_share(seed: int = 7) -> Cheat:
    t = _table(seed)
    _advance_to(t, _at(Phase.DEAL, 0))
    mtype, raw = _body(t, 0)
    body = SharesBody.decode(t.suite, raw)
    g = t.suite.group
    bad = (g.add(body.shares[0], g.generator), *body.shares[1:])
    wire = _sign(t, 0, mtype, dataclasses.replace(body, shares=bad).encode(t.suite))
    return Cheat("wrong decryption share", _prefix(t), wire, 0, "dleq/challenge", table=t)


def _mover(t: Table) -> int:
    due = t.referees[0].awaiting
    assert due is not None
    return due[0]


def _at_play(seed: int) -> tuple[Table, int, Any]:
    """A seeded game at its first move: the table, the seat to move, the state."""
    t = _table(seed)
    _advance_to(t, _at(Phase.PLAY))
    return t, _mover(t), _state(t)


def _play_body(t: Table, seat: int, move: Play, position: int) -> Any:
    """A MOVE body opening `position` with the seat's own (valid) decryption share."""
    share = t.agents[seat].share_for(_state(t), position, t.entropy.bytes("cheat"))
    return MoveBody(t.referees[0].game.rules.move_id(move), ShareEntry(position,
                                                                       share)).encode(t.suite)


def tile_not_dealt(seed: int = 7) -> Cheat:
    t, seat, _ = _at_play(seed)
    other = next(p for p, o in enumerate(_state(t).owners) if o == 1 - seat)
    move = Play((5, 6), End.RIGHT)
    wire = _sign(t, seat, MessageType.MOVE, _play_body(t, seat, move, other))
    return Cheat("tile not dealt to the seat", _prefix(t), wire, seat,
                 "move/not-dealt-to-seat", table=t)


def tile_played_twice(seed: int = 7) -> Cheat:
    t = _table(seed)

    def mover_has_played(x: Table) -> bool:
        state = _state(x)
        return state.phase is Phase.PLAY and any(
            state.played[p] and o == _mover(x) for p, o in enumerate(state.owners))

    _advance_to(t, mover_has_played)
    seat = _mover(t)
    state = _state(t)
    position = next(p for p, o in enumerate(state.owners) if o == seat and state.played[p])
    move = Play(state.opened[position], End.RIGHT)
    wire = _sign(t, seat, MessageType.MOVE, _play_body(t, seat, move, position))
    return Cheat("tile played twice", _prefix(t), wire, seat, "move/already-played", table=t)


def illegal_placement(seed: int = 7) -> Cheat:
    t, seat, state = _at_play(seed)
    hand = t.agents[seat].hand_positions(state)
    left, right = state.rules_state.ends
    position, tile = next((p, x) for p, x in hand.items() if right not in x and left not in x)
    wire = _sign(t, seat, MessageType.MOVE, _play_body(t, seat, Play(tile, End.RIGHT),
                                                       position))
    return Cheat("illegal placement", _prefix(t), wire, seat, "rules/tile-does-not-match",
                 table=t)


def out_of_turn(seed: int = 7) -> Cheat:
    t = _table(seed)
    _advance_to(t, _at(Phase.PLAY))
    seat = 1 - _mover(t)
    # A pass, not its turn.
    wire = _sign(t, seat, MessageType.MOVE, MoveBody(0, None).encode(t.suite))
    return Cheat("frame out of turn", _prefix(t), wire, seat, "frame/out-of-turn", table=t)


def replayed_from_other_game(seed: int = 7) -> Cheat:
    """Same players (same identity keys) in another game: a frame of that game replayed here."""
    t = _table(seed)
    _advance_to(t, _at(Phase.PLAY))
    setup = GameSetup.create("bram", {"komi_halves": 0}, list(t.setup.identities),
                             [b"\x01" * 32, b"\x02" * 32], t.suite)
    ref = Referee(setup)
    seat = _mover(t)
    for i in range(seat + 1):  # play the other game up to this seat's first frame
        agent = SeatAgent(ref.game, i, t.agents[i].identity, bytes([i + 3]) * 32)
        wire = agent.next_frame(ref.state, bytes([i + 9]) * 32)
        ref.receive(wire)
    return Cheat("frame replayed from another game", _prefix(t), wire, seat, "frame/wrong-game",
                 table=t)


def equivocation(seed: int = 7) -> Cheat:
    t, seat, state = _at_play(seed)
    first = _sign(t, seat, MessageType.MOVE, MoveBody(0, None).encode(t.suite))  # pass
    hand = t.agents[seat].hand_positions(state)
    legal = [m for m in t.agents[seat].view(state).legal if isinstance(m, Play)]
    move = legal[0]
    position = next(p for p, x in hand.items() if x == move.tile)
    second = _sign(t, seat, MessageType.MOVE, _play_body(t, seat, move, position))
    t.deliver(first)
    return Cheat("equivocation", _prefix(t), second, seat, "frame/equivocation",
                 evidence=(second,), table=t)


def forked_history(seed: int = 7) -> Cheat:
    """The mover equivocates; the other seat, honestly, builds on the first version.

    The transcript holds the second version, then the honest seat's next frame (built
    on the first), with the first version as evidence: the equivocator is blamed, and
    the honest frame, on the other branch, is no evidence against its signer.
    """
    t, seat, state = _at_play(seed)
    first = _sign(t, seat, MessageType.MOVE, MoveBody(0, None).encode(t.suite))  # pass
    legal = [m for m in t.agents[seat].view(state).legal if isinstance(m, Play)]
    position = next(p for p, x in t.agents[seat].hand_positions(state).items()
                    if x == legal[0].tile)
    second = _sign(t, seat, MessageType.MOVE, _play_body(t, seat, legal[0], position))
    prefix = _prefix(t)
    t.deliver(first)                    # both seats accept the first version...
    reply = t.agents[1 - seat].next_frame(_state(t), t.entropy.bytes("reply"),
                                          t.choosers[1 - seat])
    return Cheat("forked history", (*prefix, first), second, seat, "frame/equivocation",
                 evidence=(first,), table=t, frames=(*prefix, second, reply))


def bad_signature(seed: int = 7) -> Cheat:
    t, seat, _ = _at_play(seed)
    good = _sign(t, seat, MessageType.MOVE, MoveBody(0, None).encode(t.suite))
    payload, signature = unpack(good, MAX_FRAME_BYTES)
    wire = pack([payload, bytes([signature[0] ^ 1]) + signature[1:]])
    return Cheat("bad signature", _prefix(t), wire, seat, "frame/bad-signature", table=t)


def tampered_and_resigned(seed: int = 7) -> Cheat:
    """The mover claims another tile for the position it opens, and signs that."""
    t, seat, state = _at_play(seed)
    legal = [m for m in t.agents[seat].view(state).legal if isinstance(m, Play)]
    move = legal[0]
    position = next(p for p, x in t.agents[seat].hand_positions(state).items()
                    if x == move.tile)
    body = _play_body(t, seat, move, position)
    body[0] = t.referees[0].game.rules.move_id(Play((6, 6), End.RIGHT))
    wire = _sign(t, seat, MessageType.MOVE, body)
    return Cheat("field tampered and re-signed", _prefix(t), wire, seat, "move/tile-mismatch",
                 table=t)


def state_hash_resigned(seed: int = 7) -> Cheat:
    """A seat signs a frame that commits to a public state other than the real one."""
    t, seat, state = _at_play(seed)
    wire = build_frame(t.agents[seat].identity, t.suite, t.setup.game_id, state.seq,
                       state.prev, seat, MessageType.MOVE, bytes(32),
                       MoveBody(0, None).encode(t.suite))
    return Cheat("state hash tampered and re-signed", _prefix(t), wire, seat,
                 "state/hash-mismatch", table=t)


def withheld_reveal(seed: int = 7) -> Cheat:
    """At the end the seat reveals nothing of its hand: its shares are missing."""
    t = _table(seed)
    _advance_to(t, _at(Phase.REVEAL, 0))
    _advance_to(t, _at(Phase.REVEAL, 1))
    wire = _sign(t, 1, MessageType.REVEAL, SharesBody((), (), ()).encode(t.suite))
    return Cheat("reveal withheld", _prefix(t), wire, 1, "reveal/positions", table=t)


def _claim_table(seed: int, rules: str, seats: int) -> tuple[Table, int]:
    """A round of `rules` for `seats` at a move where the seat to move could play."""
    t = Table.create(rules, {"seats": seats}, ("greedy",) * seats, Entropy(seed))

    def could_play(x: Table) -> bool:
        due = x.referees[0].awaiting
        if due is None or _state(x).phase is not Phase.PLAY:
            return False
        view = x.agents[due[0]].view(x.referees[due[0]].state)
        rules = _drawing_rules(x)
        return (any(rules.played_tile(m) is not None for m in view.legal)
                and any(rules.must_play_if_able(_state(x).rules_state, due[0], m)
                        for m in _claims(rules)))

    _advance_to(t, could_play)
    return t, _mover(t)


def _drawing_rules(t: Table) -> Any:
    """The table's rules, which have forced play (spec/10-session.md 10.4)."""
    rules = t.referees[0].game.rules
    assert isinstance(rules, DrawingRules), "this cheat needs a rule set with forced play"
    return rules


def _claims(rules: Any) -> list[Any]:
    """The rule set's moves that say "I cannot play" (draw, pass, not holding)."""
    moves = []
    for move_id in range(1 << 12):
        try:
            move = rules.move_from_id(move_id)
        except (EncodingError, LocalError):  # ids the rules do not use
            continue
        if rules.played_tile(move) is None:
            moves.append(move)
    return moves


def false_claim(seed: int = 3, rules_name: str = "mexican-train", seats: int = 3) -> Cheat:
    """A seat that holds a playable tile draws (or passes) anyway, with a forged proof
    that it cannot play: the proof of 6.5 fails (cannot-play/identity)."""
    from protocol.cannot_play import _prove_unchecked
    from protocol.claims import claim_statement
    from protocol.context import Context

    t, seat = _claim_table(seed, rules_name, seats)
    state = _state(t)
    rules = _drawing_rules(t)
    move = next(m for m in _claims(rules)
                if rules.must_play_if_able(state.rules_state, seat, m))
    statement = claim_statement(t.referees[0].game, state, seat)
    assert statement is not None
    forged = _prove_unchecked(t.agents[seat]._x, statement,
                              Context(t.suite, t.setup.game_id, state.seq, seat),
                              t.entropy.bytes("cheat"))
    wire = _sign(t, seat, MessageType.MOVE,
                 MoveBody(rules.move_id(move), None, forged.encode(t.suite)).encode(t.suite))
    return Cheat("false cannot-play claim", _prefix(t), wire, seat, "cannot-play/identity",
                 table=t)


def silent_at_reveal(seed: int = 4) -> Cheat:
    """The seat simply never sends its reveal: the transcript ends awaiting it."""
    t = _table(seed)
    _advance_to(t, _at(Phase.REVEAL, 1))
    return Cheat("silent at the reveal", _prefix(t), None, 1, "reveal", table=t)


CHEATS: dict[str, Callable[[], Cheat]] = {
    "bad-shuffle-proof": bad_shuffle_proof,
    "wrong-share": wrong_decryption_share,
    "tile-not-dealt": tile_not_dealt,
    "tile-played-twice": tile_played_twice,
    "illegal-placement": illegal_placement,
    "out-of-turn": out_of_turn,
    "other-game": replayed_from_other_game,
    "equivocation": equivocation,
    "forked-history": forked_history,
    "bad-signature": bad_signature,
    "tampered-resigned": tampered_and_resigned,
    "state-hash-resigned": state_hash_resigned,
    "withheld-reveal": withheld_reveal,
    "silent-at-reveal": silent_at_reveal,
    "false-claim": false_claim,
    "false-claim-mineshaft": lambda: false_claim(4, "mineshaft", 4),
}

