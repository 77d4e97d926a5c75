"""``balance3d simulate`` and ``balance3d replay``: reproducible records, verified
replays, scripts, and the golden record.

The golden record ``tests/golden/tilted_solo_random_seed3.json`` is a whole solo game
of the random bot (drops, returns, a die roll and purchases).  ``replay --verify
--from-start --strict`` must reproduce it byte for byte, and ``replay --verify
--strict`` must re-judge every turn identically from its kept state.  It changes,
deliberately, whenever the bundled Tilted scene (physics settings included), the
rules or the record format change: check with ``balance3d replay tests/golden/tilted_solo_random_seed3.json --verify
--ignore-scene-change`` which turns changed, then regenerate it with::

    python -m balance3d.cli simulate tilted --variant solo --bots random --seed 3 \\
        --record tests/golden/tilted_solo_random_seed3.json --force

and review the diff before committing it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from golden_checks import judged_identically_turn_by_turn, replays_byte_for_byte

import balance3d
from balance3d import bots, cli
from balance3d import play as playing
from balance3d import record as rec
from balance3d.commands import simulate

GOLDEN = Path(__file__).parent / "golden" / "tilted_solo_random_seed3.json"
GAME = ["simulate", "tilted", "--players", "2", "--bots", "random", "--seed", "5"]


@pytest.fixture(scope="module")
def game_record(tmp_path_factory) -> Path:
    """A whole 2-player game of random bots, recorded once for the module."""
    path = tmp_path_factory.mktemp("game") / "game.json"
    assert cli.main(GAME + ["--record", str(path), "--quiet"]) == 0
    return path


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(balance3d.__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-m", "balance3d.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.portable
def test_simulate_prints_turns_and_result_and_is_byte_identical_across_runs(
        game_record, tmp_path):
    done = _run(GAME + ["--record", "again.json"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "tilted (basic), 2 player(s), seed 5, scene tilted"
    assert any("Player 1 [random]" in line and " drop " in line and "->" in line
               for line in lines)
    assert "result (last_player):" in lines
    assert lines[-1] == "record written: again.json"
    assert (tmp_path / "again.json").read_bytes() == game_record.read_bytes()
    # The same command again leaves the file as it is.
    done = _run(GAME + ["--record", "again.json", "--quiet"], tmp_path)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "record unchanged: again.json"


def test_record_holds_the_whole_game(game_record):
    data = json.loads(game_record.read_text())
    record = rec.parse_record(data)
    assert (record.game, record.variant, record.seed) == ("tilted", "basic", 5)
    assert data["scene"]["name"] == "tilted" and "file" not in data["scene"]
    assert data["scene"]["digest"] == balance3d.load_scene("tilted").digest
    assert [p.bot for p in record.players] == ["random", "random"]
    assert data["outcome"]["termination"] == "last_player"
    assert sorted(data["outcome"]["ranks"]) == [1, 2]
    kinds = {e["kind"] for t in data["turns"] for e in t["events"]}
    assert {"drop", "tilt"} <= kinds
    assert any(e["kind"] == "roll" for e in data["setup"])
    drops = [t for t in data["turns"] if t["action"]["type"] == "drop"]
    assert drops and all(t["verdict"]["kind"] == "TiltedVerdict" for t in drops)
    assert game_record.read_text() == rec.dumps(data)


def test_replay_verify_passes_on_a_fresh_record_and_fails_on_a_tampered_one(
        game_record, tmp_path, capsys):
    assert cli.main(["replay", str(game_record), "--verify"]) == 0
    out = capsys.readouterr().out
    n = len(json.loads(game_record.read_text())["turns"])
    assert "result (last_player):" in out
    assert out.endswith(f"verify: {n} turns: {n} identical, 0 within tolerance, 0 different\n")

    data = json.loads(game_record.read_text())
    index = next(i for i, t in enumerate(data["turns"]) if t["action"]["type"] == "drop")
    data["turns"][index]["verdict"]["coins_won"] += 5
    tampered = tmp_path / "tampered.json"
    tampered.write_text(rec.dumps(data))
    assert cli.main(["replay", str(tampered), "--verify", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"turns[{index}].verdict.coins_won: recorded" in err
    # Without --verify a replay just shows the game.
    assert cli.main(["replay", str(tampered), "--quiet"]) == 0


def test_replay_verify_fails_when_a_recorded_action_is_now_illegal(game_record, tmp_path,
                                                                  capsys):
    data = json.loads(game_record.read_text())
    data["turns"][0]["action"]["piece"] = "6u-5"  # a block of the supply
    bad = tmp_path / "bad.json"
    bad.write_text(rec.dumps(data))
    assert cli.main(["replay", str(bad), "--verify", "--quiet"]) == 1
    assert ("different: turns[0]: drop by seat 1 is now illegal: block '6u-5' is not yours"
            in capsys.readouterr().err.replace(f"seat {data['turns'][0]['player']}", "seat 1"))
    assert cli.main(["replay", str(bad), "--verify", "--from-start", "--quiet"]) == 1
    assert "is illegal on replay" in capsys.readouterr().err
    # Without --verify nothing is played: the record is shown as it is.
    assert cli.main(["replay", str(bad), "--quiet"]) == 0


def test_replay_refuses_a_changed_scene_and_a_malformed_record(game_record, tmp_path,
                                                                 capsys):
    data = json.loads(game_record.read_text())
    data["scene"]["digest"] = "0" * 64
    path = tmp_path / "old.json"
    path.write_text(rec.dumps(data))
    assert cli.main(["replay", str(path), "--verify"]) == 2
    assert "has changed since the record was made" in capsys.readouterr().err
    assert cli.main(["replay", str(path), "--verify", "--from-start", "--ignore-scene-change",
                     "--quiet"]) == 1
    assert "scene.digest: recorded" in capsys.readouterr().err
    data = json.loads(game_record.read_text())
    data["turns"][3]["action"]["foo"] = 1
    path.write_text(rec.dumps(data))
    assert cli.main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"balance3d replay: error: {path}: turns[3].action: unknown field 'foo'")


def test_script_replays_a_record_and_a_scripted_illegal_action_names_the_turn(
        game_record, tmp_path, capsys):
    # A record used as a script gives the same game (seats now without bots).
    out = tmp_path / "scripted.json"
    assert cli.main(["simulate", "tilted", "--script", str(game_record), "--record", str(out),
                     "--quiet"]) == 0
    original, scripted = json.loads(game_record.read_text()), json.loads(out.read_text())
    assert [p["bot"] for p in scripted["players"]] == [None, None]
    assert scripted["seed"] == 5 and scripted["turns"] == original["turns"]
    assert scripted["outcome"] == original["outcome"]
    capsys.readouterr()

    actions = [t["action"] for t in original["turns"][:2]]
    actions.append(dict(original["turns"][2]["action"], piece="6u-5"))
    script = tmp_path / "actions.json"
    script.write_text(json.dumps(actions))
    partial = tmp_path / "partial.json"
    assert cli.main(["simulate", "tilted", "--script", str(script), "--seed", "5",
                     "--record", str(partial)]) == 2
    err = capsys.readouterr().err
    turn = original["turns"][2]["turn"]
    assert f"script action 3 (turns[2], game turn {turn}, Player " in err
    assert "illegal drop: block '6u-5' is not yours (it is in the supply)" in err
    assert not partial.exists()
    # A script that ends before the game does gives a record without an outcome.
    script.write_text(json.dumps(actions[:2]))
    assert cli.main(["simulate", "tilted", "--script", str(script), "--seed", "5",
                     "--record", str(partial)]) == 0
    assert "game not finished after 2 actions" in capsys.readouterr().out
    data = json.loads(partial.read_text())
    assert data["outcome"] is None and data["turns"] == original["turns"][:2]


def test_simulate_keeps_a_different_record_unless_forced(game_record, tmp_path, capsys,
                                                         monkeypatch):
    path = tmp_path / "game.json"
    path.write_bytes(game_record.read_bytes())
    other = ["simulate", "tilted", "--variant", "solo", "--bots", "random", "--seed", "3",
             "--quiet", "--record", str(path)]
    played = []
    with monkeypatch.context() as patch:
        patch.setattr(playing, "play", lambda *a, **k: played.append(a))
        assert cli.main(other) == 2
    assert played == []  # refused before the game is played
    err = capsys.readouterr().err
    basic = balance3d.load_scene("tilted").digest[:12]
    solo = balance3d.load_scene("tilted-solo").digest[:12]
    assert err == (f"balance3d simulate: error: --record {path}: holds another game "
                   f"(tilted (basic), scene tilted {basic}, seed 5, players Player 1 "
                   f"[random], Player 2 [random]), not this one (tilted (solo), scene "
                   f"tilted-solo {solo}, seed 3, players Player 1 [random]); it is "
                   f"kept: pass --force to replace it\n")
    assert path.read_bytes() == game_record.read_bytes()
    assert cli.main(other + ["--force"]) == 0
    assert json.loads(path.read_text())["variant"] == "solo"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_simulate_keeps_a_record_that_differs_only_in_its_seed(game_record, tmp_path, capsys,
                                                              monkeypatch):
    """The same game, variant, scene and players with the next seed: another game
    (its dice and bots differ), so the record is kept and nothing is played."""
    path = tmp_path / "game.json"
    path.write_bytes(game_record.read_bytes())
    seed = json.loads(game_record.read_text())["seed"]
    argv = list(GAME)
    argv[argv.index("--seed") + 1] = str(seed + 1)
    played = []
    monkeypatch.setattr(playing, "play", lambda *a, **k: played.append(a))
    assert cli.main(argv + ["--quiet", "--record", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"--record {path}: holds another game (" in err
    assert f"seed {seed}, " in err and f"seed {seed + 1}, " in err
    assert played == [] and path.read_bytes() == game_record.read_bytes()


@pytest.mark.parametrize("name, text", [
    ("other-solo", ""),                                   # another name, same content
    ("tilted-solo", "[rules]\nbuy_cost = 4\n"),          # the same name, other content
])
def test_simulate_refuses_a_record_of_the_same_game_in_another_scene_before_setup(
        tmp_path, capsys, monkeypatch, name, text):
    path = tmp_path / "solo.json"
    solo = ["simulate", "tilted", "--variant", "solo", "--bots", "random", "--seed", "3",
            "--quiet", "--record", str(path)]
    path.write_bytes(GOLDEN.read_bytes())
    bundled = balance3d.load_scene("tilted-solo").path
    (tmp_path / "mine.toml").write_text(
        f'[scene]\nextends = "{bundled.as_posix()}"\nname = "{name}"\n{text}')
    mine = balance3d.load_scene(tmp_path / "mine.toml")
    assert mine.variant == "solo" and (mine.name, mine.digest) != (
        json.loads(GOLDEN.read_text())["scene"]["name"],
        json.loads(GOLDEN.read_text())["scene"]["digest"])
    started = []
    monkeypatch.setattr(simulate, "new_game", lambda *a, **k: started.append(a))
    assert cli.main(solo + ["--scene", str(tmp_path / "mine.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"balance3d simulate: error: --record {path}: holds another game "
                          f"(tilted (solo), scene tilted-solo ")
    assert f"not this one (tilted (solo), scene {name} {mine.digest[:12]}, seed 3" in err
    assert err.count("\n") == 1 and started == []        # refused before the game's setup
    assert path.read_bytes() == GOLDEN.read_bytes()


def test_simulate_rejects_bad_bot_lists(capsys):
    assert cli.main(["simulate", "tilted", "--players", "3", "--bots", "random,planner"]) == 2
    assert "--bots names 2 bots for 3 players" in capsys.readouterr().err
    assert cli.main(["simulate", "tilted", "--bots", "random,genius"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err


class TowerOnlyBot:
    """A registered bot that plays another game only."""

    name = "tower-only"
    games = ("tower",)

    def __init__(self, seed: int, seat: int) -> None:
        self.seed, self.seat = seed, seat


def test_simulate_refuses_a_bot_that_does_not_play_the_game(capsys, monkeypatch):
    monkeypatch.setitem(bots.REGISTRY, "tower-only", f"{__name__}:TowerOnlyBot")
    played = []
    monkeypatch.setattr(playing, "play", lambda *a, **k: played.append(a))
    assert cli.main(["simulate", "tilted", "--bots", "random,tower-only"]) == 2
    assert capsys.readouterr().err == ("balance3d simulate: error: --bots tower-only: does "
                                       "not play tilted (bots that play it: planner, "
                                       "random)\n")
    assert played == []


@pytest.mark.portable
def test_golden_record_replays_byte_for_byte():
    replays_byte_for_byte(GOLDEN)


def test_golden_record_is_judged_identically_turn_by_turn_from_its_kept_states(capsys):
    judged_identically_turn_by_turn(GOLDEN, capsys)


def test_a_scene_file_is_kept_in_the_record_and_opens_once_the_file_is_gone(
        tmp_path, monkeypatch, capsys):
    bundled = balance3d.load_scene("tilted-solo").path
    (tmp_path / "my.toml").write_text(
        f'[scene]\nextends = "{bundled.as_posix()}"\nname = "my-solo"\n')
    monkeypatch.chdir(tmp_path)
    assert cli.main(["simulate", "tilted", "--scene", "my.toml", "--bots", "random",
                     "--seed", "1", "--record", "g.json", "--quiet"]) == 0
    data = json.loads((tmp_path / "g.json").read_text())
    mine = balance3d.load_scene(tmp_path / "my.toml")
    assert data["variant"] == "solo" and len(data["players"]) == 1
    assert data["scene"] == {"name": "my-solo", "digest": mine.digest, "data": mine.data}
    (tmp_path / "my.toml").unlink()
    # opened from elsewhere, without the scene file: rebuilt from the record
    monkeypatch.chdir(tmp_path.parent)
    record = rec.load_record(tmp_path / "g.json")
    scene = playing.record_scene(record)
    assert scene.digest == mine.digest and scene.parts.keys() == mine.parts.keys()
    assert cli.main(["replay", str(tmp_path / "g.json"), "--verify", "--strict",
                     "--quiet"]) == 0
    n = len(data["turns"])
    assert capsys.readouterr().out.endswith(f"{n} identical, 0 within tolerance, 0 different\n")
    state = playing.restore(record, scene)
    assert state.to_dict()["scene"] == data["scene"]
