"""Registers OpenSpiel's search bots (``openspiel-ismcts``, ``openspiel-mcts``) by name when the
``rl`` extra is installed, without importing OpenSpiel: it is imported when such a bot is first
made, so that ``ratgames tournament`` can seat them and ``ratgames play`` starts as fast as ever.

This module is a ``ratgames.plugins`` entry point (see :data:`ratgames.core.registry.PLUGIN_GROUP`).
"""

from __future__ import annotations

import importlib.util

from ratgames.core.bots import register_lazy_bot


def _installed(*modules: str) -> bool:
    try:
        return all(importlib.util.find_spec(m) is not None for m in modules)
    except (ImportError, ValueError):
        return False


if _installed("numpy", "open_spiel"):
    register_lazy_bot(
        "openspiel-ismcts",
        "ratgames.rl.bots:OpenSpielIsmctsBot",
        "OpenSpiel's IS-MCTS with random roll-outs, through the OpenSpiel registration",
        turn_based_only=True,
    )
    register_lazy_bot(
        "openspiel-mcts",
        "ratgames.rl.bots:OpenSpielMctsBot",
        "OpenSpiel's MCTS over determinized deals, through the OpenSpiel registration",
        turn_based_only=True,
    )
