"""What people read (issue 18), each checked on the real output of the command: rule
parameters in words, each rule set's own word on abandonment, a cut file or match,
disputing a round of a match, a tournament of one deal, a bad --map, the README's games
table, `games`, and --help that describes every argument with its default."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from peers.cheats.mined_games import late_commit
from peers.cli.main import main
from peers.cli.parser import build_parser
from peers.entropy import Entropy
from peers.table.report import account
from peers.table.selfplay import Table, default_seats, selfplay
from protocol.identity import Identity
from protocol.match import MATCH_PREFIX, encode_match, link_of
from protocol.transcript import Transcript
from protocol.verifier import replay

ROOT = Path(__file__).resolve().parent.parent
MINESHAFT = {"set": "double-six", "seats": 2, "long": True}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def prefix(rules: str, params: dict[str, object], frames: int) -> bytes:
    table = Table.create(rules, params, ("greedy", "random"), Entropy(3))
    for _ in range(frames):
        table.step()
    return table.referees[0].transcript().encode()


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first three rounds of a two-seat Mineshaft match (a valid prefix)."""
    entropy = Entropy(8)
    seats = [Identity(entropy.bytes(f"identity {i}")) for i in range(2)]
    rounds: list[bytes] = []
    lead = -1   # the first round draws the first player; it leads every later round (D19)
    for number in (6, 5, 4):
        params = {**MINESHAFT, "round": number, "after": link_of(rounds[-1]) if rounds else "",
                  "first": lead}
        table = Table.create("mineshaft", params, ("greedy", "random"), entropy, seats)
        rounds.append(table.play().encode())
        if lead == -1:
            lead = table.referees[0].state.first_player
    path = tmp_path_factory.mktemp("read") / "m.match"
    path.write_bytes(encode_match(rounds))
    return path


def test_rule_parameters_are_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.t"
    path.write_bytes(prefix("mineshaft", {**MINESHAFT, "round": 6, "after": ""}, 12))
    out = cli(capsys, "verify", str(path))[1]
    assert out.startswith("rules mineshaft (2 seats, after nothing (the first round), first "
                          "player drawn, long yes, round 6 (starting double 6-6), set "
                          "double-six); ristretto255-sha512, dealerless/3; game ")
    assert "{" not in out.splitlines()[0]
    bram = tmp_path / "b.t"
    bram.write_bytes(selfplay("bram", {}, ("greedy", "random"), seed=1).encode())
    assert cli(capsys, "verify", str(bram))[1].startswith(
        "rules bram (komi 1.5 pips); ristretto255-sha512, dealerless/3; game ")


@pytest.mark.parametrize(("rules", "params", "decision"), [
    ("bram", {}, "spec/rules/bram.md D14"),
    ("mineshaft", {**MINESHAFT, "round": 6, "after": ""}, "spec/rules/mineshaft.md D18"),
    ("mexican-train", {"seats": 2}, "spec/rules/mexican-train.md D22"),
])
def test_an_unfinished_game_cites_its_own_rules_on_abandonment(
        rules: str, params: dict[str, object], decision: str) -> None:
    text = account(replay(prefix(rules, params, 10)))
    assert "Not proven: that seat" in text and f"{decision})." in text
    if rules != "bram":
        assert "bram.md" not in text
    spec = (ROOT / decision.split()[0]).read_text()
    assert f"**{decision.split()[1]}. Abandonment" in spec


def test_a_mined_games_forfeit_is_not_told_as_a_death() -> None:
    table, _ = late_commit(seat=3, stage=3)
    text = account(replay(table.referees[0].transcript().encode()))
    assert "the game ended because a seat forfeited (it missed its deadline)" in text
    assert "a miner died" not in text


def test_a_file_cut_inside_a_record_says_what_its_whole_frames_prove(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = selfplay("bram", {}, ("greedy", "random"), seed=1).encode()
    whole = Transcript.decode(data)
    clean = Transcript(whole.setup, whole.frames[:30]).encode()
    path = tmp_path / "cut.t"
    path.write_bytes(clean + data[len(clean):len(clean) + 40])   # 40 bytes of frame 30
    code, out, _ = cli(capsys, "verify", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == (f"The file is cut inside a record at byte {len(clean)}. Its 30 whole "
                        "frames before the cut are a clean prefix; they prove:")
    (tmp_path / "clean.t").write_bytes(clean)
    assert "\n".join(lines[1:-1]) + "\n" == cli(capsys, "verify", str(tmp_path / "clean.t"))[1]
    assert lines[-1].startswith("NOT PROVEN: corrupt or tampered file (transcript/truncated")
    assert lines[-1].endswith("no seat is blamed")
    verdict = json.loads(cli(capsys, "verify", "--json", str(path))[1])
    assert verdict["cut_at"] == len(clean) and verdict["intact_prefix"]["frames"] == 30
    assert verdict["intact_prefix"]["valid"] and not verdict["valid"]


def test_a_cut_match_names_its_round_and_reports_the_whole_ones(
        match: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = match.read_bytes()
    ends, pos = [], len(MATCH_PREFIX) + 2                  # where each round's record ends
    while pos < len(data):
        pos += 5 + int.from_bytes(data[pos + 1:pos + 5], "big")
        ends.append(pos)
    cut = tmp_path / "cut.match"
    cut.write_bytes(data[:ends[1] + 1000])              # inside the third round
    code, out, _ = cli(capsys, "verify", str(cut))
    lines = out.splitlines()
    assert code == 1 and lines[0] == "The 2 whole rounds before the cut prove:"
    assert lines[1].startswith("round 1 (starting double 6-6): VALID and complete")
    assert lines[2].startswith("round 2 (starting double 5-5): VALID and complete")
    assert lines[3].startswith("VALID PREFIX of a match: 2 of 7 rounds played")
    assert lines[4] == (f"NOT A VALID MATCH: the file is cut inside round 3 (at byte "
                        f"{ends[1]}); no seat is blamed.")


def test_dispute_of_a_match_takes_a_round(match: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "p.pkg")
    code, _, err = cli(capsys, "dispute", str(match), "5", "--out", out)
    assert code == 2 and (f"{match} is a match of 3 rounds, each a game of its own: give "
                          "--round R (1 to 3) to dispute frame 5 of round R") in err
    code, said, _ = cli(capsys, "dispute", str(match), "5", "--out", out, "--round", "2")
    assert code == 0 and said.startswith("wrote the dispute package for frame 5 of round 2")
    code, said, _ = cli(capsys, "check-step", out)
    assert code == 0 and said.startswith("frame 5: valid step")


def test_a_tournament_of_one_deal_has_no_infinite_interval(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "tournament", "--bots", "strong,greedy", "--hands", "1",
                       "--nodes", "200")
    assert code == 0 and "inf" not in out and "(no interval from one deal)" in out
    assert "search budget: strong 200 nodes" in out
    code, out, _ = cli(capsys, "tournament", "--bots", "strong,greedy", "--hands", "1",
                       "--json")
    result = json.loads(out)            # strict JSON: no Infinity
    assert result["a"]["win_rate"]["low"] is None
    assert result["budgets"] == [{"nodes": 20000}, None]


@pytest.mark.parametrize(("content", "problem"), [
    (bytes(range(128, 256)), "is not a text file (byte 0 is not UTF-8)"),
    (b"", "is empty"),
    (b"\n  \n", "is empty"),
])
@pytest.mark.parametrize("command", ["selfplay", "host"])
def test_a_binary_or_empty_map_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, content: bytes,
        problem: str) -> None:
    path = tmp_path / "m.map"
    path.write_bytes(content)
    where = ["--out", str(tmp_path / "x.t")] if command == "selfplay" else [
        "--listen", "127.0.0.1:0", "--bot", "greedy", "--home", str(tmp_path / "h")]
    code, out, err = cli(capsys, command, "--rules", "mined-games", "--map", str(path), *where)
    assert code == 2 and out == ""
    assert f"the map {path} {problem}" in err and "mined-games.md 2.2" in err


def test_the_readme_games_table_has_every_rule_set_its_seats_and_default() -> None:
    from protocol.rules import RULESETS, make_rules

    readme = (ROOT / "README.md").read_text()
    rows = {m[0]: m[1:] for m in re.findall(r"^\| `([\w-]+)` \| ([^|]+) \| (\d) \|", readme,
                                            re.M)}
    assert set(rows) == set(RULESETS)
    for name, (seats, default) in rows.items():
        assert int(default) == default_seats(name)
        for tile_set in ("double-six", "double-nine", "double-twelve", None):
            if tile_set is not None and tile_set not in seats:
                continue
            allowed = []
            for k in range(2, 9):
                params = {"seats": k} | ({"set": tile_set} if tile_set else {})
                try:
                    ok = make_rules(name, params).deal.seats == k
                except Exception:
                    ok = False
                if not ok and name == "bram":
                    ok = k == 2
                allowed += [k] if ok else []
            span = f"{allowed[0]}-{allowed[-1]}" if len(allowed) > 1 else str(allowed[0])
            assert allowed == list(range(allowed[0], allowed[-1] + 1))
            if tile_set is None:
                assert seats.startswith(span) or seats == span, (name, seats, span)
            else:
                assert f"{span} on {tile_set}" in seats or f"{span} on double-nine or " \
                    f"{tile_set}" in seats or f"{span} on {tile_set} (the default set)" in \
                    seats, (name, tile_set, seats)


def test_games_shows_each_games_rules_and_opponents(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from peers.keys.known import trust
    from peers.store.games import GameStore
    from protocol.setup import GameSetup

    home = tmp_path / "home"
    me, them = Identity(bytes(31) + b"\1"), Identity(bytes(31) + b"\2")
    setup = GameSetup.create("bram", {}, [me.public_key, them.public_key], [bytes(32)] * 2)
    GameStore.create(home / "games", setup, 0, bytes(32), {}).close()
    trust(home, "alice", them.public_key)
    code, out, _ = cli(capsys, "games", "--home", str(home))
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"{setup.game_id.hex()[:16]}  seat 0    0 frames")
    assert lines[1] == "    bram (komi 1.5 pips) against seat 1 alice"
    listed = json.loads(cli(capsys, "games", "--json", "--home", str(home))[1])
    assert listed[0]["rules"] == "bram" and listed[0]["params"] == {"komi_halves": 3}
    assert listed[0]["opponents"][0]["name"] == "alice"


@pytest.mark.parametrize("command", ["relay", "verify", "dispute", "games"])
def test_help_describes_every_argument_with_its_default(command: str) -> None:
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    for action in sub._actions:
        if action.option_strings == ["-h", "--help"]:
            continue
        name = action.option_strings or [action.dest]
        assert action.help, f"{command} {name[0]} has no help"
        takes_value = action.nargs != 0 and not action.required and action.option_strings
        if takes_value and action.option_strings != ["--home"]:
            assert "default" in action.help, f"{command} {name[0]}: {action.help}"
    assert sub.description


def test_mined_games_ties_say_who_tied_and_that_the_lot_decided() -> None:
    from peers.table.report import mined_headline
    from protocol.rules.mined_stage import MinedOutcome

    # The lot of D14 picked seat 3 among 1 and 3, and seat 4 among 0, 2 and 4.
    text = mined_headline(MinedOutcome(3, 4, "10 rounds were played", "least money",
                                       (17667, 39000, 17667, 39000, 17667), ("alive",) * 5,
                                       (), 0))
    assert "seat 3 wins two tokens of life; seat 4 is the elimination candidate" in text
    assert ("Seats 1, 3 tied for the most money ($39,000); the lot drawn from the last "
            "stage's opened nonces picked seat 3 (spec/rules/mined-games.md D14) as the "
            "token winner.") in text
    assert ("Seats 0, 2, 4 tied for the least money ($17,667); the lot drawn from the last "
            "stage's opened nonces picked seat 4 (spec/rules/mined-games.md D14) as the "
            "elimination candidate.") in text


def test_one_seat_both_winner_and_candidate_is_explained() -> None:
    from peers.table.report import mined_headline
    from protocol.rules.mined_stage import MinedOutcome

    out = MinedOutcome(1, 1, "every miner is dead", "died with the least money", (900, 900),
                       ("lava", "attack"), (), 0)
    text = mined_headline(out)
    assert "seat 1 wins two tokens of life; seat 1 is the elimination candidate" in text
    assert "Seats 0, 1 tied for the most money ($900)" in text
    assert "Seats 0, 1 tied for the least money ($900)" in text
    assert ("Seat 1 is both the token winner and the elimination candidate: no miner is "
            "alive, so the richest seat wins the tokens and the candidate comes from the "
            "fallen (died with the least money), and both fall on seat 1") in text
