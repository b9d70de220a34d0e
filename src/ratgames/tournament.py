"""Tournaments: every pairing of a list of bots, ratings with confidence intervals, a crosstable.

Each pairing plays the same deals with the seats rotated (``mirror``), so that both bots get
every hand and the luck of the deal cancels.  Ratings are Elo-scale Bradley-Terry maximum
likelihood estimates (draws and shared wins count half) with a mean of 1500; their 95%
intervals come from a bootstrap over games.

>>> ratings = bradley_terry(["a", "b"], {("a", "b"): (30.0, 10.0)})
>>> round(ratings["a"] - ratings["b"])  # 75% is 191 points; a small prior pulls it in
188
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core.rng import Rng
from .sim import SimConfig, SimResult, simulate

Pair = tuple[str, str]


def bradley_terry(
    bots: Sequence[str], scores: Mapping[Pair, tuple[float, float]], iterations: int = 500
) -> dict[str, float]:
    """Elo-scale ratings from pairwise scores ``(points of a, points of b)`` (mean 1500).

    A tiny prior (half a point each way against a virtual even opponent) keeps ratings finite
    when a bot wins or loses every game.
    """
    strength = {b: 1.0 for b in bots}
    wins = {b: 0.5 for b in bots}
    games: dict[Pair, float] = {}
    for (a, b), (sa, sb) in scores.items():
        wins[a] += sa
        wins[b] += sb
        games[(a, b)] = games.get((a, b), 0.0) + sa + sb
    for _ in range(iterations):
        new = {}
        for b in bots:
            denom = 1.0 / (strength[b] + 1.0)  # the prior's virtual opponent of strength 1
            for (x, y), n in games.items():
                if x == b:
                    denom += n / (strength[b] + strength[y])
                elif y == b:
                    denom += n / (strength[b] + strength[x])
            new[b] = wins[b] / denom
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        strength = {b: v / math.exp(mean_log) for b, v in new.items()}
    return {b: 1500 + 400 * math.log10(strength[b]) for b in bots}


@dataclass
class TournamentResult:
    """Pairwise results, ratings with intervals, and the crosstable."""

    game_id: str
    players: int
    options: Mapping[str, Any]
    bots: list[str]
    games_per_pairing: int
    scores: dict[Pair, tuple[float, float]] = field(default_factory=dict)
    outcomes: dict[Pair, list[float]] = field(default_factory=dict)
    ratings: dict[str, float] = field(default_factory=dict)
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)

    def score_of(self, a: str, b: str) -> float:
        """The fraction of points ``a`` took against ``b``."""
        if (a, b) in self.scores:
            sa, sb = self.scores[(a, b)]
        elif (b, a) in self.scores:
            sb, sa = self.scores[(b, a)]
        else:
            return float("nan")
        return sa / (sa + sb) if sa + sb else 0.5

    def ranked(self) -> list[str]:
        return sorted(self.bots, key=lambda b: -self.ratings[b])

    def markdown(self) -> str:
        """The ratings and crosstable as a Markdown table."""
        order = self.ranked()
        head = ["#", "bot", "rating", "95% CI", *[f"vs {i + 1}" for i in range(len(order))]]
        lines = [
            "| " + " | ".join(head) + " |",
            "|" + "|".join("---:" if i != 1 else ":---" for i in range(len(head))) + "|",
        ]
        for i, b in enumerate(order):
            lo, hi = self.intervals[b]
            cells = ["-" if b == o else f"{100 * self.score_of(b, o):.1f}%" for o in order]
            lines.append(
                f"| {i + 1} | `{b}` | {self.ratings[b]:.0f} | {lo:.0f} to {hi:.0f} | "
                + " | ".join(cells)
                + " |"
            )
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "players": self.players,
            "options": dict(self.options),
            "games_per_pairing": self.games_per_pairing,
            "ratings": [
                {
                    "bot": b,
                    "rating": round(self.ratings[b], 1),
                    "rating_95ci": [round(x, 1) for x in self.intervals[b]],
                }
                for b in self.ranked()
            ],
            "pairings": [
                {"bots": [a, b], "points": [sa, sb], "score": sa / (sa + sb) if sa + sb else 0.5}
                for (a, b), (sa, sb) in self.scores.items()
            ],
        }

    def save(self, stem: Path) -> tuple[Path, Path]:
        """Write ``stem.json`` and ``stem.md``."""
        stem.parent.mkdir(parents=True, exist_ok=True)
        js, md = stem.with_suffix(".json"), stem.with_suffix(".md")
        js.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        md.write_text(self.markdown(), encoding="utf-8")
        return js, md


def bootstrap_intervals(
    result: TournamentResult, samples: int = 200, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """95% intervals of the ratings, resampling each pairing's games."""
    rng = Rng(seed)
    draws: dict[str, list[float]] = {b: [] for b in result.bots}
    for _ in range(samples):
        scores: dict[Pair, tuple[float, float]] = {}
        for pair, shares in result.outcomes.items():
            n = len(shares)
            sa = sum(shares[rng.randbelow(n)] for _ in range(n))
            scores[pair] = (sa, n - sa)
        for b, r in bradley_terry(result.bots, scores, iterations=200).items():
            draws[b].append(r)
    out = {}
    for b, values in draws.items():
        values.sort()
        out[b] = (values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1])
    return out


def run_tournament(
    game_id: str,
    bots: Sequence[str],
    games: int,
    *,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play every pairing of ``bots`` for ``games`` games each (seats rotated, deals mirrored)."""
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        raise ValueError("a tournament needs at least two different bots")
    result = TournamentResult(game_id, players, dict(options or {}), names, games)
    for a, b in itertools.combinations(names, 2):
        specs = tuple([a, b] + [b] * (players - 2))
        config = SimConfig(game_id, players, dict(options or {}), specs, games, seed, True, True)
        sim: SimResult = simulate(config, workers=workers, on_progress=on_progress)
        shares = []
        for g in sim.summaries:
            seat_a = g.entrants.index(0)
            shares.append(1.0 / len(g.winners) if seat_a in g.winners else 0.0)
        result.outcomes[(a, b)] = shares
        sa = sum(shares)
        result.scores[(a, b)] = (sa, len(shares) - sa)
    result.ratings = bradley_terry(names, result.scores)
    result.intervals = bootstrap_intervals(result, seed=seed)
    return result
