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


def _with_encoders() -> list[str]:
    """The games registered so far (the game plugins load first) that declare an encoder and a
    deal plan; a real-time one among them never lists the bots below, which are turn-based."""
    from ratgames.core.registry import game_ids, game_parts

    return [
        g
        for g in game_ids()
        if game_parts(g).encoder is not None and game_parts(g).deal_plan is not None
    ]


if _installed("numpy"):
    for game_id in _with_encoders():
        register_lazy_bot(
            "policy",
            "ratgames.rl.learn.policy:PolicyBot",
            "plays a trained policy (file=WEIGHTS.npz from 'ratgames train', or a shipped one)",
            turn_based_only=True,
            game_id=game_id,
        )

if _installed("numpy", "open_spiel"):
    for game_id in _with_encoders():
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
