"""What a relay and a seat read of each other is read strictly (spec/12-peers.md 12.5,
"Entering a room"; issue 29).

`str.isdigit()` takes "²", "١٢" and other Unicode digits: int() refuses the first (an
exception nobody caught: the seat's link task died and the seat waited forever; the relay
logged a traceback and closed with 1011) and reads the second as 12. Each number on these
lines is 1 to 20 ASCII digits below 2^64, an epoch 16 lowercase hex digits, and anything
else is the sender's fault, said in words: a seat of a fresh game exits naming the relay,
the relay closes with 1008 `wrong proof of work`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from relay_helpers import SEED
from test_processes import free_port, start, wait_for
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

import peers.net.link as link_module
from peers.net.link import ClientLink, LinkError
from peers.net.relay import OPEN_ROOM, Limits, Relay
from peers.net.relay_client import EntryError, Place, decimal, enter
from peers.net.relay_room import Room
from protocol.relay_entry import room_key
from protocol.relay_work import solve

CHALLENGE, EPOCH = "ab" * 16, "0123456789abcdef"
#: Digits that str.isdigit() takes and int() reads: Arabic-Indic (U+0660...) and
#: fullwidth (U+FF10...), written as escapes, since they look like ASCII digits.
ARABIC = str.maketrans("0123456789", "".join(chr(0x660 + d) for d in range(10)))
FULLWIDTH = str.maketrans("0123456789", "".join(chr(0xFF10 + d) for d in range(10)))
TWELVE = ("12".translate(ARABIC), "12".translate(FULLWIDTH))


@contextlib.contextmanager
def fake_relay(*lines: str) -> Iterator[int]:
    """A websocket server on a free port that says `lines` to whoever connects, each
    after the seat's answer to the one before, then holds the connection open."""
    ready, port = threading.Event(), free_port()
    loop = asyncio.new_event_loop()
    stop = loop.create_future()

    async def handle(conn: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            for i, line in enumerate(lines):
                if i:
                    await conn.recv()
                await conn.send(line)
            await conn.wait_closed()

    async def main() -> None:
        async with serve(handle, "127.0.0.1", port):
            ready.set()
            await stop

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield port
    finally:
        loop.call_soon_threadsafe(stop.set_result, None)
        thread.join(10)


@pytest.mark.parametrize("line", [f"work {CHALLENGE} ²", f"room {EPOCH} ²"],
                         ids=["work-B", "room-S"])
def test_a_fresh_host_exits_naming_a_relay_that_answers_in_unicode_digits(
        tmp_path: Path, line: str) -> None:
    log = tmp_path / "host.log"
    with fake_relay(line) as port:
        began = time.monotonic()
        host = start(["host", "--relay", f"ws://127.0.0.1:{port}", "--bot", "greedy",
                      "--timeout", "5", "--home", str(tmp_path / "h")], log)
        try:
            code = host.wait(timeout=20)     # before the fix: still silent after 40 s
        finally:
            if host.poll() is None:
                host.kill()
                host.wait()
    out = log.read_text()
    assert code == 1 and time.monotonic() - began < 20, out
    assert f"cannot connect to the relay ws://127.0.0.1:{port}: the relay broke the " \
           f"entry protocol (12.5): its " in out and repr(line) in out, out
    assert "no game was started" in out and "Traceback" not in out, out


def test_a_relay_closes_1008_on_a_unicode_digit_nonce_with_no_traceback(
        tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "relay.log"
    relay = start(["relay", "--listen", f"127.0.0.1:{port}"], log)
    room = os.urandom(16).hex()

    async def answer(nonce: str) -> tuple[int, str]:
        async with connect(f"ws://127.0.0.1:{port}/room/{room}{OPEN_ROOM}") as ws:
            assert str(await asyncio.wait_for(ws.recv(), 5)).startswith("work ")
            await ws.send(nonce)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code, closed.value.rcvd.reason

    async def opens() -> str:   # the relay still serves: a right answer opens the room
        async with connect(f"ws://127.0.0.1:{port}/room/{room}{OPEN_ROOM}") as ws:
            place = Place()
            await enter(ws, f"ws://127.0.0.1:{port}/room/{room}", place, SEED)
            return place.epoch

    try:
        wait_for(r"(relay listening)", log)
        assert asyncio.run(answer("²")) == (1008, "wrong proof of work")  # was 1011
        assert len(asyncio.run(opens())) == 16
    finally:
        relay.terminate()
        relay.wait(10)
    text = log.read_text()
    assert "refused /room/" in text and "wrong proof of work" in text, text
    assert "Traceback" not in text and "handler failed" not in text, text


@pytest.mark.asyncio
@pytest.mark.parametrize("digits", [ARABIC, FULLWIDTH], ids=["arabic-indic", "fullwidth"])
async def test_a_right_nonce_in_other_digits_is_a_wrong_proof_of_work(
        digits: dict[int, int]) -> None:
    """int() reads "١٢" as 12: the old check let the answer in although 12.5 says
    decimal (ASCII digits), so two relays could judge one answer differently."""
    relay = Relay(Limits(work_bits=4))
    server, port = await relay.serve("127.0.0.1", 0)
    room = os.urandom(16).hex()
    try:
        async with connect(f"ws://127.0.0.1:{port}/room/{room}{OPEN_ROOM}") as ws:
            _, challenge, bits = str(await asyncio.wait_for(ws.recv(), 5)).split(" ")
            nonce = solve(bytes.fromhex(challenge), room, int(bits))
            await ws.send(str(nonce).translate(digits))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == \
            (1008, "wrong proof of work")
        assert relay.rooms == {} and relay.stats()["refused"] == {"work": 1}
    finally:
        server.close()


@pytest.mark.parametrize(("text", "value"), [
    ("0", 0), ("007", 7), ("18446744073709551615", (1 << 64) - 1),
    ("18446744073709551616", None), ("123456789012345678901", None), ("", None),
    ("²", None), (TWELVE[0], None), (TWELVE[1], None), ("-1", None), ("+1", None), (" 1", None),
    ("1\n", None), ("1_000", None), ("0x10", None),
])
def test_a_relay_number_is_1_to_20_ascii_digits_below_2_64(text: str,
                                                          value: int | None) -> None:
    assert decimal(text) == value


class Lines:
    """The relay's side of a connection for `enter`: says `lines` in turn, keeps what
    the seat sends."""

    def __init__(self, *lines: str | bytes) -> None:
        self.lines, self.sent = list(lines), []  # type: list[str | bytes], list[Any]

    async def recv(self) -> str | bytes:
        return self.lines.pop(0)

    async def send(self, message: Any) -> None:
        self.sent.append(message)


URL = f"ws://relay.example/room/{'cd' * 16}"


@pytest.mark.asyncio
@pytest.mark.parametrize("lines", [
    (f"work {CHALLENGE} ²",), (f"work {CHALLENGE} ١٦",), (f"work {CHALLENGE} 29",),
    (f"work {CHALLENGE.upper()} 4",), (f"work {CHALLENGE[:-2]} 4",),
    (f"work {CHALLENGE}  4",), (f"work {CHALLENGE} 4 0",), (f"work\t{CHALLENGE} 4",),
    (f"room {EPOCH} ²",), (f"room {EPOCH} ١٢",), (f"room {EPOCH} -1",),
    (f"room {EPOCH} 18446744073709551616",), (f"room {EPOCH.upper()} 0",),
    (f"room {EPOCH}0 0",), ("room 0123456789abcde& 0",), (f"room {EPOCH}",),
    (f"room {EPOCH} 0 ",), (f"room\u00a0{EPOCH} 0",), ("room " + "0" * 80,),
    (b"\x94\xa4done",), ("hello",),
], ids=repr)
async def test_a_seat_refuses_every_entry_line_12_5_does_not_write(
        lines: tuple[str | bytes, ...]) -> None:
    place = Place()
    with pytest.raises(EntryError):
        await enter(Lines(*lines), URL + OPEN_ROOM, place, SEED)
    assert place == Place()    # nothing of the bad line is kept (nor put in a URL)


@pytest.mark.asyncio
async def test_a_seat_enters_on_the_lines_12_5_writes() -> None:
    conn, place = Lines(f"work {CHALLENGE} 4", f"room {EPOCH} 18446744073709551615"), Place()
    await enter(conn, URL + OPEN_ROOM, place, SEED)
    assert conn.sent == [f"{solve(bytes.fromhex(CHALLENGE), 'cd' * 16, 4)} "
                         f"{room_key(SEED).hex()}"]
    assert place == Place(EPOCH, (1 << 64) - 1)
    assert place.url(URL).endswith(f"?from={EPOCH}.18446744073709551615")


@pytest.mark.parametrize("held", ["²", *TWELVE, "", "-1", "18446744073709551616",
                                  "1" * 21])
def test_a_relay_reads_only_ascii_digits_in_from(held: str) -> None:
    room = Room(creator="a", key=room_key(SEED))
    for n in range(20):
        room.append(bytes([n]), 100, 1 << 20)
    assert room.start_for(f"{room.epoch}.12", 1 << 20) == 12
    assert room.start_for(f"{room.epoch}.{held}", 1 << 20) == room.first  # the whole log


@pytest.mark.asyncio
async def test_an_unforeseen_failure_before_first_contact_fails_a_fresh_link(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*_: object) -> None:
        raise ValueError("a bug nobody caught")

    monkeypatch.setattr(link_module, "enter", broken)
    with fake_relay(f"room {EPOCH} 0") as port:
        link = ClientLink(f"ws://127.0.0.1:{port}/room/{'cd' * 16}{OPEN_ROOM}",
                          fail_fast=True, label="the relay R", room_seed=SEED)
        link.start()
        with pytest.raises(LinkError) as failed:
            await asyncio.wait_for(link.wait_connected(), 10)   # before: forever
        await link.close()
    assert str(failed.value) == ("cannot connect to the relay R: unexpected ValueError on "
                                 "the connection to the relay (a bug nobody caught)")
    with pytest.raises(LinkError):
        await link.recv(0.1)


@pytest.mark.asyncio
async def test_an_unforeseen_failure_after_first_contact_is_retried(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """12.5 "Outage and restart": once a link has reached its room, a failed connection
    is the relay being away, and the link reconnects; the move timeout bounds the wait."""
    calls, retries = [], []   # type: list[int], list[str]

    async def flaky(conn: Any, url: str, place: Place, seed: bytes) -> None:
        calls.append(len(calls))
        if len(calls) in (2, 3):
            raise ValueError("a bug nobody caught")
        await enter(conn, url, place, seed)

    monkeypatch.setattr(link_module, "enter", flaky)
    with fake_relay(f"room {EPOCH} 0") as port:
        link = ClientLink(f"ws://127.0.0.1:{port}/room/{'cd' * 16}", fail_fast=True,
                          on_retry=retries.append, room_seed=SEED)
        link.start()
        await asyncio.wait_for(link.wait_connected(), 10)
        assert link.conn is not None
        await link.conn.close()              # the relay goes away once
        for _ in range(250):
            if len(calls) >= 4 and link.connected.is_set():
                break
            await asyncio.sleep(0.02)
        await link.close()
    assert len(calls) >= 4 and link.failure is None
    assert any(r.startswith("unexpected ValueError on the connection to the relay")
               for r in retries), retries
