"""The longest game each game's rules allow, in decisions (OpenSpiel's ``max_game_length``).

A decision is one id chosen by one player (one step of a two-step choice counts as one); chance
steps are not counted (OpenSpiel counts those apart).  Every bound follows from the rules and the
game's safety caps, which every game has, so no game can run for ever:

* **Caged Rats**: a deal is 2 cagings and 16 leads of at most 4 decisions (offer, bid, top or
  throw, feed), 66 in all; a game is at most ``max_deals`` deals (1 with ``single_deal``).
* **Rats**: in a round every card dealt is played once; a play of ``k`` cards takes one
  decision (a single, a set, a run without jokers), ``k`` (a discard, one card a step) or two
  (a run of three or more cards with jokers: its shape, then its jokers), never more than ``k``.
  So a round takes at most as many decisions as the deck has cards (52, plus the jokers), and a
  game is at most ``max_rounds`` rounds.
* **Rat-a-Tat Cat**: a turn draws at most 13 cards, each taking at most two decisions (``draw``,
  then ``replace``, ``discard``, ``peek``, ``swap`` or ``noswap``), then ``knock`` or ``end``:
  27 decisions.  Why 13: after the first draw, only a DRAW2 grants more draws (two fresh
  chances, which do not add up), so ``d`` DRAW2s drawn in a turn allow at most ``1 + 2d`` draws.
  The deck holds 3 DRAW2s, and one can be drawn a second time in a turn only after the draw
  pile ran out and the discard pile was shuffled into a new one; that new pile holds at least
  ``54 - 4 * 6 - 2 = 28`` cards, more than the at most 7 draws three DRAW2s allow, so it never
  runs out within the same turn: ``d <= 6`` and a turn draws at most 13 cards.  A round has at
  most ``turn_cap + players - 1`` turns (the turn that reaches the cap counts as a knock, then
  everyone else has one more), and a game at most ``round_cap`` rounds (1 with
  ``mode=round``, ``N`` with ``mode=rounds=N`` when that is fewer).
* **Egyptian Ratscrew** (simultaneous, in ticks): one joint decision a tick, and the game is
  stopped after ``max_ticks`` ticks.

>>> import ratgames
>>> max_decisions(ratgames.get_game("caged-rats", options={"single_deal": True}))
66
>>> max_decisions(ratgames.get_game("rats", players=3, options={"jokers": 2, "max_rounds": 10}))
540
>>> max_decisions(ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"}))
5427
"""

from __future__ import annotations

from ratgames.core.game import Game

CAGED_RATS_DEAL = 2 + 16 * 4
"""Decisions in one deal of Caged Rats: two cagings, 16 leads of at most four decisions."""

RAT_A_TAT_CAT_TURN = 2 * 13 + 1
"""Decisions in one turn of Rat-a-Tat Cat: at most 13 cards drawn, two decisions each, and the
knock or end of the turn."""


def max_decisions(game: Game, max_ticks: int | None = None) -> int:
    """The most decisions a game of ``game`` (with its options and players) can take (see the
    module docstring); ``max_ticks`` is the tick cap of a real-time game."""
    o = game.options
    if game.id == "caged-rats":
        deals = 1 if o["single_deal"] else int(o["max_deals"])
        return CAGED_RATS_DEAL * deals
    if game.id == "rats":
        return len(game.deck()) * int(o["max_rounds"])
    if game.id == "rat-a-tat-cat":
        mode = str(o["mode"])
        rounds = int(o["round_cap"])
        if mode == "round":
            rounds = 1
        elif mode.startswith("rounds="):
            rounds = min(rounds, int(mode.partition("=")[2]))
        turns = int(o["turn_cap"]) + game.players - 1
        return RAT_A_TAT_CAT_TURN * turns * rounds
    if game.real_time:
        if max_ticks is None:
            raise ValueError(f"{game.title} is played in ticks: give max_ticks")
        return int(max_ticks)
    raise ValueError(f"no bound on the length of {game.id}")
