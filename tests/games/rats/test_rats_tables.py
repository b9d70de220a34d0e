"""The fast paths of Rats' move generation: hands kept as bit masks too, and tables keyed by
parts of those masks.  They must list exactly the plays of the plain enumeration, in the same
order, and the masks must stay in step with the hands through play, clones and samples.  The
tables are bounded caches: they stay within their limits."""

from __future__ import annotations

import pytest

import ratgames
from ratgames.core.rng import Rng
from ratgames.games.rats.action import DISCARD1, SET, SINGLE, SINGLES, TABLES, RatsAction
from ratgames.games.rats.combos import (
    leads_of_mask,
    run_leads,
    runs_of_suit,
    set_leads,
    sets_of_rank,
    split_hand,
    top_run,
)
from ratgames.games.rats.rules import RatsState


def _mask(cards: tuple[int, ...]) -> int:
    return sum(1 << c for c in cards)


def plain_leads(hand: tuple[int, ...]) -> list[RatsAction]:
    """Every lead, straight from the hand: singles, sets by rank, then runs by suit."""
    out = [SINGLES[c] for c in hand if c < 52]
    if not out:
        return [SINGLES[c] for c in hand]
    by_rank, by_suit, jokers = split_hand(hand)
    for rank in range(13):
        suits = by_rank[rank]
        if suits and (jokers or suits & (suits - 1)):
            out.extend(set_leads(rank, suits, jokers))
    for suit in range(4):
        ranks = by_suit[suit]
        if ranks and (jokers or ranks & (ranks << 1) & (ranks << 2)):
            out.extend(run_leads(suit, ranks, jokers))
    return out


def plain_follows(state: RatsState, hand: tuple[int, ...]) -> list[RatsAction]:
    """Every play to the trick under way, straight from the hand."""
    n = state.trick_n
    if state.pending:
        room = len(hand) - (n - len(state.pending))
        return [DISCARD1[c] for i, c in enumerate(hand) if c > state.pending[-1] and i <= room]
    if state.trick_kind == SINGLE:
        if state.suit_led == -1:
            return [SINGLES[c] if c < 52 else DISCARD1[c] for c in hand]
        out = [
            SINGLES[c] for c in hand if c < 52 and c & 3 == state.suit_led and c >> 2 > state.best
        ]
        return out + [DISCARD1[c] for c in hand]
    by_rank, by_suit, jokers = split_hand(hand)
    out = []
    if state.trick_kind == SET:
        for rank in range(state.best + 1, 13):
            suits = by_rank[rank]
            if suits and (jokers or suits & (suits - 1)):
                out += [a for size, a in sets_of_rank(rank, suits, jokers) if size == n]
    else:
        beats = []
        for suit in range(4):
            ranks = by_suit[suit]
            if ranks and (jokers or ranks & (ranks << 1) & (ranks << 2)):
                beats += [
                    (v, a)
                    for v, a in runs_of_suit(suit, ranks, jokers)
                    if v > state.best and len(a.cards) == n
                ]
        out = [a for _, a in sorted(beats)]
    return out + [DISCARD1[c] for c in hand[: len(hand) - n + 1]]


def test_leads_of_random_hands_match_the_plain_enumeration() -> None:
    rng = Rng(11)
    for i in range(3000):
        deck = list(range(54))
        rng.shuffle(deck)
        # Jokers in about half the hands; sizes from 1 to 26.
        pool = deck if i % 2 else [c for c in deck if c < 52]
        hand = tuple(sorted(pool[: 1 + i % 26]))
        assert leads_of_mask(_mask(hand)) == plain_leads(hand), hand
    assert leads_of_mask(_mask((52, 53))) == [SINGLES[52], SINGLES[53]]


@pytest.mark.parametrize(("players", "jokers"), [(2, 0), (2, 2), (3, 1), (4, 0), (5, 2)])
def test_play_keeps_masks_in_step_and_lists_the_plain_plays(players: int, jokers: int) -> None:
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    rng = Rng(players * 3 + jokers)
    for seed in range(6):
        s = game.new_state(seed=seed)
        assert isinstance(s, RatsState)
        while not s.is_over():
            assert s.hand_masks == [_mask(h) for h in s.hands]
            seat = s.seats_to_act()[0]
            legal = s.legal_actions(seat)
            hand = s.hands[seat]
            assert legal == (plain_follows(s, hand) if s.trick else plain_leads(hand))
            if rng.randbelow(8) == 0:
                sample = s.sample_consistent(seat, Rng(rng.next64()))
                assert sample.hand_masks == [_mask(h) for h in sample.hands]
            s.apply(seat, legal[rng.randbelow(len(legal))])
        assert s.hand_masks == [_mask(h) for h in s.hands]


def test_a_clone_played_on_leaves_the_original_alone() -> None:
    game = ratgames.get_game("rats", players=2, options={"jokers": 2})
    rng = Rng(5)
    s = game.new_state(seed=3)
    assert isinstance(s, RatsState)
    while not s.is_over():
        seat = s.seats_to_act()[0]
        legal = s.legal_actions(seat)
        masks = s.hand_masks[:]
        copy = s.clone()
        assert copy.hand_masks == masks and copy.hand_masks is not s.hand_masks
        # Play the clone on (into the next trick or round when it can) ...
        for _ in range(3):
            if copy.is_over():
                break
            who = copy.seats_to_act()[0]
            moves = copy.legal_actions(who)
            copy.apply(who, moves[rng.randbelow(len(moves))])
        # ... and the original lists and accepts what it did before.
        assert s.hand_masks == masks
        assert s.legal_actions(seat) == legal
        choice = legal[rng.randbelow(len(legal))]
        assert s.is_legal(seat, choice)
        fresh = s.clone()
        s.apply(seat, choice)
        # Playing the original does not touch a clone either.
        assert fresh.hand_masks == masks
        assert fresh.legal_actions(seat) == legal


def test_every_cache_stays_within_its_bound_and_play_is_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The module's caches are bounded (a long simulation must not grow without end): with tiny
    limits they stay within twice their limit and the plays listed do not change."""
    assert len(TABLES) > 10
    for table in TABLES:
        monkeypatch.setattr(table, "limit", 8)
        table.clear()  # a cache: emptied, it refills
        table.older = {}
    game = ratgames.get_game("rats", players=2, options={"jokers": 2})
    rng = Rng(21)
    for seed in range(3):
        s = game.new_state(seed=seed)
        assert isinstance(s, RatsState)
        while not s.is_over():
            seat = s.seats_to_act()[0]
            legal = s.legal_actions(seat)
            hand = s.hands[seat]
            assert legal == (plain_follows(s, hand) if s.trick else plain_leads(hand))
            s.observation(seat)
            s.apply(seat, legal[rng.randbelow(len(legal))])
        for table in TABLES:
            assert table.entries() <= 16


def test_the_top_run_is_the_best_run_of_the_enumeration() -> None:
    rng = Rng(4)
    for _ in range(3000):
        ranks = rng.randbelow(1 << 13)
        jokers = (52, 53)[: rng.randbelow(3)]
        length = 3 + rng.randbelow(6)
        runs = [v for v, a in runs_of_suit(1, ranks, jokers) if len(a.cards) == length]
        top = top_run(ranks, len(jokers), length)
        assert (top * 4 + 1 if top >= 0 else -1) == max(runs, default=-1), (ranks, jokers, length)
