# ratgames: compiled
"""Rat-a-Tat Cat: the rules (the game and the state: legality, transitions, scoring).

The cards and the table are in :mod:`.cards`, the actions and the phases of a turn in
:mod:`.action`, the options in :mod:`.options`, the deal in :mod:`.dealing`, what players see
(observations, samples, round results) in :mod:`.views`, snapshots in :mod:`.snapshot`, the
random play-out in :mod:`.playout` and the rule sheet in :mod:`.text`.

Each seat has a row of four slots (slot ``i`` of seat ``s`` is ``hands[s*4+i]``).  What each
seat knows is the flat table ``known`` (see :mod:`.views`); knowledge follows the cards through
public moves (swaps), and is forgotten when a card the row did not see replaces the one it
knew.  Every slot has an ``origin`` (:func:`.cards.kept_origin`), which samples keep.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ratgames.core.errors import IllegalAction, OptionError
from ratgames.core.events import Event
from ratgames.core.fields import (
    LIST,
    Cards,
    Field,
    Flag,
    Number,
    OneOf,
    Rows,
    Seat,
    StateFields,
    Whole,
)
from ratgames.core.game import JSON, Chance, Game, Outcome, State, logistic_shares
from ratgames.core.options import Option
from ratgames.core.rng import Rng

from . import action as actions
from . import copying, dealing, playout, snapshot, views
from .action import (
    DISCARD,
    DRAW,
    END,
    HOLD,
    K_DISCARD,
    K_DRAW,
    K_KNOCK,
    K_NOSWAP,
    K_PEEK,
    K_REPLACE,
    K_SWAP,
    K_TAKE,
    KNOCK,
    KNOCKING,
    MUST_DRAW,
    NOSWAP,
    OVER,
    PEEKING,
    PEEKS,
    PHASE_NAMES,
    REPLACE,
    START,
    SWAPPING,
    SWAPS,
    TAKE,
    TAKEN,
    Act,
)
from .cards import (
    CARD_TEXT,
    DECK,
    KINDS,
    MOST_PLAYERS,
    PEEK,
    POWER,
    SLOTS,
    SWAP,
    card_text,
    is_power,
    kept_origin,
    parse_card,
    place,
    seat_of,
)
from .dealing import RawDeal
from .events import (
    DISCARDED_ENTRY,
    DREW_ENTRY,
    KNOCKED_ENTRY,
    NOSWAP_ENTRY,
    PASSED_ENTRY,
    PEEKED_ENTRY,
    POWER_ENTRY,
    REPLACED_ENTRY,
    TOOK_ENTRY,
    Capped,
    Dealt,
    Fixed,
    Reshuffled,
    RoundOver,
    Swapped,
    WentOut,
)
from .options import OPTIONS, SECONDS_PER_TURN, mode_parts
from .text import RULES_TEXT
from .views import RoundResult

_START_ONLY_DRAW = (DRAW,)
_START_BOTH = (DRAW, TAKE)
_HOLD_ACTS = (*REPLACE, DISCARD)
_PEEK_AND_PASS = (*PEEKS, DISCARD)
_KNOCK_ACTS = (KNOCK, END)
_HOLD_SET = frozenset(_HOLD_ACTS)
_REPLACE_SET = frozenset(REPLACE)
_PEEK_SET = frozenset(PEEKS)
_KNOCK_SET = frozenset(_KNOCK_ACTS)

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
    max_players: ClassVar[int] = MOST_PLAYERS
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
        self.mode_kind, self.mode_n = mode_parts(o["mode"])
        self.swap_look: bool = o["swap_look"]
        self.younger: bool = o["younger"]
        self.shuffle_back: bool = o["first_discard"] == "shuffle_back"
        self.turn_cap: int = o["turn_cap"]
        self.round_cap: int = o["round_cap"]
        self.minutes = self.mode_kind == "minutes"
        self.p4 = self.players * SLOTS
        self.rows = self.players + 1
        # Where each seat's row of slots starts; every slot in turn order from each dealer's left.
        n = self.players
        self.row_start = tuple(place(s, 0) for s in range(n))
        self.turn_slots = tuple(
            tuple(self.row_start[s % n] + k for s in range(d + 1, d + 1 + n) for k in range(SLOTS))
            for d in range(n)
        )
        # The ids of the game's own action objects that are actions at this table.
        self.own_ids = actions.own_ids(self.players)
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
        return actions.parse(text, self.players)

    def canonical_action(self, act: object) -> Act | None:
        """The game's action equal to ``act`` (an :class:`Act` whose fields are all ``int``
        and name an action of this game), or None."""
        if id(act) in self.own_ids:  # one of the game's own objects (they live for ever)
            return act  # type: ignore[return-value]
        found = actions.canonical(act)
        if found is None or (found.kind == K_SWAP and found.p >= self.players):
            return None
        return found

    def not_an_action(self, act: object) -> str:
        """Why ``act`` (:meth:`canonical_action` gave None) is not an action of the game."""
        return actions.not_an_action(act, self.players)

    def action_space(self) -> list[Act]:
        """Every action this game can ever offer."""
        return actions.action_space(self.players)

    # --- states ---------------------------------------------------------------------------------

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> RatState:
        state = RatState.__new__(RatState)
        state._init_core(self, chance)
        state._init_game()
        if deal is None:
            order = list(DECK)
            chance.rng.shuffle(order)
            dealing.lay_out(state, order, recorded=False)
        else:
            hands, draw, discard, returned = dealing.read_deal(
                deal, self.players, self.shuffle_back
            )
            dealing.start_round(state, hands, draw, discard, returned)
        # The deal as it lies now; written in the deal format only if a record asks for it.
        kind, dealt = state._logged(1)[0]
        assert kind is Dealt
        state.deal0 = (state.hands[:], state.draw[:], state.discard[:], dealt[3])
        return state

    # --- the rules text ---------------------------------------------------------------------------

    def rules(self) -> str:
        return RULES_TEXT


# --- the state ------------------------------------------------------------------------------------


class RatState(State[Act, RatATatCat]):
    """One moment of a game of Rat-a-Tat Cat."""

    _observation_parts = views.OBSERVATION_PARTS

    __slots__ = (
        "_plan",
        "active",
        "cap_fired",
        "clock",
        "closer",
        "deal0",
        "dealer",
        "discard",
        "draw",
        "elim",
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

    _fields = StateFields(
        Field("rnd", snap=Whole(1, lambda game: game.round_cap), entry="round"),
        Field("dealer", snap=Seat()),
        Field("first", snap=Seat()),
        Field("turn", snap=Seat()),
        Field("phase", snap=OneOf(PHASE_NAMES)),
        Field("extra", snap=Whole(0, 2)),
        Field("knocker", snap=Seat(none=True)),
        Field("closer", snap=Seat(none=True)),
        Field("hands", LIST, snapshot.SLOT_CARDS),
        Field("origin", LIST, Rows(Whole(0), count=lambda game: game.p4, what="whole numbers")),
        Field("pool", snap=Whole(0)),
        Field("in_draw", snap=Cards(CARD_TEXT, as_tuple=True)),
        Field("draw", LIST, snapshot.CARDS),
        Field("discard", LIST, snapshot.CARDS),
        Field("held", snap=snapshot.CARD_OR_NONE),
        Field("held_pub", snap=Flag()),
        Field("faceup", LIST, Rows(Flag(), count=lambda game: game.p4, what="flags")),
        Field("active", snap=Rows(Flag(), as_tuple=True, what="flags, one per seat")),
        Field("elim", snap=Rows(Whole(0), as_tuple=True, what="rounds, one per seat")),
        Field("totals", snap=Rows(Whole(0), as_tuple=True, what="totals, one per seat")),
        Field("turns", snap=Whole(0)),
        Field("rturns", snap=Whole(0, lambda game: game.turn_cap + game.players)),
        Field("clock", snap=Number()),
        Field("knocks", snap=Whole(0)),
        Field("knocker_won", snap=Whole(0)),
        Field("cap_fired", snap=Whole(0)),
        Field("score_sum", snap=Whole(0)),
        Field("score_n", snap=Whole(0)),
        Field("round_cap_fired", snap=Flag()),
        Field("results", snap=snapshot.RESULTS),
        Field("known", LIST),
        Field("outcome_"),
        Field("deal0"),
        Field("_plan"),
        extra=snapshot.EXTRA,
    )
    """The state declared once: the core derives :meth:`clone`, :meth:`snapshot` (with
    :meth:`_snapshot_extra`: ``known`` as a row per seat, the public ``events`` and the
    ``outcome``) and the shape checks of a snapshot restored (then :meth:`_restored`).  Piles
    list their top card last.  ``outcome_`` follows from the rest, ``deal0`` is the deal (none
    in a sample) and ``_plan`` the sampling plan of the position (:func:`views.sample_plan`)."""

    rnd: int
    dealer: int
    first: int
    turn: int
    phase: int
    extra: int
    knocker: int
    closer: int
    hands: list[int]
    origin: list[int]
    pool: int
    in_draw: tuple[int, ...]
    draw: list[int]
    discard: list[int]
    held: int
    held_pub: bool
    faceup: list[bool]
    active: tuple[bool, ...]
    elim: tuple[int, ...]
    totals: tuple[int, ...]
    turns: int
    rturns: int
    clock: float
    knocks: int
    knocker_won: int
    cap_fired: int
    score_sum: int
    score_n: int
    round_cap_fired: bool
    results: tuple[RoundResult, ...]
    known: list[int]
    outcome_: Outcome | None
    deal0: RawDeal | dict[str, JSON]
    _plan: tuple[int, views.SamplePlan] | None

    # --- building -------------------------------------------------------------------------------

    def _init_game(self) -> None:
        g = self.game
        p = g.players
        # The sampling plan of this position for one seat (see views.sample_plan), until it changes.
        self._plan = None
        self.active = (True,) * p
        self.totals = (0,) * p
        self.elim = (0,) * p
        self.dealer = p - 1
        self.rnd = 0
        self.turns = 0
        self.clock = 0.0
        self.knocks = 0
        self.knocker_won = 0
        self.cap_fired = 0
        self.round_cap_fired = False
        self.score_sum = 0
        self.score_n = 0
        self.results = ()
        self.outcome_ = None
        # The deal: (hands, draw, discard, returned) as dealt, until a record asks for it in the
        # deal format (then that dict); {} in a sample.
        self.deal0 = {}

    def _next_active(self, seat: int) -> int:
        active = self.active
        p = self.game.players
        s = (seat + 1) % p
        while not active[s]:
            s = (s + 1) % p
        return s

    # --- the core contract ----------------------------------------------------------------------

    def seats_to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        return [self.turn]

    def clone(self) -> RatState:
        # Written out (copying.py) for the compiled build; held to _fields by the tests.
        c = RatState.__new__(RatState)
        self._copy_core_to(c)
        copying.copy_fields(self, c)
        return c

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

    def _swap_sides(self, seat: int) -> tuple[list[int], list[tuple[int, int]]]:
        """The rule of a Swap: which of ``seat``'s slots it may give (its face-down ones), and
        which slots ``(p, b)`` of the others it may take (the face-down slots of the seats still
        in the game, starting left of it).  With ``younger`` the outer cards lie face up."""
        faceup = self.faceup
        active = self.active
        players = self.game.players
        mine = [a for a in range(SLOTS) if not faceup[seat * SLOTS + a]]
        theirs: list[tuple[int, int]] = []
        for q in range(seat + 1, seat + players):
            p = q % players
            if active[p]:
                base = p * SLOTS
                theirs.extend([(p, b) for b in range(SLOTS) if not faceup[base + b]])
        return mine, theirs

    def _swaps(self, seat: int) -> list[Act]:
        """The swaps ``seat`` may make: its slots in order, each with the others' slots."""
        mine, theirs = self._swap_sides(seat)
        return [SWAPS[a, p, b] for a in mine for p, b in theirs]

    def _swap_refused(self, seat: int, a: int, p: int, b: int) -> str | None:
        """None if ``seat`` may swap its slot ``a`` with slot ``b`` of seat ``p`` (all from 0,
        :meth:`_swap_sides`), else why not."""
        mine, theirs = self._swap_sides(seat)
        if a in mine and (p, b) in theirs:
            return None
        if p == seat:
            return "a Swap exchanges one of your cards with another player's, not your own"
        if not self.active[p]:
            return f"seat {p + 1} is out of the game"
        if a not in mine:
            return f"your slot {a + 1} is face up: only face-down cards are swapped"
        return f"slot {b + 1} of seat {p + 1} is face up: only face-down cards are swapped"

    def _problem(self, seat: int, action: Act) -> str | None:
        if seat != self.turn:
            return self._not_to_act(seat)
        refused = self._refused(seat, action)
        if refused is None:
            return None
        legal = self._legal_actions(seat)
        allowed = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
        return f"{refused}; allowed now: {allowed}"

    def _refused(self, seat: int, action: Act) -> str | None:
        """Why ``seat``, whose turn it is, may not take ``action`` (one of the game's own
        objects) now, or None if it may: what each phase of a turn allows."""
        ph = self.phase
        k = action.kind
        if ph == START:
            if action is DRAW:
                return None
            if k == K_TAKE:
                if not self.discard:
                    return "the discard pile is empty"
                top = self.discard[-1]
                if not is_power(top):
                    return None
                return (
                    f"the discard top is {CARD_TEXT[top]}, a power card: power cards work only "
                    "when drawn from the draw pile, so it cannot be taken"
                )
            return f"{action} is not how a turn starts: draw from the draw pile or take the discard"
        if ph == HOLD:
            if action in _HOLD_SET:
                return None
            return (
                f"you hold the {CARD_TEXT[self.held]} you drew: put it in your row with "
                "replace N or throw it away with discard"
            )
        if ph == TAKEN:
            if action in _REPLACE_SET:
                return None
            return (
                f"the {CARD_TEXT[self.held]} taken from the discard pile must replace one of "
                "your cards"
            )
        if ph == MUST_DRAW:
            if action is DRAW:
                return None
            return "Draw 2: you must draw the next card from the draw pile"
        if ph == PEEKING:
            if action in _PEEK_SET or (self.extra and action is DISCARD):
                return None
            tail = " (or discard it and use your next Draw 2 chance)" if self.extra else ""
            return f"you drew a PEEK: look at one of your cards with peek N{tail}"
        if ph == SWAPPING:
            if k == K_SWAP:
                return self._swap_refused(seat, action.a, action.p, action.b)
            if action is (DISCARD if self.extra else NOSWAP):
                return None
            if k == K_NOSWAP:
                return "to pass on this SWAP and use your next Draw 2 chance, discard it"
            if k == K_DISCARD:
                return "the SWAP is already discarded: to pass on it, say noswap"
            return "you drew a SWAP: swap N P:M (your slot N with slot M of seat P) or noswap"
        if ph == KNOCKING:
            if action in _KNOCK_SET:
                return None
            return "your turn is done: knock to end the round after one more turn each, or end"
        return f"{action} is not allowed now"

    # --- play -----------------------------------------------------------------------------------

    def _pop_draw(self) -> int:
        draw = self.draw
        if not draw:
            discard = self.discard
            cards = discard[:-1]
            del discard[:-1]
            self._log_event(Reshuffled, (tuple(sorted(cards)),))
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
            self._log_entry(NOSWAP_ENTRY[seat])
            self._end_turn(timed)
        elif k == K_KNOCK:
            self.knocker = self.closer = seat
            self._log_entry(KNOCKED_ENTRY[seat])
            self._next_turn()
        else:  # K_END
            self._end(seat)

    def _random_playout(self, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
        """The play-out of :mod:`.playout` (faster), or the core's loop while a log is kept."""
        if self._recording:
            return super()._random_playout(rng, depth, stage, scoring_only)
        return playout.random_playout(self, rng, depth, stage, scoring_only)

    def _draw(self, seat: int) -> None:
        if self.phase == MUST_DRAW:
            self.extra -= 1
        card = self._pop_draw()
        if card < PEEK:
            self.held = card
            self.held_pub = False
            self.phase = HOLD
            self._log_entry(DREW_ENTRY[seat])
            return
        self.discard.append(card)
        self._log_entry(POWER_ENTRY[seat * KINDS + card])
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
        self._log_entry(TOOK_ENTRY[seat * KINDS + card])

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
        self.origin[idx] = kept_origin(self.pool)
        self.faceup[idx] = False
        self.held = -1
        at = ((seat * SLOTS + slot) * KINDS + old) * (KINDS + 1)
        self._log_entry(REPLACED_ENTRY[at + (value if value >= 0 else KINDS)])
        self._end_turn(timed)

    def _discard(self, seat: int, timed: bool) -> None:
        if self.phase == HOLD:
            self.discard.append(self.held)
            self._log_entry(DISCARDED_ENTRY[seat * KINDS + self.held])
            self.held = -1
        else:
            self._log_entry(PASSED_ENTRY[seat * KINDS + self.discard[-1]])
        if self.extra:
            self.phase = MUST_DRAW
        else:
            self._end_turn(timed)

    def _peek(self, seat: int, slot: int, timed: bool) -> None:
        idx = seat * SLOTS + slot
        self.known[seat * self.game.p4 + idx] = self.hands[idx]
        self._log_entry(PEEKED_ENTRY[seat * SLOTS + slot])
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
        self._log_event(Swapped, (seat, a + 1, p, b + 1))
        self._end_turn(timed)

    def _end(self, seat: int) -> None:
        if self.rturns >= self.game.turn_cap:
            # The turn cap counts as this player's knock: the others have their last turns.
            self.closer = seat
            self._log_event(Capped, (seat, self.rturns))
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
        hands = self.hands
        knocker = self.knocker
        capped = knocker < 0
        active = self.active
        if max(hands) >= PEEK:
            discard = self.discard
            # The active seats' power cards in turn order, starting left of the dealer.
            for idx in g.turn_slots[self.dealer]:
                card = hands[idx]
                if card in POWER and active[s := seat_of(idx)]:
                    discard.append(card)
                    new = self._pop_draw()
                    while new in POWER:
                        discard.append(new)
                        self._power_shown(new)
                        new = self._pop_draw()
                    hands[idx] = new
                    self._log_event(Fixed, (s, idx - g.row_start[s] + 1, card, new))
        sums = [sum(hands[b : b + SLOTS]) if active[s] else 0 for s, b in enumerate(g.row_start)]
        seats = [s for s in range(g.players) if active[s]]
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
        self._log_event(RoundOver, (self.rnd, low))
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
                    self._log_event(WentOut, (s, totals[s]))
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
        elif self._last_stage < 0 or len(self.results) == self._last_stage:
            self._new_round()  # unless only scored from here (State.only_scored_after)

    def _new_round(self) -> None:
        self.dealer = self._next_active(self.dealer)
        order = list(DECK)
        self._shuffle(order, "deal")
        dealing.lay_out(self, order, recorded=True)

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

    # --- what players see (views.py) -------------------------------------------------------------

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
        return views.observation(self, self._check_seat(seat), events)

    def spectator_view(self) -> dict[str, JSON]:
        return views.spectator_view(self)

    def public_events(self, limit: int | None = None) -> list[Event]:
        """The public events of the game, oldest first (only the latest ``limit`` if given)."""
        return views.public_events(self, limit)

    def sample_consistent(self, seat: object, rng: Rng) -> RatState:
        """A state ``seat`` cannot tell from this one (see :func:`views.sample_consistent`)."""
        return views.sample_consistent(self, self._check_seat(seat), rng)

    def _snapshot_extra(self) -> dict[str, JSON]:
        return snapshot.extra(self)

    def _restored(self, snap: Mapping[str, Any]) -> None:
        snapshot.restored(self, snap)

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
            self.deal0 = deal = dealing.deal_json(deal, self.game.players)
        return {k: [list(x) for x in v] if k == "hands" else list(v) for k, v in deal.items()}


RatATatCat.state_class = RatState
