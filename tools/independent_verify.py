#!/usr/bin/env python3
"""Independent verifier of dealerless/2 and dealerless/3 transcript files, written from
spec/ alone.

The verifier is the package tools/independent/ (it imports no code of the project). It
parses a transcript (8.6), decodes the setup (8.2: six items at version 2, seven with the
suite at version 3), replays every frame through the checks of 10.5 in order in the game's
suite (3.5), judges the evidence records (11.2 step 4) and reports the verdict of 11.1.

Usage:
    python tools/independent_verify.py FILE...        one line per file
    python tools/independent_verify.py --json FILE    the 11.1 JSON object per file
    python tools/independent_verify.py --golden       every transcript of
        spec/vectors/transcripts/index.json against its expected verdict, plus the state
        hash (10.3) of every frame of the `valid` and `mined-games-5` transcripts; then
        each suite's spec/vectors/suites/<suite>/transcripts/ likewise, on a sample (the
        games `valid`, `illegal-placement`, `equivocation` and `mined-choice`; all of
        them with --full); exit 0 iff nothing failed.
    python tools/independent_verify.py --disputes     spec/vectors/setup.json against
        decode_setup, spec/vectors/disputes/ (every golden frame's package rebuilt by 11.3
        and judged by check_step, 11.4; the crafted packages) and spec/vectors/files.json
        (transcript and match files, 11.2 and 11.5); then each suite's disputes/: every
        crafted package, and the golden frames of the sample above (all with --full).
    python tools/independent_verify.py --all          --golden, then --disputes.
    ... --full                                        with --golden, --disputes or --all:
        every game of every suite's set (the pure-Python groups take minutes).
    python tools/independent_verify.py --perft        the rule vectors of
        spec/vectors/rules/mineshaft_perft.json (rules/mineshaft.md 11); exit 0 iff all
        agree.

Exit codes as 11.1: 0 valid and complete, 1 invalid, 2 usage/unreadable, 3 valid prefix
(several files: the worst of them, in the order 2, 1, 3, 0).
"""

import sys

from independent.cli import verify_main

if __name__ == "__main__":
    sys.exit(verify_main())
