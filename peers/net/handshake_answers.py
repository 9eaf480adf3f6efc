"""Mid-game answers to handshake messages (spec/12-peers.md 12.3, last paragraphs of
"Handshake"): a seat repeats its last handshake message to a seat that shows it lacks it.

Judging a handshake message costs a signature check, and a join hello a point decoded
(and, before the seats are fixed, a multiplication for its key exchange); one valid
hello replayed about 550 times a second made a game 2-3x slower (issue 29). A verdict
is a pure function of the message and what it is checked against, so it is remembered
(`JUDGED`, by the SHA-256 of those bytes), and a byte-identical repeat is judged from
memory: no point operation, no signature check. What to answer is still decided, and
limited, by the caller.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from peers.net.config import JOIN
from peers.net.link import Link
from peers.net.messages import JoinHello, Roster, check_frame_key, read_join_hello
from peers.net.pacing import AnswerLimit
from peers.net.quiet_log import quiet_logger
from peers.store.games import GameStore
from peers.store.seats import BINDINGS_META, KEYS_META, seat_bindings, seat_keys
from protocol.canonical import pack
from protocol.errors import DealerlessError
from protocol.handshake_auth import check_signature, sign
from protocol.identity import Identity

log = quiet_logger("dealerless.peer")
#: How many verdicts are remembered (12.3): the hellos of a lobby of 64 would-be joiners
#: for a few rounds, and their key exchanges, in about 40 KB.
REMEMBERED = 256
#: What a check raises on a malformed or forged message (the handshake's handlers catch
#: these and ignore the message).
REJECTED = (DealerlessError, TypeError, ValueError)


class Judged:
    """Verdicts on handshake messages: what a check returned, or the error it raised, by
    the SHA-256 of everything the check reads; the least recently used are forgotten
    first. A repeat gets the first verdict back, the same error raised again."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self._seen: OrderedDict[bytes, tuple[Any, Exception | None]] = OrderedDict()
        self._lock = threading.Lock()   # the web page's tables share the process

    def join_hello(self, obj: list[Any], rid: bytes) -> JoinHello:
        """A joiner's hello whose signature verifies under the key it names, with a frame
        key valid in the suite it names and bound to that key at its seat; else the
        EncodingError (point/* for a key that is none, hello/frame-key) or SignatureError
        that refused it (12.3's order)."""
        def judge() -> JoinHello:
            hello = read_join_hello(obj[:-1])
            check_signature(hello.key, rid, obj)
            if hello.frame_key:
                check_frame_key(hello.suite, hello.key, hello.frame_key, rid, hello.seat,
                                hello.binding)
            return hello
        hello: JoinHello = self._judge([b"hello", rid, obj], judge)
        return hello

    def signed(self, obj: list[Any], key: bytes, rid: bytes) -> list[Any]:
        """check_signature(key, rid, obj)."""
        body: list[Any] = self._judge([b"signed", rid, key, obj],
                                      lambda: check_signature(key, rid, obj))
        return body

    def confirm(self, hello: list[Any], share: bytes, check: Callable[[], None]) -> None:
        """`check()`: the key exchange of the join hello `hello` with the host's `share`,
        which fixes the host's scalar for the round (12.3 "Authentication")."""
        self._judge([b"confirm", share, hello], check)

    def _judge(self, what: list[Any], judge: Callable[[], Any]) -> Any:
        digest = hashlib.sha256(pack(what)).digest()
        with self._lock:
            verdict = self._seen.get(digest)
            if verdict is not None:
                self._seen.move_to_end(digest)
        if verdict is None:
            try:
                verdict = judge(), None
            except REJECTED as exc:
                verdict = None, exc
            with self._lock:
                self._seen[digest] = verdict
                while len(self._seen) > self.size:
                    self._seen.popitem(last=False)
        result, error = verdict
        if error is not None:
            raise error.with_traceback(None)
        return result


#: Every seat's verdicts: a verdict holds whoever asks.
JUDGED = Judged()


async def answer_handshake(link: Link, store: GameStore, obj: list[Any],
                           answers: AnswerLimit, identity: Identity, rid: bytes) -> None:
    """Mid-game, repeat this seat's last handshake message to a seat that may have lost it.

    The host answers a seated joiner's hello with the roster and its "open" with
    the reveal, and refuses any other hello ("full", or "seated" for a second
    `join` with a seated key); a joiner answers the host's roster with its
    "open". Everything is rebuilt from the stored setup, and signed anew; only messages
    whose signature verifies under the key they name are answered, each judged once
    (`JUDGED`).
    """
    setup = store.setup

    async def send(body: list[Any]) -> None:
        await link.send(pack(sign(identity, rid, body)))

    kind = obj[0]
    try:
        keys = seat_keys(setup, store.meta(KEYS_META))
        if store.seat != 0:
            if kind == "roster" and answers.may_answer(("open",)):
                JUDGED.signed(obj, keys[0], rid)
                await send(["open", keys[store.seat], setup.nonces[store.seat]])
            return
        roster = Roster.of(setup, keys, seat_bindings(setup, store.meta(BINDINGS_META)))
        if kind == "hello" and len(obj) > 2 and obj[2] == JOIN:
            hello = JUDGED.join_hello(obj, rid)
            if hello.key not in keys:
                reason = "full"
            elif hello.commitment == roster.commitments[keys.index(hello.key)]:
                if hello.key != keys[0] and answers.may_answer(("roster",)):
                    await send(roster.body())
                return
            else:
                reason = "seated"
            if answers.may_answer(("refuse", reason)):
                await send(["refuse", keys[0], hello.key, reason, setup.seats])
        elif kind == "open" and len(obj) == 4 and obj[1] in keys[1:]:
            JUDGED.signed(obj, obj[1], rid)
            if answers.may_answer(("reveal",)):
                await send(["reveal", list(setup.nonces)])
    except REJECTED as exc:
        log.warning("ignored a bad handshake message: %s", exc)
