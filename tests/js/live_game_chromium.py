"""A live game of the browser seat in Chromium, with its real IndexedDB store (issue 33).

Not a test of the suite (run it by hand): like tests/js/live_game.mjs, it starts `dealerless
relay` and `dealerless host --relay ... --bot random` on loopback (and `dealerless join
--bot random` for seats past 1), then the seat's page in Chromium joins seat 1 through
net/launch.js joinGame with store/games.js GameStore (IndexedDB, strict durability),
playing a random legal move (tests/js/random_seat.mjs). With --resume-after N the page
stops the seat when asked for its (N+1)-th move, opens its game again from IndexedDB
(GameStore.open) and resumes it (resumeGame). It then checks the page's transcript with
`dealerless verify --json` and against the host's `dealerless export`, byte for byte.

    cd /work/main && python3 tests/js/live_game_chromium.py [RULES ...] [--resume-after N]
        [--seats K] [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.seat_page import serving  # noqa: E402
from tests.webpage import CHROMIUM  # noqa: E402

CLI = [sys.executable, "-m", "peers.cli"]
SEATS = {"bram": 2, "mexican-train": 3, "mineshaft": 2, "mined-games": 3}
GAME_LIMIT = 420.0

PLAY = """async ({invitation, timeout, resumeAfter}) => {
  const { joinGame, resumeGame } = await import("/peers/web/seat/net/launch.js");
  const { GameStore, deleteGame } = await import("/peers/web/seat/store/games.js");
  const { Identity } = await import("/peers/web/seat/protocol/identity.js");
  const { SYSTEM } = await import("/peers/web/seat/entropy.js");
  const { account } = await import("/peers/web/seat/table/report.js");
  const { randomChoose } = await import("/tests/js/random_seat.mjs");
  const started = performance.now();
  let firstAsked = null, moves = 0, gameId = null, stopping = null, peer = null;
  const events = {};
  const config = {
    identity: new Identity(SYSTEM.bytes("identity", 32)), moveTimeout: timeout,
    meta: { bot: "random" },
    choose: async (view) => {
      firstAsked ??= performance.now();
      if (moves === resumeAfter && stopping === null) {
        stopping = peer.stop();
        return new Promise(() => {});
      }
      moves += 1;
      return randomChoose(view);
    },
    notify: (event) => {
      events[event.type] = (events[event.type] ?? 0) + 1;
      if (event.type === "setup") gameId = event.gameId;
    },
  };
  const joined = await joinGame(invitation, config);
  peer = joined.peer;
  let result = await joined.done;
  let resumedWith = null;
  if (result === null) {
    await stopping;
    const store = await GameStore.open(gameId);
    resumedWith = await store.frameCount();
    const again = await resumeGame(store, config);
    peer = again.peer;
    result = await again.done;
  }
  const store = await GameStore.open(gameId);
  const bytes = await store.exportTranscript();
  const status = await store.meta("status");
  store.close();
  await deleteGame(gameId);
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return { transcript: btoa(text), verdict: result.verdict.toJson(),
    account: account(result.verdict), message: result.message, status, events, moves, resumedWith,
    firstMove: firstAsked === null ? null : (firstAsked - started) / 1000,
    seconds: (performance.now() - started) / 1000 };
}"""


def wait_for(proc_log: Path, pattern: str, timeout: float = 60) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, proc_log.read_text(errors="replace"))
        if found:
            return found
        time.sleep(0.05)
    raise RuntimeError(f"{pattern!r} never appeared in {proc_log}:\n{proc_log.read_text()[-2000:]}")


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*CLI, *args], stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            cwd=ROOT)


def game(page, rules: str, seats: int, timeout: int, resume_after: int, home: Path) -> dict:
    procs = []
    try:
        procs.append(start(["relay", "--listen", "127.0.0.1:0"], home / "relay.log"))
        port = wait_for(home / "relay.log", r"relay listening on ws://127\.0\.0\.1:(\d+)")[1]
        procs.append(start(["host", "--relay", f"ws://127.0.0.1:{port}", "--rules", rules,
                            "--seats", str(seats), "--bot", "random", "--home",
                            str(home / "h0"), "--timeout", str(timeout)], home / "h0.log"))
        last = (r"invitation: dealerless join (\S+)" if seats == 2 else
                rf"invitation for seat {seats - 1}: dealerless join (\S+)")
        wait_for(home / "h0.log", last)
        urls = re.findall(r"dealerless join (\S+)", (home / "h0.log").read_text())
        for i, url in enumerate(urls[1:], 2):
            procs.append(start(["join", url, "--bot", "random", "--home", str(home / f"h{i}"),
                                "--timeout", str(timeout)], home / f"h{i}.log"))
        out = page.evaluate(PLAY, {"invitation": urls[0], "timeout": timeout,
                                   "resumeAfter": resume_after})
        mine = base64.b64decode(out.pop("transcript"))
        (home / "page.t").write_bytes(mine)
        checked = subprocess.run([*CLI, "verify", str(home / "page.t"), "--json"],
                                 capture_output=True, text=True, cwd=ROOT)
        py = json.loads(checked.stdout)
        text = subprocess.run([*CLI, "verify", str(home / "page.t")], capture_output=True,
                              text=True, cwd=ROOT).stdout.rstrip()
        procs[1].wait(60)
        identical = {}
        for i in [0, *range(2, seats)]:
            games = list((home / f"h{i}" / "games").glob("*.sqlite"))
            exported = home / f"h{i}.t"
            subprocess.run([*CLI, "export", str(games[0]), str(exported), "--home",
                            str(home / f"h{i}")], check=True, capture_output=True, cwd=ROOT)
            identical[f"seat {i}"] = exported.read_bytes() == mine
        verdict = out.pop("verdict")
        account = out.pop("account")
        return {**out, "frames": verdict["frames"], "verify": [py["valid"], py["complete"]],
                "same_json": py == verdict, "same_account": text == account,
                "identical": identical}
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("rules", nargs="*", default=list(SEATS))
    parser.add_argument("--resume-after", type=int, default=-1)
    parser.add_argument("--seats", type=int)
    parser.add_argument("--timeout", type=int, default=60)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    code = 0
    with serving() as origin, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_default_timeout(GAME_LIMIT * 1000)
        page.on("console", lambda m: print(f"  page: {m.text}") if m.type == "error" else None)
        page.goto(origin + "/")
        page.wait_for_function("window.ready === true")
        for rules in args.rules:
            with tempfile.TemporaryDirectory(prefix=f"dealerless-chromium-{rules}-") as tmp:
                began = time.monotonic()
                try:
                    out = game(page, rules, args.seats or SEATS[rules], args.timeout,
                               args.resume_after, Path(tmp))
                except Exception as exc:
                    print(f"{rules}: stopped: {type(exc).__name__}: {str(exc)[:2000]}")
                    code = 1
                    continue
                ok = (out["verify"] == [True, True] and out["same_json"] and out["same_account"]
                      and all(v is True for v in out["identical"].values()))
                print(f"{rules} ({time.monotonic() - began:.1f} s): {json.dumps(out)}")
                print(f"{rules}: {'OK' if ok else 'NOT OK'}")
                code |= 0 if ok else 1
        browser.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
