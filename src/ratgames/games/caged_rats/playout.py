# ratgames: compiled
"""Caged Rats' random play-out, fast: :meth:`State.random_playout` without building the legal
lists, and for a play-out only to be scored without the log.

Each action is the one :meth:`CagedRatsState.legal_actions` lists at the index drawn (the same
numbers drawn from the generator, the same actions played, the same end).  A play-out that plays
on (``scoring_only`` false) carries each action out with the rules' own methods.  One only to be
scored carries it out with the copies below, which change the position exactly as those methods
do but keep no event, and ends the deal without dealing the next (as
:meth:`State.only_scored_after` allows).  ``tests/core/test_random_playout.py`` and
``tests/games/caged_rats/test_playout.py`` hold both to the plain loop over ``legal_actions`` and
``apply_trusted``.
"""

from __future__ import annotations

from bisect import insort

from ratgames.core.rng import Rng

from .deck import BID, FEED, LEADS_PER_DEAL, OFFER, OVER, REFILL, RESPOND, SUIT
from .rules import CagedRatsState, feed_choices_for, toppers


def random_playout(
    state: CagedRatsState, rng: Rng, depth: int, stage: int, scoring_only: bool
) -> int:
    """Play ``state`` out at random (see :meth:`State.random_playout`); the actions played."""
    if scoring_only and stage >= 0:
        return _scored_playout(state, rng, depth, stage)
    steps = 0
    while steps < depth:
        phase = state.phase
        if phase == OVER or (stage >= 0 and state.deals != stage):
            break
        seat = state.actor
        hand = state.hands[seat]
        if phase == RESPOND:
            # The tops (in hand order), then a throw of each card.
            tops = toppers(hand, state.bid)
            i = rng.randbelow(len(tops) + len(hand))
            if i >= len(tops):
                state._throw(seat, hand[i - len(tops)])
            else:
                state._top(seat, tops[i])
        elif phase == OFFER:
            state._offer(seat, hand[rng.randbelow(len(hand))])
        elif phase == BID:
            state._bid(seat, hand[rng.randbelow(len(hand))])
        elif phase == FEED:
            state._feed(seat, rng.randbelow(2))
            state._finish_lead()
        else:  # CAGE
            low, high = _pair(hand, rng)
            state._cage(seat, low, high)
        steps += 1
    return steps


def _pair(hand: list[int], rng: Rng) -> tuple[int, int]:
    """The cage drawn: the pairs i < j of the hand, in order."""
    n = len(hand)
    k = rng.randbelow(n * (n - 1) // 2)
    i = 0
    while k >= n - 1 - i:
        k -= n - 1 - i
        i += 1
    return hand[i], hand[i + 1 + k]


def _scored_playout(s: CagedRatsState, rng: Rng, depth: int, stage: int) -> int:
    """:func:`random_playout` of a state only scored afterwards: no events, no next deal."""
    steps = 0
    while steps < depth:
        phase = s.phase
        if phase == OVER or s.deals != stage:
            break
        seat = s.actor
        hand = s.hands[seat]
        if phase == RESPOND:
            tops = toppers(hand, s.bid)
            i = rng.randbelow(len(tops) + len(hand))
            if i >= len(tops):  # a throw: the bid stands
                card = hand[i - len(tops)]
                hand.remove(card)
                thrown = s.thrown
                mine = (*thrown[seat], card)
                s.thrown = (mine, thrown[1]) if seat == 0 else (thrown[0], mine)
                s.pile += (s.bid,)
                s.bid = -1
                _leader_wins(s, stage)
            else:  # a top: bid, top and capture are discarded
                card = tops[i]
                hand.remove(card)
                s.actor = 1 - seat
                s.pile += (s.bid, card, s.offer)
                _finish_lead(s, stage)
        elif phase == OFFER:
            card = hand[rng.randbelow(len(hand))]
            hand.remove(card)
            s.offer = card
            s.from_stock = False
            s.phase = BID
        elif phase == BID:
            card = hand[rng.randbelow(len(hand))]
            hand.remove(card)
            s.bid = card
            s.phase = RESPOND
            s.actor = 1 - seat
        elif phase == FEED:
            _feed(s, seat, rng.randbelow(2))
            _finish_lead(s, stage)
        else:  # CAGE
            low, high = _pair(hand, rng)
            hand.remove(low)
            hand.remove(high)
            rats = (low, high)
            s.rats = (rats, s.rats[1]) if seat == 0 else (s.rats[0], rats)
            if seat != s.dealer:
                s.actor = s.dealer
            else:
                _start_lead(s)
        steps += 1
    return steps


def _start_lead(s: CagedRatsState) -> None:
    lead_no = s.lead_no
    dealer = s.dealer
    s.actor = dealer if lead_no & 1 else 1 - dealer
    if lead_no == 1:
        s.offer = s.stocks[dealer].pop()
        s.from_stock = True
        s.phase = BID
    else:
        s.phase = OFFER


def _leader_wins(s: CagedRatsState, stage: int) -> None:
    leader = 1 - s.actor
    s.actor = leader
    capture = s.offer
    fed = s.fed
    base = 2 * leader
    rats = feed_choices_for(s.rats[leader], (len(fed[base]), len(fed[base + 1])), SUIT[capture])
    if not rats:
        s.pile += (capture,)
    elif len(rats) == 2:
        s.phase = FEED
        return
    else:
        _feed(s, leader, rats[0])
    _finish_lead(s, stage)


def _feed(s: CagedRatsState, seat: int, index: int) -> None:
    k = 2 * seat + index
    fed = list(s.fed)
    fed[k] = (*fed[k], s.offer)
    s.fed = tuple(fed)


def _finish_lead(s: CagedRatsState, stage: int) -> None:
    leader = s.actor
    stock = s.stocks[leader]
    n = min(REFILL, len(stock))
    if n:
        hand = s.hands[leader]
        for _ in range(n):
            insort(hand, stock.pop())
    s.offer = -1
    s.bid = -1
    s.from_stock = False
    s.leads_total += 1
    s.lead_no += 1
    if s.lead_no < LEADS_PER_DEAL:
        _start_lead(s)
        return
    # The deal is scored as the rules score it, and the next one is not dealt.
    promise = s._last_stage
    s._last_stage = stage
    s._end_deal()
    s._last_stage = promise
