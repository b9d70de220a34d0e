"""Rats as the rule sheet tells it: scripted deals, a few plays in notation, the result."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.errors import DealError, IllegalAction
from ratgames.core.rng import Rng
from ratgames.games.rats.action import DISCARD, RUN, SET, SINGLE, RatsAction, canonical
from ratgames.games.rats.rules import Rats, RatsState


def table(
    hands: list[str], dealer: int = 0, jokers: int = 0, **options: Any
) -> tuple[Rats, RatsState]:
    """A game dealt ``hands`` (one text of cards per player); every other card is the stock."""
    game = ratgames.get_game("rats", players=len(hands), options={"jokers": jokers, **options})
    assert isinstance(game, Rats)
    dealt = [h.split() for h in hands]
    used = {parse_card(c) for h in dealt for c in h}
    stock = [game.card_text(c) for c in standard_deck(jokers) if c not in used]
    state = game.new_state(seed=5, deal={"dealer": dealer, "hands": dealt, "stock": stock})
    assert isinstance(state, RatsState)
    return game, state


def play(state: RatsState, *moves: str) -> None:
    """Apply ``moves`` in turn, each by the seat whose turn it is."""
    for move in moves:
        state.apply(state.seats_to_act()[0], move)


def refused(state: RatsState, move: str, *words: str) -> str:
    """``move`` is refused, the state is unchanged, and the reason contains ``words``."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(state.seats_to_act()[0], move)
    assert state.snapshot() == before
    for w in words:
        assert w in str(info.value), str(info.value)
    return str(info.value)


def legal_texts(state: RatsState) -> list[str]:
    return [str(a) for a in state.legal_actions(state.seats_to_act()[0])]


# --- the deal -------------------------------------------------------------------------------


def test_the_deal_gives_equal_hands_and_the_rest_is_stock() -> None:
    for players, size, stock in ((2, 26, 0), (3, 17, 1), (4, 13, 0), (5, 10, 2)):
        game = ratgames.get_game("rats", players=players)
        state = game.new_state(seed=players)
        obs = state.observation(0)
        assert obs["hand_sizes"] == [size] * players
        assert obs["stock"] == stock
        assert obs["initial_hand_size"] == size
        assert obs["to_act"] == [obs["dealer"]], "the dealer leads the first trick"
    five = ratgames.get_game("rats", players=5, options={"jokers": 2}).new_state(seed=1)
    assert five.observation(0)["hand_sizes"] == [10] * 5
    assert five.observation(0)["stock"] == 4


def test_the_dealer_is_chosen_by_lot() -> None:
    game = ratgames.get_game("rats", players=4)
    dealers = {game.new_state(seed=s).observation(0)["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_bad_deals_are_refused() -> None:
    game = ratgames.get_game("rats", players=2)
    with pytest.raises(DealError, match="same number"):
        game.new_state(deal={"dealer": 0, "hands": [["2C"], ["3C", "4C"]], "stock": []})
    with pytest.raises(DealError, match="every card"):
        game.new_state(deal={"dealer": 0, "hands": [["2C"], ["3C"]], "stock": ["4C"]})
    with pytest.raises(DealError, match="dealer"):
        game.new_state(deal={"dealer": 2, "hands": [["2C"], ["3C"]], "stock": []})


# --- singles --------------------------------------------------------------------------------


def test_a_single_is_beaten_only_by_a_higher_card_of_the_suit_led() -> None:
    _, s = table(["9H 2C", "AS 10H", "8H 3D"])
    play(s, "9H")
    refused(s, "AS", "suit led", "discard")
    assert legal_texts(s) == ["10H", "discard 10H", "discard AS"]
    play(s, "10H")
    refused(s, "8H", "does not beat")
    play(s, "discard 8H")
    obs = s.observation(0)
    assert obs["reserve_sizes"] == [0, 3, 0]
    assert obs["to_act"] == [1], "the winner of a trick leads the next"
    assert obs["round_tricks"][0]["winner"] == 1


def test_a_card_of_another_suit_never_beats_even_an_ace() -> None:
    _, s = table(["2C 3C", "AS 4C"])
    play(s, "2C", "discard AS")
    assert s.observation(0)["reserve_sizes"] == [2, 0]


# --- sets -----------------------------------------------------------------------------------


def test_pairs_beat_by_rank_and_a_tie_does_not_beat() -> None:
    _, s = table(["7H 7S 2C", "7C 7D 3C", "9C 9D 4C"])
    play(s, "7H 7S")
    refused(s, "7C 7D", "do not beat")
    refused(s, "7C", "play 2 cards")
    refused(s, "7C 3C", "pair only if they share a rank")
    play(s, "discard 3C", "discard 7C")
    refused(s, "9C 4C", "pair only if they share a rank")
    play(s, "9C 9D")
    assert s.observation(0)["reserve_sizes"] == [0, 0, 6]


def test_three_and_four_of_a_kind() -> None:
    _, s = table(["5C 5D 5H 2C", "6C 6D 6H 3C"])
    play(s, "5C 5D 5H")
    assert "6C 6D 6H" in legal_texts(s)
    play(s, "6C 6D 6H")
    assert s.observation(0)["reserve_sizes"] == [0, 6]
    _, s = table(["KC KD KH KS", "AC AD AH AS"])
    play(s, "KC KD KH KS", "AC AD AH AS")
    assert s.is_over()
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == (1,)


# --- runs -----------------------------------------------------------------------------------


def test_runs_beat_by_top_card_then_by_suit() -> None:
    _, s = table(["5C 6C 7C 2D", "5H 6H 7H 3D", "5D 6D 7D 4D", "4S 5S 6S 8D"])
    play(s, "5C 6C 7C")
    play(s, "7H 5H 6H")  # any order is read; H over C with the same top card
    refused(s, "5D 6D 7D", "does not beat", "suit")
    play(s, "discard 4D", "discard 5D", "discard 6D")
    refused(s, "4S 5S 6S", "does not beat")
    play(s, "discard 4S", "discard 5S", "discard 6S")
    assert s.observation(0)["reserve_sizes"] == [0, 12, 0, 0]


def test_a_higher_top_card_beats_whatever_the_suit() -> None:
    _, s = table(["QS JS KS 2C", "9C 10C JC 3C", "10D JD QD 4C"])
    play(s, "JS QS KS")
    assert [a for a in legal_texts(s) if not a.startswith("discard")] == []
    play(s, "discard 3C", "discard 9C", "discard 10C")
    assert [a for a in legal_texts(s) if not a.startswith("discard")] == []


def test_the_ace_is_low_in_runs_only() -> None:
    _, s = table(["AC 2C 3C KD", "QH KH AH 4D"])
    assert "AC 2C 3C" in legal_texts(s)
    play(s, "AC 2C 3C")
    with pytest.raises(IllegalAction, match="not a combination"):
        s.apply(1, "QH KH AH")
    # 2-3-4 beats A-2-3: its top card is higher.
    _, s = table(["AC 2C 3C KD", "2H 3H 4H AD"])
    play(s, "AC 2C 3C", "2H 3H 4H")
    assert s.observation(0)["reserve_sizes"] == [0, 6]


def test_a_run_must_be_followed_by_a_run_of_the_same_length() -> None:
    _, s = table(["5C 6C 7C 2D", "6H 7H 8H 9H"])
    play(s, "5C 6C 7C")
    refused(s, "6H 7H 8H 9H", "run of 3")
    assert "7H 8H 9H" in legal_texts(s)


# --- discards -------------------------------------------------------------------------------


def test_a_discard_is_laid_one_card_at_a_time_lowest_first() -> None:
    _, s = table(["9C 9D 2S", "3C 8D KH"])
    play(s, "9C 9D")
    assert legal_texts(s) == ["discard 3C", "discard 8D"], "KH first would leave nothing higher"
    refused(s, "discard 3C KH", "one card at a time")
    play(s, "discard 8D")
    refused(s, "discard 3C", "card order")
    refused(s, "3C", "begun a discard")
    play(s, "discard KH")
    obs = s.observation(0)
    assert obs["round_tricks"][0]["plays"][1]["play"] == "discard 8D KH"
    assert obs["reserve_sizes"] == [4, 0]


def test_the_leader_cannot_discard() -> None:
    _, s = table(["9C 2D", "3C 8D"])
    refused(s, "discard 9C", "lead")


# --- jokers ---------------------------------------------------------------------------------


def test_jokers_complete_sets_but_two_jokers_are_no_pair() -> None:
    _, s = table(["7H BJ RJ 2C", "8C 8D 3C 4C"], jokers=2)
    leads = legal_texts(s)
    assert "7H BJ" in leads and "7H RJ" in leads and "7H BJ RJ set" in leads
    assert "7H BJ RJ run" in leads
    assert "BJ RJ" not in leads
    refused(s, "BJ RJ", "needs a natural card")
    with pytest.raises(IllegalAction, match="set' or 'run"):
        s.game.parse_action("7H BJ RJ")
    play(s, "7H BJ")
    play(s, "8C 8D")
    assert s.observation(0)["reserve_sizes"] == [0, 4]


def test_a_joker_run_takes_its_best_reading() -> None:
    # 5H 6H + joker reads 5-6-7: it beats 4-5-6 of spades and loses to 6-7-8.
    _, s = table(["5H 6H BJ 2C", "4S 5S 6S 3C", "6D 7D 8D 4C"], jokers=1)
    play(s, "5H 6H BJ")
    refused(s, "4S 5S 6S", "does not beat")
    play(s, "discard 3C", "discard 4S", "discard 5S")
    play(s, "6D 7D 8D")
    assert s.observation(0)["reserve_sizes"] == [0, 0, 9]


def test_a_single_joker_is_lowest_and_never_led_with_another_choice() -> None:
    _, s = table(["BJ 2C", "3D 4D"], jokers=1)
    assert legal_texts(s) == ["2C", "2C BJ"]
    refused(s, "BJ", "no other lead")
    play(s, "2C", "discard 3D")
    play(s, "BJ")  # nothing else left to lead
    # The next natural card names the suit led and beats the joker; it cannot be discarded.
    refused(s, "discard 4D", "names the suit")
    play(s, "4D")
    obs = s.observation(0)
    assert obs["events"][-2] == {"kind": "trick", "round": 1, "winner": 1, "count": 2}
    assert obs["stock_taker"] == 1


def test_a_joker_following_a_single_always_loses() -> None:
    _, s = table(["2C 3C", "BJ 4C"], jokers=1)
    play(s, "2C")
    refused(s, "BJ", "never wins")
    play(s, "discard BJ")
    assert s.observation(0)["reserve_sizes"] == [2, 0]


def test_a_trick_of_jokers_only_goes_to_the_leader() -> None:
    _, s = table(["BJ", "RJ"], jokers=2)
    play(s, "BJ", "discard RJ")
    obs = s.observation(0)
    assert obs["round_tricks"][0]["winner"] == 0


# --- rounds, the stock, elimination ----------------------------------------------------------


def test_round_end_stock_elimination_and_next_hand_size() -> None:
    _, s = table(["AS 2C", "3C 4D", "5H 6H"])
    play(s, "AS", "discard 3C", "discard 5H")
    refused(s, "discard 2C", "lead")
    play(s, "2C")
    play(s, "discard 4D", "discard 6H")
    # Seat 0 won both tricks and the 46-card stock: the others have no reserve and are out.
    assert s.is_over()
    outcome = s.outcome()
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.points == (52.0, 0.0, 0.0)
    assert outcome.details == {"length": 2, "rounds": 1, "cap_fired": 0}
    assert "last player with cards" in outcome.reason


def test_the_hand_shrinks_to_the_smallest_reserve() -> None:
    _, s = table(["AS 2C 3C", "KS 4C 5C"])
    play(s, "AS", "discard KS")  # seat 0: 2 cards
    play(s, "2C", "4C")  # seat 1 wins and leads
    play(s, "5C", "discard 3C")  # seat 1 wins the last trick and the stock
    obs = s.observation(0)
    assert obs["round"] == 2
    assert obs["out"] == [False, False]
    assert obs["hand_size"] == 2, "the smaller of the first hand size (3) and the smallest reserve"
    assert obs["hand_sizes"] == [2, 2]
    assert obs["reserve_sizes"] == [0, 48]
    assert obs["stock"] == 0 and obs["stock_taker"] == 1
    assert obs["to_act"] == [1], "the winner of the last trick leads the next round"
    assert sorted(obs["hand"]) == ["AS", "KS"], "seat 0's reserve was exactly its two cards"
    assert obs["events"][-1]["kind"] == "round_end"
    assert obs["events"][-1]["next_hand_size"] == 2
    # Seat 0's reserve shuffle is not recorded (nothing to choose); seat 1's is.
    chances = [e for e in s.events() if e[0] == "chance"]
    assert [c[1] for c in chances] == ["reserve"]


def test_the_hand_size_never_grows_past_the_first() -> None:
    _, s = table(["AS 2C", "KS 3D"])
    play(s, "AS", "discard KS", "2C", "discard 3D")
    # Seat 1 is out; the game is over.
    assert s.is_over()


def test_round_cap_ends_the_game_with_the_most_cards_winning() -> None:
    _, s = table(["AS 2C 3C", "KS 4C 5C"], max_rounds=1)
    play(s, "AS", "discard KS", "2C", "4C", "5C", "discard 3C")
    assert s.is_over()
    outcome = s.outcome()
    assert outcome is not None
    assert outcome.capped and outcome.details["cap_fired"] == 1
    assert outcome.winners == (1,)
    assert outcome.places == (2, 1)


def test_places_rank_later_eliminations_higher() -> None:
    game = ratgames.get_game("rats", players=4)
    for seed in range(5):
        s = game.new_state(seed=seed)
        rng = Rng(seed)
        while not s.is_over():
            seat = s.seats_to_act()[0]
            legal = s.legal_actions(seat)
            s.apply(seat, legal[rng.randbelow(len(legal))])
        outcome = s.outcome()
        assert outcome is not None
        assert outcome.places[outcome.winners[0]] == 1
        assert sum(outcome.points) == 52


# --- notation and enumeration ----------------------------------------------------------------


def test_notation_round_trips_and_bad_text_is_explained() -> None:
    game = ratgames.get_game("rats", options={"jokers": 2})
    for text in ("7H", "7H 7S", "5C 6C 7C", "discard 2C", "5H BJ RJ set", "AC 2C BJ"):
        assert str(game.parse_action(text)) == text
    assert str(game.parse_action("7s 7h")) == "7H 7S"
    with pytest.raises(IllegalAction, match="not a card"):
        game.parse_action("7X")
    with pytest.raises(IllegalAction, match="twice"):
        game.parse_action("7H 7H")
    with pytest.raises(IllegalAction, match="not in this deck"):
        ratgames.get_game("rats").parse_action("BJ")


def _brute_force(state: RatsState, seat: int) -> set[RatsAction]:
    """Every subset of the hand, read every way, kept if the state accepts it."""
    hand = state.hands[seat]
    found = set()
    for n in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, n):
            for kind in (SINGLE, SET, RUN, DISCARD):
                action = RatsAction(kind, canonical(kind, combo))
                if state.is_legal(seat, action):
                    found.add(action)
    return found


@pytest.mark.parametrize("jokers", [0, 2])
def test_legal_actions_are_exactly_the_accepted_plays(jokers: int) -> None:
    game = ratgames.get_game("rats", players=4, options={"jokers": jokers})
    rng = Rng(99)
    checked = 0
    for seed in range(6):
        s = game.new_state(seed=seed)
        steps = 0
        while not s.is_over() and steps < 60:
            seat = s.seats_to_act()[0]
            legal = s.legal_actions(seat)
            if len(s.hands[seat]) <= 9:
                assert set(legal) == _brute_force(s, seat)
                assert len(set(legal)) == len(legal)
                checked += 1
            s.apply(seat, legal[rng.randbelow(len(legal))])
            steps += 1
    assert checked > 20


def test_observations_hide_other_hands_and_reserve_order() -> None:
    _, s = table(["AS 2C", "KS 4C"])
    obs = s.observation(0)
    assert obs["hand"] == ["2C", "AS"]
    assert "KS" not in str(obs)
    play(s, "AS", "discard KS")
    obs = s.observation(1)
    assert obs["holdings_known"][0] == ["KS", "AS"]
    assert obs["events"][-1] == {"kind": "trick", "round": 1, "winner": 0, "count": 2}


@pytest.mark.parametrize(("players", "jokers"), [(2, 0), (3, 2), (4, 1)])
def test_samples_keep_what_is_known_about_every_holding(players: int, jokers: int) -> None:
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    rng = Rng(7)
    for seed in range(4):
        s = game.new_state(seed=seed)
        assert isinstance(s, RatsState)
        while not s.is_over():
            for seat in range(players):
                sample = s.sample_consistent(seat, Rng(rng.next64()))
                assert sample.hands[seat] == s.hands[seat]
                for p in range(players):
                    hand = {c for c in sample.hands[p]}
                    holding = hand | set(_bits(sample.reserves[p]))
                    assert set(_bits(s.known[p])) <= holding, "publicly known cards stay put"
                    assert not hand & set(_bits(s.won_round[p])), "won this round: in reserve"
                    assert set(_bits(s.known_hand[p])) <= hand
                    assert len(sample.hands[p]) == len(s.hands[p])
                    assert sample.reserves[p].bit_count() == s.reserves[p].bit_count()
            seat = s.seats_to_act()[0]
            legal = s.legal_actions(seat)
            s.apply(seat, legal[rng.randbelow(len(legal))])


def _bits(mask: int) -> list[int]:
    return [c for c in range(54) if mask >> c & 1]


def test_a_joker_lead_reveals_a_hand_of_jokers() -> None:
    _, s = table(["BJ RJ", "2C 3C"], jokers=2)
    play(s, "BJ")
    obs = s.observation(1)
    assert obs["known_in_hand"][0] == ["RJ"], "a joker is led alone only from a hand of jokers"
    sample = s.sample_consistent(1, Rng(3))
    assert sample.hands[0] == (53,)


@pytest.mark.parametrize(("players", "jokers"), [(4, 2), (5, 1), (3, 2)])
def test_joker_games_at_larger_tables_keep_the_invariants(players: int, jokers: int) -> None:
    """The generic suite runs joker variants at two players only; cover bigger tables here."""
    import json

    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    deck = sorted(game.deck())
    rng = Rng(players * 10 + jokers)
    for seed in range(3):
        s = game.new_state(seed=seed)
        steps = 0
        while not s.is_over():
            assert sorted(s.cards()) == deck
            if steps % 9 == 0:
                for seat in range(players):
                    obs = s.observation(seat)
                    json.dumps(obs)
                    other = s.sample_consistent(seat, Rng(rng.next64()))
                    assert other.observation(seat) == obs
                    assert other.spectator_view() == s.spectator_view()
                    r = rng.next64()
                    a = s.sample_consistent(seat, Rng(r)).snapshot()
                    assert a == other.sample_consistent(seat, Rng(r)).snapshot()
            seat = s.seats_to_act()[0]
            legal = s.legal_actions(seat)
            assert len(set(legal)) == len(legal)
            s.apply(seat, legal[rng.randbelow(len(legal))])
            steps += 1
        record = json.loads(json.dumps(s.record()))
        assert ratgames.replay(record).snapshot() == s.snapshot()


def test_a_deal_of_any_shape_or_type_is_refused_with_a_deal_error() -> None:
    game = ratgames.get_game("rats", players=2)
    values: list[Any] = [None, True, 1, 1.5, "x", "2C", [], ["2C"], [[]], {}, [["2C", 5]]]
    values += [[[None]], [["2C"], ["3C"]], [["2C"], [["3C"]]], [{"card": "2C"}]]
    for dealer, hands, stock in itertools.product([0, None, True, 2, "0", 0.0], values, values):
        for deal in (
            {"dealer": dealer, "hands": hands, "stock": stock},
            {"dealer": dealer, "hands": hands},
            {"dealer": dealer, "hands": hands, "stock": stock, "extra": 1},
        ):
            with pytest.raises(DealError):
                game.new_state(deal=deal)


def test_a_deal_with_a_foreign_card_is_refused() -> None:
    game = ratgames.get_game("rats", players=2)
    with pytest.raises(DealError, match="does not have"):
        game.new_state(deal={"dealer": 0, "hands": [["2C"], ["BJ"]], "stock": []})
