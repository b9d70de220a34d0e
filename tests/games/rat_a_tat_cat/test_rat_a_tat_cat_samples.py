"""Rat-a-Tat Cat samples (``sample_consistent``): every card stays where public play allows it.

What everybody knows about hidden cards, and what a sample must keep:

* a card drawn from the draw pile and kept (in a row, or still held) is a number card: a power
  card drawn is shown and used at once (issue 13, defect 3);
* after the draw pile runs out, the new draw pile holds exactly the cards everybody saw in the
  discard pile, so the cards of the deal that are still hidden stay in the rows, and a card
  drawn since then is one of the reshuffled ones (issue 13, defect 11).

The checks read only the public events (what a spectator saw), not the game's own bookkeeping.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.rat_a_tat_cat.helpers import make_deal, play, start

import ratgames
from ratgames.core.errors import RecordError
from ratgames.core.rng import Rng
from ratgames.games.rat_a_tat_cat.cards import CARD_TEXT, DECK, PEEK, SWAP
from ratgames.games.rat_a_tat_cat.rules import RatState

POWER = {"PEEK", "SWAP", "DRAW2"}


Origins = tuple[dict[tuple[int, int], tuple[int, bool]], int, set[str]]


def _public_origins(state: RatState) -> Origins:
    """From the public events of the round in progress: for every slot, the pool its card came
    from (0: the deal, k: the k-th reshuffle) and whether it was kept from the draw pile; the
    pool the draw pile holds now; and the power cards known to be in it (turned up at the deal
    and shuffled back, and not drawn since)."""
    events = state.snapshot()["events"]  # all the public events (a view lists the last 60)
    last = max(i for i, e in enumerate(events) if e["kind"] == "deal")
    players = state.game.players
    origin = {(s, i): (0, False) for s in range(players) for i in range(4)}
    pool = 0
    in_draw = set(events[last]["returned"])
    for e in events[last:]:
        if e["kind"] == "reshuffle":
            pool += 1
            in_draw.clear()
        elif e["kind"] == "power" and pool == 0:
            in_draw.discard(e["card"])
        elif e["kind"] == "replace":
            origin[e["seat"], e["slot"] - 1] = (pool, True)
        elif e["kind"] == "swap":
            x, y = (e["seat"], e["slot"] - 1), (e["other"], e["other_slot"] - 1)
            origin[x], origin[y] = origin[y], origin[x]
    return origin, pool, in_draw


def _hidden_by_pool(
    state: RatState, seat: int, origins: Origins
) -> tuple[dict[int, Counter[str]], list[str]]:
    """The cards ``seat`` has not seen, by pool; and the cards that must be number cards (kept
    from the draw pile, or a drawn card another seat holds)."""
    origin, now, _ = origins
    obs = state.observation(seat, events=False)
    pools: dict[int, Counter[str]] = {}
    numbers = []
    for (s, i), (pool, kept) in origin.items():
        c = state.card_in(s, i)
        if c < 0 or obs["slots"][s][i] is not None:
            continue
        pools.setdefault(pool, Counter())[CARD_TEXT[c]] += 1
        if kept:
            numbers.append(CARD_TEXT[c])
    pools.setdefault(now, Counter()).update(CARD_TEXT[c] for c in state.draw)
    if obs["held"] == "hidden":
        pools[now][CARD_TEXT[state.held]] += 1
        numbers.append(CARD_TEXT[state.held])
    return {p: c for p, c in pools.items() if c}, numbers


def _check_sample(state: RatState, seat: int, rng: Rng, origins: Origins | None = None) -> RatState:
    """A sample for ``seat``, checked: the same cards in each pool, number cards where a card
    was kept from the draw pile, and the power cards shuffled back at the deal in the draw pile
    until drawn."""
    origins = origins or _public_origins(state)
    sample = state.sample_consistent(seat, rng)
    assert sample.observation(seat) == state.observation(seat)
    real_pools, _ = _hidden_by_pool(state, seat, origins)
    pools, numbers = _hidden_by_pool(sample, seat, origins)
    assert pools == real_pools, "a sample moved a card out of its pool"
    assert not POWER & set(numbers), "a sample put a power card where a number card must be"
    draw = {CARD_TEXT[c] for c in sample.draw}
    assert origins[2] <= draw, "a card shuffled back at the deal left the draw pile"
    return sample


def test_a_card_kept_from_the_draw_pile_and_a_held_drawn_card_are_number_cards() -> None:
    """Defect 3 of issue 13: samples put power cards there."""
    # Every power card is still hidden in the draw pile.
    state = start([["1", "7", "8", "2"], ["3", "9", "9", "4"]], draw=["0", "6", "2"])
    play(state, "1:draw", "1:discard", "1:end", "2:draw", "2:replace 2", "2:end")
    play(state, "1:draw")  # seat 1 holds a drawn card
    held = []
    kept = []
    for i in range(300):
        sample = _check_sample(state, 1, Rng(i))  # seat 2 does not know the held card
        held.append(sample.snapshot()["held"])
        sample = _check_sample(state, 0, Rng(i))  # seat 1 did not see seat 2 keep its card
        kept.append(sample.card_in(1, 1))
    assert not POWER & set(held)
    assert all(c < PEEK for c in kept)
    assert len(set(held)) > 5 and len(set(kept)) > 5  # and they are random


def _short_draw_pile_deal() -> dict[str, Any]:
    """Two seats; the draw pile is the 9 then the 8, every other card is in the discard pile
    under a 5."""
    hands = [["1", "PEEK", "SWAP", "2"], ["3", "0", "DRAW2", "4"]]
    rest = Counter(CARD_TEXT[c] for c in DECK) - Counter(
        [c for row in hands for c in row] + ["9", "8", "5"]
    )
    return {"hands": hands, "draw": ["9", "8"], "discard": ["5", *sorted(rest.elements())]}


def test_after_a_reshuffle_the_draw_pile_holds_the_cards_seen_in_the_discard_pile() -> None:
    """Defect 11 of issue 13: samples traded the reshuffled cards with hidden cards in rows."""
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=3, deal=_short_draw_pile_deal())
    assert isinstance(state, RatState)
    play(state, "1:draw", "1:discard", "1:end", "2:draw", "2:discard", "2:end")
    before = sorted(state.snapshot()["discard"][:-1])  # everyone sees these
    play(state, "1:draw")  # the draw pile is empty: the discard pile but its top is reshuffled
    assert state.observation(1)["draw_pile"] == 54 - 8 - 1 - 1
    reshuffle = state.spectator_view()["events"][-2]
    assert reshuffle["kind"] == "reshuffle" and sorted(reshuffle["cards"]) == before
    row_cards = sorted(state.snapshot()["hands"])
    for i in range(200):
        sample = _check_sample(state, 1, Rng(i))
        snap = sample.snapshot()
        # The rows keep the dealt cards (the power cards among them); the reshuffled cards
        # are in the draw pile or in seat 1's hand.
        assert sorted(snap["hands"]) == row_cards
        assert sorted([*snap["draw"], snap["held"]]) == before
        assert snap["held"] not in POWER
    play(state, "1:replace 2", "1:end")  # the PEEK goes out, a reshuffled card comes in
    for i in range(200):
        sample = _check_sample(state, 1, Rng(i))
        assert sorted([*sample.snapshot()["draw"], CARD_TEXT[sample.card_in(0, 1)]]) == before
        hands = sample.snapshot()["hands"]
        dealt = ["1", "SWAP", "2", "3", "0", "DRAW2", "4"]
        assert sorted(hands[:1] + hands[2:]) == sorted(dealt)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"edition": "forlago"}),
        (2, {"younger": True, "mode": "rounds=2"}),
        (4, {"swap_look": False, "first_discard": "keep_turning"}),
    ],
)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32))
def test_samples_keep_every_card_where_public_play_allows_it(
    players: int, options: dict[str, Any], seed: int
) -> None:
    """Along random games that never knock (long rounds, so the draw pile runs out), samples
    for every seat keep each hidden card in its pool and number cards where a card was kept."""
    game = ratgames.get_game("rat-a-tat-cat", players=players, options={**options, "turn_cap": 150})
    rng = Rng(seed)
    state = game.new_state(seed=seed)
    assert isinstance(state, RatState)
    reshuffles = 0
    for step in range(400):
        if state.is_over():
            break
        if step % 9 == 0:
            origins = _public_origins(state)
            for s in range(players):
                _check_sample(state, s, Rng(rng.next64()), origins)
        seat = state.seats_to_act()[0]
        legal = [a for a in state.legal_actions(seat) if str(a) != "knock"]
        state.apply(seat, legal[rng.randbelow(len(legal))])
        reshuffles += any(e["kind"] == "reshuffle" for e in state.spectator_view()["events"][-3:])
    assert reshuffles or state.is_over()


def test_a_sample_keeps_nothing_of_the_real_deal_or_seed() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=3)
    state = game.new_state(seed=12)
    play_seat = state.seats_to_act()[0]
    state.apply(play_seat, "draw")
    sample = state.sample_consistent(1, Rng(5))
    assert isinstance(sample, RatState)
    assert sample.sampled and sample.seed is None and sample.events() == []
    assert sample.deal0 == {}
    with pytest.raises(RecordError):
        sample.initial_deal()
    # Its later chance events (a new round's deal) come from the sample's own generator.
    twin = state.sample_consistent(1, Rng(5))
    assert twin.snapshot() == sample.snapshot()


def test_within_those_bounds_every_place_is_as_likely_to_hold_a_power_card() -> None:
    """Seat 2 kept a drawn card in its slot 2: that slot holds a number card, and the nine
    hidden power cards spread evenly over every other place seat 1 has not seen."""
    state = start([["1", "7", "8", "2"], ["3", "9", "9", "4"]], draw=["0", "6", "2"])
    play(state, "1:draw", "1:discard", "1:end", "2:draw", "2:replace 2", "2:end")
    free = [(1, 0), (1, 2), (1, 3), (0, 1), (0, 2)]
    places = len(free) + state.observation(0)["draw_pile"]
    expected = 9 / places
    n = 3000
    counts = dict.fromkeys(free, 0)
    on_top = 0
    for i in range(n):
        sample = state.sample_consistent(0, Rng(i))
        for seat, slot in free:
            counts[seat, slot] += sample.card_in(seat, slot) >= PEEK
        assert sample.card_in(1, 1) < PEEK
        on_top += sample.draw[-1] >= PEEK
    sigma = (expected * (1 - expected) / n) ** 0.5
    for place, count in [*counts.items(), ("top of the draw pile", on_top)]:
        assert abs(count / n - expected) < 4 * sigma, place


def test_a_power_card_turned_up_and_shuffled_back_stays_in_the_draw_pile_until_drawn() -> None:
    """Everyone saw the SWAP turned up at the deal and shuffled back (first_discard=shuffle_back):
    it is in the draw pile, so a sample keeps a SWAP there, until one is drawn."""
    hands = [["1", "SWAP", "SWAP", "2"], ["3", "4", "5", "6"]]
    rest = Counter(CARD_TEXT[c] for c in DECK) - Counter(
        [c for row in hands for c in row] + ["9", "SWAP", "8", "5"]
    )
    deal = {
        "hands": hands,
        "draw": ["9", "SWAP", "8"],
        "discard": ["5", *sorted(rest.elements())],
        "returned": ["SWAP"],
    }
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=1, deal=deal)
    assert isinstance(state, RatState)
    assert state.initial_deal() == deal
    assert state.observation(1)["draw_holds"] == ["SWAP"]
    assert state.spectator_view()["events"][0]["returned"] == ["SWAP"]
    assert game.describe_event(state.spectator_view()["events"][0]) == (
        "Round 1: Seat 2 dealt; SWAP was turned up and shuffled back; the discard pile starts "
        "with 5"
    )
    in_slots = 0
    for i in range(300):
        sample = _check_sample(state, 1, Rng(i))
        assert SWAP in sample.draw
        in_slots += sum(sample.card_in(0, slot) == SWAP for slot in range(4))
    assert in_slots > 100  # the other SWAPs do go to the rows
    play(state, "1:draw", "1:discard", "1:end", "2:draw", "2:noswap")
    assert state.observation(0)["draw_holds"] == []
    for i in range(50):
        _check_sample(state, 0, Rng(i))


def test_a_shuffled_back_card_drawn_while_replacing_power_cards_is_no_longer_owed() -> None:
    """The SWAP shuffled back at the deal is drawn (and skipped) when seat 1's PEEK is replaced
    at the end of the round; the other SWAPs are in seat 2's row: a sample of the finished game
    must not look for a SWAP in the draw pile."""
    hands = [["PEEK", "1", "1", "2"], ["SWAP", "SWAP", "0", "0"]]
    deal = make_deal(hands, draw=["9", "8", "SWAP", "6"])
    state = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"}).new_state(
        seed=1, deal={**deal, "returned": ["SWAP"]}
    )
    assert isinstance(state, RatState)
    play(state, "1:draw", "1:discard", "1:knock", "2:draw", "2:discard")
    assert state.is_over() and state.observation(0)["draw_holds"] == []
    for seat in (0, 1):
        sample = state.sample_consistent(seat, Rng(seat))
        assert SWAP not in sample.draw
