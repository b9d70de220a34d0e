"""Random self-play speed of every game on one core: games/s, actions/s, clone() and
observation cost, and (with ``--field``) other game engines' random play measured in the same run.

Run:  python3 -m uv run python benchmarks/bench_games.py [--seconds 3] [--game ID ...]
      [--players N ...] [--field] [--json FILE]
      python3 -m uv run --with rlcard python benchmarks/bench_games.py --field  (RLCard too)

All times are CPU time of this process (``time.process_time``), so other load on a shared
machine distorts the figures less than wall-clock time would.  ``--players`` (repeatable)
measures those table sizes instead of each game's default; a game that cannot seat N players is
skipped for N.

``actions/s`` is random self-play through the public API: ``seats_to_act``, ``legal_actions``
and the checked ``apply`` for every action, no record kept.  ``trusted`` plays the same games on
the fast path of search and simulation (``apply_trusted``, no record).

``--field`` measures, with the same kind of loop (a uniformly random legal action each step,
CPU time of this process), OpenSpiel's card games implemented in C++ and stepped from Python
through ``pyspiel``, OpenSpiel's games written in Python, and RLCard's environments (if RLCard is
installed; it is not a dependency of ratgames).  Their actions/s count the players' actions;
OpenSpiel's chance steps (each card dealt is one) are played in the same loop, their time counted,
and shown apart.

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


def random_playout(
    state: State, rng: Rng, policy: Policy | None = None, *, trusted: bool = False
) -> int:
    """Play to the end, a random seat among those who may act choosing by ``policy`` (a random
    legal action if None); returns the number of actions.  ``trusted`` applies them with
    ``apply_trusted`` instead of the checked ``apply``."""
    apply = state.apply_trusted if trusted else state.apply
    n = 0
    if policy is None:
        while not state.is_over():
            to_act = state.seats_to_act()
            seat = to_act[rng.randbelow(len(to_act))] if len(to_act) > 1 else to_act[0]
            legal = state.legal_actions(seat)
            apply(seat, legal[rng.randbelow(len(legal))])
            n += 1
        return n
    while not state.is_over():
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))] if len(to_act) > 1 else to_act[0]
        legal = state.legal_actions(seat)
        apply(seat, policy(state, seat, legal, rng))
        n += 1
    return n


def self_play(
    game: Game,
    seconds: float,
    *,
    record: bool,
    policy: Policy | None = None,
    first_seed: int = 0,
    trusted: bool = False,
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
        actions += random_playout(state, rng, policy, trusted=trusted)
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
    _g, trusted_actions, trusted_secs = self_play(game, seconds / 2, record=False, trusted=True)
    states = mid_game_states(game) or [game.new_state(seed=1)]
    return {
        "game": game_id,
        "players": game.players,
        "games_per_s": games / secs,
        "actions_per_s": actions / secs,
        "actions_per_s_recording": rec_per_s,
        "actions_per_s_trusted": trusted_actions / trusted_secs,
        "actions_per_game": actions / max(1, games),
        "clone_us": per_call_us(lambda s: s.clone(), states),
        "legal_actions_us": per_call_us(lambda s: s.legal_actions(s.seats_to_act()[0]), states),
        "observation_us": per_call_us(lambda s: s.observation(0), states, repeat=20),
        "sample_consistent_us": per_call_us(
            lambda s: s.sample_consistent(s.seats_to_act()[0], Rng(3)), states, repeat=20
        ),
    }


GOAL = 300_000
"""Random actions per second per core through the public API that every game should reach."""

OPENSPIEL_CPP = ("hearts", "spades", "euchre", "crazy_eights", "gin_rummy")
"""OpenSpiel card games implemented in C++, stepped from Python through ``pyspiel``."""
OPENSPIEL_PYTHON = ("python_block_dominoes", "python_liars_poker", "python_kuhn_poker")
"""OpenSpiel games implemented in Python (registered by ``open_spiel.python.games``)."""
RLCARD = ("uno", "leduc-holdem", "limit-holdem", "gin-rummy", "doudizhu")
"""RLCard environments."""


def openspiel_rate(name: str, seconds: float) -> dict[str, Any]:
    """Random play of an OpenSpiel game: player actions and chance steps per CPU second.

    A chance step draws its outcome from the node's distribution with the same generator; a
    player picks a uniformly random legal action."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = Rng(1)
    actions = chance = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                x = rng.random()
                total = 0.0
                outcomes = state.chance_outcomes()
                pick = outcomes[-1][0]
                for action, p in outcomes:
                    total += p
                    if x < total:
                        pick = action
                        break
                state.apply_action(pick)
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randbelow(len(legal))])
                actions += 1
        games += 1
    secs = time.process_time() - start
    return {
        "library": f"OpenSpiel {getattr(pyspiel, '__version__', '')}".strip(),
        "game": name,
        "implementation": "Python" if name.startswith("python_") else "C++ (pyspiel)",
        "actions_per_s": actions / secs,
        "chance_per_s": chance / secs,
        "actions_per_game": actions / max(1, games),
    }


def rlcard_rate(name: str, seconds: float) -> dict[str, Any]:
    """Random play of an RLCard environment: steps (player actions) per CPU second."""
    import rlcard

    env = rlcard.make(name, config={"seed": 1})
    rng = Rng(1)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[rng.randbelow(len(legal))])
            actions += 1
        games += 1
    secs = time.process_time() - start
    return {
        "library": f"RLCard {rlcard.__version__}",
        "game": name,
        "implementation": "Python",
        "actions_per_s": actions / secs,
        "chance_per_s": None,
        "actions_per_game": actions / max(1, games),
    }


def field(seconds: float) -> tuple[list[dict[str, Any]], list[str]]:
    """The other engines' rates, and notes on those that could not be measured."""
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    try:
        import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)
        import pyspiel
    except ImportError:
        notes.append("OpenSpiel (pyspiel) is not installed: python3 -m uv sync installs it.")
    else:
        names = set(pyspiel.registered_names())
        for name in (*OPENSPIEL_CPP, *OPENSPIEL_PYTHON):
            if name in names:
                rows.append(openspiel_rate(name, seconds))
            else:
                notes.append(f"OpenSpiel has no game {name!r} in this version.")
    try:
        import rlcard  # noqa: F401
    except ImportError:
        notes.append(
            "RLCard is not installed (it is no dependency of ratgames): run "
            "python3 -m uv run --with rlcard python benchmarks/bench_games.py --field"
        )
    else:
        for name in RLCARD:
            rows.append(rlcard_rate(name, seconds))
    return rows, notes


def engine() -> str:
    """Which build of the engine this process runs (the compiled one, or why not)."""
    try:
        from ratgames import compiled
    except ImportError:  # an engine from before the compiled build
        return "Python modules"
    return compiled.status()


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
    parser.add_argument(
        "--field",
        action="store_true",
        help="also measure OpenSpiel's and RLCard's random play in the same run",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    unknown = [g for g in args.game or () if g not in ratgames.game_ids()]
    if unknown:
        parser.error(
            f"unknown game {unknown[0]!r}; the games are: {', '.join(ratgames.game_ids())}"
        )
    rows = []
    for g in args.game or ratgames.game_ids():
        for players in args.players or [None]:
            try:
                rows.append(bench(g, args.seconds, players))
            except OptionError as exc:
                print(f"skipped {g} at {players} players: {exc}", file=sys.stderr)
    table = Table(
        title="Random self-play on one core (CPU time)",
        caption=f"actions/s: public API (legal_actions and the checked apply), goal {GOAL:,}; "
        "trusted: apply_trusted; recording: the checked apply keeping the record",
    )
    for col in ("game", "players", "games/s", "actions/s", "trusted", "recording", "per game"):
        table.add_column(col, justify="right")
    costs = Table(title="Cost of one call, µs (CPU time, mid-game positions)")
    for col in ("game", "players", "clone", "legal_actions", "observation", "sample_consistent"):
        costs.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            r["game"],
            str(r["players"]),
            f"{r['games_per_s']:,.0f}",
            f"{r['actions_per_s']:,.0f}" + (" ✓" if r["actions_per_s"] >= GOAL else " ✗"),
            f"{r['actions_per_s_trusted']:,.0f}",
            f"{r['actions_per_s_recording']:,.0f}",
            f"{r['actions_per_game']:.0f}",
        )
        costs.add_row(
            r["game"],
            str(r["players"]),
            f"{r['clone_us']:.2f}",
            f"{r['legal_actions_us']:.2f}",
            f"{r['observation_us']:.1f}",
            f"{r['sample_consistent_us']:.1f}",
        )
    console = Console()
    console.print(table)
    console.print(costs)
    console.print(f"engine: {engine()}")
    others: list[dict[str, Any]] = []
    if args.field:
        others, notes = field(args.seconds)
        ftable = Table(
            title="The field: random play on one core, same run (CPU time)",
            caption="actions/s counts players' actions; OpenSpiel's chance steps (cards dealt) "
            "are played in the same loop and their time is counted",
        )
        for col in ("library", "game", "written in"):
            ftable.add_column(col, no_wrap=True)
        for col in ("actions/s", "chance steps/s"):
            ftable.add_column(col, justify="right")
        for r in others:
            ftable.add_row(
                r["library"],
                r["game"],
                r["implementation"],
                f"{r['actions_per_s']:,.0f}",
                "" if r["chance_per_s"] is None else f"{r['chance_per_s']:,.0f}",
            )
        console.print(ftable)
        for note in notes:
            console.print(note)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {"engine": engine(), "ratgames": rows, "field": others} if args.field else rows,
                fh,
                indent=1,
            )


if __name__ == "__main__":
    main()
