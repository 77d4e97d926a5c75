"""Tower's rule values: the scene's ``[rules]`` table parsed into
:class:`TowerRules`, the thresholds' defaults, the phases, the dice faces, the
penalty cards and the piece names."""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from balance3d.games.rule_values import rule_value
from balance3d.scene import Scene

#: Allowed player counts per variant.
VARIANT_PLAYER_COUNTS = {"basic": (2, 3, 4)}
#: The table's body name in every Tower scene.
TABLE = "table"
#: Piece shapes, and what die 2 may demand ("letter or logo": either).
LETTER, LOGO, EITHER = "letter", "logo", "letter or logo"
SHAPES = (LETTER, LOGO)
#: Die 1's penalty faces (any other face is "play N").
GIVE, RECEIVE = "give penalty", "receive penalty"
#: The penalty cards a deck may hold.
LOSE_TURN = "lose next turn"
REMOVE_TOP = "remove top piece"
VERTICAL = "next piece vertical"
EXTRA = "extra piece of opponent's choice"
SWAP = "swap piece to left"
U_DECIDE = "u-decide"
#: Every card; U-DECIDE stands for any of the others, chosen by players.
CARDS = (LOSE_TURN, REMOVE_TOP, VERTICAL, EXTRA, SWAP, U_DECIDE)
CHOSEN_CARDS = CARDS[:-1]

# Defaults of the scene's [rules] thresholds (each overridable there by name).
#: m, a piece of another tower that fell counts as knocked by a drop only when it
#: moved further than this during the drop (the drop, not an older lean, moved it).
KNOCK_TOLERANCE = 0.002
#: m, highest release height (clearance above the surface beneath) a drop may use.
MAX_DROP_HEIGHT = 0.05
#: m, the release height of the drops the game finds itself (``legal_release``).
FIND_DROP_HEIGHT = 0.002
#: m, tower heights this close (rounded to whole multiples of it) tie.
HEIGHT_TIE = 0.001
#: m, a piece whose centre lies this far below the table's top face has fallen off
#: the table and is taken out of the world while physics runs.
OFF_TABLE_DEPTH = 0.05


class Phase(StrEnum):
    """What the current player is asked for; the values are the words records and
    saved states use."""

    DROP = "drop"            # a Drop of a piece of the demanded shape on their tower
    TARGET = "target"        # Choose("target", seat): the opponent who draws a card
    PENALTY = "penalty"      # Choose("penalty", card): a U-DECIDE card's penalty
    SHAPE = "shape"          # Choose("shape", "letter" | "logo"): an extra piece's shape
    SWAP = "swap"            # Choose("swap", piece): the piece given to the left
    OVER = "over"


def piece_name(seat: int, part: str, copy: int) -> str:
    """Name of copy ``copy`` (1-based) of ``seat``'s (0-based) pieces of part
    ``part``: ``"p2.letter_T.3"``.  The name keeps its first owner even when a swap
    gives the piece to another player."""
    return f"p{seat + 1}.{part}.{copy}"


def piece_part(name: str) -> str:
    """The part name of the piece ``name``."""
    return name.split(".")[1]


def piece_key(name: str) -> tuple[int, str, int]:
    """Sort key: first owner, part, copy."""
    seat, part, copy = name.split(".")
    return int(seat[1:]), part, int(copy)


def play_count(face: str) -> int | None:
    """How many pieces die 1's ``face`` asks for ("play 3" -> 3); None for a
    penalty face."""
    if face in (GIVE, RECEIVE):
        return None
    return int(face.split()[1])


@dataclass(frozen=True)
class TowerRules:
    """The scene's ``[rules]`` table, validated.

    letter_parts : part names of the letter pieces (dealt in turn).  logo_part : the
    logo piece's part.  letters_per_player, logos_per_player : pieces dealt to each.
    die_1 : six faces ("play N", "give penalty", "receive penalty").  die_2 : six
    faces ("letter", "logo", "letter or logo").  penalty_deck : (card, count) pairs.
    knock_tolerance, max_drop_height, find_drop_height, height_tie,
    off_table_depth : m (see the module constants).
    """

    letter_parts: tuple[str, ...]
    logo_part: str
    letters_per_player: int
    logos_per_player: int
    die_1: tuple[str, ...]
    die_2: tuple[str, ...]
    penalty_deck: tuple[tuple[str, int], ...]
    knock_tolerance: float = KNOCK_TOLERANCE
    max_drop_height: float = MAX_DROP_HEIGHT
    find_drop_height: float = FIND_DROP_HEIGHT
    height_tie: float = HEIGHT_TIE
    off_table_depth: float = OFF_TABLE_DEPTH

    def shape(self, part: str) -> str:
        """"letter" or "logo": the shape of pieces of ``part``."""
        return LOGO if part == self.logo_part else LETTER

    def deck(self) -> list[str]:
        """The unshuffled deck: each card as many times as its count."""
        return [card for card, count in self.penalty_deck for _ in range(count)]

    @classmethod
    def from_scene(cls, scene: Scene) -> "TowerRules":
        """Read and check ``scene.rules``; errors name the file and key."""
        rules = scene.rules
        known = {"letter_parts", "logo_part", "letters_per_player", "logos_per_player",
                 "die_1", "die_2", "penalty_deck", "knock_tolerance", "max_drop_height",
                 "find_drop_height", "height_tie", "off_table_depth"}
        for key in rules:
            if key not in known:
                raise scene.error(f"rules.{key}",
                                  f"unknown key (known: {', '.join(sorted(known))})")
        names = {b.name for b in scene.bodies}
        for seat in range(max(VARIANT_PLAYER_COUNTS["basic"])):
            if f"base_{seat}" not in names:
                raise scene.error("bodies", f"a Tower scene needs a body named 'base_{seat}'")
        if TABLE not in names:
            raise scene.error("bodies", f"a Tower scene needs a body named {TABLE!r}")

        def get(key: str, kind: type, default: Any = ..., minimum: float = 0,
                exclusive: bool = True) -> Any:
            return rule_value(scene, key, kind, default, minimum=minimum, exclusive=exclusive)

        letters = rules.get("letter_parts")
        if not (isinstance(letters, list) and letters
                and all(isinstance(p, str) and p in scene.parts and "." not in p
                        for p in letters)):
            raise scene.error("rules.letter_parts",
                              "must list part names of the scene (without '.')")
        logo = rules.get("logo_part")
        if not (isinstance(logo, str) and logo in scene.parts and "." not in logo
                and logo not in letters):
            raise scene.error("rules.logo_part", "must name a part of the scene (without "
                                                 "'.') that is not a letter part")
        die_1 = rules.get("die_1")
        if not (isinstance(die_1, list) and len(die_1) == 6
                and all(_die_1_face(f) for f in die_1)):
            raise scene.error("rules.die_1", f"must list 6 faces, each 'play N' (N >= 1), "
                                             f"{GIVE!r} or {RECEIVE!r}, got {die_1!r}")
        die_2 = rules.get("die_2")
        if not (isinstance(die_2, list) and len(die_2) == 6
                and all(f in (LETTER, LOGO, EITHER) for f in die_2)):
            raise scene.error("rules.die_2", f"must list 6 faces, each {LETTER!r}, {LOGO!r} "
                                             f"or {EITHER!r}, got {die_2!r}")
        deck = rules.get("penalty_deck")
        if not (isinstance(deck, list) and deck and all(
                isinstance(row, list) and len(row) == 2 and row[0] in CARDS
                and isinstance(row[1], int) and not isinstance(row[1], bool) and row[1] >= 0
                for row in deck) and sum(row[1] for row in deck) > 0):
            raise scene.error("rules.penalty_deck", f"must list [card, count] pairs, cards "
                                                    f"among {', '.join(CARDS)}, counts whole "
                                                    f"and >= 0, not all zero")
        letters_each = get("letters_per_player", int, minimum=0, exclusive=False)
        logos_each = get("logos_per_player", int, minimum=0, exclusive=False)
        if letters_each + logos_each == 0:
            raise scene.error("rules.logos_per_player", "each player needs at least one piece")
        return cls(
            letter_parts=tuple(letters), logo_part=logo,
            letters_per_player=letters_each, logos_per_player=logos_each,
            die_1=tuple(die_1), die_2=tuple(die_2),
            penalty_deck=tuple((row[0], row[1]) for row in deck),
            knock_tolerance=get("knock_tolerance", float, KNOCK_TOLERANCE),
            max_drop_height=get("max_drop_height", float, MAX_DROP_HEIGHT),
            find_drop_height=get("find_drop_height", float, FIND_DROP_HEIGHT),
            height_tie=get("height_tie", float, HEIGHT_TIE),
            off_table_depth=get("off_table_depth", float, OFF_TABLE_DEPTH))


def _die_1_face(face: Any) -> bool:
    """Whether ``face`` is a valid face of die 1."""
    if face in (GIVE, RECEIVE):
        return True
    if not isinstance(face, str):
        return False
    words = face.split()
    return len(words) == 2 and words[0] == "play" and words[1].isdigit() and int(words[1]) >= 1
