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
import json
import sys
from typing import Any

from cannot_play_cases import cannot_play_vectors
from vector_common import Kit, Point, ctx_json, keep, kit_from_args, seed

from protocol.context import Context
from protocol.deck import initial_deck, joint_key, make_share, own_share, shuffle_round
from protocol.dleq import dleq_challenge, prove_dleq
from protocol.dleq_batch import batch_seed, batch_weights, prove_dleq_batch
from protocol.elgamal import encode_deck
from protocol.errors import DealerlessError
from protocol.schnorr import prove_key, schnorr_challenge
from protocol.shuffle import (
    ShuffleWitness,
    apply_shuffle,
    commitment_base,
    commitment_generators,
    derive_witness,
    proof_points,
    prove_shuffle,
    recompute_shuffle,
    shuffle_hedge,
)
from protocol.tags import Tag, tags
from protocol.tiles import (
    DOUBLE_SIX,
    TILE_SETS,
)


def group_vectors(v: Kit) -> dict[str, Any]:
    k = v.secret("group/scalar")
    pt = v.base_mul(k)
    return {
        "scalars": [
            {"name": "zero", "hex": v.scalar_bytes(0).hex(), "expected": "ok", "value": "0"},
            {"name": "L-1", "hex": v.scalar_bytes(v.L - 1).hex(), "expected": "ok",
             "value": str(v.L - 1)},
            {"name": "random", "hex": v.scalar_bytes(k).hex(), "expected": "ok", "value": str(k)},
            {"name": "L", "hex": v.raw_scalar(v.L).hex(),
             "expected": "scalar/out-of-range"},
            {"name": "2^256-1", "hex": "ff" * 32, "expected": "scalar/out-of-range"},
            {"name": "short", "hex": "00" * 31, "expected": "scalar/length"},
        ],
        "points": [
            {"name": "base point G", "hex": v.G.data.hex(), "expected": "ok"},
            {"name": "k*G", "hex": pt.data.hex(), "expected": "ok", "scalar": str(k)},
            *v.refused_points(pt),
        ],
        "hash": [
            {"tag": Tag.CONTEXT.value.decode(), "parts": [], "digest": v.S.H(Tag.CONTEXT).hex()},
            {"tag": Tag.CONTEXT.value.decode(), "parts": ["", "00"],
             "digest": v.S.H(Tag.CONTEXT, b"", b"\x00").hex()},
            {"tag": Tag.CONTEXT.value.decode(), "parts": ["616263"],
             "digest": v.S.H(Tag.CONTEXT, b"abc").hex(),
             "scalar": str(v.hash_to_scalar(Tag.CONTEXT, b"abc")),
             "point": v.hash_to_point(Tag.CONTEXT, b"abc").data.hex()},
        ],
        "version": v.S.context.decode(),
        "tags": {t.name: t.value.decode() for t in tags(v.S.version)},
        "nonce": {
            "label": "6c6162656c", "secret_bytes": "01" * 32, "public": "02" * 8,
            "fresh": "03" * 32,
            "scalars": [str(x) for x in v.nonce_scalars(b"label", b"\x01" * 32, b"\x02" * 8,
                                                      b"\x03" * 32, 3)],
        },
    }


def tile_vectors(v: Kit) -> dict[str, Any]:
    return {
        "sets": {name: [{"tile": f"{a}-{b}", "point": p.data.hex()}
                        for (a, b), p in zip(ts.tiles, ts.points(v.S), strict=True)]
                 for name, ts in TILE_SETS.items()},
        "generators": {"h": commitment_base(v.S).data.hex(),
                       "h_i": [p.data.hex() for p in commitment_generators(v.S, 91)]},
    }


def schnorr_vectors(v: Kit) -> dict[str, Any]:
    x = v.secret("schnorr/x")
    key = v.base_mul(x)
    ctx = Context(v.S, seed("schnorr/game"), 0, 1)
    fresh = seed("schnorr/fresh")
    proof = prove_key(x, ctx, fresh)
    (k,) = v.nonce_scalars(Tag.SCHNORR.value, v.scalar_bytes(x), ctx.encode() + key.data, fresh, 1)
    commitment = v.base_mul(k)
    assert schnorr_challenge(ctx, key, commitment) == proof.c
    blob = proof.encode(v.S)
    base = {"case": "schnorr-1"}
    other = {**ctx_json(ctx), "step": 1}
    return {
        "positive": [{"name": "schnorr-1", "context": ctx_json(ctx), "key": key.data.hex(),
                      "proof": blob.hex(), "secret": str(x), "fresh": fresh.hex(), "nonce": str(k),
                      "commitment": commitment.data.hex(), "challenge": str(proof.c),
                      "response": str(proof.s), "expected": "ok"}],
        "negative": keep([
            {**base, "name": "tampered challenge", "proof": v.flip_scalar_hex(blob, 0),
             "expected": "schnorr/challenge"},
            {**base, "name": "tampered response", "proof": v.flip_scalar_hex(blob, v.N),
             "expected": "schnorr/challenge"},
            {**base, "name": "wrong context (step)", "context": other,
             "expected": "schnorr/challenge"},
            {**base, "name": "wrong context (seat)", "context": {**ctx_json(ctx), "seat": 0},
             "expected": "schnorr/challenge"},
            {**base, "name": "other key", "key": v.base_mul(x + 1).data.hex(),
             "expected": "schnorr/challenge"},
            {**base, "name": "identity key", "key": v.identity_hex, "expected": "point/identity"},
            {**base, "name": "torsion key", "key": v.torsion_of(key), "expected": "point/torsion"},
            {**base, "name": "non-canonical key", "key": v.noncanon_hex,
             "expected": "point/non-canonical"},
            {**base, "name": "response >= L", "proof": v.bump_scalar_hex(blob, v.N),
             "expected": "scalar/out-of-range"},
            {**base, "name": "small-order key", "key": v.order2_hex,
             "expected": "point/small-order"},
            {**base, "name": "key not on the curve", "key": v.not_on_curve_hex,
             "expected": "point/not-on-curve"},
            {**base, "name": "proof one byte short", "proof": blob[:-1].hex(),
             "expected": "schnorr/length"},
        ]),
    }


def dleq_vectors(v: Kit) -> dict[str, Any]:
    x = v.secret("dleq/x")
    key = v.base_mul(x)
    c1 = v.base_mul(v.secret("dleq/r"))
    ctx = Context(v.S, seed("dleq/game"), 7, 1)
    fresh = seed("dleq/fresh")
    share, proof = prove_dleq(x, c1, ctx, fresh)
    (k,) = v.nonce_scalars(Tag.DLEQ.value, v.scalar_bytes(x), ctx.encode() + key.data + c1.data,
                         fresh, 1)
    a, b = v.base_mul(k), v.mul(k, c1)
    assert dleq_challenge(ctx, key, c1, share, a, b) == proof.c
    blob = proof.encode(v.S)
    base = {"case": "dleq-1"}
    return {
        "positive": [{"name": "dleq-1", "context": ctx_json(ctx), "key": key.data.hex(),
                      "c1": c1.data.hex(), "share": share.data.hex(), "proof": blob.hex(),
                      "secret": str(x), "fresh": fresh.hex(), "nonce": str(k),
                      "commitment_a": a.data.hex(), "commitment_b": b.data.hex(),
                      "challenge": str(proof.c), "response": str(proof.s), "expected": "ok"}],
        "negative": keep([
            {**base, "name": "tampered challenge", "proof": v.flip_scalar_hex(blob, 0),
             "expected": "dleq/challenge"},
            {**base, "name": "tampered response", "proof": v.flip_scalar_hex(blob, v.N),
             "expected": "dleq/challenge"},
            {**base, "name": "wrong share", "share": v.sub(share, v.G).data.hex(),
             "expected": "dleq/challenge"},
            {**base, "name": "wrong context (game)",
             "context": {**ctx_json(ctx), "game_id": seed("other game").hex()},
             "expected": "dleq/challenge"},
            {**base, "name": "identity share", "share": v.identity_hex,
             "expected": "point/identity"},
            {**base, "name": "torsion share", "share": v.torsion_of(share),
             "expected": "point/torsion"},
            {**base, "name": "non-canonical c1", "c1": v.noncanon_hex,
             "expected": "point/non-canonical"},
            {**base, "name": "challenge >= L", "proof": v.bump_scalar_hex(blob, 0),
             "expected": "scalar/out-of-range"},
            {**base, "name": "small-order share", "share": v.order2_hex,
             "expected": "point/small-order"},
            {**base, "name": "proof one byte long", "proof": blob.hex() + "00",
             "expected": "dleq/length"},
        ]),
    }


def dleq_batch_vectors(v: Kit) -> dict[str, Any]:
    """6.3.1, dealerless/3 only: batches of 1 and 4 shares, and what breaks the batch."""
    x = v.secret("dleq-batch/x")
    key = v.base_mul(x)
    ctx = Context(v.S, seed("dleq-batch/game"), 9, 2)
    fresh = seed("dleq-batch/fresh")
    positive = []
    for n in (1, 4):
        c1s = [v.base_mul(v.secret(f"dleq-batch/r{j}")) for j in range(n)]
        shares, proof = prove_dleq_batch(x, c1s, ctx, fresh)
        sd = batch_seed(ctx, key, c1s, shares)
        positive.append({
            "name": f"batch-{n}", "context": ctx_json(ctx), "key": key.data.hex(),
            "c1s": [c.data.hex() for c in c1s], "shares": [d.data.hex() for d in shares],
            "proof": proof.encode(v.S).hex(), "secret": str(x), "fresh": fresh.hex(),
            "seed": sd.hex(), "weights": [str(w) for w in batch_weights(v.S, sd, n)],
            "challenge": str(proof.c), "response": str(proof.s), "expected": "ok"})
    big = positive[1]
    d = [v.S.decode_point(bytes.fromhex(h)) for h in big["shares"]]
    blob = bytes.fromhex(big["proof"])
    base = {"case": "batch-4"}
    torsion = v.torsion_of(d[0])

    def shares(*new: Point) -> list[str]:
        return [p.data.hex() for p in new]

    return {"positive": positive, "negative": keep([
        {**base, "name": "tampered challenge", "proof": v.flip_scalar_hex(blob, 0),
         "expected": "dleq/challenge"},
        {**base, "name": "tampered response", "proof": v.flip_scalar_hex(blob, v.N),
         "expected": "dleq/challenge"},
        {**base, "name": "wrong share D_2", "shares": shares(d[0], d[1], v.add(d[2], v.G), d[3]),
         "expected": "dleq/challenge"},
        {**base, "name": "errors that cancel under equal weights (D_0 + G, D_1 - G)",
         "shares": shares(v.add(d[0], v.G), v.sub(d[1], v.G), d[2], d[3]),
         "expected": "dleq/challenge"},
        {**base, "name": "shares D_0 and D_1 swapped", "shares": shares(d[1], d[0], d[2], d[3]),
         "expected": "dleq/challenge"},
        {**base, "name": "wrong context (step)", "context": {**big["context"], "step": 10},
         "expected": "dleq/challenge"},
        {**base, "name": "identity share", "shares": [v.identity_hex, *big["shares"][1:]],
         "expected": "point/identity"},
        {**base, "name": "torsion share", "shares": None if torsion is None else
         [torsion, *big["shares"][1:]], "expected": "point/torsion"},
        {**base, "name": "challenge >= L", "proof": v.bump_scalar_hex(blob, 0),
         "expected": "scalar/out-of-range"},
        {**base, "name": "proof one byte long", "proof": blob.hex() + "00",
         "expected": "dleq/length"},
    ])}


def shuffle_case(v: Kit, name: str, n: int, with_trace: bool) -> tuple[dict[str, Any], list[Any]]:
    ts = DOUBLE_SIX
    keys = [v.base_mul(v.secret(f"{name}/x{i}")) for i in range(2)]
    key = joint_key(v.S, keys)
    deck_in = initial_deck(v.S, ts, ts.tiles[:n], key)
    ctx = Context(v.S, seed(f"{name}/game"), 3, 0)
    fresh = seed(f"{name}/fresh")
    x = v.secret(f"{name}/x0")  # seat 0 shuffles: its key share is the hedge secret (7.3)
    hedge = shuffle_hedge(v.scalar_bytes(x), ctx, deck_in)
    witness = derive_witness(v.S, n, fresh, hedge)
    deck_out = apply_shuffle(v.S, deck_in, key, witness)
    proof = prove_shuffle(deck_in, deck_out, key, witness, ctx, fresh)
    blob = proof.encode(v.S)
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
    pt_end = proof_points(v.S, n) * v.P      # offset of the first scalar (the challenge)
    # A shuffler that re-encrypts two positions with the same randomness: every input c1
    # is v.G (5.4), so their output c1 repeat; the proof itself is valid.
    twin = ShuffleWitness(witness.permutation,
                          (witness.randomness[0], *witness.randomness[:-1]))
    twin_out = apply_shuffle(v.S, deck_in, key, twin)
    negatives = keep([
        {**base, "name": f"{name}: tampered commitment c_0", "proof": v.replace_hex(
            blob, 0, proof.chain[0].data.hex()), "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: tampered chain c^_last", "proof": v.replace_hex(
            blob, (2 * n - 1) * v.P, proof.commitments[0].data.hex()),
         "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: tampered s1", "proof": v.flip_scalar_hex(blob, pt_end + v.N),
         "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: tampered s'_last", "proof": v.flip_scalar_hex(
            blob, len(blob) - v.N), "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: wrong context (seat)",
         "context": {**ctx_json(ctx), "seat": 1}, "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: output deck re-ordered", "deck_out": encode_deck(
            (deck_out[1], deck_out[0], *deck_out[2:])).hex(), "expected": "shuffle/challenge"},
        {**base, "name": f"{name}: identity commitment", "proof": v.replace_hex(
            blob, 0, v.identity_hex), "expected": "point/identity"},
        {**base, "name": f"{name}: torsion chain element", "proof": v.replace_hex(
            blob, n * v.P, v.torsion_of(proof.chain[0])), "expected": "point/torsion"},
        {**base, "name": f"{name}: non-canonical commitment", "proof": v.replace_hex(
            blob, v.P, v.noncanon_hex), "expected": "point/non-canonical"},
        {**base, "name": f"{name}: s4 >= L", "proof": v.bump_scalar_hex(blob, pt_end + 4 * v.N),
         "expected": "scalar/out-of-range"},
        {**base, "name": f"{name}: torsion point in output deck", "deck_out": v.replace_hex(
            bytes.fromhex(case["deck_out"]), v.P, v.torsion_of(deck_out[0].c2)),
         "expected": "point/torsion"},
        {**base, "name": f"{name}: small-order commitment", "proof": v.replace_hex(
            blob, 0, v.order2_hex), "expected": "point/small-order"},
        {**base, "name": f"{name}: chain point not on the curve", "proof": v.replace_hex(
            blob, n * v.P, v.not_on_curve_hex), "expected": "point/not-on-curve"},
        {**base, "name": f"{name}: proof one scalar short", "proof": blob[:-v.N].hex(),
         "expected": "shuffle/length"},
        {**base, "name": f"{name}: output deck not whole ciphertexts",
         "deck_out": case["deck_out"][:-2], "expected": "deck/length"},
        {**base, "name": f"{name}: output deck one ciphertext short",
         "deck_out": case["deck_out"][:-4 * v.P], "expected": "shuffle/size"},
        {**base, "name": f"{name}: two outputs share their c1 (a valid proof)",
         "deck_out": encode_deck(twin_out).hex(),
         "proof": prove_shuffle(deck_in, twin_out, key, twin, ctx, fresh).encode(v.S).hex(),
         "expected": "shuffle/repeated-c1"},
    ])
    if v.S.version >= 3:
        # The t^ are sent (7.5.1): a changed t^ changes the challenge's hash; a changed
        # s^ does not (no t' of 7.5 reads it), so only the batched equations catch it.
        negatives += [
            {**base, "name": f"{name}: tampered t^_0", "proof": v.replace_hex(
                blob, 2 * n * v.P, proof.chain[0].data.hex()), "expected": "shuffle/challenge"},
            {**base, "name": f"{name}: tampered s^_0 (only 7.5.1's equations read it)",
             "proof": v.flip_scalar_hex(blob, pt_end + 5 * v.N),
             "expected": "shuffle/challenge"},
            {**base, "name": f"{name}: output deck one ciphertext short, proof one scalar "
             "short (7.5 decodes the proof first)", "deck_out": case["deck_out"][:-4 * v.P],
             "proof": blob[:-v.N].hex(), "expected": "shuffle/length"},
        ]
    return case, negatives


def shuffle_vectors(v: Kit) -> dict[str, Any]:
    small, neg_small = shuffle_case(v, "shuffle-4", 4, with_trace=True)
    full, neg_full = shuffle_case(v, "shuffle-27", 27, with_trace=False)
    return {"positive": [small, full], "negative": neg_small + neg_full}


def deck_vectors(v: Kit) -> dict[str, Any]:
    """A 3-seat round on five tiles: keys, shuffles, one private and one public opening."""
    ts = DOUBLE_SIX
    tiles = [(0, 0), (1, 3), (2, 5), (4, 4), (5, 6)]
    game = seed("deck/game")
    xs = [v.secret(f"deck/x{i}") for i in range(3)]
    keys = [v.base_mul(x) for x in xs]
    key_proofs = [prove_key(x, Context(v.S, game, 0, i), seed(f"deck/key{i}"))
                  for i, x in enumerate(xs)]
    key_contexts = [ctx_json(Context(v.S, game, 0, i)) for i in range(3)]
    key = joint_key(v.S, keys)
    deck = initial_deck(v.S, ts, tiles, key)
    rounds = []
    for i in range(3):
        secret_bytes = v.scalar_bytes(xs[i])
        out, proof = shuffle_round(deck, key, Context(v.S, game, 1, i), seed(f"deck/shuffle{i}"),
                                   secret_bytes)
        rounds.append({"seat": i, "context": ctx_json(Context(v.S, game, 1, i)),
                       "fresh": seed(f"deck/shuffle{i}").hex(), "secret": str(xs[i]),
                       "deck_out": encode_deck(out).hex(), "proof": proof.encode(v.S).hex()})
        deck = out
    # Position 0 opened privately to seat 2: seats 0 and 1 publish shares.
    ct = deck[0]
    private = [make_share(xs[i], ct, Context(v.S, game, 2, i), seed(f"deck/priv{i}"))
               for i in range(2)]
    own = own_share(v.S, xs[2], ct)
    private_tile = ts.decode(v.S, v.sub(v.sub(v.sub(ct.c2, private[0].share),
                                              private[1].share), own))
    # Position 1 opened publicly: all three publish shares.
    ct1 = deck[1]
    public = [make_share(xs[i], ct1, Context(v.S, game, 3, i), seed(f"deck/pub{i}"))
              for i in range(3)]
    pub_pt = ct1.c2
    for ds in public:
        pub_pt = v.sub(pub_pt, ds.share)
    return {
        "set": ts.name, "tiles": [f"{a}-{b}" for a, b in tiles], "game_id": game.hex(),
        "secrets": [str(x) for x in xs], "keys": [k.data.hex() for k in keys],
        "key_proofs": [p.encode(v.S).hex() for p in key_proofs], "key_contexts": key_contexts,
        "key_fresh": [seed(f"deck/key{i}").hex() for i in range(3)],
        "joint_key": key.data.hex(),
        "initial_deck": encode_deck(initial_deck(v.S, ts, tiles, key)).hex(), "rounds": rounds,
        "private_opening": {
            "position": 0, "to_seat": 2,
            "shares": [{"seat": i, "context": ctx_json(Context(v.S, game, 2, i)),
                        "fresh": seed(f"deck/priv{i}").hex(),
                        "share": ds.share.data.hex(), "proof": ds.proof.encode(v.S).hex()}
                       for i, ds in enumerate(private)],
            "own_share": own.data.hex(), "tile": "{}-{}".format(*private_tile)},
        "public_opening": {
            "position": 1,
            "shares": [{"seat": i, "context": ctx_json(Context(v.S, game, 3, i)),
                        "fresh": seed(f"deck/pub{i}").hex(),
                        "share": ds.share.data.hex(), "proof": ds.proof.encode(v.S).hex()}
                       for i, ds in enumerate(public)],
            "tile": "{}-{}".format(*ts.decode(v.S, pub_pt))},
        "negative": [
            {"name": "key shares that cancel", "check": "joint_key",
             "keys": [keys[0].data.hex(), v.sub(v.IDENTITY, keys[0]).data.hex()],
             "expected": "deck/joint-key-identity"},
            {"name": "private opening without the owner's share", "check": "open",
             "position": 0, "shares": [ds.share.data.hex() for ds in private],
             "expected": "deck/not-a-tile"},
        ],
    }


def build(v: Kit) -> dict[str, dict[str, Any]]:
    header = {"generated_by": "python tools/gen_vectors.py",
              "seeds": "SHA-512('dealerless-vectors/' || label), see tools/gen_vectors.py",
              "spec": "spec/", "version": v.S.context.decode()}
    files = {"group": group_vectors(v), "tiles": tile_vectors(v),
             "schnorr": schnorr_vectors(v),
             "dleq": {**dleq_vectors(v), **({"batch": dleq_batch_vectors(v)}
                                           if v.S.version >= 3 else {})},
             "shuffle": shuffle_vectors(v), "deck": deck_vectors(v),
             "cannot_play": cannot_play_vectors(v)}
    return {name: {"about": header, **body} for name, body in files.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    v, args = kit_from_args(parser)
    stale = []
    for name, body in build(v).items():
        path = v.out / f"{name}.json"
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
