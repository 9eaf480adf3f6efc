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
from functools import partial
from typing import Any

from peers.net.config import HOST, JOIN, Invitation, PeerConfig, PeerError
from peers.net.handshake_answers import JUDGED
from peers.net.handshake_join import JoinerSide
from peers.net.hosting import seated
from peers.net.invitation import dial_url
from peers.net.link import Link
from peers.net.messages import (
    PROTOCOL_VERSION,
    JoinHello,
    Roster,
    hello_commitment,
    parse_message,
    table_suite_named,
)
from peers.net.pacing import MAX_SYNC_INTERVAL, AnswerLimit, Backoff
from peers.net.quiet_log import quiet_logger
from peers.net.records import RecordError
from peers.store.finding import FILE_ID_HEX
from peers.store.games import GameStore, StoreError
from peers.store.seats import BINDINGS_META, KEYS_META, keys_meta
from peers.table.driver import LobbyEvent
from protocol.canonical import as_bytes, pack
from protocol.errors import DealerlessError, EncodingError
from protocol.handshake_auth import (
    bind_frame_key,
    check_confirm,
    pake_confirm,
    pake_scalar,
    pake_share,
    sign,
)
from protocol.identity import fingerprint
from protocol.rules import make_rules
from protocol.setup import NONCE_BYTES, GameSetup
from protocol.suite import DEFAULT

log = quiet_logger("dealerless.peer")  # a joiner may send anything, at any rate
#: The host keeps at most this many would-be joiners of each seat in mind before the
#: seats are fixed: whoever holds one invitation cannot crowd out another's holder.
MAX_CANDIDATES = 8


@dataclass
class _HostRound:
    """One round of the host's handshake: a fresh nonce, the joiners who answered it."""

    number: int
    nonce: bytes = field(default_factory=lambda: os.urandom(NONCE_BYTES))
    #: Fresh bytes of this round's key-exchange scalar (12.3 "Authentication").
    pake: bytes = field(default_factory=lambda: os.urandom(32))
    #: Would-be joiners: key -> (the seat its invitation names, commitment, last heard).
    joiners: dict[bytes, tuple[int, bytes, float]] = field(default_factory=dict)
    #: Their frame keys in the table's suite (12.3), by identity key, with the bindings
    #: of those keys to their seats.
    frame_keys: dict[bytes, bytes] = field(default_factory=dict)
    bindings: dict[bytes, bytes] = field(default_factory=dict)
    roster: Roster | None = None
    roster_message: bytes = b""
    fixed_at: float = 0.0
    opened: dict[bytes, bytes] = field(default_factory=dict)

    @property
    def commitment(self) -> bytes:
        return hello_commitment(self.nonce)

    def silent(self) -> dict[int, bytes]:
        """The seated joiners that have not opened their nonce: seat -> key."""
        assert self.roster is not None
        return {s: key for s, key in enumerate(self.roster.keys)
                if s and key not in self.opened}

    def candidates(self, seat: int) -> list[bytes]:
        """Who asked for `seat` in this round, in the order they first asked."""
        return [j for j, (s, _, _) in self.joiners.items() if s == seat]


def _seats(silent: dict[int, bytes]) -> str:
    """Seats that took their place and did not open, as the host names them (12.3)."""
    return ", ".join(f"seat {s} ({fingerprint(key)}, the holder of invitation {s})"
                     for s, key in silent.items())


def _check_confirm(rid: bytes, y: int, share: bytes, joiner: JoinHello,
                   host_commitment: bytes) -> None:
    """EncodingError (pake/confirm, point/*) unless the joiner holds the secret of the
    seat it claims (12.3)."""
    check_confirm(pake_confirm(rid, joiner.seat, y, share, joiner.share, joiner.share,
                               joiner.key, joiner.commitment, host_commitment),
                  joiner.confirm)


def _holder(asker: JoinHello, me: bytes, mine: bytes, rnd: _HostRound) -> str | None:
    """Who besides `asker` holds its frame key in this round: the host or a counted
    joiner, named by its fingerprint; None if nobody."""
    if asker.frame_key == mine:
        return f"the host ({fingerprint(me)})"
    for key, theirs in rnd.frame_keys.items():
        if theirs == asker.frame_key and key != asker.key:
            return f"the joiner {fingerprint(key)} of seat {rnd.joiners[key][0]}"
    return None


class Handshake(JoinerSide):
    """One seat's side of the handshake; `run` returns the stored, agreed game.

    `stored` is called with the game's store as soon as it exists: from then on
    there is a game to resume, even if the handshake fails after it. A message is judged
    once: a byte-identical repeat costs no signature check or point operation
    (peers/net/handshake_answers.py)."""

    def __init__(self, link: Link, config: PeerConfig, answers: AnswerLimit,
                 stored: Callable[[GameStore], None]) -> None:
        self.link, self.cfg, self.answers, self.stored = link, config, answers, stored
        if config.invitation is None:
            raise PeerError("a networked seat needs its table's invitation (12.3)")
        self.inv: Invitation = config.invitation
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
        played = table_suite_named(cfg.suite or DEFAULT)   # the table's suite (3.5)
        mine = cfg.identity.frame_key(played)
        my_binding = bind_frame_key(cfg.identity, played, self.inv.rid, 0)
        kept = cfg.hosting
        rnd = _HostRound(0)
        if kept is not None:
            if kept.key not in (None, me):
                raise RecordError(f"{kept.path} was written by another identity key; remove "
                                  "it to host afresh")
            rnd = _HostRound(kept.round, kept.nonce, kept.pake)
            if kept.roster is not None:   # sent before the stop: the seats stand
                rnd.roster, rnd.fixed_at = seated(kept, cfg.rules, ruleset.params,
                                                  played.name), time.monotonic()
                rnd.roster_message = kept.roster
            kept.key = me
        live: list[bytes] = []     # joiners that opened in an abandoned round: seated first
        abandoned: dict[int, list[bytes]] = {}   # seat -> the keys that held it silent
        repeat = Backoff(cfg.sync_interval, self.cap)
        self._keep(rnd)            # before a hello commits to its nonce
        inv = self.inv

        exchanges: dict[tuple[bytes, int], tuple[int, bytes]] = {}

        def exchange(seat: int) -> tuple[int, bytes]:
            """This round's key-exchange scalar and share for `seat` (12.3
            "Authentication")."""
            if (rnd.commitment, seat) not in exchanges:
                y = pake_scalar(cfg.identity, inv.rid, rnd.commitment, seat, rnd.pake)
                exchanges[rnd.commitment, seat] = \
                    y, pake_share(inv.seat_secret(seat), inv.rid, y)
            return exchanges[rnd.commitment, seat]

        def hello() -> bytes:
            return self._signed(["hello", PROTOCOL_VERSION, HOST, me, rnd.commitment,
                                 cfg.rules, ruleset.params, k, rnd.number,
                                 [exchange(seat)[1] for seat in range(1, k)], played.name])

        while True:
            now = time.monotonic()
            if rnd.roster is None:
                for key in [j for j, (_, _, heard) in rnd.joiners.items()
                            if now - heard > self.stale]:
                    log.info("forgot %s: not heard from for %.1f s", fingerprint(key),
                             self.stale)
                    del rnd.joiners[key], rnd.frame_keys[key], rnd.bindings[key]
                    self._lobby(rnd, k)
                asked = [rnd.candidates(seat) for seat in range(1, k)]
                if all(asked):   # each seat to its first asker; the others are refused
                    chosen = [min(c, key=lambda j: j not in live) for c in asked]  # the first
                    rnd.roster = Roster((me, *chosen),
                                        (rnd.commitment, *(rnd.joiners[j][1] for j in chosen)),
                                        (mine, *(rnd.frame_keys[j] for j in chosen)),
                                        (my_binding, *(rnd.bindings[j] for j in chosen)))
                    rnd.roster_message = self._signed(rnd.roster.body())
                    rnd.fixed_at = now
                    self._keep(rnd)   # before the roster leaves
                    repeat.reset()
            elif len(rnd.opened) == k - 1:
                setup = GameSetup.create(cfg.rules, dict(ruleset.params),
                                         list(rnd.roster.frame_keys),
                                         [rnd.nonce, *(rnd.opened[j]
                                                       for j in rnd.roster.keys[1:])], played)
                store = self._create_store(setup, 0, rnd.roster)
                if kept is not None:
                    kept.remove()     # the nonce is in the game's database now
                await self.link.send(self._signed(["reveal", list(setup.nonces)]))
                return store
            elif now - rnd.fixed_at > self.stale:
                # A seated joiner left before opening its nonce. Start again: every nonce
                # opened in this round is spent, since a roster fixed after seeing it
                # could be ground. Those who did open keep their precedence.
                log.info("%s did not open its nonce; starting the handshake again",
                         _seats(rnd.silent()))
                silent = rnd.silent()
                for seat in range(1, k):   # a seat that opened since is no longer to blame
                    if seat in silent:
                        abandoned.setdefault(seat, []).append(rnd.roster.keys[seat])
                    else:
                        abandoned.pop(seat, None)
                live = [j for j in rnd.roster.keys[1:] if j in rnd.opened]
                rnd = _HostRound(rnd.number + 1)
                self._keep(rnd)
                repeat.reset()
                continue
            if now >= deadline:
                if kept is not None:
                    kept.remove()     # the handshake is over for good
                raise PeerError(self._host_gave_up(k, rnd, abandoned))
            if repeat.due(now):
                await self.link.send(hello() if rnd.roster is None else rnd.roster_message)
            message = await self.link.recv(min(repeat.left(now), max(deadline - now, 0.01)))
            obj = parse_message(message) if message else None
            if obj is None:
                continue
            try:
                if obj[0] == "hello" and len(obj) > 2 and obj[2] == JOIN:
                    joiner = await self._read_join_hello(obj, k)
                    if joiner is None:
                        continue
                    key = joiner.key
                    if key == me:
                        log.warning("ignored a joiner with the host's own identity key")
                    elif joiner.seat >= k:
                        log.warning("ignored a joiner asking for seat %d of a table of %d",
                                    joiner.seat, k)
                    elif (other := joiner.suite not in ("", played.name)) \
                            or joiner.answers != rnd.commitment:
                        if other:   # refused: never seated
                            log.warning("refused %s for seat %d: it asks for %s; this table "
                                        "plays %s", fingerprint(key), joiner.seat,
                                        joiner.suite, played.name)
                        # Our hello names this round and the suite: it learns both at once.
                        if self.answers.may_answer(("hello",)):
                            await self.link.send(hello())
                    elif rnd.roster is not None:
                        if key in rnd.roster.keys and self.answers.may_answer(("roster",)):
                            await self.link.send(rnd.roster_message)
                    elif (holder := _holder(joiner, me, mine, rnd)) is not None:
                        # It proved it holds that key (its binding): so does `holder`.
                        log.warning("ignored %s for seat %d: its frame key, which it holds, "
                                    "is also the frame key of %s (two identity keys with "
                                    "one frame key; 12.3 step 3)", fingerprint(key),
                                    joiner.seat, holder)
                    elif (rnd.joiners.get(key, (0,))[0] == joiner.seat
                          or len(rnd.candidates(joiner.seat)) < MAX_CANDIDATES):
                        y, share = exchange(joiner.seat)
                        JUDGED.confirm(obj, share, partial(
                            _check_confirm, inv.rid, y, share, joiner, rnd.commitment))
                        new = key not in rnd.joiners
                        if not new and rnd.joiners[key][0] != joiner.seat:
                            del rnd.joiners[key]   # it holds another invitation too
                        # a known key keeps its place
                        rnd.joiners[key] = (joiner.seat, joiner.commitment, now)
                        rnd.frame_keys[key] = joiner.frame_key
                        rnd.bindings[key] = joiner.binding
                        if new:
                            self._lobby(rnd, k)
                elif obj[0] == "open" and rnd.roster is not None and len(obj) == 4:
                    key = obj[1]
                    seat = rnd.roster.keys.index(key) if key in rnd.roster.keys[1:] else 0
                    if seat:
                        _, _, their_nonce = JUDGED.signed(obj, key, inv.rid)
                        if hello_commitment(as_bytes(their_nonce, "nonce", NONCE_BYTES)) \
                                == rnd.roster.commitments[seat]:
                            rnd.opened[key] = their_nonce
            except (DealerlessError, TypeError, ValueError) as exc:
                log.warning("ignored a bad handshake message: %s", exc)

    def _signed(self, body: list[Any]) -> bytes:
        return pack(sign(self.cfg.identity, self.inv.rid, body))

    async def _read_join_hello(self, obj: list[Any], k: int) -> JoinHello | None:
        """A joiner's hello whose signature verifies under the key it names (so the
        joiner holds that key); a key that is no valid identity key is refused, in a
        signed message to it, and anything else malformed raises EncodingError. A
        repeat is judged from memory (JUDGED)."""
        try:
            return JUDGED.join_hello(obj, self.inv.rid)
        except EncodingError as exc:
            key = obj[3] if len(obj) > 3 else None
            if exc.code.startswith("point/") and isinstance(key, bytes) and len(key) == 32:
                log.warning("refused a joiner whose identity key is no valid key (%s)",
                            exc.code)
                if self.answers.may_answer(("refuse", "key")):
                    await self.link.send(self._signed(["refuse", self.cfg.identity.public_key,
                                                       key, "key", k]))
                return None
            raise

    def _keep(self, rnd: _HostRound) -> None:
        """Write the host's record (12.3) as the round now stands."""
        kept = self.cfg.hosting
        if kept is not None:
            kept.nonce, kept.round, kept.pake = rnd.nonce, rnd.number, rnd.pake
            kept.roster = rnd.roster_message if rnd.roster is not None else None
            kept.keep()

    def _lobby(self, rnd: _HostRound, k: int) -> None:
        self.cfg.notify(LobbyEvent(tuple(
            fingerprint(asked[0]) if (asked := rnd.candidates(seat)) else None
            for seat in range(1, k)), k))

    def _host_gave_up(self, k: int, rnd: _HostRound, abandoned: dict[int, list[bytes]]) -> str:
        within = f"within {self.cfg.move_timeout:.0f} s"
        if rnd.roster is not None:
            if not any(seat in abandoned for seat in rnd.silent()):
                return (f"{_seats(rnd.silent())} took a seat but did not finish the "
                        f"handshake {within}; no game was started")
            abandoned = {seat: [*abandoned.get(seat, []), key]
                         for seat, key in rnd.silent().items()}
        if abandoned:   # the round was started again for them: they are why, not the lobby
            named = "; ".join(
                f"seat {seat} (the holder of invitation {seat}) took it "
                f"{len(keys)} time{'s' * (len(keys) > 1)}, last as {fingerprint(keys[-1])}"
                for seat, keys in sorted(abandoned.items()))
            return (f"{named}, and never finished the handshake {within}; no game was "
                    "started")
        if k == 2:
            return f"no opponent answered {within}"
        missing = [str(seat) for seat in range(1, k) if not rnd.candidates(seat)]
        return (f"{k - 1 - len(missing)} of the {k - 1} other players joined {within}; "
                f"nobody answered the invitation to seat{'s' * (len(missing) > 1)} "
                f"{', '.join(missing)}; no game was started")

    def _create_store(self, setup: GameSetup, seat: int, roster: Roster) -> GameStore:
        """The game's database, with the seats' identity keys and frame-key bindings from
        the roster (12.4)."""
        meta = {"role": self.cfg.role, **self.cfg.meta, KEYS_META: keys_meta(roster.keys),
                BINDINGS_META: keys_meta(roster.bindings)}
        if "url" in meta:   # where to dial; never the pin and secret after its '#' (12.4)
            meta["url"] = dial_url(meta["url"])
        try:
            store = GameStore.create(self.cfg.games_dir, setup, seat, os.urandom(32), meta)
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

