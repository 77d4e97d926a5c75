"""``balance3d.tune.plot``: heat maps and curves drawn from a synthetic summary table,
read back from the PNG files (sizes, and the colour at each labelled cell)."""
from __future__ import annotations

import subprocess
import sys

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

from balance3d.tune import plot
from balance3d.tune.plot import PlotError, heatmap_figure, label, plot_directory, summary_table

DENSITIES = [500.0, 650.0, 800.0]
WIDTHS = [0.03, 0.05]
BLOCKS = [1, 2, 3]
SECTIONS = [1, 2, 3, 4]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def tip_rate(density: float, width: float, block: int, section: int) -> float:
    """A made-up rate that differs in every cell and under transposition."""
    return float(1 / (1 + np.exp(-((density - 650) / 100 + 0.9 * block - 0.6 * section
                                   - 20 * (width - 0.04)))))


def synthetic_summary() -> pd.DataFrame:
    rows = []
    for combination, (density, width) in enumerate(
            (d, w) for d in DENSITIES for w in WIDTHS):
        for block in BLOCKS:
            for section in SECTIONS:
                p = tip_rate(density, width, block, section)
                height = density / 100 + block
                rows.append({
                    "combination": combination,
                    "param.materials.block_wood.density": density,
                    "param.parts.fulcrum.width": width,
                    "case.block": block, "case.section": section, "n": 20,
                    "tipped.mean": p, "tipped.low": max(0.0, p - 0.1),
                    "tipped.high": min(1.0, p + 0.1),
                    "height.mean": height, "height.low": height - 0.5,
                    "height.high": height + 0.5, "height.sd": 1.0})
    # stored out of order: the plots must not depend on the row order
    return pd.DataFrame(rows).sample(frac=1.0, random_state=3).reset_index(drop=True)


@pytest.fixture
def sweep_dir(tmp_path):
    synthetic_summary().to_parquet(tmp_path / "summary.parquet")
    (tmp_path / "sweep.toml").write_text(
        '[sweep]\nname = "block-density"\nscene = "tilted"\nexperiment = "drops"\n',
        encoding="utf-8")
    return tmp_path


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC, f"{path.name} is not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_plot_directory_writes_heat_maps_and_curves_of_the_stated_sizes(sweep_dir):
    written = plot_directory(sweep_dir)
    combinations = len(DENSITIES) * len(WIDTHS)
    names = [p.name for p in written]
    for outcome in ("tipped", "height"):
        for k in range(combinations):
            assert f"heatmap_{outcome}_combination{k}.png" in names
        assert f"curve_{outcome}_materials.block_wood.density.png" in names
        assert f"curve_{outcome}_parts.fulcrum.width.png" in names
    assert len(written) == 2 * (combinations + 2)
    heat_px = (round(6.4 * plot.PLOT_DPI), round(4.8 * plot.PLOT_DPI))
    # 12 cases x 2 values of the other parameter = 24 lines > MAX_LINES: one panel
    # per case, 12 panels on a 4 x 3 grid
    curve_px = (round(4 * plot.PANEL_SIZE[0] * plot.PLOT_DPI),
                round(3 * plot.PANEL_SIZE[1] * plot.PLOT_DPI))
    for path in written:
        assert path.parent == sweep_dir / "plots"
        assert png_size(path) == (heat_px if path.name.startswith("heatmap") else curve_px)


def test_a_case_key_that_renames_an_axis_splits_no_heat_map(sweep_dir):
    # Tri-Ba-Lance's cases carry a field's index beside its number: one value per
    # cell, so each combination still gets one heat map
    summary = synthetic_summary()
    summary["case.section_id"] = summary["case.section"] - 1
    summary.to_parquet(sweep_dir / "summary.parquet")
    names = [p.name for p in plot_directory(sweep_dir)]
    combinations = len(DENSITIES) * len(WIDTHS)
    assert sorted(n for n in names if n.startswith("heatmap_tipped")) == sorted(
        f"heatmap_tipped_combination{k}.png" for k in range(combinations))
    summary["case.section_id"] = summary["combination"] % 2   # one value per combination
    summary.to_parquet(sweep_dir / "summary.parquet")
    assert "heatmap_tipped_combination0.png" in [p.name for p in plot_directory(sweep_dir)]
    # a true third key (two rows per cell) still splits: one heat map per value
    twice = pd.concat([summary.assign(**{"case.section_id": i}) for i in (0, 1)])
    twice.to_parquet(sweep_dir / "summary.parquet")
    names = [p.name for p in plot_directory(sweep_dir)]
    assert {"heatmap_tipped_combination0_0.png", "heatmap_tipped_combination0_1.png"} <= set(names)


def test_heat_map_colours_follow_the_values_at_the_labelled_cells(tmp_path):
    table = summary_table(synthetic_summary())
    rows = table.frame[table.frame["combination"] == 2]
    fig = heatmap_figure(rows, "tipped", "tipped (rate)", "block", "section", "t", (0.0, 1.0))
    path = tmp_path / "heat.png"
    fig.savefig(path, dpi=plot.PLOT_DPI)
    image = imread(path)[:, :, :3]
    ax = fig.axes[0]
    xs = {float(t.get_text()): pos for t, pos in zip(ax.get_xticklabels(), ax.get_xticks())}
    ys = {float(t.get_text()): pos for t, pos in zip(ax.get_yticklabels(), ax.get_yticks())}
    assert sorted(xs) == BLOCKS and sorted(ys) == SECTIONS
    colours = matplotlib.colormaps[plot.COLORMAP](np.linspace(0, 1, 256))[:, :3]
    density, width = DENSITIES[1], WIDTHS[0]
    assert rows["param.materials.block_wood.density"].eq(density).all()
    for block, x in xs.items():
        for section, y in ys.items():
            # a third of a cell off the centre, clear of the annotation
            px, py = ax.transData.transform((x + 0.3, y + 0.3))
            rgb = image[image.shape[0] - int(round(py)), int(round(px))]
            shown = np.argmin(((colours - rgb) ** 2).sum(axis=1)) / 255
            expected = tip_rate(density, width, int(block), int(section))
            assert shown == pytest.approx(expected, abs=2 / 255), (block, section)
    texts = {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text()
             for t in ax.texts}
    for block, x in xs.items():
        for section, y in ys.items():
            expected = tip_rate(density, width, int(block), int(section))
            assert texts[(round(x), round(y))].startswith(f"{expected:.2f}\n[")


def test_curves_show_the_means_and_intervals_against_the_parameter():
    frame = synthetic_summary()
    frame = frame[(frame["case.block"] == 2) & (frame["case.section"] == 1)]
    table = summary_table(frame)
    fig = plot.curves_figure(table, "tipped", "materials.block_wood.density")
    ax = fig.axes[0]
    assert len(fig.axes) == 1 and len(ax.containers) == len(WIDTHS)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [f"parts.fulcrum.width={w}" for w in WIDTHS]
    for container, width in zip(ax.containers, WIDTHS):
        line, _, (bars,) = container
        x, y = line.get_data()
        assert list(x) == DENSITIES
        assert list(y) == pytest.approx([tip_rate(d, width, 2, 1) for d in DENSITIES])
        for (low, high), mean in zip(bars.get_segments(), y):
            assert low[1] == pytest.approx(max(0.0, mean - 0.1))
            assert high[1] == pytest.approx(min(1.0, mean + 0.1))
    assert "materials.block_wood.density (kg/m^3)" in [t.get_text() for t in fig.texts]


@pytest.mark.parametrize("path, text", [
    ("materials.block_wood.density", "materials.block_wood.density (kg/m^3)"),
    ("parts.beam.size[2]", "parts.beam.size[2] (m)"),
    ("bodies[name=beam].position[2]", "bodies[name=beam].position[2] (m)"),
    ("physics.time_step", "physics.time_step (s)"),
    ("physics.gravity", "physics.gravity (m/s^2)"),
    ("materials.wood.friction", "materials.wood.friction"),
])
def test_labels_name_the_path_and_its_unit(path, text):
    assert label(path) == text


def test_a_directory_without_a_summary_is_one_line_naming_it(tmp_path):
    with pytest.raises(PlotError, match=r"summary\.parquet: no summary here") as info:
        plot_directory(tmp_path)
    assert "\n" not in str(info.value)


def test_nothing_varying_is_refused(tmp_path):
    frame = synthetic_summary()
    frame = frame[(frame["combination"] == 0) & (frame["case.block"] == 1)]
    frame.to_parquet(tmp_path / "summary.parquet")
    with pytest.raises(PlotError, match="nothing to plot"):
        plot_directory(tmp_path)
    assert not (tmp_path / "plots").exists()


def test_an_outcome_without_its_interval_is_refused():
    frame = synthetic_summary().drop(columns=["height.high"])
    with pytest.raises(PlotError, match="outcome 'height' has no column 'height.high'"):
        summary_table(frame, source="s.parquet")


def test_importing_the_module_draws_in_nothing():
    code = ("import sys, balance3d.tune.plot; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_the_plot_command_lists_the_files_it_wrote(tmp_path, capsys):
    from balance3d.cli import main

    frame = synthetic_summary()
    frame = frame[frame["param.parts.fulcrum.width"] == WIDTHS[0]]
    frame.drop(columns=[c for c in frame.columns if c.startswith("height.")]).to_parquet(
        tmp_path / "summary.parquet")
    out = tmp_path / "pictures"
    assert main(["tune", "plot", str(tmp_path), "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    files = sorted(out.iterdir())
    # a heat map per density, one curve against the density (the width is not swept)
    assert len(files) == len(DENSITIES) + 1
    assert lines[0] == f"wrote {len(files)} plots:"
    assert sorted(line.strip() for line in lines[1:]) == sorted(str(p) for p in files)
    assert main(["tune", "plot", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "summary.parquet: no summary here" in err and err.count("\n") == 1


def test_a_key_and_its_renaming_make_no_heat_map(sweep_dir):
    # one weight on five fields, each field number standing for one field index:
    # field x field_id would be a diagonal, the same key twice
    rows = []
    for combination, density in enumerate(DENSITIES):
        for field in range(1, 6):
            rows.append({"combination": combination, "param.materials.plate_wood.density": density,
                         "case.weight": 3, "case.field": field, "case.field_id": 5 - field,
                         "n": 20, "valid.mean": 0.5, "valid.low": 0.3, "valid.high": 0.7})
    pd.DataFrame(rows).to_parquet(sweep_dir / "summary.parquet")
    names = [p.name for p in plot_directory(sweep_dir)]
    assert names == ["curve_valid_materials.plate_wood.density.png"]
    # without the swept parameter nothing is left to plot
    pd.DataFrame(rows).query("combination == 0").to_parquet(sweep_dir / "summary.parquet")
    with pytest.raises(PlotError, match="nothing to plot"):
        plot_directory(sweep_dir)


def test_outcome_axes_carry_the_units_of_the_sweep(sweep_dir):
    (sweep_dir / "sweep.json").write_text('{"units": {"tipped": "share of runs", '
                                          '"height": "m"}}')
    table = plot.read_summary(sweep_dir)
    fig = plot.curves_figure(table, "height", "materials.block_wood.density")
    assert "height (mean, m), 95% interval" in [t.get_text() for t in fig.texts]
    rows = table.frame[table.frame["combination"] == 0]
    heat = heatmap_figure(rows, "height", table.outcome_label("height"), "block", "section",
                          "t", (0.0, 10.0))
    assert heat.axes[1].get_ylabel() == "height (mean, m)"
