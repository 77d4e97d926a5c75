"""PhysicsClock: fixed steps owed by the wall time, carried fractions, speed, pause,
the per-frame budget and the time it drops."""
import pytest

from balance3d.gui.clock import PhysicsClock

STEP = 1.0 / 240.0


def test_real_time_owes_whole_steps_and_carries_the_fraction():
    clock = PhysicsClock(STEP)
    # one 60 Hz frame is exactly four 240 Hz steps
    assert clock.steps_due(1.0 / 60.0) == 4
    # a 1/100 s frame owes 2.4 steps: 2 now, 0.4 carried
    assert clock.steps_due(0.01) == 2
    assert clock.carry == pytest.approx(0.4 * STEP)
    # 0.6 more steps' worth completes the carried step
    assert clock.steps_due(0.6 * STEP) == 1
    assert clock.carry == pytest.approx(0.0, abs=1e-12)


def test_many_small_frames_sum_to_the_simulated_time():
    clock = PhysicsClock(STEP)
    total = sum(clock.steps_due(1.0 / 144.0) for _ in range(144))   # one wall second
    assert total == 240
    assert clock.simulated == pytest.approx(1.0)
    assert clock.behind == 0.0


def test_speed_scales_the_steps():
    slow = PhysicsClock(STEP, speed=0.25)
    fast = PhysicsClock(STEP, speed=2.0, max_steps_per_frame=100)
    assert sum(slow.steps_due(1.0 / 60.0) for _ in range(60)) == 60     # 1 s wall = 0.25 s
    assert sum(fast.steps_due(1.0 / 60.0) for _ in range(60)) == 480    # 1 s wall = 2 s


def test_zero_speed_pauses_and_single_step_gives_one():
    clock = PhysicsClock(STEP, speed=0.0)
    assert clock.paused
    assert clock.steps_due(1.0) == 0
    assert clock.carry == 0.0            # nothing is owed while paused
    assert clock.single_step() == 1
    clock.speed = 1.0
    assert clock.single_step() == 0      # a running clock steps by itself
    assert clock.steps_due(1.0 / 60.0) == 4


def test_budget_caps_the_steps_and_reports_the_dropped_time():
    clock = PhysicsClock(STEP, max_steps_per_frame=10)
    # a 0.1 s hitch owes 24 steps; 10 run, 14 steps of time are dropped
    assert clock.steps_due(0.1) == 10
    assert clock.behind == pytest.approx(14 * STEP)
    assert clock.carry < STEP                   # no debt piles up beyond one step
    assert clock.steps_due(1.0 / 60.0) == 4     # the next normal frame is normal
    assert clock.behind == pytest.approx(14 * STEP)


def test_the_step_is_never_varied():
    clock = PhysicsClock(STEP, speed=1.7)
    for dt in (0.003, 0.017, 0.05, 0.0001, 0.033):
        n = clock.steps_due(dt)
        assert isinstance(n, int)
    assert clock.time_step == STEP
    # the simulated time is a whole number of steps
    assert (clock.simulated / STEP) == pytest.approx(round(clock.simulated / STEP))


@pytest.mark.parametrize("bad", [dict(time_step=0.0), dict(time_step=-1.0),
                                 dict(time_step=STEP, speed=-1.0),
                                 dict(time_step=STEP, max_steps_per_frame=0)])
def test_bad_settings_are_refused(bad):
    step = bad.pop("time_step")
    with pytest.raises(ValueError):
        PhysicsClock(step, **bad)


def test_negative_frame_time_is_refused():
    with pytest.raises(ValueError, match="frame_dt"):
        PhysicsClock(STEP).steps_due(-0.01)
