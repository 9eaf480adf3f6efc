"""The single-step and file vectors: setup.json through session.game.decode_setup,
disputes/ (every golden frame's package rebuilt by 11.3 and judged by check_step, 11.4;
the crafted packages) and files.json (transcript and match files, 11.2 and 11.5).

disputes/ and files.json are dealerless/2's and each ciphersuite's
(spec/vectors/suites/<suite>/).
In the pure-Python groups a suite's golden frames take minutes, so unless `full` a suite's
set is checked on a sample: every crafted package, and the golden transcripts of
tally.SUITE_SAMPLE (each of their frames: package rebuilt, shipped package, state hash
and verdict)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from independent.checks.tally import SUITE_SAMPLE, SUITE_SETS, V2_SET, VECTORS, VectorSet
from independent.disputes import check_step, packages
from independent.errors import NotJudged, SpecError
from independent.match import verify_match
from independent.session.game import decode_setup
from independent.verify import verify


def read_records(path: Path) -> list[bytes]:
    data, out, i = path.read_bytes(), [], 0
    while i < len(data):
        n = int.from_bytes(data[i : i + 4], "big")
        out.append(data[i + 4 : i + 4 + n])
        i += 4 + n
    return out


class Tally:
    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose
        self.sections: list[tuple[str, int, int]] = []
        self.passed = self.failed = 0

    def check(self, label: str, ok: bool, why: str = "") -> None:
        self.passed, self.failed = self.passed + ok, self.failed + (not ok)
        if not ok or self.verbose:
            print(f"{'PASS' if ok else 'FAIL'} {label}" + ("" if ok else f": {why}"))

    def section(self, name: str) -> None:
        self.sections.append((name, self.passed, self.failed))

    def end_section(self) -> None:
        name, p0, f0 = self.sections[-1]
        print(f"{name}: {self.passed - p0} passed, {self.failed - f0} failed")


VERDICT_KEYS = ("usable", "code", "valid", "next_state_hash", "rule", "seat", "frame",
                "authenticated")


def _cmp_verdict(got: dict[str, Any], want: dict[str, Any]) -> str:
    diffs = [f"{k}: got {got.get(k)!r}, want {want.get(k)!r}" for k in VERDICT_KEYS
             if k in want and got.get(k) != want[k]]
    return "; ".join(diffs)


def check_disputes(t: Tally, vs: VectorSet = V2_SET,
                   sample: tuple[str, ...] | None = None) -> None:
    """Every golden transcript of the set's disputes/index.json, or those of `sample`."""
    disputes, transcripts = vs.path("disputes"), vs.path("transcripts")
    idx = json.loads((disputes / "index.json").read_text())
    golden = idx["golden"]
    if sample is not None:
        golden = {k: v for k, v in golden.items() if k in sample}
    t.section(f"{vs.prefix}disputes/golden" + ("" if sample is None else
                                               f" ({len(golden)} of {len(idx['golden'])})"))
    if sample is not None:
        t.check(f"{vs.prefix}disputes: the sample {sample} is golden", len(golden) == len(sample))
    for name, gv in golden.items():
        data = (transcripts / gv["transcript"]).read_bytes()
        built = packages(data)
        shipped = read_records(disputes / gv["packages"]) if gv["packages"] else None
        t.check(f"{name}: {len(gv['steps'])} steps", len(built) == len(gv["steps"]),
                f"{len(built)} packages built")
        for s in gv["steps"]:
            n = s["index"]
            if n >= len(built):
                continue
            pkg, sh = built[n]
            label = f"{name} frame {n}"
            ok = hashlib.sha256(pkg).hexdigest() == s["package_sha256"]
            if shipped is not None:
                ok = ok and shipped[n] == pkg
            t.check(f"{label}: package", ok, "the package built per 11.3 differs")
            t.check(f"{label}: committed state hash", sh.hex() == s["committed_state_hash"],
                    f"got {sh.hex()}")
            ch = s["committed_state_hash"]
            got = check_step(pkg, bytes.fromhex(ch) if ch else None)
            d = _cmp_verdict(got, s)
            t.check(f"{label}: verdict", not d, d)
    t.end_section()
    _check_packages(t, f"{vs.prefix}disputes/crafted", disputes, idx["crafted"])
    if (disputes / "chain.json").exists():   # what a VM might get wrong (11.4.1)
        _check_packages(t, f"{vs.prefix}disputes/chain", disputes,
                        json.loads((disputes / "chain.json").read_text()))


def _check_packages(t: Tally, section: str, disputes: Path, vectors: dict[str, Any]) -> None:
    """Each package of a `.packages` file against the verdict its vector states."""
    t.section(section)
    recs = read_records(disputes / vectors["packages"])
    for s in vectors["steps"]:
        pkg = recs[s["record"]]
        label = f"{section.rsplit('/', 1)[1]} {s['record']} {s['name']}"
        if hashlib.sha256(pkg).hexdigest() != s["package_sha256"]:
            t.check(label, False, "package bytes do not match package_sha256")
            continue
        ch = s["committed_state_hash"]
        got = check_step(pkg, bytes.fromhex(ch) if ch else None)
        d = _cmp_verdict(got, s)
        t.check(label, not d, d)
    t.end_section()


def _cmp_vio(got: dict[str, Any] | None, want: dict[str, Any] | None) -> list[str]:
    if got is None or want is None:
        return [] if got == want else [f"violation: got {got}, want {want}"]
    return [f"violation.{k}: got {got.get(k)!r}, want {want[k]!r}" for k in want
            if got.get(k) != want[k]]


def check_files(t: Tally, vs: VectorSet = V2_SET) -> None:
    d = json.loads(vs.path("files.json").read_text())
    t.section(f"{vs.prefix}files/transcripts")
    for x in d["transcripts"]:
        v = verify(bytes.fromhex(x["file"]))
        j = v.to_json()
        diffs = [f"{k}: got {j[k]!r}, want {x[k]!r}" for k in ("valid", "complete", "frames")
                 if j[k] != x[k]] + _cmp_vio(j["violation"], x["violation"])
        t.check(f"transcript {x['name']}", not diffs, "; ".join(diffs))
    t.end_section()
    t.section(f"{vs.prefix}files/matches")
    for x in d["matches"]:
        m = verify_match(bytes.fromhex(x["file"]))
        diffs = [f"{k}: got {m[k]!r}, want {x[k]!r}" for k in ("valid", "broken_round")
                 if m[k] != x[k]] + _cmp_vio(m["violation"], x["violation"])
        t.check(f"match {x['name']}", not diffs, "; ".join(diffs))
    t.end_section()


def check_setups(t: Tally) -> None:
    d = json.loads((VECTORS / "setup.json").read_text())
    # The label names session.game.decode_setup as it was called before tools/independent/,
    # so that the scripts' output stays the same.
    t.section("setup.json (independent_verify.decode_setup)")
    for x in d["vectors"]:
        try:
            g = decode_setup(bytes.fromhex(x["setup"]))
            got, gid = "ok", g.game_id.hex()
        except SpecError as e:
            got, gid = e.code, None
        ok = got == x["expected"] and (got != "ok" or gid == x.get("game_id"))
        t.check(f"setup {x['name']}", ok, f"got {got}, want {x['expected']}")
        # 8.2: a verifier that implements only bram reports the same, except no verdict
        # ("not judged") for a setup of another rule set of the version.
        try:
            decode_setup(bytes.fromhex(x["setup"]), implemented=("bram",))
            got = "ok"
        except SpecError as e:
            got = e.code
        except NotJudged:
            got = "not judged"
        want = x.get("if_only_bram", x["expected"])
        t.check(f"setup {x['name']}, a verifier of bram alone", got == want,
                f"got {got}, want {want}")
    t.end_section()


def run(verbose: bool = False, files: bool = True, full: bool = False) -> tuple[int, int]:
    """setup.json, dealerless/2's disputes/ and files.json, then each suite's disputes/
    (all of it with `full`, else every crafted package and SUITE_SAMPLE's golden games)
    and files.json."""
    t = Tally(verbose)
    check_setups(t)
    check_disputes(t)
    if files:
        check_files(t)
    for vs in SUITE_SETS:
        check_disputes(t, vs, None if full else SUITE_SAMPLE)
        if files:
            check_files(t, vs)
    return t.passed, t.failed
