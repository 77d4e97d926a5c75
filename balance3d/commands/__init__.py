"""Sub-commands of the ``balance3d`` command line (see :mod:`balance3d.cli`)."""
from __future__ import annotations

import re
import textwrap

#: characters, width of the paragraphs :func:`help_texts` fills.
HELP_WIDTH = 79

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


def help_texts(doc: str) -> tuple[str, str]:
    """A command module's docstring as ``(description, examples)`` for a parser
    with :class:`argparse.RawDescriptionHelpFormatter`: its paragraphs as plain
    text filled to :data:`HELP_WIDTH` columns, and the indented block after
    ``Examples::`` under an ``examples:`` heading, its lines kept as written
    ("" when there is none)."""
    paragraphs = textwrap.dedent(doc).strip().split("\n\n")
    text: list[str] = []
    examples = ""
    for i, paragraph in enumerate(paragraphs):
        if paragraph.strip() == "Examples::":
            continue
        if i and paragraphs[i - 1].strip() == "Examples::":
            examples = "examples:\n" + textwrap.indent(textwrap.dedent(paragraph), "  ")
            continue
        text.append(textwrap.fill(plain(" ".join(paragraph.split())), HELP_WIDTH,
                                  break_long_words=False, break_on_hyphens=False))
    return "\n\n".join(text), examples
