"""The record format: canonical text, atomic writing, validation messages that name
the field, and the round trip through a real game."""
from __future__ import annotations

import copy
import json

import pytest

from balance3d import play as playing
from balance3d import record as rec
from balance3d.bots import make_bot
from balance3d.games import new_game
from balance3d.games.base import Choose, Drop, Pass, RecordError


def _minimal() -> dict:
    """A small well-formed record (not played: enough for the validator)."""
    def event() -> dict:
        return {"turn": 0, "player": None, "kind": "roll", "text": "seat 0 starts", "data": {}}

    def kept(turn: int, whole: bool = False) -> dict:
        """A kept table state of an empty table (written whole, or against the last)."""
        world = {"time": 0.0, "bodies": [], "contacts": []}
        if whole:
            return {"turn": turn, "rng": {"bit_generator": "PCG64"}, "game_state": {},
                    "world": dict(world, welded=[])}
        return {"turn": turn, "game_state": {}, "world": world}

    return {
        "balance3d": "0.1.0", "format": rec.FORMAT, "game": "tilted", "variant": "basic",
        "seed": 7, "scene": {"name": "tilted", "digest": "0" * 64}, "start": kept(0, True),
        "players": [{"seat": 0, "name": "Ann", "bot": None},
                    {"seat": 1, "name": "Bob", "bot": "random"}],
        "setup": [event()],
        "turns": [
            {"turn": 0, "player": 0, "events": [], "state": kept(0),
             "action": {"type": "drop", "piece": "p0_block_3", "x": 0.1, "y": 0, "height": 0.01,
                        "yaw": 0.0, "pose": "flat"},
             "verdict": {"kind": "Verdict", "player": 0, "summary": "no tilt"}},
            {"turn": 0, "player": 0, "events": [event()], "state": kept(1),
             "action": {"type": "choose", "what": "buy", "value": True},
             "verdict": {"kind": "Verdict", "player": 0, "summary": "bought"}},
            {"turn": 1, "player": 1, "events": [], "action": {"type": "pass"}, "state": kept(2),
             "verdict": {"kind": "Verdict", "player": 1, "summary": "passed"}},
        ],
        "outcome": None,
    }


def test_parse_minimal_record_gives_players_and_actions():
    record = rec.parse_record(_minimal())
    assert [p.name for p in record.players] == ["Ann", "Bob"]
    assert record.players[1].bot == "random"
    assert record.actions == (Drop("p0_block_3", 0.1, 0.0, 0.01, 0.0, "flat"),
                              Choose("buy", True), Pass())


@pytest.mark.parametrize("edit, message", [
    (lambda r: r["turns"][1]["action"].update(foo=1), "turns[1].action: unknown field 'foo'"),
    (lambda r: r["turns"][0]["action"].pop("piece"), "turns[0].action: missing field 'piece'"),
    (lambda r: r["turns"][0]["action"].update(x="left"), "turns[0].action.x: must be a number"),
    (lambda r: r["turns"][0]["action"].update(pose=3), "turns[0].action.pose: must be a string"),
    (lambda r: r["turns"][2]["action"].update(type="jump"),
     "turns[2].action.type: unknown action type \"jump\""),
    (lambda r: r["turns"][2].pop("verdict"), "turns[2]: missing field 'verdict'"),
    (lambda r: r["turns"][2].update(player=5), "turns[2].player: no seat 5"),
    (lambda r: r["turns"][1]["events"][0].update(kind=None),
     "turns[1].events[0].kind: must be a string"),
    (lambda r: r.update(seed="7"), "seed: must be an integer"),
    (lambda r: r.update(seed=True), "seed: must be an integer"),
    (lambda r: r.update(extra=1), "record: unknown field 'extra'"),
    (lambda r: r.pop("outcome"), "record: missing field 'outcome'"),
    (lambda r: r["scene"].pop("digest"), "scene: missing field 'digest'"),
    (lambda r: r["players"][1].update(seat=0), "players[1].seat: must be 1"),
    (lambda r: r.update(format=rec.FORMAT + 1), "format: record format"),
    (lambda r: r.update(format=1), "format: record format 1 (balance3d 0.1.0) is older"),
    (lambda r: r.pop("start"), "record: missing field 'start'"),
    (lambda r: r["turns"][1].pop("state"), "turns[1]: missing field 'state'"),
    (lambda r: r["turns"][1]["state"]["world"]["bodies"].append("beam"),
     "turns[1].state.world.bodies[0]: 'beam' is not a body of the state kept before"),
    (lambda r: r["turns"][2]["state"]["world"]["bodies"].append(
        {"name": "beam", "part": "beam", "static": False, "values": "AAAA"}),
     "turns[2].state.world.bodies[0].values: 3 bytes, not 13 float64 values"),
    (lambda r: r["turns"][0]["state"]["world"]["contacts"].append(["a", "b", "#"]),
     "turns[0].state.world.contacts[0][2]: not base64 text"),
    (lambda r: r["turns"][0]["state"]["world"]["contacts"].append(["a", "b"]),
     "turns[0].state.world.contacts[0]: the state kept before has no contacts of"),
    (lambda r: r["start"].pop("rng"), "start: missing field 'rng'"),
    (lambda r: r.update(format=2), "record: unknown field 'start'"),
    (lambda r: r["players"][0].update(name="Ann\nwins"),
     'players[0].name: must be one line of printable text, got "Ann\\nwins" '
     "(character U+000A)"),
    (lambda r: r["players"][1].update(name="Bob\x1b[2J"),
     "players[1].name: must be one line of printable text"),
    (lambda r: r["players"][1].update(name="Bob\u2028"),
     "players[1].name: must be one line of printable text"),
    (lambda r: r["players"][1].update(bot="random\r"),
     "players[1].bot: must be one line of printable text"),
    (lambda r: r["scene"].update(name="tilted\n"), "scene.name: must be one line"),
    (lambda r: r.update(variant="basic\t"), "variant: must be one line"),
])
def test_malformed_record_names_field_and_place(edit, message):
    data = _minimal()
    edit(data)
    with pytest.raises(RecordError) as err:
        rec.parse_record(data)
    assert str(err.value).startswith(message)


def test_names_in_any_script_but_one_line_of_printable_text_are_kept():
    data = _minimal()
    data["players"][0]["name"] = "Zo\u00eb \u738b \u2014 seat 1"
    assert rec.parse_record(data).players[0].name == "Zo\u00eb \u738b \u2014 seat 1"


def test_load_record_names_the_file_and_json_position(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"game": "tilted",\n "seed": }')
    with pytest.raises(RecordError, match=r"bad\.json: not JSON: .* line 2 column 10"):
        rec.load_record(path)
    data = _minimal()
    data["turns"][1]["action"]["foo"] = 1
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"bad\.json: turns\[1\]\.action: unknown field 'foo'"):
        rec.load_record(path)


def test_dumps_is_canonical_and_refuses_nan():
    data = _minimal()
    shuffled = dict(reversed(list(copy.deepcopy(data).items())))
    assert rec.dumps(data) == rec.dumps(shuffled)
    assert rec.dumps(data).endswith("}\n")
    assert f'\n  "format": {rec.FORMAT},\n' in rec.dumps(data)
    data["seed"] = float("nan")
    with pytest.raises(RecordError, match="not JSON-ready"):
        rec.dumps(data)


def test_write_record_keeps_a_different_file_unless_forced(tmp_path):
    path = tmp_path / "game.json"
    data = _minimal()
    assert rec.write_record(data, path) == "written"
    assert rec.write_record(data, path) == "unchanged"
    other = _minimal()
    other["seed"] = 8
    with pytest.raises(RecordError, match="already exists .* --force"):
        rec.write_record(other, path)
    assert json.loads(path.read_text())["seed"] == 7
    assert rec.write_record(other, path, force=True) == "replaced"
    assert json.loads(path.read_text())["seed"] == 8
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_load_script_takes_a_list_or_a_record(tmp_path):
    path = tmp_path / "script.json"
    path.write_text(json.dumps([{"type": "pass"}, {"type": "choose", "what": "buy",
                                                    "value": False}]))
    assert rec.load_script(path) == ([Pass(), Choose("buy", False)], None)
    path.write_text(json.dumps([{"type": "pass", "when": 1}]))
    with pytest.raises(RecordError, match=r"script\.json: \[0\]: unknown field 'when'"):
        rec.load_script(path)
    path.write_text(json.dumps(_minimal()))
    actions, record = rec.load_script(path)
    assert actions == list(record.actions) and len(actions) == 3


def test_diff_records_names_turn_and_field():
    a = _minimal()
    b = copy.deepcopy(a)
    b["turns"][2]["verdict"]["summary"] = "tilted"
    b["balance3d"] = "9.9"
    assert rec.diff_records(a, b) == [
        'turns[2].verdict.summary: recorded "passed", replayed "tilted"']
    b["turns"].pop()
    assert rec.diff_records(a, b)[-1] == "turns: recorded 3 entries, replayed 2"


def test_round_trip_through_a_real_game():
    state = new_game("tilted", players=2, seed=9, bots=["random", "random"])
    recorder = rec.Recorder(state)
    bots = [make_bot("random", 9, seat) for seat in range(2)]
    for _ in range(4):
        recorder.apply(bots[state.current_player].choose(state))
    data = recorder.record()
    assert data["outcome"] is None and len(data["turns"]) == 4
    assert data["setup"] == [e.to_dict() for e in state.events[:len(data["setup"])]]
    assert [t["action"] for t in data["turns"]] == [h["action"] for h in state.history]
    loaded = rec.parse_record(json.loads(rec.dumps(data)))
    assert loaded.data == data
    replayed = playing.replay(loaded, playing.record_scene(loaded)).record()
    assert rec.dumps(replayed) == rec.dumps(data)
    assert rec.diff_records(data, replayed) == []


def test_replay_of_a_record_in_an_older_format_says_so_in_one_line(tmp_path, capsys):
    from balance3d import cli
    data = _minimal()
    data["format"] = 1
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert cli.main(["replay", str(path), "--verify"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert ("record format 1 (balance3d 0.1.0) is older than this balance3d reads (2 to 3)"
            in err)


@pytest.mark.parametrize("player, refused", [
    (None, False), (0, False), (1, False),   # the game itself, and both seats of two
    (2, True), (-1, True),                   # one past the last seat, one before the first
])
def test_turn_player_boundaries(player, refused):
    """A record of 2 players has seats 0 and 1: a turn's player is one of them or
    None, and seat 2, the first past the end, is refused as much as seat -1."""
    data = _minimal()
    data["turns"][2]["player"] = player
    if refused:
        with pytest.raises(RecordError, match=rf"turns\[2\]\.player: no seat {player} "):
            rec.parse_record(data)
    else:
        assert rec.parse_record(data).players[1].seat == 1


@pytest.mark.parametrize("index, seat", [(0, 1), (1, 2), (1, 0), (0, -1)])
def test_player_seat_must_be_its_index_from_either_side(index, seat):
    """A seat one above or one below its place in the list is refused."""
    data = _minimal()
    data["players"][index]["seat"] = seat
    with pytest.raises(RecordError, match=rf"players\[{index}\]\.seat: must be {index}, "
                                          rf"got {seat}"):
        rec.parse_record(data)
