"""The layout of tools/: the spec-only implementation is one package, tools/independent/,
in layers without import cycles, that imports nothing of the project; no file of tools/
is over 600 lines. The imports are read with `ast`, those inside functions and under
TYPE_CHECKING included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
PACKAGE = TOOLS / "independent"
SCRIPTS = sorted(TOOLS.glob("independent_*.py"))
# Bottom to top, as tools/independent/__init__.py gives them: a module imports from its own
# layer or the ones below.
LAYERS = [{"errors"}, {"group", "wire"}, {"proofs"}, {"rules"}, {"session"}, {"verify"},
          {"disputes"}, {"match"}, {"checks", "cli"}]
MAX_LINES = 600


def module_of(path: Path) -> str:
    parts = path.relative_to(TOOLS).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Every name `path` imports, at any depth; for `from a import b` both a and a.b."""
    package = module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[:len(package) - node.level + 1], base]).strip(".")
            out |= {base} | {f"{base}.{a.name}" for a in node.names}
    return out


MODULES = {module_of(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def graph() -> dict[str, set[str]]:
    """The package's modules and, for each, the modules of the package it imports (with
    the packages that contain them, whose __init__ runs first)."""
    edges: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = set()
        for imp in imported(path):
            parts = imp.split(".")
            targets |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        edges[name] = (targets & set(MODULES)) - {name}
    return edges


def layer(name: str) -> int:
    top = name.split(".")[1]
    return next(i for i, names in enumerate(LAYERS) if top in names)


def test_the_package_has_no_import_cycle() -> None:
    edges = graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(name):], name]))
        if name in done:
            return
        for nxt in sorted(edges[name]):
            visit(nxt, [*path, name])
        done.add(name)

    assert len(edges) > 20, sorted(edges)
    for name in edges:
        visit(name, [])


def test_each_module_imports_from_its_layer_or_below() -> None:
    wrong = [f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})"
             for a, targets in graph().items() if a != "independent"
             for b in targets if b != "independent" and layer(b) > layer(a)]
    assert not wrong, wrong


def test_the_independent_check_imports_nothing_of_the_project() -> None:
    wrong = [f"{path.relative_to(ROOT)} imports {imp}"
             for path in [*MODULES.values(), *SCRIPTS] for imp in imported(path)
             if imp.split(".")[0] in ("protocol", "peers")]
    assert len(SCRIPTS) == 3, SCRIPTS
    assert not wrong, wrong


def test_no_file_of_tools_is_over_600_lines() -> None:
    lengths = {p.relative_to(ROOT): len(p.read_bytes().splitlines())
               for p in TOOLS.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert lengths
    assert not {p: n for p, n in lengths.items() if n > MAX_LINES}
