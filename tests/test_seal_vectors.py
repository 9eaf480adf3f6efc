"""seal.json of every vector set holds for the reference code (spec/06-proofs.md 6.6):
every deal is reproduced byte for byte, every case gives its code and names its seat."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import VECTOR_SUITES, load_vectors, suite_id

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
from protocol.suite import Suite

ROOT = Path(__file__).resolve().parent.parent


class SealSet:
    """One suite's seal.json, with its keys decoded and its deals by name."""

    def __init__(self, s: Suite) -> None:
        self.S = s
        self.seal = load_vectors("seal", s)
        self.keys = {k["seat"]: s.decode_point(bytes.fromhex(k["y"]))
                     for k in self.seal["keys"]}
        self.deals = {d["name"]: d for d in self.seal["deals"]}

    def context(self, vec: dict[str, Any]) -> SealContext:
        return seal_context(self.S, bytes.fromhex(vec["game_id"]), vec["stage"],
                            vec["committer"], [(j, self.keys[j]) for j in vec["recipients"]])


SETS = [SealSet(s) for s in VECTOR_SUITES]
IDS = [suite_id(s) for s in VECTOR_SUITES]


def outcome(fn: Any) -> tuple[str, int | None]:
    try:
        fn()
    except SealError as exc:
        return exc.code, exc.seat
    return "ok", None


@pytest.mark.parametrize("V", SETS, ids=IDS)
def test_generator_and_keys(V: SealSet) -> None:
    S, SEAL = V.S, V.seal
    assert seal_generator(S).data.hex() == SEAL["generator"]
    for k in SEAL["keys"]:
        game = bytes.fromhex(SEAL["deals"][0]["game_id"])
        x = share_key(S, bytes.fromhex(k["seed"]), game)
        assert str(x) == k["x"]
        key, proof = prove_share_key(S, x, game, k["seat"], bytes.fromhex(k["fresh"]))
        assert (key.data.hex(), S.encode_scalar(proof.c).hex(),
                S.encode_scalar(proof.z).hex()) \
            == (k["y"], k["c"], k["z"])
        verify_share_key(S, key, proof, game, k["seat"])


@pytest.mark.parametrize(("V", "vec"), [pytest.param(V, vec, id=f"{i}: {vec['name']}")
                                        for V, i in zip(SETS, IDS, strict=True)
                                        for vec in V.seal["deals"]])
def test_deals_are_reproduced_and_open(V: SealSet, vec: dict[str, Any]) -> None:
    S, SEAL = V.S, V.seal
    ctx = V.context(vec)
    assert (ctx.digest.hex(), ctx.m, ctx.t) == (vec["context"], vec["m"], vec["t"])
    nonce = bytes.fromhex(vec["nonce"])
    seal = deal(ctx, nonce, bytes.fromhex(vec["plaintext"]), bytes.fromhex(vec["fresh"]))
    assert pack(seal.encode(S)).hex() == vec["wire"]
    assert [c.data.hex() for c in seal.commitments] == vec["commitments"]
    assert [s.point.data.hex() for s in seal.shares] == [s["point"] for s in vec["shares"]]
    assert seal.ciphertext.hex() == vec["ciphertext"]
    s = seal_secret(ctx, nonce)
    assert S.encode_scalar(s).hex() == vec["secret"] and str(s) == vec["coefficients"][0]
    assert S.group.base_mul(s).data.hex() == vec["seal_point"]
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


def run_case(V: SealSet, case: dict[str, Any]) -> None:
    S = V.S
    if case["check"] == "key":
        verify_share_key(S, S.decode_point(bytes.fromhex(case["y"])),
                         SealProof.decode(S, bytes.fromhex(case["c"]), bytes.fromhex(case["z"])),
                         bytes.fromhex(case["game_id"]), case["seat"])
        return
    if case["check"] == "unpad":
        assert unpad(bytes.fromhex(case["padded"]), case["committer"]).hex() == case["data"]
        return
    vec = V.deals[case["deal"]]
    ctx = V.context(vec)
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


@pytest.mark.parametrize(("V", "case"), [
    pytest.param(V, c, id=f"{i}: {c['check']}: {c['name']}")
    for V, i in zip(SETS, IDS, strict=True) for c in V.seal["cases"]])
def test_cases_give_their_code_and_blame(V: SealSet, case: dict[str, Any]) -> None:
    assert outcome(lambda: run_case(V, case)) == (case["expected"], case["blame"])


@pytest.mark.parametrize("V", SETS, ids=IDS)
def test_other_seal_is_another_stages(V: SealSet) -> None:
    vec = V.deals["m=4"]
    other = V.seal["other_seal"]
    ctx = seal_context(V.S, bytes.fromhex(vec["game_id"]), other["stage"], other["committer"],
                       [(j, V.keys[j]) for j in vec["recipients"]])
    verify_seal(ctx, Seal.decode(unpack(bytes.fromhex(other["wire"]), 1 << 16), ctx,
                                 vec["size"]))


@pytest.mark.parametrize("S", VECTOR_SUITES, ids=IDS)
def test_generator_check_is_clean(S: Suite) -> None:
    suite_args = [] if S.version == 2 else ["--suite", S.name]
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_seal_vectors.py"),
                           "--check", *suite_args], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
