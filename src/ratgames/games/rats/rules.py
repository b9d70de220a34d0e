"""Rats, the trick-taking game: multi-tricks, shrinking hands, the last player with cards wins.

The rules in the project's own words are in :meth:`Rats.rules`.  A state keeps each hand as a
bit mask of card ints (``hand_masks``; :attr:`RatsState.hands` lists them as sorted tuples)
and each reserve as a bit mask too (the order of a reserve never matters: it is shuffled before
anyone draws from it), so states are cheap to clone and compare.  Move generation reads its plays
from tables keyed by parts of a hand's mask (see :mod:`ratgames.games.rats.combos`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping
from math import comb
from typing import Any, Final

from ratgames.cards import SUITS, card_text, standard_deck
from ratgames.cards import parse_card as _parse_card
from ratgames.core.errors import DealError, IllegalAction, InvalidNotation, SnapshotError
from ratgames.core.events import Event, event_json
from ratgames.core.game import JSON, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng
from ratgames.core.snapshots import entries as _entries
from ratgames.core.snapshots import flag as _flag
from ratgames.core.snapshots import items as _items
from ratgames.core.snapshots import short as _short
from ratgames.core.snapshots import whole as _whole

from .combos import (
    BEAT_SINGLES,
    DISCARD,
    DISCARD1,
    RANK_KEYS,
    RUN,
    RUN_FOLLOWS,
    SEQ_SUIT_KEYS,
    SET,
    SET_FOLLOWS,
    SET_NAMES,
    SINGLE,
    SINGLES,
    TABLES,
    RatsAction,
    Table,
    action_text,
    discards_of_mask,
    leads_of_mask,
    make_action,
    malformed,
    parse_action,
    rank_plural,
    run_cards,
    run_value,
    set_rank,
    shown,
)
from .events import Note, RoundNote, TrickNote, played

EVENTS_KEPT = 40
"""How many of the latest events an observation carries."""

_new_tuple = tuple.__new__
"""Makes a history note without the keyword handling of a named tuple's constructor (this runs
on every move)."""


_BITS: Final = tuple(1 << c for c in range(54))
"""``_BITS[card]``: the card's bit.  The sum of the bits of distinct cards is their mask, and
``sum(map(_BITS.__getitem__, cards))`` adds them up in C (on the hot path only, where the cards
are known to be distinct; :func:`_mask` takes any cards)."""


def _mask(cards: tuple[int, ...] | list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_BYTE_CARDS: Final = tuple(
    tuple(tuple(base * 8 + i for i in range(8) if b >> i & 1) for b in range(256))
    for base in range(7)
)


def _cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, in increasing order."""
    out: list[int] = []
    table = _BYTE_CARDS
    i = 0
    while mask:
        b = mask & 255
        if b:
            out += table[i][b]
        mask >>= 8
        i += 1
    return out


CARD_TEXT = tuple(card_text(c) for c in range(54))


def _texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    t = CARD_TEXT
    return [t[c] for c in cards]


def trick_kind_name(kind: int, count: int) -> str:
    """``single``, ``pair``, ``three of a kind``, ``four of a kind`` or ``run of N``."""
    if kind == SINGLE:
        return "single"
    if kind == SET:
        return SET_NAMES[count]
    return f"run of {count}"


class Rats(Game):
    """Rats for 2-5 players."""

    id = "rats"
    title = "Rats"
    summary = (
        "Trick-taking with pairs, sets and runs; tricks won become your next hands; "
        "the last player with cards wins"
    )
    min_players = 2
    max_players = 5
    default_players = 4
    points_label = "cards held"
    length_unit = "tricks"
    option_specs = (
        Option(
            "jokers",
            0,
            "Jokers added to the deck (0, 1 or 2): wild inside a pair, set or run, lowest alone.",
            choices=(0, 1, 2),
        ),
        Option(
            "max_rounds",
            200,
            "Safety cap for simulations: after this many rounds the player with most cards wins.",
            minimum=1,
            maximum=100_000,
        ),
    )
    variants = ({}, {"jokers": 2}, {"jokers": 1})

    def rules(self) -> str:
        return RULES_TEXT

    def deck(self) -> list[int]:
        return standard_deck(self.options["jokers"])

    def card_text(self, card: int) -> str:
        return card_text(card)

    def parse_card(self, text: str) -> int:
        """The card written as ``text`` (``10H``, ``QS``, ``BJ``), checked against this deck;
        :class:`InvalidNotation` if it is not one of its cards."""
        try:
            card = _parse_card(text)
        except IllegalAction as exc:
            raise InvalidNotation(str(exc)) from None
        if card >= 52 and card - 52 >= self.options["jokers"]:
            raise InvalidNotation(f"{text!r} is not in this deck ({self.options['jokers']} jokers)")
        return card

    def parse_action(self, text: object) -> RatsAction:
        action = parse_action(text)
        jokers = self.options["jokers"]
        for c in action.cards:
            if c >= 52 + jokers:
                raise InvalidNotation(
                    f"{card_text(c)} is not in this deck "
                    f"({'no jokers' if not jokers else 'only BJ is used'})"
                )
        return action

    def canonical_action(self, action: object) -> RatsAction | None:
        """``action`` if it is a play of this game (see
        :func:`~ratgames.games.rats.combos.malformed`), else None."""
        if malformed(action, self.options["jokers"]) is not None:
            return None
        return action  # type: ignore[return-value]

    def not_an_action(self, action: object) -> str:
        return malformed(action, self.options["jokers"]) or f"{action!r} is a play of Rats"

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> RatsState:
        n = self.players
        deck = self.deck()
        if deal is None:
            dealer = chance.rng.randbelow(n)
            cards = list(deck)
            chance.rng.shuffle(cards)
            size = len(cards) // n
            hands = [sorted(cards[i * size : (i + 1) * size]) for i in range(n)]
            stock = sorted(cards[n * size :])
        else:
            dealer, hands, stock = self._read_deal(deal, deck)
        return RatsState.start(self, chance, dealer, hands, stock)

    def _deal_card(self, text: object) -> int:
        if not isinstance(text, str):
            raise DealError(f"a deal names each card as text such as '10H', not {shown(text)}")
        try:
            return self.parse_card(text)
        except IllegalAction as exc:
            raise DealError(f"the deal names a card this game does not have: {exc}") from None

    def _read_deal(
        self, deal: Mapping[str, Any], deck: list[int]
    ) -> tuple[int, list[list[int]], list[int]]:
        if not isinstance(deal, Mapping) or set(deal) != {"dealer", "hands", "stock"}:
            raise DealError(
                "a Rats deal is {'dealer': seat, 'hands': [[cards]...], 'stock': [cards]}"
            )
        dealer = deal["dealer"]
        if (
            isinstance(dealer, bool)
            or not isinstance(dealer, int)
            or not 0 <= dealer < self.players
        ):
            raise DealError(f"the deal's dealer must be a seat from 0 to {self.players - 1}")
        raw_hands = deal["hands"]
        if not isinstance(raw_hands, list) or len(raw_hands) != self.players:
            raise DealError(f"the deal needs one hand for each of the {self.players} players")
        hands: list[list[int]] = []
        for h in raw_hands:
            if not isinstance(h, list):
                raise DealError("each hand of the deal is a list of cards")
            hands.append(sorted(self._deal_card(t) for t in h))
        if not isinstance(deal["stock"], list):
            raise DealError("the deal's stock is a list of cards")
        stock = sorted(self._deal_card(t) for t in deal["stock"])
        sizes = {len(h) for h in hands}
        if len(sizes) != 1 or 0 in sizes:
            raise DealError("every hand of the deal must hold the same number of cards (1+)")
        everything = sorted([c for h in hands for c in h] + stock)
        if everything != sorted(deck):
            raise DealError(
                "the deal must place every card of the deck exactly once "
                f"({len(deck)} cards with {self.options['jokers']} jokers)"
            )
        return dealer, hands, stock

    def _restore(self, snapshot: Mapping[str, Any]) -> RatsState:
        """The position of ``snapshot`` (:meth:`RatsState.snapshot`), checked entry by entry and
        against the rules: a :class:`SnapshotError` names what is wrong."""
        return _restore_state(self, snapshot)


_OBSERVATION_PARTS: dict[str, Callable[[RatsState, int, bool], JSON]] = {}
"""The observation's entries that bots read at every move, each built on its own exactly as
:meth:`RatsState.observation` builds it (:meth:`State.observation_part`): the state class's
:attr:`State._observation_parts`, filled in below the class (its builders read its fields)."""


class RatsState(State[RatsAction, Rats]):
    """A moment of a game of Rats."""

    _observation_parts = _OBSERVATION_PARTS

    __slots__ = (
        "_scoring_only",
        "alive",
        "best",
        "best_seat",
        "cap_fired",
        "dealer",
        "hand_masks",
        "hand_size",
        "history",
        "initial_hands",
        "initial_size",
        "known",
        "known_hand",
        "leader",
        "n_events",
        "out_round",
        "over",
        "pending",
        "reserves",
        "round",
        "round_seen",
        "seen",
        "stock",
        "stock_taker",
        "suit_led",
        "trick",
        "trick_count",
        "trick_kind",
        "trick_mask",
        "trick_n",
        "tricks",
        "turn",
        "won_round",
    )

    alive: list[bool]
    best: int
    best_seat: int
    cap_fired: bool
    history: Note | None
    n_events: int
    hand_masks: list[int]
    hand_size: int
    initial_hands: tuple[tuple[int, ...], ...]
    initial_size: int
    dealer: int
    known: list[int]
    known_hand: list[int]
    leader: int
    out_round: list[int]
    over: bool
    pending: tuple[int, ...]
    reserves: list[int]
    round: int
    round_seen: int
    seen: int
    stock: int
    stock_taker: int
    suit_led: int
    trick: tuple[tuple[int, RatsAction], ...]
    trick_count: int
    trick_kind: int
    trick_mask: int
    trick_n: int
    tricks: int
    turn: int
    won_round: list[int]

    @classmethod
    def start(
        cls, game: Rats, chance: Chance, dealer: int, hands: list[list[int]], stock: list[int]
    ) -> RatsState:
        s = RatsState.__new__(RatsState)
        s._init_core(game, chance)
        n = game.players
        s.dealer = dealer
        s.initial_hands = tuple(tuple(h) for h in hands)
        s.initial_size = len(hands[0])
        s.hand_size = s.initial_size
        s.hand_masks = [_mask(h) for h in hands]
        s.reserves = [0] * n
        s.stock = _mask(stock)
        s.stock_taker = -1
        s.known = [0] * n
        s.known_hand = [0] * n
        s.won_round = [0] * n
        s.alive = [True] * n
        s.out_round = [0] * n
        s.round = 1
        s.tricks = 0
        s.trick_count = 0
        s.leader = dealer
        s.turn = dealer
        s.trick = ()
        s.trick_kind = -1
        s.trick_n = 0
        s.trick_mask = 0
        s.best = -1
        s.best_seat = -1
        s.suit_led = -1
        s.seen = 0
        s.round_seen = 0
        s.history = None
        s.n_events = 0
        s._scoring_only = False
        s.over = False
        s.cap_fired = False
        s.pending = ()
        return s

    # --- the core contract ------------------------------------------------------------------

    def clone(self) -> RatsState:
        c = RatsState.__new__(RatsState)
        self._copy_core_to(c)
        c._scoring_only = False
        c.dealer = self.dealer
        c.initial_hands = self.initial_hands
        c.initial_size = self.initial_size
        c.hand_size = self.hand_size
        c.hand_masks = self.hand_masks[:]
        c.reserves = self.reserves[:]
        c.stock = self.stock
        c.stock_taker = self.stock_taker
        c.known = self.known[:]
        c.known_hand = self.known_hand[:]
        c.won_round = self.won_round[:]
        c.alive = self.alive[:]
        c.out_round = self.out_round[:]
        c.round = self.round
        c.tricks = self.tricks
        c.trick_count = self.trick_count
        c.leader = self.leader
        c.turn = self.turn
        c.trick = self.trick
        c.trick_kind = self.trick_kind
        c.trick_n = self.trick_n
        c.trick_mask = self.trick_mask
        c.best = self.best
        c.best_seat = self.best_seat
        c.suit_led = self.suit_led
        c.seen = self.seen
        c.round_seen = self.round_seen
        c.history = self.history
        c.n_events = self.n_events
        c.over = self.over
        c.cap_fired = self.cap_fired
        c.pending = self.pending
        return c

    @property
    def hands(self) -> list[tuple[int, ...]]:
        """Each seat's hand as a sorted tuple of cards (read from ``hand_masks``, which the
        state keeps)."""
        return [tuple(_cards_of(m)) for m in self.hand_masks]

    def seats_to_act(self) -> list[int]:
        return [] if self.over else [self.turn]

    def is_over(self) -> bool:
        return self.over

    def stage(self) -> int:
        return self.round - 1

    def win_estimate(self) -> list[float] | None:
        # Aces are tricks nobody can take from you, kings nearly so: in heuristic self-play the
        # player with more aces at a round's end goes on to win about nine games in ten, while
        # the number of cards held hardly tells.  The weights are a fit to those games.
        values = []
        for p in range(self.game.players):
            held = self.hand_masks[p] | self.reserves[p]
            values.append(
                0.02 * held.bit_count()
                + 1.2 * (held & _ACES).bit_count()
                + 0.4 * (held & _KINGS).bit_count()
            )
        return logistic_shares(values, 1.0, self.alive)

    def _legal_actions(self, seat: int) -> list[RatsAction]:
        if seat != self.turn or self.over:
            return []
        if self.trick:
            return self._follows(self.hand_masks[seat])
        return leads_of_mask(self.hand_masks[seat])

    def _follows(self, mask: int) -> list[RatsAction]:
        n = self.trick_n
        pending = self.pending
        if pending:
            # A discard under way goes on in card order, so each set of cards is one path.
            hand = _cards_of(mask)
            room = len(hand) - (n - len(pending))
            if room < 0:
                return []
            return [DISCARD1[c] for c in hand[bisect_right(hand, pending[-1]) : room + 1]]
        kind = self.trick_kind
        if kind == SINGLE:
            led = self.suit_led
            if led == -1:
                # Only jokers so far: any natural card beats them and names the suit led.
                return [SINGLES[c] if c < 52 else DISCARD1[c] for c in _cards_of(mask)]
            return discards_of_mask(mask, BEAT_SINGLES[mask & _SUIT_ABOVE[led][self.best]])
        if kind == SET:
            sets = SET_FOLLOWS[n]
            out: list[RatsAction] = []
            for rank in range(self.best + 1, 13):
                out += sets[mask & RANK_KEYS[rank]]
        else:
            best = self.best
            runs = RUN_FOLLOWS[n]
            seq = run_cards(mask)
            beats = [x for key in SEQ_SUIT_KEYS for x in runs[seq & key] if x[0] > best]
            beats.sort()
            out = [a for _, a in beats]
        # Discards: the lowest cards (jokers last), enough to be the start of one.
        out += discards_of_mask(mask)[: mask.bit_count() - n + 1]
        return out

    def _problem(self, seat: int, action: RatsAction) -> str | None:
        """Why ``action`` is refused for ``seat`` now, or None if it is legal."""
        if seat != self.turn:
            return self._not_to_act(seat)
        kind, cards = action
        hand = tuple(_cards_of(self.hand_masks[seat]))
        n = len(cards)
        for c in cards:
            if c not in hand:
                return f"{card_text(c)} is not in your hand ({' '.join(_texts(hand))})"
        if not self.trick:
            return self._lead_problem(hand, kind, cards)
        need = self.trick_n
        what = trick_kind_name(self.trick_kind, need)
        if kind == DISCARD:
            return self._discard_problem(hand, cards)
        if self.pending:
            return (
                f"you have begun a discard ({' '.join(_texts(self.pending))}): discard "
                f"{need - len(self.pending)} more card(s), one at a time, e.g. 'discard "
                f"{card_text(self._follows(self.hand_masks[seat])[0].cards[0])}'"
            )
        if n != need:
            return (
                f"the lead was a {what}: play {need} card{'s' if need > 1 else ''}, either a "
                f"{what} that beats it or a discard of {need}"
            )
        if kind != self.trick_kind:
            return (
                f"the lead was a {what}: play a {what} that beats it, or discard "
                f"(e.g. 'discard {' '.join(_texts(cards))}')"
            )
        return self._beat_problem(kind, cards)

    def _discard_problem(self, hand: tuple[int, ...], cards: tuple[int, ...]) -> str | None:
        need = self.trick_n
        if len(cards) != 1:
            first = cards[0]
            return (
                f"discard one card at a time: 'discard {card_text(first)}', then the next "
                f"(a discard of {need} card{'s' if need > 1 else ''} takes {need} steps)"
            )
        c = cards[0]
        if self.trick_kind == SINGLE and self.suit_led == -1 and c < 52:
            return (
                f"only jokers have been played: {card_text(c)} beats them and names the suit "
                f"led, so play it as '{card_text(c)}' (only a joker may be discarded now)"
            )
        left = need - len(self.pending)
        if left == 1 and not self.pending:
            return None
        if self.pending and c < self.pending[-1]:
            return (
                f"discard in card order (low to high, jokers last): after "
                f"{card_text(self.pending[-1])} discard a higher card"
            )
        higher = sum(1 for h in hand if h > c)
        if higher < left - 1:
            return (
                f"discard in card order (low to high, jokers last): after {card_text(c)} you "
                f"would not have the {left - 1} higher card(s) to finish; discard a lower "
                "card first"
            )
        return None

    def _lead_problem(self, hand: tuple[int, ...], kind: int, cards: tuple[int, ...]) -> str | None:
        """Why a well-formed play of cards held cannot lead (None if it can)."""
        if kind == DISCARD:
            return "you lead this trick: play a single, a pair, three or four of a kind, or a run"
        if kind == SINGLE and cards[0] >= 52 and any(c < 52 for c in hand):
            return "a joker may be led alone only when you have no other lead"
        return None

    def _beat_problem(self, kind: int, cards: tuple[int, ...]) -> str | None:
        best_text = " ".join(_texts(self._best_cards()))
        if kind == SINGLE:
            c = cards[0]
            if c >= 52:
                return (
                    "a joker played alone never wins; discard it ('discard " + card_text(c) + "')"
                )
            if self.suit_led == -1:
                return None
            if c & 3 != self.suit_led:
                return (
                    f"{card_text(c)} does not beat {best_text}: a single wins only in the suit "
                    f"led ({SUITS[self.suit_led]}); discard it instead"
                )
            if c >> 2 <= self.best:
                return f"{card_text(c)} does not beat {best_text}: it must be higher"
            return None
        if kind == SET:
            rank = set_rank(cards)
            if rank <= self.best:
                return (
                    f"{rank_plural(rank)} do not beat {rank_plural(self.best)} ({best_text}): "
                    "a set must be of a higher rank"
                )
            return None
        value = run_value(cards)
        if value <= self.best:
            return (
                f"{' '.join(_texts(cards))} does not beat {best_text}: a run needs a higher top "
                "card, or the same top card in a higher suit (C < D < H < S)"
            )
        return None

    def _best_cards(self) -> tuple[int, ...]:
        for seat, action in self.trick:
            if seat == self.best_seat and action.kind != DISCARD:
                cards: tuple[int, ...] = action.cards
                return cards
        return self.trick[0][1].cards if self.trick else ()

    def _apply(self, seat: int, action: RatsAction, time: float | None) -> None:
        # The cards go from the hand to the trick.
        cards = action.cards
        m = 1 << cards[0] if len(cards) == 1 else sum(map(_BITS.__getitem__, cards))
        self.hand_masks[seat] ^= m
        known = self.known
        if known[seat] & m:
            known[seat] &= ~m
            self.known_hand[seat] &= ~m
        self.trick_mask |= m
        if not self.trick:
            self._lead(seat, action)
        elif action.kind != DISCARD:
            self._beat(seat, action)
        else:
            whole = self._discard_step(action.cards[0])
            if whole is None:
                return
            action = whole
        # The trick keeps its plays; the history takes the trick once it is won.
        self.trick = (*self.trick, (seat, action))
        self.n_events += 1
        nxt = seat + 1
        players = self.game.players
        alive = self.alive
        while True:
            if nxt == players:
                nxt = 0
            if alive[nxt]:
                break
            nxt += 1
        if nxt != self.leader:
            self.turn = nxt
            return
        self._end_trick()

    def _random_playout(self, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
        """:meth:`State.random_playout` with the plays listed as :meth:`legal_actions` lists
        them and carried out as :meth:`_apply` does.  With ``scoring_only`` and a ``stage``, the
        round that ends the play-out is scored but the next one is not dealt."""
        if self._recording:
            return super()._random_playout(rng, depth, stage, scoring_only)
        self._scoring_only = scoring_only and stage >= 0
        steps = 0
        while steps < depth and not self.over:
            if stage >= 0 and self.round - 1 != stage:
                break
            seat = self.turn
            if self.trick:
                found = self._follows(self.hand_masks[seat])
            else:
                found = leads_of_mask(self.hand_masks[seat])
            self._apply(seat, found[rng.randbelow(len(found))], None)
            steps += 1
        self._scoring_only = False
        return steps

    def _lead(self, seat: int, action: RatsAction) -> None:
        """``action`` opens a trick: it sets the kind, the size and the best so far."""
        kind, cards = action
        self.trick_kind = kind
        self.trick_n = len(cards)
        self.best_seat = seat
        if kind == SINGLE:
            c = cards[0]
            if c >= 52:
                self.suit_led = -1
                self.best = -1
                # A joker is led alone only from a hand of jokers: what is left is known.
                rm = self.hand_masks[seat]
                if rm:
                    self.known[seat] |= rm
                    self.known_hand[seat] |= rm
            else:
                self.suit_led = c & 3
                self.best = c >> 2
        elif kind == SET:
            self.best = set_rank(cards)
        else:
            self.best = run_value(cards)

    def _beat(self, seat: int, action: RatsAction) -> None:
        """``action`` beats the best play so far."""
        kind, cards = action
        self.best_seat = seat
        if kind == SINGLE:
            c = cards[0]
            self.suit_led = c & 3
            self.best = c >> 2
        elif kind == SET:
            self.best = set_rank(cards)
        else:
            self.best = run_value(cards)

    def _discard_step(self, card: int) -> RatsAction | None:
        """One card of a discard is laid: the whole discard once it is complete, else None.
        (The trick records a discard whole; a one-card discard is whole at once.)"""
        if self.trick_n == 1:
            return DISCARD1[card]
        pending = (*self.pending, card)
        if len(pending) < self.trick_n:
            self.pending = pending
            return None
        self.pending = ()
        return make_action(DISCARD, pending)

    def _end_trick(self) -> None:
        winner = self.best_seat
        m = self.trick_mask
        self.reserves[winner] |= m
        self.known[winner] |= m
        self.won_round[winner] |= m
        self.seen |= m
        self.round_seen |= m
        self.tricks += 1
        self.trick_count += 1
        self.n_events += 1
        self.history = _new_tuple(
            TrickNote, (self.round, self.leader, self.trick, winner, self.history)
        )
        self.trick = ()
        self.trick_mask = 0
        self.trick_kind = -1
        self.best_seat = -1
        self.suit_led = -1
        self.leader = self.turn = winner
        if not self.hand_masks[winner]:
            self._end_round()

    def _end_round(self) -> None:
        winner = self.leader
        game = self.game
        n = game.players
        stock_to = -1
        if self.stock:
            self.reserves[winner] |= self.stock
            self.stock = 0
            self.stock_taker = stock_to = winner
        reserves = self.reserves
        is_alive = self.alive
        newly_out = []
        alive = []
        size = self.initial_size
        for p in range(n):
            if is_alive[p]:
                held = reserves[p].bit_count()
                if held:
                    alive.append(p)
                    if held < size:
                        size = held
                else:
                    is_alive[p] = False
                    self.out_round[p] = self.round
                    newly_out.append(p)
        self.n_events += 1
        if len(alive) <= 1 or self.round >= game.options["max_rounds"]:
            self.cap_fired = len(alive) > 1
            self.over = True
            self.history = _new_tuple(
                RoundNote, (self.round, stock_to, tuple(newly_out), 0, self.history)
            )
            return
        self.history = _new_tuple(
            RoundNote, (self.round, stock_to, tuple(newly_out), size, self.history)
        )
        if self._scoring_only:
            # A play-out that stops here and is only scored: the stage moves on, no hands are
            # dealt (the cards stay in the reserves, where the score counts them too).
            self.round += 1
            return
        bits = _BITS
        for p in alive:
            cards = _cards_of(reserves[p])
            if len(cards) > size:
                self._shuffle(cards, "reserve")
                del cards[size:]
            m = self.hand_masks[p] = sum(map(bits.__getitem__, cards))
            reserves[p] ^= m
        self.hand_size = size
        self.round += 1
        self.trick_count = 0
        self.round_seen = 0
        self.won_round = [0] * n
        self.known_hand = [0] * n

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        n = self.game.players
        held = [(self.hand_masks[p] | self.reserves[p]).bit_count() for p in range(n)]
        alive = [p for p in range(n) if self.alive[p]]
        if len(alive) == 1:
            winners: tuple[int, ...] = (alive[0],)
            reason = f"{self.game.seat_name(alive[0])} is the last player with cards"
        else:
            top = max(held[p] for p in alive)
            winners = tuple(p for p in alive if held[p] == top)
            reason = (
                f"the round cap ({self.game.options['max_rounds']}) was reached; "
                "the most cards wins"
            )
        keys = [(1, held[p]) if self.alive[p] else (0, self.out_round[p]) for p in range(n)]
        places = tuple(1 + sum(1 for k in keys if k > keys[p]) for p in range(n))
        return Outcome(
            winners=winners,
            points=tuple(float(h) for h in held),
            places=places,
            reason=reason,
            capped=self.cap_fired,
            details={
                "length": self.tricks,
                "rounds": self.round,
                "cap_fired": int(self.cap_fired),
            },
        )

    # --- knowledge --------------------------------------------------------------------------

    def _trick_json(self, trick: tuple[tuple[int, RatsAction], ...]) -> list[dict[str, JSON]]:
        return [
            {
                "seat": seat,
                "play": action_text(a),
                "cards": _texts(a.cards),
                "discard": a.kind == DISCARD,
            }
            for seat, a in trick
        ]

    def _public(self, with_events: bool = True) -> dict[str, JSON]:
        n = self.game.players
        tricks: list[dict[str, JSON]] = []
        events: list[dict[str, JSON]] = []
        if with_events:
            tricks = [
                {
                    "leader": note.leader,
                    "plays": self._trick_json(note.plays),
                    "winner": note.winner,
                }
                for note in self._round_tricks()
            ]
            events = self._latest_events_json()
        trick = self._current_trick_json()
        return {
            "players": n,
            "round": self.round,
            "dealer": self.dealer,
            "initial_hand_size": self.initial_size,
            "hand_size": self.hand_size,
            "tricks_played": self.tricks,
            "trick_number": self.trick_count + 1,
            "leader": self.leader,
            "to_act": self.seats_to_act(),
            "hand_sizes": [m.bit_count() for m in self.hand_masks],
            "reserve_sizes": [r.bit_count() for r in self.reserves],
            "out": [not a for a in self.alive],
            "out_round": [r or None for r in self.out_round],
            "stock": self.stock.bit_count(),
            "stock_taker": self.stock_taker if self.stock_taker >= 0 else None,
            "trick": trick,
            "round_tricks": tricks,
            "played_this_round": _texts(_cards_of(self.round_seen | self.trick_mask)),
            "seen": _texts(_cards_of(self.seen | self.trick_mask)),
            "holdings_known": [_texts(_cards_of(k)) for k in self.known],
            "known_in_hand": [_texts(_cards_of(k)) for k in self.known_hand],
            "won_this_round": [_texts(_cards_of(w)) for w in self.won_round],
            "events": events,
            "n_events": self.n_events,
            "over": self.over,
        }

    def _current_trick_json(self) -> dict[str, JSON] | None:
        if not self.trick:
            return None
        return {
            "combination": trick_kind_name(self.trick_kind, self.trick_n),
            "count": self.trick_n,
            "suit_led": SUITS[self.suit_led] if self.suit_led >= 0 else None,
            "best_seat": self.best_seat,
            "best": _texts(self._best_cards()),
            "plays": self._trick_json(self.trick),
            "discarding": _texts(self.pending),
        }

    def _round_tricks(self) -> list[TrickNote]:
        """The tricks won in the round under way (or the last one, once the game is over),
        oldest first."""
        out: list[TrickNote] = []
        note = self.history
        if isinstance(note, RoundNote) and note.round == self.round:
            note = note.older  # the game ended with this round
        while isinstance(note, TrickNote) and note.round == self.round:
            out.append(note)
            note = note.older
        out.reverse()
        return out

    def _latest_notes(self) -> list[Note]:
        """The notes of the history that hold the latest events (those of ``EVENTS_KEPT``
        not in the trick under way), newest first."""
        notes: list[Note] = []
        count = len(self.trick)
        note = self.history
        while note is not None and count < EVENTS_KEPT:
            notes.append(note)
            count += len(note.plays) + 1 if isinstance(note, TrickNote) else 1
            note = note.older
        return notes

    def _latest_events(self) -> list[Event]:
        """The latest events (at most ``EVENTS_KEPT``), oldest first."""
        out = [e for note in reversed(self._latest_notes()) for e in note.events()]
        out += [played(self.round, i, seat, a) for i, (seat, a) in enumerate(self.trick)]
        return out[-EVENTS_KEPT:]

    def _latest_events_json(self) -> list[dict[str, JSON]]:
        """:meth:`_latest_events` as JSON (``event_json``; a note's are made once and kept in a
        bounded cache, each observation gets its own copies)."""
        game = self.game
        out: list[dict[str, JSON]] = []
        for note in reversed(self._latest_notes()):
            for made, lists in _NOTES_JSON[game, note.__class__, note[:4]]:
                event = made.copy()
                for k in lists:
                    event[k] = event[k][:]
                out.append(event)
        out += [
            event_json(game, played(self.round, i, seat, a))
            for i, (seat, a) in enumerate(self.trick)
        ]
        return out[-EVENTS_KEPT:]

    def observation(self, seat: object, events: bool = True) -> dict[str, JSON]:
        seat = self._check_seat(seat)
        obs = self._public(events)
        obs["seat"] = seat
        obs["hand"] = _texts(_cards_of(self.hand_masks[seat]))
        known = self.reserves[seat] & self.known[seat]
        obs["reserve_known"] = _texts(_cards_of(known))
        obs["reserve_unknown"] = (self.reserves[seat] & ~known).bit_count()
        return obs

    def spectator_view(self) -> dict[str, JSON]:
        obs = self._public()
        obs["seat"] = None
        return obs

    def sample_consistent(self, seat: object, rng: Rng) -> RatsState:
        """A state that agrees with all ``seat`` knows, uniform over the ones the rules allow.

        ``seat`` knows its hand, every card played face up (so which cards each player has
        won and not played since: won this round, they are in the reserve), the cards a joker
        lead showed to be the rest of a hand, and every size.  The other cards (the stock and
        the unseen cards of hands and reserves) are dealt at random, with one more constraint
        of the rules: a seat in the middle of a discard (laid lowest card first) holds at least
        as many cards above its last one as it has still to lay.  The sample keeps no seed, log
        or initial deal of the real game.
        """
        seat = self._check_seat(seat)
        s = self.clone()
        s._forget_origin(rng)
        s.initial_hands = ()
        n = self.game.players
        known = self.known
        counts = []
        pool = 0
        for p in range(n):
            hidden = (self.hand_masks[p] | self.reserves[p]) & ~known[p]
            if p == seat:
                hidden &= ~self.hand_masks[seat]
            counts.append(hidden.bit_count())
            pool |= hidden
        pool |= self.stock
        cards = _cards_of(pool)
        rng.shuffle(cards)
        extras = [0] * n
        turn = self.turn
        need, above = self._discard_need(seat)
        if need:
            extras[turn], cards = self._deal_discarder(cards, counts[turn], need, above, rng)
        pos = 0
        for p in range(n):
            if need and p == turn:
                continue
            k = counts[p]
            extras[p] = _mask(cards[pos : pos + k])
            pos += k
        s.stock = _mask(cards[pos:])
        for p in range(n):
            if p == seat:
                s.reserves[p] = (self.reserves[p] & known[p]) | extras[p]
                continue
            holding = known[p] | extras[p]
            fixed = self.known_hand[p]
            slots = self.hand_masks[p].bit_count() - fixed.bit_count()
            # The hand comes from what the seat held at the start of the round; cards won in
            # this round are known to be in the reserve.
            free = holding & ~self.won_round[p] & ~fixed
            if need and p == turn:
                m = fixed | _hand_with(free, slots, need, above, rng)
            else:
                free_cards = _cards_of(free)
                rng.shuffle(free_cards)
                m = fixed | _mask(free_cards[:slots])
            s.hand_masks[p] = m
            s.reserves[p] = holding & ~m
        return s

    def _discard_need(self, seat: int) -> tuple[int, int]:
        """For a sample for ``seat``: how many cards above the last one laid the seat in the
        middle of a discard must hold beyond those known to be in its hand, and the bit mask of
        the cards above; (0, 0) when no other seat is in the middle of a discard."""
        if not self.pending or self.turn == seat:
            return 0, 0
        above = _ALL_CARDS & ~((2 << self.pending[-1]) - 1)
        left = self.trick_n - len(self.pending)
        need = left - (self.known_hand[self.turn] & above).bit_count()
        return max(need, 0), above

    def _deal_discarder(
        self, cards: list[int], count: int, need: int, above: int, rng: Rng
    ) -> tuple[int, list[int]]:
        """The ``count`` unseen cards of the holding of the seat in the middle of a discard,
        drawn from the shuffled ``cards`` so that every sample its hand allows is equally likely
        (a holding with more cards above its last discard allows more hands), and the cards
        left for the others in their shuffled order."""
        turn = self.turn
        known = self.known[turn] & ~self.won_round[turn] & ~self.known_hand[turn]
        known_above = (known & above).bit_count()
        known_below = known.bit_count() - known_above
        slots = self.hand_masks[turn].bit_count() - self.known_hand[turn].bit_count()
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
        drawn = _mask(high[:j]) | _mask(low[: count - j])
        return drawn, [c for c in cards if not drawn >> c & 1]

    def snapshot(self) -> dict[str, JSON]:
        """The position, hidden cards included, cards in notation (``10H``, ``BJ``): what
        :meth:`Rats.restore` reads back.  Not its origin: no seed, log or initial deal.

        ``trick`` and the plays of ``history`` are ``[seat, play]`` with the play's notation (a
        discard whole); ``pending`` is the discard under way, in the order laid.  ``history``
        holds the notes of the game's history, oldest first, that the observations still show
        (the latest events and every trick of the round under way)::

            ["trick", round, leader, [[seat, play], ...], winner]
            ["round", round, stock_to (-1: none), [seats out], next hand size (0: game over)]

        ``trick_kind`` (-1 with no trick, else 0 single, 1 set, 2 run), ``trick_n`` (0 with no
        trick), ``best`` (-1 with no trick, else the rank or the run's ``top * 4 + suit``),
        ``best_seat`` and ``suit_led`` (-1, or 0-3 for C D H S) describe the trick under way.
        """
        trick = self.trick
        return {
            "dealer": self.dealer,
            "initial_size": self.initial_size,
            "hand_size": self.hand_size,
            "round": self.round,
            "tricks": self.tricks,
            "trick_count": self.trick_count,
            "leader": self.leader,
            "turn": self.turn,
            "over": self.over,
            "cap_fired": self.cap_fired,
            "hands": [_texts(_cards_of(m)) for m in self.hand_masks],
            "reserves": [_texts(_cards_of(r)) for r in self.reserves],
            "stock": _texts(_cards_of(self.stock)),
            "stock_taker": self.stock_taker,
            "known": [_texts(_cards_of(k)) for k in self.known],
            "known_hand": [_texts(_cards_of(k)) for k in self.known_hand],
            "won_round": [_texts(_cards_of(k)) for k in self.won_round],
            "alive": list(self.alive),
            "out_round": list(self.out_round),
            "trick": _plays_json(trick),
            "trick_kind": self.trick_kind,
            # What the last trick left behind is no part of the position.
            "trick_n": self.trick_n if trick else 0,
            "best": self.best if trick else -1,
            "best_seat": self.best_seat,
            "suit_led": self.suit_led,
            "pending": _texts(self.pending),
            "seen": _texts(_cards_of(self.seen)),
            "round_seen": _texts(_cards_of(self.round_seen)),
            "history": [_note_json(note) for note in reversed(self._kept_notes())],
            "n_events": self.n_events,
        }

    def _kept_notes(self) -> list[Note]:
        """The notes of the history a snapshot keeps, newest first: those that hold the latest
        events and every trick of the round under way (what observations show, now and later)."""
        keep = len(self._latest_notes())
        this_round = 0
        note = self.history
        if isinstance(note, RoundNote) and note.round == self.round:
            note = note.older
            this_round = 1
        while isinstance(note, TrickNote) and note.round == self.round:
            this_round += 1
            note = note.older
        keep = max(keep, this_round)
        out: list[Note] = []
        note = self.history
        while note is not None and len(out) < keep:
            out.append(note)
            note = note.older
        return out

    def cards(self) -> list[int]:
        out: list[int] = []
        for m in self.hand_masks:
            out.extend(_cards_of(m))
        for r in self.reserves:
            out.extend(_cards_of(r))
        out.extend(_cards_of(self.stock))
        out.extend(_cards_of(self.trick_mask))
        return out

    def _initial_deal(self) -> dict[str, JSON]:
        # Only asked of a real game: a sample keeps no initial hands (the core refuses first).
        all_hands = [c for h in self.initial_hands for c in h]
        stock = sorted(set(self.game.deck()) - set(all_hands))
        return {
            "dealer": self.dealer,
            "hands": [_texts(h) for h in self.initial_hands],
            "stock": _texts(stock),
        }


_OBSERVATION_PARTS.update(
    {
        "seat": lambda s, seat, events: seat,
        "round": lambda s, seat, events: s.round,
        "hand": lambda s, seat, events: _texts(_cards_of(s.hand_masks[seat])),
        "out": lambda s, seat, events: [not a for a in s.alive],
        "trick": lambda s, seat, events: s._current_trick_json(),
        "played_this_round": lambda s, seat, events: _texts(_cards_of(s.round_seen | s.trick_mask)),
        "won_this_round": lambda s, seat, events: [_texts(_cards_of(w)) for w in s.won_round],
        "reserve_known": lambda s, seat, events: _texts(
            _cards_of(s.reserves[seat] & s.known[seat])
        ),
    }
)


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
    high = _cards_of(free & above)
    low = _cards_of(free & ~above)
    choices = range(need, min(slots, len(high)) + 1)
    i = choices[_pick([comb(len(high), i) * comb(len(low), slots - i) for i in choices], rng)]
    rng.shuffle(high)
    rng.shuffle(low)
    return _mask(high[:i]) | _mask(low[: slots - i])


def _plays_json(plays: tuple[tuple[int, RatsAction], ...]) -> list[JSON]:
    """The plays of a trick as ``[seat, play]`` with the play's notation."""
    return [[seat, action_text(a)] for seat, a in plays]


def _note_json(note: Note) -> list[JSON]:
    """A note of the history in the form of :meth:`RatsState.snapshot`."""
    if isinstance(note, TrickNote):
        return ["trick", note.round, note.leader, _plays_json(note.plays), note.winner]
    return ["round", note.round, note.stock_to, list(note.out), note.size]


# --- positions restored from snapshots (Rats.restore) ------------------------------------------

SNAPSHOT_KEYS = (
    "dealer",
    "initial_size",
    "hand_size",
    "round",
    "tricks",
    "trick_count",
    "leader",
    "turn",
    "over",
    "cap_fired",
    "hands",
    "reserves",
    "stock",
    "stock_taker",
    "known",
    "known_hand",
    "won_round",
    "alive",
    "out_round",
    "trick",
    "trick_kind",
    "trick_n",
    "best",
    "best_seat",
    "suit_led",
    "pending",
    "seen",
    "round_seen",
    "history",
    "n_events",
)
"""The entries of a snapshot (:meth:`RatsState.snapshot`), in order."""

_JOKER_MASK: Final = 3 << 52
_CARD_EXAMPLE = "a card such as '10H', 'QS' or 'BJ'"


def _card_list(game: Rats, value: object, where: str) -> list[int]:
    """The cards of a list of card texts of ``game``'s deck, each named once."""
    out: list[int] = []
    mask = 0
    for i, text in enumerate(_items(value, where, "cards such as '10H', 'QS' or 'BJ'")):
        if not isinstance(text, str):
            raise SnapshotError(f"{where}[{i}] must be {_CARD_EXAMPLE}, not {_short(text)}")
        try:
            card = game.parse_card(text)
        except IllegalAction as exc:
            raise SnapshotError(f"{where}[{i}]: {exc}") from None
        if mask >> card & 1:
            raise SnapshotError(f"{where} names {CARD_TEXT[card]} twice")
        mask |= 1 << card
        out.append(card)
    return out


def _seat_cards(game: Rats, value: object, where: str) -> list[list[int]]:
    """One list of cards for each seat."""
    items = _items(value, where, "lists of cards, one for each seat", game.players)
    return [_card_list(game, v, f"{where}[{p}]") for p, v in enumerate(items)]


def _play(game: Rats, value: object, where: str) -> tuple[int, RatsAction]:
    """A ``[seat, play]`` pair, the play in notation."""
    if not isinstance(value, list) or len(value) != 2:
        raise SnapshotError(
            f"{where} must be [seat, play] such as [0, '7H 7S'], not {_short(value)}"
        )
    seat = _whole(value[0], f"{where}[0] (a seat)", 0, game.players - 1)
    text = value[1]
    if not isinstance(text, str):
        raise SnapshotError(
            f"{where}[1] must be a play in notation such as '7H 7S' or 'discard 2C', "
            f"not {_short(text)}"
        )
    try:
        action = game.parse_action(text)
    except IllegalAction as exc:
        raise SnapshotError(f"{where}[1]: {exc}") from None
    return seat, action


def _plays(game: Rats, value: object, where: str) -> list[tuple[int, RatsAction]]:
    items = _items(value, where, "plays [seat, play]")
    return [_play(game, v, f"{where}[{i}]") for i, v in enumerate(items)]


def _read_note(game: Rats, value: object, where: str, last_round: int, size: int) -> Note:
    """A note of the history (its link to the one before is set later), of a round up to
    ``last_round``, a next hand size up to ``size``."""
    n = game.players
    if not isinstance(value, list) or len(value) != 5 or value[0] not in ("trick", "round"):
        raise SnapshotError(
            f"{where} must be ['trick', round, leader, plays, winner] or "
            f"['round', round, stock_to, seats out, next hand size], not {_short(value)}"
        )
    rnd = _whole(value[1], f"{where}[1] (a round)", 1, last_round)
    if value[0] == "trick":
        leader = _whole(value[2], f"{where}[2] (the leader)", 0, n - 1)
        plays = _plays(game, value[3], f"{where}[3]")
        if not plays:
            raise SnapshotError(f"{where}[3]: a trick won has plays")
        winner = _whole(value[4], f"{where}[4] (the winner)", 0, n - 1)
        return TrickNote(rnd, leader, tuple(plays), winner, None)
    stock_to = _whole(value[2], f"{where}[2] (stock_to)", -1, n - 1)
    out: list[int] = []
    for i, v in enumerate(_items(value[3], f"{where}[3]", "seats that went out")):
        seat = _whole(v, f"{where}[3][{i}]", 0, n - 1)
        if seat in out:
            raise SnapshotError(f"{where}[3] names seat {seat} twice")
        out.append(seat)
    next_size = _whole(value[4], f"{where}[4] (the next hand size)", 0, size)
    return RoundNote(rnd, stock_to, tuple(out), next_size, None)


def _replay_trick(
    plays: list[tuple[int, RatsAction]] | tuple[tuple[int, RatsAction], ...], where: str
) -> tuple[int, int, int, int, int]:
    """The kind, size, best value, best seat and suit led (-1: none) of a trick with ``plays``,
    each of which the rules must allow after the ones before it."""
    _, lead = plays[0]
    kind = lead.kind
    if kind == DISCARD:
        raise SnapshotError(
            f"{where}[0]: a trick is led with a single, a set or a run, not a discard "
            f"({action_text(lead)})"
        )
    count = len(lead.cards)
    best_seat = plays[0][0]
    suit = -1
    if kind == SINGLE:
        c = lead.cards[0]
        best = -1 if c >= 52 else c >> 2
        suit = -1 if c >= 52 else c & 3
    elif kind == SET:
        best = set_rank(lead.cards)
    else:
        best = run_value(lead.cards)
    what = trick_kind_name(kind, count)
    for i in range(1, len(plays)):
        seat, action = plays[i]
        text = action_text(action)
        here = f"{where}[{i}]"
        if len(action.cards) != count:
            raise SnapshotError(
                f"{here}: {text} has {len(action.cards)} card(s); every play to a trick led "
                f"with a {what} has {count}"
            )
        if action.kind == DISCARD:
            if kind == SINGLE and suit == -1 and action.cards[0] < 52:
                raise SnapshotError(
                    f"{here}: after a joker lead the first natural card beats it; "
                    f"{text} is not allowed"
                )
            continue
        if action.kind != kind:
            raise SnapshotError(
                f"{here}: {text} is not a {what}; a play to this trick is a {what} that beats "
                "the best so far, or a discard"
            )
        if kind == SINGLE:
            c = action.cards[0]
            if c >= 52 or (suit != -1 and (c & 3 != suit or c >> 2 <= best)):
                raise SnapshotError(f"{here}: {text} does not beat the best single so far")
            suit = c & 3
            best = c >> 2
        else:
            value = set_rank(action.cards) if kind == SET else run_value(action.cards)
            if value <= best:
                raise SnapshotError(f"{here}: {text} does not beat the best {what} so far")
            best = value
        best_seat = seat
    return kind, count, best, best_seat, suit


def _check_order(
    plays: list[tuple[int, RatsAction]] | tuple[tuple[int, RatsAction], ...],
    seats: list[int],
    where: str,
    complete: bool,
) -> None:
    """The plays go round ``seats`` (the seats in the round) from the first one's seat, one
    play each; a trick won has a play by each of them, a trick under way fewer."""
    first = plays[0][0]
    if first not in seats:
        raise SnapshotError(f"{where}[0]: seat {first} was out and could not lead")
    k = len(seats)
    if complete and len(plays) != k:
        raise SnapshotError(
            f"{where}: a trick won has a play by each of the {k} seats in the round, "
            f"not {len(plays)}"
        )
    if not complete and len(plays) >= k:
        raise SnapshotError(
            f"{where}: a trick under way has fewer plays than the {k} seats in the round "
            "(the last play ends it)"
        )
    start = seats.index(first)
    for i in range(len(plays)):
        expected = seats[(start + i) % k]
        if plays[i][0] != expected:
            raise SnapshotError(
                f"{where}[{i}]: play goes round the seats still in, so seat {expected} plays "
                f"here, not seat {plays[i][0]}"
            )


def _texts_of(mask: int) -> str:
    return " ".join(_texts(_cards_of(mask))) or "none"


def _restore_state(game: Rats, snap: Mapping[str, Any]) -> RatsState:
    """The state of a snapshot, every entry checked (see :meth:`Rats._restore`)."""
    _entries(snap, SNAPSHOT_KEYS, "a Rats snapshot")
    n = game.players
    deck = game.deck()
    max_rounds: int = game.options["max_rounds"]

    # --- each entry on its own ----------------------------------------------------------------
    dealer = _whole(snap["dealer"], "dealer", 0, n - 1)
    initial_size = _whole(snap["initial_size"], "initial_size", 1, len(deck) // n)
    rnd = _whole(snap["round"], "round", 1, max_rounds)
    hand_size = _whole(snap["hand_size"], "hand_size", 1, initial_size)
    if rnd == 1 and hand_size != initial_size:
        raise SnapshotError(
            f"hand_size must be initial_size ({initial_size}) in the first round, not {hand_size}"
        )
    over = _flag(snap["over"], "over")
    cap_fired = _flag(snap["cap_fired"], "cap_fired")
    trick_count = _whole(snap["trick_count"], "trick_count", 0, hand_size)
    tricks = _whole(
        snap["tricks"], "tricks", trick_count + rnd - 1, trick_count + (rnd - 1) * initial_size
    )
    leader = _whole(snap["leader"], "leader", 0, n - 1)
    turn = _whole(snap["turn"], "turn", 0, n - 1)
    stock_taker = _whole(snap["stock_taker"], "stock_taker", -1, n - 1)
    alive = [
        _flag(v, f"alive[{p}]")
        for p, v in enumerate(_items(snap["alive"], "alive", "true or false, one per seat", n))
    ]
    out_round = [
        _whole(v, f"out_round[{p}]", 0, rnd)
        for p, v in enumerate(
            _items(snap["out_round"], "out_round", "rounds (0: still in), one per seat", n)
        )
    ]
    hands = _seat_cards(game, snap["hands"], "hands")
    reserves = _seat_cards(game, snap["reserves"], "reserves")
    stock = _card_list(game, snap["stock"], "stock")
    known = [_mask(k) for k in _seat_cards(game, snap["known"], "known")]
    known_hand = [_mask(k) for k in _seat_cards(game, snap["known_hand"], "known_hand")]
    won_round = [_mask(k) for k in _seat_cards(game, snap["won_round"], "won_round")]
    trick = _plays(game, snap["trick"], "trick")
    trick_kind = _whole(snap["trick_kind"], "trick_kind", -1, RUN)
    trick_n = _whole(snap["trick_n"], "trick_n", 0, 13)
    best = _whole(snap["best"], "best", -1, 51)
    best_seat = _whole(snap["best_seat"], "best_seat", -1, n - 1)
    suit_led = _whole(snap["suit_led"], "suit_led", -1, 3)
    pending = _card_list(game, snap["pending"], "pending")
    seen = _mask(_card_list(game, snap["seen"], "seen"))
    round_seen = _mask(_card_list(game, snap["round_seen"], "round_seen"))
    history = [
        _read_note(game, v, f"history[{i}]", rnd, initial_size)
        for i, v in enumerate(_items(snap["history"], "history", "notes of tricks and rounds"))
    ]

    # --- every card once ------------------------------------------------------------------
    trick_cards = [c for _, a in trick for c in a.cards]
    placed = [c for h in hands for c in h] + [c for r in reserves for c in r]
    placed += stock + trick_cards + pending
    if sorted(placed) != sorted(deck):
        twice = sorted({c for c in placed if placed.count(c) > 1})
        lost = sorted(set(deck) - set(placed))
        raise SnapshotError(
            f"hands, reserves, stock, trick and pending must hold each of the {len(deck)} cards "
            f"of the deck ({game.options['jokers']} jokers) once: "
            f"twice: {_texts_of(_mask(twice))}; missing: {_texts_of(_mask(lost))}"
        )
    hand_m = [_mask(h) for h in hands]
    res_m = [_mask(r) for r in reserves]
    stock_m = _mask(stock)

    # --- who is in ----------------------------------------------------------------------------
    for p in range(n):
        if alive[p] and out_round[p]:
            raise SnapshotError(
                f"out_round[{p}] must be 0 for a seat still in (alive[{p}]), not {out_round[p]}"
            )
        if not alive[p]:
            if not out_round[p] or (out_round[p] == rnd and not over):
                raise SnapshotError(
                    f"out_round[{p}] must be the round seat {p} went out at the end of (before "
                    f"round {rnd} while the game goes on), not {out_round[p]}"
                )
            if hand_m[p] or res_m[p] or known[p] or known_hand[p] or won_round[p]:
                raise SnapshotError(
                    f"seat {p} is out: hands[{p}], reserves[{p}], known[{p}], known_hand[{p}] "
                    f"and won_round[{p}] must be empty"
                )
    living = [p for p in range(n) if alive[p]]
    if not living:
        raise SnapshotError("alive: at least one seat is still in")
    if over:
        if cap_fired != (len(living) > 1):
            raise SnapshotError(
                "cap_fired must be true exactly when the game is over with more than one seat "
                "still in (the round cap ended it)"
            )
        if cap_fired and rnd != max_rounds:
            raise SnapshotError(
                f"cap_fired: the round cap ends a game at round {max_rounds} (max_rounds), "
                f"not {rnd}"
            )
        for p in living:
            if not res_m[p]:
                raise SnapshotError(f"reserves[{p}]: a seat still in at the end holds cards")
    else:
        if cap_fired:
            raise SnapshotError("cap_fired must be false while the game goes on")
        if len(living) < 2:
            raise SnapshotError("alive: a game that goes on has two seats still in at least")
    if not alive[leader] or not alive[turn]:
        raise SnapshotError("leader and turn must be seats still in (alive)")

    # --- what is known, the stock ---------------------------------------------------------
    for p in range(n):
        if known_hand[p] & ~(hand_m[p] & known[p] & _JOKER_MASK):
            raise SnapshotError(
                f"known_hand[{p}] must be jokers of hands[{p}] also in known[{p}] (only a joker "
                "led alone shows a hand, of jokers)"
            )
        if known[p] & ~(hand_m[p] | res_m[p]):
            raise SnapshotError(f"known[{p}] must be cards of hands[{p}] or reserves[{p}]")
        if known[p] & ~known_hand[p] & ~seen:
            raise SnapshotError(
                f"known[{p}]: a card known to be held was seen played (seen) or shown by a "
                f"joker lead (known_hand[{p}])"
            )
        if won_round[p] & ~(res_m[p] & known[p]):
            raise SnapshotError(f"won_round[{p}] must be cards of reserves[{p}] also in known[{p}]")
    all_won = 0
    for w in won_round:
        all_won |= w
    if round_seen != all_won:
        raise SnapshotError(
            "round_seen must be the cards of the tricks won this round (won_round together)"
        )
    if round_seen & ~seen:
        raise SnapshotError("round_seen must be part of seen")
    if seen & stock_m:
        raise SnapshotError("seen and stock share no card: the stock is never played")
    undealt = len(deck) - n * initial_size
    if rnd == 1 and not over:
        if len(stock) != undealt:
            raise SnapshotError(
                f"stock must hold the {undealt} card(s) not dealt ({len(deck)} cards, {n} hands "
                f"of {initial_size}) until the first round ends, not {len(stock)}"
            )
        if stock_taker != -1:
            raise SnapshotError("stock_taker must be -1 until the first round ends")
        for p in range(n):
            if res_m[p] != won_round[p]:
                raise SnapshotError(
                    f"reserves[{p}] must be won_round[{p}] in the first round (a reserve holds "
                    "only the tricks won)"
                )
    else:
        if stock:
            raise SnapshotError("stock must be empty once the first round has ended")
        if (stock_taker == -1) != (undealt == 0):
            raise SnapshotError(
                f"stock_taker must be the seat that took the {undealt} card(s) of the stock "
                "(-1 when there were none)"
            )

    # --- the trick under way and the hands --------------------------------------------------
    kind_d, n_d, best_d, best_seat_d, suit_d = -1, 0, -1, -1, -1
    played: set[int] = set()
    if over:
        if trick or pending:
            raise SnapshotError("trick and pending must be empty once the game is over")
        if any(hand_m):
            raise SnapshotError("hands must be empty once the game is over (it ends a round)")
        if turn != leader:
            raise SnapshotError("turn must be leader (the last trick's winner) once it is over")
        h = 0
    elif not trick:
        if pending:
            raise SnapshotError("pending must be empty with no trick under way")
        if turn != leader:
            raise SnapshotError("turn must be leader while no trick is under way")
        h = len(hands[leader])
        if not h:
            raise SnapshotError(
                f"hands[{leader}]: the seat to lead holds cards (a round ends when hands are empty)"
            )
    else:
        _check_order(trick, living, "trick", False)
        if trick[0][0] != leader:
            raise SnapshotError(f"leader must be seat {trick[0][0]}, the first to play to trick")
        nxt = living[(living.index(leader) + len(trick)) % len(living)]
        if turn != nxt:
            raise SnapshotError(f"turn must be seat {nxt}, the next seat still in after trick")
        kind_d, n_d, best_d, best_seat_d, suit_d = _replay_trick(trick, "trick")
        if pending:
            if len(pending) >= n_d:
                raise SnapshotError(
                    f"pending: a discard under way has laid fewer cards than the {n_d} of a "
                    "play to this trick"
                )
            if pending != sorted(pending):
                raise SnapshotError("pending: a discard is laid lowest card first (jokers last)")
            left = n_d - len(pending)
            if sum(1 for c in hands[turn] if c > pending[-1]) < left:
                raise SnapshotError(
                    f"pending: seat {turn} must hold the {left} card(s) above "
                    f"{CARD_TEXT[pending[-1]]} it has still to discard"
                )
        h = len(hands[turn]) + len(pending)
        played = {seat for seat, _ in trick}
        lead = trick[0][1]
        if lead.kind == SINGLE and lead.cards[0] >= 52 and hand_m[leader] & ~_JOKER_MASK:
            raise SnapshotError(f"hands[{leader}]: a joker is led alone only from a hand of jokers")
    for p in living:
        want = h - n_d if p in played else h
        have = len(hands[p]) + (len(pending) if p == turn else 0)
        if have != want:
            raise SnapshotError(
                f"hands[{p}] must hold {want - (len(pending) if p == turn else 0)} card(s): "
                f"every seat still in holds {h} at the start of the trick and lays {n_d} to it"
            )
    if (trick_kind, trick_n, best, best_seat, suit_led) != (
        kind_d,
        n_d,
        best_d,
        best_seat_d,
        suit_d,
    ):
        raise SnapshotError(
            "trick_kind, trick_n, best, best_seat and suit_led describe the trick under way: "
            f"{kind_d}, {n_d}, {best_d}, {best_seat_d}, {suit_d} for this one, not {trick_kind}, "
            f"{trick_n}, {best}, {best_seat}, {suit_led}"
        )

    # --- the history ----------------------------------------------------------------------
    events = len(trick)
    prev: Note | None = None
    last_winner = -1
    round_cards: dict[int, int] = {}
    trick_notes = 0
    for i, note in enumerate(history):
        where = f"history[{i}]"
        if isinstance(note, TrickNote):
            events += len(note.plays) + 1
            trick_notes += 1
            if isinstance(prev, TrickNote) and note.round != prev.round:
                raise SnapshotError(
                    f"{where}: a trick of round {note.round} after one of round {prev.round} "
                    "with no end of round between"
                )
            if isinstance(prev, RoundNote) and note.round != prev.round + 1:
                raise SnapshotError(
                    f"{where}: the end of round {prev.round} is followed by tricks of round "
                    f"{prev.round + 1}, not {note.round}"
                )
            seats = [p for p in range(n) if alive[p] or out_round[p] >= note.round]
            _check_order(note.plays, seats, f"{where}[3]", True)
            if note.leader != note.plays[0][0]:
                raise SnapshotError(f"{where}[2]: the leader is the first to play to the trick")
            if last_winner >= 0 and note.leader != last_winner:
                raise SnapshotError(
                    f"{where}[2]: the winner of a trick leads the next: seat {last_winner}"
                )
            winner = _replay_trick(note.plays, f"{where}[3]")[3]
            if note.winner != winner:
                raise SnapshotError(f"{where}[4]: seat {winner} won this trick, not {note.winner}")
            cards = 0
            for _, a in note.plays:
                cards |= _mask(a.cards)
            if round_cards.get(note.round, 0) & cards:
                raise SnapshotError(f"{where}: a card is played twice in round {note.round}")
            if cards & ~seen:
                raise SnapshotError(f"{where}: every card of a trick won is in seen")
            round_cards[note.round] = round_cards.get(note.round, 0) | cards
            last_winner = winner
        else:
            events += 1
            if prev is not None and not isinstance(prev, TrickNote):
                raise SnapshotError(f"{where}: a round's end comes after its tricks")
            if prev is not None and note.round != prev.round:
                raise SnapshotError(
                    f"{where}: the end of round {note.round} after a trick of round {prev.round}"
                )
            if note.round == rnd and not over:
                raise SnapshotError(f"{where}: round {rnd} is under way, it has not ended")
            final = note.round == rnd
            if final != (note.size == 0) or (note.round == rnd - 1 and note.size != hand_size):
                raise SnapshotError(
                    f"{where}[4]: the next hand size is 0 once the game is over, else at least "
                    f"1 (hand_size, {hand_size}, after the last round ended)"
                )
            if note.stock_to != (stock_taker if note.round == 1 else -1) or (
                note.stock_to >= 0 and isinstance(prev, TrickNote) and prev.winner != note.stock_to
            ):
                raise SnapshotError(
                    f"{where}[2]: the stock goes to the winner of the first round's last trick "
                    "(stock_taker; -1 for none and in later rounds)"
                )
            if sorted(note.out) != [p for p in range(n) if out_round[p] == note.round]:
                raise SnapshotError(
                    f"{where}[3]: the seats out at the end of round {note.round} are those whose "
                    "out_round it is"
                )
        prev = note
    if over and not (isinstance(prev, RoundNote) and prev.round == rnd):
        raise SnapshotError(f"history must end with the end of round {rnd} once the game is over")
    if not over and isinstance(prev, TrickNote) and prev.round != rnd:
        raise SnapshotError(f"history: round {prev.round} has not ended (no end of round)")
    if trick_notes > tricks:
        raise SnapshotError(f"tricks must count the {trick_notes} tricks of history at least")
    if last_winner >= 0 and leader != last_winner:
        raise SnapshotError(f"leader must be seat {last_winner}, the last trick's winner")
    current: list[TrickNote] = []
    j = len(history) - 1 - (1 if over else 0)
    while j >= 0:
        note = history[j]
        if not isinstance(note, TrickNote) or note.round != rnd:
            break
        current.append(note)
        j -= 1
    current.reverse()
    if len(current) != trick_count:
        raise SnapshotError(
            f"history must hold every trick of the round under way: trick_count is "
            f"{trick_count}, history has {len(current)} of round {rnd}"
        )
    if rnd == 1 and (current[0].leader if current else leader) != dealer:
        raise SnapshotError(f"the dealer (seat {dealer}) leads the first trick")
    won = [0] * n
    laid = 0
    jokers_led: set[int] = set()
    for tn in current:
        for _, a in tn.plays:
            won[tn.winner] |= _mask(a.cards)
        lead_play = tn.plays[0][1]
        laid += len(lead_play.cards)
        if lead_play.kind == SINGLE and lead_play.cards[0] >= 52:
            jokers_led.add(tn.leader)
    if trick and trick[0][1].kind == SINGLE and trick[0][1].cards[0] >= 52:
        jokers_led.add(leader)
    for p in range(n):
        if won[p] != won_round[p]:
            raise SnapshotError(
                f"won_round[{p}] must be the cards of the tricks seat {p} won this round "
                f"(history): {_texts_of(won[p])}"
            )
        if p in jokers_led:
            if hand_m[p] & ~_JOKER_MASK or known_hand[p] != hand_m[p]:
                raise SnapshotError(
                    f"known_hand[{p}] must be hands[{p}], jokers only: seat {p} led a joker "
                    "alone this round, which shows the rest of its hand"
                )
        elif known_hand[p]:
            raise SnapshotError(
                f"known_hand[{p}] must be empty: only a joker led alone this round shows a hand"
            )
    if laid + h != hand_size:
        raise SnapshotError(
            f"hand_size must be {laid + h}: this round's tricks (history) took {laid} card(s) "
            f"from each hand, which holds {h} at the start of the trick under way"
        )
    n_events = _whole(snap["n_events"], "n_events", events, tricks * (n + 1) + rnd + len(trick))

    # --- the state ------------------------------------------------------------------------
    s = RatsState.__new__(RatsState)
    s._init_core(game, Chance(0))
    s._scoring_only = False
    s.dealer = dealer
    s.initial_hands = ()
    s.initial_size = initial_size
    s.hand_size = hand_size
    s.hand_masks = hand_m
    s.reserves = res_m
    s.stock = stock_m
    s.stock_taker = stock_taker
    s.known = known
    s.known_hand = known_hand
    s.won_round = won_round
    s.alive = alive
    s.out_round = out_round
    s.round = rnd
    s.tricks = tricks
    s.trick_count = trick_count
    s.leader = leader
    s.turn = turn
    s.trick = tuple(trick)
    s.trick_kind = kind_d
    s.trick_n = n_d
    s.trick_mask = _mask(trick_cards) | _mask(pending)
    s.best = best_d
    s.best_seat = best_seat_d
    s.suit_led = suit_d
    s.seen = seen
    s.round_seen = round_seen
    chain: Note | None = None
    for note in history:
        if isinstance(note, TrickNote):
            chain = TrickNote(note.round, note.leader, note.plays, note.winner, chain)
        else:
            chain = RoundNote(note.round, note.stock_to, note.out, note.size, chain)
    s.history = chain
    s.n_events = n_events
    s.over = over
    s.cap_fired = cap_fired
    s.pending = tuple(pending)
    return s


_NoteKey = tuple[Game, type[Note], tuple[Any, ...]]
_NoteJSON = tuple[tuple[dict[str, JSON], tuple[str, ...]], ...]


def _notes_json(key: _NoteKey) -> _NoteJSON:
    game, cls, fields = key
    made = [event_json(game, e) for e in cls._make((*fields, None)).events()]
    return tuple((m, tuple(k for k, v in m.items() if isinstance(v, list))) for m in made)


_NOTES_JSON: Table[_NoteKey, _NoteJSON] = Table(_notes_json, 512)
"""The events of a history note in JSON, each with the keys of its lists (to copy them), keyed
by the game, the note's type and its fields but the link to the note before."""
TABLES.append(_NOTES_JSON)


_ACES: Final = sum(1 << (12 * 4 + suit) for suit in range(4))
_KINGS: Final = sum(1 << (11 * 4 + suit) for suit in range(4))


def split_hand(hand: tuple[int, ...]) -> tuple[list[int], list[int], tuple[int, ...]]:
    """Per rank, the bit mask of suits held; per suit, the bit mask of sequence ranks held;
    the jokers."""
    by_rank = [0] * 13
    by_suit = [0, 0, 0, 0]
    jokers: tuple[int, ...] = ()
    for c in hand:
        if c >= 52:
            jokers = (*jokers, c)
            continue
        r = c >> 2
        s = c & 3
        by_rank[r] |= 1 << s
        by_suit[s] |= 1 << (0 if r == 12 else r + 1)
    return by_rank, by_suit, jokers


_SUIT_ABOVE: Final = tuple(
    tuple(sum(1 << (rank * 4 + suit) for rank in range(best + 1, 13)) for best in range(13))
    for suit in range(4)
)
"""``_SUIT_ABOVE[suit][rank]``: the bit mask of the cards of ``suit`` above ``rank``."""


RULES_TEXT = """\
# Rats

A trick-taking game for 2 to 5 players with a standard 52-card deck (jokers optional).  Tricks
you win become your cards for the next rounds; a player who runs out of cards is out, and the
**last player with cards wins**.

## Cards

Ranks run 2 (low) to ace (high).  In a run (sequence) the ace is low only: A-2-3 is a run,
Q-K-A is not.  Suits rank clubs < diamonds < hearts < spades; the suit order matters only when
two runs with the same top card meet.

## The deal

The dealer is chosen by lot.  Every player gets the same number of cards (as many as the deck
allows); the cards left over form a face-down **stock**.  The number dealt is the **initial
hand size**.  The stock goes, unseen, into the reserve of whoever wins the last trick of the
first round.  (An explicit deal given to the engine may use smaller hands; the rest is stock.)

## Leading

The dealer leads the first trick; the winner of a trick leads the next.  A lead is one of:

* a single card;
* a pair, three of a kind or four of a kind (cards of one rank);
* a run: three or more cards of one suit in sequence (e.g. 5-6-7 of hearts, A-2-3 of clubs).

## Following

Play goes clockwise (to the next seat number).  Everyone else plays, in turn, the **same number
of cards** as the lead: either a combination of the same kind that **beats** the best play so
far, or any cards as a face-up **discard**.  Beating is never compulsory and nobody has to follow
suit.  A discard is laid face up one card at a time, lowest card first (jokers count as
highest here); once begun, a discard must be finished.  (One step per card keeps the choices
few: a two-player hand of 26 cards could otherwise be discarded from in millions of ways.)

Who beats what:

* a single beats the best single so far only if it is **of the suit led** (the suit of the first
  natural card of the trick) and higher; a card of another suit can only be discarded, even an
  ace;
* a pair, three or four of a kind beats one of the same size with a **higher rank**;
* a run beats a run of the same length with a **higher top card**; with equal top cards the
  higher suit wins;
* a play that only ties does not beat.

The player of the best play takes all the cards of the trick face down into their **reserve**
and leads the next trick.

## Rounds

Everyone holds the same number of cards, so all hands run out together: that ends the round.
The stock (first round only) goes to the winner of the last trick.  A player with no reserve is
**out**.  The next **hand size** is the smaller of the initial hand size and the smallest
reserve.  Each player shuffles their own reserve, deals themselves that many cards and keeps the
rest as their reserve.  The winner of the last trick leads the next round.  When one player is
left with cards, that player wins.

## Options

* `jokers` (default 0): add 1 or 2 jokers.  A joker is wild inside a pair, set or run that has at
  least one natural card, and the combination takes its best reading (the 5 and 6 of hearts with
  a joker are the run 5-6-7 of hearts).  Two jokers are never a pair.  One natural card with both
  jokers can be three of a kind or a run of three, so such a play says which it is.  Alone, a
  joker is the lowest card: it never wins a trick when followed by a natural card and may be led
  only by a player whose hand holds nothing but jokers.  After a joker lead, the first natural
  single played names the suit led and beats the joker (it cannot be discarded; a joker can).  If
  no natural card is played to the trick at all, the leader keeps the trick.  A set holds at most
  four cards, jokers included.
* `max_rounds` (default 200): a safety cap for simulations.  If the game is still going after
  that many rounds, the player (or players) holding the most cards win, and the game is marked
  as capped.

## Choices made where the rule sheet is silent

* Discarding is always allowed, even a card that would beat (the one exception is the natural
  card after a joker lead, described under `jokers`).
* Discards are laid one card at a time, lowest first, as described under Following.
* A trick is complete when every player still in has played to it; play goes to the next seat
  still in.
* A run holds at most 13 cards (A to K).
* Results: points are the cards each player holds at the end.  Places rank the players still in
  by cards held, then the players who went out, the later the better.

## What each player knows

Your hand; every card played face up, this round and before (and so which cards each player has
won into their reserve and not played since); everyone's hand and reserve sizes; who is out.
Never the order of anyone's reserve, nor the stock.

## Notation

How programs and records write the game (players use the keys shown with `?`).  Cards are
written `7H`, `10S`, `QD`, `AC`; jokers `BJ` and `RJ`.  A play is written as its cards
(`7H 7S`); one natural card with both jokers names its reading (`5H BJ RJ set`,
`5H BJ RJ run`).  Each step of a discard is written `discard 2C`.  An explicit deal is
`{"dealer": seat from 0, "hands": [[cards] per seat], "stock": [cards]}`, every hand the same
size and every card of the deck placed once.
"""
