# ratgames: compiled
"""The engine core: :class:`Game` (a game's rules with its options) and :class:`State`.

The core knows no game by name.  A game subclasses both classes and fills in the abstract hooks;
everything else (validation of options, the action log, chance outcomes, records, the safety
checks around :meth:`State.apply`) lives here once.

Conventions every game follows:

* Seats are numbered from 0.  ``game.players`` is the number of seats.
* Cards are small ints; each game has its own encoding and a text notation.
* Actions are small immutable, hashable objects whose ``str()`` is the canonical notation and
  ``game.parse_action(str(a)) == a``.
* :meth:`State.apply` either applies a legal action or raises :class:`IllegalAction` and changes
  nothing.
* Every random event after the deal goes through :meth:`State._shuffle` or
  :meth:`State._chance_below`, which record the outcome so that a record replays exactly.
"""

from __future__ import annotations

import dataclasses
import math
import os
from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterator, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic

from typing_extensions import TypeVar

from ._mypyc import mypyc_attr
from .errors import (
    DealError,
    IllegalAction,
    InvalidNotation,
    OptionError,
    RecordError,
    SnapshotError,
)
from .fields import StateFields
from .options import Option, resolve_options
from .rng import Rng

Action = Hashable
"""An action: any hashable object whose ``str()`` is its notation (each game defines its own)."""

A = TypeVar("A", bound=Hashable, default=Any)
"""A game's action type (``State[A]``)."""

G = TypeVar("G", bound="Game", default="Game", covariant=True)
"""A game's rules class (``State[A, G]``): the type of its states' ``game``."""

S = TypeVar("S", bound="State")

JSON = Any
"""A value that :func:`json.dumps` accepts."""


class Chance:
    """Where a state's random events come from: a seeded generator, or a script to replay.

    While a script (the chance outcomes of a record) lasts, each event takes its outcome from it
    and checks that the outcome fits; afterwards outcomes come from the generator.
    """

    __slots__ = ("pos", "rng", "script")

    def __init__(self, seed: int, script: Sequence[tuple[str, Any]] = ()) -> None:
        self.rng = Rng(seed)
        self.script = tuple(script)
        self.pos = 0

    def clone(self) -> Chance:
        """An independent copy in the same position."""
        c = Chance(self.rng.state, self.script)
        c.pos = self.pos
        return c

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as what it is made of, rebuilt through the constructor (as the compiled class
        # must be: its __new__ runs __init__).
        return (_chance_at, (self.rng.state, self.script, self.pos))

    def _scripted(self, what: str) -> Any | None:
        if self.pos >= len(self.script):
            return None
        kind, outcome = self.script[self.pos]
        if kind != what:
            raise RecordError(
                f"chance outcome {self.pos + 1} of the record is a {kind!r} but the game "
                f"asks for a {what!r} here"
            )
        self.pos += 1
        return outcome

    def shuffle(self, cards: MutableSequence[int], what: str) -> None:
        """Shuffle ``cards`` in place (or put them in the scripted order)."""
        if self.pos >= len(self.script):  # the script is over (or there is none)
            self.rng.shuffle(cards)
            return
        outcome = self._scripted(what)
        if outcome is None:
            self.rng.shuffle(cards)
            return
        if not isinstance(outcome, tuple) or sorted(outcome) != sorted(cards):
            raise RecordError(
                f"chance outcome {self.pos} of the record ({what}) does not hold the same cards "
                f"as the game has to shuffle"
            )
        cards[:] = list(outcome)

    def below(self, n: int, what: str) -> int:
        """A uniform integer in ``range(n)`` (or the scripted one)."""
        if self.pos >= len(self.script):
            return self.rng.randbelow(n)
        outcome = self._scripted(what)
        if outcome is None:
            return self.rng.randbelow(n)
        if not isinstance(outcome, int) or not 0 <= outcome < n:
            raise RecordError(f"chance outcome {self.pos} of the record ({what}) is out of range")
        return outcome


def _chance_at(state: int, script: tuple[tuple[str, Any], ...], pos: int) -> Chance:
    """A pickled :class:`Chance` rebuilt."""
    c = Chance(state, script)
    c.pos = pos
    return c


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are the winning seats (more than one for a shared win).  ``points`` holds one
    number per seat in the game's own scoring (its meaning is given by ``points_label``; for some
    games lower is better).  ``places`` ranks the seats, 1 for the best, equal places for ties.
    ``capped`` says a safety cap ended the game; ``details`` carries game-specific figures such as
    the number of rounds or turns.
    """

    winners: tuple[int, ...]
    points: tuple[float, ...]
    places: tuple[int, ...]
    reason: str
    capped: bool = False
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The outcome as a JSON-serializable dict."""
        return {
            "winners": list(self.winners),
            "points": list(self.points),
            "places": list(self.places),
            "reason": self.reason,
            "capped": self.capped,
            "details": dict(self.details),
        }

    @staticmethod
    def places_from(values: Sequence[float], *, lower_is_better: bool) -> tuple[int, ...]:
        """Competition ranking (1, 2, 2, 4) of ``values``.

        >>> Outcome.places_from([10, 3, 10, 7], lower_is_better=True)
        (3, 1, 3, 2)
        """
        keyed = list(values) if lower_is_better else [-v for v in values]
        ranked = sorted(keyed)
        # 1 + how many seats did strictly better.
        return tuple([1 + bisect_left(ranked, mine) for mine in keyed])


CLOCK_DIGITS: Final = 4
"""Action times are kept to this many decimals of a second (0.1 ms), live and in records."""


def clock_time(seconds: float) -> float:
    """An action time (finite, not negative) as the engine keeps it: rounded to
    :data:`CLOCK_DIGITS` decimals, the resolution records are written in, so that a replayed
    game holds the very times (and accepts the very next times) the live one did.

    >>> clock_time(1.00004), clock_time(1.00006), clock_time(2.5)
    (1.0, 1.0001, 2.5)
    """
    return round(seconds, CLOCK_DIGITS)


def _short_repr(value: object) -> str:
    """``repr(value)`` cut to a readable length (a huge int is shown by its size)."""
    if isinstance(value, int) and abs(value) > 10**30:  # too long to show (or to write out)
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def relative_seat(seat: int, me: int, players: int) -> int:
    """``seat`` counted from ``me``: 0 is ``me``, 1 the next seat in turn, and so on (a
    ValueError for a number that is no seat)."""
    if not 0 <= seat < players:
        raise ValueError(f"{seat!r} is not a seat")
    return (seat - me) % players


def same_action(a: object, b: object) -> bool:
    """``a == b`` with the same types all the way down (tuples, named tuples, dataclasses,
    lists), so that ``True`` does not pass for ``1`` nor ``1.0`` for ``1``.

    >>> same_action((1, (2, 3)), (1, (2, 3))), same_action((1, 2), (True, 2))
    (True, False)
    """
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(  # type: ignore[arg-type]
            same_action(x, y)
            for x, y in zip(a, b, strict=True)  # type: ignore[call-overload]
        )
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(
            same_action(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    return a == b


def _oldest_first(node: tuple[Any, ...] | None, limit: int, since: object) -> list[Any]:
    """The entries of a log kept newest first as ``(entry, older)`` links, oldest first: the
    latest ``limit`` only if it is 0 or more, and back only to the latest entry whose first item
    is ``since``."""
    out: list[Any] = []
    while node is not None and len(out) != limit:
        entry = node[0]
        out.append(entry)
        if entry[0] is since:
            break
        node = node[1]
    out.reverse()
    return out


def logistic_shares(
    values: Sequence[float], scale: float, alive: Sequence[bool] | None = None
) -> list[float]:
    """Win shares from score-like ``values`` (higher is better): a softmax with temperature
    ``scale`` over the seats still ``alive`` (the others get 0).  For :meth:`State.win_estimate`."""
    live = [i for i in range(len(values)) if alive is None or alive[i]]
    if not live:
        return [1.0 / len(values)] * len(values)
    top = max(values[i] for i in live)
    weights = [0.0] * len(values)
    for i in live:
        weights[i] = math.exp((values[i] - top) / scale)
    total = sum(weights)
    return [w / total for w in weights]


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A game's rules, fixed for a number of players and a set of options.

    Subclasses declare the class attributes and implement the abstract methods.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    rules_version: ClassVar[int] = 1
    real_time: ClassVar[bool] = False
    option_specs: ClassVar[tuple[Option, ...]] = ()
    points_label: ClassVar[str] = "points"
    lower_points_win: ClassVar[bool] = False
    length_unit: ClassVar[str] = "actions"
    """What ``Outcome.details["length"]`` counts (turns, cards played, tricks...), if given."""
    variants: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    """Option sets that change play materially: the generic tests and benchmarks run each."""

    def __init__(self, players: int | None = None, options: Mapping[str, Any] | None = None):
        if players is None:
            players = self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(
                f"players must be a whole number from {self.min_players} to {self.max_players}"
            )
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        self.players = players
        self.options: dict[str, Any] = resolve_options(self.option_specs, options)
        self._validate_options()
        self._events_json: dict[tuple[Any, ...], dict[str, Any]] = {}
        """Logged events as JSON, kept by :func:`ratgames.core.events.logged_json`."""

    def _validate_options(self) -> None:
        """Check combinations of options (and options against the player count)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.players}, options={self.options!r})"

    # --- what a game must provide -------------------------------------------------------------

    @abstractmethod
    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> State:
        """A state at the start of the game: dealt from ``chance.rng``, or from ``deal``.

        A given deal is validated: a bad one (any shape or value, of any type) raises
        :class:`DealError` naming what is wrong.
        """

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written as ``text``; :class:`InvalidNotation` names what is accepted.

        Only the notation is checked here; whether the action is legal now is the state's
        business (:meth:`State.check`)."""

    @abstractmethod
    def rules(self) -> str:
        """The rules in the project's own words (Markdown), with every option and its default."""

    @abstractmethod
    def deck(self) -> list[int]:
        """Every card the game is played with (for conservation checks)."""

    @abstractmethod
    def card_text(self, card: int) -> str:
        """The notation of one card."""

    def seat_name(self, seat: int) -> str:
        """What players call a seat (``"Seat 1"`` unless the game has names such as red/black)."""
        return f"Seat {seat + 1}"

    def describe_event(self, event: Mapping[str, Any], viewer: int | None = None) -> str:
        """One event (its JSON form, see :mod:`ratgames.core.events`) as a sentence, as seat
        ``viewer`` sees it (None: a spectator).  By default the ``describe_event`` function of
        the game's ``render`` part (declared where it is registered) says it."""
        from .events import render_module_describe

        return render_module_describe(self)(self, event, viewer)

    def action_space(self) -> Sequence[Action] | None:
        """Every action the game can ever offer, where that set is small and fixed, else None."""
        return None

    def canonical_action(self, action: object) -> Action | None:
        """The game's own action equal to ``action`` field by field with the same types (``True``
        is not ``1``, ``1.0`` is not ``1``), or None if ``action`` is not an action of this game
        at all (then :meth:`not_an_action` says why).  :meth:`State.check` and
        :meth:`State.apply` refuse such an object with :class:`InvalidNotation`.

        By default every object is taken as it is, and only its equality, type for type, to a
        listed legal action makes it legal (:meth:`State._problem`)."""
        return action

    def not_an_action(self, action: object) -> str:
        """Why ``action`` (one :meth:`canonical_action` refuses) is not an action of the game,
        naming what is."""
        return f"{_short_repr(action)} is not an action of {self.title}"

    def race_aim(self, action: object) -> int | None:
        """For a real-time game: the position that ``action`` races to answer, as the
        :meth:`State.race_version` it names (a slap at pile 17 names 17), or None for an action
        that names none (by default, every action).  A server credits such an action from the
        moment that position reached its player (``docs/server.md``, "Fair races")."""
        return None

    def late_seats(self) -> tuple[int, ...]:
        """The seats that need nobody at the start: a table may begin with them open, and a
        person or a bot may take them while the game is played, coming in as the rules say
        (Egyptian Ratscrew's newcomers slap in).  The engine deals them in as it would an absent
        player; a server lets them be taken after the start and nothing else.  By default
        none."""
        return ()

    def aimed_at(self, action: object, version: int) -> Action:
        """The race action ``action`` (one :meth:`race_aim` names a version for) aimed at
        position ``version`` instead: a press too quick to answer the latest pile is judged at
        the pile before."""
        raise NotImplementedError(f"{self.title} has no race actions")

    # --- provided -------------------------------------------------------------------------------

    def new_state(
        self,
        seed: int | None = None,
        deal: Mapping[str, Any] | None = None,
        *,
        chance_script: Sequence[tuple[str, Any]] = (),
    ) -> State:
        """Start a game: shuffled and dealt from ``seed`` (a random seed if omitted) or from an
        explicit ``deal`` (every card's place, in the game's deal format; see ``rules()``).

        Later chance events (reshuffles) draw from the seed's generator, or from
        ``chance_script`` while it lasts (used by :func:`ratgames.replay`).
        """
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed must be a whole number, not {seed!r}")
        chance = Chance(seed, chance_script)
        if deal is None:
            state = self._new_state(chance, None)
        else:
            if not isinstance(deal, Mapping):
                raise DealError(f"a deal is a mapping (JSON object), not {type(deal).__name__}")
            state = self._new_state(chance, deal)
        state._seed = seed
        return state

    def restore(self, snapshot: Mapping[str, Any], rng: Rng) -> State:
        """The position ``snapshot`` (:meth:`State.snapshot` of a state of this game, with these
        players and options) as a state to play on: the same cards in the same places, the same
        seats to act, legal actions and observations.

        What a snapshot holds is the position, not its origin, so the state is a sample
        (:attr:`State.sampled`): no seed, no log, no initial deal or record, and later chance
        events draw from a generator seeded from ``rng``.  This is how a seat's honest sample
        (:meth:`State.sample_consistent`) travels, as JSON, to a bot playing over a network.

        A snapshot that is not one of this game's positions (bad JSON shape, unknown or missing
        cards, impossible values) raises :class:`SnapshotError` naming what is wrong.
        """
        if not isinstance(snapshot, Mapping):
            raise SnapshotError(
                f"a snapshot is a mapping (JSON object), not {type(snapshot).__name__}"
            )
        state = self._restore(snapshot)
        state._forget_origin(rng)
        return state

    state_class: ClassVar[type[State] | None] = None
    """The class of the game's states, if they declare their fields (:attr:`State._fields`):
    then :meth:`restore` reads a snapshot by that declaration."""

    def _restore(self, snapshot: Mapping[str, Any]) -> State:
        """The state of ``snapshot`` (see :meth:`restore`, which then makes it a sample):
        validated, with :class:`SnapshotError` naming what is wrong.

        By default each declared field of :attr:`state_class` is read by its codec (the
        snapshot's entries and their shapes checked, one wording for every game), then the
        state's :meth:`State._restored` checks what ties them together."""
        cls = self.state_class
        fields = cls._fields if cls is not None else None
        if cls is None or fields is None:
            raise SnapshotError(f"{self.title} positions cannot be restored from a snapshot")
        values = fields.read(snapshot, self, f"a {self.title} snapshot")
        state = cls.__new__(cls)
        state._init_core(self, Chance(0))
        for name, value in values.items():
            setattr(state, name, value)
        state._restored(snapshot)
        return state

    def describe(self) -> dict[str, JSON]:
        """The game's name, player counts and options, for listings."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "players": [self.min_players, self.max_players],
            "real_time": self.real_time,
            "rules_version": self.rules_version,
            "options": {
                o.name: {
                    "default": o.default,
                    "allowed": o.describe_allowed(),
                    "help": o.help,
                    **({"forms": [dataclasses.asdict(f) for f in o.forms]} if o.forms else {}),
                }
                for o in self.option_specs
            },
        }


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[A, G]):
    """One moment of one game: everything on the table, hidden or not.

    Only the game's code reads a state's fields.  Everyone else (bots, front ends, simulation,
    adapters) uses the public methods, and a player's knowledge is :meth:`observation`.

    Every public method that takes a seat refuses one that is not a seat of the game with an
    :class:`IllegalAction` (games call :meth:`_check_seat` first thing).
    """

    __slots__ = (
        "_chance",
        "_event_count",
        "_event_log",
        "_keep_events",
        "_last_stage",
        "_listed",
        "_listed_seat",
        "_log",
        "_recording",
        "_sampled",
        "_seed",
        "_time",
        "game",
    )

    game: G

    _fields: ClassVar[StateFields | None] = None
    """The game's state fields, declared once (:mod:`ratgames.core.fields`): from them the core
    derives :meth:`clone`, :meth:`snapshot` and the checks of :meth:`Game.restore`."""

    _observation_parts: ClassVar[Mapping[str, Callable[[Any, int, bool], JSON]]] = {}
    """The entries of :meth:`observation` a game builds on their own for
    :meth:`observation_part`: each key's builder, called as ``build(state, seat, events)``, must
    return exactly ``observation(seat, events)[key]``.  Games declare the entries their bots
    read at every move; any other entry comes from the whole observation."""

    def _init_core(self, game: Game, chance: Chance) -> None:
        self.game = game  # type: ignore[assignment]  # the game whose state this is: a G
        self._chance = chance
        self._log: tuple[Any, ...] | None = None
        self._recording = True
        self._seed: int | None = None
        self._time = 0.0
        self._sampled = False
        self._last_stage = -1
        self._listed: list[Any] | None = None
        self._listed_seat = -1
        self._event_log: tuple[Any, ...] | None = None
        self._event_count = 0
        self._keep_events = True

    def _copy_core_to(self, other: State) -> None:
        """For hand-written ``clone()`` methods: copy the core fields."""
        other.game = self.game
        other._chance = self._chance.clone()
        other._log = self._log
        other._recording = self._recording
        other._seed = self._seed
        other._time = self._time
        other._sampled = self._sampled
        other._last_stage = self._last_stage
        other._listed = None
        other._listed_seat = -1
        other._event_log = self._event_log
        other._event_count = self._event_count
        other._keep_events = self._keep_events

    # --- the game's event log -------------------------------------------------------------------

    def _log_event(self, kind: type, fields: tuple[Any, ...]) -> None:
        """Log that an event of class ``kind`` (an :class:`~ratgames.core.events.Event`) happened,
        with the values of its fields in order; the event object is made only when asked for
        (:meth:`_logged_events`), so logging costs a tuple.  Copies share what was logged before
        them.  A state that keeps no event log (:meth:`set_event_log`) only counts it."""
        if self._keep_events:
            self._event_log = ((kind, fields), self._event_log)
        self._event_count += 1

    def _log_entry(self, entry: tuple[Any, ...]) -> None:
        """:meth:`_log_event` of an entry made beforehand, ``(kind, fields)``: an event whose
        fields take few values (a seat and a card) is logged from a table of its entries
        (:func:`ratgames.core.events.entry_table`) without making a tuple at all, which in play
        at every move spares the memory and the garbage collector two of the three tuples an
        event costs."""
        if self._keep_events:
            self._event_log = (entry, self._event_log)
        self._event_count += 1

    def _logged(
        self, limit: int = -1, since: type | None = None
    ) -> list[tuple[type, tuple[Any, ...]]]:
        """The events logged so far (:meth:`_log_event`), oldest first, as ``(class, fields)``:
        only the latest ``limit`` if it is 0 or more, only those from the latest event of class
        ``since`` on if it is given.  A state that keeps no event log (:meth:`set_event_log`)
        refuses with a :class:`RuntimeError`: what it would list is not all that happened."""
        if not self._keep_events:
            raise RuntimeError(
                f"this {self.game.title} state keeps no event log (set_event_log(False)), so it "
                "cannot list its events: views that show events and snapshots need the log kept "
                "(set_event_log(True) before the game is played)"
            )
        return _oldest_first(self._event_log, limit, since)

    def _logged_events(self) -> list[Any]:
        """The events logged so far, oldest first, as event objects."""
        return [kind(*fields) for kind, fields in self._logged()]

    def race_version(self) -> int | None:
        """For a real-time game: the version of what race actions answer (the pile, counted up
        each time it changes), or None if the game has no races (the default)."""
        return None

    def race_open(self) -> bool:
        """For a real-time game: True while a race action could win now (the pile can be
        slapped); a server then holds other actions briefly, as a race may be on its way."""
        return False

    @property
    def event_count(self) -> int:
        """How many events have happened in the game so far (every event, seen or not: what a
        front end compares to know that something happened)."""
        return self._event_count

    # --- what a game must provide -------------------------------------------------------------

    @abstractmethod
    def seats_to_act(self) -> list[int]:
        """The seats that may act now (one seat in a turn-based game; none once it is over)."""

    def _legal_actions(self, seat: int) -> list[A]:
        """Every action ``seat`` (a seat of the game) may take now, each once, in a stable
        order: none for a seat that is not to act, or once the game is over.  The list may be
        handed out as it is (build a new one each time)."""
        raise NotImplementedError(f"{type(self).__name__} lists no legal actions")

    def _problem(self, seat: int, action: A) -> str | None:
        """Why the game's own action ``action`` (as :meth:`Game.canonical_action` gave it) is
        refused for ``seat`` (a seat of the game) now, or None if it is legal; the game is not
        over.  The one answer :meth:`check`, :meth:`is_legal`, :meth:`why_illegal` and
        :meth:`apply` all take, so a game words each refusal precisely here ("7H is not in your
        hand").  A real-time game may accept more than it lists (a slap that arrives late).

        By default: legal if it equals a listed legal action type for type (:func:`same_action`),
        else the seats awaited or the actions allowed."""
        turn = self._not_to_act(seat)
        if turn is not None:
            return turn
        legal = self.legal_actions(seat)
        for listed in legal:
            if listed == action and same_action(listed, action):
                return None
        shown = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
        return f"{action} is not allowed now; allowed: {shown}"

    @abstractmethod
    def _apply(self, seat: int, action: A, time: float | None) -> None:
        """Carry out an action already checked by :meth:`check`, taken at ``time`` seconds from
        the start (None when the caller gives no time; :meth:`apply` has checked that a given
        time is a finite number, not below the last one, and rounded it with
        :func:`clock_time`)."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def observation(self, seat: int, events: bool = True) -> dict[str, JSON]:
        """Exactly what ``seat`` may know now, including what it saw earlier (JSON-serializable).

        With ``events=False`` the play-by-play history (the ``"events"`` list, and any other list
        that retells what happened move by move) is left empty while every summary of it stays:
        for bots that do not read the history and want the observation fast.
        """

    def observation_part(
        self, seat: object, keys: Sequence[str], events: bool = False
    ) -> dict[str, JSON]:
        """Only the entries ``keys`` of :meth:`observation` (``observation(seat, events)[k]`` for
        each ``k``), for bots that read a few entries at every move, as search play-outs do.

        The entries of the game's :attr:`_observation_parts` are built on their own, without the
        rest; if any key is not one of them, all come from the whole observation.  A key the
        observation does not have raises :class:`KeyError` naming the keys it has.
        """
        checked = self._check_seat(seat)
        parts = self._observation_parts
        out: dict[str, JSON] = {}
        for key in keys:
            build = parts.get(key)
            if build is None:  # an entry built only with the whole observation
                return self._from_observation(checked, keys, events)
            out[key] = build(self, checked, events)
        return out

    def _from_observation(self, seat: int, keys: Sequence[str], events: bool) -> dict[str, JSON]:
        """The entries ``keys`` of the whole observation (see :meth:`observation_part`)."""
        full = self.observation(seat, events)
        try:
            return {k: full[k] for k in keys}
        except KeyError as exc:
            raise KeyError(
                f"the observation has no entry {exc.args[0]!r}; its entries are: " + ", ".join(full)
            ) from None

    @abstractmethod
    def spectator_view(self) -> dict[str, JSON]:
        """What someone watching the table (and seeing no hidden card) knows."""

    def clone(self: S) -> S:
        """An independent copy: each field of the game's declaration (:attr:`_fields`) shared or
        copied as it says, the core's own fields copied (no deepcopy)."""
        fields = self._fields
        if fields is None:
            raise NotImplementedError(f"{type(self).__name__} declares no fields to copy")
        cls = type(self)
        c = cls.__new__(cls)
        self._copy_core_to(c)
        fields.copy_into(self, c)
        return c

    @abstractmethod
    def sample_consistent(self: S, seat: int, rng: Rng) -> S:
        """A full state that agrees with everything ``seat`` knows, with the cards it cannot see
        dealt at random among the places they could be: a position the rules can reach, with
        every card one the rules allow in its place.  It must depend only on what ``seat``
        knows (never on the real deal, seed or order of hidden cards) and on ``rng``.  Games
        call :meth:`_forget_origin` on it, so that its seed, log, initial deal and record reveal
        nothing and its later chance events draw from a generator seeded from ``rng``.
        """

    def snapshot(self) -> dict[str, JSON]:
        """Everything in the state, hidden cards included, as JSON: each declared field with a
        codec (:attr:`_fields`), then the game's :meth:`_snapshot_extra` entries.  What
        :meth:`Game.restore` reads back."""
        fields = self._fields
        if fields is None:
            raise NotImplementedError(f"{type(self).__name__} declares no fields to snapshot")
        snap = fields.write(self)
        snap.update(self._snapshot_extra())
        return snap

    def _snapshot_extra(self) -> dict[str, JSON]:
        """The entries a game's snapshot holds beyond its declared fields (named in the
        declaration's ``extra``): none by default."""
        return {}

    def _restored(self, snapshot: Mapping[str, Any]) -> None:
        """For :meth:`Game.restore`: this state holds the fields read from ``snapshot`` (each of
        the right shape); check what ties them together (every card once, whose turn it can
        be...) and set the fields kept out of snapshots, raising :class:`SnapshotError` naming
        what is wrong.  Nothing more by default."""

    @abstractmethod
    def cards(self) -> list[int]:
        """Every card now in the game, wherever it is (for conservation checks)."""

    @abstractmethod
    def _initial_deal(self) -> dict[str, JSON]:
        """The deal this game started from, in the game's deal format (``new_state(deal=...)``);
        only asked of a state that is not a sample."""

    # --- provided -------------------------------------------------------------------------------

    @property
    def seed(self) -> int | None:
        """The seed the game was started with (None for a state built otherwise)."""
        return self._seed

    @property
    def sampled(self) -> bool:
        """True for a state drawn by :meth:`sample_consistent` (a hypothesis, not a real game)."""
        return self._sampled

    def initial_deal(self) -> dict[str, JSON]:
        """The deal this game started from, in the game's deal format (``new_state(deal=...)``).

        A sample has none (its start is not part of what its seat knows): :class:`RecordError`.
        """
        if self._sampled:
            raise RecordError(
                "a state sampled for a seat's knowledge has no initial deal and no record"
            )
        return self._initial_deal()

    def _forget_origin(self, rng: Rng) -> None:
        """For :meth:`sample_consistent`: make this copy a sample.  It keeps no seed, no log of
        earlier moves or chance outcomes and no initial deal (all of which could tell the real
        hidden cards), and its later chance events draw from a generator seeded from ``rng``."""
        self._chance = Chance(rng.next64())
        self._seed = None
        self._log = None
        self._sampled = True

    def stage(self) -> int:
        """How many scoring units (rounds, deals) have ended so far; always 0 in a game of one.

        Search may stop a playout when the stage moves on and judge the position with
        :meth:`win_estimate` instead of playing every later round out.
        """
        return 0

    def win_estimate(self) -> list[float] | None:
        """Each seat's estimated share of the win from here, summing to 1, judged from the
        scores so far (for search, which calls it on its own samples); None if the game has no
        such estimate (search then plays to the end)."""
        return None

    def _check_seat(self, seat: object) -> int:
        """``seat`` if it is a seat of this game, else :class:`IllegalAction` naming the seats."""
        if seat.__class__ is not int or not 0 <= seat < self.game.players:  # type: ignore[operator,unused-ignore]
            raise IllegalAction(
                f"there is no seat {seat!r}; seats are numbered 0 to {self.game.players - 1}"
            )
        return seat  # type: ignore[return-value,unused-ignore]

    def _check_time(self, time: object) -> float | None:
        """``time`` on the engine's clock (:func:`clock_time`) if it is a valid action time,
        else :class:`IllegalAction` naming what is allowed."""
        if time is None:
            return None
        if time.__class__ not in (int, float):
            raise IllegalAction(
                "an action's time is a number of seconds from the start (an int or a float), "
                f"not {_short_repr(time)}"
            )
        try:
            t = float(time)  # type: ignore[arg-type,unused-ignore]
        except OverflowError:  # an int too large for a float
            t = math.inf
        if not math.isfinite(t) or t < 0:
            raise IllegalAction(
                "an action's time must be a finite number of seconds, 0 or more, "
                f"not {_short_repr(time)}"
            )
        t = clock_time(t)
        if t < self._time:
            raise IllegalAction(
                f"an action's time cannot go back: {t:g} s is before the last action's "
                f"{self._time:g} s"
            )
        return t

    def _not_to_act(self, seat: int) -> str | None:
        """None if ``seat`` is one of :meth:`seats_to_act`, else the refusal naming whom the
        game waits for."""
        waiting = self.seats_to_act()
        if seat in waiting:
            return None
        names = " or ".join(self.game.seat_name(s) for s in waiting) or "nobody"
        return f"it is not {self.game.seat_name(seat)}'s turn; waiting for {names}"

    def legal_actions(self, seat: object) -> list[A]:
        """Every action ``seat`` may take now, each once, in a stable order (none for a seat
        that is not to act).  The very objects listed are then accepted by :meth:`apply` at
        once, until the state changes: the list is the state's own record of them, to be read,
        never changed."""
        if seat.__class__ is not int or not 0 <= seat < self.game.players:  # type: ignore[operator,unused-ignore]
            seat = self._check_seat(seat)
        found = self._legal_actions(seat)  # type: ignore[arg-type,unused-ignore]
        self._listed = found
        self._listed_seat = seat  # type: ignore[assignment,unused-ignore]
        return found

    def _is_listed(self, seat: object, action: object) -> bool:
        """True if ``action`` is the very object :meth:`legal_actions` just listed for ``seat``
        in this position (so legal, with no further check)."""
        listed = self._listed
        if listed is None or seat.__class__ is not int or seat != self._listed_seat:
            return False
        for a in listed:  # noqa: SIM110  (a plain loop is the fastest)
            if a is action:
                return True
        return False

    def _checked(self, seat: object, action: object) -> A:
        """The game's own action for ``action`` if ``seat`` may take it now, else
        :class:`IllegalAction` with the reason (:class:`InvalidNotation` for an object that is no
        action of the game at all)."""
        if seat.__class__ is not int or not 0 <= seat < self.game.players:  # type: ignore[operator,unused-ignore]
            seat = self._check_seat(seat)
        if self.is_over():
            raise IllegalAction("the game is over")
        act = self.game.canonical_action(action)
        if act is None:
            raise InvalidNotation(self.game.not_an_action(action))
        problem = self._problem(seat, act)  # type: ignore[arg-type,unused-ignore]
        if problem is not None:
            raise IllegalAction(problem)
        return act  # type: ignore[return-value]

    def why_illegal(self, seat: object, action: Action) -> str:
        """Why ``action`` is refused for ``seat`` now (the game's :meth:`_problem`), or that it
        is allowed."""
        seat = self._check_seat(seat)
        if self.is_over():
            return "the game is over"
        act = self.game.canonical_action(action)
        if act is None:
            return self.game.not_an_action(action)
        problem = self._problem(seat, act)  # type: ignore[arg-type]
        return problem if problem is not None else f"{act} is allowed"

    def is_legal(self, seat: object, action: Action) -> bool:
        """True if :meth:`apply` would accept ``action`` from ``seat`` now: the game's own action
        (:meth:`Game.canonical_action`: field by field with the same types, ``True`` is not
        ``1``, ``1.0`` is not ``1``, so that its notation replays to the same game) that
        :meth:`_problem` does not refuse."""
        if self._is_listed(seat, action):
            return True
        seat = self._check_seat(seat)
        if self.is_over():
            return False
        act = self.game.canonical_action(action)
        return act is not None and self._problem(seat, act) is None  # type: ignore[arg-type]

    def check(self, seat: object, action: Action) -> None:
        """Raise :class:`IllegalAction` with the reason unless ``action`` is legal for ``seat``
        (:class:`InvalidNotation` for an object that is no action of the game at all)."""
        if not self._is_listed(seat, action):
            self._checked(seat, action)

    def apply(self, seat: object, action: A | str, time: object = None) -> None:
        """Apply ``action`` (an action or its notation) by ``seat``, at ``time`` seconds from the
        start if known (an int or float, finite, not negative, never below an earlier action's
        time).  The engine keeps times to 0.1 ms (:func:`clock_time`): a time is rounded on
        entry and compared with the last one as rounded, live and in a replay alike.  An
        illegal or malformed action (or time) raises :class:`IllegalAction`
        (:class:`InvalidNotation` for text that is not an action) and leaves the state exactly
        as it was.
        """
        # The commonest case first: the very object legal_actions just listed, with no time.
        listed = self._listed
        if (
            listed is not None
            and time is None
            and seat.__class__ is int
            and seat == self._listed_seat
        ):
            for a in listed:
                if a is action:
                    self._listed = None
                    if self._recording:
                        self._log = (("action", seat, a, None), self._log)
                    self._apply(seat, a, None)  # type: ignore[arg-type,unused-ignore]
                    return
        t = None if time is None else self._check_time(time)
        act: A = self._checked(
            seat, self.game.parse_action(action) if isinstance(action, str) else action
        )
        checked: int = seat  # type: ignore[assignment]  # _checked() refused any other seat
        self._listed = None
        if t is not None:
            self._time = t
        if self._recording:
            self._log = (("action", checked, act, t), self._log)
        self._apply(checked, act, t)

    def apply_trusted(self, seat: int, action: A, time: float | None = None) -> None:
        """Apply ``action`` by ``seat`` with no check: the fast path for callers that took it from
        this very state's :meth:`legal_actions` (search play-outs, simulation, training).

        Anything else must go through :meth:`apply`: an action that is not legal here leaves the
        state corrupt.  ``time``, if given, must be one :meth:`apply` would accept.
        """
        self._listed = None
        if time is not None:
            time = clock_time(time)
            self._time = time
        if self._recording:
            self._log = (("action", seat, action, time), self._log)
        self._apply(seat, action, time)

    def random_playout(
        self, rng: Rng, depth: int, stage: int = -1, scoring_only: bool = False
    ) -> int:
        """Play uniformly random legal actions on the trusted path until the game is over,
        ``depth`` actions have been played or (with ``stage`` of 0 or more) :meth:`stage` is no
        longer ``stage``; return how many were played.  Search play-outs call it.

        Each action is ``legal[rng.randbelow(len(legal))]`` with ``legal`` the acting seat's
        :meth:`legal_actions` (the first seat of :meth:`seats_to_act`), applied as
        :meth:`apply_trusted` would.  A game may override this with a faster loop, provided it
        draws the same numbers from ``rng`` and plays the same actions, so that every play-out
        ends in the same state: a game gives its faster loop as :meth:`_random_playout`.

        ``scoring_only`` says that the caller will only score the state afterwards
        (:meth:`is_over`, :meth:`outcome`, :meth:`win_estimate`, :meth:`stage`) and play no
        further on it: a game may then leave out what only later play needs, such as dealing the
        stage that follows ``stage``.  The actions played and the numbers drawn from ``rng`` stay
        the same.
        """
        self._listed = None
        return self._random_playout(rng, depth, stage, scoring_only)

    def _random_playout(self, rng: Rng, depth: int, stage: int, scoring_only: bool) -> int:
        """:meth:`random_playout` (whose description a game's faster loop must keep): by default
        :meth:`_legal_actions` and :meth:`apply_trusted` at each step."""
        steps = 0
        while steps < depth and not self.is_over() and (stage < 0 or self.stage() == stage):
            seat = self.seats_to_act()[0]
            legal = self._legal_actions(seat)
            self.apply_trusted(seat, legal[rng.randbelow(len(legal))])
            steps += 1
        return steps

    def only_scored_after(self, stage: int) -> None:
        """Promise that this state will be played on only while :meth:`stage` is ``stage`` (and
        the game goes on), and is then only scored (:meth:`is_over`, :meth:`outcome`,
        :meth:`win_estimate`, :meth:`stage`); ``-1`` lifts the promise.  Copies made with
        :meth:`clone` keep it.

        Search makes it on the samples it plays out to the end of the round in play, which need
        nothing of the next round: once :meth:`stage` has moved on, shuffles
        (:meth:`_shuffle`) leave the cards as they are, and a game may leave out the rest of its
        next round's deal too.  For states that keep no log (:meth:`set_recording`).
        """
        self._last_stage = stage

    def _shuffle(self, cards: MutableSequence[int], what: str) -> None:
        """Shuffle ``cards`` in place as a recorded chance event named ``what`` (left as they
        are in a state only scored from here, see :meth:`only_scored_after`)."""
        if self._last_stage >= 0 and self.stage() != self._last_stage:
            return
        self._chance.shuffle(cards, what)
        if self._recording:
            self._log = (("chance", what, tuple(cards)), self._log)

    def _chance_below(self, n: int, what: str) -> int:
        """A recorded uniform chance outcome in ``range(n)``."""
        value = self._chance.below(n, what)
        if self._recording:
            self._log = (("chance", what, value), self._log)
        return value

    def set_recording(self, on: bool) -> None:
        """Stop (or restart) keeping the action log: search rollouts need no record."""
        self._recording = on

    def set_event_log(self, on: bool) -> None:
        """Stop (or restart) keeping the log of the game's events (:meth:`_log_event`), which
        observations with events, snapshots and the front ends read.  Events are still counted
        (:attr:`event_count`).  Copies keep the setting.

        For callers that read only what the state holds now (the batched environments' feature
        vectors and masks, play-outs): a long game's log is many small long-lived objects, which
        the garbage collector walks again and again.  Stopping drops the log kept so far;
        restarting logs the events from then on only, and reading the log while it is stopped
        (:meth:`_logged`) raises :class:`RuntimeError`."""
        self._keep_events = on
        if not on:
            self._event_log = None

    def events(self) -> list[tuple[Any, ...]]:
        """The log, oldest first: ``("action", seat, action, time)`` and
        ``("chance", what, outcome)`` entries."""
        return _oldest_first(self._log, -1, None)

    def actions(self) -> Iterator[tuple[int, Action]]:
        """The ``(seat, action)`` pairs applied so far, oldest first."""
        for event in self.events():
            if event[0] == "action":
                yield event[1], event[2]

    def record(
        self,
        seats: Sequence[Mapping[str, Any]] | None = None,
        **extra: Any,
    ) -> dict[str, JSON]:
        """The game record (see :mod:`ratgames.core.records`)."""
        from .records import build_record

        return build_record(self, seats, **extra)
