"""Opening a record: the kept table states restore the game bit for bit, with no
physics run, and the game plays on from there as the original did; older records
(format 2, no kept states) open by playing them again."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import balance3d
from balance3d import cli
from balance3d import play as playing
from balance3d import record as rec
from balance3d import record_states as kept
from balance3d.bots import make_bot
from balance3d.games import load_state, new_game
from balance3d.games.base import action_from_dict
from balance3d.physics.world import World


def refuse_steps(monkeypatch) -> None:
    """From now on World stepping raises: what runs then runs no physics."""
    def refuse(self, n=1):
        raise AssertionError("a World was stepped")
    monkeypatch.setattr(World, "step", refuse)


def played(game: str, players: int, seed: int, actions: int | None = None) -> rec.Recorder:
    """A game of random bots, recorded (``actions`` of it, default to its end)."""
    state = new_game(game, players=players, seed=seed, bots=["random"] * players)
    recorder = rec.Recorder(state)
    bots = [make_bot("random", seed, seat) for seat in range(players)]
    while not state.is_over and (actions is None or len(recorder.turns) < actions):
        recorder.apply(bots[state.current_player].choose(state))
    return recorder


@pytest.fixture(scope="module")
def tower() -> rec.Recorder:
    """Twelve actions of a 2-player Tower game: towers with welded, resting pieces."""
    return played("tower", 2, 4, actions=12)


def test_every_kept_state_restores_the_game_as_it_was_then(tower):
    state, data = tower.state, tower.record()
    record = rec.parse_record(json.loads(rec.dumps(data)))
    scene = playing.record_scene(record)
    # the last one is the live game, to_dict for to_dict
    assert playing.restore(record, scene).to_dict() == json.loads(json.dumps(state.to_dict()))
    # and every earlier one is the table then: the turn counter, the history's length
    for after in (0, 5, 12):
        restored = playing.restore(record, scene, after=after)
        assert len(restored.history) == after
        assert restored.table_dict() == record.table(after)


def test_a_game_restored_from_its_record_plays_on_bit_for_bit(tower, monkeypatch):
    """The rest of the game, played in the original and in the game opened from its
    record, gives the same record, byte for byte."""
    record = rec.parse_record(json.loads(rec.dumps(tower.record())))
    original = played("tower", 2, 4, actions=20)
    more = [action_from_dict(t["action"]) for t in original.record()["turns"][12:]]
    with monkeypatch.context() as patch:
        refuse_steps(patch)
        resumed = playing.resume(record, playing.record_scene(record))
    for action in more:
        resumed.apply(action)
    assert rec.dumps(resumed.record()) == rec.dumps(original.record())


def test_replay_without_verify_runs_no_physics(tower, tmp_path, monkeypatch, capsys):
    path = tmp_path / "tower.json"
    rec.write_record(tower.record(), path)
    refuse_steps(monkeypatch)
    assert cli.main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 12 + 1 and lines[-1].startswith("game not finished after 12 "
                                                             "actions: it waits for a ")


def test_kept_states_are_small_and_exact():
    table = {"turn": 3, "rng": {"state": 1}, "game_state": {"a": [1, 2], "b": 1.0},
             "world": {"time": 0.5, "bodies": [
                 {"name": n, "part": "p", "static": False, "position": [0.1, -0.0, 1e-300],
                  "orientation": [0.0, 0.0, 0.0, 1.0], "linear_velocity": [0.0] * 3,
                  "angular_velocity": [0.0] * 3} for n in ("a", "b")],
                 "welds": {"welded": ["a"], "contacts": [
                     {"body_a": "a", "body_b": "b", "position": [0.1, 0.2, 0.3],
                      "normal": [0.0, 0.0, 1.0], "force": [0.0, 0.0, 9.81],
                      "distance": -1e-5}] * 2}}}
    first = kept.encode(table, None)
    assert json.dumps(kept.decode(json.loads(json.dumps(first)), None, "start")) == \
        json.dumps(table)                     # -0.0 and 1e-300 keep their bits
    later = json.loads(json.dumps(table))
    later["turn"], later["game_state"]["b"] = 4, 1            # an int now, not 1.0
    later["world"]["bodies"][1]["position"][1] = 0.0          # -0.0 -> 0.0
    delta = kept.encode(later, table)
    assert delta["world"]["bodies"][0] == "a" and isinstance(delta["world"]["bodies"][1], dict)
    assert delta["world"]["contacts"] == [["a", "b"]] and "welded" not in delta["world"]
    assert "rng" not in delta and delta["game_state"] == {"b": 1}
    assert json.dumps(kept.decode(json.loads(json.dumps(delta)), table, "turns[0].state")) == \
        json.dumps(later)


def test_a_game_on_an_edited_copy_of_a_bundled_scene_keeps_its_content(tmp_path):
    bundled = balance3d.load_scene("tilted-solo")
    mine = tmp_path / "mine.toml"
    mine.write_text(f'[scene]\nextends = "{bundled.path.as_posix()}"\n'
                    f'name = "tilted-solo"\n[rules]\nbuy_cost = 4\n')
    state = new_game("tilted", players=1, seed=2, scene=str(mine), variant="solo")
    saved = json.loads(json.dumps(state.to_dict()))
    assert saved["scene"]["name"] == "tilted-solo" and "data" in saved["scene"]
    mine.unlink()
    again = load_state(saved)
    assert again.scene.digest == state.scene.digest != bundled.digest
    assert json.loads(json.dumps(again.to_dict())) == saved
    # a bundled scene is named, not kept
    assert "data" not in new_game("tilted", players=1, variant="solo").to_dict()["scene"]


def format_2(data: dict) -> dict:
    """``data`` as a format 2 record writes it: no kept states."""
    old = {k: v for k, v in data.items() if k != "start"}
    old["format"] = 2
    old["turns"] = [{k: v for k, v in t.items() if k != "state"} for t in data["turns"]]
    return old


def test_a_format_2_record_is_played_again_and_a_divergence_gets_one_line(tmp_path, capsys):
    path = tmp_path / "old.json"
    assert cli.main(["simulate", "tilted", "--variant", "solo", "--bots", "random",
                     "--seed", "3", "--record", str(path), "--quiet"]) == 0
    data = json.loads(path.read_text())
    path.write_text(rec.dumps(format_2(data)))
    capsys.readouterr()
    assert cli.main(["replay", str(path), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert cli.main(["replay", str(path), "--verify", "--strict", "--quiet"]) == 0
    assert "a format 2 record keeps no states" in capsys.readouterr().out
    i = next(i for i, t in enumerate(data["turns"]) if t["action"]["type"] == "drop")
    data["turns"][i]["verdict"]["coins_won"] += 1
    path.write_text(rec.dumps(format_2(data)))
    assert cli.main(["replay", str(path), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"note: format 2 record (it keeps no states), played again: it diverges at "
        f"turns[{i}].verdict.coins_won: recorded ")
    assert cli.main(["replay", str(path), "--verify", "--quiet"]) == 1
    assert f"turns[{i}].verdict.coins_won: recorded" in capsys.readouterr().err


#: bytes, the most a record of a whole 4-player Tower game may take.
TOWER_4_LIMIT = 4 * 1024 * 1024


def test_a_whole_4_player_tower_record_stays_under_4_mib(tmp_path):
    path = tmp_path / "tower4.json"
    assert cli.main(["simulate", "tower", "--players", "4", "--bots", "random", "--seed", "0",
                     "--record", str(path), "--quiet"]) == 0
    record = rec.load_record(path)
    assert record.data["outcome"]["termination"] == "all_played"    # a whole game
    assert path.stat().st_size < TOWER_4_LIMIT
