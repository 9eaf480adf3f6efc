"""libsodium's WebAssembly build is vendored byte for byte as npm ships it, pinned by
version and integrity (peers/web/seat/vendor/pins.json, issue 33)."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

VENDOR = Path(__file__).resolve().parent.parent / "peers" / "web" / "seat" / "vendor"
PINS = json.loads((VENDOR / "pins.json").read_text())


def test_every_vendored_file_is_pinned_and_matches() -> None:
    present = {str(p.relative_to(VENDOR)) for p in (VENDOR / "node_modules").rglob("*")
               if p.is_file()}
    assert present == set(PINS["files_sha256"])
    for name, digest in PINS["files_sha256"].items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_pins_name_exact_versions_and_sha512_integrity() -> None:
    for name, pin in PINS["packages"].items():
        assert pin["version"].count(".") == 2 and pin["version"][0].isdigit(), name
        assert pin["integrity"].startswith("sha512-"), name
        manifest = json.loads((VENDOR / "node_modules" / name / "package.json").read_text())
        assert manifest["name"] == name and manifest["version"] == pin["version"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_vendored_files_are_what_npm_ships(tmp_path: Path) -> None:
    """Fetch each pinned tarball from the registry again: its SHA-512 is the pinned
    integrity, and every vendored file is the tarball's, byte for byte."""
    for name, pin in PINS["packages"].items():
        subprocess.run(["npm", "pack", "--silent", f"{name}@{pin['version']}"], cwd=tmp_path,
                       check=True, capture_output=True, timeout=120)
        tarball = (tmp_path / f"{name}-{pin['version']}.tgz").read_bytes()
        integrity = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
        assert integrity == pin["integrity"], name
        with tarfile.open(fileobj=io.BytesIO(tarball)) as tar:
            for vendored in PINS["files_sha256"]:
                prefix = f"node_modules/{name}/"
                if vendored.startswith(prefix):
                    member = tar.extractfile("package/" + vendored[len(prefix):])
                    assert member is not None
                    assert member.read() == (VENDOR / vendored).read_bytes(), vendored
