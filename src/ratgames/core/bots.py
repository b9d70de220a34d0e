# ratgames: compiled
"""Bots: players that see only their seat's observation and legal actions.

A bot is given a :class:`SeatView` for each decision.  The view offers the seat's observation, its
legal actions and :meth:`SeatView.sample_consistent` (full states that agree with what the seat
knows, for search), and nothing else of the true state.

Bots are made by name with parameters, as typed on the command line::

    make_bot(game, "heuristic:memory=0.6", seed=1)
    make_bot(game, "ismcts:iterations=2000,rollout=heuristic", seed=1)

A game offers its own bots through :func:`register_bot` with its game id; bots registered without
a game id (such as ``random``) play every game.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ._mypyc import mypyc_attr
from .errors import OptionError, UnknownNameError
from .game import Action
from .options import Option
from .rng import Rng

if TYPE_CHECKING:
    from .game import Game, State


@mypyc_attr(allow_interpreted_subclasses=True)
class SeatView:
    """What one seat may use to decide: its observation, its legal actions, consistent samples.

    The true state stays private; a bot must not reach for it.
    """

    __slots__ = ("__state", "_obs", "_obs_events", "now", "seat")

    def __init__(self, state: State, seat: int, now: float = 0.0) -> None:
        self.__state = state
        self.seat = seat
        self.now = now
        self._obs: dict[str, Any] | None = None
        self._obs_events = False

    @property
    def game(self) -> Game:
        """The game being played (its rules and options are public)."""
        return self.__state.game

    def observation(self, events: bool = True) -> dict[str, Any]:
        """The seat's observation (built once per view); ``events=False`` leaves the
        play-by-play history lists empty, which is quicker (for bots that do not read them)."""
        if self._obs is None or (events and not self._obs_events):
            self._obs = self.__state.observation(self.seat, events)
            self._obs_events = events
        return self._obs

    def observation_part(self, keys: Sequence[str], events: bool = False) -> dict[str, Any]:
        """Only the entries ``keys`` of the seat's observation, built without the rest where the
        game can (see :meth:`State.observation_part`): quicker for a bot that reads a few."""
        if self._obs is not None and self._obs_events == events:
            obs = self._obs
            return {k: obs[k] for k in keys}
        return self.__state.observation_part(self.seat, keys, events)

    def legal_actions(self) -> list[Action]:
        """The actions the seat may take now."""
        return self.__state.legal_actions(self.seat)

    def sample_consistent(self, rng: Rng) -> State:
        """A full state consistent with this seat's knowledge (hidden cards re-dealt at random)."""
        return self.__state.sample_consistent(self.seat, rng)


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
@dataclass(frozen=True)
class Reaction:
    """A real-time bot's answer: ``action``, arriving ``delay`` seconds after what it reacts to."""

    action: Action
    delay: float


@mypyc_attr(allow_interpreted_subclasses=True)
class Bot:
    """Base class of bots.  Turn-based bots implement :meth:`act`; real-time bots :meth:`react`.

    ``params`` declares the parameters a bot takes (as :class:`Option` objects), so that
    ``name:key=value`` texts are checked with clear errors.
    """

    params: ClassVar[tuple[Option, ...]] = ()
    name: ClassVar[str] = "bot"
    """The bot's registered name (a class attribute, so that a subclass's own wins, compiled or
    not)."""
    turn_based_only: ClassVar[bool] = False
    """True for bots that cannot play a real-time game (search takes turns)."""

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        self.game = game
        self.rng = Rng(seed)
        self.settings = params

    def __reduce_ex__(self, protocol: Any) -> Any:
        # A compiled bot's __new__ runs __init__, so it is pickled as its class, game and
        # settings, rebuilt through its constructor, with every attribute then set as it was
        # (the server thinks in worker processes).  A bot of the Python modules pickles as usual.
        if hasattr(self, "__dict__"):
            return object.__reduce_ex__(self, protocol)
        return (_rebuilt_bot, (type(self), self.game, dict(self.settings), bot_attributes(self)))

    def new_game(self, seat: int) -> None:
        """Called before a game starts; stateful bots reset here."""

    def act(self, view: SeatView) -> Action:
        """Choose one of ``view.legal_actions()``."""
        raise NotImplementedError

    def react(self, view: SeatView) -> Reaction | None:
        """For real-time games: the action to take and its delay, or None to wait.

        The default acts at once with :meth:`act` when the seat has a legal action.
        """
        if not view.legal_actions():
            return None
        return Reaction(self.act(view), 0.0)

    def describe(self) -> str:
        """The bot's name with its parameters, as it could be typed."""
        if not self.settings:
            return self.name
        inner = ",".join(f"{k}={_fmt(v)}" for k, v in self.settings.items())
        return f"{self.name}:{inner}"


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        return legal[self.rng.randbelow(len(legal))]


@mypyc_attr(native_class=False)  # a plain Python class even when compiled
def _rebuilt_bot(
    cls: type[Bot], game: Game, settings: dict[str, Any], attributes: list[tuple[str, Any]]
) -> Bot:
    """A pickled compiled bot rebuilt (see :meth:`Bot.__reduce_ex__`)."""
    bot = cls(game, 0, **settings)
    for name, value in attributes:
        setattr(bot, name, value)
    return bot


def bot_attributes(bot: Bot) -> list[tuple[str, Any]]:
    """A bot's attributes as (name, value), in the order they were first set (``vars(bot)``).

    A bot of a compiled build has no ``__dict__``; its attributes are read in the order its
    classes declare them, base classes first, which is the order their ``__init__`` sets them.
    """
    try:
        return list(vars(bot).items())
    except TypeError:
        names: list[str] = []
        for cls in reversed(type(bot).__mro__):
            for name in cls.__dict__.get("__mypyc_attrs__", ()):
                # Instance attributes are the class's data descriptors.
                if name not in names and inspect.isdatadescriptor(getattr(type(bot), name, None)):
                    names.append(name)
        return [(n, getattr(bot, n)) for n in names if hasattr(bot, n)]


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: its name, class, one-line description and the games it plays.

    ``loader`` is the class, or ``"module:Class"`` for a bot imported only when first used (a
    bot from an optional extra, so that listing the bots or starting a game stays fast)."""

    name: str
    loader: type[Bot] | str
    summary: str
    game_id: str | None
    lazy_turn_based_only: bool = False
    """For a lazily imported bot: whether it plays turn-based games only (known unimported)."""

    @property
    def cls(self) -> type[Bot]:
        """The bot's class (imported now if it was registered by name)."""
        if isinstance(self.loader, str):
            import importlib

            module, _, attr = self.loader.partition(":")
            cls = getattr(importlib.import_module(module), attr)
            assert isinstance(cls, type) and issubclass(cls, Bot)
            return cls
        return self.loader

    @property
    def turn_based_only(self) -> bool:
        if isinstance(self.loader, str):
            return self.lazy_turn_based_only
        return self.loader.turn_based_only


_BOTS: dict[tuple[str | None, str], BotEntry] = {}


def register_bot(name: str, cls: type[Bot], summary: str, game_id: str | None = None) -> None:
    """Make ``cls`` available as ``name`` for ``game_id`` (every game if that is None)."""
    _BOTS[(game_id, name)] = BotEntry(name, cls, summary, game_id)


def register_lazy_bot(
    name: str, target: str, summary: str, *, turn_based_only: bool, game_id: str | None = None
) -> None:
    """Make the class ``target`` (``"module:Class"``) available as ``name``, imported only when
    the bot is first made or its parameters are asked for."""
    if (game_id, name) not in _BOTS:
        _BOTS[(game_id, name)] = BotEntry(name, target, summary, game_id, turn_based_only)


def bot_entries(game_id: str) -> list[BotEntry]:
    """Every bot that plays ``game_id``: the game's own bots first, then the general ones."""
    from .registry import game_class, game_part

    # The registry loads the plugins, among them the bots that play every game (such as search).
    # A game's own bots are its ``bots`` part (declared where it is registered): importing it
    # registers them.
    game_part(game_id, "bots")
    real_time = game_class(game_id).real_time
    own = [
        e for (g, _), e in _BOTS.items() if g == game_id and not (real_time and e.turn_based_only)
    ]
    general = [
        e
        for (g, n), e in _BOTS.items()
        if g is None and (game_id, n) not in _BOTS and not (real_time and e.turn_based_only)
    ]
    return own + general


Sampler = Callable[["Rng"], "State"]
"""Draws one full state the seat thinks possible (see :func:`register_belief`)."""

_BELIEFS: dict[str, Callable[[SeatView], Sampler]] = {}


def register_belief(game_id: str, belief: Callable[[SeatView], Sampler]) -> None:
    """Give search bots an opponent model for ``game_id``.

    ``belief(view)`` is called once per decision and returns a sampler: ``sampler(rng)`` draws a
    full state from the seat's view (built on :meth:`SeatView.sample_consistent`, never the true
    state), weighting the deals by what the other seats' moves say about their hidden cards.
    """
    _BELIEFS[game_id] = belief


def belief_for(game_id: str) -> Callable[[SeatView], Sampler] | None:
    """The opponent model registered for ``game_id``, if any."""
    bot_entries(game_id)  # imports the game's bots module, where a model registers itself
    return _BELIEFS.get(game_id)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,key=value"`` into the name and raw parameters.

    >>> parse_bot_spec("heuristic:memory=0.6")
    ('heuristic', {'memory': '0.6'})
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest.strip():
        for part in rest.split(","):
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise OptionError(f"bot {spec!r}: parameter {part!r} is not of the form name=value")
            params[key.strip()] = value.strip()
    return name.strip(), params


def make_bot(game: Game, spec: str, seed: int = 0) -> Bot:
    """A bot for ``game`` from its name and parameters (``"name:key=value,..."``)."""
    name, raw = parse_bot_spec(spec)
    entries = {e.name: e for e in bot_entries(game.id)}
    entry = entries.get(name)
    if entry is None:
        raise UnknownNameError(
            f"unknown bot {name!r} for {game.id}; the bots are: {', '.join(entries)}"
        )
    specs = {p.name: p for p in entry.cls.params}
    values: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in specs:
            allowed = ", ".join(specs) or "none"
            raise OptionError(f"bot {name!r} has no parameter {key!r}; its parameters: {allowed}")
        values[key] = specs[key].coerce(text)
    return entry.cls(game, seed=seed, **values)


def remote_spec_problem(game_id: str, spec: str) -> str | None:
    """Why a bot spec sent over a network may not be used on this machine, or None.

    A parameter that may name a file on this machine (an :class:`Option` with
    ``builtin_names``) takes only the names that come with ratgames from a remote client: a path
    would let the client read, or probe for, any file the server can open.  Checked before the
    bot is made, so that nothing is opened.
    """
    name, raw = parse_bot_spec(spec)
    entries = {e.name: e for e in bot_entries(game_id)}
    entry = entries.get(name)
    if entry is None:
        return None  # make_bot names the bots
    for option in entry.cls.params:
        if option.builtin_names is None or option.name not in raw:
            continue
        names = sorted(option.builtin_names())
        if raw[option.name].strip() not in names:
            return (
                f"bot {name!r}: {option.name}= on a server takes one of the names that come "
                f"with ratgames ({', '.join(names) or 'none'}), not a path"
            )
    return None


def bot_params_from(cls: type[Bot], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of ``cls`` with its default, overridden by ``given``."""
    return {p.name: given.get(p.name, p.default) for p in cls.params}


def describe_bots(game_id: str) -> list[tuple[str, str, Sequence[Option]]]:
    """(name, summary, parameters) for every bot that plays ``game_id``."""
    return [(e.name, e.summary, e.cls.params) for e in bot_entries(game_id)]


register_bot("random", RandomBot, "plays a uniformly random legal action")
