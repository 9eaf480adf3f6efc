"""The main functions of the scripts tools/independent_check.py (every vector file),
tools/independent_verify.py (transcript files, --golden, --disputes, --all, --perft) and
tools/independent_mined.py (the Mined Games rule vectors)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from independent.checks import (
    core,
    disputes,
    fork,
    groups,
    handshake,
    mined,
    mineshaft_perft,
    relay,
    rfc,
    seal,
    signatures,
    wire,
)
from independent.checks.golden import golden
from independent.checks.tally import SUITE_SETS, Tally
from independent.verify import summary, verify

#: The checks of one vector set (checks.tally.VectorSet), dealerless/2's or a suite's.
SET_CHECKS = (core.check_group, core.check_tiles, core.check_schnorr, core.check_dleq,
              core.check_shuffle, core.check_deck, core.check_cannot_play, seal.check_seal,
              fork.check_fork)


def check_main(argv: list[str] | None = None) -> int:
    """Every vector file: the group, proof and deck vectors, the wire vectors, each
    suite's set of them (with its signatures.json and rules/mined_games.json), then (by
    the transcript verifier) the single-step, transcript-file and match vectors. Without
    --full a suite's disputes/ is sampled (checks.disputes: every crafted package, the
    golden games of tally.SUITE_SAMPLE)."""
    ap = argparse.ArgumentParser(description="Independent check of every test vector.")
    ap.add_argument("--full", action="store_true",
                    help="every golden frame of every suite's disputes/, not a sample")
    args = ap.parse_args(argv)
    t = Tally()

    def report() -> None:
        passed, failed = t.counts.get(t.file, [0, 0])
        print(f"{t.file}: {passed} passed, {failed} failed", flush=True)

    for fn in (*SET_CHECKS, *wire.CHECKS, relay.check_relay, relay.check_entry,
               handshake.check_handshake, groups.check_groups, rfc.check_rfc,
               groups.check_suite_v2, groups.check_suite_table):
        fn(t)
        report()
    for vs in SUITE_SETS:
        for fn in (*SET_CHECKS, signatures.check_signatures, mined.check_mined):
            fn(t, vs)
            report()
    passed = sum(c[0] for c in t.counts.values())
    failed = sum(c[1] for c in t.counts.values())
    more, wrong = disputes.run(full=args.full)
    # checks.disputes, named as before tools/independent/ so that the output stays the same
    print(f"disputes/, files.json and setups (independent_dispute.py): {more} passed, "
          f"{wrong} failed")
    passed, failed = passed + more, failed + wrong
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def verify_main(argv: list[str] | None = None) -> int:
    """Exit codes as 11.1: 0 valid and complete, 1 invalid, 2 usage/unreadable, 3 valid
    prefix (several files: the worst of them, in the order 2, 1, 3, 0)."""
    ap = argparse.ArgumentParser(
        description="Independent verifier of dealerless/2 and dealerless/3 transcript "
                    "files.")
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--golden", action="store_true",
                    help="check spec/vectors/transcripts, then each suite's (sampled without "
                         "--full)")
    ap.add_argument("--json", action="store_true", help="print the 11.1 JSON verdict")
    ap.add_argument("--disputes", action="store_true",
                    help="check spec/vectors/disputes, files.json and setup.json, then each "
                         "suite's disputes/ (sampled without --full)")
    ap.add_argument("--all", action="store_true", help="--golden, then --disputes")
    ap.add_argument("--full", action="store_true",
                    help="with --golden, --disputes or --all: every game of every suite's "
                         "transcripts/ and disputes/, not a sample")
    ap.add_argument("--perft", action="store_true",
                    help="check spec/vectors/rules/mineshaft_perft.json")
    args = ap.parse_args(argv)
    if args.perft:
        ok, bad = mineshaft_perft.self_check()
        passed, failed = mineshaft_perft.check_perft()
        print(f"mineshaft encoding: {ok} passed, {bad} failed; "
              f"perft: {passed} passed, {failed} failed")
        return 0 if bad == 0 and failed == 0 else 1
    if args.golden and not args.all:
        return golden(args.full)
    if args.disputes or args.all:
        rc = golden(args.full) if args.all else 0
        passed, failed = disputes.run(full=args.full)
        print(f"disputes, files and setups: {passed} passed, {failed} failed")
        return rc or (0 if failed == 0 else 1)
    if not args.files:
        ap.print_usage(sys.stderr)
        return 2
    codes = set()
    for path in args.files:
        try:
            data = path.read_bytes()
        except OSError as e:
            print(f"{path}: exit 2 cannot read: {e}")
            codes.add(2)
            continue
        v = verify(data)
        print(json.dumps(v.to_json()) if args.json else summary(str(path), v))
        codes.add(v.exit)
    # Several files: the worst verdict wins (unreadable, invalid, prefix, complete).
    return next((c for c in (2, 1, 3) if c in codes), 0)


def mined_main(argv: list[str] | None = None) -> int:
    """The Mined Games vectors (argv: optionally another file of them)."""
    args = sys.argv[1:] if argv is None else argv
    good, failed = mined.self_check(Path(args[0]) if args else mined.MINED)
    print(f"mined-games vectors: {good} passed, {failed} failed")
    return 0 if failed == 0 else 1
