"""Encoders: each game's fixed action space (with legal-action masks) and observation tensor.

>>> import ratgames
>>> from ratgames.rl.encoding import encoder_for
>>> enc = encoder_for(ratgames.get_game("caged-rats"))
>>> enc.num_actions, enc.obs_size
(860, 493)
"""

from __future__ import annotations

from ratgames.core.game import Game

from .base import Encoder, EncodingError, Layout, ListEncoder, Vector

__all__ = ["Encoder", "EncodingError", "Layout", "ListEncoder", "Vector", "encoder_for"]


def encoder_for(game: Game) -> Encoder:
    """The encoder of ``game`` (its players and options included)."""
    if game.id == "caged-rats":
        from .caged_rats import CagedRatsEncoder

        return CagedRatsEncoder(game)
    if game.id == "rats":
        from .rats import RatsEncoder

        return RatsEncoder(game)
    if game.id == "rat-a-tat-cat":
        from .rat_a_tat_cat import RatATatCatEncoder

        return RatATatCatEncoder(game)
    if game.id == "egyptian-ratscrew":
        from .egyptian_ratscrew import EgyptianRatscrewEncoder

        return EgyptianRatscrewEncoder(game)
    raise EncodingError(f"no encoder for {game.id}")
