"""Difficulty levels: every game maps every level to a bot that exists and plays legal moves."""

from __future__ import annotations

import pytest

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import UnknownNameError
from ratgames.levels import LEVEL_NAMES, level_bot, levels_for


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_every_level_makes_a_bot_that_plays(game_id: str) -> None:
    game = ratgames.get_game(game_id, players=2)
    specs = levels_for(game_id)
    assert list(specs) == list(LEVEL_NAMES)
    state = game.new_state(seed=3)
    for _ in range(6):  # a few moves in, so that search has something to sample
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.seats_to_act()[0]
    for level in ("easy", "normal", "hard"):
        bot = make_bot(game, specs[level], seed=1)
        bot.new_game(seat)
        view = SeatView(state, seat)
        if game.real_time:
            reaction = bot.react(view)
            assert reaction is None or state.is_legal(seat, reaction.action)
        else:
            assert state.is_legal(seat, bot.act(view))
    make_bot(game, specs["expert"])  # the expert's spec is valid (its 1.5 s move is benchmarked)


def test_search_levels_get_stronger_settings_than_the_heuristic() -> None:
    for game_id in ("rat-a-tat-cat", "rats", "caged-rats"):
        specs = levels_for(game_id)
        assert specs["normal"].startswith("heuristic")
        assert specs["hard"].split(":")[0] in ("ismcts", "pimc")
        assert "seconds=1.5" in specs["expert"]


def test_an_unknown_level_is_refused_with_the_choices() -> None:
    with pytest.raises(UnknownNameError, match="easy, normal, hard, expert"):
        level_bot("rats", "grandmaster")
