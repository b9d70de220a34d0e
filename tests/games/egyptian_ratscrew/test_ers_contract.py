"""Egyptian Ratscrew keeps the engine's contract: action objects checked like text, notation
errors told apart from illegal moves, every bad deal a DealError, seats checked, honest samples,
events in the one schema and built only when asked for."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.egyptian_ratscrew.action_objects import action_objects
from tests.games.egyptian_ratscrew.helpers import game, table

import ratgames
from ratgames.cards import card_text, parse_card
from ratgames.core.errors import DealError, IllegalAction, InvalidNotation, RecordError
from ratgames.core.events import event_json
from ratgames.core.game import same_action
from ratgames.core.rng import Rng
from ratgames.games.egyptian_ratscrew import rules, views
from ratgames.games.egyptian_ratscrew.action import PLAY_ACTION, Move, Slap
from ratgames.games.egyptian_ratscrew.cards import card_of
from ratgames.games.egyptian_ratscrew.events import EVENT_TYPES, EVENTS_SHOWN, Played
from ratgames.games.egyptian_ratscrew.render import describe_event
from ratgames.games.egyptian_ratscrew.rules import EgyptianRatscrew, RatscrewState


def snap(state: RatscrewState) -> Any:
    return json.loads(json.dumps(state.snapshot()))


def doubles() -> RatscrewState:
    """9H then 9C on the pile (version 2, slappable); Seat 1 to play."""
    state = table(game(), "9H 4D 6S", "9C 5D 7S")
    state.apply(0, "play")
    state.apply(1, "play")
    return state


# --- action objects -------------------------------------------------------------------------------

ODD_ACTIONS: list[object] = [
    Slap(0.5),  # type: ignore[arg-type]
    Slap(True),  # type: ignore[arg-type]
    Slap(False),  # type: ignore[arg-type]
    Slap("1"),  # type: ignore[arg-type]
    Slap(2.0),  # type: ignore[arg-type]
    Slap(float("nan")),  # type: ignore[arg-type]
    Slap(None),  # type: ignore[arg-type]
    Slap((2,)),  # type: ignore[arg-type]
    Slap([2]),  # type: ignore[arg-type]
    Slap(-1),
    Slap(10**30),
    Move("PLAY"),
    Move(" play"),
    Move("slap"),
    Move(1),  # type: ignore[arg-type]
    Move(None),  # type: ignore[arg-type]
    ("play",),
    None,
    2,
    1.5,
    object(),
]


@pytest.mark.parametrize("action", ODD_ACTIONS, ids=[str(i) for i in range(len(ODD_ACTIONS))])
def test_action_objects_with_odd_fields_are_refused_and_change_nothing(action: object) -> None:
    state = doubles()
    before = snap(state)
    for seat in (0, 1):
        assert not state.is_legal(seat, action)
        with pytest.raises(InvalidNotation, match="not an action"):
            state.apply(seat, action)  # type: ignore[arg-type]
        assert snap(state) == before
        assert "not an action" in state.why_illegal(seat, action)
    assert list(state.actions()) == [(0, Move("play")), (1, Move("play"))]


def test_a_slap_with_a_true_version_was_recorded_as_slap_at_true_and_did_not_replay() -> None:
    """The defect: ``Slap(True)`` and ``Slap(0.5)`` were accepted.  A whole-number slap built
    directly is accepted and replays through its notation."""
    state = doubles()
    for odd in (Slap(True), Slap(0.5)):  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            state.apply(0, odd)
    state.apply(0, Slap(2))
    record = json.loads(json.dumps(state.record()))
    assert [e["action"] for e in record["events"] if "action" in e][-1] == "slap@2"
    assert snap(ratgames.replay(record)) == snap(state)


def test_well_formed_but_illegal_objects_get_the_precise_reason() -> None:
    state = doubles()
    with pytest.raises(IllegalAction, match="no pile version 9") as exc:
        state.apply(0, Slap(9))
    assert not isinstance(exc.value, InvalidNotation)
    with pytest.raises(IllegalAction, match="Seat 1's turn") as exc:
        state.apply(1, Move("play"))
    assert not isinstance(exc.value, InvalidNotation)
    state.apply(0, Move("play"))  # built directly, not parsed: accepted like the text


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 40),
    slaps=st.booleans(),
    data=st.data(),
)
def test_any_action_object_is_accepted_only_if_legal_and_then_replays(
    seed: int, steps: int, slaps: bool, data: st.DataObject
) -> None:
    g = game(2, slaps=slaps)
    state = g.new_state(seed=seed)
    assert isinstance(state, RatscrewState)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))], time=float(state.played))
    before = snap(state)
    obj = data.draw(action_objects(g))
    seat = data.draw(st.integers(0, 1))
    if isinstance(obj, str):  # text is read as notation
        try:
            obj = g.parse_action(obj)
        except InvalidNotation:
            with pytest.raises(InvalidNotation):
                state.clone().apply(seat, obj)
            return
    legal_before = state.is_legal(seat, obj)
    trial = state.clone()
    try:
        trial.apply(seat, obj)  # type: ignore[arg-type]
    except IllegalAction:
        assert not legal_before
        assert snap(trial) == before
        return
    assert legal_before
    parsed = g.parse_action(str(obj))
    assert same_action(parsed, obj), f"{obj!r} does not come back from {str(obj)!r}"
    again = state.clone()
    again.apply(seat, parsed)
    assert snap(again) == snap(trial)
    assert snap(ratgames.replay(json.loads(json.dumps(trial.record())))) == snap(trial)


# --- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", "slap", "slap@", "slap@-1", "slap@x", "slap@1.5", "hit", "slap@" + "9" * 19]
)
def test_text_that_is_no_action_is_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotation, match="slap@N"):
        game().parse_action(text)
    state = doubles()
    with pytest.raises(InvalidNotation):
        state.apply(0, text)


def test_notation_round_trips() -> None:
    g = game()
    for text in ("play", "collect", "slap@0", "slap@4096", "slap@" + "9" * 18):
        assert str(g.parse_action(text)) == text
        assert same_action(g.parse_action(str(g.parse_action(text))), g.parse_action(text))


# --- deals ----------------------------------------------------------------------------------------

FULL = [card_text(c) for c in range(52)]

BAD_DEALS: list[Any] = [
    {},
    {"stacks": None},
    {"stacks": "AS"},
    {"stacks": [FULL]},
    {"stacks": [FULL, [], []]},
    {"stacks": [FULL[:26], 3]},
    {"stacks": [FULL[:26], {"a": 1}]},
    {"stacks": [[*FULL[:25], 7], FULL[26:]]},
    {"stacks": [[*FULL[:25], None], FULL[26:]]},
    {"stacks": [[*FULL[:25], ["AS"]], FULL[26:]]},
    {"stacks": [[*FULL[:25], "XX"], FULL[26:]]},
    {"stacks": [FULL[:26], FULL[25:]]},
    {"stacks": [FULL[:26], FULL[27:]]},
    {"stacks": [FULL[:26], [*FULL[26:], "BJ"]]},
    {"stacks": [FULL, []]},
    {"stacks": [FULL[:26], FULL[26:]], "extra": 1},
    {"stacks": [FULL[:26], FULL[26:]], 3: 1},
]


@pytest.mark.parametrize("deal", BAD_DEALS, ids=lambda d: json.dumps(d, default=str)[:40])
def test_every_bad_deal_is_a_deal_error(deal: Any) -> None:
    with pytest.raises(DealError):
        game().new_state(seed=1, deal=deal)


def test_deal_errors_say_what_is_wrong() -> None:
    g = game()
    with pytest.raises(DealError, match="2C more than once"):
        g.new_state(deal={"stacks": [FULL[:26], FULL[:1] + FULL[27:]]})
    with pytest.raises(DealError, match="2D is missing"):
        g.new_state(deal={"stacks": [FULL[:1], FULL[2:]]})
    with pytest.raises(DealError, match="not in this game's deck"):
        g.new_state(deal={"stacks": [FULL[:26], [*FULL[26:], "RJ"]]})
    with pytest.raises(DealError, match="newcomer"):
        game(3, newcomers=1).new_state(deal={"stacks": [FULL[:20], FULL[20:51], FULL[51:]]})


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(stacks=JSON_VALUES)
def test_deals_of_any_json_shape_raise_deal_error(stacks: Any) -> None:
    with pytest.raises(DealError):
        game().new_state(seed=1, deal={"stacks": stacks})


# --- seats ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 2, True, False, "0", 0.0, None])
def test_every_query_refuses_a_bad_seat(bad: Any) -> None:
    state = doubles()
    before = snap(state)
    for query in (
        lambda: state.observation(bad),
        lambda: state.legal_actions(bad),
        lambda: state.sample_consistent(bad, Rng(1)),
        lambda: state.is_legal(bad, Slap(2)),
        lambda: state.why_illegal(bad, Slap(2)),
        lambda: state.may_slap(bad),
        lambda: state.apply(bad, Slap(2)),
    ):
        with pytest.raises(IllegalAction, match="no seat"):
            query()
    assert snap(state) == before


# --- samples --------------------------------------------------------------------------------------


def test_a_sample_forgets_the_seed_the_log_and_the_deal() -> None:
    state = doubles()
    sample = state.sample_consistent(0, Rng(3))
    assert sample.sampled and sample.seed is None and sample.events() == []
    assert sample.deal == () and sample.history == set()
    with pytest.raises(RecordError):
        sample.initial_deal()
    with pytest.raises(RecordError):
        sample.record()
    assert sample.observation(0) == state.observation(0)


def test_samples_depend_only_on_what_everybody_saw() -> None:
    """Two tables with the same public play but other hidden cards give the same samples."""
    first, second = ["9H", "4D", "6S"], ["9C", "5D", "7S"]
    tables = []
    for swap in (False, True):
        state = game().new_state(seed=int(swap), deal=split_deal(first, second, swap))
        assert isinstance(state, RatscrewState)
        tables.append(state)
    for state in tables:
        for seat in (0, 1, 0):
            state.apply(seat, "play")
        state.apply(1, f"slap@{state.version}")  # a bad slap: a hidden card burned
    assert tables[0].observation(0) == tables[1].observation(0)
    assert tables[0].snapshot()["stacks"] != tables[1].snapshot()["stacks"]
    for r in range(5):
        a, b = (t.sample_consistent(1, Rng(r)) for t in tables)
        assert snap(a) == snap(b)


# --- events ---------------------------------------------------------------------------------------


def split_deal(first: list[str], second: list[str], swap: bool = False) -> dict[str, Any]:
    """Two named stacks (top first), the rest of the deck shared out under them (the halves
    swapped if ``swap``), and any further seats dealt nothing."""
    rest = [c for c in FULL if c not in first + second]
    half = len(rest) // 2
    under = [rest[:half], rest[half:]]
    if swap:
        under.reverse()
    return {"stacks": [first + under[0], second + under[1]]}


def every_kind_of_event() -> RatscrewState:
    """A 3-player table (one newcomer) that has told every kind of event but the end ones."""
    g = game(3, newcomers=1)
    deal = split_deal(["9H", "2C", "JD"], ["9C", "3C", "4C"])
    state = g.new_state(seed=1, deal={"stacks": [*deal["stacks"], []]})
    assert isinstance(state, RatscrewState)
    state.apply(0, "play")
    state.apply(1, "play")
    state.apply(2, f"slap@{state.version}")  # the newcomer slaps in: slap, join
    state.apply(0, "slap@2")  # too late
    state.apply(1, f"slap@{state.version}")  # bad
    state.apply(2, "play")
    return state


def test_events_hold_a_kind_and_their_fields_only() -> None:
    state = every_kind_of_event()
    events = state.observation(1)["events"]
    kinds = [e["kind"] for e in events]
    assert kinds == ["play", "play", "slap", "join", "late_slap", "bad_slap", "play"]
    assert events[-1] == {"kind": "play", "seat": 2, "card": "9H"}  # the won pile comes back
    assert events[2] == {"kind": "slap", "seat": 2, "rule": "doubles", "cards": 2}
    for e in events:
        assert not {"n", "event", "type", "text"} & set(e)
    known = {cls.kind for cls in EVENT_TYPES}
    assert set(kinds) <= known and len(known) == len(EVENT_TYPES)
    assert state.observation(1)["event_count"] == 7
    assert state.spectator_view()["events"] == events
    assert all(event_json(state.game, e) in events for e in state.recent_events())
    assert state.recent_events()[0] == Played(0, parse_card("9H"))


def test_every_event_is_told_in_words_for_each_viewer() -> None:
    state = every_kind_of_event()
    g = state.game
    words = [describe_event(g, e, 2) for e in state.observation(2)["events"]]
    assert words == [
        "Seat 1 plays 9H.",
        "Seat 2 plays 9C.",
        "You slap: doubles! You take the pile (2 cards).",
        "You slap in and join the game.",
        "Seat 1 slaps too late (no penalty).",
        "Seat 2 slaps a pile that cannot be slapped: burns 1 card.",
        "You play 9H.",
    ]
    assert g.describe_event({"kind": "slap", "seat": 2, "rule": "top_bottom", "cards": 1}) == (
        "Seat 3 slaps: top-bottom! Seat 3 takes the pile (1 card)."
    )
    assert describe_event(g, {"kind": "end", "why": "cycle"}) == "The game ends: a cycle."
    assert describe_event(g, {"kind": "win", "seat": 0}, 0) == "You win the game."


def test_observations_keep_the_latest_events_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """The event log is cut back as it grows (here at 40 events): observations still show the
    latest ``EVENTS_SHOWN`` events, every card played among them, in order."""
    monkeypatch.setattr(rules, "LOG_KEPT", 40)
    g = game(2)
    state = g.new_state(seed=4)
    assert isinstance(state, RatscrewState)
    rng = Rng(4)
    told: list[dict[str, Any]] = []
    played: list[str] = []
    while not state.is_over():
        seat = state.seats_to_act()[rng.randbelow(len(state.seats_to_act()))]
        legal = state.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        count = state.event_count
        if action == PLAY_ACTION:
            played.append(card_text(card_of(state.stacks[seat][-1])))
        state.apply(seat, action)
        view = state.observation(0)
        new = view["event_count"] - count
        assert 1 <= new <= len(view["events"]) <= EVENTS_SHOWN
        told.extend(view["events"][len(view["events"]) - new :])
        assert view["events"] == told[-EVENTS_SHOWN:]
        # Cut back when a pile is taken: at most the events since then beyond LOG_KEPT.
        assert len(state._logged()) < 2 * rules.LOG_KEPT
    assert len(told) == state.event_count > 3 * EVENTS_SHOWN
    assert state.log_from > 0 and len(state._logged()) == state.event_count - state.log_from
    assert [e["card"] for e in told if e["kind"] == "play"] == played


def test_playing_builds_no_event_json_until_an_observation_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*_: Any) -> Any:
        raise AssertionError("event JSON built on the hot path")

    monkeypatch.setattr(views, "event_json", refuse)
    for options in ({}, {"slaps": False}):
        g: EgyptianRatscrew = game(2, **options)
        state = g.new_state(seed=2)
        state.set_recording(False)
        rng = Rng(2)
        while not state.is_over():
            seat = state.seats_to_act()[rng.randbelow(len(state.seats_to_act()))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
            state.observation(seat, events=False)
        with pytest.raises(AssertionError, match="hot path"):
            state.observation(0)
