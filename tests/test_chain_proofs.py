"""The two proofs dealerless/3 introduced or changed run inside real chain VMs and agree
with the suite's vectors: one Chaum-Pedersen proof for a batch of shares (spec/06-proofs.md
6.3.1) and the shuffle proof with its t^ checked together (spec/07-shuffle.md 7.5, 7.5.1,
format 7.6).

Every vector of spec/vectors/suites/bls12381g1-sha256/ for them runs through the Chialisp
programs (peers/chain/clsp) under chia_rs and through the Vyper contracts
(peers/chain/vy) under py-evm's Prague fork, and must get the vector's outcome with its
code: dleq.json's `batch` section, shuffle.json (and the values its verifier computes,
`u` and `t`, on CLVM) and the three shuffle rounds of deck.json. Cases the vectors lack,
which a chain program could get wrong, are judged against the reference code (protocol/):
two faults at once (the one that comes first in the reference's order must answer, on
CLVM also under RELAXED_BLS), an element of the wrong length, decks of 1 and 0. Costs
are measured and must fit a Chia block (11,000,000,000 with 12,000 a byte) and EIP-7825's
transaction cap (2^24 gas), up to the shuffle of 91 tiles and a batch of 91 shares (made
by the reference prover); `-s` prints them. The file takes about a minute of CPU, most
of it py-evm interpreting the contracts (after some 12 s compiling and deploying them,
no test takes more than 6 s).

Needs the `[chain]` extra (chia_rs, clvm_tools_rs, py-evm, vyper); skipped without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import load_vectors, skip_without_chain, vector_params

skip_without_chain()

import chia_rs  # noqa: E402

from peers.chain import clvm_proofs  # noqa: E402
from peers.chain.clvm import BLOCK_COST_LIMIT  # noqa: E402
from peers.chain.evm import BLOCK_GAS_LIMIT, TX_GAS_CAP  # noqa: E402
from peers.chain.evm_proofs import EvmProofs, generator_encodings  # noqa: E402
from protocol.context import Context  # noqa: E402
from protocol.deck import initial_deck, shuffle_round  # noqa: E402
from protocol.dleq import DleqProof  # noqa: E402
from protocol.dleq_batch import prove_dleq_batch, verify_dleq_batch  # noqa: E402
from protocol.elgamal import decode_deck, encode_deck  # noqa: E402
from protocol.errors import DealerlessError  # noqa: E402
from protocol.shuffle import ShuffleProof, verify_shuffle  # noqa: E402
from protocol.suite import suite  # noqa: E402
from protocol.tiles import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, TileSet  # noqa: E402
from protocol.version import PROTOCOL  # noqa: E402

S = suite("bls12381g1-sha256", PROTOCOL)
V = {name: load_vectors(name, S)
     for name in ("dleq", "shuffle", "deck", "tiles")}
BATCH, SHUFFLE, DECK = V["dleq"]["batch"], V["shuffle"], V["deck"]
VMS = ["clvm", "evm"]


@pytest.fixture(scope="module")
def evm() -> EvmProofs:
    return EvmProofs()


@pytest.fixture(params=VMS)
def vm(request: pytest.FixtureRequest, evm: EvmProofs) -> Any:
    """The checks of one VM: clvm_proofs' functions or the deployed contracts'."""
    return clvm_proofs if request.param == "clvm" else evm


def h(vec: dict[str, Any], key: str) -> bytes:
    return bytes.fromhex(vec[key])


def context(vec: dict[str, Any]) -> tuple[bytes, int, int]:
    c = vec["context"]
    return bytes.fromhex(c["game_id"]), c["step"], c["seat"]


def batch_args(vec: dict[str, Any]) -> tuple[Any, ...]:
    return (*context(vec), h(vec, "key"), [bytes.fromhex(c) for c in vec["c1s"]],
            [bytes.fromhex(d) for d in vec["shares"]], h(vec, "proof"))


def shuffle_args(vec: dict[str, Any]) -> tuple[Any, ...]:
    return (*context(vec), h(vec, "joint_key"), h(vec, "deck_in"), h(vec, "deck_out"),
            h(vec, "proof"))


# A "named element" verdict comes from g1_check after the fast CLVM program aborted:
# only an element other than the identity can make it abort (clvm_checks).
NAMED = {"point/length", "point/non-canonical", "point/not-on-curve", "point/torsion"}


def check_path(vm: Any, got: Any) -> None:
    assert (got.path == "named element") == (vm is clvm_proofs and got.code in NAMED)


@pytest.mark.parametrize("vec", vector_params(BATCH))
def test_dleq_batch(vm: Any, vec: dict[str, Any]) -> None:
    got = vm.verify_dleq_batch(*batch_args(vec))
    assert got.code == vec["expected"]
    check_path(vm, got)


@pytest.mark.parametrize("vec", vector_params(SHUFFLE))
def test_shuffle(vm: Any, vec: dict[str, Any]) -> None:
    got = vm.verify_shuffle(*shuffle_args(vec))
    assert got.code == vec["expected"]
    check_path(vm, got)


def test_the_shuffle_verifier_computes_the_vectors_values_on_clvm() -> None:
    """u_j, t1'..t4_2' (7.5) as the vector lists them; the t^ it lists are those sent."""
    vec = next(v for v in SHUFFLE["positive"] if "t" in v)
    trace = clvm_proofs.shuffle_trace(*shuffle_args(vec))
    n, proof = vec["n"], h(vec, "proof")
    assert [str(u) for u in trace.u] == vec["u"]
    assert [p.hex() for p in trace.t] == vec["t"][:5]
    assert [proof[96 * n + 48 * i:96 * n + 48 * (i + 1)].hex() for i in range(n)] \
        == vec["t"][5:]
    assert trace.holds


def deck_rounds() -> list[tuple[Any, ...]]:
    """deck.json's rounds, each shuffling the deck the one before it gave."""
    rounds, deck = [], h(DECK, "initial_deck")
    for r in DECK["rounds"]:
        rounds.append((*context(r), h(DECK, "joint_key"), deck, h(r, "deck_out"),
                       h(r, "proof")))
        deck = h(r, "deck_out")
    return rounds


@pytest.mark.parametrize("rnd", range(len(DECK["rounds"])), ids=lambda i: f"round {i}")
def test_deck_rounds(vm: Any, rnd: int) -> None:
    assert vm.verify_shuffle(*deck_rounds()[rnd]).code == "ok"


def test_the_contracts_generators_are_the_vectors() -> None:
    gens = V["tiles"]["generators"]
    assert [g.hex() for g in generator_encodings()] == [gens["h"], *gens["h_i"]]


# --- cases the vectors lack, judged against the reference ---------------------------------

def reference(check: Callable[[], object]) -> str:
    try:
        check()
    except DealerlessError as exc:
        return exc.code
    return "ok"


def reference_batch(args: tuple[Any, ...]) -> str:
    game_id, step, seat, key, c1s, shares, proof = args
    ctx = Context(S, game_id, step, seat)
    return reference(lambda: verify_dleq_batch(
        S.decode_point(key), [S.decode_point(c) for c in c1s],
        [S.decode_point(d) for d in shares], DleqProof.decode(S, proof), ctx))


def reference_shuffle(args: tuple[Any, ...]) -> str:
    """7.5's order, as tests/test_vectors.py's check_shuffle decodes a vector."""
    game_id, step, seat, key, deck_in, deck_out, proof = args
    ctx = Context(S, game_id, step, seat)

    def check() -> None:
        e = decode_deck(S, deck_in)
        e2 = decode_deck(S, deck_out)
        pi = ShuffleProof.decode(S, proof, len(e))
        verify_shuffle(e, e2, S.decode_point(key), pi, ctx)
    return reference(check)


def _batch_with(**changes: Any) -> tuple[Any, ...]:
    """batch-4 with some of its elements or its proof replaced (index -> bytes)."""
    vec = next(v for v in BATCH["positive"] if v["name"] == "batch-4")
    game_id, step, seat, key, c1s, shares, proof = batch_args(vec)
    for j, p in changes.get("c1s", {}).items():
        c1s[j] = p
    for j, p in changes.get("shares", {}).items():
        shares[j] = p
    return (game_id, step, seat, changes.get("key", key), c1s, shares,
            changes.get("proof", proof))


def _negative(vs: dict[str, Any], name: str, field: str) -> Any:
    return next(n[field] for n in vs["negative"] if n["name"].endswith(name))


TORSION = bytes([0x80]) + bytes(46) + b"\x04"          # x = 4: on the curve, not in G1
OFF_CURVE = bytes([0x80]) + bytes(46) + b"\x01"        # x = 1: x^3 + 4 is no square
NON_CANONICAL = bytes([0x80]) + b"\xff" * 47            # x >= p
IDENTITY = bytes([0xC0]) + bytes(47)
LONG_PROOF = bytes.fromhex(_negative(BATCH, "proof one byte long", "proof"))
HIGH_C = bytes.fromhex(_negative(BATCH, "challenge >= L", "proof"))

MIXED_BATCHES = {
    "torsion c1_1, a long proof": _batch_with(c1s={1: TORSION}, proof=LONG_PROOF),
    "non-canonical D_3, challenge >= L": _batch_with(shares={3: NON_CANONICAL}, proof=HIGH_C),
    "torsion c1_3 before an identity D_0": _batch_with(c1s={3: TORSION}, shares={0: IDENTITY}),
    "identity c1_2 before a torsion D_0": _batch_with(c1s={2: IDENTITY}, shares={0: TORSION}),
    "a 47-byte share": _batch_with(shares={2: bytes(47)}),
    "the identity as the key": _batch_with(key=IDENTITY),
    "a torsion key and a long proof": _batch_with(key=TORSION, proof=LONG_PROOF),
    "an off-curve D_1, challenge >= L": _batch_with(shares={1: OFF_CURVE}, proof=HIGH_C),
    "an off-curve c1_0 and a torsion D_0": _batch_with(c1s={0: OFF_CURVE}, shares={0: TORSION}),
}


def _shuffle_with(case: str, deck_out: bytes | None = None,
                  proof: Callable[[bytes], bytes] | None = None) -> tuple[Any, ...]:
    vec = next(v for v in SHUFFLE["positive"] if v["name"] == case)
    args = list(shuffle_args(vec))
    if deck_out is not None:
        args[5] = deck_out
    if proof is not None:
        args[6] = proof(args[6])
    return tuple(args)


def _put(at: int, data: bytes) -> Callable[[bytes], bytes]:
    return lambda proof: proof[:at] + data + proof[at + len(data):]


OUT4 = h(SHUFFLE["positive"][0], "deck_out")
MIXED_SHUFFLES = {
    "torsion c2'_1, a proof one scalar short": _shuffle_with(
        "shuffle-4", OUT4[:144] + TORSION + OUT4[192:], lambda p: p[:-32]),
    "non-canonical c^_0, s1 >= L": _shuffle_with(
        "shuffle-4", proof=lambda p: _put(192, NON_CANONICAL)(_put(4 * 144 + 32, b"\xff" * 32)(p))),
    "a torsion c1'_0 before an identity c_1": _shuffle_with(
        "shuffle-4", TORSION + OUT4[48:], _put(48, IDENTITY)),
    "an output deck one ciphertext short and a proof one scalar short": _shuffle_with(
        "shuffle-4", OUT4[:-96], lambda p: p[:-32]),
    "an output deck one ciphertext short, a torsion t^_0": _shuffle_with(
        "shuffle-4", OUT4[:-96], _put(8 * 48, TORSION)),
    "repeated c1 and s'_3 >= L": _shuffle_with(
        "shuffle-4", OUT4[:96] + OUT4[:48] + OUT4[144:], _put(4 * 208 + 128, b"\xff" * 32)),
    "an off-curve c2'_3, s4 >= L": _shuffle_with(
        "shuffle-4", OUT4[:-48] + OFF_CURVE, _put(4 * 144 + 128, b"\xff" * 32)),
    "an off-curve t^_2 after a torsion c^_1": _shuffle_with(
        "shuffle-4", proof=lambda p: _put(10 * 48, OFF_CURVE)(_put(5 * 48, TORSION)(p))),
}


@pytest.mark.parametrize("name", list(MIXED_BATCHES))
def test_the_first_fault_in_the_references_order_answers_a_batch(vm: Any, name: str) -> None:
    args = MIXED_BATCHES[name]
    assert vm.verify_dleq_batch(*args).code == reference_batch(args) != "ok"


@pytest.mark.parametrize("name", list(MIXED_SHUFFLES))
def test_the_first_fault_in_the_references_order_answers_a_shuffle(vm: Any, name: str) -> None:
    args = MIXED_SHUFFLES[name]
    assert vm.verify_shuffle(*args).code == reference_shuffle(args) != "ok"


@pytest.mark.parametrize("name", ["torsion c1_1, a long proof", "a torsion key and a long proof"])
def test_an_element_answers_first_under_relaxed_bls(name: str) -> None:
    """Chia's hard fork 2 turns RELAXED_BLS on: g1_negate stops decoding, which the
    programs do not rely on."""
    args = MIXED_BATCHES[name]
    got = clvm_proofs.verify_dleq_batch(*args, extra_flags=chia_rs.RELAXED_BLS)
    assert got.code == reference_batch(args)
    shuffle = MIXED_SHUFFLES["non-canonical c^_0, s1 >= L"]
    got = clvm_proofs.verify_shuffle(*shuffle, extra_flags=chia_rs.RELAXED_BLS)
    assert got.code == reference_shuffle(shuffle)


GAME = bytes(range(32))


def made_shuffle(n: int, ts: TileSet) -> tuple[Any, ...]:
    """A second-round shuffle of n tiles by the reference prover (the first round's input
    has every c1 = G, 5.4)."""
    key = S.group.base_mul(123456789)
    first, _ = shuffle_round(initial_deck(S, ts, ts.tiles[:n], key), key,
                             Context(S, GAME, 1, 0), bytes(32), b"a" * 32)
    out, proof = shuffle_round(first, key, Context(S, GAME, 2, 1), bytes([1]) * 32, b"b" * 32)
    return (GAME, 2, 1, key.data, encode_deck(first), encode_deck(out), proof.encode(S))


def made_batch(n: int) -> tuple[Any, ...]:
    """A batch of n shares by the reference prover, over the c1 of a shuffled deck."""
    deck = decode_deck(S, made_shuffle(n, DOUBLE_TWELVE)[5])
    secret = 987654321
    ctx = Context(S, GAME, 3, 1)
    shares, proof = prove_dleq_batch(secret, [ct.c1 for ct in deck], ctx, bytes(32))
    return (GAME, 3, 1, S.group.base_mul(secret).data, [ct.c1.data for ct in deck],
            [d.data for d in shares], proof.encode(S))


@pytest.mark.parametrize("n", [1, 2])
def test_the_smallest_shuffles(vm: Any, n: int) -> None:
    args = made_shuffle(n, DOUBLE_SIX)
    assert vm.verify_shuffle(*args).code == "ok"
    bad = (*args[:6], _put(3 * 48 * n + 32 * 5, bytes(32))(args[6]))   # s^_0 = 0
    assert vm.verify_shuffle(*bad).code == reference_shuffle(bad) == "shuffle/challenge"


def test_an_empty_input_deck_is_a_size_fault(vm: Any) -> None:
    """N = 0: a proof of 160 bytes decodes (7.6), then 7.5's N >= 1 fails."""
    args = (*made_shuffle(1, DOUBLE_SIX)[:4], b"", OUT4[:96], bytes(160))
    assert vm.verify_shuffle(*args).code == reference_shuffle(args) == "shuffle/size"


# --- what a chain charges --------------------------------------------------------------

def measure(evm: EvmProofs, what: str, args: tuple[Any, ...]) -> str:
    """Both VMs' verdicts (ok) and costs, which must fit a block and a transaction."""
    check = "verify_shuffle" if what == "shuffle" else "verify_dleq_batch"
    clvm, on_evm = getattr(clvm_proofs, check)(*args), getattr(evm, check)(*args)
    assert clvm.ok and on_evm.ok
    assert clvm.cost.total < BLOCK_COST_LIMIT and on_evm.cost.transaction < TX_GAS_CAP
    size = len(args[4]) // 96 if what == "shuffle" else len(args[4])
    return (f"{what} n={size}: CLVM {clvm.cost.run:,} run + {clvm.cost.byte_cost:,} bytes "
            f"({clvm.cost.program_bytes:,} + {clvm.cost.solution_bytes:,}) = "
            f"{clvm.cost.total:,} ({clvm.cost.block_share:.2%} of a block); EVM "
            f"{on_evm.cost.execution:,} execution, {on_evm.cost.transaction:,} transaction "
            f"({on_evm.cost.calldata_bytes:,} bytes of calldata; {on_evm.cost.tx_cap_share:.1%}"
            f" of EIP-7825's cap, {on_evm.cost.transaction / BLOCK_GAS_LIMIT:.1%} of a block)")


def test_the_vectors_fit_a_block_and_a_transaction(evm: EvmProofs) -> None:
    runs = [("batch", batch_args(v)) for v in BATCH["positive"]]
    runs += [("shuffle", shuffle_args(v)) for v in SHUFFLE["positive"]]
    runs += [("shuffle", deck_rounds()[0]), ("shuffle", made_shuffle(28, DOUBLE_SIX))]
    for what, args in runs:
        print(measure(evm, what, args))


@pytest.mark.parametrize("n", [55, 91])
def test_the_largest_decks_fit_a_block_and_a_transaction(evm: EvmProofs, n: int) -> None:
    """Double-nine and double-twelve: the whole deck shuffled, and a batch of its shares."""
    print(measure(evm, "shuffle", made_shuffle(n, DOUBLE_NINE if n == 55 else DOUBLE_TWELVE)))
    print(measure(evm, "batch", made_batch(n)))
