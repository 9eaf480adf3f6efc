"""Sealed commitments: a publicly verifiable secret sharing (spec/06-proofs.md 6.6).

A committer seals a fixed-length plaintext for m recipients so that, once it is
published, any t = m // 2 + 1 of them can open it without the committer, every
receiver can check at once that they will be able to, and fewer than t learn
nothing. The committer deals shares of a secret s (a polynomial p with p(0) = s,
Feldman-style commitments C_j = a_j*Hs, share p(e)*y_e encrypted to recipient e's key
with a proof), and encrypts the plaintext under the keystream of S = s*B.
Opening: the committer reveals s (6.6.6), or t recipients release S_e = x_e^-1 * Y_e
with proofs and anyone combines them by Lagrange at 0 (6.6.7, 6.6.8).

Every check raises SealError naming the seat to blame (6.6.5). The context object
carries the recipients, so no call takes them twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import EncodingError, LocalError, SealError
from .groups import Element, Group
from .seal_proofs import (
    SealProof,
    prove_equal_logs,
    prove_share_key,
    require_equal_logs,
    seal_generator,
    share_key,
    verify_share_key,
)
from .suite import Suite
from .tags import Tag, u64

__all__ = ["SEAL_CONTEXT_BYTES", "SEAL_NONCE_BYTES", "DecryptionShare",
           "EncryptedShare", "Seal", "SealContext", "SealProof", "combine", "deal",
           "decode_secret", "decryption_share", "open_with_secret", "pad", "prove_share_key",
           "seal_context", "seal_generator", "seal_secret", "seal_threshold", "share_key",
           "unpad", "verify_decryption_share", "verify_seal", "verify_share_key"]

#: The committer's opening nonce, from which every coefficient derives (6.6.3).
SEAL_NONCE_BYTES = 32
SEAL_CONTEXT_BYTES = 32


def seal_threshold(m: int) -> int:
    """t = m // 2 + 1 shares open a seal for m >= 2 recipients; 1 (no shares) below (6.6.3)."""
    if m < 0:
        raise LocalError("seal/recipients", "a recipient count is not negative")
    return m // 2 + 1 if m >= 2 else 1


@dataclass(frozen=True, slots=True)
class SealContext:
    """Who seals for whom (6.6.3), in which suite: `digest` is hashed into every seal
    hash."""

    suite: Suite
    digest: bytes
    committer: int
    recipients: tuple[tuple[int, Element], ...]
    t: int

    @property
    def m(self) -> int:
        return len(self.recipients)

    @property
    def share_count(self) -> int:
        """m shares for m >= 2 recipients, none below (6.6.3)."""
        return self.m if self.m >= 2 else 0

    def position(self, seat: int) -> int:
        for pos, (s, _) in enumerate(self.recipients):
            if s == seat:
                return pos
        raise LocalError("seal/not-recipient", f"seat {seat} is not a recipient of this seal")


def seal_context(suite: Suite, game_id: bytes, stage: int, seat: int,
                 recipients: list[tuple[int, Element]]) -> SealContext:
    """The context of seat `seat`'s seal in `stage` (6.6.3):
    digest = H(SEAL_CONTEXT, game_id, u64 stage, u64 seat, u64 t, u64 j_1 || y_1 || ...)[:32].
    Recipients are (seat, share key) with seats strictly increasing and not the
    committer; the keys were decoded (2.3) and their proofs checked (6.6.2)."""
    if not isinstance(game_id, bytes) or len(game_id) != 32:
        raise LocalError("seal/context", "the game id is exactly 32 bytes")
    seats = [r for r, _ in recipients]
    if any(not 0 <= r < (1 << 64) - 1 for r in seats) or seats != sorted(set(seats)) \
            or seat in seats:
        raise LocalError("seal/recipients", "recipient seats are strictly increasing, "
                                            "below 2^64 - 1 and not the committer")
    t = seal_threshold(len(recipients))
    listed = b"".join(u64(r) + y.data for r, y in recipients)
    digest = suite.H(Tag.SEAL_CONTEXT, game_id, u64(stage), u64(seat), u64(t), listed)
    return SealContext(suite, digest[:SEAL_CONTEXT_BYTES], seat, tuple(recipients), t)


@dataclass(frozen=True, slots=True)
class EncryptedShare:
    """Y_e = p(e)*y_e and the proof that log_Hs X_e = log_{y_e} Y_e (6.6.4)."""

    point: Element
    proof: SealProof


@dataclass(frozen=True, slots=True)
class Seal:
    """The wire value [commitments, shares, ciphertext] of 6.6.5."""

    commitments: tuple[Element, ...]
    shares: tuple[EncryptedShare, ...]
    ciphertext: bytes

    def encode(self, suite: Suite) -> list[Any]:
        return [[c.data for c in self.commitments],
                [[s.point.data, *s.proof.encode(suite)] for s in self.shares], self.ciphertext]

    @classmethod
    def decode(cls, value: Any, ctx: SealContext, size: int) -> Seal:
        """Strict decoding for ctx's t and share count and a `size`-byte plaintext
        (6.6.5 checks 1-3). Every failure is a SealError blaming the committer."""
        try:
            return cls._decode(value, ctx, size)
        except EncodingError as exc:  # point/* and scalar/* (2.3, 2.4)
            raise SealError(exc.code, exc.detail, ctx.committer) from None

    @classmethod
    def _decode(cls, value: Any, ctx: SealContext, size: int) -> Seal:
        def shape(ok: bool, what: str) -> None:
            if not ok:
                raise SealError("seal/shape", what, ctx.committer)

        shape(isinstance(value, list) and len(value) == 3, "a seal is an array of 3")
        commits, shares, text = value
        shape(isinstance(commits, list) and len(commits) == ctx.t,
              f"a seal has {ctx.t} commitments")
        shape(isinstance(shares, list) and len(shares) == ctx.share_count,
              f"a seal has {ctx.share_count} shares")
        shape(isinstance(text, bytes) and len(text) == size,
              f"a seal's ciphertext is {size} bytes")
        shape(all(isinstance(c, bytes) for c in commits), "a commitment is a byte string")
        for entry in shares:
            shape(isinstance(entry, list) and len(entry) == 3
                  and all(isinstance(item, bytes) for item in entry),
                  "a share is an array of 3 byte strings")
        suite = ctx.suite
        points = tuple(suite.decode_point(c) for c in commits)
        decoded = [EncryptedShare(suite.decode_point(y), SealProof.decode(suite, c, z))
                   for y, c, z in shares]
        return cls(points, tuple(decoded), text)


def _coefficients(ctx: SealContext, nonce: bytes) -> list[int]:
    if not isinstance(nonce, bytes) or len(nonce) != SEAL_NONCE_BYTES:
        raise LocalError("seal/nonce", "a seal nonce is exactly 32 bytes")
    coeffs = [ctx.suite.hash_to_scalar(Tag.SEAL_COEFF, ctx.digest, nonce, u64(j))
              for j in range(ctx.t)]
    if 0 in coeffs:  # probability t * 2^-252; a zero C_j would not decode (2.3)
        raise LocalError("seal/zero-coefficient", "a seal coefficient derived to zero")
    return coeffs


def seal_secret(ctx: SealContext, nonce: bytes) -> int:
    """s = a_0, what the committer's OPEN reveals (6.6.3, 6.6.6)."""
    return _coefficients(ctx, nonce)[0]


def _keystream_xor(ctx: SealContext, point: Element, data: bytes) -> bytes:
    """data XOR H(SEAL_STREAM, ctx, S, u64 k) for blocks k = 0, 1, ... (6.6.3)."""
    n = len(data)
    stream = ctx.suite.stream(Tag.SEAL_STREAM, n, ctx.digest, point.data)
    mixed = int.from_bytes(data, "little") ^ int.from_bytes(stream, "little")
    return mixed.to_bytes(n, "little")


def _share_statement(ctx: SealContext, e: int, key: Element, commitments: bytes,
                     share: Element) -> tuple[bytes, ...]:
    return (ctx.digest, u64(e), seal_generator(ctx.suite).data, key.data, commitments,
            share.data)


def deal(ctx: SealContext, nonce: bytes, plaintext: bytes, fresh: bytes) -> Seal:
    """Seal `plaintext` for ctx's recipients (6.6.3, 6.6.4); `nonce` is the committer's
    32-byte secret, `fresh` the proofs' hedging randomness (3.4)."""
    coeffs = _coefficients(ctx, nonce)
    suite, g = ctx.suite, ctx.suite.group
    hs = seal_generator(suite)
    commitments = tuple(g.mul(a, hs) for a in coeffs)
    listed = b"".join(c.data for c in commitments)
    shares = []
    if ctx.share_count:
        ks = suite.nonce_scalars(Tag.SEAL_SHARE.value, nonce, ctx.digest + listed, fresh, ctx.m)
        for (seat, key), k in zip(ctx.recipients, ks, strict=True):
            e = seat + 1
            value = 0
            for a in reversed(coeffs):  # Horner: p(e) mod g.order
                value = (value * e + a) % g.order
            point = g.mul(value, key)
            proof = prove_equal_logs(suite, Tag.SEAL_SHARE,
                                     _share_statement(ctx, e, key, listed, point),
                                     value, (hs, key), k)
            shares.append(EncryptedShare(point, proof))
    return Seal(commitments, tuple(shares),
                _keystream_xor(ctx, g.base_mul(coeffs[0]), plaintext))


def _small_mul(g: Group, n: int, point: Element) -> Element:
    """n*P for a small positive n by doubling and adding: a few additions instead of a
    full scalar multiplication (6.6.9)."""
    acc = point
    for bit in bin(n)[3:]:
        acc = g.add(acc, acc)
        if bit == "1":
            acc = g.add(acc, point)
    return acc


def _check_counts(ctx: SealContext, seal: Seal) -> None:
    if len(seal.commitments) != ctx.t or len(seal.shares) != ctx.share_count:
        raise SealError("seal/shape", "the seal's counts do not fit its context", ctx.committer)


def verify_seal(ctx: SealContext, seal: Seal) -> None:
    """Check every share proof of a decoded seal (6.6.5 check 4); SealError
    `seal/share-proof` blames the committer. X_e = sum_j e^j C_j by Horner."""
    _check_counts(ctx, seal)
    if not ctx.share_count:
        return
    g = ctx.suite.group
    hs = seal_generator(ctx.suite)
    listed = b"".join(c.data for c in seal.commitments)
    for (seat, key), share in zip(ctx.recipients, seal.shares, strict=True):
        e = seat + 1
        x_e = seal.commitments[-1]
        for c in reversed(seal.commitments[:-1]):
            x_e = g.add(_small_mul(g, e, x_e), c)
        require_equal_logs(ctx.suite, Tag.SEAL_SHARE,
                           _share_statement(ctx, e, key, listed, share.point), (hs, key),
                           (x_e, share.point), share.proof,
                           SealError("seal/share-proof", f"the share for seat {seat} does not "
                                     f"match seat {ctx.committer}'s commitments", ctx.committer))


def decode_secret(ctx: SealContext, data: bytes) -> int:
    """The opening secret s from its wire bytes (2.4); a failure blames the committer."""
    try:
        return ctx.suite.decode_scalar(data)
    except EncodingError as exc:
        raise SealError(exc.code, exc.detail, ctx.committer) from None


def open_with_secret(ctx: SealContext, seal: Seal, s: int) -> bytes:
    """The plaintext from the committer's own opening s (6.6.6): s*Hs must be C_0,
    else SealError `seal/opening` blames the committer."""
    _check_counts(ctx, seal)
    g = ctx.suite.group
    if not 0 <= s < g.order:
        raise SealError("scalar/out-of-range", "an opening secret is less than the group "
                        "order", ctx.committer)
    if g.mul(s, seal_generator(ctx.suite)) != seal.commitments[0]:
        raise SealError("seal/opening", f"seat {ctx.committer}'s opening secret does not "
                        "open its seal", ctx.committer)
    return _keystream_xor(ctx, g.base_mul(s), seal.ciphertext)


@dataclass(frozen=True, slots=True)
class DecryptionShare:
    """S_e = x_e^-1 * Y_e and the proof that log_B y_e = log_{S_e} Y_e (6.6.7)."""

    point: Element
    proof: SealProof

    def encode(self, suite: Suite) -> list[bytes]:
        return [self.point.data, *self.proof.encode(suite)]

    @classmethod
    def decode(cls, suite: Suite, value: Any, seat: int) -> DecryptionShare:
        """Strict [S_e, c, z] (points by 2.3, scalars by 2.4); a failure blames `seat`."""
        if not (isinstance(value, list) and len(value) == 3
                and all(isinstance(item, bytes) for item in value)):
            raise SealError("seal/shape", "a decryption share is an array of 3 byte strings",
                            seat)
        try:
            return cls(suite.decode_point(value[0]), SealProof.decode(suite, value[1], value[2]))
        except EncodingError as exc:
            raise SealError(exc.code, exc.detail, seat) from None


def _decrypt_statement(ctx: SealContext, e: int, key: Element, point: Element,
                       share: Element) -> tuple[bytes, ...]:
    return (ctx.digest, u64(e), ctx.suite.group.generator.data, key.data, point.data,
            share.data)


def decryption_share(ctx: SealContext, seal: Seal, seat: int, x: int,
                     fresh: bytes) -> DecryptionShare:
    """Recipient `seat`'s decryption share of a verified seal, with its proof (6.6.7)."""
    pos = ctx.position(seat)
    if not ctx.share_count:
        raise LocalError("seal/no-shares", "a seal for fewer than 2 recipients has no shares")
    key = ctx.recipients[pos][1]
    suite, g = ctx.suite, ctx.suite.group
    if not 0 < x < g.order or g.base_mul(x) != key:
        raise LocalError("seal/witness", f"this is not seat {seat}'s seal key")
    share = seal.shares[pos].point
    point = g.mul(pow(x, -1, g.order), share)
    (k,) = suite.nonce_scalars(Tag.SEAL_DECRYPT.value, suite.encode_scalar(x),
                               ctx.digest + u64(seat + 1) + key.data + share.data, fresh, 1)
    proof = prove_equal_logs(suite, Tag.SEAL_DECRYPT,
                             _decrypt_statement(ctx, seat + 1, key, point, share),
                             x, (g.generator, point), k)
    return DecryptionShare(point, proof)


def verify_decryption_share(ctx: SealContext, seal: Seal, seat: int,
                            share: DecryptionShare) -> None:
    """SealError `seal/decryption-proof`, blaming `seat`, unless share.point is
    x_e^-1 * Y_e for recipient `seat` (6.6.7)."""
    pos = ctx.position(seat)
    _check_counts(ctx, seal)
    if not ctx.share_count:
        raise LocalError("seal/no-shares", "a seal for fewer than 2 recipients has no shares")
    key = ctx.recipients[pos][1]
    encrypted = seal.shares[pos].point
    require_equal_logs(ctx.suite, Tag.SEAL_DECRYPT,
                       _decrypt_statement(ctx, seat + 1, key, share.point, encrypted),
                       (ctx.suite.group.generator, share.point), (key, encrypted), share.proof,
                       SealError("seal/decryption-proof", f"seat {seat}'s decryption share of "
                                 f"seat {ctx.committer}'s seal does not verify", seat))


def combine(ctx: SealContext, seal: Seal, shares: dict[int, Element]) -> bytes:
    """The plaintext from verified decryption shares (6.6.8): the t lowest seats given
    are combined by Lagrange at 0, S = sum lambda_e S_e. Any t give the same S."""
    _check_counts(ctx, seal)
    if not ctx.share_count:
        raise LocalError("seal/no-shares", "a seal for fewer than 2 recipients has no shares")
    if len(shares) < ctx.t:
        raise LocalError("seal/too-few-shares", f"combining needs {ctx.t} shares")
    seats = sorted(shares)[:ctx.t]
    for seat in seats:
        ctx.position(seat)
    return _keystream_xor(ctx, _interpolate(ctx.suite.group, {s: shares[s] for s in seats}),
                          seal.ciphertext)


def _interpolate(g: Group, shares: dict[int, Element]) -> Element:
    """sum_e lambda_e * S_e with lambda_e = prod_{f != e} f / (f - e) mod g.order, at the
    evaluation points e = seat + 1 (6.6.8). One modular inversion serves every
    denominator (Montgomery's trick): an inversion costs about half a V in Python."""
    seats = list(shares)
    xs = [seat + 1 for seat in seats]
    nums, dens = [], []
    for e in xs:
        num, den = 1, 1
        for f in xs:
            if f != e:
                num = num * f % g.order
                den = den * (f - e) % g.order
        nums.append(num)
        dens.append(den)
    prefix = [1]
    for den in dens:
        prefix.append(prefix[-1] * den % g.order)
    inv = pow(prefix[-1], -1, g.order)
    lambdas = [0] * len(xs)
    for i in reversed(range(len(xs))):
        lambdas[i] = nums[i] * inv * prefix[i] % g.order
        inv = inv * dens[i] % g.order
    return g.sum([g.mul(lam, shares[seat]) for lam, seat in zip(lambdas, seats, strict=True)])


def pad(data: bytes, size: int) -> bytes:
    """u16 big-endian length || data || zeros, `size` bytes in all (6.6.3)."""
    if not 2 + len(data) <= size < 1 << 20 or len(data) >= 1 << 16:
        raise LocalError("seal/pad-size", f"{len(data)} bytes do not pad to {size}")
    return len(data).to_bytes(2, "big") + data + bytes(size - 2 - len(data))


def unpad(data: bytes, committer: int) -> bytes:
    """Strict inverse of `pad`: a length beyond the data or a nonzero fill byte is the
    committer's SealError `seal/padding` (6.6.3)."""
    n = int.from_bytes(data[:2], "big")
    if len(data) < 2 or n > len(data) - 2 or any(data[2 + n:]):
        raise SealError("seal/padding", f"seat {committer}'s sealed plaintext is not "
                        "padded as 6.6.3 requires", committer)
    return data[2:2 + n]
