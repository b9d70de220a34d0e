"""Late arrivals at Egyptian Ratscrew: the newcomers' seats as the game names them to a table
(``Game.late_seats``), what a late seat sees while it waits (the hidden-information property),
and its slaps racing like anyone's (fairness)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.egyptian_ratscrew.helpers import game

import ratgames
from ratgames.cards import card_text, parse_card
from ratgames.core.errors import IllegalAction
from ratgames.core.rng import Rng
from ratgames.games.egyptian_ratscrew.phases import IN, OUT, WAITING
from ratgames.games.egyptian_ratscrew.rules import RatscrewState


def table(g: Any, *stacks: str) -> RatscrewState:
    """Seat ``i`` holds ``stacks[i]`` (top card first), seat 0 the rest of the deck after them;
    the seats not named (the late ones among them) hold nothing."""
    named = [s.split() for s in stacks]
    named += [[] for _ in range(g.players - len(named))]
    used = {parse_card(c) for s in named for c in s}
    named[0] += [card_text(c) for c in sorted(g.deck()) if c not in used]
    state = g.new_state(seed=1, deal={"stacks": named})
    assert isinstance(state, RatscrewState)
    return state


def _snap(state: Any) -> Any:
    return json.loads(json.dumps(state.snapshot()))


def test_the_late_seats_are_the_newcomers_last_seats() -> None:
    assert game(4, newcomers=2).late_seats() == (2, 3)
    assert game(3, newcomers=1).late_seats() == (2,)
    assert game(3).late_seats() == ()
    for gid in ratgames.game_ids():
        if gid != "egyptian-ratscrew":
            assert ratgames.get_game(gid).late_seats() == (), gid


def test_a_late_seat_waits_with_no_cards_and_sees_the_table() -> None:
    state = game(4, newcomers=2).new_state(seed=3)
    assert isinstance(state, RatscrewState)
    for seat in (2, 3):
        obs = state.observation(seat)
        assert obs["stacks"][seat] == {"size": 0, "known": [], "status": "waiting"}
        assert obs["seat"] == seat
        # Apart from whose observation it is, it is the table as a spectator sees it.
        view = state.spectator_view()
        assert {k: v for k, v in obs.items() if k in view} == view


def _random_play(state: RatscrewState, rng: Rng, steps: int) -> None:
    for _ in range(steps):
        if state.is_over():
            return
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])


@pytest.mark.parametrize("seed", range(6))
def test_reshuffling_what_a_late_seat_cannot_see_never_changes_its_observation(seed: int) -> None:
    g = game(5, newcomers=2)
    rng = Rng(seed)
    state = g.new_state(seed=seed)
    assert isinstance(state, RatscrewState)
    checked_waiting = 0
    for _ in range(40):
        if state.is_over():
            break
        for seat in g.late_seats():
            obs = state.observation(seat)
            other = state.sample_consistent(seat, Rng(rng.next64()))
            assert other.observation(seat) == obs, f"seat {seat}: a reshuffle changed its view"
            assert other.spectator_view() == state.spectator_view()
            assert sorted(other.cards()) == sorted(state.cards())
            assert other.legal_actions(seat) == state.legal_actions(seat)
            r = rng.next64()
            a = state.sample_consistent(seat, Rng(r))
            b = other.sample_consistent(seat, Rng(r))
            assert _snap(a) == _snap(b), f"seat {seat}: a sample depends on unseen cards"
            checked_waiting += state.status[seat] == WAITING
        _random_play(state, rng, 7)
    assert checked_waiting > 0


def _doubles(g: Any) -> RatscrewState:
    """Seats 0 and 1 dealt in, 9H then 9C played: the pile (doubles) can be slapped."""
    state = table(g, "9H 2C", "9C 3C")
    state.apply(0, "play")
    state.apply(1, "play")
    assert state.rule
    return state


def test_a_late_seat_that_slaps_first_comes_in_with_the_pile() -> None:
    state = _doubles(game(3, newcomers=1))
    v = state.version
    state.apply(2, f"slap@{v}")
    state.apply(0, f"slap@{v}")  # the same pile, a moment later: too late, at no cost
    assert state.status[2] == IN and len(state.stacks[2]) == 2 and state.turn == 2
    assert state.late == 1 and state.bad == 0
    kinds = [e["kind"] for e in state.observation(0)["events"]]
    assert kinds[-3:] == ["slap", "join", "late_slap"]


def test_a_late_seat_beaten_to_the_pile_is_too_late_not_out() -> None:
    state = _doubles(game(3, newcomers=1))
    v = state.version
    state.apply(0, f"slap@{v}")
    state.apply(2, f"slap@{v}")  # it saw the same pile: too late, like anyone, and still waiting
    assert state.status[2] == WAITING and state.late == 1 and state.bad == 0
    assert state.observation(2)["may_slap"] is True  # at the next pile, as before


@pytest.mark.parametrize("first", [0, 2])
def test_the_race_for_a_pile_ignores_whether_a_seat_came_late(first: int) -> None:
    """Whoever's slap is applied first takes the pile: the engine treats a late seat's slap and
    a dealt player's alike, so the server's order of arrival alone decides."""
    state = _doubles(game(3, newcomers=1))
    v = state.version
    second = 2 if first == 0 else 0
    state.apply(first, f"slap@{v}")
    state.apply(second, f"slap@{v}")
    assert state.turn == first and len(state.stacks[first]) > 0
    assert state.observation(second)["events"][-1] == {"kind": "late_slap", "seat": second}


def test_a_late_seats_bad_slap_keeps_it_out_for_good() -> None:
    state = table(game(3, newcomers=1), "2C", "3C")
    state.apply(0, "play")
    state.apply(2, f"slap@{state.version}")
    assert state.status[2] == OUT
    assert state.observation(2)["stacks"][2]["status"] == "out"
    with pytest.raises(IllegalAction, match="out of the game"):
        state.apply(2, f"slap@{state.version}")


def test_nobody_comes_in_once_five_play() -> None:
    g = game(6, newcomers=1)
    five = table(g, "9H 2C", "9C 3C", "4C", "5C", "6C")
    five.apply(0, "play")
    five.apply(1, "play")
    assert five.rule and not five.may_slap(5)
    assert five.observation(5)["may_slap"] is False
    with pytest.raises(IllegalAction, match="fewer than 5 players hold cards"):
        five.apply(5, f"slap@{five.version}")
    # With one of the five dealt no cards, four play: the late seat may come in.
    four = table(g, "9H 2C", "9C 3C", "4C", "5C")
    four.apply(0, "play")
    four.apply(1, "play")
    assert four.may_slap(5) and four.observation(5)["may_slap"] is True
    four.apply(5, f"slap@{four.version}")
    assert four.status[5] == IN
