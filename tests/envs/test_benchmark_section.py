"""The ``envs`` section of ``python -m benchmarks``: what it writes (rows, figures,
the README table), never a timing."""
import json

import pytest

import balance3d.envs as envs
from balance3d.games import game_names, get_game
from benchmarks import targets
from benchmarks.__main__ import main
from benchmarks.summary import BEGIN, END


def test_only_envs_with_one_move_writes_its_rows_figures_and_table(tmp_path):
    readme, out = tmp_path / "README.md", tmp_path / "results"
    readme.write_text(f"# A project\n\n{BEGIN}\nan old table\n{END}\n", encoding="utf-8")
    assert main(["--only", "envs", "--moves", "1", "--out", str(out),
                 "--readme", str(readme)]) == 0
    entry = json.loads((out / "summary.json").read_text(encoding="utf-8"))["sections"]["envs"]
    assert entry["facts"]["budget"] == {"moves": 1}
    figures = entry["figures"]
    assert sorted(figures["games"]) == game_names()
    for game, g in figures["games"].items():
        env = getattr(envs, f"{game}_v0").raw_env(players=2)
        assert g["n_discrete"] == env.encoding.n_discrete
        assert g["moves"] == 1 and len(g["direct_s"]) == len(g["env_s"]) == 1
        assert len(g["mask_s"]) == 1 and g["mask_median_s"] == g["mask_s"][0]
        assert len(g["mask_cpu_s"]) == 1 and g["mask_cpu_median_s"] == g["mask_cpu_s"][0]
        assert g["env_steps_per_s"] == pytest.approx(1 / g["env_s"][0])
    vector = figures["vector"]
    assert vector["steps"] == 1
    assert vector["scaling"] == pytest.approx(vector["two_workers_steps_per_s"]
                                              / vector["one_worker_steps_per_s"])
    # per game: the overhead (with its target) and the mask (none); then the vector
    rows = entry["rows"]
    assert len(rows) == 2 * len(game_names()) + 1
    for game, (overhead, mask) in zip(game_names(), zip(rows[0::2], rows[1::2])):
        name = get_game(game).display_name
        assert overhead["measure"].startswith(f"{name}: environment step without the mask")
        assert overhead["target"] == f"overhead <= {targets.ENV_OVERHEAD_PCT:g} %"
        assert overhead["met"] == (figures["games"][game]["overhead_pct"]
                                   <= targets.ENV_OVERHEAD_PCT)
        assert mask["measure"].startswith(f"{name}: the discrete action mask")
        assert mask["target"] == "" and mask["met"] is None and "CPU time" in mask["result"]
    assert "AsyncVectorEnv, 1 to 2 workers" in rows[-1]["measure"]
    table = readme.read_text(encoding="utf-8")
    assert "an old table" not in table and "`envs`" in table
    assert all(row["measure"] in table for row in rows)
