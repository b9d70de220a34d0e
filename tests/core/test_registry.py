"""The registry: games by id, and each game's parts declared where it is registered."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

import ratgames
from ratgames.core import registry
from ratgames.core.errors import UnknownNameError
from ratgames.core.registry import (
    PART_NAMES,
    GameParts,
    game_part,
    game_parts,
    register_game,
    required_part,
)
from ratgames.testing import HighCard


@pytest.fixture(autouse=True)
def _registry_restored() -> Iterator[None]:
    """The games registered here are gone after each test."""
    ratgames.game_ids()
    games, parts = dict(registry._GAMES), dict(registry._PARTS)
    yield
    registry._GAMES.clear()
    registry._GAMES.update(games)
    registry._PARTS.clear()
    registry._PARTS.update(parts)


def test_every_builtin_game_declares_every_part() -> None:
    for gid in ratgames.game_ids():
        if gid.startswith("test-"):
            continue
        parts = game_parts(gid)
        missing = [name for name in PART_NAMES if getattr(parts, name) is None]
        assert not missing, f"{gid} declares no {missing}"


def test_parts_resolve_relative_to_the_game_package() -> None:
    panel = game_part("caged-rats", "tui")
    assert isinstance(panel, type) and panel.__module__ == "ratgames.games.caged_rats.tui"
    render = game_part("caged-rats", "render")
    assert render.__name__ == "ratgames.games.caged_rats.render"
    levels = game_part("caged-rats", "levels")
    assert set(levels) <= {"easy", "normal", "hard", "expert"}


def test_importing_ratgames_imports_no_part() -> None:
    code = (
        "import sys, ratgames; ratgames.game_ids(); "
        "print(sorted(m for m in sys.modules if m.startswith('ratgames.games.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = eval(out)
    # Only the packages' __init__ modules, where the games are registered.
    assert all(name.count(".") == 2 for name in loaded), loaded


def test_a_missing_part_is_none_and_required_names_it() -> None:
    register_game("test-bare", HighCard)
    assert game_part("test-bare", "tui") is None
    with pytest.raises(UnknownNameError, match="the terminal table needs the 'tui' part"):
        required_part("test-bare", "tui", "the terminal table")


def test_an_unknown_part_or_parts_object_is_refused() -> None:
    with pytest.raises(UnknownNameError, match="unknown part 'sound'; the parts are: render"):
        game_part("caged-rats", "sound")
    with pytest.raises(TypeError, match="must be a GameParts"):
        register_game("test-bad", HighCard, parts={"render": ".render"})  # type: ignore[arg-type]


def test_a_class_target_resolves_relative_parts_beside_its_module() -> None:
    register_game("test-rel", HighCard, parts=GameParts(levels=".levels:GENERAL_LEVELS"))
    # HighCard lives in ratgames.testing: ".levels" is ratgames.levels.
    assert game_part("test-rel", "levels")["easy"] == "random"
    register_game("test-rel", HighCard)  # registering again forgets the old parts
    assert game_part("test-rel", "levels") is None
