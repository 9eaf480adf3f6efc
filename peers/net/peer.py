"""A networked seat: handshake, then the game over an unreliable link (spec/12-peers.md 12.3).

Theory of operation
-------------------
The seats first agree on a setup (peers/net/handshake.py), then exchange signed
frames, SYNCs and DONEs (peers/net/messages.py lists them all).

Everything is idempotent. A peer that waits sends SYNC every `sync_interval`
seconds and any other seat answers with the frames the asker lacks, so lost,
duplicated or reordered messages only cost time. Frames that arrive early are
held until their turn; frames that are no evidence (bad signature, another
game) are reported and dropped; a proven violation stops the game and is
saved. Every accepted frame is committed to the game database before anything
is sent after it, and this seat's own frames are committed before they are
sent, so a peer killed at any point resumes from its database and resends the
same bytes.
"""

from __future__ import annotations

import os
import time
from typing import Any

from peers.net.absence import AbsenceClock
from peers.net.config import PeerConfig, PeerResult
from peers.net.handshake import Handshake, answer_handshake
from peers.net.link import Link
from peers.net.messages import pack_message, parse_message
from peers.net.pacing import MAX_SYNC_INTERVAL, AnswerLimit
from peers.net.quiet_log import quiet_logger
from peers.store.games import GameStore
from peers.table.driver import EndEvent, describe, view_event
from peers.table.report import abandonment_rule
from protocol.errors import Violation
from protocol.frames import Frame, MessageType, parse_frame
from protocol.referee import Referee
from protocol.seat import SeatAgent
from protocol.verifier import replay

log = quiet_logger("dealerless.peer")  # the other seats may send anything, at any rate
MAX_PENDING = 64
MAX_RESEND = 64


class Peer:
    """One seat of a networked game; `run` plays it to its end (or to a stop)."""

    def __init__(self, link: Link, config: PeerConfig, store: GameStore | None = None) -> None:
        self.link = link
        self.cfg = config
        self.store = store
        self.pending: dict[int, bytes] = {}
        self.answers = AnswerLimit(config.sync_interval)
        self.absence = AbsenceClock(config.move_timeout)

    async def run(self) -> PeerResult:
        store = self.store or await Handshake(self.link, self.cfg, self.answers,
                                              self._stored).run()
        try:
            return await self._play(store)
        finally:
            await self.link.close()

    def _stored(self, store: GameStore) -> None:
        self.store = store  # from now on there is a game to resume, even if we stop here

    async def _play(self, store: GameStore) -> PeerResult:
        cfg = self.cfg
        ref = store.referee()
        agent = SeatAgent(ref.game, store.seat, cfg.identity, store.secret_seed)
        self.ref, self.agent = ref, agent
        deadline = time.monotonic() + cfg.move_timeout
        wait = cfg.sync_interval
        await self.link.send(pack_message("sync", len(ref.frames)))
        while ref.violation is None and not ref.complete:
            due = ref.awaiting
            self.absence.watch(ref, store.seat)
            owed = agent.owed(ref.state)
            if owed is not None and self.absence.ready(ref, owed):
                await self._send_own(store, ref, agent, owed)
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
                continue
            # Checked on every pass: a stream of messages that make no progress (stale
            # SYNCs, hellos, garbage) must not keep a silent seat from timing out.
            left = deadline - time.monotonic()
            if owed is MessageType.ABSENT:
                left = self.absence.until_ready(ref)  # not due yet by this seat's clock
            elif due is not None and left <= 0:
                turn = self.absence.turn(ref, store.seat, due, -left)
                if turn is None:
                    return self._abandoned(store, due[0], due[1].label)
                if turn == 0:
                    await self._declare_absent(store, ref, agent, due[0])
                    deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
                    continue
                left = turn  # not this seat's turn to declare yet: keep listening
            message = await self.link.recv(min(wait, max(left, 0.01)))
            if message is None:
                await self.link.send(pack_message("sync", len(ref.frames)))
                # Back off while the other side is thinking: a person may take minutes,
                # and every SYNC costs the relay a slot in the room's log.
                wait = min(wait * 1.5, MAX_SYNC_INTERVAL)
                continue
            if await self._handle(store, ref, message):
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
        if ref.violation is not None:
            return self._finish(store, f"stopped: {ref.violation.describe()}")
        await self._linger(store, ref)
        return self._finish(store, "game complete")

    async def _declare_absent(self, store: GameStore, ref: Referee, agent: SeatAgent,
                              seat: int) -> None:
        log.info("declaring seat %d absent after %.0f s", seat, self.cfg.move_timeout)
        await self._send(store, ref, agent.declare_absent(ref.state))

    async def _send_own(self, store: GameStore, ref: Referee, agent: SeatAgent,
                        mtype: MessageType) -> None:
        state = ref.state
        if agent.asks(state, mtype):
            view = agent.view(state)
            self.cfg.notify(view_event(ref, view))
            move = await self.cfg.choose(view)
            if ref.state is not state and not agent.owes(ref.state):
                return  # e.g. declared absent and forfeited while its player was choosing
            wire = agent.next_frame(ref.state, os.urandom(32), lambda _v: move)
        else:
            wire = agent.next_frame(state, os.urandom(32))
        await self._send(store, ref, wire)

    async def _send(self, store: GameStore, ref: Referee, wire: bytes) -> None:
        store.append(ref.state.seq, wire)  # persist first: a crash now resends these bytes
        frame = ref.receive(wire)
        await self.link.send(pack_message("frame", wire))
        if frame is not None:
            self._progress(ref, frame)

    def _progress(self, ref: Referee, frame: Frame) -> None:
        self.cfg.notify(describe(ref, frame))
        self.cfg.notify(view_event(ref, self.agent.view(ref.state)))

    async def _handle(self, store: GameStore, ref: Referee, message: bytes) -> bool:
        """Act on one message; True if the game moved forward."""
        obj = parse_message(message)
        if obj is None:
            log.warning("dropped a malformed message (%d bytes)", len(message))
            return False
        kind = obj[0]
        if kind == "sync" and len(obj) == 2:
            await self._answer_sync(store, obj[1], len(ref.frames))
            return False
        if kind == "frame" and len(obj) == 2 and isinstance(obj[1], bytes):
            progressed = self._accept(store, ref, obj[1])
            while progressed and len(ref.frames) in self.pending and ref.violation is None:
                self._accept(store, ref, self.pending.pop(len(ref.frames)))
            return progressed
        if kind in ("hello", "roster", "open"):   # a seat may have lost our last one
            await answer_handshake(self.link, store, obj, self.answers)
        return False  # done, reveal, full or unknown: nothing to do mid-game

    async def _answer_sync(self, store: GameStore, value: Any, have: int) -> None:
        """Send the frames the other side lacks; stale or repeated questions are ignored.

        A SYNC showing that the other side holds more than we do tells us that we
        lost something: we ask at once instead of waiting out our back-off.
        """
        if type(value) is not int or not 0 <= value < 1 << 32:
            return
        if value > have:
            if self.answers.may_answer(("behind", have)):
                await self.link.send(pack_message("sync", have))
            return
        if value == have or not self.answers.may_answer(("sync", value)):
            return
        for wire in store.frames(value)[:MAX_RESEND]:
            await self.link.send(pack_message("frame", wire))

    def _accept(self, store: GameStore, ref: Referee, wire: bytes) -> bool:
        try:
            frame = ref.receive(wire)
        except Violation as v:
            if v.authenticated:
                store.record_violation(ref.offending_frame, ref.evidence,
                                       f"violation by seat {v.seat}: {v.code}")
            else:
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
        """Stay to answer the other seats' SYNCs until each of them is complete too."""
        n, me, k = len(ref.frames), store.seat, store.setup.seats
        done = pack_message("done", n, me)
        finished = {me}
        await self.link.send(done)
        # Quiet long enough to hear at least two SYNCs of a peer that has backed off.
        linger = max(self.cfg.linger, 2 * MAX_SYNC_INTERVAL + 1)
        quiet_until = time.monotonic() + linger
        hard_stop = time.monotonic() + 4 * linger   # however chatty the other seats are
        while time.monotonic() < min(quiet_until, hard_stop):
            message = await self.link.recv(self.cfg.sync_interval)
            obj = parse_message(message) if message else None
            if obj is None:
                continue
            if obj[0] == "done":
                seat = obj[2] if len(obj) == 3 and obj[1] == n else None
                if type(seat) is int and 0 <= seat < k and seat not in finished:
                    finished.add(seat)
                    if len(finished) == k:
                        await self.link.send(done)    # in case ours was lost on the way
                        return
                    if self.answers.may_answer(("done", seat)):
                        await self.link.send(done)    # it may have missed ours
                continue
            await self._handle(store, ref, message or b"")
            if obj[0] == "sync" and obj[1:2] != [n]:   # a seat still lacks frames
                if self.answers.may_answer(("done",)):
                    await self.link.send(done)
                quiet_until = time.monotonic() + linger

    def _abandoned(self, store: GameStore, seat: int, what: str) -> PeerResult:
        store.set_meta("status", f"stopped waiting: seat {seat} owes a {what} frame")
        rule = abandonment_rule(store.setup.rules)
        return self._finish(store, (
            f"seat {seat} sent nothing for {self.cfg.move_timeout:.0f} s and owes a {what} "
            f"frame. The saved transcript proves every step so far and that seat {seat} "
            f"owes the next one; it cannot prove the silence ({rule}). "
            "`dealerless resume` continues the game if that seat comes back."))

    def _finish(self, store: GameStore, message: str) -> PeerResult:
        data = store.transcript().encode()
        verdict = replay(data)
        if verdict.complete:
            store.set_meta("status", "complete")
        self.cfg.notify(EndEvent(verdict, data, message))
        return PeerResult(verdict, store.path, message)
