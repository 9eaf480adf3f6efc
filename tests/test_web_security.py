"""The local web server is an attack surface (spec/12-peers.md 12.8): every refusal below
is a 4xx with one sentence, never a traceback, and the peer goes on serving its person."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webpage import Seat, WebPeer, browser
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

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
