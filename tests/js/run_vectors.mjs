// Runs the seat's vector modules (tests/js/vectors/*.js) under node, for development:
//   node tests/js/run_vectors.mjs [NAME ...]
// tests/test_seat_vectors.py runs the same modules in Chromium.
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const vectors = path.join(here, "..", "..", "spec", "vectors");
// load(rel) gives a file's text; load(rel, "bytes") its bytes, as a Uint8Array (transcripts,
// dispute packages), as tests/seat_page.py's runner does in Chromium.
const load = async (rel, kind) => (kind === "bytes"
  ? new Uint8Array(await readFile(path.join(vectors, rel)))
  : readFile(path.join(vectors, rel), "utf8"));

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : (await readdir(path.join(here, "vectors")))
  .filter((f) => f.endsWith(".js")).map((f) => f.slice(0, -3)).sort();
let failures = 0;
for (const name of names) {
  const started = performance.now();
  const { run } = await import(path.join(here, "vectors", `${name}.js`));
  const { passed, failed } = await run(load);
  failures += failed.length;
  const ms = Math.round(performance.now() - started);
  console.log(`${name}: ${passed} passed, ${failed.length} failed (${ms} ms)`);
  for (const line of failed.slice(0, 20)) console.log(`  FAIL ${line}`);
}
process.exit(failures ? 1 : 0);
