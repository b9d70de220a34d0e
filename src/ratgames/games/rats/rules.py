# ratgames: compiled
"""Rats, the trick-taking game: multi-tricks, shrinking hands, the last player with cards wins.

The rules in the project's own words are in :meth:`Rats.rules` (:mod:`.text`); this module holds
the game and its state: what may be played (:meth:`RatsState._legal_actions`, and why anything
else may not, :meth:`RatsState._problem`), what a play does (:meth:`RatsState._apply`) and how a
game ends (:meth:`RatsState.outcome`).  The play itself is :mod:`.action`, the combinations a
hand allows :mod:`.combos`, what each seat sees :mod:`.views`, snapshots :mod:`.snapshot`.

A state keeps each hand as a bit mask of card ints (``hand_masks``; :attr:`RatsState.hands`
lists them as sorted tuples) and each reserve as a bit mask too (the order of a reserve never
matters: it is shuffled before anyone draws from it), so states are cheap to clone and compare.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from typing import Any, Final

from ratgames.cards import SUITS, card_text, standard_deck, suit_of
from ratgames.cards import parse_card as _parse_card
from ratgames.core.errors import DealError, IllegalAction, InvalidNotation
from ratgames.core.fields import LIST, Field, Flag, Rows, Seat, StateFields, Whole
from ratgames.core.game import JSON, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng

from . import copying, playout, views
from . import snapshot as snapshots
from .action import (
    DISCARD,
    DISCARD1,
    RUN,
    SET,
    SINGLE,
    SUIT,
    RatsAction,
    make_action,
    play_value,
    rank_plural,
    shown,
    texts,
    trick_kind_name,
)
from .action import canonical_action as _canonical_action
from .action import not_an_action as _not_an_action
from .action import parse_play as _parse_play
from .combos import (
    BEAT_SINGLES,
    BITS,
    JOKER_BITS,
    RANK_KEYS,
    RUN_FOLLOWS,
    SEQ_SUIT_KEYS,
    SET_FOLLOWS,
    beating_singles,
    cards_of,
    discards_of_mask,
    leads_of_mask,
    mask_of,
    run_cards,
)
from .events import Note, RoundNote, TrickNote
from .text import RULES_TEXT

_new_tuple = tuple.__new__
"""Makes a history note without the keyword handling of a named tuple's constructor (this runs
on every move)."""


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
        return _parse_play(text, self.options["jokers"])

    def canonical_action(self, action: object) -> RatsAction | None:
        """``action`` if it is a play of this game (:func:`.action.canonical_action`)."""
        return _canonical_action(action, self.options["jokers"])

    def not_an_action(self, action: object) -> str:
        return _not_an_action(action, self.options["jokers"])

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


class RatsState(State[RatsAction, Rats]):
    """A moment of a game of Rats."""

    _observation_parts = views.OBSERVATION_PARTS

    _fields = StateFields(
        Field("dealer", snap=Seat()),
        Field("initial_size", snap=Whole(1, lambda game: len(game.deck()) // game.players)),
        Field("hand_size", snap=Whole(1)),
        Field("round", snap=Whole(1, lambda game: game.options["max_rounds"])),
        Field("tricks", snap=Whole(0)),
        Field("trick_count", snap=Whole(0)),
        Field("leader", snap=Seat()),
        Field("turn", snap=Seat()),
        Field("over", snap=Flag()),
        Field("cap_fired", snap=Flag()),
        Field("hand_masks", LIST, Rows(snapshots.CardSet(), what="lists of cards"), "hands"),
        Field("reserves", LIST, Rows(snapshots.CardSet(), what="lists of cards")),
        Field("stock", snap=snapshots.CardSet()),
        Field("stock_taker", snap=Seat(none=True)),
        Field("known", LIST, Rows(snapshots.CardSet(), what="lists of cards")),
        Field("known_hand", LIST, Rows(snapshots.CardSet(), what="lists of cards")),
        Field("won_round", LIST, Rows(snapshots.CardSet(), what="lists of cards")),
        Field("alive", LIST, Rows(Flag(), what="true or false, one per seat")),
        Field("out_round", LIST, Rows(Whole(0), what="rounds (0: still in), one per seat")),
        Field("trick", snap=snapshots.PLAYS),
        Field("pending", snap=snapshots.CardRow()),
        Field("seen", snap=snapshots.CardSet()),
        Field("round_seen", snap=snapshots.CardSet()),
        # Kept out of snapshots: the deal (a sample's origin is forgotten), the history (its
        # latest notes are the entry "history"), the trick's state (replayed from its plays).
        Field("initial_hands"),
        Field("history"),
        Field("trick_kind"),
        Field("trick_n"),
        Field("trick_mask"),
        Field("best"),
        Field("best_seat"),
        Field("suit_led"),
        extra=("history", "n_events"),
    )
    """The state's fields, declared once: the core derives :meth:`clone`, :meth:`snapshot`
    (cards in notation, ``trick`` as ``[seat, play]`` pairs with a discard whole, ``pending``
    the discard under way in the order laid) and the shape checks of :meth:`Rats.restore`."""

    __slots__ = (
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
        s.hand_masks = [mask_of(h) for h in hands]
        s.reserves = [0] * n
        s.stock = mask_of(stock)
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
        s.over = False
        s.cap_fired = False
        s.pending = ()
        return s

    # --- the core contract ------------------------------------------------------------------

    def clone(self) -> RatsState:
        # Written out (copying.py) for the compiled build; held to _fields by the tests.
        c = RatsState.__new__(RatsState)
        self._copy_core_to(c)
        copying.copy_fields(self, c)
        return c

    @property
    def hands(self) -> list[tuple[int, ...]]:
        """Each seat's hand as a sorted tuple of cards (read from ``hand_masks``, which the
        state keeps)."""
        return [tuple(cards_of(m)) for m in self.hand_masks]

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
            hand = cards_of(mask)
            room = len(hand) - (n - len(pending))
            if room < 0:
                return []
            return [DISCARD1[c] for c in hand[bisect_right(hand, pending[-1]) : room + 1]]
        kind = self.trick_kind
        if kind == SINGLE:
            beaters = mask & beating_singles(self.suit_led, self.best)
            if self.suit_led < 0:
                # Only jokers so far: a natural card beats them, names the suit led and cannot
                # be discarded.
                mask &= JOKER_BITS
            return discards_of_mask(mask, BEAT_SINGLES[beaters])
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
        hand = tuple(cards_of(self.hand_masks[seat]))
        n = len(cards)
        for c in cards:
            if c not in hand:
                return f"{card_text(c)} is not in your hand ({' '.join(texts(hand))})"
        if not self.trick:
            return self._lead_problem(hand, kind, cards)
        need = self.trick_n
        what = trick_kind_name(self.trick_kind, need)
        if kind == DISCARD:
            return self._discard_problem(hand, cards)
        if self.pending:
            return (
                f"you have begun a discard ({' '.join(texts(self.pending))}): discard "
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
                f"(e.g. 'discard {' '.join(texts(cards))}')"
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
        best_text = " ".join(texts(self._best_cards()))
        if kind == SINGLE:
            c = cards[0]
            if c >= 52:
                return (
                    "a joker played alone never wins; discard it ('discard " + card_text(c) + "')"
                )
            if beating_singles(self.suit_led, self.best) >> c & 1:
                return None
            if suit_of(c) != self.suit_led:
                return (
                    f"{card_text(c)} does not beat {best_text}: a single wins only in the suit "
                    f"led ({SUITS[self.suit_led]}); discard it instead"
                )
            return f"{card_text(c)} does not beat {best_text}: it must be higher"
        if kind == SET:
            rank = play_value(SET, cards)
            if rank <= self.best:
                return (
                    f"{rank_plural(rank)} do not beat {rank_plural(self.best)} ({best_text}): "
                    "a set must be of a higher rank"
                )
            return None
        if play_value(RUN, cards) <= self.best:
            return (
                f"{' '.join(texts(cards))} does not beat {best_text}: a run needs a higher top "
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
        """``seat`` plays ``action``: its cards go from the hand to the trick, and the turn to
        the next seat still in; back at the leader, the trick is won (:meth:`_end_trick`)."""
        cards = action.cards
        m = 1 << cards[0] if len(cards) == 1 else sum(map(BITS.__getitem__, cards))
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
        self._event_count += 1
        nxt = seat + 1
        alive = self.alive
        players = len(alive)  # not self.game.players: compiled, a state's game is any object
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
        """The play-out of :mod:`ratgames.games.rats.playout` (the same as the plain loop over
        :meth:`legal_actions`, faster), for a state that keeps no log."""
        if self._recording:
            return super()._random_playout(rng, depth, stage, scoring_only)
        return playout.random_playout(self, rng, depth, stage, scoring_only)

    def _lead(self, seat: int, action: RatsAction) -> None:
        """``action`` opens a trick: it sets the kind, the size and the best so far."""
        kind, cards = action
        self.trick_kind = kind
        self.trick_n = len(cards)
        self.best_seat = seat
        self.best = play_value(kind, cards)
        if kind == SINGLE:
            # A natural card names the suit led; a joker, which has no suit, names none.
            self.suit_led = SUIT[cards[0]]
            if self.suit_led < 0:
                # A joker is led alone only from a hand of jokers: what is left is known.
                rm = self.hand_masks[seat]
                if rm:
                    self.known[seat] |= rm
                    self.known_hand[seat] |= rm

    def _beat(self, seat: int, action: RatsAction) -> None:
        """``action`` beats the best play so far."""
        kind, cards = action
        self.best_seat = seat
        self.best = play_value(kind, cards)
        if kind == SINGLE:
            self.suit_led = SUIT[cards[0]]  # the first natural card names the suit led

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
        self._event_count += 1
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
        """The hands are empty: the round is scored and, unless the game is over, the next
        round dealt (not in a state only to be scored from here, see
        :meth:`State.only_scored_after`)."""
        size = self._score_round()
        if size and (self._last_stage < 0 or self.round - 1 == self._last_stage):
            self._deal_round(size)

    def _score_round(self) -> int:
        """The round ends: the stock (first round) goes to the winner of its last trick, seats
        with no reserve go out, the game ends or the next round begins (not yet dealt).  The
        next hand size, or 0 once the game is over."""
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
        self._event_count += 1
        if len(alive) <= 1 or self.round >= game.options["max_rounds"]:
            self.cap_fired = len(alive) > 1
            self.over = True
            self.history = _new_tuple(
                RoundNote, (self.round, stock_to, tuple(newly_out), 0, self.history)
            )
            return 0
        self.history = _new_tuple(
            RoundNote, (self.round, stock_to, tuple(newly_out), size, self.history)
        )
        self.round += 1
        self.trick_count = 0
        self.round_seen = 0
        self.won_round = [0] * n
        self.known_hand = [0] * n
        return size

    def _deal_round(self, size: int) -> None:
        """Each seat still in shuffles its reserve and deals itself ``size`` cards from it."""
        reserves = self.reserves
        alive = self.alive
        bits = BITS
        for p in range(self.game.players):
            if not alive[p]:
                continue
            cards = cards_of(reserves[p])
            if len(cards) > size:
                self._shuffle(cards, "reserve")
                del cards[size:]
            m = self.hand_masks[p] = sum(map(bits.__getitem__, cards))
            reserves[p] ^= m
        self.hand_size = size

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

    # --- what each seat sees (views.py) and snapshots (snapshot.py) -----------------------------

    def observation(self, seat: object, events: bool = True) -> dict[str, JSON]:
        return views.observation(self, seat, events)

    def spectator_view(self) -> dict[str, JSON]:
        return views.spectator_view(self)

    def sample_consistent(self, seat: object, rng: Rng) -> RatsState:
        """A state that agrees with all ``seat`` knows (:func:`views.sample_consistent`)."""
        return views.sample_consistent(self, seat, rng)

    def _snapshot_extra(self) -> dict[str, JSON]:
        return {"history": snapshots.history_entry(self), "n_events": self._event_count}

    def _restored(self, snapshot: Mapping[str, Any]) -> None:
        snapshots.restored(self, snapshot)

    def cards(self) -> list[int]:
        out: list[int] = []
        for m in self.hand_masks:
            out.extend(cards_of(m))
        for r in self.reserves:
            out.extend(cards_of(r))
        out.extend(cards_of(self.stock))
        out.extend(cards_of(self.trick_mask))
        return out

    def _initial_deal(self) -> dict[str, JSON]:
        # Only asked of a real game: a sample keeps no initial hands (the core refuses first).
        all_hands = [c for h in self.initial_hands for c in h]
        stock = sorted(set(self.game.deck()) - set(all_hands))
        return {
            "dealer": self.dealer,
            "hands": [texts(h) for h in self.initial_hands],
            "stock": texts(stock),
        }


_ACES: Final = sum(1 << (12 * 4 + suit) for suit in range(4))
_KINGS: Final = sum(1 << (11 * 4 + suit) for suit in range(4))


Rats.state_class = RatsState
