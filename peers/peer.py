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

    # -- handshake ---------------------------------------------------------------------

    async def _handshake(self) -> GameStore:
        cfg = self.cfg
        nonce = os.urandom(32)
        rules, params = (cfg.rules, cfg.params) if cfg.role == HOST else ("", {})
        hello = _msg("hello", 1, cfg.role, cfg.identity.public_key, nonce, rules, params)
        deadline = time.monotonic() + cfg.move_timeout
        while time.monotonic() < deadline:
            await self.link.send(hello)
            message = await self.link.recv(cfg.sync_interval)
            obj = _parse(message) if message else None
            if not obj or obj[0] != "hello":
                continue
            try:
                _, version, role, key, other_nonce, their_rules, their_params = as_array(
                    obj, 7, "hello")
                if as_int(version, "hello version") != 1 or as_str(role, "role") == cfg.role:
                    continue
                key = as_bytes(key, "identity key", 32)
                other_nonce = as_bytes(other_nonce, "nonce", 32)
                host_key, join_key = ((cfg.identity.public_key, key) if cfg.role == HOST
                                      else (key, cfg.identity.public_key))
                host_nonce, join_nonce = ((nonce, other_nonce) if cfg.role == HOST
                                          else (other_nonce, nonce))
                rules, params = ((cfg.rules, cfg.params) if cfg.role == HOST
                                 else (as_str(their_rules, "rules"), their_params))
                setup = GameSetup.create(rules, dict(params), [host_key, join_key],
                                         [host_nonce, join_nonce])
            except DealerlessError as exc:
                log.warning("ignored a bad hello: %s", exc)
                continue
            seat = 0 if cfg.role == HOST else 1
            store = GameStore.create(cfg.games_dir, setup, seat, os.urandom(32),
                                     {"role": cfg.role, **cfg.meta})
            await self.link.send(hello)
            if cfg.on_setup is not None:
                cfg.on_setup(setup, store)
            return store
        raise PeerError(f"no opponent answered within {cfg.move_timeout:.0f} s")

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
        last_progress = time.monotonic()
        await self.link.send(_msg("sync", len(ref.frames)))
        while ref.violation is None and not ref.complete:
            due = ref.awaiting
            if due is not None and due[0] == store.seat:
                await self._send_own(store, ref, agent, due[1])
                last_progress = time.monotonic()
                continue
            message = await self.link.recv(cfg.sync_interval)
            if message is None:
                if due is not None and time.monotonic() - last_progress > cfg.move_timeout:
                    return self._abandoned(store, due[0], due[1].label)
                await self.link.send(_msg("sync", len(ref.frames)))
                continue
            if await self._handle(store, ref, message):
                last_progress = time.monotonic()
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
        if kind == "sync" and len(obj) == 2 and isinstance(obj[1], int) and obj[1] >= 0:
            for wire in store.frames(obj[1])[:MAX_RESEND]:
                await self.link.send(_msg("frame", wire))
            return False
        if kind == "frame" and len(obj) == 2 and isinstance(obj[1], bytes):
            progressed = self._accept(store, ref, obj[1])
            while progressed and len(ref.frames) in self.pending and ref.violation is None:
                self._accept(store, ref, self.pending.pop(len(ref.frames)))
            return progressed
        return False  # hello, done, or unknown: nothing to do mid-game

    def _accept(self, store: GameStore, ref: Referee, wire: bytes) -> bool:
        try:
            frame = ref.receive(wire)
        except Violation as v:
            if v.authenticated:
                store.record_violation(ref.offending_frame, ref.evidence,
                                       f"violation by seat {v.seat}: {v.code}")
                self.cfg.notify(EndEvent(replay(store.transcript().encode()),
                                         store.transcript().encode(), v.describe()))
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
        quiet_until = time.monotonic() + self.cfg.linger
        while time.monotonic() < quiet_until:
            message = await self.link.recv(self.cfg.sync_interval)
            obj = _parse(message) if message else None
            if obj is None:
                continue
            if obj[0] == "done" and obj[1:] == [n]:
                await self.link.send(_msg("done", n))
                return
            if obj[0] == "sync":
                await self._handle(store, ref, message or b"")
                await self.link.send(_msg("done", n))
                quiet_until = time.monotonic() + self.cfg.linger

    def _abandoned(self, store: GameStore, seat: int, what: str) -> PeerResult:
        store.set_meta("status", f"abandoned: seat {seat} owes a {what} frame")
        return self._finish(store, (
            f"seat {seat} sent nothing for {self.cfg.move_timeout:.0f} s and owes a {what} "
            f"frame. The saved transcript is the evidence of abandonment: `dealerless "
            f"verify` names seat {seat} as the seat that owes it."))

    def _finish(self, store: GameStore, message: str) -> PeerResult:
        data = store.transcript().encode()
        verdict = replay(data)
        if verdict.complete:
            store.set_meta("status", "complete")
        self.cfg.notify(EndEvent(verdict, data, message))
        return PeerResult(verdict, store.path, message)
