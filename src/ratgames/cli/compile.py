"""``ratgames compile``: build, check or remove the compiled build of the engine's hot modules
(see :mod:`ratgames.compiled`)."""

from __future__ import annotations

import click

from .. import compiled


@click.group("compile", context_settings={"help_option_names": ["-h", "--help"]})
def compile_group() -> None:
    """The engine's rules, bots and search compiled to C with mypyc, used while they match the
    sources: random play and search play-outs about twice as fast, the same games move for move.

    \b
    python3 -m uv run ratgames compile build    (once; needs a C compiler)
    python3 -m uv run ratgames compile status
    RATGAMES_COMPILED=off python3 -m uv run ratgames ...        (run without it)
    """


@compile_group.command("build")
def build() -> None:
    """Compile the hot modules of these sources (once; later changes to them need a new build)."""
    try:
        compiled.build()
    except compiled.CompileError as exc:
        raise click.ClickException(str(exc)) from None


@compile_group.command("status")
def status() -> None:
    """Say whether this process runs the compiled build, or why not."""
    click.echo(compiled.status())


@compile_group.command("clean")
def clean() -> None:
    """Remove every compiled build."""
    click.echo(f"removed {compiled.clean()} build(s) from {compiled.cache_root()}")
