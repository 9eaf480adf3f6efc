// spec/vectors/tiles.json (edwards25519-sha512 at dealerless/2) and the suites' own
// tiles.json (edwards25519-sha512, ristretto255-sha512 at dealerless/3): every tile point
// M_t of the three sets (spec/05-deck.md 5.1) and the shuffle's generators h, h_0..h_90
// (spec/07-shuffle.md 7.2), computed from 3.3 / 3.5's hash to the group.
import { suite } from "../../../peers/web/seat/protocol/suite.js";
import { Tag, u64 } from "../../../peers/web/seat/protocol/tags.js";
import {
  TILE_SETS, parseTile, tilePoint, tileText,
} from "../../../peers/web/seat/protocol/tiles.js";

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const ascii = (t) => new TextEncoder().encode(t);

const FILES = [
  ["tiles.json", "edwards25519-sha512", 2],
  ["suites/edwards25519-sha512/tiles.json", "edwards25519-sha512", 3],
  ["suites/ristretto255-sha512/tiles.json", "ristretto255-sha512", 3],
];

export async function run(load) {
  let passed = 0;
  const failed = [];
  for (const [file, name, version] of FILES) {
    const d = JSON.parse(await load(file));
    const s = suite(name, version);
    for (const [setName, entries] of Object.entries(d.sets)) {
      const ts = TILE_SETS[setName];
      if (!ts) { failed.push(`${file}: no set ${setName}`); continue; }
      if (ts.tiles.length !== entries.length) failed.push(`${file} ${setName}: ${ts.tiles.length} tiles`);
      const points = ts.points(s);
      entries.forEach((e, i) => {
        const why = [];
        const t = parseTile(e.tile);
        if (tileText(ts.tiles[i] ?? [-1, -1]) !== e.tile) why.push("tile order");
        if (hex(points[i]?.data ?? []) !== e.point) why.push("point");
        if (hex(tilePoint(s, ts, t).data) !== e.point) why.push("tilePoint");
        if (hex(ts.point(s, t).data) !== e.point) why.push("TileSet.point");
        if (tileText(ts.decode(s, s.decodePoint(points[i].data))) !== e.tile) why.push("decode");
        if (why.length) failed.push(`${file} ${setName} ${e.tile}: ${why.join(", ")}`);
        else passed += 1;
      });
    }
    const h = s.hashToPoint(Tag.GENERATOR, ascii("h"));
    if (hex(h.data) === d.generators.h) passed += 1;
    else failed.push(`${file} h`);
    d.generators.h_i.forEach((want, i) => {
      const got = s.hashToPoint(Tag.GENERATOR, ascii("h_i"), u64(i));
      if (hex(got.data) === want) passed += 1;
      else failed.push(`${file} h_${i}`);
    });
  }
  return { passed, failed };
}
