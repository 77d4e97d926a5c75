"""Sub-commands of the ``balance3d`` command line (see :mod:`balance3d.cli`)."""
