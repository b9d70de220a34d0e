"""Rats measurements: move generation, search costs, self-play speed, heuristic vs random.

Run:  uv run python benchmarks/bench_rats.py [--games 2000] [--seconds 2] [--skip-strength]

* move generation on 13-card hands (4 players): leads, and follows to a single, a pair and a run
  of three (beats plus the first discard step), in microseconds per ``legal_actions`` call, with
  the number of plays listed; the same on 26-card hands (2 players, 2 jokers).
* ISMCTS costs on mid-game states: ``clone()``, ``sample_consistent()``, ``observation()``.
* random self-play: ``legal_actions`` + ``apply`` with a random choice, actions per second of
  this process's CPU time (so other load on the machine does not count), with and without
  recording, for 2-5 players.
* strength: ``heuristic`` in one seat against ``random`` in the others, the seat rotating, over N
  games for 2, 3 and 4 players: win rate (a shared win counts as a fraction) with its 95%
  Wilson confidence interval, beside the chance rate 1/players.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.bots import make_bot
from ratgames.core.rng import Rng
from ratgames.core.runner import play_game
from ratgames.games.rats.rules import Rats, RatsState


def per_call(fn: Callable[[], Any], seconds: float = 0.3) -> float:
    """Microseconds (of this process's CPU time) per call of ``fn``."""
    n = 0
    start = time.process_time()
    while True:
        for _ in range(50):
            fn()
        n += 50
        elapsed = time.process_time() - start
        if elapsed > seconds:
            return elapsed / n * 1e6


def scripted(players: int, jokers: int, hands: list[list[str]], lead: str) -> RatsState:
    """A deal with the given hands (rest stock) where seat 0 has led ``lead``."""
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    used = {parse_card(c) for h in hands for c in h}
    stock = [game.card_text(c) for c in standard_deck(jokers) if c not in used]
    state = game.new_state(seed=1, deal={"dealer": 0, "hands": hands, "stock": stock})
    assert isinstance(state, RatsState)
    if lead:
        state.apply(0, lead)
    return state


def move_generation() -> None:
    print("move generation (us per legal_actions call, plays listed)")
    rng = Rng(5)
    for size, players, jokers in ((13, 4, 0), (13, 4, 2), (26, 2, 2)):
        full = standard_deck(jokers)
        rng.shuffle(full)
        mine = sorted(full[:size])
        others = [sorted(full[size * (i + 1) : size * (i + 2)]) for i in range(players - 1)]
        game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
        text = [[game.card_text(c) for c in h] for h in [mine, *others]]
        lead_state = scripted(players, jokers, text, "")
        leads = lead_state.legal_actions(0)
        t_lead = per_call(lambda s=lead_state: s.legal_actions(0))
        print(f"  {size}-card hand, {jokers} jokers: {len(leads)} leads in {t_lead:.1f} us")
        for kind in ("single", "pair", "run of 3"):
            chosen = [a for a in leads if _kind_of(a) == kind]
            if not chosen:
                continue
            state = scripted(players, jokers, text, str(chosen[0]))
            follows = state.legal_actions(1)
            t = per_call(lambda s=state: s.legal_actions(1))
            print(f"    follow to a {kind} ({chosen[0]}): {len(follows)} plays in {t:.1f} us")


def _kind_of(action: Any) -> str:
    n = len(action.cards)
    if action.kind == 0:
        return "single"
    if action.kind == 1:
        return {2: "pair", 3: "three", 4: "four"}[n]
    return f"run of {n}"


def mid_game_states(players: int, jokers: int, count: int = 40) -> list[RatsState]:
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    rng = Rng(2)
    out = []
    for seed in range(count):
        state = game.new_state(seed=seed)
        for _ in range(5 + rng.randbelow(60)):
            if state.is_over():
                break
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
        if not state.is_over():
            assert isinstance(state, RatsState)
            out.append(state)
    return out


def search_costs() -> None:
    print("search costs on mid-game states (us per call)")
    for players, jokers in ((4, 0), (2, 2), (5, 2)):
        states = mid_game_states(players, jokers)
        counter = iter(range(1 << 30))

        def pick(states: list[RatsState] = states, it: Any = counter) -> RatsState:
            return states[next(it) % len(states)]

        clone = per_call(lambda: pick().clone())
        sample = per_call(lambda c=counter: pick().sample_consistent(1, Rng(next(c))))
        obs = per_call(lambda: pick().observation(0))
        print(
            f"  {players}p {jokers} jokers: clone {clone:.2f}  sample_consistent {sample:.1f}  "
            f"observation {obs:.1f}"
        )


def self_play(players: int, seconds: float, *, record: bool) -> float:
    game = ratgames.get_game("rats", players=players)
    rng = Rng(1)
    actions = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_state(seed=seed)
        state.set_recording(record)
        seed += 1
        while not state.is_over():
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
            actions += 1
    return actions / (time.process_time() - start)


def strength(players: int, games: int, spec: str) -> tuple[float, float, float, float]:
    game = ratgames.get_game("rats", players=players)
    assert isinstance(game, Rats)
    wins = 0.0
    capped = 0
    for i in range(games):
        seat = i % players
        bots = [
            make_bot(game, spec if s == seat else "random", seed=i * 10 + s) for s in range(players)
        ]
        outcome = play_game(game, bots, seed=1000 + i, record=False).outcome()
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
        capped += outcome.capped
    lo, hi = wilson(wins, games)
    return wins / games, lo, hi, capped / games


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound near 0 and 1, unlike p +/- 1.96 se)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--skip-strength", action="store_true")
    args = parser.parse_args()
    move_generation()
    search_costs()
    print("random self-play (actions/s)")
    for players in (2, 3, 4, 5):
        on = self_play(players, args.seconds, record=True)
        off = self_play(players, args.seconds, record=False)
        print(f"  {players}p: {on:,.0f} recording, {off:,.0f} not recording")
    if not args.skip_strength:
        print(f"{args.bot} vs random, {args.games} games each, seat rotating")
        for players in (2, 3, 4):
            p, lo, hi, capped = strength(players, args.games, args.bot)
            print(
                f"  {players}p: win rate {p:.3f}, 95% CI [{lo:.3f}, {hi:.3f}] (chance "
                f"{1 / players:.3f}), capped {capped:.3f}"
            )


if __name__ == "__main__":
    main()
