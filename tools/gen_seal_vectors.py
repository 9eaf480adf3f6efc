#!/usr/bin/env python3
"""Generate seal.json: sealed commitments (spec/06-proofs.md 6.6).

    python tools/gen_seal_vectors.py [--suite S]          # rewrite the file
    python tools/gen_seal_vectors.py [--suite S] --check  # exit 1 if it differs

Without --suite, spec/vectors/seal.json (dealerless/2, edwards25519-sha512); with it,
spec/vectors/suites/S/seal.json.

Every seed, nonce and `fresh` input is SHA-512("dealerless-vectors/" || label), as in
tools/gen_vectors.py, so anyone can regenerate the file. spec/vectors/README.md
documents every field.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
from typing import Any

from vector_common import Kit, seed, write_or_check_suite

from protocol.canonical import pack
from protocol.errors import DealerlessError, SealError
from protocol.seal import (
    DecryptionShare,
    Seal,
    SealContext,
    combine,
    deal,
    decode_secret,
    decryption_share,
    open_with_secret,
    pad,
    prove_share_key,
    seal_context,
    seal_generator,
    seal_secret,
    share_key,
    unpad,
    verify_decryption_share,
    verify_seal,
    verify_share_key,
)
from protocol.tags import Tag, u64

GAME = hashlib.sha512(b"dealerless-vectors/seal/game").digest()[:32]
STAGE = 5
SEATS = 8
SIZE = 48


class SealKit(Kit):
    """The suite's kit, with the seats' share keys and the bad values the cases use."""

    def __init__(self, v: Kit) -> None:
        super().__init__(v.S)
        self.keys = {j: share_key(self.S, seed(f"seal/key/{j}"), GAME) for j in range(SEATS)}
        self.identity = self.IDENTITY.data
        # A point the decoder refuses by its group: edwards25519's y = 0, of order 4, and
        # in the groups without small orders, a point off the curve.
        self.bad, self.bad_point = (("small-order", bytes(32)) if self.order2_hex is not None
                                    else ("off-curve", bytes.fromhex(self.not_on_curve_hex)))
        self.non_canonical = bytes.fromhex(self.noncanon_hex)
        self.high_scalar = self.raw_scalar(self.L)


def key_vectors(v: SealKit) -> list[dict[str, Any]]:
    out = []
    for j, x in v.keys.items():
        key, proof = prove_share_key(v.S, x, GAME, j, seed(f"seal/key-fresh/{j}"))
        out.append({"seat": j, "seed": seed(f"seal/key/{j}").hex(), "x": str(x),
                    "y": key.data.hex(), "fresh": seed(f"seal/key-fresh/{j}").hex(),
                    "c": v.scalar_bytes(proof.c).hex(), "z": v.scalar_bytes(proof.z).hex()})
    return out


def context(v: SealKit, m: int, committer: int) -> SealContext:
    seats = [j for j in range(SEATS) if j != committer][:m]
    return seal_context(v.S, GAME, STAGE, committer, [(j, v.base_mul(v.keys[j])) for j in seats])


def outcome(fn: Any) -> tuple[str, int | None]:
    try:
        fn()
    except SealError as exc:
        return exc.code, exc.seat
    return "ok", None


def deal_vector(v: SealKit, name: str, m: int, committer: int, data: bytes | None,
                plaintext: bytes) -> tuple[dict[str, Any], SealContext, Seal]:
    ctx = context(v, m, committer)
    nonce, fresh = seed(f"seal/{name}/nonce"), seed(f"seal/{name}/fresh")
    seal = deal(ctx, nonce, plaintext, fresh)
    coeffs = [v.hash_to_scalar(Tag.SEAL_COEFF, ctx.digest, nonce, u64(j)) for j in range(ctx.t)]
    s = seal_secret(ctx, nonce)
    opened = open_with_secret(ctx, seal, s)
    vec: dict[str, Any] = {
        "name": name, "game_id": GAME.hex(), "stage": STAGE, "committer": committer,
        "recipients": [j for j, _ in ctx.recipients], "m": ctx.m, "t": ctx.t,
        "context": ctx.digest.hex(), "nonce": nonce.hex(), "fresh": fresh.hex(),
        "size": SIZE, "plaintext": plaintext.hex(),
        "coefficients": [str(a) for a in coeffs], "secret": v.scalar_bytes(s).hex(),
        "seal_point": v.base_mul(s).data.hex(),
        "commitments": [c.data.hex() for c in seal.commitments],
        "shares": [{"seat": j, "e": j + 1, "point": sh.point.data.hex(),
                    "c": v.scalar_bytes(sh.proof.c).hex(), "z": v.scalar_bytes(sh.proof.z).hex()}
                   for (j, _), sh in zip(ctx.recipients, seal.shares, strict=False)],
        "ciphertext": seal.ciphertext.hex(), "wire": pack(seal.encode(v.S)).hex(),
    }
    code, _ = outcome(lambda: unpad(opened, committer))
    vec["unpad"] = ({"expected": "ok", "data": data.hex()} if data is not None
                    else {"expected": code})
    assert code == ("ok" if data is not None else "seal/padding")
    if ctx.share_count:
        dec = {j: decryption_share(ctx, seal, j, v.keys[j], seed(f"seal/{name}/dec/{j}"))
               for j, _ in ctx.recipients}
        vec["decryption_shares"] = [
            {"seat": j, "fresh": seed(f"seal/{name}/dec/{j}").hex(),
             "point": d.point.data.hex(), "c": v.scalar_bytes(d.proof.c).hex(),
             "z": v.scalar_bytes(d.proof.z).hex(), "wire": pack(d.encode(v.S)).hex()}
            for j, d in dec.items()]
        subsets = list(itertools.combinations(sorted(dec), ctx.t))
        vec["combinations"] = []
        for subset in (subsets[0], subsets[len(subsets) // 2], subsets[-1]):
            text = combine(ctx, seal, {j: dec[j].point for j in subset})
            assert text == plaintext
            vec["combinations"].append({"seats": list(subset), "plaintext": text.hex()})
    return vec, ctx, seal


def tamper(value: list[Any], where: tuple[int, ...], new: Any) -> list[Any]:
    out: list[Any] = [list(value[0]), [list(s) for s in value[1]], value[2]]
    target: Any = out
    for i in where[:-1]:
        target = target[i]
    target[where[-1]] = new
    return out


def seal_cases(v: SealKit, deal_name: str, ctx: SealContext, seal: Seal,
               other: Seal) -> list[dict[str, Any]]:
    """Verification cases on one deal: (name, wire value) -> expected code and blame."""
    w = seal.encode(v.S)
    z = int.from_bytes(w[1][1][2], v.S.group.byteorder)
    cases: list[tuple[str, Any, int]] = [
        ("the deal itself", w, SIZE),
        ("array of 2", w[:2], SIZE),
        ("one commitment too few", [w[0][:-1], w[1], w[2]], SIZE),
        ("one commitment too many", [w[0] + [w[0][0]], w[1], w[2]], SIZE),
        ("one share too few", [w[0], w[1][:-1], w[2]], SIZE),
        ("ciphertext one byte long", w, SIZE - 1),
        ("a challenge that is an integer", tamper(w, (1, 0, 1), 5), SIZE),
        ("identity commitment", tamper(w, (0, 1), v.identity), SIZE),
        (f"{v.bad} encrypted share", tamper(w, (1, 2, 0), v.bad_point), SIZE),
        ("non-canonical commitment", tamper(w, (0, 0), v.non_canonical), SIZE),
        ("response not below L", tamper(w, (1, 3, 2), v.high_scalar), SIZE),
        ("bad share proof: response + 1", tamper(w, (1, 1, 2), v.scalar_bytes((z + 1) % v.L)),
         SIZE),
        ("share of seat 1 given to seat 0", tamper(w, (1, 0, 0), w[1][1][0]), SIZE),
        ("a commitment of another seal", tamper(w, (0, 2), other.encode(v.S)[0][2]), SIZE),
        ("a seal made for another stage", other.encode(v.S), SIZE),
        # Two faults at once: check 2 (every commitment) comes before check 3 (any share),
        # so each gives the commitment's code, never the share's (6.6.5).
        (f"non-canonical commitment and {v.bad} encrypted share",
         tamper(tamper(w, (0, 0), v.non_canonical), (1, 2, 0), v.bad_point), SIZE),
        ("identity commitment and response not below L",
         tamper(tamper(w, (0, 1), v.identity), (1, 0, 2), v.high_scalar), SIZE),
    ]
    out = []
    for name, value, size in cases:
        def check(value: Any = value, size: int = size) -> None:
            verify_seal(ctx, Seal.decode(value, ctx, size))
        code, blame = outcome(check)
        out.append({"name": name, "deal": deal_name, "check": "seal", "size": size,
                    "wire": pack(value).hex(), "expected": code, "blame": blame})
    return out


def opening_cases(v: SealKit, deal_name: str, ctx: SealContext,
                  seal: Seal) -> list[dict[str, Any]]:
    s = seal_secret(ctx, seed(f"seal/{deal_name}/nonce"))
    out = []
    for name, secret in (("the committer's secret", v.scalar_bytes(s)),
                         ("secret + 1", v.scalar_bytes((s + 1) % v.L)),
                         ("secret + L, not canonical", v.raw_scalar(s + v.L)),
                         ("zero", bytes(32))):
        code, blame = outcome(lambda secret=secret: open_with_secret(  # type: ignore[misc]
            ctx, seal, decode_secret(ctx, secret)))
        out.append({"name": name, "deal": deal_name, "check": "opening",
                    "secret": secret.hex(), "expected": code, "blame": blame})
    return out


def decryption_cases(v: SealKit, deal_name: str, ctx: SealContext, seal: Seal,
                     other: tuple[SealContext, Seal]) -> list[dict[str, Any]]:
    (a, _), (b, _) = ctx.recipients[:2]
    share = decryption_share(ctx, seal, a, v.keys[a], seed(f"seal/{deal_name}/dec/{a}"))
    share_b = decryption_share(ctx, seal, b, v.keys[b], seed(f"seal/{deal_name}/dec/{b}"))
    foreign = decryption_share(other[0], other[1], a, v.keys[a], seed("seal/other/dec"))
    w = share.encode(v.S)
    cases = [("a valid share", a, w), ("seat a's share sent as seat b's", b, w),
             ("seat b's point with seat a's proof", a, [share_b.encode(v.S)[0], *w[1:]]),
             ("response + 1", a, [*w[:2], v.scalar_bytes((share.proof.z + 1) % v.L)]),
             ("a share of another stage's seal", a, foreign.encode(v.S)),
             ("identity point", a, [v.identity, *w[1:]]),
             (f"{v.bad} point", a, [v.bad_point, *w[1:]]),
             ("non-canonical point", a, [v.non_canonical, *w[1:]]),
             ("challenge not below L", a, [w[0], v.high_scalar, w[2]]),
             ("array of 2", a, w[:2])]
    out = []
    for name, seat, value in cases:
        def check(seat: int = seat, value: Any = value) -> None:
            verify_decryption_share(ctx, seal, seat, DecryptionShare.decode(v.S, value, seat))
        code, blame = outcome(check)
        out.append({"name": name, "deal": deal_name, "check": "decryption", "seat": seat,
                    "wire": pack(value).hex(), "expected": code, "blame": blame})
    return out


def other_cases(v: SealKit) -> list[dict[str, Any]]:
    out = []
    key, proof = prove_share_key(v.S, v.keys[3], GAME, 3, seed("seal/key-fresh/3"))
    for name, seat, game in (("seat 3's key proof", 3, GAME),
                             ("seat 3's key proof claimed for seat 4", 4, GAME),
                             ("seat 3's key proof in another game", 3, bytes(32))):
        code, blame = outcome(lambda seat=seat, game=game: verify_share_key(  # type: ignore[misc]
            v.S, key, proof, game, seat))
        out.append({"name": name, "check": "key", "seat": seat, "game_id": game.hex(),
                    "y": key.data.hex(), "c": v.scalar_bytes(proof.c).hex(),
                    "z": v.scalar_bytes(proof.z).hex(), "expected": code, "blame": blame})
    for name, data in (("empty", b"\x00\x00" + bytes(6)), ("full", b"\x00\x06abcdef"),
                       ("nonzero fill", b"\x00\x02ab\x00\x01\x00\x00"),
                       ("length beyond the data", b"\x00\x07abcdef"), ("one byte", b"\x00")):
        code, blame = outcome(lambda data=data: unpad(data, 6))  # type: ignore[misc]
        entry = {"name": name, "check": "unpad", "committer": 6, "padded": data.hex(),
                 "expected": code, "blame": blame}
        if code == "ok":
            entry["data"] = unpad(data, 6).hex()
        out.append(entry)
    return out


def build(kit: Kit) -> dict[str, Any]:
    v = SealKit(kit)
    deals, contexts = [], {}
    for name, m, committer, data, fill in (
            ("m=1", 1, 1, b"two seats: nothing shared", None),
            ("m=2", 2, 0, b"[3, \"ENNE\"]", None),
            ("m=4", 4, 2, b"orders of seat 2", None),
            ("m=7", 7, 2, b"seven recipients, t = 4", None),
            ("m=2, nonzero fill", 2, 1, None, b"\x00\x02ab" + b"\x01" * (SIZE - 4))):
        plaintext = fill if data is None else pad(data, SIZE)
        assert plaintext is not None
        vec, ctx, seal = deal_vector(v, name, m, committer, data, plaintext)
        deals.append(vec)
        contexts[name] = (ctx, seal)
    ctx4, seal4 = contexts["m=4"]
    other_ctx = seal_context(v.S, GAME, STAGE + 1, 2, list(ctx4.recipients))
    other = deal(other_ctx, seed("seal/other/nonce"), pad(b"other", SIZE), seed("seal/other"))
    cases = (seal_cases(v, "m=4", ctx4, seal4, other) + opening_cases(v, "m=4", ctx4, seal4)
             + decryption_cases(v, "m=4", ctx4, seal4, (other_ctx, other)) + other_cases(v))
    return {"about": {"generated_by": "python tools/gen_seal_vectors.py",
                      "seeds": "SHA-512('dealerless-vectors/' || label)[:32]",
                      "spec": "spec/06-proofs.md 6.6", "version": v.S.context.decode()},
            "generator": seal_generator(v.S).data.hex(), "keys": key_vectors(v), "deals": deals,
            "other_seal": {"stage": STAGE + 1, "committer": 2,
                           "wire": pack(other.encode(v.S)).hex()},
            "cases": cases}


def main() -> int:
    return write_or_check_suite("seal.json", build, __doc__)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except DealerlessError as exc:
        print(f"gen_seal_vectors: {exc}", file=sys.stderr)
        sys.exit(1)
