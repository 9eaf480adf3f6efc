#!/usr/bin/env python3
"""Independent check of every test vector, written from spec/ alone.

Runs the package tools/independent/ (it imports no code of the project) over every file of
spec/vectors/: the group, proof and deck vectors, the wire vectors, then the single-step,
transcript-file and match vectors through its transcript verifier. The game vectors
directly in spec/vectors/ are of dealerless/2; the handshake and relay vectors hash at
dealerless/3 (spec 3.5 "What is not the game's"). Each ciphersuite's own set at
dealerless/3, spec/vectors/suites/<suite>/, is checked the same way: group.json,
tiles.json, schnorr.json, dleq.json, shuffle.json, deck.json, cannot_play.json, seal.json,
fork.json, signatures.json (8.3, signed again), rules/mined_games.json and files.json
whole (every proof reproduced from its `fresh`), and disputes/ (11.3, 11.4) on a sample:
every crafted package, and every frame of the golden games `valid`, `illegal-placement`,
`equivocation` and `mined-choice` (the pure-Python groups take minutes over all 34).

Usage: python tools/independent_check.py [--full]   (exit 0 iff every check passes)
    --full: every golden frame of every suite's disputes/ too (about ten minutes).
"""

import sys

from independent.cli import check_main

if __name__ == "__main__":
    sys.exit(check_main(sys.argv[1:]))
