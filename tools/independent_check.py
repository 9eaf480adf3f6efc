#!/usr/bin/env python3
"""Independent check of every test vector, written from spec/ alone.

Runs the package tools/independent/ (it imports no code of the project) over every file of
spec/vectors/: the group, proof and deck vectors, the wire vectors, then the single-step,
transcript-file and match vectors through its transcript verifier. The game vectors
directly in spec/vectors/ are of dealerless/2; the handshake and relay vectors hash at
dealerless/3 (spec 3.5 "What is not the game's"). Each ciphersuite's own set at
dealerless/3, spec/vectors/suites/<suite>/, is checked the same way: group.json,
tiles.json, schnorr.json, dleq.json, shuffle.json, deck.json, cannot_play.json, seal.json
and fork.json (every proof reproduced from its `fresh`).

Usage: python tools/independent_check.py   (exit 0 iff every check passes)
"""

import sys

from independent.cli import check_main

if __name__ == "__main__":
    sys.exit(check_main())
