"""Caged Rats keeps the engine's promises: bad deals raise DealError, every method taking a seat
checks it, events speak the one schema (a face-down throw named to its thrower only), samples
depend only on what the seat knows and reveal nothing of the real game, deal results are named,
and bot parameter defaults come from the parameters themselves."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ratgames
from ratgames.core.bots import make_bot
from ratgames.core.errors import DealError, IllegalAction, RecordError
from ratgames.core.events import event_json
from ratgames.core.rng import Rng
from ratgames.games.caged_rats.bots import HeuristicBot
from ratgames.games.caged_rats.events import Threw
from ratgames.games.caged_rats.rules import CagedRatsState, DealSummary

from .test_caged_rats_rules import make_deal, new, play


def _snap(state: CagedRatsState) -> Any:
    return json.loads(json.dumps(state.snapshot()))


# --- deals ----------------------------------------------------------------------------------------


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    deal: dict[str, Any] = make_deal()
    node: Any = deal
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return deal


BAD_DEALS = [
    ({"dealer": "red", "red": make_deal()["red"]}, "lacks 'black'"),
    ({**make_deal(), "joker": 1}, "unknown keys"),
    ({**make_deal(), 7: 1}, "unknown keys"),
    (_with(("dealer",), 0), "dealer"),
    (_with(("dealer",), ["red"]), "dealer"),
    (_with(("dealer",), None), "dealer"),
    (_with(("red",), ["2H"]), "'red' is an object"),
    (_with(("red",), {"hand": [], "stock": [], "discard": []}), "'red' is an object"),
    (_with(("red", "hand"), "2H 3D"), "list of 8 cards"),
    (_with(("red", "hand"), make_deal()["red"]["hand"][:7]), "list of 8 cards"),
    (_with(("black", "stock"), [*make_deal()["black"]["stock"], "2C"]), "list of 18"),
    (_with(("red", "hand", 0), 2), "written as text"),
    (_with(("red", "hand", 0), None), "written as text"),
    (_with(("red", "hand", 0), True), "written as text"),
    (_with(("red", "hand", 0), ["2H"]), "written as text"),
    (_with(("red", "hand", 0), "2X"), "not a card"),
    (_with(("red", "hand", 0), "RJ"), "not a red card"),
    (_with(("red", "hand", 0), "2C"), "not a red card"),
    (_with(("black", "stock", 3), "AH"), "not a black card"),
    (_with(("red", "hand", 1), "2H"), "2H is dealt twice"),
]


@pytest.mark.parametrize(("deal", "reason"), BAD_DEALS)
def test_every_bad_deal_raises_deal_error_naming_the_fault(deal: Any, reason: str) -> None:
    game = ratgames.get_game("caged-rats")
    with pytest.raises(DealError, match=reason):
        game.new_state(deal=deal)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here] if here else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*here, i))
    return out


@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_deal_mutated_anywhere_plays_or_raises_deal_error(data: st.DataObject) -> None:
    game = ratgames.get_game("caged-rats")
    deal: dict[str, Any] = make_deal()
    path = data.draw(st.sampled_from(_paths(deal)))
    node: Any = deal
    for key in path[:-1]:
        node = node[key]
    action = data.draw(st.sampled_from(["replace", "delete", "card"]))
    if action == "delete":
        del node[path[-1]]
    elif action == "card":
        node[path[-1]] = data.draw(st.sampled_from(["2H", "AS", "10D", "KC", "BJ", "1H", " qs "]))
    else:
        node[path[-1]] = data.draw(JSON_VALUES)
    try:
        state = game.new_state(seed=1, deal=deal)
    except DealError:
        return
    # Accepted: it really is a deal, and it is the deal the game started from.
    again = game.new_state(seed=1, deal=state.initial_deal())
    assert _snap(again) == _snap(state)


# --- seats ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 2, True, False, "0", 0.0, None])
def test_every_method_taking_a_seat_refuses_one_that_is_not(seat: Any) -> None:
    state = new()
    before = _snap(state)
    legal = state.legal_actions(0)[0]
    calls = [
        lambda: state.observation(seat),
        lambda: state.observation(seat, events=False),
        lambda: state.legal_actions(seat),
        lambda: state.sample_consistent(seat, Rng(1)),
        lambda: state.is_legal(seat, legal),
        lambda: state.why_illegal(seat, legal),
        lambda: state.deal_points(seat),
        lambda: state.apply(seat, legal),
    ]
    for call in calls:
        with pytest.raises(IllegalAction, match="seats are numbered 0 to 1"):
            call()
    assert _snap(state) == before


# --- events ---------------------------------------------------------------------------------------


def _opening(dealer: str = "black") -> CagedRatsState:
    state = new(dealer=dealer)
    play(state, "cage 2H 3D", "cage 2C 3S", "offer 4H", "bid AD", "throw QS")
    return state


def test_events_speak_the_one_schema() -> None:
    state = _opening()
    for view in (state.observation(0), state.observation(1), state.spectator_view()):
        kinds = [e["kind"] for e in view["events"]]
        assert kinds == ["deal", "cage", "cage", "offer", "bid", "throw", "feed", "draw", "offer"]
        for e in view["events"]:
            assert "text" not in e and "type" not in e and "event" not in e
    feed = state.observation(0)["events"][6]
    assert feed == {
        "kind": "feed",
        "seat": 0,
        "rat": 1,
        "rat_card": "2H",
        "card": "4H",
        "captures": 1,
        "needs": 2,
    }
    quick = state.observation(0, events=False)
    assert quick["events"] == [] and quick["face_up_seen"] == state.observation(0)["face_up_seen"]


def test_a_face_down_throw_is_named_to_its_thrower_only() -> None:
    state = _opening()
    game = state.game
    throws = {
        who: [e for e in view["events"] if e["kind"] == "throw"]
        for who, view in (
            ("black", state.observation(1)),
            ("red", state.observation(0)),
            ("spectator", state.spectator_view()),
        )
    }
    assert throws["black"] == [event_json(game, Threw(1, game.parse_card("QS")))]
    assert throws["red"] == throws["spectator"] == [event_json(game, Threw(1))]
    assert throws["red"] == [{"kind": "throw", "seat": 1, "card": None}]
    assert "QS" not in json.dumps(state.observation(0))
    assert game.describe_event(throws["black"][0], 1) == "You throw QS face down"
    assert game.describe_event(throws["red"][0], 0) == "Black throws a card face down"
    assert game.describe_event(throws["red"][0], None) == "Black throws a card face down"


def test_events_read_as_sentences_for_each_viewer() -> None:
    state = _opening()
    game = state.game
    events = state.observation(0)["events"]
    said = {viewer: [game.describe_event(e, viewer) for e in events] for viewer in (0, 1, None)}
    assert said[None] == [
        "Deal 1 (rubber 1): Black deals",
        "Red cages 2H and 3D",
        "Black cages 2C and 3S",
        "Red offers 4H",
        "Red bids AD",
        "Black throws a card face down",
        "Red wins 4H and feeds rat 1 (2H): 1/2, fed",
        "Red draws 3 from her stock",
        f"Black offers {state.observation(0)['offer']} from the top of her stock",
    ]
    assert said[0][1:5] == [
        "You cage 2H and 3D",
        "Black cages 2C and 3S",
        "You offer 4H",
        "You bid AD",
    ]
    assert said[0][6] == "You win 4H and feed rat 1 (2H): 1/2, fed"
    assert said[1][0] == "Deal 1 (rubber 1): you deal"
    assert said[1][8].startswith("You offer") and said[1][8].endswith("from the top of your stock")


def test_the_end_of_a_game_tells_the_score_and_the_rubber() -> None:
    state = new()
    state.scores = (200, 0)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    events = state.spectator_view()["events"]
    assert [e["kind"] for e in events[-2:]] == ["score", "rubber"]
    score, rubber = events[-2:]
    assert rubber["seat"] == 0 and rubber["rubber"] == 1 and rubber["totals"] == score["totals"]
    said = state.game.describe_event(rubber, 0)
    assert said.startswith("You win rubber 1, ")


# --- samples --------------------------------------------------------------------------------------


def test_a_sample_keeps_no_seed_log_or_initial_deal() -> None:
    state = _opening()
    sample = state.sample_consistent(0, Rng(5))
    assert sample.sampled and sample.seed is None and sample.events() == []
    assert sample.initial is None
    with pytest.raises(RecordError):
        sample.initial_deal()
    with pytest.raises(RecordError):
        sample.record()
    # The sample plays on, and its chance events (later deals' shuffles) come from the sample.
    while not sample.is_over() and sample.deals == 0:
        seat = sample.seats_to_act()[0]
        sample.apply(seat, sample.legal_actions(seat)[0])


def _twin(black_throw: str, red_stock_order: int, black_stock_order: int) -> CagedRatsState:
    """Red sees the same in every twin: the same hand and public play.  The twins differ in what
    black threw face down, the order of red's stock (below the three cards she draws) and of
    black's stock (below its top card, turned up as black's first capture), and the seed."""
    deal = make_deal()
    for colour, rotate, seen in (("red", red_stock_order, 3), ("black", black_stock_order, 1)):
        stock = deal[colour]["stock"]
        top, rest = stock[:seen], stock[seen:]
        deal[colour]["stock"] = top + rest[rotate:] + rest[:rotate]
    game = ratgames.get_game("caged-rats")
    state = game.new_state(seed=100 + red_stock_order + black_stock_order, deal=deal)
    assert isinstance(state, CagedRatsState)
    play(state, "cage 2H 3D", "cage 2C 3S", "offer 4H", "bid AD", f"throw {black_throw}")
    return state


def test_samples_depend_only_on_what_the_seat_knows() -> None:
    twins = [_twin("QS", 0, 0), _twin("4C", 5, 3), _twin("KS", 11, 9)]
    assert len({json.dumps(t.snapshot()) for t in twins}) == 3
    assert len({json.dumps(t.observation(0)) for t in twins}) == 1
    for r in range(20):
        samples = [t.sample_consistent(0, Rng(r)) for t in twins]
        assert len({json.dumps(s.snapshot()) for s in samples}) == 1
    # And the samples vary with the generator.
    snaps = {json.dumps(twins[0].sample_consistent(0, Rng(r)).snapshot()) for r in range(20)}
    assert len(snaps) == 20


def test_samples_are_positions_the_rules_can_reach() -> None:
    game = ratgames.get_game("caged-rats")
    rng = Rng(3)
    for seed in range(3):
        state = game.new_state(seed=seed)
        assert isinstance(state, CagedRatsState)
        while not state.is_over() and state.deals < 2:
            for seat in (0, 1):
                sample = state.sample_consistent(seat, Rng(rng.next64()))
                assert sample.observation(seat) == state.observation(seat)
                other = 1 - seat
                # Each player holds only her own colour, and the hidden cards are the ones
                # nobody saw face up.
                assert sorted(
                    sample.hands[other] + sample.stocks[other] + [*sample.thrown[other]]
                ) == sorted(state.hands[other] + state.stocks[other] + [*state.thrown[other]])
                for s in sample.seats_to_act():
                    assert sample.legal_actions(s), "a seat to act has no legal action"
            actor = state.seats_to_act()[0]
            legal = state.legal_actions(actor)
            state.apply(actor, legal[rng.randbelow(len(legal))])


# --- results and bots -----------------------------------------------------------------------------


def test_deal_results_are_named() -> None:
    state = new({"single_deal": True})
    play(state, "cage AH 2H", "cage 2C 3S")
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    (summary,) = state.history
    assert isinstance(summary, DealSummary)
    assert summary.points == state.scores
    cages = state.observation(0)["cages"]
    for seat in (0, 1):
        rats = cages[seat]
        assert summary.captures[seat] == sum(r["captures"] for r in rats)
        assert summary.exact[seat] == sum(r["state"] == "satisfied" for r in rats)
        assert summary.overfed[seat] == sum(r["state"] == "overfed" for r in rats)
    assert state.snapshot()["history"] == [summary.to_json()]
    assert state.observation(1)["last_deal"] == {
        "points": list(summary.points),
        "exact_rats": list(summary.exact),
        "captures": list(summary.captures),
    }
    details = state.outcome().details  # type: ignore[union-attr]
    assert details["points_red"] == summary.points[0]
    assert details["captures_per_deal_black"] == summary.captures[1]


def test_bot_parameter_defaults_are_the_declared_ones() -> None:
    game = ratgames.get_game("caged-rats")
    bot = make_bot(game, "heuristic")
    assert isinstance(bot, HeuristicBot)
    declared = {p.name: p.default for p in HeuristicBot.params}
    assert (bot.ambition, bot.defend) == (declared["ambition"], declared["defend"])
    tuned = make_bot(game, "heuristic:defend=false")
    assert isinstance(tuned, HeuristicBot)
    assert tuned.defend is False and tuned.ambition == declared["ambition"]


def test_deal_copies_are_not_shared() -> None:
    state = new()
    deal = state.initial_deal()
    deal["red"]["hand"][0] = "XX"
    assert state.initial_deal() == make_deal()
    assert copy.deepcopy(make_deal()) == state.initial_deal()
