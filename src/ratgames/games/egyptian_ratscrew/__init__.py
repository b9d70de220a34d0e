"""Egyptian Ratscrew: face-card challenges and real-time slaps (see ``rules.py``)."""

from ratgames.core.registry import GameParts, register_game

register_game(
    "egyptian-ratscrew",
    "ratgames.games.egyptian_ratscrew.rules:EgyptianRatscrew",
    parts=GameParts(
        render=".render",
        tui=".tui:Panel",
        bots=".bots",
        levels=".bots:LEVELS",
        encoder=".encoding:EgyptianRatscrewEncoder",
        deal_plan=".deals:EgyptianRatscrewDealPlan",
    ),
)
