"""Argument checks shared by the commands that start games (``simulate``,
``play``): player counts, output paths and the one-line description of a record's
game.  Each raises or returns text for a :class:`~balance3d.commands.CommandError`."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from balance3d import record as rec
from balance3d.commands import CommandError
from balance3d.games import Game


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
