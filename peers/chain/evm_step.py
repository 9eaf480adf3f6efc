"""The single-step check on the EVM: a dispute package judged by vy/step.vy on py-evm.

The contracts read the package's bytes themselves (spec/11-verify.md 11.4 rules 1 to 10),
so their verdict is the chain's: this module deploys them, sends the package and reads
the answer. What it adds is the decoding hint of every element (hints.py): EIP-2537 takes
uncompressed points, so the transaction carries, after the package, a table of every
48-byte candidate of the package that passes rules 0 to 2 of spec/02-group.md 2.5, keyed
by keccak256 of its bytes and sorted by the key (vy/step_lib.vy says why). The driver
does not need to know which elements the contracts read, nor in which order: it collects
every byte string of the package and each 48-byte-aligned piece of one, nested encodings
included (as clvm_step's `_bad_elements`). A wrong hint makes the transaction revert: it
can withhold a verdict, never change one.

The gas is the transaction's (`EvmGas`: execution, and the receipt's gas with the 21,000
base and the calldata); `EvmGas.tx_cap_share` compares it with EIP-7825's 2^24. The
contracts are deployed once per process (`deployment`).
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .abi import WORD, Word, decode_word
from .clvm_step import ChainStep
from .codes import code_of
from .errors import ProgramError
from .evm import Contract, EvmGas, EvmHarness
from .hints import P, decoding_hint, package_strings

POINT = 48
#: The package starts after judge's selector and three words (vy/step_lib.vy HEAD).
HEAD = 4 + 3 * WORD
#: An entry of the hint table: keccak256(element), then w in 48 bytes.
ENTRY = 32 + POINT
#: The stages step.vy runs by DELEGATECALL, in its constructor's order after the helpers;
#: each (and step_hash.vy, step_elements.vy) must lay out step_tx.vy's transient storage
#: alike.
STAGES = ("step_package.vy", "step_state.vy", "step_frame.vy", "step_keys.vy",
          "step_shares.vy", "step_next.vy")
HELPERS = ("g1_checks.vy", "shuffle.vy", "step_hash.vy", "step_elements.vy")
#: step.vy's answer kinds (vy/step_tx.vy).
K_UNUSABLE, K_VERDICT, K_UNSUPPORTED = 1, 2, 3

_X_BITS = (1 << 381) - 1


@dataclass(frozen=True)
class Deployment:
    """The step contracts on one harness: step.vy and what it calls."""

    harness: EvmHarness
    step: Contract
    contracts: tuple[Contract, ...]

    @property
    def code_sizes(self) -> dict[str, int]:
        """Each contract's runtime code in bytes (EIP-170 allows 24,576)."""
        return {c.name: c.code_bytes for c in (*self.contracts, self.step)}


@cache
def deployment() -> Deployment:
    """This process's deployment: compiled and deployed at the first call only."""
    harness = EvmHarness()
    deployed = [harness.deploy(name) for name in (*HELPERS, *STAGES)]
    step = harness.deploy("step.vy", [Word(int.from_bytes(c.address, "big"))
                                      for c in deployed])
    return Deployment(harness, step, tuple(deployed))


def _key(data: bytes) -> bytes:
    from eth_utils.crypto import keccak

    digest: bytes = keccak(data)
    return digest


def _needs_hint(piece: bytes) -> bool:
    """Whether the contracts may read a hint for these bytes: 48 of them, the compression
    flag set, the infinity flag clear and x below p (rules 0 to 2 of 2.5 pass)."""
    if len(piece) != POINT or piece[0] & 0xC0 != 0x80:
        return False
    return int.from_bytes(piece, "big") & _X_BITS < P


@lru_cache(maxsize=4096)
def _hint(piece: bytes) -> bytes:
    """An element's hint as the table holds it (48 bytes): the same elements come back
    in every package of a game."""
    return decoding_hint(piece).to_bytes(POINT, "big")


def hint_table(package: bytes) -> bytes:
    """The sorted table of every candidate element's key and hint (vy/step_lib.vy)."""
    found: dict[bytes, bytes] = {}
    for data in package_strings(package):
        for i in range(0, len(data) - POINT + 1, POINT):
            piece = data[i:i + POINT]
            if _needs_hint(piece):
                found.setdefault(_key(piece), piece)
    return b"".join(key + _hint(piece) for key, piece in sorted(found.items()))


def calldata(package: bytes, committed_state_hash: bytes | None) -> bytes:
    """judge(committed, flags, table), the package, then its hint table."""
    deployed = deployment()
    if committed_state_hash is not None and len(committed_state_hash) != 32:
        raise ValueError("a state hash is 32 bytes")
    committed = committed_state_hash or bytes(32)
    flags = 0 if committed_state_hash is None else 1
    return (deployed.step.selectors["judge"] + committed + flags.to_bytes(WORD, "big")
            + (HEAD + len(package)).to_bytes(WORD, "big") + package + hint_table(package))


def _answer(output: bytes, gas: EvmGas) -> ChainStep[EvmGas]:
    word, after = decode_word(output, 0), decode_word(output, 1)
    kind, number = word & 0xFF, (word >> 8) & 0xFF
    if kind == K_UNSUPPORTED:
        return ChainStep(False, False, None, None, None, False, None, gas)
    if kind == K_UNUSABLE:
        return ChainStep(False, True, code_of(number), None, None, False, None, gas)
    if kind != K_VERDICT:
        raise ProgramError(f"step.vy answered the kind {kind}")
    seat = (word >> 16) & 0xFF
    frame = word >> 64
    return ChainStep(True, True, code_of(number), seat - 1 if seat else None,
                     frame - 1 if frame else None, bool(word >> 24 & 1),
                     after.to_bytes(WORD, "big") if number == 0 else None, gas)


def check_step_evm(package: bytes,
                   committed_state_hash: bytes | None = None) -> ChainStep[EvmGas]:
    """Judge one frame's dispute package on the EVM (spec/11-verify.md 11.4); the cost is
    the transaction's gas. EvmRevert if the contracts refuse a hint (never a verdict)."""
    deployed = deployment()
    data = calldata(package, committed_state_hash)
    output, gas = deployed.harness.transact(deployed.step.address, data, "step.vy.judge")
    return _answer(output, gas)


def transient_layouts() -> dict[str, dict[str, Any]]:
    """step_tx.vy's transient slots as each contract of the check lays them out (they
    must agree: the stages share step.vy's storage by DELEGATECALL). Compiled once per
    digest of the sources, and kept on disk like the contracts (cache.py)."""
    from .cache import cached_bytes
    from .codes import VY_DIR

    digest = hashlib.sha256()
    for path in sorted(VY_DIR.glob("*.vy")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")

    def build() -> bytes:
        compiler = importlib.import_module("vyper.compiler")
        bundle = importlib.import_module("vyper.compiler.input_bundle")
        out: dict[str, Any] = {}
        for name in ("step.vy", *STAGES, *HELPERS[2:]):
            layout = compiler.compile_code((VY_DIR / name).read_text(), contract_path=name,
                                           input_bundle=bundle.FilesystemInputBundle([VY_DIR]),
                                           output_formats=["layout"])["layout"]
            out[name] = layout["transient_storage_layout"]["step_tx"]
        return json.dumps(out).encode()

    found: dict[str, dict[str, Any]] = json.loads(
        cached_bytes("vyper-layout", digest.hexdigest(), build))
    return found
