"""The decoding hint of a received G1 element, which the chain programs check.

A compressed element carries x; a VM that is to decide rule 3 of spec/02-group.md 2.5
("no y satisfies y^2 = x^3 + 4") or to hand EIP-2537 the uncompressed point (2.6) needs
a square root it cannot afford: the EVM has none, and Chia's mempool refuses CLVM's
modpow. So whoever asks for the check supplies w, a square root mod p of x^3 + 4 when x
is on the curve, else of -(x^3 + 4): since p = 3 mod 4, -1 is not a square, so exactly
one of the two is a square (x^3 + 4 = 0 has no root, the curve having no point of order
2), and w proves which. The programs check w with two multiplications; a wrong w makes
them abort or revert, so a hint can withhold a verdict but never change one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress
from typing import Any

#: The base field's prime p (p = 3 mod 4) and the order r of G1.
P = int("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9f"
        "effffffffaaab", 16)
R = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001

_X_BITS = (1 << 381) - 1
_LOW = (1 << 256) - 1


def sqrt_mod_p(value: int) -> int | None:
    """A square root of value mod p, or None: value^((p+1)/4) is one if any exists."""
    root = pow(value % P, (P + 1) // 4, P)
    return root if root * root % P == value % P else None


def decoding_hint(encoding: bytes) -> int:
    """w for a 48-byte element whose x is below p; 0 for any other encoding, which the
    programs refuse (rules 0 to 2) before they read a hint."""
    if len(encoding) != 48:
        return 0
    x = int.from_bytes(encoding, "big") & _X_BITS
    if x >= P:
        return 0
    rhs = (x ** 3 + 4) % P
    root = sqrt_mod_p(rhs)
    if root is None:
        root = sqrt_mod_p(-rhs)
    if root is None:   # impossible for p = 3 mod 4 and rhs != 0, checked rather than assumed
        raise ArithmeticError("neither x^3 + 4 nor its negation is a square mod p")
    return root


def hint_words(encoding: bytes) -> tuple[int, int]:
    """The hint as the contracts take it: (w >> 256, w mod 2^256), EIP-2537's two words."""
    w = decoding_hint(encoding)
    return w >> 256, w & _LOW


def package_strings(value: Any) -> Iterator[bytes]:
    """Every byte string of a dispute package, depth first, and of any byte string that is
    itself msgpack (read leniently): where the elements a step program decodes lie, so
    that a caller can give each its hint or name it as bad (clvm_step, evm_step)."""
    import msgpack

    if isinstance(value, bytes):
        yield value
        with suppress(ValueError, TypeError, msgpack.UnpackException, RecursionError):
            yield from package_strings(msgpack.unpackb(value, raw=False, strict_map_key=False))
    elif isinstance(value, list):
        for item in value:
            yield from package_strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from package_strings(item)
