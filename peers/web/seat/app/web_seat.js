// A person's seat on this page: the chooser and notifier of the game loop (net/peer.js),
// as peers/web/seat.py's WebSeat is for `dealerless web`. It keeps what the page needs
// to draw the table from nothing (the setup, the latest view, the log of checks, the
// verdict) in the snapshot shape static/table.js draws, and waits for the person to pick
// when the game asks.

import { DealerlessError } from "../protocol/errors.js";
import { headline, account } from "../table/report.js";
import { draft, viewJson } from "./views.js";

const MAX_LOG = 4000;

export class WebSeat {
  /** `redraw(snapshot, this)` is called after every change. */
  constructor(id, redraw) {
    this.id = id;
    this.redraw = redraw;
    this.game = null;
    this.t = { type: "table", id, kind: "join", log: [], history: [], rounds: [],
               invitations: [], asked: false, now: Date.now() / 1000, clockOffset: 0 };
    this.pending = null;     // { view, resolve, reject } while the person is asked
  }

  // -- the game loop's side -------------------------------------------------------------

  /** Ask the person for a move among `view.legal` (or Mined Games orders). */
  choose(view) {
    return new Promise((resolve, reject) => {
      this.pending = { view, resolve, reject };
      this.pushView(view);
      this.update({ asked: true });
    });
  }

  notify(event) {
    switch (event.type) {
      case "step":
        this.append({ kind: "step", seq: event.seq, seat: event.seat, frame: event.kind,
                      text: `seat ${event.seat}: ${event.note}` });
        break;
      case "notice":
        this.append({ kind: "notice", text: event.text });
        break;
      case "setup":
        this.update({ seat: event.seat, setup: {
          game_id: event.gameId, seat: event.seat, rules: event.rules,
          opponents: event.opponent, sas: event.sas, seats: event.seats,
          suite: event.suite } });
        break;
      case "view":
        this.noteAwaiting(event.awaiting);
        this.pushView(event.view);
        break;
      case "end":
        this.transcript = event.transcript;
        this.update({ awaiting: null, asked: false, end: {
          message: event.message, bytes: event.transcript.length,
          verdict: { json: event.verdict.toJson(), headline: headline(event.verdict),
                     text: account(event.verdict), exit_code: event.verdict.exitCode } } });
        break;
      default:
        break;
    }
  }

  /** The game this seat plays, once its setup is agreed (net/peer.js says so). */
  begin(game) {
    this.game = game;
    this.update({ rules: game.setup.rules, seats: game.seats, suite: game.setup.suiteName });
  }

  /** The game's id, once the setup names it. */
  named(id) {
    this.id = this.t.id = id;
  }

  failed(text) {
    if (this.pending) this.pending.reject(new Error(text));
    this.pending = null;
    this.update({ error: text, asked: false });
  }

  // -- the page's side ------------------------------------------------------------------

  /** The person's pick: null if taken, else why not. */
  pick(choice) {
    const asked = this.pending;
    if (!asked) return "it is not your turn";
    let move;
    try {
      move = this.decode(asked.view, choice);
    } catch (error) {
      if (!(error instanceof DealerlessError) && !(error instanceof TypeError)) throw error;
      return `not a legal choice: ${error.message}`;
    }
    this.pending = null;
    this.update({ asked: false });
    asked.resolve(move);
    return null;
  }

  /** Mined Games orders being composed: what the rules let come next. */
  draft(choice) {
    const asked = this.pending;
    const reply = asked && this.game?.simultaneous ? draft(this.game, asked.view, choice)
      : { error: "it is not your turn to give orders" };
    // The board asks while it is being drawn: answer after, as a peer's reply comes,
    // or the drawing this starts would run inside that one and draw the orders twice.
    queueMicrotask(() => this.update({ draftReply: reply }));
  }

  decode(view, choice) {
    const game = this.game;
    if (game.simultaneous && this.t.awaiting?.message === "commit") {
      const rules = game.stages;
      rules.check(view.rulesState, view.seat, rules.decodeOrders(view.rulesState, choice));
      return choice;
    }
    const legal = new Map(view.legal.map((m) => [Number.isInteger(m) ? m : game.rules.moveId(m), m]));
    if (!Number.isInteger(choice) || !legal.has(choice)) {
      throw new TypeError(`${JSON.stringify(choice)} is none of the ${legal.size} legal choices`);
    }
    return legal.get(choice);
  }

  // -- keeping the snapshot -------------------------------------------------------------

  noteAwaiting(awaiting) {
    const was = this.t.awaiting;
    if (!awaiting) this.t.awaiting = null;
    else if (!was || was.seat !== awaiting[0] || was.message !== awaiting[1]) {
      this.t.awaiting = { seat: awaiting[0], message: awaiting[1], since: Date.now() / 1000 };
    }
  }

  pushView(view) {
    if (!this.game) return;
    const phase = this.t.awaiting ? this.t.awaiting.message : "";
    const json = viewJson(this.game, view, phase);
    if (this.game.simultaneous) this.noteRound(json.state);
    this.update({ view: json });
  }

  noteRound(state) {
    // Stage r + 1 plays round r (spec/rules/mined-games.md 6), as peers/web/seat.py notes.
    const done = state.stage - (state.end !== null ? 1 : 2);
    const history = this.t.history;
    if (done >= 1 && (!history.length || history[history.length - 1].round < done)) {
      history.push({ round: done, money: state.miners.map((m) => m[1]) });
    }
  }

  append(entry) {
    this.t.log.push(entry);
    if (this.t.log.length > 2 * MAX_LOG) this.t.log.splice(0, MAX_LOG);
    this.update({});
  }

  update(fields) {
    Object.assign(this.t, fields, { now: Date.now() / 1000 });
    this.redraw(this.t, this);
  }
}
