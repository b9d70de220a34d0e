"""Rat-a-Tat Cat: remember your four face-down cards and end the round with the lowest sum.

The rules engine is :class:`ratgames.games.rat_a_tat_cat.rules.RatATatCat`; the bots are in
:mod:`.bots`, the text picture in :mod:`.render` and the terminal panel in :mod:`.tui`.
"""

from ratgames.core.registry import GameParts, register_game

register_game(
    "rat-a-tat-cat",
    "ratgames.games.rat_a_tat_cat.rules:RatATatCat",
    parts=GameParts(
        render=".render",
        tui=".tui:Panel",
        bots=".bots",
        levels=".bots:LEVELS",
        encoder=".encoding:RatATatCatEncoder",
        deal_plan=".deals:RatATatCatDealPlan",
    ),
)
