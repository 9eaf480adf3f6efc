"""Vyper contracts on py-evm at the Prague fork (EIP-2537's BLS12-381 precompiles).

`EvmHarness` builds a one-account chain whose only fork is Prague, with the three G1
precompiles the contracts call done by arkworks (evm_precompiles.py: same outputs and
gas, milliseconds instead of seconds). Contracts are the `*.vy` files of peers/chain/vy,
compiled by Vyper 0.4 for Prague (its default target) once per source digest, and
deployed by a transaction. Every call is a signed transaction too, so that its gas is
what a chain charges:

- execution: gas used by the call's message, the contract and the precompiles it calls;
- transaction: the receipt's gas, which adds 21,000 and the calldata (4 gas a zero
  byte, 16 another), or EIP-7623's floor when calldata outweighs execution.

Calls run on one pending block's header, so the state advances (nonces, the deployed
code) while no block is sealed: py-evm's block building grows quadratically in its
transactions. py-evm's Prague has none of Osaka's changes: EIP-7825's transaction cap
(TX_GAS_CAP below) is a yardstick here, not enforced, and MODEXP is priced by EIP-2565,
not EIP-7883.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from eth._utils.address import generate_contract_address
from eth.chains.base import MiningChain
from eth.db.atomic import AtomicDB
from eth.tools.builder.chain.builders import build, disable_pow_check, fork_at
from eth.vm.forks.prague import PragueVM
from eth.vm.forks.prague.computation import PRAGUE_PRECOMPILES, PragueComputation
from eth.vm.forks.prague.state import PragueState
from eth_keys.datatypes import PrivateKey
from eth_typing import Address

from .abi import Arg, decode_bytes, encode_args
from .cache import cached_bytes
from .codes import VY_DIR
from .errors import ChainUnavailable, EvmRevert, ProgramError
from .evm_precompiles import FAST_G1_PRECOMPILES

#: EIP-7825's cap on a transaction's gas (2^24, from the Fusaka fork): the measure a
#: referee's step must fit, whatever a block's own limit.
TX_GAS_CAP = 1 << 24
#: A block's gas limit (Ethereum's of 2024; it has been raised since), and what every
#: transaction here may spend: a call that needs more than a block fails as out of gas.
BLOCK_GAS_LIMIT = 30_000_000
CALL_GAS = BLOCK_GAS_LIMIT
# The genesis block's limit: the pending block's may move 1/1024 from it, and must be at
# least BLOCK_GAS_LIMIT.
GENESIS_GAS_LIMIT = BLOCK_GAS_LIMIT * 1024 // 1023 + 1
GAS_PRICE = 10 ** 10   # above the genesis base fee; nothing here depends on the price

# A fixed key: the harness's one account, funded at genesis (never a real key).
_SENDER = PrivateKey(hashlib.sha256(b"dealerless/chain/evm-harness").digest())


FAST_PRAGUE_PRECOMPILES = {**PRAGUE_PRECOMPILES, **FAST_G1_PRECOMPILES}


class FastPragueComputation(PragueComputation):
    _precompiles = FAST_PRAGUE_PRECOMPILES


class FastPragueState(PragueState):
    computation_class = FastPragueComputation


class FastPragueVM(PragueVM):
    """Prague with arkworks' G1ADD, G1MSM and MAP_FP_TO_G1."""

    _state_class = FastPragueState


@dataclass(frozen=True)
class EvmGas:
    """The gas of one call (see the module's docstring)."""

    execution: int
    transaction: int
    calldata_bytes: int

    @property
    def tx_cap_share(self) -> float:
        """The part of EIP-7825's transaction gas cap this call takes."""
        return self.transaction / TX_GAS_CAP


@dataclass(frozen=True)
class Contract:
    """A deployed contract: its address, selectors, runtime code size, deployment gas."""

    name: str
    address: bytes
    selectors: dict[str, bytes]   # method name -> 4-byte selector
    code_bytes: int
    deploy_gas: int


_COMPILED: dict[str, tuple[bytes, dict[str, bytes]]] = {}


def _vyper(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ChainUnavailable("vyper is not installed: pip install 'dealerless[chain]'") \
            from exc


def compile_contract(name: str) -> tuple[bytes, dict[str, bytes]]:
    """The init code of vy/`name` and its selectors by method name, compiled once per
    digest of every contract source (one may import another), and kept on disk."""
    h = hashlib.sha256()
    for path in sorted(VY_DIR.glob("*.vy")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    key = name + ":" + h.hexdigest()
    if key not in _COMPILED:
        found = json.loads(cached_bytes("vyper", hashlib.sha256(key.encode()).hexdigest(),
                                        lambda: _compile(name)))
        _COMPILED[key] = (bytes.fromhex(found["bytecode"]),
                          {m: bytes.fromhex(s) for m, s in found["selectors"].items()})
    return _COMPILED[key]


def _compile(name: str) -> bytes:
    """vy/`name`'s init code and selectors, as JSON."""
    compiler = _vyper("vyper.compiler")
    bundle = _vyper("vyper.compiler.input_bundle").FilesystemInputBundle([VY_DIR])
    try:
        out = compiler.compile_code((VY_DIR / name).read_text(), contract_path=name,
                                    input_bundle=bundle,
                                    output_formats=["bytecode", "method_identifiers"])
    except Exception as exc:   # Vyper's own exception types
        raise ProgramError(f"{name} does not compile: {exc}") from exc
    # Vyper writes a selector as a hex number, dropping leading zeros.
    selectors = {sig.split("(")[0]: int(sel, 16).to_bytes(4, "big").hex()
                 for sig, sel in out["method_identifiers"].items()}
    return json.dumps({"bytecode": out["bytecode"][2:], "selectors": selectors}).encode()


#: The selector of Solidity's Error(string), which Vyper's assert reverts with.
_ERROR_STRING = bytes.fromhex("08c379a0")


def _reason(output: bytes, error: object) -> str:
    """A revert's message: the string of an Error(string) revert, else the VM's error."""
    if output[:4] == _ERROR_STRING:
        try:
            return decode_bytes(output[4:], 0).decode()
        except (ValueError, UnicodeDecodeError):
            pass
    return f"{type(error).__name__}: {error}"


class EvmHarness:
    """A private Prague chain with one funded account that deploys and calls contracts.

    vm_class: FastPragueVM, or py-evm's own PragueVM (slow: for comparing the two)."""

    def __init__(self, vm_class: type[PragueVM] = FastPragueVM) -> None:
        sender = _SENDER.public_key.to_canonical_address()
        chain_class = build(MiningChain, fork_at(vm_class, 0), disable_pow_check())
        self.chain = chain_class.from_genesis(
            AtomicDB(),
            {"difficulty": 0, "gas_limit": GENESIS_GAS_LIMIT, "nonce": b"\0" * 8,
             "timestamp": 1},
            {sender: {"balance": 10 ** 30, "nonce": 0, "code": b"", "storage": {}}})
        self.sender = sender
        self.nonce = 0

    @cached_property
    def vm(self) -> Any:
        return self.chain.get_vm()

    def transact(self, to: bytes, data: bytes, what: str) -> tuple[bytes, EvmGas]:
        """Send `data` to address `to` (b"" creates a contract) in a transaction; its
        return data and gas. EvmRevert, naming `what`, if it fails."""
        tx = self.vm.create_unsigned_transaction(
            nonce=self.nonce, gas_price=GAS_PRICE, gas=CALL_GAS, to=to, value=0, data=data,
        ).as_signed_transaction(_SENDER, chain_id=self.chain.chain_id)
        receipt, computation = self.vm.apply_transaction(self.chain.header, tx)
        self.nonce += 1
        # The pending header is never sealed, so its gas used stays 0 and the receipt's
        # cumulative gas is this transaction's.
        gas = EvmGas(int(computation.get_gas_used()), int(receipt.gas_used), len(data))
        if computation.is_error:
            raise EvmRevert(what, _reason(bytes(computation.output), computation.error),
                            gas.execution)
        return bytes(computation.output), gas

    def deploy(self, name: str, args: Sequence[Arg] = ()) -> Contract:
        """Deploy vy/`name`, its constructor given `args` (ABI-encoded after the code)."""
        init_code, selectors = compile_contract(name)
        address = generate_contract_address(Address(self.sender), self.nonce)
        _, gas = self.transact(b"", init_code + encode_args(args), f"deploy {name}")
        code = self.vm.state.get_code(address)
        if not code:
            raise ProgramError(f"{name}: deployment left no code")
        return Contract(name, address, selectors, len(code), gas.transaction)

    def call(self, contract: Contract, method: str, args: Sequence[Arg]) -> tuple[bytes, EvmGas]:
        """Call `method` with ABI-encoded `args` in a transaction; its return data and gas.
        EvmRevert if it reverts."""
        data = contract.selectors[method] + encode_args(args)
        return self.transact(contract.address, data, f"{contract.name}.{method}")
