"""The JSON files a report reads: what each command writes, checked field by field.

Three kinds are known, told apart by their keys:

* a simulation (``ratgames simulate ... --json FILE``, with every game's result under
  ``per_game`` when run with ``--per-game``);
* a sweep (``ratgames simulate ... --sweep PARAM=V1,V2 --json FILE``): one simulation per value;
* a tournament (``ratgames tournament ... --out NAME`` writes ``NAME.json``).

Anything else, or a file of one of these kinds with a field missing or of the wrong type, is
refused with a :class:`ReportInputError` that names the file and what is wrong.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..sim import wilson_interval
from ..tournament import widen_for_clean_sweeps

Kind = Literal["simulation", "sweep", "tournament"]

KIND_WORDS: dict[Kind, str] = {
    "simulation": "a simulation (ratgames simulate --json)",
    "sweep": "a sweep (ratgames simulate --sweep ... --json)",
    "tournament": "a tournament (ratgames tournament --out NAME writes NAME.json)",
}


class ReportInputError(ValueError):
    """A file a report cannot read: missing, not JSON, not a known kind, or damaged."""


Probability = Field(ge=0.0, le=1.0)


class _Model(BaseModel):
    # Newer files may carry more figures: they are ignored, not refused.
    model_config = ConfigDict(extra="ignore", frozen=True)


def _check_interval(pair: Sequence[float], what: str) -> None:
    lo, hi = pair
    if not (math.isnan(lo) or math.isnan(hi)) and lo > hi:
        raise ValueError(f"{what}: the interval's low end {lo} is above its high end {hi}")


class Entrant(_Model):
    """One entry of the bot list: its games, wins and the 95% interval of its win rate."""

    bot: str
    games: int = Field(ge=0)
    wins: float = Field(ge=0.0)
    win_rate: float = Probability
    win_rate_95ci: tuple[float, float]
    mean_points: float

    @model_validator(mode="after")
    def _interval_in_order(self) -> Entrant:
        _check_interval(self.win_rate_95ci, "win_rate_95ci")
        return self


class LengthStats(_Model):
    mean: float
    median: float
    p95: float
    max: float | None = None


class GameResult(_Model):
    """One game of a run kept with ``--per-game``."""

    bots_by_seat: list[str] = Field(min_length=1)
    winners: list[int]
    points: list[float]
    length: float
    capped: bool = False
    details: dict[str, float] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _seats_agree(self) -> GameResult:
        seats = len(self.bots_by_seat)
        if len(self.points) != seats:
            raise ValueError(f"{len(self.points)} points for {seats} seats")
        if any(not 0 <= w < seats for w in self.winners):
            raise ValueError(f"winners {self.winners} are not all seats 0 to {seats - 1}")
        return self


class Simulation(_Model):
    """What ``ratgames simulate --json`` writes (see :meth:`ratgames.sim.SimResult.to_json`)."""

    game: str
    players: int = Field(ge=1)
    options: dict[str, Any] = Field(default_factory=dict)
    bots: list[str] = Field(min_length=1)
    seat_bots: list[str] = Field(min_length=1)
    seed: int = 0
    rotate_seats: bool = True
    games: int = Field(ge=1)
    seconds: float = Field(default=0.0, ge=0.0)
    games_per_second: float = Field(default=0.0, ge=0.0)
    entrants: list[Entrant] = Field(min_length=1)
    seat_win_rates: list[float]
    length: LengthStats
    capped: int = Field(default=0, ge=0)
    details_mean: dict[str, float] = Field(default_factory=dict)
    per_game: list[GameResult] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Simulation:
        if len(self.seat_win_rates) != self.players:
            raise ValueError(
                f"seat_win_rates has {len(self.seat_win_rates)} entries for {self.players} players"
            )
        if any(not 0.0 <= r <= 1.0 for r in self.seat_win_rates):
            raise ValueError("seat_win_rates: every rate must be between 0 and 1")
        if self.per_game is not None:
            if len(self.per_game) != self.games:
                raise ValueError(
                    f"per_game holds {len(self.per_game)} games, but games is {self.games}"
                )
            for i, g in enumerate(self.per_game):
                if len(g.bots_by_seat) != self.players:
                    raise ValueError(
                        f"per_game[{i}] has {len(g.bots_by_seat)} seats for {self.players} players"
                    )
        return self

    def seat_intervals(self) -> list[tuple[float, float]]:
        """The 95% Wilson interval of each seat's win rate (wins may be shared, so fractional)."""
        return [wilson_interval(rate * self.games, self.games) for rate in self.seat_win_rates]


class SweepRun(Simulation):
    value: str

    @model_validator(mode="before")
    @classmethod
    def _value_as_text(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("value"), (int, float)):
            data = {**data, "value": str(data["value"])}
        return data


class Sweep(_Model):
    """What ``ratgames simulate --sweep PARAM=... --json`` writes: one run per value."""

    sweep: str = Field(min_length=1)
    runs: list[SweepRun] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_game(self) -> Sweep:
        games = {r.game for r in self.runs}
        if len(games) > 1:
            raise ValueError(f"the runs play different games: {', '.join(sorted(games))}")
        return self

    def numeric_values(self) -> list[float] | None:
        """The swept values as numbers, or None when any of them is not a number."""
        try:
            return [float(r.value) for r in self.runs]
        except ValueError:
            return None


class Rating(_Model):
    bot: str
    rating: float
    rating_95ci: tuple[float, float]

    @model_validator(mode="after")
    def _interval_in_order(self) -> Rating:
        _check_interval(self.rating_95ci, "rating_95ci")
        return self


class Pairing(_Model):
    bots: tuple[str, str]
    points: tuple[float, float]
    score: float = Probability
    score_95ci: tuple[float, float] | tuple[()] = ()
    games: list[float] = Field(default_factory=list)


class Tournament(_Model):
    """What ``ratgames tournament --out NAME`` writes to ``NAME.json``."""

    game: str
    players: int = Field(ge=2)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    games_per_pairing: int = Field(ge=1)
    ratings: list[Rating] = Field(min_length=2)
    pairings: list[Pairing] = Field(min_length=1)

    @model_validator(mode="after")
    def _pairings_of_rated_bots(self) -> Tournament:
        rated = {r.bot for r in self.ratings}
        for p in self.pairings:
            for b in p.bots:
                if b not in rated:
                    raise ValueError(f"pairing {p.bots[0]} vs {p.bots[1]}: {b} has no rating")
        return self

    def ranked(self) -> list[str]:
        """The bots from the highest rating to the lowest."""
        return [r.bot for r in sorted(self.ratings, key=lambda r: -r.rating)]

    def rating_intervals(self) -> dict[str, tuple[float, float]]:
        """Each bot's 95% rating interval: the file's (from resampling deals), widened for a
        bot with a pairing it won or lost on every deal as ``ratgames tournament`` now does it
        (:func:`ratgames.tournament.widen_for_clean_sweeps`; files written before it hold a
        single point after a perfect record).  A bot that won every point has no upper limit
        (``math.inf``: its rating is finite only through the ratings' small prior), one that
        lost every point no lower limit."""
        file = {r.bot: (float(r.rating_95ci[0]), float(r.rating_95ci[1])) for r in self.ratings}
        bots = list(file)
        scores = {p.bots: p.points for p in self.pairings}
        cis = {p.bots: p.score_95ci for p in self.pairings}
        out = widen_for_clean_sweeps(bots, scores, cis, file)
        for bot in bots:
            shares = [
                p.score if p.bots[0] == bot else 1.0 - p.score
                for p in self.pairings
                if bot in p.bots
            ]
            lo, hi = out[bot]
            if shares and all(x == 1.0 for x in shares):
                out[bot] = (lo, math.inf)
            elif shares and all(x == 0.0 for x in shares):
                out[bot] = (-math.inf, hi)
        return out

    def score(self, a: str, b: str) -> tuple[float, tuple[float, float] | None, int] | None:
        """``a``'s share of the points against ``b``, its 95% interval (if known) and the games
        played; None when the two never met."""
        for p in self.pairings:
            ci = p.score_95ci if len(p.score_95ci) == 2 else None
            games = round(sum(p.points))
            if p.bots == (a, b):
                return p.score, ci, games
            if p.bots == (b, a):
                flipped = (1.0 - ci[1], 1.0 - ci[0]) if ci else None
                return 1.0 - p.score, flipped, games
        return None


Data = Simulation | Sweep | Tournament


class ReportInput:
    """One file read for a report: its path, kind and checked contents."""

    def __init__(self, path: Path, kind: Kind, data: Data) -> None:
        self.path = path
        self.kind: Kind = kind
        self.data = data

    def __repr__(self) -> str:
        return f"ReportInput({str(self.path)!r}, {self.kind!r})"


def detect_kind(obj: Any) -> Kind | None:
    """Which kind of result a parsed JSON value looks like, by its keys (None: none of them)."""
    if not isinstance(obj, dict):
        return None
    if "sweep" in obj and "runs" in obj:
        return "sweep"
    if "ratings" in obj and "pairings" in obj:
        return "tournament"
    if "entrants" in obj and "seat_win_rates" in obj:
        return "simulation"
    return None


MODELS: dict[Kind, type[Simulation] | type[Sweep] | type[Tournament]] = {
    "simulation": Simulation,
    "sweep": Sweep,
    "tournament": Tournament,
}


def _problems(exc: ValidationError, limit: int = 3) -> str:
    errors = exc.errors()
    parts = []
    for e in errors[:limit]:
        where = ".".join(str(x) for x in e["loc"]) or "the top level"
        message = str(e["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {message}")
    more = len(errors) - limit
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def parse(obj: Any, path: Path) -> ReportInput:
    """Check a parsed JSON value read from ``path`` and say which kind it is."""
    kind = detect_kind(obj)
    if kind is None:
        what = f"a JSON {type(obj).__name__}" if not isinstance(obj, dict) else "JSON"
        keys = ", ".join(sorted(obj)[:6]) if isinstance(obj, dict) else ""
        raise ReportInputError(
            f"{path} is {what} but not a result ratgames can report on"
            + (f" (its keys: {keys})" if keys else "")
            + "; expected "
            + ", ".join(KIND_WORDS.values())
        )
    try:
        data = MODELS[kind].model_validate(obj)
    except ValidationError as exc:
        raise ReportInputError(
            f"{path} looks like {KIND_WORDS[kind]} but is damaged: {_problems(exc)}"
        ) from None
    return ReportInput(path, kind, data)


def load_input(path: Path) -> ReportInput:
    """Read and check one result file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReportInputError(f"{path} does not exist") from None
    except UnicodeDecodeError:
        raise ReportInputError(f"{path} is not a text file (not UTF-8), so not JSON") from None
    except OSError as exc:
        raise ReportInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportInputError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    return parse(obj, path)
