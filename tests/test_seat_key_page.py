"""The seat page's key panel, as a person uses it (issue 33, spec/12-peers.md 12.9): a
key made under a passphrase is exported as the CLI's OpenSSH file, and a key the CLI
made is imported and becomes the page's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from playwright.sync_api import expect

from tests.test_seat_files import relay  # noqa: F401  (a relay serving /seat/)
from tests.test_seat_keys import cli
from tests.webpage import browser  # noqa: F401  (the module's Chromium)


def fingerprint(page: Any) -> str:
    return str(page.locator("#key-facts dd").first.inner_text())


def test_a_key_made_under_a_passphrase_exports_and_a_cli_key_imports(
        browser: Any, relay: str, tmp_path: Path) -> None:  # noqa: F811
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{relay}/seat/")
    page.wait_for_selector("#key-facts dd")
    assert "no: it never leaves this browser" in page.inner_text("#key-facts")
    assert page.locator("#export-form").is_hidden()

    first = fingerprint(page)
    page.fill("#new-key-form input[name=passphrase]", "page pass")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-key-form button[type=submit]")
    expect(page.locator("#key-facts dd").first).not_to_have_text(first)
    made = fingerprint(page)
    assert "yes, under its passphrase" in page.inner_text("#key-facts")
    assert made in page.inner_text("header")

    page.fill("#export-form input[name=passphrase]", "page pass")
    with page.expect_download() as download:
        page.click("#export-form button[type=submit]")
    exported = Path(download.value.path()).read_bytes()
    key = serialization.load_ssh_private_key(exported, b"page pass")
    public = key.public_key().public_bytes(serialization.Encoding.OpenSSH,
                                           serialization.PublicFormat.OpenSSH)
    assert public.decode() in page.inner_text("#key-facts")
    home = tmp_path / "cli"
    (tmp_path / "id").write_bytes(exported)
    assert cli("key", "import", str(tmp_path / "id"), home=home,
               passphrase="page pass").returncode == 0
    assert made in cli("key", "show", home=home).stdout

    other = tmp_path / "other"
    assert cli("keygen", "--no-passphrase", home=other).returncode == 0
    theirs = cli("key", "show", home=other).stdout
    page.set_input_files("#import-form input[name=file]", str(other / "keys" / "id_ed25519"))
    page.click("#import-form button[type=submit]")
    expect(page.locator("#key-facts dd").first).not_to_have_text(made)
    assert fingerprint(page) in theirs
    assert errors == []
