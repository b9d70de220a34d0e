"""Rats events in the engine's one schema: typed events, JSON only through ``event_json`` (the key
``kind`` names the event), sentences only from the render module."""

from __future__ import annotations

import json

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.events import event_json, event_text
from ratgames.core.rng import Rng
from ratgames.games.rats.events import Played, RoundEnded, TrickWon
from ratgames.games.rats.rules import RatsState
from ratgames.games.rats.views import EVENTS_KEPT, latest_events


def table(hands: list[str], dealer: int = 0) -> RatsState:
    game = ratgames.get_game("rats", players=len(hands))
    dealt = [h.split() for h in hands]
    used = {parse_card(c) for h in dealt for c in h}
    stock = [game.card_text(c) for c in standard_deck(0) if c not in used]
    state = game.new_state(seed=5, deal={"dealer": dealer, "hands": dealt, "stock": stock})
    assert isinstance(state, RatsState)
    return state


def play(state: RatsState, *moves: str) -> None:
    for move in moves:
        state.apply(state.seats_to_act()[0], move)


def test_events_of_a_round_in_json() -> None:
    s = table(["AS 2C 3C", "KS 4C 5C"])
    play(s, "AS", "discard KS")
    s.apply(0, "2C")
    assert s.observation(1)["trick"]["combination"] == "single"
    s.apply(1, "4C")
    play(s, "5C", "discard 3C")
    events = s.observation(0)["events"]
    assert events == [
        {
            "kind": "play",
            "round": 1,
            "seat": 0,
            "play": "AS",
            "combination": "single",
            "cards": ["AS"],
            "leads": True,
            "beats": False,
        },
        {
            "kind": "play",
            "round": 1,
            "seat": 1,
            "play": "discard KS",
            "combination": "discard",
            "cards": ["KS"],
            "leads": False,
            "beats": False,
        },
        {"kind": "trick", "round": 1, "winner": 0, "count": 2},
        {
            "kind": "play",
            "round": 1,
            "seat": 0,
            "play": "2C",
            "combination": "single",
            "cards": ["2C"],
            "leads": True,
            "beats": False,
        },
        {
            "kind": "play",
            "round": 1,
            "seat": 1,
            "play": "4C",
            "combination": "single",
            "cards": ["4C"],
            "leads": False,
            "beats": True,
        },
        {"kind": "trick", "round": 1, "winner": 1, "count": 2},
        {
            "kind": "play",
            "round": 1,
            "seat": 1,
            "play": "5C",
            "combination": "single",
            "cards": ["5C"],
            "leads": True,
            "beats": False,
        },
        {
            "kind": "play",
            "round": 1,
            "seat": 0,
            "play": "discard 3C",
            "combination": "discard",
            "cards": ["3C"],
            "leads": False,
            "beats": False,
        },
        {"kind": "trick", "round": 1, "winner": 1, "count": 2},
        {"kind": "round_end", "round": 1, "stock_to": 1, "out": [], "next_hand_size": 2},
    ]
    assert s.spectator_view()["events"] == events
    game = s.game
    lead = Played(1, 0, "AS", "single", (parse_card("AS"),), True, False)
    assert event_json(game, lead) == events[0]
    assert event_json(game, TrickWon(1, 0, 2)) == events[2]
    assert event_json(game, RoundEnded(1, 1, (), 2)) == events[-1]


def test_events_say_what_happened_from_each_seat() -> None:
    s = table(["7H 7S 2C", "3C 4C 5D", "9C 9D 6H"])
    play(s, "7H 7S", "discard 3C", "discard 4C", "9C 9D")
    game = s.game
    first, discard, beat, won = s.observation(0)["events"]
    assert game.describe_event(first, 0) == "You lead 7H 7S"
    assert game.describe_event(first, 1) == "Seat 1 leads 7H 7S"
    assert event_text(game, discard, None) == "Seat 2 discards 3C 4C"
    assert event_text(game, discard, 1) == "You discard 3C 4C"
    assert event_text(game, beat, 0) == "Seat 3 beats with 9C 9D"
    assert event_text(game, won, 2) == "You win the trick (6 cards)"
    assert event_text(game, won, None) == "Seat 3 wins the trick (6 cards)"
    end = {"kind": "round_end", "round": 2, "stock_to": 0, "out": [1, 2], "next_hand_size": 3}
    assert event_text(game, end, 0) == (
        "Round 2 ends; the stock goes to you; Seat 2 and Seat 3 are out; next hands: 3 cards"
    )
    assert event_text(game, end, 1) == (
        "Round 2 ends; the stock goes to Seat 1; Seat 3 is out; you are out; next hands: 3 cards"
    )


def test_observations_carry_the_latest_events_in_one_schema() -> None:
    game = ratgames.get_game("rats", players=3, options={"jokers": 2})
    s = game.new_state(seed=4)
    assert isinstance(s, RatsState)
    rng = Rng(4)
    while not s.is_over():
        seat = s.seats_to_act()[0]
        if rng.randbelow(5) == 0:
            obs = s.observation(seat)
            events = obs["events"]
            assert len(events) == min(EVENTS_KEPT, obs["n_events"])
            # The core's count of events is the game's: every play shown, every trick, round.
            assert s.event_count == obs["n_events"]
            assert events == [event_json(game, e) for e in latest_events(s)]
            for event in events:
                assert event["kind"] in ("play", "trick", "round_end")
                assert not {"event", "type", "text", "n"} & set(event)
                assert game.describe_event(event, seat)
            json.dumps(obs)
            # Each observation has its own copies: changing one changes nothing else.
            if events:
                events[-1].clear()
                assert s.observation(seat)["events"] == [
                    event_json(game, e) for e in latest_events(s)
                ]
            quick = s.observation(seat, events=False)
            assert quick["events"] == [] and quick["round_tricks"] == []
        legal = s.legal_actions(seat)
        s.apply(seat, legal[rng.randbelow(len(legal))])
