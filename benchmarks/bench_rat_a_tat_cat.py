"""Rat-a-Tat Cat measurements: self-play speed, clone cost, heuristic vs random, knock table.

Run:  uv run python benchmarks/bench_rat_a_tat_cat.py [--rounds 2000] [--seconds 2]

* speed: random self-play (``legal_actions`` + ``apply`` with a random choice) in actions per
  second of this process's CPU time (so other load on the machine counts less), with and without
  recording, for the default game (elimination) and for long rounds (nobody knocks: a random
  pick of the knock is replaced by the next legal action); ``clone()`` in microseconds of CPU
  time on mid-game states.  The loops are the shared ones of ``bench_games.py``.
* strength: ``heuristic`` against ``random`` over N two-player rounds (``mode=round``), seats
  alternating: the heuristic's win rate with a 95% Wilson confidence interval (a shared win
  counts half) and the mean margin in points (random's sum minus the heuristic's).
* knock table: heuristic self-play (2 players) for several ``knock`` thresholds: mean round score
  and how often the knocker had the lowest sum.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence

import ratgames
from bench_games import actions_per_s, mid_game_states, per_call_us
from ratgames.core.bots import make_bot
from ratgames.core.game import Action, State
from ratgames.core.rng import Rng
from ratgames.core.runner import play_game
from ratgames.games.rat_a_tat_cat.action import KNOCK
from ratgames.sim import wilson_interval


def no_knock(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """A random legal action, but never the knock (the next action is taken instead)."""
    action = legal[rng.randbelow(len(legal))]
    return legal[1] if action is KNOCK else action


def self_play(players: int, seconds: float, *, record: bool, knock: bool) -> float:
    """Random self-play in actions per second of CPU time."""
    options = {} if knock else {"mode": "round", "turn_cap": 400}
    game = ratgames.get_game("rat-a-tat-cat", players=players, options=options)
    return actions_per_s(game, seconds, record=record, policy=None if knock else no_knock)


def clone_us(players: int) -> float:
    game = ratgames.get_game("rat-a-tat-cat", players=players)
    states = mid_game_states(game, spread=20)
    return per_call_us(lambda s: s.clone(), states, repeat=500)


def strength(rounds: int, spec: str = "heuristic") -> tuple[float, float, float, float]:
    """(win rate, ci low, ci high, mean margin) of ``spec`` against random."""
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    score = 0.0
    margins = 0.0
    for i in range(rounds):
        me = i % 2
        bots = [make_bot(game, "random", seed=10_000 + i), make_bot(game, "random", seed=i)]
        bots[me] = make_bot(game, spec, seed=20_000 + i)
        state = play_game(game, bots, seed=i, record=False)
        outcome = state.outcome()
        assert outcome is not None
        if me in outcome.winners:
            score += 1.0 / len(outcome.winners)
        margins += outcome.points[1 - me] - outcome.points[me]
    lo, hi = wilson_interval(score, rounds)
    return score / rounds, lo, hi, margins / rounds


def knock_table(rounds: int, thresholds: list[float]) -> list[tuple[float, float, float, float]]:
    """(threshold, mean round score, knocks per round, knocker's win rate)."""
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    out = []
    for k in thresholds:
        spec = f"heuristic:knock={k:g}"
        total = knocks = won = 0.0
        for i in range(rounds):
            bots = [make_bot(game, spec, seed=i), make_bot(game, spec, seed=50_000 + i)]
            outcome = play_game(game, bots, seed=i, record=False).outcome()
            assert outcome is not None
            total += outcome.details["mean_round_score"]
            knocks += outcome.details["knocks"]
            won += outcome.details["knocker_won"]
        out.append((k, total / rounds, knocks / rounds, won / knocks if knocks else math.nan))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    if not args.skip_speed:
        for players in (2, 4):
            for knock in (True, False):
                rec = self_play(players, args.seconds, record=True, knock=knock)
                norec = self_play(players, args.seconds, record=False, knock=knock)
                label = "default game" if knock else "long rounds, no knocking"
                print(f"{players}p {label}: {rec:,.0f} actions/s recording, {norec:,.0f} without")
            print(f"{players}p clone: {clone_us(players):.2f} us")
    if args.rounds <= 0:
        return
    start = time.perf_counter()
    for spec in ("heuristic", "heuristic:memory=0.6"):
        p, lo, hi, margin = strength(args.rounds, spec)
        print(
            f"{spec} vs random, {args.rounds} two-player rounds: win rate {p:.3f} "
            f"(95% Wilson CI {lo:.3f}-{hi:.3f}), mean margin {margin:+.2f} points"
        )
    print(f"({time.perf_counter() - start:.1f} s)")
    print("knock  mean-round-score  knocks/round  knocker-won")
    for k, score, knocks, rate in knock_table(args.rounds // 2, [5, 10, 15, 20]):
        print(f"{k:5g}  {score:16.2f}  {knocks:12.2f}  {rate:11.3f}")


if __name__ == "__main__":
    main()
