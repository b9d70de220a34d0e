"""``observation_part``: the entries a bot asks for, each exactly as in the whole observation."""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.core.bots import SeatView
from ratgames.core.registry import game_class
from ratgames.core.rng import Rng


def _configs() -> list[Any]:
    out = []
    for gid in ratgames.game_ids():
        cls = game_class(gid)
        for i, opts in enumerate(cls.variants):
            for players in sorted({cls.min_players, cls.max_players}):
                out.append(pytest.param(gid, players, dict(opts), id=f"{gid}-{players}p-v{i}"))
    return out


@pytest.mark.parametrize(("gid", "players", "options"), _configs())
def test_parts_equal_the_whole_observation(gid: str, players: int, options: dict[str, Any]) -> None:
    game = ratgames.get_game(gid, players=players, options=options)
    rng = Rng(99)
    checked = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        step = 0
        while not state.is_over() and step < 400:
            if step % 3 == 0:
                for seat in range(players):
                    for events in (False, True):
                        full = state.observation(seat, events)
                        keys = list(full)
                        # Every entry alone, all of them, and a random few in a random order.
                        for key in keys:
                            assert state.observation_part(seat, [key], events) == {key: full[key]}
                        assert state.observation_part(seat, keys, events) == full
                        rng.shuffle(keys)
                        few = keys[: 1 + rng.randbelow(len(keys))]
                        assert state.observation_part(seat, few, events) == {
                            k: full[k] for k in few
                        }
                        view = SeatView(state, seat)
                        assert view.observation_part(few, events) == {k: full[k] for k in few}
                        checked += 1
            to_act = state.seats_to_act()
            seat = to_act[rng.randbelow(len(to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
            step += 1
    assert checked > 20


def test_parts_are_fresh_copies() -> None:
    """Changing what one call gave changes nothing the next call gives."""
    game = ratgames.get_game("rat-a-tat-cat", players=3)
    state = game.new_state(seed=4)
    part = state.observation_part(0, ["slots", "discard", "face_up", "in_round"])
    again = state.observation_part(0, ["slots", "discard", "face_up", "in_round"])
    part["slots"][0][0] = "changed"
    part["discard"].append("changed")
    part["face_up"][0][0] = "changed"
    assert state.observation_part(0, ["slots", "discard", "face_up", "in_round"]) == again


@pytest.mark.parametrize("gid", ratgames.game_ids())
def test_an_unknown_entry_is_named(gid: str) -> None:
    state = ratgames.get_game(gid).new_state(seed=1)
    with pytest.raises(KeyError, match="no entry 'no-such-entry'; its entries are: "):
        state.observation_part(0, ["no-such-entry"])
    first = next(iter(state.observation(0)))
    with pytest.raises(KeyError, match="no-such-entry"):
        state.observation_part(0, [first, "no-such-entry"])
