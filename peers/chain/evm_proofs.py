"""The proofs of dealerless/3 over many elements as EVM calls, each giving a `Verdict`.

- `verify_dleq_batch`: one Chaum-Pedersen proof for the n shares of a DEAL, REVEAL or
  DRAW (spec/06-proofs.md 6.3.1), a method of vy/g1_checks.vy beside 6.3's;
- `verify_shuffle`: the shuffle proof of spec/07-shuffle.md 7.5 and 7.5.1 in the format
  of 7.6, vy/shuffle.vy, a contract of its own (with g1_checks.vy's methods it would pass
  EIP-170's 24,576 bytes of code).

Each element goes with its decoding hint (hints.py), the shuffle's in the order its
contract reads them: the output deck's points and the proof's (as far as their lengths
let it read them), then the joint key's, the generators h, h_0..h_{N-1} (whose
encodings the contract holds, vy/generators.vy) and the input deck's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from .abi import Bytes, BytesList, Word, Words, WordsList, decode_word
from .clvm_proofs import CIPHERTEXT, POINT, batch_elements, sent_elements
from .codes import VY_DIR, Verdict, code_of
from .errors import ProgramError
from .evm import Contract, EvmGas, EvmHarness
from .evm_checks import EvmChecks
from .hints import hint_words

EvmVerdict = Verdict[EvmGas]


@cache
def generator_encodings() -> tuple[bytes, ...]:
    """h, h_0..h_90 as vy/generators.vy holds them (spec/07-shuffle.md 7.2)."""
    found = re.search(r'^GENERATORS: constant\(Bytes\[4416\]\) = x"([0-9a-f]{8832})"$',
                      (VY_DIR / "generators.vy").read_text(), re.M)
    if found is None:
        raise ProgramError("vy/generators.vy must hold 92 encodings in one literal")
    blob = bytes.fromhex(found.group(1))
    return tuple(blob[i:i + POINT] for i in range(0, len(blob), POINT))


def _context(game_id: bytes, step: int, seat: int) -> list[Word]:
    if len(game_id) != 32:
        raise ValueError("a game id is 32 bytes (6.1)")
    return [Word(int.from_bytes(game_id, "big")), Word(step), Word(seat)]


class EvmProofs:
    """g1_checks.vy (an `EvmChecks`) and shuffle.vy deployed on one harness."""

    def __init__(self, checks: EvmChecks | None = None) -> None:
        self.checks = checks or EvmChecks()
        self.harness: EvmHarness = self.checks.harness
        self.shuffle: Contract = self.harness.deploy("shuffle.vy")

    def _verdict(self, contract: Contract, method: str,
                 args: Sequence[Word | Words | Bytes | BytesList | WordsList]) -> EvmVerdict:
        output, gas = self.harness.call(contract, method, args)
        return Verdict(code_of(decode_word(output, 0)), gas)

    def verify_dleq_batch(self, game_id: bytes, step: int, seat: int, key: bytes,
                          c1s: Sequence[bytes], shares: Sequence[bytes],
                          proof: bytes) -> EvmVerdict:
        """spec/06-proofs.md 6.3.1 under the context (game_id, step, seat) of 6.1."""
        elements = batch_elements(key, c1s, shares)
        return self._verdict(self.checks.contract, "verify_dleq_batch", [
            *_context(game_id, step, seat), Bytes(key), Words(hint_words(key)),
            BytesList(tuple(c1s)), BytesList(tuple(shares)),
            WordsList(tuple(hint_words(p) for p in elements[1:])), Bytes(proof)])

    def verify_shuffle(self, game_id: bytes, step: int, seat: int, joint_key: bytes,
                       deck_in: bytes, deck_out: bytes, proof: bytes) -> EvmVerdict:
        """spec/07-shuffle.md 7.5 and 7.5.1 under the context (game_id, step, seat) of
        6.1; joint_key and deck_in are the verifier's own, valid values."""
        if len(deck_in) % CIPHERTEXT:
            raise ValueError("the input deck is the verifier's own: whole ciphertexts (5.2)")
        n = len(deck_in) // CIPHERTEXT
        own = [joint_key, *generator_encodings()[:n + 1],
               *(deck_in[i:i + POINT] for i in range(0, len(deck_in), POINT))]
        hints = [hint_words(p) for p in [*sent_elements(deck_in, deck_out, proof), *own]]
        return self._verdict(self.shuffle, "verify_shuffle", [
            *_context(game_id, step, seat), Bytes(joint_key), Bytes(deck_in),
            Bytes(deck_out), Bytes(proof), WordsList(tuple(hints))])
