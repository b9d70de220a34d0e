"""Registers ``policy`` (a trained policy, :mod:`ratgames.rl.learn.policy`) and OpenSpiel's
search bots (``openspiel-ismcts``, ``openspiel-mcts``) by name when the ``rl`` extra is
installed, without importing numpy or OpenSpiel: they are imported when such a bot is first
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


COVERED = ("caged-rats", "rat-a-tat-cat", "rats")
"""The turn-based games the OpenSpiel registration (ratgames.rl.openspiel) covers."""

if _installed("numpy"):
    for game_id in COVERED:
        register_lazy_bot(
            "policy",
            "ratgames.rl.learn.policy:PolicyBot",
            "plays a trained policy (file=WEIGHTS.npz from 'ratgames train', or a shipped one)",
            turn_based_only=True,
            game_id=game_id,
        )

if _installed("numpy", "open_spiel"):
    for game_id in COVERED:
        register_lazy_bot(
            "openspiel-ismcts",
            "ratgames.rl.bots:OpenSpielIsmctsBot",
            "OpenSpiel's IS-MCTS with random roll-outs, through the OpenSpiel registration",
            turn_based_only=True,
            game_id=game_id,
        )
        register_lazy_bot(
            "openspiel-mcts",
            "ratgames.rl.bots:OpenSpielMctsBot",
            "OpenSpiel's MCTS over determinized deals, through the OpenSpiel registration",
            turn_based_only=True,
            game_id=game_id,
        )
