"""A match in the page keeps every round's transcript (issue 28: a round's Download,
clicked after the next round began, gave a 404). Driven through the server's own API,
with the person's picks made by the test."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from webpage import free_port

from peers.table.selfplay import rule_params
from peers.web.security import TOKEN_HEADER
from peers.web.server import make_app
from protocol.identity import Identity
from protocol.verifier import replay


@pytest.mark.asyncio
async def test_every_round_of_a_match_stays_downloadable(tmp_path: Path) -> None:
    port = free_port()
    app = make_app(tmp_path, Identity(bytes(range(32))), "t" * 48, port)
    server = TestServer(app, host="127.0.0.1", port=port)
    await server.start_server()
    client = TestClient(server)
    tables = app["tables"]
    ws = tables.play_bots("mineshaft", rule_params("mineshaft", 2), 0, ["greedy"], None,
                          match=True)
    headers = {TOKEN_HEADER: "t" * 48, "Host": f"127.0.0.1:{server.port}"}
    try:
        async with asyncio.timeout(240):
            while len(ws.rounds) < 2:   # play the person's seat: the first legal move
                if ws.asked and ws.view and ws.view["legal"]:
                    assert ws.pick(ws.view["legal"][0]["id"]) is None
                await asyncio.sleep(0.01)
        # The first round is over and the second has begun: both are still served.
        for index in (0, 1):
            r = await client.get(f"/api/tables/{ws.id}/rounds/{index}/transcript",
                                 headers=headers)
            assert r.status == 200, await r.text()
            verdict = replay(await r.read())
            assert verdict.valid and verdict.complete
        missing = await client.get(f"/api/tables/{ws.id}/rounds/9/transcript",
                                   headers=headers)
        assert missing.status == 404
    finally:
        await ws.stop()
        await client.close()
