"""Tri-Ba-Lance's ``planner`` bot: estimates every placement by mechanics, tries the
best in copies of the game and plays the best valid one.

Placements
    Physics is deterministic (a cloned state plays on bit for bit like the
    original), so a placement tried in ``state.clone()`` shows exactly the verdict
    the real one will get.  A trial costs a clone and a judged placement (about a
    tenth of a second), so the planner makes at most :data:`MAX_TRIALS` per turn,
    chosen by a static estimate, and never uses a wall-clock limit.

    The estimate is the plate's rolling balance on the ball (small angles): the
    pieces' mass moment about the plate's centre, ``sum m_i r_i`` (kg m, plate
    frame, each piece at its field's centre), tilts the plate by
    ``theta = |sum m_i r_i| / (M (R - t/2) + sum m_i (R - y_i))`` towards it (M, t:
    the plate's mass and thickness; R: the ball's radius; y_i: a piece's centre of
    mass above the plate's underside), and the plate reaches the frame when
    ``theta h = gap``, h being how far the plate reaches in that direction (a corner
    or a side) and gap the clearance between the level plate and the frame.  A
    placement's *load* is theta h / gap with the piece added: below 1 the plate
    should stay clear of the frame.

    Its *value* is what placing the piece there gains at the end: weight x (field
    number + 1), its points on the plate plus the weight it would cost in the hand.
    Candidates are every weight the bot holds on every free field; those with a
    load of at most :data:`MAX_LOAD` are tried by value, highest first (on equal
    values the lower load, i.e. the one that counterbalances more, first).  The
    first trial that is valid and slides no piece off is played.  When no trial is
    valid, the candidate with the lowest load (the best counterweight) is played:
    an invalid turn costs the piece's return (or, once a player has placed
    everything, the rest of the game, as a pass would), so the bot never passes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from balance3d import numerics
from balance3d.bots import BotError, SeatedBot
from balance3d.bots.progress import report
from balance3d.games.base import Action, Place, State
from balance3d.games.placement import design_extents
from balance3d.games.tribalance.rules import BALL, FRAME, PLATE, piece_key, piece_weight
from balance3d.games.tribalance.verdicts import TribalanceVerdict
from balance3d.meshes.builders import triangle_outline
from balance3d.physics.world import WorldError

#: Trials (clone + judged placement) per turn, at most.
MAX_TRIALS = 3
#: Highest estimated load (tilt over the tilt that reaches the frame) worth a trial.
MAX_LOAD = 0.95


@dataclass(frozen=True)
class Candidate:
    """A placement with its estimated ``load`` and ``value`` (points at the end
    against keeping the piece)."""

    place: Place
    load: float
    value: int


class PlannerBot(SeatedBot):
    """Plans Tri-Ba-Lance placements by mechanics and trials (see the module)."""

    name = "planner"
    #: Games it plays.
    games = ("tribalance",)

    def choose(self, state: State) -> Action:
        """The planned placement for ``state.current_player`` (state unchanged)."""
        self.check_game(state)
        candidates = self.candidates(state)
        if not candidates:
            found = state.legal_release()
            if found is None:
                raise BotError(f"planner: seat {state.current_player} has no placement")
            return found
        safe = sorted((c for c in candidates if c.load <= MAX_LOAD),
                      key=lambda c: (-c.value, c.load))
        planned = min(MAX_TRIALS, len(safe))
        report(0, planned)
        for tried, candidate in enumerate(safe[:MAX_TRIALS], start=1):
            verdict = self.trial(state, candidate.place)
            report(tried, planned)
            if verdict is not None and verdict.valid and not verdict.slid_off:
                return candidate.place
        return min(candidates, key=lambda c: (c.load, -c.value)).place

    @staticmethod
    def trial(state: State, place: Place) -> TribalanceVerdict | None:
        """The verdict ``place`` gets in a copy of ``state`` (None when the World
        fails)."""
        try:
            return state.clone().apply(place)
        except WorldError:
            return None

    def candidates(self, state: State) -> list[Candidate]:
        """Every legal placement of one piece of each weight held on each free field,
        with its estimated load and value (see the module)."""
        model = _Balance.of(state)
        rules = state.rules
        pieces: dict[int, str] = {}
        for piece in sorted(state.legal_pieces(), key=piece_key):
            pieces.setdefault(piece_weight(piece), piece)
        moment, inertia = model.loads(state.placed)
        out = []
        for weight, piece in pieces.items():
            for field in state.free_fields():
                place = Place(piece, field)
                if not state.is_legal(place)[0]:
                    continue
                f = rules.fields[field]
                m, y = model.piece(weight)
                load = model.load(moment + m * np.array([f.x, f.y]), inertia + m * (model.R - y))
                out.append(Candidate(place, load, weight * (f.number + 1)))
        return out


@dataclass(frozen=True)
class _Balance:
    """The mechanics of the scene's plate on its ball (see the module)."""

    state: State
    R: float
    base: float
    gap: float
    corners: np.ndarray

    @classmethod
    def of(cls, state: State) -> "_Balance":
        scene = state.scene
        parts = {b.name: scene.parts[b.part] for b in scene.bodies}
        where = {b.name: b.position for b in scene.bodies}
        plate = parts[PLATE]
        t = float(design_extents(plate)[2])
        radius = float(design_extents(parts[BALL])[2]) / 2
        gap = (where[PLATE][2] - t / 2) - where[FRAME][2]
        return cls(state, radius, plate.mass * (radius - t / 2), gap,
                   triangle_outline(state.side))

    def piece(self, weight: int) -> tuple[float, float]:
        """Mass (kg) and centre-of-mass height above the plate's underside (m) of a
        piece of ``weight``."""
        part = self.state.scene.parts[self.state.rules.piece_parts[weight - 1]]
        t = float(design_extents(self.state.world.part(PLATE))[2])
        return part.mass, t + float(design_extents(part)[2]) / 2

    def loads(self, placed: dict[str, int]) -> tuple[np.ndarray, float]:
        """The mass moment (kg m, plate frame) of the pieces on the plate and the
        plate's rolling stiffness with them (kg m)."""
        moment, stiffness = np.zeros(2), self.base
        for piece, field in placed.items():
            m, y = self.piece(piece_weight(piece))
            f = self.state.rules.fields[field]
            moment = moment + m * np.array([f.x, f.y])
            stiffness += m * (self.R - y)
        return moment, stiffness

    def load(self, moment: np.ndarray, stiffness: float) -> float:
        """Estimated tilt over the tilt at which the plate reaches the frame."""
        size = float(numerics.norm(moment))
        if size == 0.0:
            return 0.0
        reach = float(numerics.matmul(self.corners, moment / size).max())
        return size / stiffness * reach / self.gap if self.gap > 0 else math.inf
