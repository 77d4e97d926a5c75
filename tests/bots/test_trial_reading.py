"""The Tower planner's trials end as soon as their answer is known, and that answer
is the one the drop's verdict gives: checked on the drops of the golden record
(whose verdicts the game judged, kept in the record), including the knock without
a fall of the player's own, and on the premise that a table welded over a whole
check moves no more."""
from __future__ import annotations

from pathlib import Path

import pytest

from balance3d import play as playing
from balance3d import record as rec
from balance3d.bots.trials import scratch_world, try_action
from balance3d.games import Drop
from balance3d.games.actions import action_from_dict
from balance3d.games.tower.planner import PlannerBot, TrialReading, stands

GOLDEN = Path(__file__).parents[1] / "golden" / "tower_4p_random_seed5.json"
#: Drop turns of each kind taken from the record (the first ones of each).
PER_KIND = 2


@pytest.fixture(scope="module")
def golden():
    record = rec.load_record(GOLDEN)
    return record, playing.record_scene(record)


def drop_turns(record) -> dict[str, list[int]]:
    """The record's drop turns by what their verdict says: "stood", "fell" (its
    player's own tower, no knock), "knocked" (another tower, the player's own
    standing)."""
    kinds: dict[str, list[int]] = {"stood": [], "fell": [], "knocked": []}
    for i, turn in enumerate(record.data["turns"]):
        verdict = turn["verdict"]
        if verdict["kind"] != "TowerDropVerdict":
            continue
        kind = ("knocked" if verdict["knocked"] and not verdict["fallen"] else
                "fell" if verdict["fallen"] and not verdict["knocked"] else
                "stood" if not verdict["fallen"] and not verdict["knocked"] else None)
        if kind is not None:
            kinds[kind].append(i)
    return kinds


def test_the_record_has_each_kind_of_drop(golden):
    record, _ = golden
    assert all(drop_turns(record).values())


@pytest.mark.parametrize("kind", ["stood", "fell", "knocked"])
def test_a_trial_ends_early_with_the_answer_of_the_drops_verdict(golden, kind):
    record, scene = golden
    for i in drop_turns(record)[kind][:PER_KIND]:
        state = playing.restore(record, scene, after=i)
        drop = action_from_dict(record.data["turns"][i]["action"])
        assert isinstance(drop, Drop)
        answer = try_action(state, drop, TrialReading(state, drop))
        assert answer is (kind == "stood")          # a reading's answer, not a verdict
        assert PlannerBot.trial(state, drop) is (kind == "stood")
        assert stands(try_action(state, drop)) is (kind == "stood")


def test_a_table_welded_over_a_whole_check_moves_no_more(golden):
    record, scene = golden
    for i in drop_turns(record)["stood"][:PER_KIND]:
        state = playing.restore(record, scene, after=i)
        drop = action_from_dict(record.data["turns"][i]["action"])
        copy = state.trial_copy(scratch_world(state))
        reading = TrialReading(state, drop)
        turn = copy.begin(drop)
        settings = copy.world.settings
        chunk = round(settings.rest_check_interval / settings.time_step)
        while turn.advance(chunk) is None and reading(copy.world) is None:
            pass
        assert not turn.done                        # the answer came before the end
        world = copy.world
        poses = {n: [v.tolist() for v in world.pose(n)] for n in world.names}
        assert stands(turn.run())
        # the settled table the verdict was read from: every body where it was
        settled = copy.table_dict()["world"]["bodies"]
        assert {b["name"]: [b["position"], b["orientation"]] for b in settled} == poses
