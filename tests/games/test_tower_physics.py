"""The helpers Tower's rules add to its physics module: the body under a footprint,
settling when a piece falls off the table, and restoring pieces that left the world."""
from __future__ import annotations

import pytest

from balance3d.games.tower import physics as tower
from balance3d.physics.world import World
from balance3d.scene import load_scene

SCENE = load_scene("tower")
LOGO = SCENE.parts["logo"]
#: m, the table's half side (scenes/shared/common.toml: 1.6 m square, top at z = 0).
TABLE_HALF = 0.8


def table_world() -> World:
    world = World(SCENE.physics)
    for spec in SCENE.bodies:
        if spec.name in ("table", "base_0"):
            world.add(spec.name, SCENE.parts[spec.part], spec.position, static=True)
    return world


def test_the_body_below_is_the_highest_under_the_points():
    world = table_world()
    base = next(b for b in SCENE.bodies if b.name == "base_0").position
    world.add("logo", LOGO, (base[0], base[1], 0.02 + LOGO.extents[2] / 2 + 0.01))
    name, height = tower.body_below(world, [(base[0], base[1]), (base[0] + 0.2, base[1])])
    assert name == "logo"
    assert height == pytest.approx(0.03 + LOGO.extents[2], abs=1e-6)
    assert tower.body_below(world, [(base[0] + 0.2, base[1])]) == ("table", pytest.approx(0.0))
    assert tower.body_below(world, [(5.0, 0.0)]) == (None, -SCENE.physics.table_extent)


def test_a_piece_falling_off_the_table_is_taken_out_while_settling():
    world = table_world()
    world.add("off", LOGO, (TABLE_HALF + 0.1, 0.0, 0.05))
    settled = tower.settling_on_table(world, -0.05)
    while True:
        try:
            next(settled)
        except StopIteration as end:
            report = end.value
            break
    assert report.off_table == ("off",) and not report.timed_out
    assert "off" not in world.names


def test_a_piece_gone_from_the_world_is_brought_back_only_when_asked():
    world = table_world()
    world.add("a", LOGO, (0.0, 0.0, LOGO.extents[2] / 2))
    before = world.snapshot()
    world.remove("a")
    tower.restore_pieces(world, before, ["a"])
    assert "a" not in world.names
    tower.restore_pieces(world, before, ["a"], bring_back=True)
    assert "a" in world.names
    assert tuple(world.pose("a")[0]) == pytest.approx((0.0, 0.0, LOGO.extents[2] / 2))
