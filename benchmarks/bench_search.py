"""Search speed of the ``ismcts`` bot in every turn-based game: iterations per second and the
cost of one move, with random and with heuristic rollouts.

Run:  uv run python benchmarks/bench_search.py [--game ID ...] [--rollout random|heuristic]
      [--iterations 200] [--positions 20] [--json FILE]

For each registered game that is not real-time, at 2 players with its default options:

* decision points: heuristic self-play (``make_bot(game, "heuristic")`` in every seat, deals from
  seeds 0, 1, ...) gives one position per game, drawn from the middle half of the decisions that
  had at least 2 legal actions (with a single legal action the bot does not search), until
  ``--positions`` positions are collected.
* timing: at each position a fresh ``ismcts:iterations=N,rollout=R`` bot (seed 1) makes one move
  through the seat's ``SeatView``, for R in ``random`` and ``heuristic`` (or only the one
  ``--rollout`` names).  The table gives the
  iterations run (the bot's ``last_iterations``) per second, and the mean milliseconds of one
  N-iteration move, both over all the positions.

Times are CPU time of this process (``time.process_time``), so other load on a shared machine
distorts them less than wall-clock time would; building the bots is not timed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

import ratgames
from bench_games import engine
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.game import Game, State
from ratgames.core.rng import Rng

ROLLOUTS = ("random", "heuristic")
MAX_ACTIONS = 100_000  # a safety stop for one self-play game


def turn_based_games() -> list[str]:
    """The ids of the registered games that are not real-time."""
    return [g for g in ratgames.game_ids() if not type(ratgames.get_game(g, players=2)).real_time]


def decision_points(game: Game, count: int) -> list[tuple[State, int]]:
    """Up to ``count`` (state, seat to act) pairs from heuristic self-play, one per game, each
    with at least 2 legal actions and from the middle half of its game's decisions."""
    rng = Rng(7)
    out: list[tuple[State, int]] = []
    seed = 0
    while len(out) < count and seed < 5 * count:
        state = game.new_state(seed=seed)
        state.set_recording(False)
        bots = [make_bot(game, "heuristic", seed=1000 * seed + s) for s in range(game.players)]
        for s, bot in enumerate(bots):
            bot.new_game(s)
        points: list[tuple[State, int]] = []
        steps = 0
        while not state.is_over() and steps < MAX_ACTIONS:
            seat = state.seats_to_act()[0]
            if len(state.legal_actions(seat)) >= 2:
                points.append((state.clone(), seat))
            state.apply(seat, bots[seat].act(SeatView(state, seat)))
            steps += 1
        seed += 1
        middle = points[len(points) // 4 : (3 * len(points)) // 4] or points
        if middle:
            out.append(middle[rng.randbelow(len(middle))])
    return out


def time_search(
    game: Game, points: list[tuple[State, int]], iterations: int, rollout: str
) -> dict[str, Any]:
    """One ``ismcts`` move at each point: iterations per CPU second and CPU ms per move."""
    spec = f"ismcts:iterations={iterations},rollout={rollout}"
    total_iterations = 0
    cpu = 0.0
    for state, seat in points:
        bot = make_bot(game, spec, seed=1)
        bot.new_game(seat)
        view = SeatView(state.clone(), seat)
        start = time.process_time()
        bot.act(view)
        cpu += time.process_time() - start
        total_iterations += getattr(bot, "last_iterations", 0)
    moves = max(1, len(points))
    return {
        "game": game.id,
        "players": game.players,
        "rollout": rollout,
        "positions": len(points),
        "iterations": total_iterations,
        "cpu_seconds": cpu,
        "iterations_per_s": total_iterations / cpu if cpu > 0 else 0.0,
        "ms_per_move": cpu / moves * 1e3,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument(
        "--rollout", choices=ROLLOUTS, help="only this kind of play-out (default: both)"
    )
    parser.add_argument(
        "--iterations", type=int, default=200, help="search iterations per move (default 200)"
    )
    parser.add_argument(
        "--positions", type=int, default=20, help="decision points per game (default 20)"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.iterations < 1 or args.positions < 1:
        parser.error("--iterations and --positions must be at least 1")
    game_ids = args.game or turn_based_games()
    unknown = [g for g in game_ids if g not in ratgames.game_ids()]
    if unknown:
        parser.error(
            f"unknown game {unknown[0]!r}; the games are: {', '.join(ratgames.game_ids())}"
        )
    rollouts = (args.rollout,) if args.rollout else ROLLOUTS
    rows = []
    for game_id in game_ids:
        game = ratgames.get_game(game_id, players=2)
        if game.real_time:
            print(f"skipped {game_id}: a real-time game (no turn-based search)", file=sys.stderr)
            continue
        points = decision_points(game, args.positions)
        if not points:
            print(f"skipped {game_id}: no decision with 2 or more legal actions", file=sys.stderr)
            continue
        rows.extend(time_search(game, points, args.iterations, r) for r in rollouts)
    if not rows:
        return
    table = Table(
        title="ISMCTS search speed, 2 players (CPU time)",
        caption=f"{args.iterations} iterations per move; positions per game: "
        + ", ".join(f"{r['game']} {r['positions']}" for r in rows[:: len(rollouts)]),
    )
    table.add_column("game")
    table.add_column("rollout")
    table.add_column("iterations/s", justify="right")
    table.add_column(f"ms per {args.iterations}-iteration move", justify="right")
    for r in rows:
        table.add_row(
            r["game"], r["rollout"], f"{r['iterations_per_s']:,.0f}", f"{r['ms_per_move']:,.1f}"
        )
    Console().print(table)
    Console().print(f"engine: {engine()}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
