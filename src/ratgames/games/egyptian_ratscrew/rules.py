"""Egyptian Ratscrew: blind play onto a shared pile, face-card challenges and slaps in real time.

Cards are the standard deck ints of :mod:`ratgames.cards` (jokers 52 and 53).  In a stack a card
carries the bit :data:`KNOWN` when everybody saw it face up (it came back with a won pile), so the
public knowledge of every stack is kept in the stack itself.

A stack is a list with its *bottom* first and its top card last (``pop()`` plays it).  The pile is
two lists: ``burned`` (face-down penalty cards under the pile, bottom first, with their ``KNOWN``
bits) and ``pile`` (the face-up cards in the order played).  A won pile goes to the bottom of the
winner's stack so that its cards come up again in the order they were played, burned cards first.

Real time: every slap names the pile version its player saw (``slap@17``).  The version grows by
one each time a card is played and each time the pile is taken.  A slap is judged against the
pile as it is when the slap arrives: valid if that pile is slappable; "too late" (no penalty) if
it is not but the pile the player saw was; a bad slap otherwise.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ratgames import cards as _cards
from ratgames.core.errors import IllegalAction, OptionError, RatgamesError
from ratgames.core.game import JSON, Action, Chance, Game, Outcome, State
from ratgames.core.options import Option
from ratgames.core.rng import Rng

KNOWN = 64
"""Bit set on a card in a stack (or under the pile) when its identity is public."""

_STRIP = bytes(i & 63 for i in range(256))
_SEP = b"\xff"

# Per card (0..53): rank for matching (jokers share rank 13), value for `tens` (face cards and
# jokers have none), and the chances a face card gives.
_FACE_CHANCES = {_cards.JACK: 1, _cards.QUEEN: 2, _cards.KING: 3, _cards.ACE: 4}
_RANK = (*(c >> 2 for c in range(52)), 13, 13)
_NO_VALUE = -100
_VALUE = (
    *(
        1 if r == _cards.ACE else (_NO_VALUE if r >= _cards.JACK else r + 2)
        for r in (c >> 2 for c in range(52))
    ),
    _NO_VALUE,
    _NO_VALUE,
)
_CHANCES = (*(_FACE_CHANCES.get(c >> 2, 0) for c in range(52)), 0, 0)
_TEXT = tuple(_cards.card_text(c) for c in range(54))
_SEEN_TEXT = tuple(_TEXT[c - KNOWN] if KNOWN <= c < KNOWN + 54 else None for c in range(128))
"""A stack entry's notation if its identity is public, else None."""

# Slap rules, by index.
DOUBLES, SANDWICH, TOP_BOTTOM, TENS, MARRIAGE, DIVORCE, RUN, JOKER = range(1, 9)
RULE_NAMES = (
    "",
    "doubles",
    "sandwich",
    "top_bottom",
    "tens",
    "marriage",
    "divorce",
    "run",
    "joker",
)

# Phases.
PLAY, COLLECT, FINAL, OVER = range(4)
PHASE_NAMES = ("play", "collect", "final", "over")

# Seat status.
IN, WAITING, OUT = range(3)
STATUS_NAMES = ("in", "waiting", "out")

EVENTS_SHOWN = 30
"""How many of the latest public events an observation carries."""


@dataclass(frozen=True, slots=True)
class Move:
    """``play`` (your top card onto the pile) or ``collect`` (take a won pile, or the table)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Slap:
    """A slap at the pile as its player saw it (``version``): ``slap@17``."""

    version: int

    def __str__(self) -> str:
        return f"slap@{self.version}"


PLAY_ACTION = Move("play")
COLLECT_ACTION = Move("collect")
_SLAPS: list[Slap] = [Slap(v) for v in range(4096)]


def slap(version: int) -> Slap:
    """The (interned where possible) slap at pile ``version``."""
    return _SLAPS[version] if 0 <= version < 4096 else Slap(version)


def _is_kq(a: int, b: int) -> bool:
    return (a == _cards.KING and b == _cards.QUEEN) or (a == _cards.QUEEN and b == _cards.KING)


def _is_run(ranks: list[int]) -> bool:
    if 13 in ranks:
        return False
    for low_ace in (False, True):
        rs = [-1 if (low_ace and r == _cards.ACE) else r for r in ranks]
        d = rs[1] - rs[0]
        if d in (1, -1) and all(rs[i + 1] - rs[i] == d for i in range(len(rs) - 1)):
            return True
    return False


def _bool(name: str, default: bool, text: str) -> Option:
    return Option(name, default, text)


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
    option_specs = (
        _bool("sandwich", True, "Two cards of a rank with one card between them can be slapped."),
        _bool("top_bottom", False, "The top card matching the bottom face-up card can be slapped."),
        _bool("tens", False, "Two consecutive cards adding up to 10 (ace = 1) can be slapped."),
        _bool("marriage", False, "A king and a queen next to each other can be slapped."),
        _bool("divorce", False, "A king and a queen with one card between can be slapped."),
        _bool("run", False, "Four cards in rank order, up or down, can be slapped."),
        _bool("joker", False, "A joker on top can be slapped (needs jokers in the deck)."),
        Option("jokers", 0, "Jokers added to the 52 cards.", minimum=0, maximum=2),
        Option(
            "burn",
            1,
            "Cards a bad slap costs (from the top of the slapper's stack).",
            minimum=0,
            maximum=3,
        ),
        _bool("slap_in", True, "A player without cards stays in and may slap back in."),
        Option(
            "newcomers",
            0,
            "Seats (the last ones) not dealt in, who may join by slapping in.",
            minimum=0,
            maximum=6,
        ),
        Option(
            "max_cards",
            100_000,
            "Safety cap: the game stops after this many cards played.",
            minimum=50,
            maximum=10_000_000,
        ),
    )
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
    )

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        o = self.options
        self.flags = (
            bool(o["sandwich"]),
            bool(o["top_bottom"]),
            bool(o["tens"]),
            bool(o["marriage"]),
            bool(o["divorce"]),
            bool(o["run"]),
            bool(o["joker"]),
        )
        self.burn: int = o["burn"]
        self.slap_in: bool = o["slap_in"]
        self.newcomers: int = o["newcomers"]
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

    # --- cards and actions ------------------------------------------------------------------------

    def deck(self) -> list[int]:
        return _cards.standard_deck(self.options["jokers"])

    def card_text(self, card: int) -> str:
        try:
            return _TEXT[card & 63]
        except (IndexError, TypeError):
            raise ValueError(f"no such card: {card!r}") from None

    def parse_card(self, text: str) -> int:
        """A card from its notation (``10H``, ``QS``, ``BJ``)."""
        card = _cards.parse_card(text)
        if card not in self.deck():
            raise IllegalAction(f"{text!r} is not in this game's deck")
        return card

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(f"an action is written as text, not {text!r}")
        t = text.strip().lower()
        if t == "play":
            return PLAY_ACTION
        if t == "collect":
            return COLLECT_ACTION
        if t.startswith("slap@"):
            digits = t[5:]
            if digits.isascii() and digits.isdigit() and len(digits) <= 9:
                return slap(int(digits))
        raise IllegalAction(
            f"{text[:40]!r} is not an action of {self.title}; write 'play', 'collect' or "
            "'slap@N' (N = the pile version you saw, as shown in your observation)"
        )

    # --- dealing ----------------------------------------------------------------------------------

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> State:
        n = self.players
        dealt = n - self.newcomers
        stacks: list[list[int]]
        if deal is None:
            deck = sorted(self.deck())
            chance.rng.shuffle(deck)
            stacks = [[] for _ in range(n)]
            for i, card in enumerate(deck):
                stacks[i % dealt].append(card)
        else:
            stacks = self._read_deal(deal)
        return RatscrewState(self, chance, stacks)

    def _read_deal(self, deal: Mapping[str, Any]) -> list[list[int]]:
        n = self.players
        if not isinstance(deal, Mapping) or set(deal) != {"stacks"}:
            raise RatgamesError(
                'a deal is {"stacks": [[cards of seat 1, top first], ...]} with one list per seat'
            )
        raw = deal["stacks"]
        if not isinstance(raw, list) or len(raw) != n or not all(isinstance(s, list) for s in raw):
            raise RatgamesError(f"the deal's 'stacks' must be a list of {n} lists of cards")
        stacks: list[list[int]] = []
        for seat, texts in enumerate(raw):
            try:
                top_first = [_cards.parse_card(t) for t in texts]
            except IllegalAction as exc:
                raise RatgamesError(f"the deal of {self.seat_name(seat)}: {exc}") from None
            stacks.append(top_first[::-1])
        every = sorted(c for s in stacks for c in s)
        if every != sorted(self.deck()):
            raise RatgamesError(
                f"the deal must hold every card of the {len(self.deck())}-card deck exactly once"
            )
        for seat in range(n - self.newcomers, n):
            if stacks[seat]:
                raise RatgamesError(
                    f"{self.seat_name(seat)} is a newcomer (option newcomers) and is dealt no cards"
                )
        if sum(1 for s in stacks if s) < 2:
            raise RatgamesError("the deal must give cards to at least 2 players")
        return stacks

    # --- the rules --------------------------------------------------------------------------------

    def rules(self) -> str:
        return RULES_TEXT


RULES_TEXT = """\
# Egyptian Ratscrew

Also called Egyptian Rat Screw.  2 to 8 players (more than 5 is hard going); the aim is to win
every card.

## Deal and play
The 52 cards (plus any jokers, option `jokers`, default 0) are shuffled and dealt one at a time,
starting at the dealer's left, into face-down stacks; some players may get one card more.  Nobody
looks at their stack.  Seat 1 (the dealer's left) starts: on your turn you turn the top card of
your stack face up onto the pile in the middle, without looking at it first (action `play`).
Then play passes to the left.  A player without cards is skipped.

## Challenges
A face card starts a challenge: the next player must answer with a face card within a number of
chances: 1 for a jack, 2 for a queen, 3 for a king, 4 for an ace.  Each chance is one card
played.  A face card played in answer passes the challenge on to the next player with the new
card's count.  When the chances run out without a face card, the player of the last face card
wins the pile: they take it (action `collect`) to the bottom of their stack in the order the
cards were played, and they play next.  A player who runs out of cards while answering leaves
the remaining chances to the next player who has cards; if that would be the challenger, the
challenger wins the pile.

## Slaps
Any player may slap the pile at any moment (action `slap@N`, where N is the version of the pile
the player saw; the version grows with every card played and every pile taken).  The first valid
slap takes the whole pile to the bottom of the slapper's stack, ends any challenge, and the
slapper plays next.  A valid slap beats the collection of a won challenge if it comes first.
The pile can be slapped when (the top card is the one played last):
- doubles: the top two cards are of the same rank (always on; two jokers also count);
- `sandwich` (default on): the top card and the third from the top are of the same rank;
- `top_bottom` (default off): the top card has the rank of the bottom face-up card of the pile
  (burned cards under the pile do not count);
- `tens` (default off): the top two cards add up to 10, an ace counting 1 (face cards and jokers
  count nothing);
- `marriage` (default off): a king and a queen are the top two cards, in either order;
- `divorce` (default off): a king and a queen are the top card and the third from the top;
- `run` (default off): the top four cards are in rank order, going up or down (an ace may be
  high, J-Q-K-A, or low, A-2-3-4; no wrapping round; jokers break a run);
- `joker` (default off, needs `jokers` of 1 or 2): a joker is on top.

A slap is judged when it arrives, against the pile as it is then:
- valid if that pile can be slapped (whatever version the player saw);
- too late, at no cost, if the pile cannot be slapped now but the pile the player saw could
  (somebody took it or covered it first);
- otherwise a bad slap: the slapper burns `burn` cards (default 1, 0 to 3): the top cards of
  their stack go face down under the pile, unseen (a card everybody already knew stays known).
  A bad slap when you have fewer cards burns what you have.
Each player slaps a given version of the pile at most once; a second slap at the same pile is
refused.  A player with no cards who has won a challenge (or whose face card is being answered)
waits for that pile and does not slap meanwhile.

## Running out, slapping in, newcomers
With `slap_in` (default on) a player who runs out of cards stays at the table: a valid slap
brings them back in with the pile, but a bad slap by a player without cards puts them out for
good.  With `slap_in` off, a player without cards is out (once they have no challenge pending).

Option `newcomers` (default 0): that many seats, the last ones, are not dealt in; they are
players who arrive later and may join by a valid slap, only while fewer than 5 players hold
cards.  A newcomer's bad slap keeps them out for good.  At least 2 players must be dealt in.

## The end
When one player holds all the cards that are not on the table (and no other player has a
challenge pending), that player wins and takes the table, unless the pile can be slapped and
someone else may still slap: then the holder must `collect` the table to win, and a valid slap
that comes first brings its slapper back in and play goes on.
Outcome points are the cards each player holds at the end.

Without slaps the game is deterministic from the deal, and it can go round in circles.  The
engine remembers the position (every stack and who plays next) each time a pile is taken; if a
position comes back and nobody has slapped since it was last seen, the players have let the game
go round once and it would repeat for ever: it ends as a cycle, won by the player(s) holding the
most cards.  As a last resort `max_cards` (default 100000) caps the cards played; a capped game
is also won by the most cards.

## Notation and deals
Actions: `play`, `collect`, `slap@N`.  Cards: `10H`, `QS`, `AC`, `BJ`/`RJ` for jokers.  An
explicit deal is `{"stacks": [[cards of seat 1, top first], [seat 2 ...], ...]}` holding every
card once (uneven stacks are allowed; newcomers get none; at least 2 players get cards).

## Knowledge
Stacks are face down and unknown even to their owner.  A pile that is taken goes to the bottom
of a stack face down in a known order, so everybody knows those cards until they come up again
(burned cards under the pile stay unknown unless they were known before).  Observations show
each stack's known cards, the face-up pile, the challenge in progress and the recent events.

## Figures reported
`length` (cards played), `piles_won` (challenges collected and valid slaps), `slaps` (valid),
`bad_slaps`, `too_late`, `cycle` (1 if the game ended as a cycle).
"""


class RatscrewState(State):
    """A game of Egyptian Ratscrew in progress."""

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
        "hist_shared",
        "history",
        "last_slap",
        "late",
        "n_events",
        "n_holders",
        "phase",
        "pile",
        "piles_won",
        "played",
        "pub_events",
        "rule",
        "slap_hist",
        "slaps",
        "stacks",
        "status",
        "turn",
        "version",
        "winner",
    )

    game: EgyptianRatscrew
    _PLAYER_CAP: ClassVar[int] = 5

    def __init__(self, game: EgyptianRatscrew, chance: Chance, stacks: list[list[int]]) -> None:
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
        self.history: dict[bytes, int] = {}
        self.hist_shared = False
        self.disrupt = 0
        self.played = 0
        self.piles_won = 0
        self.slaps = 0
        self.bad = 0
        self.late = 0
        self.pub_events: tuple[dict[str, JSON], ...] = ()
        """The latest public events, oldest first, in their JSON form."""
        self.n_events = 0
        self.end_reason = ""
        self.capped = False
        self.cycle = False
        self.winner = -1
        if not stacks[0]:
            self.turn = self._next_holder(0)
        if not game.slap_in:
            self._sweep_out()
        self._check_end()

    # --- copying ----------------------------------------------------------------------------------

    def clone(self) -> RatscrewState:
        c = RatscrewState.__new__(RatscrewState)
        self._copy_core_to(c)
        c.stacks = [s[:] for s in self.stacks]
        c.deal = self.deal
        c.pile = self.pile[:]
        c.burned = self.burned[:]
        c.version = self.version
        c.turn = self.turn
        c.phase = self.phase
        c.challenger = self.challenger
        c.chances = self.chances
        c.collector = self.collector
        c.status = self.status[:]
        c.last_slap = self.last_slap[:]
        c.n_holders = self.n_holders
        c.rule = self.rule
        c.slap_hist = self.slap_hist
        c.history = self.history
        c.hist_shared = self.hist_shared = True
        c.disrupt = self.disrupt
        c.played = self.played
        c.piles_won = self.piles_won
        c.slaps = self.slaps
        c.bad = self.bad
        c.late = self.late
        c.pub_events = self.pub_events
        c.n_events = self.n_events
        c.end_reason = self.end_reason
        c.capped = self.capped
        c.cycle = self.cycle
        c.winner = self.winner
        return c

    def sample_consistent(self, seat: int, rng: Rng) -> RatscrewState:
        """Everyone knows the same (all knowledge here is public): the unknown cards of every
        stack and under the pile are reshuffled among their places.  The memory of past
        positions (used to detect a cycle) is about cards nobody can see, so the sample starts
        it afresh."""
        s = self.clone()
        unknown = sorted(
            [c for st in s.stacks for c in st if not c & KNOWN]
            + [c for c in s.burned if not c & KNOWN]
        )
        rng.shuffle(unknown)
        it = iter(unknown)
        for st in s.stacks:
            for i, c in enumerate(st):
                if not c & KNOWN:
                    st[i] = next(it)
        for i, c in enumerate(s.burned):
            if not c & KNOWN:
                s.burned[i] = next(it)
        s.history = {}
        s.hist_shared = False
        s._chance = Chance(rng.next64())
        return s

    # --- queries ----------------------------------------------------------------------------------

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

    def may_slap(self, seat: int) -> bool:
        """True if ``seat`` is allowed to slap at all now (whatever the version)."""
        if self.phase == OVER:
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
        v = self.version
        last = self.last_slap
        stacks = self.stacks
        mover = self.turn if phase == PLAY else self.collector
        out = []
        for seat in range(self.game.players):
            # A seat holding cards is never out, so it may always slap (once per version).
            if seat == mover or (last[seat] < v and (stacks[seat] or self.may_slap(seat))):
                out.append(seat)
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == OVER:
            return []
        v = self.version
        can_slap = self.last_slap[seat] < v and (bool(self.stacks[seat]) or self.may_slap(seat))
        slap_action = (_SLAPS[v] if v < 4096 else Slap(v)) if can_slap else None
        if seat == (self.turn if phase == PLAY else self.collector):
            move = PLAY_ACTION if phase == PLAY else COLLECT_ACTION
            return [move, slap_action] if slap_action is not None else [move]
        return [slap_action] if slap_action is not None else []

    def is_legal(self, seat: int, action: Action) -> bool:
        """Accepts the listed actions and also a slap at an older pile version (judged when it
        is applied: valid, too late or bad)."""
        phase = self.phase
        if phase == OVER:
            return False
        if type(action) is Slap:
            v = action.version
            return self.last_slap[seat] < v <= self.version and self.may_slap(seat)
        if action is PLAY_ACTION or action == PLAY_ACTION:
            return phase == PLAY and seat == self.turn
        if action is COLLECT_ACTION or action == COLLECT_ACTION:
            return phase != PLAY and seat == self.collector
        return False

    def why_illegal(self, seat: int, action: Action) -> str:
        g = self.game
        name = g.seat_name(seat)
        if self.phase == OVER:
            return "the game is over"
        if type(action) is Slap:
            v = action.version
            if self.status[seat] == OUT:
                return f"{name} is out of the game and may not slap"
            if not self.may_slap(seat):
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
        if action == PLAY_ACTION:
            if self.phase == PLAY:
                return (
                    f"it is {g.seat_name(self.turn)}'s turn to play, not {name}'s; "
                    f"{name} may only slap (slap@{self.version})"
                )
            who = g.seat_name(self.collector)
            return f"nobody plays now: {who} is to collect the pile (or someone slaps)"
        if action == COLLECT_ACTION:
            if self.phase == PLAY:
                return "there is no won pile to collect; it is a turn to play"
            return f"only {g.seat_name(self.collector)} may collect the pile"
        return f"{action!r} is not an action of this game; use play, collect or slap@N"

    # --- slap rules -------------------------------------------------------------------------------

    def _compute_rule(self) -> int:
        p = self.pile
        n = len(p)
        if n == 0:
            return 0
        sandwich, top_bottom, tens, marriage, divorce, run, joker = self.game.flags
        top = p[-1]
        if joker and top >= 52:
            return JOKER
        if n < 2:
            return 0
        a = _RANK[top]
        b = _RANK[p[-2]]
        if a == b:
            return DOUBLES
        if n >= 3:
            c = _RANK[p[-3]]
            if sandwich and a == c:
                return SANDWICH
        if tens and _VALUE[top] + _VALUE[p[-2]] == 10:
            return TENS
        if marriage and _is_kq(a, b):
            return MARRIAGE
        if n >= 3:
            if divorce and _is_kq(a, _RANK[p[-3]]):
                return DIVORCE
            if top_bottom and _RANK[p[0]] == a:
                return TOP_BOTTOM
            if run and n >= 4 and _is_run([_RANK[x] for x in p[-4:]]):
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

    # --- applying ---------------------------------------------------------------------------------

    def _event(self, event: tuple[Any, ...]) -> None:
        """Add a public event (kept in its JSON form, numbered from 1)."""
        self.n_events += 1
        self.pub_events = (
            *self.pub_events[1 - EVENTS_SHOWN :],
            self._event_json(self.n_events, event),
        )

    def _apply(self, seat: int, action: Action, time: float | None) -> None:
        if type(action) is Slap:
            self._slap(seat, action.version)
        elif action == PLAY_ACTION:
            self._play(seat)
        else:
            self._collect(seat)

    def _play(self, seat: int) -> None:
        st = self.stacks[seat]
        card = st.pop() & 63
        pile = self.pile
        pile.append(card)
        self.version += 1
        self.played += 1
        self.n_events += 1
        self.pub_events = (
            *self.pub_events[1 - EVENTS_SHOWN :],
            {"n": self.n_events, "event": "play", "seat": seat, "card": _TEXT[card]},
        )
        if not st:
            self.n_holders -= 1
        chances = _CHANCES[card]
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
        rule = self._compute_rule()
        self.rule = rule
        if rule:
            self.slap_hist = (self.version, self.slap_hist)
        if self.played >= self.game.max_cards:
            self._finish_ranked(f"safety cap: {self.played} cards played", capped=True)
            return
        if not self.game.slap_in:
            self._sweep_out()
        if self.n_holders < 2 or self.turn == -1:
            self._check_end()

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
        segment = [c | KNOWN for c in reversed(self.pile)]
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
        return len(segment)

    def _collect(self, seat: int) -> None:
        if self.phase == FINAL:
            self._event(("claim", seat))
            self._finish(seat)
            return
        count = self._take_pile(seat)
        self._event(("collect", seat, count))
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
            self.disrupt += 1
            self._event(("slap", seat, "valid", rule, count))
            if status == WAITING:
                self.status[seat] = IN
                self._event(("join", seat))
            if self._remember_position():
                return
            self._check_end()
            return
        if version < self.version and self._was_slappable(version):
            self.late += 1
            self._event(("slap", seat, "late"))
            return
        self.bad += 1
        self.disrupt += 1
        st = self.stacks[seat]
        if not st:
            self._event(("slap", seat, "bad", 0))
            self.status[seat] = OUT
            self._event(("out", seat))
            self._check_end()
            return
        k = min(self.game.burn, len(st))
        if k:
            burned = st[-k:]
            del st[-k:]
            self.burned[:0] = burned
        self._event(("slap", seat, "bad", k))
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

    def _sweep_out(self) -> None:
        """Without ``slap_in``: a player without cards and with no pile pending is out."""
        status = self.status
        for seat, st in enumerate(self.stacks):
            if not st and status[seat] == IN and seat != self.challenger and seat != self.collector:
                status[seat] = OUT
                self._event(("out", seat))

    def _remember_position(self) -> bool:
        """After a pile is taken: end the game as a cycle if this position was seen before and
        nobody slapped since (from here the game would repeat for ever).  Returns True if the
        game ended."""
        key = bytes((self.turn,)) + _SEP.join(bytes(s).translate(_STRIP) for s in self.stacks)
        seen = self.history.get(key)
        if seen is not None and seen == self.disrupt:
            self.cycle = True
            self._finish_ranked("cycle: the same position came back with no slap in between")
            return True
        if self.hist_shared:
            self.history = dict(self.history)
            self.hist_shared = False
        self.history[key] = self.disrupt
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
                self.may_slap(s) and self.last_slap[s] < self.version
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
            st[:0] = [c | KNOWN for c in reversed(self.pile)] + self.burned[::-1]
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
        self._event(("win", winner))

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
        self._event(("end", "cap" if capped else "cycle"))

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
        return Outcome(
            winners=winners,
            points=tuple(sizes),
            places=Outcome.places_from(sizes, lower_is_better=False),
            reason=self.end_reason,
            capped=self.capped,
            details={
                "length": self.played,
                "piles_won": self.piles_won,
                "slaps": self.slaps,
                "bad_slaps": self.bad,
                "too_late": self.late,
                "cycle": 1 if self.cycle else 0,
            },
        )

    # --- views ------------------------------------------------------------------------------------

    def _event_json(self, index: int, event: tuple[Any, ...]) -> dict[str, JSON]:
        text = _TEXT.__getitem__
        kind = event[0]
        out: dict[str, JSON] = {"n": index, "event": kind}
        if kind == "end":
            out["why"] = event[1]
            return out
        out["seat"] = event[1]
        if kind == "play":
            out["card"] = text(event[2])
        elif kind == "collect":
            out["cards"] = event[2]
        elif kind == "slap":
            out["result"] = event[2]
            if event[2] == "valid":
                out["rule"] = RULE_NAMES[event[3]]
                out["cards"] = event[4]
            elif event[2] == "bad":
                out["burned"] = event[3]
        return out

    def recent_events(self) -> list[dict[str, JSON]]:
        """The latest public events (at most ``EVENTS_SHOWN``), oldest first, numbered from 1."""
        return [e.copy() for e in self.pub_events]

    def spectator_view(self) -> dict[str, JSON]:
        return self._table_view(True)

    def _table_view(self, events: bool) -> dict[str, JSON]:
        g = self.game
        text = _TEXT.__getitem__
        seen = _SEEN_TEXT
        stacks = []
        for seat, st in enumerate(self.stacks):
            stacks.append(
                {
                    "size": len(st),
                    "known": [seen[c] for c in reversed(st)],
                    "status": STATUS_NAMES[self.status[seat]],
                }
            )
        challenge: dict[str, JSON] | None = None
        if self.challenger >= 0:
            face = next((c for c in reversed(self.pile) if _CHANCES[c]), None)
            challenge = {
                "by": self.challenger,
                "card": text(face) if face is not None else None,
                "chances_left": self.chances if self.phase == PLAY else 0,
                "answering": self.turn if self.phase == PLAY else None,
            }
        return {
            "game": g.id,
            "players": g.players,
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn if self.phase == PLAY else None,
            "collector": self.collector if self.phase in (COLLECT, FINAL) else None,
            "challenge": challenge,
            "pile": [text(c) for c in self.pile],
            "pile_version": self.version,
            "burned": [seen[c] for c in self.burned],
            "slappable": RULE_NAMES[self.rule] if self.rule else None,
            "stacks": stacks,
            "cards_played": self.played,
            "piles_won": self.piles_won,
            "events": self.recent_events() if events else [],
            "result": self._result_json(),
        }

    def _result_json(self) -> dict[str, JSON] | None:
        if self.phase != OVER:
            return None
        out = self.outcome()
        assert out is not None
        return {"winners": list(out.winners), "reason": out.reason}

    def observation(self, seat: int, events: bool = True) -> dict[str, JSON]:
        view = self._table_view(events)
        view["seat"] = seat
        view["may_slap"] = (
            self.phase != OVER and self.last_slap[seat] < self.version and self.may_slap(seat)
        )
        view["last_slap"] = self.last_slap[seat]
        return view

    # --- bookkeeping ------------------------------------------------------------------------------

    def cards(self) -> list[int]:
        out = [c & 63 for st in self.stacks for c in st]
        out.extend(self.pile)
        out.extend(c & 63 for c in self.burned)
        return out

    def _initial_deal(self) -> dict[str, JSON]:
        text = self.game.card_text
        return {"stacks": [[text(c) for c in reversed(st)] for st in self.deal]}

    def snapshot(self) -> dict[str, JSON]:
        """Everything, as card ints (``+ 64`` marks a card whose identity is public), stacks and
        the pile bottom first."""
        digest = hashlib.blake2b(digest_size=12)
        for key in sorted(self.history):
            digest.update(key + b"=" + str(self.history[key]).encode() + b";")
        slappable_versions: list[int] = []
        node = self.slap_hist
        while node is not None and len(slappable_versions) < 64:
            slappable_versions.append(node[0])
            node = node[1]
        events = list(self.pub_events)
        return {
            "stacks": [st[:] for st in self.stacks],
            "pile": self.pile[:],
            "burned": self.burned[:],
            "version": self.version,
            "turn": self.turn,
            "phase": self.phase,
            "challenger": self.challenger,
            "chances": self.chances,
            "collector": self.collector,
            "status": self.status[:],
            "last_slap": self.last_slap[:],
            "slappable_versions": slappable_versions,
            "history": [len(self.history), digest.hexdigest()],
            "disrupt": self.disrupt,
            "counts": [self.played, self.piles_won, self.slaps, self.bad, self.late, self.n_events],
            "events": events,
            "end": [self.end_reason, self.capped, self.cycle, self.winner],
        }
