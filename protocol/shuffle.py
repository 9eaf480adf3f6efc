"""Verifiable re-encryption shuffle: Terelius-Wikstrom proof (spec/07-shuffle.md).

Theory of operation
-------------------
A shuffler maps an input deck e_0..e_{N-1} to an output deck with

    e'_i = e_{pi(i)} + (r'_i*G, r'_i*Y)          (output i holds input pi(i))

and proves it without revealing pi or r'. The proof follows the pseudocode of
Haenni, Locher, Koenig and Dubuis (FC 2017; CHVote ePrint 2017/325, algorithms
GenShuffleProof/CheckShuffleProof), rewritten additively with 0-based indices:

1. a Pedersen commitment to the permutation matrix, c_{pi(i)} = r_{pi(i)}*G + h_i;
2. challenges u_j for the *input* positions, hashed from the statement and c;
3. a commitment chain c^_i = r^_i*G + u_{pi(i)}*c^_{i-1}, with c^_{-1} = h, which
   commits to prod(u) and so shows that the committed matrix is a permutation;
4. one sigma protocol for the five linear relations, made non-interactive by a
   challenge over the whole statement, context and every commitment.

The generators h, h_0..h_{N-1} are hash-to-point images of public labels: a
known discrete-log relation between them would let a prover swap tiles
(Lewis, Pereira, Teague 2019), so nobody may choose them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .context import Context
from .elgamal import Ciphertext, encode_deck, reencrypt
from .errors import EncodingError, LocalError, ProofError
from .group import (
    POINT_BYTES,
    SCALAR_BYTES,
    G,
    L,
    Point,
    add,
    base_mul,
    decode_point,
    decode_scalar,
    mul,
    point_sum,
    scalar_bytes,
    sub,
)
from .hashing import H, Tag, hash_to_point, hash_to_scalar, nonce_scalars, require_fresh, u64

MAX_DECK = 1 << 16
MIN_SECRET_BYTES = 32   # a key share x_i, 32 bytes little-endian (7.3)

Deck = tuple[Ciphertext, ...]


@lru_cache(maxsize=1)
def commitment_base() -> Point:
    """h = H2P(GENERATOR, "h")."""
    return hash_to_point(Tag.GENERATOR, b"h")


@lru_cache(maxsize=16)
def commitment_generators(n: int) -> tuple[Point, ...]:
    """h_i = H2P(GENERATOR, "h_i", u64(i)) for i = 0..n-1 (spec/07-shuffle.md 7.2)."""
    return tuple(hash_to_point(Tag.GENERATOR, b"h_i", u64(i)) for i in range(n))


@lru_cache(maxsize=16)
def _generator_sum(n: int) -> Point:
    return point_sum(commitment_generators(n))


@dataclass(frozen=True, slots=True)
class ShuffleWitness:
    """The shuffler's secret: pi (output i holds input pi[i]) and r'_i."""

    permutation: tuple[int, ...] = field(repr=False)
    randomness: tuple[int, ...] = field(repr=False)

    def encode(self) -> bytes:
        return b"".join(u64(p) for p in self.permutation) + b"".join(
            scalar_bytes(r) for r in self.randomness)


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """pi = (c, c^, chal, s1, s2, s3, s4, s^, s') of spec/07-shuffle.md 7.4."""

    commitments: tuple[Point, ...]   # c_0..c_{N-1}, permutation commitment
    chain: tuple[Point, ...]         # c^_0..c^_{N-1}, commitment chain
    challenge: int                   # chal
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]           # s^_0..s^_{N-1}
    s_prime: tuple[int, ...]         # s'_0..s'_{N-1}

    @property
    def size(self) -> int:
        return len(self.commitments)

    def encode(self) -> bytes:
        return b"".join((
            b"".join(p.data for p in self.commitments),
            b"".join(p.data for p in self.chain),
            b"".join(scalar_bytes(x) for x in
                     (self.challenge, self.s1, self.s2, self.s3, self.s4)),
            b"".join(scalar_bytes(x) for x in self.s_hat),
            b"".join(scalar_bytes(x) for x in self.s_prime),
        ))

    @classmethod
    def decode(cls, data: bytes, n: int) -> ShuffleProof:
        """Strictly decode a proof for a deck of n ciphertexts (128n + 160 bytes)."""
        if not isinstance(data, bytes) or len(data) != proof_bytes(n):
            raise EncodingError("shuffle/length",
                                f"a shuffle proof for {n} tiles is {proof_bytes(n)} bytes")
        pts = [decode_point(data[i:i + POINT_BYTES]) for i in range(0, 2 * n * POINT_BYTES,
                                                                     POINT_BYTES)]
        off = 2 * n * POINT_BYTES
        sc = [decode_scalar(data[i:i + SCALAR_BYTES]) for i in range(off, len(data),
                                                                   SCALAR_BYTES)]
        return cls(tuple(pts[:n]), tuple(pts[n:]), sc[0], sc[1], sc[2], sc[3], sc[4],
                   tuple(sc[5:5 + n]), tuple(sc[5 + n:]))


def proof_bytes(n: int) -> int:
    return 2 * n * POINT_BYTES + (2 * n + 5) * SCALAR_BYTES


def derive_witness(n: int, fresh: bytes, hedge: bytes = b"") -> ShuffleWitness:
    """Draw pi (Fisher-Yates) and r' from `hedge` and `fresh` (spec/07-shuffle.md 7.3).

    `hedge` is the shuffler's secret bound to the statement (see shuffle_hedge):
    if the OS ever repeated `fresh` (a cloned VM, a restored snapshot), two
    shuffles of different decks would still get unrelated permutations. Each
    draw is a 512-bit hash reduced mod (i+1) or mod L: uniform for every
    practical purpose.
    """
    if not 1 <= n <= MAX_DECK:
        raise LocalError("shuffle/size", f"deck size must be in 1..{MAX_DECK}")
    require_fresh(fresh)
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int.from_bytes(H(Tag.SHUFFLE_WITNESS, hedge, fresh, b"pi", u64(i)),
                           "little") % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    rand = tuple(hash_to_scalar(Tag.SHUFFLE_WITNESS, hedge, fresh, b"r", u64(i))
                 for i in range(n))
    return ShuffleWitness(tuple(perm), rand)


def shuffle_hedge(secret: bytes, ctx: Context, deck_in: Deck) -> bytes:
    """H(SHUFFLE_WITNESS, secret, ctx, deck): the hedge of derive_witness (7.3).

    A short secret would make the hedge guessable, and a repeated `fresh` would
    then give away the permutation again, so it is refused.
    """
    if len(secret) < MIN_SECRET_BYTES:
        raise LocalError("shuffle/secret-too-short",
                         f"a shuffle secret must be at least {MIN_SECRET_BYTES} bytes")
    return H(Tag.SHUFFLE_WITNESS, secret, ctx.encode(), encode_deck(deck_in))


def apply_shuffle(deck: Deck, joint_key: Point, witness: ShuffleWitness) -> Deck:
    """e'_i = e_{pi(i)} + (r'_i*G, r'_i*Y)."""
    if sorted(witness.permutation) != list(range(len(deck))) or len(witness.randomness) != len(
            deck):
        raise LocalError("shuffle/witness", "the witness does not fit the deck")
    return tuple(reencrypt(deck[j], r, joint_key)
                 for j, r in zip(witness.permutation, witness.randomness, strict=True))


def _statement(ctx: Context, joint_key: Point, deck_in: Deck, deck_out: Deck) -> bytes:
    n = len(deck_in)
    return b"".join((
        ctx.encode(), G.data, joint_key.data, commitment_base().data,
        b"".join(p.data for p in commitment_generators(n)),
        encode_deck(deck_in), encode_deck(deck_out),
    ))


def shuffle_challenges(statement: bytes, commitments: tuple[Point, ...]) -> list[int]:
    """u_j = H_scalar(SHUFFLE_U, seed, u64(j)), seed = H(SHUFFLE_U, statement, c)."""
    seed = H(Tag.SHUFFLE_U, statement, b"".join(p.data for p in commitments))
    return [hash_to_scalar(Tag.SHUFFLE_U, seed, u64(j)) for j in range(len(commitments))]


def shuffle_challenge(statement: bytes, proof_commitments: tuple[Point, ...],
                      chain: tuple[Point, ...], t: tuple[Point, ...]) -> int:
    """chal = H_scalar(SHUFFLE_C, statement, c, c^, t1, t2, t3, t4_1, t4_2, t^_0..t^_{N-1})."""
    return hash_to_scalar(Tag.SHUFFLE_C, statement,
                          b"".join(p.data for p in proof_commitments),
                          b"".join(p.data for p in chain),
                          b"".join(p.data for p in t))


def prove_shuffle(deck_in: Deck, deck_out: Deck, joint_key: Point, witness: ShuffleWitness,
                  ctx: Context, fresh: bytes) -> ShuffleProof:
    """GenShuffleProof, additive and 0-based (spec/07-shuffle.md 7.4)."""
    n = len(deck_in)
    if len(deck_out) != n or len(witness.permutation) != n:
        raise LocalError("shuffle/size", "decks and witness differ in size")
    pi = witness.permutation
    h = commitment_base()
    hs = commitment_generators(n)
    statement = _statement(ctx, joint_key, deck_in, deck_out)
    nonces = nonce_scalars(b"shuffle", witness.encode(), statement, fresh, 4 * n + 4)
    r = nonces[:n]                    # commitment randomness, indexed by input position
    r_hat = nonces[n:2 * n]
    w_hat = nonces[2 * n:3 * n]
    w_prime = nonces[3 * n:4 * n]
    w1, w2, w3, w4 = nonces[4 * n:]

    commitments: list[Point] = [G] * n
    for i, j in enumerate(pi):
        commitments[j] = add(base_mul(r[j]), hs[i])
    c = tuple(commitments)
    u = shuffle_challenges(statement, c)
    u_prime = [u[j] for j in pi]

    chain: list[Point] = []
    prev = h
    for i in range(n):
        prev = add(base_mul(r_hat[i]), mul(u_prime[i], prev))
        chain.append(prev)

    t1 = base_mul(w1)
    t2 = base_mul(w2)
    t3 = add(base_mul(w3), point_sum([mul(w, hi) for w, hi in zip(w_prime, hs, strict=True)]))
    t41 = sub(point_sum([mul(w, e.c1) for w, e in zip(w_prime, deck_out, strict=True)]),
              base_mul(w4))
    t42 = sub(point_sum([mul(w, e.c2) for w, e in zip(w_prime, deck_out, strict=True)]),
              mul(w4, joint_key))
    t_hat = [add(base_mul(w_hat[i]), mul(w_prime[i], h if i == 0 else chain[i - 1]))
             for i in range(n)]
    chal = shuffle_challenge(statement, c, tuple(chain), (t1, t2, t3, t41, t42, *t_hat))

    v = [1] * n                      # v_i = prod_{k > i} u'_k
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_prime[i] * v[i] % L
    r_bar = sum(r) % L
    r_hat_sum = sum(a * b for a, b in zip(r_hat, v, strict=True)) % L
    r_tilde = sum(a * b for a, b in zip(r, u, strict=True)) % L
    r_prime = sum(a * b for a, b in zip(witness.randomness, u_prime, strict=True)) % L
    return ShuffleProof(
        c, tuple(chain), chal,
        (w1 - chal * r_bar) % L, (w2 - chal * r_hat_sum) % L,
        (w3 - chal * r_tilde) % L, (w4 - chal * r_prime) % L,
        tuple((w_hat[i] - chal * r_hat[i]) % L for i in range(n)),
        tuple((w_prime[i] - chal * u_prime[i]) % L for i in range(n)),
    )


@dataclass(frozen=True, slots=True)
class ShuffleTrace:
    """The verifier's intermediate values (spec/07-shuffle.md 7.5), kept for vectors."""

    u: tuple[int, ...]
    t: tuple[Point, ...]    # t1, t2, t3, t4_1, t4_2, t^_0..t^_{N-1}, recomputed
    challenge: int          # the challenge those recomputed values hash to


def recompute_shuffle(deck_in: Deck, deck_out: Deck, joint_key: Point, proof: ShuffleProof,
                      ctx: Context) -> ShuffleTrace:
    """CheckShuffleProof up to, not including, the final comparison."""
    n = len(deck_in)
    if n == 0 or len(deck_out) != n:
        raise ProofError("shuffle/size", "input and output decks must have the same size N > 0")
    if not (len(proof.commitments) == len(proof.chain) == len(proof.s_hat)
            == len(proof.s_prime) == n):
        raise ProofError("shuffle/size", f"the proof is not for a deck of {n}")
    if len({ct.c1.data for ct in deck_out}) != n:
        # Decryption proofs bind to c1 (6.3): two positions sharing one c1 would share
        # every decryption share, so opening one would open the other. Honest
        # re-encryption repeats a c1 with negligible probability.
        raise ProofError("shuffle/repeated-c1", "two output ciphertexts share their c1")
    h = commitment_base()
    hs = commitment_generators(n)
    statement = _statement(ctx, joint_key, deck_in, deck_out)
    c, chain, chal, sp = proof.commitments, proof.chain, proof.challenge, proof.s_prime
    u = shuffle_challenges(statement, c)

    c_bar = sub(point_sum(c), _generator_sum(n))          # = r_bar*G for an honest c
    u_prod = 1
    for x in u:
        u_prod = u_prod * x % L
    c_hat = sub(chain[-1], mul(u_prod, h))                # = r^*G for an honest chain
    c_tilde = point_sum([mul(x, cj) for x, cj in zip(u, c, strict=True)])
    a_agg = point_sum([mul(x, e.c1) for x, e in zip(u, deck_in, strict=True)])
    b_agg = point_sum([mul(x, e.c2) for x, e in zip(u, deck_in, strict=True)])

    t1 = add(mul(chal, c_bar), base_mul(proof.s1))
    t2 = add(mul(chal, c_hat), base_mul(proof.s2))
    t3 = add(add(mul(chal, c_tilde), base_mul(proof.s3)),
             point_sum([mul(s, hi) for s, hi in zip(sp, hs, strict=True)]))
    t41 = sub(add(mul(chal, a_agg), point_sum([mul(s, e.c1) for s, e in
                                               zip(sp, deck_out, strict=True)])),
              base_mul(proof.s4))
    t42 = sub(add(mul(chal, b_agg), point_sum([mul(s, e.c2) for s, e in
                                               zip(sp, deck_out, strict=True)])),
              mul(proof.s4, joint_key))
    t_hat = [add(add(mul(chal, chain[i]), base_mul(proof.s_hat[i])),
                 mul(sp[i], h if i == 0 else chain[i - 1])) for i in range(n)]
    t = (t1, t2, t3, t41, t42, *t_hat)
    return ShuffleTrace(tuple(u), t, shuffle_challenge(statement, c, chain, t))


def verify_shuffle(deck_in: Deck, deck_out: Deck, joint_key: Point, proof: ShuffleProof,
                   ctx: Context) -> None:
    """CheckShuffleProof (spec/07-shuffle.md 7.5): return None or raise ProofError."""
    if recompute_shuffle(deck_in, deck_out, joint_key, proof, ctx).challenge != proof.challenge:
        raise ProofError("shuffle/challenge",
                         "recomputed challenge differs: the output is not a proven shuffle")
