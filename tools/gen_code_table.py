#!/usr/bin/env python3
"""Write the code -> vector table into spec/vectors/README.md (spec/01-notation.md 1.5).

    python tools/gen_code_table.py          # rewrite the table
    python tools/gen_code_table.py --check  # exit 1 if it is stale or a code has no vector

The codes a verifier reports are read from the first table of spec/01-notation.md
1.5, the codes it never reports from the second. Every vector file is searched for
the codes it expects (`expected`, a violation's `rule`, an unusable package's
`code`). The check fails if a reported code has no vector, or if a vector expects a
code that neither table lists.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "spec" / "vectors"
README = VECTORS / "README.md"
BEGIN, END = "<!-- code table: begin -->", "<!-- code table: end -->"
CODE = re.compile(r"`([a-z0-9-]+/[a-z0-9-]+)`")


def registry() -> tuple[list[str], set[str]]:
    """(reported codes in table order, codes never reported) from spec/01 1.5."""
    text = (ROOT / "spec" / "01-notation.md").read_text()
    section = text[text.index("## 1.5"):]
    tables = re.split(r"\n\n(?=\|)", section)
    reported_table = next(t for t in tables if t.startswith("| area |"))
    never_table = next(t for t in tables if t.startswith("| code |"))
    reported: list[str] = []
    for line in _rows(reported_table):
        reported += CODE.findall(line.split("|")[2])
    never = {c for line in _rows(never_table) for c in CODE.findall(line.split("|")[1])}
    return reported, never


def _rows(table_text: str) -> list[str]:
    """The body rows of the markdown table at the start of `table_text`."""
    lines = []
    for line in table_text.splitlines():
        if not line.startswith("|"):
            break
        lines.append(line)
    return lines[2:]


def expected_codes() -> dict[str, list[str]]:
    """code -> the vectors that expect it, as 'file: name'."""
    found: dict[str, list[str]] = defaultdict(list)

    def walk(obj: Any, where: str, label: str) -> None:
        if isinstance(obj, dict):
            label = str(obj.get("name", label))
            for key, value in obj.items():
                if key in ("expected", "rule", "code") and isinstance(value, str) \
                        and "/" in value:
                    found[value].append(f"{where}: {label}")
                else:
                    walk(value, where, label)
        elif isinstance(obj, list):
            for value in obj:
                walk(value, where, label)

    for path in sorted(VECTORS.rglob("*.json")):
        data = json.loads(path.read_text())
        # A suite's set is named once for all suites: suites/*/<file>.
        kind = str(path.relative_to(VECTORS)).split("/", 2)
        rel = f"suites/*/{kind[2]}" if kind[0] == "suites" else "/".join(kind)
        if rel.endswith("disputes/index.json"):
            for name, vec in data["golden"].items():
                for step in vec["steps"]:
                    walk(step, rel, f"{name} frame {step['index']}")
            walk(data["crafted"]["steps"], rel, "crafted")
        elif rel.endswith("transcripts/index.json"):
            for name, entry in data["transcripts"].items():
                walk(entry, rel, name)
        else:
            walk(data, rel, rel)
    return found


def table(reported: list[str], found: dict[str, list[str]]) -> str:
    rows = ["| code | vectors | for example |", "| --- | --- | --- |"]
    for code in reported:
        refs = found.get(code, [])
        files = sorted({r.split(": ")[0] for r in refs})
        example = refs[0].split(": ", 1)[1] if refs else "NONE"
        rows.append(f"| `{code}` | {len(refs)} in {', '.join(f'`{f}`' for f in files)} "
                    f"| {example} |")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    args = ap.parse_args()
    reported, never = registry()
    found = expected_codes()
    problems = [f"{c}: no vector expects it" for c in reported if c not in found]
    problems += [f"{c}: expected by {found[c][0]} but not listed in spec/01 1.5"
                 for c in sorted(found) if c not in reported and c not in never]
    text = README.read_text()
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    new = f"{head}{BEGIN}\n{table(reported, found)}\n{END}{tail}"
    if args.check and new != text:
        problems.append("spec/vectors/README.md: the code table is stale "
                        "(run python tools/gen_code_table.py)")
    if not args.check:
        README.write_text(new)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
