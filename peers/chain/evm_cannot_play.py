"""The "cannot play" proof of spec/06-proofs.md 6.5 as an EVM call, giving a `Verdict`.

`EvmCannotPlay` deploys vy/tiles.vy (the tile points P_t of 5.1: double-twelve's 91
stored, the other sets' hashed) and vy/cannot_play.vy (6.5.5 in its order), which reads
them by one static call: the two in one contract would pass EIP-170's 24,576 bytes.
It takes the same `CannotPlayStatement` as the CLVM check (cannot_play.py) and gives the
same codes (tests/test_chain_cannot_play.py holds the two VMs to every vector case).

The statement goes over as the bytes a referee received, each element with its decoding
hint (hints.py): Y_s, each position's c1_j, c2_j and shares, then K_0..K_{h-1},
Q_0..Q_{f-1} as far as the proof's length lets the contract read them. R_j is computed
on chain (G1ADDs), as 6.5.1 requires of a verifier. Positions and each entry's share
count go as words, F's tiles as two words each. A statement element that is not 48
bytes, or an entry with more than 7 shares (8 seats, spec/12-peers.md), is the caller's
own bug: ValueError, where CLVM would name it.
"""

from __future__ import annotations

from .abi import Bytes, Word, WordsList, decode_word
from .cannot_play import CannotPlayStatement
from .clvm_proofs import POINT
from .codes import Verdict, code_of
from .evm import Contract, EvmGas, EvmHarness
from .hints import hint_words

EvmVerdict = Verdict[EvmGas]

#: The most shares an entry carries: the other seats' of 8 (vy/cannot_play.vy's MAX_SHARES).
MAX_SHARES = 7
_U64 = 1 << 64


def _words(values: list[int]) -> bytes:
    return b"".join(v.to_bytes(32, "big") for v in values)


class EvmCannotPlay:
    """vy/tiles.vy and vy/cannot_play.vy deployed on one harness."""

    def __init__(self, harness: EvmHarness | None = None) -> None:
        self.harness = harness or EvmHarness()
        self.tiles: Contract = self.harness.deploy("tiles.vy")
        self.contract: Contract = self.harness.deploy(
            "cannot_play.vy", [Word(int.from_bytes(self.tiles.address, "big"))])

    def tile_points(self, set_name: str, tiles: list[tuple[int, int]]) -> list[bytes]:
        """P_t of each tile as tiles.vy gives it: x || y, 48 bytes each (EIP-2537's
        128 bytes with their zero padding dropped)."""
        output, _ = self.harness.call(self.tiles, "tile_points", [
            Bytes(set_name.encode("ascii")), Bytes(_words([v for t in tiles for v in t]))])
        offset = decode_word(output, 0)
        data = output[offset + 32:offset + 32 + decode_word(output, offset // 32)]
        return [data[i + 16:i + 64] + data[i + 80:i + 128] for i in range(0, len(data), 128)]

    def verify_cannot_play(self, game_id: bytes, step: int, seat: int,
                           stmt: CannotPlayStatement, proof: bytes) -> EvmVerdict:
        """spec/06-proofs.md 6.5.5 under the context (game_id, step, seat) of 6.1."""
        if len(game_id) != 32:
            raise ValueError("a game id is 32 bytes (6.1)")
        elements = stmt.elements()
        if any(len(p) != POINT for p in elements):
            raise ValueError("the statement's elements are the verifier's own: 48 bytes each")
        if any(len(e.shares) > MAX_SHARES for e in stmt.hand):
            raise ValueError("at most 7 other seats' shares a position (8 seats)")
        stmt.tile_atoms()   # each end one byte (6.5.1), as the CLVM check requires
        # A position outside [0, 2^64) is cannot-play/order whatever its value (6.5.1).
        positions = [p if 0 <= p < _U64 else _U64 for p in (e.position for e in stmt.hand)]
        hints = [hint_words(p) for p in [*elements, *stmt.proof_points(proof)]]
        output, gas = self.harness.call(self.contract, "verify_cannot_play", [
            Word(int.from_bytes(game_id, "big")), Word(step), Word(seat),
            Bytes(stmt.set_name.encode("ascii")), Bytes(_words(positions)),
            Bytes(_words([len(e.shares) for e in stmt.hand])), Bytes(b"".join(elements)),
            Bytes(_words([v for t in stmt.forbidden for v in t])), Bytes(proof),
            WordsList(tuple(hints))])
        return Verdict(code_of(decode_word(output, 0)), gas)
