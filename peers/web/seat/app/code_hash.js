// The code hash this page shows (spec/12-peers.md 12.9 "Whom a player trusts"): SHA-256
// of a tag and one line `sha256(file) path` for every file of the seat's code, sorted by
// path (peers/web/seat_files.py code_hash). The one-file build hashes the texts it runs;
// a served seat fetches its files again by the manifest the relay serves beside them.

const TAG = "dealerless-seat-code/1\n";
const utf8 = new TextEncoder();

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function files() {
  const inline = globalThis.dealerlessSeatFiles;
  if (inline) {
    return Object.keys(inline).sort().map((path) => [path, utf8.encode(inline[path])]);
  }
  const base = new URL("..", import.meta.url);
  const paths = await (await fetch(new URL("manifest.json", base))).json();
  return Promise.all(paths.map(async (path) => [path,
    new Uint8Array(await (await fetch(new URL(path, base))).arrayBuffer())]));
}

/** The page's code hash, in hex. */
export async function codeHash() {
  let lines = TAG;
  for (const [path, bytes] of await files()) lines += `${await sha256Hex(bytes)} ${path}\n`;
  return sha256Hex(utf8.encode(lines));
}
