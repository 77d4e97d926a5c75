"""Where the packaged data lives: scene files and model definitions.

Installed, they sit inside the package (``balance3d/data/scenes``,
``balance3d/data/models``); in a source checkout they are the top-level ``scenes/`` and
``models/`` folders.
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(kind: str) -> Path:
    """The folder of ``kind`` ("scenes" or "models")."""
    installed = _PACKAGE / "data" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / kind


def scenes_dir() -> Path:
    """Folder of the bundled scene files (``*.toml``)."""
    return data_dir("scenes")


def models_dir() -> Path:
    """Folder of the bundled model definitions (letter glyphs)."""
    return data_dir("models")
