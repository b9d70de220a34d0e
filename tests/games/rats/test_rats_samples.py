"""Samples of Rats (``sample_consistent``): what a seat may believe about the cards it cannot see.

A sample must keep nothing of the real hidden cards (no seed, log or initial deal, nothing
derived from them), depend only on what the seat knows, and be a position the rules can reach:
in particular a seat in the middle of a discard (laid lowest card first) still holds enough
cards above its last one to finish it.
"""

from __future__ import annotations

import json
from math import comb

import pytest

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.errors import RecordError
from ratgames.core.rng import Rng
from ratgames.games.rats.rules import Rats, RatsState


def table(hands: list[str], dealer: int = 0, jokers: int = 0, seed: int = 5) -> RatsState:
    """A game dealt ``hands`` (one text of cards per player); every other card is the stock."""
    game = ratgames.get_game("rats", players=len(hands), options={"jokers": jokers})
    dealt = [h.split() for h in hands]
    used = {parse_card(c) for h in dealt for c in h}
    stock = [game.card_text(c) for c in standard_deck(jokers) if c not in used]
    state = game.new_state(seed=seed, deal={"dealer": dealer, "hands": dealt, "stock": stock})
    assert isinstance(state, RatsState)
    return state


def play(state: RatsState, *moves: str) -> None:
    for move in moves:
        state.apply(state.seats_to_act()[0], move)


def _bits(mask: int) -> set[int]:
    return {c for c in range(54) if mask >> c & 1}


def _random_play(
    game: Rats, seed: int, steps: int, watch: int
) -> tuple[RatsState, list[tuple[int, object]], set[int]]:
    """A seeded game played at random for ``steps`` actions (or to its end): the state, the
    actions, and every card seat ``watch`` has held or seen played."""
    state = game.new_state(seed=seed)
    assert isinstance(state, RatsState)
    rng = Rng(seed * 7 + 1)
    actions: list[tuple[int, object]] = []
    known = set(state.hands[watch])
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        state.apply(seat, action)
        actions.append((seat, action))
        known |= set(state.hands[watch])
    known |= _bits(state.seen | state.trick_mask)
    return state, actions, known


def _twin(
    state: RatsState, actions: list[tuple[int, object]], known: set[int], seat: int
) -> RatsState | None:
    """Another real game (another deal and seed) that ``seat`` cannot tell from ``state``: two
    cards the seat never held or saw change places in the deal and in every reserve shuffle,
    and the same actions are played.  None if no such swap leaves every action legal and
    changes the position."""
    game = state.game
    deal = state.initial_deal()
    chances = [e for e in state.events() if e[0] == "chance"]
    hidden = sorted(set(game.deck()) - known)
    for i, x in enumerate(hidden):
        for y in hidden[i + 1 :]:
            swap = {x: y, y: x}

            def move(c: int, swap: dict[int, int] = swap) -> int:
                return swap.get(c, c)

            def text(cards: list[str], move: object = move) -> list[str]:
                return [game.card_text(move(parse_card(t))) for t in cards]

            other_deal = {
                "dealer": deal["dealer"],
                "hands": [text(h) for h in deal["hands"]],
                "stock": text(deal["stock"]),
            }
            script = [(e[1], tuple(move(c) for c in e[2])) for e in chances]
            other = game.new_state(
                seed=(state.seed or 0) + 1, deal=other_deal, chance_script=script
            )
            assert isinstance(other, RatsState)
            try:
                for who, action in actions:
                    other.apply(who, action)
            except ratgames.IllegalAction:
                continue
            if other.snapshot() == state.snapshot():
                continue  # both cards in the same place: nothing changed
            assert other.observation(seat) == state.observation(seat)
            return other
    return None


# --- defect 1: a sample carries nothing of the real deal ------------------------------------


@pytest.mark.parametrize(("players", "jokers", "steps"), [(4, 0, 30), (3, 2, 70), (2, 0, 140)])
def test_a_sample_has_no_seed_log_or_initial_deal(players: int, jokers: int, steps: int) -> None:
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    assert isinstance(game, Rats)
    state, _, _ = _random_play(game, 3, steps, 0)
    assert state.events(), "the real game has a log"
    for seat in range(players):
        sample = state.sample_consistent(seat, Rng(seat))
        assert sample.sampled and sample.seed is None
        assert sample.events() == []
        with pytest.raises(RecordError):
            sample.initial_deal()
        with pytest.raises(RecordError):
            sample.record()
        assert sample.initial_hands == () and state.initial_hands
        snap = sample.snapshot()
        assert "initial_hands" not in snap, "a snapshot is the position, not its origin"
        json.dumps(snap)


@pytest.mark.parametrize(
    ("players", "jokers", "steps", "seed"),
    [(4, 0, 25, 1), (3, 0, 30, 2), (2, 1, 30, 4), (5, 1, 50, 6), (5, 2, 70, 8)],
)
def test_samples_from_games_the_seat_cannot_tell_apart_are_the_same(
    players: int, jokers: int, steps: int, seed: int
) -> None:
    """Two real games with different deals and seeds that look the same to a seat give that
    seat the same samples from the same random numbers (a sample depends on nothing else)."""
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    assert isinstance(game, Rats)
    compared = 0
    for seat in range(players):
        state, actions, known = _random_play(game, seed + seat, steps, seat)
        if state.is_over():
            continue
        other = _twin(state, actions, known, seat)
        if other is None:
            continue
        for r in range(6):
            a = state.sample_consistent(seat, Rng(r))
            b = other.sample_consistent(seat, Rng(r))
            assert a.snapshot() == b.snapshot()
            for who in range(players):
                assert a.observation(who) == b.observation(who)
            # Their futures agree too: the same moves bring the same reserve shuffles.
            rng_a, rng_b = Rng(r), Rng(r)
            for _ in range(40):
                if a.is_over():
                    break
                who = a.seats_to_act()[0]
                legal = a.legal_actions(who)
                assert legal == b.legal_actions(who)
                a.apply(who, legal[rng_a.randbelow(len(legal))])
                b.apply(who, legal[rng_b.randbelow(len(legal))])
            assert a.snapshot() == b.snapshot()
        compared += 1
    assert compared >= 2


def test_a_sample_of_a_later_round_keeps_no_real_reserve_shuffle() -> None:
    game = ratgames.get_game("rats", players=3)
    assert isinstance(game, Rats)
    state, _, _ = _random_play(game, 11, 200, 0)
    assert state.round >= 2 and [e for e in state.events() if e[0] == "chance"]
    sample = state.sample_consistent(1, Rng(2))
    assert sample.events() == []
    assert sample.initial_hands == ()


# --- defect 2: samples are positions the rules can reach ---------------------------------------


def test_a_seat_in_the_middle_of_a_discard_holds_a_card_above_its_last() -> None:
    # Seat 0 holds three aces; seat 1 begins a discard of two with the KS, so it must hold the AS.
    state = table(["7C 7D AC AD AH 2C", "KS AS 3C 4D 5H 6S"])
    play(state, "7C 7D", "discard KS")
    for r in range(200):
        sample = state.sample_consistent(0, Rng(r))
        assert parse_card("AS") in sample.hands[1]
        assert [str(a) for a in sample.legal_actions(1)] == ["discard AS"]


def test_samples_of_a_discard_under_way_are_uniform_over_the_hands_it_allows() -> None:
    """Seat 1 has laid the QS as the first of a discard of two: its other three cards hold at
    least one king or ace that seat 0 does not hold (KH KS AC AD AH AS), and every such hand is
    equally likely.  Counted: P(AS in hand) = C(46,2) / (C(47,3) - C(41,3)) and P(2C in hand) =
    (C(46,2) - C(40,2)) / (C(47,3) - C(41,3)) (47 cards unseen by seat 0, 41 below the QS)."""
    state = table(["7C 7D KC KD", "QS AS 2H 3H"])
    play(state, "7C 7D", "discard QS")
    allowed = comb(47, 3) - comb(41, 3)
    p_ace = comb(46, 2) / allowed
    p_two = (comb(46, 2) - comb(40, 2)) / allowed
    n = 4000
    aces = twos = 0
    high = {parse_card(c) for c in ("KH", "KS", "AC", "AD", "AH", "AS")}
    for r in range(n):
        hand = state.sample_consistent(0, Rng(r)).hands[1]
        assert high & set(hand)
        aces += parse_card("AS") in hand
        twos += parse_card("2C") in hand
    assert abs(aces / n - p_ace) < 0.025, (aces / n, p_ace)
    assert abs(twos / n - p_two) < 0.012, (twos / n, p_two)


def test_a_joker_is_above_every_natural_card_in_a_discard() -> None:
    state = table(["7C 7D AS 2C", "AH BJ RJ 3C"], jokers=2)
    play(state, "7C 7D", "discard BJ")
    for r in range(100):
        sample = state.sample_consistent(0, Rng(r))
        assert sample.hands[1][-1] == parse_card("RJ")
        assert [str(a) for a in sample.legal_actions(1)] == ["discard RJ"]


@pytest.mark.parametrize(("players", "jokers"), [(2, 0), (3, 2), (4, 0), (5, 1), (4, 2)])
def test_samples_of_every_position_are_playable(players: int, jokers: int) -> None:
    """From each position of random games (many with a discard under way), every seat's samples
    keep what is known, let the seat to act finish its discard, and play on to the end of the
    round with a legal move for every seat to act."""
    game = ratgames.get_game("rats", players=players, options={"jokers": jokers})
    rng = Rng(players * 10 + jokers)
    discards = 0
    for seed in range(3):
        s = game.new_state(seed=seed)
        assert isinstance(s, RatsState)
        steps = 0
        while not s.is_over() and steps < 160:
            turn = s.seats_to_act()[0]
            if s.pending or steps % 7 == 0:
                discards += bool(s.pending)
                for seat in range(players):
                    sample = s.sample_consistent(seat, Rng(rng.next64()))
                    assert sample.observation(seat) == s.observation(seat)
                    if s.pending:
                        last, left = s.pending[-1], s.trick_n - len(s.pending)
                        assert sum(1 for c in sample.hands[turn] if c > last) >= left
                    for p in range(players):
                        held = set(sample.hands[p]) | _bits(sample.reserves[p])
                        assert _bits(s.known[p]) <= held
                        assert _bits(s.known_hand[p]) <= set(sample.hands[p])
                        assert not set(sample.hands[p]) & _bits(s.won_round[p])
                    round_now = sample.round
                    while not sample.is_over() and sample.round == round_now:
                        who = sample.seats_to_act()[0]
                        legal = sample.legal_actions(who)
                        assert legal, f"seat {who} has no legal move in a sample"
                        sample.apply(who, legal[rng.randbelow(len(legal))])
            legal = s.legal_actions(turn)
            s.apply(turn, legal[rng.randbelow(len(legal))])
            steps += 1
    assert discards > 5
