"""OpenSpiel's search bots against this project's, at equal time per move, on mirrored deals.

    uv run --extra rl python examples/head_to_head.py caged-rats --seconds 0.1 --games 20 \
        -o single_deal=true
    uv run --extra rl python examples/head_to_head.py rats --seconds 0.05 --games 8

Every pairing of ``ismcts``, ``pimc``, ``openspiel-ismcts`` (OpenSpiel's IS-MCTS) and
``openspiel-mcts`` (OpenSpiel's MCTS over determinized deals) plays ``--games`` games (seats
rotated, each deal played from both sides) with ``seconds`` per move for every bot; the table
gives each pairing's score (the row bot's share of the points) with its 95% interval from a
bootstrap over deals.  The OpenSpiel bots play through the OpenSpiel registration
(:mod:`ratgames.rl.openspiel`); see ``docs/research.md`` for the measured tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import ratgames.rl.bots  # noqa: F401  (registers the OpenSpiel bots)
from ratgames.core.options import resolve_options
from ratgames.core.registry import game_class
from ratgames.tournament import run_tournament


def bots_at(seconds: float) -> list[str]:
    """The four bots with the same time budget per move."""
    return [
        f"ismcts:seconds={seconds}",
        f"pimc:seconds={seconds}",
        f"openspiel-ismcts:seconds={seconds}",
        f"openspiel-mcts:seconds={seconds}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=8, help="games per pairing (even)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--option", action="append", default=[], help="name=value")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    raw = dict(o.split("=", 1) for o in args.option)
    options = resolve_options(game_class(args.game).option_specs, raw)
    bots = bots_at(args.seconds)
    start = time.perf_counter()
    result = run_tournament(
        args.game, bots, args.games, players=args.players, options=options, seed=args.seed,
        workers=1,
    )  # fmt: skip
    took = time.perf_counter() - start
    print(f"| {args.game} ({args.seconds} s a move) | score | 95% interval | games |")
    print("|---|---|---|---|")
    for (a, b), (sa, sb) in result.scores.items():
        lo, hi = result.score_intervals[(a, b)]
        name = f"`{a.split(':')[0]}` vs `{b.split(':')[0]}`"
        print(f"| {name} | {sa / (sa + sb):.0%} | {lo:.0%}-{hi:.0%} | {int(sa + sb)} |")
    print(f"({took:.0f} s)", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            data = {
                "game": args.game,
                "options": options,
                "seconds": args.seconds,
                "scores": {f"{a} vs {b}": v for (a, b), v in result.scores.items()},
                "intervals": {f"{a} vs {b}": v for (a, b), v in result.score_intervals.items()},
            }
            json.dump(data, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
