"""A joiner's side of the handshake (spec/12-peers.md 12.3): answer the host the
invitation pins, open its nonce for the roster that seats it, check the reveal.

Only messages signed by the pinned host key are obeyed; anything else is ignored, and
kept only to say at the timeout why no host was found.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from peers.net.config import HOST, JOIN, MAX_SEATS, Invitation, PeerConfig, PeerError
from peers.net.joining import Joining
from peers.net.link import Link
from peers.net.messages import (
    PROTOCOL_VERSION,
    REFUSALS,
    Offer,
    Roster,
    hello_commitment,
    join_suite_refusal,
    other_version,
    parse_message,
    read_offer,
    read_roster,
    table_suite_named,
)
from peers.net.pacing import Backoff
from peers.net.quiet_log import quiet_logger
from peers.store.games import GameStore
from protocol.canonical import as_array, as_bytes, as_list
from protocol.errors import DealerlessError, EncodingError
from protocol.handshake_auth import (
    bind_frame_key,
    check_signature,
    host_pin,
    pake_confirm,
    pake_scalar,
    pake_share,
)
from protocol.setup import NONCE_BYTES, GameSetup

log = quiet_logger("dealerless.peer")


class NotFromHost(Exception):
    """A message a joiner ignores before its signature is checked: `check` is `pin` (the
    key it names is not the pinned one) or `version` (a host hello of another peer
    protocol); the text is what the joiner says at its timeout if nothing better came."""

    def __init__(self, check: str, text: str) -> None:
        super().__init__(text)
        self.check = check


def from_pinned_host(obj: list[Any], key: Any, inv: Invitation) -> list[Any]:
    """The body of the host's message `obj`, which names `key` as its signer, checked in
    12.3's order ("Authentication"): the pin of `key`, then a hello's version (item 1),
    then the signature; what it carries (its shape, keys and shares) is read after.
    NotFromHost for the first two, SignatureError (handshake/bad-signature) for the
    third."""
    if not isinstance(key, bytes) or host_pin(key) != inv.pin:
        raise NotFromHost("pin", "a host whose identity key is not the one the invitation "
                          "pins answered (someone in the middle, or an invitation for "
                          "another table)")
    refused = other_version(obj)
    if refused and obj[0] == "hello":
        raise NotFromHost("version", refused)   # signed under that version's prefix
    return check_signature(key, inv.rid, obj)


class JoinerSide:
    """The joiner's half of peers.net.handshake.Handshake (which sets these up)."""

    link: Link
    cfg: PeerConfig
    inv: Invitation
    cap: float
    stranger: str   # why the last message of no pinned host was ignored, or ""
    _signed: Callable[[list[Any]], bytes]
    _create_store: Callable[[GameSetup, int, Roster], GameStore]

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
        cfg, inv = self.cfg, self.inv
        me = cfg.identity.public_key
        offer = None if kept.offer is None else kept.offered()
        if offer is not None:
            self._check_offer(offer)
        roster = None if kept.roster is None else kept.seated()   # opened for: only it
        kept.keep()   # before a hello commits to its nonce
        repeat = Backoff(cfg.sync_interval, self.cap)
        fresh = os.urandom(32)     # this run's key-exchange scalar, hedged (12.3)
        self.stranger = ""
        frame_keys: dict[str, tuple[bytes, bytes]] = {}

        def frame_key(seen: Offer) -> tuple[bytes, bytes]:
            """This seat's frame key in the suite of the host's offer (8.3), and its
            binding to this seat's identity key and seat (12.3 "Authentication")."""
            if seen.suite not in frame_keys:
                played = table_suite_named(seen.suite)
                frame_keys[seen.suite] = (cfg.identity.frame_key(played),
                                          bind_frame_key(cfg.identity, played, inv.rid,
                                                         inv.seat))
            return frame_keys[seen.suite]

        def hello() -> bytes:
            commitment = hello_commitment(kept.nonce)
            if offer is None:   # the suite it was asked for, or "" for the host's
                return self._signed(["hello", PROTOCOL_VERSION, JOIN, me, commitment,
                                     inv.seat, b"", b"", b"", cfg.suite or "", b"", b""])
            y = pake_scalar(cfg.identity, inv.rid, commitment, inv.seat, fresh)
            share = pake_share(inv.secret, inv.rid, y)
            host_share = offer.share(inv.seat)
            confirm = pake_confirm(inv.rid, inv.seat, y, host_share, share, host_share, me,
                                   commitment, offer.commitment)
            return self._signed(["hello", PROTOCOL_VERSION, JOIN, me, commitment,
                                 inv.seat, offer.commitment, share, confirm, offer.suite,
                                 *frame_key(offer)])

        while True:
            now = time.monotonic()
            if now >= deadline:
                raise PeerError(self._join_gave_up(offer, roster))
            if repeat.due(now):
                await self.link.send(self._signed(["open", me, kept.nonce])
                                     if roster is not None else hello())
            message = await self.link.recv(min(repeat.left(now), max(deadline - now, 0.01)))
            obj = parse_message(message) if message else None
            if obj is None:
                continue
            try:
                kind = obj[0]
                if kind == "hello" and len(obj) > 3 and obj[2] == HOST:
                    body = self._from_host(obj, obj[3])
                    if body is None:
                        continue
                    seen = read_offer(body)
                    if seen.key == me:
                        raise PeerError("this game's host uses your identity key: join with "
                                        "another one (another --home)")
                    self._check_offer(seen)
                    if inv.seat >= seen.seats:
                        raise PeerError(f"this invitation is for seat {inv.seat}, but the "
                                        f"host's table has {seen.seats} seats (0 to "
                                        f"{seen.seats - 1}): it is not an invitation to "
                                        "this table")
                    if offer is None or seen.round > offer.round:
                        if roster is not None:   # a new round: our opened nonce is spent
                            kept.nonce, kept.roster, roster = os.urandom(NONCE_BYTES), None, None
                        offer, kept.offer = seen, message
                        kept.keep()             # then answer at once
                        repeat.reset()
                elif kind == "roster" and offer is not None and roster is None:
                    seated = read_roster(check_signature(offer.key, inv.rid, obj), offer)
                    if me in seated.keys:
                        seat = seated.keys.index(me)
                        if seat != inv.seat:
                            raise EncodingError("roster/seat", f"the roster puts us at seat "
                                                f"{seat}, not {inv.seat}")
                        if seated.commitments[seat] != hello_commitment(kept.nonce):
                            raise PeerError(
                                f"seat {seat} of this game went to another `join` with your "
                                "identity key; one key takes one seat")
                        if seated.frame_keys[seat] != frame_key(offer)[0]:
                            raise PeerError(
                                f"the host's roster gives seat {seat} (this seat) a frame key "
                                f"other than this seat's own in {offer.suite} (12.3 step 4, "
                                "roster/frame-key); no game was started")
                        try:
                            seated.check_bindings(inv.rid, offer.suite)
                        except EncodingError as exc:
                            raise PeerError(
                                f"the host's roster pairs a seat's identity key with a frame "
                                f"key that seat did not bind to it (12.3 step 4, {exc.code}: "
                                f"{exc.detail}); the host may be misleading this seat about "
                                "who sits at the table; no game was started") from None
                        roster, kept.roster = seated, message
                        kept.keep()             # then open at once
                        repeat.reset()
                    # else the table is full, or a new round may seat us: wait and see
                elif kind == "reveal" and roster is not None and offer is not None:
                    _, opened = as_array(check_signature(offer.key, inv.rid, obj), 2, "reveal")
                    nonces = [as_bytes(n, "nonce", NONCE_BYTES)
                              for n in as_list(opened, "nonces", MAX_SEATS)]
                    if len(nonces) != len(roster.keys) or any(
                            hello_commitment(n) != c
                            for n, c in zip(nonces, roster.commitments, strict=True)):
                        raise EncodingError("reveal/open", "the nonces do not open the "
                                            "roster's commitments")
                    setup = GameSetup.create(offer.rules, dict(offer.params),
                                             list(roster.frame_keys), nonces,
                                             table_suite_named(offer.suite))
                    return self._create_store(setup, roster.keys.index(me), roster)
                elif kind == "refuse" and len(obj) == 6 and obj[2] == me and roster is None:
                    body = self._from_host(obj, obj[1])
                    if body is None:
                        continue
                    reason, seats = body[3], body[4]
                    text = REFUSALS.get(reason) if isinstance(reason, str) else None
                    raise PeerError((text or "the host refused: {reason}").format(
                        seats=seats if type(seats) is int else "", reason=str(reason)[:80]))
            except (DealerlessError, TypeError, ValueError) as exc:
                log.warning("ignored a bad handshake message: %s", exc)

    def _check_offer(self, offer: Offer) -> None:
        """PeerError if this seat will not play the host's offer: another suite than the
        one it was asked for (12.3), or rules its interface cannot show."""
        asked = self.cfg.suite
        if asked is not None and offer.suite != asked:
            raise PeerError(join_suite_refusal(offer.suite, asked, self.cfg.suite_said))
        if self.cfg.offer_check is not None:
            self.cfg.offer_check(offer.rules)

    def _from_host(self, obj: list[Any], key: Any) -> list[Any] | None:
        """The body of a message signed by the host the invitation pins, else None (the
        message is ignored, never obeyed; why is kept for the timeout's sentence)."""
        try:
            return from_pinned_host(obj, key, self.inv)
        except NotFromHost as exc:
            self.stranger = str(exc)
            return None

    def _join_gave_up(self, offer: Offer | None, roster: Roster | None) -> str:
        within = f"within {self.cfg.move_timeout:.0f} s"
        if offer is None:
            seen = f"; {self.stranger}" if self.stranger else ""
            return f"no host answered {within}{seen}"
        if roster is None:
            return (f"the host did not fill its table of {offer.seats} {within}; "
                    "no game was started")
        return (f"the game did not start {within}: the host, or another player who took a "
                "seat, did not finish the handshake; no game was started")

