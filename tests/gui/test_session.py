"""The window's session, headless: bots off the render thread, records identical to
``simulate``'s at any speed, human actions, autosave, save/load, undo, restart,
preview and replay."""
from __future__ import annotations

import json
import os
import threading
import time

import pytest

from balance3d import play as playing
from balance3d import record as rec
from balance3d.bots import BotError, make_bot
from balance3d.cli import main as cli_main
from balance3d.games import Drop, IllegalActionError, Player, new_game
from balance3d.games.base import action_to_dict
from balance3d.gui.session import Session, SessionError

#: s of wall time one bot decision may take before a test calls the bot hung: a
#: guard that turns a hang into a failure, not a speed requirement (a random bot's
#: decision takes milliseconds).
PATIENCE = 120.0
#: Ticks a test may run, bot waits aside, before it calls the session stuck: a
#: whole game in real time at the shortest frames below is some 10^5.
MOST_TICKS = 2_000_000
#: s, one 60 Hz frame.
FRAME = 1.0 / 60.0
#: s between two looks at a thinking bot.
BOT_POLL = 0.001


def run_until(session: Session, done, frame_dt: float | list[float] = FRAME) -> int:
    """Tick ``session`` until ``done()`` with frames of ``frame_dt`` s (a list: in
    turn); the number of ticks in which a turn ran.  Ticks while a bot thinks do not
    count towards :data:`MOST_TICKS`; one bot's thinking may last :data:`PATIENCE`."""
    frames = frame_dt if isinstance(frame_dt, list) else [frame_dt]
    running_ticks, count, counted, waited = 0, 0, 0, 0.0
    while not done():
        if counted > MOST_TICKS:
            raise AssertionError(f"the session made no progress in {MOST_TICKS} ticks")
        running_ticks += session.running is not None
        session.tick(frames[count % len(frames)])
        count += 1
        if session.bot_thinking():
            if waited > PATIENCE:
                raise AssertionError(f"a bot gave no answer in {PATIENCE:.0f} s: hung")
            time.sleep(BOT_POLL)
            waited += BOT_POLL
        else:
            counted, waited = counted + 1, 0.0
    return running_ticks


def simulated(players: int, bots: list[str], seed: int, variant: str = "basic") -> str:
    """What ``balance3d simulate`` records for an all-bot game."""
    seats = [Player(i, f"Player {i + 1}", bots[i]) for i in range(players)]
    recorder = rec.Recorder(new_game("tilted", players=seats, seed=seed, variant=variant))
    playing.play(recorder, [make_bot(b, seed, i) for i, b in enumerate(bots)])
    return rec.dumps(recorder.record())


def all_bot_session(players, bots, seed, variant="basic", **kw) -> Session:
    names = [f"Player {i + 1}" for i in range(players)]
    return Session.new("tilted", variant=variant, players=names, bots=bots, seed=seed, **kw)


#: The seed of the human-first games (see :func:`human_first`).
HUMAN_FIRST_SEED = 4


@pytest.fixture
def human_first():
    """Seat 0 human, seat 1 the random bot; ticked until the human is to act.  Seed
    4: Ann's first two drops (``legal_release``) leave her under the 3 coins buying
    takes, so the random bot replies to each (the tests of undo and saving count on
    a reply after a human drop)."""
    session = Session.new("tilted", players=["Ann", "Bob"], bots=[None, "random"],
                          seed=HUMAN_FIRST_SEED)
    run_until(session, session.human_to_act)
    yield session
    session.close()


# ---------------------------------------------------------------------- bots off-thread
class GatedBot:
    """A bot that, once asked, says so (``asked``) and waits until the test lets it
    answer (``answer``); it records where it ran and what it chose, in order."""

    name = "gated"
    games = None

    def __init__(self) -> None:
        self.asked, self.answer = threading.Event(), threading.Event()
        self.seen: list[tuple[threading.Thread, object]] = []
        self.chosen: list = []

    def choose(self, state):
        self.seen.append((threading.current_thread(), state))
        if threading.current_thread() is threading.main_thread():
            raise RuntimeError("asked on the window's own thread: the tick waits for it")
        self.asked.set()
        if not self.answer.wait(PATIENCE):
            raise RuntimeError("never let answer: the tick waited for the bot")
        decisions = state.legal_decisions()
        self.chosen.append(decisions[0] if decisions else state.legal_release())
        return self.chosen[-1]


#: Frames the window ticks while the bot is still thinking.
FRAMES_WHILE_THINKING = 5


def test_a_thinking_bot_does_not_block_the_tick(monkeypatch):
    """The bot is held from answering until the window has ticked several frames:
    each tick returns while the bot waits (a tick that ran the bot itself would
    never return before the bot is let go), and the bot's action is then played."""
    state = new_game("tilted", players=["A", "B"], seed=3)
    gated = GatedBot()
    bots = [gated if seat == state.current_player else None for seat in range(2)]
    cloned_on = []
    clone = type(state).clone
    monkeypatch.setattr(type(state), "clone", lambda self: cloned_on.append(
        threading.current_thread()) or clone(self))
    with Session(rec.Recorder(state), bots) as session:
        session.tick(FRAME)
        assert gated.asked.wait(PATIENCE), "the bot was never asked"
        assert session.bot_thinking() and not session.human_to_act()
        for _ in range(FRAMES_WHILE_THINKING):      # the window keeps ticking meanwhile
            session.tick(FRAME)
            assert session.bot_thinking() and not gated.answer.is_set()
        assert session.recorder.record()["turns"] == []
        gated.answer.set()
        run_until(session, lambda: len(session.recorder.record()["turns"]) == 1)
        thread, seen = gated.seen[0]
        assert thread is not threading.main_thread()
        assert seen is not session.state                 # the bot planned on a clone
        assert cloned_on[0] is threading.main_thread()   # made on the calling thread
        assert session.recorder.record()["turns"][0]["action"] == action_to_dict(gated.chosen[0])


def test_a_failing_bot_is_reported_by_tick():
    class Broken:
        name, games = "broken", None

        def choose(self, state):
            raise RuntimeError("no idea")

    state = new_game("tilted", players=["A", "B"], seed=3)
    bots = [Broken() if seat == state.current_player else None for seat in range(2)]
    with Session(rec.Recorder(state), bots) as session:
        with pytest.raises(BotError, match="broken.*no idea"):
            run_until(session, lambda: False)


# ---------------------------------------------------------------------- same record as simulate
def test_between_turns_a_state_and_its_clone_read_the_same_world():
    """Why a bot may plan on a clone: every body's pose, and so every release area
    and legality check, is the same bit for bit in the live state and in its clone
    (the live world is restored from the snapshot a clone is built from)."""
    state = new_game("tilted", players=["A", "B"], seed=1)
    bots = [make_bot("random", 1, seat) for seat in range(2)]
    for _ in range(8):
        clone = state.clone()
        assert state.release_area() == clone.release_area()
        for name in state.world.names:
            for mine, theirs in zip(state.world.pose(name), clone.world.pose(name)):
                assert mine.tolist() == theirs.tolist()
        state.apply(bots[state.current_player].choose(state))


@pytest.mark.parametrize("players, bots, seed, variant", [
    (2, ["random", "random"], 1, "basic"),
    (1, ["random"], 3, "solo"),
])
def test_an_all_bot_game_at_speed_instant_records_what_simulate_records(players, bots, seed,
                                                                        variant):
    with all_bot_session(players, bots, seed, variant, speed="instant") as session:
        run_until(session, lambda: session.state.is_over)
        assert rec.dumps(session.recorder.record()) == simulated(players, bots, seed, variant)


def test_an_all_bot_game_in_real_time_records_what_simulate_records(tmp_path):
    # uneven frames, some shorter than a physics step (nothing to run, a fraction
    # carried), some of several steps
    frames = [0.7 / 240, 1.0 / 60, 0.002, 1.0 / 30, 1.0 / 240]
    with all_bot_session(2, ["random", "random"], 1, speed="real") as session:
        ticks = run_until(session, lambda: session.state.is_over, frame_dt=frames)
        # each drop settles in about 0.7 s of simulated time: some 70 of these
        # frames; the game has more than ten drops
        assert ticks > 500
        # every frame owes at most 8 steps, within the per-frame budget: the view
        # never lags by a whole step
        assert session.clock.most_behind < session.clock.time_step
        mine = rec.dumps(session.recorder.record())
    path = tmp_path / "simulated.json"
    assert cli_main(["simulate", "tilted", "--players", "2", "--bots", "random", "--seed", "1",
                     "--record", str(path), "--quiet"]) == 0
    assert mine == path.read_text()


# ---------------------------------------------------------------------- human actions
def test_an_illegal_human_action_changes_nothing(human_first):
    s = human_first
    before, record = s.state.to_json(), s.recorder.record()
    piece = s.state.legal_pieces()[0]
    with pytest.raises(IllegalActionError, match="release height"):
        s.submit(Drop(piece, 0.1, 0.0, 0.0))
    with pytest.raises(IllegalActionError, match="not yours"):
        s.submit(Drop("1u-2", 0.1, 0.0, 0.01))
    assert s.state.to_json() == before and s.recorder.record() == record
    assert s.running is None and not s.can_undo() and s.human_to_act()


def test_a_legal_human_drop_runs_over_ticks_and_its_verdict_is_recorded(human_first):
    s = human_first
    drop = s.state.legal_release()
    seat = s.state.current_player
    s.submit(drop)
    assert s.running is not None and not s.human_to_act()
    assert drop.piece in s.poses()                       # the piece is in the World now
    s.tick(FRAME)
    assert s.running is not None                         # 4 steps do not settle a drop
    run_until(s, lambda: s.running is None)
    entry = s.recorder.record()["turns"][-1]
    assert entry["action"] == action_to_dict(drop) and entry["player"] == seat
    assert entry["verdict"] == json.loads(json.dumps(s.last_verdict.to_dict()))
    assert s.last_verdict.piece == drop.piece and s.can_undo()


def test_a_human_cannot_act_for_a_bot():
    with Session.new("tilted", players=["A", "B"], bots=["random", "random"], seed=3) as s:
        with pytest.raises(SessionError, match="random bot"):
            s.submit(s.state.legal_release())


# ---------------------------------------------------------------------- autosave
def test_autosave_after_every_action_and_never_a_half_file(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    with Session.new("tilted", players=["Ann", "Bob"], bots=[None, "random"],
                     seed=HUMAN_FIRST_SEED, record_path=path) as s:
        run_until(s, s.human_to_act)
        s.submit(s.state.legal_release())
        run_until(s, lambda: s.running is None)
        assert path.read_text() == rec.dumps(s.recorder.record())
        run_until(s, s.human_to_act)                     # the bot's replies are saved too
        assert path.read_text() == rec.dumps(s.recorder.record())
        saved = path.read_bytes()
        s.submit(s.state.legal_release())
        s.tick(FRAME)
        assert s.running is not None
        # mid-turn the file holds the finished actions only, as a whole record
        assert path.read_bytes() == saved
        assert len(rec.load_record(path).actions) == len(s.recorder.turns)

        # a crash while writing leaves the last whole record and no stray file
        def crash(fd):
            raise OSError(28, "No space left on device")
        monkeypatch.setattr(os, "fsync", crash)
        with pytest.raises(SessionError, match="No space left"):
            run_until(s, lambda: False)
        assert path.read_bytes() == saved
        assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_record_path_holding_another_game_is_refused_at_the_start(tmp_path):
    path = tmp_path / "theirs.json"
    path.write_text(simulated(1, ["random"], 3, "solo"))
    kept = path.read_bytes()
    with pytest.raises(SessionError, match="theirs.json holds a different game"):
        Session.new("tilted", players=["Ann", "Bob"], bots=[None, "random"], seed=3,
                    record_path=path)
    assert path.read_bytes() == kept
    with pytest.raises(SessionError, match="is a folder"):
        Session.new("tilted", players=["Ann", "Bob"], bots=[None, "random"], seed=3,
                    record_path=tmp_path)


# ---------------------------------------------------------------------- pacing
@pytest.mark.parametrize("speed, steps", [("real", 4), ("fast", 16)])
def test_a_frame_runs_the_steps_its_wall_time_owes(human_first, speed, steps):
    s = human_first
    s.speed = speed
    s.submit(s.state.legal_release())
    step = s.state.world.settings.time_step
    start = s.state.world.time
    s.tick(FRAME)                               # 1/60 s at 1x = 4 steps of 1/240 s
    assert s.state.world.time - start == pytest.approx(steps * step)


def test_pause_and_single_step(human_first):
    s = human_first
    s.submit(s.state.legal_release())
    step = s.state.world.settings.time_step
    s.clock.speed = 0.0
    start = s.state.world.time
    for _ in range(10):
        s.tick(FRAME)
    assert s.state.world.time == start and s.running is not None
    s.single_step()
    assert s.state.world.time - start == pytest.approx(step)
    s.clock.speed = 1.0
    run_until(s, lambda: s.running is None)


def test_instant_finishes_a_human_drop_at_once(human_first):
    s = human_first
    s.speed = "instant"
    s.submit(s.state.legal_release())
    assert s.running is None and s.last_verdict is not None
    assert s.tick(FRAME)[0].startswith("Ann drops")


# ---------------------------------------------------------------------- save and load
def test_save_only_between_turns_and_never_over_another_game(tmp_path, human_first):
    s = human_first
    path = tmp_path / "save.json"
    s.save(path)
    s.submit(s.state.legal_release())
    with pytest.raises(SessionError, match="while a turn runs"):
        s.save(path)
    run_until(s, lambda: s.running is None)
    s.save(path)                                         # the same game, grown
    assert path.read_text() == rec.dumps(s.recorder.record())
    other = tmp_path / "other.json"
    other.write_text(simulated(1, ["random"], 3, "solo"))
    kept = other.read_bytes()
    with pytest.raises(SessionError, match="other.json holds a different game"):
        s.save(other)
    assert other.read_bytes() == kept
    notes = tmp_path / "notes.json"
    notes.write_text("my notes\n")
    with pytest.raises(SessionError, match="notes.json exists and is not a game record"):
        s.save(notes)
    assert notes.read_text() == "my notes\n"


def test_load_restores_the_last_kept_state_and_goes_on_identically(tmp_path, human_first,
                                                                  monkeypatch):
    s = human_first
    s.submit(s.state.legal_release())
    run_until(s, s.human_to_act)
    path = tmp_path / "mid.json"
    s.save(path)
    refuse_steps(monkeypatch)
    loaded = Session.load(path)                       # no physics runs to open it
    monkeypatch.undo()
    with loaded:
        assert loaded.state.to_json() == s.state.to_json()
        again = tmp_path / "again.json"
        loaded.save(again)
        assert again.read_bytes() == path.read_bytes()
        assert loaded.human_to_act() and loaded.bot(1).name == "random"
        # the same human drop in both continues both the same way
        drop = s.state.legal_release()
        for session in (s, loaded):
            session.submit(drop)
            run_until(session, lambda: session.running is None)
        assert loaded.state.to_json() == s.state.to_json()
        loaded.save(path)                                # an earlier record of this game
        grown = path.read_text()
        # undo goes back to the state the game was loaded in, and its record
        while loaded.can_undo():
            loaded.undo()
        assert loaded.recorder.record() == rec.load_record(again).data
        loaded.submit(drop)                              # and on again, the same way
        run_until(loaded, lambda: loaded.running is None)
        assert rec.dumps(loaded.recorder.record()) == grown
    assert cli_main(["replay", str(path), "--verify", "--strict", "--quiet"]) == 0


def test_load_can_seat_other_bots(tmp_path, human_first):
    s = human_first
    path = tmp_path / "g.json"
    s.save(path)
    with Session.load(path, bots=["random", "random"]) as loaded:
        assert loaded.bot(0).name == "random" and not loaded.human_to_act()
        assert [p.bot for p in loaded.state.players] == ["random", "random"]
        # the same game, whoever plays its seats: autosave may go on in its file
        loaded.record_path = path
        run_until(loaded, lambda: len(loaded.recorder.turns) > len(s.recorder.turns))
        assert path.read_text() == rec.dumps(loaded.recorder.record())
    other = tmp_path / "other.json"
    other.write_text(simulated(1, ["random"], 3, "solo"))
    with Session.load(path) as loaded:
        with pytest.raises(SessionError, match="other.json holds a different game"):
            loaded.record_path = other
        assert loaded.record_path is None


# ---------------------------------------------------------------------- undo and restart
def test_undo_goes_back_before_the_last_human_action_and_its_replies(human_first):
    s = human_first
    before, turns = s.state.to_json(), len(s.recorder.turns)
    drop = s.state.legal_release()
    s.submit(drop)
    run_until(s, s.human_to_act)                         # the bot has replied
    after = s.recorder.record()
    assert len(after["turns"]) > turns + 1
    s.undo()
    assert s.state.to_json() == before
    assert len(s.recorder.record()["turns"]) == turns
    assert not s.can_undo() and s.human_to_act()
    with pytest.raises(SessionError, match="nothing to undo"):
        s.undo()
    # the bots are as they were: the same drop meets the same replies
    s.submit(drop)
    run_until(s, s.human_to_act)
    assert s.recorder.record() == after


def test_undo_during_a_running_turn_or_a_bot_move(human_first):
    s = human_first
    before = s.state.to_json()
    s.submit(s.state.legal_release())
    s.tick(FRAME)
    assert s.running is not None
    s.undo()
    assert s.running is None and s.state.to_json() == before


def test_restart_gives_a_fresh_game_with_the_same_seats(human_first):
    s = human_first
    s.submit(s.state.legal_release())
    run_until(s, s.human_to_act)
    s.restart()
    fresh = new_game("tilted", players=[Player(0, "Ann"), Player(1, "Bob", "random")],
                     seed=HUMAN_FIRST_SEED)
    assert s.state.to_json() == fresh.to_json()
    assert s.recorder.record()["turns"] == [] and not s.can_undo() and s.last_verdict is None


def test_restart_with_autosave_keeps_the_game_left_behind(human_first, tmp_path):
    s = human_first
    path = tmp_path / "game.json"
    (tmp_path / "game-2.json").write_text("someone else's file\n")
    s.record_path = path
    s.submit(s.state.legal_release())
    run_until(s, s.human_to_act)
    played = path.read_bytes()
    assert json.loads(played)["turns"]
    s.restart()
    assert path.read_bytes() == played                   # the old game is kept
    assert (tmp_path / "game-2.json").read_text() == "someone else's file\n"
    assert s.record_path == tmp_path / "game-3.json"
    assert json.loads((tmp_path / "game-3.json").read_text())["turns"] == []
    s.restart()                                          # nothing played: same file
    assert s.record_path == tmp_path / "game-3.json"


# ---------------------------------------------------------------------- preview
def test_preview_gives_the_verdict_apply_would_and_leaves_the_game(human_first):
    s = human_first
    drop = s.state.legal_release()
    before = s.state.to_json()
    verdict = s.preview(drop).result(timeout=PATIENCE)
    assert verdict == s.state.clone().apply(drop)
    assert s.state.to_json() == before and s.human_to_act()
    bad = s.preview(Drop(drop.piece, drop.x, drop.y, 0.0))
    with pytest.raises(IllegalActionError):
        bad.result(timeout=PATIENCE)


# ---------------------------------------------------------------------- replay
def refuse_steps(monkeypatch) -> None:
    """From now on World stepping raises: what runs then runs no physics."""
    from balance3d.physics.world import World

    def refuse(self, n=1):
        raise AssertionError("a World was stepped")
    monkeypatch.setattr(World, "step", refuse)


def test_replaying_shows_each_recorded_turn_from_its_kept_state(tmp_path, monkeypatch):
    path = tmp_path / "solo.json"
    path.write_text(simulated(1, ["random"], 3, "solo"))
    original = rec.load_record(path)
    refuse_steps(monkeypatch)
    scene = playing.record_scene(original)
    with Session.replaying(path) as s:
        assert not s.human_to_act()
        assert s.state.to_dict() == playing.restore(original, scene, after=0).to_dict()
        shown = []
        while (action := s.next_action()) is not None:
            shown.append(action)
            done = len(shown)
            assert s.running is None and s.replay_position == (done, len(original.actions))
            # the game as the record kept it after that turn, and that turn's verdict
            assert s.state.to_dict() == playing.restore(original, scene, after=done).to_dict()
            assert s.last_verdict.to_dict() == original.data["turns"][done - 1]["verdict"]
            assert s.tick(FRAME) == [e["text"] for e in original.data["turns"][done - 1]["events"]]
        assert shown == list(original.actions)
        assert rec.dumps(s.recorder.record()) == path.read_text()
        assert s.replay_differences() == []
        s.restart()                                       # back to the first turn
        assert s.replay_position == (0, len(shown))
        assert s.state.to_dict() == playing.restore(original, scene, after=0).to_dict()


def _format_2(data: dict) -> dict:
    """``data`` as a format 2 record writes it: no kept states."""
    old = {k: v for k, v in data.items() if k != "start"}
    old["format"] = 2
    old["turns"] = [{k: v for k, v in t.items() if k != "state"} for t in data["turns"]]
    return old


def test_an_older_record_opens_by_playing_it_again_and_says_where_it_diverges(tmp_path):
    data = json.loads(simulated(1, ["random"], 3, "solo"))
    path = tmp_path / "old.json"
    path.write_text(rec.dumps(_format_2(data)))
    with Session.replaying(path) as s:                 # played again, then shown
        while s.next_action() is not None:
            pass
        assert rec.dumps(s.recorder.record()) == rec.dumps(data)
    with Session.load(path) as s:                      # saved again where it was: format 3
        s.save(path)
    assert path.read_text() == rec.dumps(data)
    path.write_text(rec.dumps(_format_2(data)))
    first_drop = next(i for i, t in enumerate(data["turns"]) if t["action"]["type"] == "drop")
    data["turns"][first_drop]["verdict"]["settles"] += 1            # not what physics says
    path.write_text(rec.dumps(_format_2(data)))
    for opening in (Session.replaying, Session.load):
        with pytest.raises(SessionError) as err:
            opening(path)
        assert str(err.value) == (
            f"{path}: format 2 record (it keeps no states), played again: it diverges at "
            f"turns[{first_drop}].verdict.settles: recorded "
            f"{data['turns'][first_drop]['verdict']['settles']}, replayed "
            f"{data['turns'][first_drop]['verdict']['settles'] - 1}")


# ---------------------------------------------------------------------- settings
def test_bad_settings_are_refused():
    with pytest.raises(SessionError, match="speed"):
        Session.new("tilted", players=["A"], bots=["random"], seed=0, variant="solo",
                    speed="warp")
    with pytest.raises(SessionError, match="2 bot entries for 1 players"):
        Session.new("tilted", players=["A"], bots=[None, None], seed=0, variant="solo")
    with pytest.raises(SessionError, match="bot 'nobody'"):
        Session.new("tilted", players=["A"], bots=["nobody"], seed=0, variant="solo")


def test_a_physics_error_mid_turn_ends_the_turn_and_leaves_the_game_as_before(human_first,
                                                                              monkeypatch):
    from balance3d.physics.world import World, WorldError

    s = human_first
    before = s.state.to_json()
    s.submit(s.state.legal_release())

    def blow_up(self, n=1):
        raise WorldError("invalid state: a body left the table")
    monkeypatch.setattr(World, "step", blow_up)
    with pytest.raises(WorldError, match="left the table"):
        s.tick(FRAME)
    monkeypatch.undo()
    assert s.running is None and s.human_to_act()
    assert s.state.to_json() == before


def test_two_undos_go_back_two_human_actions_and_autosave_follows(tmp_path):
    path = tmp_path / "autosave.json"
    with Session.new("tilted", players=["Ann", "Bob"], bots=[None, "random"],
                     seed=HUMAN_FIRST_SEED, record_path=path) as s:
        run_until(s, s.human_to_act)
        first, turns = s.state.to_json(), len(s.recorder.turns)
        human_actions = 0
        for _ in range(2):
            s.submit(s.state.legal_release())
            human_actions += 1
            run_until(s, s.human_to_act)
            if s.state.phase == "buy":                 # decline, so the bot plays
                s.submit(s.state.legal_decisions()[-1])
                human_actions += 1
                run_until(s, s.human_to_act)
        longest = path.read_text()
        for _ in range(human_actions):
            assert s.can_undo()
            s.undo()
        assert not s.can_undo()
        assert s.state.to_json() == first and len(s.recorder.turns) == turns
        # the autosave follows the session back: the file is its own, not another game's
        assert path.read_text() == rec.dumps(s.recorder.record()) != longest
