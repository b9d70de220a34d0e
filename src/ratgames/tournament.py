"""Tournaments: every pairing of a list of bots, ratings with confidence intervals, a crosstable.

Each pairing plays the same deals with the seats rotated (``mirror``), so that both bots get
every hand and the luck of the deal cancels.  Ratings are Elo-scale Bradley-Terry maximum
likelihood estimates (draws and shared wins count half) with a mean of 1500; their 95%
intervals, and each pairing's score interval, come from a bootstrap over deals: the games of one
deal (one per seat rotation) are resampled together, since mirroring makes them depend on each
other (when the deal decides the round, the two games cancel out and say nothing of the bots).

>>> ratings = bradley_terry(["a", "b"], {("a", "b"): (30.0, 10.0)})
>>> round(ratings["a"] - ratings["b"])  # 75% is 191 points; a small prior pulls it in
188
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .checkpoint import RunCheckpoint
from .core.rng import Rng
from .sim import Backend, SimConfig, SimResult, simulate, wilson_interval

Pair = tuple[str, str]


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (a temporary file moved into place)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


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
    seed: int = 0
    scores: dict[Pair, tuple[float, float]] = field(default_factory=dict)
    outcomes: dict[Pair, Sequence[float]] = field(default_factory=dict)
    """Each pairing's games in order, as the first bot's share of the win (8 bytes a game)."""
    ratings: dict[str, float] = field(default_factory=dict)
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    score_intervals: dict[Pair, tuple[float, float]] = field(default_factory=dict)
    """95% interval of each pairing's score (the first bot's share of the points)."""

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

    def pairing_lines(self) -> list[str]:
        """One line per pairing: the stronger bot's score with its 95% interval (by deals)."""
        lines = []
        per_deal = max(1, self.players)
        for (a, b), (sa, sb) in self.scores.items():
            lo, hi = self.score_intervals.get((a, b), (float("nan"), float("nan")))
            score = sa / (sa + sb) if sa + sb else 0.5
            if score < 0.5:
                a, b, score, lo, hi = b, a, 1 - score, 1 - hi, 1 - lo
            games = round(sa + sb)
            lines.append(
                f"{a} vs {b}: {percent(score)} (95% CI {percent(lo, sign=False)}-"
                f"{percent(hi, sign=False)}) over {games} games on {games // per_deal} deals"
            )
        return lines

    def setup_lines(self) -> list[str]:
        """What was played: the game, players, options, games per pairing, seed, and the command
        that plays it again."""
        options = ", ".join(f"{k}={_text(v)}" for k, v in self.options.items()) or "none"
        command = ["ratgames tournament", self.game_id, "-n", str(self.players)]
        for k, v in self.options.items():
            command += ["-o", f"{k}={_text(v)}"]
        command += ["-g", str(self.games_per_pairing), "-s", str(self.seed), "-b", *self.bots]
        return [
            f"Game: {self.game_id}, {self.players} players; options: {options}",
            f"Games per pairing: {self.games_per_pairing} (mirrored deals); seed: {self.seed}",
            "Command: `" + " ".join(command) + "`",
        ]

    def markdown(self) -> str:
        """What was played, the ratings and crosstable as a Markdown table, each pairing's score."""
        order = self.ranked()
        head = ["#", "bot", "rating", "95% CI", *[f"vs {i + 1}" for i in range(len(order))]]
        lines = [f"# Tournament: {self.game_id}", ""]
        lines += [f"* {line}" for line in self.setup_lines()]
        lines += [
            "",
            "| " + " | ".join(head) + " |",
            "|" + "|".join("---:" if i != 1 else ":---" for i in range(len(head))) + "|",
        ]
        for i, b in enumerate(order):
            lo, hi = self.intervals[b]
            cells = ["-" if b == o else percent(self.score_of(b, o)) for o in order]
            lines.append(
                f"| {i + 1} | `{b}` | {self.ratings[b]:.0f} | {lo:.0f} to {hi:.0f} | "
                + " | ".join(cells)
                + " |"
            )
        lines.append("")
        lines.extend(f"* {line}" for line in self.pairing_lines())
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
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
                {
                    "bots": [a, b],
                    "points": [sa, sb],
                    "score": sa / (sa + sb) if sa + sb else 0.5,
                    "score_95ci": [round(x, 4) for x in self.score_intervals.get((a, b), ())],
                    "games": list(self.outcomes.get((a, b), [])),
                }
                for (a, b), (sa, sb) in self.scores.items()
            ],
        }

    def save(self, stem: Path) -> tuple[Path, Path]:
        """Write ``stem.json`` and ``stem.md``."""
        stem.parent.mkdir(parents=True, exist_ok=True)
        js, md = stem.with_suffix(".json"), stem.with_suffix(".md")
        _write(js, json.dumps(self.to_json(), indent=1) + "\n")
        _write(md, self.markdown())
        return js, md


def percent(x: float, sign: bool = True) -> str:
    """A share as a percentage with one decimal, but 0 and 1 exactly as ``0%`` and ``100%``
    (``sign=False`` leaves out the ``%``).

    >>> percent(0.605), percent(1.0), percent(0.0, sign=False)
    ('60.5%', '100%', '0')
    """
    if math.isnan(x):
        text = "?"
    elif x in (0.0, 1.0):
        text = f"{100 * x:.0f}"
    else:
        text = f"{100 * x:.1f}"
    return text + ("%" if sign else "")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Intervals(NamedTuple):
    """95% bootstrap intervals: each bot's rating, and each pairing's score (the first bot's
    share of the points)."""

    ratings: dict[str, tuple[float, float]]
    scores: dict[Pair, tuple[float, float]]


def bootstrap_intervals(result: TournamentResult, samples: int = 200, seed: int = 0) -> Intervals:
    """95% intervals of the ratings and of each pairing's score, resampling each pairing's
    deals: the ``result.players`` consecutive games that share a deal are drawn together (a
    tournament plays whole deals)."""
    rng = Rng(seed)
    draws: dict[str, list[float]] = {b: [] for b in result.bots}
    pair_draws: dict[Pair, list[float]] = {pair: [] for pair in result.outcomes}
    size = max(1, result.players)
    deals = {
        pair: [sum(shares[i : i + size]) for i in range(0, len(shares), size)]
        for pair, shares in result.outcomes.items()
    }
    for _ in range(samples):
        scores: dict[Pair, tuple[float, float]] = {}
        for pair, shares in result.outcomes.items():
            blocks = deals[pair]
            n = len(blocks)
            sa = sum(blocks[rng.randbelow(n)] for _ in range(n))
            scores[pair] = (sa, len(shares) - sa)
            pair_draws[pair].append(sa / len(shares) if shares else 0.5)
        for b, r in bradley_terry(result.bots, scores, iterations=200).items():
            draws[b].append(r)
    scores = {pair: _middle_95(values) for pair, values in pair_draws.items()}
    for pair, blocks in deals.items():
        if blocks and min(blocks) == max(blocks) and blocks[0] in (0.0, float(size)):
            # One bot won every game: resampling deals cannot show any doubt, yet a handful of
            # deals cannot prove a certainty.  Count each deal as one trial instead.
            scores[pair] = wilson_interval(len(blocks) * blocks[0] / size, len(blocks))
    ratings = {b: _middle_95(values) for b, values in draws.items()}
    return Intervals(
        ratings=widen_for_clean_sweeps(result.bots, result.scores, scores, ratings),
        scores=scores,
    )


def widen_for_clean_sweeps(
    bots: Sequence[str],
    scores: Mapping[Pair, tuple[float, float]],
    score_intervals: Mapping[Pair, Sequence[float]],
    ratings: Mapping[str, tuple[float, float]],
) -> dict[str, tuple[float, float]]:
    """Rating intervals that also cover what a pairing won or lost on every game leaves open.

    Resampling the deals of such a pairing shows no doubt, so after a perfect record a bot's
    bootstrap interval is a single point.  The interval of a bot with such a pairing is widened
    to the ratings it would have with each of its scores at the low end, then at the high end,
    of that pairing's 95% interval (Wilson's, over deals).  A bot that won every game keeps its
    rating as the high end (finite only through the ratings' prior): its interval is
    one-sided."""
    out = dict(ratings)
    for bot in bots:
        mine = [pair for pair in scores if bot in pair]
        if not mine or any(len(score_intervals.get(pair, ())) != 2 for pair in mine):
            continue
        shares = []
        for pair in mine:
            sa, sb = scores[pair]
            first = sa / (sa + sb) if sa + sb else 0.5
            shares.append(first if pair[0] == bot else 1.0 - first)
        if not any(x in (0.0, 1.0) for x in shares):
            continue
        ends = []
        for high in (False, True):
            moved = dict(scores)
            for pair in mine:
                lo, hi = score_intervals[pair]  # the first bot's share
                first = hi if (pair[0] == bot) == high else lo
                total = sum(scores[pair])
                moved[pair] = (first * total, (1.0 - first) * total)
            ends.append(bradley_terry(bots, moved)[bot])
        lo_now, hi_now = out.get(bot, (ends[0], ends[1]))
        out[bot] = (min(lo_now, ends[0]), max(hi_now, ends[1]))
    return out


def _middle_95(values: list[float]) -> tuple[float, float]:
    if not values:
        return (float("nan"), float("nan"))
    values = sorted(values)
    return (values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1])


def pairing_configs(
    game_id: str,
    bots: Sequence[str],
    games: int,
    *,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> list[tuple[Pair, SimConfig]]:
    """Every pairing of ``bots`` with the run it plays (seats rotated, deals mirrored)."""
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        raise ValueError("a tournament needs at least two different bots")
    out = []
    for a, b in itertools.combinations(names, 2):
        specs = tuple([a, b] + [b] * (players - 2))
        config = SimConfig(game_id, players, dict(options or {}), specs, games, seed, True, True)
        out.append(((a, b), config))
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
    backend: Backend | None = None,
    checkpoint: RunCheckpoint | None = None,
    checkpoint_every: float = 60.0,
    on_work: Callable[[float], None] | None = None,
) -> TournamentResult:
    """Play every pairing of ``bots`` for ``games`` games each (seats rotated, deals mirrored),
    in ``workers`` local processes or on ``backend`` (see :func:`ratgames.sim.simulate`).

    Each pairing plays its first deal (one game per seat rotation) before any pairing plays
    the rest, so that the pace of every pairing is known early: ``on_work(fraction)`` is then
    told, after each step of progress, the share of the run's work done, each pairing's games
    weighed by the time its first deal took (a pairing of search bots weighs more than one of
    random bots), from which a time left can be told that does not take the pace of the quick
    pairings for the whole run's.  The games, and so the results, are the same in any order.

    With ``checkpoint`` (opened for :func:`pairing_configs` of the same arguments), the games
    it holds are not played again, and what is played is saved to it as it goes."""
    names = list(dict.fromkeys(bots))
    pairings = pairing_configs(game_id, names, games, players=players, options=options, seed=seed)
    result = TournamentResult(game_id, players, dict(options or {}), names, games, seed=seed)
    starts = [checkpoint.start(c) if checkpoint is not None else None for _, c in pairings]
    before = [0 if r is None else r.games for r in starts]
    done = list(before)
    weights: list[float] = []

    def step(k: int) -> Callable[[int], None]:
        def advance(n: int) -> None:
            done[k] += n
            if on_work is not None and len(weights) == len(pairings):
                left = sum(w * (games - b) for w, b in zip(weights, before, strict=True))
                work = sum(w * (d - b) for w, d, b in zip(weights, done, before, strict=True))
                on_work(work / left if left > 0 else 1.0)
            if on_progress is not None:
                on_progress(n)

        return advance

    def play(k: int, config: SimConfig) -> SimResult:
        save = None
        if checkpoint is not None:

            def save(r: SimResult, c: SimConfig = config, cp: RunCheckpoint = checkpoint) -> None:
                cp.save(c, r)

        return simulate(
            config,
            workers=workers,
            on_progress=step(k),
            backend=backend,
            start=starts[k],
            checkpoint=save,
            checkpoint_every=checkpoint_every,
        )

    first_deal = min(games, players)
    for k, (_, config) in enumerate(pairings):
        start = starts[k]
        if start is None or start.games < first_deal:
            starts[k] = play(k, dataclasses.replace(config, games=first_deal))
        measured = starts[k]
        assert measured is not None
        weights.append(max(measured.seconds, 1e-9) / max(measured.games, 1))
    for k, ((a, b), config) in enumerate(pairings):
        sim = play(k, config)
        shares = sim.first_shares  # a's share of each game, in order: deal by deal
        result.outcomes[(a, b)] = shares
        sa = sum(shares)
        result.scores[(a, b)] = (sa, len(shares) - sa)
    result.ratings = bradley_terry(names, result.scores)
    result.intervals, result.score_intervals = bootstrap_intervals(result, seed=seed)
    return result
