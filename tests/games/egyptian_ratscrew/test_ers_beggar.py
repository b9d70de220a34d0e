"""Egyptian Ratscrew without slaps (option ``slaps=false``): Beggar-my-neighbour, its end and its
figures in the convention of the published longest-game records, and ``face_deal``."""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.egyptian_ratscrew.helpers import game, table

from ratgames.cards import card_text, parse_card
from ratgames.core.errors import DealError, IllegalAction, OptionError
from ratgames.core.rng import Rng
from ratgames.games.egyptian_ratscrew.phases import OUT
from ratgames.games.egyptian_ratscrew.rules import EgyptianRatscrew, RatscrewState, face_deal

# Published record deals of Beggar-my-neighbour (face-card notation, first card on top, the
# first player leads) with their lengths in cards and tricks, as listed by the records kept by
# Richard P. Mann and reproduced by independent simulators.
RECORDS = [
    ("Paulhus 1999", "------------KAQ----J------", "-JQQK---K----JK--QA-A-JA--", 4791, 670),
    ("Kleber 1999", "---JQ---K-A----A-J-K---QK-", "-J-----------AJQA----K---Q", 5790, 805),
    ("Collins 2006", "A-QK------Q----KA-----J---", "-JAK----A--Q----J---QJ--K-", 6913, 960),
    ("Mann and Wu 2007", "K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--", 7157, 1007),
    ("Nessler 2012", "----Q------A--K--A-A--QJK-", "-Q--J--J---QK---K----JA---", 7207, 1015),
    ("Anderson 2013", "--A-Q--J--J---Q--AJ-K---K-", "-J-------Q------A--A--QKK-", 7225, 1016),
    ("Rucklidge 2014", "-J------Q------AAA-----QQ-", "K----JA-----------KQ-K-JJK", 7959, 1122),
    ("Nessler 2021", "----K---A--Q-A--JJA------J", "-----KK---------A-JK-Q-Q-Q", 7972, 1106),
    ("Nessler 2022", "---AJ--Q---------QAKQJJ-QK", "-----A----KJ-K--------A---", 8344, 1164),
]

# The first known never-ending deal (Casella, 2024).
NEVER_ENDING = ("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA")


def beggar(players: int = 2, **options: Any) -> EgyptianRatscrew:
    return game(players, slaps=False, **options)


def run(state: RatscrewState) -> None:
    """Play (or collect) until the end, as nobody can do anything else."""
    state.set_recording(False)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def outcome_of(state: RatscrewState) -> dict[str, Any]:
    out = state.outcome()
    assert out is not None
    return {"winners": out.winners, **out.details}


@pytest.mark.parametrize(
    ("first", "second", "cards", "tricks"),
    [r[1:] for r in RECORDS],
    ids=[r[0] for r in RECORDS],
)
def test_published_record_deals_give_their_published_figures(
    first: str, second: str, cards: int, tricks: int
) -> None:
    state = beggar().new_state(seed=0, deal=face_deal(first, second))
    assert isinstance(state, RatscrewState)
    run(state)
    figures = outcome_of(state)
    assert (figures["cards"], figures["tricks"]) == (cards, tricks)
    assert figures["length"] == cards and figures["piles_won"] == tricks
    assert figures["cycle"] == 0 and figures["slaps"] == 0
    winner = figures["winners"][0]
    assert len(state.stacks[winner]) == 52 and len(figures["winners"]) == 1


def test_the_2007_record_deal_as_a_player_would_type_it() -> None:
    """Mann and Wu's deal: 7157 cards and 1007 tricks."""
    deal = face_deal("K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--")
    state = beggar().new_state(deal=deal, seed=1)
    assert isinstance(state, RatscrewState)
    run(state)
    out = state.outcome()
    assert out is not None and out.details["cards"] == 7157 and out.details["tricks"] == 1007
    assert out.reason == "the last player with cards" and not out.capped


# --- face_deal ---------------------------------------------------------------------------------


def test_face_deal_puts_face_cards_where_the_letters_are_and_number_cards_elsewhere() -> None:
    first, second = RECORDS[3][1:3]
    deal = face_deal(first, second)
    stacks = deal["stacks"]
    assert [len(s) for s in stacks] == [26, 26]
    every = [parse_card(c) for s in stacks for c in s]
    assert sorted(every) == list(range(52))
    for pattern, stack in zip((first, second), stacks, strict=True):
        for letter, text in zip(pattern, stack, strict=True):
            rank = text[:-1]
            assert rank == letter if letter != "-" else rank not in ("J", "Q", "K", "A")
    assert stacks[0][0] == "KC" and stacks[1][3] == "QD"  # top card first, suits in order
    assert face_deal(first[:13] + " " + first[13:], second) == deal  # spaces are ignored


def test_face_deal_gives_uneven_and_empty_hands_and_jokers() -> None:
    deal = face_deal("JQKA" * 4 + "-" * 10, "-" * 26, "")
    assert [len(s) for s in deal["stacks"]] == [26, 26, 0]
    with_jokers = face_deal("JQKA" * 4, "-" * 38, jokers=2)
    assert with_jokers["stacks"][1][-2:] == ["BJ", "RJ"]
    state = beggar(3).new_state(seed=0, deal=deal)
    assert state.seats_to_act() == [0]


@pytest.mark.parametrize(
    ("hands", "jokers", "message"),
    [
        (("K-x",), 0, "'x'"),
        (("JQKA" * 4 + "-" * 36, "J"), 0, "jacks: 5"),
        (("JQKA" * 4, "-" * 35), 0, "other cards: 35"),
        ((["K"],), 0, "text"),
        (("JQKA" * 4 + "-" * 36,), 3, "jokers"),
        (("JQKA" * 4 + "-" * 36,), True, "jokers"),
    ],
)
def test_face_deal_refuses_what_is_not_a_deck(
    hands: tuple[Any, ...], jokers: Any, message: str
) -> None:
    with pytest.raises(DealError, match=message):
        face_deal(*hands, jokers=jokers)


# --- nobody slaps --------------------------------------------------------------------------------


def test_nobody_may_slap_and_only_the_player_to_move_acts() -> None:
    state = table(beggar(3), "9H 2C", "9C 3C", "9D 4C")
    state.apply(0, "play")
    state.apply(1, "play")  # doubles, but nobody may slap
    view = state.observation(2)
    assert view["slappable"] is None and view["may_slap"] is False
    assert state.seats_to_act() == [2]
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    assert [str(a) for a in state.legal_actions(2)] == ["play"]
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="nobody slaps"):
        state.apply(0, f"slap@{state.version}")
    with pytest.raises(IllegalAction, match="may only wait"):
        state.apply(0, "play")
    assert state.snapshot() == before


def test_newcomers_need_slaps() -> None:
    with pytest.raises(OptionError, match="newcomers"):
        game(3, slaps=False, newcomers=1)


# --- the end, as the published records count it --------------------------------------------------


def rest_to(seat: int, players: int, *named: str) -> dict[str, Any]:
    """A deal where the seats hold ``named`` (top first) and ``seat`` also every other card."""
    stacks = [s.split() for s in named] + [[] for _ in range(players - len(named))]
    used = {c for s in stacks for c in s}
    stacks[seat] += [card_text(c) for c in range(52) if card_text(c) not in used]
    return {"stacks": stacks}


def test_a_player_out_of_cards_outside_a_challenge_lets_the_other_play_one_more() -> None:
    deal = rest_to(1, 2, "2C", "3C")
    with_slaps = game(2).new_state(seed=0, deal=deal)
    with_slaps.apply(0, "play")
    assert with_slaps.is_over()  # the holder of every card wins at once
    state = beggar().new_state(seed=0, deal=deal)
    state.apply(0, "play")
    assert not state.is_over() and state.seats_to_act() == [1]
    assert state.status[0] == OUT
    state.apply(1, "play")  # Seat 1 must then play and has no card: Seat 2 takes the pile
    figures = outcome_of(state)
    assert figures["winners"] == (1,) and (figures["cards"], figures["tricks"]) == (2, 1)
    assert state.observation(0)["events"][-2:] == [
        {"kind": "collect", "seat": 1, "cards": 2},
        {"kind": "win", "seat": 1},
    ]


def test_the_last_card_of_a_face_card_counts_the_same() -> None:
    state = beggar().new_state(seed=0, deal=rest_to(1, 2, "2C", "KD"))
    state.apply(0, "play")
    state.apply(1, "play")  # a king that Seat 1 cannot answer
    assert (outcome_of(state)["cards"], outcome_of(state)["tricks"]) == (2, 1)


def test_an_answer_cut_short_by_an_empty_stack_ends_the_game() -> None:
    state = beggar().new_state(seed=0, deal=rest_to(0, 2, "KD", "2C"))
    state.apply(0, "play")  # a king: Seat 2 owes three cards and has one
    state.apply(1, "play")
    assert state.is_over()
    figures = outcome_of(state)
    assert figures["winners"] == (0,) and (figures["cards"], figures["tricks"]) == (2, 1)


def test_a_trick_that_empties_the_loser_ends_the_game_at_once() -> None:
    state = beggar().new_state(seed=0, deal=rest_to(0, 2, "JD", "2C"))
    state.apply(0, "play")
    state.apply(1, "play")  # pays the jack with its last card: Seat 1 wins the last trick
    assert state.is_over() and len(state.stacks[0]) == 52
    assert (outcome_of(state)["cards"], outcome_of(state)["tricks"]) == (2, 1)


def test_a_challenger_without_cards_who_wins_the_pile_plays_on() -> None:
    state = beggar().new_state(seed=0, deal=rest_to(1, 2, "QD"))
    state.apply(0, "play")  # Seat 1's last card: a queen
    assert state.status[0] != OUT and not state.is_over()
    state.apply(1, "play")
    state.apply(1, "play")  # two number cards from the rest (2C, 2D): Seat 1 wins the pile
    assert state.seats_to_act() == [0]
    state.apply(0, "collect")
    assert not state.is_over() and state.turn == 0 and len(state.stacks[0]) == 3


def test_with_three_players_an_empty_stack_is_skipped() -> None:
    state = beggar(3).new_state(seed=0, deal=rest_to(2, 3, "2C 5C 6C", "3C"))
    state.apply(0, "play")
    state.apply(1, "play")  # Seat 2 is out of cards
    assert state.status[1] == OUT
    state.apply(2, "play")
    state.apply(0, "play")
    assert state.turn == 2  # Seat 2 is skipped
    run(state)
    out = state.outcome()
    assert out is not None and out.winners == (2,)
    assert sorted(state.cards()) == list(range(52))


def test_the_never_ending_deal_ends_as_a_cycle_as_soon_as_the_faces_repeat() -> None:
    """Only the face cards matter without slaps: the position repeats once the face cards are
    back in place, after 474 cards and 66 tricks (where other simulators also see the loop),
    not when every number card is back too (33034 cards)."""
    state = beggar().new_state(seed=0, deal=face_deal(*NEVER_ENDING))
    assert isinstance(state, RatscrewState)
    run(state)
    figures = outcome_of(state)
    assert figures["cycle"] == 1 and (figures["cards"], figures["tricks"]) == (474, 66)
    out = state.outcome()
    assert out is not None and not out.capped and "cycle" in out.reason


def test_random_games_without_slaps_end_and_keep_every_card() -> None:
    for players in (2, 3, 5):
        g = beggar(players)
        for seed in range(3):
            state = g.new_state(seed=seed)
            assert isinstance(state, RatscrewState)
            rng = Rng(seed)
            while not state.is_over():
                seat = state.seats_to_act()[0]
                assert state.seats_to_act() == [seat]
                assert sorted(state.cards()) == list(range(52))
                if rng.randbelow(50) == 0:
                    sample = state.sample_consistent(seat, rng)
                    assert sample.observation(seat) == state.observation(seat)
                state.apply(seat, state.legal_actions(seat)[0])
            figures = outcome_of(state)
            assert figures["cards"] == figures["length"] == state.played
            assert figures["tricks"] == figures["piles_won"]
