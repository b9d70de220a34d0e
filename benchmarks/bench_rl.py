"""Steps per second of random play through each layer, per game, and each layer's overhead.

    uv run --extra rl python benchmarks/bench_rl.py [--seconds 2]

* engine: ``state.apply`` of a random legal action (the engine alone);
* encoded: the same with the seat's observation vector and legal-action mask built at every
  step (what every environment adds);
* pettingzoo: the AEC environment (``env.last()`` then ``env.step`` of a random legal id);
* openspiel: the OpenSpiel state (``apply_action`` of a random legal id or chance outcome;
  chance steps count as steps).

Egyptian Ratscrew's rows count ticks for the environments (every seat chooses at a tick) and
actions for the engine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import ratgames
from ratgames.rl.encoding import encoder_for
from ratgames.rl.openspiel import load
from ratgames.rl.pettingzoo import env as pz_env

GAMES = (
    ("caged-rats", 2, {}),
    ("rats", 3, {}),
    ("rat-a-tat-cat", 4, {}),
    ("egyptian-ratscrew", 2, {}),
)


def _rate(run_one: Callable[[int], int], seconds: float) -> float:
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += run_one(seed)
        seed += 1
    return steps / (time.perf_counter() - start)


def engine(
    game_id: str, players: int, options: dict[str, object], encode: bool
) -> Callable[[int], int]:
    game = ratgames.get_game(game_id, players=players, options=options)
    enc = encoder_for(game)

    def one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        state.set_recording(False)
        n = 0
        while not state.is_over() and n < 3000:
            seats = state.seats_to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions(seat)
            if encode:
                enc.observe(state, seat)
                enc.mask(legal)
            state.apply(seat, rng.choice(legal))
            n += 1
        return n

    return one


def pettingzoo(game_id: str, players: int, options: dict[str, object]) -> Callable[[int], int]:
    env = pz_env(game_id, players=players, options=options)

    def one(seed: int) -> int:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        n = 0
        for _ in env.agent_iter(max_iter=3000 * players):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n // players if env.game.real_time else n

    return one


def openspiel(game_id: str, players: int, options: dict[str, object]) -> Callable[[int], int]:
    game = load(game_id, players, **options)

    def one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal() and n < 6000:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return one


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print("| game | engine | encoded | pettingzoo | openspiel | steps/s |")
    print("|---|---|---|---|---|---|")
    for game_id, players, options in GAMES:
        rates = [
            _rate(engine(game_id, players, options, False), args.seconds),
            _rate(engine(game_id, players, options, True), args.seconds),
            _rate(pettingzoo(game_id, players, options), args.seconds),
            _rate(openspiel(game_id, players, options), args.seconds),
        ]
        cells = [f"{r:,.0f}" for r in rates]
        slow = [f"{rates[0] / r:.1f}x" for r in rates[1:]]
        print(f"| {game_id} ({players}p) | {' | '.join(cells)} | overhead {', '.join(slow)} |")


if __name__ == "__main__":
    main()
