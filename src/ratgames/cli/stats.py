"""``ratgames stats``: your statistics from your saved games, as tables (the figures are
:func:`ratgames.stats.record_stats`)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from ..core.registry import game_class, game_ids
from ..stats import Tally, record_stats
from .common import CONTEXT, console, default_record_dir, fail, pct
from .progress import clock_time


def tally_cells(tally: Tally) -> list[str]:
    """A tally's cells: games, wins, win rate and average place.

    >>> t = Tally()
    >>> t.add(1.0, 1)
    >>> t.add(0.0, 2)
    >>> tally_cells(t), tally_cells(Tally())
    (['2', '1', '50.0%', '1.50'], ['0', '0', '-', '-'])
    """
    rate, place = tally.win_rate(), tally.mean_place()
    return [
        str(tally.games),
        f"{tally.wins:g}",
        pct(rate) if rate is not None else "-",
        f"{place:.2f}" if place is not None else "-",
    ]


@click.command("stats", context_settings=CONTEXT)
@click.option(
    "--record-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the records are (default ~/.ratgames/records, or $RATGAMES_HOME/records).",
)
def stats(record_dir: Path | None) -> None:
    """Your statistics from your saved games: games, wins and average places by game, by level
    and by number of players, your longest games, and the games left unfinished.

    Games where one person played against bots count; hot-seat games are counted apart.  A
    game is filed under its level (plain 'ratgames play GAME' is the normal level); one against
    --bots is filed under the level whose bot sat in every bot seat, else under "own bots"."""
    folder = record_dir or default_record_dir()
    if not folder.is_dir():
        fail(f"no records in {folder} yet: play a game first ('ratgames play rat-a-tat-cat')")
    found = record_stats(folder)
    if found.empty():
        fail(f"no games of yours in {folder} yet: play one first ('ratgames play rats')")
    titles = {gid: game_class(gid).title for gid in game_ids()}
    table = Table(title=f"Your games ({folder})")
    for column in ("game", "games", "won", "win rate", "average place", "time played"):
        table.add_column(column, justify="left" if column == "game" else "right")
    table.add_column("longest game", justify="right")
    for gid, tally in sorted(found.by_game.items()):
        best = found.longest[gid]
        unit = game_class(gid).length_unit if gid in titles else "moves"
        long_text = clock_time(best.seconds)
        if best.length:
            long_text += f" ({best.length:g} {unit})"
        played = clock_time(found.played[gid])
        table.add_row(titles.get(gid, gid), *tally_cells(tally), played, long_text)
    if found.by_game:
        console.print(table)
        setups = Table(title="By number of players and level")
        for column in ("game", "players", "level", "games", "won", "win rate", "average place"):
            setups.add_column(column, justify="left" if column in ("game", "level") else "right")
        for (gid, players, level), tally in sorted(found.by_setup.items()):
            setups.add_row(titles.get(gid, gid), str(players), level, *tally_cells(tally))
        console.print(setups)
    if found.hot_seat:
        console.print(f"Hot-seat games (several people at one keyboard): {found.hot_seat}")
    if found.unfinished:
        waiting = ", ".join(f"{titles.get(g, g)} {n}" for g, n in sorted(found.unfinished.items()))
        console.print(
            f"Unfinished: {waiting} ('ratgames play --resume' takes up the last one)",
            highlight=False,
        )
    if found.unreadable:
        console.print(
            f"{found.unreadable} file(s) in {folder} are not readable records", style="dim"
        )
