"""Rat-a-Tat Cat: the rules engine.

Cards are ints: the number cards ``0``-``9`` are themselves, ``10`` is PEEK, ``11`` SWAP and
``12`` DRAW2.  Each seat has a row of four slots (slot ``i`` of seat ``s`` is ``hands[s*4+i]``).
What every seat knows is a flat table ``known``: row ``r`` (one per seat, plus a last row for what
everyone knows, the spectator's row) holds, for every slot at the table, the card that row has
seen there or ``-1``.  Knowledge follows the cards through public moves (swaps), and is forgotten
when a card the row did not see replaces the one it knew.

Action notation (slots and seats are numbered from 1 for people):

* ``draw``: the top card of the draw pile;  ``take``: the top card of the discard pile.
* ``replace N``: put the card you hold in your slot N (the old card goes face up on the discard).
* ``discard``: discard the card you drew without using it (during Draw 2, go on to the next draw).
* ``peek N``: look at your slot N (after drawing a PEEK).
* ``swap N P:M``: swap your slot N with slot M of seat P (after drawing a SWAP); ``noswap``.
* ``knock`` / ``end``: at the end of your turn, knock ("Rat-a-Tat Cat!") or just pass the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from ratgames.core.errors import DealError, IllegalAction, OptionError, RatgamesError
from ratgames.core.game import JSON, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng

# --- cards ----------------------------------------------------------------------------------------

PEEK = 10
SWAP = 11
DRAW2 = 12
CARD_TEXT = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "PEEK", "SWAP", "DRAW2")
CARD_NAME = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Peek", "Swap", "Draw 2")
_CARD_PARSE = {t: i for i, t in enumerate(CARD_TEXT)} | {"DRAW 2": DRAW2, "DRAW_2": DRAW2}
DECK: tuple[int, ...] = tuple(
    sorted([n for n in range(9) for _ in range(4)] + [9] * 9 + [PEEK, SWAP, DRAW2] * 3)
)
SLOTS = 4


def card_text(card: int) -> str:
    """The notation of a card: ``0``..``9``, ``PEEK``, ``SWAP``, ``DRAW2``."""
    if not 0 <= card <= DRAW2:
        raise RatgamesError(f"no such Rat-a-Tat Cat card: {card!r}")
    return CARD_TEXT[card]


def parse_card(text: str) -> int:
    """The card written as ``text`` (case is forgiven; ``DRAW 2`` is read as ``DRAW2``)."""
    if isinstance(text, str):
        card = _CARD_PARSE.get(" ".join(text.split()).upper())
        if card is not None:
            return card
    raise RatgamesError(
        f"{text!r} is not a Rat-a-Tat Cat card; the cards are 0-9, PEEK, SWAP and DRAW2"
    )


# --- actions --------------------------------------------------------------------------------------

K_DRAW, K_TAKE, K_REPLACE, K_DISCARD, K_PEEK, K_SWAP, K_NOSWAP, K_KNOCK, K_END = range(9)


class Act(NamedTuple):
    """An action: its kind and up to three numbers (slots and a seat, counted from 0)."""

    kind: int
    a: int = 0
    p: int = 0
    b: int = 0

    def __str__(self) -> str:
        k = self.kind
        if k == K_REPLACE:
            return f"replace {self.a + 1}"
        if k == K_PEEK:
            return f"peek {self.a + 1}"
        if k == K_SWAP:
            return f"swap {self.a + 1} {self.p + 1}:{self.b + 1}"
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
_ACTION_BY_TEXT: dict[str, Act] = {
    str(a): a for a in (DRAW, TAKE, DISCARD, NOSWAP, KNOCK, END, *REPLACE, *PEEKS, *SWAPS.values())
}
ACTION_FORMS = (
    "draw, take, replace N, discard, peek N, swap N P:M, noswap, knock, end "
    "(N and M are slots 1-4, P a seat number)"
)

# phases of a turn
START, HOLD, TAKEN, PEEKING, SWAPPING, MUST_DRAW, KNOCKING, OVER = range(8)
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
"""The clock of ``mode=minutes=N`` when actions carry no times (simulations)."""


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
        "Safety cap: a round ends after this many turns as if the last player had knocked.",
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

    def parse_action(self, text: str) -> Act:
        if not isinstance(text, str):
            raise IllegalAction(f"an action is written as text ({ACTION_FORMS}), not {text!r}")
        key = " ".join(text.split()).lower()
        action = _ACTION_BY_TEXT.get(key)
        if action is None:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise IllegalAction(f"{shown!r} is not an action; the actions are {ACTION_FORMS}")
        if action.kind == K_SWAP and action.p >= self.players:
            raise IllegalAction(
                f"there is no seat {action.p + 1} in a {self.players}-player game; "
                f"seats are 1 to {self.players}"
            )
        return action

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
            hands, draw, discard = self._read_deal(deal)
            state._set_round(hands, draw, discard)
        state.deal0 = state._deal_json()
        return state

    def _read_deal(self, deal: Mapping[str, Any]) -> tuple[list[int], list[int], list[int]]:
        if not isinstance(deal, Mapping):
            raise DealError("a deal is an object with 'hands', 'draw' and 'discard'")
        extra = set(deal) - {"hands", "draw", "discard"}
        if extra:
            raise DealError(f"a deal has only 'hands', 'draw' and 'discard', not {sorted(extra)!r}")
        hands_in, draw_in, discard_in = deal.get("hands"), deal.get("draw"), deal.get("discard")
        if not isinstance(hands_in, list) or len(hands_in) != self.players:
            raise DealError(f"the deal's 'hands' must list {self.players} rows of 4 cards")
        hands: list[int] = []
        for s, row in enumerate(hands_in):
            if not isinstance(row, list) or len(row) != SLOTS:
                raise DealError(f"the deal's hand of seat {s + 1} must have 4 cards")
            hands.extend(parse_card(c) for c in row)
        if not isinstance(draw_in, list) or not isinstance(discard_in, list):
            raise DealError("the deal's 'draw' and 'discard' must be lists (top card first)")
        draw = [parse_card(c) for c in reversed(draw_in)]
        discard = [parse_card(c) for c in reversed(discard_in)]
        if sorted(hands + draw + discard) != list(DECK):
            raise DealError(
                "the deal does not hold exactly the 54 cards (0-8 four times, 9 nine times, "
                "PEEK, SWAP and DRAW2 three times each)"
            )
        if not discard or discard[-1] >= PEEK:
            raise DealError("the deal's discard pile must start with a number card on top")
        return hands, draw, discard

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

* `draw`s the top card of the draw pile.  A number card may be put in one of your slots
  (`replace N`; the card that was there goes face up on the discard pile) or thrown away
  (`discard`).  Only you see the card you drew.
* `take`s the top card of the discard pile.  Only a number card can be taken, and it must replace
  one of your cards (`replace N`).  Everyone sees which card went where.

When the draw pile runs out, the discard pile except its top card is shuffled into a new draw pile.

## Power cards
A power card works only when drawn from the draw pile.  It is shown and discarded at once.

* **PEEK**: look at one of your own cards (`peek N`).  Your turn ends.
* **SWAP**: you may exchange one of your cards with any card of another player, without looking
  (`swap N P:M` swaps your slot N with slot M of seat P), or decline (`noswap`).  Everyone sees
  which slots were exchanged.  Your turn ends.
* **DRAW2**: draw again from the draw pile.  Use that card as usual (a number card goes into your
  row, a power card does its work) and your turn ends, or `discard` it and draw a second card,
  which you use or discard.  A DRAW2 drawn during these chances starts over: two fresh chances.

A power card dealt to you, or taken into your row, does nothing and has no value; at the end of
the round it is replaced (see below), so get rid of it early.

## Knocking and the end of a round
When your turn is done and nobody has knocked yet, you may `knock` (say "Rat-a-Tat Cat!") or
`end` your turn.  Knocking on your first turn is allowed.  After a knock every other player has
exactly one more turn (power cards work as usual), then the round ends.

At the end of a round every row is turned face up.  Each power card in a row is replaced by
drawing from the draw pile until a number card comes (players in turn order from left of the
dealer, slots 1 to 4; the power cards go to the discard pile).  The lowest sum wins the round;
equal lowest sums share the win.

For safety in simulations, a round that reaches `turn_cap` turns ends at once as if the last
player had knocked; how often that happened is reported (`cap_fired`).

## Ending the game: `mode`
* `round`: one round; the points are the round's sums.
* `rounds=N`: N rounds; the lowest total wins.
* `minutes=N`: rounds are played until N minutes have passed; the round in progress is finished
  and the lowest total wins.  The clock is the time of the latest action; when actions carry no
  times (simulations), every turn counts as 10 seconds.
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
  `shuffle_back` puts it back into the draw pile, shuffles, and turns again; `keep_turning` leaves
  it there and turns the next card, until a number card is on top.
* `swap_look` (default `true`): after a Swap, the swapper and the other player each look at the
  card they received.  When `false`, neither may look.
* `younger` (default `false`): the outer cards (slots 1 and 4) are dealt face up, so everyone
  knows them; a card that replaces one is put face down.  A Swap may only exchange two face-down
  cards.
* `mode` (default `elimination=100`): how the game ends, see above.
* `memory_aid` (default `false`): the terminal keeps showing every card you have seen.  Without
  it a card is shown only while you look at it, as at the table; the rules do not change.
* `turn_cap` (default `200`): safety cap on turns in one round.
* `round_cap` (default `200`): safety cap on rounds in one game.

## Notation
`draw`, `take`, `replace N`, `discard`, `peek N`, `swap N P:M`, `noswap`, `knock`, `end`, with
slots N and M from 1 to 4 and seats P from 1.  Cards: `0`-`9`, `PEEK`, `SWAP`, `DRAW2`.  A deal is
`{"hands": [[4 cards] per seat], "draw": [top first], "discard": [top first]}`.
"""


# --- the state ------------------------------------------------------------------------------------


class RatState(State):
    """One moment of a game of Rat-a-Tat Cat."""

    __slots__ = (
        "active",
        "cap_fired",
        "clock",
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
        "knocker",
        "knocker_won",
        "knocks",
        "known",
        "outcome_",
        "phase",
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

    game: RatATatCat

    # --- building -------------------------------------------------------------------------------

    def _init_game(self) -> None:
        g = self.game
        p = g.players
        self.active: tuple[bool, ...] = (True,) * p
        self.totals: tuple[int, ...] = (0,) * p
        self.elim: tuple[int, ...] = (0,) * p
        self.dealer = p - 1
        self.rnd = 0
        self.turns = 0
        self.clock = 0.0
        self.evlog: tuple[Any, ...] | None = None
        self.evn = 0
        self.knocks = 0
        self.knocker_won = 0
        self.cap_fired = 0
        self.round_cap_fired = False
        self.score_sum = 0
        self.score_n = 0
        self.results: tuple[tuple[Any, ...], ...] = ()
        self.outcome_: Outcome | None = None
        self.deal0: dict[str, JSON] = {}

    def _next_active(self, seat: int) -> int:
        active = self.active
        p = self.game.players
        s = (seat + 1) % p
        while not active[s]:
            s = (s + 1) % p
        return s

    def _order(self) -> list[int]:
        """Active seats in turn order, starting left of the dealer."""
        out = []
        s = self._next_active(self.dealer)
        for _ in range(self.game.players):
            if self.active[s] and s not in out:
                out.append(s)
            s = (s + 1) % self.game.players
        return out

    def _layout(self, order: list[int], *, recorded: bool) -> None:
        """Deal a shuffled deck (``order[0]`` on top) and turn up the first discard."""
        g = self.game
        hands = [-1] * g.p4
        seats = self._order()
        pos = 0
        for i in range(SLOTS):
            for s in seats:
                hands[s * SLOTS + i] = order[pos]
                pos += 1
        draw = order[pos:]
        draw.reverse()  # the top of the draw pile is its last element
        discard: list[int] = []
        card = draw.pop()
        while card >= PEEK:
            if g.shuffle_back:
                draw.append(card)
                if recorded:
                    self._shuffle(draw, "shuffle-back")
                else:
                    self._chance.rng.shuffle(draw)
            else:
                discard.append(card)
            card = draw.pop()
        discard.append(card)
        self._set_round(hands, draw, discard)

    def _set_round(self, hands: list[int], draw: list[int], discard: list[int]) -> None:
        g = self.game
        p4 = g.p4
        self.rnd += 1
        self.hands = hands
        self.draw = draw
        self.discard = discard
        self.known = known = [-1] * (g.rows * p4)
        self.faceup = faceup = [False] * p4
        for s in range(g.players):
            if not self.active[s]:
                continue
            for i in (0, SLOTS - 1):
                idx = s * SLOTS + i
                if g.younger:
                    faceup[idx] = True
                    for r in range(g.rows):
                        known[r * p4 + idx] = hands[idx]
                else:
                    known[s * p4 + idx] = hands[idx]
        self.held = -1
        self.held_pub = False
        self.extra = 0
        self.knocker = -1
        self.rturns = 0
        self.first = self.turn = self._next_active(self.dealer)
        self.phase = START
        self._event("deal", self.dealer, discard[-1])

    def _deal_json(self) -> dict[str, JSON]:
        g = self.game
        return {
            "hands": [
                [CARD_TEXT[c] for c in self.hands[s * SLOTS : s * SLOTS + SLOTS]]
                for s in range(g.players)
            ],
            "draw": [CARD_TEXT[c] for c in reversed(self.draw)],
            "discard": [CARD_TEXT[c] for c in reversed(self.discard)],
        }

    def _event(self, kind: str, seat: int, a: int = -1, b: int = -1, c: int = -1) -> None:
        self.evn += 1
        self.evlog = ((self.evn, self.rnd, kind, seat, a, b, c), self.evlog)

    # --- the core contract ----------------------------------------------------------------------

    def clone(self) -> RatState:
        new = RatState.__new__(RatState)
        self._copy_core_to(new)
        new.active = self.active
        new.cap_fired = self.cap_fired
        new.clock = self.clock
        new.deal0 = self.deal0
        new.dealer = self.dealer
        new.discard = self.discard[:]
        new.draw = self.draw[:]
        new.elim = self.elim
        new.evlog = self.evlog
        new.evn = self.evn
        new.extra = self.extra
        new.faceup = self.faceup[:]
        new.first = self.first
        new.hands = self.hands[:]
        new.held = self.held
        new.held_pub = self.held_pub
        new.knocker = self.knocker
        new.knocker_won = self.knocker_won
        new.knocks = self.knocks
        new.known = self.known[:]
        new.outcome_ = self.outcome_
        new.phase = self.phase
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

    def legal_actions(self, seat: int) -> list[Any]:
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

    def is_legal(self, seat: int, action: Any) -> bool:
        """The same answer as ``action in legal_actions(seat)``, without building the list."""
        if seat != self.turn or type(action) is not Act:
            return False
        ph = self.phase
        if ph == START:
            if action == DRAW:
                return True
            d = self.discard
            return action == TAKE and bool(d) and d[-1] < PEEK
        if ph == HOLD:
            return action in _HOLD_SET
        if ph == KNOCKING:
            return action in _KNOCK_SET
        if ph == TAKEN:
            return action in _REPLACE_SET
        if ph == MUST_DRAW:
            return action == DRAW
        if ph == PEEKING:
            return action in _PEEK_SET or (self.extra > 0 and action == DISCARD)
        if ph == SWAPPING:
            if action.kind == K_SWAP:
                a, p, b = action.a, action.p, action.b
                return (
                    SWAPS.get((a, p, b)) == action
                    and p < self.game.players
                    and p != seat
                    and self.active[p]
                    and not self.faceup[seat * SLOTS + a]
                    and not self.faceup[p * SLOTS + b]
                )
            return action == (DISCARD if self.extra else NOSWAP)
        return False

    def _swaps(self, seat: int) -> list[Any]:
        faceup = self.faceup
        active = self.active
        mine = seat * SLOTS
        others = [
            p for p in range(seat + 1, seat + self.game.players) if active[p % self.game.players]
        ]
        out: list[Any] = []
        for a in range(SLOTS):
            if faceup[mine + a]:
                continue
            for q in others:
                p = q % self.game.players
                base = p * SLOTS
                for b in range(SLOTS):
                    if not faceup[base + b]:
                        out.append(SWAPS[a, p, b])
        return out

    def why_illegal(self, seat: int, action: Any) -> str:
        if self.phase == OVER:
            return "the game is over"
        if seat != self.turn:
            return super().why_illegal(seat, action)
        legal = self.legal_actions(seat)
        allowed = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
        if not isinstance(action, Act):
            return f"{action!r} is not a Rat-a-Tat Cat action; allowed now: {allowed}"
        reason = self._reason(seat, action)
        return f"{reason}; allowed now: {allowed}"

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
            self._shuffle(cards, "reshuffle")
            self.draw = draw = cards
            self._event("reshuffle", -1, len(cards))
        return draw.pop()

    def _apply(self, seat: int, action: Any, time: float | None) -> None:
        k = action[0]
        g = self.game
        t: float | None = None
        if g.minutes and self._recording and self._log is not None:
            entry = self._log[0]
            if entry[0] == "action" and entry[3] is not None:
                t = round(float(entry[3]), 4)
                if t > self.clock:
                    self.clock = t
        if k == K_DRAW:
            if self.phase == MUST_DRAW:
                self.extra -= 1
            card = self._pop_draw()
            if card < PEEK:
                self.held = card
                self.held_pub = False
                self.phase = HOLD
                self._event("draw", seat)
            else:
                self.discard.append(card)
                self._event("power", seat, card)
                if card == PEEK:
                    self.phase = PEEKING
                elif card == SWAP:
                    self.phase = SWAPPING
                else:
                    self.extra = 2
                    self.phase = MUST_DRAW
        elif k == K_TAKE:
            self.held = card = self.discard.pop()
            self.held_pub = True
            self.phase = TAKEN
            self._event("take", seat, card)
        elif k == K_REPLACE:
            idx = seat * SLOTS + action[1]
            held = self.held
            old = self.hands[idx]
            self.hands[idx] = held
            self.discard.append(old)
            known = self.known
            p4 = g.p4
            value = held if self.held_pub else -1
            for r in range(idx, g.rows * p4, p4):
                known[r] = value
            known[seat * p4 + idx] = held
            self.faceup[idx] = False
            self.held = -1
            self._event("replace", seat, action[1], old, held if self.held_pub else -1)
            self._end_turn(t)
        elif k == K_DISCARD:
            if self.phase == HOLD:
                self.discard.append(self.held)
                self._event("discard", seat, self.held)
                self.held = -1
            else:
                self._event("pass", seat, self.discard[-1])
            if self.extra:
                self.phase = MUST_DRAW
            else:
                self._end_turn(t)
        elif k == K_PEEK:
            idx = seat * SLOTS + action[1]
            self.known[seat * g.p4 + idx] = self.hands[idx]
            self._event("peek", seat, action[1])
            self._end_turn(t)
        elif k == K_SWAP:
            a, p, b = action[1], action[2], action[3]
            i1 = seat * SLOTS + a
            i2 = p * SLOTS + b
            hands = self.hands
            hands[i1], hands[i2] = hands[i2], hands[i1]
            known = self.known
            p4 = g.p4
            for base in range(0, g.rows * p4, p4):
                known[base + i1], known[base + i2] = known[base + i2], known[base + i1]
            if g.swap_look:
                known[seat * p4 + i1] = hands[i1]
                known[p * p4 + i2] = hands[i2]
            self._event("swap", seat, a, p, b)
            self._end_turn(t)
        elif k == K_NOSWAP:
            self._event("noswap", seat)
            self._end_turn(t)
        elif k == K_KNOCK:
            self.knocker = seat
            self._event("knock", seat)
            self._next_turn()
        else:  # K_END
            self._next_turn()

    def _end_turn(self, t: float | None) -> None:
        self.rturns += 1
        self.turns += 1
        if t is None:
            self.clock += SECONDS_PER_TURN
        self.extra = 0
        if self.knocker < 0:
            self.phase = KNOCKING
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        nxt = self._next_active(self.turn)
        if self.knocker >= 0 and nxt == self.knocker:
            self._end_round(capped=False)
        elif self.rturns >= self.game.turn_cap:
            self._event("cap", -1, self.rturns)
            self._end_round(capped=True)
        else:
            self.turn = nxt
            self.phase = START

    def _end_round(self, *, capped: bool) -> None:
        g = self.game
        p = g.players
        hands = self.hands
        for s in self._order() if max(hands) >= PEEK else ():
            for i in range(SLOTS):
                idx = s * SLOTS + i
                card = hands[idx]
                if card >= PEEK:
                    self.discard.append(card)
                    new = self._pop_draw()
                    while new >= PEEK:
                        self.discard.append(new)
                        new = self._pop_draw()
                    hands[idx] = new
                    self._event("fix", s, i, card, new)
        # Everyone sees every row now.
        p4 = g.p4
        self.known = hands * g.rows
        self.faceup = [True] * p4
        sums = [
            sum(hands[s * SLOTS : s * SLOTS + SLOTS]) if self.active[s] else 0 for s in range(p)
        ]
        seats = [s for s in range(p) if self.active[s]]
        low = min(sums[s] for s in seats)
        winners = [s for s in seats if sums[s] == low]
        if self.knocker >= 0:
            self.knocks += 1
            if sums[self.knocker] == low:
                self.knocker_won += 1
        if capped:
            self.cap_fired += 1
        self.score_sum += sum(sums[s] for s in seats)
        self.score_n += len(seats)
        self.totals = tuple(self.totals[s] + sums[s] for s in range(p))
        self.results = (
            *self.results,
            (
                self.rnd,
                self.dealer,
                tuple(hands),
                tuple(sums),
                tuple(winners),
                self.knocker,
                capped,
                self.totals,
                self.active,
            ),
        )
        self._event("round", -1, low)
        kind, n = g.mode_kind, g.mode_n
        over = False
        if kind == "round":
            over = True
        elif kind == "rounds":
            over = self.rnd >= n
        elif kind == "minutes":
            over = self.clock >= n * 60
        else:
            out = [s for s in seats if self.totals[s] >= n]
            if out:
                elim = list(self.elim)
                active = list(self.active)
                for s in out:
                    elim[s] = self.rnd
                    active[s] = False
                    self._event("out", s, self.totals[s])
                self.elim = tuple(elim)
                if sum(active) >= 1:
                    self.active = tuple(active)
                over = sum(active) <= 1
        if not over and self.rnd >= g.round_cap:
            over = True
            self.round_cap_fired = True
        self.held = -1
        if over:
            self.phase = OVER
            self.outcome_ = self._make_outcome(sums)
        else:
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
            "turns_this_round": self.rturns,
            "turns": self.turns,
            "in_round": [self.hands[s * SLOTS] >= 0 for s in range(p)],
            "out": [bool(self.elim[s]) for s in range(p)],
            "face_up": [self.faceup[s * SLOTS : s * SLOTS + SLOTS] for s in range(p)],
            "draw_pile": len(self.draw),
            "discard": [CARD_TEXT[c] for c in reversed(self.discard)],
            "discard_top": CARD_TEXT[self.discard[-1]] if self.discard else None,
            "totals": list(self.totals),
            "results": [result_json(r) for r in self.results],
            "events": self._event_list(60) if events else [],
            "over": self.phase == OVER,
            "outcome": self.outcome_.to_json() if self.outcome_ is not None else None,
        }

    def _event_list(self, limit: int) -> list[dict[str, JSON]]:
        out: list[dict[str, JSON]] = []
        node = self.evlog
        while node is not None and len(out) < limit:
            out.append(event_json(self.game, node[0]))
            node = node[1]
        out.reverse()
        return out

    def observation(self, seat: int, events: bool = True) -> dict[str, JSON]:
        view = self._public(events)
        view["seat"] = seat
        view["slots"] = self._rows(seat)
        view["yours"] = view["slots"][seat]
        if self.held >= 0:
            mine = self.turn == seat or self.held_pub
            view["held"] = CARD_TEXT[self.held] if mine else "hidden"
        else:
            view["held"] = None
        view["held_from"] = None if self.held < 0 else ("discard" if self.held_pub else "draw")
        return view

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

    def sample_consistent(self, seat: int, rng: Rng) -> RatState:
        g = self.game
        p4 = g.p4
        new = self.clone()
        known = new.known
        hands = new.hands
        base = seat * p4
        places = [i for i in range(p4) if hands[i] >= 0 and known[base + i] < 0]
        cards = [hands[i] for i in places]
        held_hidden = new.held >= 0 and not new.held_pub and new.turn != seat
        if held_hidden:
            cards.append(new.held)
        cards.extend(new.draw)
        cards.sort()
        rng.shuffle(cards)
        pos = 0
        for i in places:
            hands[i] = cards[pos]
            pos += 1
        if held_hidden:
            new.held = cards[pos]
            pos += 1
        new.draw = cards[pos:]
        for r in range(g.rows):
            off = r * p4
            for i in range(p4):
                if known[off + i] >= 0:
                    known[off + i] = hands[i]
        new._chance = Chance(rng.next64())
        return new

    def snapshot(self) -> dict[str, JSON]:
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
            "hands": [CARD_TEXT[c] if c >= 0 else None for c in self.hands],
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
            "results": [result_json(r) for r in self.results],
            "events": self._event_list(1 << 30),
            "outcome": self.outcome_.to_json() if self.outcome_ is not None else None,
        }

    def card_in(self, seat: int, slot: int) -> int:
        """The card in ``seat``'s ``slot`` (-1 for a slot a player out of the game left empty).

        This is the true card.  A bot may read it only on a state it drew itself from
        ``sample_consistent``, where it is the bot's own hypothesis, never on the real game."""
        return self.hands[seat * SLOTS + slot]

    def cards(self) -> list[int]:
        out = [c for c in self.hands if c >= 0]
        out.extend(self.draw)
        out.extend(self.discard)
        if self.held >= 0:
            out.append(self.held)
        return out

    def _initial_deal(self) -> dict[str, JSON]:
        return {k: [list(x) for x in v] if k == "hands" else list(v) for k, v in self.deal0.items()}


def result_json(r: tuple[Any, ...]) -> dict[str, JSON]:
    """One finished round as JSON: every row face up, the sums, winners and totals after it."""
    rnd, dealer, hands, sums, winners, knocker, capped, totals, active = r
    players = len(sums)
    return {
        "round": rnd,
        "dealer": dealer,
        "hands": [
            [CARD_TEXT[c] for c in hands[s * SLOTS : s * SLOTS + SLOTS]] if active[s] else None
            for s in range(players)
        ],
        "sums": [sums[s] if active[s] else None for s in range(players)],
        "winners": list(winners),
        "knocker": knocker if knocker >= 0 else None,
        "capped": capped,
        "totals": list(totals),
    }


def _a(card: int) -> str:
    return ("an " if card == 8 else "a ") + CARD_TEXT[card]


# --- events ---------------------------------------------------------------------------------------


def event_json(game: Game, ev: tuple[Any, ...]) -> dict[str, JSON]:
    """A public event as JSON, with a sentence describing it (seats named as in the game)."""
    n, rnd, kind, seat, a, b, c = ev
    name = game.seat_name(seat) if seat >= 0 else ""
    out: dict[str, JSON] = {"n": n, "round": rnd, "kind": kind, "seat": seat if seat >= 0 else None}
    if kind == "deal":
        out["first_discard"] = CARD_TEXT[a]
        text = f"Round {rnd}: {name} dealt; the discard pile starts with {CARD_TEXT[a]}"
    elif kind == "draw":
        text = f"{name} drew a card from the draw pile"
    elif kind == "power":
        out["card"] = CARD_TEXT[a]
        text = f"{name} drew {CARD_NAME[a]} and discarded it to use its power"
    elif kind == "take":
        out["card"] = CARD_TEXT[a]
        text = f"{name} took the {CARD_TEXT[a]} from the discard pile"
    elif kind == "replace":
        out["slot"] = a + 1
        out["discarded"] = CARD_TEXT[b]
        out["placed"] = CARD_TEXT[c] if c >= 0 else None
        placed = f"the {CARD_TEXT[c]}" if c >= 0 else "the card"
        text = f"{name} put {placed} in slot {a + 1} and discarded the {CARD_TEXT[b]} from there"
    elif kind == "discard":
        out["card"] = CARD_TEXT[a]
        text = f"{name} discarded the {CARD_TEXT[a]} drawn"
    elif kind == "pass":
        out["card"] = CARD_TEXT[a]
        text = f"{name} passed on the {CARD_NAME[a]} to draw again"
    elif kind == "peek":
        out["slot"] = a + 1
        text = f"{name} peeked at its slot {a + 1}"
    elif kind == "swap":
        out["slot"] = a + 1
        out["other"] = b
        out["other_slot"] = c + 1
        text = f"{name} swapped its slot {a + 1} with {game.seat_name(b)}'s slot {c + 1}"
    elif kind == "noswap":
        text = f"{name} chose not to swap"
    elif kind == "knock":
        text = f"{name} knocked: Rat-a-Tat Cat! Everyone else has one more turn"
    elif kind == "reshuffle":
        out["cards"] = a
        text = f"The discard pile was shuffled into a new draw pile of {a} cards"
    elif kind == "fix":
        out["slot"] = a + 1
        out["card"] = CARD_TEXT[b]
        out["replacement"] = CARD_TEXT[c]
        text = f"{name}'s {CARD_NAME[b]} in slot {a + 1} was replaced by {_a(c)}"
    elif kind == "cap":
        out["turns"] = a
        text = f"The round reached the turn cap ({a} turns) and ends"
    elif kind == "round":
        out["low"] = a
        text = f"Round {rnd} is over; the lowest sum is {a}"
    elif kind == "out":
        out["total"] = a
        text = f"{name} is out of the game with {a} points"
    else:  # pragma: no cover - every kind is listed above
        text = kind
    out["text"] = text
    return out
