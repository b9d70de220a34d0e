"""Research interfaces: fixed action spaces and observation tensors for every game
(:mod:`ratgames.rl.encoding`), and environments for PettingZoo (:mod:`ratgames.rl.pettingzoo`),
Gymnasium (:mod:`ratgames.rl.gymnasium`) and OpenSpiel (:mod:`ratgames.rl.openspiel`).

Install the extra first: ``pip install ratgames[rl]`` (numpy, pettingzoo, gymnasium,
open_spiel).  Each submodule imports only the library it serves; ``import ratgames`` imports
none of them.  ``docs/research.md`` documents the encodings and the environments.

Importing this package registers the Gymnasium ids (``gym.make("ratgames/Rats-v0")``, see
:mod:`ratgames.rl.registration`) without importing Gymnasium itself.

This package names no game: each game brings its encoder and deal plan as parts of its own
(:class:`ratgames.core.registry.GameParts`).
"""

from typing import Any

from .registration import gymnasium_ids, register_when_imported

__all__ = ["GYMNASIUM_IDS", "gymnasium_ids"]


def __getattr__(name: str) -> Any:
    if name == "GYMNASIUM_IDS":  # the Gymnasium id of each game registered by now
        return gymnasium_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_when_imported()
