"""Simulations and tournaments on Ray: a Ray started on this machine for the run, or a cluster's.

The games are the local process pool's: each depends only on the run's seed and its index
(:func:`ratgames.sim.play_one`), so a chunk of games gives the same summaries wherever it is
played.  Chunks of consecutive games go out as Ray tasks, sized as for the local pool (about a
second of play each, see :func:`ratgames.sim._chunk_size`), about two per CPU of the cluster in
flight.  Each finished chunk moves the progress and is counted as it arrives (in game order,
waiting only for the chunks before it).  A task whose worker process or node dies is run again by
Ray (``max_retries``); a chunk that arrives twice is counted once.

Ray is imported only here, and only when a :class:`RayBackend` is opened: ratgames works without
it (``pip install 'ratgames[ray]'`` adds it).

    with RayBackend(address="auto") as backend:  # or RayBackend() for a Ray on this machine
        result = simulate(config, backend=backend)
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from .core.bots import Bot, bot_entries, parse_bot_spec, register_bot
from .core.errors import RatgamesError, UnknownNameError
from .core.game import Game
from .core.registry import game_class, register_game
from .sim import GameSummary, SimConfig, _chunk_size, _run_chunk

INSTALL_HINT = "install ratgames[ray] (pip install 'ratgames[ray]', or uv sync --extra ray)"

DEFAULT_RETRIES = 5
"""How many times Ray runs a chunk again whose worker process or node died."""

LOCAL_OBJECT_STORE = 256 * 1024 * 1024
"""The object store of a Ray started on this machine: results are small and travel inline, so a
small store is plenty (and Ray does not warn about a small /dev/shm)."""

_CPU_REFRESH_SECONDS = 10.0

CONNECT_SECONDS = 10.0
"""How long to wait for a cluster's address to answer before giving up (Ray itself would keep
trying for many minutes)."""


class BackendError(RatgamesError):
    """Ray is not installed, the cluster cannot be reached, or a chunk of games failed on it."""


def check_reachable(address: str, timeout: float = CONNECT_SECONDS) -> None:
    """Raise :class:`BackendError` at once when nothing answers at ``HOST:PORT`` (or
    ``ray://HOST:PORT``); ``auto`` and other forms are left to Ray.

    >>> check_reachable("auto")
    >>> check_reachable("ray://cluster")
    Traceback (most recent call last):
    ...
    ratgames.distributed.BackendError: the Ray address 'ray://cluster' is not HOST:PORT ...
    """
    rest = address.removeprefix("ray://")
    if rest in ("auto", "local"):
        return
    host, sep, port_text = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_text.isdigit():
        raise BackendError(
            f"the Ray address {address!r} is not HOST:PORT (for example 10.0.0.5:6379, "
            "ray://10.0.0.5:10001, or auto for the cluster this machine belongs to)"
        )
    try:
        socket.create_connection((host, int(port_text)), timeout=timeout).close()
    except OSError as exc:
        raise BackendError(
            f"nothing answers at the Ray address {address} ({exc.strerror or exc}): is the "
            "cluster up (ray status), and is this its head node's address and port?"
        ) from exc


def import_ray() -> Any:
    """The ``ray`` module, after switching off what the backend does not use: Ray's token
    authentication (which writes a token to ``~/.ray``), usage statistics, and Ray's copying of
    the driver's ``uv run`` environment (with the current folder) to its workers, which makes
    every worker start through ``uv``.  These are only defaults: the environment can set them
    otherwise."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise BackendError(
            f"the ray backend needs Ray, which is not installed: {INSTALL_HINT}"
        ) from exc


def open_ray(address: str | None, cpus: int | None = None) -> tuple[Any, Callable[[], None] | None]:
    """The ``ray`` module, connected: to the cluster at ``address`` (checked first with
    :func:`check_reachable`), or to a Ray started on this machine with ``cpus`` CPUs (all by
    default) with a small object store and no dashboard.  Ray's notices go to stderr and its
    workers' logs stay on the workers.  Returns the module and what disconnects (and stops a
    Ray started here), or None for that when this process was already connected to a Ray (which
    is then used as it is).  Failures are :class:`BackendError`, in one line."""
    ray = import_ray()
    if address is not None:
        check_reachable(address)
    if ray.is_initialized():
        return ray, None
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
    try:
        if address is None:
            ray.init(
                address="local",
                num_cpus=cpus,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE,
                **quiet,
            )
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise BackendError(f"could not start or reach {where}: {exc}") from exc
    undo_notices = _notices_to_stderr(ray)

    def close() -> None:
        ray.shutdown()
        undo_notices()

    return ray, close


BotRegistration = tuple[str, type[Bot], str, str | None]
"""A bot's name, class, summary and game (the arguments of :func:`register_bot`)."""

Job = tuple[SimConfig, type[Game], tuple[BotRegistration, ...]]
"""What every task of a run is given: the run, and the game and bots as registered here (as
plain tuples and classes, which travel by reference)."""


def _job(config: SimConfig) -> Job:
    """The run with its game class and bot entries, so that workers play a game or bot that was
    registered at run time in this process (as forked local workers would)."""
    entries = {e.name: e for e in bot_entries(config.game_id)}
    names = dict.fromkeys(parse_bot_spec(spec)[0] for spec in config.bots)
    bots = tuple(
        (e.name, e.cls, e.summary, e.game_id) for e in (entries[n] for n in names if n in entries)
    )
    return config, game_class(config.game_id), bots


def _register(job: Job) -> None:
    """Register the job's game and bots in this worker where they are missing or differ."""
    config, cls, bots = job
    try:
        same = game_class(config.game_id) is cls
    except UnknownNameError:
        same = False
    if not same:
        register_game(config.game_id, cls)
    known = {e.name: e.cls for e in bot_entries(config.game_id)}
    for name, bot_cls, summary, game_id in bots:
        if known.get(name) is not bot_cls:
            register_bot(name, bot_cls, summary, game_id)


def play_chunk(job: Job, start: int, stop: int) -> tuple[list[GameSummary], float]:
    """Games ``start`` to ``stop - 1`` of the job's run, and the seconds they took (a Ray task)."""
    _register(job)
    return _run_chunk(job[0], start, stop)


def _notices_to_stderr(ray: Any) -> Callable[[], None]:
    """Send the notices Ray prints on the driver (a node marked dead, a worker killed) to stderr
    instead of stdout, which keeps only the results; return what undoes it.  This replaces a
    private function of Ray's: where it is not there, nothing changes."""
    module: Any = getattr(getattr(ray, "_private", None), "worker", None)
    original = getattr(module, "print_to_stdstream", None)
    if module is None or original is None:
        return lambda: None

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        original({**data, "is_err": True}, ignore_prefix)

    module.print_to_stdstream = to_stderr

    def undo() -> None:
        module.print_to_stdstream = original

    return undo


class RayBackend:
    """Plays a run's games as Ray tasks (a :class:`ratgames.sim.Backend`).

    ``address`` is an existing cluster's (``auto``, ``host:6379``, ``ray://host:10001``); without
    one, a Ray is started on this machine with ``cpus`` CPUs (all by default) and stopped when the
    backend closes.  Where this process is already connected to a Ray (``ray.init``), that Ray is
    used as it is, and left connected.
    Use it as a context manager: it connects on entry and disconnects on exit.
    """

    def __init__(
        self, address: str | None = None, cpus: int | None = None, retries: int = DEFAULT_RETRIES
    ) -> None:
        if address is not None and cpus is not None:
            raise ValueError("a Ray cluster uses its own CPUs: give an address or cpus, not both")
        if cpus is not None and cpus < 1:
            raise ValueError("cpus must be at least 1")
        self.address = address
        self.cpus = cpus
        self.retries = retries
        self._ray: Any = None
        self._task: Any = None
        self._owns_ray = False
        self._close: Callable[[], None] = lambda: None
        self._cluster_cpus = 0
        self._cpus_checked = 0.0

    def __enter__(self) -> RayBackend:
        ray, close = open_ray(self.address, self.cpus)
        self._owns_ray = close is not None
        self._close = close or (lambda: None)
        self._ray = ray
        self._task = ray.remote(num_cpus=1, max_retries=self.retries)(play_chunk)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._ray is not None:
            self._close()
        self._ray = self._task = None
        self._owns_ray = False
        self._close = lambda: None

    def describe(self) -> str:
        """Where the games are played, e.g. ``the Ray cluster at auto: 64 CPUs on 5 nodes``."""
        ray = self._connected()
        nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
        cpus = self.cluster_cpus(fresh=True)
        if self.address:
            where = f"the Ray cluster at {self.address}"
        else:
            where = "a Ray on this machine" if self._owns_ray else "the Ray this process uses"
        return f"{where}: {cpus} CPUs on {nodes} node{'s' if nodes != 1 else ''}"

    def cluster_cpus(self, fresh: bool = False) -> int:
        """The CPUs of the cluster's live nodes (read again every few seconds: a cluster that
        scales up gets more work in flight)."""
        ray = self._connected()
        now = time.monotonic()
        if fresh or now - self._cpus_checked >= _CPU_REFRESH_SECONDS:
            self._cluster_cpus = int(ray.cluster_resources().get("CPU", 0))
            self._cpus_checked = now
        return self._cluster_cpus

    def _connected(self) -> Any:
        if self._ray is None:
            raise RuntimeError("open the backend first: with RayBackend(...) as backend: ...")
        return self._ray

    def play(
        self,
        config: SimConfig,
        receive: Callable[[int, list[GameSummary]], None],
        first: int = 0,
    ) -> None:
        """Play the run's games from game ``first`` on as tasks, calling ``receive(start,
        summaries)`` per finished chunk (see :class:`ratgames.sim.Backend`)."""
        ray = self._connected()
        job = ray.put(_job(config))
        pending: dict[Any, tuple[int, int]] = {}
        start = first
        played = 0
        busy = 0.0
        try:
            while start < config.games or pending:
                cpus = max(1, self.cluster_cpus())
                while start < config.games and len(pending) < 2 * cpus:
                    size = _chunk_size(played, busy, config.games - start, cpus)
                    stop = min(config.games, start + size)
                    pending[self._task.remote(job, start, stop)] = (start, stop)
                    start = stop
                done, _ = ray.wait(list(pending), num_returns=1, timeout=_CPU_REFRESH_SECONDS)
                for ref in done:
                    first, last = pending.pop(ref)
                    part, seconds = self._result(ref, first, last)
                    played += len(part)
                    busy += seconds
                    receive(first, part)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def _result(self, ref: Any, first: int, last: int) -> tuple[list[GameSummary], float]:
        ray = self._ray
        try:
            part, seconds = ray.get(ref)
        except ray.exceptions.RayTaskError as exc:
            # The games' own error (a bug, not the cluster's doing): raise it as a local run would.
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from None
            raise
        except ray.exceptions.RayError as exc:
            raise BackendError(
                f"games {first} to {last - 1} could not be played on the cluster "
                f"(tried {1 + self.retries} times): {exc}"
            ) from exc
        if len(part) != last - first:
            raise RuntimeError(f"a task returned {len(part)} games for games {first} to {last - 1}")
        return part, float(seconds)
