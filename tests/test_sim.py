"""Simulations in worker processes: the same results as in one process, and timely progress."""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

import pytest

from ratgames import sim
from ratgames.core import Bot, Option, SeatView
from ratgames.core import bots as bot_registry
from ratgames.sim import SimConfig, simulate
from ratgames.testing import HighCard


class SleepyBot(Bot):
    """Plays its highest card after ``seconds`` of sleep: a slow bot of known speed."""

    name = "sleepy"
    params = (Option("seconds", 0.0, "how long to sleep before each move", minimum=0.0),)

    def act(self, view: SeatView) -> Any:
        time.sleep(self.settings.get("seconds", 0.0))
        return view.legal_actions()[-1]


# The workers find the test game and bots only when they are forked from this process.
needs_fork = pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork", reason="workers must inherit the test registry"
)


def run(config: SimConfig, workers: int) -> tuple[sim.SimResult, list[int]]:
    reports: list[int] = []
    return simulate(config, workers=workers, on_progress=reports.append), reports


@needs_fork
def test_workers_give_the_same_games_in_order_and_report_every_one() -> None:
    config = SimConfig(HighCard.id, 2, {"turns": 6}, ("random", "highest"), 3000, seed=5)
    alone, alone_reports = run(config, workers=1)
    pooled, pooled_reports = run(config, workers=2)
    assert pooled.summaries == alone.summaries
    assert sum(alone_reports) == sum(pooled_reports) == 3000
    # Quick games go out in big chunks, so the per-chunk overhead stays small.
    assert max(pooled_reports) >= 50


@needs_fork
def test_slow_games_report_progress_a_few_games_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A game of two moves sleeps 0.02 s or more (a loaded machine only makes it slower), so
    # chunks of 0.05 s hold at most two games (a fixed split into 16 chunks would hold six).
    monkeypatch.setattr(sim, "CHUNK_SECONDS", 0.05)
    # Registered for this test only (the forked workers inherit it), so other tests' bot lists
    # stay as they are.
    entry = bot_registry.BotEntry("sleepy", SleepyBot, "sleeps, then plays", HighCard.id)
    monkeypatch.setitem(bot_registry._BOTS, (HighCard.id, "sleepy"), entry)
    bots = ("sleepy:seconds=0.01", "sleepy:seconds=0.01")
    config = SimConfig(HighCard.id, 2, {"turns": 2}, bots, 100, seed=1)
    result, reports = run(config, workers=2)
    assert result.games == sum(reports) == 100
    assert reports[0] == 1
    assert max(reports) <= 2
