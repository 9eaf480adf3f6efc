/**
 * How a networked seat's game ends (spec/12-peers.md 12.3 "Play" steps 5 and 6); the last
 * part of peers/net/peer.py, kept apart to keep net/peer.js short: lingering to answer the
 * other seats until each is complete with the same chain, giving up on a silent seat, and
 * the verdict of the saved transcript.
 * @module net/peer_end
 */

import { bytesEqual, typeLabel } from "../protocol/frames.js";
import { replay } from "../protocol/verifier.js";
import { EndEvent } from "../table/driver.js";
import { abandonmentRule } from "../table/report.js";
import { packMessage, parseMessage } from "./messages.js";
import { MAX_SYNC_INTERVAL, monotonic } from "./pacing.js";

/** What a seat's run ends with: the saved transcript's verdict, the store's name, why. */
export class PeerResult {
  /**
   * @param {import("../protocol/verifier.js").Verdict} verdict
   * @param {string} path the store's name (a database name; the CLI's file path)
   * @param {string} message
   */
  constructor(verdict, path, message) {
    Object.assign(this, { verdict, path, message });
    Object.freeze(this);
  }
}

const sameHead = (value, head) => value instanceof Uint8Array && bytesEqual(value, head);

/**
 * Stay to answer the other seats' SYNCs until each of them is complete with the same chain
 * (12.3 step 6). False if a rival took a place meanwhile: the game goes on.
 * @param {import("./peer.js").Peer} peer
 */
export async function linger(peer, store) {
  const { ref, cfg, link } = peer;
  const n = ref.frames.length;
  const head = ref.state.prev;
  const me = store.seat;
  const k = store.setup.seats;
  const done = packMessage("done", n, me, head);
  const finished = new Set([me]);
  await link.send(done);
  // Quiet long enough to hear at least two SYNCs of a peer that has backed off.
  const wait = Math.max(cfg.linger, 2 * MAX_SYNC_INTERVAL + 1);
  let quietUntil = monotonic() + wait;
  const hardStop = monotonic() + 4 * wait;   // however chatty the other seats are
  while (monotonic() < Math.min(quietUntil, hardStop)) {
    peer.check();
    const message = await link.recv(cfg.syncInterval);
    const obj = message ? parseMessage(message) : null;
    if (obj === null) continue;
    if (obj[0] === "done" && obj.length === 4) {
      const seat = obj[2];
      if (obj[1] !== n || !sameHead(obj[3], head)) {   // complete on another chain
        await peer.answerSync(store, obj[1], obj[3]);
        quietUntil = monotonic() + wait;
      } else if (Number.isInteger(seat) && seat >= 0 && seat < k && !finished.has(seat)) {
        finished.add(seat);
        if (finished.size === k) {
          await link.send(done);   // in case ours was lost on the way
          return true;
        }
        if (peer.answers.mayAnswer(`done ${seat}`)) await link.send(done);   // it may have missed ours
      }
      continue;
    }
    await peer.handle(store, message);
    if (ref.frames.length !== n || !bytesEqual(ref.state.prev, head) || ref.violation !== null) {
      return false;
    }
    if (obj[0] === "sync" && (obj[1] !== n || !sameHead(obj[2], head))) {
      // A seat lacks frames or parted.
      if (peer.answers.mayAnswer("done")) await link.send(done);
      quietUntil = monotonic() + wait;
    }
  }
  return true;
}

/**
 * Stop waiting for `seat`, which owes an `mtype` frame (12.3 step 5): the status saved,
 * and the verdict of what the transcript proves.
 */
export async function abandoned(peer, store, seat, mtype) {
  const what = typeLabel(mtype);
  await store.setMeta("status", `stopped waiting: seat ${seat} owes a ${what} frame`);
  const rule = abandonmentRule(store.setup.rules);
  return finish(peer, store, `seat ${seat} sent nothing for `
    + `${peer.cfg.moveTimeout.toFixed(0)} s and owes a ${what} frame. The saved transcript `
    + `proves every step so far and that seat ${seat} owes the next one; it cannot prove the `
    + `silence (${rule}). Resuming the game continues it if that seat comes back.`);
}

/** The verdict of the stored transcript, told as an EndEvent; the PeerResult. */
export async function finish(peer, store, message) {
  const data = await store.exportTranscript();
  const verdict = replay(data);
  if (verdict.complete) await store.setMeta("status", "complete");
  peer.notify(EndEvent(verdict, data, message));
  return new PeerResult(verdict, store.name, message);
}
