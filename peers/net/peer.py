"""A networked seat: handshake, then the game over an unreliable link (spec/12-peers.md 12.3).

Theory of operation
-------------------
Peer messages are canonical msgpack arrays. Before the game, K = 2..8 seats
agree on a setup by commit, then reveal (12.3):

    ["hello", 2, "host", key, commitment, rules, params, K, round]   the host's offer
    ["hello", 2, "join", key, commitment, host commitment]  a joiner: its nonce committed
    ["roster", keys, commitments]               the host fixes the seats (seat 0 is it)
    ["open", key, nonce]                        a seated joiner opens its commitment
    ["reveal", nonces]                          the host opens its own, passes on all
    ["refuse", key, reason, K]                  no seat for this key ("full", "seated")

Every seat reveals its nonce only after every key and commitment of its setup is
fixed, so nobody (a man in the middle included) can steer the game id, and with it
the short authentication string, after seeing somebody else's nonce. Then:

    ["frame", wire]                                          a signed frame
    ["sync", n]          "I hold n frames; send me yours from seq n on"
    ["done", n, seat]    "my game (seat `seat`) is complete with n frames"

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

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from peers.net.link import MAX_MESSAGE_BYTES, Link
from peers.store.games import GameStore
from peers.table.driver import AsyncChooser, EndEvent, Notify, describe, view_event
from protocol.canonical import as_array, as_bytes, as_int, as_list, as_str, pack, unpack
from protocol.errors import DealerlessError, EncodingError, Violation
from protocol.frames import MessageType, parse_frame
from protocol.hashing import H, Tag
from protocol.identity import Identity, fingerprint
from protocol.referee import Referee
from protocol.rules import make_rules
from protocol.seat import SeatAgent
from protocol.setup import NONCE_BYTES, GameSetup
from protocol.verifier import Verdict, replay

log = logging.getLogger("dealerless.peer")
HOST, JOIN = "host", "join"
#: The version of the peer protocol in every hello (12.3); version 1 had two seats only.
PROTOCOL_VERSION = 2
MIN_SEATS, MAX_SEATS = 2, 8
MAX_PENDING = 64
MAX_RESEND = 64
MAX_SYNC_INTERVAL = 2.0
#: The host keeps at most this many would-be joiners in mind before the seats are fixed.
MAX_CANDIDATES = 64


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
    """A seat's commitment to its setup nonce: H(HELLO_COMMIT, nonce)[:32]."""
    return H(Tag.HELLO_COMMIT, nonce)[:32]


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


def _key(obj: Any, what: str = "identity key") -> bytes:
    return as_bytes(obj, what, 32)


@dataclass(frozen=True)
class Offer:
    """The host's hello as a joiner reads it."""

    key: bytes
    commitment: bytes
    rules: str
    params: dict[str, Any]
    seats: int
    round: int


@dataclass(frozen=True)
class Roster:
    """The seats as the host fixed them: identity keys and commitments in seat order."""

    keys: tuple[bytes, ...]
    commitments: tuple[bytes, ...]

    def message(self) -> bytes:
        return _msg("roster", list(self.keys), list(self.commitments))

    @classmethod
    def of(cls, setup: GameSetup) -> Roster:
        """Rebuilt from an agreed setup (to repeat it to a seat that lost it)."""
        return cls(setup.identities, tuple(hello_commitment(n) for n in setup.nonces))


def read_offer(obj: list[Any]) -> Offer:
    """A host's hello: EncodingError if malformed, PeerError if it can never work here."""
    version = as_int(obj[1], "hello version")
    if version != PROTOCOL_VERSION:
        raise PeerError(f"the host speaks version {version} of the peer protocol; this "
                        f"dealerless speaks version {PROTOCOL_VERSION} (update both sides)")
    _, _, _, key, commitment, rules, params, seats, rnd = as_array(obj, 9, "host hello")
    if not isinstance(params, dict):
        raise EncodingError("hello/params", "parameters are a map")
    offer = Offer(_key(key), as_bytes(commitment, "commitment", 32), as_str(rules, "rules"),
                  params, as_int(seats, "seats", MIN_SEATS, MAX_SEATS),
                  as_int(rnd, "round", 0, 1 << 32))
    try:
        ruleset = make_rules(offer.rules, dict(params))
    except DealerlessError as exc:
        if exc.code == "rules/unknown-ruleset":
            raise PeerError(f"the host offers the rules {offer.rules!r}, which this version "
                            "of dealerless does not know") from None
        raise EncodingError("hello/rules", f"the host's rules: {exc}") from None
    if ruleset.deal.seats != offer.seats:
        raise EncodingError("hello/seats", f"{offer.rules} with these parameters has "
                            f"{ruleset.deal.seats} seats, not {offer.seats}")
    return offer


def read_join_hello(obj: list[Any]) -> tuple[bytes, bytes, bytes]:
    """(identity key, commitment, the host commitment it answers) of a joiner's hello."""
    _, version, _, key, commitment, answers = as_array(obj, 6, "join hello")
    if as_int(version, "hello version") != PROTOCOL_VERSION:
        raise EncodingError("hello/version", f"a version {version} hello")
    answers = as_bytes(answers, "host commitment")
    if len(answers) not in (0, 32):
        raise EncodingError("hello/answers", "a host commitment is 32 bytes, or none")
    return _key(key), as_bytes(commitment, "commitment", 32), answers


def read_roster(obj: list[Any], offer: Offer) -> Roster:
    """A roster that fits the host's offer: K distinct keys, the host's first."""
    _, keys, commitments = as_array(obj, 3, "roster")
    roster = Roster(tuple(_key(k) for k in as_list(keys, "roster keys", MAX_SEATS)),
                    tuple(as_bytes(c, "commitment", 32)
                          for c in as_list(commitments, "commitments", MAX_SEATS)))
    if (len(roster.keys) != offer.seats or len(roster.commitments) != offer.seats
            or len(set(roster.keys)) != offer.seats):
        raise EncodingError("roster/seats", f"a roster of {offer.seats} distinct seats")
    if roster.keys[0] != offer.key or roster.commitments[0] != offer.commitment:
        raise EncodingError("roster/host", "not the roster of this host's round")
    return roster


REFUSALS = {
    "full": "the table is full: the host already has its {seats} players, and the game "
            "goes on without you",
    "seated": "your identity key already holds a seat in this game, taken by another "
              "`join` with the same key or by an earlier run of this one (`dealerless "
              "resume` continues that one)",
}


class _Repeat:
    """When to send a handshake message again: now, then backing off up to `cap`."""

    def __init__(self, first: float, cap: float) -> None:
        self.first, self.cap = first, cap
        self.reset()

    def reset(self) -> None:
        self.wait, self.at = self.first, 0.0

    def due(self, now: float) -> bool:
        if now < self.at:
            return False
        self.at, self.wait = now + self.wait, min(self.wait * 1.5, self.cap)
        return True

    def left(self, now: float) -> float:
        return max(self.at - now, 0.01)


@dataclass
class _HostRound:
    """One round of the host's handshake: a fresh nonce, the joiners who answered it."""

    number: int
    nonce: bytes = field(default_factory=lambda: os.urandom(NONCE_BYTES))
    joiners: dict[bytes, tuple[bytes, float]] = field(default_factory=dict)
    roster: Roster | None = None
    fixed_at: float = 0.0
    opened: dict[bytes, bytes] = field(default_factory=dict)

    @property
    def commitment(self) -> bytes:
        return hello_commitment(self.nonce)


class Peer:
    def __init__(self, link: Link, config: PeerConfig, store: GameStore | None = None) -> None:
        self.link = link
        self.cfg = config
        self.store = store
        self.pending: dict[int, bytes] = {}
        # (stage, seat) -> when this seat first saw that seat owe a COMMIT or OPEN (10.8).
        self._silent_since: dict[tuple[int, int], float] = {}
        self.answered: dict[tuple[Any, ...], float] = {}
        # Handshake messages are repeated with back-off up to `cap`. The host forgets a
        # would-be joiner it has not heard from for `stale` seconds (several repeats),
        # and starts a new round if a seated joiner does not open its nonce in as long.
        self.cap = min(MAX_SYNC_INTERVAL, 4 * config.sync_interval)
        self.stale = 4 * self.cap + config.sync_interval

    # -- handshake (commit, then reveal) -----------------------------------------------

    async def _handshake(self) -> GameStore:
        """Agree on the setup so that nobody in the middle can steer the game id.

        Every seat commits to a fresh nonce first (the host in its hello, a joiner
        in its answer). Once K-1 joiners have answered, the host fixes the roster:
        every identity key and commitment, in seat order. A joiner opens its nonce
        only when it finds itself in that roster; the host opens its own (and passes
        on the others) only when every joiner has opened. So each seat's setup is
        fixed before its own nonce is known to anybody: two seats that hold different
        setups match in their short authentication string (12.2) only by a
        1-in-10^12 chance that nobody can grind during the handshake. A seated joiner
        that never opens (it left) makes the host start a new round, with fresh
        nonces all round, rather than strand the others.
        """
        deadline = time.monotonic() + self.cfg.move_timeout
        if self.cfg.role == HOST:
            return await self._host_handshake(deadline)
        return await self._join_handshake(deadline)

    async def _host_handshake(self, deadline: float) -> GameStore:
        cfg = self.cfg
        try:
            ruleset = make_rules(cfg.rules, cfg.params)
        except DealerlessError as exc:
            raise PeerError(f"rules {cfg.rules}: {exc}") from None
        k, me = ruleset.deal.seats, cfg.identity.public_key
        rnd = _HostRound(0)
        live: list[bytes] = []     # joiners that opened in an abandoned round: seated first
        repeat = _Repeat(cfg.sync_interval, self.cap)

        def hello() -> bytes:
            return _msg("hello", PROTOCOL_VERSION, HOST, me, rnd.commitment, cfg.rules,
                        ruleset.params, k, rnd.number)

        while True:
            now = time.monotonic()
            if rnd.roster is None:
                for key in [j for j, (_, heard) in rnd.joiners.items()
                            if now - heard > self.stale]:
                    log.info("forgot %s: not heard from for %.1f s", fingerprint(key),
                             self.stale)
                    del rnd.joiners[key]
                if len(rnd.joiners) >= k - 1:   # in join order; the others are refused
                    order = sorted(rnd.joiners, key=lambda j: j not in live)  # stable
                    chosen = order[:k - 1]
                    rnd.roster = Roster((me, *chosen),
                                        (rnd.commitment, *(rnd.joiners[j][0] for j in chosen)))
                    rnd.fixed_at = now
                    repeat.reset()
            elif len(rnd.opened) == k - 1:
                setup = GameSetup.create(cfg.rules, dict(ruleset.params), list(rnd.roster.keys),
                                         [rnd.nonce, *(rnd.opened[j]
                                                       for j in rnd.roster.keys[1:])])
                store = self._create_store(setup, 0)
                await self.link.send(_msg("reveal", list(setup.nonces)))
                return store
            elif now - rnd.fixed_at > self.stale:
                # A seated joiner left before opening its nonce. Start again: every nonce
                # opened in this round is spent, since a roster fixed after seeing it
                # could be ground. Those who did open keep their precedence.
                log.info("%s did not open its nonce; starting the handshake again",
                         ", ".join(self._silent(rnd)))
                live = [j for j in rnd.roster.keys[1:] if j in rnd.opened]
                rnd = _HostRound(rnd.number + 1)
                repeat.reset()
                continue
            if now >= deadline:
                raise PeerError(self._host_gave_up(k, rnd))
            if repeat.due(now):
                await self.link.send(hello() if rnd.roster is None else rnd.roster.message())
            message = await self.link.recv(min(repeat.left(now), max(deadline - now, 0.01)))
            obj = _parse(message) if message else None
            if obj is None:
                continue
            try:
                if obj[0] == "hello" and len(obj) > 2 and obj[2] == JOIN:
                    key, commitment, answers = read_join_hello(obj)
                    if key == me:
                        log.warning("ignored a joiner with the host's own identity key")
                    elif answers != rnd.commitment:   # it has not seen this round's hello
                        if self._may_answer(("hello",)):
                            await self.link.send(hello())
                    elif rnd.roster is not None:
                        if key in rnd.roster.keys and self._may_answer(("roster",)):
                            await self.link.send(rnd.roster.message())
                    elif key in rnd.joiners or len(rnd.joiners) < MAX_CANDIDATES:
                        rnd.joiners[key] = (commitment, now)  # a known key keeps its place
                elif obj[0] == "open" and rnd.roster is not None:
                    _, key, their_nonce = as_array(obj, 3, "open")
                    seat = rnd.roster.keys.index(key) if key in rnd.roster.keys[1:] else 0
                    if seat and hello_commitment(as_bytes(their_nonce, "nonce", NONCE_BYTES)) \
                            == rnd.roster.commitments[seat]:
                        rnd.opened[key] = their_nonce
            except (DealerlessError, TypeError, ValueError) as exc:
                log.warning("ignored a bad handshake message: %s", exc)

    @staticmethod
    def _silent(rnd: _HostRound) -> list[str]:
        assert rnd.roster is not None
        return [f"seat {s} ({fingerprint(key)})" for s, key in enumerate(rnd.roster.keys)
                if s and key not in rnd.opened]

    def _host_gave_up(self, k: int, rnd: _HostRound) -> str:
        within = f"within {self.cfg.move_timeout:.0f} s"
        if rnd.roster is None:
            if k == 2:
                return f"no opponent answered {within}"
            return (f"{len(rnd.joiners)} of the {k - 1} other players joined {within}; "
                    "no game was started")
        return (f"{', '.join(self._silent(rnd))} took a seat but did not finish the "
                f"handshake {within}; no game was started")

    async def _join_handshake(self, deadline: float) -> GameStore:
        cfg = self.cfg
        me = cfg.identity.public_key
        nonce = os.urandom(NONCE_BYTES)
        offer: Offer | None = None
        roster: Roster | None = None
        repeat = _Repeat(cfg.sync_interval, self.cap)
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise PeerError(self._join_gave_up(offer, roster))
            if repeat.due(now):
                await self.link.send(
                    _msg("open", me, nonce) if roster is not None else
                    _msg("hello", PROTOCOL_VERSION, JOIN, me, hello_commitment(nonce),
                         offer.commitment if offer else b""))
            message = await self.link.recv(min(repeat.left(now), max(deadline - now, 0.01)))
            obj = _parse(message) if message else None
            if obj is None:
                continue
            try:
                kind = obj[0]
                if kind == "hello" and len(obj) > 2 and obj[2] == HOST:
                    seen = read_offer(obj)
                    if seen.key == me:
                        raise PeerError("this game's host uses your identity key: join with "
                                        "another one (another --home)")
                    if offer is None or (seen.key == offer.key and seen.round > offer.round):
                        if roster is not None:   # a new round: our opened nonce is spent
                            nonce, roster = os.urandom(NONCE_BYTES), None
                        offer = seen
                        repeat.reset()          # answer at once
                elif kind == "roster" and offer is not None and roster is None:
                    seated = read_roster(obj, offer)
                    if me in seated.keys:
                        seat = seated.keys.index(me)
                        if seated.commitments[seat] != hello_commitment(nonce):
                            raise PeerError(
                                f"seat {seat} of this game went to another `join` with your "
                                "identity key; one key takes one seat")
                        roster = seated
                        repeat.reset()          # open at once
                    # else the table is full, or a new round may seat us: wait and see
                elif kind == "reveal" and roster is not None and offer is not None:
                    _, opened = as_array(obj, 2, "reveal")
                    nonces = [as_bytes(n, "nonce", NONCE_BYTES)
                              for n in as_list(opened, "nonces", MAX_SEATS)]
                    if len(nonces) != len(roster.keys) or any(
                            hello_commitment(n) != c
                            for n, c in zip(nonces, roster.commitments, strict=True)):
                        raise EncodingError("reveal/open", "the nonces do not open the "
                                            "roster's commitments")
                    setup = GameSetup.create(offer.rules, dict(offer.params),
                                             list(roster.keys), nonces)
                    return self._create_store(setup, roster.keys.index(me))
                elif kind == "refuse" and len(obj) == 4 and obj[1] == me and roster is None:
                    reason, seats = obj[2], obj[3]
                    text = REFUSALS.get(reason) if isinstance(reason, str) else None
                    raise PeerError((text or "the host refused: {reason}").format(
                        seats=seats if type(seats) is int else "", reason=str(reason)[:80]))
            except (DealerlessError, TypeError, ValueError) as exc:
                log.warning("ignored a bad handshake message: %s", exc)

    def _join_gave_up(self, offer: Offer | None, roster: Roster | None) -> str:
        within = f"within {self.cfg.move_timeout:.0f} s"
        if offer is None:
            return f"no host answered {within}"
        if roster is None:
            return (f"the host did not fill its table of {offer.seats} {within}; "
                    "no game was started")
        return (f"the game did not start {within}: another player took a seat but did not "
                "finish the handshake; no game was started")

    def _create_store(self, setup: GameSetup, seat: int) -> GameStore:
        store = GameStore.create(self.cfg.games_dir, setup, seat, os.urandom(32),
                                 {"role": self.cfg.role, **self.cfg.meta})
        self.store = store  # from now on there is a game to resume, even if we stop here
        if self.cfg.on_setup is not None:
            self.cfg.on_setup(setup, store)
        return store

    async def _answer_handshake(self, store: GameStore, obj: list[Any]) -> None:
        """Mid-game, repeat our last handshake message to a seat that may have lost it.

        The host answers a seated joiner's hello with the roster and its "open" with
        the reveal, and refuses any other hello ("full", or "seated" for a second
        `join` with a seated key); a joiner answers the host's roster with its
        "open". Everything is rebuilt from the stored setup.
        """
        setup = store.setup
        kind = obj[0]
        if store.seat != 0:
            if kind == "roster" and self._may_answer(("open",)):
                await self.link.send(_msg("open", setup.identities[store.seat],
                                          setup.nonces[store.seat]))
            return
        roster = Roster.of(setup)
        try:
            if kind == "hello" and len(obj) > 2 and obj[2] == JOIN:
                key, commitment, _ = read_join_hello(obj)
                if key not in setup.identities:
                    reason = "full"
                elif commitment == roster.commitments[setup.identities.index(key)]:
                    if key != setup.identities[0] and self._may_answer(("roster",)):
                        await self.link.send(roster.message())
                    return
                else:
                    reason = "seated"
                if self._may_answer(("refuse", reason)):
                    await self.link.send(_msg("refuse", key, reason, setup.seats))
            elif (kind == "open" and len(obj) == 3 and obj[1] in setup.identities[1:]
                  and self._may_answer(("reveal",))):
                await self.link.send(_msg("reveal", list(setup.nonces)))
        except (DealerlessError, TypeError, ValueError) as exc:
            log.warning("ignored a bad handshake message: %s", exc)

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
            if ref.game.simultaneous and due is not None and due[0] != store.seat and due[1] in (
                    MessageType.COMMIT, MessageType.OPEN):
                # When this seat first saw that frame owed: the start of its deadline.
                self._silent_since.setdefault((ref.state.rules_state.stage, due[0]),
                                              time.monotonic())
            owed = agent.owed(ref.state)
            if owed is not None and self._ready(ref, owed):
                await self._send_own(store, ref, agent, owed)
                deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
                continue
            # Checked on every pass: a stream of messages that make no progress (stale
            # SYNCs, hellos, garbage) must not keep a silent seat from timing out.
            left = deadline - time.monotonic()
            if owed is MessageType.ABSENT:
                left = self._until_ready(ref)  # its declaration is not due yet by its clock
            elif due is not None and left <= 0:
                declared = await self._declare_absent(store, ref, agent, due, -left)
                if declared is None:
                    return self._abandoned(store, due[0], due[1].label)
                if declared == 0:
                    deadline, wait = time.monotonic() + cfg.move_timeout, cfg.sync_interval
                    continue
                left = declared  # not this seat's turn to declare yet: keep listening
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

    def _ready(self, ref: Referee, owed: MessageType) -> bool:
        """Whether to send the frame this seat owes now. Every frame at once, except a
        declaration that another seat is absent (10.8): this seat signs it only once that
        seat has been silent for the whole timeout by this seat's own clock, so that one
        seat declaring too early cannot make the others forfeit a seat still in time."""
        return owed is not MessageType.ABSENT or self._until_ready(ref) <= 0

    def _until_ready(self, ref: Referee) -> float:
        """Seconds until this seat may co-sign the declaration under way (see _ready)."""
        absent = ref.state.rules_state.absent
        key = (ref.state.rules_state.stage, absent[0] if absent else -1)
        since = self._silent_since.setdefault(key, time.monotonic())
        return since + self.cfg.move_timeout - time.monotonic()

    async def _declare_absent(self, store: GameStore, ref: Referee, agent: SeatAgent,
                              due: tuple[int, MessageType], overdue: float) -> float | None:
        """A seat silent past the deadline in a simultaneous game (spec/10-session.md 10.8,
        12.3): the other living seats declare it absent, the first of them after one
        deadline, the next after two, and so on, so that two seats rarely race to be
        first. 0 if this seat declared, else the seconds to keep listening before its own
        turn to declare; None to give up (a deck game, or no declaration can help)."""
        if not ref.game.simultaneous or due[1] not in (MessageType.COMMIT, MessageType.OPEN):
            return None
        others = [s for s in ref.state.rules_state.playing() if s != due[0]]
        if store.seat not in others:
            # A dead seat only watches: it waits while the living may still declare.
            later = len(others) * self.cfg.move_timeout - overdue
            return later if later > 0 else None
        later = others.index(store.seat) * self.cfg.move_timeout - overdue
        if later > 0:
            return later
        wire = agent.declare_absent(ref.state)
        log.info("declaring seat %d absent after %.0f s", due[0], self.cfg.move_timeout)
        store.append(ref.state.seq, wire)
        frame = ref.receive(wire)
        await self.link.send(_msg("frame", wire))
        if frame is not None:
            self._progress(ref, frame)
        return 0.0

    async def _send_own(self, store: GameStore, ref: Referee, agent: SeatAgent,
                        mtype: MessageType) -> None:
        state = ref.state
        if mtype in (MessageType.MOVE, MessageType.COMMIT, MessageType.CHOOSE):
            view = agent.view(state)
            self.cfg.notify(view_event(ref, view))
            move = await self.cfg.choose(view)
            if ref.state is not state and not agent.owes(ref.state):
                return  # e.g. declared absent and forfeited while its player was choosing
            wire = agent.next_frame(ref.state, os.urandom(32), lambda _v: move)
            state = ref.state
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
        if kind in ("hello", "roster", "open"):
            await self._answer_handshake(store, obj)   # a seat may have lost our last one
        return False  # done, reveal, full or unknown: nothing to do mid-game

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
        """Stay to answer the other seats' SYNCs until each of them is complete too."""
        n, me, k = len(ref.frames), store.seat, store.setup.seats
        done = _msg("done", n, me)
        finished = {me}
        await self.link.send(done)
        # Quiet long enough to hear at least two SYNCs of a peer that has backed off.
        linger = max(self.cfg.linger, 2 * MAX_SYNC_INTERVAL + 1)
        quiet_until = time.monotonic() + linger
        hard_stop = time.monotonic() + 4 * linger   # however chatty the other seats are
        while time.monotonic() < min(quiet_until, hard_stop):
            message = await self.link.recv(self.cfg.sync_interval)
            obj = _parse(message) if message else None
            if obj is None:
                continue
            if obj[0] == "done":
                seat = obj[2] if len(obj) == 3 and obj[1] == n else None
                if type(seat) is int and 0 <= seat < k and seat not in finished:
                    finished.add(seat)
                    if len(finished) == k:
                        await self.link.send(done)    # in case ours was lost on the way
                        return
                    if self._may_answer(("done", seat)):
                        await self.link.send(done)    # it may have missed ours
                continue
            await self._handle(store, ref, message or b"")
            if obj[0] == "sync" and obj[1:2] != [n]:   # a seat still lacks frames
                if self._may_answer(("done",)):
                    await self.link.send(done)
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
