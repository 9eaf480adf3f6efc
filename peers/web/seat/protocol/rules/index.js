// Rule sets: pure game logic behind one interface (spec/rules/bram.md section 1). Mirrors
// protocol/rules/__init__.py.
//
// `RULESETS` maps a rule-set name to a factory taking its JSON parameters and the game's
// suite; `makeRules(name, params, suite)` looks one up. A rule set whose state holds group
// elements (Mined Games' seals) checks them in the game's suite.

import { EncodingError } from "../errors.js";
import {
  DealPlan, Outcome, RuleViolation, halvesText, isDrawingRules, playableTiles,
} from "./base.js";
import { BramRules } from "./bram.js";
import { BramState, End, PASS, Pass, Play } from "./bram_state.js";
import { MexicanTrainRules } from "./mexican_train.js";
import { MexicanState } from "./mexican_train_state.js";
import { MinedGamesRules } from "./mined_games.js";
import { MinedState } from "./mined_state.js";
import { MineshaftRules } from "./mineshaft.js";
import { MineshaftState } from "./mineshaft_state.js";
import { Carries, isSimultaneousRules } from "./simultaneous.js";

/**
 * Rule-set name -> factory(params, suite): "bram", "mexican-train", "mineshaft",
 * "mined-games" (spec/rules/*.md section 1). `suite` is used by Mined Games only (null:
 * dealerless/2's edwards25519-sha512).
 */
export const RULESETS = Object.freeze(Object.assign(Object.create(null), {
  bram: (params) => BramRules.fromParams(params),
  "mexican-train": (params) => MexicanTrainRules.fromParams(params),
  mineshaft: (params) => MineshaftRules.fromParams(params),
  "mined-games": (params, suite) => MinedGamesRules.fromParams(params, suite ?? null),
}));

/**
 * The rule set `name` with `params` (a JSON object; omitted keys take their defaults), for a
 * game in `suite` (null: dealerless/2's edwards25519-sha512). EncodingError
 * `rules/unknown-ruleset` for an unknown name, `rules/params` for bad parameters
 * (spec/rules/bram.md section 1).
 */
export function makeRules(name, params, suite = null) {
  const factory = typeof name === "string" && Object.hasOwn(RULESETS, name) ? RULESETS[name] : undefined;
  if (factory === undefined) {
    throw new EncodingError("rules/unknown-ruleset", `no rule set named ${JSON.stringify(name)}`);
  }
  return factory(params, suite);
}

/** The same as makeRules (the registry's lookup, by the name the brief gives it). */
export const rules = makeRules;

export {
  BramRules, BramState, Carries, DealPlan, End, MexicanState, MexicanTrainRules,
  MinedGamesRules, MinedState, MineshaftRules, MineshaftState, Outcome, PASS, Pass, Play,
  RuleViolation, halvesText, isDrawingRules, isSimultaneousRules, playableTiles,
};
