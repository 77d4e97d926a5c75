"""What a game is, apart from any one play of it: OpenSpiel's ``Game`` beside its
``State``.

A :class:`Game` holds everything that does not change during play: its name, its
variants and their player counts and scenes, its rules (parsed once per scene and
kept), the name of its score, the action types it takes, the bots that play it and
the kind of region its pieces are released in.  Each game package defines one and
registers it by name (:mod:`balance3d.games`); generic code (the command line,
records, bots, a window) asks the ``Game`` and never names a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from balance3d.games.base import GameError, State
from balance3d.scene import Scene


@dataclass(frozen=True, eq=False)
class Game:
    """One registered game.

    name : registered name ("tilted", ...), also the ``game`` of its scenes.
    variants : variant names; the first is the default.
    counts : variant -> allowed player counts (see :meth:`player_counts`).
    state_class : the :class:`~balance3d.games.base.State` subclass that plays it.
    parse_rules : reads a scene's ``[rules]`` table into the game's rules object,
        raising :class:`~balance3d.scene.SceneError` naming the file and key.
    score_name : what an outcome's scores count ("coins", "points", "height").
    action_types : the action types it takes ("drop", "choose", "pass", ...).
    bots : the bots that play it, name -> ``"module:Class"`` (its own, such as its
        planner in its package, and generic ones such as ``random``);
        ``default_bot`` is one of them.
    release_kind : the ``kind`` of :meth:`State.release_area
        <balance3d.games.base.State.release_area>` regions ("beam_half", ...).
    title : the game's name as people write it ("Tri-Ba-Lance"); default the
        registered name, capitalised.
    experiments : its tuning experiments, name -> ``"module:Class"`` of a
        :class:`~balance3d.games.experiment.Experiment`.
    score_unit : the unit of the outcome's scores when they are measured (``"m"``
        for a height, as :mod:`balance3d.verify` reads units); None for counted
        scores (coins, points), which verifying compares exactly.
    """

    name: str
    variants: tuple[str, ...]
    counts: Mapping[str, tuple[int, ...]]
    state_class: type[State]
    parse_rules: Callable[[Scene], Any]
    score_name: str
    action_types: tuple[str, ...]
    bots: Mapping[str, str]
    default_bot: str
    release_kind: str
    title: str = ""
    experiments: Mapping[str, str] = field(default_factory=dict)
    score_unit: str | None = None
    _rules: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if set(self.counts) != set(self.variants):
            raise ValueError(f"game {self.name!r}: player counts must be given for exactly "
                             f"the variants {self.variants}")
        if self.default_bot not in self.bots:
            raise ValueError(f"game {self.name!r}: default bot {self.default_bot!r} is not "
                             f"one of its bots {tuple(self.bots)}")
        self.state_class.game = self

    @property
    def display_name(self) -> str:
        """The name shown to people: :attr:`title`, else the name capitalised."""
        return self.title or self.name.capitalize()

    def player_counts(self, variant: str) -> tuple[int, ...]:
        """Allowed player counts of ``variant`` (:class:`GameError` for an unknown
        variant)."""
        self.check_variant(variant)
        return tuple(self.counts[variant])

    def check_variant(self, variant: str) -> None:
        """Raise :class:`GameError` naming the variants unless
        ``variant`` is one of them."""
        if variant not in self.variants:
            raise GameError(f"{self.name}: unknown variant {variant!r} "
                            f"(known: {', '.join(self.variants)})")

    def scene_name(self, variant: str) -> str:
        """Bundled scene of ``variant``: the game's name for the first variant, else
        ``name-variant``."""
        self.check_variant(variant)
        return self.name if variant == self.variants[0] else f"{self.name}-{variant}"

    def rules(self, scene: Scene) -> Any:
        """The rules of ``scene``, parsed on first use and kept by the scene's digest
        (clones and loaded games of the same scene share them; rules objects are
        immutable)."""
        if scene.digest not in self._rules:
            self._rules[scene.digest] = self.parse_rules(scene)
        return self._rules[scene.digest]
