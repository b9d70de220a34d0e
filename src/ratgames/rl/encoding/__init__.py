"""Encoders: each game's fixed action space (with legal-action masks) and observation tensor.

A game brings its encoder as its ``encoder`` part (declared where it is registered,
:class:`ratgames.core.registry.GameParts`), an :class:`Encoder` subclass built from the game;
:func:`encoder_for` finds it there.

>>> import ratgames
>>> from ratgames.rl.encoding import encoder_for
>>> enc = encoder_for(ratgames.get_game("caged-rats"))
>>> enc.num_actions, enc.obs_size
(860, 493)
"""

from __future__ import annotations

from ratgames.core.game import Game
from ratgames.core.registry import game_part

from .base import WAIT, Encoder, EncodingError, Layout, ListEncoder, Vector

__all__ = ["WAIT", "Encoder", "EncodingError", "Layout", "ListEncoder", "Vector", "encoder_for"]


def encoder_for(game: Game) -> Encoder:
    """The encoder of ``game`` (its players and options included): the game's ``encoder``
    part."""
    cls = game_part(game.id, "encoder")
    if cls is None:
        raise EncodingError(
            f"no encoder for {game.id}: a game declares one as its 'encoder' part "
            "(register_game(..., parts=GameParts(encoder='module:Class')))"
        )
    encoder: Encoder = cls(game)
    return encoder
