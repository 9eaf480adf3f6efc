// spec/vectors handshake.json (12.3): the signed bytes and wires of every signed message,
// the pins, the table's secrets, the invitations read and refused (each refusal naming
// its part), the key exchange from both sides, the messages a receiver must ignore (each
// failing first the check it names), and the recorded round of a two-seat table: its
// host's messages rebuilt from the host's seed, nonce, fresh bytes and table secret; the
// joiner (net/handshake.js over a MemoryLink) answering them with the recorded hello and
// open, to hold the recorded setup; its record written and read again; and the roster
// answered mid-game with its open. The cases of bls12381g1-sha256 (its round, and the
// ignored hellos whose frame keys are of G1) are not this seat's: libsodium has no
// BLS12-381.
import { pack, unpack } from "../../../peers/web/seat/protocol/canonical.js";
import { DealerlessError } from "../../../peers/web/seat/protocol/errors.js";
import {
  checkSignature, hostPin, pakeConfirm, pakeGenerator, pakeScalar, pakeShare, roomSecret,
  seatSecret, sign, signedBytes, SIGNING_CONTEXT, BINDING_CONTEXT,
} from "../../../peers/web/seat/protocol/handshake_auth.js";
import { Identity } from "../../../peers/web/seat/protocol/identity.js";
import { makeRules } from "../../../peers/web/seat/protocol/rules/index.js";
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { JOIN } from "../../../peers/web/seat/net/config.js";
import { Handshake } from "../../../peers/web/seat/net/handshake.js";
import { answerHandshake } from "../../../peers/web/seat/net/handshake_answers.js";
import { fromPinnedHost, NotFromHost } from "../../../peers/web/seat/net/handshake_join.js";
import {
  b64, invitationUrl, InvitationError, parseInvitation,
} from "../../../peers/web/seat/net/invitation.js";
import { Joining } from "../../../peers/web/seat/net/joining.js";
import { MemoryLink } from "../../../peers/web/seat/net/link.js";
import { AnswerLimit } from "../../../peers/web/seat/net/pacing.js";
import {
  checkFrameKey, helloCommitment, readJoinHello, readOffer,
} from "../../../peers/web/seat/net/messages.js";
import { hex, toHex } from "../vector_common.js";

const MAX = 1 << 17;
const BLS = "bls12381g1-sha256";

/** The check of 12.3's order that `obj` fails first, as the Python's test reads it. */
function firstFailedCheck(obj, rid, invite) {
  try {
    if (obj[0] === "hello" && obj[2] === JOIN) {   // the host reading a joiner's hello
      const hello = readJoinHello(obj.slice(0, -1));
      checkSignature(hello.key, rid, obj);
      if (hello.frameKey.length) {
        checkFrameKey(hello.suite, hello.key, hello.frameKey, rid, hello.seat, hello.binding);
      }
      return "ok";
    }
    if (obj[0] === "refuse" && obj.length !== 6) return "shape";
    const body = fromPinnedHost(obj, obj[0] === "hello" ? obj[3] : obj[1], invite);
    if (obj[0] === "hello") readOffer(body);
  } catch (exc) {
    if (exc instanceof NotFromHost) return exc.check;
    if (exc instanceof DealerlessError) return exc.code === "hello/version" ? "version" : exc.code;
    return `uncaught ${exc?.name}: ${exc?.message}`;
  }
  return "ok";
}

/** The next message of `kind` on `link` (a join hello that answers, with `answering`). */
async function next(link, kind, answering = false) {
  const until = performance.now() + 10_000;
  while (performance.now() < until) {
    const message = await link.recv(1);
    if (message === null) continue;
    const obj = unpack(message, MAX);
    if (obj[0] === kind && (!answering || obj[6].length)) return message;
  }
  return null;
}

/** The recorded round's host messages, rebuilt from what the host is given. */
function hostWires(r) {
  const host = new Identity(hex(r.host.seed));
  const rid = hex(r.rid);
  const commitment = helloCommitment(hex(r.host.nonce));
  const S = suite(r.suite, 3);
  const params = makeRules(r.rules, { ...r.params }, S).params;
  const seat = r.joiner.seat;
  const y = pakeScalar(host, rid, commitment, seat, hex(r.host.fresh));
  const secret = seatSecret(hex(r.table), seat);
  const hello = ["hello", 10, "host", host.publicKey, commitment, r.rules, params, r.seats,
    r.host.round, [pakeShare(secret, rid, y)], r.suite];
  const joiner = new Identity(hex(r.joiner.seed));
  const roster = ["roster", [host.publicKey, joiner.publicKey],
    [commitment, helloCommitment(hex(r.joiner.nonce))], r.frame_keys.map(hex),
    r.bindings.map(hex)];
  const reveal = ["reveal", [hex(r.host.nonce), hex(r.joiner.nonce)]];
  return [hello, roster, reveal].map((body) => toHex(pack(sign(host, rid, body))));
}

async function replayAsJoiner(r, wires) {
  const joiner = new Identity(hex(r.joiner.seed));
  const fresh = hex(r.joiner.fresh);
  const [link, table] = MemoryLink.pair();
  const handshake = new Handshake(link, {
    identity: joiner, invitation: parseInvitation(r.invitation), syncInterval: 0.05,
    moveTimeout: 20, record: new Joining(hex(r.joiner.nonce)),
    randomBytes: (n) => fresh.slice(0, n) });
  const seat = handshake.run();
  const seen = [];
  seen.push(await next(table, "hello"));   // it has seen no host hello yet
  await table.send(wires[0]);
  seen.push(await next(table, "hello", true));
  await table.send(wires[2]);
  seen.push(await next(table, "open"));
  await table.send(wires[4]);
  const agreed = await seat;
  return { seen, agreed };
}

export async function run(load) {
  const V = JSON.parse(await load("handshake.json"));
  let passed = 0;
  const failed = [];
  const expect = (ok, what) => { if (ok) passed += 1; else failed.push(what); };
  const utf8 = (text) => new TextEncoder().encode(text);
  expect(toHex(SIGNING_CONTEXT) === toHex(utf8(V.signing_context.replace("\\x00", "\0"))),
    "the signing context");
  expect(toHex(BINDING_CONTEXT) === toHex(utf8(V.binding_context.replace("\\x00", "\0"))),
    "the binding context");

  for (const c of V.signatures) {
    const who = new Identity(hex(c.signer_seed));
    const rid = hex(c.rid);
    const body = unpack(hex(c.body), MAX);
    expect(toHex(signedBytes(rid, body)) === c.signed_bytes, `${c.kind}: signed bytes`);
    expect(toHex(pack(sign(who, rid, body))) === c.wire, `${c.kind}: wire`);
    expect(toHex(who.publicKey) === c.key, `${c.kind}: key`);
    const wire = unpack(hex(c.wire), MAX);
    expect(toHex(pack(checkSignature(who.publicKey, rid, wire))) === c.body,
      `${c.kind}: the signature verifies`);
  }

  for (const c of V.pins) {
    expect(toHex(hostPin(hex(c.key))) === c.pin, `pin of ${c.key.slice(0, 8)}`);
    expect(b64(hex(c.pin)) === c.pin_text, `pin text of ${c.key.slice(0, 8)}`);
  }
  const table = hex(V.secrets.table);
  expect(toHex(roomSecret(table)) === V.secrets.room, "the room secret");
  for (const [seat, secret] of Object.entries(V.secrets.seats)) {
    expect(toHex(seatSecret(table, Number(seat))) === secret, `the secret of seat ${seat}`);
  }

  for (const c of V.invitations) {
    let got;
    try {
      got = parseInvitation(c.url);
    } catch (exc) {
      got = exc;
    }
    if (c.result === "ok") {
      const ok = !(got instanceof Error) && toHex(got.rid) === c.rid && toHex(got.pin) === c.pin
        && got.seat === c.seat && toHex(got.room) === c.room && toHex(got.secret) === c.secret
        && c.secret === V.secrets.seats[String(got.seat)];
      expect(ok, `invitation read: ${c.note}`);
      expect(ok && invitationUrl(got, c.url) === c.url, `invitation written: ${c.note}`);
    } else {
      expect(got instanceof InvitationError && got.part === c.part,
        `invitation refused naming ${c.part}: ${c.note} `
        + `(got ${got?.part ?? got?.message ?? "ok"})`);
    }
  }

  const P = V.pake;
  const rid = hex(P.rid);
  for (const c of P.exchanges) {
    const name = `key exchange, seat ${c.seat}`;
    const secret = hex(c.secret);
    expect(toHex(secret) === toHex(seatSecret(hex(P.table), c.seat)), `${name}: secret`);
    expect(toHex(pakeGenerator(secret, rid).data) === c.generator, `${name}: generator`);
    const host = P.host;
    const joiner = c.joiner;
    const yH = pakeScalar(new Identity(hex(host.seed)), rid, hex(host.commitment), c.seat,
      hex(host.fresh));
    const yJ = pakeScalar(new Identity(hex(joiner.seed)), rid, hex(joiner.commitment), c.seat,
      hex(joiner.fresh));
    const S = suite("edwards25519-sha512", 3);
    expect(yH === S.decodeScalar(hex(c.host_scalar)), `${name}: host scalar`);
    expect(yJ === S.decodeScalar(hex(joiner.scalar)), `${name}: joiner scalar`);
    const sH = pakeShare(secret, rid, yH);
    const sJ = pakeShare(secret, rid, yJ);
    expect(toHex(sH) === c.host_share && toHex(sJ) === joiner.share, `${name}: shares`);
    const who = [hex(joiner.key), hex(joiner.commitment), hex(host.commitment)];
    expect(toHex(pakeConfirm(rid, c.seat, yJ, sH, sJ, sH, ...who)) === c.confirm,
      `${name}: the joiner's confirm`);
    expect(toHex(pakeConfirm(rid, c.seat, yH, sH, sJ, sJ, ...who)) === c.confirm,
      `${name}: the host's confirm`);
    const wrong = hex(c.other_seat_share);
    const theirs = toHex(pakeConfirm(rid, c.seat, yH, sH, wrong, wrong, ...who));
    expect(theirs !== c.confirm && theirs !== c.other_seat_confirm,
      `${name}: another seat's invitation cannot answer`);
  }

  const R = V.round;
  const invite = parseInvitation(R.invitation);
  for (const c of V.ignored) {
    const obj = unpack(hex(c.wire), MAX);
    if (obj[0] === "hello" && obj[2] === JOIN && obj[9] === BLS
        && c.check !== "handshake/bad-signature") continue;   // a G1 frame key: not here
    const got = firstFailedCheck(obj, hex(R.rid), invite);
    expect(got === c.check, `ignored, ${c.note}: fails ${c.check} first (got ${got})`);
  }

  const wires = V.signatures.slice(0, 5).map((c) => c.wire);
  const rebuilt = hostWires(R);
  expect(rebuilt[0] === wires[0], "round: the host's hello rebuilt");
  expect(rebuilt[1] === wires[2], "round: the roster rebuilt");
  expect(rebuilt[2] === wires[4], "round: the reveal rebuilt");
  try {
    const { seen, agreed } = await replayAsJoiner(R, wires.map(hex));
    expect(seen[0] !== null, "round: the joiner says hello before it sees the host's");
    expect(seen[1] !== null && toHex(seen[1]) === wires[1], "round: the joiner's recorded hello");
    expect(seen[2] !== null && toHex(seen[2]) === wires[3], "round: the joiner's recorded open");
    expect(toHex(agreed.setup.encode()) === R.setup, "round: the joiner holds the setup");
    expect(toHex(agreed.setup.gameId) === R.game_id, "round: the game id");
    expect(agreed.seat === R.joiner.seat, "round: the joiner's seat");
    // The joiner's record (net/joining.js) of this round, written and taken up again.
    const joinerKey = new Identity(hex(R.joiner.seed)).publicKey;
    const kept = { offer: hex(wires[0]), roster: hex(wires[2]) };
    const record = new Joining(hex(R.joiner.nonce), kept);
    const read = Joining.takeUp(record.encode(), joinerKey);
    expect(toHex(read.nonce) === R.joiner.nonce
      && toHex(read.encode()) === toHex(record.encode())
      && read.seated().seatOf(joinerKey) === R.joiner.seat,
      "round: the joiner's record read again");
    let refused = "";
    try {
      Joining.takeUp(new Joining(hex(R.host.nonce), kept).encode(), joinerKey);
    } catch (exc) {
      refused = exc.name;
    }
    expect(refused === "RecordError",
      "round: a record whose roster does not seat its nonce is refused");
    // Mid-game, the recorded roster again (the host lacks the open) gets the recorded open.
    const [link, table] = MemoryLink.pair();
    const game = { setup: agreed.setup, seat: agreed.seat, keys: agreed.roster.keys };
    await answerHandshake(link, game, unpack(hex(wires[2]), MAX), new AnswerLimit(0.5),
      new Identity(hex(R.joiner.seed)), hex(R.rid));
    const again = await table.recv(1);
    expect(again !== null && toHex(again) === wires[3],
      "round: a roster mid-game is answered with the recorded open");
  } catch (exc) {
    failed.push(`round replayed as the joiner: ${exc?.name}: ${exc?.message}`);
  }
  return { passed, failed };
}
