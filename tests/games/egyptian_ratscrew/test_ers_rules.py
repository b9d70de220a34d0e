"""Egyptian Ratscrew, rule by rule, on scripted deals.

Deals are written top card first.  ``table(...)`` gives each seat exactly the cards named, and the
rest of the deck goes under the stack of one seat (``rest``) where the scripts never reach it.
"""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.cards import card_text, parse_card
from ratgames.core.errors import IllegalAction, OptionError, RatgamesError
from ratgames.core.rng import Rng
from ratgames.games.egyptian_ratscrew.rules import EgyptianRatscrew, RatscrewState

GID = "egyptian-ratscrew"


def game(players: int = 2, **options: Any) -> EgyptianRatscrew:
    g = ratgames.get_game(GID, players=players, options=options)
    assert isinstance(g, EgyptianRatscrew)
    return g


def table(g: EgyptianRatscrew, *stacks: str, rest: int | tuple[int, ...] = 0) -> RatscrewState:
    named = [s.split() for s in stacks]
    named += [[] for _ in range(g.players - len(named))]
    used = {parse_card(c) for s in named for c in s}
    filler = [card_text(c) for c in sorted(g.deck()) if c not in used]
    takers = (rest,) if isinstance(rest, int) else rest
    for i, seat in enumerate(takers):
        named[seat] = named[seat] + filler[i :: len(takers)]
    state = g.new_state(seed=1, deal={"stacks": named})
    assert isinstance(state, RatscrewState)
    return state


def new(g: EgyptianRatscrew, seed: int = 0, deal: dict[str, Any] | None = None) -> RatscrewState:
    state = g.new_state(seed=seed, deal=deal)
    assert isinstance(state, RatscrewState)
    return state


def play(state: RatscrewState, *seats: int) -> None:
    for seat in seats:
        state.apply(seat, "play")


def slap_now(state: RatscrewState, seat: int) -> dict[str, Any]:
    """Slap the pile as it is now; return the public event it made."""
    state.apply(seat, f"slap@{state.version}")
    return state.observation(seat)["events"][-1]  # type: ignore[no-any-return]


def pile(state: RatscrewState) -> list[str]:
    return [card_text(c) for c in state.pile]


def top(state: RatscrewState, seat: int, n: int) -> list[str]:
    """The top ``n`` cards of a seat's stack, top first."""
    return [card_text(c & 63) for c in reversed(state.stacks[seat])][:n]


def bottom(state: RatscrewState, seat: int, n: int) -> list[str]:
    """The bottom ``n`` cards of a seat's stack, in the order they will come up."""
    return [card_text(c & 63) for c in reversed(state.stacks[seat][:n])]


# --- the deal -----------------------------------------------------------------------------------


def test_cards_are_dealt_one_at_a_time_uneven_counts_allowed() -> None:
    state = new(game(3), seed=5)
    assert [len(s) for s in state.stacks] == [18, 17, 17]
    assert state.seats_to_act() == [0, 1, 2]
    assert state.legal_actions(0)[0] == state.game.parse_action("play")
    assert sorted(state.cards()) == sorted(state.game.deck())


def test_jokers_join_the_deck() -> None:
    g = game(2, jokers=2, joker=True)
    assert len(g.deck()) == 54
    assert sorted(g.new_state(seed=3).cards()) == list(range(54))


def test_bad_deals_and_options_are_refused() -> None:
    g = game(2)
    with pytest.raises(RatgamesError, match="every card"):
        g.new_state(deal={"stacks": [["AS"], ["KS"]]})
    with pytest.raises(RatgamesError, match="not a card"):
        g.new_state(deal={"stacks": [["XX"], []]})
    with pytest.raises(OptionError, match="joker"):
        game(2, joker=True)
    with pytest.raises(OptionError, match="newcomers"):
        game(2, newcomers=1)
    with pytest.raises(OptionError, match="burn"):
        game(2, burn=4)


def test_play_passes_to_the_left_and_skips_empty_stacks() -> None:
    state = table(game(3), "2C 3C 8C", "4C", "5C 6C 7C", rest=2)
    play(state, 0, 1, 2)
    assert pile(state) == ["2C", "4C", "5C"]
    assert state.turn == 0
    play(state, 0)  # seat 1 is out of cards: seat 2 is next
    assert state.turn == 2
    with pytest.raises(IllegalAction, match="Seat 3's turn"):
        state.apply(1, "play")


# --- challenges ---------------------------------------------------------------------------------


def test_jack_gives_one_chance_and_the_pile_goes_under_in_the_order_played() -> None:
    state = table(game(2), "2C JD", "3C 5H", rest=(0, 1))
    play(state, 0, 1)  # 2C, 3C
    play(state, 0)  # JD: seat 1 has one chance
    assert state.observation(1)["challenge"] == {
        "by": 0,
        "card": "JD",
        "chances_left": 1,
        "answering": 1,
    }
    play(state, 1)  # 5H: no face card, seat 0 wins the pile
    assert state.phase == 1 and state.collector == 0
    assert state.seats_to_act() == [0, 1]
    with pytest.raises(IllegalAction, match="collect"):
        state.apply(0, "play")
    before = len(state.stacks[0])
    state.apply(0, "collect")
    assert len(state.stacks[0]) == before + 4 == 26 + 2
    assert bottom(state, 0, 4) == ["2C", "3C", "JD", "5H"]
    assert state.turn == 0 and state.pile == []
    # Everybody saw those cards face up: they are known at the bottom of seat 0's stack.
    known = state.observation(1)["stacks"][0]["known"]
    assert known[-4:] == ["2C", "3C", "JD", "5H"]  # top first: 2C comes up first
    assert all(k is None for k in known[:-4])


@pytest.mark.parametrize(("face", "chances"), [("JD", 1), ("QD", 2), ("KD", 3), ("AD", 4)])
def test_each_face_card_gives_its_number_of_chances(face: str, chances: int) -> None:
    state = table(game(2, sandwich=False), face, "2C 3C 4C 5C 6C", rest=0)
    play(state, 0)
    for _ in range(chances - 1):
        play(state, 1)
        assert state.turn == 1
    play(state, 1)
    assert state.collector == 0
    assert len(state.pile) == chances + 1


def test_a_face_card_passes_the_challenge_on() -> None:
    state = table(game(2, sandwich=False), "KD 2C 3D", "3C QH", rest=(0, 1))
    play(state, 0)  # KD: three chances for seat 1
    play(state, 1)  # 3C
    play(state, 1)  # QH: the challenge passes to seat 0 with two chances
    assert state.challenger == 1 and state.turn == 0 and state.chances == 2
    play(state, 0)  # 2C
    assert state.turn == 0 and state.chances == 1
    play(state, 0)  # 3D, the next card of seat 0: no face card, seat 1 wins the pile
    assert state.collector == 1
    state.apply(1, "collect")
    assert bottom(state, 1, 5) == ["KD", "3C", "QH", "2C", "3D"]
    assert state.turn == 1


def test_a_player_who_runs_out_during_a_challenge_leaves_the_chances_to_the_next() -> None:
    state = table(game(3, sandwich=False), "KD", "2C", "3C 4C 5C", rest=2)
    play(state, 0)  # KD: seat 1 has three chances but only one card
    play(state, 1)
    assert state.turn == 2 and state.chances == 2
    play(state, 2, 2)
    assert state.collector == 0


def test_chances_coming_back_to_the_challenger_win_the_pile() -> None:
    state = table(game(3, sandwich=False), "AD", "2C", "3C 4C", rest=0)
    play(state, 0, 1)  # AD: seat 1 answers with its only card, seat 2 has the 3 chances left
    assert state.turn == 2 and state.chances == 3
    play(state, 2, 2)  # seat 2 runs out too: the chances come back to seat 0, who wins the pile
    assert state.is_over()  # ... and holds every card: seat 0 wins
    out = state.outcome()
    assert out is not None and out.winners == (0,) and out.points == (52.0, 0.0, 0.0)


def test_a_challenge_still_goes_on_when_the_challenger_played_its_last_card() -> None:
    state = table(game(2, sandwich=False), "QD", "2C", rest=1)
    play(state, 0)  # seat 0 has no cards left, but its queen is being answered
    assert not state.is_over() and state.turn == 1
    play(state, 1)  # 2C: one chance left
    play(state, 1)  # a face card from the rest of the deck answers?  It is 2D: no
    assert state.collector == 0
    state.apply(0, "collect")
    assert len(state.stacks[0]) == 3 and state.turn == 0


# --- slaps --------------------------------------------------------------------------------------


def test_doubles_are_slappable_and_the_slapper_plays_next() -> None:
    state = table(game(3), "9H 2C", "9C", "3D", rest=0)
    play(state, 0, 1)
    assert state.observation(2)["slappable"] == "doubles"
    event = slap_now(state, 2)
    assert event == {"kind": "slap", "seat": 2, "rule": "doubles", "cards": 2}
    assert bottom(state, 2, 3) == ["3D", "9H", "9C"]
    assert state.turn == 2 and state.pile == []
    assert state.slaps == 1 and state.piles_won == 1


def pile_of(g: EgyptianRatscrew, cards: str) -> RatscrewState:
    """Two players play exactly ``cards`` in this order (whoever's turn it is plays the next
    one, as face cards decide); both keep filler cards under them."""
    seq = cards.split()
    stacks: list[list[str]] = [[], []]
    for i in range(len(seq) + 1):
        state = table(g, " ".join(stacks[0]), " ".join(stacks[1]), rest=(0, 1))
        for _ in range(i):
            play(state, state.turn)
        if i == len(seq):
            assert pile(state) == seq
            return state
        stacks[state.turn].append(seq[i])
    raise AssertionError("unreachable")


RULE_CASES = [
    ("sandwich", "7H 2C 7S"),
    ("top_bottom", "7H 2C 3D 7S"),
    ("tens", "4H 6C"),
    ("tens", "AH 9C"),
    ("tens", "3D 7C"),
    ("marriage", "KH QC"),
    ("marriage", "QH KC"),
    ("divorce", "KH 2C QC"),
    ("divorce", "QH 5C KC"),
    ("run", "5H 6C 7D 8S"),
    ("run", "8S 7D 6C 5H"),
    ("run", "AH 2C 3D 4S"),
    ("run", "JH QC KD AS"),
]


@pytest.mark.parametrize(("option", "cards"), RULE_CASES)
def test_each_slap_rule_is_valid_when_on_and_bad_when_off(option: str, cards: str) -> None:
    for on in (True, False):
        state = pile_of(game(2, **({"sandwich": False} | {option: on})), cards)
        expected_view = option if on else None
        assert state.observation(0)["slappable"] == expected_view
        event = slap_now(state, 1)
        if on:
            assert event["kind"] == "slap" and event["rule"] == option
            assert state.turn == 1 and state.pile == []
        else:
            assert event["kind"] == "bad_slap" and event["burned"] == 1


@pytest.mark.parametrize(
    "cards",
    [
        "7H 2C 6S",  # no sandwich
        "4H 5C",  # 9, not 10
        "5H JC",  # face cards count nothing for tens
        "KH JC",  # not a marriage
        "QH 5C JC",  # queen and jack with one card between: no divorce
        "5H 6C 7D 9S",  # not a run
        "QC KD AS 2H",  # no wrapping round
        "7H 9C 3D 2S",
    ],
)
def test_piles_that_no_rule_makes_slappable(cards: str) -> None:
    everything = dict.fromkeys(("top_bottom", "tens", "marriage", "divorce", "run"), True)
    state = pile_of(game(2, **everything), cards)
    assert state.observation(0)["slappable"] is None
    assert slap_now(state, 1)["kind"] == "bad_slap"


def test_joker_on_top_is_slappable_with_the_joker_rule() -> None:
    state = table(game(2, jokers=1, joker=True), "BJ", "2C", rest=(0, 1))
    play(state, 0)
    assert slap_now(state, 1)["rule"] == "joker"
    state = table(game(2, jokers=2), "BJ 3C", "RJ", rest=(0, 1))
    play(state, 0, 1)
    assert slap_now(state, 0)["rule"] == "doubles"  # two jokers make doubles


def test_a_bad_slap_burns_the_top_card_under_the_pile() -> None:
    state = table(game(2), "2C 5D", "3C 9S 8S", rest=(0, 1))
    play(state, 0, 1)
    event = slap_now(state, 1)
    assert event == {"kind": "bad_slap", "seat": 1, "burned": 1}
    assert [card_text(c & 63) for c in state.burned] == ["9S"]
    assert top(state, 1, 1) == ["8S"]
    view = state.observation(0)
    assert view["burned"] == [None]  # face down, unseen
    assert view["pile"] == ["2C", "3C"]
    # A second slap at the same pile is refused.
    with pytest.raises(IllegalAction, match="already slapped"):
        state.apply(1, f"slap@{state.version}")
    assert 1 not in state.seats_to_act()
    # Whoever takes the pile gets the burned card first.
    play(state, 0)  # 5D
    play(state, 1)  # 8S
    state.apply(0, "slap@0")  # pile version 0 was empty: a bad slap by seat 0 too
    assert len(state.burned) == 2


@pytest.mark.parametrize("burn", [0, 2, 3])
def test_the_burn_option_sets_the_penalty(burn: int) -> None:
    state = table(game(2, burn=burn), "2C", "3C 4C 5C 6C 7C", rest=0)
    play(state, 0)
    slap_now(state, 1)
    assert len(state.burned) == burn
    assert len(state.stacks[1]) == 5 - burn


def test_a_bad_slap_with_fewer_cards_burns_what_there_is() -> None:
    state = table(game(3, burn=3), "2C", "3C", "4C 5C", rest=(0, 1))
    play(state, 0)
    slap_now(state, 2)
    assert len(state.stacks[2]) == 0 and len(state.burned) == 2


def test_too_late_costs_nothing() -> None:
    state = table(game(3), "9H", "9C", "2C 3C", rest=2)
    play(state, 0, 1)
    seen = state.version
    slap_now(state, 0)  # seat 0 is first
    state.apply(2, f"slap@{seen}")  # valid for the pile seat 2 saw, but it is gone
    events = state.observation(2)["events"]
    assert events[-1] == {"kind": "late_slap", "seat": 2}
    assert len(state.stacks[2]) == 2 + len(state.game.deck()) - 4
    assert state.late == 1 and state.bad == 0


def test_a_slap_after_the_double_was_covered_is_too_late_not_bad() -> None:
    state = table(game(2, sandwich=False), "9H 4D", "9C 2C", rest=0)
    play(state, 0, 1)
    seen = state.version
    play(state, 0)  # 4D covers the double
    state.apply(1, f"slap@{seen}")
    assert state.late == 1 and len(state.stacks[1]) == 1


def test_an_old_slap_on_a_pile_that_was_never_slappable_is_bad() -> None:
    state = table(game(2), "2C 5D", "3C 9S", rest=0)
    play(state, 0)
    seen = state.version
    play(state, 1)
    state.apply(0, f"slap@{seen}")
    assert state.bad == 1 and len(state.burned) == 1


def test_an_old_slap_is_valid_if_the_pile_is_slappable_now() -> None:
    state = table(game(2), "2C 5D", "5C 9S", rest=0)
    play(state, 0)
    seen = state.version
    play(state, 1, 0)  # 5C then 5D: doubles
    state.apply(1, f"slap@{seen}")
    assert state.slaps == 1 and state.turn == 1


def test_a_valid_slap_beats_collecting_a_won_challenge() -> None:
    state = table(game(2), "QD", "5C 5H", rest=(0, 1))
    play(state, 0, 1, 1)  # Q, 5C, 5H: seat 0 has won the challenge, and the pile shows doubles
    assert state.collector == 0 and state.observation(1)["slappable"] == "doubles"
    event = slap_now(state, 1)
    assert event["kind"] == "slap"
    assert state.turn == 1 and state.collector == -1
    with pytest.raises(IllegalAction, match="no won pile"):
        state.apply(0, "collect")


def test_a_bad_slap_does_not_stop_the_collection() -> None:
    state = table(game(2), "JD", "5C", rest=(0, 1))
    play(state, 0, 1)
    slap_now(state, 1)
    assert state.bad == 1 and state.collector == 0
    state.apply(0, "collect")
    assert bottom(state, 0, 3)[0] != "JD"  # the burned card comes first
    assert len(state.stacks[0]) == 26 + 2


# --- running out, slapping in, newcomers --------------------------------------------------


def test_a_player_without_cards_slaps_back_in() -> None:
    state = table(game(3), "2C 7H", "3C", "7C 4D", rest=0)
    play(state, 0, 1)  # seat 1 has no cards now
    play(state, 2)  # 7C
    play(state, 0)  # 7H: doubles
    event = slap_now(state, 1)
    assert event["kind"] == "slap"
    assert state.turn == 1 and len(state.stacks[1]) == 4


def test_a_bad_slap_without_cards_puts_the_player_out_for_good() -> None:
    state = table(game(3), "2C 8H", "3C", "7C 4D", rest=0)
    play(state, 0, 1, 2)
    slap_now(state, 1)
    assert state.status[1] == 2
    assert state.observation(0)["stacks"][1]["status"] == "out"
    assert 1 not in state.seats_to_act()
    with pytest.raises(IllegalAction, match="out of the game"):
        state.apply(1, f"slap@{state.version}")


def test_without_slap_in_a_player_without_cards_is_out() -> None:
    state = table(game(3, slap_in=False), "2C 7H", "3C", "7C 4D", rest=0)
    play(state, 0, 1)
    assert state.status[1] == 2
    with pytest.raises(IllegalAction):
        state.apply(1, f"slap@{state.version}")


def test_a_player_without_cards_keeps_a_challenge_won_with_the_last_card() -> None:
    state = table(game(3, slap_in=False, sandwich=False), "2C", "JD", "3C 4C", rest=2)
    play(state, 0, 1)  # seat 1 plays its last card, a jack
    assert state.status[1] == 0
    play(state, 2)
    assert state.collector == 1
    state.apply(1, "collect")
    assert len(state.stacks[1]) == 3 and state.turn == 1


def test_newcomers_join_by_a_valid_slap() -> None:
    g = game(3, newcomers=1)
    state = table(g, "9H 2C", "9C 3C", rest=0)
    assert state.observation(2)["stacks"][2]["status"] == "waiting"
    play(state, 0, 1)
    slap_now(state, 2)
    events = state.observation(0)["events"]
    assert events[-2]["kind"] == "slap" and events[-1] == {"kind": "join", "seat": 2}
    assert state.status[2] == 0 and state.turn == 2


def test_a_newcomers_bad_slap_keeps_them_out() -> None:
    state = table(game(3, newcomers=1), "2C", "3C", rest=0)
    play(state, 0)
    slap_now(state, 2)
    assert state.status[2] == 2


# --- the end ------------------------------------------------------------------------------------


def test_the_last_player_with_cards_wins() -> None:
    state = table(game(2), "2C", "3C", rest=1)
    play(state, 0)  # seat 0 has no cards; nothing to slap: seat 1 wins
    assert state.is_over()
    out = state.outcome()
    assert out is not None and out.winners == (1,) and out.points == (0.0, 52.0)
    assert out.details["length"] == 1 and out.details["cycle"] == 0
    assert state.seats_to_act() == []


def test_a_slappable_pile_at_the_end_can_be_slapped_back_into_the_game() -> None:
    state = table(game(2), "4D", "4C 2C", rest=1)
    play(state, 0)  # seat 0 plays its last card: a single card is not slappable
    assert state.is_over()
    state = table(game(2), "5C", "5D", rest=0)
    play(state, 0, 1)  # seat 1 plays its last card: doubles
    assert state.phase == 2 and state.collector == 0  # seat 0 must collect the table to win
    assert state.seats_to_act() == [0, 1]
    assert state.legal_actions(1) == [state.game.parse_action(f"slap@{state.version}")]
    event = slap_now(state, 1)
    assert event["kind"] == "slap" and not state.is_over()
    assert state.turn == 1 and len(state.stacks[1]) == 2


def test_the_holder_collects_the_table_to_win() -> None:
    state = table(game(2), "5C", "5D", rest=0)
    play(state, 0, 1)
    state.apply(0, "collect")
    out = state.outcome()
    assert out is not None and out.winners == (0,) and out.points == (52.0, 0.0)
    assert out.reason == "the last player with cards"


def test_without_slap_in_nobody_may_slap_at_the_end() -> None:
    state = table(game(2, slap_in=False), "5C", "5D", rest=0)
    play(state, 0, 1)
    assert state.is_over()


def test_the_safety_cap_ends_a_game() -> None:
    state = new(game(2, max_cards=50), seed=4)
    while not state.is_over():
        state.apply(state.seats_to_act()[0], state.legal_actions(state.seats_to_act()[0])[0])
    out = state.outcome()
    assert out is not None and out.capped and out.details["length"] == 50
    sizes = [len(s) for s in state.stacks]
    assert set(out.winners) == {s for s, n in enumerate(sizes) if n == max(sizes)}


# The first known never-ending deal of Beggar-my-neighbour (Casella, 2024): only the face cards
# matter when nobody slaps.  Number cards are filled in rank by rank.
NEVER_ENDING = ("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA")


def never_ending_deal() -> dict[str, Any]:
    faces = {ch: [parse_card(ch + s) for s in "CDHS"] for ch in "JQKA"}
    numbers = [r * 4 + s for s in range(4) for r in range(9)]
    stacks = []
    for pattern in NEVER_ENDING:
        stacks.append(
            [card_text(faces[ch].pop() if ch != "-" else numbers.pop(0)) for ch in pattern]
        )
    return {"stacks": stacks}


def run_without_slaps(state: RatscrewState, slap_every: int = 0) -> None:
    """Play and collect only (plus, every ``slap_every`` cards, one bad slap by seat 1 when
    the pile cannot be slapped)."""
    state.set_recording(False)
    last = 0
    while not state.is_over():
        due = slap_every and state.played % slap_every == 0 and state.played != last
        if due and state.observation(1)["slappable"] is None:
            last = state.played
            state.apply(1, f"slap@{state.version}")
            continue
        if state.phase == 0:
            state.apply(state.turn, "play")
        else:
            state.apply(state.collector, "collect")


def test_a_game_that_repeats_ends_as_a_cycle() -> None:
    state = new(game(2), deal=never_ending_deal())
    run_without_slaps(state)
    out = state.outcome()
    assert out is not None
    assert out.details["cycle"] == 1 and not out.capped
    assert "cycle" in out.reason
    assert out.details["slaps"] == 0 and out.details["length"] < 40_000
    sizes = [len(s) for s in state.stacks]
    assert out.points == tuple(float(n) for n in sizes)
    assert out.winners == (sizes.index(max(sizes)),)


def test_slaps_in_the_loop_keep_the_game_going_until_the_cap() -> None:
    state = new(game(2, burn=0, max_cards=60_000), deal=never_ending_deal())
    run_without_slaps(state, slap_every=997)
    out = state.outcome()
    assert out is not None and out.details["bad_slaps"] > 0
    assert out.details["cycle"] == 0 and out.capped and out.details["length"] == 60_000


# --- actions, notation, knowledge ------------------------------------------------------------


def test_action_notation_round_trips_and_garbage_is_refused() -> None:
    g = game(2)
    for text in ("play", "collect", "slap@0", "slap@123"):
        assert str(g.parse_action(text)) == text
    for bad in ("slap", "slap@", "slap@-1", "slap@x", "", "hit"):
        with pytest.raises(IllegalAction, match="slap@N"):
            g.parse_action(bad)


def test_a_slap_from_the_future_is_refused() -> None:
    state = table(game(2), "2C", "3C", rest=0)
    with pytest.raises(IllegalAction, match="no pile version 5"):
        state.apply(1, "slap@5")
    with pytest.raises(IllegalAction, match="Seat 1's turn"):
        state.apply(1, "play")


def test_samples_keep_known_cards_and_reshuffle_the_rest() -> None:
    state = table(game(2), "2C JD", "3C 5H", rest=(0, 1))
    play(state, 0, 1, 0, 1)
    state.apply(0, "collect")
    sample = state.sample_consistent(1, Rng(9))
    assert sample.observation(1) == state.observation(1)
    assert bottom(sample, 0, 4) == ["2C", "3C", "JD", "5H"]
    assert sorted(sample.cards()) == sorted(state.cards())
    assert any(sample.snapshot() != state.sample_consistent(1, Rng(k)).snapshot() for k in range(3))


def test_rules_explain_every_option() -> None:
    text = game(2).rules()
    for spec in EgyptianRatscrew.option_specs:
        assert f"`{spec.name}`" in text
    assert "too late" in text and "cycle" in text


@pytest.mark.parametrize(
    "options",
    [{"newcomers": 2}, {"newcomers": 1, "slap_in": False}, {"burn": 0, "max_cards": 400}],
)
def test_random_games_with_newcomers_and_other_tables_keep_the_invariants(
    options: dict[str, Any],
) -> None:
    g = game(5, **options)
    deck = sorted(g.deck())
    for seed in range(4):
        rng = Rng(seed)
        state = new(g, seed=seed)
        while not state.is_over():
            assert sorted(state.cards()) == deck
            to_act = state.seats_to_act()
            assert to_act
            seat = to_act[rng.randbelow(len(to_act))]
            legal = state.legal_actions(seat)
            assert legal and all(state.is_legal(seat, a) for a in legal)
            view = state.observation(seat)
            sample = state.sample_consistent(seat, Rng(seed))
            assert sample.observation(seat) == view
            state.apply(seat, legal[rng.randbelow(len(legal))])
        out = state.outcome()
        assert out is not None and out.winners
        assert sum(out.points) == len(deck) or out.capped or out.details["cycle"]


def test_refusals_name_the_reason() -> None:
    state = table(game(3), "2C 3C", "4C", "5C 6C", rest=(0, 2))
    play(state, 0, 1)  # seat 1 has no cards: it may still slap in
    with pytest.raises(IllegalAction, match="no pile version 9"):
        state.apply(1, "slap@9")
    slap_now(state, 2)
    with pytest.raises(IllegalAction, match="already slapped pile version 2"):
        state.apply(2, "slap@1")
    with pytest.raises(IllegalAction, match="no won pile to collect"):
        state.apply(2, "collect")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="there is no seat 7"):
        state.apply(7, "play")
    assert state.snapshot() == before


def test_observations_show_only_what_everybody_saw() -> None:
    state = table(game(2), "9H 2C", "9C 3C", rest=(0, 1))
    play(state, 0, 1)
    slap_now(state, 1)
    view = state.observation(0)
    spectator = state.spectator_view()
    assert {k: v for k, v in view.items() if k not in ("seat", "may_slap", "last_slap")} == (
        spectator
    )
    mine = view["stacks"][0]["known"]
    assert all(card is None for card in mine)  # nobody has seen seat 1's dealt cards
    theirs = view["stacks"][1]["known"]
    assert theirs[-2:] == ["9H", "9C"] and theirs.count(None) == len(theirs) - 2
