// The browser seat's page (spec/12-peers.md 12.9): the player's key, the invitation,
// the saved games, and the table, drawn by the same modules as `dealerless web`'s page.
// Everything cryptographic happens here, in this page: the seat shuffles, proves, and
// checks every frame the other seats send, and keeps the game in IndexedDB.

import { el } from "../static/dominoes.js";
import { drawTable } from "../static/table.js";
import {
  NoKeyError, exportPrivate, generate, importKey, loadIdentity, show,
} from "../keys/identity_key.js";
import { GameStore, deleteGame, listGames } from "../store/games.js";
import { codeHash } from "./code_hash.js";
import { playTable } from "./play.js";

const $ = (id) => document.getElementById(id);

export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.timer);
  box.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function fatal(text) {
  $("fatal").textContent = text;
  $("fatal").hidden = false;
}

function save(name, bytes) {
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** The invitation in this page's address: `#<invitation>` or `#invitation=<encoded>`
 * (a fragment that decodes to neither leaves the form empty). */
function invitationInAddress() {
  const raw = location.hash.slice(1);
  const named = new URLSearchParams(raw).get("invitation");
  if (named) return named;
  let fragment = raw;
  try {
    fragment = decodeURIComponent(raw);
  } catch {
    // not percent-encoded text: taken as it is
  }
  return /^wss?:\/\//.test(fragment) ? fragment : "";
}

// -- the key ----------------------------------------------------------------------------

async function key() {
  // A first visit makes a key at once, so that an invitation joins in one click; it can
  // be replaced by an imported one before the first game (Your key).
  try {
    return await show();
  } catch (error) {
    if (!(error instanceof NoKeyError)) throw error;
    return generate({});
  }
}

async function showKey() {
  const summary = await key();
  $("who").textContent = `your key ${summary.fingerprint}`;
  const facts = [["Fingerprint", summary.fingerprint], ["Public key", summary.publicLine],
    ["Kept", summary.webcrypto ? "in this browser, as a non-extractable WebCrypto key"
      : "in this browser (libsodium signs)"],
    ["Exportable", !summary.exportable ? "no: it never leaves this browser"
      : summary.encrypted ? "yes, under its passphrase" : "yes"]];
  $("key-facts").replaceChildren(...facts.flatMap(([name, value]) =>
    [el("dt", {}, name), el("dd", { class: "mono" }, value)]));
  $("export-form").hidden = !summary.exportable;
}

// -- the lobby --------------------------------------------------------------------------

async function showLobby() {
  active = null;
  $("table").hidden = true;
  $("lobby").hidden = false;
  $("join-form").elements.invitation.value = invitationInAddress();
  await Promise.all([showKey(), listSaved()]);
  performance.mark("dealerless-ready");   // the lobby is usable (tools/bench_seat.py)
}

async function listSaved() {
  const { games } = await listGames();
  const rows = games.map((g) => el("li", {},
    el("span", { class: "mono" }, g.gameId.slice(0, 16)),
    el("span", {}, `${g.rules} · seat ${g.seat} · ${g.frames} frames · ${g.status}`),
    el("span", { class: "actions" },
      el("button", { type: "button", class: "resume", onclick: () => open({ resume: g.gameId }) },
         "Resume"),
      el("button", { type: "button", class: "export", onclick: () => exportGame(g.gameId) },
         "Transcript"),
      el("button", { type: "button", class: "danger", onclick: () => forget(g.gameId) },
         "Delete"))));
  $("game-list").replaceChildren(...(rows.length ? rows
    : [el("li", { class: "dim" }, "No saved games in this browser.")]));
}

async function exportGame(gameId) {
  const store = await GameStore.open(gameId);
  try {
    save(`${gameId.slice(0, 16)}.transcript`, await store.exportTranscript());
  } finally {
    store.close();
  }
}

async function forget(gameId) {
  if (!confirm(`Delete game ${gameId.slice(0, 16)} and its saved frames?`)) return;
  await deleteGame(gameId);
  await listSaved();
}

// -- the table --------------------------------------------------------------------------

let active = null;     // the table opened last: only it is drawn

function drawer(mine) {
  return (t, seat) => {
    if (active !== mine) return;
    mine.redraw = () => drawTable(t, {
      pick: (choice) => { const why = seat.pick(choice); if (why) toast(why); },
      draft: (choice) => seat.draft(choice),
      toast,
      download: () => (seat.transcript ? save(`${seat.id.slice(0, 16)}.transcript`, seat.transcript)
        : toast("the transcript is ready when the game ends")),
    });
    mine.redraw();
  };
}

// The Mined Games board keeps the orders being drafted and asks for a redraw (mined.js).
document.addEventListener("dealerless-redraw", () => active?.redraw?.());

async function open(how) {
  const mine = {};
  active = mine;
  $("lobby").hidden = true;
  $("table").hidden = false;
  try {
    await playTable(how, await loadIdentity({}), drawer(mine), toast);
  } catch (error) {
    toast(error.message);
    if (active === mine) await showLobby();
  }
}

function wire() {
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    // What the host printed may be pasted whole: `dealerless join URL`.
    const invitation = event.target.elements.invitation.value.trim()
      .replace(/^dealerless join\s+/, "");
    if (invitation) open({ invitation });
  });
  $("export-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const passphrase = event.target.elements.passphrase.value || null;
      save("id_ed25519", await exportPrivate({ passphrase, newPassphrase: passphrase }));
    } catch (error) {
      toast(error.message);
    }
  });
  $("new-key-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const passphrase = event.target.elements.passphrase.value;
    if (!passphrase) {
      toast("a key to export needs a passphrase");
      return;
    }
    if (!confirm("Replace this browser's key? Games saved under it can no longer be "
                 + "resumed.")) return;
    try {
      await generate({ passphrase, force: true });
      event.target.reset();
      await showKey();
      toast("new key made: export it to keep it");
    } catch (error) {
      toast(error.message);
    }
  });
  $("import-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { file, passphrase } = event.target.elements;
    if (!file.files.length) return;
    try {
      const data = new Uint8Array(await file.files[0].arrayBuffer());
      await importKey(data, { passphrase: passphrase.value || null, force: true });
      await showKey();
      toast("key imported");
    } catch (error) {
      toast(error.message);
    }
  });
  $("back").addEventListener("click", showLobby);
  $("home").addEventListener("click", (event) => { event.preventDefault(); showLobby(); });
}

try {
  wire();
  await showLobby();
  // After the lobby, so that hashing the seat's files again does not delay its use.
  const hash = await codeHash();
  $("code-hash").textContent = `code ${hash.slice(0, 16)}`;
  $("code-hash").dataset.hash = hash;
} catch (error) {
  fatal(`this seat cannot start: ${error.message}`);
}
