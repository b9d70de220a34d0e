"""Rats measurements: move generation, search costs, self-play speed, heuristic vs random.

Run:  uv run python benchmarks/bench_rats.py [--games 2000] [--seconds 2] [--skip-strength]

* move generation on 13-card hands (4 players): leads, and follows to a single, a pair and a run
  of three (beats plus the first discard step), in microseconds per ``legal_actions`` call, with
  the number of plays listed; the same on 26-card hands (2 players, 2 jokers).
* ISMCTS costs on mid-game states: ``clone()``, ``sample_consistent()``, ``observation()``.
* random self-play: ``legal_actions`` + ``apply`` with a random choice, actions per second of
  this process's CPU time (so other load on the machine counts less), with and without
  recording, for 2-5 players.
* strength: ``heuristic`` in one seat against ``random`` in the others, the seat rotating, over N
  games for 2, 3 and 4 players: win rate (a shared win counts as a fraction) with its 95%
  Wilson confidence interval, beside the chance rate 1/players.

Every time is CPU time of this process; the timing and self-play loops are the shared ones of
``bench_games.py``.
"""

from __future__ import annotations

import argparse
from typing import Any

import ratgames
from bench_games import actions_per_s, mid_game_states, per_call_us
from ratgames.cards import parse_card, standard_deck
from ratgames.core.bots import make_bot
from ratgames.core.rng import Rng
from ratgames.core.runner import play_game
from ratgames.games.rats.rules import Rats, RatsState
from ratgames.sim import wilson_interval


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
        t_lead = per_call_us(lambda s: s.legal_actions(0), [lead_state], seconds=0.3)
        print(f"  {size}-card hand, {jokers} jokers: {len(leads)} leads in {t_lead:.1f} us")
        for kind in ("single", "pair", "run of 3"):
            chosen = [a for a in leads if _kind_of(a) == kind]
            if not chosen:
                continue
            state = scripted(players, jokers, text, str(chosen[0]))
            follows = state.legal_actions(1)
            t = per_call_us(lambda s: s.legal_actions(1), [state], seconds=0.3)
            print(f"    follow to a {kind} ({chosen[0]}): {len(follows)} plays in {t:.1f} us")


def _kind_of(action: Any) -> str:
    n = len(action.cards)
    if action.kind == 0:
        return "single"
    if action.kind == 1:
        return {2: "pair", 3: "three", 4: "four"}[n]
    return f"run of {n}"


def search_costs() -> None:
    print("search costs on mid-game states (us per call)")
    for players, jokers in ((4, 0), (2, 2), (5, 2)):
        game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
        states = mid_game_states(game, spread=60)
        seeds = iter(range(1 << 30))
        clone = per_call_us(lambda s: s.clone(), states, seconds=0.3)
        sample = per_call_us(
            lambda s, it=seeds: s.sample_consistent(1, Rng(next(it))), states, seconds=0.3
        )
        obs = per_call_us(lambda s: s.observation(0), states, seconds=0.3)
        print(
            f"  {players}p {jokers} jokers: clone {clone:.2f}  sample_consistent {sample:.1f}  "
            f"observation {obs:.1f}"
        )


def self_play(players: int, seconds: float, *, record: bool) -> float:
    """Random self-play in actions per second of CPU time."""
    game = ratgames.get_game("rats", players=players)
    return actions_per_s(game, seconds, record=record)


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
    lo, hi = wilson_interval(wins, games)
    return wins / games, lo, hi, capped / games


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
