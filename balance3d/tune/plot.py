"""Plots of a sweep's summary table as PNG files.

A summary (``DIR/summary.parquet``) has one row per (combination, case): the swept
values in ``param.<path>`` columns, the case in ``case.<key>`` columns, and per
outcome ``<name>.mean``, ``<name>.low`` and ``<name>.high`` (the 95% interval;
outcomes summarised as means also have ``<name>.sd``, rates do not).  From it:

- heat maps, when two case keys vary apart from each other (block size by section;
  never a key against a renaming of itself, such as a field's number against its
  index): one per outcome and combination (and value of any further case key), each
  cell coloured by the outcome and annotated with it and its interval;
- curves, one figure per outcome and swept parameter: the outcome against the
  parameter with its 95% interval as error bars, one line per case and value of the
  other parameters, or one panel per case when that makes too many lines.

matplotlib is imported only when a plot is drawn, and draws off screen (no display).
"""
from __future__ import annotations

import math
import re
import tomllib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from balance3d.physics.settings import PHYSICS_UNITS

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

#: dots per inch of every PNG written.
PLOT_DPI = 100
#: inches (width, height) of a heat map figure.
HEATMAP_SIZE = (6.4, 4.8)
#: inches (width, height) of one panel of a curves figure.
PANEL_SIZE = (4.8, 3.6)
#: lines one curves panel holds before the figure splits into one panel per case.
MAX_LINES = 8
#: matplotlib colour map of the heat maps (perceptually uniform, dark to light).
COLORMAP = "viridis"
#: Unit of a scene value by the last key of its path (physics settings: their own).
UNITS = {
    "density": "kg/m^3",
    "mass": "kg",
    "unit_mass": "kg",
    "size": "m",
    "width": "m",
    "height": "m",
    "length": "m",
    "radius": "m",
    "thickness": "m",
    "position": "m",
    "unit": "m",
}

_PREFIXES = ("param.", "case.")
_STATS = ("mean", "low", "high")
_INDEX = re.compile(r"\[[^\]]*\]$")


class PlotError(ValueError):
    """A sweep directory has no summary to plot, or the summary is not one: the
    message names the file."""


@dataclass(frozen=True)
class SummaryTable:
    """A summary table with its columns sorted out.

    frame : one row per (combination, case), sorted by combination then case.
    params : swept parameter paths (``param.<path>`` columns), in column order.
    cases : case keys (``case.<key>`` columns), in column order.
    outcomes : outcome name -> ``"probability"`` or ``"mean"``.
    title : the sweep's name and experiment, for figure titles.
    units : outcome name -> unit (a rate's is the share of runs; from the sweep's
        ``sweep.json``); an outcome missing here is labelled with its kind alone.
    """

    frame: "pd.DataFrame"
    params: tuple[str, ...]
    cases: tuple[str, ...]
    outcomes: dict[str, str]
    title: str
    units: dict[str, str] = field(default_factory=dict)

    def outcome_label(self, outcome: str) -> str:
        """An axis label for ``outcome``: its name, its kind and its unit."""
        return outcome_label(outcome, self.outcomes[outcome], self.units.get(outcome))

    def varying(self, prefix: str, names: Sequence[str]) -> list[str]:
        """The ``names`` whose ``prefix + name`` column takes more than one value."""
        return [n for n in names if self.frame[prefix + n].nunique(dropna=False) > 1]


def label(path: str) -> str:
    """An axis label for a scene value path: the path with its unit when known
    (``materials.wood.density (kg/m^3)``)."""
    key = _INDEX.sub("", path.rsplit(".", 1)[-1])
    unit = PHYSICS_UNITS.get(key) if path.startswith("physics.") else UNITS.get(key)
    return f"{path} ({unit})" if unit else path


def file_part(text: str) -> str:
    """``text`` as part of a file name: runs of characters other than letters,
    digits, ``.``, ``-`` and ``_`` become one ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")


def fmt(value: Any) -> str:
    """A parameter or case value as labels show it (floats to 4 significant digits)."""
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.4g}"
    return str(value)


def summary_table(frame: "pd.DataFrame", title: str = "", source: str = "summary",
                  units: dict[str, str] | None = None) -> SummaryTable:
    """Sort out a summary frame's columns (:class:`PlotError` naming ``source`` when
    it has no outcome columns or an outcome lacks its interval)."""
    params = tuple(c[len("param."):] for c in frame.columns if c.startswith("param."))
    cases = tuple(c[len("case."):] for c in frame.columns if c.startswith("case."))
    outcomes: dict[str, str] = {}
    for column in frame.columns:
        if column.startswith(_PREFIXES) or not column.endswith(".mean"):
            continue
        name = column[:-len(".mean")]
        missing = [f"{name}.{s}" for s in _STATS if f"{name}.{s}" not in frame.columns]
        if missing:
            raise PlotError(f"{source}: outcome {name!r} has no column {missing[0]!r}")
        outcomes[name] = "mean" if f"{name}.sd" in frame.columns else "probability"
    if not outcomes:
        raise PlotError(f"{source}: no outcome columns (<name>.mean, .low, .high)")
    order = (["combination"] if "combination" in frame.columns else []) \
        + ["param." + p for p in params] + ["case." + c for c in cases]
    frame = frame.sort_values(order, kind="stable").reset_index(drop=True) if order else frame
    return SummaryTable(frame, params, cases, outcomes, title, dict(units or {}))


def read_summary(directory: str | Path) -> SummaryTable:
    """The summary of the sweep written to ``directory`` (its ``summary.parquet``,
    titled from its ``sweep.toml`` when there is one)."""
    import pandas as pd

    directory = Path(directory)
    path = directory / "summary.parquet"
    if not path.is_file():
        raise PlotError(f"{path}: no summary here (run 'balance3d tune SWEEP.toml --out "
                        f"{directory}' first)")
    frame = pd.read_parquet(path)
    title = directory.name
    sweep_file = directory / "sweep.toml"
    if sweep_file.is_file():
        sweep = tomllib.loads(sweep_file.read_text(encoding="utf-8")).get("sweep", {})
        name = sweep.get("name", sweep_file.parent.name)
        title = f"{name} ({sweep['experiment']})" if "experiment" in sweep else str(name)
    identity = directory / "sweep.json"
    units = json.loads(identity.read_text()).get("units", {}) if identity.is_file() else {}
    return summary_table(frame, title, str(path), units)


def _values_key(value: Any) -> tuple:
    """Sort key putting numbers in numeric order before anything else, as text."""
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return (0, float(value), "")
    return (1, 0.0, str(value))


def _sorted_values(series: "pd.Series") -> list[Any]:
    return sorted(series.drop_duplicates().tolist(), key=_values_key)


def outcome_label(name: str, kind: str, unit: str | None = None) -> str:
    """An axis label for an outcome: ``tipped (rate)``, ``peak_height (mean, m)``;
    a rate's unit (the share of runs) is what "rate" says."""
    if kind == "probability":
        return f"{name} (rate)"
    return f"{name} (mean, {unit})" if unit else f"{name} (mean)"


def _limits(table: SummaryTable, outcome: str) -> tuple[float, float]:
    """Colour limits of an outcome, shared by all its heat maps: 0..1 for a rate,
    the range of its means otherwise."""
    if table.outcomes[outcome] == "probability":
        return 0.0, 1.0
    means = table.frame[f"{outcome}.mean"].to_numpy(dtype=float)
    low, high = float(np.nanmin(means)), float(np.nanmax(means))
    return (low, high) if high > low else (low - 0.5, high + 0.5)


def heatmap_figure(rows: "pd.DataFrame", outcome: str, bar_label: str, x_key: str,
                   y_key: str, title: str, limits: tuple[float, float]) -> "Figure":
    """A heat map of ``outcome`` over case keys ``x_key`` (columns) and ``y_key``
    (rows, lowest value at the bottom) from ``rows`` (one per case); colour scale
    ``limits`` (low, high) labelled ``bar_label``; every cell annotated with its
    mean and 95% interval."""
    from matplotlib.figure import Figure

    xs = _sorted_values(rows["case." + x_key])
    ys = _sorted_values(rows["case." + y_key])
    grid = np.full((len(ys), len(xs), 3), np.nan)
    for _, row in rows.iterrows():
        i = ys.index(row["case." + y_key])
        j = xs.index(row["case." + x_key])
        grid[i, j] = [row[f"{outcome}.{s}"] for s in _STATS]
    fig = Figure(figsize=HEATMAP_SIZE, dpi=PLOT_DPI)
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(grid[:, :, 0]), origin="lower", aspect="auto",
                      cmap=COLORMAP, vmin=limits[0], vmax=limits[1])
    fig.colorbar(image, ax=ax, label=bar_label)
    ax.set_xticks(range(len(xs)), [fmt(v) for v in xs])
    ax.set_yticks(range(len(ys)), [fmt(v) for v in ys])
    ax.set_xlabel(label(x_key))
    ax.set_ylabel(label(y_key))
    ax.set_title(title, fontsize="medium")
    middle = (limits[0] + limits[1]) / 2
    for i in range(len(ys)):
        for j in range(len(xs)):
            mean, low, high = grid[i, j]
            if math.isnan(mean):
                continue
            ax.text(j, i, f"{mean:.2f}\n[{low:.2f}, {high:.2f}]", ha="center", va="center",
                    fontsize="x-small", color="white" if mean < middle else "black")
    return fig


def curves_figure(table: SummaryTable, outcome: str, param: str) -> "Figure":
    """``outcome`` against the swept ``param`` with its 95% intervals as error bars:
    one line per case and value of the other swept parameters, or one panel per case
    when that makes more than :data:`MAX_LINES` lines."""
    from matplotlib.figure import Figure

    frame = table.frame
    kind = table.outcomes[outcome]
    cases = table.varying("case.", table.cases)
    others = [p for p in table.varying("param.", table.params) if p != param]
    case_cols = ["case." + c for c in cases]
    other_cols = ["param." + p for p in others]
    n_lines = len(frame.drop_duplicates(case_cols + other_cols)) if case_cols + other_cols else 1
    panel_cols = case_cols if n_lines > MAX_LINES and case_cols else []
    line_cols = [c for c in case_cols + other_cols if c not in panel_cols]
    panels = _groups(frame, panel_cols)
    ncols = math.ceil(math.sqrt(len(panels)))
    nrows = math.ceil(len(panels) / ncols)
    fig = Figure(figsize=(PANEL_SIZE[0] * ncols, PANEL_SIZE[1] * nrows), dpi=PLOT_DPI,
                 layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
    xs = _sorted_values(frame["param." + param])
    numeric = all(_values_key(v)[0] == 0 for v in xs)
    for ax, (panel_name, panel) in zip(axes.flat, panels):
        for line_name, line in _groups(panel, line_cols):
            line = line.sort_values("param." + param, key=lambda s: s.map(_values_key))
            x = line["param." + param].tolist()
            x = np.asarray(x, dtype=float) if numeric else [xs.index(v) for v in x]
            mean = line[f"{outcome}.mean"].to_numpy(dtype=float)
            yerr = [mean - line[f"{outcome}.low"].to_numpy(dtype=float),
                    line[f"{outcome}.high"].to_numpy(dtype=float) - mean]
            ax.errorbar(x, mean, yerr=yerr, marker="o", markersize=3, capsize=3,
                        label=line_name or None)
        if panel_name:
            ax.set_title(panel_name, fontsize="small")
        if line_cols and len(panel) > 0:
            ax.legend(fontsize="x-small")
        if kind == "probability":
            ax.set_ylim(-0.03, 1.03)
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    if not numeric:
        axes[-1, 0].set_xticks(range(len(xs)), [fmt(v) for v in xs])
    fig.supxlabel(label(param))
    fig.supylabel(table.outcome_label(outcome) + ", 95% interval")
    fig.suptitle(table.title, fontsize="medium")
    return fig


def fit_figure(report: dict[str, Any],
               curve: Callable[[np.ndarray], np.ndarray] | None) -> "Figure":
    """A fit (the report :func:`balance3d.tune.fit.fit_sweep` returns) drawn: the
    outcome observed at each value run with its 95% interval, the fitted ``curve``
    (parameter values -> outcome; None when the outcomes separated and the answer is
    a bracket), the target, the value found with its interval, and the check's
    observation at the value found."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=HEATMAP_SIZE, dpi=PLOT_DPI, layout="constrained")
    ax = fig.add_subplot()
    low, high = report["within"]
    runs = report["runs"]
    x = np.array([r["value"] for r in runs])
    mean = np.array([r["mean"] for r in runs])
    yerr = [mean - [r["low"] for r in runs], [r["high"] for r in runs] - mean]
    ax.errorbar(x, mean, yerr=yerr, fmt="o", capsize=3, label="runs (95% interval)")
    if curve is not None:
        grid = np.linspace(low, high, 200)
        ax.plot(grid, curve(grid), label=f"{report['fit']['model']} fit")
    ax.axhline(report["target"], color="grey", linestyle="--", linewidth=1, label="target")
    fit = report["fit"]
    ax.axvspan(fit["low"], fit["high"], color="C2", alpha=0.2,
               label=f"found {fit['value']:.4g} (95% interval)")
    check = report["check"]
    ax.errorbar([check["value"]], [check["mean"]],
                yerr=[[check["mean"] - check["low"]], [check["high"] - check["mean"]]],
                fmt="s", color="C3", capsize=4, label=f"check ({check['n']} runs)")
    if report["kind"] == "probability":
        ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel(label(report["param"]))
    ax.set_ylabel(outcome_label(report["outcome"], report["kind"], report.get("unit")))
    case = ", ".join(f"{k}={fmt(v)}" for k, v in report["case"].items())
    ax.set_title(f"{report['sweep']} ({report['experiment']})" + (f"\n{case}" if case else ""),
                 fontsize="medium")
    ax.legend(fontsize="x-small")
    ax.grid(alpha=0.3)
    return fig


def _groups(frame: "pd.DataFrame", columns: list[str]) -> list[tuple[str, "pd.DataFrame"]]:
    """``frame`` split by the values of ``columns``, in sorted order, each group
    named ``key=value, ...`` (one unnamed group when there are no columns)."""
    if not columns:
        return [("", frame)]
    keys = frame[columns].drop_duplicates()
    keys = sorted(keys.itertuples(index=False, name=None),
                  key=lambda t: tuple(_values_key(v) for v in t))
    groups = []
    for key in keys:
        mask = np.ones(len(frame), dtype=bool)
        for column, value in zip(columns, key):
            mask &= (frame[column] == value).to_numpy()
        name = ", ".join(f"{c.split('.', 1)[1]}={fmt(v)}" for c, v in zip(columns, key))
        groups.append((name, frame[mask]))
    return groups


def _determines(table: SummaryTable, key: str, other: str) -> bool:
    """Whether case key ``key`` (with the swept parameters) fixes ``other``'s value:
    then ``other`` only renames ``key``'s values (a field's index beside its
    number) and the two make no heat map."""
    cell = ["param." + p for p in table.params] + ["case." + key]
    return bool(table.frame.groupby(cell, dropna=False)["case." + other]
                .nunique(dropna=False).max() <= 1)


def heatmap_axes(table: SummaryTable, cases: list[str]) -> tuple[str, str] | None:
    """The first pair of the varying case keys ``cases`` (columns, rows) in which
    neither key fixes the other (:func:`_determines`), or None: a heat map never
    puts one key against a renaming of itself."""
    for i, x_key in enumerate(cases):
        for y_key in cases[i + 1:]:
            if not _determines(table, x_key, y_key) and not _determines(table, y_key, x_key):
                return x_key, y_key
    return None


def _splitting(table: SummaryTable, axes: list[str], others: list[str]) -> list[str]:
    """The case keys of ``others`` that take more than one value in some heat map cell
    (the ``axes`` case keys and the parameters): a key that only renames an axis, such
    as a field's index beside its number, splits nothing."""
    cell = ["param." + p for p in table.params] + ["case." + k for k in axes]
    groups = table.frame.groupby(cell, dropna=False)
    return [k for k in others if groups["case." + k].nunique(dropna=False).max() > 1]


def _combinations(table: SummaryTable) -> list[tuple[int, str, "pd.DataFrame"]]:
    """The summary split by combination: (number, swept values as text, rows)."""
    frame = table.frame
    params = ["param." + p for p in table.params]
    if "combination" in frame.columns:
        numbers = sorted(frame["combination"].unique().tolist())
        parts = [frame[frame["combination"] == n] for n in numbers]
    else:
        groups = _groups(frame, params)
        numbers = list(range(len(groups)))
        parts = [g for _, g in groups]
    out = []
    for number, part in zip(numbers, parts):
        first = part.iloc[0]
        text = ", ".join(f"{p}={fmt(first['param.' + p])}" for p in table.params)
        out.append((int(number), text, part))
    return out


def plot_summary(table: SummaryTable, out: str | Path) -> list[Path]:
    """Write every plot of ``table`` into the folder ``out`` (made if missing) and
    return the files written, in the order written (:class:`PlotError` when nothing
    varies enough to plot).

    Files: ``heatmap_<outcome>_combination<k>[_<i>].png`` when two case keys vary
    (``_<i>`` numbers the values of further varying case keys), and
    ``curve_<outcome>_<parameter path>.png`` per swept parameter that varies."""
    cases = table.varying("case.", table.cases)
    params = table.varying("param.", table.params)
    axes = heatmap_axes(table, cases)
    if axes is None and not params:
        raise PlotError("nothing to plot: no swept parameter takes two values and no two "
                        "case keys vary apart from each other")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for outcome, kind in table.outcomes.items():
        if axes is not None:
            x_key, y_key = axes
            rest = _splitting(table, [x_key, y_key], [c for c in cases if c not in axes])
            limits = _limits(table, outcome)
            for number, values, rows in _combinations(table):
                extra = _groups(rows, ["case." + k for k in rest])
                for i, (extra_name, part) in enumerate(extra):
                    suffix = f"_{i}" if rest else ""
                    title = "\n".join(t for t in (table.title, values, extra_name) if t)
                    fig = heatmap_figure(part, outcome, table.outcome_label(outcome),
                                         x_key, y_key, title, limits)
                    path = out / file_part(f"heatmap_{outcome}_combination{number}{suffix}.png")
                    written.append(save(fig, path))
        for param in params:
            fig = curves_figure(table, outcome, param)
            written.append(save(fig, out / file_part(f"curve_{outcome}_{param}.png")))
    return written


def save(fig: "Figure", path: Path) -> Path:
    """Write ``fig`` to ``path`` as a PNG at :data:`PLOT_DPI`; returns ``path``."""
    fig.savefig(path, dpi=PLOT_DPI, format="png")
    return path


def plot_directory(directory: str | Path, out: str | Path | None = None) -> list[Path]:
    """Plot the summary of the sweep written to ``directory`` into ``out``
    (default ``directory/plots``); returns the files written."""
    table = read_summary(directory)
    return plot_summary(table, Path(directory) / "plots" if out is None else out)
