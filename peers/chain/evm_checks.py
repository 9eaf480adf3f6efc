"""The primitive checks of bls12381g1-sha256 as EVM calls, each giving a `Verdict`.

`EvmChecks` deploys vy/g1_checks.vy on an `EvmHarness` and calls it with the decoding hint
of each element (hints.py; 2.6: "a contract takes the uncompressed point as a hint"). Why
a hint and not a square root computed on chain (MODEXP to the power (p+1)/4): the hint
costs its calldata (64 bytes, about 830 gas) and two MODEXP with exponents 2 and 3 (200
gas each, measured), the square root a 381-bit exponentiation (8,064 gas measured here
with EIP-2537's 64-byte operands, and dearer again under EIP-7883's pricing), and the
contract must check the result either way. A wrong hint makes the call revert
(EvmRevert): it cannot change a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from .abi import Arg, Bytes, BytesList, Word, Words, decode_bytes, decode_word
from .codes import SuiteHashes, Verdict, code_of
from .evm import Contract, EvmGas, EvmHarness
from .hints import hint_words

EvmVerdict = Verdict[EvmGas]


def _point(encoding: bytes) -> list[Arg]:
    """An element's two arguments: its bytes and its hint."""
    return [Bytes(encoding), Words(hint_words(encoding))]


def _context(game_id: bytes, step: int, seat: int) -> list[Arg]:
    if len(game_id) != 32:
        raise ValueError("a game id is 32 bytes (6.1)")
    return [Word(int.from_bytes(game_id, "big")), Word(step), Word(seat)]


class EvmChecks:
    """vy/g1_checks.vy deployed on its own harness."""

    def __init__(self, harness: EvmHarness | None = None) -> None:
        self.harness = harness or EvmHarness()
        self.contract: Contract = self.harness.deploy("g1_checks.vy")

    def _verdict(self, method: str, args: Sequence[Arg]) -> EvmVerdict:
        output, gas = self.harness.call(self.contract, method, args)
        return Verdict(code_of(decode_word(output, 0)), gas)

    def decode_point(self, point: bytes) -> EvmVerdict:
        """Every rule of spec/02-group.md 2.5 on one element; rule 4 by a one-term G1MSM."""
        return self._verdict("decode_point", _point(point))

    def decode_scalar(self, scalar: bytes) -> EvmVerdict:
        return self._verdict("decode_scalar", [Bytes(scalar)])

    def suite_hashes(self, tag: bytes, parts: Sequence[bytes]) -> SuiteHashes[EvmGas]:
        """H, H_scalar and the hash to G1 of one input (spec/03-hashing.md 3.5)."""
        output, gas = self.harness.call(self.contract, "suite_hashes",
                                        [Bytes(tag), BytesList(tuple(parts))])
        return SuiteHashes(decode_word(output, 0).to_bytes(32, "big"), decode_word(output, 1),
                           decode_bytes(output, 2), gas)

    def verify_schnorr(self, game_id: bytes, step: int, seat: int, key: bytes,
                       proof: bytes) -> EvmVerdict:
        """spec/06-proofs.md 6.2 under the context (game_id, step, seat) of 6.1."""
        return self._verdict("verify_schnorr",
                             [*_context(game_id, step, seat), *_point(key), Bytes(proof)])

    def verify_dleq(self, game_id: bytes, step: int, seat: int, key: bytes, c1: bytes,
                    share: bytes, proof: bytes) -> EvmVerdict:
        """spec/06-proofs.md 6.3 under the context (game_id, step, seat) of 6.1."""
        return self._verdict("verify_dleq",
                             [*_context(game_id, step, seat), *_point(key), *_point(c1),
                              *_point(share), Bytes(proof)])

    def verify_frame_signature(self, key: bytes, message: bytes,
                               signature: bytes) -> EvmVerdict:
        """spec/08-wire.md 8.3, Schnorr over G1: every failure is frame/bad-signature."""
        return self._verdict("verify_frame_signature",
                             [*_point(key), Bytes(message), Bytes(signature)])
