"""spec/vectors/seal.json holds for the reference code (spec/06-proofs.md 6.6): every
deal is reproduced byte for byte, every case gives its code and names its seat."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import load_vectors

from protocol.canonical import pack, unpack
from protocol.errors import SealError
from protocol.seal import (
    DecryptionShare,
    Seal,
    SealContext,
    SealProof,
    combine,
    deal,
    decode_secret,
    decryption_share,
    open_with_secret,
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
from protocol.suite import v2_suite

S = v2_suite()  # edwards25519-sha512, dealerless/2
base_mul = S.group.base_mul
decode_point = S.decode_point
scalar_bytes = S.encode_scalar

ROOT = Path(__file__).resolve().parent.parent
SEAL = load_vectors("seal")
KEYS = {k["seat"]: decode_point(bytes.fromhex(k["y"])) for k in SEAL["keys"]}
DEALS = {d["name"]: d for d in SEAL["deals"]}


def context(vec: dict[str, Any]) -> SealContext:
    return seal_context(S, bytes.fromhex(vec["game_id"]), vec["stage"], vec["committer"],
                        [(j, KEYS[j]) for j in vec["recipients"]])


def outcome(fn: Any) -> tuple[str, int | None]:
    try:
        fn()
    except SealError as exc:
        return exc.code, exc.seat
    return "ok", None


def test_generator_and_keys() -> None:
    assert seal_generator(S).data.hex() == SEAL["generator"]
    for k in SEAL["keys"]:
        game = bytes.fromhex(SEAL["deals"][0]["game_id"])
        x = share_key(S, bytes.fromhex(k["seed"]), game)
        assert str(x) == k["x"]
        key, proof = prove_share_key(S, x, game, k["seat"], bytes.fromhex(k["fresh"]))
        assert (key.data.hex(), scalar_bytes(proof.c).hex(), scalar_bytes(proof.z).hex()) \
            == (k["y"], k["c"], k["z"])
        verify_share_key(S, key, proof, game, k["seat"])


@pytest.mark.parametrize("vec", SEAL["deals"], ids=lambda v: v["name"])
def test_deals_are_reproduced_and_open(vec: dict[str, Any]) -> None:
    ctx = context(vec)
    assert (ctx.digest.hex(), ctx.m, ctx.t) == (vec["context"], vec["m"], vec["t"])
    nonce = bytes.fromhex(vec["nonce"])
    seal = deal(ctx, nonce, bytes.fromhex(vec["plaintext"]), bytes.fromhex(vec["fresh"]))
    assert pack(seal.encode(S)).hex() == vec["wire"]
    assert [c.data.hex() for c in seal.commitments] == vec["commitments"]
    assert [s.point.data.hex() for s in seal.shares] == [s["point"] for s in vec["shares"]]
    assert seal.ciphertext.hex() == vec["ciphertext"]
    s = seal_secret(ctx, nonce)
    assert scalar_bytes(s).hex() == vec["secret"] and str(s) == vec["coefficients"][0]
    assert base_mul(s).data.hex() == vec["seal_point"]
    received = Seal.decode(unpack(bytes.fromhex(vec["wire"]), 1 << 16), ctx, vec["size"])
    verify_seal(ctx, received)
    opened = open_with_secret(ctx, received, decode_secret(ctx, bytes.fromhex(vec["secret"])))
    assert opened.hex() == vec["plaintext"]
    code, blame = outcome(lambda: unpad(opened, ctx.committer))
    assert code == vec["unpad"]["expected"]
    if code == "ok":
        assert unpad(opened, ctx.committer).hex() == vec["unpad"]["data"]
    else:
        assert blame == ctx.committer
    shares = {}
    for d in vec.get("decryption_shares", []):
        mine = decryption_share(ctx, received, d["seat"],
                                int(next(k["x"] for k in SEAL["keys"] if k["seat"] == d["seat"])),
                                bytes.fromhex(d["fresh"]))
        assert pack(mine.encode(S)).hex() == d["wire"]
        got = DecryptionShare.decode(S, unpack(bytes.fromhex(d["wire"]), 1 << 10), d["seat"])
        verify_decryption_share(ctx, received, d["seat"], got)
        shares[d["seat"]] = got.point
    for combo in vec.get("combinations", []):
        assert combine(ctx, received, {j: shares[j] for j in combo["seats"]}).hex() \
            == combo["plaintext"] == vec["plaintext"]


def run_case(case: dict[str, Any]) -> None:
    if case["check"] == "key":
        verify_share_key(S, decode_point(bytes.fromhex(case["y"])),
                         SealProof.decode(S, bytes.fromhex(case["c"]), bytes.fromhex(case["z"])),
                         bytes.fromhex(case["game_id"]), case["seat"])
        return
    if case["check"] == "unpad":
        assert unpad(bytes.fromhex(case["padded"]), case["committer"]).hex() == case["data"]
        return
    vec = DEALS[case["deal"]]
    ctx = context(vec)
    if case["check"] == "seal":
        verify_seal(ctx, Seal.decode(unpack(bytes.fromhex(case["wire"]), 1 << 16), ctx,
                                     case["size"]))
        return
    seal = Seal.decode(unpack(bytes.fromhex(vec["wire"]), 1 << 16), ctx, vec["size"])
    if case["check"] == "opening":
        opened = open_with_secret(ctx, seal, decode_secret(ctx, bytes.fromhex(case["secret"])))
        assert opened.hex() == vec["plaintext"]
        return
    assert case["check"] == "decryption"
    share = DecryptionShare.decode(S, unpack(bytes.fromhex(case["wire"]), 1 << 10), case["seat"])
    verify_decryption_share(ctx, seal, case["seat"], share)


@pytest.mark.parametrize("case", SEAL["cases"],
                         ids=lambda c: f"{c['check']}: {c['name']}")
def test_cases_give_their_code_and_blame(case: dict[str, Any]) -> None:
    assert outcome(lambda: run_case(case)) == (case["expected"], case["blame"])


def test_other_seal_is_another_stages() -> None:
    vec = DEALS["m=4"]
    other = SEAL["other_seal"]
    ctx = seal_context(S, bytes.fromhex(vec["game_id"]), other["stage"], other["committer"],
                       [(j, KEYS[j]) for j in vec["recipients"]])
    verify_seal(ctx, Seal.decode(unpack(bytes.fromhex(other["wire"]), 1 << 16), ctx,
                                 vec["size"]))


def test_generator_check_is_clean() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_seal_vectors.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
