"""Where the window saves a game, and what it never overwrites.

A session writes its record (autosave, Ctrl+S) through :class:`SaveFiles`: a file
is replaced only when it holds this session's last write there, or an earlier
record of the same game (the same game, variant, seed, scene, set-up and seat
names, its actions the first actions of this one).  A file holding anything else is
kept and the save refused with :class:`SessionError`, so a saved game is never lost.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from balance3d import play as playing
from balance3d import record as rec
from balance3d.games.base import GameError, RecordError


class SessionError(GameError):
    """A session request that cannot be done now (saving mid-turn, undoing nothing,
    overwriting another game's file ...)."""


#: Record fields two records of the same game share (and the scene's name and
#: digest, and the seats' names; who plays a seat, a person or a bot, may change
#: when a game is loaded).
SAME_GAME = ("game", "variant", "seed", "setup")


class SaveFiles:
    """The record files one session writes, with the bytes it last wrote to each."""

    def __init__(self) -> None:
        self._written: dict[Path, bytes] = {}

    def write(self, path: Path, record: dict[str, Any]) -> None:
        """Write ``record`` to ``path`` atomically, unless the file holds another
        game (:class:`SessionError`, the file kept)."""
        self.check(path, record)
        try:
            rec.write_record(record, path, force=True)
        except (RecordError, OSError) as exc:
            raise SessionError(f"cannot save to {path}: {exc}") from None
        self._written[path.resolve()] = rec.dumps(record).encode("ascii")

    def check(self, path: Path, record: dict[str, Any]) -> None:
        """Refuse a ``path`` that holds something other than this session's last
        write there or an earlier record of ``record``'s game."""
        if path.is_dir():
            raise SessionError(f"cannot save to {path}: it is a folder")
        if not path.exists() or self._written.get(path.resolve()) == path.read_bytes():
            return
        try:
            old = rec.parse_record(rec.read_json(path)).data
        except RecordError as exc:
            raise SessionError(f"{path} exists and is not a game record ({exc}); it is "
                               f"kept: save elsewhere") from None
        if not earlier_record(old, record):
            raise SessionError(f"{path} holds a different game ({old['game']} "
                               f"{old['variant']}, seed {old['seed']}, {len(old['turns'])} "
                               f"actions), not an earlier record of this one; it is kept: "
                               f"save elsewhere")


def earlier_record(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """True when ``old`` is a record of the same game as ``new`` that stopped at or
    before it (its turns are the first turns of ``new``).  ``old`` may be of an
    older format (without kept states): its turns' actions, verdicts and events
    are compared."""
    if any(old.get(key) != new.get(key) for key in SAME_GAME):
        return False
    if any(old["scene"].get(key) != new["scene"].get(key) for key in ("name", "digest")):
        return False
    if [p["name"] for p in old["players"]] != [p["name"] for p in new["players"]]:
        return False
    turns = old["turns"]
    if len(turns) > len(new["turns"]):
        return False
    if old["format"] == new["format"]:
        return new["turns"][:len(turns)] == turns and old.get("start") == new.get("start")
    mine = [{k: v for k, v in t.items() if k != "state"} for t in new["turns"][:len(turns)]]
    return mine == turns


def free_beside(path: Path) -> Path:
    """The first of ``NAME-2.SUFFIX``, ``NAME-3.SUFFIX`` ... beside ``path`` that
    does not exist."""
    n = 2
    while (candidate := path.with_name(f"{path.stem}-{n}{path.suffix}")).exists():
        n += 1
    return candidate


def open_record(path: Path) -> tuple[rec.Record, Any]:
    """The record ``path`` with its kept states, and its scene (an older record,
    which keeps none, played again: :class:`SessionError` saying where it no longer
    plays as recorded)."""
    record = rec.load_record(path)
    scene = playing.record_scene(record, path.resolve().parent)
    try:
        record, note = playing.opened(record, scene)
    except RecordError as exc:
        raise SessionError(f"{path}: {exc}") from None
    if note is not None:
        raise SessionError(f"{path}: {note}")
    return record, scene
