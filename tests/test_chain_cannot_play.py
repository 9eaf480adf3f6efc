"""The "cannot play" proof (spec/06-proofs.md 6.5) runs inside Chia's CLVM and on the EVM
(Prague, EIP-2537) and both agree with the suite's vectors: every case of
spec/vectors/suites/bls12381g1-sha256/cannot_play.json gets its expected code from
clsp/cannot_play.clsp (peers/chain/cannot_play.py, an abort on a bad element named by
g1_check) and from vy/cannot_play.vy (peers/chain/evm_cannot_play.py), case by case. The
tile points CLVM hashes (5.1), and those vy/tiles.vy stores (double-twelve) or hashes
(the other sets), must be tiles.json's. The worst true claim of 6.5.7 (double-twelve, a
hand of 15, 76 forbidden tiles), made by the reference prover at 8 seats, so that each
R_j is computed on chain from c2_j and 7 shares, must fit a Chia block (11,000,000,000
with 12,000 a byte) and EIP-7825's transaction cap (2^24 gas); `-s` prints every cost.

Needs the `[chain]` extra (chia_rs, clvm_tools_rs, py-evm, vyper); skipped without it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import load_vectors, skip_without_chain, vector_params

skip_without_chain()


from peers.chain.cannot_play import (  # noqa: E402
    CannotPlayStatement,
    HandEntry,
    verify_cannot_play,
)
from peers.chain.clvm import BLOCK_COST_LIMIT  # noqa: E402
from peers.chain.clvm_checks import suite_hashes  # noqa: E402
from peers.chain.evm import TX_GAS_CAP  # noqa: E402
from peers.chain.evm_cannot_play import EvmCannotPlay  # noqa: E402
from peers.chain.hints import P, decoding_hint  # noqa: E402
from protocol import cannot_play as ref  # noqa: E402
from protocol.context import Context  # noqa: E402
from protocol.elgamal import Ciphertext  # noqa: E402
from protocol.suite import suite  # noqa: E402
from protocol.tiles import DOUBLE_TWELVE  # noqa: E402
from protocol.version import PROTOCOL  # noqa: E402

S = suite("bls12381g1-sha256", PROTOCOL)
CP = load_vectors("cannot_play", S)
TILES = load_vectors("tiles", S)
L = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


@pytest.fixture(scope="module")
def evm() -> EvmCannotPlay:
    return EvmCannotPlay()


def tile_pair(text: str) -> tuple[int, int]:
    a, b = (int(x) for x in text.split("-"))
    return min(a, b), max(a, b)


def statement(v: dict[str, Any]) -> CannotPlayStatement:
    """A vector's statement as a referee received it: with c2_j and the shares where the
    vector gives them, else the partial opening R_j whole."""
    hand = tuple(
        HandEntry(e["position"], bytes.fromhex(e["c1"]),
                  bytes.fromhex(e["c2"] if "shares" in e else e["partial"]),
                  tuple(bytes.fromhex(d) for d in e.get("shares", ())))
        for e in v["positions"])
    return CannotPlayStatement(v["set"], bytes.fromhex(v["key"]), hand,
                               tuple(tile_pair(t) for t in v["forbidden"]))


@pytest.mark.parametrize("v", vector_params(CP))
def test_vectors(v: dict[str, Any], evm: EvmCannotPlay) -> None:
    """Both VMs give the vector's code (so each other's)."""
    ctx = v["context"]
    game_id, proof = bytes.fromhex(ctx["game_id"]), bytes.fromhex(v["proof"])
    verdict = verify_cannot_play(game_id, ctx["step"], ctx["seat"], statement(v), proof)
    on_evm = evm.verify_cannot_play(game_id, ctx["step"], ctx["seat"], statement(v), proof)
    gas = on_evm.cost
    print(f"\n{v['name']}: {verdict.code}, CLVM {verdict.cost.run:,} run + "
          f"{verdict.cost.byte_cost:,} bytes = {verdict.cost.total:,} ({verdict.path}); "
          f"EVM {on_evm.code}, {gas.execution:,} execution, {gas.transaction:,} transaction")
    assert verdict.code == on_evm.code == v["expected"]
    assert verdict.cost.total < BLOCK_COST_LIMIT
    assert gas.transaction < TX_GAS_CAP


@pytest.mark.parametrize("name", ["double-six", "double-twelve"])
def test_tile_points_are_tiles_json(name: str) -> None:
    """P_t = H2P(TILE, S, a || b), as clsp/cannot_play.clib hashes it (through suite.clib's
    h_point), is the point tiles.json lists for every tile of the set."""
    for entry in TILES["sets"][name]:
        a, b = tile_pair(entry["tile"])
        got = suite_hashes(b"dealerless/h2p/tile", [name.encode(), bytes([a, b])]).point
        assert got.hex() == entry["point"], entry["tile"]


@pytest.mark.parametrize("bad", ["torsion K_0", "K_1 not on the curve"])
@pytest.mark.parametrize("where", ["c2", "share"])
def test_bad_statement_point_on_both(bad: str, where: str, evm: EvmCannotPlay) -> None:
    """A c2_j or share outside the subgroup or off the curve (a G1ADD alone would let the
    first through) gets the same point/* code from both VMs: the proof's bad K, put into
    the statement instead."""
    v = next(n for n in CP["negative"] if n["name"] == bad)
    k = 0 if bad.startswith("torsion") else 1
    point = bytes.fromhex(v["proof"])[48 * k:48 * k + 48]
    good = CP["positive"][0]
    stmt = statement(good)
    e = stmt.hand[2]
    e = HandEntry(e.position, e.c1, point, e.shares) if where == "c2" else \
        HandEntry(e.position, e.c1, e.c2, (e.shares[0], point, *e.shares[2:]))
    stmt = CannotPlayStatement(stmt.set_name, stmt.key, (*stmt.hand[:2], e, *stmt.hand[3:]),
                               stmt.forbidden)
    ctx = good["context"]
    args = (bytes.fromhex(ctx["game_id"]), ctx["step"], ctx["seat"], stmt,
            bytes.fromhex(good["proof"]))
    assert verify_cannot_play(*args).code == evm.verify_cannot_play(*args).code \
        == v["expected"]


def _xy(encoding: bytes) -> bytes:
    """x || y of a valid 48-byte encoding, 48 bytes each (hints.py's square root)."""
    x = int.from_bytes(encoding, "big") & ((1 << 381) - 1)
    y = decoding_hint(encoding)
    if (y > (P - 1) // 2) != bool(encoding[0] & 0x20):
        y = P - y
    return x.to_bytes(48, "big") + y.to_bytes(48, "big")


def test_stored_tile_points_are_tiles_json() -> None:
    """vy/tiles.vy's DOUBLE_TWELVE literal holds tiles.json's points, in canonical order."""
    text = (Path(__file__).resolve().parent.parent / "peers" / "chain" / "vy"
            / "tiles.vy").read_text()
    found = re.search(r'^DOUBLE_TWELVE: constant\(Bytes\[8736\]\) = x"([0-9a-f]{17472})"$',
                      text, re.M)
    assert found is not None
    blob = bytes.fromhex(found.group(1))
    entries = TILES["sets"]["double-twelve"]
    assert [tile_pair(e["tile"]) for e in entries] == list(DOUBLE_TWELVE.tiles)
    for i, entry in enumerate(entries):
        assert blob[96 * i:96 * i + 96] == _xy(bytes.fromhex(entry["point"])), entry["tile"]


@pytest.mark.parametrize("name", ["double-six", "double-nine", "double-twelve"])
def test_evm_tile_points_are_tiles_json(name: str, evm: EvmCannotPlay) -> None:
    """What vy/tiles.vy gives the verifier, stored (double-twelve) or hashed on chain
    (the others), is tiles.json's point for every tile of the set."""
    entries = TILES["sets"][name]
    got = evm.tile_points(name, [tile_pair(e["tile"]) for e in entries])
    assert got == [_xy(bytes.fromhex(e["point"])) for e in entries]


def _scalar(label: str) -> int:
    return int.from_bytes(hashlib.sha256(b"test_chain_cannot_play/" + label.encode()).digest(),
                          "big") % L or 1


def test_worst_true_claim_fits_a_block(evm: EvmCannotPlay) -> None:
    """6.5.7's worst true claim: double-twelve, the hand the 15 tiles with both ends in
    0..4, F every tile with an end in 5..12 (as peers/bench/steps.py's
    cannot_play_statement builds it), at 8 seats: 7 shares a position. On CLVM it fits a
    block; on the EVM, EIP-7825's transaction cap."""
    g, seats, seat = S.group, 8, 0
    xs = [_scalar(f"x{i}") for i in range(seats)]
    joint = g.base_mul(sum(xs) % L)
    ref_hand, hand = [], []
    for j, t in enumerate(t for t in DOUBLE_TWELVE.tiles if t[1] <= 4):
        rho = _scalar(f"rho{j}")
        ct = Ciphertext(g.base_mul(rho), g.add(DOUBLE_TWELVE.point(S, t), g.mul(rho, joint)))
        shares = [g.mul(x, ct.c1) for i, x in enumerate(xs) if i != seat]
        ref_hand.append(ref.HandPosition(2 * j + 1, ct.c1, ref.partial_opening(S, ct, shares)))
        hand.append(HandEntry(2 * j + 1, ct.c1.data, ct.c2.data, tuple(d.data for d in shares)))
    forbidden = tuple(t for t in DOUBLE_TWELVE.tiles if t[1] >= 5)
    key = g.base_mul(xs[seat])
    stmt = ref.CannotPlayStatement(S, DOUBLE_TWELVE, key, tuple(ref_hand), forbidden)
    game_id = bytes(range(32))
    ctx = Context(S, game_id, 7, seat)
    proof = ref.prove_cannot_play(xs[seat], stmt, ctx, bytes(32)).encode(S)
    assert (len(hand), len(forbidden), len(proof)) == (15, 76, 48 * 91 + 96)
    chain = CannotPlayStatement("double-twelve", key.data, tuple(hand), forbidden)
    verdict = verify_cannot_play(game_id, 7, seat, chain, proof)
    cost = verdict.cost
    print(f"\nworst true claim (h 15, f 76, 8 seats): CLVM {cost.run:,} run + "
          f"{cost.byte_cost:,} bytes ({cost.program_bytes:,} program, "
          f"{cost.solution_bytes:,} solution) = {cost.total:,}, {cost.block_share:.2%} of a block")
    assert verdict.code == "ok" and verdict.path == "direct"
    assert cost.total < BLOCK_COST_LIMIT
    bad = bytearray(proof)
    bad[-1] ^= 1          # z_a changed: the challenge no longer matches
    assert verify_cannot_play(game_id, 7, seat, chain, bytes(bad)).code in (
        "cannot-play/challenge", "scalar/out-of-range")

    on_evm = evm.verify_cannot_play(game_id, 7, seat, chain, proof)
    gas = on_evm.cost
    print(f"worst true claim on the EVM: {gas.execution:,} execution, {gas.transaction:,} "
          f"transaction ({gas.calldata_bytes:,} calldata bytes), {gas.tx_cap_share:.2%} of "
          f"EIP-7825's cap; contracts {evm.contract.code_bytes:,} + "
          f"{evm.tiles.code_bytes:,} bytes")
    assert on_evm.code == "ok"
    assert gas.transaction < TX_GAS_CAP
    assert evm.contract.code_bytes <= 24576 and evm.tiles.code_bytes <= 24576   # EIP-170
    assert evm.verify_cannot_play(game_id, 7, seat, chain, bytes(bad)).code \
        == verify_cannot_play(game_id, 7, seat, chain, bytes(bad)).code
