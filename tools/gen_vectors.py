#!/usr/bin/env python3
"""Generate spec/vectors/*.json for the cryptographic core from fixed seeds.

    python tools/gen_vectors.py          # rewrite the vector files
    python tools/gen_vectors.py --check  # exit 1 if the files differ from the code

Every secret and every `fresh` input is derived from a public label with
SHA-512("dealerless-vectors/" || label), so anyone can regenerate the files.
These seeds are for vectors only: real play draws `fresh` from the OS CSPRNG.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from protocol.cannot_play import (
    CannotPlayStatement,
    HandPosition,
    _prove_unchecked,
    partial_opening,
    prove_cannot_play,
    recompute_commitments,
)
from protocol.context import Context
from protocol.deck import initial_deck, joint_key, make_share, own_share, shuffle_round
from protocol.dleq import dleq_challenge, prove_dleq
from protocol.elgamal import Ciphertext, encode_deck
from protocol.errors import DealerlessError
from protocol.group import IDENTITY, P_FIELD, G, L, Point, base_mul, mul, scalar_bytes, sub
from protocol.hashing import VERSION, H, Tag, hash_to_point, hash_to_scalar, nonce_scalars
from protocol.schnorr import prove_key, schnorr_challenge
from protocol.shuffle import (
    ShuffleWitness,
    apply_shuffle,
    commitment_base,
    commitment_generators,
    derive_witness,
    prove_shuffle,
    recompute_shuffle,
    shuffle_hedge,
)
from protocol.tiles import (
    DOUBLE_SIX,
    DOUBLE_TWELVE,
    TILE_SETS,
    Tile,
    TileSet,
    parse_tile,
    tile_text,
)

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors"

IDENTITY_HEX = (b"\x01" + bytes(31)).hex()
ORDER2_HEX = (P_FIELD - 1).to_bytes(32, "little").hex()          # (0, -1): small order
NONCANON_HEX = (P_FIELD + 1).to_bytes(32, "little").hex()        # y = p + 1
NOT_ON_CURVE_HEX = (2).to_bytes(32, "little").hex()              # y = 2 has no x


def seed(label: str) -> bytes:
    return hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest()[:32]


def secret(label: str) -> int:
    return int.from_bytes(hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest(),
                          "little") % L


def torsion_of(p: Point) -> str:
    """p plus the order-2 point: on the curve, not in the prime-order subgroup."""
    from nacl import bindings as na
    return na.crypto_core_ed25519_add(p.data, bytes.fromhex(ORDER2_HEX)).hex()


def ctx_json(ctx: Context) -> dict[str, Any]:
    return {"game_id": ctx.game_id.hex(), "step": ctx.step, "seat": ctx.seat}


def bump_scalar_hex(blob: bytes, offset: int) -> str:
    """Replace the scalar at `offset` by itself + L: same value mod L, non-canonical."""
    k = int.from_bytes(blob[offset:offset + 32], "little") + L
    return (blob[:offset] + k.to_bytes(32, "little") + blob[offset + 32:]).hex()


def replace_hex(blob: bytes, offset: int, new_hex: str) -> str:
    return (blob[:offset] + bytes.fromhex(new_hex) + blob[offset + 32:]).hex()


def flip_scalar_hex(blob: bytes, offset: int) -> str:
    """Add one to the scalar at `offset` (mod L): a canonical but wrong value."""
    k = (int.from_bytes(blob[offset:offset + 32], "little") + 1) % L
    return (blob[:offset] + k.to_bytes(32, "little") + blob[offset + 32:]).hex()


def group_vectors() -> dict[str, Any]:
    k = secret("group/scalar")
    pt = base_mul(k)
    return {
        "scalars": [
            {"name": "zero", "hex": scalar_bytes(0).hex(), "expected": "ok", "value": "0"},
            {"name": "L-1", "hex": scalar_bytes(L - 1).hex(), "expected": "ok",
             "value": str(L - 1)},
            {"name": "random", "hex": scalar_bytes(k).hex(), "expected": "ok", "value": str(k)},
            {"name": "L", "hex": L.to_bytes(32, "little").hex(),
             "expected": "scalar/out-of-range"},
            {"name": "2^256-1", "hex": "ff" * 32, "expected": "scalar/out-of-range"},
            {"name": "short", "hex": "00" * 31, "expected": "scalar/length"},
        ],
        "points": [
            {"name": "base point G", "hex": G.data.hex(), "expected": "ok"},
            {"name": "k*G", "hex": pt.data.hex(), "expected": "ok", "scalar": str(k)},
            {"name": "identity", "hex": IDENTITY_HEX, "expected": "point/identity"},
            {"name": "order-2 point (0,-1)", "hex": ORDER2_HEX, "expected": "point/small-order"},
            {"name": "k*G + order-2 point", "hex": torsion_of(pt), "expected": "point/torsion"},
            {"name": "y = p+1 (non-canonical identity)", "hex": NONCANON_HEX,
             "expected": "point/non-canonical"},
            {"name": "identity with sign bit set", "hex": "01" + "00" * 30 + "80",
             "expected": "point/non-canonical"},
            {"name": "y = 2, not on the curve", "hex": NOT_ON_CURVE_HEX,
             "expected": "point/not-on-curve"},
            {"name": "33 bytes", "hex": G.data.hex() + "00", "expected": "point/length"},
        ],
        "hash": [
            {"tag": Tag.CONTEXT.value.decode(), "parts": [], "digest": H(Tag.CONTEXT).hex()},
            {"tag": Tag.CONTEXT.value.decode(), "parts": ["", "00"],
             "digest": H(Tag.CONTEXT, b"", b"\x00").hex()},
            {"tag": Tag.CONTEXT.value.decode(), "parts": ["616263"],
             "digest": H(Tag.CONTEXT, b"abc").hex(),
             "scalar": str(hash_to_scalar(Tag.CONTEXT, b"abc")),
             "point": hash_to_point(Tag.CONTEXT, b"abc").data.hex()},
        ],
        "version": VERSION.decode(),
        "tags": {t.name: t.value.decode() for t in Tag},
        "nonce": {
            "label": "6c6162656c", "secret_bytes": "01" * 32, "public": "02" * 8,
            "fresh": "03" * 32,
            "scalars": [str(x) for x in nonce_scalars(b"label", b"\x01" * 32, b"\x02" * 8,
                                                      b"\x03" * 32, 3)],
        },
    }


def tile_vectors() -> dict[str, Any]:
    return {
        "sets": {name: [{"tile": f"{a}-{b}", "point": p.data.hex()}
                        for (a, b), p in zip(ts.tiles, ts.points, strict=True)]
                 for name, ts in TILE_SETS.items()},
        "generators": {"h": commitment_base().data.hex(),
                       "h_i": [p.data.hex() for p in commitment_generators(91)]},
    }


def schnorr_vectors() -> dict[str, Any]:
    x = secret("schnorr/x")
    key = base_mul(x)
    ctx = Context(seed("schnorr/game"), 0, 1)
    fresh = seed("schnorr/fresh")
    proof = prove_key(x, ctx, fresh)
    (k,) = nonce_scalars(Tag.SCHNORR.value, scalar_bytes(x), ctx.encode() + key.data, fresh, 1)
    commitment = base_mul(k)
    assert schnorr_challenge(ctx, key, commitment) == proof.c
    blob = proof.encode()
    base = {"case": "schnorr-1"}
    other = {**ctx_json(ctx), "step": 1}
    return {
        "positive": [{"name": "schnorr-1", "context": ctx_json(ctx), "key": key.data.hex(),
                      "proof": blob.hex(), "secret": str(x), "fresh": fresh.hex(), "nonce": str(k),
                      "commitment": commitment.data.hex(), "challenge": str(proof.c),
                      "response": str(proof.s), "expected": "ok"}],
        "negative": [
            {**base, "name": "tampered challenge", "proof": flip_scalar_hex(blob, 0),
             "expected": "schnorr/challenge"},
            {**base, "name": "tampered response", "proof": flip_scalar_hex(blob, 32),
             "expected": "schnorr/challenge"},
            {**base, "name": "wrong context (step)", "context": other,
             "expected": "schnorr/challenge"},
            {**base, "name": "wrong context (seat)", "context": {**ctx_json(ctx), "seat": 0},
             "expected": "schnorr/challenge"},
            {**base, "name": "other key", "key": base_mul(x + 1).data.hex(),
             "expected": "schnorr/challenge"},
            {**base, "name": "identity key", "key": IDENTITY_HEX, "expected": "point/identity"},
            {**base, "name": "torsion key", "key": torsion_of(key), "expected": "point/torsion"},
            {**base, "name": "non-canonical key", "key": NONCANON_HEX,
             "expected": "point/non-canonical"},
            {**base, "name": "response >= L", "proof": bump_scalar_hex(blob, 32),
             "expected": "scalar/out-of-range"},
            {**base, "name": "small-order key", "key": ORDER2_HEX,
             "expected": "point/small-order"},
            {**base, "name": "key not on the curve", "key": NOT_ON_CURVE_HEX,
             "expected": "point/not-on-curve"},
            {**base, "name": "proof one byte short", "proof": blob[:-1].hex(),
             "expected": "schnorr/length"},
        ],
    }


def dleq_vectors() -> dict[str, Any]:
    x = secret("dleq/x")
    key = base_mul(x)
    c1 = base_mul(secret("dleq/r"))
    ctx = Context(seed("dleq/game"), 7, 1)
    fresh = seed("dleq/fresh")
    share, proof = prove_dleq(x, c1, ctx, fresh)
    (k,) = nonce_scalars(Tag.DLEQ.value, scalar_bytes(x), ctx.encode() + key.data + c1.data,
                         fresh, 1)
    a, b = base_mul(k), mul(k, c1)
    assert dleq_challenge(ctx, key, c1, share, a, b) == proof.c
    blob = proof.encode()
    base = {"case": "dleq-1"}
    return {
        "positive": [{"name": "dleq-1", "context": ctx_json(ctx), "key": key.data.hex(),
                      "c1": c1.data.hex(), "share": share.data.hex(), "proof": blob.hex(),
                      "secret": str(x), "fresh": fresh.hex(), "nonce": str(k),
                      "commitment_a": a.data.hex(), "commitment_b": b.data.hex(),
                      "challenge": str(proof.c), "response": str(proof.s), "expected": "ok"}],
        "negative": [
            {**base, "name": "tampered challenge", "proof": flip_scalar_hex(blob, 0),
             "expected": "dleq/challenge"},
            {**base, "name": "tampered response", "proof": flip_scalar_hex(blob, 32),
             "expected": "dleq/challenge"},
            {**base, "name": "wrong share", "share": sub(share, G).data.hex(),
             "expected": "dleq/challenge"},
            {**base, "name": "wrong context (game)",
             "context": {**ctx_json(ctx), "game_id": seed("other game").hex()},
             "expected": "dleq/challenge"},
            {**base, "name": "identity share", "share": IDENTITY_HEX,
             "expected": "point/identity"},
            {**base, "name": "torsion share", "share": torsion_of(share),
             "expected": "point/torsion"},
            {**base, "name": "non-canonical c1", "c1": NONCANON_HEX,
             "expected": "point/non-canonical"},
            {**base, "name": "challenge >= L", "proof": bump_scalar_hex(blob, 0),
             "expected": "scalar/out-of-range"},
            {**base, "name": "small-order share", "share": ORDER2_HEX,
             "expected": "point/small-order"},
            {**base, "name": "proof one byte long", "proof": blob.hex() + "00",
             "expected": "dleq/length"},
        ],
    }


def shuffle_case(name: str, n: int, with_trace: bool) -> tuple[dict[str, Any], list[Any]]:
    ts = DOUBLE_SIX
    keys = [base_mul(secret(f"{name}/x{i}")) for i in range(2)]
    key = joint_key(keys)
    deck_in = initial_deck(ts, ts.tiles[:n], key)
    ctx = Context(seed(f"{name}/game"), 3, 0)
    fresh = seed(f"{name}/fresh")
    x = secret(f"{name}/x0")  # seat 0 shuffles: its key share is the hedge secret (7.3)
    hedge = shuffle_hedge(scalar_bytes(x), ctx, deck_in)
    witness = derive_witness(n, fresh, hedge)
    deck_out = apply_shuffle(deck_in, key, witness)
    proof = prove_shuffle(deck_in, deck_out, key, witness, ctx, fresh)
    blob = proof.encode()
    case: dict[str, Any] = {
        "name": name, "n": n, "context": ctx_json(ctx), "joint_key": key.data.hex(),
        "deck_in": encode_deck(deck_in).hex(), "deck_out": encode_deck(deck_out).hex(),
        "proof": blob.hex(), "expected": "ok", "fresh": fresh.hex(),
        "secret": str(x), "hedge": hedge.hex(),
        "permutation": list(witness.permutation),
        "randomness": [str(r) for r in witness.randomness],
        "challenge": str(proof.challenge),
    }
    if with_trace:
        trace = recompute_shuffle(deck_in, deck_out, key, proof, ctx)
        case["u"] = [str(x) for x in trace.u]
        case["t"] = [p.data.hex() for p in trace.t]
    base = {"case": name}
    pt_end = 2 * n * 32                       # offset of the first scalar (the challenge)
    # A shuffler that re-encrypts two positions with the same randomness: every input c1
    # is G (5.4), so their output c1 repeat; the proof itself is valid.
    twin = ShuffleWitness(witness.permutation,
                          (witness.randomness[0], *witness.randomness[:-1]))
    twin_out = apply_shuffle(deck_in, key, twin)
    negatives = [
        {**base, "name": f"{name}: tampered commitment c_0", "proof": replace_hex(
            blob, 0, proof.chain[0].data.hex()), "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: tampered chain c^_last", "proof": replace_hex(
            blob, (2 * n - 1) * 32, proof.commitments[0].data.hex()),
         "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: tampered s1", "proof": flip_scalar_hex(blob, pt_end + 32),
         "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: tampered s'_last", "proof": flip_scalar_hex(
            blob, len(blob) - 32), "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: wrong context (seat)",
         "context": {**ctx_json(ctx), "seat": 1}, "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: output deck re-ordered", "deck_out": encode_deck(
            (deck_out[1], deck_out[0], *deck_out[2:])).hex(), "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: identity commitment", "proof": replace_hex(
            blob, 0, IDENTITY_HEX), "expected": "point/identity"},
        {**base, "name": f"{name}: torsion chain element", "proof": replace_hex(
            blob, n * 32, torsion_of(proof.chain[0])), "expected": "point/torsion"},
        {**base, "name": f"{name}: non-canonical commitment", "proof": replace_hex(
            blob, 32, NONCANON_HEX), "expected": "point/non-canonical"},
        {**base, "name": f"{name}: s4 >= L", "proof": bump_scalar_hex(blob, pt_end + 128),
         "expected": "scalar/out-of-range"},
        {**base, "name": f"{name}: torsion point in output deck", "deck_out": replace_hex(
            bytes.fromhex(case["deck_out"]), 32, torsion_of(deck_out[0].c2)),
         "expected": "point/torsion"},
        {**base, "name": f"{name}: small-order commitment", "proof": replace_hex(
            blob, 0, ORDER2_HEX), "expected": "point/small-order"},
        {**base, "name": f"{name}: chain point not on the curve", "proof": replace_hex(
            blob, n * 32, NOT_ON_CURVE_HEX), "expected": "point/not-on-curve"},
        {**base, "name": f"{name}: proof one scalar short", "proof": blob[:-32].hex(),
         "expected": "shuffle/length"},
        {**base, "name": f"{name}: output deck not whole ciphertexts",
         "deck_out": case["deck_out"][:-2], "expected": "deck/length"},
        {**base, "name": f"{name}: output deck one ciphertext short",
         "deck_out": case["deck_out"][:-128], "expected": "shuffle/size"},
        {**base, "name": f"{name}: two outputs share their c1 (a valid proof)",
         "deck_out": encode_deck(twin_out).hex(),
         "proof": prove_shuffle(deck_in, twin_out, key, twin, ctx, fresh).encode().hex(),
         "expected": "shuffle/repeated-c1"},
    ]
    return case, negatives


def shuffle_vectors() -> dict[str, Any]:
    small, neg_small = shuffle_case("shuffle-4", 4, with_trace=True)
    full, neg_full = shuffle_case("shuffle-27", 27, with_trace=False)
    return {"positive": [small, full], "negative": neg_small + neg_full}


def deck_vectors() -> dict[str, Any]:
    """A 3-seat round on five tiles: keys, shuffles, one private and one public opening."""
    ts = DOUBLE_SIX
    tiles = [(0, 0), (1, 3), (2, 5), (4, 4), (5, 6)]
    game = seed("deck/game")
    xs = [secret(f"deck/x{i}") for i in range(3)]
    keys = [base_mul(x) for x in xs]
    key_proofs = [prove_key(x, Context(game, 0, i), seed(f"deck/key{i}"))
                  for i, x in enumerate(xs)]
    key_contexts = [ctx_json(Context(game, 0, i)) for i in range(3)]
    key = joint_key(keys)
    deck = initial_deck(ts, tiles, key)
    rounds = []
    for i in range(3):
        secret_bytes = scalar_bytes(xs[i])
        out, proof = shuffle_round(deck, key, Context(game, 1, i), seed(f"deck/shuffle{i}"),
                                   secret_bytes)
        rounds.append({"seat": i, "context": ctx_json(Context(game, 1, i)),
                       "fresh": seed(f"deck/shuffle{i}").hex(), "secret": str(xs[i]),
                       "deck_out": encode_deck(out).hex(), "proof": proof.encode().hex()})
        deck = out
    # Position 0 opened privately to seat 2: seats 0 and 1 publish shares.
    ct = deck[0]
    private = [make_share(xs[i], ct, Context(game, 2, i), seed(f"deck/priv{i}"))
               for i in range(2)]
    own = own_share(xs[2], ct)
    private_tile = ts.decode(sub(sub(sub(ct.c2, private[0].share), private[1].share), own))
    # Position 1 opened publicly: all three publish shares.
    ct1 = deck[1]
    public = [make_share(xs[i], ct1, Context(game, 3, i), seed(f"deck/pub{i}"))
              for i in range(3)]
    pub_pt = ct1.c2
    for ds in public:
        pub_pt = sub(pub_pt, ds.share)
    return {
        "set": ts.name, "tiles": [f"{a}-{b}" for a, b in tiles], "game_id": game.hex(),
        "secrets": [str(x) for x in xs], "keys": [k.data.hex() for k in keys],
        "key_proofs": [p.encode().hex() for p in key_proofs], "key_contexts": key_contexts,
        "key_fresh": [seed(f"deck/key{i}").hex() for i in range(3)],
        "joint_key": key.data.hex(),
        "initial_deck": encode_deck(initial_deck(ts, tiles, key)).hex(), "rounds": rounds,
        "private_opening": {
            "position": 0, "to_seat": 2,
            "shares": [{"seat": i, "context": ctx_json(Context(game, 2, i)),
                        "fresh": seed(f"deck/priv{i}").hex(),
                        "share": ds.share.data.hex(), "proof": ds.proof.encode().hex()}
                       for i, ds in enumerate(private)],
            "own_share": own.data.hex(), "tile": "{}-{}".format(*private_tile)},
        "public_opening": {
            "position": 1,
            "shares": [{"seat": i, "context": ctx_json(Context(game, 3, i)),
                        "fresh": seed(f"deck/pub{i}").hex(),
                        "share": ds.share.data.hex(), "proof": ds.proof.encode().hex()}
                       for i, ds in enumerate(public)],
            "tile": "{}-{}".format(*ts.decode(pub_pt))},
        "negative": [
            {"name": "key shares that cancel", "check": "joint_key",
             "keys": [keys[0].data.hex(), sub(IDENTITY, keys[0]).data.hex()],
             "expected": "deck/joint-key-identity"},
            {"name": "private opening without the owner's share", "check": "open",
             "position": 0, "shares": [ds.share.data.hex() for ds in private],
             "expected": "deck/not-a-tile"},
        ],
    }


def _cannot_play_case(name: str, ts: TileSet, seats: int, seat: int,
                      hand: list[tuple[int, Tile]], forbidden: list[Tile],
                      step: int) -> tuple[dict[str, Any], CannotPlayStatement, Context]:
    """Seat `seat` of `seats` holds `hand` (position, tile), opened to it privately:
    each ciphertext is Enc(M_t; rho) under the joint key, with every other seat's share."""
    xs = [secret(f"{name}/x{i}") for i in range(seats)]
    key = joint_key([base_mul(x) for x in xs])
    positions, entries = [], []
    for pos, t in hand:
        rho = secret(f"{name}/rho{pos}")
        ct = Ciphertext(base_mul(rho), ts.point(t) + mul(rho, key))
        shares = [mul(xs[i], ct.c1) for i in range(seats) if i != seat]
        hp = HandPosition(pos, ct.c1, partial_opening(ct, shares))
        positions.append(hp)
        entries.append({"position": pos, "c1": ct.c1.data.hex(), "c2": ct.c2.data.hex(),
                        "shares": [d.data.hex() for d in shares],
                        "partial": hp.partial.data.hex()})
    ctx = Context(seed(f"{name}/game"), step, seat)
    stmt = CannotPlayStatement(ts, base_mul(xs[seat]), tuple(positions), tuple(forbidden))
    case = {"name": name, "set": ts.name, "context": ctx_json(ctx),
            "key": stmt.key.data.hex(), "secret": str(xs[seat]),
            "fresh": seed(f"{name}/fresh").hex(), "positions": entries,
            "forbidden": [tile_text(t) for t in forbidden],
            "tiles": [tile_text(t) for _, t in hand]}
    return case, stmt, ctx


def _cannot_play_proof(case: dict[str, Any], stmt: CannotPlayStatement, ctx: Context) -> None:
    x, fresh = int(case["secret"]), bytes.fromhex(case["fresh"])
    proof = prove_cannot_play(x, stmt, ctx, fresh)
    r, k_r, k_a = nonce_scalars(Tag.CANNOT_PLAY.value, scalar_bytes(x), stmt.encode(ctx),
                                fresh, 3)
    case.update({
        "proof": proof.encode().hex(), "nonces": {"r": str(r), "k_r": str(k_r),
                                                   "k_a": str(k_a)},
        "blinded_hand": [p.data.hex() for p in proof.blinded_hand],
        "blinded_forbidden": [p.data.hex() for p in proof.blinded_forbidden],
        "commitments": [p.data.hex() for p in recompute_commitments(stmt, proof)],
        "challenge": str(proof.c), "z_r": str(proof.z_r), "z_a": str(proof.z_a),
        "expected": "ok"})


def cannot_play_vectors() -> dict[str, Any]:
    """Spec 6.5: a small double-six claim, the worst 15-tile double-twelve claim, negatives."""
    small_hand = [(2, (0, 0)), (5, (1, 3)), (9, (0, 2)), (11, (2, 2))]
    small_forbidden = [t for t in DOUBLE_SIX.tiles if t[1] >= 5]          # ends 5 and 6
    small, stmt, ctx = _cannot_play_case("cannot-play-6", DOUBLE_SIX, 3, 1, small_hand,
                                         small_forbidden, 40)
    _cannot_play_proof(small, stmt, ctx)
    low = [t for t in DOUBLE_TWELVE.tiles if t[1] <= 4]                   # 15 tiles
    worst, wstmt, wctx = _cannot_play_case(
        "cannot-play-12-worst", DOUBLE_TWELVE, 4, 2, [(3 * i + 7, t) for i, t in enumerate(low)],
        [t for t in DOUBLE_TWELVE.tiles if t[1] >= 5], 123)               # 76 tiles
    _cannot_play_proof(worst, wstmt, wctx)

    blob = bytes.fromhex(small["proof"])
    h, f = len(small_hand), len(small_forbidden)
    k_off, q_off, s_off = 0, 32 * h, 32 * (h + f)
    names = small["forbidden"]
    # A false claim: 1-3 (held at position 5) added to the forbidden set, proven by the
    # prover without its witness check. The proof is otherwise valid: C = Q_t - K_j = O.
    with_held = sorted([*small_forbidden, (1, 3)])
    false_stmt = CannotPlayStatement(DOUBLE_SIX, stmt.key, stmt.hand, tuple(with_held))
    false_proof = _prove_unchecked(int(small["secret"]), false_stmt, ctx,
                                   bytes.fromhex(small["fresh"])).encode().hex()
    pos = small["positions"]
    missing_share = {**pos[0], "partial": sub(stmt.hand[0].partial,
                                              mul(secret("cannot-play-6/x2"),
                                                  stmt.hand[0].c1)).data.hex()}
    for key in ("c2", "shares"):
        missing_share.pop(key)
    base = {"case": "cannot-play-6"}
    negative = [
        {**base, "name": "tampered K_0", "proof": replace_hex(blob, k_off, small[
            "blinded_hand"][1]), "expected": "cannot-play/challenge"},
        {**base, "name": "tampered Q_last", "proof": replace_hex(blob, s_off - 32, small[
            "blinded_forbidden"][0]), "expected": "cannot-play/challenge"},
        {**base, "name": "tampered C: K_0 replaced by Q_0, so C_{0,0} = O", "proof":
            replace_hex(blob, k_off, small["blinded_forbidden"][0]),
         "expected": "cannot-play/challenge"},
        {**base, "name": "tampered challenge", "proof": flip_scalar_hex(blob, s_off),
         "expected": "cannot-play/challenge"},
        {**base, "name": "tampered z_r", "proof": flip_scalar_hex(blob, s_off + 32),
         "expected": "cannot-play/challenge"},
        {**base, "name": "tampered z_a", "proof": flip_scalar_hex(blob, s_off + 64),
         "expected": "cannot-play/challenge"},
        {**base, "name": "false claim: position 5 holds forbidden 1-3 (C = O)",
         "forbidden": [tile_text(t) for t in with_held], "proof": false_proof,
         "expected": "cannot-play/identity"},
        {**base, "name": "wrong forbidden set (0-5 replaced by 0-4)",
         "forbidden": ["0-4", *names[1:]], "expected": "cannot-play/challenge"},
        {**base, "name": "forbidden set one tile short", "forbidden": names[:-1],
         "expected": "cannot-play/length"},
        {**base, "name": "forbidden set one tile long (4-4 added)",
         "forbidden": sorted([*names, "4-4"], key=lambda t: DOUBLE_SIX.index[parse_tile(t)]),
         "expected": "cannot-play/length"},
        {**base, "name": "wrong context (step)", "context": {**small["context"], "step": 41},
         "expected": "cannot-play/challenge"},
        {**base, "name": "wrong context (seat)", "context": {**small["context"], "seat": 0},
         "expected": "cannot-play/challenge"},
        {**base, "name": "wrong context (game)",
         "context": {**small["context"], "game_id": seed("other game").hex()},
         "expected": "cannot-play/challenge"},
        {**base, "name": "another seat's key", "key": base_mul(secret("cannot-play-6/x0"))
            .data.hex(), "expected": "cannot-play/challenge"},
        {**base, "name": "partial opening R_0 missing a share", "positions":
            [missing_share, *pos[1:]], "expected": "cannot-play/challenge"},
        {**base, "name": "position renumbered", "positions": [{**pos[0], "position": 3},
                                                               *pos[1:]],
         "expected": "cannot-play/challenge"},
        {**base, "name": "positions out of order", "positions": [pos[1], pos[0], *pos[2:]],
         "expected": "cannot-play/order"},
        {**base, "name": "empty forbidden set", "forbidden": [], "expected": "cannot-play/size"},
        {**base, "name": "empty hand", "positions": [], "expected": "cannot-play/size"},
        {**base, "name": "forbidden tiles out of canonical order",
         "forbidden": [names[1], names[0], *names[2:]], "expected": "cannot-play/order"},
        {**base, "name": "forbidden tile not in the set", "forbidden": [*names[:-1], "7-7"],
         "expected": "tile/not-in-set"},
        {**base, "name": "challenge >= L", "proof": bump_scalar_hex(blob, s_off),
         "expected": "scalar/out-of-range"},
        {**base, "name": "z_a >= L", "proof": bump_scalar_hex(blob, s_off + 64),
         "expected": "scalar/out-of-range"},
        {**base, "name": "identity K_0", "proof": replace_hex(blob, k_off, IDENTITY_HEX),
         "expected": "point/identity"},
        {**base, "name": "small-order Q_0", "proof": replace_hex(blob, q_off, ORDER2_HEX),
         "expected": "point/small-order"},
        {**base, "name": "K_1 not on the curve", "proof": replace_hex(blob, 32, NOT_ON_CURVE_HEX),
         "expected": "point/not-on-curve"},
        {**base, "name": "torsion K_0", "proof": replace_hex(blob, k_off, torsion_of(
            Point(bytes.fromhex(small["blinded_hand"][0])))), "expected": "point/torsion"},
        {**base, "name": "non-canonical Q_0", "proof": replace_hex(blob, q_off, NONCANON_HEX),
         "expected": "point/non-canonical"},
        {**base, "name": "proof one byte short", "proof": blob[:-1].hex(),
         "expected": "cannot-play/length"},
        {**base, "name": "proof one point long", "proof": blob[:32].hex() + blob.hex(),
         "expected": "cannot-play/length"},
        {**base, "name": "identity key", "key": IDENTITY_HEX, "expected": "point/identity"},
        {**base, "name": "non-canonical c1", "positions": [{**pos[0], "c1": NONCANON_HEX},
                                                           *pos[1:]],
         "expected": "point/non-canonical"},
        {**base, "name": "identity key and an empty hand", "key": IDENTITY_HEX, "positions":
            [], "expected": "point/identity", "note": "6.5.5 decodes the key before step 1: "
            "checking the limits first gives cannot-play/size"},
        {**base, "name": "positions out of order, the second with a non-canonical c1",
         "positions": [pos[1], {**pos[0], "c1": NONCANON_HEX}, *pos[2:]], "expected":
            "point/non-canonical", "note": "6.5.5 decodes every c1 and share before step "
            "1: checking the order first gives cannot-play/order"},
    ]
    refuse = [
        {**base, "name": "prover refuses: position 5 holds forbidden 1-3",
         "forbidden": [tile_text(t) for t in with_held], "expected": "cannot-play/witness"},
        {**base, "name": "prover refuses: secret is not the key share's",
         "secret": str(secret("cannot-play-6/x0")), "expected": "cannot-play/witness"},
    ]
    for neg in refuse:  # the generator's own prover must refuse too
        try:
            prove_cannot_play(int(neg["secret"]) if "secret" in neg else int(small["secret"]),
                              CannotPlayStatement(DOUBLE_SIX, stmt.key, stmt.hand, tuple(
                                  with_held if "forbidden" in neg else small_forbidden)),
                              ctx, bytes.fromhex(small["fresh"]))
        except DealerlessError as exc:
            assert exc.code == neg["expected"], exc.code
        else:
            raise AssertionError(neg["name"])
    return {"positive": [small, worst], "negative": negative, "refuse": refuse}


def build() -> dict[str, dict[str, Any]]:
    header = {"generated_by": "python tools/gen_vectors.py",
              "seeds": "SHA-512('dealerless-vectors/' || label), see tools/gen_vectors.py",
              "spec": "spec/", "version": VERSION.decode()}
    files = {"group": group_vectors(), "tiles": tile_vectors(), "schnorr": schnorr_vectors(),
             "dleq": dleq_vectors(), "shuffle": shuffle_vectors(), "deck": deck_vectors(),
             "cannot_play": cannot_play_vectors()}
    return {name: {"about": header, **body} for name, body in files.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    stale = []
    for name, body in build().items():
        path = OUT / f"{name}.json"
        text = json.dumps(body, indent=1, sort_keys=True) + "\n"
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if stale:
        print("stale vectors: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except DealerlessError as exc:
        print(f"gen_vectors: {exc}", file=sys.stderr)
        sys.exit(1)
