"""The ``balance3d`` command.  Each sub-command lives in :mod:`balance3d.commands`
as a module with ``add_parser(subparsers)`` and ``run(args) -> int``.  Nothing here
imports the GUI or needs a display."""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from balance3d import __version__
from balance3d.commands import CommandError
from balance3d.fields import line_break, short

#: The errors a command reports in one line, exit status 2, as (module, class).  A
#: class is looked up only when its module is loaded: an error of a module never
#: imported cannot have been raised, so a command need not import it to catch it.
USER_ERRORS = (("balance3d.commands", "CommandError"), ("balance3d.scene_files", "SceneError"),
               ("balance3d.games.errors", "GameError"),
               ("balance3d.physics.errors", "WorldError"))
#: Sub-command name -> module in balance3d.commands.
COMMANDS = {
    "scene": "scene",
    "models": "models",
    "simulate": "simulate",
    "replay": "replay",
    "play": "play",
    "tune": "tune",
}


class Parser(argparse.ArgumentParser):
    """The command's parser: an argument starting with ``-,`` is a value, not an
    option (``--bots -,planner``: a seat played by a person, then a bot); a bad
    argument gives one line (no usage), exit 2."""

    def _parse_optional(self, arg_string: str):
        if arg_string.startswith("-,"):
            return None
        return super()._parse_optional(arg_string)

    def error(self, message: str):
        """Print ``PROG: error: WHAT: WHY (see 'PROG --help')`` on one line to
        stderr and exit with status 2 (argparse prints the usage first)."""
        what = message.removeprefix("argument ")
        what = "".join(c if line_break(c) is None else " " for c in what)
        self.exit(2, f"{self.prog}: error: {what} (see '{self.prog} --help')\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command's parser with every sub-command, or with ``only`` that one (a
    name of :data:`COMMANDS`): its module alone is imported, so a command starts
    without loading the others' modules (``play`` and ``simulate`` load every game
    to describe them)."""
    parser = Parser(
        prog="balance3d", description="Physics simulator for balance and stacking table games.",
        epilog="Run 'balance3d COMMAND --help' for what a command does and its options.")
    parser.add_argument("--version", action="version", version=f"balance3d {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name, module in COMMANDS.items():
        if only is not None and name != only:
            continue
        full = f"balance3d.commands.{module}"
        try:
            mod = importlib.import_module(full)
        except ModuleNotFoundError as exc:
            # A sub-command whose module is not written yet is left out of the
            # parser; any other missing module (a broken import inside it) is a bug
            # and propagates.
            if exc.name != full:
                raise
            continue
        mod.add_parser(sub)
    return parser


def leaf_parser(parser: argparse.ArgumentParser,
                argv: list[str]) -> argparse.ArgumentParser:
    """The parser of the deepest sub-command named in ``argv`` (``scene show``),
    so that an unrecognized argument is reported against it."""
    for arg in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        named = subs[0]._name_parser_map if subs else {}
        if arg in named:
            parser = named[arg]
    return parser


def check_arguments(argv: list[str]) -> None:
    """Refuse, naming it, the first argument that is not one line of printable text
    (a newline or another control character in a name or path would break every
    message and summary line that shows it)."""
    for i, arg in enumerate(argv):
        bad = line_break(arg)
        if bad is not None:
            option = argv[i - 1] if i and argv[i - 1].startswith("--") else ""
            where = f"{option} {short(arg)}" if option else f"argument {short(arg)}"
            raise CommandError(f"{where}: must be one line of printable text "
                               f"(character {bad})")


def user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of :data:`USER_ERRORS` (a bad file or argument)."""
    return any(isinstance(exc, getattr(sys.modules[module], name))
               for module, name in USER_ERRORS if module in sys.modules)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 1 a check failed, 2 bad input)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # a command named first needs only its own parser; anything else (no command,
    # --help, --version, a typo) gets every command's, for the usage and choices
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra:
        leaf_parser(parser, argv).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        check_arguments(argv)
        status = int(args.run(args) or 0)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (``balance3d scene list | head``): stop quietly, and
        # point stdout at /dev/null so the interpreter's final flush cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as exc:
        if not user_error(exc):
            raise
        print(f"balance3d {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
