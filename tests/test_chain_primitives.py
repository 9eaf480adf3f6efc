"""The primitive checks of bls12381g1-sha256 inside real chain VMs agree with the suite's
vectors (peers/chain, the base of issue 32).

Every entry of spec/vectors/suites/bls12381g1-sha256/ that a primitive can judge runs
through the Chialisp programs (peers/chain/clsp) under chia_rs and through the Vyper
contract (peers/chain/vy) under py-evm's Prague fork, and must get the vector's outcome
with its code: group.json's elements, scalars and hashes, schnorr.json, dleq.json, and
signatures.json (each signature's outcome, and its key's decoding). Cases the vectors
lack, which a chain program could get wrong, are judged against the reference code:
encodings (the identity's other flag bytes, a point of order 3, the sort flag, an x whose
x^3 + 4 passes p) and proofs with two faults at once (the element must answer first, on
CLVM also under RELAXED_BLS, which Chia's hard fork 2 turns on). py-arkworks' precompiles
are compared with py-evm's. Costs are measured and must fit a Chia block and an Ethereum
transaction; `-s` prints their medians.

Needs the `[chain]` extra (chia_rs, clvm_tools_rs, py-evm, vyper); skipped without it.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

import pytest
from conftest import load_vectors, skip_without_chain, vector_params

skip_without_chain()

import chia_rs  # noqa: E402
from eth.vm.forks.prague import PragueVM  # noqa: E402
from py_arkworks_bls12381 import G1Point, Scalar  # noqa: E402

from peers.chain import clvm_checks  # noqa: E402
from peers.chain.abi import Bytes, Words, decode_word  # noqa: E402
from peers.chain.clvm import BLOCK_COST_LIMIT, as_int, run_program  # noqa: E402
from peers.chain.codes import (  # noqa: E402
    SPEC_CODES,
    chialisp_codes,
    code_of,
    code_table,
    vyper_codes,
)
from peers.chain.errors import ClvmAbort, EvmRevert  # noqa: E402
from peers.chain.evm import TX_GAS_CAP, EvmHarness  # noqa: E402
from peers.chain.evm_checks import EvmChecks  # noqa: E402
from peers.chain.evm_precompiles import encode_point  # noqa: E402
from peers.chain.hints import P, decoding_hint  # noqa: E402
from protocol.context import Context  # noqa: E402
from protocol.dleq import DleqProof, verify_dleq  # noqa: E402
from protocol.errors import DealerlessError  # noqa: E402
from protocol.schnorr import SchnorrProof, verify_key  # noqa: E402
from protocol.suite import suite  # noqa: E402
from protocol.version import PROTOCOL  # noqa: E402

BLS = suite("bls12381g1-sha256", PROTOCOL)
V = {name: load_vectors(name, BLS)
     for name in ("group", "schnorr", "dleq", "signatures")}
VMS = ["clvm", "evm"]


@pytest.fixture(scope="module")
def evm() -> EvmChecks:
    return EvmChecks()


@pytest.fixture(params=VMS)
def vm(request: pytest.FixtureRequest, evm: EvmChecks) -> Any:
    """The checks of one VM: clvm_checks' functions or the deployed contract's."""
    return clvm_checks if request.param == "clvm" else evm


def cases(name: str) -> list[Any]:
    return vector_params(V[name])


def h(vec: dict[str, Any], key: str) -> bytes:
    return bytes.fromhex(vec[key])


def context(vec: dict[str, Any]) -> tuple[bytes, int, int]:
    c = vec["context"]
    return bytes.fromhex(c["game_id"]), c["step"], c["seat"]


def test_both_programs_number_the_codes_alike() -> None:
    assert set(code_table().values()) == {"ok", *SPEC_CODES}
    assert vyper_codes() == chialisp_codes()


@pytest.mark.parametrize("vec", V["group"]["points"], ids=lambda v: v["name"])
def test_element_decoding(vm: Any, vec: dict[str, Any]) -> None:
    assert vm.decode_point(h(vec, "hex")).code == vec["expected"]


@pytest.mark.parametrize("vec", V["group"]["scalars"], ids=lambda v: v["name"])
def test_scalar_decoding(vm: Any, vec: dict[str, Any]) -> None:
    assert vm.decode_scalar(h(vec, "hex")).code == vec["expected"]


@pytest.mark.parametrize("vec", V["group"]["hash"], ids=lambda v: str(v["parts"]))
def test_suite_hashes(vm: Any, vec: dict[str, Any]) -> None:
    got = vm.suite_hashes(vec["tag"].encode(), [bytes.fromhex(p) for p in vec["parts"]])
    assert got.digest.hex() == vec["digest"]
    if "scalar" in vec:
        assert got.scalar == int(vec["scalar"])
        assert got.point.hex() == vec["point"]


# A "named element" verdict comes from g1_check after the fast CLVM program aborted:
# only an element other than the identity can make it abort (clvm_checks).
NAMED = {"point/length", "point/non-canonical", "point/not-on-curve", "point/torsion"}


@pytest.mark.parametrize("vec", cases("schnorr"))
def test_schnorr(vm: Any, vec: dict[str, Any]) -> None:
    got = vm.verify_schnorr(*context(vec), h(vec, "key"), h(vec, "proof"))
    assert got.code == vec["expected"]
    assert (got.path == "named element") == (vm is clvm_checks and got.code in NAMED)


@pytest.mark.parametrize("vec", cases("dleq"))
def test_dleq(vm: Any, vec: dict[str, Any]) -> None:
    got = vm.verify_dleq(*context(vec), h(vec, "key"), h(vec, "c1"), h(vec, "share"),
                         h(vec, "proof"))
    assert got.code == vec["expected"]
    assert (got.path == "named element") == (vm is clvm_checks and got.code in NAMED)


@pytest.mark.parametrize("vec", cases("signatures"))
def test_frame_signature(vm: Any, vec: dict[str, Any]) -> None:
    got = vm.verify_frame_signature(h(vec, "key"), h(vec, "message"), h(vec, "signature"))
    assert got.code == vec["expected"]
    assert vm.decode_point(h(vec, "key")).code == vec["key_check"]


def _encoding(point: G1Point, flip_sort: bool = False) -> bytes:
    data = bytearray(point.to_compressed_bytes())
    data[0] ^= 0x20 if flip_sort else 0
    return bytes(data)


def _off_subgroup(x: int) -> bytes:
    """The compressed encoding of the first curve point at or after x (not in G1)."""
    while pow(x ** 3 + 4, (P - 1) // 2, P) != 1:
        x += 1
    return (x | 1 << 383).to_bytes(48, "big")


MORE_ENCODINGS = {
    "the identity with the sort flag": bytes([0xE0]) + bytes(47),
    "the identity without the compressed flag": bytes([0x40]) + bytes(47),
    "the infinity flag and x = 1": bytes([0xC0]) + bytes(46) + b"\x01",
    "x = 0, a point of order 3": bytes([0x80]) + bytes(47),
    "-G: the sort flag set": _encoding(-G1Point()),
    "5G with its sort flag flipped (-5G)": _encoding(G1Point() * Scalar(5), True),
    "x = p - 1 with the compressed flag": (P - 1 | 1 << 383).to_bytes(48, "big"),
    "all ones": b"\xff" * 48,
    "a point off the subgroup, sort flag set": bytes([_off_subgroup(10 ** 40)[0] | 0x20])
    + _off_subgroup(10 ** 40)[1:],
}


def reference(check: Callable[[], object]) -> str:
    try:
        check()
    except DealerlessError as exc:
        return exc.code
    return "ok"


@pytest.mark.parametrize("encoding", list(MORE_ENCODINGS.values()), ids=list(MORE_ENCODINGS))
def test_more_encodings_as_the_reference_decodes_them(vm: Any, encoding: bytes) -> None:
    expected = reference(lambda: suite("bls12381g1-sha256", PROTOCOL).decode_point(encoding))
    assert vm.decode_point(encoding).code == expected


def _with(file: str, case: str, **changes: str) -> dict[str, Any]:
    """The positive vector `case` of `file` with fields taken from its negatives, by name:
    two faults at once, which no vector has."""
    vs = V[file]
    vec = dict(next(v for v in vs["positive"] if v["name"] == case))
    for field, negative in changes.items():
        vec[field] = next(n[field] for n in vs["negative"] if n["name"] == negative)
    return vec


MIXED = {
    "schnorr: torsion key, short proof": ("schnorr", _with(
        "schnorr", "schnorr-1", key="torsion key", proof="proof one byte short")),
    "schnorr: non-canonical key, response >= L": ("schnorr", _with(
        "schnorr", "schnorr-1", key="non-canonical key", proof="response >= L")),
    "schnorr: key off the curve, short proof": ("schnorr", _with(
        "schnorr", "schnorr-1", key="key not on the curve", proof="proof one byte short")),
    "dleq: torsion share, challenge >= L": ("dleq", _with(
        "dleq", "dleq-1", share="torsion share", proof="challenge >= L")),
    "dleq: non-canonical c1, identity share": ("dleq", _with(
        "dleq", "dleq-1", c1="non-canonical c1", share="identity share")),
    "dleq: non-canonical c1, long proof": ("dleq", _with(
        "dleq", "dleq-1", c1="non-canonical c1", proof="proof one byte long")),
}


def reference_verdict(file: str, vec: dict[str, Any]) -> str:
    """The reference code's outcome, in its order: the elements, then the proof."""
    s = suite("bls12381g1-sha256", PROTOCOL)
    ctx = Context(s, *context(vec))
    if file == "schnorr":
        return reference(lambda: verify_key(s.decode_point(h(vec, "key")),
                                            SchnorrProof.decode(s, h(vec, "proof")), ctx))
    return reference(lambda: verify_dleq(
        s.decode_point(h(vec, "key")), s.decode_point(h(vec, "c1")),
        s.decode_point(h(vec, "share")), DleqProof.decode(s, h(vec, "proof")), ctx))


@pytest.mark.parametrize("relaxed_bls", [False, True], ids=["clvm", "clvm-relaxed-bls"])
@pytest.mark.parametrize("name", list(MIXED))
def test_an_element_answers_before_the_proof_on_clvm(name: str, relaxed_bls: bool) -> None:
    """Also under RELAXED_BLS (Chia's hard fork 2), where g1_negate stops decoding."""
    file, vec = MIXED[name]
    flags = chia_rs.RELAXED_BLS if relaxed_bls else 0
    if file == "schnorr":
        got = clvm_checks.verify_schnorr(*context(vec), h(vec, "key"), h(vec, "proof"),
                                         extra_flags=flags)
    else:
        got = clvm_checks.verify_dleq(*context(vec), h(vec, "key"), h(vec, "c1"),
                                      h(vec, "share"), h(vec, "proof"), extra_flags=flags)
    assert got.code == reference_verdict(file, vec) != "ok"


@pytest.mark.parametrize("name", list(MIXED))
def test_an_element_answers_before_the_proof_on_the_evm(evm: EvmChecks, name: str) -> None:
    file, vec = MIXED[name]
    if file == "schnorr":
        got = evm.verify_schnorr(*context(vec), h(vec, "key"), h(vec, "proof"))
    else:
        got = evm.verify_dleq(*context(vec), h(vec, "key"), h(vec, "c1"), h(vec, "share"),
                              h(vec, "proof"))
    assert got.code == reference_verdict(file, vec) != "ok"


def decode_with_hint(evm: EvmChecks, encoding: bytes, hint: int) -> tuple[str, str]:
    """The two VMs' decoding of `encoding` under a hint of our choosing."""
    clvm = code_of(as_int(run_program("g1_check.clsp", [encoding, hint]).result))
    out, _ = evm.harness.call(evm.contract, "decode_point",
                              [Bytes(encoding), Words((hint >> 256, hint % (1 << 256)))])
    return clvm, code_of(decode_word(out, 0))


@pytest.mark.parametrize("name", ["base point G", "x = 1, off the curve",
                                  "x = 4, outside the subgroup"])
def test_either_square_root_is_a_hint(evm: EvmChecks, name: str) -> None:
    vec = next(p for p in V["group"]["points"] if p["name"] == name)
    w = decoding_hint(h(vec, "hex"))
    assert decode_with_hint(evm, h(vec, "hex"), P - w) == (vec["expected"],) * 2


def test_a_wrong_hint_withholds_the_verdict_and_never_changes_it(evm: EvmChecks) -> None:
    g = bytes.fromhex(V["group"]["points"][0]["hex"])
    wrong = decoding_hint(g) + 1
    with pytest.raises(ClvmAbort):
        run_program("g1_check.clsp", [g, wrong])
    with pytest.raises(EvmRevert):
        evm.harness.call(evm.contract, "decode_point",
                         [Bytes(g), Words((wrong >> 256, wrong % (1 << 256)))])


def _g1(k: int) -> bytes:
    return encode_point(G1Point() * Scalar(k))


def test_the_arkworks_precompiles_answer_as_py_evms_own() -> None:
    """Same output, same gas, same refusals (a refused call burns the gas it was given)."""
    torsion = encode_point(G1Point.from_compressed_bytes_unchecked(
        bytes([0x80]) + bytes(46) + b"\x04"))
    off_curve = (bytes(16) + (1).to_bytes(48, "big")) * 2
    calls = [
        (0x0B, _g1(1) + _g1(5)), (0x0B, _g1(1) + torsion), (0x0B, _g1(1) + off_curve),
        (0x0B, bytes(256)), (0x0B, _g1(1)),
        (0x0C, _g1(1) + (7).to_bytes(32, "big") + _g1(5) + b"\xff" * 32),
        (0x0C, torsion + (1).to_bytes(32, "big")), (0x0C, bytes(128) + (3).to_bytes(32, "big")),
        (0x10, bytes(16) + (12345).to_bytes(48, "big")), (0x10, bytes(16) + P.to_bytes(48, "big")),
    ]
    theirs, ours = EvmHarness(PragueVM), EvmHarness()

    def outcome(harness: EvmHarness, address: int, data: bytes) -> tuple[bytes | str, int]:
        try:
            out, gas = harness.transact(address.to_bytes(20, "big"), data, hex(address))
        except EvmRevert as exc:
            return "refused", exc.gas_used
        return out, gas.execution

    for address, data in calls:
        assert outcome(ours, address, data) == outcome(theirs, address, data)


def test_every_check_fits_a_block_and_a_transaction(evm: EvmChecks) -> None:
    """The positive vectors' costs: within a Chia block and EIP-7825's transaction cap."""
    s, d, g = (V[n]["positive"] for n in ("schnorr", "dleq", "signatures"))
    runs: dict[str, Callable[[Any], list[Any]]] = {
        "decode element": lambda c: [c.decode_point(h(p, "hex"))
                                     for p in V["group"]["points"] if p["expected"] == "ok"],
        "schnorr": lambda c: [c.verify_schnorr(*context(v), h(v, "key"), h(v, "proof"))
                              for v in s],
        "dleq": lambda c: [c.verify_dleq(*context(v), h(v, "key"), h(v, "c1"),
                                         h(v, "share"), h(v, "proof")) for v in d],
        "frame signature": lambda c: [c.verify_frame_signature(
            h(v, "key"), h(v, "message"), h(v, "signature")) for v in g],
    }
    for name, run in runs.items():
        clvm, on_evm = run(clvm_checks), run(evm)
        assert all(v.ok for v in clvm + on_evm)
        total = statistics.median(v.cost.total for v in clvm)
        tx = statistics.median(v.cost.transaction for v in on_evm)
        assert total < BLOCK_COST_LIMIT and tx < TX_GAS_CAP
        print(f"{name}: CLVM {statistics.median(v.cost.run for v in clvm):,} run + "
              f"{statistics.median(v.cost.byte_cost for v in clvm):,} bytes = {total:,} "
              f"({total / BLOCK_COST_LIMIT:.3%} of a block); EVM "
              f"{statistics.median(v.cost.execution for v in on_evm):,} execution, "
              f"{tx:,} transaction")
