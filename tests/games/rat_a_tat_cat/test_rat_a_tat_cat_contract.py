"""Rat-a-Tat Cat and the engine's promises: times, deals, seats, events and results."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.rat_a_tat_cat.helpers import make_deal, play, start, texts

import ratgames
from ratgames.core.errors import DealError, IllegalAction
from ratgames.core.rng import Rng
from ratgames.games.rat_a_tat_cat.events import EVENT_TYPES
from ratgames.games.rat_a_tat_cat.rules import RatState
from ratgames.games.rat_a_tat_cat.views import RoundResult

# --- the clock of mode=minutes=N ----------------------------------------------------------------


def _play_timed(recording: bool, seed: int, step: float) -> RatState:
    """A game of random moves (the same for the same seed), each ``step`` seconds after the
    last, with recording on or off."""
    game = ratgames.get_game("rat-a-tat-cat", players=3, options={"mode": "minutes=1"})
    state = game.new_state(seed=seed)
    assert isinstance(state, RatState)
    state.set_recording(recording)
    rng = Rng(seed)
    clock = 0.0
    while not state.is_over():
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        clock += step
        state.apply(seat, legal[rng.randbelow(len(legal))], time=clock)
    return state


@pytest.mark.parametrize(("seed", "step"), [(1, 4.0), (2, 0.5), (3, 2.0)])
def test_minutes_mode_reads_the_action_times_with_recording_on_or_off(
    seed: int, step: float
) -> None:
    """Defect 6 of issue 13: with recording off every turn counted as 10 seconds, whatever
    the times given, so the same moves played more rounds."""
    on, off = _play_timed(True, seed, step), _play_timed(False, seed, step)
    assert on.snapshot() == off.snapshot()
    assert off.snapshot()["clock"] >= 60


def test_minutes_mode_ends_after_the_round_in_which_time_ran_out() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]], mode="minutes=1")
    state.set_recording(False)
    play_at = [("draw", 10.0), ("discard", 20.0), ("end", 30.0)]
    play_at += [("draw", 40.0), ("discard", 61.0), ("knock", 62.0)]
    play_at += [("draw", 63.0), ("discard", 64.0)]
    for action, time in play_at:
        state.apply(state.seats_to_act()[0], action, time=time)
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.details["rounds"] == 1


# --- deals --------------------------------------------------------------------------------------

GOOD = make_deal([["1", "2", "3", "4"], ["5", "6", "7", "8"]])


def _without(cards: list[str], card: str) -> list[str]:
    out = list(cards)
    out.remove(card)
    return out


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hands": None}, "'hands' must list 2 rows"),
        ({"hands": "1234"}, "'hands' must list 2 rows"),
        ({"hands": [["1", "2", "3", "4"]]}, "'hands' must list 2 rows"),
        ({"hands": [["1", "2", "3", "4"], "5678"]}, "hand of seat 2 must be a list"),
        ({"hands": [["1", "2", "3", "4"], ["5", "6", "7"]]}, "seat 2 must have 4 cards"),
        ({"hands": [["1", "2", "3", "4"], ["5", "6", "7", 8]]}, "card 4 of the hand of seat 2"),
        ({"hands": [["1", "2", "3", "4"], ["5", "6", "7", None]]}, "is None, not a card"),
        ({"hands": [["1", "2", "3", "4"], ["5", "6", "7", ["8"]]]}, "not a card"),
        ({"hands": [["1", "2", "3", "4"], ["5", "6", "7", True]]}, "not a card"),
        ({"draw": {"0": "1"}}, "'draw' pile must be a list"),
        ({"draw": GOOD["draw"][1:]}, "exactly the 54 cards"),
        ({"draw": [*GOOD["draw"], "9"]}, "9 10 times"),
        ({"discard": [], "draw": ["5", *GOOD["draw"]]}, "number card on top"),
        ({"discard": ["PEEK", "5"], "draw": _without(GOOD["draw"], "PEEK")}, "on top"),
        ({"discard": "5"}, "'discard' pile must be a list"),
        ({"surprise": 1}, "not 'surprise'"),
        ({"returned": ["5"]}, "power cards turned up and shuffled back"),
        ({"returned": "SWAP"}, "'returned' cards must be a list"),
        (
            {
                "returned": ["SWAP", "PEEK"],
                "draw": [c for c in GOOD["draw"] if c != "PEEK"],
                "discard": ["5", "PEEK", "PEEK", "PEEK"],
            },
            "draw pile has no PEEK",
        ),
        ({1: 2}, "not 1"),
    ],
)
def test_every_bad_deal_raises_a_deal_error_naming_what_is_wrong(
    change: dict[Any, Any], words: str
) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    with pytest.raises(DealError, match=words):
        game.new_state(deal={**GOOD, **change})
    for key in ("hands", "draw", "discard"):
        partial = {k: v for k, v in GOOD.items() if k != key}
        with pytest.raises(DealError, match=f"no '{key}'"):
            game.new_state(deal=partial)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats()
    | st.sampled_from(["5", "PEEK", "x"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(["hands", "draw", "discard"]), value=JSON)
def test_any_json_in_a_deal_gives_a_deal_or_a_deal_error(key: str, value: Any) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    try:
        state = game.new_state(deal={**GOOD, key: value})
    except DealError:
        return
    assert json.loads(json.dumps(state.initial_deal())) == {**GOOD, key: value}


# --- seats --------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 2, True, False, "0", 0.0, None])
def test_every_query_taking_a_seat_refuses_a_bad_one(bad: Any) -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "1"]])
    action = state.legal_actions(0)[0]
    for query in (
        lambda: state.observation(bad),
        lambda: state.legal_actions(bad),
        lambda: state.sample_consistent(bad, Rng(1)),
        lambda: state.is_legal(bad, action),
        lambda: state.why_illegal(bad, action),
        lambda: state.apply(bad, action),
        lambda: state.card_in(bad, 0),
    ):
        with pytest.raises(IllegalAction, match="no seat"):
            query()
    with pytest.raises(IllegalAction, match="no slot 4"):
        state.card_in(0, 4)


# --- events and results -------------------------------------------------------------------------


def _events_of_long_games() -> tuple[RatState, list[dict[str, Any]]]:
    """The public events of random games of three that seldom knock, so that every kind of
    event happens (reshuffles, turn caps, players out)."""
    game = ratgames.get_game(
        "rat-a-tat-cat", players=3, options={"mode": "elimination=60", "turn_cap": 90}
    )
    rng = Rng(4)
    events: list[dict[str, Any]] = []
    for seed in range(3):
        state = game.new_state(seed=seed)
        assert isinstance(state, RatState)
        while not state.is_over():
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
            if str(action) == "knock" and rng.random() < 0.97:
                action = legal[1]
            elif len(legal) >= 5 and rng.random() < 0.5:
                action = legal[-1]  # discard, or pass on a power card, now and then
            state.apply(seat, action)
        events.extend(state.snapshot()["events"])
    assert isinstance(state, RatState)
    return state, events


def test_events_are_in_the_one_schema_and_worded_for_each_viewer() -> None:
    state, events = _events_of_long_games()
    assert {e["kind"] for e in events} == {cls.kind for cls in EVENT_TYPES}
    for e in events:
        assert "text" not in e and "event" not in e and "type" not in e
        assert json.loads(json.dumps(e)) == e
        for viewer in (None, 0, 1, 2):
            sentence = state.game.describe_event(e, viewer)
            assert sentence and not sentence.startswith("(")
            involved = {e.get(key) for key in ("seat", "dealer", "other")}
            assert ("you" in sentence.lower()) == (viewer is not None and viewer in involved)


def test_a_swap_is_told_to_each_seat_in_its_own_words() -> None:
    state = start([["1", "7", "8", "2"], ["3", "9", "0", "4"], ["5", "5", "6", "6"]], draw=["SWAP"])
    play(state, "1:draw", "1:swap 2 3:4")
    assert texts(state)[-1] == "Seat 1 swapped its slot 2 with Seat 3's slot 4"
    assert texts(state, viewer=0)[-1] == "You swapped your slot 2 with Seat 3's slot 4"
    assert texts(state, viewer=2)[-1] == "Seat 1 swapped its slot 2 with your slot 4"
    assert texts(state, viewer=1)[-2] == "Seat 1 drew Swap and discarded it to use its power"
    assert state.observation(1)["events"][-1] == {
        "kind": "swap",
        "seat": 0,
        "slot": 2,
        "other": 2,
        "other_slot": 4,
    }


def test_the_observation_says_where_its_events_start() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=2)
    rng = Rng(2)
    seen: list[dict[str, Any]] = []
    while not state.is_over():
        obs = state.observation(1)
        start_at = obs["events_start"]
        assert len(obs["events"]) <= 60
        # The listed events continue those seen before, without a gap.
        assert start_at <= len(seen)
        seen[start_at:] = obs["events"]
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    assert seen[: len(state.snapshot()["events"])] == state.snapshot()["events"][: len(seen)]


def test_round_results_are_named() -> None:
    state = start([["1", "2", "3", "4"], ["4", "3", "2", "0"]], draw=["9", "9"], mode="rounds=2")
    play(state, "1:draw", "1:discard", "1:knock", "2:draw", "2:discard")
    result = state.results[-1]
    assert isinstance(result, RoundResult)
    assert result.round == 1 and result.sums == (10, 9) and result.winners == (1,)
    assert result.knocker == 0 and not result.capped and result.totals == (10, 9)
    assert state.observation(0)["results"] == [result.to_json()]


def test_returned_cards_come_only_with_shuffle_back() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"edition": "forlago"})
    with pytest.raises(DealError, match="only with first_discard=shuffle_back"):
        game.new_state(deal={**GOOD, "returned": ["PEEK"]})
