"""Rat-a-Tat Cat bots: they play legal games from their seat's view and the heuristic is strong."""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import OptionError
from ratgames.core.game import State
from ratgames.core.runner import play_game
from ratgames.games.rat_a_tat_cat.bots import HeuristicBot
from ratgames.games.rat_a_tat_cat.rules import RatState


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

    from ratgames.games.rat_a_tat_cat.cards import CARD_TEXT, DECK

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


def _kept_card_table() -> Any:
    """Seat 2 keeps a drawn 2 in place of its known 6 (slot 4); seat 1 is to play."""
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    deal = _deal([["4", "4", "5", "5"], ["3", "8", "8", "6"]], ["7", "2", "1"])
    state = game.new_state(seed=1, deal=deal)
    state.apply(0, "draw")
    state.apply(0, "discard")
    state.apply(0, "end")
    state.apply(1, "draw")
    state.apply(1, "replace 4")
    state.apply(1, "end")
    return state


def test_the_opponent_model_reads_bounds_from_the_moves() -> None:
    from ratgames.games.rat_a_tat_cat.bots import KeptCards

    state = _kept_card_table()
    model = KeptCards(SeatView(state, 0))
    # The kept card is below the 6 it replaced; seat 2's other known card (its 3 in slot 1) is
    # at most the 6 it threw out as its worst.
    assert model.bounds == {7: 5, 4: 6}
    assert model.kept == {7}  # and a number card
    # Seat 2 sees its own row, and knows that seat 1, who threw away the 7 it drew, had no
    # known card above 8 in its row (its outer cards, slots 1 and 4).
    theirs = KeptCards(SeatView(state, 1))
    assert theirs.bounds == {0: 8, 3: 8} and theirs.kept == set()


def test_the_opponent_models_bounds_follow_swapped_cards() -> None:
    from ratgames.games.rat_a_tat_cat.bots import KeptCards

    events: list[dict[str, object]] = [
        {"kind": "deal", "round": 1, "dealer": 1, "first_discard": "5"},
        {"kind": "replace", "seat": 1, "slot": 2, "discarded": "9", "placed": None},
        {"kind": "swap", "seat": 1, "slot": 2, "other": 1, "other_slot": 3},
    ]
    slots: list[list[str | None]] = [["1", None, None, "2"], [None, None, None, None]]
    obs = {"round": 1, "events": events, "slots": slots}
    bounds, kept = KeptCards._bounds(obs, 0, swap_look=True)
    # The kept card (below the 9 it replaced) moved from slot 2 to slot 3; seat 2's outer
    # cards (slots 1 and 4), at most the 9 thrown out as its worst, stayed.
    assert bounds == {6: 8, 4: 9, 7: 9} and kept == {6}
    # The list may start inside the round: what it holds is this round's.
    obs["events"] = events[1:]
    assert KeptCards._bounds(obs, 0, swap_look=True) == (bounds, kept)
    # An earlier round's moves say nothing about this round's cards.
    events.append({"kind": "round", "round": 1, "low": 3})
    events.append({"kind": "deal", "round": 2, "dealer": 0, "first_discard": "4"})
    obs = {"round": 2, "events": events, "slots": slots}
    assert KeptCards._bounds(obs, 0, swap_look=True) == ({}, set())


def test_search_samples_follow_the_model_and_only_the_seats_view() -> None:
    from ratgames.core.rng import Rng
    from ratgames.games.rat_a_tat_cat.bots import KeptCards

    state = _kept_card_table()
    view = SeatView(state, 0)
    model = KeptCards(view)
    modelled = [_slot(model(Rng(i)), 1, 3) for i in range(400)]
    uniform = [_slot(view.sample_consistent(Rng(i)), 1, 3) for i in range(400)]
    low = sum(c <= 5 for c in modelled) / 400  # a number card up to 5
    assert low > 0.8 > sum(c <= 5 for c in uniform) / 400 + 0.2
    # A state seat 1 cannot tell from this one gives the very same samples.
    twin = state.sample_consistent(0, Rng(77))
    assert _row(twin) != _row(state)
    twin_model = KeptCards(SeatView(twin, 0))
    for i in range(20):
        assert _row(model(Rng(i))) == _row(twin_model(Rng(i)))


def _slot(state: State, seat: int, slot: int) -> int:
    assert isinstance(state, RatState)
    return state.card_in(seat, slot)


def _row(state: State) -> list[int]:
    """Every slot's card at the table."""
    return [_slot(state, s, i) for s in range(state.game.players) for i in range(4)]
