"""The vectors of the proof that no hand tile is playable (spec/06-proofs.md 6.5), for
tools/gen_vectors.py: a small double-six claim, the worst 15-tile double-twelve claim,
and the negatives."""

from __future__ import annotations

from typing import Any

from vector_common import Kit, ctx_json, keep, seed

from protocol.cannot_play import (
    CannotPlayStatement,
    HandPosition,
    _prove_unchecked,
    partial_opening,
    prove_cannot_play,
    recompute_commitments,
)
from protocol.context import Context
from protocol.deck import joint_key
from protocol.elgamal import Ciphertext
from protocol.errors import DealerlessError
from protocol.groups import Element as Point
from protocol.tags import Tag
from protocol.tiles import DOUBLE_SIX, DOUBLE_TWELVE, Tile, TileSet, parse_tile, tile_text


def _cannot_play_case(v: Kit, name: str, ts: TileSet, seats: int, seat: int,
                      hand: list[tuple[int, Tile]], forbidden: list[Tile],
                      step: int) -> tuple[dict[str, Any], CannotPlayStatement, Context]:
    """Seat `seat` of `seats` holds `hand` (position, tile), opened to it privately:
    each ciphertext is Enc(M_t; rho) under the joint key, with every other seat's share."""
    xs = [v.secret(f"{name}/x{i}") for i in range(seats)]
    key = joint_key(v.S, [v.base_mul(x) for x in xs])
    positions, entries = [], []
    for pos, t in hand:
        rho = v.secret(f"{name}/rho{pos}")
        ct = Ciphertext(v.base_mul(rho), v.S.group.add(ts.point(v.S, t), v.mul(rho, key)))
        shares = [v.mul(xs[i], ct.c1) for i in range(seats) if i != seat]
        hp = HandPosition(pos, ct.c1, partial_opening(v.S, ct, shares))
        positions.append(hp)
        entries.append({"position": pos, "c1": ct.c1.data.hex(), "c2": ct.c2.data.hex(),
                        "shares": [d.data.hex() for d in shares],
                        "partial": hp.partial.data.hex()})
    ctx = Context(v.S, seed(f"{name}/game"), step, seat)
    stmt = CannotPlayStatement(v.S, ts, v.base_mul(xs[seat]), tuple(positions), tuple(forbidden))
    case = {"name": name, "set": ts.name, "context": ctx_json(ctx),
            "key": stmt.key.data.hex(), "secret": str(xs[seat]),
            "fresh": seed(f"{name}/fresh").hex(), "positions": entries,
            "forbidden": [tile_text(t) for t in forbidden],
            "tiles": [tile_text(t) for _, t in hand]}
    return case, stmt, ctx


def _cannot_play_proof(v: Kit, case: dict[str, Any], stmt: CannotPlayStatement,
                       ctx: Context) -> None:
    x, fresh = int(case["secret"]), bytes.fromhex(case["fresh"])
    proof = prove_cannot_play(x, stmt, ctx, fresh)
    r, k_r, k_a = v.nonce_scalars(Tag.CANNOT_PLAY.value, v.scalar_bytes(x), stmt.encode(ctx),
                                fresh, 3)
    case.update({
        "proof": proof.encode(v.S).hex(), "nonces": {"r": str(r), "k_r": str(k_r),
                                                   "k_a": str(k_a)},
        "blinded_hand": [p.data.hex() for p in proof.blinded_hand],
        "blinded_forbidden": [p.data.hex() for p in proof.blinded_forbidden],
        "commitments": [p.data.hex() for p in recompute_commitments(stmt, proof)],
        "challenge": str(proof.c), "z_r": str(proof.z_r), "z_a": str(proof.z_a),
        "expected": "ok"})


def cannot_play_vectors(v: Kit) -> dict[str, Any]:
    """Spec 6.5: a small double-six claim, the worst 15-tile double-twelve claim, negatives."""
    small_hand = [(2, (0, 0)), (5, (1, 3)), (9, (0, 2)), (11, (2, 2))]
    small_forbidden = [t for t in DOUBLE_SIX.tiles if t[1] >= 5]          # ends 5 and 6
    small, stmt, ctx = _cannot_play_case(v, "cannot-play-6", DOUBLE_SIX, 3, 1, small_hand,
                                         small_forbidden, 40)
    _cannot_play_proof(v, small, stmt, ctx)
    low = [t for t in DOUBLE_TWELVE.tiles if t[1] <= 4]                   # 15 tiles
    worst, wstmt, wctx = _cannot_play_case(
        v, "cannot-play-12-worst", DOUBLE_TWELVE, 4, 2, [(3 * i + 7, t) for i, t in enumerate(low)],
        [t for t in DOUBLE_TWELVE.tiles if t[1] >= 5], 123)               # 76 tiles
    _cannot_play_proof(v, worst, wstmt, wctx)

    blob = bytes.fromhex(small["proof"])
    h, f = len(small_hand), len(small_forbidden)
    k_off, q_off, s_off = 0, v.P * h, v.P * (h + f)
    names = small["forbidden"]
    # A false claim: 1-3 (held at position 5) added to the forbidden set, proven by the
    # prover without its witness check. The proof is otherwise valid: C = Q_t - K_j = O.
    with_held = sorted([*small_forbidden, (1, 3)])
    false_stmt = CannotPlayStatement(v.S, DOUBLE_SIX, stmt.key, stmt.hand, tuple(with_held))
    false_proof = _prove_unchecked(int(small["secret"]), false_stmt, ctx,
                                   bytes.fromhex(small["fresh"])).encode(v.S).hex()
    pos = small["positions"]
    missing_share = {**pos[0], "partial": v.sub(stmt.hand[0].partial,
                                              v.mul(v.secret("cannot-play-6/x2"),
                                                  stmt.hand[0].c1)).data.hex()}
    for key in ("c2", "shares"):
        missing_share.pop(key)
    base = {"case": "cannot-play-6"}
    negative = keep([
        {**base, "name": "tampered K_0", "proof": v.replace_hex(blob, k_off, small[
            "blinded_hand"][1]), "expected": "cannot-play/challenge"},
        {**base, "name": "tampered Q_last", "proof": v.replace_hex(blob, s_off - v.P, small[
            "blinded_forbidden"][0]), "expected": "cannot-play/challenge"},
        {**base, "name": "tampered C: K_0 replaced by Q_0, so C_{0,0} = O", "proof":
            v.replace_hex(blob, k_off, small["blinded_forbidden"][0]),
         "expected": "cannot-play/challenge"},
        {**base, "name": "tampered challenge", "proof": v.flip_scalar_hex(blob, s_off),
         "expected": "cannot-play/challenge"},
        {**base, "name": "tampered z_r", "proof": v.flip_scalar_hex(blob, s_off + v.N),
         "expected": "cannot-play/challenge"},
        {**base, "name": "tampered z_a", "proof": v.flip_scalar_hex(blob, s_off + 2 * v.N),
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
        {**base, "name": "another seat's key", "key": v.base_mul(v.secret("cannot-play-6/x0"))
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
        {**base, "name": "challenge >= L", "proof": v.bump_scalar_hex(blob, s_off),
         "expected": "scalar/out-of-range"},
        {**base, "name": "z_a >= L", "proof": v.bump_scalar_hex(blob, s_off + 2 * v.N),
         "expected": "scalar/out-of-range"},
        {**base, "name": "identity K_0", "proof": v.replace_hex(blob, k_off, v.identity_hex),
         "expected": "point/identity"},
        {**base, "name": "small-order Q_0", "proof": v.replace_hex(blob, q_off, v.order2_hex),
         "expected": "point/small-order"},
        {**base, "name": "K_1 not on the curve",
         "proof": v.replace_hex(blob, v.P, v.not_on_curve_hex),
         "expected": "point/not-on-curve"},
        {**base, "name": "torsion K_0", "proof": v.replace_hex(blob, k_off, v.torsion_of(
            Point(bytes.fromhex(small["blinded_hand"][0])))), "expected": "point/torsion"},
        {**base, "name": "non-canonical Q_0", "proof": v.replace_hex(blob, q_off, v.noncanon_hex),
         "expected": "point/non-canonical"},
        {**base, "name": "proof one byte short", "proof": blob[:-1].hex(),
         "expected": "cannot-play/length"},
        {**base, "name": "proof one point long", "proof": blob[:v.P].hex() + blob.hex(),
         "expected": "cannot-play/length"},
        {**base, "name": "identity key", "key": v.identity_hex, "expected": "point/identity"},
        {**base, "name": "non-canonical c1", "positions": [{**pos[0], "c1": v.noncanon_hex},
                                                           *pos[1:]],
         "expected": "point/non-canonical"},
        {**base, "name": "identity key and an empty hand", "key": v.identity_hex, "positions":
            [], "expected": "point/identity", "note": "6.5.5 decodes the key before step 1: "
            "checking the limits first gives cannot-play/size"},
        {**base, "name": "positions out of order, the second with a non-canonical c1",
         "positions": [pos[1], {**pos[0], "c1": v.noncanon_hex}, *pos[2:]], "expected":
            "point/non-canonical", "note": "6.5.5 decodes every c1 and share before step "
            "1: checking the order first gives cannot-play/order"},
    ])
    refuse = [
        {**base, "name": "prover refuses: position 5 holds forbidden 1-3",
         "forbidden": [tile_text(t) for t in with_held], "expected": "cannot-play/witness"},
        {**base, "name": "prover refuses: secret is not the key share's",
         "secret": str(v.secret("cannot-play-6/x0")), "expected": "cannot-play/witness"},
    ]
    for neg in refuse:  # the generator's own prover must refuse too
        try:
            prove_cannot_play(int(neg["secret"]) if "secret" in neg else int(small["secret"]),
                              CannotPlayStatement(v.S, DOUBLE_SIX, stmt.key, stmt.hand, tuple(
                                  with_held if "forbidden" in neg else small_forbidden)),
                              ctx, bytes.fromhex(small["fresh"]))
        except DealerlessError as exc:
            assert exc.code == neg["expected"], exc.code
        else:
            raise AssertionError(neg["name"])
    return {"positive": [small, worst], "negative": negative, "refuse": refuse}
