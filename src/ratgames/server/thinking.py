"""What the search bots' worker processes run (kept apart so that a worker imports only the
engine, not the server), and how the server shares them between tables.

A worker dies with its server: on Linux the kernel kills it when the server's process goes
(``PR_SET_PDEATHSIG``), and everywhere a thread of the worker notices its parent is gone and
ends it; a normal stop terminates the workers (:func:`stop_pool`), even in a long search.

:class:`SearchQueue` hands the workers out fairly: at most one search of a table runs at a time,
and the tables waiting are served in turn (round robin), so a table whose bots think long makes
the others wait for one search at most, not for all of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future
from typing import Any

from ratgames.core.bots import Bot, SeatView
from ratgames.core.game import State

log = logging.getLogger("ratgames.server")

PARENT_CHECK = 0.5
"""Seconds between a worker's checks that its server is still there."""


def think(bot: Bot, sample: State, seat: int) -> tuple[str, Bot]:
    """The bot's move on a state sampled from its seat's knowledge (never the real state), and
    the bot itself, whose memory may have changed."""
    began = time.monotonic()
    action = bot.act(SeatView(sample, seat))
    log.debug("worker: %s chose %s in %.2f s", bot.describe(), action, time.monotonic() - began)
    return str(action), bot


def warm_up(parent: int | None = None) -> None:
    """Worker start: die with the server process ``parent``, and load the games and bots once.

    A worker ignores ctrl+c (the terminal sends it to the whole process group): the server
    stops on it and ends its workers itself, rather than each dying with a traceback."""
    if parent is not None:
        with contextlib.suppress(ValueError, OSError):
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
        follow_parent(parent)
    from ratgames.core.registry import game_ids

    game_ids()


def follow_parent(parent: int) -> None:
    """End this process when process ``parent`` ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # gone before the kernel was told
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def ready(pause: float = 0.0) -> int:
    """A task that shows the worker is up (its process id), after ``pause`` seconds (so that
    one quick worker does not answer for the others)."""
    if pause > 0:
        time.sleep(pause)
    return os.getpid()


def stop_pool(pool: Executor) -> None:
    """Stop a process pool now: queued work is dropped and running searches end with their
    workers (a process pool's ``shutdown`` alone would let a long search run on)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=2.0)
            if process.is_alive():
                process.kill()


class SearchQueue:
    """Searches waiting for the pool's ``slots`` workers, served one table at a time in turn.

    :meth:`run` queues a call under a key (the table); a key has at most one call running, and
    whenever a worker is free the next key in turn that is not running one starts its oldest
    call."""

    def __init__(self, pool: Callable[[], Executor], slots: int) -> None:
        self.pool = pool
        self.slots = max(1, slots)
        self.waiting: OrderedDict[Hashable, deque[tuple[Any, asyncio.Future[Any]]]] = OrderedDict()
        self.running: set[Hashable] = set()

    def __len__(self) -> int:
        return sum(len(q) for q in self.waiting.values())

    async def run(self, key: Hashable, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker, when its turn comes; its result."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        item = ((fn, args), done)
        self.waiting.setdefault(key, deque()).append(item)
        self._pump()
        try:
            return await done
        except asyncio.CancelledError:
            queue = self.waiting.get(key)
            if queue is not None and item in queue:  # not started: it is dropped
                queue.remove(item)
                if not queue:
                    del self.waiting[key]
            raise

    def _pump(self) -> None:
        while len(self.running) < self.slots:
            key = next((k for k in self.waiting if k not in self.running), None)
            if key is None:
                return
            queue = self.waiting.pop(key)
            (fn, args), done = queue.popleft()
            if queue:
                self.waiting[key] = queue  # back at the end: the others go first
            if done.cancelled():
                continue
            try:
                started: Future[Any] = self.pool().submit(fn, *args)
            except Exception as exc:  # a pool that is shut down or broken
                done.set_exception(exc)
                continue
            self.running.add(key)
            asyncio.wrap_future(started).add_done_callback(
                functools.partial(self._finished, key, done)
            )

    def _finished(
        self, key: Hashable, done: asyncio.Future[Any], result: asyncio.Future[Any]
    ) -> None:
        self.running.discard(key)
        if key in self.waiting:
            self.waiting.move_to_end(key)  # it just had its turn: the others go first
        # The outcome is read even when nobody waits any more (a search whose table ended while
        # the server stopped its workers): else asyncio logs it as never retrieved.
        error = None if result.cancelled() else result.exception()
        if not done.done():
            if result.cancelled():
                done.cancel()
            elif error is not None:
                done.set_exception(error)
            else:
                done.set_result(result.result())
        self._pump()
