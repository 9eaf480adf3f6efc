"""A Python seat that cheats over the network, for tests/test_seat_cheats.py (issue 33).

    python -m tests.seat_cheater CHEAT host ARGS...

is `dealerless host ARGS...` (the ordinary command: relay, handshake, store, bot) whose
seat deviates once, at the first step where CHEAT can be made. The command has no cheat
flag; only this process swaps its `Peer` for `CheatingPeer`. CHEAT is one of:

- `bad-shuffle`: its SHUFFLE reorders the deck after proving it, validly signed (the proof
  no longer fits: shuffle/challenge), as peers/cheats/deck_games.py `bad_shuffle_proof`;
- `false-claim`: holding a playable tile, it draws or passes with a proof that skipped the
  prover's check (cannot-play/identity), as deck_games.py `false_claim`;
- `forged`: once the other seat owes a MOVE, it sends a pass in that seat's name, signed
  with its own key (frame/bad-signature: no evidence), then plays on honestly;
- `equivocation`: at a move with two legal choices, it sends one frame for each, both
  validly signed, for the same seq (frame/equivocation).

It prints `cheat: CHEAT frame SEQ WIRE-HEX` when the frame has left. After an
authenticated cheat the seat stays to resend the bad frame to whoever asks (its own
referee refuses it) until the move timeout; the test stops it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

import peers.cli.network as network
from peers.cheats.deck_games import _claims
from peers.cli.main import main
from peers.net.messages import pack_message, parse_message
from peers.net.peer import Peer
from peers.store.games import GameStore
from protocol.cannot_play import _prove_unchecked
from protocol.claims import claim_statement
from protocol.context import Context
from protocol.elgamal import encode_deck
from protocol.frames import MessageType, build_frame, parse_frame
from protocol.messages import MoveBody, ShuffleBody
from protocol.referee import Referee
from protocol.seat import SeatAgent

CHEATS = ("bad-shuffle", "false-claim", "forged", "equivocation")


class CheatingPeer(Peer):
    """The ordinary networked seat, but for the one frame `cheat` replaces."""

    cheat = ""
    done = False

    async def _send_own(self, store: GameStore, ref: Referee, agent: SeatAgent,
                        mtype: MessageType) -> None:
        wire = None if self.done else self._crafted(ref, agent, mtype)
        if wire is None:
            await super()._send_own(store, ref, agent, mtype)
        elif self.cheat == "equivocation":
            first, second = wire
            await super()._send(store, ref, first)   # taken and kept, as honest frames are
            await self._sent(second)
        else:
            await self._sent(wire[0])
            await self._stay(store, ref, wire[0])

    async def _send(self, store: GameStore, ref: Referee, wire: bytes) -> None:
        await super()._send(store, ref, wire)
        due = ref.awaiting
        if (self.cheat == "forged" and not self.done and due is not None
                and due[0] != store.seat and due[1] is MessageType.MOVE):
            state, game = ref.state, ref.game
            # The other seat's pass, signed with this seat's key: no one else's signature.
            await self._sent(build_frame(self.cfg.identity, game.suite, game.game_id,
                                         state.seq, state.prev, due[0], MessageType.MOVE,
                                         state.hash(game.rules, game.suite),
                                         MoveBody(0, None).encode(game.suite)))

    def _crafted(self, ref: Referee, agent: SeatAgent,
                 mtype: MessageType) -> tuple[bytes, ...] | None:
        """The cheat's frame(s) for the step this seat owes, or None to play it honestly."""
        state, game = ref.state, ref.game
        suite = game.suite
        fresh = os.urandom(32)
        if self.cheat == "bad-shuffle" and mtype is MessageType.SHUFFLE:
            body = ShuffleBody.decode(suite, agent.body(state, fresh)[1], len(state.deck))
            deck = list(body.deck)
            deck[0], deck[1] = deck[1], deck[0]   # reordered after proving
            return (agent.sign(state, mtype, [encode_deck(deck), body.proof.encode(suite)],
                               fresh),)
        if mtype is not MessageType.MOVE:
            return None
        legal = agent.view(state).legal
        rules: Any = game.rules
        if self.cheat == "false-claim" and any(rules.played_tile(m) is not None
                                               for m in legal):
            claims = [m for m in _claims(rules)
                      if rules.must_play_if_able(state.rules_state, agent.seat, m)]
            statement = claim_statement(game, state, agent.seat)
            if not claims or statement is None:
                return None
            forged = _prove_unchecked(agent._x, statement,
                                      Context(suite, game.game_id, state.seq, agent.seat),
                                      fresh)
            return (agent.sign(state, mtype, MoveBody(rules.move_id(claims[0]), None,
                                                      forged.encode(suite)).encode(suite),
                               fresh),)
        if self.cheat == "equivocation" and len(legal) >= 2:
            return tuple(agent.next_frame(state, os.urandom(32), picking(m)) for m in legal[:2])
        return None

    async def _sent(self, wire: bytes) -> None:
        """Send a crafted frame as any frame goes, and say so."""
        self.done = True
        await self.link.send(pack_message("frame", wire))
        seq = parse_frame(wire, self.ref.game.suite).seq
        print(f"cheat: {self.cheat} frame {seq} {wire.hex()}", flush=True)

    async def _stay(self, store: GameStore, ref: Referee, wire: bytes) -> None:
        """Answer the table until the move timeout, resending the cheat to a seat that asks
        for the frame it fills (this seat's referee would refuse it, and does not keep it)."""
        deadline = time.monotonic() + self.cfg.move_timeout
        while time.monotonic() < deadline:
            message = await self.link.recv(1.0)
            obj = parse_message(message) if message else None
            if obj is not None and obj[0] == "sync" and obj[1] == len(ref.frames):
                await self.link.send(pack_message("frame", wire))
            elif message is not None:
                await self._handle(store, ref, message)
        raise SystemExit(f"cheat: {self.cheat} was sent and nobody stopped the game")


def picking(move: Any) -> Callable[[Any], Any]:
    """A chooser that picks `move`."""
    return lambda _view: move


if __name__ == "__main__":
    CheatingPeer.cheat = sys.argv[1]
    assert CheatingPeer.cheat in CHEATS, f"no cheat {CheatingPeer.cheat!r}: one of {CHEATS}"
    network.Peer = CheatingPeer   # type: ignore[attr-defined]  # _run makes the Peer
    sys.exit(main(sys.argv[2:]))
