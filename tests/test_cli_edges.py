"""Every subcommand against hostile arguments, as a person at a shell would meet it.

Each case runs the real `dealerless` command in its own process with no terminal
and an empty data directory, and checks what the person reads: the documented
exit code (spec/12-peers.md 12.7), a message naming the problem, and never a
traceback or an asyncio complaint. The network cases also check that a wrong
invitation fails fast instead of waiting out the move timeout.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from peers.net.config import HOST, JOIN
from peers.net.link import MemoryLink
from peers.net.peer import Peer

CLI = [sys.executable, "-m", "peers.cli"]
#: An invitation whole in form (rendezvous id, pin, seat, secrets) to a port nobody
#: listens on.
TAIL = f"/dealerless/{'ab' * 16}#{'A' * 22}.1.{'A' * 22}.{'A' * 22}"
NOT_SEEN = ("Traceback", "Task exception was never retrieved", "Error in sys.excepthook")


def dealerless(args: list[str], home: Path, timeout: float = 30,
               env: dict[str, str] | None = None) -> tuple[int, str, str, float]:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("DEALERLESS_PASSPHRASE", "DEALERLESS_HOME")}
    environment.update({"DEALERLESS_HOME": str(home), **(env or {})})
    start = time.monotonic()
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=environment)
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x93\xa4junk" * 40)
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory\n")
    return {"garbage": str(garbage), "file": str(a_file), "out": str(tmp_path / "out.bin"),
            "nodir": str(tmp_path / "no" / "such" / "dir" / "x.t")}


# (arguments, exit code, a phrase the message must hold); {name} takes a path from `files`.
CASES = [
    ([], 2, "required: command"),
    (["--version"], 0, "dealerless 0."),
    (["chess"], 2, "invalid choice"),
    (["bench", "--sizes", "7"], 2, "--sizes"),
    (["bench", "--reps", "0"], 2, "--reps"),
    (["selfplay", "--out", "{out}", "--bots", "greedy,random,greedy"], 2, "one bot name, or 2"),
    (["selfplay", "--out", "{out}", "--rules", "bram", "--seats", "3"], 2, "for 2 players only"),
    (["selfplay", "--out", "{out}", "--seats", "9"], 2, "invalid choice"),
    (["selfplay", "--out", "{out}", "--rules", "mexican-train", "--seats", "3", "--set",
      "double-six"], 2, "played with one set (no --set)"),
    (["selfplay", "--out", "{out}", "--rules", "mineshaft", "--seats", "8"], 2,
     "2..4 on double-six"),
    (["selfplay", "--out", "{out}", "--rules", "mineshaft", "--set", "double-ten"], 2,
     "invalid choice"),
    (["host", "--listen", "127.0.0.1:0", "--set", "double-nine", "--bot", "greedy"], 2,
     "the rules bram are played with one set"),
    (["selfplay", "--out", "{out}", "--rules", "mexican-train", "--seats", "3", "--komi", "1"],
     2, "the rules mexican-train have no komi"),
    (["selfplay", "--out", "{out}", "--rules", "chess"], 2, "invalid choice"),
    (["selfplay", "--out", "{out}", "--komi", "1e309"], 2, "out of range"),
    (["selfplay", "--out", "{out}", "--komi", "0.3"], 2, "half number of pips"),
    (["selfplay", "--out", "{nodir}", "--seed", "1"], 2, "cannot write"),
    (["selfplay", "--out", "{out}", "--rules", "mexican-train", "--bots", "strong"], 2,
     "the strong bot plays bram only, not mexican-train"),
    (["selfplay", "--out", "{out}", "--think-ms", "20"], 2,
     "--think-ms is for the strong bot, which is not playing"),
    (["selfplay", "--out", "{out}", "--bots", "strong", "--think-ms", "-1"], 2,
     "milliseconds must be above 0"),
    (["selfplay", "--out", "{out}", "--bots", "strong", "--think-ms", "nan"], 2,
     "milliseconds must be above 0"),
    (["play", "--vs", "greedy", "--think-ms", "5"], 2, "--think-ms is for the strong bot"),
    (["play", "--vs", "strong", "--think-ms", "0"], 2, "milliseconds must be above 0"),
    (["host", "--listen", "127.0.0.1:0", "--rules", "mexican-train", "--bot", "strong"], 2,
     "the strong bot plays bram only, not mexican-train"),
    (["host", "--listen", "127.0.0.1:0", "--bot", "greedy", "--think-ms", "5"], 2,
     "--think-ms is for the strong bot"),
    (["join", "ws://127.0.0.1:9" + TAIL, "--think-ms", "5"], 2,
     "--think-ms is for the strong bot"),
    (["tournament", "--bots", "strong,greedy", "--hands", "0"], 2, "must be at least 1"),
    (["verify"], 2, "required: file"),
    (["verify", "{nodir}"], 2, "cannot read"),
    (["verify", "{garbage}"], 1, ""),
    (["dispute", "{garbage}", "0", "--out", "{out}"], 1, "dispute"),
    (["dispute", "{garbage}", "zero", "--out", "{out}"], 2, "invalid int"),
    (["check-step", "{garbage}"], 1, "not a usable dispute package"),
    (["check-step", "{garbage}", "--state-hash", "zz"], 2, "64 hex digits"),
    (["play"], 2, "needs a terminal"),
    (["play", "--vs", "nobody"], 2, "invalid choice"),
    (["play", "--seat", "5"], 2, "invalid choice"),
    (["host"], 2, "one of the arguments --listen --relay is required"),
    (["host", "--listen", "nohostport"], 2, "HOST:PORT"),
    (["host", "--listen", "127.0.0.1:70000"], 2, "HOST:PORT"),
    (["host", "--listen", "127.0.0.1:0", "--komi", "1000"], 2, "out of range"),
    (["host", "--listen", "127.0.0.1:0", "--komi", "1e309"], 2, "out of range"),
    (["host", "--listen", "127.0.0.1:0", "--komi", "abc"], 2, "not a number of pips"),
    (["host", "--listen", "127.0.0.1:0", "--timeout", "0"], 2, "above 0"),
    (["host", "--listen", "127.0.0.1:0", "--timeout", "inf"], 2, "finite"),
    (["host", "--listen", "127.0.0.1:0", "--timeout", "nan"], 2, "finite"),
    (["host", "--listen", "127.0.0.1:0"], 2, "needs a terminal"),
    (["host", "--relay", "notaurl", "--bot", "greedy"], 2, "not a websocket URL"),
    (["host", "--relay", "ws://127.0.0.1:9/room/abc", "--bot", "greedy"], 2, "not a room URL"),
    (["join"], 2, "required: url"),
    (["join", "notaurl"], 2, "not a websocket URL"),
    (["join", "http://example.invalid/x"], 2, "not a websocket URL"),
    (["join", "ws://127.0.0.1:99999/x"], 2, "Port out of range"),
    (["join", "ws://[::1"], 2, "Invalid IPv6 URL"),
    (["join", "ws://127.0.0.1:9" + TAIL], 1, "connection refused"),  # the network first
    (["join", "ws://127.0.0.1:9/x"], 2, "names no game"),
    (["join", f"ws://127.0.0.1:9/dealerless/{'ab' * 16}"], 2, "lacks the host's pin"),
    (["join", "ws://127.0.0.1:9" + TAIL[:-1]], 2, "the SECRET of this invitation has 21"),
    (["join", "ws://127.0.0.1:9" + TAIL, "--bot", "greedy", "--timeout", "-1"], 2,
     "above 0"),
    (["resume", "*"], 2, "neither a game id"),
    (["resume", "ab" * 40], 2, "neither a game id"),
    (["resume", "abcdef", "--bot", "greedy"], 2, "no local game"),
    (["resume", "{file}", "--bot", "greedy"], 1, "not a dealerless game database"),
    (["games", "--home", "{file}"], 2, "is not a directory"),
    (["--home", "{file}", "games"], 2, "is not a directory"),
    (["export", "*", "{out}"], 2, "neither a game id"),
    (["export", "/no/such/game.txt", "{out}"], 2, "no game database at"),
    (["export", "0123", "{out}"], 2, "no local game"),
    (["relay", "--listen", "127.0.0.1:0", "--chaos-drop", "2"], 2, "probability"),
    (["relay", "--listen", "127.0.0.1:0", "--max-rooms", "0"], 2, "whole number"),
    (["relay", "--listen", "127.0.0.1:0", "--idle", "-5"], 2, "above 0"),
    (["keygen"], 2, "no terminal"),
    (["keygen", "--passphrase-env", "DEALERLESS_NO_SUCH_VAR"], 2, "is not set"),
    (["key"], 2, "required: key_command"),
    (["key", "show"], 1, "no identity key"),
    (["key", "import", "{nodir}"], 1, "cannot read"),
    (["key", "trust", "two words", "ssh-ed25519 AAAA"], 2, "key trust"),
]


@pytest.mark.parametrize(("args", "code", "phrase"), CASES,
                         ids=[" ".join(c[0]) or "(nothing)" for c in CASES])
def test_hostile_arguments(args: list[str], code: int, phrase: str, tmp_path: Path,
                           files: dict[str, str]) -> None:
    got, out, err, _ = dealerless([a.format(**files) for a in args], tmp_path / "home")
    for bad in NOT_SEEN:
        assert bad not in out + err
    assert got == code, (out, err)
    assert phrase in out + err
    if code == 2:
        assert err.strip(), "a usage error says what is wrong"
    assert "invitation" not in out  # nothing here ever gets as far as inviting anyone


def test_a_refused_join_fails_within_seconds_and_names_the_refusal(tmp_path: Path) -> None:
    code, out, err, took = dealerless(["join", "ws://127.0.0.1:1" + TAIL, "--timeout", "300",
                                       "--bot", "greedy"], tmp_path)
    assert code == 1 and took < 10
    assert "connection refused, retrying (1)" in err
    dialled = "ws://127.0.0.1:1" + TAIL.partition("#")[0]
    assert f"cannot connect to {dialled}: connection refused" in err
    assert "#" not in err   # the secret is never shown, nor sent
    assert not any(bad in out + err for bad in NOT_SEEN)


def test_a_malformed_join_url_fails_at_once(tmp_path: Path) -> None:
    code, _, err, took = dealerless(["join", "notaurl"], tmp_path)
    assert code == 2 and took < 2 and "not a websocket URL" in err


def test_an_unreachable_relay_is_reported_before_any_invitation(tmp_path: Path) -> None:
    code, out, err, took = dealerless(["host", "--relay", "ws://127.0.0.1:1", "--bot",
                                       "greedy", "--timeout", "300"], tmp_path)
    assert code == 1 and took < 10 and out == ""
    assert "cannot connect to the relay ws://127.0.0.1:1: connection refused" in err


def test_a_port_in_use_is_a_clear_failure(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for args in (["host", "--listen", f"127.0.0.1:{port}", "--bot", "greedy"],
                     ["relay", "--listen", f"127.0.0.1:{port}"]):
            code, out, err, _ = dealerless(args, tmp_path)
            assert code == 1 and f"cannot listen on 127.0.0.1:{port}" in err
            assert "invitation" not in out and "Traceback" not in err


def test_a_wrong_invitation_is_told_apart_from_a_silent_opponent(tmp_path: Path) -> None:
    """A host and a relay answer a wrong rendezvous id with "no such game", at once."""
    relay = subprocess.Popen([*CLI, "relay", "--listen", "127.0.0.1:0"], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    host = subprocess.Popen([*CLI, "host", "--listen", "127.0.0.1:0", "--bot", "greedy",
                             "--timeout", "30", "--home", str(tmp_path / "host")],
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "DEALERLESS_PASSPHRASE": ""})
    try:
        assert relay.stdout is not None and host.stdout is not None
        line = ""
        while "relay listening on" not in line:
            line = relay.stdout.readline()
        relay_url = line.split()[3].split("/room/")[0]
        invitation = host.stdout.readline().split()[-1]
        base, _, secret = invitation.partition("#")
        wrong = [f"{base[:-4]}0000#{secret}", f"{relay_url}/room/{'0' * 32}#{secret}"]
        for url in wrong:
            code, _, err, took = dealerless(["join", url, "--bot", "greedy", "--timeout",
                                             "300"], tmp_path / "joiner")
            assert code == 1 and took < 10, err
            assert "no such game at this address (wrong invitation?)" in err
        code, _, err, _ = dealerless(["join", invitation], tmp_path / "joiner")
        assert code == 2 and "a person's seat needs a terminal; add --bot NAME" in err
    finally:
        for proc in (relay, host):
            proc.kill()
            proc.wait(10)


def test_an_encrypted_key_is_unlocked_before_the_invitation(tmp_path: Path) -> None:
    home = tmp_path / "home"
    pw = {"DEALERLESS_PASSPHRASE": "correct horse"}
    assert dealerless(["keygen"], home, env=pw)[0] == 0
    code, out, err, _ = dealerless(["host", "--listen", "127.0.0.1:0", "--bot", "greedy"],
                                   home)
    assert code == 1 and out == ""
    assert "protected by a passphrase" in err and "DEALERLESS_PASSPHRASE" in err
    code, out, err, _ = dealerless(["host", "--listen", "127.0.0.1:0", "--bot", "greedy"],
                                   home, env={"DEALERLESS_PASSPHRASE": "wrong"})
    assert code == 1 and out == "" and "wrong passphrase" in err


def test_help_documents_the_passphrase_variable(tmp_path: Path) -> None:
    for args in (["--help"], ["host", "--help"], ["join", "--help"], ["keygen", "--help"]):
        code, out, _, _ = dealerless(args, tmp_path)
        assert code == 0 and "DEALERLESS_PASSPHRASE" in out


def test_the_full_game_id_from_games_json_works_with_export_and_resume(tmp_path: Path) -> None:
    from test_network import config

    home = tmp_path / "home"
    a, b = MemoryLink.pair()

    async def play() -> None:
        host = dataclasses.replace(config(tmp_path, HOST), games_dir=home / "games")
        await asyncio.gather(Peer(a, host).run(), Peer(b, config(tmp_path, JOIN)).run())
    asyncio.run(play())
    code, out, _, _ = dealerless(["games", "--json"], home)
    [game] = json.loads(out)
    full = game["game_id"]
    assert code == 0 and len(full) == 64
    for name in (full, full[:17], full.upper(), full[:5]):
        code, out, err, _ = dealerless(["export", name, str(tmp_path / "g.t")], home)
        assert code == 0 and out.startswith("wrote "), err
        code, out, err, _ = dealerless(["resume", name], home)
        assert code == 0 and "already over" in out + err, err
    code, _, err, _ = dealerless(["export", full[:-1] + ("0" if full[-1] != "0" else "1"),
                                  str(tmp_path / "g.t")], home)
    assert code == 2 and "no local game" in err
    code, _, err, _ = dealerless(["--home", str(home), "export", full, str(tmp_path / "h.t")],
                                 tmp_path / "elsewhere")
    assert code == 0


def test_a_trusted_opponent_is_shown_with_its_fingerprint(tmp_path: Path) -> None:
    """A name alone cannot be read out of band: the fingerprint always comes with it."""
    from peers import keys
    from peers.net.announce import announcer
    from peers.table.driver import SetupEvent
    from protocol.identity import fingerprint
    from protocol.setup import GameSetup

    friend = keys.generate(tmp_path / "friend")
    keys.trust(tmp_path / "home", "alice", friend.public_key)
    from protocol.identity import Identity

    setup = GameSetup.create("bram", {}, [Identity(os.urandom(32)).public_key,
                                          friend.public_key],
                             [os.urandom(32), os.urandom(32)])
    seen: list[object] = []
    config = type("Config", (), {"notify": staticmethod(seen.append)})()
    store = type("Store", (), {"seat": 0, "meta": lambda self, key, default="": default})()
    announcer(tmp_path / "home", config)(setup, store)  # type: ignore[arg-type]
    [event] = seen
    assert isinstance(event, SetupEvent)
    assert event.opponent == f"known as alice ({fingerprint(friend.public_key)})"


def test_an_invitation_never_names_the_wildcard_address(tmp_path: Path) -> None:
    code, out, err, _ = dealerless(["host", "--listen", "0.0.0.0:0", "--bot", "greedy",
                                    "--timeout", "0.5"], tmp_path)
    invitation = out.splitlines()[0]
    assert code == 3 and invitation.startswith("invitation: dealerless join ws://")
    assert "0.0.0.0" not in invitation
    # Either one of this machine's addresses, with the advice to check it, or HOST to fill in.
    assert "replace" in err and ("HOST" in err) == ("ws://HOST:" in invitation)


def test_reachable_hosts_lists_this_machines_own_addresses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from peers.net import launch

    def fake(host: str, port: object, family: int, kind: int) -> list[tuple[object, ...]]:
        return [(family, kind, 6, "", (a, 0)) for a in
                ("127.0.1.1", "192.0.2.7", "192.0.2.7", "fe80::1", "2001:db8::5", "::1")]
    monkeypatch.setattr(launch.socket, "getaddrinfo", fake)
    assert launch.reachable_hosts("0.0.0.0") == ["192.0.2.7", "2001:db8::5"]
    url, note = launch.invitation("0.0.0.0", 8765, "/dealerless/ab")
    assert url == "ws://192.0.2.7:8765/dealerless/ab"
    assert note is not None and "2001:db8::5" in note and "replace" in note
    assert launch.invitation("127.0.0.1", 8765, "/x") == ("ws://127.0.0.1:8765/x", None)


def test_output_cut_off_by_the_reader_is_no_traceback() -> None:
    """`dealerless verify g.t | head -1`: the reader closes the pipe early."""
    golden = Path(__file__).resolve().parent.parent / "spec" / "vectors" / "transcripts"
    proc = subprocess.run(
        f"{sys.executable} -m peers.cli verify {golden / 'mexican-train-3.transcript'} "
        "| head -1; exit ${PIPESTATUS[0]}", shell=True, executable="/bin/bash",
        capture_output=True, text=True, timeout=60)
    assert proc.stdout.startswith("rules mexican-train")
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
