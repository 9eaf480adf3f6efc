"""The house rules of the code's layout, checked by parsing the sources (no imports run).

- protocol/ is sans-IO: no sockets, clocks, event loops or OS randomness;
- no module in protocol/ or peers/ passes 400 lines, none in tools/ 600;
- no import cycle among modules, counting imports inside functions and under
  TYPE_CHECKING (a cycle is a cycle, even when Python tolerates it);
- each peers/ sub-package imports only what its row of peers/README.md allows;
- tools/independent/, the spec-only implementation, imports nothing of the project and
  each of its modules imports only its own layer or those below (its __init__ lists them).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
LIMITS = {"protocol": 400, "peers": 400, "tools": 600}
IO_MODULES = {"asyncio", "socket", "time", "random", "secrets"}
# tools/independent/ bottom to top: a module imports from its own layer or those below.
INDEPENDENT_LAYERS = [{"errors"}, {"group", "wire"}, {"proofs"}, {"rules"}, {"session"},
                      {"verify"}, {"disputes"}, {"match"}, {"checks", "cli"}]


def modules(package: str, root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name (as imported with `root` on sys.path) -> file, for every .py
    file of a package."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """(dotted name, line) of everything a module imports, relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield f"{base}.{alias.name}", node.lineno   # a module, or a name in `base`
            yield base, node.lineno


def graph(known: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (a name imported from a module counts as
    that module; `from pkg import mod` counts as `pkg.mod`)."""
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = set()
        for target, _ in imported(name, path):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        edges[name] = targets
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the list of modules around it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def allowed_imports() -> dict[str, set[str]]:
    """peers/README.md's table: sub-package -> the peers sub-packages it may import."""
    rows = re.findall(r"^\| `([a-z_]+)(?:/|\.py)` \|.*\| ([^|]*)\|$",
                      (ROOT / "peers" / "README.md").read_text(), re.M)
    return {name: set(re.findall(r"`([a-z_]+)`", may)) for name, may in rows}


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_protocol_is_sans_io() -> None:
    offences = []
    for name, path in modules("protocol").items():
        for target, line in imported(name, path):
            if target.split(".")[0] in IO_MODULES | {"peers"}:
                offences.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
        if "urandom" in path.read_text():
            offences.append(f"{path.relative_to(ROOT)} calls os.urandom")
    assert not offences, "\n".join(offences)


@pytest.mark.parametrize("package", sorted(LIMITS))
def test_no_module_is_too_long(package: str) -> None:
    limit = LIMITS[package]
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / package).rglob("*.py")
            if (n := len(p.read_text().splitlines())) > limit}
    assert not long, f"over {limit} lines: {long}"


@pytest.mark.parametrize("package", ["protocol", "peers", "independent"])
def test_no_import_cycle(package: str) -> None:
    known = modules(package, TOOLS if package == "independent" else ROOT)
    found = cycle(graph(known))
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_no_import_cycle_between_protocol_and_peers() -> None:
    found = cycle(graph(modules("protocol") | modules("peers")))
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_peers_imports_flow_one_way_as_its_readme_says() -> None:
    allowed = allowed_imports()
    subpackages = {name.split(".")[1] for name in modules("peers") if name.count(".")}
    assert subpackages == set(allowed), "peers/README.md lists every sub-package, no other"
    offences = []
    for name, path in modules("peers").items():
        if name == "peers":
            continue
        own = name.split(".")[1]
        for target, line in imported(name, path):
            parts = target.split(".")
            if parts[0] == "peers" and len(parts) > 1 and parts[1] != own \
                    and parts[1] not in allowed[own]:
                offences.append(f"{path.relative_to(ROOT)}:{line}: {own} imports {target}")
    assert not offences, "\n".join(sorted(set(offences)))


def test_the_independent_implementation_imports_nothing_of_the_project() -> None:
    scripts = sorted(TOOLS.glob("independent_*.py"))
    assert len(scripts) == 3, scripts
    known = modules("independent", TOOLS) | {p.stem: p for p in scripts}
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {target}"
             for name, path in known.items() for target, line in imported(name, path)
             if target.split(".")[0] in ("protocol", "peers")]
    assert not wrong, "\n".join(wrong)


def test_the_independent_implementation_imports_only_its_layer_or_below() -> None:
    def layer(name: str) -> int:
        return next(i for i, names in enumerate(INDEPENDENT_LAYERS)
                    if name.split(".")[1] in names)

    edges = graph(modules("independent", TOOLS))
    assert len(edges) > 20, sorted(edges)
    wrong = [f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})"
             for a, targets in edges.items() if a != "independent"
             for b in targets if b != "independent" and layer(b) > layer(a)]
    assert not wrong, wrong
