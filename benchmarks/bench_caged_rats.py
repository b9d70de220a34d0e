"""Caged Rats measurements: random self-play speed, clone time, heuristic against random.

    uv run python benchmarks/bench_caged_rats.py [--deals 4000] [--seconds 3]

Times are CPU time of this process (the machine may be shared).
Speed: a loop of ``legal_actions`` + ``apply`` with a random choice over whole rubbers, with the
action log on and off.  Strength: ``heuristic`` against ``random`` over single deals (option
``single_deal``), the heuristic seat alternating between red and black; a deal is won by the
higher score (a tied deal counts half).  The 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse
import math
import time

import ratgames
from ratgames.core.bots import make_bot
from ratgames.core.rng import Rng
from ratgames.core.runner import play_game


def speed(seconds: float, recording: bool) -> float:
    game = ratgames.get_game("caged-rats")
    rng = Rng(1)
    actions = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        state = game.new_state(seed=seed)
        state.set_recording(recording)
        while not state.is_over():
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
            actions += 1
    return actions / (time.process_time() - start)


def clone_us() -> float:
    game = ratgames.get_game("caged-rats")
    state = game.new_state(seed=5)
    rng = Rng(2)
    for _ in range(60):
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    n = 100_000
    start = time.process_time()
    for _ in range(n):
        state.clone()
    return (time.process_time() - start) / n * 1e6


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
    # Wilson score interval (stays inside 0-1 for win rates near 1).
    z = 1.96
    centre = (p + z * z / (2 * deals)) / (1 + z * z / deals)
    half = z * math.sqrt(p * (1 - p) / deals + z * z / (4 * deals * deals)) / (1 + z * z / deals)
    print(
        f"{spec} vs random over {deals} deals: win rate {p:.3f} "
        f"(95% Wilson CI {centre - half:.3f}-{centre + half:.3f}); "
        f"points per deal {points_h / deals:.1f} "
        f"vs {points_r / deals:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args()
    print(f"random self-play, recording on:  {speed(args.seconds, True):,.0f} actions/s")
    print(f"random self-play, recording off: {speed(args.seconds, False):,.0f} actions/s")
    print(f"clone: {clone_us():.2f} us")
    strength(args.deals, args.bot)


if __name__ == "__main__":
    main()
