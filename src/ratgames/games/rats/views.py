# ratgames: compiled
"""What each seat and each spectator of Rats sees (observations, the spectator view) and the
samples of what a seat cannot see (:func:`sample_consistent`).

A seat knows its hand, every card played face up (so which cards each player has won and not
played since), the cards a joker lead showed to be the rest of a hand, and every size; nobody
sees the order of a reserve or the stock.  Observations retell the latest ``EVENTS_KEPT`` events
from the history's notes (:mod:`ratgames.games.rats.events`).
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import TYPE_CHECKING, Any, Final

from ratgames.cards import SUITS
from ratgames.core.events import Event, event_json
from ratgames.core.game import JSON, Game
from ratgames.core.rng import Rng

from .action import DISCARD, RatsAction, Table, action_text, cached_table, texts, trick_kind_name
from .combos import cards_of, mask_of
from .events import Note, RoundNote, TrickNote, played

if TYPE_CHECKING:
    from .rules import RatsState

EVENTS_KEPT = 40
"""How many of the latest events an observation carries."""


def trick_json(s: RatsState, trick: tuple[tuple[int, RatsAction], ...]) -> list[dict[str, JSON]]:
    return [
        {
            "seat": seat,
            "play": action_text(a),
            "cards": texts(a.cards),
            "discard": a.kind == DISCARD,
        }
        for seat, a in trick
    ]


def public(s: RatsState, with_events: bool = True) -> dict[str, JSON]:
    n = s.game.players
    tricks: list[dict[str, JSON]] = []
    events: list[dict[str, JSON]] = []
    if with_events:
        tricks = [
            {
                "leader": note.leader,
                "plays": trick_json(s, note.plays),
                "winner": note.winner,
            }
            for note in round_tricks(s)
        ]
        events = latest_events_json(s)
    trick = current_trick_json(s)
    return {
        "players": n,
        "round": s.round,
        "dealer": s.dealer,
        "initial_hand_size": s.initial_size,
        "hand_size": s.hand_size,
        "tricks_played": s.tricks,
        "trick_number": s.trick_count + 1,
        "leader": s.leader,
        "to_act": s.seats_to_act(),
        "hand_sizes": [m.bit_count() for m in s.hand_masks],
        "reserve_sizes": [r.bit_count() for r in s.reserves],
        "out": [not a for a in s.alive],
        "out_round": [r or None for r in s.out_round],
        "stock": s.stock.bit_count(),
        "stock_taker": s.stock_taker if s.stock_taker >= 0 else None,
        "trick": trick,
        "round_tricks": tricks,
        "played_this_round": texts(cards_of(s.round_seen | s.trick_mask)),
        "seen": texts(cards_of(s.seen | s.trick_mask)),
        "holdings_known": [texts(cards_of(k)) for k in s.known],
        "known_in_hand": [texts(cards_of(k)) for k in s.known_hand],
        "won_this_round": [texts(cards_of(w)) for w in s.won_round],
        "events": events,
        "n_events": s.event_count,
        "over": s.over,
    }


def current_trick_json(s: RatsState) -> dict[str, JSON] | None:
    if not s.trick:
        return None
    return {
        "combination": trick_kind_name(s.trick_kind, s.trick_n),
        "count": s.trick_n,
        "suit_led": SUITS[s.suit_led] if s.suit_led >= 0 else None,
        "best_seat": s.best_seat,
        "best": texts(s._best_cards()),
        "plays": trick_json(s, s.trick),
        "discarding": texts(s.pending),
    }


def round_tricks(s: RatsState) -> list[TrickNote]:
    """The tricks won in the round under way (or the last one, once the game is over),
    oldest first."""
    out: list[TrickNote] = []
    note = s.history
    if isinstance(note, RoundNote) and note.round == s.round:
        note = note.older  # the game ended with this round
    while isinstance(note, TrickNote) and note.round == s.round:
        out.append(note)
        note = note.older
    out.reverse()
    return out


def latest_notes(s: RatsState) -> list[Note]:
    """The notes of the history that hold the latest events (those of ``EVENTS_KEPT``
    not in the trick under way), newest first."""
    notes: list[Note] = []
    count = len(s.trick)
    note = s.history
    while note is not None and count < EVENTS_KEPT:
        notes.append(note)
        count += len(note.plays) + 1 if isinstance(note, TrickNote) else 1
        note = note.older
    return notes


def latest_events(s: RatsState) -> list[Event]:
    """The latest events (at most ``EVENTS_KEPT``), oldest first."""
    out = [e for note in reversed(latest_notes(s)) for e in note.events()]
    out += [played(s.round, i, seat, a) for i, (seat, a) in enumerate(s.trick)]
    return out[-EVENTS_KEPT:]


def latest_events_json(s: RatsState) -> list[dict[str, JSON]]:
    """:meth:`_latest_events` as JSON (``event_json``; a note's are made once and kept in a
    bounded cache, each observation gets its own copies)."""
    game = s.game
    out: list[dict[str, JSON]] = []
    for note in reversed(latest_notes(s)):
        for made, lists in _NOTES_JSON[game, note.__class__, note[:4]]:
            event = made.copy()
            for k in lists:
                event[k] = event[k][:]
            out.append(event)
    out += [event_json(game, played(s.round, i, seat, a)) for i, (seat, a) in enumerate(s.trick)]
    return out[-EVENTS_KEPT:]


def observation(s: RatsState, seat: object, events: bool = True) -> dict[str, JSON]:
    seat = s._check_seat(seat)
    obs = public(s, events)
    obs["seat"] = seat
    obs["hand"] = texts(cards_of(s.hand_masks[seat]))
    known = s.reserves[seat] & s.known[seat]
    obs["reserve_known"] = texts(cards_of(known))
    obs["reserve_unknown"] = (s.reserves[seat] & ~known).bit_count()
    return obs


def spectator_view(s: RatsState) -> dict[str, JSON]:
    obs = public(s)
    obs["seat"] = None
    return obs


def sample_consistent(state: RatsState, seat: object, rng: Rng) -> RatsState:
    """A state that agrees with all ``seat`` knows, uniform over the ones the rules allow.

    ``seat`` knows its hand, every card played face up (so which cards each player has
    won and not played since: won this round, they are in the reserve), the cards a joker
    lead showed to be the rest of a hand, and every size.  The other cards (the stock and
    the unseen cards of hands and reserves) are dealt at random, with one more constraint
    of the rules: a seat in the middle of a discard (laid lowest card first) holds at least
    as many cards above its last one as it has still to lay.  The sample keeps no seed, log
    or initial deal of the real game.
    """
    seat = state._check_seat(seat)
    s = state.clone()
    s._forget_origin(rng)
    s.initial_hands = ()
    n = state.game.players
    known = state.known
    counts = []
    pool = 0
    for p in range(n):
        hidden = (state.hand_masks[p] | state.reserves[p]) & ~known[p]
        if p == seat:
            hidden &= ~state.hand_masks[seat]
        counts.append(hidden.bit_count())
        pool |= hidden
    pool |= state.stock
    cards = cards_of(pool)
    rng.shuffle(cards)
    extras = [0] * n
    turn = state.turn
    need, above = _discard_need(state, seat)
    if need:
        extras[turn], cards = _deal_discarder(state, cards, counts[turn], need, above, rng)
    pos = 0
    for p in range(n):
        if need and p == turn:
            continue
        k = counts[p]
        extras[p] = mask_of(cards[pos : pos + k])
        pos += k
    s.stock = mask_of(cards[pos:])
    for p in range(n):
        if p == seat:
            s.reserves[p] = (state.reserves[p] & known[p]) | extras[p]
            continue
        holding = known[p] | extras[p]
        fixed = state.known_hand[p]
        slots = state.hand_masks[p].bit_count() - fixed.bit_count()
        # The hand comes from what the seat held at the start of the round; cards won in
        # this round are known to be in the reserve.
        free = holding & ~state.won_round[p] & ~fixed
        if need and p == turn:
            m = fixed | _hand_with(free, slots, need, above, rng)
        else:
            free_cards = cards_of(free)
            rng.shuffle(free_cards)
            m = fixed | mask_of(free_cards[:slots])
        s.hand_masks[p] = m
        s.reserves[p] = holding & ~m
    return s


def _discard_need(s: RatsState, seat: int) -> tuple[int, int]:
    """For a sample for ``seat``: how many cards above the last one laid the seat in the
    middle of a discard must hold beyond those known to be in its hand, and the bit mask of
    the cards above; (0, 0) when no other seat is in the middle of a discard."""
    if not s.pending or s.turn == seat:
        return 0, 0
    above = _ALL_CARDS & ~((2 << s.pending[-1]) - 1)
    left = s.trick_n - len(s.pending)
    need = left - (s.known_hand[s.turn] & above).bit_count()
    return max(need, 0), above


def _deal_discarder(
    s: RatsState, cards: list[int], count: int, need: int, above: int, rng: Rng
) -> tuple[int, list[int]]:
    """The ``count`` unseen cards of the holding of the seat in the middle of a discard,
    drawn from the shuffled ``cards`` so that every sample its hand allows is equally likely
    (a holding with more cards above its last discard allows more hands), and the cards
    left for the others in their shuffled order."""
    turn = s.turn
    known = s.known[turn] & ~s.won_round[turn] & ~s.known_hand[turn]
    known_above = (known & above).bit_count()
    known_below = known.bit_count() - known_above
    slots = s.hand_masks[turn].bit_count() - s.known_hand[turn].bit_count()
    high = [c for c in cards if above >> c & 1]
    low = [c for c in cards if not above >> c & 1]
    choices = range(max(0, count - len(low)), min(len(high), count) + 1)
    weights = [
        comb(len(high), j)
        * comb(len(low), count - j)
        * _hands_allowed(known_above + j, known_below + count - j, slots, need)
        for j in choices
    ]
    j = choices[_pick(weights, rng)]
    drawn = mask_of(high[:j]) | mask_of(low[: count - j])
    return drawn, [c for c in cards if not drawn >> c & 1]


OBSERVATION_PARTS: dict[str, Callable[[RatsState, int, bool], JSON]] = {
    "seat": lambda s, seat, events: seat,
    "round": lambda s, seat, events: s.round,
    "hand": lambda s, seat, events: texts(cards_of(s.hand_masks[seat])),
    "out": lambda s, seat, events: [not a for a in s.alive],
    "trick": lambda s, seat, events: current_trick_json(s),
    "played_this_round": lambda s, seat, events: texts(cards_of(s.round_seen | s.trick_mask)),
    "won_this_round": lambda s, seat, events: [texts(cards_of(w)) for w in s.won_round],
    "reserve_known": lambda s, seat, events: texts(cards_of(s.reserves[seat] & s.known[seat])),
}


_ALL_CARDS: Final = (1 << 54) - 1


def _hands_allowed(high: int, low: int, slots: int, need: int) -> int:
    """In how many ways ``slots`` cards can be chosen from ``high`` cards above a discard's
    last card and ``low`` others with at least ``need`` of the high ones."""
    return sum(comb(high, i) * comb(low, slots - i) for i in range(need, min(slots, high) + 1))


def _pick(weights: list[int], rng: Rng) -> int:
    """An index drawn with probability proportional to ``weights`` (whole numbers)."""
    r = rng.randbelow(sum(weights))
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("no weight: the position allows no sample")


def _hand_with(free: int, slots: int, need: int, above: int, rng: Rng) -> int:
    """``slots`` cards of the bit mask ``free`` with at least ``need`` in ``above``, uniform
    over the hands that allows (as a bit mask)."""
    high = cards_of(free & above)
    low = cards_of(free & ~above)
    choices = range(need, min(slots, len(high)) + 1)
    i = choices[_pick([comb(len(high), i) * comb(len(low), slots - i) for i in choices], rng)]
    rng.shuffle(high)
    rng.shuffle(low)
    return mask_of(high[:i]) | mask_of(low[: slots - i])


_NoteKey = tuple[Game, type[Note], tuple[Any, ...]]
_NoteJSON = tuple[tuple[dict[str, JSON], tuple[str, ...]], ...]


def _notes_json(key: _NoteKey) -> _NoteJSON:
    game, cls, fields = key
    made = [event_json(game, e) for e in cls._make((*fields, None)).events()]
    return tuple((m, tuple(k for k, v in m.items() if isinstance(v, list))) for m in made)


_NOTES_JSON: Table[_NoteKey, _NoteJSON] = cached_table(_notes_json, 512)
"""The events of a history note in JSON, each with the keys of its lists (to copy them), keyed
by the game, the note's type and its fields but the link to the note before."""
