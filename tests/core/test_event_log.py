"""``State.set_event_log``: a state that keeps no event log plays exactly as one that keeps it
(same legal actions, same views without events, same event count, same outcome), refuses to
list its events instead of listing too few, and passes the setting to its copies."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ratgames
from ratgames.core.game import State

GAMES = [
    ("caged-rats", 2, {"single_deal": True}),
    ("rats", 3, {"max_rounds": 1}),
    ("rat-a-tat-cat", 3, {"mode": "round"}),
    ("egyptian-ratscrew", 2, {}),
]
"""Every game but the test game, whose views show its log."""


def _seen(state: State) -> list[Any]:
    """What play depends on: the seats to act, their legal actions, every seat's view without
    events, the event count and the outcome."""
    seats = range(state.game.players)
    outcome = state.outcome()
    return [
        state.seats_to_act(),
        [[str(a) for a in state.legal_actions(s)] for s in seats],
        [state.observation(s, events=False) for s in seats],
        state.event_count,
        None if outcome is None else outcome.to_json(),
    ]


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_a_state_without_its_event_log_plays_the_same(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    kept = game.new_state(seed=7)
    dropped = game.new_state(seed=7)
    dropped.set_event_log(False)
    rng = random.Random(3)
    steps = 0
    while not kept.is_over() and steps < 400:
        assert _seen(dropped) == _seen(kept)
        seats = kept.seats_to_act()
        seat = seats[rng.randrange(len(seats))]
        k = rng.randrange(len(kept.legal_actions(seat)))
        kept.apply(seat, kept.legal_actions(seat)[k])
        dropped.apply(seat, dropped.legal_actions(seat)[k])
        steps += 1
    assert _seen(dropped) == _seen(kept)
    assert dropped.event_count > 0
    assert dropped._event_log is None


def test_a_state_without_its_event_log_refuses_to_list_events_and_copies_keep_that() -> None:
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    state = game.new_state(seed=1)
    assert state._logged()
    state.set_event_log(False)
    with pytest.raises(RuntimeError, match=r"keeps no event log \(set_event_log\(False\)\)"):
        state._logged()
    with pytest.raises(RuntimeError, match="keeps no event log"):
        state.observation(0)  # its events are part of it
    copy = state.clone()
    seat = copy.seats_to_act()[0]
    copy.apply(seat, copy.legal_actions(seat)[0])
    assert copy.event_count > state.event_count
    with pytest.raises(RuntimeError, match="keeps no event log"):
        copy._logged()
    # Restarted, it logs the events from then on.
    before = copy.event_count
    copy.set_event_log(True)
    while copy.event_count == before:
        seat = copy.seats_to_act()[0]
        copy.apply(seat, copy.legal_actions(seat)[0])
    assert len(copy._logged()) == copy.event_count - before
