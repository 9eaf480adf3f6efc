// Simultaneous rule sets: stages of sealed commit-reveal (spec/10-session.md 10.8).
//
// A simultaneous rule set has no deck. Before the first stage every seat publishes a
// share key (KEY). In every stage each living seat seals its orders to the other seats
// (COMMIT), then opens its seal (OPEN); the session checks the seals, the openings and
// the decryption shares (spec/06-proofs.md 6.6) and leaves the orders to the rules. A
// seat that stays silent can be declared absent by the other seats (ABSENT), in any
// order: against a missing OPEN a majority of the seal's holders declare, then each posts
// its decryption share, and a majority of the shares opens the seal without the seat;
// against a missing KEY or COMMIT a majority makes the seat forfeit. The winner may owe a
// choice (CHOOSE). The session's phase and turn always follow what the rules' `due` says
// is owed, so a cut transcript names the seat that owes, not its declarers.
import { pack } from "./canonical.js";
import { DealerlessError, LocalError, SealError, Violation } from "./errors.js";
import { MessageType } from "./frames.js";
import { AbsentBody, ChooseBody, CommitBody, OpenBody, SealKeyBody } from "./messages.js";
import { RuleViolation } from "./rules/base.js";
import {
  combine, openWithSecret, verifyDecryptionShare, verifySeal, verifyShareKey,
} from "./seal.js";
import { holdersContext, readPlaintext, storedSeal } from "./sealed.js";
import { Phase, stagePosition } from "./state.js";

/** The session state around the rules' state: phase and turn follow what is owed. */
export function withStage(game, state, rs) {
  const [phase, turn] = stagePosition(game.stages.due(rs));
  return state.with_({ rulesState: rs, phase, turn });
}

/** The rules' state a KEY, COMMIT or OPEN applies to: the owing seat answers, and any
 * declarations of its absence lapse (10.8). */
function answering(game, state) {
  const rs = state.rulesState;
  return rs.absent !== null && rs.absent !== undefined ? game.stages.answered(rs) : rs;
}

/** The context of `seat`'s seal in the current stage (10.8). */
export function sealContextOf(game, rs, seat) {
  return holdersContext(game.suite, game.gameId, rs.stage, seat, rs.keys);
}

/** KEY of a simultaneous game: the seat's share key and its proof (10.8, 6.6.2). */
export function onSealKey(game, state, frame) {
  const rs = answering(game, state);
  const body = SealKeyBody.decode(game.suite, frame.body);
  verifyShareKey(game.suite, body.key, body.proof, game.gameId, frame.seat);
  return withStage(game, state, game.stages.shareKey(rs, frame.seat, body.key.data));
}

/** The seat's seal, checked at once by everyone: a bad one is the committer's (10.8). */
export function onCommit(game, state, frame) {
  const rs = answering(game, state);
  const ctx = sealContextOf(game, rs, frame.seat);
  const body = CommitBody.decode(frame.body, ctx);
  verifySeal(ctx, body.seal);
  const sealed = pack(body.encode(game.suite));
  return withStage(game, state, game.stages.commit(rs, frame.seat, sealed));
}

/** The seal secret must open the seat's seal to orders that obey the rules (10.8). */
export function onOpen(game, state, frame) {
  const rs = answering(game, state);
  const [ctx, seal] = sealOf(game, rs, frame.seat);
  const body = OpenBody.decode(game.suite, frame.body);
  const [orders, nonce] = readPlaintext(openWithSecret(ctx, seal, body.secret), frame.seat);
  const rules = game.stages;
  const decoded = rules.decodeOrders(rs, orders);
  rules.check(rs, frame.seat, decoded);
  return withStage(game, state, rules.open(game.gameId, rs, frame.seat, decoded, nonce));
}

/**
 * A seat declares the seat that owes a KEY, COMMIT or OPEN absent (10.8). Against a
 * sealed OPEN a decryption share, once the rules admit one, is checked at once (a bad one
 * is its sender's); with the t-th the seal opens, and its orders count as the seat's.
 */
export function onAbsent(game, state, frame) {
  if (!game.simultaneous) {
    throw new DealerlessError("frame/unexpected-type", "only a simultaneous game declares absence");
  }
  const body = AbsentBody.decode(game.suite, frame.body, frame.seat);
  const rules = game.stages;
  const rs = state.rulesState;
  const share = body.share === null ? null : body.share.point.data;
  const next = rules.declareAbsent(game.gameId, rs, frame.seat, body.seat, body.stage, share);
  if (body.share === null) return withStage(game, state, next);
  const [ctx, seal] = sealOf(game, rs, body.seat);
  verifyDecryptionShare(ctx, seal, frame.seat, body.share);
  const declared = next.absent !== null && next.absent !== undefined ? next.absent[1] : [];
  if (sharesIn(declared) < ctx.t) return withStage(game, state, next);
  let orders;
  let nonce;
  let decoded;
  try {
    [orders, nonce] = recover(ctx, seal, declared);
    decoded = rules.decodeOrders(next, orders);
    rules.check(next, body.seat, decoded);
  } catch (exc) {
    // The seal binds its plaintext: what the table recovers is what the committer sealed,
    // so a plaintext that does not decode or orders that break the rules are the
    // committer's, proven by this frame.
    if (!(exc instanceof SealError || exc instanceof RuleViolation)) throw exc;
    throw new Violation(exc.code, `recovered from its seal: ${exc.detail}`, body.seat, state.seq);
  }
  return withStage(game, state, rules.recovered(game.gameId, next, body.seat, decoded, nonce));
}

function sharesIn(declared) {
  return declared.filter(([, share]) => share !== null && share !== undefined).length;
}

/** [orders, nonce] of a seal from its holders' checked decryption shares (6.6.8). */
function recover(ctx, seal, declared) {
  const shares = new Map();
  for (const [seat, share] of declared) {
    if (share !== null && share !== undefined) shares.set(seat, ctx.suite.decodePoint(share));
  }
  return readPlaintext(combine(ctx, seal, shares), ctx.committer);
}

/** The orders an accepted OPEN opened, or an accepted ABSENT recovered, from the state
 * before it (10.8); null for any other frame. */
export function openedOrders(game, before, frame) {
  const rs = before.rulesState;
  if (frame.type === MessageType.OPEN) {
    const [ctx, seal] = sealOf(game, rs, frame.seat);
    const { secret } = OpenBody.decode(game.suite, frame.body);
    return readPlaintext(openWithSecret(ctx, seal, secret), frame.seat)[0];
  }
  if (frame.type === MessageType.ABSENT) {
    const body = AbsentBody.decode(game.suite, frame.body, frame.seat);
    const beforeShares = rs.absent !== null && rs.absent !== undefined ? rs.absent[1] : [];
    if (body.share !== null) {
      const [ctx, seal] = sealOf(game, rs, body.seat);
      if (sharesIn(beforeShares) + 1 >= ctx.t) {
        return recover(ctx, seal, [...beforeShares, [frame.seat, body.share.point.data]])[0];
      }
    }
  }
  return null;
}

/** The context and the stored seal of `seat` in the current stage. */
function sealOf(game, rs, seat) {
  const ctx = sealContextOf(game, rs, seat);
  const data = rs.commits[seat];
  if (data === null || data === undefined) {
    throw new LocalError("session/no-seal", `seat ${seat} has no seal in stage ${rs.stage}`);
  }
  return [ctx, storedSeal(data, ctx)];
}

/** CHOOSE: the token winner names the elimination candidate (10.8). */
export function onChoose(game, state, frame) {
  const body = ChooseBody.decode(frame.body);
  return withStage(game, state, game.stages.choose(state.rulesState, frame.seat, body.seat));
}

/** The exception to 10.5 check 8 (10.8): while a seat owes a KEY, COMMIT or OPEN of a
 * simultaneous game, any other seat may declare it absent, in any order; the rules judge
 * whether that seat may. */
export function outOfTurnAllowed(game, state, frame) {
  return game.simultaneous && frame.type === MessageType.ABSENT
    && [Phase.KEYS, Phase.COMMIT, Phase.OPEN].includes(state.phase);
}
