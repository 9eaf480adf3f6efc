// spec/vectors setup.json (8.2): every setup decodes by 8.2's rules in order to its game
// id ("ok", and re-encodes to the same bytes) or to the code of the first rule it breaks.
// The seat implements all four rule sets, so `if_only_bram` does not apply.
import { DealerlessError } from "../../../peers/web/seat/protocol/errors.js";
import { fromHex, toHex } from "../../../peers/web/seat/protocol/frames.js";
import { GameSetup } from "../../../peers/web/seat/protocol/setup.js";

function decoded(data) {
  try {
    const setup = GameSetup.decode(data);
    return { code: "ok", setup };
  } catch (exc) {
    if (exc instanceof DealerlessError) return { code: exc.code };
    return { code: `uncaught ${exc?.name}: ${exc?.message}` };
  }
}

export async function run(load) {
  const doc = JSON.parse(await load("setup.json"));
  let passed = 0;
  const failed = [];
  for (const v of doc.vectors) {
    const data = fromHex(v.setup);
    const { code, setup } = decoded(data);
    if (code !== v.expected) {
      failed.push(`${v.name}: ${code}, expected ${v.expected}`);
      continue;
    }
    if (code === "ok") {
      if (toHex(setup.gameId) !== v.game_id) {
        failed.push(`${v.name}: game id ${toHex(setup.gameId)}, expected ${v.game_id}`);
        continue;
      }
      if (toHex(setup.encode()) !== v.setup) {
        failed.push(`${v.name}: re-encodes to other bytes`);
        continue;
      }
      // A setup built from its parts (GameSetup.create) is the same setup.
      const made = GameSetup.create(setup.rules, Object.fromEntries(setup.params),
        setup.identities, setup.nonces, setup.suite);
      if (toHex(made.encode()) !== v.setup) {
        failed.push(`${v.name}: GameSetup.create gives other bytes`);
        continue;
      }
    }
    passed += 1;
  }
  return { passed, failed };
}
