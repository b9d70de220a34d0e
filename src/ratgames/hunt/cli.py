"""``ratgames hunt``: search Beggar-my-neighbour deals for the longest games and for cycles."""

from __future__ import annotations

import os
import shlex
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from ..checkpoint import write_json_atomic
from ..outputs import check_output_file
from .deals import (
    MAX_SWAPS,
    EngineMismatch,
    Figures,
    HuntError,
    check_with_engine,
    deal_text,
    parse_deal,
    play,
)
from .kernel import KernelError, load_kernel
from .search import (
    ChunkResult,
    Found,
    HuntInterrupted,
    HuntSpec,
    HuntState,
    load_checkpoint,
    run_hunt,
)

DEFAULT_DEALS = 1_000_000
RESULT_FORMAT = "ratgames-hunt"


def _clock(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


def _best_text(state: HuntState) -> str:
    if not state.top:
        return "best: -"
    f = state.top[0]
    return f"best: {f.figures.cards} cards, {f.figures.tricks} tricks (deal {f.index})"


class _Display:
    """Progress on stderr: a Rich bar in a terminal, else a plain line at every tenth of the
    deals (or of the time) and every 30 seconds or so."""

    def __init__(self, deals: int | None, seconds: float | None, state: HuntState) -> None:
        self.console = Console(stderr=True, soft_wrap=True)
        self.deals = deals
        self.seconds = seconds
        self.started = time.perf_counter()
        self.first_deals = state.deals
        self.first_cards = state.cards
        self.progress: Progress | None = None
        self.task: TaskID | None = None
        self.tenths = -1
        self.last_line = 0.0
        self.checked: tuple[int, ...] = ()

    def __enter__(self) -> _Display:
        if self.console.is_interactive:
            self.progress = Progress(
                TextColumn("[bold]hunt"),
                BarColumn(),
                MofNCompleteColumn() if self.deals else TextColumn(""),
                TimeElapsedColumn(),
                TextColumn("{task.fields[rate]}"),
                TextColumn("[cyan]{task.fields[best]}"),
                console=self.console,
            )
            self.progress.__enter__()
            total = self.deals if self.deals is not None else self.seconds
            self.task = self.progress.add_task("hunt", total=total, rate="", best="")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.__exit__(None, None, None)

    def rates(self, state: HuntState) -> tuple[float, float]:
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        return (
            (state.deals - self.first_deals) / elapsed,
            (state.cards - self.first_cards) / elapsed,
        )

    def update(self, state: HuntState, chunk: ChunkResult) -> None:
        # Every deal shown as the best so far is first checked against the engine.
        key = tuple(f.index for f in state.top[:1])
        if key != self.checked:
            for f in state.top[:1]:
                check_with_engine(f.deal, f.figures)
            self.checked = key
        deals_s, cards_s = self.rates(state)
        rate = f"{deals_s:,.0f} deals/s, {cards_s / 1e6:,.1f}M cards/s"
        best = _best_text(state)
        if state.cycles:
            best += f", {state.cycles} cycle{'s' if state.cycles > 1 else ''}"
        elapsed = time.perf_counter() - self.started
        if self.progress is not None and self.task is not None:
            done = state.deals if self.deals is not None else min(elapsed, self.seconds or 0)
            self.progress.update(self.task, completed=done, rate=rate, best=best)
            return
        if self.deals is not None:
            tenths = 10 * state.deals // max(self.deals, 1)
        else:
            tenths = int(10 * elapsed / (self.seconds or 1))
        now = time.perf_counter()
        if tenths > self.tenths or now - self.last_line >= 30:
            self.tenths = tenths
            self.last_line = now
            of = f"/{self.deals:,}" if self.deals is not None else ""
            click.echo(
                f"hunt: {state.deals:,}{of} deals, {_clock(elapsed)} elapsed, {rate}, {best}",
                err=True,
            )


def _command(spec: HuntSpec, deals: int) -> str:
    words = ["ratgames", "hunt", "--seed", str(spec.seed), "--deals", str(deals)]
    if spec.near is not None:
        words += ["--near", deal_text(spec.near), "--swaps", str(spec.swaps)]
    if spec.top != 10:
        words += ["--top", str(spec.top)]
    return shlex.join(words)


def _found_row(rank: int, f: Found) -> list[str]:
    first, second = deal_text(f.deal).split("/")
    return [
        str(rank),
        f"{first}\n{second}",
        f"{f.figures.cards:,}",
        f"{f.figures.tricks:,}",
        "-" if f.figures.cycle else str(f.figures.winner + 1),
        str(f.index),
    ]


def _table(title: str, found: list[Found]) -> Table:
    table = Table(
        title=title,
        caption="Each deal: player 1's hand over player 2's, top card first (- any number card).",
    )
    table.add_column("#", justify="right")
    table.add_column("deal", no_wrap=True)
    table.add_column("cards", justify="right", no_wrap=True)
    table.add_column("tricks", justify="right", no_wrap=True)
    table.add_column("winner", justify="center", no_wrap=True)
    table.add_column("deal no.", justify="right", no_wrap=True)
    for rank, f in enumerate(found, 1):
        table.add_row(*_found_row(rank, f))
    return table


def _report(
    console: Console,
    state: HuntState,
    start: Figures | None,
    deals_asked: int | None,
    complete: bool,
    session_seconds: float,
    session_deals: int,
    session_cards: int,
) -> dict[str, Any]:
    spec = state.spec
    if spec.near is not None and start is not None:
        console.print(
            f"Start deal {deal_text(spec.near)}: {start.cards:,} cards, {start.tricks:,} tricks"
            + (" (a cycle)" if start.cycle else "")
        )
    console.print(_table(f"The {len(state.top)} longest games", state.top))
    if state.cycle_deals:
        shown = state.cycle_deals[: spec.top]
        console.print(
            _table(
                f"Cycles (games that never end): {state.cycles:,}, the first {len(shown)} shown",
                shown,
            )
        )
    else:
        console.print("No cycles (games that never end) found.")
    kernels = ", ".join(f"{k} ({n:,} deals)" for k, n in sorted(state.kernels.items()))
    deals_s = session_deals / session_seconds if session_seconds > 0 else 0.0
    cards_s = session_cards / session_seconds if session_seconds > 0 else 0.0
    mean = state.cards / state.finished if state.finished else 0.0
    first_share = state.first_wins / state.finished if state.finished else 0.0
    console.print(
        f"{state.deals:,} deals in {_clock(state.seconds)} ({deals_s:,.0f} deals/s, "
        f"{cards_s / 1e6:,.1f}M cards/s this run; play-out: {kernels or '-'}); "
        f"{state.finished:,} games ended, mean {mean:,.1f} cards, the first player won "
        f"{100 * first_share:.1f}%."
    )
    n_checked = len(state.top) + len(state.cycle_deals) + (1 if start else 0)
    console.print(
        f"Every deal above was played again by the general engine (Egyptian Ratscrew, "
        f"slaps=false) with the same figures ({n_checked} deal{'s' if n_checked != 1 else ''})."
    )
    return {
        "format": RESULT_FORMAT,
        "format_version": 1,
        "hunt": {**spec.describe(), "top": spec.top},
        "complete": complete,
        "deals_asked": deals_asked,
        "deals": state.deals,
        "finished": state.finished,
        "cycles": state.cycles,
        "cards": state.cards,
        "tricks": state.tricks,
        "mean_cards": round(mean, 3),
        "first_player_wins": state.first_wins,
        "seconds": round(state.seconds, 3),
        "deals_per_second": round(deals_s, 1),
        "cards_per_second": round(cards_s, 1),
        "kernels": state.kernels,
        "start": None
        if start is None
        else {
            "deal": deal_text(spec.near or b""),
            "cards": start.cards,
            "tricks": start.tricks,
            "cycle": start.cycle,
        },
        "longest": [f.to_json() for f in state.top],
        "cycle_deals": [f.to_json() for f in state.cycle_deals],
        "checked_with_engine": True,
        "command": _command(spec, state.deals if deals_asked is None else deals_asked),
    }


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option(
    "--deals",
    "-d",
    type=click.IntRange(min=1),
    default=None,
    help=f"Hunt until this many deals are done, counting a checkpoint's (default {DEFAULT_DEALS:,}"
    " unless --seconds is given).",
)
@click.option(
    "--seconds",
    "-t",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Hunt for this many seconds (with --deals: whichever comes first).",
)
@click.option(
    "--near",
    metavar="DEAL",
    default=None,
    help="Search deals near this one (two hands of 26 in face-card notation joined by '/').",
)
@click.option(
    "--swaps",
    type=click.IntRange(1, MAX_SWAPS),
    default=None,
    help="With --near: each deal swaps 1 to this many pairs of cards of the given one [default 2].",
)
@click.option(
    "--seed",
    "-s",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Seed: deal number i of a seed is always the same deal.",
)
@click.option(
    "--workers", "-w", type=click.IntRange(min=1), default=None, help="Processes (default: cores)."
)
@click.option(
    "--top",
    "-k",
    type=click.IntRange(1, 1000),
    default=10,
    show_default=True,
    help="How many of the longest games to keep and show.",
)
@click.option(
    "--json",
    "json_out",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write the results to this JSON file.",
)
@click.option(
    "--checkpoint",
    type=click.Path(path_type=Path),
    default=None,
    help="Save progress to this file (and resume from it if it exists).",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="local: processes on this machine; ray: tasks on a Ray cluster.",
)
@click.option(
    "--address",
    default=None,
    help="With --backend ray: the cluster's address (default: start Ray on this machine).",
)
@click.option(
    "--kernel",
    type=click.Choice(["auto", "c", "python"]),
    default="auto",
    show_default=True,
    help="Play-out: C (compiled with the system compiler on first use), Python, or C if it can.",
)
def hunt(
    deals: int | None,
    seconds: float | None,
    near: str | None,
    swaps: int | None,
    seed: int,
    workers: int | None,
    top: int,
    json_out: Path | None,
    checkpoint: Path | None,
    backend: str,
    address: str | None,
    kernel: str,
) -> None:
    """Search Beggar-my-neighbour deals for the longest games and for games that never end.

    Beggar-my-neighbour is Egyptian Ratscrew without slaps.  The hunt plays random deals (or
    deals near --near) and reports the longest games in cards and tricks, as the published
    records count them (the record of 2022 lasts 8344 cards and 1164 tricks), and every cycle.
    Every deal it reports is played again by the general engine first.

    \b
    Examples:
      ratgames hunt --deals 10000000
      ratgames hunt --seconds 600 --checkpoint hunt.json   (run it again to go on)
      ratgames hunt --near K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ-- --swaps 3
      ratgames hunt --backend ray --address ray://head:10001 --deals 1000000000
    """
    if swaps is not None and near is None:
        raise click.UsageError("--swaps needs --near (it says how far from that deal to look)")
    if address is not None and backend != "ray":
        raise click.UsageError("--address needs --backend ray")
    base = None
    if near is not None:
        try:
            base = parse_deal(near)
        except HuntError as exc:
            raise click.BadParameter(str(exc), param_hint="--near") from None
    spec = HuntSpec(seed=seed, near=base, swaps=swaps or 2, top=top)
    if deals is None and seconds is None:
        deals = DEFAULT_DEALS
    for path, what in ((json_out, "--json"), (checkpoint, "--checkpoint")):
        if path is not None:
            check_output_file(path, what)  # the rule every command's outputs follow
    state = None
    if checkpoint is not None:
        try:
            state = load_checkpoint(checkpoint, spec)
        except HuntError as exc:
            raise click.BadParameter(str(exc), param_hint="--checkpoint") from None
    if kernel == "c":
        try:
            load_kernel("c")
        except KernelError as exc:
            raise click.UsageError(f"--kernel c: {exc}") from None
    console = Console(soft_wrap=True, highlight=False)  # sentences not cut at the width
    err = Console(stderr=True, soft_wrap=True, highlight=False)
    start = None
    if base is not None:
        start = play(base)
        check_with_engine(base, start)
    state = state or HuntState(spec)
    if state.deals:
        err.print(f"Resuming from {checkpoint}: {state.deals:,} deals done. {_best_text(state)}")
    workers = workers or os.cpu_count() or 1
    began = time.perf_counter()
    first_deals, first_cards = state.deals, state.cards
    interrupted = False
    try:
        with _Display(deals, seconds, state) as display:
            state = run_hunt(
                spec,
                deals=deals,
                seconds=seconds,
                workers=workers,
                kernel=kernel,
                backend=backend,
                address=address,
                state=state,
                checkpoint=checkpoint,
                on_chunk=display.update,
            )
    except HuntInterrupted as exc:
        state = exc.state
        interrupted = True
    except EngineMismatch as exc:
        raise click.ClickException(f"internal error, please report it: {exc}") from None
    except HuntError as exc:
        raise click.UsageError(str(exc)) from None
    complete = not interrupted and (deals is None or state.deals >= deals)
    for f in [*state.top, *state.cycle_deals]:
        try:
            check_with_engine(f.deal, f.figures)
        except EngineMismatch as exc:
            raise click.ClickException(f"internal error, please report it: {exc}") from None
    result = _report(
        console,
        state,
        start,
        deals,
        complete,
        time.perf_counter() - began,
        state.deals - first_deals,
        state.cards - first_cards,
    )
    if json_out is not None:
        write_json_atomic(json_out, result)
        err.print(f"Results written to {json_out}")
    if not complete:
        where = (
            f"progress saved in {checkpoint}: run the same command to go on"
            if checkpoint is not None
            else "give --checkpoint FILE to be able to go on next time"
        )
        err.print(f"Stopped after {state.deals:,} deals; {where}.")
    if interrupted:
        raise SystemExit(130)
