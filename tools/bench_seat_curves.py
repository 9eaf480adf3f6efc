"""Benchmark for the browser seat's curve library (issue 33); a benchmark, not a test.

In Chromium, the ristretto255 operations a seat spends its time on, with the vendored
libsodium-wrappers-sumo (WebAssembly, peers/web/seat/vendor/) against @noble/curves
(pure JavaScript), which is not vendored: pack it outside the repository and name its
folder on the command line,

    cd /tmp/noble && npm pack @noble/curves@VERSION @noble/hashes@VERSION
    mkdir -p node_modules/@noble/curves node_modules/@noble/hashes
    tar xzf noble-curves-*.tgz -C node_modules/@noble/curves --strip-components=1
    tar xzf noble-hashes-*.tgz -C node_modules/@noble/hashes --strip-components=1
    python tools/bench_seat_curves.py /tmp/noble/node_modules/@noble [--runs 101] [--json]

Each figure is the median over --runs runs of one operation's time: a run times a batch
of operations lasting about --run-ms (performance.now() is coarse in a page: 5 to 100
microseconds) and divides. Operations:
- scalarmult: variable-base k*P, decoding P and encoding the result (libsodium's
  crypto_scalarmult_ristretto255; noble's fromBytes(P).multiply(k).toBytes(), and its
  multiplyUnsafe, the variable-time one a verifier may use);
- is_valid_point: crypto_core_ristretto255_is_valid_point, or noble's fromBytes;
- from_hash: the one-way map of 64 bytes (crypto_core_ristretto255_from_hash, noble's
  deriveToCurve) and hash_to_point, RFC 9380's hash_to_ristretto255 of a 32-byte message
  (expand_message_xmd with SHA-512, then the map; libsodium's side with its SHA-512).
Both libraries' outputs are compared first: a benchmark of different answers is void.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import mimetypes
import sys
import threading
from pathlib import Path
from typing import Any

from aiohttp import web
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SEAT = ROOT / "peers" / "web" / "seat"
VENDOR = "/seat/vendor/node_modules"
IMPORTS = {"imports": {
    "libsodium-wrappers-sumo":
        f"{VENDOR}/libsodium-wrappers-sumo/dist/modules-sumo-esm/libsodium-wrappers.mjs",
    "libsodium-sumo": f"{VENDOR}/libsodium-sumo/dist/modules-sumo-esm/libsodium-sumo.mjs",
    "@noble/hashes/": "/noble/hashes/",
    "@noble/curves/": "/noble/curves/",
}}
BENCH = """
const sodium = (await import("/seat/vendor/sodium.mjs")).default;
const { ristretto255, ristretto255_hasher } = await import("/noble/curves/ed25519.js");
const { runs, batch, runMs } = arg;
const Point = ristretto255.Point;
const DST = new TextEncoder().encode("dealerless-bench-DST");
const hex = sodium.to_hex;

// expand_message_xmd (RFC 9380 5.3.1) with libsodium's SHA-512, for 64 bytes.
function xmd(msg, len) {
  const cat = (...p) => { const o = new Uint8Array(p.reduce((n, x) => n + x.length, 0));
    let a = 0; for (const x of p) { o.set(x, a); a += x.length; } return o; };
  const dst = cat(DST, Uint8Array.of(DST.length));
  const b0 = sodium.crypto_hash_sha512(cat(new Uint8Array(128), msg,
    Uint8Array.of(len >> 8, len & 0xff, 0), dst));
  let b = sodium.crypto_hash_sha512(cat(b0, Uint8Array.of(1), dst));
  const out = [b];
  for (let i = 2; out.length * 64 < len; i++) {
    b = sodium.crypto_hash_sha512(cat(b0.map((v, j) => v ^ b[j]), Uint8Array.of(i), dst));
    out.push(b);
  }
  return cat(...out).slice(0, len);
}

const n = 64;
const scalars = [], points = [], uniforms = [], messages = [];
for (let i = 0; i < n; i++) {
  scalars.push(sodium.crypto_core_ristretto255_scalar_random());
  points.push(sodium.crypto_core_ristretto255_random());
  uniforms.push(sodium.randombytes_buf(64));
  messages.push(sodium.randombytes_buf(32));
}
const le = (b) => b.reduceRight((acc, v) => (acc << 8n) | BigInt(v), 0n);

const ops = {
  scalarmult: {
    libsodium: (i) => sodium.crypto_scalarmult_ristretto255(scalars[i], points[i]),
    noble: (i) => Point.fromBytes(points[i]).multiply(le(scalars[i])).toBytes(),
    noble_unsafe: (i) => Point.fromBytes(points[i]).multiplyUnsafe(le(scalars[i])).toBytes(),
  },
  is_valid_point: {
    libsodium: (i) => sodium.crypto_core_ristretto255_is_valid_point(points[i]),
    noble: (i) => { try { Point.fromBytes(points[i]); return true; } catch { return false; } },
  },
  from_hash: {
    libsodium: (i) => sodium.crypto_core_ristretto255_from_hash(uniforms[i]),
    noble: (i) => ristretto255_hasher.deriveToCurve(uniforms[i]).toBytes(),
  },
  hash_to_point: {
    libsodium: (i) => sodium.crypto_core_ristretto255_from_hash(xmd(messages[i], 64)),
    noble: (i) => ristretto255_hasher.hashToCurve(messages[i], { DST }).toBytes(),
  },
};
// The same answers first (is_valid_point on a bad encoding too).
for (const [name, impls] of Object.entries(ops)) {
  for (let i = 0; i < 8; i++) {
    const want = impls.libsodium(i);
    for (const [lib, f] of Object.entries(impls)) {
      const got = f(i);
      if ((typeof want === "boolean" ? String(got) !== String(want) : hex(got) !== hex(want))) {
        throw new Error(`${name}: ${lib} differs from libsodium on input ${i}`);
      }
    }
  }
}
const bad = new Uint8Array(32).fill(0xff);  // not a canonical field element: no point
let nobleTakes = true;
try { Point.fromBytes(bad); } catch { nobleTakes = false; }
if (sodium.crypto_core_ristretto255_is_valid_point(bad) || nobleTakes) {
  throw new Error("is_valid_point: a library accepts a non-canonical encoding");
}
const results = {};
for (const [name, impls] of Object.entries(ops)) {
  results[name] = {};
  for (const [lib, f] of Object.entries(impls)) {
    // Warm-up (JIT, wasm tiers), then a batch long enough for the page's coarse clock:
    // about `runMs` a run, at least `batch` operations.
    let t0 = performance.now();
    let warm = 0;
    for (; warm < 200 || performance.now() - t0 < 50; warm++) f(warm % n);
    const each = (performance.now() - t0) / warm;
    const size = Math.max(batch, Math.ceil(runMs / each));
    const times = [];
    for (let r = 0; r < runs; r++) {
      t0 = performance.now();
      for (let i = 0; i < size; i++) f((r * size + i) % n);
      times.push((performance.now() - t0) / size);
    }
    times.sort((a, b) => a - b);
    results[name][lib] = { median_us: 1000 * times[times.length >> 1],
                           min_us: 1000 * times[0], runs, batch: size };
  }
}
return { results, sodium: sodium.sodium_version_string(), agent: navigator.userAgent };
"""


def serve(noble: Path) -> tuple[str, Any]:
    page = (f'<!doctype html><meta charset="utf-8"><script type="importmap">'
            f'{json.dumps(IMPORTS)}</script><p>bench</p>')
    mimetypes.add_type("text/javascript", ".mjs")   # a module must come as JavaScript
    app = web.Application()

    async def index(_request: web.Request) -> web.Response:
        return web.Response(text=page, content_type="text/html")

    app.router.add_get("/", index)
    app.router.add_static("/seat/", SEAT)
    app.router.add_static("/noble/", noble)
    loop = asyncio.new_event_loop()
    box: dict[str, Any] = {}
    started = threading.Event()

    async def start() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        box["port"] = runner.addresses[0][1]
        started.set()

    threading.Thread(target=lambda: (loop.run_until_complete(start()), loop.run_forever()),
                     daemon=True).start()
    started.wait(10)
    return f"http://127.0.0.1:{box['port']}", loop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("noble", type=Path,
                        help="folder holding curves/ and hashes/ (node_modules/@noble)")
    parser.add_argument("--runs", type=int, default=101, help="runs per figure (>= 50)")
    parser.add_argument("--batch", type=int, default=10, help="operations per run, at least")
    parser.add_argument("--run-ms", type=float, default=5.0,
                        help="about how long a run lasts (the batch grows to fill it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (args.noble / "curves" / "ed25519.js").is_file():
        parser.error(f"{args.noble} has no curves/ed25519.js (see the docstring)")
    origin, _loop = serve(args.noble.resolve())
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(origin + "/")
        out = page.evaluate(f"async (arg) => {{ {BENCH} }}",
                            {"runs": max(args.runs, 50), "batch": args.batch,
                             "runMs": args.run_ms})
        browser.close()
    noble_version = json.loads((args.noble / "curves" / "package.json").read_text())["version"]
    out["noble"] = noble_version
    for impls in out["results"].values():
        base = impls["libsodium"]["median_us"]
        for figure in impls.values():
            figure["ratio_to_libsodium"] = figure["median_us"] / base
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"libsodium {out['sodium']} (wasm) vs @noble/curves {noble_version}; {out['agent']}")
    print(f"{'operation':16} {'library':13} {'median us':>10} {'min us':>9} {'x libsodium':>12}"
          f" {'runs x batch':>13}")
    for name, impls in out["results"].items():
        for lib, f in impls.items():
            print(f"{name:16} {lib:13} {f['median_us']:10.2f} {f['min_us']:9.2f} "
                  f"{f['ratio_to_libsodium']:12.2f} {f['runs']:>6} x {f['batch']:<6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
