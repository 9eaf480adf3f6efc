"""EIP-2537's G1 precompiles over arkworks, for the EVM harness (peers/chain/evm.py).

py-evm 0.12.1b1 implements Prague's BLS12-381 precompiles faithfully, but on py_ecc in
pure Python: measured here, a 64-term G1MSM took 1.6 s against 0.06 s for the same call
(and the same 442,368 gas) below, and a whole Chaum-Pedersen check 0.18 s against 0.055
s; the shuffle checks to come take MSMs of hundreds of terms. The three precompiles the
contracts call (G1ADD 0x0b, G1MSM 0x0c, MAP_FP_TO_G1 0x10) are done here by
py-arkworks-bls12381, the library protocol/ already uses, with py-evm's own gas constants
and the same refusals (EIP-2537: a field element is 64 bytes below p, (0, 0) is the point
at infinity, points must be on the curve, G1MSM's also in the subgroup; any refusal burns
the gas the call was given). They are registered only in `FastPragueVM`, a subclass, so
nothing of py-evm is patched in place; `test_chain_primitives.py` compares them with
py-evm's on valid and invalid inputs.
"""

from __future__ import annotations

from eth.abc import ComputationAPI
from eth.exceptions import VMError
from eth.precompiles.bls12_381.constants import (
    BLS12_G1_ADD_GAS,
    BLS12_G1_MSM_GAS,
    BLS12_MAP_FP_G1_GAS,
    G1_MSM_DISCOUNTS,
    G1_MSM_MAX_DISCOUNT,
    MSM_MULTIPLIER,
)
from py_arkworks_bls12381 import G1Point, Scalar

from .hints import P, R

POINT_BYTES = 128
PAIR_BYTES = 160   # a point and a 32-byte scalar


def _field(data: bytes) -> bytes:
    """A 64-byte field element as arkworks' 48 bytes; VMError unless it is below p (so
    also unless its top 16 bytes are zero)."""
    if int.from_bytes(data, "big") >= P:
        raise VMError("field element >= p")
    return data[16:]


def decode_point(data: bytes, subgroup: bool) -> G1Point:
    """A 128-byte point: on the curve, and in the subgroup if `subgroup` (G1MSM's rule)."""
    xy = _field(data[:64]) + _field(data[64:])
    try:
        if subgroup:
            return G1Point.from_xy_bytes_be(xy)
        return G1Point.from_xy_bytes_unchecked_be(xy)   # checks the curve, not the subgroup
    except Exception:   # arkworks raises its own error types; every one means "refused"
        raise VMError("not a valid G1 point") from None


def encode_point(point: G1Point) -> bytes:
    xy = point.to_xy_bytes_be()   # 96 zero bytes for the point at infinity, as EIP-2537 has
    return bytes(16) + xy[:48] + bytes(16) + xy[48:]


def g1_add(computation: ComputationAPI) -> None:
    """0x0b: the sum of two points of the curve; no subgroup check."""
    data = bytes(computation.msg.data)
    if len(data) != 2 * POINT_BYTES:
        raise VMError("G1ADD takes 256 bytes")
    computation.consume_gas(BLS12_G1_ADD_GAS, reason="BLS12_G1ADD gas")
    total = decode_point(data[:POINT_BYTES], False) + decode_point(data[POINT_BYTES:], False)
    computation.output = encode_point(total)


def g1_msm_gas(k: int) -> int:
    """EIP-2537's price of a k-term G1MSM: k * 12000 * discount(k) / 1000."""
    discount = G1_MSM_DISCOUNTS[k - 1] if k <= len(G1_MSM_DISCOUNTS) else G1_MSM_MAX_DISCOUNT
    return int(k * BLS12_G1_MSM_GAS * discount // MSM_MULTIPLIER)


def g1_msm(computation: ComputationAPI) -> None:
    """0x0c: sum k_i * P_i over points of the subgroup; a scalar may be any 32 bytes (a
    point of the subgroup has order r, so k_i mod r gives the same product)."""
    data = bytes(computation.msg.data)
    if not data or len(data) % PAIR_BYTES:
        raise VMError("G1MSM takes a multiple of 160 bytes")
    k = len(data) // PAIR_BYTES
    computation.consume_gas(g1_msm_gas(k), reason="BLS12_G1MSM gas")
    pairs = [data[i:i + PAIR_BYTES] for i in range(0, len(data), PAIR_BYTES)]
    points = [decode_point(pair[:POINT_BYTES], True) for pair in pairs]
    scalars = [Scalar(int.from_bytes(pair[POINT_BYTES:], "big") % R) for pair in pairs]
    computation.output = encode_point(G1Point.multiexp_unchecked(points, scalars))


def map_fp_to_g1(computation: ComputationAPI) -> None:
    """0x10: RFC 9380's simplified SWU map of one field element, cofactor cleared."""
    data = bytes(computation.msg.data)
    if len(data) != 64:
        raise VMError("MAP_FP_TO_G1 takes 64 bytes")
    computation.consume_gas(BLS12_MAP_FP_G1_GAS, reason="BLS12_MAP_FP_TO_G1 gas")
    computation.output = encode_point(G1Point.map_from_fp_be(_field(data)))


#: address (the 20-byte form py-evm keys its precompiles by) -> implementation.
FAST_G1_PRECOMPILES = {
    (0x0B).to_bytes(20, "big"): g1_add,
    (0x0C).to_bytes(20, "big"): g1_msm,
    (0x10).to_bytes(20, "big"): map_fp_to_g1,
}
