"""The Ray engine on a local Ray instance with 2 CPUs (started once for the module)
gives the local engine's rows, for a sweep and for ``tune fit --engine ray``; a wrong
``--address`` is one line naming it, in seconds."""
from __future__ import annotations

import json
import socket
from pathlib import Path

import pandas as pd
import pytest
import ray
import ray_start

from balance3d.cli import main
from balance3d.tune.engines import JOIN_TIMEOUT_S
from balance3d.tune.fit import FitRequest, fit_sweep
from balance3d.tune.runner import run_sweep
from balance3d.tune.sweep import load_sweep

SWEEP = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
repetitions = 2
seed = 5

[parameters]
"materials.felt.friction" = [0.6, 0.9]

[experiment]
parts = ["block_1", "block_2"]
"""
# A 2u block dropped on section 2 of a beam loaded 13 cm out on its low side (as in
# test_fit.py): light blocks tip it less often than heavy ones.
DROPS = """\
[sweep]
scene = "tilted"
experiment = "drops"
seed = 5

[parameters]
"materials.block_wood.density" = [650.0]

[experiment]
blocks = [2]
sections = [2]
load = [{block = 2, x = -0.13}]
"""
DENSITY = "materials.block_wood.density"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray instance with 2 CPUs for the module's tests.  Its workers inherit
    the environment: they import this checkout and the test experiment's module."""
    with ray_start.local_ray([str(Path(__file__).parent), str(ROOT)]):
        yield


def test_ray_rows_equal_the_local_rows(tmp_path, box_drop, local_ray):
    path = tmp_path / "s.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    local = run_sweep(sweep, workers=2, progress=False)
    remote = run_sweep(sweep, out=tmp_path / "ray", engine="ray", progress=False)
    pd.testing.assert_frame_equal(remote, local)
    assert len(remote) == 2 * 2 * 2
    assert pd.read_parquet(tmp_path / "ray" / "runs.parquet").equals(remote)


def test_fit_on_ray_gives_the_local_fit(tmp_path, local_ray, capsys):
    """The same runs on either engine: the same value found and the same check."""
    path = tmp_path / "drops.toml"
    path.write_text(DROPS)
    out = tmp_path / "fit"
    assert main(["tune", "fit", str(path), "--param", DENSITY, "--within", "200", "650",
                 "--outcome", "tipped", "--target", "0.5", "--points", "4",
                 "--repetitions", "8", "--check", "8", "--engine", "ray",
                 "--out", str(out), "--quiet"]) == 0
    assert f"found: {DENSITY} (kg/m^3) = " in capsys.readouterr().out
    remote = json.loads((out / "fit.json").read_text())
    local = fit_sweep(load_sweep(path),
                      FitRequest(DENSITY, 200.0, 650.0, "tipped", 0.5, points=4,
                                 repetitions=8, check=8),
                      workers=2, progress=False)
    assert remote["fit"]["value"] == local["fit"]["value"]
    assert remote["runs"] == local["runs"] and remote["check"] == local["check"]
    # the sequential design took the same batches on Ray as on the local pool
    assert remote["design"] == local["design"]
    runs = pd.read_parquet(out / "fit_runs.parquet")
    assert len(runs) == remote["design"]["runs"] == 8 * len(remote["design"]["batches"])
    assert {200.0, 350.0, 500.0, 650.0} <= set(runs[f"param.{DENSITY}"])


def _closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("verb", ["run", "fit"])
def test_a_wrong_address_is_one_line_naming_it_within_the_join_timeout(tmp_path, capsys,
                                                                       monkeypatch, verb):
    path = tmp_path / "drops.toml"
    path.write_text(DROPS)
    address = f"127.0.0.1:{_closed_port()}"
    args = {"run": ["tune", "run", str(path), "--out", str(tmp_path / "o")],
            "fit": ["tune", "fit", str(path), "--param", DENSITY, "--within", "200",
                    "650", "--outcome", "tipped", "--target", "0.5"]}[verb]
    # the address is tried once, with the join timeout as the longest wait, and
    # Ray is never asked to join it (its own wait is much longer)
    tried, connect = [], socket.create_connection
    monkeypatch.setattr(socket, "create_connection", lambda where, timeout=None, *a, **k: (
        tried.append((where, timeout)), connect(where, timeout, *a, **k))[1])
    joined = []
    monkeypatch.setattr(ray, "init", lambda *a, **k: joined.append(k))
    assert main([*args, "--engine", "ray", "--address", address, "--quiet"]) == 2
    host, port = address.split(":")
    assert tried == [((host, int(port)), JOIN_TIMEOUT_S)] and joined == []
    err = capsys.readouterr().err
    assert f"cannot join Ray at {address}: no connection (" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_wrong_address_is_the_only_output_without_quiet(tmp_path, capsys):
    """The address is checked before the progress bar is drawn: the error line is
    all that is printed."""
    path = tmp_path / "drops.toml"
    path.write_text(DROPS)
    address = f"127.0.0.1:{_closed_port()}"
    assert main(["tune", "run", str(path), "--out", str(tmp_path / "o"), "--engine", "ray",
                 "--address", address]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert printed.err.startswith(f"balance3d tune: error: cannot join Ray at {address}: ")
    assert printed.err.count("\n") == 1 and "\r" not in printed.err
