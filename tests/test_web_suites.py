"""The page's ciphersuite, through the server's own API (spec/12-peers.md 12.8.2; issue
31): the lobby names the suites and the one `dealerless web --suite` offers first, a
table against bots is played in the suite asked for (the default else), and a suite that
is none of 3.5's is a 400."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from webpage import free_port

from peers.web.security import TOKEN_HEADER
from peers.web.server import make_app
from protocol.identity import Identity
from protocol.suite import SUITE_NAMES

TOKEN = "t" * 48


@pytest.mark.asyncio
async def test_the_lobby_offers_the_suites_and_a_table_plays_the_one_asked_for(
        tmp_path: Path) -> None:
    port = free_port()
    app = make_app(tmp_path, Identity(bytes(range(32))), TOKEN, port, "edwards25519-sha512")
    server = TestServer(app, host="127.0.0.1", port=port)
    await server.start_server()
    client = TestClient(server)
    headers = {TOKEN_HEADER: TOKEN, "Host": f"127.0.0.1:{server.port}"}
    tables = app["tables"]
    try:
        lobby = await (await client.get("/api/lobby", headers=headers)).json()
        assert lobby["suites"] == list(SUITE_NAMES) and lobby["suite"] == "edwards25519-sha512"
        for asked, played in ((None, "edwards25519-sha512"),   # `web --suite`'s
                              ("bls12381g1-sha256", "bls12381g1-sha256")):
            body = {"rules": "bram", "seats": 2, **({"suite": asked} if asked else {})}
            r = await client.post("/api/play", json=body, headers=headers)
            assert r.status == 200, await r.text()
            ws = tables.get((await r.json())["table"])
            assert ws.game.setup.suite_name == played and ws.setup["suite"] == played
            assert ws.snapshot()["suite"] == played
            await ws.stop()
        for path, body in (("/api/play", {"rules": "bram", "suite": "p256-sha256"}),
                           ("/api/host", {"rules": "bram", "suite": "p256-sha256"}),
                           ("/api/join", {"invitation": "x", "suite": 5})):
            r = await client.post(path, json=body, headers=headers)
            assert r.status == 400, await r.text()
        r = await client.post("/api/play", json={"rules": "bram", "suite": "p256-sha256"},
                              headers=headers)
        assert "unknown suite 'p256-sha256'" in (await r.json())["error"]
    finally:
        await client.close()


def test_a_join_whose_suite_is_empty_plays_the_hosts() -> None:
    """12.8.2 /api/join: `suite` "" (or none) means the host's, as a join hello's "" does
    (12.3); a table the page starts takes the page's suite for it."""
    from types import SimpleNamespace
    from typing import Any, cast

    from peers.web.api import Api

    api = cast(Api, SimpleNamespace(tables=SimpleNamespace(suite="bls12381g1-sha256")))
    assert Api._suite(api, {"suite": ""}) is None and Api._suite(api, {}) is None
    assert Api._suite(api, {"suite": "ristretto255-sha512"}) == "ristretto255-sha512"
    assert Api._table_suite(cast(Any, SimpleNamespace(
        tables=SimpleNamespace(suite="bls12381g1-sha256"),
        _suite=lambda data: Api._suite(api, data))), {"suite": ""}) == "bls12381g1-sha256"
