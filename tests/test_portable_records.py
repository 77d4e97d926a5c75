"""Records do not follow the CPU's kernels: short seeded games of each game, played
in subprocesses under each OpenBLAS kernel family this CPU can run and with
numpy's widest SIMD paths switched off, give byte-identical records.

One machine stands in for others: ``OPENBLAS_CORETYPE`` picks the kernels another
CPU would get (Haswell for AVX2 machines, Zen for AMD's, SkylakeX for AVX-512), and
``NPY_DISABLE_CPU_FEATURES`` keeps numpy to the paths a CPU without AVX-512 takes.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.portable

ROOT = Path(__file__).resolve().parents[1]

#: (game, variant, bots per seat, seed, actions played): short games that still
#: drop, weld, judge and let the bots choose.
GAMES = (
    ("tilted", "basic", ("planner", "random"), 7, 10),
    ("tribalance", "basic", ("planner", "random"), 7, 6),
    ("tower", "basic", ("random", "random"), 4, 24),
)

#: Plays every game of GAMES (argv[1], JSON) and writes each record's canonical
#: text to the folder argv[2].
DRIVER = """
import json, sys
from pathlib import Path
from balance3d.bots import make_bot
from balance3d.games import new_game
from balance3d.record import Recorder, dumps
for game, variant, bots, seed, actions in json.loads(sys.argv[1]):
    state = new_game(game, players=len(bots), seed=seed, variant=variant, bots=list(bots))
    recorder = Recorder(state)
    seats = [make_bot(name, seed, seat) for seat, name in enumerate(bots)]
    for _ in range(actions):
        if state.is_over:
            break
        recorder.apply(seats[state.current_player].choose(state))
    Path(sys.argv[2], game + ".json").write_text(dumps(recorder.record()))
"""


def play_all(folder: Path, extra: dict[str, str]) -> subprocess.Popen:
    """Start the driver writing the records of GAMES into ``folder``."""
    folder.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")}
    env.update(extra)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-c", DRIVER, json.dumps(GAMES), str(folder)],
                            env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_records_are_byte_identical_under_every_kernel(tmp_path: Path, cpu_variants) -> None:
    if not cpu_variants:
        pytest.skip("no other CPU to imitate on this architecture")
    runs = {"default": {}, **dict(cpu_variants)}
    outputs = {}
    for start in range(0, len(runs), 2):         # two at a time
        batch = list(runs.items())[start:start + 2]
        started = [(name, play_all(tmp_path / f"run{start + i}", extra))
                   for i, (name, extra) in enumerate(batch)]
        for i, (name, proc) in enumerate(started):
            _, err = proc.communicate()
            assert proc.returncode == 0, f"{name}: the games failed:\n{err[-2000:]}"
            outputs[name] = tmp_path / f"run{start + i}"
    reference = outputs["default"]
    for game, *_ in GAMES:
        made = (reference / f"{game}.json").read_bytes()
        assert json.loads(made)["turns"], f"{game}: no turn was played"
        differing = [name for name, folder in outputs.items()
                     if (folder / f"{game}.json").read_bytes() != made]
        assert not differing, f"{game}: the record differs under {', '.join(differing)}"
