"""A networked seat: handshake, then the game over an unreliable link (spec/12-peers.md 12.3).

Theory of operation
-------------------
The seats first agree on a setup (peers/net/handshake.py), then exchange signed
frames, SYNCs and DONEs (peers/net/messages.py lists them all).

Everything is idempotent. A peer that waits sends SYNC every `sync_interval`
seconds and any other seat answers with the frames the asker lacks, so lost,
duplicated or reordered messages only cost time. A SYNC and a DONE carry the hash of
the sender's last frame, so a seat whose chain took another branch at a contested
place (peers/net/fork.py) is shown the winner, even when it holds as many frames.
Frames that arrive early are held until their turn; frames that are no evidence
(bad signature, another game) are reported and dropped; a proven violation stops
the game and is saved. Every accepted frame is committed to the game database
before anything is sent after it, and this seat's own frames are committed before
they are sent (a COMMIT with what opens it), so a peer killed at any point resumes
from its database, resends the same bytes and opens what it committed to.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from peers.net.absence import AbsenceClock
from peers.net.config import PeerConfig, PeerError, PeerResult
from peers.net.fork import Forks
from peers.net.handshake import Handshake
from peers.net.handshake_answers import answer_handshake
from peers.net.invitation import rendezvous_id
from peers.net.link import Link
from peers.net.messages import pack_message, parse_message
from peers.net.pacing import MAX_SYNC_INTERVAL, AnswerLimit
from peers.net.quiet_log import quiet_logger
from peers.store.games import CorruptGame, GameStore
from peers.table.driver import EndEvent, describe, view_event
from peers.table.report import abandonment_rule
from protocol.errors import LocalError, Violation
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
        self.forks = Forks()
        # When another seat last showed that it holds frames we lack (monotonic time).
        self.behind_at = -1e9

    async def run(self) -> PeerResult:
        resumed = self.store is not None
        store = self.store or await Handshake(self.link, self.cfg, self.answers,
                                              self._stored).run()
        try:
            return await self._play(store, resumed)
        finally:
            await self.link.close()

    def _rid(self, store: GameStore) -> bytes | None:
        """The rendezvous id handshake signatures cover (12.3): the invitation's, or that
        of the URL the game stored; None for a game that has neither."""
        if self.cfg.invitation is not None:
            return self.cfg.invitation.rid
        try:
            return rendezvous_id(store.meta("url"))
        except PeerError:
            return None

    def _stored(self, store: GameStore) -> None:
        self.store = store  # from now on there is a game to resume, even if we stop here

    async def _play(self, store: GameStore, resumed: bool = False) -> PeerResult:
        ref = store.referee()
        agent = SeatAgent(ref.game, store.seat, self.cfg.identity, store.secret_seed)
        try:   # a COMMIT sent before a crash is opened in time (mined-games.md D17)
            agent.restore_openings(ref.state, store.openings())
        except LocalError as exc:
            raise CorruptGame(store.path, exc.detail) from None
        self.ref, self.agent, self.forks = ref, agent, Forks.of(store)
        if resumed:
            # The position as stored, at once: a seat that owes nothing would otherwise
            # show no table until another seat's next frame arrives, which for a
            # person's move may be minutes (issue 28: "Setting up the table...").
            self.cfg.notify(view_event(ref, agent.view(ref.state)))
        await self.link.send(self._sync(ref))
        while True:
            stopped = await self._until_end(store, ref, agent)
            if stopped is not None:
                return stopped
            if ref.violation is not None:
                return self._finish(store, f"stopped: {ref.violation.describe()}")
            if await self._linger(store, ref):
                return self._finish(store, "game complete")
            # A rival took a place while we lingered (10.8): the game goes on from it.

    async def _until_end(self, store: GameStore, ref: Referee,
                         agent: SeatAgent) -> PeerResult | None:
        """Play until the game is complete or stopped by a violation (None), or give up
        waiting for a seat (the result)."""
        cfg = self.cfg
        deadline = time.monotonic() + cfg.move_timeout
        wait = cfg.sync_interval
        while ref.violation is None and not ref.complete:
            due = ref.awaiting
            self.absence.watch(ref, store.seat)
            owed = agent.owed(ref.state)
            if owed is not None:
                await self._send_own(store, ref, agent, owed)
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
                continue
            # Checked on every pass: a stream of messages that make no progress (stale
            # SYNCs, hellos, garbage) must not keep a silent seat from timing out.
            left = deadline - time.monotonic()
            declare = self.absence.declare_in(ref, agent)
            if declare is not None and self._behind():
                declare = max(declare, cfg.sync_interval)   # catch up before judging
            if declare is not None and declare <= 0 and due is not None:
                await self._declare_absent(store, ref, agent, due[0])
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
                continue
            give_up = self.absence.give_up_in(ref)
            if give_up is not None:
                # A simultaneous game: wait while this seat or another may still declare,
                # and while the table moves (races for a place can make declaring slow).
                left = max(left, give_up)
            if due is not None and left <= 0:
                return self._abandoned(store, due[0], due[1].label)
            nap = left if declare is None else min(left, declare)
            message = await self.link.recv(min(wait, max(nap, 0.01)))
            if message is None:
                await self.link.send(self._sync(ref))
                # Back off while the other side is thinking: a person may take minutes,
                # and every SYNC costs the relay a slot in the room's log. But ask four
                # times a timeout: a lost frame must not make us give up on its seat.
                wait = min(wait * 1.5, MAX_SYNC_INTERVAL, cfg.move_timeout / 4)
                continue
            if await self._handle(store, ref, message):
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
        return None

    @staticmethod
    def _sync(ref: Referee) -> bytes:
        """SYNC: how many frames we hold and the hash the next one must carry."""
        return pack_message("sync", len(ref.frames), ref.state.prev)

    async def _declare_absent(self, store: GameStore, ref: Referee, agent: SeatAgent,
                              seat: int) -> None:
        log.info("declaring seat %d absent after %.1f s", seat, self.cfg.move_timeout)
        await self._send(store, ref, agent.declare_absent(ref.state, os.urandom(32)))

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
        # Persist first, with what opens a COMMIT: a crash now resends these bytes, and
        # the resumed seat can still open what they commit to.
        store.append(ref.state.seq, wire, self.agent.openings(ref.state))
        frame = ref.receive(wire)
        await self.link.send(pack_message("frame", wire))
        if frame is not None:
            self._progress(ref, frame)

    def _progress(self, ref: Referee, frame: Frame) -> None:
        self.cfg.notify(describe(ref, frame))
        self.cfg.notify(view_event(ref, self.agent.view(ref.state)))

    async def _handle(self, store: GameStore, ref: Referee, message: bytes) -> bool:
        """Act on one message; True if the chain changed (a step forward, or a rival
        that took a place)."""
        obj = parse_message(message)
        if obj is None:
            log.warning("dropped a malformed message (%d bytes)", len(message))
            return False
        kind = obj[0]
        if kind == "sync" and len(obj) == 3:
            await self._answer_sync(store, ref, obj[1], obj[2])
            return False
        if kind == "frame" and len(obj) == 2 and isinstance(obj[1], bytes):
            progressed = await self._accept(store, ref, obj[1])
            while progressed and len(ref.frames) in self.pending and ref.violation is None:
                await self._accept(store, ref, self.pending.pop(len(ref.frames)))
            return progressed
        if kind in ("hello", "roster", "open"):   # a seat may have lost our last one
            rid = self._rid(store)
            if rid is not None:
                await answer_handshake(self.link, store, obj, self.answers,
                                       self.cfg.identity, rid)
        return False  # done, reveal, full or unknown: nothing to do mid-game

    async def _answer_sync(self, store: GameStore, ref: Referee, value: Any,
                           head: Any) -> None:
        """Send the frames the other side lacks; stale or repeated questions are ignored.

        A SYNC showing that the other side holds more than we do tells us that we
        lost something: we ask at once instead of waiting out our back-off. One whose
        head is not ours at that length comes from a chain that parted from ours at a
        contested place (10.8): we show it ours.
        """
        have = len(ref.frames)
        if type(value) is not int or not 0 <= value < 1 << 32 or not isinstance(head, bytes):
            return
        if value > have:
            self.behind_at = time.monotonic()
            if self.answers.may_answer(("behind", have)):
                await self.link.send(self._sync(ref))
            return
        if head != ref.state_before(value).prev:
            await self._show_chain(ref, value)
            return
        if value < have:
            await self._resend(("sync", value), lambda: store.frames(value)[:MAX_RESEND])

    async def _show_chain(self, ref: Referee, have: int) -> None:
        """Show a seat whose chain differs from ours the frames that settle it (fork.py)."""
        await self._resend(("fork", len(ref.frames), have), lambda: self.forks.shown(ref, have))

    async def _resend(self, question: Any, wires: Callable[[], list[bytes]]) -> None:
        """Answer `question` with the frames `wires()` lists, as far as the link's answer
        limits allow (pacing.py): the asker asks again for the rest."""
        for wire in self.answers.resend(question, wires):
            await self.link.send(pack_message("frame", wire))

    async def _accept(self, store: GameStore, ref: Referee, wire: bytes) -> bool:
        found = self.forks.branch_of(ref, wire)
        if found is not None:
            place, frames = found
            winner = self.forks.judge(ref, place, frames)
            if winner is None:
                # Ours keeps the place: show whoever sent the rival the chain from there.
                await self._resend(("rival", place), lambda: store.frames(place)[:MAX_RESEND])
                return False
            log.info("seat %d's frame takes place %d (10.8): going on from it",
                     winner[0].seat, place)
            self.forks.give_up(store, ref, place)
            # Silence is judged afresh on the new chain: a clock started on the old one
            # would make this seat declare at once a seat whose frame it has not seen.
            self.absence.restart()
            for frame in winner:
                if not self._take(store, ref, frame.wire):
                    break
            return True
        if self.forks.elsewhere(ref, wire):
            # Its sender parted from us.
            await self._show_chain(ref, parse_frame(wire, ref.game.suite).seq)
            return False
        return self._take(store, ref, wire)

    def _take(self, store: GameStore, ref: Referee, wire: bytes) -> bool:
        """Receive a frame in its place; True if accepted."""
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

    def _behind(self) -> bool:
        """Whether another seat showed lately that it holds frames we lack: a seat that
        declares absent a seat whose frame it merely has not received yet signs a rival
        (10.8) for a place the table may have left long ago."""
        return time.monotonic() - self.behind_at < MAX_SYNC_INTERVAL

    def _hold_or_drop(self, ref: Referee, wire: bytes, v: Violation) -> None:
        if v.code == "frame/sequence":
            seq = parse_frame(wire, ref.game.suite).seq
            if seq > len(ref.frames):
                self.behind_at = time.monotonic()
            if len(ref.frames) < seq < len(ref.frames) + MAX_PENDING:
                self.pending[seq] = wire   # early: its turn will come
                return
        log.warning("dropped a frame that is no evidence: %s", v.describe())

    async def _linger(self, store: GameStore, ref: Referee) -> bool:
        """Stay to answer the other seats' SYNCs until each of them is complete with the
        same chain. False if a rival took a place meanwhile: the game goes on."""
        n, head, me, k = len(ref.frames), ref.state.prev, store.seat, store.setup.seats
        done = pack_message("done", n, me, head)
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
            if obj[0] == "done" and len(obj) == 4:
                seat = obj[2]
                if obj[1] != n or obj[3] != head:     # complete on another chain
                    await self._answer_sync(store, ref, obj[1], obj[3])
                    quiet_until = time.monotonic() + linger
                elif type(seat) is int and 0 <= seat < k and seat not in finished:
                    finished.add(seat)
                    if len(finished) == k:
                        await self.link.send(done)    # in case ours was lost on the way
                        return True
                    if self.answers.may_answer(("done", seat)):
                        await self.link.send(done)    # it may have missed ours
                continue
            await self._handle(store, ref, message or b"")
            if (len(ref.frames), ref.state.prev) != (n, head) or ref.violation is not None:
                return False
            if obj[0] == "sync" and obj[1:3] != [n, head]:   # a seat lacks frames or parted
                if self.answers.may_answer(("done",)):
                    await self.link.send(done)
                quiet_until = time.monotonic() + linger
        return True

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
