"""The handshake's authentication (spec/12-peers.md 12.3): the vectors of
spec/vectors/handshake.json, and seats that ignore forged, unsigned and other hosts'
messages, refuse invalid keys, and seat nobody who lacks the invitation's secret."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from invites import join_hello, table_of
from test_network import config, transcripts

from peers.net import handshake_join
from peers.net.config import HOST, JOIN, PeerConfig
from peers.net.handshake import Handshake
from peers.net.handshake_answers import Judged
from peers.net.handshake_join import NotFromHost, from_pinned_host
from peers.net.hosting import Hosting
from peers.net.invitation import InvitationError, dial_url, host_invitation, parse_invitation
from peers.net.joining import Joining, record_path
from peers.net.link import MemoryLink
from peers.net.messages import PROTOCOL_VERSION, hello_commitment, read_join_hello, read_offer
from peers.net.pacing import AnswerLimit
from peers.net.peer import Peer
from protocol.canonical import pack, unpack
from protocol.errors import DealerlessError
from protocol.handshake_auth import (
    check_signature,
    host_pin,
    pake_confirm,
    pake_generator,
    pake_scalar,
    pake_share,
    room_secret,
    seat_secret,
    sign,
    signed_bytes,
)
from protocol.identity import Identity
from protocol.suite import v2_suite
from protocol.verifier import replay

S = v2_suite()  # edwards25519-sha512, dealerless/2
decode_scalar = S.decode_scalar

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "spec" / "vectors" /
                      "handshake.json").read_text())
ROUND_RID = bytes.fromhex(VECTORS["round"]["rid"])
ROUND_WIRES = [bytes.fromhex(c["wire"]) for c in VECTORS["signatures"][:5]]
INVITE = parse_invitation(VECTORS["round"]["invitation"])
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")


@pytest.mark.parametrize("case", VECTORS["signatures"], ids=lambda c: c["kind"])
def test_signature_vectors(case: dict[str, Any]) -> None:
    who, rid = Identity(bytes.fromhex(case["signer_seed"])), bytes.fromhex(case["rid"])
    body = unpack(bytes.fromhex(case["body"]), 1 << 16)
    assert signed_bytes(rid, body).hex() == case["signed_bytes"]
    assert pack(sign(who, rid, body)).hex() == case["wire"]
    wire = unpack(bytes.fromhex(case["wire"]), 1 << 16)
    assert check_signature(who.public_key, rid, wire) == body


def test_pin_secret_and_invitation_vectors() -> None:
    for case in VECTORS["pins"]:
        assert host_pin(bytes.fromhex(case["key"])).hex() == case["pin"]
    table = bytes.fromhex(VECTORS["secrets"]["table"])
    assert room_secret(table).hex() == VECTORS["secrets"]["room"]
    assert {str(i): seat_secret(table, i).hex() for i in range(1, 8)} == \
        VECTORS["secrets"]["seats"]
    for case in VECTORS["invitations"]:
        if case["result"] == "ok":
            inv = parse_invitation(case["url"])
            assert (inv.rid.hex(), inv.pin.hex(), inv.seat, inv.room.hex(), inv.secret.hex()) \
                == (case["rid"], case["pin"], case["seat"], case["room"], case["secret"])
            assert case["secret"] == VECTORS["secrets"]["seats"][str(inv.seat)]
        else:   # refused, naming the part at fault (12.3 "The invitation")
            with pytest.raises(InvitationError) as refused:
                parse_invitation(case["url"])
            assert refused.value.part == case["part"], case["note"]


@pytest.mark.parametrize("case", VECTORS["pake"]["exchanges"], ids=lambda c: str(c["seat"]))
def test_pake_vectors(case: dict[str, Any]) -> None:
    v, seat = VECTORS["pake"], case["seat"]
    rid, secret = bytes.fromhex(v["rid"]), bytes.fromhex(case["secret"])
    assert secret == seat_secret(bytes.fromhex(v["table"]), seat)
    assert pake_generator(secret, rid).data.hex() == case["generator"]
    host, joiner = v["host"], case["joiner"]
    y_h = pake_scalar(Identity(bytes.fromhex(host["seed"])), rid,
                      bytes.fromhex(host["commitment"]), seat, bytes.fromhex(host["fresh"]))
    y_j = pake_scalar(Identity(bytes.fromhex(joiner["seed"])), rid,
                      bytes.fromhex(joiner["commitment"]), seat, bytes.fromhex(joiner["fresh"]))
    assert (y_h, y_j) == (decode_scalar(bytes.fromhex(case["host_scalar"])),
                          decode_scalar(bytes.fromhex(joiner["scalar"])))
    s_h, s_j = pake_share(secret, rid, y_h), pake_share(secret, rid, y_j)
    assert (s_h.hex(), s_j.hex()) == (case["host_share"], joiner["share"])
    who = (bytes.fromhex(joiner["key"]), bytes.fromhex(joiner["commitment"]),
           bytes.fromhex(host["commitment"]))
    assert pake_confirm(rid, seat, y_j, s_h, s_j, s_h, *who).hex() == case["confirm"]
    assert pake_confirm(rid, seat, y_h, s_h, s_j, s_j, *who).hex() == case["confirm"]
    # The holder of the other seat's invitation cannot answer for this one.
    wrong = bytes.fromhex(case["other_seat_share"])
    assert pake_confirm(rid, seat, y_h, s_h, wrong, wrong, *who).hex() not in \
        (case["confirm"], case["other_seat_confirm"])


def first_failed_check(obj: list[Any]) -> str:
    """The check the reference code stops at, in 12.3's order: a joiner reading a host's
    message checks the pin, a hello's version, the signature (from_pinned_host), then what
    it carries (read_offer); a host reading a joiner hello checks its version, shape and
    key, then the signature (Judged.join_hello)."""
    if obj[0] == "hello" and obj[2] == JOIN:
        try:
            Judged().join_hello(obj, ROUND_RID)
        except DealerlessError as exc:
            return "version" if exc.code == "hello/version" else exc.code
        return "ok"
    if obj[0] == "refuse" and len(obj) != 6:
        return "shape"   # the joiner reads only a refusal of six items
    try:
        body = from_pinned_host(obj, obj[3] if obj[0] == "hello" else obj[1], INVITE)
        if obj[0] == "hello":
            read_offer(body)
    except NotFromHost as exc:
        return exc.check
    except DealerlessError as exc:
        return exc.code
    return "ok"


@pytest.mark.parametrize("case", VECTORS["ignored"], ids=lambda c: c["note"][:40])
def test_ignored_vectors_fail_the_check_they_name_first(case: dict[str, Any]) -> None:
    obj = unpack(bytes.fromhex(case["wire"]), 1 << 16)
    assert first_failed_check(obj) == case["check"]


def test_an_old_hello_is_refused_naming_both_versions() -> None:
    """What a person is told of a hello of peer protocol 4 (the joiner at its timeout, the
    host in its log)."""
    old = next(unpack(bytes.fromhex(c["wire"]), 1 << 16) for c in VECTORS["ignored"]
               if c["check"] == "version" and "pinned host" in c["note"])
    with pytest.raises(NotFromHost) as seen:
        from_pinned_host(old, old[3], INVITE)
    assert str(seen.value) == (f"the host speaks version {old[1]} of the peer protocol; "
                               f"this dealerless speaks version {PROTOCOL_VERSION} (update "
                               "both sides)")
    joiner = next(unpack(bytes.fromhex(c["wire"]), 1 << 16) for c in VECTORS["ignored"]
                  if c["check"] == "version" and c["then"].startswith("the host"))
    with pytest.raises(DealerlessError, match=f"a joiner speaks version {joiner[1]} of the "
                       f"peer protocol; this dealerless speaks version {PROTOCOL_VERSION}"):
        read_join_hello(joiner[:-1])


# --- the recorded round, replayed from either side (handshake.json `round`) -----------
def _hx(text: str) -> bytes:
    return bytes.fromhex(text)


async def _next(link: MemoryLink, kind: str, answering: bool = False) -> bytes:
    """The next message of `kind` on `link` (a join hello that answers a host hello, with
    `answering`)."""
    while True:
        message = await link.recv(10)
        assert message is not None, f"no {kind} came"
        obj = unpack(message, 1 << 17)
        if obj[0] == kind and (not answering or obj[6]):
            return message


@pytest.mark.asyncio
async def test_the_recorded_round_replayed_as_the_host_seats_the_joiner(
        tmp_path: Path) -> None:
    """The host, given its seed, nonce, fresh bytes and table secret, sends the recorded
    hello; given the joiner's recorded hello, seats it and sends the recorded roster; given
    the open, sends the recorded reveal and holds the recorded setup."""
    r, wires = VECTORS["round"], ROUND_WIRES
    host = Identity(_hx(r["host"]["seed"]))
    own = host_invitation(dial_url(r["invitation"]), host.public_key, _hx(r["table"]))
    record = Hosting(tmp_path / "hosting" / "round", b"", nonce=_hx(r["host"]["nonce"]),
                     pake=_hx(r["host"]["fresh"]), round=r["host"]["round"],
                     secret=_hx(r["table"]))
    cfg = PeerConfig(games_dir=tmp_path / "games", role=HOST, identity=host,
                     choose=_no_moves, notify=lambda e: None, rules=r["rules"],
                     params=r["params"], sync_interval=0.05, invitation=own, hosting=record)
    link, table = MemoryLink.pair()
    seat = asyncio.create_task(Handshake(link, cfg, AnswerLimit(0.05), _keep).run())
    try:
        assert await _next(table, "hello") == wires[0]
        await table.send(wires[1])
        assert await _next(table, "roster") == wires[2]
        await table.send(wires[3])
        assert await _next(table, "reveal") == wires[4]
        store = await asyncio.wait_for(seat, 10)
    finally:
        seat.cancel()
    assert store.setup.encode().hex() == r["setup"]
    assert store.setup.game_id.hex() == r["game_id"] and store.seat == 0
    store.close()


@pytest.mark.asyncio
async def test_the_recorded_round_replayed_as_the_joiner_takes_its_seat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The joiner, given its seed, nonce, fresh bytes and invitation, answers the recorded
    host hello with the recorded hello (share and confirm for its seat), opens for the
    recorded roster with the recorded open, and holds the recorded setup after the
    reveal."""
    r, wires = VECTORS["round"], ROUND_WIRES
    joiner, url = Identity(_hx(r["joiner"]["seed"])), r["invitation"]
    games = tmp_path / "games"
    Joining(record_path(games, joiner.public_key, url), _hx(r["joiner"]["nonce"])).keep()
    fresh = _hx(r["joiner"]["fresh"])
    monkeypatch.setattr(handshake_join, "os", SimpleNamespace(urandom=lambda n: fresh[:n]))
    cfg = PeerConfig(games_dir=games, role=JOIN, identity=joiner, choose=_no_moves,
                     notify=lambda e: None, sync_interval=0.05,
                     invitation=parse_invitation(url), meta={"url": url})
    link, table = MemoryLink.pair()
    seat = asyncio.create_task(Handshake(link, cfg, AnswerLimit(0.05), _keep).run())
    try:
        await _next(table, "hello")          # it has seen no host hello yet
        await table.send(wires[0])
        assert await _next(table, "hello", answering=True) == wires[1]
        await table.send(wires[2])
        assert await _next(table, "open") == wires[3]
        await table.send(wires[4])
        store = await asyncio.wait_for(seat, 10)
    finally:
        seat.cancel()
    assert store.setup.encode().hex() == r["setup"] and store.seat == r["joiner"]["seat"]
    store.close()


async def _no_moves(view: Any) -> Any:
    raise AssertionError("the handshake makes no move")


def _keep(store: Any) -> None:
    """A handshake's `stored` callback: the test closes the store itself."""


class Meddler:
    """Sits between the host and a joiner (a relay operator, say): passes everything on,
    and injects forgeries toward the joiner before the first host hello it forwards."""

    def __init__(self, forgeries: list[bytes]) -> None:
        self.forgeries = forgeries

    async def pump(self, src: MemoryLink, dst: MemoryLink, inject: bool) -> None:
        while True:
            message = await src.recv(30)
            if message is None:
                continue
            if inject and self.forgeries:
                for forged in self.forgeries:
                    await dst.send(forged)
                self.forgeries = []
            await dst.send(message)


@pytest.mark.asyncio
async def test_forged_refusals_rosters_and_hellos_are_ignored(tmp_path: Path) -> None:
    """A forged refuse, a host hello of a key the invitation does not pin, an unsigned
    hello claiming another version and a roster of another signer: the joiner obeys
    none, and the game is played with the real host."""
    host_id, inv = table_of(tmp_path)
    joiner_cfg = config(tmp_path, JOIN)
    stranger = Identity(os.urandom(32))
    me = joiner_cfg.identity.public_key
    fake_c = hello_commitment(os.urandom(32))
    forgeries = [
        pack(["refuse", me, "full", 2]),                                  # version 2's
        pack(sign(stranger, inv.rid, ["refuse", stranger.public_key, me, "full", 2])),
        pack(sign(host_id, os.urandom(16), ["refuse", host_id.public_key, me, "seated", 2])),
        pack(["hello", 2, HOST, host_id.public_key, fake_c, "bram", {}, 2, 9]),
        pack(sign(stranger, inv.rid, ["hello", PROTOCOL_VERSION, HOST, stranger.public_key,
                                      fake_c, "bram", {"komi_halves": 1}, 2, 5,
                                      pake_share(inv.secret, inv.rid, 7)])),
        pack(sign(stranger, inv.rid, ["roster", [host_id.public_key, me], [fake_c, fake_c]])),
    ]
    host_side, m1 = MemoryLink.pair()
    m2, join_side = MemoryLink.pair()
    meddler = Meddler(forgeries)
    pumps = [asyncio.create_task(meddler.pump(m1, m2, True)),
             asyncio.create_task(meddler.pump(m2, m1, False))]
    try:
        results = await asyncio.wait_for(asyncio.gather(
            Peer(host_side, config(tmp_path, HOST)).run(), Peer(join_side, joiner_cfg).run()),
            60)
    finally:
        for pump in pumps:
            pump.cancel()
    assert not meddler.forgeries   # they were sent
    one, two = transcripts(list(results))
    assert one == two and replay(one).exit_code == 0


@pytest.mark.asyncio
async def test_a_squatter_or_a_stranger_without_the_secret_is_not_seated(
        tmp_path: Path) -> None:
    """Three would-be joiners reach the host before the real one: a key of small order
    (refused with a signed 'key'), someone replaying the real joiner's public key
    without its private key (a bad signature) and a stranger who saw the rendezvous id
    but not the secret (a wrong confirm). None is seated; the real joiner is."""
    host_id, inv = table_of(tmp_path)
    joiner_cfg = config(tmp_path, JOIN)
    host_link, *others = MemoryLink.group(3)
    attacker_link, join_link = others
    victim = joiner_cfg.identity.public_key
    refusals: list[list[Any]] = []
    attacked = asyncio.Event()

    async def attack() -> None:
        stranger = Identity(os.urandom(32))
        while True:
            message = await attacker_link.recv(30)
            obj = unpack(message, 1 << 17) if message else None
            if obj and obj[:3] == ["hello", PROTOCOL_VERSION, HOST]:
                commitment = hello_commitment(os.urandom(32))
                small = ["hello", PROTOCOL_VERSION, JOIN, SMALL_ORDER, commitment, 1, obj[4],
                         b"", b"", obj[10], b"", b""]
                await attacker_link.send(pack([*small, bytes(64)]))
                squat = unpack(join_hello(stranger, inv, commitment, obj), 1 << 17)
                squat[3] = victim   # the victim's key, signed by someone else
                await attacker_link.send(pack(squat))
                await attacker_link.send(join_hello(stranger, inv, commitment, obj,
                                                    secret=os.urandom(16)))
                attacked.set()
            elif obj and obj[0] == "refuse":
                refusals.append(check_signature(host_id.public_key, inv.rid, obj))

    attacker = asyncio.create_task(attack())

    async def join_after_the_attack() -> Any:
        await attacked.wait()   # every attempt reaches the host before the real joiner
        return await Peer(join_link, joiner_cfg).run()
    try:
        results = await asyncio.wait_for(asyncio.gather(
            Peer(host_link, config(tmp_path, HOST)).run(), join_after_the_attack()), 60)
    finally:
        attacker.cancel()
    one, two = transcripts(list(results))
    assert one == two and replay(one).exit_code == 0
    from protocol.transcript import Transcript
    setup = Transcript.decode(one).setup
    assert list(setup.identities) == [host_id.public_key, victim]
    assert refusals and refusals[0][2:4] == [SMALL_ORDER, "key"]
