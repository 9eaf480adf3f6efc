"""The handshake's authentication (spec/12-peers.md 12.3): the vectors of
spec/vectors/handshake.json, and seats that ignore forged, unsigned and other hosts'
messages, refuse invalid keys, and seat nobody who lacks the invitation's secret."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from invites import join_hello, table_of
from test_network import config, transcripts

from peers.net.config import HOST, JOIN, PeerError
from peers.net.invitation import parse_invitation
from peers.net.link import MemoryLink
from peers.net.messages import PROTOCOL_VERSION, hello_commitment, read_join_hello
from peers.net.peer import Peer
from protocol.canonical import pack, unpack
from protocol.errors import DealerlessError
from protocol.group import decode_scalar
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
from protocol.verifier import replay

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "spec" / "vectors" /
                      "handshake.json").read_text())
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
        else:
            with pytest.raises(PeerError):
                parse_invitation(case["url"])


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


def test_ignored_vectors_fail_the_check_they_name() -> None:
    rid = bytes.fromhex(VECTORS["pake"]["rid"])
    host_key = bytes.fromhex(VECTORS["signatures"][0]["key"])
    for case in VECTORS["ignored"]:
        obj = unpack(bytes.fromhex(case["wire"]), 1 << 16)
        if case["check"] == "pin":
            assert host_pin(obj[3]) != host_pin(host_key)
        elif case["check"] == "shape":
            assert len(obj) != 6
        elif case["check"] == "handshake/bad-signature":
            with pytest.raises(DealerlessError) as bad:
                check_signature(host_key, rid, obj)
            assert bad.value.code == case["check"]
        else:
            with pytest.raises(DealerlessError) as bad:
                read_join_hello(obj[:-1])
            assert bad.value.code == case["check"]


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
                         b"", b""]
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
