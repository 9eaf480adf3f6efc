"""A Mexican Train round for three seats, as three real processes through a relay.

The acceptance of issue 8: `host --rules mexican-train --seats 3` and two `join`s, each
its own OS process with its own data directory, play a round with draws and proven
"cannot play" claims through `dealerless relay`; every seat ends with the same
transcript, and `dealerless verify --json` reports it valid and complete.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_processes import finish, free_port, invitations, start, wait_for

CLI = [sys.executable, "-m", "peers.cli"]


def test_three_processes_play_mexican_train_through_a_relay(tmp_path: Path) -> None:
    port = free_port()
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], tmp_path / "relay.log")
    seats = []
    try:
        wait_for(r"(relay listening)", tmp_path / "relay.log")
        seats.append(start(["host", "--relay", f"ws://127.0.0.1:{port}", "--rules",
                            "mexican-train", "--seats", "3", "--bot", "greedy", "--home",
                            str(tmp_path / "h0"), "--timeout", "60"], tmp_path / "h0.log"))
        urls = invitations(tmp_path / "h0.log", 3)
        for i, bot in ((1, "random"), (2, "greedy")):
            seats.append(start(["join", urls[i - 1], "--bot", bot, "--home",
                                str(tmp_path / f"h{i}"), "--timeout", "60"],
                               tmp_path / f"h{i}.log"))
        assert [finish(p, 120) for p in seats] == [0, 0, 0]
    finally:
        for proc in (*seats, relay):
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    files = []
    for i in range(3):
        out = tmp_path / f"{i}.t"
        game = next((tmp_path / f"h{i}" / "games").glob("*.sqlite"))
        subprocess.run([*CLI, "export", str(game), str(out)], check=True, capture_output=True)
        files.append(out.read_bytes())
    assert files[0] == files[1] == files[2]
    proc = subprocess.run([*CLI, "verify", str(tmp_path / "0.t"), "--json"],
                          capture_output=True, text=True)
    verdict = json.loads(proc.stdout)
    assert proc.returncode == 0 and verdict["valid"] and verdict["complete"]
    assert verdict["rules"]["name"] == "mexican-train" and len(verdict["seats"]) == 3
    assert any(m["move"] in ("draw", "pass", "not-holding") for m in verdict["moves"])
