"""The Rats bots: legal, parameterised, and the heuristic plays as described."""

from __future__ import annotations

import pytest

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import OptionError
from ratgames.core.runner import play_game
from ratgames.games.rats.rules import RatsState


def table(hands: list[str], lead: str = "") -> RatsState:
    game = ratgames.get_game("rats", players=len(hands))
    dealt = [h.split() for h in hands]
    used = {parse_card(c) for h in dealt for c in h}
    stock = [game.card_text(c) for c in standard_deck(0) if c not in used]
    state = game.new_state(seed=3, deal={"dealer": 0, "hands": dealt, "stock": stock})
    assert isinstance(state, RatsState)
    if lead:
        state.apply(0, lead)
    return state


def choose(state: RatsState, spec: str = "heuristic") -> str:
    bot = make_bot(state.game, spec, seed=1)
    seat = state.seats_to_act()[0]
    return str(bot.act(SeatView(state, seat)))


def test_heuristic_parameters_are_validated() -> None:
    game = ratgames.get_game("rats")
    assert make_bot(game, "heuristic:risk=0.2").describe() == "heuristic:risk=0.2"
    with pytest.raises(OptionError, match="risk"):
        make_bot(game, "heuristic:risk=2")
    with pytest.raises(OptionError, match="no parameter"):
        make_bot(game, "heuristic:speed=1")


def test_heuristic_leads_the_largest_combination_nobody_can_beat() -> None:
    # Seat 0 holds the three top spades: nobody can beat that run of three.
    state = table(["QS KS JS 2C", "3C 4D 5H 6S", "7C 8D 9H 10C"])
    assert choose(state) == "JS QS KS"


def test_heuristic_leads_its_weakest_single_when_nothing_is_safe() -> None:
    state = table(["2C 9D JH 3S", "AC AD AH AS", "KC KD KH KS"])
    assert choose(state) == "2C"


def test_heuristic_beats_cheaply_when_last_and_discards_its_weakest_otherwise() -> None:
    state = table(["9H 2C 3C", "10H KH AH"], lead="9H")
    assert choose(state) == "10H", "the cheapest beat wins when nobody plays after"
    state = table(["7C 7D 2S", "2H 5C KS"], lead="7C 7D")
    assert choose(state) == "discard 2H", "no pair: throw the two weakest, lowest first"
    state.apply(1, "discard 2H")
    assert choose(state) == "discard 5C"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_play_whole_games_legally(players: int) -> None:
    game = ratgames.get_game("rats", players=players, options={"jokers": 2})
    bots = [make_bot(game, "heuristic" if s % 2 else "random", seed=s) for s in range(players)]
    for seed in range(3):
        state = play_game(game, bots, seed=seed)
        assert state.is_over()


def test_heuristic_beats_random_clearly() -> None:
    game = ratgames.get_game("rats", players=4)
    wins = 0
    games = 60
    for i in range(games):
        seat = i % 4
        bots = [make_bot(game, "heuristic" if s == seat else "random", seed=i) for s in range(4)]
        outcome = play_game(game, bots, seed=500 + i, record=False).outcome()
        assert outcome is not None
        wins += seat in outcome.winners
    assert wins / games > 0.6, f"heuristic won {wins} of {games} four-player games"
