#!/usr/bin/env python3
"""Generate the golden transcripts in spec/vectors/transcripts/ from fixed seeds.

    python tools/gen_transcripts.py          # rewrite the files and index.json
    python tools/gen_transcripts.py --check  # exit 1 if they differ from the code
    python tools/gen_transcripts.py --suite ristretto255-sha512 [--check]

Without `--suite` the games are of dealerless/2 (edwards25519-sha512), in
spec/vectors/transcripts/. With it, the same scripted games are played in that suite at
dealerless/3 into spec/vectors/suites/<suite>/transcripts/ (`protocol-1`, frozen, is
not among them).

`valid` is a complete seeded self-play game (blocked, first player 0, komi 0.5);
`valid-out` another (seat 1 first and out, komi -1.5); `prefix` is `valid` cut after
frame 12. `out-winner-silent` is `valid-out` without its last frame: the winner, who
went out, never sends its final REVEAL, so the winner and margin are proven and the
hidden tile is not opened; `out-loser-silent` stops one frame earlier, before the
loser's REVEAL, so the margin is unknown (spec/11-verify.md 11.2 step 5, rules/bram.md
D14). `mexican-train-3` is a complete three-seat Mexican Train round with draws and
"cannot play" claims (spec/10-session.md 10.4); `mineshaft-4` a four-seat Mineshaft
round. `mined-games-5` is a complete five-seat Mined Games game (commit-reveal stages,
spec/10-session.md 10.8); `mined-forfeit` one where seat 3 never commits its orders of
stage 3 and a majority of the others (seats 4, 2, 1) declares it absent, so it forfeits;
`mined-withheld` one where seat 3 seals its orders of stage 3 but never opens them, and
seats 4, 2 and 1 declare it absent with their decryption shares, which open its seal: the
game goes on with its orders; `mined-choice` one where two miners die
in lava and the token winner names the elimination candidate in a CHOOSE frame;
`mined-answered-late` one where seat 3 is declared absent by seat 0 and opens its orders
before the others declare, so the declaration lapses; the cheats of
peers/cheats/mined_games.py give `mined-wrong-reveal`, `mined-illegal-orders`,
`mined-bad-seal`, `mined-bad-decryption-share`, `mined-sealed-garbage` and
`mined-bad-choice`. Every other file is the transcript an
honest seat saves after one of the cheats in peers/cheats/deck_games.py (`false-claim` is a
Mexican Train seat that could play but draws or passes with a forged proof;
`false-claim-mineshaft` the same in Mineshaft). `protocol-1` is frozen, not generated:
`valid` as this tool wrote it at commit ea56fad, under dealerless/1, which a build of
dealerless/2 refuses by its magic (`version/unsupported`). index.json gives each file's
expected verdict.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from peers.cheats import mined_games as mined_cheats
from peers.cheats.deck_games import CHEATS
from peers.table.selfplay import selfplay, tables_in
from protocol.suite import SUITE_NAMES, suite, v2_suite
from protocol.transcript import Transcript
from protocol.verifier import replay
from protocol.version import PROTOCOL

OUT = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "transcripts"
SUITES = OUT.parent / "suites"


def expected(data: bytes) -> dict[str, Any]:
    v = replay(data).to_json()
    keep = ("valid", "complete", "frames", "first_player", "outcome", "hidden_tile",
            "violation", "awaiting", "decided")
    return {"exit": replay(data).exit_code, **{k: v[k] for k in keep}}


def build() -> dict[str, bytes]:
    valid = selfplay("bram", {"komi_halves": 1}, ("greedy", "random"), seed=5)
    # Seat 1 moves first and goes out, under negative komi: the other paths of 8 and 10.
    out = selfplay("bram", {"komi_halves": -3}, ("random", "greedy"), seed=5)
    # A Mexican Train round for three seats: draws opened privately, "cannot play" claims.
    train = selfplay("mexican-train", {"seats": 3}, ("greedy", "random", "greedy"), seed=1)
    # A Mineshaft round for four seats: the hub set aside, draws, forced play.
    shaft = selfplay("mineshaft", {"seats": 4}, ("greedy", "random") * 2, seed=1)
    files = {"valid": valid.encode(), "valid-out": out.encode(),
             "mexican-train-3": train.encode(), "mineshaft-4": shaft.encode(),
             "prefix": Transcript(valid.setup, valid.frames[:13]).encode(),
             "out-winner-silent": Transcript(out.setup, out.frames[:-1]).encode(),
             "out-loser-silent": Transcript(out.setup, out.frames[:-2]).encode()}
    for name, make in CHEATS.items():
        files[name] = make().transcript()
    files["mined-games-5"] = selfplay("mined-games", {"seats": 5},
                                      ("greedy", "random") * 2 + ("greedy",), seed=1).encode()
    forfeit, _late = mined_cheats.late_commit(seed=5, seat=3, stage=3)
    files["mined-forfeit"] = forfeit.referees[0].transcript().encode()
    withheld, _late = mined_cheats.withheld_open(seed=5, seat=3, stage=3)
    files["mined-withheld"] = withheld.referees[0].transcript().encode()
    files["mined-choice"] = mined_cheats.two_die_in_lava(choice=2).play().encode()
    files["mined-answered-late"] = mined_cheats.answered_late().play().encode()
    for cheat in (mined_cheats.wrong_reveal(), mined_cheats.illegal_orders(),
                  mined_cheats.bad_seal(), mined_cheats.bad_decryption_share(),
                  mined_cheats.sealed_garbage(), mined_cheats.bad_choice()):
        files[cheat.name] = cheat.transcript()
    files["protocol-1"] = (OUT / "protocol-1.transcript").read_bytes()
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description="golden transcripts")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--suite", choices=SUITE_NAMES, default=None,
                        help="play the games in this suite at dealerless/3")
    args = parser.parse_args()
    out = OUT if args.suite is None else SUITES / args.suite / "transcripts"
    with tables_in(v2_suite() if args.suite is None else suite(args.suite, PROTOCOL)):
        files = build()
    if args.suite is not None:
        del files["protocol-1"]
    index = {"about": {"generated_by": "python tools/gen_transcripts.py",
                       "spec": "spec/11-verify.md"},
             "transcripts": {name: {"file": f"{name}.transcript", **expected(data)}
                             for name, data in files.items()}}
    outputs = {f"{name}.transcript": data for name, data in files.items()}
    outputs["index.json"] = (json.dumps(index, indent=1, sort_keys=True) + "\n").encode()
    stale = [n for n, data in outputs.items()
             if not (out / n).exists() or (out / n).read_bytes() != data]
    if args.check:
        if stale:
            print("stale golden transcripts: " + ", ".join(stale), file=sys.stderr)
            return 1
        return 0
    out.mkdir(parents=True, exist_ok=True)
    for name, data in outputs.items():
        (out / name).write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
