#!/usr/bin/env python3
"""Independent check of the Mined Games rule vectors, written from spec/ alone.

Usage:
    python tools/independent_mined.py [FILE]
        replay every case of spec/vectors/rules/mined_games.json (rules/mined-games.md 10)
        and its map vectors through the package tools/independent/; exit 0 iff all agree.
"""

import sys

from independent.cli import mined_main

if __name__ == "__main__":
    sys.exit(mined_main())
