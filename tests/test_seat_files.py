"""What a relay serves of the browser seat, and the one-file build the README publishes
(spec/12-peers.md 12.9, issue 33)."""

from __future__ import annotations

import hashlib
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from peers.web.seat_files import code_hash, one_file, seat_files
from tests.webpage import start, wait_for

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("relay") / "relay.log"
    proc = start(["relay", "--listen", "127.0.0.1:0"], log)
    try:
        yield "http://127.0.0.1:" + wait_for(r"relay listening on ws://127\.0\.0\.1:(\d+)", log)
    finally:
        proc.terminate()
        proc.wait(10)


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


def test_the_relay_serves_every_file_of_the_seat_as_it_is(relay: str) -> None:
    files = seat_files()
    for path in ("index.html", "app/main.js", "protocol/shuffle.js", "static/table.js",
                 "vendor/node_modules/libsodium-sumo/dist/modules-sumo-esm/libsodium-sumo.mjs"):
        status, headers, body = get(f"{relay}/seat/{path}")
        assert status == 200 and body == files[path], path
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    status, headers, body = get(f"{relay}/seat/")
    assert status == 200 and body == files["index.html"]
    assert headers["Content-Type"].startswith("text/html")
    assert "'unsafe-inline'" not in headers["Content-Security-Policy"]


def test_a_page_that_holds_a_file_is_not_sent_it_again(relay: str) -> None:
    status, headers, body = get(f"{relay}/seat/app/main.js")
    assert status == 200 and headers["ETag"] == f'"{hashlib.sha256(body).hexdigest()}"'
    request = urllib.request.Request(f"{relay}/seat/app/main.js",
                                     headers={"If-None-Match": headers["ETag"]})
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as held:
        assert held.code == 304 and held.read() == b""
    else:
        raise AssertionError("sent again")


def test_the_manifest_names_what_the_code_hash_covers(relay: str) -> None:
    import json

    status, _, body = get(f"{relay}/seat/manifest.json")
    paths = json.loads(body)
    assert status == 200 and paths == sorted(paths) and "app/main.js" in paths
    assert not [p for p in paths if p.endswith(".html")]
    lines = "".join(f"{hashlib.sha256(get(f'{relay}/seat/{p}')[2]).hexdigest()} {p}\n"
                    for p in paths)
    digest = hashlib.sha256(b"dealerless-seat-code/1\n" + lines.encode()).hexdigest()
    assert digest == code_hash(seat_files())


@pytest.mark.parametrize("path", ["/seat/../pyproject.toml", "/seat/%2e%2e/README.md",
                                  "/seat/nope.js", "/seat/README.md",
                                  "/seat/vendor/pins.json"])
def test_nothing_else_is_served(relay: str, path: str) -> None:
    status, _, body = get(relay + path)
    assert status == 404 and b"no such file of the seat" in body


def test_the_seat_without_its_slash_is_sent_to_it(relay: str) -> None:
    request = urllib.request.Request(f"{relay}/seat")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(request, timeout=10)
    except urllib.error.HTTPError as moved:
        assert moved.code == 301 and moved.headers["Location"] == "/seat/"
    else:
        raise AssertionError("no redirect")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_the_readme_publishes_this_build() -> None:
    """The README's SHA-256 of the one-file build and code hash are this tree's, so a
    change to the seat's code updates them in the same commit."""
    text = README.read_text()
    published = re.search(r"one-file build's SHA-256: `([0-9a-f]{64})`", text)
    shown = re.search(r"code hash: `([0-9a-f]{64})`", text)
    assert published and shown, "the README publishes no SHA-256 or code hash of the seat"
    files = seat_files()
    assert shown.group(1) == code_hash(files), "python -m peers.cli seat FILE prints it"
    assert published.group(1) == hashlib.sha256(one_file(files)).hexdigest()
