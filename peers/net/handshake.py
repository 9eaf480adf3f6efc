"""The handshake: K seats agree on a setup by commit, then reveal (spec/12-peers.md 12.3).

Every seat commits to a fresh nonce first (the host in its hello, a joiner in its
answer). Once K-1 joiners have answered, the host fixes the roster: every identity
key and commitment, in seat order. A joiner opens its nonce only when it finds
itself in that roster; the host opens its own (and passes on the others) only when
every joiner has opened. So each seat's setup is fixed before its own nonce is
known to anybody: two seats that hold different setups match in their short
authentication string (12.2) only by a 1-in-10^12 chance that nobody can grind
during the handshake. A seated joiner that never opens (it left) makes the host
start a new round, with fresh nonces all round, rather than strand the others.
Each seat writes its nonce down before committing to it (peers/net/joining.py,
hosting.py), so a `join` or `host` killed before the reveal and run again opens the same
one: the joiner keeps its seat, the host its table.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from peers.net.config import HOST, JOIN, MAX_SEATS, PeerConfig, PeerError
from peers.net.hosting import seated
from peers.net.joining import Joining
from peers.net.link import Link
from peers.net.messages import (
    PROTOCOL_VERSION,
    REFUSALS,
    Offer,
    Roster,
    hello_commitment,
    pack_message,
    parse_message,
    read_join_hello,
    read_offer,
    read_roster,
)
from peers.net.pacing import MAX_SYNC_INTERVAL, AnswerLimit, Backoff
from peers.net.quiet_log import quiet_logger
from peers.net.records import RecordError
from peers.store.finding import FILE_ID_HEX
from peers.store.games import GameStore, StoreError
from peers.table.driver import LobbyEvent
from protocol.canonical import as_array, as_bytes, as_list
from protocol.errors import DealerlessError, EncodingError
from protocol.identity import fingerprint
from protocol.rules import make_rules
from protocol.setup import NONCE_BYTES, GameSetup

log = quiet_logger("dealerless.peer")  # a joiner may send anything, at any rate
#: The host keeps at most this many would-be joiners in mind before the seats are fixed.
MAX_CANDIDATES = 64


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

    def silent(self) -> list[str]:
        """The seated joiners that have not opened their nonce."""
        assert self.roster is not None
        return [f"seat {s} ({fingerprint(key)})" for s, key in enumerate(self.roster.keys)
                if s and key not in self.opened]


class Handshake:
    """One seat's side of the handshake; `run` returns the stored, agreed game.

    `stored` is called with the game's store as soon as it exists: from then on
    there is a game to resume, even if the handshake fails after it."""

    def __init__(self, link: Link, config: PeerConfig, answers: AnswerLimit,
                 stored: Callable[[GameStore], None]) -> None:
        self.link, self.cfg, self.answers, self.stored = link, config, answers, stored
        # Messages are repeated with back-off up to `cap`. The host forgets a would-be
        # joiner it has not heard from for `stale` seconds (several repeats), and
        # starts a new round if a seated joiner does not open its nonce in as long.
        self.cap = min(MAX_SYNC_INTERVAL, 4 * config.sync_interval)
        self.stale = 4 * self.cap + config.sync_interval

    async def run(self) -> GameStore:
        deadline = time.monotonic() + self.cfg.move_timeout
        if self.cfg.role == HOST:
            return await self._host(deadline)
        return await self._join(deadline)

    async def _host(self, deadline: float) -> GameStore:
        cfg = self.cfg
        try:
            ruleset = make_rules(cfg.rules, cfg.params)
        except DealerlessError as exc:
            raise PeerError(f"rules {cfg.rules}: {exc}") from None
        k, me = ruleset.deal.seats, cfg.identity.public_key
        kept = cfg.hosting
        rnd = _HostRound(0)
        if kept is not None:
            if kept.key not in (None, me):
                raise RecordError(f"{kept.path} was written by another identity key; remove "
                                "it to host afresh")
            rnd = _HostRound(kept.round, kept.nonce)
            if kept.roster is not None:   # sent before the stop: the seats stand
                rnd.roster, rnd.fixed_at = seated(kept, cfg.rules, ruleset.params), \
                    time.monotonic()
            kept.key = me
        live: list[bytes] = []     # joiners that opened in an abandoned round: seated first
        repeat = Backoff(cfg.sync_interval, self.cap)
        self._keep(rnd)            # before a hello commits to its nonce

        def hello() -> bytes:
            return pack_message("hello", PROTOCOL_VERSION, HOST, me, rnd.commitment,
                                cfg.rules, ruleset.params, k, rnd.number)

        while True:
            now = time.monotonic()
            if rnd.roster is None:
                for key in [j for j, (_, heard) in rnd.joiners.items()
                            if now - heard > self.stale]:
                    log.info("forgot %s: not heard from for %.1f s", fingerprint(key),
                             self.stale)
                    del rnd.joiners[key]
                    self._lobby(rnd, k)
                if len(rnd.joiners) >= k - 1:   # in join order; the others are refused
                    order = sorted(rnd.joiners, key=lambda j: j not in live)  # stable
                    chosen = order[:k - 1]
                    rnd.roster = Roster((me, *chosen),
                                        (rnd.commitment, *(rnd.joiners[j][0] for j in chosen)))
                    rnd.fixed_at = now
                    self._keep(rnd)   # before the roster leaves
                    repeat.reset()
            elif len(rnd.opened) == k - 1:
                setup = GameSetup.create(cfg.rules, dict(ruleset.params), list(rnd.roster.keys),
                                         [rnd.nonce, *(rnd.opened[j]
                                                       for j in rnd.roster.keys[1:])])
                store = self._create_store(setup, 0)
                if kept is not None:
                    kept.remove()     # the nonce is in the game's database now
                await self.link.send(pack_message("reveal", list(setup.nonces)))
                return store
            elif now - rnd.fixed_at > self.stale:
                # A seated joiner left before opening its nonce. Start again: every nonce
                # opened in this round is spent, since a roster fixed after seeing it
                # could be ground. Those who did open keep their precedence.
                log.info("%s did not open its nonce; starting the handshake again",
                         ", ".join(rnd.silent()))
                live = [j for j in rnd.roster.keys[1:] if j in rnd.opened]
                rnd = _HostRound(rnd.number + 1)
                self._keep(rnd)
                repeat.reset()
                continue
            if now >= deadline:
                if kept is not None:
                    kept.remove()     # the handshake is over for good
                raise PeerError(self._host_gave_up(k, rnd))
            if repeat.due(now):
                await self.link.send(hello() if rnd.roster is None else rnd.roster.message())
            message = await self.link.recv(min(repeat.left(now), max(deadline - now, 0.01)))
            obj = parse_message(message) if message else None
            if obj is None:
                continue
            try:
                if obj[0] == "hello" and len(obj) > 2 and obj[2] == JOIN:
                    key, commitment, answers = read_join_hello(obj)
                    if key == me:
                        log.warning("ignored a joiner with the host's own identity key")
                    elif answers != rnd.commitment:   # it has not seen this round's hello
                        if self.answers.may_answer(("hello",)):
                            await self.link.send(hello())
                    elif rnd.roster is not None:
                        if key in rnd.roster.keys and self.answers.may_answer(("roster",)):
                            await self.link.send(rnd.roster.message())
                    elif key in rnd.joiners or len(rnd.joiners) < MAX_CANDIDATES:
                        new = key not in rnd.joiners
                        rnd.joiners[key] = (commitment, now)  # a known key keeps its place
                        if new:
                            self._lobby(rnd, k)
                elif obj[0] == "open" and rnd.roster is not None:
                    _, key, their_nonce = as_array(obj, 3, "open")
                    seat = rnd.roster.keys.index(key) if key in rnd.roster.keys[1:] else 0
                    if seat and hello_commitment(as_bytes(their_nonce, "nonce", NONCE_BYTES)) \
                            == rnd.roster.commitments[seat]:
                        rnd.opened[key] = their_nonce
            except (DealerlessError, TypeError, ValueError) as exc:
                log.warning("ignored a bad handshake message: %s", exc)

    def _keep(self, rnd: _HostRound) -> None:
        """Write the host's record (12.3) as the round now stands."""
        kept = self.cfg.hosting
        if kept is not None:
            kept.nonce, kept.round = rnd.nonce, rnd.number
            kept.roster = None if rnd.roster is None else rnd.roster.message()
            kept.keep()

    def _lobby(self, rnd: _HostRound, k: int) -> None:
        self.cfg.notify(LobbyEvent(tuple(fingerprint(j) for j in rnd.joiners), k))

    def _host_gave_up(self, k: int, rnd: _HostRound) -> str:
        within = f"within {self.cfg.move_timeout:.0f} s"
        if rnd.roster is None:
            if k == 2:
                return f"no opponent answered {within}"
            return (f"{len(rnd.joiners)} of the {k - 1} other players joined {within}; "
                    "no game was started")
        return (f"{', '.join(rnd.silent())} took a seat but did not finish the "
                f"handshake {within}; no game was started")

    async def _join(self, deadline: float) -> GameStore:
        me = self.cfg.identity.public_key
        # Taken up again if this key's `join` of this invitation was cut short.
        kept = Joining.take_up(self.cfg.games_dir, me, self.cfg.meta.get("url", ""))
        try:
            store = await self._joining(deadline, kept)
        except PeerError:
            kept.remove()   # the handshake is over for good
            raise
        kept.remove()       # the nonce is in the game's database now
        return store

    async def _joining(self, deadline: float, kept: Joining) -> GameStore:
        cfg = self.cfg
        me = cfg.identity.public_key
        offer = None if kept.offer is None else kept.offered()
        if offer is not None and cfg.offer_check is not None:
            cfg.offer_check(offer.rules)
        roster = None if kept.roster is None else kept.seated()   # opened for: only it
        kept.keep()   # before a hello commits to its nonce
        repeat = Backoff(cfg.sync_interval, self.cap)
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise PeerError(self._join_gave_up(offer, roster))
            if repeat.due(now):
                await self.link.send(
                    pack_message("open", me, kept.nonce) if roster is not None else
                    pack_message("hello", PROTOCOL_VERSION, JOIN, me,
                                 hello_commitment(kept.nonce),
                                 offer.commitment if offer else b""))
            message = await self.link.recv(min(repeat.left(now), max(deadline - now, 0.01)))
            obj = parse_message(message) if message else None
            if obj is None:
                continue
            try:
                kind = obj[0]
                if kind == "hello" and len(obj) > 2 and obj[2] == HOST:
                    seen = read_offer(obj)
                    if seen.key == me:
                        raise PeerError("this game's host uses your identity key: join with "
                                        "another one (another --home)")
                    if cfg.offer_check is not None:
                        cfg.offer_check(seen.rules)
                    if offer is None or (seen.key == offer.key and seen.round > offer.round):
                        if roster is not None:   # a new round: our opened nonce is spent
                            kept.nonce, kept.roster, roster = os.urandom(NONCE_BYTES), None, None
                        offer, kept.offer = seen, message
                        kept.keep()             # then answer at once
                        repeat.reset()
                elif kind == "roster" and offer is not None and roster is None:
                    seated = read_roster(obj, offer)
                    if me in seated.keys:
                        seat = seated.keys.index(me)
                        if seated.commitments[seat] != hello_commitment(kept.nonce):
                            raise PeerError(
                                f"seat {seat} of this game went to another `join` with your "
                                "identity key; one key takes one seat")
                        roster, kept.roster = seated, message
                        kept.keep()             # then open at once
                        repeat.reset()
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
        return (f"the game did not start {within}: the host, or another player who took a "
                "seat, did not finish the handshake; no game was started")

    def _create_store(self, setup: GameSetup, seat: int) -> GameStore:
        try:
            store = GameStore.create(self.cfg.games_dir, setup, seat, os.urandom(32),
                                     {"role": self.cfg.role, **self.cfg.meta})
        except StoreError:
            # A `join` run again after its database was made, before its record was
            # removed: the game is this seat's own, and goes on from what it stored.
            path = self.cfg.games_dir / f"{setup.game_id.hex()[:FILE_ID_HEX]}.sqlite"
            store = GameStore.open(path)
            if store.setup != setup or store.seat != seat:
                store.close()
                raise
        self.stored(store)
        if self.cfg.on_setup is not None:
            self.cfg.on_setup(setup, store)
        return store


async def answer_handshake(link: Link, store: GameStore, obj: list[Any],
                           answers: AnswerLimit) -> None:
    """Mid-game, repeat this seat's last handshake message to a seat that may have lost it.

    The host answers a seated joiner's hello with the roster and its "open" with
    the reveal, and refuses any other hello ("full", or "seated" for a second
    `join` with a seated key); a joiner answers the host's roster with its
    "open". Everything is rebuilt from the stored setup.
    """
    setup = store.setup
    kind = obj[0]
    if store.seat != 0:
        if kind == "roster" and answers.may_answer(("open",)):
            await link.send(pack_message("open", setup.identities[store.seat],
                                         setup.nonces[store.seat]))
        return
    roster = Roster.of(setup)
    try:
        if kind == "hello" and len(obj) > 2 and obj[2] == JOIN:
            key, commitment, _ = read_join_hello(obj)
            if key not in setup.identities:
                reason = "full"
            elif commitment == roster.commitments[setup.identities.index(key)]:
                if key != setup.identities[0] and answers.may_answer(("roster",)):
                    await link.send(roster.message())
                return
            else:
                reason = "seated"
            if answers.may_answer(("refuse", reason)):
                await link.send(pack_message("refuse", key, reason, setup.seats))
        elif (kind == "open" and len(obj) == 3 and obj[1] in setup.identities[1:]
              and answers.may_answer(("reveal",))):
            await link.send(pack_message("reveal", list(setup.nonces)))
    except (DealerlessError, TypeError, ValueError) as exc:
        log.warning("ignored a bad handshake message: %s", exc)
