"""`dealerless verify FILE...` with --jobs and --dask (spec/11-verify.md 11.1, 11.6): the
games of many files and the rounds of a match verified in parallel give the verdicts of
one job, one JSON line per file, and the worst verdict as the exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from peers.cli.main import main
from peers.entropy import Entropy
from peers.table.selfplay import Table, selfplay
from protocol.identity import Identity
from protocol.match import encode_match, link_of, verify_match
from protocol.transcript import Transcript

CLI = [sys.executable, "-m", "peers.cli"]
MINESHAFT = {"set": "double-six", "seats": 2, "long": True}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The first two rounds of a match (a valid prefix), the same two swapped (no match),
    a complete game and the first 20 frames of it."""
    where = tmp_path_factory.mktemp("verify")
    entropy = Entropy(5)
    seats = [Identity(entropy.bytes(f"identity {i}")) for i in range(2)]
    rounds: list[bytes] = []
    lead = -1   # the first round draws the first player; it leads every later round (D19)
    for number in (6, 5):
        params = {**MINESHAFT, "round": number, "after": link_of(rounds[-1]) if rounds else "",
                  "first": lead}
        table = Table.create("mineshaft", params, ("greedy", "random"), entropy, seats)
        rounds.append(table.play().encode())
        if lead == -1:
            lead = table.referees[0].state.first_player
    game = selfplay("bram", {}, ("greedy", "random"), seed=2)
    made = {"match.match": encode_match(rounds), "swapped.match": encode_match(rounds[::-1]),
            "game.t": game.encode(), "prefix.t": Transcript(game.setup, game.frames[:20]).encode()}
    for name, data in made.items():
        (where / name).write_bytes(data)
    return {name.partition(".")[0]: where / name for name in made}


def verify(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_two_jobs_give_the_verdicts_of_one(files: dict[str, Path]) -> None:
    """As the command runs it, in processes of its own."""
    every = [str(files[n]) for n in ("match", "swapped", "game", "prefix")]
    one, two = (subprocess.run([*CLI, "verify", "--json", *jobs, *every], capture_output=True,
                               text=True, timeout=600) for jobs in ([], ["--jobs", "2"]))
    assert (one.returncode, one.stdout) == (two.returncode, two.stdout)
    lines = [json.loads(line) for line in one.stdout.splitlines()]
    assert [line["file"] for line in lines] == every
    assert [(line["valid"], line["complete"]) for line in lines] == [
        (True, False), (False, False), (True, True), (True, False)]
    assert lines[0]["rounds_played"] == 2 and lines[1]["violation"]["rule"] == "match/link"
    assert one.returncode == 1                  # the worst verdict: the swapped rounds


def test_the_exit_code_is_the_worst_verdict(files: dict[str, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    game, prefix = str(files["game"]), str(files["prefix"])
    missing = str(tmp_path / "missing.t")
    assert verify(capsys, game, game)[0] == 0
    assert verify(capsys, game, prefix)[0] == 3
    code, out, err = verify(capsys, prefix, missing, game)
    assert code == 2 and f"cannot read {missing}" in err
    assert f"== {game} ==" in out and f"== {prefix} ==" in out   # the others still judged
    code, out, _ = verify(capsys, "--json", missing, str(files["swapped"]))
    assert code == 1 and json.loads(out.splitlines()[0]) == {
        "file": missing, "error": f"cannot read {missing}: No such file or directory"}


def test_one_file_prints_as_it_always_did(files: dict[str, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = verify(capsys, "--json", "--jobs", "2", str(files["match"]))
    verdict = json.loads(out)
    assert code == 3 and "file" not in verdict and out.startswith("{\n")
    assert verdict == verify_match(files["match"].read_bytes()).to_json()
    code, out, _ = verify(capsys, str(files["match"]))
    assert code == 3 and out.startswith("round 1 (starting double 6-6): VALID")
    assert "==" not in out


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def test_a_dask_cluster_gives_the_output_of_jobs(files: dict[str, Path], cluster: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    every = [str(files[n]) for n in ("match", "swapped", "game", "prefix")]
    there = verify(capsys, "--json", "--dask", cluster, *every)
    assert there[:2] == verify(capsys, "--json", *every)[:2]


def test_a_tournament_on_a_dask_cluster_gives_the_result_of_jobs(
        cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--bots", "greedy,random", "--hands", "40", "--json"]
    assert main(args) == 0
    here = json.loads(capsys.readouterr().out)
    assert main([*args, "--dask", cluster]) == 0
    assert json.loads(capsys.readouterr().out) == here


def test_dask_problems_are_usage_errors(files: dict[str, Path],
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    game = str(files["game"])
    code, _, err = verify(capsys, "--dask", "tcp://127.0.0.1:9", "--jobs", "2", game)
    assert code == 2 and "give --jobs or --dask, not both" in err
    monkeypatch.setitem(sys.modules, "distributed", None)   # the extra is not installed
    code, _, err = verify(capsys, "--dask", "tcp://127.0.0.1:9", game)
    assert code == 2 and "--dask needs the cluster extra: pip install 'dealerless[cluster]'" in err
