// What the page draws, as peers/web/views.py and orders.py make it for `dealerless web`
// (spec/12-peers.md 12.8): the page knows no rules, so the seat hands it the public state
// as the rule set writes it, the seat's hand, and the legal moves with their ids and texts.

import { DealerlessError } from "../protocol/errors.js";
import { ACTION_TEXT } from "../protocol/rules/mined_round.js";
import { START_STAGE } from "../protocol/rules/mined_state.js";
import { tileText } from "../protocol/tiles.js";

const STEPS = "UDLR";
const tile = (t) => (t === null || t === undefined ? null : tileText(t));

/** The seat's view; `legal` is what the page may offer, nothing else (views.py). */
export function viewJson(game, view, phase) {
  const rules = game.simultaneous ? game.stages : game.rules;
  let legal;
  if (phase === "choose") {
    legal = view.legal.map((seat) => ({ id: seat, text: `seat ${seat}`, tile: null }));
  } else if (game.simultaneous) {
    legal = [];   // orders are built on the map, each step checked (draft below)
  } else {
    legal = view.legal.map((m) => ({ id: rules.moveId(m), text: rules.moveText(m),
                                     tile: tile(rules.playedTile(m)) }));
  }
  const out = { seat: view.seat, hand: view.hand.map(tile), legal,
                state: view.rulesState === null ? null : rules.stateToJson(view.rulesState),
                params: { ...view.params } };
  if (game.simultaneous && view.rulesState !== null) out.starts = starts(game, view);
  return out;
}

/** Why the rules refuse `orders` (wire form) for this seat, or null (orders.py). */
export function refusal(game, view, orders) {
  const rules = game.stages;
  const state = view.rulesState;
  try {
    rules.check(state, view.seat, rules.decodeOrders(state, orders));
  } catch (error) {
    if (!(error instanceof DealerlessError)) throw error;
    return error.detail ? `${error.code}: ${error.detail}` : error.code;
  }
  return null;
}

function starts(game, view) {
  const state = view.rulesState;
  if (state === null || state.stage !== START_STAGE || !state.mine) return null;
  const out = [];
  for (let r = 0; r < state.mine.height; r += 1) {
    for (let c = 0; c < state.mine.width; c += 1) {
      if (refusal(game, view, [r, c]) === null) out.push([r, c]);
    }
  }
  return out;
}

/** A round's orders being composed, [steps, action]: whether they may be sent, and
 * which step and action may come next, each with the rules' refusal (orders.py). */
export function draft(game, view, choice) {
  if (!Array.isArray(choice) || choice.length !== 2 || typeof choice[0] !== "string"
      || !Number.isInteger(choice[1]) || [...choice[0]].some((d) => !STEPS.includes(d))) {
    return { error: "a draft is [steps of U/D/L/R, an action code]" };
  }
  const [steps, action] = choice;
  const next = {};
  for (const d of STEPS) next[d] = refusal(game, view, [steps + d, 0]);
  return { stage: view.rulesState.stage, steps, action,
           problem: refusal(game, view, [steps, action]), next,
           actions: Object.keys(ACTION_TEXT).map(Number).sort((a, b) => a - b)
             .map((code) => ({ code, problem: refusal(game, view, [steps, code]) })) };
}
