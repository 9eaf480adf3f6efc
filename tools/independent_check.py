#!/usr/bin/env python3
"""Independent check of every test vector, written from spec/ alone.

Runs the package tools/independent/ (it imports no code of the project) over every file of
spec/vectors/: the group, proof and deck vectors, the wire vectors, then the single-step,
transcript-file and match vectors through its transcript verifier. The game vectors are of
dealerless/2; the handshake and relay vectors hash at dealerless/3 (spec 3.5 "What is not
the game's").

Usage: python tools/independent_check.py   (exit 0 iff every check passes)
"""

import sys

from independent.cli import check_main

if __name__ == "__main__":
    sys.exit(check_main())
