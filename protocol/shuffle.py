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
from .groups import Element
from .suite import Suite
from .tags import Tag, require_fresh, u64

MAX_DECK = 1 << 16
MIN_SECRET_BYTES = 32   # a key share x_i, 32 bytes little-endian (7.3)

Deck = tuple[Ciphertext, ...]


@lru_cache(maxsize=4)
def commitment_base(suite: Suite) -> Element:
    """h = H2P(GENERATOR, "h")."""
    return suite.hash_to_point(Tag.GENERATOR, b"h")


@lru_cache(maxsize=16)
def commitment_generators(suite: Suite, n: int) -> tuple[Element, ...]:
    """h_i = H2P(GENERATOR, "h_i", u64(i)) for i = 0..n-1 (spec/07-shuffle.md 7.2)."""
    return tuple(suite.hash_to_point(Tag.GENERATOR, b"h_i", u64(i)) for i in range(n))


@lru_cache(maxsize=16)
def _generator_sum(suite: Suite, n: int) -> Element:
    return suite.group.sum(commitment_generators(suite, n))


@dataclass(frozen=True, slots=True)
class ShuffleWitness:
    """The shuffler's secret: pi (output i holds input pi[i]) and r'_i."""

    permutation: tuple[int, ...] = field(repr=False)
    randomness: tuple[int, ...] = field(repr=False)

    def encode(self, suite: Suite) -> bytes:
        return b"".join(u64(p) for p in self.permutation) + b"".join(
            suite.encode_scalar(r) for r in self.randomness)


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """pi = (c, c^, chal, s1, s2, s3, s4, s^, s') of spec/07-shuffle.md 7.4."""

    commitments: tuple[Element, ...]   # c_0..c_{N-1}, permutation commitment
    chain: tuple[Element, ...]         # c^_0..c^_{N-1}, commitment chain
    challenge: int                     # chal
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]             # s^_0..s^_{N-1}
    s_prime: tuple[int, ...]           # s'_0..s'_{N-1}
    t_hat: tuple[Element, ...] = ()    # t^_0..t^_{N-1}, sent from dealerless/3 (7.5.1)

    @property
    def size(self) -> int:
        return len(self.commitments)

    def encode(self, suite: Suite) -> bytes:
        return b"".join((
            b"".join(p.data for p in self.commitments),
            b"".join(p.data for p in self.chain),
            b"".join(p.data for p in self.t_hat),
            b"".join(suite.encode_scalar(x) for x in
                     (self.challenge, self.s1, self.s2, self.s3, self.s4)),
            b"".join(suite.encode_scalar(x) for x in self.s_hat),
            b"".join(suite.encode_scalar(x) for x in self.s_prime),
        ))

    @classmethod
    def decode(cls, suite: Suite, data: bytes, n: int) -> ShuffleProof:
        """Strictly decode a proof for a deck of n ciphertexts (`proof_bytes`)."""
        size = proof_bytes(suite, n)
        if not isinstance(data, bytes) or len(data) != size:
            raise EncodingError("shuffle/length",
                                f"a shuffle proof for {n} tiles is {size} bytes")
        pw, sw = suite.point_bytes, suite.scalar_bytes
        off = proof_points(suite, n) * pw
        pts = [suite.decode_point(data[i:i + pw]) for i in range(0, off, pw)]
        sc = [suite.decode_scalar(data[i:i + sw]) for i in range(off, len(data), sw)]
        return cls(tuple(pts[:n]), tuple(pts[n:2 * n]), sc[0], sc[1], sc[2], sc[3], sc[4],
                   tuple(sc[5:5 + n]), tuple(sc[5 + n:]), tuple(pts[2 * n:]))


def proof_points(suite: Suite, n: int) -> int:
    """c and c^, and from dealerless/3 the t^ the verifier batches (7.5.1)."""
    return (2 if suite.version < 3 else 3) * n


def proof_bytes(suite: Suite, n: int) -> int:
    """2N elements (3N from dealerless/3) and 2N + 5 scalars (7.6): 128N + 160 bytes in
    dealerless/2."""
    return proof_points(suite, n) * suite.point_bytes + (2 * n + 5) * suite.scalar_bytes


def derive_witness(suite: Suite, n: int, fresh: bytes, hedge: bytes = b"") -> ShuffleWitness:
    """Draw pi (Fisher-Yates) and r' from `hedge` and `fresh` (spec/07-shuffle.md 7.3).

    `hedge` is the shuffler's secret bound to the statement (see shuffle_hedge):
    if the OS ever repeated `fresh` (a cloned VM, a restored snapshot), two
    shuffles of different decks would still get unrelated permutations. Each
    draw is a hash of at least 256 bits reduced mod (i+1), or a scalar of the suite:
    uniform for every practical purpose.
    """
    if not 1 <= n <= MAX_DECK:
        raise LocalError("shuffle/size", f"deck size must be in 1..{MAX_DECK}")
    require_fresh(fresh)
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int.from_bytes(suite.H(Tag.SHUFFLE_WITNESS, hedge, fresh, b"pi", u64(i)),
                           "little") % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    rand = tuple(suite.hash_to_scalar(Tag.SHUFFLE_WITNESS, hedge, fresh, b"r", u64(i))
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
    return ctx.suite.H(Tag.SHUFFLE_WITNESS, secret, ctx.encode(), encode_deck(deck_in))


def apply_shuffle(suite: Suite, deck: Deck, joint_key: Element,
                  witness: ShuffleWitness) -> Deck:
    """e'_i = e_{pi(i)} + (r'_i*G, r'_i*Y)."""
    if sorted(witness.permutation) != list(range(len(deck))) or len(witness.randomness) != len(
            deck):
        raise LocalError("shuffle/witness", "the witness does not fit the deck")
    return tuple(reencrypt(suite, deck[j], r, joint_key)
                 for j, r in zip(witness.permutation, witness.randomness, strict=True))


def _statement(ctx: Context, joint_key: Element, deck_in: Deck, deck_out: Deck) -> bytes:
    n, suite = len(deck_in), ctx.suite
    return b"".join((
        ctx.encode(), suite.group.generator.data, joint_key.data, commitment_base(suite).data,
        b"".join(p.data for p in commitment_generators(suite, n)),
        encode_deck(deck_in), encode_deck(deck_out),
    ))


def shuffle_challenges(suite: Suite, statement: bytes,
                       commitments: tuple[Element, ...]) -> list[int]:
    """u_j = H_scalar(SHUFFLE_U, seed, u64(j)), seed = H(SHUFFLE_U, statement, c)."""
    seed = suite.H(Tag.SHUFFLE_U, statement, b"".join(p.data for p in commitments))
    return [suite.hash_to_scalar(Tag.SHUFFLE_U, seed, u64(j)) for j in range(len(commitments))]


def shuffle_challenge(suite: Suite, statement: bytes, proof_commitments: tuple[Element, ...],
                      chain: tuple[Element, ...], t: tuple[Element, ...]) -> int:
    """chal = H_scalar(SHUFFLE_C, statement, c, c^, t1, t2, t3, t4_1, t4_2, t^_0..t^_{N-1})."""
    return suite.hash_to_scalar(Tag.SHUFFLE_C, statement,
                                b"".join(p.data for p in proof_commitments),
                                b"".join(p.data for p in chain),
                                b"".join(p.data for p in t))


def prove_shuffle(deck_in: Deck, deck_out: Deck, joint_key: Element, witness: ShuffleWitness,
                  ctx: Context, fresh: bytes) -> ShuffleProof:
    """GenShuffleProof, additive and 0-based (spec/07-shuffle.md 7.4)."""
    n = len(deck_in)
    if len(deck_out) != n or len(witness.permutation) != n:
        raise LocalError("shuffle/size", "decks and witness differ in size")
    pi = witness.permutation
    suite = ctx.suite
    g = suite.group
    h = commitment_base(suite)
    hs = commitment_generators(suite, n)
    statement = _statement(ctx, joint_key, deck_in, deck_out)
    nonces = suite.nonce_scalars(b"shuffle", witness.encode(suite), statement, fresh,
                                 4 * n + 4)
    r = nonces[:n]                    # commitment randomness, indexed by input position
    r_hat = nonces[n:2 * n]
    w_hat = nonces[2 * n:3 * n]
    w_prime = nonces[3 * n:4 * n]
    w1, w2, w3, w4 = nonces[4 * n:]

    commitments: list[Element] = [g.generator] * n
    for i, j in enumerate(pi):
        commitments[j] = g.add(g.base_mul(r[j]), hs[i])
    c = tuple(commitments)
    u = shuffle_challenges(suite, statement, c)
    u_prime = [u[j] for j in pi]

    chain: list[Element] = []
    prev = h
    for i in range(n):
        prev = g.add(g.base_mul(r_hat[i]), g.mul(u_prime[i], prev))
        chain.append(prev)

    t1 = g.base_mul(w1)
    t2 = g.base_mul(w2)
    t3 = g.add(g.base_mul(w3), g.msm(w_prime, hs))
    t41 = g.sub(g.msm(w_prime, [e.c1 for e in deck_out]), g.base_mul(w4))
    t42 = g.sub(g.msm(w_prime, [e.c2 for e in deck_out]), g.mul(w4, joint_key))
    t_hat = [g.add(g.base_mul(w_hat[i]), g.mul(w_prime[i], h if i == 0 else chain[i - 1]))
             for i in range(n)]
    chal = shuffle_challenge(suite, statement, c, tuple(chain), (t1, t2, t3, t41, t42, *t_hat))

    v = [1] * n                      # v_i = prod_{k > i} u'_k
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_prime[i] * v[i] % g.order
    r_bar = sum(r) % g.order
    r_hat_sum = sum(a * b for a, b in zip(r_hat, v, strict=True)) % g.order
    r_tilde = sum(a * b for a, b in zip(r, u, strict=True)) % g.order
    r_prime = sum(a * b for a, b in zip(witness.randomness, u_prime, strict=True)) % g.order
    return ShuffleProof(
        c, tuple(chain), chal,
        (w1 - chal * r_bar) % g.order, (w2 - chal * r_hat_sum) % g.order,
        (w3 - chal * r_tilde) % g.order, (w4 - chal * r_prime) % g.order,
        tuple((w_hat[i] - chal * r_hat[i]) % g.order for i in range(n)),
        tuple((w_prime[i] - chal * u_prime[i]) % g.order for i in range(n)),
        tuple(t_hat) if suite.version >= 3 else (),
    )


@dataclass(frozen=True, slots=True)
class ShuffleTrace:
    """The verifier's intermediate values (spec/07-shuffle.md 7.5), kept for vectors."""

    u: tuple[int, ...]
    t: tuple[Element, ...]    # t1, t2, t3, t4_1, t4_2, t^_0..t^_{N-1}, recomputed
    challenge: int          # the challenge those recomputed values hash to


def recompute_shuffle(deck_in: Deck, deck_out: Deck, joint_key: Element, proof: ShuffleProof,
                      ctx: Context) -> ShuffleTrace:
    """CheckShuffleProof up to, not including, the final comparison."""
    n = len(deck_in)
    if n == 0 or len(deck_out) != n:
        raise ProofError("shuffle/size", "input and output decks must have the same size N > 0")
    if not (len(proof.commitments) == len(proof.chain) == len(proof.s_hat)
            == len(proof.s_prime) == n
            and len(proof.t_hat) == (n if ctx.suite.version >= 3 else 0)):
        raise ProofError("shuffle/size", f"the proof is not for a deck of {n}")
    if len({ct.c1.data for ct in deck_out}) != n:
        # Decryption proofs bind to c1 (6.3): two positions sharing one c1 would share
        # every decryption share, so opening one would open the other. Honest
        # re-encryption repeats a c1 with negligible probability.
        raise ProofError("shuffle/repeated-c1", "two output ciphertexts share their c1")
    suite = ctx.suite
    g = suite.group
    h = commitment_base(suite)
    hs = commitment_generators(suite, n)
    statement = _statement(ctx, joint_key, deck_in, deck_out)
    c, chain, chal, sp = proof.commitments, proof.chain, proof.challenge, proof.s_prime
    u = shuffle_challenges(suite, statement, c)

    c_bar = g.sub(g.sum(c), _generator_sum(suite, n))   # = r_bar*G for an honest c
    u_prod = 1
    for x in u:
        u_prod = u_prod * x % g.order
    c_hat = g.sub(chain[-1], g.mul(u_prod, h))          # = r^*G for an honest chain
    c_tilde = g.msm(u, c)
    a_agg = g.msm(u, [e.c1 for e in deck_in])
    b_agg = g.msm(u, [e.c2 for e in deck_in])

    t1 = g.add(g.mul(chal, c_bar), g.base_mul(proof.s1))
    t2 = g.add(g.mul(chal, c_hat), g.base_mul(proof.s2))
    t3 = g.add(g.add(g.mul(chal, c_tilde), g.base_mul(proof.s3)), g.msm(sp, hs))
    t41 = g.sub(g.add(g.mul(chal, a_agg), g.msm(sp, [e.c1 for e in deck_out])),
                g.base_mul(proof.s4))
    t42 = g.sub(g.add(g.mul(chal, b_agg), g.msm(sp, [e.c2 for e in deck_out])),
                g.mul(proof.s4, joint_key))
    if suite.version >= 3:
        t_hat = list(proof.t_hat)        # sent, and checked together by 7.5.1
    else:
        t_hat = [g.add(g.add(g.mul(chal, chain[i]), g.base_mul(proof.s_hat[i])),
                       g.mul(sp[i], h if i == 0 else chain[i - 1])) for i in range(n)]
    t = (t1, t2, t3, t41, t42, *t_hat)
    return ShuffleTrace(tuple(u), t, shuffle_challenge(suite, statement, c, chain, t))


def verify_shuffle(deck_in: Deck, deck_out: Deck, joint_key: Element, proof: ShuffleProof,
                   ctx: Context) -> None:
    """CheckShuffleProof (spec/07-shuffle.md 7.5): return None or raise ProofError."""
    if recompute_shuffle(deck_in, deck_out, joint_key, proof, ctx).challenge != proof.challenge:
        raise ProofError("shuffle/challenge",
                         "recomputed challenge differs: the output is not a proven shuffle")
    if ctx.suite.version >= 3 and not chain_holds(deck_in, deck_out, joint_key, proof, ctx):
        raise ProofError("shuffle/challenge",
                         "the proof's t^ do not fit its chain: the output is not a proven "
                         "shuffle")


def chain_holds(deck_in: Deck, deck_out: Deck, joint_key: Element, proof: ShuffleProof,
                ctx: Context) -> bool:
    """The N equations t^_i = chal*c^_i + s^_i*G + s'_i*c^_{i-1} as one random linear
    combination (7.5.1): weights a_0 = 1, a_i = H_scalar(SHUFFLE_WEIGHT, seed, u64(i)),
    seed = H(SHUFFLE_WEIGHT, stmt, proof), so one MSM of 2N + 1 terms and a base mult."""
    suite, g = ctx.suite, ctx.suite.group
    n, q, chal, sp = proof.size, ctx.suite.order, proof.challenge, proof.s_prime
    seed = suite.H(Tag.SHUFFLE_WEIGHT, _statement(ctx, joint_key, deck_in, deck_out),
                   proof.encode(suite))
    a = [1] + [suite.hash_to_scalar(Tag.SHUFFLE_WEIGHT, seed, u64(i)) for i in range(1, n)]
    # c^_i appears in equation i (times chal) and, as c^_{i-1}, in equation i+1.
    on_chain = [-(a[i] * chal + (a[i + 1] * sp[i + 1] if i + 1 < n else 0)) % q
                for i in range(n)]
    total = g.msm([*a, *on_chain, -a[0] * sp[0] % q],
                  [*proof.t_hat, *proof.chain, commitment_base(suite)])
    s_hat = sum(ai * si for ai, si in zip(a, proof.s_hat, strict=True)) % q
    return g.sub(total, g.base_mul(s_hat)) == g.identity
