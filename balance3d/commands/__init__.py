"""Sub-commands of the ``balance3d`` command line (see :mod:`balance3d.cli`)."""


class CommandError(Exception):
    """A user-facing error: printed as one line, exit status 2, no traceback.

    Defined here rather than in :mod:`balance3d.cli` so that ``python -m balance3d.cli``
    (where the cli module runs as ``__main__``) catches the class commands raise."""
