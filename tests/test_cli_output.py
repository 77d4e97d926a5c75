"""What ``simulate`` and ``replay`` tell a person: who won and why, which turns a
script played, whose move an unfinished game waits for; and the arguments and
``--record`` targets refused at once, in one line, exit status 2."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import balance3d
from balance3d import cli
from balance3d import play as playing
from balance3d import record as rec
from balance3d.commands import checks, report

GAME = ["simulate", "tilted", "--players", "2", "--bots", "random", "--seed", "5", "--quiet"]


@pytest.fixture(scope="module")
def game_record(tmp_path_factory) -> Path:
    """A whole 2-player game of random bots."""
    path = tmp_path_factory.mktemp("game") / "game.json"
    assert cli.main(GAME + ["--record", str(path)]) == 0
    return path


@pytest.fixture
def no_play(monkeypatch) -> list:
    """Replace the game loop: the list collects a call if a game is played."""
    played: list = []
    monkeypatch.setattr(playing, "play", lambda *a, **k: played.append(a))
    return played


def _record(ranks: list[int], scores: list[float], out: list[tuple[int, int]],
            termination: str = "last_player") -> dict:
    """A finished record: seats ranked ``ranks`` with ``scores`` (coins), and the
    seats put out as (seat, game turn), in order."""
    players = [{"seat": s, "name": f"Player {s + 1}", "bot": "random"}
               for s in range(len(ranks))]
    turns = [{"turn": turn, "player": seat, "action": {"type": "pass"}, "verdict": {},
              "events": [{"turn": turn, "player": seat, "kind": "eliminated",
                          "text": f"Player {seat + 1} has no block and is out", "data": {}}]}
             for seat, turn in out]
    winners = [s for s, r in enumerate(ranks) if r == 1]
    return {"game": "tilted", "players": players, "turns": turns,
            "outcome": {"termination": termination, "scores": scores, "ranks": ranks,
                        "winners": winners}}


def _rank_lines(lines: list[str]) -> list[list[str]]:
    return [line.split() for line in lines if line[2:3].isdigit()]


# ---------------------------------------------------------------------- the result
def test_a_ranking_against_the_coins_says_it_follows_the_elimination_order():
    # Player 1 went out first, Player 3 second: Player 2 is the last player left and
    # wins with 0 coins, Player 3 (1 coin) is second, Player 1 third.
    lines = report.describe_outcome(_record([3, 1, 2], [0.0, 0.0, 1.0], [(0, 18), (2, 19)]))
    assert lines[:5] == [
        "result (last_player):",
        "  Player 2 [random] wins, the last player left",
        "  after turn 18: Player 1 has no block and is out",
        "  after turn 19: Player 3 has no block and is out",
        "  ranked by elimination order: the last out ranks highest, not by coins:"]
    assert _rank_lines(lines) == [["1.", "Player", "2", "[random]", "coins", "0"],
                                  ["2.", "Player", "3", "[random]", "coins", "1"],
                                  ["3.", "Player", "1", "[random]", "coins", "0"]]


def test_a_ranking_in_the_coins_order_needs_no_explanation():
    lines = report.describe_outcome(_record([2, 1], [0.0, 3.0], [(0, 7)]))
    assert not any("ranked by" in line for line in lines)
    assert "  Player 2 [random] wins, the last player left" in lines


def test_a_ranking_neither_by_coins_nor_by_elimination_says_so():
    # Player 1 ranks first with fewer coins, and nobody went out.
    lines = report.describe_outcome(_record([1, 2], [1.0, 4.0], [], "height"))
    assert "  ranked by the game's rules, not by coins:" in lines
    assert "  Player 1 [random] wins" in lines


def test_measured_scores_read_in_millimetres_and_counted_ones_as_they_are():
    # Tower's scores are tower heights in metres (its Game's score_unit): 0.0549735 m
    # is 55.0 mm; Tilted's coins are counted
    record = dict(_record([1, 2], [0.0549735, 0.03], [], "all_played"), game="tower")
    assert _rank_lines(report.describe_outcome(record)) == [
        ["1.", "Player", "1", "[random]", "height", "55.0", "mm"],
        ["2.", "Player", "2", "[random]", "height", "30.0", "mm"]]
    assert report.score_text(3.0, None) == "3"


def test_the_solo_result_is_the_score_and_why_it_ended():
    lines = report.describe_outcome(_record([1], [4.0], [(0, 12)], "no_blocks"))
    assert lines == ["result (no_blocks):", "  Player 1 [random] scores 4 coins",
                     "  after turn 12: Player 1 has no block and is out"]


def test_simulate_names_the_winner_and_every_elimination_of_a_played_game(tmp_path, capsys):
    path = tmp_path / "three.json"
    assert cli.main(["simulate", "tilted", "--players", "3", "--bots", "random", "--seed", "5",
                     "--quiet", "--record", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    data = json.loads(path.read_text())
    winner = data["outcome"]["winners"][0]
    assert f"  Player {winner + 1} [random] wins, the last player left" in out
    gone = [e for t in data["turns"] for e in t["events"] if e["kind"] == "eliminated"]
    assert [e["player"] for e in gone] == [s for s in range(3) if s != winner]
    for e in gone:
        assert f"  after turn {e['turn']}: Player {e['player'] + 1} has no block and is out" in out
    ranked = [int(words[2]) - 1 for words in _rank_lines(out)]
    assert ranked == [winner] + [e["player"] for e in reversed(gone)]


# ---------------------------------------------------------------------- scripts
def _script(game_record: Path, tmp_path: Path) -> tuple[Path, int, int]:
    """A script of the game's actions before its second drop of seat 0 or 1; returns
    the file, its length and the seat that dropped next in the game."""
    turns = json.loads(game_record.read_text())["turns"]
    drops = [i for i, t in enumerate(turns) if t["action"]["type"] == "drop"]
    k = drops[2]
    path = tmp_path / "script.json"
    path.write_text(json.dumps([t["action"] for t in turns[:k]]))
    return path, k, turns[k]["player"]


def test_scripted_turns_are_labelled_as_the_scripts_then_the_bots_play(game_record, tmp_path,
                                                                     capsys):
    script, k, _ = _script(game_record, tmp_path)
    assert cli.main(["simulate", "tilted", "--script", str(script), "--seed", "5",
                     "--bots", "random"]) == 0
    turns = [line for line in capsys.readouterr().out.splitlines() if " -> " in line]
    assert len(turns) > k
    assert all("[script]" in line and "[random]" not in line for line in turns[:k])
    assert all("[random]" in line and "[script]" not in line for line in turns[k:])


def test_without_bots_the_run_says_whose_move_it_waits_for(game_record, tmp_path, capsys):
    script, k, seat = _script(game_record, tmp_path)
    assert cli.main(["simulate", "tilted", "--script", str(script), "--seed", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"game not finished after {k} actions: it waits for a 'drop' move by "
        f"Player {seat + 1} [human] (seat {seat})")
    record = tmp_path / "partial.json"
    assert cli.main(["simulate", "tilted", "--script", str(script), "--seed", "5", "--quiet",
                     "--record", str(record)]) == 0
    capsys.readouterr()
    assert cli.main(["replay", str(record), "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(f"(seat {seat})")


# ---------------------------------------------------------------------- arguments
@pytest.mark.parametrize("args, message", [
    (["--seed", "-1"], "--seed -1: must be a non-negative integer"),
    (["--variant", "bogus"],
     "--variant 'bogus': tilted has no such variant (variants: basic, solo, advanced)"),
    (["--players", "-1"], "--players -1: tilted (basic) plays with 2, 3 or 4 player(s)"),
    (["--players", "0", "--bots", "random"],
     "--players 0: tilted (basic) plays with 2, 3 or 4 player(s)"),
    (["--variant", "solo", "--players", "2"],
     "--players 2: tilted (solo) plays with 1 player(s); 2 player(s) play --variant basic "
     "or advanced"),
    (["--players", "1"],
     "--players 1: tilted (basic) plays with 2, 3 or 4 player(s); 1 player(s) play "
     "--variant solo"),
    (["--variant", "solo", "--bots", "planner,random"],
     "--bots names 2 bots: tilted (solo) plays with 1 player(s); 2 player(s) play "
     "--variant basic or advanced"),
    (["--bots", "random,"], "--bots 'random,': a bot name is empty (give NAME[,NAME...])"),
    (["--bots", "random,random,random,random,random"],
     "--bots names 5 bots: tilted (basic) plays with 2, 3 or 4 player(s)"),
])
def test_bad_arguments_are_one_line_exit_2_before_any_game(args, message, capsys, no_play):
    assert cli.main(["simulate", "tilted"] + args) == 2
    assert capsys.readouterr().err == f"balance3d simulate: error: {message}\n"
    assert no_play == []


def test_a_negative_seed_from_the_shell_has_no_traceback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(Path(balance3d.__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "simulate", "tilted",
                           "--seed", "-1"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "balance3d simulate: error: --seed -1: must be a non-negative integer\n"


def test_a_record_with_a_negative_seed_is_refused(game_record, tmp_path, capsys):
    data = json.loads(game_record.read_text())
    data["seed"] = -1
    path = tmp_path / "negative.json"
    path.write_text(rec.dumps(data))
    assert cli.main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (f"balance3d replay: error: {path}: seed: must be a "
                                       f"non-negative integer, got -1\n")


# ---------------------------------------------------------------------- --record
def test_a_record_target_that_is_a_folder_or_has_no_folder_is_refused_at_once(
        tmp_path, capsys, no_play):
    assert cli.main(GAME + ["--record", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"balance3d simulate: error: --record {tmp_path}: is a "
                                       f"folder, not a record file\n")
    missing = tmp_path / "nowhere" / "game.json"
    assert cli.main(GAME + ["--record", str(missing)]) == 2
    assert capsys.readouterr().err == (f"balance3d simulate: error: --record {missing}: folder "
                                       f"{missing.parent} does not exist\n")
    assert no_play == []


def test_a_record_target_in_a_folder_that_cannot_be_written_is_refused_at_once(
        tmp_path, capsys, no_play, monkeypatch):
    monkeypatch.setattr(checks.os, "access", lambda path, mode: Path(path) != tmp_path)
    assert cli.main(GAME + ["--record", str(tmp_path / "g.json")]) == 2
    assert capsys.readouterr().err.endswith(f"folder {tmp_path} is not writable\n")
    assert no_play == []


def test_an_existing_file_that_is_not_a_record_is_kept_and_refused_at_once(
        tmp_path, capsys, no_play):
    notes = tmp_path / "notes.json"
    notes.write_text("my notes, not JSON\n")
    assert cli.main(GAME + ["--record", str(notes)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"balance3d simulate: error: --record {notes}: exists and is not a "
                          f"record this balance3d reads (not JSON: ")
    assert err.endswith("; it is kept: pass --force to replace it\n") and err.count("\n") == 1
    assert notes.read_text() == "my notes, not JSON\n" and no_play == []


def test_a_record_of_the_same_game_is_played_and_rewritten_only_when_equal_or_forced(
        game_record, tmp_path, capsys):
    path = tmp_path / "same.json"
    data = json.loads(game_record.read_text())
    data["turns"] = data["turns"][:1]
    path.write_text(rec.dumps(data))
    # Same game, variant, seed and players: played, then write_record's rule holds.
    assert cli.main(GAME + ["--record", str(path)]) == 2
    assert "already exists and holds a different record; pass --force" in capsys.readouterr().err
    assert cli.main(GAME + ["--record", str(path), "--force"]) == 0
    assert path.read_bytes() == game_record.read_bytes()


def test_a_failed_write_is_one_line(tmp_path, capsys, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(rec, "write_record", full)
    path = tmp_path / "g.json"
    assert cli.main(GAME + ["--record", str(path)]) == 2
    assert capsys.readouterr().err == (f"balance3d simulate: error: --record {path}: cannot "
                                       f"write: No space left on device\n")


@pytest.mark.parametrize("field, value, message", [
    ("variant", "bogus", "variant 'bogus': tilted has no such variant "
                         "(variants: basic, solo, advanced)"),
    ("players", 5, "players 5: tilted (basic) plays with 2, 3 or 4 player(s)"),
])
def test_a_script_records_variant_and_player_count_are_checked_as_arguments_are(
        game_record, tmp_path, capsys, no_play, field, value, message):
    data = json.loads(game_record.read_text())
    if field == "players":
        data["players"] = [{"seat": s, "name": f"Player {s + 1}", "bot": None}
                           for s in range(value)]
    else:
        data[field] = value
    script = tmp_path / "script.json"
    script.write_text(rec.dumps(data))
    assert cli.main(["simulate", "tilted", "--script", str(script)]) == 2
    assert capsys.readouterr().err == f"balance3d simulate: error: {script}: {message}\n"
    assert no_play == []


# ---------------------------------------------------------------------- one-line names
def test_a_record_or_script_naming_a_player_over_two_lines_is_refused_in_one_line(
        game_record, tmp_path, capsys, no_play):
    data = json.loads(game_record.read_text())
    data["players"][1]["name"] = "Player 2\nresult: Player 2 wins"
    path = tmp_path / "forged.json"
    path.write_text(rec.dumps(data))
    reason = ('players[1].name: must be one line of printable text, got "Player 2\\nresult: '
              'Player 2 wins" (character U+000A)')
    assert cli.main(["replay", str(path)]) == 2
    assert capsys.readouterr() == ("", f"balance3d replay: error: {path}: {reason}\n")
    assert cli.main(["simulate", "tilted", "--script", str(path)]) == 2
    assert capsys.readouterr() == ("", f"balance3d simulate: error: {path}: {reason}\n")
    assert no_play == []


@pytest.mark.parametrize("args, where, char", [
    (["--record", "game\n.json"], '--record "game\\n.json"', "U+000A"),
    (["--record=game\t.json"], 'argument "--record=game\\t.json"', "U+0009"),
    (["--scene", "tilted\x1b[2J"], '--scene "tilted\\u001b[2J"', "U+001B"),
])
def test_a_command_line_argument_over_two_lines_is_refused_in_one_line(
        args, where, char, tmp_path, capsys, no_play, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["simulate", "tilted"] + args) == 2
    assert capsys.readouterr() == ("", f"balance3d simulate: error: {where}: must be one line "
                                       f"of printable text (character {char})\n")
    assert no_play == [] and list(tmp_path.iterdir()) == []
