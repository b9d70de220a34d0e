"""``ratgames games``, ``rules`` and ``bots``: what there is to play, how, and against whom."""

from __future__ import annotations

import click
from rich.markdown import Markdown
from rich.table import Table

from ..core.bots import describe_bots
from ..core.registry import game_class, game_ids, get_game
from ..lineups import bot_example, show_value
from .common import CONTEXT, console, game_argument


@click.command("games", context_settings=CONTEXT)
def games() -> None:
    """List the games with their player counts and options."""
    table = Table(title="ratgames: the games", show_lines=True)
    table.add_column("id", style="bold cyan", no_wrap=True)
    table.add_column("game")
    table.add_column("players", justify="center")
    table.add_column("options (default)")
    for gid in game_ids():
        cls = game_class(gid)
        opts = ", ".join(f"{o.name}={show_value(o.default)}" for o in cls.option_specs) or "-"
        title = f"{cls.title}\n[dim]{cls.summary}[/dim]"
        if cls.real_time:
            title += "\n[yellow]real time[/yellow]"
        low, high = cls.min_players, cls.max_players
        table.add_row(gid, title, str(low) if low == high else f"{low}-{high}", opts)
    console.print(table)
    console.print("Rules: [bold]ratgames rules GAME[/bold]   Bots: [bold]ratgames bots GAME[/bold]")


@click.command("rules", context_settings=CONTEXT)
@game_argument()
@click.option(
    "--notation",
    is_flag=True,
    help="Also show how programs and records write actions, cards and deals.",
)
def rules(game: str, notation: bool) -> None:
    """Show a game's rules, with every option and its default.

    \b
    Examples:
      ratgames rules rats
      ratgames rules rat-a-tat-cat --notation     with the notation for bots and records
    """
    from ..tui.base import notation_rules, player_rules

    g = get_game(game)
    console.print(Markdown(player_rules(g.rules())))
    table = Table(title=f"Options of {g.title}")
    table.add_column("option", style="bold cyan")
    table.add_column("default")
    table.add_column("allowed")
    table.add_column("meaning")
    for o in g.option_specs:
        table.add_row(o.name, show_value(o.default), o.describe_allowed(), o.help)
    console.print(table)
    console.print("Set options with [bold]--option name=value[/bold] (or -o name=value).")
    written = notation_rules(g.rules())
    if notation and written:
        console.print(Markdown(written))
    elif written:
        console.print(f"Notation for bots and records: [bold]ratgames rules {g.id} --notation")


@click.command("bots", context_settings=CONTEXT)
@game_argument()
def bots(game: str) -> None:
    """List the bots that play a game, with their parameters."""
    get_game(game)
    table = Table(title=f"Bots for {game}")
    table.add_column("bot", style="bold cyan")
    table.add_column("what it does")
    table.add_column("parameters (default)")
    for name, summary, params in describe_bots(game):
        ps = "\n".join(f"{p.name}={show_value(p.default)}: {p.help}" for p in params) or "-"
        table.add_row(name, summary, ps)
    console.print(table)
    console.print(
        f"Use as NAME or NAME:param=value,param=value, e.g. --bots {bot_example(game)}",
        highlight=False,
    )
    from ..levels import levels_for

    levels = ", ".join(f"{level} = {spec}" for level, spec in levels_for(game).items())
    console.print(f"Levels for 'ratgames play --level': {levels}", highlight=False)
