"""Tri-Ba-Lance's game state: set-up, turns, placements, the end and the score
(the rules as the package docstring reads them)."""
from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

import numpy as np

from balance3d import numerics
from balance3d.games.base import (Action, GameError, Outcome, Pass, Place, Player, RecordError,
                                  Refusal, State, Verdict, ranks_from_keys, run_to_end)
from balance3d.games.phases import PhasedMixin
from balance3d.games.placement import design_vertices
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.games.tribalance.placing import release_pose, settle_still
from balance3d.games.tribalance.rules import (PLATE, WEIGHTS, Phase, piece_key, piece_name,
                                              piece_owner, piece_weight)
from balance3d.games.tribalance.turns import TurnsMixin
from balance3d.meshes.part import Part
from balance3d.physics.world import World
from balance3d.scene import Scene, load_scene

#: Corners of the polygon drawn for a field's release region.
FIELD_POLYGON_CORNERS = 16


class TribalanceState(TurnsMixin, PhasedMixin, State):
    """One game of Tri-Ba-Lance (see the package docstring)."""

    def __init__(self, scene: Scene, players: list[Player], seed: int, variant: str) -> None:
        super().__init__(scene, players, seed, variant)
        n = len(players)
        self._phase = Phase.PLACE
        self._current = 0
        self._hands: list[list[str]] = [[] for _ in range(n)]
        self._placed: dict[str, int] = {}
        self._out: list[int] = []
        self._someone_done = False
        self._idle: list[int] = []
        self._termination: str | None = None

    # ------------------------------------------------------------------ set-up
    def _setup(self) -> None:
        n = len(self.players)
        counts = self.rules.pieces[n]
        for seat in range(n):
            self._hands[seat] = [piece_name(w, seat, k + 1)
                                 for w, c in zip(WEIGHTS, counts) for k in range(c)]
        self.log(None, "setup", f"{n} players, {sum(counts)} pieces each (weights 1..5: "
                                f"{', '.join(map(str, counts))})", counts=list(counts))
        first = self.rules.first_player
        if first == "random":
            first = int(self.rng.integers(n))
        self.log(first, "first", f"{self.players[first].name} starts")
        self._begin_turn(first)

    @property
    def side(self) -> float:
        """m, the plate's side."""
        spec = self.scene.data["parts"][self.world.part(PLATE).name]
        return float(spec["side"])

    def fresh_world(self) -> World:
        """:meth:`State.fresh_world`, without rebuilding a World that nothing changed
        since it was restored from the between-turns snapshot (between turns it is:
        :meth:`commit_world` restores it, and legality checks only read it).  A World
        restored once steps on bit for bit as one restored twice; the restore skipped
        is about 6 % of a judged placement's CPU time (median)."""
        if self._world is not None and self._world.restored_from is self._snapshot:
            return self._world
        return super().fresh_world()

    # ------------------------------------------------------------------ test set-up
    @classmethod
    def arranged(cls, players: int = 2, *, seed: int = 0, scene: Scene | str | None = None,
                 first: int | None = None,
                 hands: list[list[int]] | None = None) -> "TribalanceState":
        """A game set up normally, then changed as asked: for hand-built situations
        (tests, tutorials).  first : the seat to play first.  hands : per seat, the
        piece weights held (taken from the seat's own set)."""
        loaded = load_scene(scene or cls.game.scene_name("basic")) \
            if not isinstance(scene, Scene) else scene
        state = cls.new(loaded, [Player(i, f"Player {i + 1}") for i in range(players)],
                        seed, "basic")
        if hands is not None:
            for seat, weights in enumerate(hands):
                pool = sorted(state._hands[seat], key=piece_key)
                hand = []
                for w in weights:
                    pick = next((p for p in pool if piece_weight(p) == w), None)
                    if pick is None:
                        raise GameError(f"seat {seat} has no weight-{w} piece left to deal")
                    pool.remove(pick)
                    hand.append(pick)
                state._hands[seat] = sorted(hand, key=piece_key)
        if first is not None:
            state.turn = 0
            state._begin_turn(first)
        state.log(None, "arranged", "situation arranged by hand",
                  hands=[list(h) for h in state._hands], current=state._current)
        return state

    def stage(self, placements: list[Place]) -> None:
        """Put pieces on fields without playing a turn (hand-built situations): each
        piece is taken from whoever holds it, lowered onto its field, and physics
        settles until the plate is still.  Nothing is judged."""
        world = self.fresh_world()
        for place in placements:
            for hand in self._hands:
                if place.piece in hand:
                    hand.remove(place.piece)
            self._release(world, place)
            self._placed[place.piece] = place.field
        run_to_end(settle_still(world, self.rules))
        self.commit_world()
        self.log(None, "arranged", "pieces staged: " + ", ".join(
            f"{p.piece} on field {p.field}" for p in placements),
            placed={p.piece: p.field for p in placements})

    # ------------------------------------------------------------------ queries
    def hand(self, seat: int) -> list[str]:
        """The pieces ``seat`` holds, by weight."""
        return list(self._hands[seat])

    @property
    def placed(self) -> dict[str, int]:
        """Pieces on the plate -> their field index, in the order they were placed."""
        return dict(self._placed)

    @property
    def out(self) -> list[int]:
        """Seats that are out, in the order they went out."""
        return list(self._out)

    def free_fields(self) -> list[int]:
        """Indices of the fields no piece stands on."""
        taken = set(self._placed.values())
        return [i for i in range(len(self.rules.fields)) if i not in taken]

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat now: weight x field number of each of their pieces on the plate,
        minus the weight of each piece they hold."""
        fields = self.rules.fields
        out = [0] * len(self.players)
        for piece, field in self._placed.items():
            out[piece_owner(piece)] += piece_weight(piece) * fields[field].number
        for seat, hand in enumerate(self._hands):
            out[seat] -= sum(piece_weight(p) for p in hand)
        return tuple(out)

    def legal_pieces(self, player: int | None = None) -> list[str]:
        seat = self._current if player is None else player
        if self._phase != Phase.PLACE or seat != self._current:
            return []
        return list(self._hands[seat])

    def legal_decisions(self) -> list[Action]:
        """Always empty: the place phase asks for a :class:`Place` (a ``Pass`` is
        legal in it too, and puts the player out)."""
        return []

    def release_area(self) -> dict[str, Any] | None:
        """One region per free field (kind "plate_field"): a polygon around the
        field's circle on the plate's top face, seen from above (m, world x, y),
        its highest point ``top_z`` (m) and the field's ``field`` index and
        ``number``.  ``"taken"`` lists the same for each field a piece stands on,
        with its ``piece``: no release lies there, but a window can say why.  None
        unless the phase is "place"."""
        if self._phase != Phase.PLACE:
            return None
        frame = PlateFrame.of(self.world, self.side)
        radius = self._piece_radius()
        angles = np.linspace(0.0, 2 * math.pi, FIELD_POLYGON_CORNERS, endpoint=False)
        on_field = {field: piece for piece, field in self._placed.items()}
        regions, taken = [], []
        for i, f in enumerate(self.rules.fields):
            ring = [(f.x + radius * math.cos(a), f.y + radius * math.sin(a),
                     frame.thickness / 2) for a in angles]
            points = frame.to_world(ring)
            region = {"polygon": [[float(x), float(y)] for x, y in points[:, :2]],
                      "top_z": float(points[:, 2].max()), "field": i, "number": f.number}
            if i in on_field:
                taken.append({**region, "piece": on_field[i]})
            else:
                regions.append(region)
        return {"kind": "plate_field", "regions": regions, "taken": taken}

    def legal_release(self) -> Place | None:
        """The lightest piece the current player holds on the first free field that
        takes it, or None when the phase is not "place", a turn is running or there
        is none."""
        if self._phase != Phase.PLACE or self.running is not None:
            return None
        return self._find_place(self._current)

    @property
    def outcome(self) -> Outcome | None:
        if self._phase != Phase.OVER:
            return None
        scores = self.scores
        return Outcome(self._termination or "all_done", tuple(float(s) for s in scores),
                       ranks_from_keys(list(scores)))

    # ------------------------------------------------------------------ legality
    def _illegal_reason(self, action: Action) -> str | None:
        if self._phase != Phase.PLACE:
            return Refusal("the game is over", "over")
        if isinstance(action, Pass):
            return None
        if not isinstance(action, Place):
            return Refusal(f"Tri-Ba-Lance has no {type(action).__name__} action",
                           "no_such_action")
        return self._place_reason(action, self._current)

    def _place_reason(self, place: Place, seat: int) -> str | None:
        piece = place.piece
        if piece not in self._hands[seat]:
            return Refusal(f"piece {piece!r} is not yours to place ({self._where(piece)})",
                           "not_yours", piece=piece, seat=seat, **self._whereabouts(piece))
        fields = self.rules.fields
        if isinstance(place.field, bool) or not isinstance(place.field, int) \
                or not 0 <= place.field < len(fields):
            return Refusal(f"field must be a field index 0..{len(fields) - 1}, got "
                           f"{place.field!r}", "malformed", field="field")
        for other, field in self._placed.items():
            if field == place.field:
                return Refusal(f"field {place.field} is taken by {other}", "field_taken",
                               piece=piece, seat=seat, field=place.field, by=other)
        world = self.world
        part = self._part(piece)
        field = fields[place.field]
        pos, quat = release_pose(PlateFrame.of(world, self.side), part, field.x, field.y,
                                 self.rules.release_gap)
        hits = world.overlaps(part, pos, quat)
        if hits:
            return Refusal(f"the piece would overlap {', '.join(hits)} where it is released",
                           "overlap", piece=piece, seat=seat, field=place.field, hits=list(hits))
        return None

    def _find_place(self, seat: int) -> Place | None:
        for piece in sorted(self._hands[seat], key=piece_key):
            for field in self.free_fields():
                place = Place(piece, field)
                if self._place_reason(place, seat) is None:
                    return place
        return None

    def _where(self, piece: str) -> str:
        where = self._whereabouts(piece)
        if where["place"] == "hand":
            return f"{self.players[where['holder']].name} holds it"
        if where["place"] == "plate":
            return f"it stands on field {where['field']}"
        return "no such piece"

    def _whereabouts(self, piece: str) -> dict:
        """Where ``piece`` is, as data: ``{"place": "hand", "holder": seat}``,
        ``{"place": "plate", "field": index}`` or ``{"place": "nowhere"}``."""
        for seat, hand in enumerate(self._hands):
            if piece in hand:
                return {"place": "hand", "holder": seat}
        if piece in self._placed:
            return {"place": "plate", "field": self._placed[piece]}
        return {"place": "nowhere"}

    def piece_part(self, piece: str) -> Part:
        """The part of the piece ``piece`` (by its weight)."""
        return self._part(piece)

    def _part(self, piece: str) -> Part:
        return self.scene.parts[self.rules.piece_parts[piece_weight(piece) - 1]]

    def _piece_radius(self) -> float:
        return max(float(numerics.norm(design_vertices(self.scene.parts[p])[:, :2]).max())
                   for p in self.rules.piece_parts)

    # ------------------------------------------------------------------ turns
    def _in_game(self, seat: int) -> bool:
        return seat not in self._out and bool(self._hands[seat])

    def _run(self, action: Action) -> Generator[None, None, Verdict]:
        if isinstance(action, Pass):
            return self._apply_pass()
        return (yield from self._run_place(action))

    # ------------------------------------------------------------------ saving
    def _state_dict(self) -> dict[str, Any]:
        return {"phase": self._phase.value, "current": self._current,
                "hands": [list(h) for h in self._hands], "placed": dict(self._placed),
                "out": list(self._out), "someone_done": self._someone_done,
                "idle": list(self._idle), "termination": self._termination}

    def _load_state_dict(self, data: dict[str, Any]) -> None:
        n = len(self.players)
        if len(data["hands"]) != n:
            raise RecordError(f"saved tribalance state has hands for {len(data['hands'])} "
                              f"seats, not {n}")
        if data["phase"] not in {p.value for p in Phase}:
            raise RecordError(f"saved tribalance state has unknown phase {data['phase']!r}")
        self._phase = Phase(data["phase"])
        self._current = int(data["current"])
        self._hands = [[str(p) for p in h] for h in data["hands"]]
        self._placed = {str(p): int(f) for p, f in data["placed"].items()}
        self._out = [int(s) for s in data["out"]]
        self._someone_done = bool(data["someone_done"])
        self._idle = [int(s) for s in data["idle"]]
        self._termination = data["termination"]
