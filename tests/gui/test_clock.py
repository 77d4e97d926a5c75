"""PhysicsClock: fixed steps owed by the wall time, carried fractions, speed, pause,
the per-frame budget, and the bound on how far the view lags (counted steps and
given frame times: no wall clock)."""
import pytest

from balance3d.gui.clock import MAX_BEHIND, MAX_STEPS_PER_FRAME, PhysicsClock

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


def test_budget_spreads_a_short_hitch_over_frames_and_drops_no_time():
    clock = PhysicsClock(STEP, max_steps_per_frame=10)
    # a 0.1 s hitch owes 24 steps; 10 run now, 14 are carried (within the 1 s bound)
    assert clock.steps_due(0.1) == 10
    assert clock.behind == pytest.approx(14 * STEP)
    # each 60 Hz frame then owes its 4 steps and those carried: 18 -> 10 run,
    # 12 -> 10 run, 6 -> all 6 run
    assert [clock.steps_due(1.0 / 60.0) for _ in range(3)] == [10, 10, 6]
    assert clock.behind == pytest.approx(0.0, abs=1e-12)
    assert clock.simulated == pytest.approx(0.1 + 3.0 / 60.0)   # nothing dropped


def test_the_view_never_lags_more_than_the_bound_with_slow_frames():
    # frames of 0.5 s (2 fps) owe 120 steps each against a budget of 24: after a
    # frame the lag is never above MAX_BEHIND plus one step, and once it reaches
    # the bound a frame runs every step it owes (frames are dropped, time is not)
    clock = PhysicsClock(STEP)
    steps = [clock.steps_due(0.5) for _ in range(20)]
    assert clock.most_behind <= MAX_BEHIND + STEP
    assert steps[:2] == [24, 24]                  # 0.4 s, then 0.8 s left owed
    # the third would leave 1.2 s owed: it runs 312 - 240 steps, down to 1 s
    assert steps[2] == 312 - round(MAX_BEHIND / STEP) > MAX_STEPS_PER_FRAME
    assert all(n == 120 for n in steps[3:])       # at the bound it keeps pace
    assert clock.simulated + clock.behind == pytest.approx(20 * 0.5)


def test_a_long_stall_is_caught_up_in_one_frame_down_to_the_bound():
    clock = PhysicsClock(STEP)
    # a 10 s stall owes 2400 steps: all but MAX_BEHIND's 240 run in this frame
    assert clock.steps_due(10.0) == 2400 - round(MAX_BEHIND / STEP)
    assert clock.behind == pytest.approx(MAX_BEHIND)
    # then the budget of normal frames takes the lag down
    for _ in range(12):
        clock.steps_due(1.0 / 60.0)
    assert clock.behind == pytest.approx(MAX_BEHIND - 12 * (MAX_STEPS_PER_FRAME - 4) * STEP)


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
                                 dict(time_step=STEP, max_steps_per_frame=0),
                                 dict(time_step=STEP, max_behind=-0.5)])
def test_bad_settings_are_refused(bad):
    step = bad.pop("time_step")
    with pytest.raises(ValueError):
        PhysicsClock(step, **bad)


def test_negative_frame_time_is_refused():
    with pytest.raises(ValueError, match="frame_dt"):
        PhysicsClock(STEP).steps_due(-0.01)
