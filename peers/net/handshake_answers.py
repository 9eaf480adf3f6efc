"""Mid-game answers to handshake messages (spec/12-peers.md 12.3, last paragraphs of
"Handshake"): a seat repeats its last handshake message to a seat that shows it lacks it.
"""

from __future__ import annotations

from typing import Any

from peers.net.config import JOIN
from peers.net.link import Link
from peers.net.messages import Roster, read_join_hello
from peers.net.pacing import AnswerLimit
from peers.net.quiet_log import quiet_logger
from peers.store.games import GameStore
from protocol.canonical import pack
from protocol.errors import DealerlessError
from protocol.handshake_auth import check_signature, sign
from protocol.identity import Identity

log = quiet_logger("dealerless.peer")


async def answer_handshake(link: Link, store: GameStore, obj: list[Any],
                           answers: AnswerLimit, identity: Identity, rid: bytes) -> None:
    """Mid-game, repeat this seat's last handshake message to a seat that may have lost it.

    The host answers a seated joiner's hello with the roster and its "open" with
    the reveal, and refuses any other hello ("full", or "seated" for a second
    `join` with a seated key); a joiner answers the host's roster with its
    "open". Everything is rebuilt from the stored setup, and signed anew; only messages
    whose signature verifies under the key they name are answered.
    """
    setup = store.setup

    async def send(body: list[Any]) -> None:
        await link.send(pack(sign(identity, rid, body)))

    kind = obj[0]
    try:
        if store.seat != 0:
            if kind == "roster" and answers.may_answer(("open",)):
                check_signature(setup.identities[0], rid, obj)
                await send(["open", setup.identities[store.seat], setup.nonces[store.seat]])
            return
        roster = Roster.of(setup)
        if kind == "hello" and len(obj) > 2 and obj[2] == JOIN:
            hello = read_join_hello(obj[:-1])
            check_signature(hello.key, rid, obj)
            if hello.key not in setup.identities:
                reason = "full"
            elif hello.commitment == roster.commitments[setup.identities.index(hello.key)]:
                if hello.key != setup.identities[0] and answers.may_answer(("roster",)):
                    await send(roster.body())
                return
            else:
                reason = "seated"
            if answers.may_answer(("refuse", reason)):
                await send(["refuse", setup.identities[0], hello.key, reason, setup.seats])
        elif kind == "open" and len(obj) == 4 and obj[1] in setup.identities[1:]:
            check_signature(obj[1], rid, obj)
            if answers.may_answer(("reveal",)):
                await send(["reveal", list(setup.nonces)])
    except (DealerlessError, TypeError, ValueError) as exc:
        log.warning("ignored a bad handshake message: %s", exc)
