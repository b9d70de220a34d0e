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
it is not but the pile the player saw was; a bad slap otherwise.  Front ends name the pile a
player could have reacted to: the one on the table at least :data:`MIN_REACTION` seconds before
the slap (the terminal and the browser judge a key press so, the server judges an online press
so from when each pile reached that player's screen, and the bots never react faster).

With the option ``slaps`` off nobody slaps: the game is Beggar-my-neighbour, and its figures
(``cards`` and ``tricks``) follow the convention of the published longest-game records;
:func:`face_deal` builds a deal from the face-card notation those records use.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ratgames import cards as _cards
from ratgames.core import snapshots
from ratgames.core._mypyc import mypyc_attr
from ratgames.core.errors import (
    DealError,
    IllegalAction,
    InvalidNotation,
    OptionError,
    SnapshotError,
)
from ratgames.core.events import Event, event_json
from ratgames.core.game import JSON, Chance, Game, Outcome, State
from ratgames.core.options import Option
from ratgames.core.rng import Rng
from ratgames.core.snapshots import flag as _flag
from ratgames.core.snapshots import items as _list
from ratgames.core.snapshots import short as _short
from ratgames.core.snapshots import whole as _whole

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

KNOWN = 64
"""Bit set on a card in a stack (or under the pile) when its identity is public."""

MIN_REACTION = 0.1
"""The shortest time, in seconds, in which a player can react to a pile: a slap is judged
against the pile that was on the table at least this long before it (bots and people alike)."""

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
_FACES = bytes(_CHANCES[i & 63] if i & 63 < 54 else 0 for i in range(256))
"""A stack entry's chances (0 for a number card): without slaps nothing else matters."""
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

_EVENTS_KEPT = 2 * EVENTS_SHOWN
"""The state's chain of events is cut back to the latest ones when it grows this long."""

_MAX_VERSION = 10**18
"""Slap versions are below this (``slap@`` takes at most 18 digits)."""


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
@dataclass(frozen=True, slots=True)
class Move:
    """``play`` (your top card onto the pile) or ``collect`` (take a won pile, or the table)."""

    name: str

    def __str__(self) -> str:
        return self.name


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
@dataclass(frozen=True, slots=True)
class Slap:
    """A slap at the pile as its player saw it (``version``): ``slap@17``."""

    version: int

    def __str__(self) -> str:
        return f"slap@{self.version}"


RatscrewAction = Move | Slap
"""An action of the game."""

PLAY_ACTION = Move("play")
COLLECT_ACTION = Move("collect")
_SLAPS: list[Slap] = [Slap(v) for v in range(4096)]


def slap(version: int) -> Slap:
    """The (interned where possible) slap at pile ``version``."""
    return _SLAPS[version] if 0 <= version < 4096 else Slap(version)


def _well_formed(action: object) -> bool:
    """True for an action of this game built with fields of the right types and ranges (a
    ``Move`` named play or collect, a ``Slap`` at a whole-number version from 0)."""
    kind = type(action)
    if kind is Slap:
        v = action.version  # type: ignore[attr-defined]
        return type(v) is int and 0 <= v < _MAX_VERSION
    if kind is Move:
        name = action.name  # type: ignore[attr-defined]
        return type(name) is str and name in ("play", "collect")
    return False


class SlapRules(NamedTuple):
    """Which of the optional slap rules are on (doubles always are)."""

    sandwich: bool
    top_bottom: bool
    tens: bool
    marriage: bool
    divorce: bool
    run: bool
    joker: bool


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


_FACE_LETTERS = {"J": _cards.JACK, "Q": _cards.QUEEN, "K": _cards.KING, "A": _cards.ACE}


def face_deal(*hands: object, jokers: object = 0) -> dict[str, JSON]:
    """A deal (for ``new_state(deal=...)``) from the face-card notation of Beggar-my-neighbour
    records: one string per seat, its top card first, ``J``/``Q``/``K``/``A`` for a face card
    and ``-`` for any other card (spaces are ignored).  The number cards (and any jokers) fill
    the ``-`` places in deck order (2C, 2D, 2H, 2S, 3C, ...), the face cards theirs suit by
    suit: without slaps only the face cards matter.  An empty string is a seat dealt no cards.

    >>> deal = face_deal("K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--")
    >>> deal["stacks"][0][:4], deal["stacks"][1][:4]
    (['KC', '2C', 'KD', 'KH'], ['6C', '6D', '6H', 'QD'])
    >>> face_deal("KQ", "J-")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ratgames.core.errors.DealError: the hands hold jacks: 1, queens: 1, kings: 1, aces: 0, ...
    """
    if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= 2:
        raise DealError(f"jokers must be 0, 1 or 2, not {jokers!r}")
    patterns: list[str] = []
    for i, hand in enumerate(hands):
        if not isinstance(hand, str):
            raise DealError(f"hand {i + 1} must be text such as 'K-Q--A', not {hand!r}")
        pattern = "".join(hand.split())
        bad = sorted(set(pattern) - set("-JQKA"))
        if bad:
            raise DealError(
                f"hand {i + 1} holds {bad[0]!r}: write J, Q, K or A for a face card and - for "
                "any other card"
            )
        patterns.append(pattern)
    counts = Counter("".join(patterns))
    numbers = [c for c in _cards.standard_deck(jokers) if not _CHANCES[c]]
    if any(counts[f] != 4 for f in "JQKA") or counts["-"] != len(numbers):
        raise DealError(
            f"the hands hold jacks: {counts['J']}, queens: {counts['Q']}, kings: "
            f"{counts['K']}, aces: {counts['A']}, other cards: {counts['-']}; a "
            f"{52 + jokers}-card deck needs 4 of each face and {len(numbers)} other cards"
        )
    faces = {f: [_cards.make_card(r, s) for s in range(4)] for f, r in _FACE_LETTERS.items()}
    others = iter(numbers)
    stacks = [
        [_TEXT[next(others) if ch == "-" else faces[ch].pop(0)] for ch in pattern]
        for pattern in patterns
    ]
    return {"stacks": stacks}


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
        Option("sandwich", True, "Two cards of a rank with one card between them can be slapped."),
        Option(
            "top_bottom", False, "The top card matching the bottom face-up card can be slapped."
        ),
        Option("tens", False, "Two consecutive cards adding up to 10 (ace = 1) can be slapped."),
        Option("marriage", False, "A king and a queen next to each other can be slapped."),
        Option("divorce", False, "A king and a queen with one card between can be slapped."),
        Option("run", False, "Four cards in rank order, up or down, can be slapped."),
        Option("joker", False, "A joker on top can be slapped (needs jokers in the deck)."),
        Option("jokers", 0, "Jokers added to the 52 cards.", minimum=0, maximum=2),
        Option(
            "burn",
            1,
            "Cards a bad slap costs (from the top of the slapper's stack).",
            minimum=0,
            maximum=3,
        ),
        Option("slap_in", True, "A player without cards stays in and may slap back in."),
        Option(
            "newcomers",
            0,
            "Seats (the last ones) not dealt in, who may join by slapping in.",
            minimum=0,
            maximum=6,
        ),
        Option(
            "slaps",
            True,
            "Players may slap the pile; false: nobody slaps (the game is Beggar-my-neighbour).",
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
        {"slaps": False},
    )

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        o = self.options
        self.rules_on = SlapRules(
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
        if type(card) is int and 0 <= card < 128 and card & 63 < 54:
            return _TEXT[card & 63]
        raise ValueError(f"no such card: {card!r}")

    def parse_card(self, text: str) -> int:
        """A card from its notation (``10H``, ``QS``, ``BJ``)."""
        card = _cards.parse_card(text)
        if card not in self.deck():
            raise InvalidNotation(f"{text!r} is not in this game's deck")
        return card

    def parse_action(self, text: object) -> RatscrewAction:
        if not isinstance(text, str):
            raise InvalidNotation(f"an action is written as text, not {text!r}")
        t = text.strip().lower()
        if t == "play":
            return PLAY_ACTION
        if t == "collect":
            return COLLECT_ACTION
        if t.startswith("slap@"):
            digits = t[5:]
            if digits.isascii() and digits.isdigit() and len(digits) <= 18:
                return slap(int(digits))
        raise InvalidNotation(
            f"{text[:40]!r} is not an action of {self.title}; write 'play', 'collect' or "
            "'slap@N' (N = the pile version you saw, as shown in your observation)"
        )

    def canonical_action(self, action: object) -> RatscrewAction | None:
        return action if _well_formed(action) else None  # type: ignore[return-value]

    def not_an_action(self, action: object) -> str:
        shown = repr(action)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return (
            f"{shown} is not an action of {self.title}: the actions are Move('play'), "
            "Move('collect') and Slap(N) with N a whole number from 0 (the pile version seen)"
        )

    # --- dealing ----------------------------------------------------------------------------------

    def race_aim(self, action: object) -> int | None:
        return action.version if type(action) is Slap else None

    def aimed_at(self, action: object, version: int) -> Slap:
        return slap(version)

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> RatscrewState:
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
        state = RatscrewState.__new__(RatscrewState)
        state._start(self, chance, stacks)
        return state

    def _read_deal(self, deal: Mapping[str, Any]) -> list[list[int]]:
        """The stacks (bottom first) of an explicit deal, or :class:`DealError`."""
        n = self.players
        form = 'a deal is {"stacks": [[cards of seat 1, top first], ...]} with one list per seat'
        if not isinstance(deal, Mapping) or list(deal) != ["stacks"]:
            raise DealError(form)
        raw = deal["stacks"]
        if not isinstance(raw, list) or len(raw) != n:
            raise DealError(f"the deal's 'stacks' must be a list of {n} lists of cards; {form}")
        deck = self.deck()
        stacks: list[list[int]] = []
        for seat, texts in enumerate(raw):
            if not isinstance(texts, list):
                raise DealError(
                    f"the deal of {self.seat_name(seat)} must be a list of cards (text such as "
                    f"'10H'), not {type(texts).__name__}"
                )
            top_first: list[int] = []
            for text in texts:
                if not isinstance(text, str):
                    raise DealError(
                        f"the deal of {self.seat_name(seat)}: a card is written as text such as "
                        f"'10H' or 'QS', not {text!r}"
                    )
                try:
                    card = _cards.parse_card(text)
                except IllegalAction as exc:
                    raise DealError(f"the deal of {self.seat_name(seat)}: {exc}") from None
                if card not in deck:
                    raise DealError(
                        f"the deal of {self.seat_name(seat)}: {text!r} is not in this game's deck "
                        f"(option jokers is {self.options['jokers']})"
                    )
                top_first.append(card)
            stacks.append(top_first[::-1])
        counts = Counter(c for s in stacks for c in s)
        twice = sorted(c for c, k in counts.items() if k > 1)
        if twice:
            raise DealError(f"the deal holds {_TEXT[twice[0]]} more than once")
        missing = sorted(set(deck) - set(counts))
        if missing:
            raise DealError(
                f"the deal must hold every card of the {len(deck)}-card deck once; "
                f"{_TEXT[missing[0]]} is missing"
                + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
            )
        for seat in range(n - self.newcomers, n):
            if stacks[seat]:
                raise DealError(
                    f"{self.seat_name(seat)} is a newcomer (option newcomers) and is dealt no cards"
                )
        if sum(1 for s in stacks if s) < 2:
            raise DealError("the deal must give cards to at least 2 players")
        return stacks

    # --- the rules --------------------------------------------------------------------------------

    def rules(self) -> str:
        return RULES_TEXT

    def _restore(self, snapshot: Mapping[str, Any]) -> RatscrewState:
        """The position of ``snapshot`` (:meth:`RatscrewState.snapshot`), checked: see
        :func:`restore_position`."""
        return restore_position(self, snapshot)


RULES_TEXT = """\
# Egyptian Ratscrew

Also called Egyptian Rat Screw.  2 to 8 players (more than 5 is hard going); the aim is to win
every card.

## Deal and play
The 52 cards (plus any jokers, option `jokers`, default 0) are shuffled and dealt one at a time,
starting at the dealer's left, into face-down stacks; some players may get one card more.  Nobody
looks at their stack.  Seat 1 (the dealer's left) starts: on your turn you turn the top card of
your stack face up onto the pile in the middle, without looking at it first.
Then play passes to the left.  A player without cards is skipped.

## Challenges
A face card starts a challenge: the next player must answer with a face card within a number of
chances: 1 for a jack, 2 for a queen, 3 for a king, 4 for an ace.  Each chance is one card
played.  A face card played in answer passes the challenge on to the next player with the new
card's count.  When the chances run out without a face card, the player of the last face card
wins the pile: they take it to the bottom of their stack in the order the
cards were played, and they play next.  A player who runs out of cards while answering leaves
the remaining chances to the next player who has cards; if that would be the challenger, the
challenger wins the pile.

## Slaps
Any player may slap the pile at any moment.  The first valid
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

Nobody reacts in no time: a slap counts as a slap at the pile that was on the table at least
0.1 s before it (a minimum human reaction time).  A press that comes sooner than that after the
pile changed on the player's screen is aimed at the pile before it and judged there: valid if the
pile on the table can be slapped, too late (no penalty) if the pile the player saw could be
slapped but somebody took or covered it, bad otherwise.  So the loser of a close race is too
late, not burned at the new, empty pile (an empty pile can never be slapped).  The terminal, the
browser and the server all judge a press so (online, the server knows when each pile reached the
player's screen), and the bots never slap sooner than 0.1 s after the pile they react to.

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
someone else may still slap: then the holder must collect the table to win, and a valid slap
that comes first brings its slapper back in and play goes on.
Outcome points are the cards each player holds at the end.

Without slaps the game is deterministic from the deal, and it can go round in circles.  The
engine remembers the position (every stack and who plays next) each time a pile is taken; if a
position comes back and nobody has slapped since it was last seen, the players have let the game
go round once and it would repeat for ever: it ends as a cycle, won by the player(s) holding the
most cards.  As a last resort `max_cards` (default 100000) caps the cards played; a capped game
is also won by the most cards.

## Without slaps: Beggar-my-neighbour
With `slaps` off (default on) nobody may slap, and the game is the old Beggar-my-neighbour: the
deal decides everything.  The slap rules, `burn` and `slap_in` then do nothing, and `newcomers`
must be 0.  A player without cards is out (unless their face card is still being answered).
Play and the end follow the convention of the published longest-game records, so that a
record deal gives its published figures here (Mann and Wu's deal of 2007, for one, lasts 7157
cards and 1007 tricks); a trick is a pile won:
- the game ends as soon as a trick leaves every other player without cards;
- it also ends when a player must play (lead, or answer a challenge) and has no card, with
  nobody else left to play: the player of the last face card (or, outside a challenge, the
  player of the last card) takes the pile, and it counts as the last trick.
With more than 2 players, a player without cards is skipped as long as somebody else can play.

## Knowledge
Stacks are face down and unknown even to their owner.  A pile that is taken goes to the bottom
of a stack face down in a known order, so everybody knows those cards until they come up again
(burned cards under the pile stay unknown unless they were known before).  Observations show
each stack's known cards, the face-up pile, the challenge in progress and the recent events.

## Notation, deals and figures
How programs and records write the game (players use the keys shown with `?`).  Actions:
`play`, `collect`, `slap@N`, where N is the version of the pile the player saw (the version
grows with every card played and every pile taken).  Cards: `10H`, `QS`, `AC`, `BJ`/`RJ` for
jokers.  An explicit deal is `{"stacks": [[cards of seat 1, top first], [seat 2 ...], ...]}`
holding every card once (uneven stacks are allowed; newcomers get none; at least 2 players get
cards).

Record deals of Beggar-my-neighbour are written in face-card notation: one line per player, top
card first, `J`, `Q`, `K` or `A` for a face card and `-` for any other card, the first player
leading (Mann and Wu: `K-KK----K-A-----JAA--Q--J-` against `---Q---Q-J-----J------AQ--`); the
Python function `ratgames.games.egyptian_ratscrew.rules.face_deal(hand1, hand2, ...)` turns them
into a deal for `new_state(deal=...)`.

Figures reported: `length` (cards played), `piles_won` (challenges collected and valid slaps;
without slaps, the last pile too), `slaps` (valid), `bad_slaps`, `too_late`, `cycle` (1 if the
game ended as a cycle); without slaps also `cards` (cards played) and `tricks` (piles won, the
last included) in the convention of the published records.
"""


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
        "ev",
        "ev_len",
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
        "rule",
        "slap_hist",
        "slaps",
        "stacks",
        "status",
        "turn",
        "version",
        "winner",
    )

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
        self.history: dict[bytes, int] = {}
        self.hist_shared = False
        self.disrupt = 0
        self.played = 0
        self.piles_won = 0
        self.slaps = 0
        self.bad = 0
        self.late = 0
        self.ev: list[Any] | None = None
        self.ev_len = 0
        self.n_events = 0
        self.end_reason = ""
        self.capped = False
        self.cycle = False
        self.winner = -1
        if not stacks[0]:
            self.turn = self._next_holder(0)
        if not game.slap_in or not game.slaps:
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
        c.ev = self.ev
        c.ev_len = self.ev_len
        c.n_events = self.n_events
        c.end_reason = self.end_reason
        c.capped = self.capped
        c.cycle = self.cycle
        c.winner = self.winner
        return c

    def sample_consistent(self, seat: object, rng: Rng) -> RatscrewState:
        """Everyone knows the same (all knowledge here is public): the unknown cards of every
        stack and under the pile are reshuffled among their places.  The memory of past
        positions (used to detect a cycle) and the deal are about cards nobody can see, so the
        sample keeps neither (nor the seed and log: it is a hypothesis, not a game)."""
        seat = self._check_seat(seat)
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
        s.deal = ()
        s._forget_origin(rng)
        return s

    # --- queries ----------------------------------------------------------------------------------

    def race_version(self) -> int | None:
        return self.version

    def race_open(self) -> bool:
        return self.rule != 0

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
            slap_action = _SLAPS[v] if v < 4096 else Slap(v)
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
        p = self.pile
        n = len(p)
        if n == 0:
            return 0
        sandwich, top_bottom, tens, marriage, divorce, run, joker = self.game.rules_on
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

    # --- events -----------------------------------------------------------------------------------

    def _event(self, *event: Any) -> None:
        """Add a public event: its class and its fields."""
        self.n_events += 1
        if self.ev_len >= _EVENTS_KEPT:
            self._trim_events()
        self.ev = [self.ev, None, *event]
        self.ev_len += 1

    def _trim_events(self) -> None:
        """Cut the chain back to its latest ``EVENTS_SHOWN - 1`` events (room for one more)."""
        chain: list[Any] | None = None
        for node in self._recent_nodes()[1:]:
            chain = [chain, *node[1:]]
        self.ev = chain
        self.ev_len = EVENTS_SHOWN - 1

    def _recent_nodes(self) -> list[list[Any]]:
        out: list[list[Any]] = []
        node = self.ev
        while node is not None and len(out) < EVENTS_SHOWN:
            out.append(node)
            node = node[0]
        out.reverse()
        return out

    def recent_events(self) -> list[Event]:
        """The latest public events (at most ``EVENTS_SHOWN``), oldest first."""
        return [node[2](*node[3:]) for node in self._recent_nodes()]

    def _events_json(self) -> list[dict[str, JSON]]:
        """The latest events as JSON (each built once, then copied: the chain shares its nodes
        with clones, and a caller may change what it is given)."""
        game = self.game
        out: list[dict[str, JSON]] = []
        for node in self._recent_nodes():
            known = node[1]
            if known is None:
                known = node[1] = event_json(game, node[2](*node[3:]))
            out.append(dict(known))
        return out

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
        card = st.pop() & 63
        self.pile.append(card)
        self.version += 1
        self.played += 1
        if self.ev_len >= _EVENTS_KEPT:
            self._trim_events()
        self.ev = [self.ev, None, Played, seat, card]
        self.ev_len += 1
        self.n_events += 1
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
            self.disrupt += 1
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
        self.disrupt += 1
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
        table = _STRIP if self.game.slaps else _FACES
        key = bytes((self.turn,)) + _SEP.join([bytes(s).translate(table) for s in self.stacks])
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
            "event_count": self.n_events,
            "events": self._events_json() if events else [],
            "result": self._result_json(),
        }

    def _result_json(self) -> dict[str, JSON] | None:
        if self.phase != OVER:
            return None
        out = self.outcome()
        assert out is not None
        return {"winners": list(out.winners), "reason": out.reason}

    def observation(self, seat: object, events: bool = True) -> dict[str, JSON]:
        """The table as everybody sees it (``event_count`` counts every public event so far;
        ``events`` holds the latest of them), with what this seat may do about slapping."""
        seat = self._check_seat(seat)
        view = self._table_view(events)
        view["seat"] = seat
        view["may_slap"] = (
            self.phase != OVER and self.last_slap[seat] < self.version and self._may_slap(seat)
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
        return {"stacks": [[_TEXT[c] for c in reversed(st)] for st in self.deal]}

    def snapshot(self) -> dict[str, JSON]:
        """Everything, cards in notation: each stack, the burned cards and the pile bottom first
        (with which stack and burned cards everybody knows), the clock (``time``, the last
        action's), the slappable pile versions a slap may still name (newest first) and the
        positions a cycle could come back to (:meth:`_positions_json`)."""
        text = _TEXT
        n = self.game.players
        last = self.last_slap
        status = self.status
        # A slap names a version above its seat's last slap, so older versions no longer matter.
        floor = min([last[s] for s in range(n) if status[s] != OUT], default=self.version)
        slappable_versions: list[int] = []
        node = self.slap_hist
        while node is not None and node[0] > floor:
            slappable_versions.append(node[0])
            node = node[1]
        return {
            "stacks": [[text[c & 63] for c in st] for st in self.stacks],
            "stacks_known": [[c >= KNOWN for c in st] for st in self.stacks],
            "pile": [text[c] for c in self.pile],
            "burned": [text[c & 63] for c in self.burned],
            "burned_known": [c >= KNOWN for c in self.burned],
            "version": self.version,
            "turn": self.turn,
            "phase": PHASE_NAMES[self.phase],
            "challenger": self.challenger,
            "chances": self.chances,
            "collector": self.collector,
            "status": [STATUS_NAMES[x] for x in status],
            "last_slap": last[:],
            "slappable_versions": slappable_versions,
            "positions_seen": self._positions_json(),
            "disrupt": self.disrupt,
            "counts": [self.played, self.piles_won, self.slaps, self.bad, self.late, self.n_events],
            "events": self._events_json(),
            "end": [self.end_reason, self.capped, self.cycle, self.winner],
            "time": float(self._time),
        }

    def _positions_json(self) -> list[JSON]:
        """The positions remembered since the last slap (a cycle is one of them coming back):
        who plays next and each stack bottom first, in card notation, or without slaps in
        face-card notation (``J``, ``Q``, ``K``, ``A``, ``-`` for any other card), in the
        order of their keys."""
        disrupt = self.disrupt
        faces = not self.game.slaps
        out: list[JSON] = []
        for key in sorted(k for k, v in self.history.items() if v == disrupt):
            stacks: list[JSON] = []
            for part in key[1:].split(_SEP):
                if faces:
                    stacks.append("".join([_FACE_MARK[b] for b in part]))
                else:
                    stacks.append([_TEXT[b] for b in part])
            out.append({"turn": key[0], "stacks": stacks})
        return out


# --- a position restored from its snapshot --------------------------------------------------------

_FACE_MARK = "-JQKA"
"""A card's mark in face-card notation, by the chances it gives (0 for any other card)."""

SNAPSHOT_KEYS: tuple[str, ...] = (
    "stacks",
    "stacks_known",
    "pile",
    "burned",
    "burned_known",
    "version",
    "turn",
    "phase",
    "challenger",
    "chances",
    "collector",
    "status",
    "last_slap",
    "slappable_versions",
    "positions_seen",
    "disrupt",
    "counts",
    "events",
    "end",
    "time",
)
"""The entries of :meth:`RatscrewState.snapshot`, each required by :func:`restore_position`."""

COUNT_NAMES = ("cards played", "piles won", "valid slaps", "bad slaps", "late slaps", "events")
"""What each number of the snapshot's ``counts`` is."""

REASON_LAST = "the last player with cards"
REASON_CYCLE = "cycle: the same position came back with no slap in between"

_EVENT_FIELDS: dict[str, tuple[type[Event], tuple[tuple[str, str], ...]]] = {
    "play": (Played, (("seat", "seat"), ("card", "card"))),
    "collect": (Collected, (("seat", "seat"), ("cards", "cards"))),
    "claim": (Claimed, (("seat", "seat"),)),
    "slap": (Slapped, (("seat", "seat"), ("rule", "rule"), ("cards", "cards"))),
    "late_slap": (LateSlap, (("seat", "seat"),)),
    "bad_slap": (BadSlap, (("seat", "seat"), ("burned", "burned"))),
    "join": (Joined, (("seat", "seat"),)),
    "out": (Out, (("seat", "seat"),)),
    "win": (Won, (("seat", "seat"),)),
    "end": (Ended, (("why", "why"),)),
}
"""Each event kind's class and fields (name, what the field holds)."""

_EVENT_KINDS = tuple(_EVENT_FIELDS)


class _Cards:
    """Reads card texts of one game's deck (with jokers as the options say)."""

    def __init__(self, game: EgyptianRatscrew) -> None:
        self.of_text = {_TEXT[c]: c for c in game.deck()}
        jokers = game.options["jokers"]
        self.deck_help = f"the {len(self.of_text)}-card deck" + (
            f" with {jokers} joker(s) (BJ, RJ)" if jokers else ", no jokers"
        )

        self.card_help = f"a card of {self.deck_help}, written as in '10H', 'QS' or 'AD'"

    def card(self, value: object, entry: str) -> int:
        return snapshots.card(value, entry, self.of_text, self.card_help)

    def cards(self, value: object, entry: str) -> list[int]:
        return snapshots.card_list(value, entry, self.of_text, self.card_help)


def _marked(cards: list[int], known: object, entry: str, known_entry: str) -> list[int]:
    """Stack entries: ``cards`` with the ``KNOWN`` bit where ``known`` (a list of as many
    flags) says everybody knows the card."""
    flags = _list(known, known_entry, f"{len(cards)} flags, one per card of {entry}")
    if len(flags) != len(cards):
        raise SnapshotError(
            f"{known_entry} has one flag per card of {entry}: {len(cards)}, not {len(flags)}"
        )
    return [
        c | KNOWN if _flag(f, f"{known_entry}[{i}]") else c
        for i, (c, f) in enumerate(zip(cards, flags, strict=True))
    ]


def _read_event(game: EgyptianRatscrew, cards: _Cards, value: object, entry: str) -> list[Any]:
    """One event of ``events``: ``[EventClass, *fields]`` (as the state keeps it)."""
    if not isinstance(value, Mapping):
        raise SnapshotError(f"{entry} is an event object, not {_short(value)}")
    kind = _EVENT_KINDS[snapshots.one_of(value.get("kind"), f"{entry}.kind", _EVENT_KINDS)]
    cls, fields = _EVENT_FIELDS[kind]
    names = ("kind", *[name for name, _ in fields])
    snapshots.entries(value, names, f"{entry} (a {kind!r} event)")
    out: list[Any] = [cls]
    n = game.players
    for name, what in fields:
        field_value = value[name]
        where = f"{entry}.{name}"
        if what == "seat":
            out.append(_whole(field_value, where, 0, n - 1))
        elif what == "card":
            out.append(cards.card(field_value, where))
        elif what == "cards":
            out.append(_whole(field_value, where, 1, len(cards.of_text)))
        elif what == "burned":
            out.append(_whole(field_value, where, 0, game.burn))
        elif what == "rule":
            rules = [RULE_NAMES[DOUBLES]] + [
                r for r, on in zip(RULE_NAMES[2:], game.rules_on, strict=False) if on
            ]
            if field_value not in rules:
                raise SnapshotError(
                    f"{where} is a slap rule of this game ({', '.join(rules)}), not "
                    f"{_short(field_value)}"
                )
            out.append(field_value)
        else:
            if field_value not in ("cap", "cycle"):
                raise SnapshotError(f"{where} is 'cap' or 'cycle', not {_short(field_value)}")
            out.append(field_value)
    return out


def _position_key(game: EgyptianRatscrew, cards: _Cards, value: object, entry: str) -> bytes:
    """A remembered position of ``positions_seen`` as the state keys it: who plays next, then
    each stack bottom first (card numbers, or without slaps the chances each card gives)."""
    n = game.players
    position = snapshots.entries(value, ("turn", "stacks"), entry)
    turn = _whole(position["turn"], f"{entry}.turn", 0, n - 1)
    rows = _list(position["stacks"], f"{entry}.stacks", "stacks, one per seat", n)
    parts: list[bytes] = []
    if game.slaps:
        seen: list[int] = []
        for i, row in enumerate(rows):
            stack = cards.cards(row, f"{entry}.stacks[{i}]")
            seen.extend(stack)
            parts.append(bytes(stack))
        if sorted(seen) != sorted(cards.of_text.values()):
            raise SnapshotError(
                f"{entry}: a position remembered after a pile was taken holds every card of "
                f"{cards.deck_help} in the stacks, each once"
            )
    else:
        marks = ""
        for i, row in enumerate(rows):
            if type(row) is not str or any(ch not in _FACE_MARK for ch in row):
                raise SnapshotError(
                    f"{entry}.stacks[{i}] is a stack in face-card notation (J, Q, K, A, or - "
                    f"for any other card), not {_short(row)}"
                )
            marks += row
            parts.append(bytes([_FACE_MARK.index(ch) for ch in row]))
        others = len(cards.of_text) - 16
        if sorted(marks) != sorted("JQKA" * 4 + "-" * others):
            raise SnapshotError(
                f"{entry}: a position remembered after a pile was taken holds 4 jacks, queens, "
                f"kings and aces and {others} other cards in the stacks"
            )
    return bytes((turn,)) + _SEP.join(parts)


def restore_position(game: EgyptianRatscrew, snap: Mapping[str, Any]) -> RatscrewState:
    """The state whose snapshot is ``snap``, or :class:`SnapshotError` naming what is wrong.

    Beyond the shape of each entry and every card once, the entries must agree as they do in
    play: the phase with who plays, challenges or collects; a challenge's chances with the pile;
    the counts with the pile version; slapping with the options; the end with the stacks.  The
    rest (the slappable pile and who holds cards) is worked out from the cards, and the
    restored state's snapshot must be exactly ``snap``.
    """
    snapshots.entries(snap, SNAPSHOT_KEYS, "an Egyptian Ratscrew snapshot")
    n = game.players
    cards = _Cards(game)

    # The cards: every card of the deck once, in the stacks, the pile or burned under it.
    rows = _list(snap["stacks"], "stacks", "stacks, one per seat", n)
    known_rows = _list(snap["stacks_known"], "stacks_known", "lists of flags, one per seat", n)
    stacks = [
        _marked(
            cards.cards(rows[s], f"stacks[{s}]"),
            known_rows[s],
            f"stacks[{s}]",
            f"stacks_known[{s}]",
        )
        for s in range(n)
    ]
    pile = cards.cards(snap["pile"], "pile")
    burned = _marked(
        cards.cards(snap["burned"], "burned"), snap["burned_known"], "burned", "burned_known"
    )
    places = [(f"stacks[{s}]", [c & 63 for c in stacks[s]]) for s in range(n)]
    places += [("pile", pile), ("burned", [c & 63 for c in burned])]
    snapshots.each_once(
        places, sorted(cards.of_text.values()), _TEXT, cards.deck_help, "stacks, pile, burned"
    )

    # The numbers.
    version = _whole(snap["version"], "version", 0, _MAX_VERSION - 1)
    phase = snapshots.one_of(snap["phase"], "phase", PHASE_NAMES)
    turn = _whole(snap["turn"], "turn", -1, n - 1)
    challenger = _whole(snap["challenger"], "challenger", -1, n - 1)
    chances = _whole(snap["chances"], "chances", 0, 4)
    collector = _whole(snap["collector"], "collector", -1, n - 1)
    status = [
        snapshots.one_of(name, f"status[{s}]", STATUS_NAMES)
        for s, name in enumerate(_list(snap["status"], "status", "seat statuses", n))
    ]
    last_slap = [
        _whole(v, f"last_slap[{s}]", -1, version)
        for s, v in enumerate(_list(snap["last_slap"], "last_slap", "pile versions", n))
    ]
    versions = [
        _whole(v, f"slappable_versions[{i}]", 0, version)
        for i, v in enumerate(
            _list(snap["slappable_versions"], "slappable_versions", "pile versions")
        )
    ]
    disrupt = _whole(snap["disrupt"], "disrupt", 0, _MAX_VERSION)
    raw_counts = _list(snap["counts"], "counts", "numbers: " + ", ".join(COUNT_NAMES), 6)
    counts = [
        _whole(v, f"counts[{i}] ({COUNT_NAMES[i]})", 0, _MAX_VERSION)
        for i, v in enumerate(raw_counts)
    ]
    played, piles_won, slaps, bad, late, n_events = counts
    end = _list(snap["end"], "end", "entries: the reason, capped, cycle, the winner", 4)
    reason = end[0]
    if type(reason) is not str:
        raise SnapshotError("end[0] is the reason the game ended ('' while it goes on)")
    capped = _flag(end[1], "end[1] (capped)")
    cycle = _flag(end[2], "end[2] (cycle)")
    winner = _whole(end[3], "end[3] (the winner)", -1, n - 1)
    clock = snap["time"]
    if (
        type(clock) not in (int, float) or not 0 <= clock <= 1e18  # also refuses NaN
    ):
        raise SnapshotError(
            f"time is the last action's time in seconds (a number from 0), not {_short(clock)}"
        )
    time = float(clock)

    # How the entries agree in play.
    newcomer = n - game.newcomers
    for s in range(n):
        if status[s] == WAITING and s < newcomer:
            raise SnapshotError(
                f"status[{s}]: only a newcomer's seat (option newcomers, the last "
                f"{game.newcomers}) waits to slap in"
            )
        if status[s] != IN and stacks[s]:
            raise SnapshotError(
                f"status[{s}]: a seat that is {STATUS_NAMES[status[s]]} holds no cards"
            )
    if not game.slaps and (versions or slaps or bad or late or disrupt or max(last_slap) >= 0):
        raise SnapshotError(
            "slappable_versions, last_slap, disrupt, counts: nobody slaps in this game (option "
            "slaps is false)"
        )
    if disrupt != slaps + bad:
        raise SnapshotError(
            f"disrupt counts the valid and the bad slaps ({slaps} + {bad}), not {disrupt}"
        )
    if slaps > piles_won:
        raise SnapshotError(f"counts: {slaps} valid slaps took more piles than the {piles_won} won")
    over = phase == OVER
    taken = version - played - piles_won
    if taken != 0 and not (over and taken == 1):
        raise SnapshotError(
            f"version grows with each card played ({played}) and each pile taken ({piles_won}): "
            f"{played + piles_won}"
            + (
                f" (or one more once the game is over), not {version}"
                if over
                else f", not {version}"
            )
        )
    if played > game.max_cards or (played == game.max_cards and not over):
        raise SnapshotError(
            f"counts[0]: the game stops at {game.max_cards} cards played (option max_cards), "
            f"so {played} cards played is a game "
            + ("over" if played == game.max_cards else "that never was")
        )
    if len(_list(snap["events"], "events", "events")) != min(n_events, EVENTS_SHOWN):
        raise SnapshotError(
            f"events holds the latest {EVENTS_SHOWN} of the {n_events} events (counts[5]), all "
            "of them if fewer"
        )
    if n_events < played + piles_won + bad + late:
        raise SnapshotError(
            f"counts[5]: each card played, pile won, bad and late slap is an event: at least "
            f"{played + piles_won + bad + late}, not {n_events}"
        )
    holders = [s for s in range(n) if stacks[s]]
    faces = [i for i, c in enumerate(pile) if _CHANCES[c]]
    left = _CHANCES[pile[faces[-1]]] - (len(pile) - 1 - faces[-1]) if faces else 0
    if phase == PLAY:
        if turn < 0 or not stacks[turn]:
            raise SnapshotError("turn: in the play phase the player to play holds cards")
        if collector != -1:
            raise SnapshotError("collector is -1 in the play phase")
        if faces and (challenger < 0 or challenger == turn or left < 1 or chances != left):
            raise SnapshotError(
                "challenger, chances: a face card on the pile is a challenge, by another player "
                f"than the one to play, with the chances its cards leave ({left})"
            )
        if not faces and (challenger != -1 or chances != 0):
            raise SnapshotError(
                "challenger, chances: with no face card on the pile there is no challenge "
                "(challenger -1, chances 0)"
            )
    elif phase == COLLECT:
        if turn != -1 or collector < 0 or challenger != collector or not faces or chances != left:
            raise SnapshotError(
                "turn, collector, challenger, chances: a pile won by a face card waits for its "
                "challenger to collect it (turn -1, collector and challenger that player), with "
                f"the chances its cards left ({left})"
            )
    elif phase == FINAL:
        if not game.slaps or turn != -1 or challenger != -1 or collector < 0:
            raise SnapshotError(
                "turn, collector, challenger: in the final phase (with slaps only) the last "
                "player with cards is the collector (turn and challenger -1)"
            )
        if any(s != collector for s in holders):
            raise SnapshotError("stacks: in the final phase only the collector holds cards")
    if over:
        if turn != -1 or collector != -1 or challenger != -1 or winner < 0:
            raise SnapshotError(
                "turn, collector, challenger, end: once the game is over nobody plays, "
                "challenges or collects, and end names the winner"
            )
        if capped and cycle:
            raise SnapshotError("end: a game ends by the cap or as a cycle, not both")
        if capped or cycle:
            sizes = [len(st) for st in stacks]
            expected = f"safety cap: {played} cards played" if capped else REASON_CYCLE
            if capped and played != game.max_cards:
                raise SnapshotError(
                    f"end: the cap stops a game at {game.max_cards} cards played, not {played}"
                )
            if reason != expected or winner != sizes.index(max(sizes)):
                raise SnapshotError(
                    f"end: a game stopped {'by the cap' if capped else 'as a cycle'} ends for "
                    f"the reason {expected!r}, won by the first seat with the most cards"
                )
        elif reason != REASON_LAST or pile or burned or holders != [winner]:
            raise SnapshotError(
                f"end: a game won outright ends for the reason {REASON_LAST!r}, its winner "
                "holding every card"
            )
    elif reason or capped or cycle or winner != -1:
        raise SnapshotError("end is ['', false, false, -1] while the game goes on")

    # The state.
    state = RatscrewState.__new__(RatscrewState)
    state._init_core(game, Chance(0))
    state._time = time
    state.stacks = stacks
    state.deal = ()
    state.pile = pile
    state.burned = burned
    state.version = version
    state.turn = turn
    state.phase = phase
    state.challenger = challenger
    state.chances = chances
    state.collector = collector
    state.status = status
    state.last_slap = last_slap
    state.n_holders = len(holders)
    state.rule = state._compute_rule() if game.slaps else 0
    node: tuple[Any, ...] | None = None
    for v in reversed(versions):
        node = (v, node)
    state.slap_hist = node
    if game.slaps and (state.rule != 0) != (version in versions):
        raise SnapshotError(
            f"slappable_versions lists the pile's version {version} exactly when the pile can "
            "be slapped" + (f" (by {RULE_NAMES[state.rule]})" if state.rule else " (it cannot)")
        )
    if any(versions[i] <= versions[i + 1] for i in range(len(versions) - 1)):
        raise SnapshotError("slappable_versions lists pile versions newest first, each once")
    seen = _list(snap["positions_seen"], "positions_seen", "positions")
    if len(seen) > piles_won:
        raise SnapshotError(
            f"positions_seen: a position is remembered when a pile is taken, so at most "
            f"{piles_won} of them, not {len(seen)}"
        )
    state.history = {
        _position_key(game, cards, p, f"positions_seen[{i}]"): disrupt for i, p in enumerate(seen)
    }
    state.hist_shared = False
    state.disrupt = disrupt
    state.played = played
    state.piles_won = piles_won
    state.slaps = slaps
    state.bad = bad
    state.late = late
    chain: list[Any] | None = None
    events = _list(snap["events"], "events", "events")
    for i, event in enumerate(events):
        chain = [chain, None, *_read_event(game, cards, event, f"events[{i}]")]
    state.ev = chain
    state.ev_len = len(events)
    state.n_events = n_events
    state.end_reason = reason
    state.capped = capped
    state.cycle = cycle
    state.winner = winner
    if game.slaps and not over and len(holders) < 2 and phase != FINAL:
        claim = collector if phase != PLAY else challenger
        if claim < 0 or claim == state._next_holder(n - 1):
            raise SnapshotError(
                "stacks: with fewer than two players holding cards the game is over, unless "
                "another player's face card still has a pile to win"
            )
    snapshots.agree(
        {**snap, "time": time},
        state.snapshot(),
        SNAPSHOT_KEYS,
        "in the position the other entries describe",
    )
    return state
