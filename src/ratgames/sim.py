"""Simulating many bot-vs-bot games in parallel processes, with statistics.

>>> from ratgames.sim import wilson_interval
>>> lo, hi = wilson_interval(60, 100)
>>> round(lo, 3), round(hi, 3)
(0.502, 0.691)
"""

from __future__ import annotations

import base64
import contextlib
import math
import os
import statistics
import sys
import time
from array import array
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from .core.bots import make_bot
from .core.registry import get_game
from .core.rng import Rng
from .core.runner import play_game


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GameSummary:
    """The figures kept of one simulated game.

    ``entrants[seat]`` is the index (in the bot list) of the bot that sat at ``seat``.
    """

    entrants: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[float, ...]
    length: float
    actions: int
    capped: bool
    details: Mapping[str, float]


@dataclass(frozen=True)
class SimConfig:
    """What to simulate."""

    game_id: str
    players: int
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    rotate: bool = True
    mirror: bool = False
    """Deal each shuffle once per seat rotation: every bot gets every hand, and luck cancels."""

    def settings(self) -> dict[str, Any]:
        """Everything but the number of games, as JSON: two runs with the same settings play
        the same game at every index, so a run can go on from another's games."""
        return {
            "game": self.game_id,
            "players": self.players,
            "options": {k: self.options[k] for k in sorted(self.options)},
            "bots": list(self.bots),
            "seed": self.seed,
            "rotate_seats": self.rotate,
            "mirror": self.mirror,
        }


def _entrants(config: SimConfig, index: int) -> tuple[int, ...]:
    n = config.players
    shift = index % n if config.rotate else 0
    return tuple((seat + shift) % n for seat in range(n))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run started with ``seed``."""
    return Rng(seed * 1_000_003 + index).next64()


def play_one(config: SimConfig, index: int) -> GameSummary:
    """Play game ``index`` of a run (the same index always gives the same game)."""
    game = get_game(config.game_id, players=config.players, options=config.options)
    entrants = _entrants(config, index)
    seed = game_seed(config.seed, index // config.players if config.mirror else index)
    specs = seat_bots(config)
    bots = [make_bot(game, specs[e], seed=seed + 7919 * (s + 1)) for s, e in enumerate(entrants)]
    state = play_game(game, bots, seed=seed, record=False)
    outcome = state.outcome()
    assert outcome is not None
    details = {
        k: float(v)
        for k, v in outcome.details.items()
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    }
    actions = int(details.pop("actions", 0))
    length = details.pop("length", float(actions))
    return GameSummary(
        entrants, outcome.winners, outcome.points, length, actions, outcome.capped, details
    )


def _run_chunk(config: SimConfig, start: int, stop: int) -> tuple[list[GameSummary], float]:
    """Games ``start`` to ``stop - 1``, and the seconds they took."""
    began = time.perf_counter()
    summaries = [play_one(config, i) for i in range(start, stop)]
    return summaries, time.perf_counter() - began


CHUNK_SECONDS = 1.0
"""About how long one worker's chunk of games should take (progress is reported per chunk)."""
MAX_CHUNK = 200
PROGRESS_STEPS = 20
"""A chunk holds at most this fraction of a run's games (1/20), so that the progress moves in
steps no larger: the plain progress lines come at every tenth, not at 13%, 21%, 33%, 49%."""


def _chunk_size(played: int, seconds: float, left: int, workers: int, total: int = 0) -> int:
    """How many games to hand a worker next, when the finished chunks held ``played`` games and
    took ``seconds`` of work, with ``left`` games not handed out yet (of ``total`` in the run,
    if given).

    The first chunks hold one game each.  Then a chunk should last about :data:`CHUNK_SECONDS`,
    but hold at most twice the games measured so far (so a few quick games do not send out a long
    chunk), at most :data:`MAX_CHUNK`, at most half of each worker's share of the games left
    (so the workers finish together), and at most a twentieth of the run's ``total`` games (so
    that progress moves in steps of 5% at most, see :data:`PROGRESS_STEPS`).

    >>> _chunk_size(0, 0.0, 1000, 2)  # nothing measured yet
    1
    >>> _chunk_size(1, 0.001, 1000, 2)  # one quick game
    2
    >>> _chunk_size(4, 240.0, 1000, 2)  # a minute a game
    1
    >>> _chunk_size(400, 1.0, 4000, 2)  # 2.5 ms a game
    200
    >>> _chunk_size(400, 1.0, 40, 2)  # near the end
    10
    >>> _chunk_size(16, 0.01, 84, 2, total=100)  # quick games, a small run: 5% at a time
    5
    """
    if not played:
        return 1
    by_time = int(CHUNK_SECONDS * played / max(seconds, 1e-9))
    step = total // PROGRESS_STEPS if total else MAX_CHUNK
    return max(1, min(by_time, 2 * played, MAX_CHUNK, left // (2 * workers), step))


@dataclass
class EntrantStats:
    """Aggregates for one entry of the bot list."""

    bot: str
    games: int = 0
    wins: float = 0.0
    points_sum: float = 0.0

    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def mean_points(self) -> float:
        return self.points_sum / self.games if self.games else 0.0


@dataclass
class SimResult:
    """Everything a simulation run measured, kept as aggregates: a run of any length holds a few
    counters per bot and seat, plus two 8-byte numbers a game (its length, for the median and
    percentiles, and the first bot's share of the win, for tournaments' deal-by-deal
    intervals).  Every game's summary is kept only when asked (``keep_games``)."""

    config: SimConfig
    seconds: float = 0.0
    games: int = 0
    entrants: list[EntrantStats] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)
    game_lengths: array[float] = field(default_factory=lambda: array("d"))
    capped_games: int = 0
    detail_sums: dict[str, float] = field(default_factory=dict)
    first_shares: array[float] = field(default_factory=lambda: array("d"))
    """Game by game, in order, the share of the win taken by the first bot of the list."""
    summaries: list[GameSummary] | None = None
    """Every game's summary, in order, when the run was asked to keep them."""

    def __post_init__(self) -> None:
        if not self.entrants:
            self.entrants = [EntrantStats(bot) for bot in seat_bots(self.config)]
        if not self.seat_wins:
            self.seat_wins = [0.0] * self.config.players

    def add(self, g: GameSummary) -> None:
        """Count one more game (``first_shares`` and ``summaries`` are in the order added)."""
        self.games += 1
        share = 1.0 / len(g.winners) if g.winners else 0.0
        first = 0.0
        for seat, entrant in enumerate(g.entrants):
            st = self.entrants[entrant]
            st.games += 1
            st.points_sum += g.points[seat]
            if seat in g.winners:
                st.wins += share
                if entrant == 0:
                    first = share
        for w in g.winners:
            self.seat_wins[w] += share
        self.game_lengths.append(g.length)
        self.first_shares.append(first)
        if g.capped:
            self.capped_games += 1
        for k, v in g.details.items():
            self.detail_sums[k] = self.detail_sums.get(k, 0.0) + v
        if self.summaries is not None:
            self.summaries.append(g)

    def entrant_stats(self) -> list[EntrantStats]:
        return list(self.entrants)

    def seat_win_rates(self) -> list[float]:
        return [w / max(1, self.games) for w in self.seat_wins]

    def lengths(self) -> list[float]:
        return list(self.game_lengths)

    def length_stats(self) -> dict[str, float]:
        data = sorted(self.game_lengths)
        if not data:
            return {"mean": 0.0, "median": 0.0, "p95": 0.0}
        p95 = data[min(len(data) - 1, math.ceil(0.95 * len(data)) - 1)]
        return {
            "mean": statistics.fmean(data),
            "median": float(statistics.median(data)),
            "p95": float(p95),
            "max": float(data[-1]),
        }

    def capped(self) -> int:
        return self.capped_games

    def detail_means(self) -> dict[str, float]:
        return {k: v / max(1, self.games) for k, v in self.detail_sums.items()}

    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def state(self) -> dict[str, Any]:
        """Everything this result has counted, as JSON, exactly (see :meth:`from_state`): a run
        that goes on from it ends with the figures of a run never stopped."""
        return {
            "games": self.games,
            "seconds": self.seconds,
            "entrants": [[e.bot, e.games, e.wins, e.points_sum] for e in self.entrants],
            "seat_wins": list(self.seat_wins),
            "capped_games": self.capped_games,
            "detail_sums": dict(self.detail_sums),
            "game_lengths": _pack(self.game_lengths),
            "first_shares": _pack(self.first_shares),
            "summaries": None
            if self.summaries is None
            else [
                {
                    "entrants": list(g.entrants),
                    "winners": list(g.winners),
                    "points": list(g.points),
                    "length": g.length,
                    "actions": g.actions,
                    "capped": g.capped,
                    "details": dict(g.details),
                }
                for g in self.summaries
            ],
        }

    @classmethod
    def from_state(cls, config: SimConfig, data: object, keep_games: bool = False) -> SimResult:
        """The result :meth:`state` wrote, for a run of ``config``; ``keep_games`` needs the
        state to hold every game's summary.  Raises ValueError naming what does not fit."""
        if not isinstance(data, dict):
            raise ValueError("a run's state must be an object")
        games = _count(data, "games")
        capped = _count(data, "capped_games")
        seconds = data.get("seconds")
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds < 0:
            raise ValueError("'seconds' must be a number, 0 or more")
        bots = seat_bots(config)
        entrants = data.get("entrants")
        if not isinstance(entrants, list) or len(entrants) != len(bots):
            raise ValueError(f"'entrants' must list the {len(bots)} seats' bots")
        result = cls(config, seconds=float(seconds), games=games, capped_games=capped)
        for i, (row, bot) in enumerate(zip(entrants, bots, strict=True)):
            if (
                not isinstance(row, list)
                or len(row) != 4
                or row[0] != bot
                or not _is_count(row[1])
                or not all(_is_number(x) for x in row[2:])
            ):
                raise ValueError(f"entrant {i} must be [{bot!r}, games, wins, points]")
            result.entrants[i] = EntrantStats(bot, row[1], float(row[2]), float(row[3]))
        if sum(e.games for e in result.entrants) != games * config.players:
            raise ValueError("the entrants' games do not add up to the games played")
        seat_wins = data.get("seat_wins")
        if (
            not isinstance(seat_wins, list)
            or len(seat_wins) != config.players
            or not all(_is_number(x) for x in seat_wins)
        ):
            raise ValueError(f"'seat_wins' must be {config.players} numbers")
        result.seat_wins = [float(x) for x in seat_wins]
        details = data.get("detail_sums")
        if not isinstance(details, dict) or not all(_is_number(v) for v in details.values()):
            raise ValueError("'detail_sums' must map names to numbers")
        result.detail_sums = {str(k): float(v) for k, v in details.items()}
        result.game_lengths = _unpack(data.get("game_lengths"), games, "game_lengths")
        result.first_shares = _unpack(data.get("first_shares"), games, "first_shares")
        summaries = data.get("summaries")
        if keep_games:
            if summaries is None:
                raise ValueError(
                    "it kept no game-by-game results, and this run keeps them (--per-game)"
                )
            if not isinstance(summaries, list) or len(summaries) != games:
                raise ValueError(f"'summaries' must hold the {games} games")
            result.summaries = [_summary(g, config.players) for g in summaries]
        return result

    def to_json(self) -> dict[str, Any]:
        """Every figure as JSON; with every game's result too when the run kept them."""
        out: dict[str, Any] = {
            "game": self.config.game_id,
            "players": self.config.players,
            "options": dict(self.config.options),
            "bots": list(self.config.bots),
            "seat_bots": seat_bots(self.config),
            "seed": self.config.seed,
            "rotate_seats": self.config.rotate,
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second(), 2),
            "entrants": [
                {
                    "bot": s.bot,
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": s.win_rate(),
                    "win_rate_95ci": list(s.interval()),
                    "mean_points": s.mean_points(),
                }
                for s in self.entrant_stats()
            ],
            "seat_win_rates": self.seat_win_rates(),
            "length": self.length_stats(),
            "capped": self.capped(),
            "details_mean": self.detail_means(),
        }
        if self.summaries is not None:
            out["per_game"] = [
                {
                    "bots_by_seat": [self.entrants[e].bot for e in g.entrants],
                    "winners": list(g.winners),
                    "points": list(g.points),
                    "length": g.length,
                    "capped": g.capped,
                    "details": dict(g.details),
                }
                for g in self.summaries
            ]
        return out


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_count(x: object) -> bool:
    return type(x) is int and x >= 0


def _count(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not _is_count(value):
        raise ValueError(f"{key!r} must be a whole number, 0 or more")
    assert isinstance(value, int)
    return value


def _pack(values: array[float]) -> str:
    """Doubles as base64 of their little-endian bytes (exact, and 11 bytes a number)."""
    if sys.byteorder != "little":
        values = array("d", values)
        values.byteswap()
    return base64.b64encode(values.tobytes()).decode("ascii")


def _unpack(text: object, count: int, key: str) -> array[float]:
    try:
        raw = base64.b64decode(text, validate=True) if isinstance(text, str) else None
    except ValueError:
        raw = None
    if raw is None or len(raw) != 8 * count:
        raise ValueError(f"{key!r} must hold {count} numbers (base64 of little-endian doubles)")
    values = array("d", raw)
    if sys.byteorder != "little":
        values.byteswap()
    return values


def _summary(data: object, players: int) -> GameSummary:
    ok = isinstance(data, dict) and set(data) == {
        "entrants",
        "winners",
        "points",
        "length",
        "actions",
        "capped",
        "details",
    }
    if ok:
        assert isinstance(data, dict)
        entrants, winners, points = data["entrants"], data["winners"], data["points"]
        details = data["details"]
        ok = (
            isinstance(entrants, list)
            and sorted(entrants) == list(range(players))
            and isinstance(winners, list)
            and all(type(w) is int and 0 <= w < players for w in winners)
            and isinstance(points, list)
            and len(points) == players
            and all(_is_number(x) for x in points)
            and _is_number(data["length"])
            and _is_count(data["actions"])
            and isinstance(data["capped"], bool)
            and isinstance(details, dict)
            and all(_is_number(v) for v in details.values())
        )
    if not ok:
        raise ValueError(f"a game's summary is not one a run writes: {str(data)[:80]}")
    assert isinstance(data, dict)
    return GameSummary(
        tuple(data["entrants"]),
        tuple(data["winners"]),
        tuple(float(x) for x in data["points"]),
        float(data["length"]),
        data["actions"],
        data["capped"],
        {str(k): float(v) for k, v in data["details"].items()},
    )


def seat_bots(config: SimConfig) -> list[str]:
    """The bot at each seat of the first game: the bots given, the last repeated to fill the
    seats (so ``heuristic random`` at four players is one heuristic against three random)."""
    bots = list(config.bots)
    return [bots[min(i, len(bots) - 1)] for i in range(config.players)]


class Backend(Protocol):
    """Somewhere else to play a run's games than this machine's process pool: a Ray cluster
    (:class:`ratgames.distributed.RayBackend`)."""

    def play(
        self,
        config: SimConfig,
        receive: Callable[[int, list[GameSummary]], None],
        first: int = 0,
    ) -> None:
        """Play games ``first`` to ``config.games - 1`` (each with :func:`play_one`) in chunks of
        consecutive games, calling ``receive(start, summaries)`` as each chunk finishes, in any
        order; return once every game has been received."""
        ...


class _InOrder:
    """Counts chunks of games into a result in the order of their games, each game once: a chunk
    waits only for the ones before it, and a chunk received again (a task run twice) is ignored.
    The progress moves as each new chunk arrives."""

    def __init__(
        self,
        result: SimResult,
        on_progress: Callable[[int], None] | None,
        on_counted: Callable[[], None] | None = None,
    ) -> None:
        self.result = result
        self.on_progress = on_progress
        self.on_counted = on_counted
        self.parts: dict[int, list[GameSummary]] = {}
        self.counted = result.games
        """Games 0 to ``counted - 1`` are in the result."""

    def receive(self, start: int, part: list[GameSummary]) -> None:
        if start < self.counted or start in self.parts:
            return
        self.parts[start] = part
        if self.on_progress:
            self.on_progress(len(part))
        counted = self.counted
        while self.counted in self.parts:
            part = self.parts.pop(self.counted)
            for summary in part:
                self.result.add(summary)
            self.counted += len(part)
        if self.counted != counted and self.on_counted:
            self.on_counted()


class _Saver:
    """Hands the result to ``save`` at most every ``every`` seconds as games are counted, and
    when the run ends, whole or not (unless it stopped halfway through counting a game)."""

    def __init__(
        self, result: SimResult, save: Callable[[SimResult], None] | None, every: float
    ) -> None:
        self.result = result
        self.save = save
        self.every = every
        self.last = time.perf_counter()
        self.began = self.last
        self.seconds_before = result.seconds

    def now(self) -> None:
        result = self.result
        result.seconds = self.seconds_before + time.perf_counter() - self.began
        whole = (
            len(result.game_lengths) == result.games == len(result.first_shares)
            and sum(e.games for e in result.entrants) == result.games * result.config.players
        )
        if self.save is not None and whole:
            self.save(result)
        self.last = time.perf_counter()

    def maybe(self) -> None:
        if self.save is not None and time.perf_counter() - self.last >= self.every:
            self.now()


def simulate(
    config: SimConfig,
    *,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    keep_games: bool = False,
    backend: Backend | None = None,
    start: SimResult | None = None,
    checkpoint: Callable[[SimResult], None] | None = None,
    checkpoint_every: float = 60.0,
) -> SimResult:
    """Run ``config.games`` games, in ``workers`` processes (one per core by default), or on
    ``backend`` (a Ray cluster, see :mod:`ratgames.distributed`): the same games either way.

    The result holds aggregates (see :class:`SimResult`); ``keep_games`` also keeps every game's
    summary (about a kilobyte a game).

    ``start``, a result of the first games of a run with the same settings (saved with
    :meth:`SimResult.state`), is gone on from: its games are not played again, and the figures
    at the end are those of a run never stopped.  ``checkpoint(result)`` is called with the
    games counted so far at most every ``checkpoint_every`` seconds, at the end, and when the
    run is stopped (Ctrl-C, a lost cluster), before the error goes on up."""
    # Check the set-up (game, options, bots) once, here, so errors are raised before any work.
    game = get_game(config.game_id, players=config.players, options=config.options)
    for spec in config.bots:
        make_bot(game, spec)
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    if start is not None:
        if start.config.settings() != config.settings():
            raise ValueError("the run to go on from has other settings")
        if start.games > config.games:
            raise ValueError(f"the run to go on from has {start.games} games, more than asked")
        if keep_games and start.summaries is None:
            raise ValueError("the run to go on from kept no game-by-game results")
        result = start
        result.config = config
        if not keep_games:
            result.summaries = None
    else:
        result = SimResult(config, summaries=[] if keep_games else None)
    saver = _Saver(result, checkpoint, checkpoint_every)
    try:
        _play(config, result, workers, on_progress, backend, saver)
    except BaseException:
        # Save what was counted; if that fails too, the error that stopped the run goes up
        # (the checkpoint keeps its last save).
        with contextlib.suppress(Exception):
            saver.now()
        raise
    saver.now()
    return result


def _play(
    config: SimConfig,
    result: SimResult,
    workers: int,
    on_progress: Callable[[int], None] | None,
    backend: Backend | None,
    saver: _Saver,
) -> None:
    """Play games ``result.games`` to ``config.games - 1`` into ``result``."""
    first = result.games
    if first >= config.games:
        return
    if backend is not None:
        counter = _InOrder(result, on_progress, saver.maybe)
        if first:
            backend.play(config, counter.receive, first)
        else:  # as before there were checkpoints, so a backend without ``first`` still works
            backend.play(config, counter.receive)
        if counter.counted != config.games:
            raise RuntimeError(f"the backend played {counter.counted} of {config.games} games")
    elif workers == 1 or config.games - first < 8:
        for i in range(first, config.games):
            result.add(play_one(config, i))
            if on_progress:
                on_progress(1)
            saver.maybe()
    else:
        # Chunks sized by the measured time a game takes (see _chunk_size), two per worker in
        # flight; each game depends only on its index, so the chunking does not change results.
        # Chunks are counted in the order of their games (see _InOrder).
        counter = _InOrder(result, on_progress, saver.maybe)
        pending: dict[Future[tuple[list[GameSummary], float]], int] = {}
        start = first
        played = 0
        busy = 0.0
        with ProcessPoolExecutor(max_workers=workers) as pool:
            while start < config.games or pending:
                while start < config.games and len(pending) < 2 * workers:
                    size = _chunk_size(played, busy, config.games - start, workers, config.games)
                    stop = min(config.games, start + size)
                    pending[pool.submit(_run_chunk, config, start, stop)] = start
                    start = stop
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    part, seconds = fut.result()
                    played += len(part)
                    busy += seconds
                    counter.receive(pending.pop(fut), part)
