"""Progress of long runs on stderr: an animated bar on a terminal, plain lines for a pipe or a
log file, and the time left from the whole run's pace."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text


@dataclass
class _LogTask:
    description: str
    total: int
    start: float
    done: int = 0
    tenths: int = 0  # tenths of the total reported so far
    last_line: float = 0.0
    work: float | None = None  # the share of the work done, where games weigh unequally


class LogProgress:
    """Progress for a log file or a pipe: plain lines on stderr instead of an animated bar.

    Each task reports when it starts, whenever it passes another tenth of its games, and in
    between when a game finishes ``every`` seconds or more after the last line, e.g.
    ``rats simulation: 400/2000 games (20%), 0:00:31 elapsed, about 0:02:04 left``.
    It offers the part of :class:`rich.progress.Progress` the commands use.
    """

    def __init__(self, every: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.tasks: list[_LogTask] = []

    def __enter__(self) -> LogProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def add_task(self, description: str, total: int) -> TaskID:
        now = self.clock()
        self.tasks.append(_LogTask(description, total, start=now, last_line=now))
        self._line(self.tasks[-1], now)
        return TaskID(len(self.tasks) - 1)

    def update(self, task_id: TaskID, *, work: float | None = None) -> None:
        """Set the share of the task's work done (for :func:`time_left`), as
        ``Progress.update(task, work=...)`` sets the field the bar's time left reads."""
        self.tasks[task_id].work = work

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        task = self.tasks[task_id]
        task.done += int(advance)
        now = self.clock()
        tenths = 10 * task.done // task.total if task.total else 10
        if tenths > task.tenths or now - task.last_line >= self.every:
            task.tenths = tenths
            task.last_line = now
            self._line(task, now)

    @staticmethod
    def _line(task: _LogTask, now: float) -> None:
        elapsed = now - task.start
        line = (
            f"{task.description}: {task.done}/{task.total} games "
            f"({100 * task.done // max(task.total, 1)}%), {clock_time(elapsed)} elapsed"
        )
        left = time_left(elapsed, task.done, task.total, task.work)
        if left is not None and task.done < task.total:
            line += f", about {clock_time(left)} left"
        click.echo(line, err=True)


def clock_time(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


def time_left(elapsed: float, done: int, total: int, work: float | None = None) -> float | None:
    """The time a run still needs at the average pace of the whole run so far (not of the last
    few seconds: games finish in chunks, and a burst of finished games is not a change of pace).
    None before any game has finished.

    ``work``, where given, is the share of the run's work done, for runs whose games take
    unequal times (a tournament's pairings): the pace is then that of the work, not of the
    games, so that quick games played first do not promise a quick end.

    >>> time_left(150.0, 340, 1000)  # 34% done after 2.5 minutes
    291.1764705882353
    >>> time_left(150.0, 340, 1000, work=0.05)  # but the slow games are still to come
    2850.0
    """
    if done <= 0 or total <= 0:
        return None
    if work is not None:
        return elapsed * (1 - work) / work if work > 0 else None
    return elapsed * (total - done) / done


class SteadyTimeLeft(ProgressColumn):
    """The progress bar's time left, from the whole run's pace (see :func:`time_left`)."""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("done", style="progress.remaining")
        work = task.fields.get("work")
        left = time_left(task.elapsed or 0.0, int(task.completed), int(task.total or 0), work)
        if left is None:
            return Text("-:--:-- left", style="progress.remaining")
        return Text(f"about {clock_time(left)} left", style="progress.remaining")


def progress_display() -> Progress | LogProgress:
    """A progress bar on stderr when it is an interactive terminal, else plain progress lines."""
    console = Console(stderr=True)
    if not console.is_interactive:
        return LogProgress()
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        SteadyTimeLeft(),
        console=console,
        transient=False,
    )
