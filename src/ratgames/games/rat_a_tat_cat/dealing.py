# ratgames: compiled
"""Rat-a-Tat Cat's deal: a shuffled deck laid out (four cards a seat, one at a time from left
of the dealer, then the first discard turned up), the start of a round (each seat looks at its
outer cards), an explicit deal read (``new_state(deal=...)``, checked) and the deal a game
started from written in that format (:meth:`RatState.initial_deal`).

A deal is ``{"hands": [[4 cards] per seat], "draw": [top first], "discard": [top first]}``,
with ``"returned": [power cards]`` when power cards were turned up and shuffled back into the
draw pile before the first discard (``first_discard=shuffle_back``).  The state keeps piles with
their top card last.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ratgames.core.errors import DealError
from ratgames.core.game import JSON

from .action import START
from .cards import CARD_TEXT, CARDS_ALLOWED, PEEK, SLOTS, card_or_none, is_power, not_the_deck
from .events import Dealt

if TYPE_CHECKING:
    from .rules import RatState

RawDeal = tuple[list[int], list[int], list[int], tuple[int, ...]]
"""A deal as the state keeps it: every slot's card, the draw pile and the discard pile (tops
last), and the power cards shuffled back."""


def seats_in_order(state: RatState) -> list[int]:
    """Active seats in turn order, starting left of the dealer."""
    p = state.game.players
    first = state.dealer + 1
    active = state.active
    return [s % p for s in range(first, first + p) if active[s % p]]


def lay_out(state: RatState, order: list[int], *, recorded: bool) -> None:
    """Deal a shuffled deck (``order[0]`` on top) and turn up the first discard."""
    g = state.game
    hands = [-1] * g.p4
    seats = seats_in_order(state)
    n = len(seats)
    # One card at a time, starting left of the dealer: the k-th seat in turn order gets
    # order[k], order[k + n], order[k + 2n], order[k + 3n].
    for k, s in enumerate(seats):
        hands[s * SLOTS : s * SLOTS + SLOTS] = order[k : n * SLOTS : n]
    draw = order[n * SLOTS :]
    draw.reverse()  # the top of the draw pile is its last element
    discard: list[int] = []
    returned: list[int] = []
    card = draw.pop()
    while card >= PEEK:
        if g.shuffle_back:
            # Everyone saw it turned up: it is known to be in the draw pile.
            returned.append(card)
            draw.append(card)
            if recorded:
                state._shuffle(draw, "shuffle-back")
            else:
                state._chance.rng.shuffle(draw)
        else:
            discard.append(card)
        card = draw.pop()
    discard.append(card)
    start_round(state, hands, draw, discard, tuple(returned))


def start_round(
    state: RatState,
    hands: list[int],
    draw: list[int],
    discard: list[int],
    returned: tuple[int, ...] = (),
) -> None:
    """Start the next round with these rows and piles (``returned``: the power cards turned up
    and shuffled back): each seat looks at its outer cards (with ``younger`` everybody sees
    them, face up), and the seat left of the dealer plays first."""
    g = state.game
    p4 = g.p4
    state.rnd += 1
    state.hands = hands
    state.draw = draw
    state.discard = discard
    state.known = known = [-1] * (g.rows * p4)
    state.faceup = faceup = [False] * p4
    # Every card in a row comes from the deal (pool 0, any card).
    state.origin = [0] * p4
    state.pool = 0
    state.in_draw = tuple(sorted(set(returned))) if returned else ()
    active = state.active
    if g.younger:
        for s in range(g.players):
            if active[s]:
                for idx in (s * SLOTS, s * SLOTS + SLOTS - 1):
                    faceup[idx] = True
                    known[idx::p4] = [hands[idx]] * g.rows
    else:
        # Each seat looks at its outer slots: row s, slots 4s and 4s + 3.
        for s in range(g.players):
            if active[s]:
                row = s * (p4 + SLOTS)
                known[row] = hands[s * SLOTS]
                known[row + SLOTS - 1] = hands[s * SLOTS + SLOTS - 1]
    state.held = -1
    state.held_pub = False
    state.extra = 0
    state.knocker = -1
    state.closer = -1
    state.rturns = 0
    state.first = state.turn = state._next_active(state.dealer)
    state.phase = START
    state._log_event(Dealt, (state.rnd, state.dealer, discard[-1], returned))


def _read_cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list | tuple):
        raise DealError(f"{where} must be a list of cards ({CARDS_ALLOWED}), not {value!r}")
    out = []
    for i, text in enumerate(value):
        card = card_or_none(text)
        if card is None:
            raise DealError(
                f"card {i + 1} of {where} is {text!r}, not a card; the cards are "
                f"{CARDS_ALLOWED} (as text)"
            )
        out.append(card)
    return out


def read_deal(deal: Mapping[str, Any], players: int, shuffle_back: bool) -> RawDeal:
    """The deal ``deal`` for ``players`` seats, or :class:`DealError` naming what is wrong."""
    keys = ("hands", "draw", "discard")
    given = cast("Mapping[object, Any]", deal)  # keys of any type
    extra = sorted(repr(k) for k in given if k not in keys and k != "returned")
    if extra:
        raise DealError(
            "a deal has only 'hands', 'draw', 'discard' and (optional) 'returned', not "
            + ", ".join(extra)
        )
    missing = [k for k in keys if k not in deal]
    if missing:
        raise DealError(
            f"the deal has no {' or '.join(repr(k) for k in missing)}: a deal is "
            '{"hands": [4 cards per seat], "draw": [top first], "discard": [top first]}'
        )
    hands_in = deal["hands"]
    if not isinstance(hands_in, list | tuple) or len(hands_in) != players:
        raise DealError(f"the deal's 'hands' must list {players} rows of 4 cards")
    hands: list[int] = []
    for s, row in enumerate(hands_in):
        cards = _read_cards(row, f"the hand of seat {s + 1}")
        if len(cards) != SLOTS:
            raise DealError(f"the deal's hand of seat {s + 1} must have 4 cards, not {len(cards)}")
        hands.extend(cards)
    draw = _read_cards(deal["draw"], "the deal's 'draw' pile")
    discard = _read_cards(deal["discard"], "the deal's 'discard' pile")
    draw.reverse()  # the top of a pile is its last element
    discard.reverse()
    wrong = not_the_deck(hands + draw + discard)
    if wrong:
        raise DealError(
            "the deal does not hold exactly the 54 cards (0-8 four times, 9 nine times, "
            f"PEEK, SWAP and DRAW2 three times each): it has {wrong}"
        )
    if not discard or is_power(discard[-1]):
        raise DealError("the deal's discard pile must start with a number card on top")
    returned = _read_cards(deal.get("returned", []), "the deal's 'returned' cards")
    for card in returned:
        if not is_power(card):
            raise DealError(
                f"the deal's 'returned' cards are power cards turned up and shuffled back "
                f"into the draw pile, not {CARD_TEXT[card]}"
            )
        if card not in draw:
            raise DealError(
                f"the deal's 'returned' {CARD_TEXT[card]} was shuffled back into the draw "
                f"pile, but the draw pile has no {CARD_TEXT[card]}"
            )
    if returned and not shuffle_back:
        raise DealError("'returned' cards are shuffled back only with first_discard=shuffle_back")
    return hands, draw, discard, tuple(returned)


def deal_json(raw: RawDeal, players: int) -> dict[str, JSON]:
    """A deal kept as (hands, draw, discard, returned) in the deal format."""
    hands, draw, discard, returned = raw
    deal: dict[str, JSON] = {
        "hands": [
            [CARD_TEXT[c] for c in hands[s * SLOTS : s * SLOTS + SLOTS]] for s in range(players)
        ],
        "draw": [CARD_TEXT[c] for c in reversed(draw)],
        "discard": [CARD_TEXT[c] for c in reversed(discard)],
    }
    if returned:
        # The power cards turned up and shuffled back before the first discard.
        deal["returned"] = [CARD_TEXT[c] for c in returned]
    return deal
