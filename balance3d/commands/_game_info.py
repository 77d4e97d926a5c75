"""What the commands need to know about a game, asked in one place: its variants,
the player counts each variant allows, the name of its score, and the check of a
scene's rule values.  The commands never ask the game layer for these directly."""
from __future__ import annotations

from balance3d import record as rec
from balance3d.games import REGISTRY, game_class
from balance3d.games.base import Player
from balance3d.scene import Scene


def variants(game: str) -> tuple[str, ...]:
    """The variants ``game`` plays; the first is its default."""
    return tuple(game_class(game).variants)


def player_counts(game: str, variant: str) -> tuple[int, ...]:
    """The player counts ``game`` allows in ``variant``, ascending."""
    cls = game_class(game)
    per_variant = getattr(cls, "variant_player_counts", {})
    return tuple(sorted(per_variant.get(variant, cls.player_counts)))


def score_name(game: str) -> str:
    """What ``game``'s outcome scores count ("coins", "points", ...)."""
    return rec.SCORE_NAMES.get(game, "score")


def check_rules(scene: Scene) -> None:
    """Parse the rule values of ``scene`` exactly as a game in it would, raising
    the same error (naming the file and key) when one is wrong.  A scene of a game
    not yet playable has no rules to check."""
    if scene.game not in REGISTRY:
        return
    game_class(scene.game)(scene, [Player(0, "check")], 0, scene.variant)
