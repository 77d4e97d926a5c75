"""Sub-commands of the ``balance3d`` command line (see :mod:`balance3d.cli`)."""
from __future__ import annotations

import re

#: A reST role with its target, as docstrings write them: :class:`~a.b.C`.
_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


class CommandError(Exception):
    """A user-facing error: printed as one line, exit status 2, no traceback.

    Defined here rather than in :mod:`balance3d.cli` so that ``python -m balance3d.cli``
    (where the cli module runs as ``__main__``) catches the class commands raise."""


def plain(text: str) -> str:
    """``text`` (a docstring paragraph) as a help text shows it: ``literals`` in
    single quotes, :role:`targets` as their last name, no other reST markup."""
    text = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], text)
    return text.replace("``", "'")
