"""Tournaments: pairings, mirrored deals and ratings, on bots of known order."""

from __future__ import annotations

from pathlib import Path

from ratgames.tournament import bradley_terry, run_tournament


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
