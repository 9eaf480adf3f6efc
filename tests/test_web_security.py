"""The local web server is an attack surface (spec/12-peers.md 12.8): every refusal below
is a 4xx with one sentence, never a traceback, and the peer goes on serving its person."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from webpage import CLI, Seat, WebPeer, browser, free_port, wait_for
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from peers.entropy import Entropy
from peers.store.games import GameStore
from peers.table.selfplay import Table
from protocol.identity import Identity
from protocol.match import encode_match, link_of
from protocol.setup import GameSetup

__all__ = ["browser"]  # the fixture, imported for the tests below


@pytest.fixture(scope="module")
def peer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebPeer]:
    running = WebPeer(tmp_path_factory.mktemp("web") / "home")
    yield running
    running.stop()


def call(peer: WebPeer, path: str, token: str | None = "", host: str | None = None,
         method: str = "GET", body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    request = urllib.request.Request(peer.origin + path, data=body, method=method,
                                     headers=headers or {})
    if token is not None:
        request.add_header("X-Dealerless-Token", token or peer.token)
    if host is not None:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, head, data = response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        status, head, data = error.code, dict(error.headers), error.read()
    text = data.decode("utf-8", "replace")
    assert "Traceback" not in text
    try:
        return status, head, json.loads(text)
    except ValueError:
        return status, head, text


def test_the_api_needs_the_launch_token(peer: WebPeer) -> None:
    assert call(peer, "/api/lobby")[0] == 200
    for token in (None, "0" * 48, peer.token[:-1]):
        status, _, body = call(peer, "/api/lobby", token=token)
        assert status == 401 and "token" in body["error"]


def test_a_wrong_host_header_is_refused(peer: WebPeer) -> None:
    port = peer.origin.rsplit(":", 1)[1]
    for host in (f"evil.example:{port}", "127.0.0.1:1", f"127.0.0.1.nip.io:{port}"):
        for path in ("/", "/api/lobby", "/static/app.js"):
            status, _, body = call(peer, path, host=host)
            assert status == 421 and "Host" in body["error"], (host, path)


def test_a_websocket_needs_the_token_and_this_servers_origin(peer: WebPeer) -> None:
    ws_url = peer.origin.replace("http://", "ws://") + "/ws"
    with connect(f"{ws_url}?token={peer.token}", origin=peer.origin) as ws:
        ws.send(json.dumps({"type": "watch", "table": "none"}))
        assert json.loads(ws.recv(10))["type"] == "refused"
    refusals = [(f"{ws_url}?token={peer.token}", "http://evil.example", 403),
                (f"{ws_url}?token={peer.token}", None, 403),
                (f"{ws_url}?token=nope", peer.origin, 401), (ws_url, peer.origin, 401)]
    for url, origin, code in refusals:
        with pytest.raises(InvalidStatus) as refused:
            connect(url, origin=origin)
        assert refused.value.response.status_code == code


def test_every_answer_carries_a_strict_content_security_policy(peer: WebPeer) -> None:
    for path in ("/", "/static/app.js", "/api/lobby"):
        _, head, _ = call(peer, path)
        csp = head["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert head["X-Content-Type-Options"] == "nosniff"


def test_bad_requests_get_a_sentence_and_a_4xx(peer: WebPeer) -> None:
    cases = [("/api/play", b"{not json"), ("/api/play", b"[]"),
             ("/api/play", json.dumps({"rules": "chess"}).encode()),
             ("/api/play", json.dumps({"rules": "bram", "seats": 9}).encode()),
             ("/api/play", json.dumps({"rules": "bram", "komi": "lots"}).encode()),
             ("/api/join", json.dumps({"invitation": "hello there"}).encode()),
             ("/api/join", json.dumps({"invitation": "dealerless join ftp://x"}).encode())]
    for path, body in cases:
        status, _, answer = call(peer, path, method="POST", body=body,
                                 headers={"Content-Type": "application/json"})
        assert status == 400 and isinstance(answer["error"], str), (path, body, answer)
    status, _, answer = call(peer, "/api/games/nosuchgame/transcript")
    assert status == 404 and "no" in answer["error"]
    big = os.urandom(9 << 20)
    assert call(peer, "/api/verify", method="POST", body=big)[0] == 413
    assert call(peer, "/api/lobby")[0] == 200   # still serving


def test_random_bytes_uploaded_get_a_clear_verdict(browser: Any, peer: WebPeer,
                                                   tmp_path: Path) -> None:
    junk = tmp_path / "junk.transcript"
    junk.write_bytes(os.urandom(3000))
    seat = Seat(browser, peer)
    seat.page.set_input_files("#verify-form input[type=file]", str(junk))
    seat.page.click("#verify-form button[type=submit]")
    result = seat.page.wait_for_selector("#verify-result:not([hidden])")
    assert result is not None
    text = result.inner_text()
    assert "INVALID" in text or "not" in text.lower()
    assert "Traceback" not in text
    assert not seat.errors, seat.errors


def test_a_malformed_invitation_is_told_in_the_page(browser: Any, peer: WebPeer) -> None:
    seat = Seat(browser, peer)
    seat.page.fill("#join-form input[name=invitation]", "dealerless join http://nope")
    seat.page.click("#join-form button[type=submit]")
    toast = seat.page.wait_for_selector("#toast:not([hidden])")
    assert toast is not None and "not an invitation" in toast.inner_text()
    assert seat.page.locator("#lobby:not([hidden])").count() == 1


# -- issue 28: the local server's findings, each on a `dealerless web` of its own --------

class Launched(WebPeer):
    """A `dealerless web` run as the tests below need it: in a working directory of its
    own, on a given port, with the browser it opens, and its log kept for a traceback."""

    def __init__(self, home: Path, cwd: Path | None = None, port: int = 0,
                 browser_cmd: str | None = None) -> None:  # not WebPeer's: its own launch
        self.home = home
        self.log = home.with_suffix(".log")
        env = {k: v for k, v in os.environ.items() if k != "DEALERLESS_PASSPHRASE"}
        args = ["web", "--home", str(home), "--port", str(port)]
        if browser_cmd is None:
            args.append("--no-open")
        else:
            env["BROWSER"] = browser_cmd
        self.proc = subprocess.Popen([*CLI, *args], stdout=self.log.open("wb"),
                                     stderr=subprocess.STDOUT, env=env, cwd=cwd)
        self.url = wait_for(r"your table is at (\S+)", self.log)
        self.origin = self.url.split("/#")[0]
        self.token = self.url.split("#token=")[1]

    def text(self) -> str:
        return self.log.read_text()


def no_traceback(peer: WebPeer) -> None:
    log = peer.log.read_text()
    assert "Traceback" not in log, log


def made_game(where: Path, n: int) -> Path:
    """A stored game (no frames) in `where`, as `dealerless host` would leave it."""
    me, them = Identity(bytes(31) + bytes([n])), Identity(bytes(31) + bytes([n + 1]))
    setup = GameSetup.create("bram", {}, [me.public_key, them.public_key], [bytes(32)] * 2)
    store = GameStore.create(where, setup, 0, bytes(32),
                             {"role": "host", "url": "ws://127.0.0.1:9/room/x"})
    store.close()
    return store.path


def test_a_game_is_named_by_its_id_alone(tmp_path: Path) -> None:
    """Issue 28: a game name was a path: `DELETE /api/games/..%2F..%2Fsomefile` deleted
    a file outside the games folder, and a transcript or resume read one there."""
    cwd = tmp_path / "work" / "dir"
    cwd.mkdir(parents=True)
    home = tmp_path / "home"
    inside = made_game(home / "games", 1)
    outside = made_game(tmp_path / "outside", 3)
    (home / "games" / f"{'ab' * 8}.sqlite").symlink_to(outside)
    bystanders = [tmp_path / "work" / "somefile", cwd / "other.sqlite", home / "other.sqlite"]
    for file in bystanders:
        file.write_text("not yours to delete")
    peer = Launched(home, cwd=cwd)
    try:
        game = inside.stem
        assert call(peer, f"/api/games/{game}/transcript")[0] == 200   # an id is fine
        names = ["..%2Fsomefile", "..%2F..%2Fsomefile", "other.sqlite", "..%2Fother.sqlite",
                 "%2E%2E%2Fother.sqlite", urllib.parse.quote(str(outside), safe=""),
                 urllib.parse.quote(f"../../outside/{outside.name}", safe=""),
                 "ab" * 8, "abab%00", "abab.sqlite"]
        for name in names:
            for method, path in (("DELETE", f"/api/games/{name}"),
                                 ("GET", f"/api/games/{name}/transcript"),
                                 ("POST", f"/api/games/{name}/resume")):
                status, _, answer = call(peer, path, method=method)
                assert status == 404 and isinstance(answer["error"], str), (method, path)
        for file in bystanders:
            assert file.read_text() == "not yours to delete", file
        assert outside.exists() and inside.exists()
        assert call(peer, f"/api/games/{game}", method="DELETE")[0] == 200
        assert not inside.exists()
        no_traceback(peer)
    finally:
        peer.stop()


BROWSER_SCRIPT = """#!{python}
import json, sys
with open({out!r}, "a") as f:
    f.write(json.dumps(sys.argv) + "\\n")
"""


def test_the_browser_is_opened_without_the_token(browser: Any, tmp_path: Path) -> None:
    """Issue 28: the browser's command line held `#token=...`, readable by every local
    user in /proc/PID/cmdline. It is opened on a one-time code the page trades once."""
    record = tmp_path / "argv.jsonl"
    script = tmp_path / "record-browser"
    script.write_text(BROWSER_SCRIPT.format(python=sys.executable, out=str(record)))
    script.chmod(0o755)
    peer = Launched(tmp_path / "home", browser_cmd=str(script))
    try:
        deadline = time.monotonic() + 30
        while not record.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        argv = json.loads(record.read_text().splitlines()[0])
        assert argv[0] == str(script) and len(argv) == 2
        assert all(peer.token not in arg for arg in argv), argv
        opened = argv[1]
        assert opened.startswith(peer.origin + "/#code="), opened
        code = opened.split("#code=")[1]
        assert "token" not in opened

        seat = Seat(browser, peer, url=opened)   # the lobby works from the code
        seat.page.wait_for_selector("#play-form select[name=rules] option", state="attached")
        assert seat.page.evaluate("location.hash") == f"#token={peer.token}"
        assert not seat.errors, seat.errors
        seat.close()

        body = json.dumps({"code": code}).encode()
        json_type = {"Content-Type": "application/json"}
        for headers in ({**json_type, "Origin": peer.origin}, json_type,
                        {**json_type, "Origin": "http://evil.example"}):
            status, _, answer = call(peer, "/api/code", token=None, method="POST", body=body,
                                     headers=headers)
            assert status == 403 and "token" not in answer, (headers, answer)
        assert "used a second time" in peer.text()
        again = Seat(browser, peer, url=opened)    # a used code opens nothing
        again.page.wait_for_selector("#fatal:not([hidden])")
        again.close()
        no_traceback(peer)
    finally:
        peer.stop()


def test_a_wrong_one_time_code_gives_no_token(peer: WebPeer) -> None:
    for body in (b'{"code": "00"}', b'{"code": ["x"]}', b"[]", b"nope", b"{}"):
        status, _, answer = call(peer, "/api/code", token=None, method="POST", body=body,
                                 headers={"Origin": peer.origin})
        assert status == 403 and "token" not in answer, (body, answer)


def test_outsized_numbers_and_deep_json_get_a_400(peer: WebPeer) -> None:
    """Issue 28: these were a 500 with a traceback in the log."""
    json_type = {"Content-Type": "application/json"}
    huge = 10 ** 400
    cases = [("/api/play", b"[" * 100_000 + b"]" * 100_000),
             ("/api/play", b'{"a": ' * 100_000 + b"1" + b"}" * 100_000),
             ("/api/play", json.dumps({"rules": "bram", "komi": huge}).encode()),
             ("/api/play", json.dumps({"rules": "bram", "komi": 1e308}).encode()),
             ("/api/play", json.dumps({"rules": "bram", "komi": -1e308}).encode()),
             ("/api/play", json.dumps({"rules": "bram", "komi": 1e307}).encode()),
             ("/api/play", b'{"rules": "bram", "komi": 1e400}'),
             ("/api/play", b'{"rules": "bram", "komi": NaN}'),
             ("/api/play", json.dumps({"rules": "bram", "think_ms": huge}).encode()),
             ("/api/play", json.dumps({"rules": "bram", "seats": huge}).encode()),
             ("/api/play", json.dumps({"rules": "bram", "seat": huge}).encode()),
             ("/api/host", json.dumps({"rules": "bram", "timeout": huge}).encode()),
             ("/api/join", json.dumps({"invitation": "x", "timeout": huge}).encode())]
    for path, body in cases:
        status, _, answer = call(peer, path, method="POST", body=body, headers=json_type)
        assert status == 400 and isinstance(answer["error"], str), (path, body[:60], answer)
    assert call(peer, "/api/lobby")[0] == 200
    no_traceback(peer)


def raw(peer: WebPeer, request: bytes) -> tuple[int, dict[str, str], str]:
    """One request sent as it is written (no client adds a Host to it)."""
    port = int(peer.origin.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.decode("utf-8", "replace").partition("\r\n\r\n")
    status_line, *lines = head.split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


def test_a_request_without_a_host_is_refused_quietly(peer: WebPeer) -> None:
    """Issue 28: an HTTP/1.1 request with no Host logged a traceback. HTTP/1.0 may omit
    Host: 421 from the guard. HTTP/1.1 must not (RFC 9112 3.2): aiohttp's parser answers
    400 before any handler runs, and that is now one quiet line, not a traceback."""
    status, headers, body = raw(peer, b"GET /api/lobby HTTP/1.0\r\n\r\n")
    assert status == 421 and "Host" in json.loads(body)["error"]
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    for request in (b"GET / HTTP/1.1\r\n\r\n", b"GET /api/lobby HTTP/1.1\r\nX: y\r\n\r\n",
                    b"POST /api/play HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"):
        assert raw(peer, request)[0] == 400, request
    time.sleep(0.2)   # the log line is written after the answer
    assert call(peer, "/api/lobby")[0] == 200
    no_traceback(peer)


SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                    "Cache-Control": "no-store", "X-Frame-Options": "DENY"}


def secured(headers: dict[str, str]) -> bool:
    csp = headers.get("Content-Security-Policy", "")
    return "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and \
        all(headers.get(k) == v for k, v in SECURITY_HEADERS.items())


def test_every_refusal_and_error_carries_the_security_headers(peer: WebPeer) -> None:
    """Issue 28: 401, 404, 421 and 500 answers carried no CSP: the headers were added
    only to what a handler returned."""
    port = peer.origin.rsplit(":", 1)[1]
    json_type = {"Content-Type": "application/json"}
    cases = [("/api/lobby", None, None, "GET", None, {}, 401),
             ("/api/lobby", "", f"evil.example:{port}", "GET", None, {}, 421),
             ("/api/lobby", "", None, "GET", None, {"Origin": "http://evil.example"}, 403),
             ("/api/games/zz/transcript", "", None, "GET", None, {}, 404),
             ("/nothing/here", "", None, "GET", None, {}, 404),
             ("/static/nothing.js", "", None, "GET", None, {}, 404),
             ("/api/play", "", None, "GET", None, {}, 405),
             ("/api/play", "", None, "POST", b"[", json_type, 400),
             ("/api/verify", "", None, "POST", bytes(9 << 20), {}, 413)]
    for path, token, host, method, body, headers, code in cases:
        status, head, _ = call(peer, path, token=token, host=host, method=method, body=body,
                               headers=headers)
        assert status == code and secured(head), (path, status, head)


def test_an_internal_error_carries_the_security_headers(tmp_path: Path) -> None:
    """A 500 (a bug in a handler) is sent with the same headers as any answer."""
    from aiohttp import ClientSession, web

    from peers.web.server import make_app

    async def run() -> tuple[int, dict[str, str]]:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        app = make_app(tmp_path, Identity(bytes(32)), "t" * 48, port)

        async def broken(_request: web.Request) -> web.Response:
            raise RuntimeError("a bug")
        app.router.add_get("/broken", broken)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.SockSite(runner, sock).start()
        try:
            async with ClientSession() as session, \
                    session.get(f"http://127.0.0.1:{port}/broken") as response:
                return response.status, dict(response.headers)
        finally:
            await runner.cleanup()

    with ThreadPoolExecutor(1) as thread:   # Playwright holds this thread's event loop
        status, headers = thread.submit(asyncio.run, run()).result()
    assert status == 500 and secured(headers), headers


def test_open_websockets_are_capped_and_released(tmp_path: Path) -> None:
    """Issue 28: 3,000 websockets were held, and the memory they took stayed after they
    closed. At most MAX_SOCKETS are open at once; one more is refused with a sentence."""
    from peers.web.api import MAX_SOCKETS

    peer = Launched(tmp_path / "home")
    ws_url = f"{peer.origin.replace('http://', 'ws://')}/ws?token={peer.token}"
    try:
        def rss() -> int:
            status = Path(f"/proc/{peer.proc.pid}/status").read_text()
            return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]

        def fill(stack: ExitStack) -> list[Any]:
            deadline = time.monotonic() + 10
            while True:   # a socket just closed may take a moment to be let go
                try:
                    with ExitStack() as trying:
                        held = [trying.enter_context(connect(ws_url, origin=peer.origin))
                                for _ in range(MAX_SOCKETS)]
                        stack.push(trying.pop_all())
                        return held
                except InvalidStatus:
                    assert time.monotonic() < deadline, "closed websockets were kept"
                    time.sleep(0.1)

        for round_ in range(12):
            stack = ExitStack()
            held = fill(stack)
            if round_ == 0:
                with pytest.raises(InvalidStatus) as refused:
                    connect(ws_url, origin=peer.origin)
                assert refused.value.response.status_code == 503
                assert b"pages are open" in (refused.value.response.body or b"")
                assert call(peer, "/api/lobby")[0] == 200   # HTTP still served
            with stack:
                for ws in held:
                    ws.send(json.dumps({"type": "watch", "table": "none"}))
                    assert json.loads(ws.recv(10))["type"] == "refused"
            if round_ == 1:
                settled = rss()
        grown = rss() - settled
        assert grown < 8 << 10, f"RSS grew by {grown} KiB over 10 rounds of websockets"
        no_traceback(peer)
    finally:
        peer.stop()


def test_a_killed_server_listens_on_its_port_again_at_once(tmp_path: Path) -> None:
    """Issue 28: after `kill -9` with a connection open, the port was refused for a
    minute (TIME_WAIT); with SO_REUSEADDR the server starts on it again at once."""
    port = free_port()
    first = Launched(tmp_path / "one", port=port)
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    client.request("GET", "/api/lobby", headers={"X-Dealerless-Token": first.token})
    assert client.getresponse().read() and first.proc.poll() is None  # kept alive
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(10)
    client.close()   # the server's end closed first: it is the one in TIME_WAIT
    second = Launched(tmp_path / "two", port=port)
    try:
        assert second.origin == f"http://127.0.0.1:{port}"
        assert call(second, "/api/lobby")[0] == 200
    finally:
        second.stop()


def cli_text(path: Path) -> str:
    done = subprocess.run([*CLI, "verify", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode in (0, 1, 2, 3) and done.stdout, done
    return done.stdout


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One file of each kind a person may verify."""
    where = tmp_path_factory.mktemp("kinds")
    vectors = Path(__file__).parent.parent / "spec" / "vectors"
    game = (vectors / "transcripts" / "mineshaft-4.transcript").read_bytes()
    entropy = Entropy(5)
    seats = [Identity(entropy.bytes(f"identity {i}")) for i in range(2)]
    rounds: list[bytes] = []
    lead = -1
    for number in (6, 5):
        params = {"set": "double-six", "seats": 2, "long": True, "round": number,
                  "after": link_of(rounds[-1]) if rounds else "", "first": lead}
        table = Table.create("mineshaft", params, ("greedy", "random"), entropy, seats)
        rounds.append(table.play().encode())
        if lead == -1:
            lead = table.referees[0].state.first_player
    match = encode_match(rounds)
    cut_match = json.loads((vectors / "files.json").read_text())["matches"]
    made = {"valid.transcript": (vectors / "transcripts" / "valid.transcript").read_bytes(),
            "cheat.transcript": (vectors / "transcripts" / "false-claim.transcript").read_bytes(),
            "forged.transcript": (vectors / "transcripts" / "bad-signature.transcript")
            .read_bytes(),
            "prefix.transcript": (vectors / "transcripts" / "prefix.transcript").read_bytes(),
            "cut.transcript": game[:-40],           # inside the last frame
            "cut-early.transcript": game[:len(game) // 2 + 3],
            "random.bin": os.urandom(3000),
            "empty.bin": b"",
            "game.match": match,
            "cut.match": match[:len(match) - 100],
            "short-round.match": bytes.fromhex(next(m["file"] for m in cut_match
                                                    if m["name"] == "a round cut short"))}
    for name, data in made.items():
        (where / name).write_bytes(data)
    return {name: where / name for name in made}


def test_the_page_verifies_every_kind_of_file_as_the_cli_does(
        browser: Any, peer: WebPeer, kinds: dict[str, Path]) -> None:
    """Issue 28: a cut file's page verdict said less than `dealerless verify`; the page
    shows the command's text, word for word, for every kind of file."""
    seat = Seat(browser, peer)
    result = "#verify-result"
    for name, path in kinds.items():
        expected = cli_text(path).rstrip("\n")
        if name.startswith("cut"):
            assert "before the cut" in expected, expected
        seat.page.evaluate("document.getElementById('verify-result').hidden = true")
        seat.page.set_input_files("#verify-form input[type=file]", str(path))
        seat.page.click("#verify-form button[type=submit]")
        shown = seat.page.wait_for_selector(f"{result}:not([hidden])", timeout=120_000)
        assert shown is not None
        assert shown.text_content().rstrip("\n") == expected, name
    assert not seat.errors, seat.errors
    seat.close()
    no_traceback(peer)
