"""A group's operations on the canonical encodings of its elements (spec/02-group.md 2.2-2.5),
for the proofs and the session of a game in any suite (spec/03-hashing.md 3.5).

Every value the verifier keeps (a key share, a deck, a decryption share) is the encoding it
received or computed, as the public state (10.3) and every hash (3.5: points are hashed as
their encodings) need it. Encodings are canonical in all three groups, so two elements are
equal exactly when their encodings are. Arithmetic decodes, computes and encodes again:
- `edwards25519`: libsodium through group.ops, on the encodings themselves (2.1-2.4);
- `ristretto255` and `bls12381g1`: the pure-Python groups of group.groups, with a cache of
  decoded elements so that an encoding this verifier accepted or made is decoded once,
  a table of the generator's multiples (a*G is 64 additions and no doubling) and
  Straus's method for sum k_i*P_i (one chain of doublings shared by every term). Both give
  the group's own a*P, as groups.json's multiples and MSM vectors check.
"""

from __future__ import annotations

from typing import Any

from independent.errors import SpecError, fail_err
from independent.group import ops
from independent.group.groups import EDWARDS25519, GROUPS, Group

SCALAR_BYTES = 32   # 2.4, 2.5: every group's scalars are 32 bytes
_CACHE_LIMIT = 1 << 17
_W = 4              # bits per window of base() and msm()
_MASK = (1 << _W) - 1


class Encoded:
    """One group on encodings: O and G, a*P, a*G, sums, strict decoding, scalars."""

    def __init__(self, group: Group[Any]) -> None:
        self.group = group
        self.name = group.name
        self.P = group.element_bytes        # bytes of an element (32, or 48 in G1)
        self.L = group.order
        self.O = group.encode(group.identity)
        self.G = group.encode(group.generator)
        self._el: dict[bytes, Any] = {}
        self._seed()
        self._base_table: list[list[Any]] = []

    def _seed(self) -> None:
        self._el.clear()
        self._el[self.O] = self.group.identity
        self._el[self.G] = self.group.generator

    def _keep(self, b: bytes, e: Any) -> None:
        if len(self._el) > _CACHE_LIMIT:
            self._seed()
        self._el[b] = e

    # --- decoding and encoding ---------------------------------------------------------
    def accept(self, b: bytes) -> bytes:
        """A received element, decoded by its group's rules (2.3, 2.5): the same bytes, or
        Err with the rule's code."""
        if b in self._el and b != self.O:
            return b
        try:
            e = self.group.decode(b)
        except SpecError as x:
            fail_err(x.code)
        self._keep(b, e)
        return b

    def el(self, b: bytes) -> Any:
        """The element of an encoding this verifier accepted or computed."""
        e = self._el.get(b)
        if e is None:
            e = self.group.decode(b)
            self._keep(b, e)
        return e

    def enc(self, e: Any) -> bytes:
        b = self.group.encode(e)
        self._keep(b, e)
        return b

    def sc(self, k: int) -> bytes:
        """A scalar's 32 bytes (2.5: little-endian, big-endian in G1)."""
        return self.group.encode_scalar(k)

    def scalar(self, b: bytes) -> int:
        """A received scalar (2.4, 2.5: scalar/length, scalar/out-of-range)."""
        return self.group.decode_scalar(b)

    # --- the group law ----------------------------------------------------------------------
    def add(self, a: bytes, b: bytes) -> bytes:
        return self.enc(self.group.add(self.el(a), self.el(b)))

    def sub(self, a: bytes, b: bytes) -> bytes:
        return self.enc(self.group.sub(self.el(a), self.el(b)))

    def mul(self, k: int, p: bytes) -> bytes:
        """k*P, k reduced mod the order; 0*P and k*O are O."""
        return self.enc(self.group.mul(k % self.L, self.el(p)))

    def _multiples(self, e: Any) -> list[Any]:
        """0*E, 1*E, ..., 15*E."""
        table = [self.group.identity, e]
        for _ in range(_MASK - 1):
            table.append(self.group.add(table[-1], e))
        return table

    def base(self, k: int) -> bytes:
        """k*G as the sum over windows i of (digit_i * 16^i)*G, from a table made once."""
        g = self.group
        if not self._base_table:
            e = g.generator
            for _ in range((self.L.bit_length() + _W - 1) // _W):
                self._base_table.append(self._multiples(e))
                for _ in range(_W):
                    e = g.double(e)
        k %= self.L
        acc = g.identity
        for row in self._base_table:
            if k & _MASK:
                acc = g.add(acc, row[k & _MASK])
            k >>= _W
        return self.enc(acc)

    def total(self, ps: list[bytes]) -> bytes:
        g = self.group
        acc = g.identity
        for p in ps:
            acc = g.add(acc, self.el(p))
        return self.enc(acc)

    def msm(self, ks: list[int], ps: list[bytes]) -> bytes:
        """sum k_i*P_i over two lists of one length, by Straus's method: from the top
        window down, four doublings of the sum, then digit_i*P_i of every term added."""
        g = self.group
        ks = [k % self.L for k in ks]
        tables = [self._multiples(self.el(p)) for p in ps]
        if len(ks) != len(tables):
            raise ValueError("msm of lists of unequal length")
        acc = g.identity
        for shift in range((max(ks, default=0).bit_length() + _W - 1) // _W * _W - _W, -_W, -_W):
            for _ in range(_W):
                acc = g.double(acc)
            for k, table in zip(ks, tables, strict=True):
                d = (k >> shift) & _MASK
                if d:
                    acc = g.add(acc, table[d])
        return self.enc(acc)


class EncodedEdwards(Encoded):
    """edwards25519 (2.1-2.4): libsodium on the encodings, with the special cases for O."""

    def accept(self, b: bytes) -> bytes:
        return ops.accept_point(b)

    def el(self, b: bytes) -> bytes:
        return b

    def enc(self, e: bytes) -> bytes:
        return e

    def scalar(self, b: bytes) -> int:
        return ops.decode_scalar(b)

    def add(self, a: bytes, b: bytes) -> bytes:
        return ops.add(a, b)

    def sub(self, a: bytes, b: bytes) -> bytes:
        return ops.sub(a, b)

    def mul(self, k: int, p: bytes) -> bytes:
        return ops.smul(k, p)

    def base(self, k: int) -> bytes:
        return ops.bmul(k)

    def total(self, ps: list[bytes]) -> bytes:
        return ops.total(ps)

    def msm(self, ks: list[int], ps: list[bytes]) -> bytes:
        return ops.msm(ks, ps)


ENCODED: dict[str, Encoded] = {
    name: (EncodedEdwards(g) if g is EDWARDS25519 else Encoded(g)) for name, g in GROUPS.items()}
