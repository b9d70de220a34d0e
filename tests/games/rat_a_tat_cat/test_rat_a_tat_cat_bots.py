"""Rat-a-Tat Cat bots: they play legal games from their seat's view and the heuristic is strong."""

from __future__ import annotations

import pytest

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import OptionError
from ratgames.core.runner import play_game
from ratgames.games.rat_a_tat_cat.bots import HeuristicBot


def test_heuristic_parameters_are_validated() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    bot = make_bot(game, "heuristic:memory=0.6,knock=12", seed=1)
    assert isinstance(bot, HeuristicBot)
    assert bot.memory == 0.6 and bot.knock == 12.0
    assert bot.describe() == "heuristic:memory=0.6,knock=12.0"
    with pytest.raises(OptionError, match="memory"):
        make_bot(game, "heuristic:memory=2", seed=1)
    with pytest.raises(OptionError, match="no parameter 'depth'"):
        make_bot(game, "heuristic:depth=3", seed=1)


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("spec", ["heuristic", "heuristic:memory=0.5"])
def test_heuristic_finishes_whole_games(players: int, spec: str) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=players)
    bots = [make_bot(game, spec, seed=s) for s in range(players)]
    state = play_game(game, bots, seed=players)
    outcome = state.outcome()
    assert outcome is not None and not outcome.capped
    assert outcome.details["rounds"] >= 2


def test_heuristic_beats_random_clearly() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    rounds, score, margin = 300, 0.0, 0.0
    for i in range(rounds):
        me = i % 2
        bots = [make_bot(game, "random", seed=i), make_bot(game, "random", seed=i + 1)]
        bots[me] = make_bot(game, "heuristic", seed=i)
        outcome = play_game(game, bots, seed=i, record=False).outcome()
        assert outcome is not None
        score += (me in outcome.winners) / len(outcome.winners)
        margin += outcome.points[1 - me] - outcome.points[me]
    assert score / rounds > 0.7
    assert margin / rounds > 4


def test_a_forgetful_bot_remembers_less() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    state = game.new_state(seed=4)
    perfect = make_bot(game, "heuristic", seed=1)
    forgetful = make_bot(game, "heuristic:memory=0", seed=1)
    assert isinstance(perfect, HeuristicBot) and isinstance(forgetful, HeuristicBot)
    perfect.new_game(0)
    forgetful.new_game(0)
    obs = SeatView(state, 0).observation()
    assert len(perfect._remembered(obs)) == 2  # its two outer cards
    assert forgetful._remembered(obs) == {}


def _deal(hands: list[list[str]], draw: list[str]) -> dict[str, object]:
    from collections import Counter

    from ratgames.games.rat_a_tat_cat.rules import CARD_TEXT, DECK

    rest = Counter(CARD_TEXT[c] for c in DECK) - Counter([c for r in hands for c in r] + draw)
    rest["5"] -= 1
    return {"hands": hands, "draw": draw + sorted(rest.elements()), "discard": ["5"]}


def test_the_heuristic_peeks_at_an_unknown_card_then_knocks_when_low() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(
        seed=1, deal=_deal([["0", "1", "2", "1"], ["9", "9", "9", "9"]], ["PEEK"])
    )
    bot = make_bot(game, "heuristic", seed=1)
    bot.new_game(0)
    assert str(bot.act(SeatView(state, 0))) == "draw"
    state.apply(0, "draw")
    assert str(bot.act(SeatView(state, 0))) == "peek 2"
    state.apply(0, "peek 2")
    # It knows 0, 1, 1 and guesses the last: low enough to knock.
    assert str(bot.act(SeatView(state, 0))) == "knock"


def test_the_heuristic_swaps_a_known_high_card_for_a_known_low_one() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    deal = _deal([["9", "3", "3", "2"], ["0", "4", "4", "8"]], ["1", "SWAP"])
    state = game.new_state(seed=1, deal=deal)
    state.apply(0, "draw")
    state.apply(0, "discard")
    state.apply(0, "end")
    state.apply(1, "take")
    state.apply(1, "replace 2")  # everyone saw seat 2 put the 1 in its slot 2
    state.apply(1, "end")
    bot = make_bot(game, "heuristic", seed=1)
    bot.new_game(0)
    state.apply(0, "draw")
    assert str(bot.act(SeatView(state, 0))) == "swap 1 2:2"  # its known 9 for that 1
