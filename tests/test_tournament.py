"""Tournaments: pairings, mirrored deals and ratings, on bots of known order."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from ratgames.core import Bot, Option, SeatView
from ratgames.core import bots as bot_registry
from ratgames.sim import simulate
from ratgames.testing import HighCard
from ratgames.tournament import bradley_terry, pairing_configs, run_tournament


def test_ratings_follow_the_results() -> None:
    even = bradley_terry(["a", "b"], {("a", "b"): (50.0, 50.0)})
    assert abs(even["a"] - even["b"]) < 1e-6
    assert abs(even["a"] - 1500) < 1e-6
    strong = bradley_terry(["a", "b", "c"], {("a", "b"): (75, 25), ("b", "c"): (75, 25)})
    assert strong["a"] > strong["b"] > strong["c"]
    # 75% is about 191 Elo points.
    assert 150 < strong["a"] - strong["b"] < 230


def test_bots_of_known_order_are_ranked_in_order(tmp_path: Path) -> None:
    result = run_tournament(
        "test-high-card", ["random", "lowest", "highest"], 60, options={"turns": 6}, workers=1
    )
    assert result.ranked() == ["highest", "random", "lowest"]
    assert set(result.scores) == {
        ("random", "lowest"),
        ("random", "highest"),
        ("lowest", "highest"),
    }
    for shares in result.outcomes.values():
        assert len(shares) == 60
    lo, hi = result.intervals["highest"]
    assert lo <= result.ratings["highest"] <= hi
    assert result.intervals["highest"][0] > result.intervals["lowest"][1]
    js, md = result.save(tmp_path / "t")
    assert js.exists() and "| 1 | `highest` |" in md.read_text()


def test_mirrored_deals_give_both_bots_the_same_hands() -> None:
    # Two copies of one deterministic bot on mirrored deals must split the points evenly.
    result = run_tournament(
        "test-high-card", ["highest", "highest:spite=true"], 40, options={"turns": 6}, workers=1
    )
    sa, sb = result.scores[("highest", "highest:spite=true")]
    assert sa == sb


def test_markdown_crosstable_keeps_a_decimal() -> None:
    from ratgames.tournament import TournamentResult

    result = TournamentResult(
        "test-high-card",
        2,
        {},
        ["a", "b"],
        200,
        scores={("a", "b"): (199.0, 1.0)},
        ratings={"a": 1900.0, "b": 1100.0},
        intervals={"a": (1850.0, 1950.0), "b": (1050.0, 1150.0)},
    )
    table = result.markdown()
    assert "99.5%" in table and "0.5%" in table and "100%" not in table


def test_intervals_resample_whole_deals() -> None:
    """When every deal is won by whichever bot holds the lucky seat, mirroring cancels the luck
    exactly: the pairing is even with no doubt about it.  Resampling games one by one would
    miss that and report a wide interval."""
    from ratgames.tournament import TournamentResult, bootstrap_intervals

    def result_of(shares: list[float]) -> TournamentResult:
        sa = sum(shares)
        return TournamentResult(
            "test-high-card",
            2,
            {},
            ["a", "b"],
            len(shares),
            scores={("a", "b"): (sa, len(shares) - sa)},
            outcomes={("a", "b"): shares},
        )

    luck = result_of([1.0, 0.0] * 50)  # deal by deal: a wins from seat 1, then b does
    ratings, scores = bootstrap_intervals(luck)
    assert scores[("a", "b")] == (0.5, 0.5)
    assert ratings["a"][1] - ratings["a"][0] < 1.0
    # The same results in an order where games of a deal agree are genuinely uncertain.
    skill = result_of([1.0, 1.0, 0.0, 0.0] * 25)
    skill.intervals, skill.score_intervals = bootstrap_intervals(skill)
    lo, hi = skill.score_intervals[("a", "b")]
    assert lo < 0.42 and hi > 0.58
    line = skill.pairing_lines()[0]
    assert "50.0% (95% CI" in line and "100 games on 50 deals" in line


def test_a_clean_sweep_still_has_an_interval() -> None:
    from ratgames.tournament import TournamentResult, bootstrap_intervals

    sweep = TournamentResult(
        "test-high-card", 2, {}, ["a", "b"], 40, scores={("a", "b"): (0.0, 40.0)}
    )
    sweep.outcomes = {("a", "b"): [0.0] * 40}
    sweep.intervals, sweep.score_intervals = bootstrap_intervals(sweep)
    lo, hi = sweep.score_intervals[("a", "b")]
    assert lo == 0.0 and 0.1 < hi < 0.25  # 0 of 20 deals: Wilson's interval over deals
    line = sweep.pairing_lines()[0]
    assert line.startswith("b vs a: 100% (95% CI 8") and line.endswith(
        "-100) over 40 games on 20 deals"
    )


def test_the_markdown_says_what_was_played(tmp_path: Path) -> None:
    result = run_tournament(
        "test-high-card", ["lowest", "highest"], 4, options={"turns": 6}, seed=3, workers=1
    )
    _, md = result.save(tmp_path / "t")
    text = md.read_text()
    assert "options: turns=6" in text and "seed: 3" in text
    assert "`ratgames tournament test-high-card -n 2 -o turns=6 -g 4 -s 3 -b lowest highest`" in (
        text
    )
    assert result.to_json()["seed"] == 3


class SleepyBot(Bot):
    """Plays its highest card after ``seconds`` of sleep: a slow bot of known speed."""

    name = "sleepy"
    params = (Option("seconds", 0.0, "how long to sleep before each move", minimum=0.0),)

    def act(self, view: SeatView) -> Any:
        time.sleep(self.settings.get("seconds", 0.0))
        return view.legal_actions()[-1]


def test_the_work_left_weighs_each_pairing_by_its_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pairing plays its first deal first, and the share of work reported weighs each
    pairing's games by the time that deal took: once the quick pairing is over (about a third
    of the games), the slow pairings' work still lies almost all ahead, so the time left is not
    the quick pairing's pace.  The games and results are those of each pairing played alone."""
    entry = bot_registry.BotEntry("sleepy", SleepyBot, "sleeps, then plays", HighCard.id)
    monkeypatch.setitem(bot_registry._BOTS, (HighCard.id, "sleepy"), entry)
    bots = ["highest", "lowest", "sleepy:seconds=0.005"]
    games = 20
    work: list[float] = []
    steps: list[tuple[int, float | None]] = []  # (games done, the work share reported then)

    def progress(n: int) -> None:
        steps.append(((steps[-1][0] if steps else 0) + n, work[-1] if work else None))

    result = run_tournament(
        HighCard.id, bots, games, options={"turns": 2}, workers=1,
        on_progress=progress, on_work=work.append,
    )  # fmt: skip
    assert steps[-1] == (3 * games, pytest.approx(1.0))
    # Each pairing's first deal (two games) first, then the whole quick pairing: 24 of the 60
    # games (40%), but of the work only the slow pairings' first deals (4 of their 40 games,
    # about 10%) and the quick games, which weigh next to nothing.
    quick_over = dict(steps)[3 * 2 + games - 2]
    assert quick_over is not None and quick_over < 0.2, quick_over
    for pair, config in pairing_configs(HighCard.id, bots, games, options={"turns": 2}):
        assert result.outcomes[pair] == simulate(config, workers=1).first_shares


def test_a_perfect_record_still_has_a_rating_interval() -> None:
    """A pairing won on every deal leaves the bootstrap no doubt; the ratings' intervals come
    from the Wilson interval of its score over deals instead of collapsing to a point."""
    from ratgames.tournament import TournamentResult, bootstrap_intervals, bradley_terry

    result = TournamentResult("test-high-card", 2, {}, ["a", "b", "c"], 20)
    for pair, share in ((("a", "b"), 1.0), (("a", "c"), 1.0), (("b", "c"), 0.5)):
        result.outcomes[pair] = [share] * 20 if share != 0.5 else [1.0, 1.0, 0.0, 0.0] * 5
        sa = sum(result.outcomes[pair])
        result.scores[pair] = (sa, 20 - sa)
    result.ratings = bradley_terry(result.bots, result.scores)
    result.intervals, result.score_intervals = bootstrap_intervals(result)
    lo, hi = result.intervals["a"]
    assert lo < result.ratings["a"] - 100 and hi >= result.ratings["a"] - 1e-6
    for bot in ("b", "c"):  # each lost every deal to a: the interval reaches up
        lo, hi = result.intervals[bot]
        assert lo < result.ratings[bot] < hi - 100
    rows = [line for line in result.markdown().splitlines() if line.startswith("| 1 | `a`")]
    assert rows and f"{result.ratings['a']:.0f} to {result.ratings['a']:.0f}" not in rows[0]
