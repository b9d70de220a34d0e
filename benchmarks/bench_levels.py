"""How long a move takes at each difficulty level (``ratgames play --level``), per game.

Run:  uv run python benchmarks/bench_levels.py [--game ID ...] [--level NAME ...]
      [--positions 12] [--json FILE]

The targets: an ``expert`` move within 2 s, a ``normal`` move within 0.3 s, on a 2-core machine.

For each game (2 players, default options) the positions come from heuristic self-play, as in
``bench_search.py``.  At each position a fresh bot of the level's spec makes one move through the
seat's ``SeatView`` (a real-time game's bot answers a reaction instead; its thinking time is
measured, not the delay it asks for).  The table gives the mean, the slowest and the 95th
percentile of the wall-clock time of one move: what a player waits for, including the time spent
sampling the hidden cards.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

import ratgames
from bench_games import mid_game_states
from bench_search import decision_points
from ratgames.core.bots import SeatView, make_bot
from ratgames.levels import LEVEL_NAMES, levels_for

TARGETS = {"normal": 0.3, "expert": 2.0}


def time_level(game_id: str, level: str, spec: str, positions: int) -> dict[str, Any]:
    game = ratgames.get_game(game_id, players=2)
    times: list[float] = []
    if game.real_time:
        points = [(s, s.seats_to_act()[0]) for s in mid_game_states(game)[:positions]]
    else:
        points = decision_points(game, positions)
    for i, (state, seat) in enumerate(points):
        bot = make_bot(game, spec, seed=i + 1)
        bot.new_game(seat)
        view = SeatView(state, seat)
        start = time.perf_counter()
        if game.real_time:
            bot.react(view)
        else:
            bot.act(view)
        times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return {
        "game": game_id,
        "level": level,
        "bot": spec,
        "positions": len(times),
        "mean_s": statistics.fmean(times) if times else 0.0,
        "p95_s": p95,
        "max_s": times[-1] if times else 0.0,
        "target_s": TARGETS.get(level),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--level", action="append", choices=LEVEL_NAMES, help="only these levels")
    parser.add_argument("--positions", type=int, default=12, help="positions timed per level")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    rows = []
    for game_id in args.game or ratgames.game_ids():
        specs = levels_for(game_id)
        for level in args.level or LEVEL_NAMES:
            rows.append(time_level(game_id, level, specs[level], args.positions))
    table = Table(title="Time of one move per level (wall clock, 2 players)")
    for col in ("game", "level", "bot", "mean ms", "p95 ms", "max ms", "target"):
        table.add_column(col, justify="left" if col in ("game", "level", "bot") else "right")
    for r in rows:
        target = r["target_s"]
        ok = target is None or r["max_s"] <= target
        verdict = "" if target is None else f"≤ {target:g} s " + ("ok" if ok else "MISSED")
        table.add_row(
            r["game"],
            r["level"],
            r["bot"],
            f"{r['mean_s'] * 1e3:,.1f}",
            f"{r['p95_s'] * 1e3:,.1f}",
            f"{r['max_s'] * 1e3:,.1f}",
            verdict,
        )
    Console(width=max(120, Console().width)).print(table)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
