"""Helpers shared by the vector generators (tools/gen_*_vectors.py) and the wire cases
(tools/wire_setup_cases.py, tools/wire_file_cases.py): public-label seeds, the outcome of
a check, a few special curve encodings, and the main() that writes a file or checks it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from protocol.errors import DealerlessError
from protocol.groups.edwards25519 import P_FIELD
from protocol.suite import v2_suite

S = v2_suite()  # edwards25519-sha512, dealerless/2
L = S.order

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors"
ABOUT = {"generated_by": "python tools/gen_wire_vectors.py", "spec": "spec/08-wire.md"}

#: A point of order 8 (libsodium's blocklist), and y values with no point on the curve
#: and with a point whose encoding has a non-canonical twin (y + p < 2^255).
ORDER8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
NO_X = (2).to_bytes(32, "little")


def seed(label: str) -> bytes:
    return hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest()[:32]


def scalar(label: str) -> int:
    return int.from_bytes(hashlib.sha512(b"dealerless-vectors/" + label.encode()).digest(),
                          "little") % L


def outcome(check: Callable[[], object]) -> str:
    try:
        check()
    except DealerlessError as exc:
        return exc.code
    return "ok"


def non_canonical_twin() -> bytes:
    """The encoding y + p of the first point with y < 19 that has one (y = 2 has none)."""
    for y in range(2, 19):
        enc = (y + P_FIELD).to_bytes(32, "little")
        if _on_curve(y):
            return enc
    raise AssertionError("no small y on the curve")


def _on_curve(y: int) -> bool:
    d = (-121665 * pow(121666, -1, P_FIELD)) % P_FIELD
    u, v = (y * y - 1) % P_FIELD, (d * y * y + 1) % P_FIELD
    x2 = u * pow(v, -1, P_FIELD) % P_FIELD
    return pow(x2, (P_FIELD - 1) // 2, P_FIELD) in (0, 1)


def write_or_check(out: Path, build: Callable[[], object], doc: str | None,
                   sort_keys: bool = True) -> int:
    """The main() of a vector generator: write `out` as the indented JSON of `build()`,
    or with --check exit 1 when the file differs from what the code gives."""
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(description=(doc or "").strip().splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, sort_keys=sort_keys) + "\n"
    if args.check:
        if not out.exists() or out.read_text() != text:
            print(f"{out} is stale: run python tools/{Path(sys.argv[0]).name}", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    return 0
