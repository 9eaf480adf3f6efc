// spec/vectors fork.json (10.8 "Two frames for one place") in every vector set the seat
// plays: on each case's prefix of the chain, every rival branch is judged (its frames kept,
// its opened seals, other shared seals and signers), and the winner takes the place from
// every other rival and no other rival takes it from the winner; the cases meet all four
// rules.
import { Referee } from "../../../peers/web/seat/protocol/referee.js";
import { branch, takesPlace } from "../../../peers/web/seat/protocol/fork.js";
import { fromHex, parseFrame } from "../../../peers/web/seat/protocol/frames.js";
import { GameSetup } from "../../../peers/web/seat/protocol/setup.js";

/** The vector sets of the libsodium suites (dealerless/2's, then each suite's). */
const SETS = ["", "suites/edwards25519-sha512/", "suites/ristretto255-sha512/"];

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function judge(setup, chain, c) {
  const ref = new Referee(setup);
  for (const w of chain.slice(0, c.prefix)) ref.receive(w);
  const rivals = c.branches.map((ws) => branch(ref.game, ref.state,
    ws.map((w) => parseFrame(fromHex(w), setup.suite))));
  const wrong = [];
  const lengths = rivals.map((b) => b.frames.length);
  if (!same(lengths, c.branches.map((ws) => ws.length))) wrong.push(`kept ${lengths}`);
  for (const key of ["opened", "shared", "signers"]) {
    const got = rivals.map((b) => b[key]);
    if (!same(got, c[key])) wrong.push(`${key} ${JSON.stringify(got)}, expected ${JSON.stringify(c[key])}`);
  }
  const won = rivals[c.winner];
  for (const other of rivals) {
    if (other !== won && !(takesPlace(won, other) && !takesPlace(other, won))) {
      wrong.push(`branch ${c.winner} does not keep the place from branch ${rivals.indexOf(other)}`);
    }
  }
  return wrong;
}

export async function run(load) {
  let passed = 0;
  const failed = [];
  for (const dir of SETS) {
    const doc = JSON.parse(await load(`${dir}fork.json`));
    const setup = GameSetup.decode(fromHex(doc.setup));
    const chain = doc.chain.map(fromHex);
    const met = new Set();
    for (const c of doc.cases) {
      let wrong;
      try {
        wrong = judge(setup, chain, c);
      } catch (exc) {
        wrong = [`uncaught ${exc?.name}: ${exc?.code ?? ""} ${exc?.message}`];
      }
      if (wrong.length) failed.push(`${dir}fork.json '${c.name}': ${wrong.join("; ")}`);
      else passed += 1;
      met.add(c.rule);
    }
    if (![1, 2, 3, 4].every((r) => met.has(r))) failed.push(`${dir}fork.json: rules met ${[...met]}`);
  }
  return { passed, failed };
}
