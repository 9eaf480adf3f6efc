// A table on this page: the game loop of net/ (peers/net/peer.py's, in JavaScript) with
// this page's person as its chooser, the game kept in IndexedDB (store/games.js), as
// `dealerless web` runs a networked seat for its page (spec/12-peers.md 12.8, 12.9).

import { SYSTEM } from "../entropy.js";
import { joinGame, resumeGame } from "../net/launch.js";
import { GameStore } from "../store/games.js";
import { readRecord, removeRecord, writeRecord } from "../store/joining.js";
import { WebSeat } from "./web_seat.js";

/** How long a seat waits for another's frame before it says so (seconds, as `join`). */
const MOVE_TIMEOUT = 300;
/** Lines of one kind shown per minute: another party can provoke them at will
 * (peers/net/quiet_log.py). */
const BURST = 10;

/** The game loop's log lines (what it ignored or dropped, and why; never a secret), as
 * notices in the table's log, at most BURST of a kind a minute. A frame that only came
 * early or late (`frame/sequence`) is routine on a lossy link and is not shown. */
function notices(table) {
  const windows = new Map();
  return (text) => {
    if (/frame\/sequence/.test(text)) return;
    const kind = text.replace(/[0-9]+/g, "N").slice(0, 40);
    const now = Date.now();
    const w = windows.get(kind) ?? { start: now, shown: 0 };
    if (now - w.start > 60_000) Object.assign(w, { start: now, shown: 0 });
    windows.set(kind, w);
    w.shown += 1;
    if (w.shown <= BURST) table.notify({ type: "notice", text });
  };
}

/**
 * Start a table: `how` is `{invitation}` (join) or `{resume: gameId}`. Resolves to its
 * WebSeat once the game loop runs; the game goes on in the background, drawn through
 * `redraw`, and `say` tells the person what the loop reports (a retry, a refusal).
 */
export async function playTable(how, identity, redraw, say) {
  const table = new WebSeat(how.resume ?? "joining", redraw);
  const config = {
    identity, moveTimeout: MOVE_TIMEOUT,
    choose: (view) => table.choose(view),
    notify: (event) => {
      if (event.type === "setup") {
        table.named(event.gameId);
        // The game is stored: Saved games resumes it, so the invitation, a capability
        // for the seat, need not stay in the address bar and the history.
        if (location.hash) history.replaceState(null, "", location.pathname);
      }
      table.notify(event);
    },
    onGame: (game) => table.begin(game),
    onRetry: (text) => say(text),
    log: notices(table),
    randomBytes: (label, n) => SYSTEM.bytes(label, n),
  };
  table.update({});
  let started;
  if (how.resume) {
    started = await resumeGame(await GameStore.open(how.resume), config);
  } else {
    // A join that stopped in its handshake takes its seat up again from its record.
    const [key, invitation] = [identity.publicKey, how.invitation];
    started = await joinGame(invitation, { ...config, invitation,
      recordData: await readRecord(key, invitation),
      saveRecord: (data) => writeRecord(key, invitation, data),
      eraseRecord: () => removeRecord(key, invitation) });
  }
  table.peer = started.peer;
  started.done.then(async (result) => {
    // A game already over when resumed ends at once, with no events: show its verdict.
    if (result && !table.t.end) {
      const store = await GameStore.open(result.verdict.setup.gameId);
      try {
        table.notify({ type: "end", verdict: result.verdict, message: result.message,
                       transcript: await store.exportTranscript() });
      } finally {
        store.close();
      }
    }
  }, (error) => table.failed(error.message));
  return table;
}
