#!/usr/bin/env python3
"""Independent check of every dealerless/2 test vector, written from spec/ alone.

Runs the package tools/independent/ (it imports no code of the project) over every file of
spec/vectors/: the group, proof and deck vectors, the wire vectors, then the single-step,
transcript-file and match vectors through its transcript verifier.

Usage: python tools/independent_check.py   (exit 0 iff every check passes)
"""

import sys

from independent.cli import check_main

if __name__ == "__main__":
    sys.exit(check_main())
