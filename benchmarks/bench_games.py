"""Random self-play speed of every game on one core: games/s, actions/s, clone() and
observation cost.

Run:  uv run python benchmarks/bench_games.py [--seconds 3] [--game ID ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

import ratgames
from ratgames.core.game import Game, State
from ratgames.core.rng import Rng


def random_playout(state: State, rng: Rng) -> int:
    """Play random legal actions to the end; returns the number of actions."""
    n = 0
    while not state.is_over():
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))] if len(to_act) > 1 else to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
        n += 1
    return n


def self_play(game: Game, seconds: float, *, record: bool) -> tuple[int, int, float]:
    rng = Rng(1)
    games = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=seed)
        state.set_recording(record)
        actions += random_playout(state, rng)
        games += 1
        seed += 1
    return games, actions, time.perf_counter() - start


def mid_game_states(game: Game, count: int = 40) -> list[State]:
    rng = Rng(2)
    out = []
    for seed in range(count):
        state = game.new_state(seed=seed)
        steps = 5 + rng.randbelow(30)
        for _ in range(steps):
            if state.is_over():
                break
            to_act = state.seats_to_act()
            seat = to_act[rng.randbelow(len(to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
        if not state.is_over():
            out.append(state)
    return out


def per_call_us(fn: Any, states: list[State], repeat: int = 200) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def bench(game_id: str, seconds: float) -> dict[str, Any]:
    game = ratgames.get_game(game_id)
    games, actions, secs = self_play(game, seconds, record=False)
    _games_r, actions_r, secs_r = self_play(game, seconds / 2, record=True)
    states = mid_game_states(game) or [game.new_state(seed=1)]
    return {
        "game": game_id,
        "players": game.players,
        "games_per_s": games / secs,
        "actions_per_s": actions / secs,
        "actions_per_s_recording": actions_r / secs_r,
        "actions_per_game": actions / max(1, games),
        "clone_us": per_call_us(lambda s: s.clone(), states),
        "legal_actions_us": per_call_us(lambda s: s.legal_actions(s.seats_to_act()[0]), states),
        "observation_us": per_call_us(lambda s: s.observation(0), states, repeat=20),
        "sample_consistent_us": per_call_us(
            lambda s: s.sample_consistent(s.seats_to_act()[0], Rng(3)), states, repeat=20
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="self-play time per game")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    rows = [bench(g, args.seconds) for g in (args.game or ratgames.game_ids())]
    table = Table(title="Random self-play on one core")
    for col in (
        "game",
        "players",
        "games/s",
        "actions/s",
        "actions/s (recording)",
        "actions/game",
        "clone µs",
        "legal_actions µs",
        "observation µs",
        "sample_consistent µs",
    ):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            r["game"],
            str(r["players"]),
            f"{r['games_per_s']:,.0f}",
            f"{r['actions_per_s']:,.0f}",
            f"{r['actions_per_s_recording']:,.0f}",
            f"{r['actions_per_game']:.0f}",
            f"{r['clone_us']:.2f}",
            f"{r['legal_actions_us']:.2f}",
            f"{r['observation_us']:.1f}",
            f"{r['sample_consistent_us']:.1f}",
        )
    Console().print(table)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
