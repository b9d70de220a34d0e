"""Caged Rats bots: the heuristic's choices in set positions, its parameters, and its strength."""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import OptionError
from ratgames.core.runner import play_game
from ratgames.games.caged_rats.deck import BLACK_CARDS, RED_CARDS, TEXT

RED_HAND = ["2H", "3D", "4H", "AD", "KD", "AH", "QH", "5D"]
BLACK_HAND = ["2C", "3S", "4C", "AS", "KS", "AC", "QS", "5C"]


def _deal() -> dict[str, Any]:
    return {
        "dealer": "black",
        "red": {"hand": RED_HAND, "stock": [TEXT[c] for c in RED_CARDS if TEXT[c] not in RED_HAND]},
        "black": {
            "hand": BLACK_HAND,
            "stock": [TEXT[c] for c in BLACK_CARDS if TEXT[c] not in BLACK_HAND],
        },
    }


def _state(*moves: str) -> Any:
    game = ratgames.get_game("caged-rats")
    state = game.new_state(seed=1, deal=_deal())
    for move in moves:
        state.apply(state.seats_to_act()[0], move)
    return state


def _choice(state: Any, seat: int, spec: str = "heuristic") -> str:
    bot = make_bot(state.game, spec, seed=0)
    return str(bot.act(SeatView(state, seat)))


def test_heuristic_cages_low_rats_it_can_feed() -> None:
    state = _state()
    choice = _choice(state, 0)
    # Never a ten-value rat (QH, KD) and never the aces it needs for bidding.
    assert choice.startswith("cage ")
    assert not set(choice.split()[1:]) & {"QH", "KD", "AD", "AH"}


def test_heuristic_offers_a_capture_its_rats_need_and_keeps_high_cards() -> None:
    state = _state("cage 2H 3D", "cage 2C 3S")
    assert _choice(state, 0) == "offer 4H"  # lowest heart or diamond in hand (4H, 5D)


def test_heuristic_bids_a_sure_winner_and_tops_cheaply() -> None:
    state = _state("cage 2H 3D", "cage 2C 3S", "offer 4H")
    # Black may still hold every ace: red's aces tie at worst, and ties go to the leader.
    assert _choice(state, 0) == "bid AD"
    state = _state("cage 2H 3D", "cage 2C 3S", "offer 4H", "bid QH")
    assert _choice(state, 1) == "top KS"  # the cheapest card that tops the queen


def test_heuristic_throws_when_the_capture_would_not_help_the_leader() -> None:
    # Red's rats are hearts; a diamond capture would be discarded, so black saves its cards.
    state = _state("cage 2H 4H", "cage 2C 3S", "offer 3D", "bid 5D")
    assert _choice(state, 1).startswith("throw ")


def test_bot_parameters_are_validated() -> None:
    game = ratgames.get_game("caged-rats")
    bot = make_bot(game, "heuristic:ambition=6,defend=false")
    assert bot.describe() == "heuristic:ambition=6,defend=false"
    with pytest.raises(OptionError, match="ambition"):
        make_bot(game, "heuristic:ambition=99")
    with pytest.raises(OptionError, match="nerve"):
        make_bot(game, "heuristic:nerve=1")


def test_heuristic_beats_random_clearly() -> None:
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    wins = 0
    deals = 120
    for d in range(deals):
        h = d % 2
        bots = [make_bot(game, "random", seed=d), make_bot(game, "random", seed=d + 1)]
        bots[h] = make_bot(game, "heuristic", seed=d)
        outcome = play_game(game, bots, seed=500 + d, record=False).outcome()
        assert outcome is not None
        wins += outcome.winners == (h,)
    assert wins / deals > 0.85


def test_heuristic_plays_whole_rubbers() -> None:
    game = ratgames.get_game("caged-rats")
    bots = [make_bot(game, "heuristic", seed=1), make_bot(game, "heuristic:ambition=6", seed=2)]
    state = play_game(game, bots, seed=7)
    outcome = state.outcome()
    assert outcome is not None and max(outcome.points) >= 120 and not outcome.capped
