"""Tower's game state: set-up, queries, legality, the release area, the outcome
and saving (the rules as the package docstring reads them)."""
from __future__ import annotations

import math
from collections.abc import Callable, Generator
from typing import Any

import numpy as np
import shapely

from balance3d.games.base import (POSES, Action, Choose, Drop, GameError, Outcome, Player,
                                  RecordError, Refusal, State, Verdict, ranks_from_keys,
                                  run_to_end)
from balance3d.games.placement import drop_fields_refusal
from balance3d.games.tower import physics
from balance3d.games.tower.cards import CardsMixin
from balance3d.games.tower.kept_trials import KeptTrial
from balance3d.games.tower.judge import (base_outline, is_vertical, landing, piece_centre,
                                         read_tower)
from balance3d.games.tower.rules import Phase, piece_key, piece_name, piece_part
from balance3d.games.tower.turns import TurnsMixin
from balance3d.meshes.part import Part
from balance3d.physics.world import World
from balance3d.scene import Scene, load_scene

#: Points per side of the grid of release points the game's own search tries over
#: a base (after the centres of the top level's pieces).
FIND_DROP_GRID = 5


class TowerState(CardsMixin, TurnsMixin, State):
    """One game of Tower (see the package docstring)."""

    def __init__(self, scene: Scene, players: list[Player], seed: int, variant: str) -> None:
        super().__init__(scene, players, seed, variant)
        n = len(players)
        self._hands: list[list[str]] = [[] for _ in range(n)]
        self._towers: list[list[str]] = [[] for _ in range(n)]
        self._levels: dict[str, int] = {}
        self._removed: list[str] = []
        self._out: list[int] = []
        self._skips = [0] * n
        self._vertical = [False] * n
        self._deck: list[str] = []
        self._tasks: list[dict[str, Any]] = []
        self._roller = 0
        self._dice: list[str] = []
        self._loaded: list[list[str]] = []
        self._termination: str | None = None
        #: (snapshot, {key: a reading of its World}): see TurnsMixin._on_snapshot.
        self._landed: tuple | None = None
        #: The last drop tried to its end from this state (:meth:`keep_trial`), and
        #: the one being adopted by :meth:`apply`.
        self._kept: KeptTrial | None = None
        self._adopting: KeptTrial | None = None

    # ------------------------------------------------------------------ set-up
    def _setup(self) -> None:
        n, r = len(self.players), self.rules
        for seat in range(n):
            letters = [r.letter_parts[i % len(r.letter_parts)]
                       for i in range(r.letters_per_player)]
            copies: dict[str, int] = {}
            hand = []
            for part in letters + [r.logo_part] * r.logos_per_player:
                copies[part] = copies.get(part, 0) + 1
                hand.append(piece_name(seat, part, copies[part]))
            self._hands[seat] = sorted(hand, key=piece_key)
        self.log(None, "setup", f"{n} players, {r.letters_per_player} letter and "
                                f"{r.logos_per_player} logo pieces each")
        deck = r.deck()
        self._deck = [deck[i] for i in self.rng.permutation(len(deck))]
        self.log(None, "deck", f"the {len(deck)} penalty cards are shuffled")
        first = int(self.rng.integers(n))
        self.log(first, "first", f"{self.players[first].name} begins")
        self._roller = (first - 1) % n
        self._advance()

    # ------------------------------------------------------------------ test set-up
    @classmethod
    def arranged(cls, players: int = 2, *, seed: int = 0,
                 scene: Scene | str | None = None) -> "TowerState":
        """A game set up normally, its first turn not yet rolled: for hand-built
        situations (tests, tutorials) with :meth:`roll`, :meth:`stage` and
        :meth:`stack_deck`."""
        loaded = load_scene(scene or cls.game.scene_name("basic")) \
            if not isinstance(scene, Scene) else scene
        state = cls.new(loaded, [Player(i, f"Player {i + 1}") for i in range(players)],
                        seed, "basic")
        state._tasks = []
        state.log(None, "arranged", "situation arranged by hand")
        return state

    def trial_copy(self, world: World) -> "TowerState":
        """:meth:`State.trial_copy`, sharing the readings of this snapshot's World
        (landings, overlaps, base outlines: :meth:`_on_snapshot`)."""
        twin = super().trial_copy(world)
        twin._landed = self._landed
        return twin

    def keep_trial(self, action: Action, copy: "TowerState", verdict: Verdict,
                   trade: Callable[[World], World | None] | None = None) -> None:
        """Keep what ``copy``, a :meth:`trial_copy` of this state (unchanged since),
        ended with after playing ``action`` to ``verdict``: :meth:`apply` of the same
        action on this state as it is now adopts it instead of playing it again
        (:mod:`~balance3d.games.tower.kept_trials`; ``trade``: given this state's
        World, the copy's for it, or None).  One trial is kept at a time."""
        self._kept = KeptTrial.of(self, action, copy, verdict, trade)

    def apply(self, action: Action) -> Verdict:
        """:meth:`State.apply`; a drop kept from its trial (:meth:`keep_trial`) that
        fits this state is adopted: the same verdict, history entry, events, game
        and snapshot as playing it gives, without its physics."""
        kept, self._kept = self._kept, None
        self._adopting = kept if kept is not None and kept.fits(self, action) else None
        try:
            return super().apply(action)
        finally:
            self._adopting = None

    def give_turn(self, seat: int, die_1: str, die_2: str) -> None:
        """Hand-built situations: ``seat``'s turn starts with this roll (pending tasks
        dropped)."""
        self._tasks = []
        self._roller = seat
        self.roll(seat, die_1, die_2)
        self._advance()

    def load_dice(self, *rolls: tuple[str, str]) -> None:
        """Hand-built situations: the next turns roll ``rolls`` (die 1, die 2) in
        order, before the game's generator rolls again."""
        self._loaded.extend([str(a), str(b)] for a, b in rolls)

    def keep_only(self, seat: int, pieces: list[str]) -> None:
        """Hand-built situations: ``seat`` keeps only ``pieces`` of their hand; the
        others leave the game."""
        gone = [p for p in self._hands[seat] if p not in pieces]
        self._hands[seat] = [p for p in self._hands[seat] if p in pieces]
        self._removed.extend(gone)

    def stack_deck(self, cards: list[str]) -> None:
        """Hand-built situations: put ``cards`` (taken from the deck) on top, in
        order."""
        for card in reversed(cards):
            self._deck.remove(card)
            self._deck.insert(0, card)

    def stage(self, seat: int, drops: list[Drop]) -> None:
        """Hand-built situations: drop pieces from ``seat``'s hand onto their tower,
        each settled before the next, without turns or rules; their levels are read
        from the World."""
        world = self.fresh_world()
        for drop in drops:
            self._hands[seat].remove(drop.piece)
            part = self.piece_part(drop.piece)
            land = landing(world, part, drop)
            world.drop(drop.piece, part, land.position, land.orientation)
            run_to_end(self._settle(world))
            self._towers[seat].append(drop.piece)
        self._levels.update(read_tower(world, self.base(seat), self._towers[seat]).levels)
        self.commit_world()
        self.log(None, "arranged", f"staged on {self.base(seat)}: "
                 + ", ".join(d.piece for d in drops))

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self._tasks[0]["seat"]

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.is_over else Phase(self._tasks[0]["kind"])

    @property
    def is_over(self) -> bool:
        return self._termination is not None

    @staticmethod
    def base(seat: int) -> str:
        """The body name of ``seat``'s base."""
        return f"base_{seat}"

    def hand(self, seat: int) -> list[str]:
        """The unplayed pieces ``seat`` holds."""
        return list(self._hands[seat])

    def tower(self, seat: int) -> list[str]:
        """The pieces on ``seat``'s tower, in the order played."""
        return list(self._towers[seat])

    def level(self, piece: str) -> int:
        """The level of ``piece`` on its tower (the base is level 0)."""
        return self._levels[piece]

    @property
    def removed(self) -> list[str]:
        """Pieces that left the game, in order."""
        return list(self._removed)

    @property
    def out(self) -> list[int]:
        """Seats that are out, in the order they went out."""
        return list(self._out)

    @property
    def deck(self) -> list[str]:
        """The penalty cards, top first."""
        return list(self._deck)

    @property
    def skips(self) -> list[int]:
        """Per seat, the turns they are still to lose."""
        return list(self._skips)

    @property
    def must_stand_vertically(self) -> list[bool]:
        """Per seat: a "next piece vertical" card is pending: their next piece must
        be released on edge or upright, and it stays pending until a piece of theirs
        comes to rest standing vertically on their tower."""
        return list(self._vertical)

    @property
    def dice(self) -> list[str]:
        """The faces of the last roll (die 1, die 2)."""
        return list(self._dice)

    @property
    def tasks(self) -> list[dict[str, Any]]:
        """What is still to be done this turn, the current task first (copies)."""
        return [dict(t) for t in self._tasks]

    @property
    def heights(self) -> tuple[float, ...]:
        """Per seat, m: the tower's highest point above its base's top face."""
        world = self.world
        return tuple(physics.tower_height(world, self.base(s), t)
                     for s, t in enumerate(self._towers))

    @property
    def scores(self) -> tuple[float, ...]:
        """Per seat, m: the height of the seat's tower now (:attr:`heights`), as the
        outcome's scores give it at the end."""
        return self.heights

    def vertical_pieces(self, seat: int) -> int:
        """How many pieces of ``seat``'s tower stand vertically."""
        return sum(is_vertical(self.world, p) for p in self._towers[seat])

    def piece_part(self, piece: str) -> Part:
        """The part ``piece`` is made of."""
        try:
            return self.scene.parts[piece_part(piece)]
        except (IndexError, KeyError):
            raise GameError(f"no such piece {piece!r}") from None

    def _pieces_of(self, seat: int, shape: str) -> list[str]:
        """``seat``'s unplayed pieces of ``shape`` ("letter or logo": any)."""
        return [p for p in self._hands[seat]
                if self._shape_fits(self.rules.shape(piece_part(p)), shape)]

    def _next_in_game(self, seat: int) -> int | None:
        """The next seat clockwise after ``seat`` that is not out (None: none)."""
        n = len(self.players)
        return next(((seat + k) % n for k in range(1, n) if (seat + k) % n not in self._out),
                    None)

    def _opponents(self, seat: int) -> list[int]:
        return [s for s in range(len(self.players)) if s != seat and s not in self._out]

    def legal_pieces(self, player: int | None = None) -> list[str]:
        if self.phase != Phase.DROP or (player is not None and player != self.current_player):
            return []
        task = self._tasks[0]
        return self._pieces_of(task["seat"], task["shape"])

    def legal_decisions(self) -> list[Action]:
        if self.is_over or self.phase == Phase.DROP:
            return []
        return self._card_decisions()

    def release_area(self) -> dict[str, Any] | None:
        """One region (kind "tower_top"): the current player's base seen from above
        (m, world x, y), ``top_z`` the highest point of their tower (m), and the
        ``base`` body's name.  None unless the phase is "drop"."""
        if self.phase != Phase.DROP:
            return None
        seat = self.current_player
        world = self.world
        outline = base_outline(world, self.base(seat))
        top = float(world.vertices(self.base(seat))[:, 2].max()) + self.heights[seat]
        return {"kind": "tower_top", "regions": [{
            "polygon": [[float(x), float(y)] for x, y in outline.exterior.coords[:-1]],
            "top_z": top, "base": self.base(seat)}]}

    def legal_release(self) -> Drop | None:
        """The first legal drop the game's search finds (:meth:`_find_drop`), or None
        when the phase is not "drop" or a turn is running."""
        if self.phase != Phase.DROP or self.running is not None:
            return None
        task = self._tasks[0]
        return self._find_drop(task["seat"], task["shape"])

    def _find_drop(self, seat: int, shape: str) -> Drop | None:
        """A legal drop for ``seat`` of a piece of ``shape``: the first of their
        pieces, :data:`~balance3d.games.tower.rules.FIND_DROP_HEIGHT` up, over the
        centre of each piece of their top level (highest first), then over a
        :data:`FIND_DROP_GRID` grid over their base; flat (on edge and upright when a
        card demands a vertical piece), yaw 0 then a quarter turn."""
        pieces = self._pieces_of(seat, shape)
        if not pieces:
            return None
        world = self.world
        top = self._top_level(seat)
        spots = [piece_centre(world, p) for p in self._towers[seat] if self._levels[p] == top]
        x0, y0, x1, y1 = base_outline(world, self.base(seat)).bounds
        inset = (x1 - x0) / (2 * FIND_DROP_GRID)
        spots += [(float(x), float(y))
                  for x in np.linspace(x0 + inset, x1 - inset, FIND_DROP_GRID)
                  for y in np.linspace(y0 + inset, y1 - inset, FIND_DROP_GRID)]
        poses = ("edge", "upright") if self._vertical[seat] else POSES
        for x, y in spots:
            for pose in poses:
                for yaw in (0.0, math.pi / 2):
                    drop = Drop(pieces[0], x, y, self.rules.find_drop_height, yaw, pose)
                    if self._drop_reason(drop, seat, shape) is None:
                        return drop
        return None

    @property
    def outcome(self) -> Outcome | None:
        """Scores are tower heights (m); ranks by height (rounded to whole
        ``height_tie``), then by vertical pieces; equal keys share."""
        if not self.is_over:
            return None
        heights = self.heights
        keys = [(round(h / self.rules.height_tie), self.vertical_pieces(s))
                for s, h in enumerate(heights)]
        return Outcome(self._termination, tuple(heights), ranks_from_keys(keys))

    # ------------------------------------------------------------------ legality
    def _illegal_reason(self, action: Action) -> str | None:
        if self.is_over:
            return Refusal("the game is over", "over")
        if isinstance(action, Choose):
            if self.phase == Phase.DROP:
                return Refusal("a drop is asked for, not a decision", "drop_asked")
            options = self._card_decisions()
            if action not in options:
                return Refusal(f"the {self.phase.value} decision takes one of: "
                               + ", ".join(f"{o.what}={o.value!r}" for o in options),
                               "decision_value", phase=self.phase.value)
            return None
        if not isinstance(action, Drop):
            return Refusal(f"Tower has no {type(action).__name__} action", "no_such_action")
        if self.phase != Phase.DROP:
            return Refusal(f"a {self.phase.value} decision is asked for, not a drop",
                           "decision_asked", phase=self.phase.value, piece=action.piece)
        task = self._tasks[0]
        return self._drop_reason(action, task["seat"], task["shape"])

    def _drop_reason(self, drop: Drop, seat: int, shape: str) -> str | None:
        """Why ``seat`` may not make ``drop`` of a piece of ``shape`` now, or None."""
        piece = drop.piece
        if piece not in self._hands[seat]:
            return Refusal(f"piece {piece!r} is not yours to play ({self._where(piece)})",
                           "not_yours", piece=piece, seat=seat, **self._whereabouts(piece))
        if piece not in self._pieces_of(seat, shape):
            return Refusal(f"the roll asks for a {shape} piece, and {piece} is not one",
                           "wrong_shape", piece=piece, seat=seat, shape=shape)
        malformed = drop_fields_refusal(drop, self.rules.max_drop_height)
        if malformed is not None:
            return malformed
        if self._vertical[seat] and drop.pose == "flat":
            return Refusal("a penalty card demands this piece stand vertically: pose 'edge' or "
                           "'upright'", "vertical", piece=piece, seat=seat)
        if not self._base_outline(seat).contains(shapely.Point(drop.x, drop.y)):
            return Refusal(f"the release point ({drop.x:.4f}, {drop.y:.4f}) m is not over your "
                           f"base", "off_base", piece=piece, seat=seat)
        land = self._landing(drop)
        level = self._level_of(seat, land.below)
        if level < 0:
            return Refusal(f"the piece would land on {land.below or 'nothing'}, not on your "
                           f"tower", "not_on_tower", piece=piece, seat=seat, below=land.below)
        top = self._top_level(seat)
        if level < top:
            return Refusal(f"level {level} is closed: a piece lies on level {top}, so a piece "
                           f"may go only on level {top} or {top + 1}", "level_closed",
                           piece=piece, seat=seat, level=level, top=top)
        hits = self._release_hits(drop, land)
        if hits:
            return Refusal(f"the piece would overlap {', '.join(hits)} at release", "overlap",
                           piece=piece, seat=seat, hits=list(hits))
        return None

    def _where(self, piece: str) -> str:
        where = self._whereabouts(piece)
        names = [p.name for p in self.players]
        if where["place"] == "hand":
            return f"{names[where['holder']]} holds it"
        if where["place"] == "tower":
            return f"it is on {names[where['holder']]}'s tower"
        return "it has left the game" if where["place"] == "removed" else "no such piece"

    def _whereabouts(self, piece: str) -> dict:
        """Where ``piece`` is, as data: ``{"place": "hand" | "tower", "holder": seat}``
        or ``{"place": "removed" | "nowhere"}``."""
        for seat, hand in enumerate(self._hands):
            if piece in hand:
                return {"place": "hand", "holder": seat}
        for seat, tower in enumerate(self._towers):
            if piece in tower:
                return {"place": "tower", "holder": seat}
        return {"place": "removed" if piece in self._removed else "nowhere"}

    # ------------------------------------------------------------------ turns
    def _run(self, action: Action) -> Generator[None, None, Verdict]:
        if isinstance(action, Choose):
            return self._apply_choice(action)
        if self._adopting is not None:
            return self._adopting.adopt(self)
        return (yield from self._run_drop(action))

    # ------------------------------------------------------------------ saving
    def _state_dict(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self._hands],
                "towers": [list(t) for t in self._towers], "levels": dict(self._levels),
                "removed": list(self._removed), "out": list(self._out),
                "skips": list(self._skips), "vertical": list(self._vertical),
                "deck": list(self._deck), "tasks": [dict(t) for t in self._tasks],
                "roller": self._roller, "dice": list(self._dice),
                "loaded": [list(r) for r in self._loaded],
                "termination": self._termination}

    def _load_state_dict(self, data: dict[str, Any]) -> None:
        n = len(self.players)
        for key in ("hands", "towers", "skips", "vertical"):
            if len(data[key]) != n:
                raise RecordError(f"saved tower state has {key} for {len(data[key])} seats, "
                                  f"not {n}")
        self._hands = [[str(p) for p in h] for h in data["hands"]]
        self._towers = [[str(p) for p in t] for t in data["towers"]]
        self._levels = {str(p): int(v) for p, v in data["levels"].items()}
        self._removed = [str(p) for p in data["removed"]]
        self._out = [int(s) for s in data["out"]]
        self._skips = [int(s) for s in data["skips"]]
        self._vertical = [bool(v) for v in data["vertical"]]
        self._deck = [str(c) for c in data["deck"]]
        self._tasks = [dict(t) for t in data["tasks"]]
        kinds = {p.value for p in Phase}
        for task in self._tasks:
            if task.get("kind") not in kinds | {"draw"}:
                raise RecordError(f"saved tower state has a task of unknown kind "
                                  f"{task.get('kind')!r}")
        self._roller = int(data["roller"])
        self._dice = [str(d) for d in data["dice"]]
        self._loaded = [[str(a), str(b)] for a, b in data["loaded"]]
        self._termination = data["termination"]


__all__ = ["FIND_DROP_GRID", "TowerState"]
