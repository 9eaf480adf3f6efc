"""The browser seat's files, its code hash, and its one-file build (spec/12-peers.md 12.9).

The seat is plain ES modules (peers/web/seat/) that draw the table with the page's own
modules (peers/web/static/, served under `static/`). There is no build step a player
runs: a relay serves these files as they are, and the same files make the one-file
build, each module kept as its text and loaded through a blob URL.

The code hash names what runs: SHA-256 over the sorted list of (path, SHA-256 of the
file) of every file the seat loads. The page computes it from the very bytes it loaded,
so the served seat and the one-file build show the same hash for the same code.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path

WEB = Path(__file__).resolve().parent
SEAT = WEB / "seat"
STATIC = WEB / "static"
#: The drawing modules and the style the seat shares with `dealerless web`'s page.
SHARED = ("boards.js", "dominoes.js", "mined.js", "table.js", "style.css")
#: Where the seat finds libsodium (the import map of index.html says the same).
SODIUM = {
    "libsodium-wrappers-sumo":
        "vendor/node_modules/libsodium-wrappers-sumo/dist/modules-sumo-esm/libsodium-wrappers.mjs",
    "libsodium-sumo": "vendor/node_modules/libsodium-sumo/dist/modules-sumo-esm/libsodium-sumo.mjs",
}
CODE_HASH_TAG = b"dealerless-seat-code/1\n"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".json": "application/json"}
#: A static import or re-export's specifier (the seat's modules and libsodium's, minified),
#: and a dynamic import's (JSDoc's `import("...")` types match too, harmlessly).
DYNAMIC = re.compile(r"""\bimport\(\s*(["'])([^"']+)\1\s*\)""")
IMPORT = re.compile(r"""(\bimport\s*(?:[\w*{}\s,$]+?\s*from\s*)?"""
                    r"""|\bexport\s*[\w*{}\s,$]*?\s*from\s*)(["'])([^"']+)\2""")


@cache
def seat_files() -> dict[str, bytes]:
    """Every file the seat loads, by its path under /seat/."""
    files = {str(p.relative_to(SEAT)): p.read_bytes() for p in sorted(SEAT.rglob("*"))
             if p.is_file() and p.suffix in TYPES and p.name != "pins.json"}
    for name in SHARED:
        files[f"static/{name}"] = (STATIC / name).read_bytes()
    return files


def code_paths(files: dict[str, bytes]) -> list[str]:
    """The files the code hash covers: all but the page's markup, sorted."""
    return sorted(p for p in files if not p.endswith(".html"))


def code_hash(files: dict[str, bytes]) -> str:
    """SHA-256 of the tag and one line `sha256(file) path` for each file of `code_paths`."""
    lines = "".join(f"{hashlib.sha256(files[path]).hexdigest()} {path}\n"
                    for path in code_paths(files))
    return hashlib.sha256(CODE_HASH_TAG + lines.encode()).hexdigest()


def manifest(files: dict[str, bytes]) -> bytes:
    """What the served page reads to hash itself: the paths of its code."""
    return json.dumps(code_paths(files)).encode()


def _resolve(importer: str, specifier: str) -> str:
    if specifier in SODIUM:
        return SODIUM[specifier]
    if not specifier.startswith("."):
        raise ValueError(f"{importer} imports {specifier!r}, which the seat does not ship")
    parts = importer.split("/")[:-1]
    for piece in specifier.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)


def module_graph(files: dict[str, bytes], entry: str) -> list[str]:
    """The modules `entry` loads, each after everything it imports statically (a cycle
    of static imports is an error: a blob URL must exist before a module that names
    it); a module only imported dynamically comes after, since it is named at run time."""
    order: list[str] = []
    visiting: set[str] = set()
    later: list[str] = []

    def visit(path: str) -> None:
        if path in order:
            return
        if path in visiting:
            raise ValueError(f"import cycle through {path}")
        if path not in files:
            raise ValueError(f"the seat has no {path}, which a module imports")
        visiting.add(path)
        text = files[path].decode()
        for match in IMPORT.finditer(text):
            visit(_resolve(path, match.group(3)))
        later.extend(_resolve(path, m.group(2)) for m in DYNAMIC.finditer(text))
        visiting.discard(path)
        order.append(path)

    visit(entry)
    while later:
        visit(later.pop(0))
    return order


#: The one-file build's loader: each module becomes a blob URL once those it imports have
#: one, its specifiers rewritten to them (the same pattern as IMPORT), then the entry runs.
LOADER = """
const code = JSON.parse(document.getElementById("seat-code").textContent);
const IMPORT = new RegExp(code.pattern, "g");
const DYNAMIC = new RegExp(code.dynamic, "g");
const urls = globalThis.dealerlessSeatUrls = {};
for (const [path, deps] of code.order) {
  const text = code.files[path].replace(IMPORT, (whole, head, quote, spec) =>
    head + quote + urls[deps[spec]] + quote).replace(DYNAMIC, (whole, quote, spec) =>
    `import(globalThis.dealerlessSeatUrls[${JSON.stringify(deps[spec])}])`);
  urls[path] = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
}
for (const sheet of code.styles) {
  const style = document.createElement("style");
  style.textContent = code.files[sheet];
  document.head.append(style);
}
globalThis.dealerlessSeatFiles = code.files;
await import(urls[code.entry]);
"""


def one_file(files: dict[str, bytes], entry: str = "app/main.js") -> bytes:
    """The seat as one self-contained HTML file: index.html's markup, every file it loads
    as text, and LOADER in place of the import map and the entry script."""
    order = []
    for path in module_graph(files, entry):
        text = files[path].decode()
        deps = {m.group(3): _resolve(path, m.group(3)) for m in IMPORT.finditer(text)}
        deps.update({m.group(2): _resolve(path, m.group(2)) for m in DYNAMIC.finditer(text)})
        order.append([path, deps])
    page = files["index.html"].decode()
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page)
    code = {"pattern": IMPORT.pattern, "dynamic": DYNAMIC.pattern, "entry": entry,
            "order": order, "styles": styles,
            "files": {p: files[p].decode() for p in code_paths(files)}}
    blob = json.dumps(code, sort_keys=True).replace("</", "<\\/")
    page = re.sub(r'\s*<link rel="stylesheet"[^>]*>', "", page)
    page = re.sub(r'\s*<script type="importmap">.*?</script>', "", page, flags=re.S)
    page = page.replace('<script type="module" src="app/main.js"></script>',
                        f'<script type="application/json" id="seat-code">{blob}</script>\n'
                        f'  <script type="module">{LOADER}</script>')
    return page.encode()
