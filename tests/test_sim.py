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


def run(
    config: SimConfig, workers: int, keep_games: bool = False
) -> tuple[sim.SimResult, list[int]]:
    reports: list[int] = []
    result = simulate(config, workers=workers, on_progress=reports.append, keep_games=keep_games)
    return result, reports


@needs_fork
def test_workers_give_the_same_games_in_order_and_report_every_one() -> None:
    config = SimConfig(HighCard.id, 2, {"turns": 6}, ("random", "highest"), 3000, seed=5)
    alone, alone_reports = run(config, workers=1, keep_games=True)
    pooled, pooled_reports = run(config, workers=2, keep_games=True)
    assert pooled.summaries == alone.summaries
    assert pooled.summaries is not None and len(pooled.summaries) == 3000
    assert pooled.first_shares == alone.first_shares
    assert {**pooled.to_json(), "seconds": 0, "games_per_second": 0} == {
        **alone.to_json(),
        "seconds": 0,
        "games_per_second": 0,
    }
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


@needs_fork
def test_quick_games_move_the_progress_a_twentieth_at_most() -> None:
    """However quick the games, a chunk holds at most a twentieth of a run's games, so that the
    plain progress lines come at every tenth (they came at 13%, 21%, 33%, 49% of 100 games)."""
    config = SimConfig(HighCard.id, 2, {"turns": 6}, ("random", "highest"), 100, seed=5)
    result, reports = run(config, workers=2)
    assert result.games == sum(reports) == 100
    assert max(reports) <= 5


def _held(obj: object, seen: set[int] | None = None) -> int:
    """The bytes an object holds, following containers and dataclasses (not shared configs)."""
    import dataclasses
    import sys

    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, SimConfig):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        size += sum(_held(getattr(obj, f.name), seen) for f in dataclasses.fields(obj))
    elif isinstance(obj, dict):
        size += sum(_held(k, seen) + _held(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple):
        size += sum(_held(v, seen) for v in obj)
    return size


def test_a_long_run_keeps_aggregates_not_every_game() -> None:
    """A run keeps counters and two numbers a game (length, first bot's share), unless asked
    for every game's summary."""
    config = SimConfig(HighCard.id, 3, {"turns": 2}, ("random", "highest"), 600, seed=2)
    lean = simulate(config, workers=1)
    full = simulate(config, workers=1, keep_games=True)
    assert lean.games == full.games == 600
    per_game = _held(lean) / 600
    assert per_game < 24, f"{per_game:.0f} bytes kept a game"
    assert _held(full) / 600 > 300, "asked for, every game's summary is kept"


def test_figures_come_out_of_the_aggregates() -> None:
    config = SimConfig(HighCard.id, 3, {"turns": 4}, ("highest", "random"), 90, seed=1)
    lean = simulate(config, workers=1)
    full = simulate(config, workers=1, keep_games=True)
    assert lean.summaries is None and full.summaries is not None
    assert "per_game" not in lean.to_json() and len(full.to_json()["per_game"]) == 90
    summaries = full.summaries
    wins = sum(1.0 / len(g.winners) for g in summaries if g.entrants.index(0) in g.winners)
    assert lean.entrants[0].wins == wins
    assert list(lean.first_shares) == [
        1.0 / len(g.winners) if g.entrants.index(0) in g.winners else 0.0 for g in summaries
    ]
    assert lean.length_stats() == full.length_stats()
    assert lean.to_json()["seat_bots"] == ["highest", "random", "random"]
