"""Random self-play speed of every game on one core: games/s, actions/s, clone() and
observation cost.

Run:  uv run python benchmarks/bench_games.py [--seconds 3] [--game ID ...] [--players N ...]
      [--json FILE]

All times are CPU time of this process (``time.process_time``), so other load on a shared
machine distorts the figures less than wall-clock time would.  ``--players`` (repeatable)
measures those table sizes instead of each game's default; a game that cannot seat N players is
skipped for N.

The helpers here (``random_playout`` with an optional ``policy`` hook, ``self_play``,
``actions_per_s``, ``mid_game_states``, ``per_call_us``) are shared by the per-game scripts in
this folder, which import them with ``from bench_games import ...`` (a script's own folder is on
``sys.path`` when it is run as ``python benchmarks/x.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

import ratgames
from ratgames.core.errors import OptionError
from ratgames.core.game import Action, Game, State
from ratgames.core.rng import Rng

Policy = Callable[[State, int, Sequence[Action], Rng], Action]
"""How a playout picks an action: ``policy(state, seat, legal, rng)`` returns one of ``legal``."""


def random_action(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """The default playout policy: a uniformly random legal action."""
    return legal[rng.randbelow(len(legal))]


def random_playout(state: State, rng: Rng, policy: Policy | None = None) -> int:
    """Play to the end, a random seat among those who may act choosing by ``policy`` (a random
    legal action if None); returns the number of actions."""
    choose = policy or random_action
    n = 0
    while not state.is_over():
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))] if len(to_act) > 1 else to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, choose(state, seat, legal, rng))
        n += 1
    return n


def self_play(
    game: Game,
    seconds: float,
    *,
    record: bool,
    policy: Policy | None = None,
    first_seed: int = 0,
) -> tuple[int, int, float]:
    """Whole games of :func:`random_playout` (seeds ``first_seed``, +1, ...) for ``seconds`` of
    CPU time: (games, actions, CPU seconds used)."""
    rng = Rng(1 + first_seed)
    games = actions = 0
    start = time.process_time()
    seed = first_seed
    while time.process_time() - start < seconds:
        state = game.new_state(seed=seed)
        state.set_recording(record)
        actions += random_playout(state, rng, policy)
        games += 1
        seed += 1
    return games, actions, time.process_time() - start


def actions_per_s(
    game: Game, seconds: float, *, record: bool, policy: Policy | None = None
) -> float:
    """Random self-play speed in actions per second of CPU time."""
    _games, actions, secs = self_play(game, seconds, record=record, policy=policy)
    return actions / secs


def mid_game_states(
    game: Game, count: int = 40, *, min_steps: int = 5, spread: int = 30
) -> list[State]:
    """Up to ``count`` states reached by ``min_steps`` + random(``spread``) random actions from
    seeds 0, 1, ...; those already over are left out."""
    rng = Rng(2)
    out = []
    for seed in range(count):
        state = game.new_state(seed=seed)
        steps = min_steps + rng.randbelow(spread)
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


def per_call_us(
    fn: Callable[[State], Any],
    states: Sequence[State],
    repeat: int = 200,
    *,
    seconds: float | None = None,
) -> float:
    """Microseconds of CPU time per call of ``fn(state)``: ``repeat`` passes over ``states``, or
    with ``seconds``, passes (in batches of 50 or more calls) until that much CPU time is used."""
    if seconds is None:
        start = time.process_time()
        for _ in range(repeat):
            for s in states:
                fn(s)
        return (time.process_time() - start) / (repeat * len(states)) * 1e6
    batch = max(1, -(-50 // len(states)))  # passes per clock reading
    calls = 0
    start = time.process_time()
    while True:
        for _ in range(batch):
            for s in states:
                fn(s)
        calls += batch * len(states)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return elapsed / calls * 1e6


def bench(game_id: str, seconds: float, players: int | None = None) -> dict[str, Any]:
    game = ratgames.get_game(game_id, players=players)
    # Warm up first on other deals (a long simulation runs with its lookup tables filled).
    self_play(game, seconds / 4, record=False, first_seed=1 << 40)
    games, actions, secs = self_play(game, seconds, record=False)
    rec_per_s = actions_per_s(game, seconds / 2, record=True)
    states = mid_game_states(game) or [game.new_state(seed=1)]
    return {
        "game": game_id,
        "players": game.players,
        "games_per_s": games / secs,
        "actions_per_s": actions / secs,
        "actions_per_s_recording": rec_per_s,
        "actions_per_game": actions / max(1, games),
        "clone_us": per_call_us(lambda s: s.clone(), states),
        "legal_actions_us": per_call_us(lambda s: s.legal_actions(s.seats_to_act()[0]), states),
        "observation_us": per_call_us(lambda s: s.observation(0), states, repeat=20),
        "sample_consistent_us": per_call_us(
            lambda s: s.sample_consistent(s.seats_to_act()[0], Rng(3)), states, repeat=20
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="self-play CPU time per game")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument(
        "--players",
        type=int,
        action="append",
        metavar="N",
        help="table sizes to measure (repeatable; default: each game's default)",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    rows = []
    for g in args.game or ratgames.game_ids():
        for players in args.players or [None]:
            try:
                rows.append(bench(g, args.seconds, players))
            except OptionError as exc:
                print(f"skipped {g} at {players} players: {exc}", file=sys.stderr)
    table = Table(title="Random self-play on one core (CPU time)")
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
