"""Learning curves as plots (matplotlib, from the ``report`` extra).

A curve is the rows ``ratgames train --curve`` writes (one per update: steps, games, win rate,
mean return...).  :func:`plot` draws the win rate of the games that ended in each update
against the decisions trained on, one line per curve, optionally with stages (training runs
that went on from the weights before, ``--init``) joined end to end.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def read(path: str | Path) -> list[dict[str, float]]:
    """The rows of a curve CSV, as numbers."""
    with Path(path).open(newline="", encoding="utf-8") as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def joined(stages: Sequence[Sequence[Mapping[str, float]]]) -> tuple[list[float], list[float]]:
    """Steps (counted on across the stages) and win rates of stages run one after another."""
    steps: list[float] = []
    wins: list[float] = []
    offset = 0.0
    for rows in stages:
        for row in rows:
            steps.append(offset + row["steps"])
            wins.append(row["win_rate"])
        if rows:
            offset += rows[-1]["steps"]
    return steps, wins


def plot(
    curves: Mapping[str, tuple[list[float], list[float]]],
    out: str | Path,
    *,
    title: str = "Win rate during training",
    smooth: int = 5,
    marks: Sequence[tuple[float, str]] = (),
) -> Path:
    """Draw ``curves`` (label -> (steps, win rates)) to ``out`` (.png or .svg).  ``smooth``
    averages each point with the points before it; ``marks`` draws labelled vertical lines
    (where a stage began)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for label, (steps, wins) in curves.items():
        k = max(1, smooth)
        avg = [
            sum(wins[max(0, i - k + 1) : i + 1]) / len(wins[max(0, i - k + 1) : i + 1])
            for i in range(len(wins))
        ]
        ax.plot(steps, avg, label=label)
    for x, text in marks:
        ax.axvline(x, color="grey", linestyle=":", linewidth=1)
        ax.text(
            x, 1.01, text, fontsize=7, ha="left", va="bottom", transform=ax.get_xaxis_transform()
        )
    ax.set_xlabel("learner decisions")
    ax.set_ylabel("win rate of the games ended in each update")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title, fontsize=10, pad=14)
    fig.tight_layout()
    out = Path(out)
    kwargs: dict[str, Any] = {"metadata": {"Date": None}} if out.suffix == ".svg" else {"dpi": 120}
    fig.savefig(out, **kwargs)
    plt.close(fig)
    return out
