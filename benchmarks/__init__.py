"""balance3d's benchmarks: how fast the World steps and the games play, and how well
the bots play them.  Run from the root of a checkout: ``python -m benchmarks`` (the
summary, see :mod:`benchmarks.__main__`), or one script as ``python -m
benchmarks.NAME``; every result is written through :mod:`benchmarks.results_io`."""
