"""A hunt: numbered deals played in chunks (in this process, a process pool or on Ray), the
longest games and the cycles kept, its state saved to a checkpoint and taken up again."""

from __future__ import annotations

import heapq
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ratgames.checkpoint import write_json_atomic

from .deals import (
    CYCLES_KEPT,
    DECK,
    DECK_SIZE,
    DEFAULT_LIMIT,
    FINISHED_FIRST,
    MASK64,
    MAX_SWAPS,
    UNRESOLVED,
    Figures,
    HuntError,
    deal_at,
    deal_text,
    parse_deal,
    play_exact,
)
from .kernel import load_kernel

# --- a hunt --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HuntSpec:
    """What a hunt looks at: random deals (``near`` None) or deals ``near`` a given one (1 to
    ``swaps`` swaps), numbered from ``seed``; it keeps the ``top`` longest games."""

    seed: int = 0
    near: bytes | None = None
    swaps: int = 2
    top: int = 10
    limit: int = DEFAULT_LIMIT

    def __post_init__(self) -> None:
        if not 0 <= self.seed <= MASK64:
            raise HuntError(f"the seed must be a whole number from 0 to 2**64-1, not {self.seed}")
        if self.near is not None and (
            len(self.near) != DECK_SIZE or sorted(self.near) != sorted(DECK)
        ):
            raise HuntError("the deal to search near is not a deck of 52 cards")
        if not 1 <= self.swaps <= MAX_SWAPS:
            raise HuntError(f"swaps must be from 1 to {MAX_SWAPS}, not {self.swaps}")
        if not 1 <= self.top <= 1000:
            raise HuntError(f"top must be from 1 to 1000, not {self.top}")
        if self.limit < 100:
            raise HuntError(f"the limit must be at least 100 cards, not {self.limit}")

    def deal(self, index: int) -> bytes:
        return deal_at(self.seed, index, self.near, self.swaps)

    def describe(self) -> dict[str, Any]:
        """The hunt's identity, as stored in checkpoints and results."""
        return {
            "seed": self.seed,
            "near": None if self.near is None else deal_text(self.near),
            "swaps": self.swaps if self.near is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Found:
    """A deal the hunt keeps: its number, the deal and its figures."""

    index: int
    deal: bytes
    figures: Figures

    def key(self) -> tuple[int, int, int]:
        """Longest first: most cards, then most tricks, then the lowest deal number."""
        return (-self.figures.cards, -self.figures.tricks, self.index)

    def to_json(self) -> dict[str, Any]:
        f = self.figures
        return {
            "index": self.index,
            "deal": deal_text(self.deal),
            "cards": f.cards,
            "tricks": f.tricks,
            "winner": f.winner + 1 if not f.cycle else None,
            "cycle": f.cycle,
        }

    @staticmethod
    def from_json(data: Any) -> Found:
        figures = Figures(
            int(data["cards"]),
            int(data["tricks"]),
            -1 if data["cycle"] else int(data["winner"]) - 1,
            bool(data["cycle"]),
        )
        return Found(int(data["index"]), parse_deal(data["deal"]), figures)


def merge_top(a: list[Found], b: list[Found], k: int) -> list[Found]:
    """The ``k`` longest distinct deals of both lists (a deal found twice counts once, under
    its lowest number)."""
    return heapq.nsmallest(k, _distinct(a, b), key=Found.key)


def merge_cycles(a: list[Found], b: list[Found]) -> list[Found]:
    """The distinct cycle deals of both lists with the lowest numbers (at most
    :data:`CYCLES_KEPT`)."""
    return heapq.nsmallest(CYCLES_KEPT, _distinct(a, b), key=lambda f: f.index)


def _distinct(a: list[Found], b: list[Found]) -> list[Found]:
    """The deals of both lists, each once, under its lowest number."""
    best: dict[bytes, Found] = {}
    for f in (*a, *b):
        old = best.get(f.deal)
        if old is None or f.index < old.index:
            best[f.deal] = f
    return list(best.values())


@dataclass
class ChunkResult:
    """What one chunk of deals (``start`` to ``stop - 1``) gave."""

    start: int
    stop: int
    cards: int
    tricks: int
    finished: int
    first_wins: int
    cycles: int
    top: list[Found]
    cycle_deals: list[Found]
    kernel: str
    seconds: float


def run_chunk(
    spec: HuntSpec, start: int, stop: int, floor: int = 0, kernel: str = "auto"
) -> ChunkResult:
    """Play deals ``start`` to ``stop - 1`` of ``spec``'s hunt (in this process): what a worker
    does.  Games shorter than ``floor`` cards are only counted (the hunt already has ``top``
    longer ones)."""
    began = time.perf_counter()
    k = load_kernel(kernel)
    listed, (cards, tricks, finished, first_wins) = k.chunk(
        spec.seed, start, stop - start, spec.near, spec.swaps, spec.limit, floor
    )
    finished_games: list[tuple[int, int, int, int]] = []  # (-cards, -tricks, index, winner)
    cycle_deals: list[Found] = []
    cycles = 0
    for index, n_cards, n_tricks, status in listed:
        if status == UNRESOLVED:
            deal = spec.deal(index)
            figures = play_exact(deal)
            if figures.cycle:
                cycles += 1
                if deal != spec.near:
                    cycle_deals.append(Found(index, deal, figures))
                continue
            cards += figures.cards
            tricks += figures.tricks
            finished += 1
            first_wins += figures.winner == FINISHED_FIRST
            finished_games.append((-figures.cards, -figures.tricks, index, figures.winner))
        else:
            finished_games.append((-n_cards, -n_tricks, index, status))
    # The longest first; a deal found twice (near a deal) counts once, under its lowest number,
    # and the deal searched near is not one of those found.
    finished_games.sort()
    top: list[Found] = []
    seen: set[bytes] = {spec.near} if spec.near is not None else set()
    for neg_cards, neg_tricks, index, winner in finished_games:
        if len(top) == spec.top:
            break
        deal = spec.deal(index)
        if deal not in seen:
            seen.add(deal)
            top.append(Found(index, deal, Figures(-neg_cards, -neg_tricks, winner)))
    return ChunkResult(
        start,
        stop,
        cards,
        tricks,
        finished,
        first_wins,
        cycles,
        top,
        merge_cycles([], cycle_deals),
        k.name,
        time.perf_counter() - began,
    )


CHECKPOINT_FORMAT = "ratgames-hunt-checkpoint"


@dataclass
class HuntState:
    """A hunt's results so far: which deals are done (index intervals), totals, the longest
    deals and the cycles.  It depends only on which deals are done, not on the order."""

    spec: HuntSpec
    done: list[tuple[int, int]] = field(default_factory=list)
    cards: int = 0
    tricks: int = 0
    finished: int = 0
    first_wins: int = 0
    cycles: int = 0
    top: list[Found] = field(default_factory=list)
    cycle_deals: list[Found] = field(default_factory=list)
    seconds: float = 0.0
    kernels: dict[str, int] = field(default_factory=dict)

    @property
    def deals(self) -> int:
        return sum(stop - start for start, stop in self.done)

    def floor(self) -> int:
        """The fewest cards a game needs to enter the top list (0 until it is full)."""
        if len(self.top) < self.spec.top:
            return 0
        return self.top[-1].figures.cards

    def add(self, chunk: ChunkResult) -> None:
        self._mark_done(chunk.start, chunk.stop)
        self.cards += chunk.cards
        self.tricks += chunk.tricks
        self.finished += chunk.finished
        self.first_wins += chunk.first_wins
        self.cycles += chunk.cycles
        self.top = merge_top(self.top, chunk.top, self.spec.top)
        self.cycle_deals = merge_cycles(self.cycle_deals, chunk.cycle_deals)
        self.kernels[chunk.kernel] = self.kernels.get(chunk.kernel, 0) + chunk.stop - chunk.start

    def _mark_done(self, start: int, stop: int) -> None:
        for a, b in self.done:
            if a < stop and start < b:
                raise HuntError(f"deals {start} to {stop - 1} were already counted")
        spans = sorted([*self.done, (start, stop)])
        merged: list[tuple[int, int]] = []
        for a, b in spans:
            if merged and merged[-1][1] == a:
                merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        self.done = merged

    def todo(self, total: int | None, size: int) -> Iterator[tuple[int, int]]:
        """The deals not done yet, in order, as ranges of at most ``size`` deals: up to deal
        ``total - 1``, or for ever."""
        position = 0
        for a, b in [*self.done, (None, None)]:
            end = total if a is None else (a if total is None else min(a, total))
            while end is None or position < end:
                stop = position + size if end is None else min(end, position + size)
                yield position, stop
                position = stop
            if b is None:
                return
            position = max(position, b)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "format_version": 1,
            "hunt": {**self.spec.describe(), "top": self.spec.top, "limit": self.spec.limit},
            "done": [list(span) for span in self.done],
            "deals": self.deals,
            "cards": self.cards,
            "tricks": self.tricks,
            "finished": self.finished,
            "first_wins": self.first_wins,
            "cycles": self.cycles,
            "seconds": round(self.seconds, 3),
            "kernels": dict(sorted(self.kernels.items())),
            "top": [f.to_json() for f in self.top],
            "cycle_deals": [f.to_json() for f in self.cycle_deals],
        }

    @staticmethod
    def from_json(data: Any, spec: HuntSpec) -> HuntState:
        """A hunt's state from its checkpoint, which must be of the hunt ``spec`` describes
        (the same seed, mode and swaps, and a top list at least as long)."""
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise HuntError("it is not a ratgames hunt checkpoint")
        if data.get("format_version") != 1:
            raise HuntError(f"unknown checkpoint version {data.get('format_version')!r}")
        try:
            saved = data["hunt"]
            mine = spec.describe()
            for name, value in mine.items():
                if saved[name] != value:
                    raise HuntError(
                        f"it is of another hunt ({name} {saved[name]!r}, not {value!r}); use "
                        "another checkpoint file or the same settings"
                    )
            if saved["limit"] != spec.limit:
                raise HuntError(f"it is of another hunt (limit {saved['limit']}, not {spec.limit})")
            if int(saved["top"]) < spec.top:
                raise HuntError(
                    f"it keeps the top {saved['top']} deals, fewer than the {spec.top} asked"
                )
            state = HuntState(spec)
            for start, stop in data["done"]:
                if not (isinstance(start, int) and isinstance(stop, int) and 0 <= start < stop):
                    raise HuntError(f"bad range of deals {start!r}..{stop!r}")
                state._mark_done(start, stop)
            for name in ("cards", "tricks", "finished", "first_wins", "cycles"):
                value = data[name]
                if not isinstance(value, int) or value < 0:
                    raise HuntError(f"bad {name} {value!r}")
                setattr(state, name, value)
            state.seconds = float(data["seconds"])
            state.kernels = {str(k): int(v) for k, v in data["kernels"].items()}
            state.top = merge_top([], [Found.from_json(f) for f in data["top"]], spec.top)
            state.cycle_deals = merge_cycles([], [Found.from_json(f) for f in data["cycle_deals"]])
        except HuntError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise HuntError(f"it is damaged ({type(exc).__name__}: {exc})") from exc
        if state.finished + state.cycles != state.deals:
            raise HuntError(
                f"it is damaged: {state.finished} finished games and {state.cycles} cycles "
                f"for {state.deals} deals"
            )
        return state


def load_checkpoint(path: Path, spec: HuntSpec) -> HuntState | None:
    """The state saved in ``path`` (None if there is no such file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise HuntError(f"cannot read the checkpoint {path}: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HuntError(f"the checkpoint {path} is not JSON ({exc})") from exc
    try:
        return HuntState.from_json(data, spec)
    except HuntError as exc:
        raise HuntError(f"the checkpoint {path}: {exc}") from exc


def chunk_size(kernel: str) -> int:
    """Deals per task: some tenths of a second of work for the kernel."""
    return 100_000 if kernel == "c" else 4_000


class HuntInterrupted(HuntError):
    """The hunt was stopped (Ctrl-C) before it finished; its state holds what was done."""

    def __init__(self, state: HuntState) -> None:
        super().__init__("the hunt was interrupted")
        self.state = state


def run_hunt(
    spec: HuntSpec,
    *,
    deals: int | None = None,
    seconds: float | None = None,
    workers: int = 1,
    kernel: str = "auto",
    backend: str = "local",
    address: str | None = None,
    state: HuntState | None = None,
    checkpoint: Path | None = None,
    checkpoint_every: float = 30.0,
    on_chunk: Callable[[HuntState, ChunkResult], None] | None = None,
    chunk: int | None = None,
) -> HuntState:
    """Hunt until deal ``deals - 1`` is done (counting those done before, from ``state``) or
    for ``seconds`` more (whichever comes first; one of them is needed), in ``workers``
    processes or on a Ray cluster (``backend='ray'``, at ``address`` or a local one).  Saves
    the state to ``checkpoint`` every ``checkpoint_every`` seconds and at the end; on Ctrl-C
    saves it and raises :class:`HuntInterrupted`."""
    if deals is None and seconds is None:
        raise HuntError("give a number of deals or of seconds")
    if backend not in ("local", "ray"):
        raise HuntError(f"unknown backend {backend!r}: choose local or ray")
    state = state or HuntState(spec)
    if state.spec != spec:
        raise HuntError("the state is of another hunt")
    main_kernel = load_kernel(kernel)
    size = chunk or chunk_size(main_kernel.name)
    worker_kernel = kernel if backend == "ray" else main_kernel.name
    todo = state.todo(deals, size)
    began = time.perf_counter()
    session_start = state.seconds
    deadline = None if seconds is None else began + seconds
    last_saved = began

    def save() -> None:
        state.seconds = session_start + time.perf_counter() - began
        if checkpoint is not None:
            write_json_atomic(checkpoint, state.to_json())

    def take(result: ChunkResult) -> None:
        nonlocal last_saved
        state.add(result)
        state.seconds = session_start + time.perf_counter() - began
        if on_chunk:
            on_chunk(state, result)
        if checkpoint is not None and time.perf_counter() - last_saved >= checkpoint_every:
            save()
            last_saved = time.perf_counter()

    def more() -> tuple[int, int] | None:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        return next(todo, None)

    try:
        if backend == "ray":
            _run_ray(spec, more, take, state.floor, address, workers, worker_kernel)
        elif workers <= 1:
            while (span := more()) is not None:
                take(run_chunk(spec, span[0], span[1], state.floor(), worker_kernel))
        else:
            _run_pool(spec, more, take, state.floor, workers, worker_kernel)
    except KeyboardInterrupt:
        save()
        raise HuntInterrupted(state) from None
    save()
    return state


def _ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C to the main process, which stops the hunt cleanly."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_pool(
    spec: HuntSpec,
    more: Callable[[], tuple[int, int] | None],
    take: Callable[[ChunkResult], None],
    floor: Callable[[], int],
    workers: int,
    kernel: str,
) -> None:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    pending: set[Future[ChunkResult]] = set()
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * workers:
                span = more()
                if span is None:
                    exhausted = True
                    break
                pending.add(pool.submit(run_chunk, spec, span[0], span[1], floor(), kernel))
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(finished, key=lambda f: f.result().start):
                take(fut.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _chunk_task(spec: HuntSpec, start: int, stop: int, floor: int, kernel: str) -> ChunkResult:
    """:func:`run_chunk` with every argument given (as a Ray task)."""
    return run_chunk(spec, start, stop, floor, kernel)


def _run_ray(
    spec: HuntSpec,
    more: Callable[[], tuple[int, int] | None],
    take: Callable[[ChunkResult], None],
    floor: Callable[[], int],
    address: str | None,
    workers: int,
    kernel: str,
) -> None:
    """Chunks as Ray tasks, about two per CPU of the cluster in flight (the CPUs are read again
    every few seconds, so a cluster that grows gets more).  A task whose worker or node dies is
    run again by Ray; each chunk's result is taken once."""
    from ratgames.distributed import BackendError, open_ray

    try:
        ray, close = open_ray(address or None, None if address else workers)
    except BackendError as exc:
        raise HuntError(str(exc)) from exc
    try:
        remote = ray.remote(num_cpus=1, max_retries=5)(_chunk_task)
        pending: set[Any] = set()
        exhausted = False
        cpus, checked = 1, -1e9
        while True:
            if time.monotonic() - checked >= 10:
                found = ray.cluster_resources().get("CPU", 1)
                cpus, checked = max(1, int(found)), time.monotonic()
            while not exhausted and len(pending) < 2 * cpus:
                span = more()
                if span is None:
                    exhausted = True
                    break
                pending.add(remote.remote(spec, span[0], span[1], floor(), kernel))
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=10)
            for ref in ready:
                pending.discard(ref)
                take(ray.get(ref))
    finally:
        if close is not None:
            close()
