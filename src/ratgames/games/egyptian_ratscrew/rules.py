# ratgames: compiled
"""Egyptian Ratscrew: blind play onto a shared pile, face-card challenges and slaps in real time.

The game reads as its rule sheet, a file a part: the actions and their notation
(:mod:`.action`), the cards and what each means to the rules (:mod:`.cards`), the deal
(:mod:`.dealing`), the rules themselves here (who may act, each action's effect, the slap rules and
the end), what players see (:mod:`.views`), positions as JSON (:mod:`.snapshot`) and the rule
text (:mod:`.text`).

A stack is a list with its *bottom* first and its top card last (``pop()`` plays it); its
entries carry the flag :data:`~.cards.KNOWN` for cards everybody saw.  The pile is two lists:
``burned`` (face-down penalty cards under the pile, bottom first) and ``pile`` (the face-up cards
in the order played).  A won pile goes to the bottom of the winner's stack so that its cards
come up again in the order they were played, burned cards first.

Real time: every slap names the pile version its player saw (``slap@17``).  The version grows by
one each time a card is played and each time the pile is taken.  A slap is judged against the
pile as it is when the slap arrives: valid if that pile is slappable; "too late" (no penalty) if
it is not but the pile the player saw was; a bad slap otherwise.  Front ends name the pile a
player could have reacted to: the one on the table at least :data:`MIN_REACTION` seconds before
the slap (the terminal and the browser judge a key press so, the server judges an online press
so from when each pile reached that player's screen, and the bots never react faster).

With the option ``slaps`` off nobody slaps: the game is Beggar-my-neighbour, and its figures
(``cards`` and ``tricks``) follow the convention of the published longest-game records;
:func:`face_deal` builds a deal from the face-card notation those records use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ratgames import cards as _cards
from ratgames.core.errors import InvalidNotation, OptionError
from ratgames.core.events import Event
from ratgames.core.fields import (
    COPY,
    LIST,
    ROWS,
    Field,
    Flag,
    OneOf,
    Rows,
    Seat,
    StateFields,
    Whole,
)
from ratgames.core.game import JSON, Chance, Game, Outcome, State
from ratgames.core.rng import Rng

from . import copying, snapshot, views
from .action import (
    COLLECT_ACTION,
    MAX_VERSION,
    PLAY_ACTION,
    SLAPS,
    Move,
    RatscrewAction,
    Slap,
    canonical_action,
    not_an_action,
    parse_action,
    slap,
)
from .cards import (
    AS_CARDS,
    AS_FACES,
    CARD_BITS,
    CHANCES,
    KNOWN,
    MATCH_RANK,
    STACK_SEP,
    TENS_VALUE,
    TEXT,
    card_of,
    in_a_run,
    king_and_queen,
    known,
)
from .dealing import face_deal, read_deal, shuffled_deal
from .events import (
    BadSlap,
    Claimed,
    Collected,
    Ended,
    Joined,
    LateSlap,
    Out,
    Played,
    Slapped,
    Won,
)
from .phases import (
    COLLECT,
    DIVORCE,
    DOUBLES,
    FINAL,
    IN,
    JOKER,
    MARRIAGE,
    OUT,
    OVER,
    PHASE_NAMES,
    PLAY,
    RULE_NAMES,
    RUN,
    SANDWICH,
    STATUS_NAMES,
    TENS,
    TOP_BOTTOM,
    WAITING,
)
from .text import OPTIONS, RULES_TEXT

__all__ = ["MIN_REACTION", "EgyptianRatscrew", "RatscrewAction", "RatscrewState", "face_deal"]

MIN_REACTION = 0.1
"""The shortest time, in seconds, in which a player can react to a pile: a slap is judged
against the pile that was on the table at least this long before it (bots and people alike)."""

LOG_KEPT = 1024
"""The event log (the core's) is cut back to its latest :data:`EVENTS_SHOWN` events, all that
views and snapshots show, once it holds this many: memory stays bounded in a long game."""


class EgyptianRatscrew(Game):
    """Egyptian Ratscrew (Egyptian Rat Screw) for 2-8 players, played in real time."""

    id = "egyptian-ratscrew"
    title = "Egyptian Ratscrew"
    summary = "Play blind onto the pile, win it with face-card challenges or by slapping first."
    min_players = 2
    max_players = 8
    default_players = 2
    real_time = True
    points_label = "cards"
    length_unit = "cards played"
    option_specs = OPTIONS
    variants = (
        {},
        {
            "top_bottom": True,
            "tens": True,
            "marriage": True,
            "divorce": True,
            "run": True,
            "joker": True,
            "jokers": 2,
            "burn": 2,
        },
        {"sandwich": False, "slap_in": False, "burn": 3},
        {"slaps": False},
    )

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        o = self.options
        # Which of the optional slap rules are on (doubles always are).
        self.sandwich: bool = o["sandwich"]
        self.top_bottom: bool = o["top_bottom"]
        self.tens: bool = o["tens"]
        self.marriage: bool = o["marriage"]
        self.divorce: bool = o["divorce"]
        self.run: bool = o["run"]
        self.joker: bool = o["joker"]
        self.burn: int = o["burn"]
        self.slap_in: bool = o["slap_in"]
        self.newcomers: int = o["newcomers"]
        self.slaps: bool = o["slaps"]
        self.max_cards: int = o["max_cards"]

    def _validate_options(self) -> None:
        o = self.options
        if o["joker"] and o["jokers"] == 0:
            raise OptionError("option 'joker' needs jokers in the deck: also set jokers=1 or 2")
        if self.players - o["newcomers"] < 2:
            raise OptionError(
                f"option 'newcomers': {o['newcomers']} leaves fewer than 2 of the "
                f"{self.players} players dealt in; use at most {self.players - 2}"
            )
        if o["newcomers"] and not o["slaps"]:
            raise OptionError(
                "option 'newcomers' needs slaps (newcomers join by slapping in): "
                "with slaps=false use newcomers=0"
            )

    # --- cards and actions ------------------------------------------------------------------------

    def deck(self) -> list[int]:
        return _cards.standard_deck(self.options["jokers"])

    def card_text(self, card: int) -> str:
        """The notation of a card (a stack entry's ``KNOWN`` bit is ignored)."""
        if type(card) is int and 0 <= card < 2 * KNOWN and card_of(card) < 54:
            return TEXT[card_of(card)]
        raise ValueError(f"no such card: {card!r}")

    def parse_card(self, text: str) -> int:
        """A card from its notation (``10H``, ``QS``, ``BJ``)."""
        card = _cards.parse_card(text)
        if card not in self.deck():
            raise InvalidNotation(f"{text!r} is not in this game's deck")
        return card

    def parse_action(self, text: object) -> RatscrewAction:
        return parse_action(text, self.title)

    def canonical_action(self, action: object) -> RatscrewAction | None:
        return canonical_action(action)

    def not_an_action(self, action: object) -> str:
        return not_an_action(action, self.title)

    # --- dealing ----------------------------------------------------------------------------------

    def race_aim(self, action: object) -> int | None:
        return action.version if type(action) is Slap else None

    def aimed_at(self, action: object, version: int) -> Slap:
        return slap(version)

    def late_seats(self) -> tuple[int, ...]:
        """The newcomers' seats (option ``newcomers``, the last ones): not dealt in, they may
        be taken after the start and come in by slapping in."""
        return tuple(range(self.players - self.newcomers, self.players))

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> RatscrewState:
        stacks = shuffled_deal(self, chance.rng) if deal is None else read_deal(self, deal)
        state = RatscrewState.__new__(RatscrewState)
        state._start(self, chance, stacks)
        return state

    # --- the rules --------------------------------------------------------------------------------

    def rules(self) -> str:
        return RULES_TEXT


class RatscrewState(State[RatscrewAction, EgyptianRatscrew]):
    """A game of Egyptian Ratscrew in progress.

    Public events are kept as a chain of plain lists ``[previous, json, EventClass, *fields]``
    (``json`` None until an observation first asks for the event's JSON, then kept), the
    latest last, cut back to the latest :data:`EVENTS_SHOWN` once it holds twice as many; they
    become :mod:`events <ratgames.games.egyptian_ratscrew.events>` objects and JSON only when an
    observation asks for them.
    """

    __slots__ = (
        "bad",
        "burned",
        "capped",
        "challenger",
        "chances",
        "collector",
        "cycle",
        "deal",
        "disrupt",
        "end_reason",
        "ev_json",
        "history",
        "last_slap",
        "late",
        "log_from",
        "n_holders",
        "phase",
        "pile",
        "piles_won",
        "played",
        "rule",
        "slap_hist",
        "slaps",
        "stacks",
        "status",
        "turn",
        "version",
        "winner",
    )

    _fields = StateFields(
        Field("stacks", ROWS, Rows(snapshot.DeckCards(), what="stacks, one per seat")),
        Field("pile", LIST, snapshot.DeckCards()),
        Field("burned", LIST, snapshot.DeckCards()),
        Field("version", snap=Whole(0, MAX_VERSION - 1)),
        Field("turn", snap=Seat(none=True)),
        Field("phase", snap=OneOf(PHASE_NAMES)),
        Field("challenger", snap=Seat(none=True)),
        Field("chances", snap=Whole(0, 4)),
        Field("collector", snap=Seat(none=True)),
        Field("status", LIST, Rows(OneOf(STATUS_NAMES), what="seat statuses")),
        Field("last_slap", LIST, Rows(Whole(-1, MAX_VERSION - 1), what="pile versions")),
        Field("disrupt", snap=Whole(0, MAX_VERSION)),
        Field("played", snap=Whole(0, MAX_VERSION)),
        Field("piles_won", snap=Whole(0, MAX_VERSION)),
        Field("slaps", snap=Whole(0, MAX_VERSION)),
        Field("bad", snap=Whole(0, MAX_VERSION), entry="bad_slaps"),
        Field("late", snap=Whole(0, MAX_VERSION), entry="late_slaps"),
        Field("end_reason", snap=snapshot.Reason()),
        Field("capped", snap=Flag()),
        Field("cycle", snap=Flag()),
        Field("winner", snap=Seat(none=True)),
        Field("rule"),
        Field("n_holders"),
        Field("slap_hist"),
        Field("history", COPY),
        Field("deal"),
        Field("log_from"),
        Field("ev_json"),
        extra=snapshot.EXTRA,
    )
    """The state declared once: the core derives :meth:`clone`, :meth:`snapshot` (with
    :meth:`_snapshot_extra`) and the shape checks of a snapshot restored (then
    :meth:`_restored`).  ``rule`` (the slap rule the pile meets), ``n_holders`` (the seats
    holding cards) and ``slap_hist`` (the slappable pile versions, newest first) follow from the
    rest."""

    _PLAYER_CAP: ClassVar[int] = 5

    def _start(self, game: EgyptianRatscrew, chance: Chance, stacks: list[list[int]]) -> None:
        """Set up a new game dealt as ``stacks`` (a state has no ``__init__``: ``clone`` makes
        copies field by field)."""
        self._init_core(game, chance)
        n = game.players
        self.stacks = stacks
        self.deal: tuple[tuple[int, ...], ...] = tuple(tuple(s) for s in stacks)
        self.pile: list[int] = []
        self.burned: list[int] = []
        self.version = 0
        self.turn = 0
        self.phase = PLAY
        self.challenger = -1
        self.chances = 0
        self.collector = -1
        self.status = [IN] * n
        for seat in range(n - game.newcomers, n):
            self.status[seat] = WAITING
        self.last_slap = [-1] * n
        self.n_holders = sum(1 for s in stacks if s)
        self.rule = 0
        self.slap_hist: tuple[Any, ...] | None = None
        self.history: set[bytes] = set()
        self.disrupt = 0
        self.played = 0
        self.piles_won = 0
        self.slaps = 0
        self.bad = 0
        self.late = 0
        self.log_from = 0
        self.ev_json: tuple[Any, list[dict[str, JSON]]] | None = None
        self.end_reason = ""
        self.capped = False
        self.cycle = False
        self.winner = -1
        if not stacks[0]:
            self.turn = self._next_holder(0)
        if not game.slap_in or not game.slaps:
            self._sweep_out()
        self._check_end()

    # --- copying ---

    def sample_consistent(self, seat: object, rng: Rng) -> RatscrewState:
        """Everyone knows the same (all knowledge here is public): see :func:`views.sample`."""
        self._check_seat(seat)
        return views.sample(self, rng)

    def _forget_positions(self) -> None:
        """Forget the positions remembered for cycles (a sample's: they are about hidden
        cards)."""
        self.history = set()

    # --- queries ----------------------------------------------------------------------------------

    def race_version(self) -> int | None:
        return self.version

    def race_open(self) -> bool:
        return self.rule != 0

    def clone(self) -> RatscrewState:
        # Written out (copying.py) for the compiled build; held to _fields by the tests.
        c = RatscrewState.__new__(RatscrewState)
        self._copy_core_to(c)
        copying.copy_fields(self, c)
        return c

    def is_over(self) -> bool:
        return self.phase == OVER

    def _next_holder(self, seat: int) -> int:
        n = self.game.players
        stacks = self.stacks
        for i in range(1, n + 1):
            t = (seat + i) % n
            if stacks[t]:
                return t
        return -1

    def may_slap(self, seat: object) -> bool:
        """True if ``seat`` is allowed to slap at all now (whatever the version)."""
        seat = self._check_seat(seat)
        return self._may_slap(seat)

    def _may_slap(self, seat: int) -> bool:
        if self.phase == OVER or not self.game.slaps:
            return False
        status = self.status[seat]
        if status == OUT:
            return False
        if self.stacks[seat]:
            return True
        if status == WAITING:
            return self.n_holders < self._PLAYER_CAP
        if not self.game.slap_in:
            return False
        return seat != self.collector and seat != self.challenger

    def seats_to_act(self) -> list[int]:
        phase = self.phase
        if phase == OVER:
            return []
        mover = self.turn if phase == PLAY else self.collector
        if not self.game.slaps:
            return [mover]
        v = self.version
        last = self.last_slap
        stacks = self.stacks
        out = []
        for seat in range(self.game.players):
            # A seat holding cards is never out, so it may always slap (once per version).
            if seat == mover or (last[seat] < v and (stacks[seat] or self._may_slap(seat))):
                out.append(seat)
        return out

    def _legal_actions(self, seat: int) -> list[RatscrewAction]:
        """The move of the seat to play or collect, and a slap at the current pile version for
        every seat that may slap it.  (A slap at an older version the seat has not slapped yet
        is accepted too, see :meth:`_problem`, but not listed.)"""
        phase = self.phase
        if phase == OVER:
            return []
        v = self.version
        can_slap = self.last_slap[seat] < v and (bool(self.stacks[seat]) or self._may_slap(seat))
        slap_action = None
        if can_slap and self.game.slaps:
            slap_action = SLAPS[v] if v < 4096 else Slap(v)
        if seat == (self.turn if phase == PLAY else self.collector):
            move = PLAY_ACTION if phase == PLAY else COLLECT_ACTION
            return [move, slap_action] if slap_action is not None else [move]
        return [slap_action] if slap_action is not None else []

    def _legal(self, seat: int, action: object) -> bool:
        kind = type(action)
        if kind is Slap:
            v = action.version  # type: ignore[attr-defined]
            return (
                type(v) is int and self.last_slap[seat] < v <= self.version and self._may_slap(seat)
            )
        if kind is Move:
            name = action.name  # type: ignore[attr-defined]
            if type(name) is not str:
                return False
            if name == "play":
                return self.phase == PLAY and seat == self.turn
            if name == "collect":
                return self.phase != PLAY and seat == self.collector
        return False

    def _problem(self, seat: int, action: RatscrewAction) -> str | None:
        """None for the listed actions and also for a slap at an older pile version the seat
        has not slapped yet (judged when it is applied: valid, too late or bad), else why not."""
        if self._legal(seat, action):
            return None
        g = self.game
        name = g.seat_name(seat)
        if type(action) is Slap:
            v = action.version
            if not g.slaps:
                return "nobody slaps in this game (option slaps is false: Beggar-my-neighbour)"
            if self.status[seat] == OUT:
                return f"{name} is out of the game and may not slap"
            if not self._may_slap(seat):
                if self.status[seat] == WAITING:
                    return (
                        f"{name} may join only while fewer than {self._PLAYER_CAP} players "
                        "hold cards"
                    )
                if not g.slap_in:
                    return f"{name} has no cards and slapping in is off (option slap_in)"
                return f"{name} has no cards and waits to take the pile they won; no slapping"
            if v > self.version:
                return (
                    f"there is no pile version {v} yet; the pile is at version "
                    f"{self.version} (slap@{self.version})"
                )
            return (
                f"{name} already slapped pile version {self.last_slap[seat]}; a new slap "
                f"must name a later version (now slap@{self.version})"
            )
        assert isinstance(action, Move)
        if action.name == "play":
            if self.phase == PLAY:
                may = f"slap (slap@{self.version})" if g.slaps else "wait"
                turn = g.seat_name(self.turn)
                return f"it is {turn}'s turn to play, not {name}'s; {name} may only {may}"
            who = g.seat_name(self.collector)
            return f"nobody plays now: {who} is to collect the pile (or someone slaps)"
        if self.phase == PLAY:
            return "there is no won pile to collect; it is a turn to play"
        return f"only {g.seat_name(self.collector)} may collect the pile"

    # --- slap rules -------------------------------------------------------------------------------

    def _compute_rule(self) -> int:
        """The slap rule the pile meets now (0 if none; the first in the order below)."""
        p = self.pile
        n = len(p)
        if n == 0:
            return 0
        g = self.game
        top = p[-1]
        if g.joker and top >= 52:
            return JOKER
        if n < 2:
            return 0
        a = MATCH_RANK[top]
        b = MATCH_RANK[p[-2]]
        if a == b:
            return DOUBLES
        if n >= 3:
            c = MATCH_RANK[p[-3]]
            if g.sandwich and a == c:
                return SANDWICH
        if g.tens and TENS_VALUE[top] + TENS_VALUE[p[-2]] == 10:
            return TENS
        if g.marriage and king_and_queen(a, b):
            return MARRIAGE
        if n >= 3:
            if g.divorce and king_and_queen(a, MATCH_RANK[p[-3]]):
                return DIVORCE
            if g.top_bottom and MATCH_RANK[p[0]] == a:
                return TOP_BOTTOM
            if g.run and n >= 4 and in_a_run([MATCH_RANK[x] for x in p[-4:]]):
                return RUN
        return 0

    def _was_slappable(self, version: int) -> bool:
        node = self.slap_hist
        while node is not None:
            v = node[0]
            if v == version:
                return True
            if v < version:
                return False
            node = node[1]
        return False

    # --- events -----------------------------------------------------------------------------------

    def _event(self, kind: type[Event], *fields: Any) -> None:
        """Log a public event: its class and its fields (the core's log)."""
        self._log_event(kind, fields)

    def _trim_log(self) -> None:
        """Cut the core's event log back to its latest :data:`EVENTS_SHOWN` events (all that
        views and snapshots show); copies keep the log they share."""
        kept = views.recent(self)
        chain: tuple[Any, ...] | None = None
        for item in kept:
            chain = (item, chain)
        self._event_log = chain
        self.log_from = self._event_count - len(kept)

    def recent_events(self) -> list[Event]:
        """The latest public events (at most ``EVENTS_SHOWN``), oldest first."""
        return [kind(*fields) for kind, fields in views.recent(self)]

    # --- applying ---------------------------------------------------------------------------------

    def _apply(self, seat: int, action: RatscrewAction, time: float | None) -> None:
        if type(action) is Slap:
            self._slap(seat, action.version)
        elif action is PLAY_ACTION or action.name == "play":  # type: ignore[union-attr]
            self._play(seat)
        else:
            self._collect(seat)

    def _play(self, seat: int) -> None:
        st = self.stacks[seat]
        card = st.pop() & CARD_BITS  # card_of(), written out
        self.pile.append(card)
        self.version += 1
        self.played += 1
        self._log_event(Played, (seat, card))
        if not st:
            self.n_holders -= 1
        chances = CHANCES[card]
        if chances:
            self.challenger = seat
            self.chances = chances
            nxt = self._next_holder(seat)
            if nxt == -1 or nxt == seat:
                self._won_challenge()
            else:
                self.turn = nxt
        elif self.challenger >= 0:
            self.chances -= 1
            if self.chances == 0:
                self._won_challenge()
            elif not st:
                nxt = self._next_holder(seat)
                if nxt == -1 or nxt == self.challenger:
                    self._won_challenge()
                else:
                    self.turn = nxt
        else:
            self.turn = self._next_holder(seat)
        game = self.game
        if not game.slaps:
            self._after_play_without_slaps(seat)
            return
        rule = self._compute_rule()
        self.rule = rule
        if rule:
            self.slap_hist = (self.version, self.slap_hist)
        if self.played >= game.max_cards:
            self._finish_ranked(f"safety cap: {self.played} cards played", capped=True)
            return
        if not game.slap_in:
            self._sweep_out()
        if self.n_holders < 2 or self.turn == -1:
            self._check_end()

    def _after_play_without_slaps(self, seat: int) -> None:
        """Beggar-my-neighbour: end the game the way the published records count it."""
        if self.phase == COLLECT:
            # A won pile that leaves every other player without cards is the last trick.
            winner = self.collector
            if self.n_holders == (1 if self.stacks[winner] else 0):
                self._last_trick(winner)
                return
        elif self.challenger < 0 and (self.turn == seat or self.turn == -1):
            # Nobody else has a card to play next: the player of the last card takes the pile.
            self._last_trick(seat)
            return
        if self.played >= self.game.max_cards:
            self._finish_ranked(f"safety cap: {self.played} cards played", capped=True)
            return
        self._sweep_out()

    def _last_trick(self, winner: int) -> None:
        """Without slaps: ``winner`` takes the pile as the last trick and wins the game."""
        self.piles_won += 1
        self._event(Collected, winner, len(self.pile) + len(self.burned))
        self._finish(winner)

    def _won_challenge(self) -> None:
        self.phase = COLLECT
        self.collector = self.challenger
        self.turn = -1

    def _take_pile(self, seat: int) -> int:
        """Move the pile (burned cards first, then the face-up cards in the order played) to the
        bottom of ``seat``'s stack; return how many cards it held."""
        st = self.stacks[seat]
        if not st:
            self.n_holders += 1
        segment = [c | KNOWN for c in reversed(self.pile)]  # known(c), written out
        segment.extend(reversed(self.burned))
        st[:0] = segment
        self.pile = []
        self.burned = []
        self.version += 1
        self.rule = 0
        self.piles_won += 1
        self.phase = PLAY
        self.turn = seat
        self.challenger = -1
        self.chances = 0
        self.collector = -1
        if self._event_count - self.log_from >= LOG_KEPT:
            self._trim_log()
        return len(segment)

    def _collect(self, seat: int) -> None:
        if self.phase == FINAL:
            self._event(Claimed, seat)
            self._finish(seat)
            return
        count = self._take_pile(seat)
        self._event(Collected, seat, count)
        if self._remember_position():
            return
        self._check_end()

    def _slap(self, seat: int, version: int) -> None:
        self.last_slap[seat] = version
        if self.rule:
            status = self.status[seat]
            rule = self.rule
            count = self._take_pile(seat)
            self.slaps += 1
            self._disrupt()
            self._event(Slapped, seat, RULE_NAMES[rule], count)
            if status == WAITING:
                self.status[seat] = IN
                self._event(Joined, seat)
            if self._remember_position():
                return
            self._check_end()
            return
        if version < self.version and self._was_slappable(version):
            self.late += 1
            self._event(LateSlap, seat)
            return
        self.bad += 1
        self._disrupt()
        st = self.stacks[seat]
        if not st:
            self._event(BadSlap, seat, 0)
            self.status[seat] = OUT
            self._event(Out, seat)
            self._check_end()
            return
        k = min(self.game.burn, len(st))
        if k:
            burned = st[-k:]
            del st[-k:]
            self.burned[:0] = burned
        self._event(BadSlap, seat, k)
        if not st:
            self.n_holders -= 1
            if self.phase == PLAY and seat == self.turn:
                nxt = self._next_holder(seat)
                if self.challenger >= 0 and (nxt == -1 or nxt == self.challenger):
                    self._won_challenge()
                else:
                    self.turn = nxt
            if not self.game.slap_in:
                self._sweep_out()
        self._check_end()

    def _disrupt(self) -> None:
        """A slap, valid or bad: no position seen before it can come back as a cycle."""
        self.disrupt += 1
        self.history = set()

    def _sweep_out(self) -> None:
        """Without ``slap_in`` (or without slaps): a player without cards and with no pile
        pending is out."""
        status = self.status
        for seat, st in enumerate(self.stacks):
            if not st and status[seat] == IN and seat != self.challenger and seat != self.collector:
                status[seat] = OUT
                self._event(Out, seat)

    def _remember_position(self) -> bool:
        """After a pile is taken: end the game as a cycle if this position was seen before and
        nobody slapped since (from here the game would repeat for ever).  Without slaps a
        position is the face cards' places (number cards are alike).  Returns True if the game
        ended."""
        # Without slaps only the face cards decide how play goes on, so a position is the same
        # as soon as the face cards are back in their places (number cards may differ).
        table = AS_CARDS if self.game.slaps else AS_FACES
        key = bytes((self.turn,)) + STACK_SEP.join([bytes(s).translate(table) for s in self.stacks])
        if key in self.history:
            self.cycle = True
            self._finish_ranked("cycle: the same position came back with no slap in between")
            return True
        self.history.add(key)
        return False

    def _check_end(self) -> None:
        """End the game (or open the final window) once one player holds every card off the
        table and nobody else has a pile pending."""
        if self.n_holders >= 2 or self.phase == OVER:
            return
        holder = self._next_holder(self.game.players - 1)
        claim = self.collector if self.phase != PLAY else self.challenger
        if claim >= 0 and claim != holder:
            if self.phase == PLAY and (self.turn == -1 or not self.stacks[self.turn]):
                self._won_challenge()
            return
        if holder == -1:
            # Nobody holds cards and nobody has a claim: cannot happen by the rules above,
            # but never leave the game without an end.
            holder = claim if claim >= 0 else 0
        if (
            self.pile
            and self.rule
            and any(
                self._may_slap(s) and self.last_slap[s] < self.version
                for s in range(self.game.players)
                if s != holder
            )
        ):
            self.phase = FINAL
            self.collector = holder
            self.turn = -1
            self.challenger = -1
            return
        self._finish(holder)

    def _finish(self, winner: int) -> None:
        st = self.stacks[winner]
        if self.pile or self.burned:
            st[:0] = [known(c) for c in reversed(self.pile)] + self.burned[::-1]
            self.pile = []
            self.burned = []
            self.version += 1
        self.n_holders = 1
        self.winner = winner
        self.phase = OVER
        self.turn = -1
        self.collector = -1
        self.challenger = -1
        self.rule = 0
        self.end_reason = "the last player with cards"
        self._event(Won, winner)

    def _finish_ranked(self, reason: str, capped: bool = False) -> None:
        self.phase = OVER
        self.turn = -1
        self.collector = -1
        self.challenger = -1
        self.capped = capped
        self.end_reason = reason
        sizes = [len(s) for s in self.stacks]
        best = max(sizes)
        self.winner = sizes.index(best)
        self._event(Ended, "cap" if capped else "cycle")

    # --- outcome ----------------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        sizes = [float(len(s)) for s in self.stacks]
        if self.capped or self.cycle:
            best = max(sizes)
            winners = tuple(s for s, v in enumerate(sizes) if v == best)
        else:
            winners = (self.winner,)
        details: dict[str, int] = {
            "length": self.played,
            "piles_won": self.piles_won,
            "slaps": self.slaps,
            "bad_slaps": self.bad,
            "too_late": self.late,
            "cycle": 1 if self.cycle else 0,
        }
        if not self.game.slaps:
            details["cards"] = self.played
            details["tricks"] = self.piles_won
        return Outcome(
            winners=winners,
            points=tuple(sizes),
            places=Outcome.places_from(sizes, lower_is_better=False),
            reason=self.end_reason,
            capped=self.capped,
            details=details,
        )

    # --- views ------------------------------------------------------------------------------------

    def spectator_view(self) -> dict[str, JSON]:
        return views.table_view(self, True)

    def observation(self, seat: object, events: bool = True) -> dict[str, JSON]:
        """The table as everybody sees it (``event_count`` counts every public event so far;
        ``events`` holds the latest of them), with what this seat may do about slapping."""
        return views.observation(self, self._check_seat(seat), events)

    def _snapshot_extra(self) -> dict[str, JSON]:
        return snapshot.extra_entries(self)

    def _restored(self, snap: Mapping[str, Any]) -> None:
        snapshot.restored(self, snap)

    # --- bookkeeping ------------------------------------------------------------------------------

    def cards(self) -> list[int]:
        out = [card_of(c) for st in self.stacks for c in st]
        out.extend(self.pile)
        out.extend(card_of(c) for c in self.burned)
        return out

    def _initial_deal(self) -> dict[str, JSON]:
        return {"stacks": [[TEXT[c] for c in reversed(st)] for st in self.deal]}


EgyptianRatscrew.state_class = RatscrewState
