"""Caged Rats, as the rule sheet tells it: scripted deals, actions in notation, expected results."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ratgames
from ratgames.core.errors import DealError, IllegalAction, OptionError
from ratgames.core.rng import Rng
from ratgames.games.caged_rats.deck import BLACK_CARDS, RED_CARDS, TEXT, rat_value
from ratgames.games.caged_rats.rules import CagedRatsState, cage_points, rat_points

RED_HAND = ["2H", "3D", "4H", "AD", "KD", "AH", "QH", "5D"]
BLACK_HAND = ["2C", "3S", "4C", "AS", "KS", "AC", "QS", "5C"]


def _rest(colour: tuple[int, ...], hand: list[str]) -> list[str]:
    return [TEXT[c] for c in sorted(colour) if TEXT[c] not in hand]


def make_deal(dealer: str = "black") -> dict[str, Any]:
    return {
        "dealer": dealer,
        "red": {"hand": list(RED_HAND), "stock": _rest(RED_CARDS, RED_HAND)},
        "black": {"hand": list(BLACK_HAND), "stock": _rest(BLACK_CARDS, BLACK_HAND)},
    }


def new(options: dict[str, Any] | None = None, dealer: str = "black") -> CagedRatsState:
    game = ratgames.get_game("caged-rats", options=options or {})
    state = game.new_state(seed=3, deal=make_deal(dealer))
    assert isinstance(state, CagedRatsState)
    return state


def play(state: CagedRatsState, *moves: str) -> None:
    for move in moves:
        state.apply(state.seats_to_act()[0], move)


def first_legal_to_end_of_deal(state: CagedRatsState) -> None:
    deal = state.deals
    while not state.is_over() and state.deals == deal:
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[-1])


def test_rat_values_follow_the_pips() -> None:
    assert [
        rat_value(ratgames.get_game("caged-rats").parse_card(t))
        for t in ["AH", "2S", "9D", "10C", "JH", "QS", "KD"]
    ] == [1, 2, 9, 10, 10, 10, 10]


def test_caging_non_dealer_first_then_dealer() -> None:
    state = new()
    assert state.seats_to_act() == [0]  # black deals, so red cages first
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply(0, "cage 2H 6H")
    play(state, "cage 3D 2H")  # either order; rat 1 is the lower card
    obs = state.observation(1)
    assert [r["rat"] for r in obs["cages"][0]] == ["2H", "3D"]
    assert [r["needs"] for r in obs["cages"][0]] == [2, 3]
    assert state.seats_to_act() == [1]
    play(state, "cage 2C 3S")
    assert state.seats_to_act() == [0]
    assert state.observation(0)["phase"] == "offer"


def test_dealer_first_capture_comes_from_her_stock() -> None:
    state = new()
    play(state, "cage 2H 3D", "cage 2C 3S", "offer 4H", "bid AD", "throw 4C")
    # Red led and won 4H for her 2H rat; now black leads with the top of her stock.
    top = make_deal()["black"]["stock"][0]
    obs = state.observation(0)
    assert obs["phase"] == "bid" and obs["offer"] == top and obs["offer_from_stock"]
    assert obs["cages"][0][0]["captures"] == 1
    assert obs["stock_sizes"] == [15, 17]
    assert state.seats_to_act() == [1]


def test_hand_sizes_through_a_whole_deal() -> None:
    """Responding from 7 and bidding from 5 after offering, once both have led, while the
    stocks last; then hands shrink and every card is used."""
    state = new({"single_deal": True})
    play(state, "cage 2H 3D", "cage 2C 3S")
    seen_respond: list[tuple[int, int]] = []
    seen_bid: list[tuple[int, int]] = []
    while not state.is_over():
        seat = state.seats_to_act()[0]
        phase = state.observation(seat)["phase"]
        lead = state.lead_no
        if phase == "respond":
            seen_respond.append((lead, len(state.hands[seat])))
        elif phase == "bid":
            seen_bid.append((lead, len(state.hands[seat])))
        state.apply(seat, state.legal_actions(seat)[-1])
    responds = dict(seen_respond)
    bids = dict(seen_bid)
    assert responds[0] == 6 and bids[0] == 5  # red leads first: hands of 6 after caging
    assert bids[1] == 5 and responds[1] == 7  # black's capture came from her stock
    assert all(responds[n] == 7 for n in range(2, 12))
    assert all(bids[n] == 5 for n in range(0, 13))
    assert [responds[n] for n in range(12, 16)] == [6, 4, 3, 1]
    assert [bids[n] for n in range(13, 16)] == [4, 2, 1]
    assert state.lead_no == 16 and state.hands == [[], []] and state.stocks == [[], []]
    outcome = state.outcome()
    assert outcome is not None and outcome.details["length"] == 16


def test_top_must_be_strictly_higher_and_ties_go_to_the_leader() -> None:
    state = new()
    play(state, "cage 2H 3D", "cage 2C 3S", "offer 4H", "bid KD")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="strictly higher"):
        state.apply(1, "top KS")
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply(1, "top AD")
    assert state.snapshot() == before
    assert [str(a) for a in state.legal_actions(1) if str(a).startswith("top")] == [
        "top AC",
        "top AS",
    ]
    play(state, "throw QS")  # a tie would also have gone to red; a throw concedes
    assert state.observation(0)["cages"][0][0]["captures"] == 1


def test_topped_capture_is_discarded() -> None:
    state = new()
    play(state, "cage 2H 3D", "cage 2C 3S", "offer 4H", "bid QH", "top KS")
    obs = state.observation(0)
    assert obs["cages"][0][0]["captures"] == 0
    assert obs["discards"] == 3
    assert [e["kind"] for e in obs["events"][-4:]] == ["top", "lost", "draw", "offer"]


def test_feeding_choice_between_two_hungry_rats_of_a_suit() -> None:
    state = new()
    play(state, "cage 2H 4H", "cage 2C 3S", "offer 3D", "bid AD", "throw 4C")
    # 3D matches neither heart rat: discarded although red won it.
    assert [r["captures"] for r in state.observation(0)["cages"][0]] == [0, 0]
    assert state.observation(1)["events"][-3]["kind"] == "unfed"
    # Black's stock capture (2S feeds her 3S rat), then red offers a heart: both heart rats
    # are hungry, so red chooses.
    play(state, "bid 5C", "throw 5D")
    assert [r["captures"] for r in state.observation(0)["cages"][1]] == [0, 1]
    play(state, "offer AH", "bid KD", "throw 3C")
    assert state.observation(0)["phase"] == "feed"
    game = state.game
    assert state.legal_actions(0) == [game.parse_action("feed 1"), game.parse_action("feed 2")]
    with pytest.raises(IllegalAction, match="choose the rat"):
        state.apply(0, "offer 2H")
    play(state, "feed 2")
    assert [r["captures"] for r in state.observation(1)["cages"][0]] == [0, 1]


def test_satisfied_rat_is_overfed_when_it_is_the_only_one_of_its_suit() -> None:
    state = new()
    # Red cages AH (needs 1 heart) and 3D (needs 3 diamonds).
    play(state, "cage AH 3D", "cage 2C 3S", "offer 4H", "bid AD", "throw 4C")
    cage = state.observation(0)["cages"][0]
    assert [(r["rat"], r["captures"], r["state"]) for r in cage] == [
        ("3D", 0, "hungry"),
        ("AH", 1, "satisfied"),
    ]
    play(state, "bid 5C", "throw 5D")  # black's stock capture
    play(state, "offer 3H", "bid KD", "throw 3C")
    cage = state.observation(1)["cages"][0]
    assert [(r["captures"], r["state"]) for r in cage] == [(0, "hungry"), (2, "overfed")]
    assert state.deal_points(0) == 2  # overfed: 1 a capture


def test_both_rats_of_one_suit_full_lets_the_player_choose_which_to_overfeed() -> None:
    from ratgames.games.caged_rats.rules import feed_choices_for

    assert feed_choices_for((50, 2), (1, 2), 2) == [0, 1]  # AH 1/1, 2H 2/2: both full
    assert feed_choices_for((50, 2), (1, 0), 2) == [1]  # only 2H is hungry
    assert feed_choices_for((50, 1), (1, 0), 2) == [0]  # one heart rat: overfed
    assert feed_choices_for((50, 1), (1, 0), 3) == []  # a spade: no rat, discarded


def test_scoring_cases() -> None:
    # Under: 2 a capture.  Exact: 5 a capture.  Over: 1 a capture.  Both exact: 10 a capture.
    assert rat_points(5, 3) == 6
    assert rat_points(3, 3) == 15
    assert rat_points(2, 4) == 4
    assert cage_points((5, 2), (3, 1)) == 6 + 2
    assert cage_points((3, 4), (3, 1)) == 15 + 2
    assert cage_points((2, 1), (3, 0)) == 3
    assert cage_points((3, 2), (3, 2)) == 50
    assert cage_points((1, 10), (0, 0)) == 0


def test_deal_score_comes_from_the_cages_and_next_dealer_is_the_higher_scorer() -> None:
    state = new()
    play(state, "cage AH 2H", "cage 2C 3S")
    first_legal_to_end_of_deal(state)
    last = state.history[-1].points
    assert state.scores == last
    if last[0] != last[1]:
        assert state.dealer == (0 if last[0] > last[1] else 1)
    else:
        assert state.dealer == 0  # black dealt the tied deal, so red deals next
    chances = [e[1] for e in state.events() if e[0] == "chance"]
    assert chances == ["red shuffle", "black shuffle"]
    obs = state.observation(0)
    assert obs["last_deal"]["points"] == [last[0], last[1]]
    assert obs["phase"] == "cage" and obs["hand_sizes"] == [8, 8]


def test_tied_deal_passes_the_deal() -> None:
    for _ in range(1):
        state = new()
        red, black = _finish_deal_scoring(state)
        assert state.dealer == 1
        first_legal_to_end_of_deal(state)
        expected = 0 if red >= black else 1  # a tie passes the deal from black to red
        assert state.dealer == expected


def _finish_deal_scoring(state: CagedRatsState) -> tuple[int, int]:
    """The points the current deal will score (played out on a clone)."""
    trial = state.clone()
    first_legal_to_end_of_deal(trial)
    return trial.history[-1].points


def test_rubber_ends_at_target_with_more_points() -> None:
    state = new()
    red, black = _finish_deal_scoring(state)
    state.scores = (120 - red + 5, 0)
    first_legal_to_end_of_deal(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.points == (125.0, float(black))
    assert "Red wins the rubber" in outcome.reason


def test_tied_rubber_goes_on_until_broken() -> None:
    state = new()
    red, black = _finish_deal_scoring(state)
    state.scores = (130 - red, 130 - black)
    first_legal_to_end_of_deal(state)
    assert not state.is_over()
    assert state.scores == (130, 130) and state.deals == 1
    assert state.observation(0)["deal"] == 2
    red, black = _finish_deal_scoring(state)
    state.scores = (131 - red, 130 - black)
    first_legal_to_end_of_deal(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.points == (131.0, 130.0) and outcome.details["deals"] == 2


def test_match_is_best_of_three_rubbers() -> None:
    game = ratgames.get_game("caged-rats", options={"match": True, "target": 30})
    state = game.new_state(seed=9)
    rng = Rng(4)
    rubbers_seen = set()
    while not state.is_over():
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
        rubbers_seen.add(state.rubber_no)
    outcome = state.outcome()
    assert outcome is not None
    assert max(outcome.points) == 2 and min(outcome.points) in (0, 1)
    assert len(rubbers_seen) == int(sum(outcome.points))
    assert "match" in outcome.reason


def test_options_are_checked() -> None:
    with pytest.raises(OptionError, match="match"):
        ratgames.get_game("caged-rats", options={"match": True, "single_deal": True})
    with pytest.raises(OptionError, match="target"):
        ratgames.get_game("caged-rats", options={"target": 0})


def test_cap_stops_a_long_game() -> None:
    game = ratgames.get_game("caged-rats", options={"max_deals": 2, "target": 10_000})
    state = game.new_state(seed=1)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    outcome = state.outcome()
    assert outcome is not None and outcome.capped and outcome.details["deals"] == 2


def test_observation_hides_hand_stock_and_throws() -> None:
    state = new()
    play(state, "cage 2H 3D", "cage 2C 3S", "offer 4H", "bid AD", "throw QS")
    red, black = state.observation(0), state.observation(1)
    assert "QS" not in json.dumps(red)
    assert black["your_throws"] == ["QS"]
    assert any(e.get("card") == "QS" for e in black["events"])
    assert "hand" not in state.spectator_view()
    assert red["hand_sizes"] == [7, 5]
    assert set(red["face_up_seen"]["red"]) >= {"2H", "3D", "4H", "AD"}
    for t in black["hand"]:
        assert f'"{t}"' not in json.dumps(red)


def test_notation_round_trips_and_bad_text_is_explained() -> None:
    game = ratgames.get_game("caged-rats")
    for text in ["cage 5H 9D", "offer QH", "bid 7D", "top 9S", "throw 2C", "feed 2"]:
        assert str(game.parse_action(text)) == text
    assert str(game.parse_action("CAGE 9d 5h")) == "cage 5H 9D"
    with pytest.raises(IllegalAction, match="both red or both black"):
        game.parse_action("cage 5H 9S")
    with pytest.raises(IllegalAction, match="feed 1"):
        game.parse_action("feed 3")
    with pytest.raises(IllegalAction, match="offer QH"):
        game.parse_action("nibble")


def test_bad_deals_are_refused() -> None:
    game = ratgames.get_game("caged-rats")
    deal = make_deal()
    deal["red"]["hand"][0] = "2C"
    with pytest.raises(DealError, match="red"):
        game.new_state(deal=deal)
    with pytest.raises(DealError, match="dealer"):
        game.new_state(deal={**make_deal(), "dealer": "green"})


def test_wrong_phase_is_named() -> None:
    state = new()
    with pytest.raises(IllegalAction, match="cage two rats"):
        state.apply(0, "offer 2H")
    with pytest.raises(IllegalAction, match="not Black's turn; waiting for Red"):
        state.apply(1, "cage 2C 3S")


def test_the_top_rule_has_one_home() -> None:
    """ "A top must be of strictly higher rank than the bid" is written once, in ``toppers``: no
    other code of the game compares one card's rank with another's (a rank against a fixed
    number, such as a bot's "low card", is another matter)."""
    import ast
    from pathlib import Path

    import ratgames.games.caged_rats as package

    def is_rank(node: ast.AST) -> bool:
        return (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == "RANK"
        )

    homes = []
    for path in sorted(Path(package.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text())
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.Lambda):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Compare):
                    sides = [node.left, *node.comparators]
                    if any(is_rank(s) for s in sides) and not any(
                        isinstance(s, ast.Constant) for s in sides
                    ):
                        homes.append((path.name, getattr(func, "name", "lambda")))
    assert homes == [("rules.py", "toppers")]
