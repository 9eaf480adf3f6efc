"""Every error code a verifier can report is listed in spec/01-notation.md 1.5 and
expected by at least one vector (the table in spec/vectors/README.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from gen_code_table import registry  # noqa: E402

#: The constructors through which a code reaches a verdict; LocalError is a local bug.
RAISERS = {"EncodingError", "DealerlessError", "Violation", "RuleViolation", "ProofError",
           "DeckError", "SignatureError", "SealError", "blame"}


def raised_codes() -> dict[str, str]:
    """code -> a file raising it, for every literal code passed to a RAISERS call."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "protocol").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            first = node.args[0]
            if name in RAISERS and isinstance(first, ast.Constant) \
                    and isinstance(first.value, str) and "/" in first.value:
                found.setdefault(first.value, path.name)
    return found


def test_every_code_the_code_raises_is_in_the_spec_registry() -> None:
    reported, never = registry()
    missing = {c: f for c, f in raised_codes().items() if c not in reported and c not in never}
    assert not missing, f"codes raised but not in spec/01 1.5: {missing}"


def test_the_registry_names_no_code_twice() -> None:
    reported, never = registry()
    assert len(reported) == len(set(reported))
    assert not set(reported) & never


def test_every_reported_code_has_a_vector_and_the_table_is_current() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_code_table.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
