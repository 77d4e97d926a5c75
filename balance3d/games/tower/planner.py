"""Tower's ``planner`` bot: builds tall, flat and centred, checking each drop in a
copy of the game first; gives penalties to the leader.

Drops
    Candidates, best first: one piece of each part the bot may play (letters
    before logos: a logo plaque rocks near an edge, tests/physics), released
    :data:`GAP` above the tower, flat (on edge when a card demands a vertical
    piece), over the centre of mass of the pieces on the tower's top level, turned
    along the top piece's longest horizontal extent; then the same over the base's
    centre.  Each release point is shifted so that the piece's own centre of mass,
    not its bounding box's centre, lies over the spot (a T's lies 7.5 mm towards
    its bar).  A candidate must pass a statics check: the centre of mass of the
    whole tower with the new piece (its mass at the spot) lies over the base's top
    face, at least :data:`MIN_MARGIN` inside it.  Physics is deterministic (a copy
    plays on bit for bit like the original), so a candidate tried in a trial copy
    (:func:`balance3d.bots.trials.try_action`) shows the verdict the real drop will
    get.  A trial ends as soon as its answer is known (:class:`TrialReading`):
    when a piece touches the table (something fell), or when the whole table has
    been welded over a check (nothing moves any more: the towers read then as they
    will at the end).  The first candidate whose trial makes nothing fall and
    knocks no tower is played; at most :data:`MAX_TRIALS` trials per piece (the
    look-ahead budget: each is a copy and a judged drop; a candidate's legality is
    checked only when the trials before it have failed), else the last candidate
    tried; with no candidate, the game's own ``legal_release()``.  The trial of the
    drop played (the one that stands, or the last tried) is run on to its verdict
    and kept (:meth:`~balance3d.games.tower.state.TowerState.keep_trial`): playing
    that drop adopts it, the same game bit for bit, instead of running its physics
    again.
    Each trial is reported (:func:`balance3d.bots.progress.report`: trials made of
    the at most :data:`MAX_TRIALS` candidates that may be tried).

Decisions
    ``target``: the opponent with the tallest tower (the leader; lowest seat on a
    tie).  ``penalty`` (a U-DECIDE card for someone else): "remove top piece" when
    their tower has a piece, else "lose next turn".  ``shape``: the shape the
    target holds fewer of.  ``swap``: a logo piece if it holds one (it keeps its
    letters, which stack steadier), else its first offer.
"""
from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from balance3d import numerics
from balance3d.bots import BotError, SeatedBot
from balance3d.bots.progress import report
from balance3d.bots.trials import keep_last_trial, try_action
from balance3d.games.base import Action, Choose, Drop, State, Verdict
from balance3d.games.placement import design_vertices, pose_rotation
from balance3d.games.tower.judge import piece_centre, read_tower, top_piece
from balance3d.games.tower.rules import LOSE_TURN, REMOVE_TOP, TABLE, piece_part
from balance3d.physics.world import World, WorldError

#: Trials (clone + judged drop) per piece, at most: the look-ahead budget.
MAX_TRIALS = 3
#: m, release height above what lies under the piece.
GAP = 0.001
#: m, how far inside the base's top face the tower's centre of mass must stay.
MIN_MARGIN = 0.01


class PlannerBot(SeatedBot):
    """Plans Tower drops by statics and trials (see the module)."""

    name = "planner"
    #: Games it plays.
    games = ("tower",)

    def choose(self, state: State) -> Action:
        """The planned action for ``state.current_player`` (state unchanged)."""
        self.check_game(state)
        decisions = state.legal_decisions()
        if decisions:
            return self.decide(state, decisions)
        candidates = self.candidates(state)
        planned = min(MAX_TRIALS, len(candidates))
        report(0, planned)
        last = None
        for tried, drop in enumerate(self.legal_candidates(state, candidates), start=1):
            last = drop
            try:
                ok = self.trial(state, drop)
            except WorldError:
                report(tried, planned)
                continue
            report(tried, planned)
            if ok:
                return drop
        if last is not None:
            keep_last_trial(state, last)
            return last
        found = state.legal_release()
        if found is None:
            raise BotError(f"planner: seat {state.current_player} has no legal drop")
        return found

    def legal_candidates(self, state: State,
                         candidates: list[Drop] | None = None) -> Iterator[Drop]:
        """The first :data:`MAX_TRIALS` legal drops of ``candidates`` (default:
        :meth:`candidates`), in order: those the bot will try.  Each one's legality
        is checked only when the one before has been taken, so a bot whose first
        trial stands checks no other."""
        legal = 0
        for drop in self.candidates(state) if candidates is None else candidates:
            if legal == MAX_TRIALS:
                return
            if state.is_legal(drop)[0]:
                legal += 1
                yield drop

    @staticmethod
    def trial(state: State, drop: Drop) -> bool:
        """Whether ``drop`` stands in a copy of ``state`` (nothing falls, no tower is
        knocked): :func:`balance3d.bots.trials.try_action` with a
        :class:`TrialReading`.  A drop that stands is the one played, so its trial
        is kept to its end, for the state to adopt when it is played."""
        answer = try_action(state, drop, TrialReading(state, drop), keep=_stood)
        return _stood(answer)

    @staticmethod
    def decide(state: State, decisions: list[Choose]) -> Choose:
        """The decision (see the module)."""
        what = decisions[0].what
        task = state.tasks[0]
        if what == "target":
            heights = state.heights
            return max(decisions, key=lambda c: (heights[c.value], -c.value))
        if what == "penalty":
            card = REMOVE_TOP if state.tower(task["target"]) else LOSE_TURN
            return next(c for c in decisions if c.value == card)
        if what == "shape":
            hand = state.hand(task["target"])
            count = {c.value: sum(state.rules.shape(piece_part(p)) == c.value for p in hand)
                     for c in decisions}
            return min(decisions, key=lambda c: count[c.value])
        if what == "swap":
            logo = state.rules.logo_part
            return next((c for c in decisions if piece_part(c.value) == logo), decisions[0])
        return decisions[0]

    def candidates(self, state: State) -> list[Drop]:
        """Drops worth a trial, best first, that pass the statics check."""
        seat = state.current_player
        world = state.world
        tower = state.tower(seat)
        pieces: dict[str, str] = {}
        for piece in state.legal_pieces():
            pieces.setdefault(piece_part(piece), piece)
        order = sorted(pieces.values(), key=lambda p: (piece_part(p) == state.rules.logo_part,
                                                       piece_part(p)))
        base_xy = tuple((numerics.fsum_rows(world.vertices(state.base(seat))[:, :2])
                         / len(world.vertices(state.base(seat)))).tolist())
        spots, yaw = [], 0.0
        if tower:
            top_level = max(state.level(p) for p in tower)
            upper = [p for p in tower if state.level(p) == top_level]
            masses = np.array([world.part(p).mass for p in upper])
            centres = np.array([piece_centre(world, p) for p in upper])
            spots.append(tuple((numerics.matmul(masses, centres)
                                / math.fsum(masses.tolist())).tolist()))
            yaw = _yaw(world, top_piece(world, tower))
        spots.append(base_xy)
        pose = "edge" if state.must_stand_vertically[seat] else "flat"
        out = []
        for x, y in spots:
            for piece in order:
                dx, dy = centre_of_mass_offset(state.piece_part(piece), pose, yaw)
                drop = Drop(piece, x - dx, y - dy, GAP, yaw, pose)
                if self._balanced(state, tower, drop, base_xy):
                    out.append(drop)
        return out

    @staticmethod
    def _balanced(state: State, tower: list[str], drop: Drop, base_xy) -> bool:
        """Whether the tower's centre of mass with ``drop``'s piece (at its release
        point) stays :data:`MIN_MARGIN` inside the base's top face."""
        world = state.world
        masses = [world.part(p).mass for p in tower] + [state.piece_part(drop.piece).mass]
        points = [world.pose(p)[0][:2] for p in tower] + [np.array([drop.x, drop.y])]
        com = numerics.matmul(np.asarray(masses), np.asarray(points)) / math.fsum(masses)
        half = float(np.ptp(world.vertices(state.base(state.current_player))[:, 0])) / 2
        return bool(np.all(np.abs(com - np.asarray(base_xy)) <= half - MIN_MARGIN))


def stands(verdict: Verdict) -> bool:
    """Whether a drop's verdict has nothing fallen and no tower knocked."""
    return not verdict.fallen and not verdict.knocked


def _stood(answer: bool | Verdict) -> bool:
    """Whether a trial's answer (a :class:`TrialReading`'s, or the verdict when it
    gave none) says the drop stands."""
    return answer if isinstance(answer, bool) else stands(answer)


class TrialReading:
    """The planner's reading of a trial of ``drop`` in ``state`` while it runs
    (``reading(world)``, as :func:`balance3d.bots.trials.try_action` asks it after
    every ``rest_check_interval``): False (it does not stand), True (it stands) or
    None (not known yet).

    * False once a piece of a tower, or the piece dropped, touches the table
      (within ``contact_distance``) or has left the World (off the table).  It fell:
      a piece down on the table does not climb back up a plinth, so the verdict
      would have it fallen (from its own tower) or knocked (from another).
    * Once every body of the World was welded at the last reading and still is, a
      whole statics pass has found nothing to wake: nothing moves any more, and the
      towers read (:func:`~balance3d.games.tower.judge.read_tower`) as they will
      when the drop is judged.  True when no tower then has a fallen piece (the
      drop's verdict has no fall, and no knock, which needs a fall); False when
      the player's own tower has one; else None (the drop's verdict decides).
    """

    def __init__(self, state: State, drop: Drop) -> None:
        seat = state.current_player
        self.towers = {state.base(s): state.tower(s) for s in range(len(state.players))
                       if s != seat and state.tower(s)}
        self.own = state.base(seat)
        self.towers[self.own] = [*state.tower(seat), drop.piece]
        self.pieces = {p for tower in self.towers.values() for p in tower}
        self.welded = False

    def __call__(self, world: World) -> bool | None:
        """The reading of ``world`` now (see the class)."""
        if not self.pieces.issubset(world.names) or world.touching(TABLE) & self.pieces:
            return False
        welded, self.welded = self.welded, world.welded_set.issuperset(world.dynamic_names)
        if not (welded and self.welded):
            return None
        fell = {base for base, tower in self.towers.items()
                if read_tower(world, base, tower).fallen}
        if self.own in fell:
            return False
        return None if fell else True


def centre_of_mass_offset(part, pose: str, yaw: float) -> tuple[float, float]:
    """(x, y) m: how far the centre of mass of ``part``, released in ``pose`` turned
    by ``yaw`` rad, lies from the centre of its bounding box seen from above (a
    drop's release point): 7.5 mm towards a T's bar."""
    rot = pose_rotation(part, pose, yaw)
    verts = numerics.rotate(rot, design_vertices(part))
    centre = (verts.min(axis=0) + verts.max(axis=0)) / 2
    offset = numerics.rotate(rot, part.design_from_body[:3, 3]) - centre
    return float(offset[0]), float(offset[1])


def _yaw(world, name: str) -> float:
    """rad, in [0, pi): the heading of body ``name``'s longest horizontal extent
    seen from above (the principal axis of its vertices' x, y: half the angle
    atan2(2 c_xy, c_xx - c_yy) of their covariance, sums taken exactly)."""
    xy = world.vertices(name)[:, :2]
    dx, dy = (xy - numerics.fsum_rows(xy) / len(xy)).T
    cxx, cyy, cxy = (math.fsum((u * v).tolist()) for u, v in ((dx, dx), (dy, dy), (dx, dy)))
    return (0.5 * math.atan2(2.0 * cxy, cxx - cyy)) % math.pi
