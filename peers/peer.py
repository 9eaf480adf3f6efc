"""A networked seat: handshake, then the game over an unreliable link (spec/12-peers.md 12.3).

Theory of operation
-------------------
Peer messages are canonical msgpack arrays:

    ["hello", 1, role, identity_key, nonce, rules, params]   before the game
    ["frame", wire]                                          a signed frame
    ["sync", n]          "I hold n frames; send me yours from seq n on"
    ["done", n]          "my game is complete with n frames"

Everything is idempotent. A peer that waits sends SYNC every `sync_interval`
seconds and the other side answers with the frames the asker lacks, so lost,
duplicated or reordered messages only cost time. Frames that arrive early are
held until their turn; frames that are no evidence (bad signature, another
game) are reported and dropped; a proven violation stops the game and is
saved. Every accepted frame is committed to the game database before anything
is sent after it, and this seat's own frames are committed before they are
sent, so a peer killed at any point resumes from its database and resends the
same bytes.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocol.canonical import as_array, as_bytes, as_int, as_str, pack, unpack
from protocol.errors import DealerlessError, EncodingError, Violation
from protocol.frames import MessageType, parse_frame
from protocol.hashing import H, Tag
from protocol.identity import Identity
from protocol.referee import Referee
from protocol.seat import SeatAgent
from protocol.setup import GameSetup
from protocol.verifier import Verdict, replay

from .driver import AsyncChooser, EndEvent, Notify, describe, view_event
from .link import MAX_MESSAGE_BYTES, Link
from .store import GameStore

log = logging.getLogger("dealerless.peer")
HOST, JOIN = "host", "join"
MAX_PENDING = 64
MAX_RESEND = 64
MAX_SYNC_INTERVAL = 2.0


class PeerError(Exception):
    """The game could not start or go on for a reason on this side (not a violation)."""


@dataclass
class PeerConfig:
    games_dir: Path
    role: str
    identity: Identity
    choose: AsyncChooser
    notify: Notify
    rules: str = "bram"
    params: dict[str, Any] = field(default_factory=dict)
    move_timeout: float = 300.0
    sync_interval: float = 0.5
    linger: float = 3.0
    meta: dict[str, str] = field(default_factory=dict)
    on_setup: Callable[[GameSetup, GameStore], None] | None = None


@dataclass(frozen=True)
class PeerResult:
    verdict: Verdict
    path: Path
    message: str


def hello_commitment(nonce: bytes) -> bytes:
    """The host's commitment to its setup nonce: H(HELLO_COMMIT, nonce)[:32]."""
    return H(Tag.HELLO_COMMIT, nonce)[:32]


def _hello_fields(obj: list[Any], role: str) -> tuple[bytes, bytes]:
    """(identity key, nonce) of a joiner's hello; EncodingError if it is not one."""
    _, version, their_role, key, nonce, _rules, _params = as_array(obj, 7, "hello")
    if as_int(version, "hello version") != 1 or their_role != role:
        raise EncodingError("hello/role", f"expected a {role} hello")
    return as_bytes(key, "identity key", 32), as_bytes(nonce, "nonce", 32)


def _msg(kind: str, *items: Any) -> bytes:
    return pack([kind, *items])


def _parse(message: bytes) -> list[Any] | None:
    try:
        obj = unpack(message, MAX_MESSAGE_BYTES)
        if not isinstance(obj, list) or not obj:
            return None
        as_str(obj[0], "message kind")
        return obj
    except EncodingError:
        return None


class Peer:
    def __init__(self, link: Link, config: PeerConfig, store: GameStore | None = None) -> None:
        self.link = link
        self.cfg = config
        self.store = store
        self.pending: dict[int, bytes] = {}
        self.answered: dict[tuple[Any, ...], float] = {}

    # -- handshake (commit, then reveal) -----------------------------------------------

    async def _handshake(self) -> GameStore:
        """Agree on the setup so that nobody in the middle can steer the game id.

        The host sends a commitment to its nonce, the joiner answers with its own
        nonce, and only then does the host reveal its nonce. Neither side, and no
        relay, can choose a nonce after seeing the other's, so two games with
        different keys match in their short authentication string (12.2) only by
        a 1-in-10^12 chance that cannot be ground offline during the handshake.
        """
        deadline = time.monotonic() + self.cfg.move_timeout
        if self.cfg.role == HOST:
            return await self._host_handshake(deadline)
        return await self._join_handshake(deadline)

    async def _host_handshake(self, deadline: float) -> GameStore:
        cfg = self.cfg
        nonce = os.urandom(32)
        hello = _msg("hello", 1, HOST, cfg.identity.public_key, hello_commitment(nonce),
                     cfg.rules, cfg.params)
        while time.monotonic() < deadline:
            await self.link.send(hello)
            obj = await self._recv_kind("hello")
            if obj is None:
                continue
            try:
                key, their_nonce = _hello_fields(obj, JOIN)
                setup = GameSetup.create(cfg.rules, dict(cfg.params),
                                         [cfg.identity.public_key, key], [nonce, their_nonce])
            except (DealerlessError, TypeError, ValueError) as exc:
                log.warning("ignored a bad hello: %s", exc)
                continue
            store = self._create_store(setup, 0)
            await self._answer_hello(store)
            return store
        raise PeerError(f"no opponent answered within {cfg.move_timeout:.0f} s")

    async def _join_handshake(self, deadline: float) -> GameStore:
        cfg = self.cfg
        nonce = os.urandom(32)
        hello = _msg("hello", 1, JOIN, cfg.identity.public_key, nonce, "", {})
        host: tuple[bytes, bytes, str, dict[str, Any]] | None = None
        while time.monotonic() < deadline:
            if host is not None:            # our nonce goes out only after their commitment
                await self.link.send(hello)
            message = await self.link.recv(cfg.sync_interval)
            obj = _parse(message) if message else None
            try:
                if obj and obj[0] == "hello" and host is None:
                    _, version, role, key, commit, rules, params = as_array(obj, 7, "hello")
                    if as_int(version, "version") == 1 and role == HOST:
                        if not isinstance(params, dict):
                            raise EncodingError("hello/params", "parameters are a map")
                        host = (as_bytes(key, "key", 32), as_bytes(commit, "commitment", 32),
                                as_str(rules, "rules"), params)
                elif obj and obj[0] == "reveal" and host is not None:
                    _, key, host_nonce = as_array(obj, 3, "reveal")
                    if key != host[0] or hello_commitment(as_bytes(host_nonce, "nonce",
                                                                   32)) != host[1]:
                        raise EncodingError("hello/reveal", "the nonce does not open the "
                                            "host's commitment")
                    setup = GameSetup.create(host[2], dict(host[3]),
                                             [host[0], cfg.identity.public_key],
                                             [host_nonce, nonce])
                    store = self._create_store(setup, 1)
                    await self._answer_hello(store)
                    return store
            except (DealerlessError, TypeError, ValueError) as exc:
                log.warning("ignored a bad handshake message: %s", exc)
        raise PeerError(f"no host answered within {cfg.move_timeout:.0f} s")

    async def _recv_kind(self, kind: str) -> list[Any] | None:
        message = await self.link.recv(self.cfg.sync_interval)
        obj = _parse(message) if message else None
        return obj if obj and obj[0] == kind else None

    def _create_store(self, setup: GameSetup, seat: int) -> GameStore:
        store = GameStore.create(self.cfg.games_dir, setup, seat, os.urandom(32),
                                 {"role": self.cfg.role, **self.cfg.meta})
        self.store = store  # from now on there is a game to resume, even if we stop here
        if self.cfg.on_setup is not None:
            self.cfg.on_setup(setup, store)
        return store

    async def _answer_hello(self, store: GameStore) -> None:
        """Repeat our last handshake message, rebuilt from the setup (it may have been lost)."""
        setup = store.setup
        if store.seat == 0:
            await self.link.send(_msg("reveal", setup.identities[0], setup.nonces[0]))
        else:
            await self.link.send(_msg("hello", 1, JOIN, setup.identities[1], setup.nonces[1],
                                      "", {}))

    # -- the game ----------------------------------------------------------------------

    async def run(self) -> PeerResult:
        store = self.store or await self._handshake()
        self.store = store
        try:
            return await self._play(store)
        finally:
            await self.link.close()

    async def _play(self, store: GameStore) -> PeerResult:
        cfg = self.cfg
        ref = store.referee()
        agent = SeatAgent(ref.game, store.seat, cfg.identity, store.secret_seed)
        self.ref, self.agent = ref, agent
        deadline = time.monotonic() + cfg.move_timeout
        wait = cfg.sync_interval
        await self.link.send(_msg("sync", len(ref.frames)))
        while ref.violation is None and not ref.complete:
            due = ref.awaiting
            if due is not None and due[0] == store.seat:
                await self._send_own(store, ref, agent, due[1])
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
                continue
            # Checked on every pass: a stream of messages that make no progress (stale
            # SYNCs, hellos, garbage) must not keep a silent seat from timing out.
            left = deadline - time.monotonic()
            if due is not None and left <= 0:
                return self._abandoned(store, due[0], due[1].label)
            message = await self.link.recv(min(wait, max(left, 0.01)))
            if message is None:
                await self.link.send(_msg("sync", len(ref.frames)))
                # Back off while the other side is thinking: a person may take minutes,
                # and every SYNC costs the relay a slot in the room's log.
                wait = min(wait * 1.5, MAX_SYNC_INTERVAL)
                continue
            if await self._handle(store, ref, message):
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
        if ref.violation is not None:
            v = ref.violation
            return self._finish(store, f"stopped: {v.describe()}")
        await self._linger(store, ref)
        return self._finish(store, "game complete")

    async def _send_own(self, store: GameStore, ref: Referee, agent: SeatAgent,
                        mtype: MessageType) -> None:
        state = ref.state
        if mtype is MessageType.MOVE:
            view = agent.view(state)
            self.cfg.notify(view_event(ref, view))
            move = await self.cfg.choose(view)
            wire = agent.next_frame(state, os.urandom(32), lambda _v: move)
        else:
            wire = agent.next_frame(state, os.urandom(32))
        store.append(state.seq, wire)      # persist first: a crash now resends these bytes
        frame = ref.receive(wire)
        await self.link.send(_msg("frame", wire))
        if frame is not None:
            self._progress(ref, frame)

    def _progress(self, ref: Referee, frame: Any) -> None:
        self.cfg.notify(describe(ref, frame))
        self.cfg.notify(view_event(ref, self.agent.view(ref.state)))

    async def _handle(self, store: GameStore, ref: Referee, message: bytes) -> bool:
        """Act on one message; True if the game moved forward."""
        obj = _parse(message)
        if obj is None:
            log.warning("dropped a malformed message (%d bytes)", len(message))
            return False
        kind = obj[0]
        if kind == "sync" and len(obj) == 2:
            await self._answer_sync(obj[1], len(ref.frames))
            return False
        if kind == "frame" and len(obj) == 2 and isinstance(obj[1], bytes):
            progressed = self._accept(store, ref, obj[1])
            while progressed and len(ref.frames) in self.pending and ref.violation is None:
                self._accept(store, ref, self.pending.pop(len(ref.frames)))
            return progressed
        if kind == "hello" and len(obj) == 7 and obj[2] != self.cfg.role:
            # The other side may have lost our last handshake message.
            key = store.setup.identities[1 - store.seat]
            if obj[3] == key and self._may_answer(("hello",)):
                await self._answer_hello(store)
        return False  # done, reveal or unknown: nothing to do mid-game

    def _may_answer(self, what: tuple[Any, ...]) -> bool:
        """At most one answer per question per half sync interval: no amplification."""
        now = time.monotonic()
        if now - self.answered.get(what, -1e9) < self.cfg.sync_interval / 2:
            return False
        self.answered[what] = now
        return True

    async def _answer_sync(self, value: Any, have: int) -> None:
        """Send the frames the other side lacks; stale or repeated questions are ignored.

        A SYNC showing that the other side holds more than we do tells us that we
        lost something: we ask at once instead of waiting out our back-off.
        """
        if type(value) is not int or not 0 <= value < 1 << 32:
            return
        if value > have:
            if self._may_answer(("behind", have)):
                await self.link.send(_msg("sync", have))
            return
        if value == have or not self._may_answer(("sync", value)):
            return
        store = self.store
        assert store is not None
        for wire in store.frames(value)[:MAX_RESEND]:
            await self.link.send(_msg("frame", wire))

    def _accept(self, store: GameStore, ref: Referee, wire: bytes) -> bool:
        try:
            frame = ref.receive(wire)
        except Violation as v:
            if v.authenticated:
                store.record_violation(ref.offending_frame, ref.evidence,
                                       f"violation by seat {v.seat}: {v.code}")
                return False
            self._hold_or_drop(ref, wire, v)
            return False
        if frame is None:
            return False
        store.append(frame.seq, wire)
        self._progress(ref, frame)
        return True

    def _hold_or_drop(self, ref: Referee, wire: bytes, v: Violation) -> None:
        if v.code == "frame/sequence":
            seq = parse_frame(wire).seq
            if len(ref.frames) < seq < len(ref.frames) + MAX_PENDING:
                self.pending[seq] = wire   # early: its turn will come
                return
        log.warning("dropped a frame that is no evidence: %s", v.describe())

    async def _linger(self, store: GameStore, ref: Referee) -> None:
        """Stay a little to answer the other seat's SYNC until it is complete too."""
        n = len(ref.frames)
        await self.link.send(_msg("done", n))
        # Quiet long enough to hear at least two SYNCs of a peer that has backed off.
        linger = max(self.cfg.linger, 2 * MAX_SYNC_INTERVAL + 1)
        quiet_until = time.monotonic() + linger
        hard_stop = time.monotonic() + 4 * linger   # however chatty the other side is
        while time.monotonic() < min(quiet_until, hard_stop):
            message = await self.link.recv(self.cfg.sync_interval)
            obj = _parse(message) if message else None
            if obj is None:
                continue
            if obj[0] == "done" and obj[1:] == [n]:
                await self.link.send(_msg("done", n))
                return
            await self._handle(store, ref, message or b"")
            if obj[0] == "sync" and obj[1:2] != [n]:   # the other side still lacks frames
                if self._may_answer(("done",)):
                    await self.link.send(_msg("done", n))
                quiet_until = time.monotonic() + linger

    def _abandoned(self, store: GameStore, seat: int, what: str) -> PeerResult:
        store.set_meta("status", f"stopped waiting: seat {seat} owes a {what} frame")
        return self._finish(store, (
            f"seat {seat} sent nothing for {self.cfg.move_timeout:.0f} s and owes a {what} "
            f"frame. The saved transcript proves every step so far and that seat {seat} "
            "owes the next one; it cannot prove the silence (rules/bram.md D14). "
            "`dealerless resume` continues the game if that seat comes back."))

    def _finish(self, store: GameStore, message: str) -> PeerResult:
        data = store.transcript().encode()
        verdict = replay(data)
        if verdict.complete:
            store.set_meta("status", "complete")
        self.cfg.notify(EndEvent(verdict, data, message))
        return PeerResult(verdict, store.path, message)
