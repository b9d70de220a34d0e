"""What a server needs for fair slap races, asked of the game rather than read from text."""

from __future__ import annotations

import ratgames
from ratgames.testing import HighCard


def test_a_slap_names_the_pile_it_answers_and_can_be_aimed_at_another() -> None:
    game = ratgames.get_game("egyptian-ratscrew", players=2)
    slap = game.parse_action("slap@17")
    assert game.race_aim(slap) == 17
    assert game.race_aim(game.parse_action("play")) is None
    assert str(game.aimed_at(slap, 16)) == "slap@16"


def test_the_state_tells_the_pile_version_and_whether_it_can_be_slapped() -> None:
    game = ratgames.get_game("egyptian-ratscrew", players=2)
    state = game.new_state(seed=3)
    for _ in range(200):
        view = state.spectator_view()
        assert state.race_version() == view["pile_version"]
        assert state.race_open() == (view["slappable"] is not None)
        if state.is_over():
            break
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def test_a_turn_based_game_has_no_races() -> None:
    game = HighCard()
    state = game.new_state(seed=1)
    assert game.race_aim(state.legal_actions(0)[0]) is None
    assert state.race_version() is None and not state.race_open()
