"""The browser seat's identity key and game store, in Chromium (issue 33;
peers/web/seat/keys/, store/, entropy.js).

The key: made in the page, kept across a reload as a non-extractable WebCrypto key, its
signatures equal to libsodium's, exported as an OpenSSH file the Python (`cryptography`
and `dealerless key import`) reads, and a key the CLI made imported and used. The store:
frames kept across a reload in order, and the transcript file it exports equal to the
golden one byte for byte, which `dealerless verify` judges as before.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization as ser
from nacl.signing import SigningKey

from protocol.transcript import Transcript
from tests.seat_page import ROOT, serving
from tests.webpage import CHROMIUM

CLI = [sys.executable, "-m", "peers.cli"]
GOLDEN = ROOT / "spec" / "vectors" / "suites" / "ristretto255-sha512" / "transcripts"
MESSAGE = b"dealerless/frame-signature/3\x00a payload"

# Run in the page: the seat's modules, and base64 both ways for Playwright's JSON.
PRELUDE = """
const keys = await import("/peers/web/seat/keys/identity_key.js");
const ssh = await import("/peers/web/seat/keys/openssh.js");
const sodium = (await import("/peers/web/seat/vendor/sodium.mjs")).default;
const b64 = (bytes) => sodium.to_base64(bytes, sodium.base64_variants.ORIGINAL);
const unb64 = (text) => sodium.from_base64(text, sodium.base64_variants.ORIGINAL);
const caught = async (fn) => {
  try { await fn(); return null; } catch (e) { return e.code ?? String(e); }
};
"""


STORE = """
const games = await import("/peers/web/seat/store/games.js");
const { GameSetup } = await import("/peers/web/seat/protocol/setup.js");
"""


def js(page: Any, body: str, arg: Any = None) -> Any:
    prelude = PRELUDE + (STORE if "games." in body else "")
    return page.evaluate(f"async (arg) => {{ {prelude} {body} }}", arg)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def cli(*args: str, home: Path, passphrase: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DEALERLESS_PASSPHRASE"}
    if passphrase is not None:
        env["DEALERLESS_PASSPHRASE"] = passphrase
    return subprocess.run([*CLI, "--home", str(home), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def chromium() -> Iterator[tuple[Any, str]]:
    playwright = pytest.importorskip("playwright.sync_api")
    with serving() as origin, playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser, origin
        browser.close()


def open_page(chromium: tuple[Any, str], init_script: str | None = None) -> Any:
    browser, origin = chromium
    context = browser.new_context()   # its own IndexedDB
    if init_script:
        context.add_init_script(init_script)
    tab = context.new_page()
    tab.goto(origin + "/")
    tab.wait_for_function("window.ready === true")
    return tab


@pytest.fixture(scope="module")
def page(chromium: tuple[Any, str]) -> Any:
    return open_page(chromium)


def reload(page: Any) -> None:
    page.reload()
    page.wait_for_function("window.ready === true")


def test_a_key_made_in_the_page_persists_signs_as_libsodium_and_exports(
        page: Any, tmp_path: Path) -> None:
    made = js(page, """
        const summary = await keys.generate({ passphrase: "first pass", force: true });
        const id = await keys.loadIdentity();
        return { webcrypto: await keys.webCryptoEd25519(), summary: summary.toJson(),
                 sig: b64(await id.sign(unb64(arg))),
                 again: await caught(() => keys.generate({ passphrase: "x" })) };
    """, b64(MESSAGE))
    assert made["webcrypto"] and made["summary"]["webcrypto"]
    assert made["summary"]["exportable"] and made["summary"]["encrypted"]
    assert made["again"] == "key/exists"
    reload(page)
    kept = js(page, """
        const id = await keys.loadIdentity();
        const file = await keys.exportPrivate();
        const clear = await keys.exportPrivate({ passphrase: "first pass", newPassphrase: "" });
        const key = await ssh.decodePrivate(clear, null, "export");
        const secret = sodium.crypto_sign_seed_keypair(key.seed).privateKey;
        const unlocked = await keys.unlockIdentity({ passphrase: "first pass" });
        return { sig: b64(await id.sign(unb64(arg))), file: b64(file),
                 protocolSig: b64(unlocked.sign(unb64(arg))),
                 samePublic: sodium.memcmp(unlocked.publicKey, id.publicKey),
                 locked: await caught(() => keys.unlockIdentity()),
                 sodiumSig: b64(sodium.crypto_sign_detached(unb64(arg), secret)),
                 line: await keys.publicLine(), summary: (await keys.show()).toJson(),
                 wrong: await caught(() => keys.exportPrivate({ passphrase: "nope" })) };
    """, b64(MESSAGE))
    # After a reload, by libsodium, by the protocol's Identity: one signature.
    assert kept["sig"] == made["sig"] == kept["sodiumSig"] == kept["protocolSig"]
    assert kept["samePublic"]
    assert kept["wrong"] == kept["locked"] == "key/passphrase"
    exported = base64.b64decode(kept["file"])
    assert exported.startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----\n")
    key = ser.load_ssh_private_key(exported, b"first pass")
    seed = key.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw, ser.NoEncryption())
    assert base64.b64encode(SigningKey(seed).sign(MESSAGE).signature).decode() == kept["sig"]
    path = tmp_path / "exported"
    path.write_bytes(exported)
    path.chmod(0o600)
    assert cli("key", "import", str(path), home=tmp_path / "home",
               passphrase="first pass").returncode == 0
    shown = cli("key", "show", home=tmp_path / "home")
    assert made["summary"]["fingerprint"] in shown.stdout
    assert kept["line"] == kept["summary"]["public_line"]
    assert kept["line"].split()[:2] == shown.stdout.split("public key")[1].split()[:2]


def test_keys_the_cli_made_import_and_sign(page: Any, tmp_path: Path) -> None:
    locked, clear = tmp_path / "locked", tmp_path / "clear"
    assert cli("keygen", "--comment", "cli", home=locked, passphrase="py pass").returncode == 0
    assert cli("keygen", "--no-passphrase", home=clear).returncode == 0
    files = {name: (home / "keys" / "id_ed25519").read_text() for name, home in
             (("locked", locked), ("clear", clear))}
    got = js(page, """
        const [msg, files] = arg;
        const none = await caught(() => keys.importKey(files.locked, { force: true }));
        const wrong = await caught(() => keys.importKey(files.locked,
                                                        { passphrase: "no", force: true }));
        const locked = (await keys.importKey(files.locked,
                                             { passphrase: "py pass", force: true })).toJson();
        const lockedSig = b64(await (await keys.loadIdentity()).sign(unb64(msg)));
        const clear = (await keys.importKey(files.clear, { force: true })).toJson();
        const clearSig = b64(await (await keys.loadIdentity()).sign(unb64(msg)));
        const sealedOff = await caught(() => keys.exportPrivate());
        const other = await caught(() => keys.importKey(files.clear.replace("b3Bl", "AAAA"),
                                                        { force: true }));
        return { none, wrong, locked, lockedSig, clear, clearSig, sealedOff, other };
    """, [b64(MESSAGE), files])
    assert got["none"] == got["wrong"] == "key/passphrase"
    assert got["sealedOff"] == "key/store" and got["other"] == "key/store"
    assert got["locked"]["exportable"] and not got["clear"]["exportable"]
    for name, home in (("locked", locked), ("clear", clear)):
        summary = cli("key", "show", home=home).stdout
        assert got[name]["fingerprint"] in summary
    from peers.keys import load_identity
    for name, home, phrase in (("locked", locked, "py pass"), ("clear", clear, None)):
        seed = load_identity(home, phrase).seed
        want = base64.b64encode(SigningKey(seed).sign(MESSAGE).signature).decode()
        assert got[f"{name}Sig"] == want, name
    assert got["locked"]["public_line"].endswith(" dealerless")  # the CLI keeps "cli" in .pub


def _golden(name: str) -> tuple[bytes, Transcript]:
    data = (GOLDEN / f"{name}.transcript").read_bytes()
    return data, Transcript.decode(data)


def test_the_store_keeps_frames_across_a_reload_and_exports_the_transcript(
        page: Any, tmp_path: Path) -> None:
    data, golden = _golden("valid")
    seed = bytes(range(32))
    stored = js(page, """
        const [setupB64, frames, seed] = arg;
        const setup = GameSetup.decode(unb64(setupB64));
        for (const game of (await games.listGames()).games) await games.deleteGame(game.gameId);
        const store = await games.GameStore.create(setup, 1, unb64(seed),
                                                   { role: "joiner", url: "wss://relay/x" });
        for (const [seq, wire] of frames.entries()) {
            await store.append(seq, unb64(wire), seq === 3 ? new Map([[2, unb64(seed)]]) : null);
        }
        await store.append(5, unb64(frames[5]));   // the same bytes again: nothing changes
        const changed = await caught(() => store.append(5, unb64(frames[6])));
        const gap = await caught(() => store.append(frames.length + 1, unb64(frames[0])));
        const twice = await caught(() => games.GameStore.create(setup, 0, unb64(seed)));
        store.close();
        return { id: sodium.to_hex(setup.gameId), changed, gap, twice };
    """, [b64(golden.setup.encode()), [b64(f) for f in golden.frames], b64(seed)])
    assert stored["changed"] == stored["gap"] == "store/step"
    assert stored["twice"] == "store/exists"
    reload(page)
    back = js(page, """
        const store = await games.GameStore.open(arg);
        const out = { frames: (await store.frames()).map(b64), seat: store.seat,
                      seed: b64(await store.secretSeed()), role: await store.meta("role"),
                      url: await store.meta("url"), count: await store.frameCount(),
                      openings: [...(await store.openings())].map(([s, v]) => [s, b64(v)]),
                      file: b64(await store.exportTranscript()),
                      listed: (await games.listGames()).games };
        await store.rewind(30);
        out.after = [await store.frameCount(), (await store.superseded()).length];
        store.close();
        return out;
    """, stored["id"])
    assert [base64.b64decode(f) for f in back["frames"]] == list(golden.frames)
    assert back["count"] == len(golden.frames) and back["seat"] == 1
    assert base64.b64decode(back["seed"]) == seed
    assert (back["role"], back["url"]) == ("joiner", "wss://relay/x")
    assert back["openings"] == [[2, b64(seed)]]
    assert back["listed"] == [{"gameId": stored["id"], "seat": 1, "status": "in progress",
                               "frames": len(golden.frames), "rules": "bram"}]
    assert back["after"] == [30, len(golden.frames) - 30]
    exported = base64.b64decode(back["file"])
    assert exported == data
    path = tmp_path / "valid.transcript"
    path.write_bytes(exported)
    verdict = cli("verify", str(path), home=tmp_path)
    assert verdict.returncode == 0 and "VALID and complete" in verdict.stdout


def test_a_stopped_game_exports_its_offending_frame_and_evidence(
        page: Any, tmp_path: Path) -> None:
    data, golden = _golden("equivocation")
    exported = base64.b64decode(js(page, """
        const [setupB64, frames, evidence] = arg;
        const setup = GameSetup.decode(unb64(setupB64));
        const store = await games.GameStore.create(setup, 0, new Uint8Array(32));
        for (const [seq, wire] of frames.slice(0, -1).entries()) {
          await store.append(seq, unb64(wire));
        }
        await store.recordViolation(unb64(frames.at(-1)), evidence.map(unb64), "violation");
        const file = b64(await store.exportTranscript());
        store.close();
        await games.deleteGame(setup.gameId);
        return file;
    """, [b64(golden.setup.encode()), [b64(f) for f in golden.frames],
          [b64(e) for e in golden.evidence]]))
    assert exported == data
    path = tmp_path / "equivocation.transcript"
    path.write_bytes(exported)
    verdict = cli("verify", str(path), home=tmp_path)
    assert verdict.returncode == 1 and "frame/equivocation" in verdict.stdout


def test_entropy_is_the_python_stream_when_seeded(page: Any) -> None:
    from peers.entropy import Entropy
    got = js(page, """
        const { Entropy } = await import("/peers/web/seat/entropy.js");
        const seeded = new Entropy(-5n);
        const fresh = new Entropy();
        return [sodium.to_hex(seeded.bytes("a", 8)), sodium.to_hex(seeded.bytes("b", 40)),
                fresh.seeded, fresh.bytes("x", 70000).length];
    """)
    want = Entropy(-5)
    assert got == [want.bytes("a", 8).hex(), want.bytes("b", 40).hex(), False, 70000]


# A browser whose WebCrypto has no Ed25519: generateKey and importKey refuse it.
NO_ED25519 = """
for (const name of ["generateKey", "importKey"]) {
  const real = crypto.subtle[name].bind(crypto.subtle);
  crypto.subtle[name] = (...args) => JSON.stringify(args).includes("Ed25519")
    ? Promise.reject(new DOMException("no Ed25519 here", "NotSupportedError")) : real(...args);
}
"""


def test_without_webcrypto_ed25519_the_key_signs_by_libsodium(chromium: tuple[Any, str]) -> None:
    tab = open_page(chromium, NO_ED25519)
    got = js(tab, """
        const sealed = (await keys.generate({ passphrase: "pp" })).toJson();
        const locked = await caught(() => keys.loadIdentity());
        const id = await keys.loadIdentity({ passphrase: "pp" });
        const file = await keys.exportPrivate({ passphrase: "pp", newPassphrase: "" });
        const key = await ssh.decodePrivate(file, null, "export");
        const secret = sodium.crypto_sign_seed_keypair(key.seed).privateKey;
        const same = b64(await id.sign(unb64(arg)))
            === b64(sodium.crypto_sign_detached(unb64(arg), secret));
        const clear = (await keys.generate({ force: true })).toJson();
        const open = (await keys.loadIdentity()).publicKey.length;
        return { webcrypto: await keys.webCryptoEd25519(), sealed, locked, same, clear, open };
    """, b64(MESSAGE))
    tab.context.close()
    assert not got["webcrypto"] and not got["sealed"]["webcrypto"]
    assert got["locked"] == "key/passphrase" and got["same"]
    assert got["clear"]["exportable"] and not got["clear"]["encrypted"] and got["open"] == 32
