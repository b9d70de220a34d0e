"""Rat-a-Tat Cat rules, scripted like the rule sheets: a deal, a few moves, what must follow."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from tests.games.rat_a_tat_cat.helpers import legal, make_deal, play, start, texts

import ratgames
from ratgames.core.errors import IllegalAction, RatgamesError
from ratgames.core.rng import Rng
from ratgames.games.rat_a_tat_cat.cards import CARD_TEXT, DECK
from ratgames.games.rat_a_tat_cat.rules import RatATatCat, RatState


@pytest.fixture
def two() -> RatState:
    return start([["1", "7", "8", "2"], ["3", "9", "9", "4"]], draw=["0", "6", "2"])


# --- the deck and the deal ------------------------------------------------------------------------


def test_the_deck_has_54_cards() -> None:
    counts = Counter(CARD_TEXT[c] for c in DECK)
    assert len(DECK) == 54
    assert all(counts[str(n)] == 4 for n in range(9))
    assert counts["9"] == 9
    assert counts["PEEK"] == counts["SWAP"] == counts["DRAW2"] == 3


def test_each_player_looks_at_the_two_outer_cards_only(two: RatState) -> None:
    assert two.observation(0)["yours"] == ["1", None, None, "2"]
    assert two.observation(1)["yours"] == ["3", None, None, "4"]
    assert two.observation(0)["slots"][1] == [None] * 4
    assert two.spectator_view()["slots"] == [[None] * 4, [None] * 4]
    # Seat 2 dealt the first round, so seat 1 plays first.
    assert two.observation(0)["dealer"] == 1
    assert two.seats_to_act() == [0]
    assert two.observation(0)["discard_top"] == "5"


def test_dealing_from_a_seed_deals_one_card_at_a_time_from_the_left_of_the_dealer() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=3)
    state = game.new_state(seed=5)
    deal = state.initial_deal()
    assert [len(r) for r in deal["hands"]] == [4, 4, 4]
    assert len(deal["draw"]) + len(deal["discard"]) == 54 - 12
    assert deal["discard"][0] not in ("PEEK", "SWAP", "DRAW2")


def test_bad_deals_are_refused() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    good = make_deal([["1", "2", "3", "4"], ["5", "6", "7", "8"]])
    with pytest.raises(RatgamesError, match="54 cards"):
        game.new_state(deal={**good, "draw": good["draw"][1:]})
    with pytest.raises(RatgamesError, match="number card"):
        game.new_state(deal=make_deal([["1", "2", "3", "4"], ["5", "6", "7", "8"]], (), ["SWAP"]))
    with pytest.raises(RatgamesError, match="hand of seat 2"):
        game.new_state(deal={**good, "hands": [["1", "2", "3", "4"], ["5"]]})


# --- a turn ---------------------------------------------------------------------------------------


def test_draw_then_replace_only_the_drawer_knows_the_new_card(two: RatState) -> None:
    assert legal(two) == ["draw", "take"]
    play(two, "1:draw")
    assert two.observation(0)["held"] == "0"
    assert two.observation(1)["held"] == "hidden"
    assert legal(two) == ["replace 1", "replace 2", "replace 3", "replace 4", "discard"]
    play(two, "1:replace 2")
    assert two.observation(0)["yours"] == ["1", "0", None, "2"]
    assert two.observation(1)["slots"][0] == [None] * 4
    assert two.observation(1)["discard_top"] == "7"
    assert texts(two, 1)[-1] == "Seat 1 put the card in slot 2 and discarded the 7 from there"
    # The turn is done: knocking is offered.
    assert legal(two) == ["knock", "end"]
    play(two, "1:end")
    assert two.seats_to_act() == [1]


def test_a_drawn_card_may_be_discarded(two: RatState) -> None:
    play(two, "1:draw", "1:discard")
    assert two.observation(1)["discard_top"] == "0"
    assert two.observation(0)["yours"] == ["1", None, None, "2"]


def test_the_discard_top_must_replace_a_card_and_everyone_sees_where(two: RatState) -> None:
    play(two, "1:take")
    assert legal(two) == ["replace 1", "replace 2", "replace 3", "replace 4"]
    with pytest.raises(IllegalAction, match="must replace one of your cards"):
        two.apply(0, "discard")
    play(two, "1:replace 3")
    assert two.observation(1)["slots"][0] == [None, None, "5", None]
    assert two.spectator_view()["slots"][0] == [None, None, "5", None]
    assert two.observation(0)["discard_top"] == "8"


def test_a_power_card_on_the_discard_pile_cannot_be_taken() -> None:
    state = start([["1", "2", "3", "4"], ["5", "6", "7", "8"]], draw=["PEEK"])
    play(state, "1:draw", "1:peek 2", "1:end")
    assert state.observation(1)["discard_top"] == "PEEK"
    assert legal(state) == ["draw"]
    with pytest.raises(IllegalAction, match="power card"):
        state.apply(1, "take")


def test_refusals_name_what_is_wrong_and_leave_the_state_alone(two: RatState) -> None:
    before = two.snapshot()
    with pytest.raises(IllegalAction, match="not Seat 2's turn"):
        two.apply(1, "draw")
    with pytest.raises(IllegalAction, match="is not an action"):
        two.apply(0, "fly away")
    with pytest.raises(IllegalAction, match="no seat 5"):
        two.apply(0, "swap 1 5:1")
    with pytest.raises(IllegalAction, match="allowed now: draw, take"):
        two.apply(0, "knock")
    play(two, "1:draw")
    with pytest.raises(IllegalAction, match="you hold the 0 you drew"):
        two.apply(0, "peek 1")
    assert two.snapshot()["phase"] == "holding"
    assert before["phase"] == "start"


# --- power cards ----------------------------------------------------------------------------------


def test_peek_shows_one_of_your_cards_and_ends_the_turn() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "9", "4"]], draw=["PEEK"])
    play(state, "1:draw")
    assert state.observation(1)["discard_top"] == "PEEK"
    assert legal(state) == ["peek 1", "peek 2", "peek 3", "peek 4"]
    play(state, "1:peek 3")
    assert state.observation(0)["yours"] == ["1", None, "8", "2"]
    assert state.observation(1)["slots"][0] == [None] * 4
    assert texts(state, 1)[-1] == "Seat 1 peeked at its slot 3"
    assert legal(state) == ["knock", "end"]


def test_swap_is_blind_public_and_lets_both_look_in_the_gamewright_edition() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"]], draw=["SWAP"])
    play(state, "1:draw")
    options = legal(state)
    assert len(options) == 4 * 4 + 1 and options[-1] == "noswap"
    # Seat 1 knows its slot 1 holds a 1; it gives that away for seat 2's slot 3.
    play(state, "1:swap 1 2:3")
    assert state.observation(0)["yours"] == ["0", None, None, "2"]  # swap_look: it sees the 0
    assert state.observation(1)["yours"] == ["3", None, "1", "4"]  # and seat 2 sees the 1
    assert texts(state, 1)[-1] == "Seat 1 swapped its slot 1 with Seat 2's slot 3"
    assert state.snapshot()["hands"][:8] == ["0", "7", "8", "2", "3", "9", "1", "4"]


def test_without_swap_look_knowledge_follows_the_cards_but_nobody_looks() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"]], draw=["SWAP"], swap_look=False)
    play(state, "1:draw", "1:swap 4 2:1")
    # Seat 1 knew its 2 and now knows it is in seat 2's slot 1; it does not know what it got.
    assert state.observation(0)["yours"] == ["1", None, None, None]
    assert state.observation(0)["slots"][1] == ["2", None, None, None]
    assert state.observation(1)["yours"] == [None, None, None, "4"]
    assert state.observation(1)["slots"][0] == [None, None, None, "3"]


def test_swap_may_be_declined() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"]], draw=["SWAP"])
    play(state, "1:draw", "1:noswap")
    assert state.snapshot()["hands"][:8] == ["1", "7", "8", "2", "3", "9", "0", "4"]
    assert texts(state)[-1] == "Seat 1 chose not to swap"


def test_draw_2_use_the_first_card_and_forfeit_the_second() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"]], draw=["DRAW2", "0", "3"])
    play(state, "1:draw")
    assert legal(state) == ["draw"]
    with pytest.raises(IllegalAction, match="Draw 2"):
        state.apply(0, "take")
    play(state, "1:draw", "1:replace 2")
    assert legal(state) == ["knock", "end"]
    assert state.observation(0)["yours"] == ["1", "0", None, "2"]


def test_draw_2_discard_the_first_card_and_use_the_second() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"]], draw=["DRAW2", "9", "3", "6"])
    play(state, "1:draw", "1:draw", "1:discard")
    assert legal(state) == ["draw"]
    play(state, "1:draw")
    assert state.observation(0)["held"] == "3"
    play(state, "1:discard")
    # Both chances used: the turn is over.
    assert legal(state) == ["knock", "end"]


def test_draw_2_drawn_during_draw_2_restarts_with_two_fresh_chances() -> None:
    state = start(
        [["1", "7", "8", "2"], ["3", "9", "0", "4"]],
        draw=["DRAW2", "9", "DRAW2", "8", "7", "6"],
    )
    play(state, "1:draw", "1:draw", "1:discard", "1:draw")  # the second chance is a DRAW2
    assert state.observation(0)["draws_left"] == 2
    play(state, "1:draw", "1:discard", "1:draw")
    assert state.observation(0)["held"] == "7"
    play(state, "1:discard")
    assert legal(state) == ["knock", "end"]
    assert state.observation(1)["discard"][:5] == ["7", "8", "DRAW2", "9", "DRAW2"]


def test_a_power_card_drawn_during_draw_2_may_be_used_or_passed_on() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"]], draw=["DRAW2", "PEEK", "SWAP", "2"])
    play(state, "1:draw", "1:draw")
    assert legal(state) == ["peek 1", "peek 2", "peek 3", "peek 4", "discard"]
    play(state, "1:discard", "1:draw")  # pass on the Peek; the last chance is a Swap
    assert legal(state)[-1] == "noswap"
    play(state, "1:swap 2 2:2")
    assert legal(state) == ["knock", "end"]
    assert texts(state)[-3] == "Seat 1 passed on the Peek to draw again"


# --- knocking and the end of a round --------------------------------------------------------------


def test_after_a_knock_everyone_else_has_one_more_turn() -> None:
    state = start(
        [["1", "0", "1", "2"], ["3", "9", "0", "4"], ["5", "5", "6", "6"]], draw=["9", "8", "7"]
    )
    play(state, "1:draw", "1:discard", "1:knock")
    assert state.observation(2)["knocker"] == 0
    play(state, "2:draw", "2:discard")
    # No second knock is offered: the turn passes on by itself.
    assert state.seats_to_act() == [2]
    play(state, "3:draw", "3:replace 1")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.points == (4.0, 16.0, 24.0)
    assert outcome.winners == (0,)
    assert outcome.details["knocks"] == 1 and outcome.details["knocker_won"] == 1
    # Every row is face up at the end.
    assert state.observation(1)["slots"][2] == ["7", "5", "6", "6"]


def test_knocking_on_the_first_turn_is_allowed_and_ties_share_the_win() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], draw=["9", "9"])
    play(state, "1:draw", "1:discard", "1:knock", "2:draw", "2:discard")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)
    assert outcome.places == (1, 1)


def test_power_cards_in_a_row_are_replaced_from_the_draw_pile_at_the_end() -> None:
    state = start(
        [["PEEK", "2", "3", "SWAP"], ["1", "1", "1", "1"]],
        draw=["9", "9", "DRAW2", "6", "PEEK", "2"],
    )
    play(state, "1:draw", "1:discard", "1:knock", "2:draw", "2:discard")
    outcome = state.outcome()
    assert outcome is not None
    # Slot 1: DRAW2 is drawn and skipped, then 6; slot 4: PEEK skipped, then 2.
    assert state.observation(0)["slots"][0] == ["6", "2", "3", "2"]
    assert outcome.points == (13.0, 4.0)
    assert "Seat 1's Peek in slot 1 was replaced by a 6" in texts(state)


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], draw=["9", "8"], discard=["5"])
    # Put all but the top two cards of the draw pile under the discard pile (the cards stay
    # in the game; only their places change).
    rest = state.draw[:-2]
    del state.draw[:-2]
    state.discard[:0] = rest
    play(state, "1:draw", "1:discard", "1:end", "2:draw", "2:discard", "2:end")
    assert state.observation(0)["draw_pile"] == 0
    assert state.observation(0)["discard_top"] == "8"
    play(state, "1:draw")
    obs = state.observation(0)
    assert obs["discard"] == ["8"]
    assert obs["draw_pile"] == 54 - 8 - 1 - 1
    assert any(e[0] == "chance" and e[1] == "reshuffle" for e in state.events())
    assert "The discard pile was shuffled into a new draw pile of 45 cards" in texts(state)
    assert sorted(state.cards()) == list(DECK)


def test_the_turn_cap_counts_as_a_knock_and_the_others_still_have_their_last_turn() -> None:
    """Defect 5 of issue 13: the cap ended the round at once, without the others' last turns."""
    state = start(
        [["1", "2", "3", "4"], ["4", "3", "2", "1"], ["5", "5", "6", "6"]],
        draw=["9"] * 6,
        turn_cap=4,
    )
    play(state, "1:draw", "1:discard", "1:end", "2:draw", "2:discard", "2:end")
    play(state, "3:draw", "3:discard", "3:end")
    # Turn 4 reaches the cap; its player may still knock, or end the turn.
    play(state, "1:draw", "1:discard")
    assert legal(state) == ["knock", "end"]
    play(state, "1:end")
    assert not state.is_over() and state.seats_to_act() == [1]
    obs = state.observation(1)
    assert obs["closer"] == 0 and obs["knocker"] is None
    assert texts(state)[-1] == (
        "The round reached its turn cap (4 turns) and nobody knocked: as if Seat 1 had "
        "knocked, everyone else has one more turn"
    )
    # The others play their last turns, with no knock offered, then the round ends.
    play(state, "2:draw", "2:discard")
    assert state.seats_to_act() == [2]
    play(state, "3:take", "3:replace 1")  # the 9 seat 2 threw away, for a 5
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.capped
    assert outcome.details["cap_fired"] == 1 and outcome.details["knocks"] == 0
    assert outcome.details["length"] == 6
    assert outcome.points == (10.0, 10.0, 26.0)
    result = state.observation(0)["results"][-1]
    assert result["knocker"] is None and result["capped"] is True


def test_a_knock_on_the_capped_turn_is_a_knock_and_the_others_play_on() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "0"]], draw=["9"] * 4, turn_cap=2)
    play(state, "1:draw", "1:discard", "1:end", "2:draw", "2:discard")
    assert legal(state) == ["knock", "end"]
    play(state, "2:knock")
    assert not state.is_over() and state.seats_to_act() == [0]
    play(state, "1:draw", "1:discard")
    outcome = state.outcome()
    assert outcome is not None and not outcome.capped
    assert outcome.details["cap_fired"] == 0 and outcome.details["knocks"] == 1
    assert outcome.details["knocker_won"] == 1 and outcome.winners == (1,)
    assert state.observation(0)["results"][-1]["knocker"] == 1


def test_a_turn_cap_of_one_caps_the_first_turn() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], draw=["9"] * 4, turn_cap=1)
    play(state, "1:draw", "1:discard", "1:end")
    assert state.seats_to_act() == [1]
    play(state, "2:draw", "2:discard")
    outcome = state.outcome()
    assert outcome is not None and outcome.details["cap_fired"] == 1
    assert outcome.details["length"] == 2


def test_the_cap_of_each_round_fires_in_a_longer_game() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], mode="rounds=3", turn_cap=3)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        acts = legal(state)
        choice = next((a for a in ("end", "noswap", "peek 1", "discard") if a in acts), "draw")
        state.apply(seat, choice)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.details["cap_fired"] == 3 and outcome.details["knocks"] == 0
    # Three capped turns and one last turn in every round.
    assert outcome.details["length"] == 3 * 4
    assert [r["capped"] for r in state.observation(0)["results"]] == [True] * 3


# --- the whole game -------------------------------------------------------------------------------


def _finish_round(state: RatState) -> None:
    """Everyone draws and discards; the first player to act knocks."""
    rnd = state.observation(0)["round"]
    knocked = False
    while not state.is_over() and state.observation(0)["round"] == rnd:
        seat = state.seats_to_act()[0]
        acts = legal(state)
        if "knock" in acts:
            state.apply(seat, "end" if knocked else "knock")
            knocked = True
        elif "peek 1" in acts:
            state.apply(seat, "peek 1")
        elif "noswap" in acts:
            state.apply(seat, "noswap")
        elif "discard" in acts:
            state.apply(seat, "discard")
        else:
            state.apply(seat, "draw")


def test_rounds_mode_adds_up_and_the_dealer_moves_left() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], mode="rounds=3")
    _finish_round(state)
    obs = state.observation(0)
    assert obs["round"] == 2 and obs["dealer"] == 0 and state.seats_to_act() == [1]
    assert obs["totals"] == [10, 10]
    assert obs["results"][0]["sums"] == [10, 10]
    _finish_round(state)
    assert state.observation(0)["dealer"] == 1
    _finish_round(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.details["rounds"] == 3
    assert list(outcome.points) == [float(x) for x in state.observation(0)["totals"]]


def test_elimination_a_player_reaching_the_limit_is_out_and_not_dealt_in() -> None:
    state = start(
        [["9", "9", "9", "9"], ["0", "0", "0", "0"], ["1", "2", "3", "4"]], mode="elimination=30"
    )
    _finish_round(state)
    obs = state.observation(1)
    assert obs["out"] == [True, False, False]
    assert obs["in_round"] == [False, True, True]
    assert obs["round"] == 2 and obs["dealer"] == 1 and state.seats_to_act() == [2]
    assert obs["slots"][0] == [None] * 4
    assert "Seat 1 is out of the game with 36 points" in texts(state)


def test_elimination_the_last_player_under_the_limit_wins() -> None:
    state = start(
        [["9", "9", "9", "9"], ["0", "0", "0", "0"], ["8", "8", "8", "8"]], mode="elimination=30"
    )
    _finish_round(state)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (1,)
    assert outcome.points == (36.0, 0.0, 32.0)
    assert outcome.places == (3, 1, 2)
    assert outcome.reason == "last player under 30 points"


def test_minutes_mode_finishes_the_round_in_progress_when_time_is_up() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], mode="minutes=1")
    state.apply(0, "draw", time=10.0)
    state.apply(0, "discard", time=70.0)
    state.apply(0, "knock", time=71.0)
    state.apply(1, "draw", time=72.0)
    state.apply(1, "discard", time=73.0)
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.details["rounds"] == 1


def test_minutes_mode_without_times_counts_ten_seconds_a_turn() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], mode="minutes=1")
    _finish_round(state)  # two turns: 20 seconds
    assert not state.is_over()
    assert state.observation(0)["round"] == 2


# --- options --------------------------------------------------------------------------------------


def test_edition_presets_and_explicit_options() -> None:
    g = ratgames.get_game("rat-a-tat-cat", options={"edition": "forlago"})
    assert g.options["swap_look"] is False and g.options["first_discard"] == "keep_turning"
    g = ratgames.get_game("rat-a-tat-cat", options={"edition": "forlago", "swap_look": "true"})
    assert g.options["swap_look"] is True
    g = ratgames.get_game("rat-a-tat-cat")
    assert g.options["swap_look"] is True and g.options["first_discard"] == "shuffle_back"
    assert g.options["mode"] == "elimination=100"


@pytest.mark.parametrize("bad", ["forever", "rounds=0", "rounds=x", "elimination", 3])
def test_bad_modes_are_refused_with_what_is_allowed(bad: Any) -> None:
    with pytest.raises(RatgamesError, match="rounds=N"):
        ratgames.get_game("rat-a-tat-cat", options={"mode": bad})


def test_modes_are_normalised() -> None:
    g = ratgames.get_game("rat-a-tat-cat", options={"mode": " Rounds = 5 "})
    assert g.options["mode"] == "rounds=5"


def _first_power_seed(players: int) -> int:
    """A seed whose shuffled deck turns up a power card as the first discard."""
    for seed in range(500):
        order = list(DECK)
        Rng(seed).shuffle(order)
        if order[players * 4] >= 10:
            return seed
    raise AssertionError("no seed found")


def test_first_discard_keep_turning_leaves_the_power_cards_under_a_number() -> None:
    seed = _first_power_seed(2)
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"edition": "forlago"})
    discard = game.new_state(seed=seed).initial_deal()["discard"]
    assert len(discard) >= 2
    assert discard[0] in [str(n) for n in range(10)]
    assert all(c in ("PEEK", "SWAP", "DRAW2") for c in discard[1:])


def test_first_discard_shuffle_back_returns_the_power_card_to_the_draw_pile() -> None:
    seed = _first_power_seed(2)
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    deal = game.new_state(seed=seed).initial_deal()
    assert len(deal["discard"]) == 1 and deal["discard"][0] in [str(n) for n in range(10)]
    assert len(deal["draw"]) == 54 - 8 - 1


def test_younger_outer_cards_are_face_up_and_cannot_be_swapped() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"]], draw=["SWAP", "6"], younger=True)
    assert state.observation(1)["slots"][0] == ["1", None, None, "2"]
    assert state.spectator_view()["slots"][1] == ["3", None, None, "4"]
    play(state, "1:draw")
    assert legal(state) == [
        "swap 2 2:2",
        "swap 2 2:3",
        "swap 3 2:2",
        "swap 3 2:3",
        "noswap",
    ]
    with pytest.raises(IllegalAction, match="face up"):
        state.apply(0, "swap 1 2:2")
    play(state, "1:noswap", "1:end", "2:draw", "2:replace 1")
    # A card that replaces an outer card is put face down.
    assert state.observation(0)["slots"][1] == [None, None, None, "4"]
    assert state.observation(0)["face_up"][1] == [False, False, False, True]


def test_the_rules_explain_every_option() -> None:
    text = RatATatCat().rules()
    for name in ("edition", "first_discard", "swap_look", "younger", "mode", "memory_aid"):
        assert f"`{name}`" in text


def test_notation_round_trips_and_cards_parse() -> None:
    game = RatATatCat(players=3)
    for action in game.action_space():
        assert game.parse_action(str(action)) == action
    assert game.parse_action("  Swap 1   3:4 ") == game.parse_action("swap 1 3:4")
    assert game.parse_card("draw 2") == 12 and game.card_text(10) == "PEEK"
    with pytest.raises(RatgamesError):
        game.parse_card("10")


def test_samples_keep_what_the_seat_knows_and_reshuffle_the_rest(two: RatState) -> None:
    play(two, "1:draw", "1:replace 2", "1:end", "2:take", "2:replace 2")
    sample = two.sample_consistent(0, Rng(3))
    assert sample.observation(0) == two.observation(0)
    snap = sample.snapshot()
    assert snap["hands"][0:2] == ["1", "0"] and snap["hands"][3] == "2"
    assert snap["hands"][5] == "7"  # seat 2 took the 7 seat 1 discarded: everyone knows it
