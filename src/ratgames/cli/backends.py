"""Where and how a long run plays (simulate, tournament): ``--backend``/``--address`` (this
machine's processes or Ray), ``--checkpoint``/``--checkpoint-every`` (progress saved to go on
later), what a stopped run says it kept, and the hint to build the compiled engine."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core.errors import RatgamesError
from .common import F, check_writable_file, err, fail

if TYPE_CHECKING:
    from ..sim import Backend


def backend_options(f: F) -> F:
    """``--backend`` and ``--address``: where simulate and tournament play their games."""
    f = click.option(
        "--address",
        default=None,
        metavar="ADDRESS",
        help="With --backend ray: the cluster to use (auto, HOST:6379 or ray://HOST:10001; "
        "default: $RAY_ADDRESS if set, else a Ray started on this machine for the run).",
    )(f)
    return click.option(
        "--backend",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Where to play: processes on this machine, or Ray (this machine or a cluster; "
        "the same games for the same seed).",
    )(f)


def checkpoint_options(f: F) -> F:
    """``--checkpoint`` and ``--checkpoint-every``: save a long run's progress to go on later."""
    f = click.option(
        "--checkpoint-every",
        type=click.FloatRange(min=0.1),
        default=60.0,
        show_default=True,
        metavar="SECONDS",
        help="How often --checkpoint saves (it also saves at the end and on Ctrl-C).",
    )(f)
    return click.option(
        "--checkpoint",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        metavar="FILE",
        help="Save progress to FILE as the run goes; run the same command again to go on "
        "where it stopped (with more --games, to add to a finished run).",
    )(f)


def open_checkpoint(
    path: Path | None, command: str, configs: list[Any], keep_games: bool = False
) -> Any:
    """The run checkpoint at ``path`` for these runs (None without --checkpoint); says on
    stderr how many games it already holds."""
    if path is None:
        return None
    from ..checkpoint import CheckpointError, RunCheckpoint

    check_writable_file(path, "--checkpoint")
    try:
        checkpoint = RunCheckpoint.open(path, command, configs, keep_games)
    except CheckpointError as exc:
        raise click.BadParameter(str(exc), param_hint="--checkpoint") from None
    done = sum(checkpoint.done(c) for c in configs)
    if done:
        total = sum(c.games for c in configs)
        err.print(
            f"Going on from {path}: {done:,} of {total:,} games already played", highlight=False
        )
    return checkpoint


@contextlib.contextmanager
def stops_kept(checkpoint: Path | None) -> Iterator[None]:
    """A run stopped by Ctrl-C or by its cluster: say what was kept (the run saved its
    checkpoint before the error came up) and exit, with 130 after Ctrl-C as a shell expects."""
    go_on = f"progress saved in {checkpoint}; run the same command to go on"
    try:
        yield
    except KeyboardInterrupt:
        if checkpoint is not None:
            err.print(f"Stopped: {go_on}.")
        else:
            err.print("Stopped; give --checkpoint FILE to be able to go on next time.")
        raise SystemExit(130) from None
    except RatgamesError as exc:
        from ..checkpoint import CheckpointError

        if checkpoint is None or isinstance(exc, CheckpointError):
            raise
        raise click.ClickException(f"{exc}\n{go_on}") from None


COMPILE_HINT_SECONDS = 30.0
"""A local run at least this long on the Python modules suggests the compiled build."""


def compile_hint(backend: str, seconds: float) -> None:
    """After a long local run on the Python modules: say once how to play about twice as fast
    (the build is made on this machine, so not after a run on a cluster)."""
    from .. import compiled

    if backend != "local" or seconds < COMPILE_HINT_SECONDS or compiled.active is not None:
        return
    if compiled.turned_off():
        return
    err.print(
        "Tip: the compiled engine plays these games about twice as fast; build it once with "
        "'ratgames compile build' (docs/performance.md).",
        style="dim",
        highlight=False,
    )


def run_backend(
    name: str, address: str | None, workers: int | None
) -> contextlib.AbstractContextManager[Backend | None]:
    """The backend a run asked for: None for the local process pool, else Ray."""
    if name == "local":
        if address is not None:
            fail("--address is the Ray cluster to use: give it with --backend ray")
        return contextlib.nullcontext()
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is not None and workers is not None:
        fail(
            "--workers sizes the Ray started on this machine; a Ray cluster (--address or "
            "RAY_ADDRESS) uses all its CPUs"
        )
    return ray_backend(address, workers)


@contextlib.contextmanager
def ray_backend(address: str | None, cpus: int | None) -> Iterator[Backend]:
    from ..distributed import RayBackend, import_ray

    import_ray()  # says at once how to install Ray if it is missing
    where = f"the Ray cluster at {address}" if address else "a Ray on this machine"
    err.print(f"Starting {where}..." if not address else f"Connecting to {where}...")
    with RayBackend(address=address, cpus=cpus) as backend:
        err.print(f"Playing on {backend.describe()}", highlight=False)
        yield backend
