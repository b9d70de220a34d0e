"""Caged Rats measurements: random self-play speed, clone time, heuristic against random.

    uv run python benchmarks/bench_caged_rats.py [--deals 4000] [--seconds 3]

Times are CPU time of this process (``time.process_time``: the machine may be shared, and other
load then counts less).  Speed: a loop of ``legal_actions`` + ``apply`` with a random choice over
whole rubbers, in actions per second, with the action log on and off (the loops are the shared
ones of ``bench_games.py``).  Strength: ``heuristic`` against ``random`` over single deals (option
``single_deal``), the heuristic seat alternating between red and black; a deal is won by the
higher score (a tied deal counts half).  The 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse

import ratgames
from bench_games import actions_per_s, mid_game_states, per_call_us
from ratgames.core.bots import make_bot
from ratgames.core.runner import play_game
from ratgames.sim import wilson_interval


def speed(seconds: float, recording: bool) -> float:
    """Random self-play over whole rubbers in actions per second of CPU time."""
    return actions_per_s(ratgames.get_game("caged-rats"), seconds, record=recording)


def clone_us() -> float:
    """CPU microseconds per ``clone()`` of states 60-79 random actions into a rubber."""
    states = mid_game_states(ratgames.get_game("caged-rats"), min_steps=60, spread=20)
    return per_call_us(lambda s: s.clone(), states, repeat=100_000 // len(states))


def strength(deals: int, spec: str = "heuristic") -> None:
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    score = 0.0
    points_h = 0.0
    points_r = 0.0
    for d in range(deals):
        h_seat = d % 2
        bots = [make_bot(game, "random", seed=2 * d + 1)] * 2
        bots[h_seat] = make_bot(game, spec, seed=2 * d)
        state = play_game(game, bots, seed=10_000 + d, record=False)
        outcome = state.outcome()
        assert outcome is not None
        if outcome.winners == (h_seat,):
            score += 1
        elif len(outcome.winners) == 2:
            score += 0.5
        points_h += outcome.points[h_seat]
        points_r += outcome.points[1 - h_seat]
    p = score / deals
    lo, hi = wilson_interval(score, deals)
    print(
        f"{spec} vs random over {deals} deals: win rate {p:.3f} "
        f"(95% Wilson CI {lo:.3f}-{hi:.3f}); "
        f"points per deal {points_h / deals:.1f} "
        f"vs {points_r / deals:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--deals", type=int, default=4000, help="deals for the strength test (0: skip it)"
    )
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    print(f"random self-play, recording on:  {speed(args.seconds, True):,.0f} actions/s")
    print(f"random self-play, recording off: {speed(args.seconds, False):,.0f} actions/s")
    print(f"clone: {clone_us():.2f} us")
    if args.deals > 0:
        strength(args.deals, args.bot)


if __name__ == "__main__":
    main()
