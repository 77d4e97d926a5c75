"""Tilted's ``planner`` bot: tries drops in copies of the game and plays the
one with the best coins.

Drops
    Physics is deterministic (a cloned state plays on bit for bit like the
    original), so a drop tried in ``state.clone()`` shows exactly the verdict the
    real drop will get: the "expected" coins are the coins.  A trial costs a clone
    and a judged drop, from tens of ms on a bare beam to seconds under a pile, so
    the planner makes at most :data:`MAX_TRIALS` of them per drop, chosen by a
    static estimate, and never uses a wall-clock limit (the same game always gets
    the same moves).

    The candidates lay the block *across* the beam (flat, long axis across), its
    centre on the beam's centre line, as far out in a section as it can while
    touching only that section (:data:`LINE_MARGIN` inside the section's outer
    line): the most torque a block can give and still earn the section's value.
    The estimate is the lever rule about the fulcrum's apex line: a candidate's
    *tilt ratio* is its mass moment (kg m) over the moment that now holds the low
    end down (every body's mass times the horizontal distance of its centre of
    mass from the apex line).  For each section, best value first, the smallest
    block with a ratio of at least :data:`TILT_RATIO` is tried; if it does not
    tilt the beam, the next longer one is.  A drop scores its net coins (won minus
    penalty paid); among equal nets, one with no block returned, then the smaller
    block, wins.  The search stops as soon as no section left can beat the best
    net found.

    When nothing tilts (or a tilt costs more than it earns), the smallest block goes
    across the beam just outside the fulcrum section, where it adds the least torque
    for the next player; this trial is made even when the budget is spent, and a
    position further out is tried (budget permitting) if that one costs a penalty.
    A candidate refused before physics (it would overlap a block at release) is
    released higher (:data:`RELEASE_HEIGHTS`) without spending a trial.  Should no
    trial give a verdict, the first legal quiet drop is played untried, else a
    random legal one (the bot's own seeded generator), else the one the game finds
    (``state.legal_release()``).  Each trial is reported
    (:func:`balance3d.bots.progress.report`: trials made of :data:`MAX_TRIALS`,
    the search may stop sooner).

Decisions
    buy : the die has rolled when the bot is asked, so the offer is known
        (``state.size_choice``).  It buys whatever is offered (blocks are what keep
        a player in the game), except in the solo game, where the score is the
        coins left and a block can earn at most the 3 coins it costs.
    size : the larger length (more torque).
    bid : up to ``buy_cost`` coins, one more when the bot holds no more blocks than
        the opponent with the fewest; it raises by the minimum, else passes.
    auction_order : the first block offered.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from balance3d.bots import BotError, SeatedBot
from balance3d.bots.progress import report
from balance3d.bots.random_bot import MAX_TRIES, random_drop
from balance3d.games.base import Action, Choose, Drop, Pass, State
from balance3d.games.tilted import TiltedState, TiltedVerdict, piece_length
from balance3d.games.tilted.judge import FULCRUM, BeamFrame
from balance3d.physics.world import WorldError

#: Trials (clone + judged drop) per drop decision, at most (the quiet drop's first
#: trial is made even beyond it).
MAX_TRIALS = 3
#: Lowest tilt ratio (candidate moment / holding moment) worth a trial.
TILT_RATIO = 0.9
#: m, clearance between a candidate block's footprint and a section's line.
LINE_MARGIN = 0.004
#: m, release heights tried in turn until the game accepts the drop (the lowest is
#: a gentle drop; the higher ones clear blocks the release check finds in the way).
RELEASE_HEIGHTS = (0.003, 0.012, 0.03)


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


class PlannerBot(SeatedBot):
    """Plans Tilted drops by trying them in copies of the game (see the module)."""

    name = "planner"
    #: Games it plays.
    games = ("tilted",)

    # -- decisions -------------------------------------------------------------
    def choose(self, state: State) -> Action:
        """The planned action for ``state.current_player`` (state unchanged)."""
        self.check_game(state)
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
        """The best drop found within :data:`MAX_TRIALS` trials, with its verdict
        (None for a drop played untried)."""
        lengths: dict[int, str] = {}
        for piece in state.legal_pieces():
            lengths.setdefault(piece_length(piece), piece)
        if not lengths:
            raise BotError(f"planner: seat {state.current_player} has no block to drop")
        sizes = sorted(lengths)
        search = _Search(state, lengths)
        report(0, MAX_TRIALS)
        best: Trial | None = None
        for section in sorted(state.rules.sections, key=lambda sec: -sec.value):
            if section.value == 0 or (best is not None and best.net >= section.value):
                continue
            s = section.stop - search.width / 2 - LINE_MARGIN
            if s - search.width / 2 < section.start + LINE_MARGIN:
                continue
            for length in [n for n in sizes if search.ratio(n, s) >= TILT_RATIO]:
                trial = search.trial(length, s)
                if trial is not None and trial.verdict is not None and trial.verdict.tilted:
                    if best is None or trial.key > best.key:
                        best = trial
                    break
        if best is None or best.net <= 0:
            quiet = self._quiet_drop(search, sizes[0])
            if quiet is not None and (best is None or quiet.key > best.key):
                best = quiet
        if best is None or best.verdict is None:
            return self._blind_drop(state, search, sizes)
        return best

    def _blind_drop(self, state: TiltedState, search: "_Search", sizes: list[int]) -> Trial:
        """A legal drop without a trial, when no trial gave a verdict: the first legal
        quiet drop (smallest block first), else a random legal drop, else the legal
        drop the game finds."""
        for length in sizes:
            for section in state.rules.sections:
                if section.value:
                    drop = search.drop(length, section.start + search.width / 2 + LINE_MARGIN)
                    if drop is not None:
                        return Trial(drop, length, None)
        for _ in range(MAX_TRIES):
            drop = random_drop(state, self.rng)
            if state.is_legal(drop)[0]:
                return Trial(drop, piece_length(drop.piece), None)
        found = state.legal_release()
        if found is None:
            raise BotError(f"planner: the game offers seat {state.current_player} no legal "
                           f"drop")
        return Trial(found, piece_length(found.piece), None)

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
                continue
            if best is None or trial.key > best.key:
                best = trial
            if trial.verdict is not None and not trial.verdict.returned:
                break
        return best


class _Search:
    """Trials of drops across the beam at distance ``s`` (m) from the centre line
    on the high side, counted against :data:`MAX_TRIALS` and remembered, and the
    static estimate that orders them."""

    def __init__(self, state: TiltedState, pieces: dict[int, str]) -> None:
        self.state = state
        self.pieces = pieces
        world = state.world
        self.frame = BeamFrame.of(world)
        self.side = -state.low_end
        #: m, the blocks' cross-section (the 1u block's smallest extent).
        self.width = float(min(state.scene.parts[state.rules.block_parts[0]].extents))
        axis = self.frame.rotation[:, 0]
        self.yaw = math.atan2(axis[1], axis[0]) + math.pi / 2
        apex = world.vertices(FULCRUM)
        top = apex[:, 2] >= apex[:, 2].max() - 1e-9
        #: m, world x of the fulcrum's apex line.
        self.pivot = math.fsum(apex[top, 0].tolist()) / int(top.sum())
        high = self.frame.to_world([(self.side * self.frame.half[0], 0.0, 0.0)])[0, 0]
        #: +1 / -1: the direction of the high side along world x.
        self.toward_high = 1.0 if high > self.pivot else -1.0
        #: kg m, the mass moment holding the low end down (>= a small floor).
        self.holding = max(-sum(world.part(n).mass * (world.pose(n)[0][0] - self.pivot)
                                * self.toward_high for n in world.dynamic_names), 1e-9)
        self.trials = 0
        self.seen: dict[tuple[int, float], Trial] = {}

    def ratio(self, length: int, s: float) -> float:
        """Tilt ratio of the ``length`` block across the beam at ``s``: its mass
        moment about the apex line over the moment holding the low end down."""
        part = self.state.scene.parts[self.state.rules.block_parts[length - 1]]
        x = self.frame.to_world([(self.side * s, 0.0, self.frame.half[2])])[0, 0]
        return part.mass * (x - self.pivot) * self.toward_high / self.holding

    def drop(self, length: int, s: float) -> Drop | None:
        """The legal drop of the ``length`` block across the beam centred at ``s``,
        released at the lowest of :data:`RELEASE_HEIGHTS` the game accepts (None
        when it accepts none)."""
        x, y = self.frame.to_world([(self.side * s, 0.0, self.frame.half[2])])[0, :2]
        for height in RELEASE_HEIGHTS:
            drop = Drop(self.pieces[length], float(x), float(y), height, float(self.yaw), "flat")
            if self.state.is_legal(drop)[0]:
                return drop
        return None

    def trial(self, length: int, s: float, force: bool = False) -> Trial | None:
        """Try the drop in a copy of the game; None when the game refuses it at every
        release height or the budget is spent (``force``: try it anyway)."""
        key = (length, round(s, 6))
        if key in self.seen:
            return self.seen[key]
        if not force and self.trials >= MAX_TRIALS:
            return None
        drop = self.drop(length, s)
        if drop is None:
            return None
        self.trials += 1
        try:
            verdict = self.state.clone().apply(drop)
        except WorldError:
            verdict = None
        self.seen[key] = Trial(drop, length, verdict)
        report(self.trials, MAX_TRIALS)
        return self.seen[key]
