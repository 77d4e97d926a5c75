"""Figures of the studies: sensitivity indices as bars, a comparison's differences
per cell, a search's trials.  matplotlib is imported when a figure is drawn, off
screen (no display)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from balance3d.tune.plot import PANEL_SIZE, label

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: inches of width per bar group (parameter, cell or trial batch), beyond the panel.
WIDTH_PER_GROUP = 0.6


def _figure(groups: int) -> tuple["Figure", Any]:
    from matplotlib.figure import Figure

    width = max(PANEL_SIZE[0], WIDTH_PER_GROUP * groups + 2.0)
    fig = Figure(figsize=(width, PANEL_SIZE[1] + 1.0), layout="constrained")
    return fig, fig.subplots()


def sensitivity_figure(report: dict[str, Any]) -> "Figure":
    """Bars of each parameter's indices with their 95 % intervals: S1 and ST (Sobol),
    or mu_star with sigma beside it (Morris)."""
    rows = report["indices"]
    names = [label(r["parameter"]) for r in rows]
    fig, ax = _figure(2 * len(rows))
    x = np.arange(len(rows))
    if report["method"] == "sobol":
        for offset, key, text in ((-0.2, "S1", "first order S1"), (0.2, "ST", "total ST")):
            ax.bar(x + offset, [r[key] for r in rows], 0.4, label=text,
                   yerr=[r[f"{key}_conf"] for r in rows], capsize=4)
        ax.set_ylabel(f"Sobol index of {report['outcome']} (share of variance)")
    else:
        ax.bar(x - 0.2, [r["mu_star"] for r in rows], 0.4, label="mu_star",
               yerr=[r["mu_star_conf"] for r in rows], capsize=4)
        ax.bar(x + 0.2, [r["sigma"] for r in rows], 0.4, label="sigma")
        ax.set_ylabel(f"elementary effect on {report['outcome']} per full range")
    share = report["noise"]["noise_share"]
    noise = f"\nnoise: {share:.0%} of a run's variance" if np.isfinite(share) else ""
    ax.set_title(f"{report['sweep']}: {report['method']}, {report['runs']} runs{noise}",
                 fontsize="medium")
    ax.set_xticks(x, names, rotation=15, ha="right", fontsize="small")
    ax.axhline(0.0, color="black", linewidth=0.5)
    ax.legend()
    return fig


def compare_figure(table, outcome: str, title: str) -> "Figure":
    """One outcome's differences (B - A) per cell, with their 95 % intervals; the
    cells that differ (Holm) drawn filled, the others hollow."""
    rows = table[table["outcome"] == outcome].reset_index(drop=True)
    cases = [c for c in rows.columns if c.startswith("case.")]
    names = [" ".join([f"#{r['combination']}", *(f"{c[5:]}={r[c]}" for c in cases)])
             for _, r in rows.iterrows()]
    fig, ax = _figure(len(rows))
    x = np.arange(len(rows))
    low = (rows["difference"] - rows["low"]).fillna(0.0)
    high = (rows["high"] - rows["difference"]).fillna(0.0)
    for differs, marker in ((True, "o"), (False, "o")):
        chosen = rows["differs"] == differs
        ax.errorbar(x[chosen], rows["difference"][chosen],
                    yerr=[low[chosen], high[chosen]], fmt=marker, capsize=3,
                    fillstyle="full" if differs else "none",
                    label="differs (Holm p < 0.05)" if differs else "no clear difference")
    ax.axhline(0.0, color="black", linewidth=0.5)
    kind = rows["kind"].iloc[0] if len(rows) else "mean"
    ax.set_ylabel(f"{outcome}: B - A" + (" (rate)" if kind == "probability" else ""))
    ax.set_title(title, fontsize="medium")
    ax.set_xticks(x, names, rotation=60, ha="right", fontsize="x-small")
    ax.legend(fontsize="small")
    return fig


def search_figure(report: dict[str, Any]) -> "Figure":
    """A search's trials: the loss of each trial in trial order with the best so far,
    and the trials in the plane of the first two parameters (or against the only
    one), coloured by loss, the best marked."""
    from matplotlib.figure import Figure

    rows = report["table"]
    params = [k for k in rows[0] if k.startswith("param.")]
    fig = Figure(figsize=(2 * PANEL_SIZE[0], PANEL_SIZE[1] + 0.6), layout="constrained")
    left, right = fig.subplots(1, 2)
    trial = [r["trial"] for r in rows]
    losses = np.array([r["loss"] for r in rows])
    left.plot(trial, losses, "o", fillstyle="none", label="trial")
    left.plot(trial, np.minimum.accumulate(losses), "-", label="best so far")
    left.set_xlabel("trial (in run order)")
    left.set_ylabel("loss (sum of squared misses)")
    left.legend(fontsize="small")
    best = report["best"]["trial"]
    x = [r[params[0]] for r in rows]
    y = [r[params[1]] for r in rows] if len(params) > 1 else list(losses)
    dots = right.scatter(x, y, c=losses, cmap="viridis_r")
    chosen = trial.index(best)
    right.plot(x[chosen], y[chosen], "*", color="red", markersize=14, label="best")
    right.set_xlabel(label(params[0][len("param."):]))
    right.set_ylabel(label(params[1][len("param."):]) if len(params) > 1 else "loss")
    right.legend(fontsize="small")
    fig.colorbar(dots, ax=right, label="loss")
    fig.suptitle(f"{report['sweep']}: {report['target']}", fontsize="medium")
    return fig
