"""Rats, the trick-taking game (seed 002): see :mod:`ratgames.games.rats.rules`."""

from ratgames.core.registry import GameParts, register_game

register_game(
    "rats",
    "ratgames.games.rats.rules:Rats",
    parts=GameParts(
        render=".render",
        tui=".tui:Panel",
        bots=".bots",
        levels=".bots:LEVELS",
        encoder=".encoding:RatsEncoder",
        deal_plan=".deals:RatsDealPlan",
    ),
)
