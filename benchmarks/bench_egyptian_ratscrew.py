"""Egyptian Ratscrew measurements: engine speed, bot strength, reaction speed, game lengths.

Run:  uv run python benchmarks/bench_egyptian_ratscrew.py [--games 1000] [--seconds 2]

* engine: ``clone()``, ``observation()``, ``legal_actions()``, ``sample_consistent()`` on a
  mid-game state (microseconds of CPU time).
* random self-play: a loop of ``seats_to_act`` + ``legal_actions`` + ``apply`` with random
  choices (a random seat among those who may act, then a random action), actions per second of
  this process's CPU time (so other load on the machine counts less), with and without
  recording, for 2 and 4 players.  The loops are the shared ones of ``bench_games.py``.
* real-time simulation (the core runner's simulated clock): games per second of CPU time.
* strength: ``heuristic`` (level normal) against ``random``, 2 players, seats alternating: win
  rate with a 95% Wilson interval.
* reaction speed: ``heuristic:reaction_ms=X`` (the rest of the normal profile) against a
  ``heuristic`` at level normal (400 ms), 2 players, seats alternating, for X = 150, 250, 400,
  600: win rate with a 95% interval.
* game length (cards played): mean, median and 95th percentile for 2 and 4 players with doubles
  and sandwich (the defaults), all seats ``heuristic`` at level normal.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence

import ratgames
from bench_games import actions_per_s, per_call_us
from ratgames.core.bots import make_bot
from ratgames.core.rng import Rng
from ratgames.core.runner import play_game
from ratgames.games.egyptian_ratscrew.rules import RatscrewState
from ratgames.sim import wilson_interval

GID = "egyptian-ratscrew"


def midgame(players: int, seed: int = 3) -> RatscrewState:
    game = ratgames.get_game(GID, players=players)
    state = game.new_state(seed=seed)
    assert isinstance(state, RatscrewState)
    # Play and collect only, 60 cards in: known segments, a pile, perhaps a challenge.
    while state.played < 60 and not state.is_over():
        seat = state.turn if state.phase == 0 else state.collector
        state.apply(seat, "play" if state.phase == 0 else "collect")
    return state


def engine_costs() -> None:
    print("engine costs (us per call), mid-game")
    for players in (2, 4):
        state = midgame(players)
        clone = per_call_us(lambda s: s.clone(), [state], seconds=0.3)
        obs = per_call_us(lambda s: s.observation(0), [state], seconds=0.3)
        legal = per_call_us(lambda s: s.legal_actions(0), [state], seconds=0.3)
        rng = Rng(1)
        sample = per_call_us(lambda s, r=rng: s.sample_consistent(0, r), [state], seconds=0.3)
        print(
            f"  {players} players: clone {clone:.2f}  observation {obs:.1f}  "
            f"legal_actions {legal:.2f}  sample_consistent {sample:.1f}"
        )


def random_selfplay(players: int, seconds: float, record: bool) -> float:
    """Random self-play in actions per second of CPU time."""
    return actions_per_s(ratgames.get_game(GID, players=players), seconds, record=record)


def duel(
    players: int, first: str, other: str, games: int, seed: int = 0
) -> tuple[float, list[float], float]:
    """``first`` in one seat (rotating) against ``other`` in the rest: win rate of ``first``,
    lengths in cards played, games per second of CPU time."""
    game = ratgames.get_game(GID, players=players)
    wins = 0.0
    lengths: list[float] = []
    start = time.process_time()
    for i in range(games):
        hero = i % players
        bots = [
            make_bot(game, first if s == hero else other, seed=seed + 1000 * i + s)
            for s in range(players)
        ]
        state = play_game(game, bots, seed=seed + i, record=False)
        out = state.outcome()
        assert out is not None
        if hero in out.winners:
            wins += 1.0 / len(out.winners)
        lengths.append(float(out.details["length"]))
    return wins / games, lengths, games / (time.process_time() - start)


def length_stats(lengths: Sequence[float]) -> str:
    data = sorted(lengths)
    p95 = data[min(len(data) - 1, math.ceil(0.95 * len(data)) - 1)]
    return (
        f"mean {statistics.fmean(data):.1f}  median {statistics.median(data):.1f}  "
        f"p95 {p95:.0f}  max {data[-1]:.0f}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    engine_costs()
    print("random self-play (actions/s)")
    for players in (2, 4):
        on = random_selfplay(players, args.seconds, True)
        off = random_selfplay(players, args.seconds, False)
        print(f"  {players} players: recording {on:,.0f}  not recording {off:,.0f}")
    n = args.games
    rate, _, gps = duel(2, "heuristic", "random", n)
    lo, hi = wilson_interval(rate * n, n)
    print(f"heuristic vs random, 2 players, {n} games: {rate:.3f} [{lo:.3f}, {hi:.3f}]")
    print(f"  ({gps:.0f} simulated games/s)")
    print(f"reaction speed against heuristic (normal, 400 ms), 2 players, {n} games each")
    print("  reaction_ms  win rate  95% CI")
    for ms in (150, 250, 400, 600):
        rate, _, _ = duel(2, f"heuristic:reaction_ms={ms}", "heuristic", n, seed=ms)
        lo, hi = wilson_interval(rate * n, n)
        print(f"  {ms:>11}  {rate:8.3f}  [{lo:.3f}, {hi:.3f}]")
    print("game length in cards played, all heuristic (normal), doubles + sandwich")
    for players in (2, 4):
        _, lengths, gps = duel(players, "heuristic", "heuristic", n, seed=77)
        print(f"  {players} players: {length_stats(lengths)}  ({gps:.0f} games/s)")


if __name__ == "__main__":
    main()
