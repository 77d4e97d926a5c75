"""Argument checks shared by the commands that start games (``simulate``,
``play``): the bots per seat, player counts, output paths, an existing record file
and the one-line description of a record's game.  Each raises or returns text for a
:class:`~balance3d.commands.CommandError`."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from balance3d import record as rec
from balance3d.bots import bot_names, plays
from balance3d.commands import CommandError
from balance3d.games import Game, Player
from balance3d.games.base import RecordError
from balance3d.scene import Scene


def or_words(values: tuple[int, ...] | list[str]) -> str:
    """``2, 3 or 4``."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def counts_text(game: Game, variant: str, players: int) -> str:
    """Why ``players`` cannot play ``variant`` of ``game``: the counts it takes, and
    the variants that do take that many, if any."""
    others = [v for v in game.variants if v != variant and players in game.player_counts(v)]
    hint = f"; {players} player(s) play --variant {or_words(others)}" if others else ""
    return (f"{game.name} ({variant}) plays with {or_words(game.player_counts(variant))} "
            f"player(s){hint}")


def check_output_path(option: str, path: Path, what: str = "file",
                      suffix: str | None = None) -> None:
    """Refuse at once an output ``path`` given with ``option`` that could not be
    written: a folder, a missing or unwritable folder, or (``suffix``) a file name
    with another extension.  ``what`` names the file in the message ("record file")."""
    if suffix is not None and path.suffix.lower() != suffix:
        raise CommandError(f"{option} {path}: the file name must end in {suffix}")
    if path.is_dir():
        raise CommandError(f"{option} {path}: is a folder, not a {what}")
    folder = path.resolve().parent
    if not folder.is_dir():
        raise CommandError(f"{option} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CommandError(f"{option} {path}: folder {folder} is not writable")


def check_output_folder(option: str, path: Path) -> None:
    """Refuse at once an output folder ``path`` given with ``option`` that is, or lies
    below, a regular file (it could never be made)."""
    for place in (path, *path.parents):
        if place.exists():
            if not place.is_dir():
                where = "is a file" if place == path else f"{place} is a file"
                raise CommandError(f"{option} {path}: {where}, not a folder")
            return


def write_error(option: str, path: Path, exc: OSError) -> CommandError:
    """The one-line error for ``exc``, raised while writing below the output
    ``path`` given with ``option`` (a full disk, a read-only file system), naming the
    file when the error does."""
    name = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(path) else ""
    return CommandError(f"{option} {path}: cannot write{name}: {exc.strerror or exc}")


def game_line(game: dict[str, Any]) -> str:
    """``tilted (basic), scene tilted 1a2b3c4d5e6f, seed 5, players Player 1 [random],
    ...`` for a record's ``game``, ``variant``, ``scene``, ``seed`` and ``players``."""
    seats = ", ".join(rec.player_label(p) for p in game["players"])
    return (f"{game['game']} ({game['variant']}), scene {game['scene']['name']} "
            f"{game['scene']['digest'][:12]}, seed {game['seed']}, players {seats}")


def seat_bot_names(text: str | None, players: int | None, game: Game,
                   person: str | None = None) -> list[str]:
    """Per seat, the entry of ``--bots`` text (comma separated; one entry fills every
    seat when ``players`` is given): a registered bot that plays ``game``, or
    ``person`` (when given) for a seat played by a person.  Empty for no text."""
    if text is None:
        return []
    names = [n.strip() for n in text.split(",")]
    fit = [b for b in game.bots if plays(b, game.name)]
    for n in names:
        if not n:
            raise CommandError(f"--bots {text!r}: a bot name is empty (give NAME[,NAME...])"
                               if person is None else
                               f"--bots {text!r}: an entry is empty (give a bot name or "
                               f"{person} for a person)")
        if n != person and n not in bot_names():
            known = ", ".join(bot_names())
            raise CommandError(f"unknown bot {n!r} (known: {known})" if person is None else
                               f"--bots: unknown bot {n!r} (known: {known}; {person} for a "
                               f"person)")
        if n != person and n not in fit:
            raise CommandError(f"--bots {n}: does not play {game.name} (bots that play it: "
                               f"{', '.join(fit)})")
    if len(names) == 1 and players is not None:
        names = names * players
    if players is not None and len(names) != players:
        raise CommandError(f"--bots names {len(names)} {_seats(person)} for {players} players")
    return names


def players_from_bots(names: list[str], game: Game, variant: str,
                      person: str | None = None) -> int:
    """The player count when only ``--bots`` (``names``, per seat, see
    :func:`seat_bot_names`) gives one: one per entry, and for a single entry or none
    2, or the variant's only count."""
    counts = game.player_counts(variant)
    players = len(names) if len(names) > 1 else (2 if 2 in counts else counts[0])
    if players not in counts:
        raise CommandError(f"--bots names {players} {_seats(person)}: "
                           f"{counts_text(game, variant, players)}")
    return players


def _seats(person: str | None) -> str:
    """What ``--bots`` entries are called: bots, or seats when a person may sit."""
    return "bots" if person is None else "seats"


def record_identity(game: str, variant: str, seed: int, scene: Scene,
                    seats: list[Player]) -> dict[str, Any]:
    """What a record file must hold to be the record of this game: its ``game``,
    ``variant``, ``seed``, ``scene`` (name and content digest) and ``players``."""
    return {"game": game, "variant": variant, "seed": seed,
            "scene": {"name": scene.name, "digest": scene.digest},
            "players": [dataclasses.asdict(p) for p in seats]}


def existing_record(path: Path, mine: dict[str, Any], keep: str) -> dict[str, Any]:
    """The data of the existing ``--record`` file ``path``, refused unless it is a
    record this balance3d reads of the game ``mine`` (:func:`record_identity`);
    ``keep`` ends the message (what becomes of the file, what to do)."""
    try:
        old = rec.load_record(path).data
    except RecordError as exc:
        text = str(exc)
        text = text[len(str(path)) + 2:] if text.startswith(f"{path}: ") else text
        raise CommandError(f"--record {path}: exists and is not a record this balance3d "
                           f"reads ({text}); {keep}") from None
    theirs = {key: old[key] for key in mine}
    theirs["scene"] = {key: old["scene"][key] for key in ("name", "digest")}
    if theirs != mine:
        raise CommandError(f"--record {path}: holds another game ({game_line(theirs)}), not "
                           f"this one ({game_line(mine)}); {keep}")
    return old
