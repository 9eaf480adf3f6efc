"""Frame-key bindings (spec/12-peers.md 12.3 "Authentication", peer protocol 10): in
bls12381g1-sha256 every joiner checks each seat's binding of its G1 frame key to its
identity key, so a host cannot show one joiner another seat's identity with someone
else's frame key, and an invitee cannot announce a frame key it does not hold."""

from __future__ import annotations

import pytest

from peers.net.messages import Offer, check_frame_key, hello_commitment, read_roster
from protocol.errors import EncodingError
from protocol.handshake_auth import bind_frame_key
from protocol.identity import Identity
from protocol.suite import suite

BLS, RIST = "bls12381g1-sha256", "ristretto255-sha512"
RID = bytes(range(16))
HOST, J1, ALICE, MALLORY = (Identity(bytes([i]) * 32) for i in (1, 2, 3, 4))
NONCES = [bytes([i]) * 32 for i in (9, 10, 11)]


def _roster(name: str, keys: list[Identity], frames: list[Identity],
            binders: list[Identity]) -> list[object]:
    played = suite(name, 3)
    return ["roster", [k.public_key for k in keys], [hello_commitment(n) for n in NONCES],
            [f.frame_key(played) for f in frames],
            [bind_frame_key(b, played, RID, seat) for seat, b in enumerate(binders)]]


def _offer(name: str) -> Offer:
    return Offer(HOST.public_key, hello_commitment(NONCES[0]), "bram", {}, 3, 0, (), name)


def test_a_roster_pairing_alice_with_mallorys_frame_key_is_refused() -> None:
    """The reviewer's misbind: R1 names Alice at seat 2 with Mallory's frame key. Mallory
    can bind its own frame key, but not with Alice's identity signature."""
    body = _roster(BLS, [HOST, J1, ALICE], [HOST, J1, MALLORY], [HOST, J1, MALLORY])
    roster = read_roster(body, _offer(BLS))
    with pytest.raises(EncodingError, match="seat 2: its identity key did not sign") as err:
        roster.check_bindings(RID, BLS)
    assert err.value.code == "roster/binding"
    # Mallory's honest roster entry binds, and so does the whole roster then.
    honest = _roster(BLS, [HOST, J1, MALLORY], [HOST, J1, MALLORY], [HOST, J1, MALLORY])
    read_roster(honest, _offer(BLS)).check_bindings(RID, BLS)


def test_a_binding_is_for_its_seat_and_table() -> None:
    played = suite(BLS, 3)
    key, fk = ALICE.public_key, ALICE.frame_key(played)
    good = bind_frame_key(ALICE, played, RID, 2)
    check_frame_key(BLS, key, fk, RID, 2, good)
    for rid, seat in ((RID, 1), (bytes(16), 2)):
        with pytest.raises(EncodingError, match="did not sign"):
            check_frame_key(BLS, key, fk, rid, seat, good)


def test_no_one_announces_a_frame_key_it_does_not_hold() -> None:
    """Frame-key squatting: Mallory signs the binding of Alice's G1 key with its own
    identity key, but cannot make the frame key's own signature (proof of possession)."""
    played = suite(BLS, 3)
    alice_fk = ALICE.frame_key(played)
    squat = (bind_frame_key(MALLORY, played, RID, 2)[:64]
             + bind_frame_key(ALICE, played, RID, 2)[64:])
    with pytest.raises(EncodingError, match="identity key did not sign"):
        check_frame_key(BLS, MALLORY.public_key, alice_fk, RID, 2, squat)
    from protocol.handshake_auth import binding_bytes
    message = binding_bytes(RID, 2, MALLORY.public_key, alice_fk)
    forged = MALLORY.sign(message) + played.signer.sign(MALLORY.seed, message, b"")
    with pytest.raises(EncodingError, match="no proof that this seat holds it") as err:
        check_frame_key(BLS, MALLORY.public_key, alice_fk, RID, 2, forged)
    assert err.value.code == "hello/frame-key"


def test_ed25519_suites_bind_by_the_setup_itself() -> None:
    body = _roster(RIST, [HOST, J1, ALICE], [HOST, J1, ALICE], [HOST, J1, ALICE])
    assert body[4] == [b"", b"", b""]
    read_roster(body, _offer(RIST)).check_bindings(RID, RIST)
    misbound = _roster(RIST, [HOST, J1, ALICE], [HOST, J1, MALLORY], [HOST, J1, ALICE])
    with pytest.raises(EncodingError, match="seat 2: in ristretto255-sha512 a frame key is"):
        read_roster(misbound, _offer(RIST)).check_bindings(RID, RIST)
