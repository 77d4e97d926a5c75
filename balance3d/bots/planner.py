"""The ``planner`` bot for Tilted: tries drops in copies of the game and plays the
one with the best coins.

Drops
    Physics is deterministic (a cloned state plays on bit for bit like the
    original), so a drop tried in ``state.clone()`` shows exactly the verdict the
    real drop will get: the "expected" coins are the coins.  Each trial costs a
    clone and a judged drop, from tens of ms on a bare beam to seconds under a
    pile of thirty blocks, so the search has a budget: at most :data:`MAX_TRIALS`
    trials, and no new trial once the trials so far have simulated
    :data:`WORK_BUDGET` body-steps (physics steps settled times bodies moving:
    what a judged drop's wall time is proportional to).  Both are deterministic
    (never a wall-clock limit), so the same game always gets the same moves.

    The candidates lay the block *across* the beam (flat, long axis across), its
    centre on the beam's centre line, as far out in a section as it can while
    touching only that section (:data:`LINE_MARGIN` inside the section's outer
    line): the most torque a block can give and still earn the section's value.
    For each section, best value first, the largest block in hand is tried; when
    it tilts the beam, a binary search over the smaller lengths in hand finds the
    smallest block that still does (the big blocks are kept for harder tilts).
    A drop scores its net coins (won minus penalty paid); among equal nets, one
    with no block returned, then the smaller block, wins.  The search stops as
    soon as no section left can beat the best net found.

    When nothing tilts (or a tilt costs more than it earns), the smallest block goes
    across the beam just outside the fulcrum section, where it adds the least torque
    for the next player; this trial is made even when the budget is spent, and a
    position further out is tried (budget permitting) if that one costs a penalty.
    Should no trial give a verdict, the first legal quiet drop is played untried,
    else a random legal one (the bot's own seeded generator).

Decisions
    buy : always (blocks are what keep a player in the game), except in the solo
        game, where the score is the coins left and a block can earn at most the
        3 coins it costs.
    size : the larger length (more torque).
    bid : up to ``buy_cost`` coins, one more when the bot holds no more blocks than
        the opponent with the fewest; it raises by the minimum, else passes.
    auction_order : the first block offered.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from balance3d.bots import BotError, bot_rng
from balance3d.bots.random_bot import MAX_TRIES, random_drop
from balance3d.games.base import Action, Choose, Drop, IllegalActionError, Pass, State
from balance3d.games.tilted import TiltedState, TiltedVerdict, piece_length
from balance3d.games.tilted_judge import BeamFrame
from balance3d.physics.world import WorldError

#: Trials (clone + judged drop) per drop decision, at most.
MAX_TRIALS = 10
#: Trials per drop decision whatever their work.
MIN_TRIALS = 2
#: body-steps (physics steps settled x bodies on the beam) simulated per drop
#: decision, at most: about 1 s of trials at the ~60 us per body-step measured on
#: the benchmark machine (benchmarks/bench_games.py).
WORK_BUDGET = 16000
#: m, clearance between a candidate block's footprint and a section's line.
LINE_MARGIN = 0.004
#: m, release height of every candidate (a gentle drop).
RELEASE_HEIGHT = 0.003


@dataclass(frozen=True)
class Trial:
    """A candidate drop and what it did in a copy of the game."""

    drop: Drop
    length: int
    verdict: TiltedVerdict | None

    @property
    def net(self) -> float:
        """Coins won minus penalty paid (-inf for an illegal or failed drop)."""
        v = self.verdict
        return -math.inf if v is None else v.coins_won - v.penalty_paid

    @property
    def key(self) -> tuple:
        """Sort key, larger is better: net coins, no block returned, smaller block."""
        clean = self.verdict is not None and not self.verdict.returned
        return (self.net, clean, -self.length)


class PlannerBot:
    """Plans Tilted drops by trying them in copies of the game (see the module)."""

    name = "planner"

    def __init__(self, seed: int, seat: int) -> None:
        self.seat = seat
        self.rng = bot_rng(seed, seat)

    # -- decisions -------------------------------------------------------------
    def choose(self, state: State) -> Action:
        """The planned action for ``state.current_player`` (state unchanged)."""
        if not isinstance(state, TiltedState):
            raise BotError(f"the planner plays Tilted only, not {state.name!r}")
        if state.phase == "drop":
            return self.plan_drop(state).drop
        options = state.legal_decisions()
        if not options:
            raise BotError(f"planner: nothing to decide in phase {state.phase!r}")
        if state.phase == "buy":
            return Choose("buy", state.variant != "solo")
        if state.phase == "size":
            return max(options, key=lambda a: a.value)
        if state.phase == "bid":
            return self._bid(state, options)
        return options[0]

    def _bid(self, state: TiltedState, options: list[Action]) -> Action:
        seat = state.current_player
        mine = len(state.hand(seat))
        others = [len(state.hand(s)) for s in range(len(state.players))
                  if s != seat and s not in state.eliminated]
        cap = state.rules.buy_cost + (1 if others and mine <= min(others) else 0)
        bids = [a for a in options if isinstance(a, Choose) and a.value <= cap]
        return min(bids, key=lambda a: a.value) if bids else Pass()

    # -- drops -----------------------------------------------------------------
    def plan_drop(self, state: TiltedState) -> Trial:
        """The best drop found within :data:`MAX_TRIALS` trials, with its verdict."""
        lengths: dict[int, str] = {}
        for piece in state.legal_pieces():
            lengths.setdefault(piece_length(piece), piece)
        if not lengths:
            raise BotError(f"planner: seat {state.current_player} has no block to drop")
        sizes = sorted(lengths)
        search = _Search(state, lengths)
        best: Trial | None = None
        for section in sorted(state.rules.sections, key=lambda sec: -sec.value):
            if section.value == 0 or (best is not None and best.net >= section.value):
                continue
            s = section.stop - search.width / 2 - LINE_MARGIN
            if s - search.width / 2 < section.start + LINE_MARGIN:
                continue
            found = self._smallest_tilting(search, sizes, s)
            if found is not None and (best is None or found.key > best.key):
                best = found
        if best is None or best.net <= 0:
            quiet = self._quiet_drop(search, sizes[0])
            if quiet is not None and (best is None or quiet.key > best.key):
                best = quiet
        if best is None or best.verdict is None:
            return self._blind_drop(state, search, sizes)
        return best

    def _blind_drop(self, state: TiltedState, search: "_Search", sizes: list[int]) -> Trial:
        """A legal drop without a trial, when no trial gave a verdict: the first legal
        quiet drop (smallest block first), else a random legal drop."""
        for length in sizes:
            for section in state.rules.sections:
                if section.value:
                    drop = search.drop(length, section.start + search.width / 2 + LINE_MARGIN)
                    if state.is_legal(drop)[0]:
                        return Trial(drop, length, None)
        for _ in range(MAX_TRIES):
            drop = random_drop(state, self.rng)
            if state.is_legal(drop)[0]:
                return Trial(drop, piece_length(drop.piece), None)
        raise BotError(f"planner: no legal drop found for seat {state.current_player}")

    def _smallest_tilting(self, search: "_Search", sizes: list[int], s: float) -> Trial | None:
        """The trial of the smallest length in ``sizes`` that tilts the beam lying
        across it at ``s`` (assuming a longer block tilts when a shorter one does),
        or None when even the longest does not."""
        top = search.trial(sizes[-1], s)
        if top is None or top.verdict is None or not top.verdict.tilted:
            return None
        best, lo, hi = top, 0, len(sizes) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            trial = search.trial(sizes[mid], s)
            if trial is None:
                break
            if trial.verdict is not None and trial.verdict.tilted:
                best = max(best, trial, key=lambda t: t.key)
                hi = mid
            else:
                lo = mid + 1
        return best

    def _quiet_drop(self, search: "_Search", length: int) -> Trial | None:
        """The smallest block across the beam just outside the fulcrum section (or,
        when that costs a penalty, in the next sections out)."""
        best = None
        for section in search.state.rules.sections:
            if section.value == 0:
                continue
            s = section.start + search.width / 2 + LINE_MARGIN
            trial = search.trial(length, s, force=best is None)
            if trial is None:
                break
            if best is None or trial.key > best.key:
                best = trial
            if trial.verdict is not None and not trial.verdict.returned:
                break
        return best


class _Search:
    """Trials of drops across the beam at distance ``s`` on the high side, counted
    against :data:`MAX_TRIALS` and remembered."""

    def __init__(self, state: TiltedState, pieces: dict[int, str]) -> None:
        self.state = state
        self.pieces = pieces
        self.frame = BeamFrame.of(state.world)
        self.side = -state.low_end
        #: m, the blocks' cross-section (the 1u block's smallest extent).
        self.width = float(min(state.scene.parts[state.rules.block_parts[0]].extents))
        axis = self.frame.rotation[:, 0]
        self.yaw = math.atan2(axis[1], axis[0]) + math.pi / 2
        self.trials = 0
        self.work = 0.0
        self.steps_per_second = 1.0 / state.world.settings.time_step
        self.seen: dict[tuple[int, float], Trial] = {}

    def drop(self, length: int, s: float) -> Drop:
        """The drop of the ``length`` block across the beam, centred at distance
        ``s`` (m) from the centre line on the high side."""
        top = self.frame.half[2]
        x, y = self.frame.to_world([(self.side * s, 0.0, top)])[0, :2]
        return Drop(self.pieces[length], float(x), float(y), RELEASE_HEIGHT,
                    float(self.yaw), "flat")

    def trial(self, length: int, s: float, force: bool = False) -> Trial | None:
        """Try the drop in a copy of the game; None when the budget is spent
        (``force``: try it anyway)."""
        key = (length, round(s, 6))
        if key in self.seen:
            return self.seen[key]
        if not force and (self.trials >= MAX_TRIALS or (self.trials >= MIN_TRIALS
                                                        and self.work >= WORK_BUDGET)):
            return None
        self.trials += 1
        drop = self.drop(length, s)
        try:
            verdict = self.state.clone().apply(drop)
        except (IllegalActionError, WorldError):
            verdict = None
        if verdict is not None:
            bodies = 1 + len(verdict.blocks) + len(verdict.returned)
            self.work += verdict.settle_time * self.steps_per_second * bodies
        self.seen[key] = Trial(drop, length, verdict)
        return self.seen[key]
