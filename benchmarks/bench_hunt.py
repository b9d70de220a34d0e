"""Beggar-my-neighbour play-out speed: the hunt's C kernel and Python loop, a plain Python loop,
and the general engine, in cards played per second.

Run:  python3 -m uv run python benchmarks/bench_hunt.py [--deals 300000] [--engine-deals 300]

* C kernel, Python loop (hunt): a chunk of numbered random deals, each dealt and played out (what
  a hunt's worker does), per second of this process's CPU time (so other load on the machine
  counts less).
* Python loop, play only: the hunt's ``play_fast`` on deals dealt beforehand.
* plain Python loop: the obvious loop (a list per hand, ``pop(0)``, one branch per card) on the
  same deals.
* engine: Egyptian Ratscrew for 2 with ``slaps=false`` through the public API
  (``seats_to_act``, ``legal_actions``, ``apply_trusted``, recording off), on the first
  ``--engine-deals`` of the deals.
* whole hunt: ``run_hunt`` on every core with the best play-out, deals and cards per second of
  wall-clock time (start-up included).

Every loop must count the same cards on the same deals; the benchmark stops if one does not.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from ratgames.hunt import (
    HAND,
    HuntSpec,
    deal_at,
    engine_figures,
    load_kernel,
    play_fast,
    run_hunt,
)


def plain_loop(deal: bytes) -> tuple[int, int]:
    """Beggar-my-neighbour as anyone would first write it: (cards, tricks)."""
    hands = [list(deal[:HAND]), list(deal[HAND:])]
    pile: list[int] = []
    turn = cards = tricks = owed = 0
    challenger = -1
    while True:
        hand = hands[turn]
        if not hand:
            return cards, tricks + 1
        card = hand.pop(0)
        cards += 1
        pile.append(card)
        if card:
            challenger, owed, turn = turn, card, 1 - turn
        elif challenger >= 0:
            owed -= 1
            if owed == 0:
                hands[challenger] += pile
                pile = []
                tricks += 1
                if not hand:
                    return cards, tricks
                turn, challenger = challenger, -1
        else:
            turn = 1 - turn


def cpu_rate(work: Callable[[], int]) -> tuple[float, int]:
    """(cards per CPU second, cards) of one call of ``work`` (which returns the cards played)."""
    start = time.process_time()
    cards = work()
    return cards / max(time.process_time() - start, 1e-9), cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300_000, help="deals for the kernels")
    parser.add_argument("--engine-deals", type=int, default=300, help="deals for the engine")
    parser.add_argument("--hunt-deals", type=int, default=4_000_000, help="deals, whole hunt")
    args = parser.parse_args()
    seed = 1
    small = min(args.deals, 30_000)  # the Python loops on fewer deals
    deals = [deal_at(seed, i) for i in range(small)]
    rows: list[tuple[str, float, int, int]] = []

    c = load_kernel("auto")
    if c.name == "c":
        rate, cards = cpu_rate(lambda: c.chunk(seed, 0, args.deals, None, 2, 20_000, 10**9)[1][0])
        rows.append(("C kernel (deal + play)", rate, cards, args.deals))
    else:
        print(f"no C kernel here: the Python loop is used ({c.name})")
    python = load_kernel("python")
    rate, cards = cpu_rate(lambda: python.chunk(seed, 0, small, None, 2, 20_000, 10**9)[1][0])
    rows.append(("Python loop (deal + play)", rate, cards, small))
    reference = cards
    rate, cards = cpu_rate(lambda: sum(play_fast(d)[1] for d in deals))
    rows.append(("Python loop (play only)", rate, cards, small))
    rate, cards = cpu_rate(lambda: sum(plain_loop(d)[0] for d in deals))
    rows.append(("plain Python loop (play only)", rate, cards, small))
    for name, _, counted, n in rows:
        if n == small and counted != reference:
            raise SystemExit(f"{name} counted {counted} cards, not {reference}")
    if c.name == "c" and args.deals >= small:
        check = c.chunk(seed, 0, small, None, 2, 20_000, 10**9)[1][0]
        if check != reference:
            raise SystemExit(f"the C kernel counted {check} cards, not {reference}")
    few = deals[: args.engine_deals]
    rate, cards = cpu_rate(lambda: sum(engine_figures(d).cards for d in few))
    if cards != sum(plain_loop(d)[0] for d in few):
        raise SystemExit("the engine counted other cards")
    rows.append(("engine (public API)", rate, cards, len(few)))

    plain = next(r for n, r, _, _ in rows if n.startswith("plain"))
    print("Beggar-my-neighbour play-outs, random deals, one process (cards per CPU second)")
    print(f"  {'play-out':32} {'cards/s':>14} {'vs plain loop':>14} {'deals':>10}")
    for name, rate, _, n in rows:
        print(f"  {name:32} {rate:>14,.0f} {rate / plain:>13.2f}x {n:>10,}")

    workers = os.cpu_count() or 1
    began = time.perf_counter()
    state = run_hunt(HuntSpec(seed=seed), deals=args.hunt_deals, workers=workers)
    wall = time.perf_counter() - began
    print(
        f"whole hunt ({workers} processes, {c.name}): {state.deals:,} deals in {wall:.1f} s, "
        f"{state.deals / wall:,.0f} deals/s, {state.cards / wall:,.0f} cards/s (wall clock); "
        f"mean game {state.cards / max(state.finished, 1):.1f} cards"
    )


if __name__ == "__main__":
    main()
