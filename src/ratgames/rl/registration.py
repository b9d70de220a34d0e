"""Gymnasium ids for every game with an encoder: ``gym.make("ratgames/Rats-v0", players=3)``.

>>> gymnasium_ids()["rats"]
'ratgames/Rats-v0'

A game's id is ``ratgames/`` and its id in CamelCase with ``-v0`` (:func:`gymnasium_id`), for
every game that declares an encoder (its ``encoder`` part,
:class:`ratgames.core.registry.GameParts`).  ``import ratgames.rl`` registers them without
importing Gymnasium (which takes half a second, and ``ratgames.rl`` is imported by every
``ratgames`` command through its plugin): when Gymnasium is imported already they are registered
at once, else as soon as it is imported.  Importing :mod:`ratgames.rl.gymnasium` registers them
too, and so does Gymnasium's own ``"module:id"`` form, ``gym.make("ratgames.rl:ratgames/Rats-v0")``,
with nothing imported first.

Every keyword of :class:`ratgames.rl.gymnasium.RatgamesEnv` passes through ``gym.make``:
``players``, ``options``, ``opponents``, ``seat``, ``render_mode``, ``illegal``, ``tick`` and
``max_steps``.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

from ratgames.core.registry import game_ids, game_parts


def gymnasium_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``ratgames/`` and the id in CamelCase, ``-v0``.

    >>> gymnasium_id("rat-a-tat-cat")
    'ratgames/RatATatCat-v0'
    """
    return "ratgames/" + "".join(w[:1].upper() + w[1:] for w in game_id.split("-")) + "-v0"


def gymnasium_ids() -> dict[str, str]:
    """The Gymnasium id of each game that declares an encoder, by game id."""
    return {g: gymnasium_id(g) for g in game_ids() if game_parts(g).encoder is not None}


def __getattr__(name: str) -> Any:
    if name == "GYMNASIUM_IDS":  # the games registered by now (formerly a fixed table)
        return gymnasium_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


ENTRY_POINT = "ratgames.rl.gymnasium:RatgamesEnv"


def register_gymnasium() -> None:
    """Register every game's id with Gymnasium (again is harmless)."""
    from gymnasium.envs.registration import register, registry

    for game_id, env_id in gymnasium_ids().items():
        if env_id not in registry:
            register(id=env_id, entry_point=ENTRY_POINT, kwargs={"game_id": game_id})


class _WhenGymnasiumIsImported:
    """A finder that lets Gymnasium import as usual, then registers the ids (it steps aside
    at its first use)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        _remove_hook()
        spec = importlib.util.find_spec(fullname)
        loader: Any = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            register_gymnasium()

        loader.exec_module = exec_module
        return spec


def _remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _WhenGymnasiumIsImported)]


def register_when_imported() -> None:
    """Register the ids now if Gymnasium is imported, else when it is (nothing if it is not
    installed)."""
    if "gymnasium.envs.registration" in sys.modules:
        register_gymnasium()
        return
    if "gymnasium" in sys.modules or importlib.util.find_spec("gymnasium") is None:
        return
    _remove_hook()
    sys.meta_path.insert(0, _WhenGymnasiumIsImported())
