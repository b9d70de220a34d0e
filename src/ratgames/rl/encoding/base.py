"""What every game's encoder provides: a fixed integer action space with legal-action masks, and
a float32 observation tensor with a documented layout.

An encoder is built from a :class:`~ratgames.core.game.Game` and reads only the public API: a
seat's ``observation``, its ``legal_actions``, ``game.parse_action``, ``str(action)``,
``game.card_text``/``game.deck`` and the options.  A game may also give its encoder
:class:`Features`, its own code that reads the same vector straight from the state (faster: no
observation is built), held equal to the vector of the observation by the tests.

Actions.  Each action of the game maps to a short sequence of ids (:meth:`Encoder.action_ids`):
one id for most actions; two for the few games whose combinations are too many to list one by
one (a Rats run with jokers: first which run, then where its jokers go).  An agent picks one id
at a time; the ids it may pick next are those that continue some legal action's sequence from
the ids it has picked so far (its *pending* ids, empty at the start of each decision).

Observations.  :meth:`Encoder.observe` writes one flat ``float32`` vector with every value in
[0, 1], made of named sections in a fixed order (:attr:`Encoder.layout`).  The encoders read the
observation's keys directly, so a renamed or missing key raises ``KeyError`` and an unknown value
raises :class:`EncodingError`: a changed observation fails loudly instead of encoding zeros.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ratgames.core.game import Game, State

from ..rows import scaled

Vector = npt.NDArray[np.float32]

WAIT = 0
"""In a game played in ticks (a real-time game, :class:`ratgames.rl.table.Ticks`), id 0 is
"wait": doing nothing this tick, always allowed."""


class EncodingError(ValueError):
    """An observation or action the encoder does not know (a changed observation format, an id
    that is not an action)."""


class Layout:
    """The named sections of an observation vector, in order."""

    def __init__(self) -> None:
        self.sections: list[tuple[str, int]] = []
        self.offsets: dict[str, tuple[int, int]] = {}
        self.size = 0

    def add(self, name: str, size: int) -> None:
        """Append a section of ``size`` values."""
        if name in self.offsets:
            raise ValueError(f"section {name!r} twice")
        self.offsets[name] = (self.size, self.size + size)
        self.sections.append((name, size))
        self.size += size

    def markdown(self) -> str:
        """The layout as a Markdown table (offset, size, name)."""
        rows = ["| offset | size | section |", "|---|---|---|"]
        for name, size in self.sections:
            rows.append(f"| {self.offsets[name][0]} | {size} | `{name}` |")
        return "\n".join(rows)


class Writer:
    """Fills an observation vector section by section, in the layout's order.

    The values of :meth:`one_hot`, :meth:`bits` and :meth:`scaled` are gathered as positions
    and values and written into the vector at once by :meth:`done` (one numpy assignment
    instead of one per value); :meth:`take` gives a section's slice to write directly."""

    __slots__ = ("_at", "_values", "index", "layout", "out")

    def __init__(self, layout: Layout, out: Vector) -> None:
        self.layout = layout
        self.out = out
        self.index = 0
        self._at: list[int] = []
        self._values: list[float] = []

    def _next(self, name: str) -> tuple[int, int]:
        sections = self.layout.sections
        i = self.index
        if i >= len(sections) or sections[i][0] != name:
            expected = sections[i][0] if i < len(sections) else "nothing"
            raise AssertionError(f"section {name!r} written out of order; expected {expected}")
        self.index = i + 1
        return self.layout.offsets[name]

    def take(self, name: str) -> Vector:
        """The slice of section ``name``, which must be the next one."""
        lo, hi = self._next(name)
        return self.out[lo:hi]

    def one_hot(self, name: str, index: int | None) -> None:
        """Section ``name`` with a 1 at ``index`` (all zeros for None)."""
        lo, hi = self._next(name)
        if index is not None:
            if not 0 <= index < hi - lo:
                raise EncodingError(f"{name}: index {index} outside 0..{hi - lo - 1}")
            self._at.append(lo + index)
            self._values.append(1.0)

    def bits(self, name: str, indices: Iterable[int]) -> None:
        """Section ``name`` with a 1 at each of ``indices``."""
        lo, hi = self._next(name)
        size = hi - lo
        at, values = self._at, self._values
        for i in indices:
            if not 0 <= i < size:
                raise EncodingError(f"{name}: index {i} outside 0..{size - 1}")
            at.append(lo + i)
            values.append(1.0)

    def scaled(self, name: str, values: Sequence[float], scale: float) -> None:
        """Section ``name`` with ``values / scale``, clipped to [0, 1]."""
        lo, hi = self._next(name)
        if len(values) != hi - lo:
            raise EncodingError(f"{name}: {len(values)} values for {hi - lo} places")
        at, out = self._at, self._values
        for i, v in enumerate(values):
            if (v.__class__ is not int and v.__class__ is not float) and (
                isinstance(v, bool) or not isinstance(v, int | float)
            ):
                raise EncodingError(f"{name}: {v!r} is not a number")
            x = float(v) / scale
            if x:
                at.append(lo + i)
                out.append(1.0 if x > 1.0 else (x if x > 0.0 else 0.0))

    def done(self) -> None:
        """Check that every section was written, and write the gathered values."""
        if self.index != len(self.layout.sections):
            missing = [n for n, _ in self.layout.sections[self.index :]]
            raise AssertionError(f"sections not written: {missing}")
        if self._at:
            self.out[self._at] = self._values
            self._at = []
            self._values = []


def index_of(name: str, value: Any, choices: Sequence[Any]) -> int:
    """The position of ``value`` in ``choices``, or :class:`EncodingError`."""
    try:
        return list(choices).index(value)
    except ValueError:
        raise EncodingError(f"{name}: unknown value {value!r}; known: {list(choices)}") from None


def relative(seat: int | None, me: int, players: int) -> int | None:
    """``seat`` counted from ``me`` (0 is me, 1 the next seat...); None stays None."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise EncodingError(f"{seat!r} is not a seat")
    return (seat - me) % players


def rotate(values: Sequence[Any], me: int) -> list[Any]:
    """A per-seat list reordered to start at seat ``me``."""
    n = len(values)
    return [values[(me + i) % n] for i in range(n)]


class Features(Protocol):
    """A game's observation vector read straight from its state (an encoder's
    :attr:`Encoder.features`), for speed: the same vector as the encoder makes of the seat's
    observation, without building the observation."""

    bit_starts: list[int]
    """Where the vector's sections given as bit masks start (none for most games)."""
    bit_width: int
    """How many positions each of those sections has (at most 64)."""

    def write(
        self,
        state: Any,
        seat: int,
        pending: int,
        ones: list[int],
        at: list[int],
        values: list[Any],
        bits: list[Any] | None,
    ) -> None:
        """Append ``seat``'s vector: the positions (in the vector) of its ones to ``ones``,
        every other nonzero value to ``values`` with its position in ``at``, and the sections
        of :attr:`bit_starts` to ``bits``, one bit mask each in that order (bit ``i`` of a
        mask: position ``start + i``); without ``bits`` (None) their ones go to ``ones`` too.
        ``pending`` is the first pending id of a two-step choice, else -1.

        Features with a list ``scales`` (a divisor for every position of the vector) give
        counts as ``values`` instead: the value is the count divided by the divisor at its
        position, clipped to [0, 1] (small ints are shared objects, floats made anew)."""


def unpack_bits(masks: Sequence[int], width: int) -> npt.NDArray[np.uint8]:
    """Bit masks (each below ``2 ** 64``) as rows of ``width`` zeros and ones, bit ``i`` of a
    mask in column ``i``."""
    packed = np.fromiter(masks, dtype="<u8", count=len(masks)).view(np.uint8)
    return np.unpackbits(packed.reshape(-1, 8), axis=1, bitorder="little")[:, :width]


class Encoder(ABC):
    """A game's fixed action space and observation tensor (see the module docstring)."""

    game: Game
    num_actions: int
    """Size of the id space (every id of every step)."""
    max_ids_per_action: int = 1
    """The longest id sequence of an action (2 where some actions take two steps)."""
    layout: Layout
    features: Features | None = None
    """The game's compiled reader of the vector from the state (:class:`Features`), if it has
    one: :meth:`observe` and the batched environments use it instead of the observation."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.cards = sorted(set(game.deck()))
        self.card_index = {game.card_text(c): i for i, c in enumerate(self.cards)}
        self._ids: dict[Hashable, tuple[int, ...]] = {}

    # --- actions --------------------------------------------------------------------------------

    @abstractmethod
    def _action_ids(self, action: Hashable) -> tuple[int, ...]:
        """The id sequence of ``action`` (uncached)."""

    @abstractmethod
    def action_from_ids(self, ids: Sequence[int]) -> Hashable:
        """The action whose id sequence is ``ids``; :class:`EncodingError` if there is none."""

    @abstractmethod
    def id_text(self, action_id: int) -> str:
        """A short name of one id (for logs and OpenSpiel's ``action_to_string``)."""

    def action_ids(self, action: Hashable) -> tuple[int, ...]:
        """The id sequence of ``action`` (remembered)."""
        got = self._ids.get(action)
        if got is None:
            got = self._ids[action] = self._action_ids(action)
            if len(self._ids) > 200_000:
                self._ids.clear()
        return got

    def next_ids(self, legal: Sequence[Hashable], pending: Sequence[int] = ()) -> list[int]:
        """The ids that continue a legal action's sequence after ``pending``, ascending."""
        k = len(pending)
        pre = tuple(pending)
        out: set[int] = set()
        for action in legal:
            ids = self.action_ids(action)
            if len(ids) > k and ids[:k] == pre:
                out.add(ids[k])
        return sorted(out)

    def mask(self, legal: Sequence[Hashable], pending: Sequence[int] = ()) -> npt.NDArray[np.int8]:
        """The legal-action mask (int8, 1 for every id of :meth:`next_ids`)."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        for i in self.next_ids(legal, pending):
            m[i] = 1
        return m

    def complete(self, legal: Sequence[Hashable], ids: Sequence[int]) -> Hashable | None:
        """The legal action whose whole sequence is ``ids``, or None if ``ids`` is a legal
        beginning that needs more ids; :class:`EncodingError` if no legal action starts so."""
        seq = tuple(ids)
        started = False
        for action in legal:
            got = self.action_ids(action)
            if got == seq:
                return action
            if got[: len(seq)] == seq:
                started = True
        if not started:
            raise EncodingError(f"ids {list(seq)} begin no legal action")
        return None

    # --- length -------------------------------------------------------------------------------

    def max_decisions(self, max_ticks: int | None = None) -> int:
        """The most decisions a game of this game (with its options and players) can take
        (OpenSpiel's ``max_game_length``): one id chosen by one player is a decision (one step
        of a two-step choice counts as one), chance steps are not counted.  A game played in
        ticks takes one joint decision a tick and is stopped after ``max_ticks``; a turn-based
        game's encoder gives the bound its rules and safety caps allow."""
        if self.game.real_time:
            if max_ticks is None:
                raise ValueError(f"{self.game.title} is played in ticks: give max_ticks")
            return int(max_ticks)
        raise ValueError(
            f"the encoder of {self.game.id} gives no bound on the length of a game "
            "(it overrides max_decisions where the rules allow one)"
        )

    # --- observations ---------------------------------------------------------------------------

    @property
    def obs_size(self) -> int:
        """Length of the observation vector."""
        return self.layout.size

    @abstractmethod
    def _write(self, obs: Mapping[str, Any], w: Writer, pending: Sequence[int]) -> None:
        """Write every section of the layout from ``obs`` (a seat's observation)."""

    def encode(self, obs: Mapping[str, Any], pending: Sequence[int] = ()) -> Vector:
        """The observation vector of a seat's ``obs`` (with its ``pending`` ids)."""
        out = np.zeros(self.layout.size, dtype=np.float32)
        w = Writer(self.layout, out)
        self._write(obs, w, pending)
        w.done()
        return out

    def observe(self, state: State, seat: int, pending: Sequence[int] = ()) -> Vector:
        """The observation vector of ``seat`` in ``state`` (read through :attr:`features`
        where the game has them: the same vector)."""
        f = self.features
        if f is None:
            return self.encode(state.observation(seat, events=False), pending)
        out = np.zeros(self.layout.size, dtype=np.float32)
        ones: list[int] = []
        at: list[int] = []
        values: list[Any] = []
        f.write(state, seat, pending[0] if pending else -1, ones, at, values, None)
        out[ones] = 1.0
        if at:
            scales = getattr(f, "scales", None)
            out[at] = values if scales is None else scaled(values, at, scales)
        return out

    def observe_slow(self, state: State, seat: int, pending: Sequence[int] = ()) -> Vector:
        """The observation vector of ``seat`` in ``state`` made from its observation (what
        :attr:`features` must equal)."""
        return self.encode(state.observation(seat, events=False), pending)

    def first_ids(self, legal: Sequence[Hashable]) -> list[int]:
        """The first id of each of ``legal`` (the ids of the mask with nothing pending; an id
        may come more than once)."""
        ids = self.action_ids
        return [ids(a)[0] for a in legal]

    # --- cards ----------------------------------------------------------------------------------

    def card(self, text: Any) -> int:
        """The index (0..len(deck kinds)-1) of a card written as ``text``."""
        i = self.card_index.get(text) if isinstance(text, str) else None
        if i is None:
            raise EncodingError(f"{text!r} is not a card of {self.game.id}")
        return i

    def card_list(self, texts: Any) -> list[int]:
        """The indices of a list of card texts."""
        if not isinstance(texts, list):
            raise EncodingError(f"expected a list of cards, not {texts!r}")
        try:
            return [self.card_index[t] for t in texts]
        except (KeyError, TypeError):  # name the card that is not one
            return [self.card(t) for t in texts]


class ListEncoder(Encoder):
    """Action ids from the game's own :meth:`~ratgames.core.game.Game.action_space` (one id per
    action, in that order)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        space = game.action_space()
        if space is None:
            raise EncodingError(f"{game.id} has no fixed action space")
        self.actions: list[Hashable] = list(space)
        self.index = {a: i for i, a in enumerate(self.actions)}
        if len(self.index) != len(self.actions):
            raise EncodingError(f"{game.id}: the action space lists an action twice")
        self.num_actions = len(self.actions)
        self.index_by_id = {id(a): i for i, a in enumerate(self.actions)}
        """The id of each action object of the space, by identity (the games hand out these
        objects as their legal actions; another equal object is found by :attr:`index`)."""

    def first_ids(self, legal: Sequence[Hashable]) -> list[int]:
        by_id, index = self.index_by_id, self.index
        out = []
        for a in legal:
            i = by_id.get(id(a))
            out.append(index[a] if i is None else i)
        return out

    def _action_ids(self, action: Hashable) -> tuple[int, ...]:
        i = self.index.get(action)
        if i is None:
            raise EncodingError(f"{action!r} is not in the action space of {self.game.id}")
        return (i,)

    def action_from_ids(self, ids: Sequence[int]) -> Hashable:
        if len(ids) != 1 or not 0 <= ids[0] < self.num_actions:
            raise EncodingError(f"ids {list(ids)} are not an action of {self.game.id}")
        return self.actions[ids[0]]

    def id_text(self, action_id: int) -> str:
        return str(self.actions[action_id])
