"""Caged Rats: red against black, bidding for captures to feed two caged rats exactly."""

from ratgames.core.registry import GameParts, register_game

register_game(
    "caged-rats",
    "ratgames.games.caged_rats.rules:CagedRats",
    parts=GameParts(
        render=".render",
        tui=".tui:Panel",
        bots=".bots",
        levels=".bots:LEVELS",
        encoder=".encoding:CagedRatsEncoder",
        deal_plan=".deals:CagedRatsDealPlan",
    ),
)
