"""The longest game each game's rules allow, in decisions (OpenSpiel's ``max_game_length``).

A decision is one id chosen by one player (one step of a two-step choice counts as one); chance
steps are not counted (OpenSpiel counts those apart).  Every game's encoder gives the bound that
follows from its rules and safety caps (:meth:`ratgames.rl.encoding.Encoder.max_decisions`,
where each game explains its own), which every game has, so no game can run for ever; a game
played in ticks takes one joint decision a tick and is stopped after ``max_ticks`` ticks.
"""

from __future__ import annotations

from ratgames.core.game import Game

from .encoding import encoder_for


def max_decisions(game: Game, max_ticks: int | None = None) -> int:
    """The most decisions a game of ``game`` (with its options and players) can take (see the
    module docstring); ``max_ticks`` is the tick cap of a real-time game."""
    return encoder_for(game).max_decisions(max_ticks)
