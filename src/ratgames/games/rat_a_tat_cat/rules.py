"""Rat-a-Tat Cat: the rules engine.

Cards are ints: the number cards ``0``-``9`` are themselves, ``10`` is PEEK, ``11`` SWAP and
``12`` DRAW2.  Each seat has a row of four slots (slot ``i`` of seat ``s`` is ``hands[s*4+i]``).
What every seat knows is a flat table ``known``: row ``r`` (one per seat, plus a last row for what
everyone knows, the spectator's row) holds, for every slot at the table, the card that row has
seen there or ``-1``.  Knowledge follows the cards through public moves (swaps), and is forgotten
when a card the row did not see replaces the one it knew.

Where a hidden card came from is public too, and :meth:`RatState.sample_consistent` keeps it:
every slot has an ``origin``, the *pool* its card came from (0 for the deal, ``k`` for the
``k``-th reshuffle of the round, whose cards everybody saw in the discard pile) and whether it
was kept from the draw pile (then it is a number card: a power card drawn is shown and used).

Action notation (slots and seats are numbered from 1 for people):

* ``draw``: the top card of the draw pile;  ``take``: the top card of the discard pile.
* ``replace N``: put the card you hold in your slot N (the old card goes face up on the discard).
* ``discard``: discard the card you drew without using it (during Draw 2, go on to the next draw).
* ``peek N``: look at your slot N (after drawing a PEEK).
* ``swap N P:M``: swap your slot N with slot M of seat P (after drawing a SWAP); ``noswap``.
* ``knock`` / ``end``: at the end of your turn, knock ("Rat-a-Tat Cat!") or just pass the turn.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple, cast

from ratgames.core import snapshots
from ratgames.core.errors import (
    DealError,
    IllegalAction,
    InvalidNotation,
    OptionError,
    RatgamesError,
    SnapshotError,
)
from ratgames.core.events import Event, event_json
from ratgames.core.game import JSON, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng
from ratgames.core.snapshots import short as _shown

from .events import (
    EVENT_TYPES,
    Capped,
    Dealt,
    Discarded,
    Drew,
    Fixed,
    Knocked,
    NoSwap,
    Passed,
    Peeked,
    PowerDrawn,
    Replaced,
    Reshuffled,
    RoundOver,
    Swapped,
    Took,
    WentOut,
)

# --- cards ----------------------------------------------------------------------------------------

PEEK: Final = 10
SWAP: Final = 11
DRAW2: Final = 12
CARD_TEXT = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "PEEK", "SWAP", "DRAW2")
CARD_NAME = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Peek", "Swap", "Draw 2")
_CARD_PARSE = {t: i for i, t in enumerate(CARD_TEXT)} | {"DRAW 2": DRAW2, "DRAW_2": DRAW2}
DECK: tuple[int, ...] = tuple(
    sorted([n for n in range(9) for _ in range(4)] + [9] * 9 + [PEEK, SWAP, DRAW2] * 3)
)
SLOTS: Final = 4
CARDS_ALLOWED = "0-9, PEEK, SWAP and DRAW2"


def card_text(card: int) -> str:
    """The notation of a card: ``0``..``9``, ``PEEK``, ``SWAP``, ``DRAW2``."""
    if card.__class__ is not int or not 0 <= card <= DRAW2:
        raise RatgamesError(f"no such Rat-a-Tat Cat card: {card!r}")
    return CARD_TEXT[card]


def _card_or_none(text: object) -> int | None:
    if isinstance(text, str):
        return _CARD_PARSE.get(" ".join(text.split()).upper())
    return None


def parse_card(text: str) -> int:
    """The card written as ``text`` (case is forgiven; ``DRAW 2`` is read as ``DRAW2``)."""
    card = _card_or_none(text)
    if card is None:
        raise RatgamesError(f"{text!r} is not a Rat-a-Tat Cat card; the cards are {CARDS_ALLOWED}")
    return card


# --- actions --------------------------------------------------------------------------------------

# The kinds of action (constants the compiled build inlines).
K_DRAW: Final = 0
K_TAKE: Final = 1
K_REPLACE: Final = 2
K_DISCARD: Final = 3
K_PEEK: Final = 4
K_SWAP: Final = 5
K_NOSWAP: Final = 6
K_KNOCK: Final = 7
K_END: Final = 8


class Act(NamedTuple):
    """An action: its kind and up to three numbers (slots and a seat, counted from 0).

    Only the actions the game lists (``RatATatCat.action_space()``), with every field an
    ``int``, are actions of the game; any other ``Act`` is refused as :class:`InvalidNotation`.
    """

    kind: int
    a: int = 0
    p: int = 0
    b: int = 0

    def __str__(self) -> str:
        if _canonical(self) is None:
            return repr(self)
        return _text(self)


def _text(action: Act) -> str:
    k = action.kind
    if k == K_REPLACE:
        return f"replace {action.a + 1}"
    if k == K_PEEK:
        return f"peek {action.a + 1}"
    if k == K_SWAP:
        return f"swap {action.a + 1} {action.p + 1}:{action.b + 1}"
    return _SIMPLE_TEXT[k]


_SIMPLE_TEXT = {
    K_DRAW: "draw",
    K_TAKE: "take",
    K_DISCARD: "discard",
    K_NOSWAP: "noswap",
    K_KNOCK: "knock",
    K_END: "end",
}
MAX_PLAYERS = 6
DRAW = Act(K_DRAW)
TAKE = Act(K_TAKE)
DISCARD = Act(K_DISCARD)
NOSWAP = Act(K_NOSWAP)
KNOCK = Act(K_KNOCK)
END = Act(K_END)
REPLACE = tuple(Act(K_REPLACE, i) for i in range(SLOTS))
PEEKS = tuple(Act(K_PEEK, i) for i in range(SLOTS))
SWAPS = {
    (a, p, b): Act(K_SWAP, a, p, b)
    for a in range(SLOTS)
    for p in range(MAX_PLAYERS)
    for b in range(SLOTS)
}
_ALL_ACTIONS: dict[Act, Act] = {
    a: a for a in (DRAW, TAKE, DISCARD, NOSWAP, KNOCK, END, *REPLACE, *PEEKS, *SWAPS.values())
}
_ACTION_BY_TEXT: dict[str, Act] = {_text(a): a for a in _ALL_ACTIONS}
_CANONICAL_IDS = frozenset(id(a) for a in _ALL_ACTIONS)
ACTION_FORMS = (
    "draw, take, replace N, discard, peek N, swap N P:M, noswap, knock, end "
    "(N and M are slots 1-4, P a seat number)"
)


def _canonical(action: object) -> Act | None:
    """The game's own action equal to ``action``, or None if ``action`` is not one of them with
    every field an ``int`` (``True`` is not ``1`` and ``1.0`` is not ``1`` here)."""
    if id(action) in _CANONICAL_IDS:  # one of the game's own objects (they live for ever)
        return action  # type: ignore[return-value]
    if action.__class__ is not Act:
        return None
    # Fields of any type (a compiled build would otherwise convert them to the declared ones).
    fields: tuple[object, object, object, object] = action
    k, a, p, b = fields
    if k.__class__ is not int or a.__class__ is not int:
        return None
    if p.__class__ is not int or b.__class__ is not int:
        return None
    return _ALL_ACTIONS.get(action)


# The phases of a turn (constants the compiled build inlines).
START: Final = 0
HOLD: Final = 1
TAKEN: Final = 2
PEEKING: Final = 3
SWAPPING: Final = 4
MUST_DRAW: Final = 5
KNOCKING: Final = 6
OVER: Final = 7
PHASE_NAMES = ("start", "holding", "taken", "peek", "swap", "draw2", "knock", "over")

_START_ONLY_DRAW = (DRAW,)
_START_BOTH = (DRAW, TAKE)
_HOLD_ACTS = (*REPLACE, DISCARD)
_PEEK_AND_PASS = (*PEEKS, DISCARD)
_KNOCK_ACTS = (KNOCK, END)
_HOLD_SET = frozenset(_HOLD_ACTS)
_REPLACE_SET = frozenset(REPLACE)
_PEEK_SET = frozenset(PEEKS)
_KNOCK_SET = frozenset(_KNOCK_ACTS)

# --- options --------------------------------------------------------------------------------------

MODE_ALLOWED = "round, rounds=N, minutes=N or elimination=N (N a whole number of at least 1)"
SECONDS_PER_TURN = 10.0
"""The clock of ``mode=minutes=N`` for a turn whose last action carries no time."""


def _parse_mode(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not allowed; use {MODE_ALLOWED}")
    text = "".join(value.split()).lower()
    if text == "round":
        return text
    kind, sep, number = text.partition("=")
    if sep and kind in ("rounds", "minutes", "elimination") and number.isdigit():
        n = int(number)
        if 1 <= n <= 100_000:
            return f"{kind}={n}"
    raise ValueError(f"{value!r} is not allowed; use {MODE_ALLOWED}")


def _mode_parts(mode: str) -> tuple[str, int]:
    kind, _, number = mode.partition("=")
    return kind, int(number) if number else 1


OPTIONS: tuple[Option, ...] = (
    Option(
        "edition",
        "gamewright",
        "Rule sheet the defaults follow: gamewright (English) or forlago (Swedish).",
        choices=("gamewright", "forlago"),
        presets={
            "gamewright": {"first_discard": "shuffle_back", "swap_look": True},
            "forlago": {"first_discard": "keep_turning", "swap_look": False},
        },
    ),
    Option(
        "first_discard",
        "shuffle_back",
        "A power card turned up to start the discard pile: shuffle_back (into the draw pile, "
        "then turn again) or keep_turning (leave it and turn the next card).",
        choices=("shuffle_back", "keep_turning"),
    ),
    Option(
        "swap_look",
        True,
        "After a Swap, both players look at the card they received.",
    ),
    Option(
        "younger",
        False,
        "For younger players: outer cards lie face up; Swap only moves face-down cards.",
    ),
    Option(
        "mode",
        "elimination=100",
        "How the game ends: round, rounds=N, minutes=N or elimination=N.",
        parse=_parse_mode,
        allowed=MODE_ALLOWED,
    ),
    Option(
        "memory_aid",
        False,
        "Front ends keep the cards you have seen visible (the rules are unchanged).",
    ),
    Option(
        "turn_cap",
        200,
        "Safety cap: the turn that reaches this many turns in a round counts as a knock if its "
        "player does not knock; the others still have their last turn.",
        minimum=1,
        maximum=100_000,
    ),
    Option(
        "round_cap",
        200,
        "Safety cap: the game ends after this many rounds (the lowest total wins).",
        minimum=1,
        maximum=100_000,
    ),
)


# --- the game -------------------------------------------------------------------------------------


class RatATatCat(Game):
    """Rat-a-Tat Cat for 2-6 players, with both editions' rules and the house rules as options."""

    id: ClassVar[str] = "rat-a-tat-cat"
    title: ClassVar[str] = "Rat-a-Tat Cat"
    summary: ClassVar[str] = (
        "Remember your four face-down cards, trade the rats for cats and knock when your sum "
        "is the lowest."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[Option, ...]] = OPTIONS
    points_label: ClassVar[str] = "points"
    lower_points_win: ClassVar[bool] = True
    length_unit: ClassVar[str] = "turns"
    variants: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"edition": "forlago"},
        {"younger": True, "mode": "rounds=2"},
        {"mode": "round", "swap_look": False, "first_discard": "keep_turning"},
    )

    def _validate_options(self) -> None:
        o = self.options
        self.mode_kind, self.mode_n = _mode_parts(o["mode"])
        self.swap_look: bool = o["swap_look"]
        self.younger: bool = o["younger"]
        self.shuffle_back: bool = o["first_discard"] == "shuffle_back"
        self.turn_cap: int = o["turn_cap"]
        self.round_cap: int = o["round_cap"]
        self.minutes = self.mode_kind == "minutes"
        self.p4 = self.players * SLOTS
        self.rows = self.players + 1
        # Every slot in turn order, starting left of each dealer.
        n = self.players
        self.turn_slots = tuple(
            tuple(s % n * SLOTS + k for s in range(d + 1, d + 1 + n) for k in range(SLOTS))
            for d in range(n)
        )
        # The ids of the game's own action objects that are actions at this table.
        self.own_ids = frozenset(
            id(a) for a in _ALL_ACTIONS if a.kind != K_SWAP or a.p < self.players
        )
        if self.mode_kind == "minutes" and self.mode_n > 24 * 60:
            raise OptionError("option 'mode': minutes=N allows at most 1440 minutes")

    # --- notation -------------------------------------------------------------------------------

    def card_text(self, card: int) -> str:
        return card_text(card)

    def parse_card(self, text: str) -> int:
        """The card written as ``text`` (``0``..``9``, ``PEEK``, ``SWAP``, ``DRAW2``)."""
        return parse_card(text)

    def deck(self) -> list[int]:
        return list(DECK)

    def parse_action(self, text: object) -> Act:
        if not isinstance(text, str):
            raise InvalidNotation(f"an action is written as text ({ACTION_FORMS}), not {text!r}")
        key = " ".join(text.split()).lower()
        action = _ACTION_BY_TEXT.get(key)
        if action is None:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise InvalidNotation(f"{shown!r} is not an action; the actions are {ACTION_FORMS}")
        if action.kind == K_SWAP and action.p >= self.players:
            raise InvalidNotation(self._no_seat(action.p))
        return action

    def _no_seat(self, p: int) -> str:
        return (
            f"there is no seat {p + 1} in a {self.players}-player game; "
            f"seats are 1 to {self.players}"
        )

    def canonical_action(self, action: object) -> Act | None:
        """The game's action equal to ``action`` (an :class:`Act` whose fields are all ``int``
        and name an action of this game), or None."""
        if id(action) in self.own_ids:  # one of the game's own objects (they live for ever)
            return action  # type: ignore[return-value]
        act = _canonical(action)
        if act is None or (act.kind == K_SWAP and act.p >= self.players):
            return None
        return act

    def not_an_action(self, action: object) -> str:
        """Why ``action`` (for which :meth:`canonical_action` gave None) is not an action of the
        game."""
        if action.__class__ is Act:
            act = _canonical(action)
            if act is not None:  # a swap with a seat the game does not have
                return self._no_seat(act.p)
            return (
                f"{action!r} is not an action of the game: an Act's kind and numbers are whole "
                f"numbers (int) naming one of {ACTION_FORMS}, counted from 0"
            )
        return (
            f"{action!r} is not a Rat-a-Tat Cat action; the actions are {ACTION_FORMS} "
            "(as text, or as an Act)"
        )

    def action_space(self) -> list[Act]:
        """Every action this game can ever offer."""
        out = [DRAW, TAKE, *REPLACE, DISCARD, *PEEKS, NOSWAP, KNOCK, END]
        out.extend(a for (_, p, _), a in SWAPS.items() if p < self.players)
        return out

    # --- states ---------------------------------------------------------------------------------

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> RatState:
        state = RatState.__new__(RatState)
        state._init_core(self, chance)
        state._init_game()
        if deal is None:
            order = list(DECK)
            chance.rng.shuffle(order)
            state._layout(order, recorded=False)
        else:
            hands, draw, discard, returned = self._read_deal(deal)
            state._set_round(hands, draw, discard, returned)
        # The deal as it lies now; written in the deal format only if a record asks for it.
        dealt = state.evlog
        assert dealt is not None and dealt[0][0] is Dealt
        state.deal0 = (state.hands[:], state.draw[:], state.discard[:], dealt[0][1][3])
        return state

    def _read_cards(self, value: object, where: str) -> list[int]:
        if not isinstance(value, list | tuple):
            raise DealError(f"{where} must be a list of cards ({CARDS_ALLOWED}), not {value!r}")
        out = []
        for i, text in enumerate(value):
            card = _card_or_none(text)
            if card is None:
                raise DealError(
                    f"card {i + 1} of {where} is {text!r}, not a card; the cards are "
                    f"{CARDS_ALLOWED} (as text)"
                )
            out.append(card)
        return out

    def _read_deal(
        self, deal: Mapping[str, Any]
    ) -> tuple[list[int], list[int], list[int], tuple[int, ...]]:
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
        if not isinstance(hands_in, list | tuple) or len(hands_in) != self.players:
            raise DealError(f"the deal's 'hands' must list {self.players} rows of 4 cards")
        hands: list[int] = []
        for s, row in enumerate(hands_in):
            cards = self._read_cards(row, f"the hand of seat {s + 1}")
            if len(cards) != SLOTS:
                raise DealError(
                    f"the deal's hand of seat {s + 1} must have 4 cards, not {len(cards)}"
                )
            hands.extend(cards)
        draw = self._read_cards(deal["draw"], "the deal's 'draw' pile")
        discard = self._read_cards(deal["discard"], "the deal's 'discard' pile")
        draw.reverse()  # the top of a pile is its last element
        discard.reverse()
        wrong = _not_the_deck(hands + draw + discard)
        if wrong:
            raise DealError(
                "the deal does not hold exactly the 54 cards (0-8 four times, 9 nine times, "
                f"PEEK, SWAP and DRAW2 three times each): it has {wrong}"
            )
        if not discard or discard[-1] >= PEEK:
            raise DealError("the deal's discard pile must start with a number card on top")
        returned = self._read_cards(deal.get("returned", []), "the deal's 'returned' cards")
        for card in returned:
            if card < PEEK:
                raise DealError(
                    f"the deal's 'returned' cards are power cards turned up and shuffled back "
                    f"into the draw pile, not {CARD_TEXT[card]}"
                )
            if card not in draw:
                raise DealError(
                    f"the deal's 'returned' {CARD_TEXT[card]} was shuffled back into the draw "
                    f"pile, but the draw pile has no {CARD_TEXT[card]}"
                )
        if returned and not self.shuffle_back:
            raise DealError(
                "'returned' cards are shuffled back only with first_discard=shuffle_back"
            )
        return hands, draw, discard, tuple(returned)

    # --- restoring a snapshot ---------------------------------------------------------------------

    def _restore(self, snapshot: Mapping[str, Any]) -> RatState:
        """The position of ``snapshot`` (:meth:`RatState.snapshot`), checked entry by entry and
        against the rules (every card once, knowledge that matches the cards, counters that
        match the round results and the public events); :class:`SnapshotError` names what is
        wrong."""
        return _SnapshotReader(self, snapshot).state()

    # --- the rules text ---------------------------------------------------------------------------

    def rules(self) -> str:
        return RULES_TEXT


RULES_TEXT = """\
# Rat-a-Tat Cat

**Goal:** end each round with the lowest sum of cards in your row.  Cats are low, rats are high.

## The cards
54 cards: number cards 0 to 8 (four of each) and 9 (nine of them), plus three each of the power
cards **PEEK**, **SWAP** and **DRAW2**.  Power cards have no value of their own.

## The deal
Each player gets four cards face down in a row (slots 1 to 4, dealt one at a time starting left
of the dealer).  The rest is the draw pile; its top card is turned up to start the discard pile.
If that card is a power card, what happens is set by `first_discard`.  Each player then looks at
their two outer cards (slots 1 and 4) once.  From then on a player knows only what they have seen.
In the first round the last seat deals, so seat 1 plays first; the deal moves one seat to the
left (to the next seat) every round.

## A turn
Starting left of the dealer, each player in turn either:

* draws the top card of the draw pile.  A number card may be put in one of your slots (the
  card that was there goes face up on the discard pile) or thrown away on the discard pile.
  Only you see the card you drew.
* takes the top card of the discard pile.  Only a number card can be taken, and it must replace
  one of your cards.  Everyone sees which card went where.

When the draw pile runs out, the discard pile except its top card is shuffled into a new draw pile.

## Power cards
A power card works only when drawn from the draw pile.  It is shown and discarded at once.

* **PEEK**: look at one of your own cards.  Your turn ends.
* **SWAP**: you may exchange one of your cards with any card of another player, without looking,
  or decline.  Everyone sees which slots were exchanged.  Your turn ends.
* **DRAW2**: draw again from the draw pile.  Use that card as usual (a number card goes into your
  row, a power card does its work) and your turn ends, or discard it and draw a second card,
  which you use or discard.  A DRAW2 drawn during these chances starts over: two fresh chances.

A power card dealt to you, or taken into your row, does nothing and has no value; at the end of
the round it is replaced (see below), so get rid of it early.

## Knocking and the end of a round
When your turn is done and nobody has knocked yet, you may knock (say "Rat-a-Tat Cat!") or
end your turn.  Knocking on your first turn is allowed.  After a knock every other player has
exactly one more turn (power cards work as usual), then the round ends.

At the end of a round every row is turned face up.  Each power card in a row is replaced by
drawing from the draw pile until a number card comes (players in turn order from left of the
dealer, slots 1 to 4; the power cards go to the discard pile).  The lowest sum wins the round;
equal lowest sums share the win.

For safety in simulations a round has a turn cap (`turn_cap`).  The turn that reaches it is
played as usual, and its player may still knock.  If nobody has knocked by the end of that turn,
the cap counts as that player's knock: every other player has one more turn, then the round
ends.  How often the cap ended a round is reported (`cap_fired`).

## Ending the game: `mode`
* `round`: one round; the points are the round's sums.
* `rounds=N`: N rounds; the lowest total wins.
* `minutes=N`: rounds are played until N minutes have passed; the round in progress is finished
  and the lowest total wins.  The clock is the time of the latest action (the time given with
  it); a turn whose last action carries no time (simulations) counts as 10 seconds.
* `elimination=N` (the default, `elimination=100`): totals are kept; a player whose total
  reaches N is out of the game and is no longer dealt in.  The last player in wins.  If everyone
  still in reaches N in the same round, the lowest total among them wins.  Players who go out
  later place better; players out in the same round are ranked by total.

`round_cap` (default 200) ends any game after that many rounds, marked as capped, with the lowest
total winning.

## Options
* `edition` (default `gamewright`): which rule sheet the defaults follow.  `gamewright` (the
  English sheet) sets `first_discard=shuffle_back` and `swap_look=true`; `forlago` (the Swedish
  sheet) sets `first_discard=keep_turning` and `swap_look=false`.  An option you give yourself
  wins over the preset.
* `first_discard` (default `shuffle_back`): when the first card turned up is a power card,
  `shuffle_back` puts it back into the draw pile, shuffles, and turns again (everyone saw it, so
  everyone knows it is in the draw pile until it is drawn); `keep_turning` leaves it there and
  turns the next card, until a number card is on top.
* `swap_look` (default `true`): after a Swap, the swapper and the other player each look at the
  card they received.  When `false`, neither may look.
* `younger` (default `false`): the outer cards (slots 1 and 4) are dealt face up, so everyone
  knows them; a card that replaces one is put face down.  A Swap may only exchange two face-down
  cards.
* `mode` (default `elimination=100`): how the game ends, see above.
* `memory_aid` (default `false`): the terminal keeps showing every card you have seen.  Without
  it a card is shown only while you look at it, as at the table; the rules do not change.
* `turn_cap` (default `200`): safety cap on turns in one round, see above.
* `round_cap` (default `200`): safety cap on rounds in one game.

## Notation
How programs and records write the game (players use the keys shown with `?`).  Actions:
`draw`, `take`, `replace N` (put the card held in slot N), `discard`, `peek N`, `swap N P:M`
(your slot N with slot M of seat P), `noswap`, `knock`, `end`, with slots N and M from 1 to 4
and seats P from 1.  Cards: `0`-`9`, `PEEK`, `SWAP`, `DRAW2`.  A deal is
`{"hands": [[4 cards] per seat], "draw": [top first], "discard": [top first]}`, with
`"returned": [power cards]` when power cards were turned up and shuffled back into the draw pile
before the first discard (`first_discard=shuffle_back`).
"""


def _not_the_deck(cards: list[int]) -> str:
    """How ``cards`` differ from the deck (``"5 3 times (not 4), PEEK 4 times (not 3)"``), or
    "" if they are its 54 cards."""
    have = Counter(cards)
    if have == Counter(DECK):
        return ""
    wrong = []
    for card in range(DRAW2 + 1):
        n, want = have[card], DECK.count(card)
        if n != want:
            wrong.append(f"{CARD_TEXT[card]} {n} times (not {want})")
    return ", ".join(wrong)


_SamplePlan = tuple[
    bool,
    list[int],
    list[tuple[int, list[int], list[int], list[int], list[int]]],
    list[tuple[int, int]],
]
"""See :meth:`RatState._sample_plan`."""


def _holds(kinds: tuple[int, ...], powers: list[int], places: list[int], first: int) -> bool:
    """True if, with ``powers[k]`` at ``places[k]``, each card of ``kinds`` is at a place from
    ``first`` on (in the draw pile)."""
    for kind in kinds:
        for k, card in enumerate(powers):
            if card == kind and places[k] >= first:
                break
        else:
            return False
    return True


# --- results --------------------------------------------------------------------------------------


class RoundResult(NamedTuple):
    """One finished round: every row face up, the sums, the winners and the totals after it."""

    round: int
    dealer: int
    hands: tuple[int, ...]
    """Every slot's card after power cards were replaced (slot ``i`` of seat ``s`` at
    ``s * 4 + i``; ``-1`` for a seat out of the game)."""
    sums: tuple[int, ...]
    """Each seat's sum (0 for a seat out of the game)."""
    winners: tuple[int, ...]
    knocker: int | None
    """The seat that knocked, or None (the turn cap ended the round)."""
    capped: bool
    """True when the turn cap, not a knock, ended the round."""
    totals: tuple[int, ...]
    """Each seat's total after the round."""
    active: tuple[bool, ...]
    """Which seats were dealt in."""

    def to_json(self) -> dict[str, JSON]:
        """The round as JSON (rows and sums of seats not dealt in are None)."""
        players = len(self.sums)
        return {
            "round": self.round,
            "dealer": self.dealer,
            "hands": [
                [CARD_TEXT[c] for c in self.hands[s * SLOTS : s * SLOTS + SLOTS]]
                if self.active[s]
                else None
                for s in range(players)
            ],
            "sums": [self.sums[s] if self.active[s] else None for s in range(players)],
            "winners": list(self.winners),
            "knocker": self.knocker,
            "capped": self.capped,
            "totals": list(self.totals),
        }


EVENTS_SHOWN = 60
"""How many of the latest events an observation lists."""

_RawEvent = tuple[type[Event], tuple[Any, ...]]
_RawDeal = tuple[list[int], list[int], list[int], tuple[int, ...]]


# --- the state ------------------------------------------------------------------------------------


_OBSERVATION_PARTS: dict[str, Callable[[RatState, int, bool], JSON]] = {}
"""The observation's entries that bots read at every move, each built on its own exactly as
:meth:`RatState.observation` builds it (:meth:`State.observation_part`): the state class's
:attr:`State._observation_parts`, filled in below the class (its builders read its fields)."""


class RatState(State[Act, RatATatCat]):
    """One moment of a game of Rat-a-Tat Cat."""

    _observation_parts = _OBSERVATION_PARTS

    __slots__ = (
        "_plan",
        "_scoring_only",
        "active",
        "cap_fired",
        "clock",
        "closer",
        "deal0",
        "dealer",
        "discard",
        "draw",
        "elim",
        "evlog",
        "evn",
        "extra",
        "faceup",
        "first",
        "hands",
        "held",
        "held_pub",
        "in_draw",
        "knocker",
        "knocker_won",
        "knocks",
        "known",
        "origin",
        "outcome_",
        "phase",
        "pool",
        "results",
        "rnd",
        "round_cap_fired",
        "rturns",
        "score_n",
        "score_sum",
        "totals",
        "turn",
        "turns",
    )

    # --- building -------------------------------------------------------------------------------

    def _init_game(self) -> None:
        g = self.game
        p = g.players
        # During a play-out that is only scored: a round that ends it deals no next round.
        self._scoring_only = False
        # The sampling plan of this position for one seat (see _sample_plan), until it changes.
        self._plan: tuple[int, _SamplePlan] | None = None
        self.active: tuple[bool, ...] = (True,) * p
        self.totals: tuple[int, ...] = (0,) * p
        self.elim: tuple[int, ...] = (0,) * p
        self.dealer = p - 1
        self.rnd = 0
        self.turns = 0
        self.clock = 0.0
        # The public events, newest first, as (event class, its fields) built into events only
        # when an observation asks for them.
        self.evlog: tuple[_RawEvent, Any] | None = None
        self.evn = 0
        self.knocks = 0
        self.knocker_won = 0
        self.cap_fired = 0
        self.round_cap_fired = False
        self.score_sum = 0
        self.score_n = 0
        self.results: tuple[RoundResult, ...] = ()
        self.outcome_: Outcome | None = None
        # The deal: (hands, draw, discard, returned) as dealt, until a record asks for it in the
        # deal format (then that dict); {} in a sample.
        self.deal0: _RawDeal | dict[str, JSON] = {}

    def _next_active(self, seat: int) -> int:
        active = self.active
        p = self.game.players
        s = (seat + 1) % p
        while not active[s]:
            s = (s + 1) % p
        return s

    def _order(self) -> list[int]:
        """Active seats in turn order, starting left of the dealer."""
        p = self.game.players
        first = self.dealer + 1
        active = self.active
        return [s % p for s in range(first, first + p) if active[s % p]]

    def _layout(self, order: list[int], *, recorded: bool) -> None:
        """Deal a shuffled deck (``order[0]`` on top) and turn up the first discard."""
        g = self.game
        hands = [-1] * g.p4
        seats = self._order()
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
                    self._shuffle(draw, "shuffle-back")
                else:
                    self._chance.rng.shuffle(draw)
            else:
                discard.append(card)
            card = draw.pop()
        discard.append(card)
        self._set_round(hands, draw, discard, tuple(returned))

    def _set_round(
        self,
        hands: list[int],
        draw: list[int],
        discard: list[int],
        returned: tuple[int, ...] = (),
    ) -> None:
        g = self.game
        p4 = g.p4
        self.rnd += 1
        self.hands = hands
        self.draw = draw
        self.discard = discard
        self.known = known = [-1] * (g.rows * p4)
        self.faceup = faceup = [False] * p4
        # Every card in a row comes from the deal (pool 0, any card).
        self.origin = [0] * p4
        self.pool = 0
        self.in_draw = tuple(sorted(set(returned))) if returned else ()
        active = self.active
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
        self.held = -1
        self.held_pub = False
        self.extra = 0
        self.knocker = -1
        self.closer = -1
        self.rturns = 0
        self.first = self.turn = self._next_active(self.dealer)
        self.phase = START
        self._event(Dealt, (self.rnd, self.dealer, discard[-1], returned))

    def _deal_json(self, raw: _RawDeal) -> dict[str, JSON]:
        """A deal kept as (hands, draw, discard, returned) in the deal format."""
        hands, draw, discard, returned = raw
        deal: dict[str, JSON] = {
            "hands": [
                [CARD_TEXT[c] for c in hands[s * SLOTS : s * SLOTS + SLOTS]]
                for s in range(self.game.players)
            ],
            "draw": [CARD_TEXT[c] for c in reversed(draw)],
            "discard": [CARD_TEXT[c] for c in reversed(discard)],
        }
        if returned:
            # The power cards turned up and shuffled back before the first discard.
            deal["returned"] = [CARD_TEXT[c] for c in returned]
        return deal

    def _event(self, kind: type[Event], fields: tuple[Any, ...]) -> None:
        self.evn += 1
        self.evlog = ((kind, fields), self.evlog)

    # --- the core contract ----------------------------------------------------------------------

    def clone(self) -> RatState:
        return self._copy(True)

    def _copy(self, cards: bool) -> RatState:
        """A copy; without ``cards`` it shares the rows and the draw pile with this state, for a
        sample that gives it new ones."""
        new = RatState.__new__(RatState)
        self._copy_core_to(new)
        new._scoring_only = False
        new._plan = None
        new.active = self.active
        new.cap_fired = self.cap_fired
        new.clock = self.clock
        new.closer = self.closer
        new.deal0 = self.deal0
        new.dealer = self.dealer
        new.discard = self.discard[:]
        new.draw = self.draw[:] if cards else self.draw
        new.elim = self.elim
        new.evlog = self.evlog
        new.evn = self.evn
        new.extra = self.extra
        new.faceup = self.faceup[:]
        new.first = self.first
        new.hands = self.hands[:] if cards else self.hands
        new.held = self.held
        new.held_pub = self.held_pub
        new.in_draw = self.in_draw
        new.knocker = self.knocker
        new.knocker_won = self.knocker_won
        new.knocks = self.knocks
        new.known = self.known[:]
        new.origin = self.origin[:]
        new.outcome_ = self.outcome_
        new.phase = self.phase
        new.pool = self.pool
        new.results = self.results
        new.rnd = self.rnd
        new.round_cap_fired = self.round_cap_fired
        new.rturns = self.rturns
        new.score_n = self.score_n
        new.score_sum = self.score_sum
        new.totals = self.totals
        new.turn = self.turn
        new.turns = self.turns
        return new

    def seats_to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        return [self.turn]

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def stage(self) -> int:
        return len(self.results)

    def win_estimate(self) -> list[float] | None:
        # Lower totals are better; a round's sum is about 10-20 points, so a gap of one good
        # round is worth most of a win.
        return logistic_shares([-t for t in self.totals], 12.0, self.active)

    def _legal_actions(self, seat: int) -> list[Act]:
        if seat != self.turn:
            return []
        ph = self.phase
        if ph == START:
            d = self.discard
            return [*_START_BOTH] if d and d[-1] < PEEK else [*_START_ONLY_DRAW]
        if ph == HOLD:
            return [*_HOLD_ACTS]
        if ph == KNOCKING:
            return [*_KNOCK_ACTS]
        if ph == TAKEN:
            return [*REPLACE]
        if ph == MUST_DRAW:
            return [DRAW]
        if ph == PEEKING:
            return [*_PEEK_AND_PASS] if self.extra else [*PEEKS]
        if ph == SWAPPING:
            out = self._swaps(seat)
            out.append(DISCARD if self.extra else NOSWAP)
            return out
        return []

    def _legal(self, seat: int, action: Act) -> bool:
        if seat != self.turn:
            return False
        ph = self.phase
        if ph == START:
            if action is DRAW:
                return True
            d = self.discard
            return action is TAKE and bool(d) and d[-1] < PEEK
        if ph == HOLD:
            return action in _HOLD_SET
        if ph == KNOCKING:
            return action in _KNOCK_SET
        if ph == TAKEN:
            return action in _REPLACE_SET
        if ph == MUST_DRAW:
            return action is DRAW
        if ph == PEEKING:
            return action in _PEEK_SET or (self.extra > 0 and action is DISCARD)
        if ph == SWAPPING:
            if action.kind == K_SWAP:
                a, p, b = action.a, action.p, action.b
                return (
                    p != seat
                    and self.active[p]
                    and not self.faceup[seat * SLOTS + a]
                    and not self.faceup[p * SLOTS + b]
                )
            return action is (DISCARD if self.extra else NOSWAP)
        return False

    def _swaps(self, seat: int) -> list[Act]:
        faceup = self.faceup
        active = self.active
        mine = seat * SLOTS
        players = self.game.players
        others = [p for p in range(seat + 1, seat + players) if active[p % players]]
        out: list[Act] = []
        for a in range(SLOTS):
            if faceup[mine + a]:
                continue
            for q in others:
                p = q % players
                base = p * SLOTS
                for b in range(SLOTS):
                    if not faceup[base + b]:
                        out.append(SWAPS[a, p, b])
        return out

    def _problem(self, seat: int, action: Act) -> str | None:
        if self._legal(seat, action):
            return None
        if seat != self.turn:
            return self._not_to_act(seat)
        legal = self._legal_actions(seat)
        allowed = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
        return f"{self._reason(seat, action)}; allowed now: {allowed}"

    def _reason(self, seat: int, action: Act) -> str:
        ph = self.phase
        k = action.kind
        if ph == START:
            if k == K_TAKE:
                if not self.discard:
                    return "the discard pile is empty"
                top = CARD_TEXT[self.discard[-1]]
                return (
                    f"the discard top is {top}, a power card: power cards work only when drawn "
                    "from the draw pile, so it cannot be taken"
                )
            return f"{action} is not how a turn starts: draw from the draw pile or take the discard"
        if ph == HOLD:
            return (
                f"you hold the {CARD_TEXT[self.held]} you drew: put it in your row with "
                "replace N or throw it away with discard"
            )
        if ph == TAKEN:
            return (
                f"the {CARD_TEXT[self.held]} taken from the discard pile must replace one of "
                "your cards"
            )
        if ph == MUST_DRAW:
            return "Draw 2: you must draw the next card from the draw pile"
        if ph == PEEKING:
            tail = " (or discard it and use your next Draw 2 chance)" if self.extra else ""
            return f"you drew a PEEK: look at one of your cards with peek N{tail}"
        if ph == SWAPPING:
            if k == K_SWAP:
                if action.p == seat:
                    return "a Swap exchanges one of your cards with another player's, not your own"
                if not self.active[action.p]:
                    return f"seat {action.p + 1} is out of the game"
                if self.faceup[seat * SLOTS + action.a]:
                    return f"your slot {action.a + 1} is face up: only face-down cards are swapped"
                if self.faceup[action.p * SLOTS + action.b]:
                    return (
                        f"slot {action.b + 1} of seat {action.p + 1} is face up: only face-down "
                        "cards are swapped"
                    )
            if k == K_NOSWAP and self.extra:
                return "to pass on this SWAP and use your next Draw 2 chance, discard it"
            if k == K_DISCARD and not self.extra:
                return "the SWAP is already discarded: to pass on it, say noswap"
            return "you drew a SWAP: swap N P:M (your slot N with slot M of seat P) or noswap"
        if ph == KNOCKING:
            return "your turn is done: knock to end the round after one more turn each, or end"
        return f"{action} is not allowed now"

    # --- play -----------------------------------------------------------------------------------

    def _pop_draw(self) -> int:
        draw = self.draw
        if not draw:
            discard = self.discard
            cards = discard[:-1]
            del discard[:-1]
            self._event(Reshuffled, (tuple(sorted(cards)),))
            self._shuffle(cards, "reshuffle")
            self.draw = draw = cards
            self.pool += 1
            self.in_draw = ()
        return draw.pop()

    def _apply(self, seat: int, action: Act, time: float | None) -> None:
        self._plan = None
        timed = False
        if time is not None and self.game.minutes:
            t = round(time, 4)
            if t > self.clock:
                self.clock = t
            timed = True
        k = action.kind
        if k == K_DRAW:
            self._draw(seat)
        elif k == K_TAKE:
            self._take(seat)
        elif k == K_REPLACE:
            self._replace(seat, action.a, timed)
        elif k == K_DISCARD:
            self._discard(seat, timed)
        elif k == K_PEEK:
            self._peek(seat, action.a, timed)
        elif k == K_SWAP:
            self._swap(seat, action.a, action.p, action.b, timed)
        elif k == K_NOSWAP:
            self._event(NoSwap, (seat,))
            self._end_turn(timed)
        elif k == K_KNOCK:
            self.knocker = self.closer = seat
            self._event(Knocked, (seat,))
            self._next_turn()
        else:  # K_END
            self._end(seat)

    def _random_playout(self, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
        """:meth:`State.random_playout` with the actions carried out as :meth:`_apply` does.
        With ``scoring_only`` and a ``stage``, the round that ends the play-out is scored but
        the next one is not dealt."""
        if self._recording:
            return super()._random_playout(rng, depth, stage, scoring_only)
        self._scoring_only = scoring_only and stage >= 0
        steps = 0
        while steps < depth and self.phase != OVER:
            if stage >= 0 and len(self.results) != stage:
                break
            seat = self.turn
            legal = self._legal_actions(seat)
            self._apply(seat, legal[rng.randbelow(len(legal))], None)
            steps += 1
        self._scoring_only = False
        return steps

    def _draw(self, seat: int) -> None:
        if self.phase == MUST_DRAW:
            self.extra -= 1
        card = self._pop_draw()
        if card < PEEK:
            self.held = card
            self.held_pub = False
            self.phase = HOLD
            self.evn += 1
            self.evlog = ((Drew, (seat,)), self.evlog)
            return
        self.discard.append(card)
        self._event(PowerDrawn, (seat, card))
        self._power_shown(card)
        if card == PEEK:
            self.phase = PEEKING
        elif card == SWAP:
            self.phase = SWAPPING
        else:
            self.extra = 2
            self.phase = MUST_DRAW

    def _power_shown(self, card: int) -> None:
        """A power card drawn from the draw pile was shown: one of its kind was known to be in
        the draw pile (shuffled back at the deal), that is no longer a constraint."""
        if card in self.in_draw and self.pool == 0:
            self.in_draw = tuple(c for c in self.in_draw if c != card)

    def _take(self, seat: int) -> None:
        self.held = card = self.discard.pop()
        self.held_pub = True
        self.phase = TAKEN
        self._event(Took, (seat, card))

    def _replace(self, seat: int, slot: int, timed: bool) -> None:
        g = self.game
        idx = seat * SLOTS + slot
        held = self.held
        old = self.hands[idx]
        self.hands[idx] = held
        self.discard.append(old)
        known = self.known
        p4 = g.p4
        value = held if self.held_pub else -1
        known[idx::p4] = [value] * g.rows
        known[seat * p4 + idx] = held
        # A card from the draw pile is a number card (from the pool now drawn from); a card
        # from the discard pile is seen by everyone.
        self.origin[idx] = 2 * self.pool + 1
        self.faceup[idx] = False
        self.held = -1
        self.evn += 1
        self.evlog = ((Replaced, (seat, slot + 1, old, value if value >= 0 else None)), self.evlog)
        self._end_turn(timed)

    def _discard(self, seat: int, timed: bool) -> None:
        if self.phase == HOLD:
            self.discard.append(self.held)
            self._event(Discarded, (seat, self.held))
            self.held = -1
        else:
            self._event(Passed, (seat, self.discard[-1]))
        if self.extra:
            self.phase = MUST_DRAW
        else:
            self._end_turn(timed)

    def _peek(self, seat: int, slot: int, timed: bool) -> None:
        idx = seat * SLOTS + slot
        self.known[seat * self.game.p4 + idx] = self.hands[idx]
        self._event(Peeked, (seat, slot + 1))
        self._end_turn(timed)

    def _swap(self, seat: int, a: int, p: int, b: int, timed: bool) -> None:
        g = self.game
        i1 = seat * SLOTS + a
        i2 = p * SLOTS + b
        hands = self.hands
        hands[i1], hands[i2] = hands[i2], hands[i1]
        origin = self.origin
        origin[i1], origin[i2] = origin[i2], origin[i1]
        known = self.known
        p4 = g.p4
        known[i1::p4], known[i2::p4] = known[i2::p4], known[i1::p4]
        if g.swap_look:
            known[seat * p4 + i1] = hands[i1]
            known[p * p4 + i2] = hands[i2]
        self._event(Swapped, (seat, a + 1, p, b + 1))
        self._end_turn(timed)

    def _end(self, seat: int) -> None:
        if self.rturns >= self.game.turn_cap:
            # The turn cap counts as this player's knock: the others have their last turns.
            self.closer = seat
            self._event(Capped, (seat, self.rturns))
        self._next_turn()

    def _end_turn(self, timed: bool) -> None:
        self.rturns += 1
        self.turns += 1
        if not timed:
            self.clock += SECONDS_PER_TURN
        self.extra = 0
        if self.closer < 0:
            self.phase = KNOCKING
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        nxt = self._next_active(self.turn)
        if nxt == self.closer:
            self._end_round()
        else:
            self.turn = nxt
            self.phase = START

    def _end_round(self) -> None:
        g = self.game
        p = g.players
        hands = self.hands
        knocker = self.knocker
        capped = knocker < 0
        active = self.active
        if max(hands) >= PEEK:
            discard = self.discard
            # The active seats' power cards in turn order, starting left of the dealer.
            for idx in g.turn_slots[self.dealer]:
                card = hands[idx]
                if card >= PEEK and active[idx // SLOTS]:
                    discard.append(card)
                    new = self._pop_draw()
                    while new >= PEEK:
                        discard.append(new)
                        self._power_shown(new)
                        new = self._pop_draw()
                    hands[idx] = new
                    s, slot = divmod(idx, SLOTS)
                    self.evn += 1
                    self.evlog = ((Fixed, (s, slot + 1, card, new)), self.evlog)
        sums = [
            hands[b] + hands[b + 1] + hands[b + 2] + hands[b + 3] if active[b >> 2] else 0
            for b in range(0, g.p4, SLOTS)
        ]
        seats = [s for s in range(p) if active[s]]
        low = min([sums[s] for s in seats])
        if knocker >= 0:
            self.knocks += 1
            if sums[knocker] == low:
                self.knocker_won += 1
        else:
            self.cap_fired += 1
        self.score_sum += sum(sums)
        self.score_n += len(seats)
        self.totals = totals = tuple([t + x for t, x in zip(self.totals, sums, strict=True)])
        self.results = (
            *self.results,
            RoundResult(
                self.rnd,
                self.dealer,
                tuple(hands),
                tuple(sums),
                tuple([s for s in seats if sums[s] == low]),
                knocker if knocker >= 0 else None,
                capped,
                totals,
                active,
            ),
        )
        self._event(RoundOver, (self.rnd, low))
        kind, n = g.mode_kind, g.mode_n
        over = False
        if kind == "round":
            over = True
        elif kind == "rounds":
            over = self.rnd >= n
        elif kind == "minutes":
            over = self.clock >= n * 60
        else:
            out = [s for s in seats if totals[s] >= n]
            if out:
                elim = list(self.elim)
                still = list(active)
                for s in out:
                    elim[s] = self.rnd
                    still[s] = False
                    self._event(WentOut, (s, totals[s]))
                self.elim = tuple(elim)
                if sum(still) >= 1:
                    self.active = tuple(still)
                over = sum(still) <= 1
        if not over and self.rnd >= g.round_cap:
            over = True
            self.round_cap_fired = True
        self.held = -1
        if over:
            # Everyone sees every row now (a new round deals new rows).
            self.known = hands * g.rows
            self.faceup = [True] * g.p4
            self.phase = OVER
            self.outcome_ = self._make_outcome(sums)
        elif not self._scoring_only:
            self._new_round()

    def _new_round(self) -> None:
        self.dealer = self._next_active(self.dealer)
        order = list(DECK)
        self._shuffle(order, "deal")
        self._layout(order, recorded=True)

    def _make_outcome(self, last_sums: list[int]) -> Outcome:
        g = self.game
        p = g.players
        kind = g.mode_kind
        points: tuple[float, ...]
        if kind == "round":
            points = tuple(float(x) for x in last_sums)
            places = Outcome.places_from(points, lower_is_better=True)
            reason = "lowest sum in the round"
        elif kind == "elimination":
            points = tuple(float(x) for x in self.totals)
            # Going out later is better; in the same round, the lower total is better.
            survived = [self.elim[s] if self.elim[s] else self.rnd + 1 for s in range(p)]
            keys = [-survived[s] * 10_000_000 + self.totals[s] for s in range(p)]
            places = Outcome.places_from(keys, lower_is_better=True)
            still_in = [s for s in range(p) if not self.elim[s]]
            if self.round_cap_fired:
                reason = f"round cap of {g.round_cap} reached: lowest total wins"
            elif len(still_in) == 1:
                reason = f"last player under {g.mode_n} points"
            else:
                reason = f"everyone left reached {g.mode_n} points: lowest total wins"
        else:
            points = tuple(float(x) for x in self.totals)
            places = Outcome.places_from(points, lower_is_better=True)
            if self.round_cap_fired:
                reason = f"round cap of {g.round_cap} reached: lowest total wins"
            elif kind == "rounds":
                reason = f"lowest total after {g.mode_n} rounds"
            else:
                reason = f"lowest total when {g.mode_n} minutes were up"
        winners = tuple(s for s in range(p) if places[s] == 1)
        return Outcome(
            winners=winners,
            points=points,
            places=places,
            reason=reason,
            capped=self.round_cap_fired or self.cap_fired > 0,
            details={
                "length": self.turns,
                "rounds": self.rnd,
                "knocks": self.knocks,
                "knocker_won": self.knocker_won,
                "mean_round_score": self.score_sum / max(1, self.score_n),
                "cap_fired": self.cap_fired,
                "round_cap_fired": int(self.round_cap_fired),
            },
        )

    # --- views ----------------------------------------------------------------------------------

    def _rows(self, row: int) -> list[list[str | None]]:
        g = self.game
        known = self.known
        base = row * g.p4
        out: list[list[str | None]] = []
        for s in range(g.players):
            out.append(
                [
                    CARD_TEXT[c] if (c := known[base + s * SLOTS + i]) >= 0 else None
                    for i in range(SLOTS)
                ]
            )
        return out

    def _public(self, events: bool = True) -> dict[str, JSON]:
        g = self.game
        p = g.players
        return {
            "game": g.id,
            "players": p,
            "options": dict(g.options),
            "round": self.rnd,
            "dealer": self.dealer,
            "turn": None if self.phase == OVER else self.turn,
            "phase": PHASE_NAMES[self.phase],
            "draws_left": self.extra,
            "knocker": self.knocker if self.knocker >= 0 else None,
            "closer": self.closer if self.closer >= 0 and self.phase != OVER else None,
            "turns_this_round": self.rturns,
            "turns": self.turns,
            "in_round": [self.hands[s * SLOTS] >= 0 for s in range(p)],
            "out": [bool(self.elim[s]) for s in range(p)],
            "face_up": [self.faceup[s * SLOTS : s * SLOTS + SLOTS] for s in range(p)],
            "draw_pile": len(self.draw),
            "draw_holds": [CARD_TEXT[c] for c in self.in_draw],
            "discard": [CARD_TEXT[c] for c in reversed(self.discard)],
            "discard_top": CARD_TEXT[self.discard[-1]] if self.discard else None,
            "totals": list(self.totals),
            "results": [r.to_json() for r in self.results],
            "events": self._event_list(EVENTS_SHOWN) if events else [],
            "events_start": self.evn - min(self.evn, EVENTS_SHOWN),
            "over": self.phase == OVER,
            "outcome": self.outcome_.to_json() if self.outcome_ is not None else None,
        }

    def public_events(self, limit: int | None = None) -> list[Event]:
        """The public events of the game, oldest first (only the latest ``limit`` if given)."""
        out: list[Event] = []
        node = self.evlog
        while node is not None and (limit is None or len(out) < limit):
            kind, fields = node[0]
            out.append(kind(*fields))
            node = node[1]
        out.reverse()
        return out

    def _event_list(self, limit: int | None) -> list[dict[str, JSON]]:
        g = self.game
        return [event_json(g, e) for e in self.public_events(limit)]

    def observation(self, seat: object, events: bool = True) -> dict[str, JSON]:
        """What ``seat`` knows: the public table (see :meth:`spectator_view`), every card it has
        seen where it is now (``slots``, its own row also as ``yours``) and the card it holds.

        ``events`` lists the latest public events (at most 60); ``events_start`` is how many
        earlier ones there were, so the ``i``-th listed event is the game's event number
        ``events_start + i`` (from 0) and a reader can tell which events it has not seen yet.
        ``knocker`` is the seat that knocked this round; ``closer`` the seat whose turn ends the
        round when play comes back to it (the knocker, or the player of the turn the turn cap
        counted as a knock), else None.  ``draw_holds`` are power cards everyone knows to be in
        the draw pile (turned up at the deal and shuffled back, not drawn since).
        """
        seat = self._check_seat(seat)
        view = self._public(events)
        view["seat"] = seat
        view["slots"] = self._rows(seat)
        view["yours"] = view["slots"][seat]
        view["held"] = self._held_for(seat)
        view["held_from"] = None if self.held < 0 else ("discard" if self.held_pub else "draw")
        return view

    def _held_for(self, seat: int) -> str | None:
        if self.held < 0:
            return None
        return CARD_TEXT[self.held] if self.turn == seat or self.held_pub else "hidden"

    def spectator_view(self) -> dict[str, JSON]:
        view = self._public()
        view["seat"] = None
        view["slots"] = self._rows(self.game.players)
        if self.held >= 0:
            view["held"] = CARD_TEXT[self.held] if self.held_pub else "hidden"
        else:
            view["held"] = None
        view["held_from"] = None if self.held < 0 else ("discard" if self.held_pub else "draw")
        return view

    def sample_consistent(self, seat: object, rng: Rng) -> RatState:
        """A state ``seat`` cannot tell from this one, the cards it has not seen dealt at
        random among the places they may be.

        Where a card may be is public: each hidden card belongs to a *pool* (the deal, or one
        reshuffle of the discard pile, whose cards everybody saw), and it stays among the places
        of its pool (the unseen slots filled from it and, for the latest pool, the draw pile and
        a drawn card another player holds).  A card kept from the draw pile, or held after
        drawing it, is a number card (a power card drawn is shown and used).  Within those
        bounds every arrangement is equally likely.
        """
        seat = self._check_seat(seat)
        p4 = self.game.p4
        held_hidden, template, pools, updates = self._sample_plan(seat)
        values = template[:]
        for pool, powers, nums, free, numbers in pools:
            power = len(powers)
            if power:  # power cards go to places that may hold any card, chosen at random
                places = free[:]
                size = len(places)
                while True:
                    for k in range(power):
                        j = k + rng.randbelow(size - k)
                        places[k], places[j] = places[j], places[k]
                    if pool or _holds(self.in_draw, powers, places, p4 + 1):
                        break
                for k in range(power):
                    values[places[k]] = powers[k]
                rest = places[power:] + numbers
            else:
                rest = free + numbers
            shuffled = nums[:]
            rng.shuffle(shuffled)
            for c, place in zip(shuffled, rest, strict=True):
                values[place] = c
        new = self._copy(False)  # its rows and draw pile are dealt anew here
        new.hands = hands = values[:p4]
        if held_hidden:
            new.held = values[p4]
        new.draw = values[p4 + 1 :]
        known = new.known
        for index, slot in updates:
            known[index] = hands[slot]
        new.deal0 = {}
        new._forget_origin(rng)
        return new

    def _sample_plan(self, seat: int) -> _SamplePlan:
        """What every :meth:`sample_consistent` for ``seat`` in this position starts from (made
        once per position and seat: search draws thousands of samples of one position).

        Places are slots ``0..p4-1``, the held card at ``p4`` and the draw pile from ``p4 + 1``
        on (bottom first).  The plan holds whether the held card is hidden, the values of every
        place as they are, and per pool with hidden cards: its power cards, its number cards (in
        card order), the places that may hold any card and those that hold a number card; last,
        the entries of the rows of knowledge that show a hidden slot, with the slot."""
        plan = self._plan
        if plan is not None and plan[0] == seat:
            return plan[1]
        p4 = self.game.p4
        hands = self.hands
        known = self.known
        origin = self.origin
        base = seat * p4
        now = self.pool
        cards: list[list[int]] = [[] for _ in range(now + 1)]
        free: list[list[int]] = [[] for _ in range(now + 1)]
        numbers: list[list[int]] = [[] for _ in range(now + 1)]
        hidden = []
        for i in range(p4):
            c = hands[i]
            if c >= 0 and known[base + i] < 0:
                o = origin[i]
                cards[o >> 1].append(c)
                (numbers if o & 1 else free)[o >> 1].append(i)
                hidden.append(i)
        held_hidden = self.held >= 0 and not self.held_pub and self.turn != seat
        if held_hidden:
            cards[now].append(self.held)
            numbers[now].append(p4)
        draw = self.draw
        cards[now].extend(draw)
        free[now].extend(range(p4 + 1, p4 + 1 + len(draw)))
        pools = []
        for pool in range(now + 1):
            pool_cards = cards[pool]
            if not pool_cards:
                continue
            pool_cards.sort()
            split = len(pool_cards)
            while split and pool_cards[split - 1] >= PEEK:
                split -= 1
            pools.append((pool, pool_cards[split:], pool_cards[:split], free[pool], numbers[pool]))
        updates = [
            (r * p4 + i, i) for r in range(self.game.rows) for i in hidden if known[r * p4 + i] >= 0
        ]
        made: _SamplePlan = (held_hidden, [*hands, self.held, *draw], pools, updates)
        self._plan = (seat, made)
        return made

    def snapshot(self) -> dict[str, JSON]:
        """The whole position as JSON (the entries :data:`SNAPSHOT_ENTRIES`), hidden cards
        included; :meth:`RatATatCat.restore` reads it back.  Piles list their top card last;
        ``events`` are all the public events of the game."""
        g = self.game
        p4 = g.p4
        return {
            "round": self.rnd,
            "dealer": self.dealer,
            "first": self.first,
            "turn": self.turn,
            "phase": PHASE_NAMES[self.phase],
            "extra": self.extra,
            "knocker": self.knocker,
            "closer": self.closer,
            "hands": [CARD_TEXT[c] if c >= 0 else None for c in self.hands],
            "origin": list(self.origin),
            "pool": self.pool,
            "in_draw": [CARD_TEXT[c] for c in self.in_draw],
            "draw": [CARD_TEXT[c] for c in self.draw],
            "discard": [CARD_TEXT[c] for c in self.discard],
            "held": CARD_TEXT[self.held] if self.held >= 0 else None,
            "held_pub": self.held_pub,
            "known": [
                [CARD_TEXT[c] if c >= 0 else None for c in self.known[r * p4 : (r + 1) * p4]]
                for r in range(g.rows)
            ],
            "faceup": list(self.faceup),
            "active": list(self.active),
            "elim": list(self.elim),
            "totals": list(self.totals),
            "turns": self.turns,
            "rturns": self.rturns,
            "clock": self.clock,
            "stats": [
                self.knocks,
                self.knocker_won,
                self.cap_fired,
                self.score_sum,
                self.score_n,
                self.round_cap_fired,
            ],
            "results": [r.to_json() for r in self.results],
            "events": self._event_list(None),
            "outcome": self.outcome_.to_json() if self.outcome_ is not None else None,
        }

    def card_in(self, seat: object, slot: int) -> int:
        """The card in ``seat``'s ``slot`` (-1 for a slot a player out of the game left empty).

        This is the true card.  A bot may read it only on a state it drew itself from
        ``sample_consistent``, where it is the bot's own hypothesis, never on the real game."""
        seat = self._check_seat(seat)
        if slot.__class__ is not int or not 0 <= slot < SLOTS:
            raise IllegalAction(f"there is no slot {slot!r}; slots are numbered 0 to 3")
        return self.hands[seat * SLOTS + slot]

    def cards(self) -> list[int]:
        out = [c for c in self.hands if c >= 0]
        out.extend(self.draw)
        out.extend(self.discard)
        if self.held >= 0:
            out.append(self.held)
        return out

    def _initial_deal(self) -> dict[str, JSON]:
        deal = self.deal0
        if isinstance(deal, tuple):
            self.deal0 = deal = self._deal_json(deal)
        return {k: [list(x) for x in v] if k == "hands" else list(v) for k, v in deal.items()}


_OBSERVATION_PARTS.update(
    {
        "seat": lambda s, seat, events: seat,
        "round": lambda s, seat, events: s.rnd,
        "phase": lambda s, seat, events: PHASE_NAMES[s.phase],
        "turn": lambda s, seat, events: None if s.phase == OVER else s.turn,
        "draws_left": lambda s, seat, events: s.extra,
        "in_round": lambda s, seat, events: [
            s.hands[p * SLOTS] >= 0 for p in range(s.game.players)
        ],
        "face_up": lambda s, seat, events: [
            s.faceup[p * SLOTS : p * SLOTS + SLOTS] for p in range(s.game.players)
        ],
        "discard": lambda s, seat, events: [CARD_TEXT[c] for c in reversed(s.discard)],
        "discard_top": lambda s, seat, events: CARD_TEXT[s.discard[-1]] if s.discard else None,
        "events": lambda s, seat, events: s._event_list(EVENTS_SHOWN) if events else [],
        "events_start": lambda s, seat, events: s.evn - min(s.evn, EVENTS_SHOWN),
        "slots": lambda s, seat, events: s._rows(seat),
        "held": lambda s, seat, events: s._held_for(seat),
        "totals": lambda s, seat, events: list(s.totals),
    }
)


# --- restoring a snapshot -------------------------------------------------------------------------

SNAPSHOT_ENTRIES = (
    "round",
    "dealer",
    "first",
    "turn",
    "phase",
    "extra",
    "knocker",
    "closer",
    "hands",
    "origin",
    "pool",
    "in_draw",
    "draw",
    "discard",
    "held",
    "held_pub",
    "known",
    "faceup",
    "active",
    "elim",
    "totals",
    "turns",
    "rturns",
    "clock",
    "stats",
    "results",
    "events",
    "outcome",
)
"""The entries of :meth:`RatState.snapshot`, every one of which :meth:`RatATatCat.restore` needs."""

STATS_ENTRIES = ("knocks", "knocker_won", "cap_fired", "score_sum", "score_n", "round_cap_fired")
"""What the snapshot's ``stats`` list holds, in order."""

_RESULT_ENTRIES = ("round", "dealer", "hands", "sums", "winners", "knocker", "capped", "totals")
_CARD_OF = {t: i for i, t in enumerate(CARD_TEXT)}
_EXTRA_ALLOWED: tuple[tuple[int, ...], ...] = (
    (0,),
    (0, 1),
    (0,),
    (0, 1),
    (0, 1),
    (1, 2),
    (0,),
    (0,),
)
"""The draws left (``extra``) each phase allows: only a Draw 2 leaves any."""

_EVENT_FIELD = {
    "seat": "seat",
    "dealer": "seat",
    "other": "seat",
    "slot": "slot",
    "other_slot": "slot",
    "round": "round",
    "first_discard": "card",
    "card": "card",
    "discarded": "card",
    "replacement": "card",
    "placed": "card?",
    "returned": "cards",
    "cards": "cards",
    "turns": "count",
    "low": "count",
    "total": "count",
}
"""What each field of an event holds: a seat, a slot (1-4), a round, a count, a card (or None),
or a list of cards."""

_EVENT_OF: dict[str, tuple[type[Event], tuple[tuple[str, str], ...]]] = {
    cls.kind: (cls, tuple([(f.name, _EVENT_FIELD[f.name]) for f in dataclasses.fields(cls)]))
    for cls in EVENT_TYPES
}
"""Every event kind: its class and its fields, in order, with what each holds."""


def _listing(names: Sequence[str]) -> str:
    return ", ".join(repr(n) for n in names)


class _SnapshotReader:
    """Reads a snapshot (:meth:`RatState.snapshot`) back into a state: each entry is checked
    for its shape, then the position against the rules; the first wrong entry raises a
    :class:`SnapshotError` naming it and what it may be."""

    def __init__(self, game: RatATatCat, snapshot: Mapping[str, Any]) -> None:
        self.game = game
        self.snap = snapshot

    # --- values ---------------------------------------------------------------------------------

    def fail(self, where: str, why: str) -> SnapshotError:
        return SnapshotError(f"snapshot entry {where} {why}")

    def whole(self, value: object, where: str, low: int, high: int | None = None) -> int:
        return snapshots.whole(value, f"snapshot entry {where}", low, high)

    def flag(self, value: object, where: str) -> bool:
        return snapshots.flag(value, f"snapshot entry {where}")

    def items(self, value: object, where: str, n: int | None = None) -> list[Any]:
        return snapshots.items(value, f"snapshot entry {where}", "items", -1 if n is None else n)

    def card(self, value: object, where: str, none: bool = False) -> int:
        """A card's notation as a card; None (if allowed) as -1."""
        if value is None and none:
            return -1
        also = " or null" if none else ""
        what = f"a card ({CARDS_ALLOWED}, as text){also}"
        return snapshots.card(value, f"snapshot entry {where}", _CARD_OF, what)

    def cards(
        self, value: object, where: str, n: int | None = None, none: bool = False
    ) -> list[int]:
        return [
            self.card(c, f"{where} item {i + 1}", none)
            for i, c in enumerate(self.items(value, where, n))
        ]

    def entries(self, value: object, where: str, names: Sequence[str]) -> Mapping[str, Any]:
        """``value`` as an object with exactly the entries ``names``."""
        return snapshots.entries(value, names, f"snapshot entry {where}")

    # --- the position ---------------------------------------------------------------------------

    def state(self) -> RatState:
        g = self.game
        p = g.players
        p4 = g.p4
        snap = self.snap
        snapshots.entries(snap, SNAPSHOT_ENTRIES, f"a {g.title} snapshot")
        name = snap["phase"]
        phase = snapshots.one_of(name, "snapshot entry 'phase'", PHASE_NAMES)
        over = phase == OVER
        rnd = self.whole(snap["round"], "'round'", 1, g.round_cap)
        dealer = self.whole(snap["dealer"], "'dealer'", 0, p - 1)
        first = self.whole(snap["first"], "'first'", 0, p - 1)
        turn = self.whole(snap["turn"], "'turn'", 0, p - 1)
        extra = self.whole(snap["extra"], "'extra'", 0, 2)
        if extra not in _EXTRA_ALLOWED[phase]:
            allowed = " or ".join(str(n) for n in _EXTRA_ALLOWED[phase])
            raise self.fail("'extra'", f"must be {allowed} in phase {name!r}, not {extra}")
        knocker = self.whole(snap["knocker"], "'knocker'", -1, p - 1)
        closer = self.whole(snap["closer"], "'closer'", -1, p - 1)

        # Seats in and out of the game.
        active = tuple(
            [
                self.flag(v, f"'active' item {s + 1}")
                for s, v in enumerate(self.items(snap["active"], "'active'", p))
            ]
        )
        if not any(active):
            raise self.fail("'active'", "must have at least one seat in the game")
        elim = tuple(
            [
                self.whole(v, f"'elim' item {s + 1}", 0, rnd)
                for s, v in enumerate(self.items(snap["elim"], "'elim'", p))
            ]
        )
        if any(elim) and g.mode_kind != "elimination":
            raise self.fail("'elim'", "must be all 0: players go out only with mode=elimination=N")
        for s in range(p):
            if not active[s] and not elim[s]:
                raise self.fail(
                    f"'active' item {s + 1}",
                    f"is false, but 'elim' says seat {s + 1} never went out",
                )
            if active[s] and elim[s] and not over:
                raise self.fail(
                    f"'elim' item {s + 1}",
                    f"must be 0 while seat {s + 1} is still in the game ('active' is true)",
                )

        # The cards.
        pool = self.whole(snap["pool"], "'pool'", 0)
        hands = self.cards(snap["hands"], "'hands'", p4, True)
        for s in range(p):
            cells = hands[s * SLOTS : s * SLOTS + SLOTS]
            full = cells[0] >= 0
            if any((c >= 0) != full for c in cells):
                raise self.fail(
                    f"'hands' items {s * SLOTS + 1}-{s * SLOTS + SLOTS}",
                    f"(seat {s + 1}'s row) must be four cards or four nulls",
                )
            if active[s] and not full:
                raise self.fail(
                    f"'hands' items {s * SLOTS + 1}-{s * SLOTS + SLOTS}",
                    f"(seat {s + 1}'s row) must hold four cards: the seat is in the game",
                )
            if full and not active[s] and not over:
                raise self.fail(
                    f"'hands' items {s * SLOTS + 1}-{s * SLOTS + SLOTS}",
                    f"(seat {s + 1}'s row) must be empty (nulls): the seat is out of the game",
                )
        origin = [
            self.whole(v, f"'origin' item {i + 1}", 0, 2 * pool + 1)
            for i, v in enumerate(self.items(snap["origin"], "'origin'", p4))
        ]
        for i, o in enumerate(origin):
            if o and not o & 1:
                raise self.fail(
                    f"'origin' item {i + 1}",
                    f"must be 0 (dealt) or 2k+1 (kept from the draw pile after k reshuffles), "
                    f"not {o}",
                )
            if o and hands[i] < 0:
                raise self.fail(f"'origin' item {i + 1}", "must be 0 for an empty slot")
            if o & 1 and hands[i] >= PEEK:
                raise self.fail(
                    f"'hands' item {i + 1}",
                    f"is {CARD_TEXT[hands[i]]}, but 'origin' says the card was kept from the draw "
                    "pile: only number cards are (a power card drawn is used at once)",
                )
        in_draw = self.cards(snap["in_draw"], "'in_draw'")
        if in_draw != sorted(set(in_draw)) or any(c < PEEK for c in in_draw):
            raise self.fail(
                "'in_draw'",
                "must list power cards (PEEK, SWAP, DRAW2) at most once each, in that order",
            )
        if in_draw and (pool or not g.shuffle_back):
            raise self.fail(
                "'in_draw'",
                "must be empty after a reshuffle (pool above 0) and without "
                "first_discard=shuffle_back",
            )
        draw = self.cards(snap["draw"], "'draw'")
        for c in in_draw:
            if c not in draw:
                raise self.fail(
                    "'in_draw'", f"names {CARD_TEXT[c]}, but the draw pile holds no {CARD_TEXT[c]}"
                )
        discard = self.cards(snap["discard"], "'discard'")
        held = self.card(snap["held"], "'held'", True)
        held_pub = self.flag(snap["held_pub"], "'held_pub'")
        holding = phase in (HOLD, TAKEN)
        if holding != (held >= 0):
            raise self.fail(
                "'held'", "must be a card in the phases 'holding' and 'taken' and null otherwise"
            )
        if held >= PEEK:
            raise self.fail(
                "'held'",
                f"must be a number card, not {CARD_TEXT[held]} (a power card drawn is used at "
                "once; only a number card may be taken)",
            )
        if holding and held_pub != (phase == TAKEN):
            raise self.fail(
                "'held_pub'",
                "must be true for a card taken from the discard pile (phase 'taken') and false "
                "for one drawn (phase 'holding')",
            )
        if not discard and phase != TAKEN:
            raise self.fail(
                "'discard'", "may be empty only while its last card is held (phase 'taken')"
            )
        for top, ph in ((PEEK, PEEKING), (SWAP, SWAPPING)):
            if phase == ph and discard[-1] != top:
                raise self.fail(
                    "'discard'",
                    f"must have the {CARD_TEXT[top]} just drawn on top (its last item) in phase "
                    f"{PHASE_NAMES[ph]!r}",
                )
        wrong = _not_the_deck(
            [c for c in hands if c >= 0] + draw + discard + ([held] if held >= 0 else [])
        )
        if wrong:
            raise SnapshotError(
                "snapshot entries 'hands', 'draw', 'discard' and 'held' must hold the 54 cards "
                "once each (0-8 four times, 9 nine times, PEEK, SWAP and DRAW2 three times "
                f"each): they have {wrong}"
            )

        # What each seat (and everyone) knows, and the face-up cards.
        rows = self.items(snap["known"], "'known'", g.rows)
        known: list[int] = []
        for r, row in enumerate(rows):
            where = f"'known' row {r + 1}"
            values = self.cards(row, where, p4, True)
            for i, c in enumerate(values):
                if c >= 0 and c != hands[i]:
                    there = CARD_TEXT[hands[i]] if hands[i] >= 0 else "no card"
                    raise self.fail(
                        f"{where} item {i + 1}",
                        f"must be null or the card in that slot ({there}), not {CARD_TEXT[c]}",
                    )
            known.extend(values)
        faceup = [
            self.flag(v, f"'faceup' item {i + 1}")
            for i, v in enumerate(self.items(snap["faceup"], "'faceup'", p4))
        ]
        everyone = (g.rows - 1) * p4
        for i, up in enumerate(faceup):
            if over and not up:
                raise self.fail(
                    f"'faceup' item {i + 1}",
                    "must be true: every row is face up once the game is over",
                )
            if up and not over and (not g.younger or known[everyone + i] < 0):
                raise self.fail(
                    f"'faceup' item {i + 1}",
                    "must be false: during play only outer cards dealt face up with younger=true "
                    "are, and everybody knows them (the last row of 'known')",
                )
        if over and known != hands * g.rows:
            raise self.fail("'known'", "must show every card to everybody once the game is over")

        # Whose turn, who knocked.
        if not over:
            if not active[dealer]:
                raise self.fail("'dealer'", f"must be a seat in the game, not seat {dealer + 1}")
            nxt = (dealer + 1) % p
            while not active[nxt]:
                nxt = (nxt + 1) % p
            if first != nxt:
                raise self.fail(
                    "'first'", f"must be {nxt}, the first seat in the game after the dealer"
                )
            for entry, seat in (("turn", turn), ("knocker", knocker), ("closer", closer)):
                if seat >= 0 and not active[seat]:
                    raise self.fail(repr(entry), f"must be a seat in the game, not {seat}")
        if knocker >= 0 and closer != knocker:
            raise self.fail("'closer'", f"must be the seat that knocked ({knocker})")
        if phase == KNOCKING and closer >= 0:
            raise self.fail("'phase'", "cannot be 'knock' once someone knocked ('closer')")

        # Counters, results, events.
        totals = tuple(
            [
                self.whole(v, f"'totals' item {s + 1}", 0)
                for s, v in enumerate(self.items(snap["totals"], "'totals'", p))
            ]
        )
        turns = self.whole(snap["turns"], "'turns'", 0)
        rturns = self.whole(snap["rturns"], "'rturns'", 0, g.turn_cap + p)
        if rturns > turns:
            raise self.fail("'rturns'", f"(turns this round) cannot exceed 'turns' ({turns})")
        if closer >= 0 and knocker < 0 and rturns < g.turn_cap:
            raise self.fail(
                "'closer'",
                f"must be -1: nobody knocked and the turn cap ({g.turn_cap}) was not reached",
            )
        clock_in = snap["clock"]
        if isinstance(clock_in, int) and not isinstance(clock_in, bool) and 0 <= clock_in <= 10**12:
            clock = float(clock_in)
        elif isinstance(clock_in, float) and math.isfinite(clock_in) and clock_in >= 0:
            clock = clock_in
        else:
            raise self.fail(
                "'clock'", f"must be a number of seconds (at least 0), not {_shown(clock_in)}"
            )
        stats = self.items(snap["stats"], "'stats'", len(STATS_ENTRIES))
        counts = [
            self.whole(stats[i], f"'stats' item {i + 1} ({STATS_ENTRIES[i]})", 0) for i in range(5)
        ]
        round_cap_fired = self.flag(stats[5], "'stats' item 6 (round_cap_fired)")
        if round_cap_fired and not (over and rnd == g.round_cap):
            raise self.fail(
                "'stats' item 6 (round_cap_fired)",
                f"can be true only once the game is over after round_cap ({g.round_cap}) rounds",
            )
        ended = rnd if over else rnd - 1
        results_in = self.items(snap["results"], "'results'")
        if len(results_in) != ended:
            raise self.fail(
                "'results'",
                f"must hold the {ended} rounds ended so far (round {rnd}, phase {name!r}), not "
                f"{len(results_in)}",
            )
        results: list[RoundResult] = []
        before = (0,) * p
        for k, value in enumerate(results_in):
            result = self.result(value, f"'results' item {k + 1}", k + 1, before)
            results.append(result)
            before = result.totals
        if totals != before:
            raise self.fail(
                "'totals'", f"must be the totals after the last round ended, {list(before)}"
            )
        expected = [
            sum(1 for r in results if r.knocker is not None),
            sum(1 for r in results if r.knocker is not None and r.knocker in r.winners),
            sum(1 for r in results if r.capped),
            sum(sum(r.sums) for r in results),
            sum(sum(r.active) for r in results),
        ]
        if counts != expected:
            raise self.fail(
                "'stats'",
                f"must count what 'results' show: {', '.join(STATS_ENTRIES[:5])} are {expected}, "
                f"not {counts}",
            )
        if over and hands != list(results[-1].hands):
            raise self.fail(
                "'hands'", "must be the rows of the last round's result once the game is over"
            )
        evlog, evn = self.events(snap["events"], rnd, dealer, pool, len(results))

        state = RatState.__new__(RatState)
        state._init_core(g, Chance(0))
        state._init_game()
        state.active = active
        state.elim = elim
        state.totals = totals
        state.dealer = dealer
        state.rnd = rnd
        state.turns = turns
        state.clock = clock
        state.evlog = evlog
        state.evn = evn
        state.knocks, state.knocker_won, state.cap_fired, state.score_sum, state.score_n = counts
        state.round_cap_fired = round_cap_fired
        state.results = tuple(results)
        state.hands = hands
        state.draw = draw
        state.discard = discard
        state.known = known
        state.faceup = faceup
        state.origin = origin
        state.pool = pool
        state.in_draw = tuple(in_draw)
        state.held = held
        state.held_pub = held_pub
        state.extra = extra
        state.knocker = knocker
        state.closer = closer
        state.rturns = rturns
        state.first = first
        state.turn = turn
        state.phase = phase
        outcome = snap["outcome"]
        if over:
            made = state._make_outcome(list(results[-1].sums))
            if outcome != made.to_json():
                raise self.fail(
                    "'outcome'",
                    "must be the outcome that the rows, totals and stats of the position give: "
                    + json.dumps(made.to_json()),
                )
            state.outcome_ = made
        elif outcome is not None:
            raise self.fail("'outcome'", "must be null while the game goes on")
        return state

    def result(
        self, value: object, where: str, number: int, before: tuple[int, ...]
    ) -> RoundResult:
        """Round ``number``'s result, after totals ``before``."""
        g = self.game
        p = g.players
        entry = self.entries(value, where, _RESULT_ENTRIES)
        self.whole(entry["round"], f"{where} 'round'", number, number)
        dealer = self.whole(entry["dealer"], f"{where} 'dealer'", 0, p - 1)
        hands: list[int] = []
        active: list[bool] = []
        for s, row in enumerate(self.items(entry["hands"], f"{where} 'hands'", p)):
            if row is None:
                hands.extend([-1] * SLOTS)
                active.append(False)
                continue
            cards = self.cards(row, f"{where} 'hands' item {s + 1}", SLOTS)
            if max(cards) >= PEEK:
                raise self.fail(
                    f"{where} 'hands' item {s + 1}",
                    "must be number cards: power cards are replaced when a round ends",
                )
            hands.extend(cards)
            active.append(True)
        if not active[dealer]:
            raise self.fail(f"{where} 'dealer'", "must be a seat dealt in (its row is not null)")
        sums = [sum(hands[s * SLOTS : s * SLOTS + SLOTS]) if active[s] else 0 for s in range(p)]
        for s, v in enumerate(self.items(entry["sums"], f"{where} 'sums'", p)):
            if not active[s]:
                if v is not None:
                    raise self.fail(f"{where} 'sums' item {s + 1}", "must be null: no row")
            elif v.__class__ is not int or v != sums[s]:
                raise self.fail(
                    f"{where} 'sums' item {s + 1}", f"must be {sums[s]}, the sum of that row"
                )
        low = min([sums[s] for s in range(p) if active[s]])
        winners = [s for s in range(p) if active[s] and sums[s] == low]
        given = self.items(entry["winners"], f"{where} 'winners'")
        if given != winners or any(w.__class__ is not int for w in given):
            raise self.fail(
                f"{where} 'winners'", f"must be {winners}, the seats with the lowest sum"
            )
        knocker_in = entry["knocker"]
        knocker = None
        if knocker_in is not None:
            knocker = self.whole(knocker_in, f"{where} 'knocker'", 0, p - 1)
            if not active[knocker]:
                raise self.fail(f"{where} 'knocker'", "must be a seat dealt in, or null")
        capped = self.flag(entry["capped"], f"{where} 'capped'")
        if capped != (knocker is None):
            raise self.fail(
                f"{where} 'capped'", "must be true exactly when nobody knocked ('knocker' is null)"
            )
        totals = [
            self.whole(v, f"{where} 'totals' item {s + 1}", 0)
            for s, v in enumerate(self.items(entry["totals"], f"{where} 'totals'", p))
        ]
        after = [t + x for t, x in zip(before, sums, strict=True)]
        if totals != after:
            raise self.fail(
                f"{where} 'totals'", f"must be {after}: the totals before plus the round's sums"
            )
        return RoundResult(
            number,
            dealer,
            tuple(hands),
            tuple(sums),
            tuple(winners),
            knocker,
            capped,
            tuple(totals),
            tuple(active),
        )

    def events(
        self, value: object, rnd: int, dealer: int, pool: int, ended: int
    ) -> tuple[tuple[_RawEvent, Any] | None, int]:
        """The public events (the event log, newest first, and how many) and their checks
        against the position: one deal per round, one round end per result, and ``pool``
        reshuffles since the last deal."""
        p = self.game.players
        events = self.items(value, "'events'")
        log: tuple[_RawEvent, Any] | None = None
        deals: list[int] = []
        round_ends: list[int] = []
        dealt_by = -1
        reshuffles = 0
        for n, item in enumerate(events):
            where = f"'events' item {n + 1}"
            kind = item.get("kind") if isinstance(item, Mapping) else None
            spec = _EVENT_OF.get(kind) if isinstance(kind, str) else None
            if spec is None:
                raise self.fail(
                    where,
                    "must be an event: an object whose 'kind' is one of "
                    + _listing(list(_EVENT_OF)),
                )
            cls, fields = spec
            event = self.entries(item, where, ("kind", *[f for f, _ in fields]))
            values: list[Any] = []
            for field_name, what in fields:
                v = event[field_name]
                at = f"{where} ({kind}) {field_name!r}"
                if what == "seat":
                    values.append(self.whole(v, at, 0, p - 1))
                elif what == "slot":
                    values.append(self.whole(v, at, 1, SLOTS))
                elif what == "round":
                    values.append(self.whole(v, at, 1, rnd))
                elif what == "count":
                    values.append(self.whole(v, at, 0))
                elif what == "card":
                    values.append(self.card(v, at))
                elif what == "card?":
                    card = self.card(v, at, True)
                    values.append(card if card >= 0 else None)
                else:
                    values.append(tuple(self.cards(v, at)))
            if n == 0 and cls is not Dealt:
                raise self.fail(where, "must be the first deal (kind 'deal')")
            if cls is Dealt:
                deals.append(values[0])
                dealt_by = values[1]
                reshuffles = 0
            elif cls is RoundOver:
                round_ends.append(values[0])
            elif cls is Reshuffled:
                reshuffles += 1
            log = ((cls, tuple(values)), log)
        if deals != list(range(1, rnd + 1)):
            raise self.fail("'events'", f"must hold the deals of rounds 1 to {rnd}, in order")
        if round_ends != list(range(1, ended + 1)):
            raise self.fail("'events'", f"must hold the ends of rounds 1 to {ended}, in order")
        if dealt_by != dealer:
            raise self.fail("'dealer'", f"must be the seat of the last deal event, {dealt_by}")
        if reshuffles != pool:
            raise self.fail(
                "'pool'", f"must be {reshuffles}, the number of reshuffles since the last deal"
            )
        return log, len(events)
