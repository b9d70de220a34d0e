"""Saving a game in play, and taking it up again exactly where it stopped.

``ratgames play`` saves the record of the game in play when it ends, when the player leaves it,
when the terminal closes or the process is told to stop (SIGHUP, SIGTERM), when something goes
wrong, and every few seconds while it goes on.  The record of an unfinished game has ``"outcome":
null``; ``ratgames play --resume`` takes up the newest one (or a record named on the command line).

Beside the moves, such a record keeps who sat where (``seats``: a person, or a bot's spec, its seed
and the state of its random number generators) and the game's clock (``play.clock``).

What "exactly where it stopped" means here:

* **The table.**  The record replays to the same position, and the chance generator is put where
  it was: the cards are dealt again from the record's seed and the moves replayed with live chance,
  which must give the recorded chance outcomes.  So the cards still to come are those that would
  have come without the break.  (A game started from an explicit deal replays through
  :func:`ratgames.replay`; its later shuffles then come from its seed afresh.)
* **Bots with memory.**  Each bot is made again from its spec and seed, told that a game starts at
  its seat, and fed the history: at each move it made, it is asked again, on the same view of the
  same position, and the recorded move is played whatever it answers.  A bot whose choices depend
  only on its seed and on what it saw (every bot here with an iteration budget) then remembers and
  has forgotten exactly what it had, and draws the same random numbers next: the resumed game goes
  on move for move as the uninterrupted one would have (the tests check this).
* **Search bots** (``ismcts``, ``pimc``) keep nothing from one move to the next but their random
  numbers, and asking them again would take as long as all their thinking so far.  They are not
  asked: the record keeps the state of every random number generator a bot holds (its own and
  those of the bots it uses for play-outs), and these are put back.  A search bot on a time budget
  (``seconds=``) never repeats its choices exactly (they depend on the machine's speed), but it too
  goes on from the random numbers it had.
* **Real time.**  A real-time bot reacts to the table at moments of the wall clock, which no replay
  reproduces.  Its random numbers are put back, and it sees the table afresh when the game resumes,
  as the person does: a reaction on its way when the game stopped is dropped on both sides.
* **The clock.**  The game's time (each action's ``time``, which rules such as Rat-a-Tat Cat's
  ``minutes`` read) goes on from where it stood at the save; the break does not count.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ratgames.core.bots import Bot, SeatView, bot_attributes, make_bot
from ratgames.core.errors import IllegalAction, RatgamesError, RecordError
from ratgames.core.game import Game, State
from ratgames.core.records import load_record, replay
from ratgames.core.rng import Rng

HUMAN = "human"
"""The ``player`` of a seat taken by a person in a record's ``seats``."""


def record_stem(game_id: str, seed: int | None, when: _dt.datetime | None = None) -> str:
    """The name (without ``.json``) of a new record: the game, the local time to the microsecond,
    and the seed, e.g. ``rats-20250101-120000-123456-7``.  Two games rarely share a name; when
    they do, :func:`ratgames.save_record` takes the next free one.

    >>> record_stem("rats", 7, _dt.datetime(2025, 1, 2, 3, 4, 5, 6789))
    'rats-20250102-030405-006789-7'
    """
    when = when or _dt.datetime.now()
    return f"{game_id}-{when:%Y%m%d-%H%M%S-%f}-{seed if seed is not None else 'deal'}"


# --- the random numbers a bot holds ---------------------------------------------------------------


def _generators(obj: object, seen: set[int]) -> Iterator[Rng]:
    """Every :class:`Rng` reachable from a bot through its attributes, bots it holds, and lists,
    tuples and dicts of them, in a fixed order (attribute order, then element order)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Rng):
        yield obj
        return
    if isinstance(obj, Bot):
        for _name, value in bot_attributes(obj):
            yield from _generators(value, seen)
    elif isinstance(obj, list | tuple):
        for value in obj:
            if isinstance(value, Bot | Rng | list | tuple):
                yield from _generators(value, seen)


def random_states(bot: Bot) -> list[int]:
    """The state of every random number generator ``bot`` holds (its own, and those of the bots
    it keeps for play-outs), in a fixed order."""
    return [rng.state for rng in _generators(bot, set())]


def set_random_states(bot: Bot, states: Sequence[int]) -> bool:
    """Put back what :func:`random_states` gave; False (and nothing changed) if ``states`` does
    not fit this bot (another version of it holds other generators)."""
    gens = list(_generators(bot, set()))
    ok = len(gens) == len(states) and all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 1 << 64 for s in states
    )
    if ok:
        for rng, state in zip(gens, states, strict=True):
            rng.state = state
    return ok


def is_search_bot(bot: Bot) -> bool:
    """True for a search bot, which keeps nothing between moves but its random numbers."""
    try:
        from ratgames.search.ismcts import IsmctsBot
    except ImportError:  # pragma: no cover - search is part of the package
        return False
    return isinstance(bot, IsmctsBot)


# --- seats and records ----------------------------------------------------------------------------


def seat_entries(
    bots: Sequence[Bot | None],
    names: Sequence[str],
    seeds: Sequence[int | None] | None = None,
) -> list[dict[str, Any]]:
    """The ``seats`` of a record: each seat's name and player (``"human"`` or the bot's spec),
    with a bot's seed where it is known and the state of its random numbers."""
    out: list[dict[str, Any]] = []
    for s, bot in enumerate(bots):
        entry: dict[str, Any] = {"name": names[s]}
        if bot is None:
            entry["player"] = HUMAN
        else:
            entry["player"] = bot.describe()
            seed = seeds[s] if seeds is not None and s < len(seeds) else None
            if seed is not None:
                entry["seed"] = seed
            entry["random"] = [str(x) for x in random_states(bot)]
        out.append(entry)
    return out


def is_unfinished(data: Mapping[str, Any]) -> bool:
    """True for the record of a game that has not ended (its ``outcome`` is null)."""
    return data.get("outcome") is None


def _peek(path: Path) -> dict[str, Any] | None:
    """A record file's JSON, or None if it is not a readable ratgames record."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("format") != "ratgames-record":
        return None
    return data


def unfinished_records(folder: Path, game_id: str | None = None) -> list[Path]:
    """The records of unfinished games in ``folder``, newest first (of ``game_id`` only if
    given).  Files that are not records are passed over."""
    if not folder.is_dir():
        return []
    found: list[tuple[float, Path]] = []
    for path in folder.glob("*.json"):
        data = _peek(path)
        if data is None or not is_unfinished(data):
            continue
        if game_id is not None and data.get("game") != game_id:
            continue
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:
            continue
    found.sort(key=lambda item: (item[0], item[1].name), reverse=True)
    return [path for _, path in found]


# --- taking a game up again -----------------------------------------------------------------------


def _plain_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def rebuild_state(record: Mapping[str, Any]) -> State:
    """The position a record describes, with the chance generator where the game left it (see the
    module's notes).  A corrupt record raises :class:`RecordError`."""
    checked = replay(record)
    data = load_record(record)
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        return checked
    game = checked.game
    live = game.new_state(seed=seed)
    if _plain_json(live.initial_deal()) != _plain_json(data["deal"]):
        return checked
    try:
        for event in data["events"]:
            if "chance" not in event:
                live.apply(event["seat"], event["action"], time=event.get("time"))
    except (IllegalAction, RecordError):
        return checked
    same_events = _plain_json(live.record()["events"]) == _plain_json(data["events"])
    if not same_events or live.snapshot() != checked.snapshot():
        return checked
    return live


def _positions(record: Mapping[str, Any]) -> Iterator[tuple[State, int, str, float | None]]:
    """Each action of a record with the position it was taken in: (state, seat, action, time).
    The state is the same object throughout, moved on after each item."""
    data = load_record(record)
    state = replay(data, upto=0)
    for event in data["events"]:
        if "chance" in event:
            continue
        seat, action, when = event["seat"], event["action"], event.get("time")
        yield state, seat, action, when
        state.apply(seat, action, time=when)


def feed_history(record: Mapping[str, Any], bots: Sequence[Bot | None]) -> int:
    """Ask each bot (but search bots, and every bot of a real-time game) again at each move it
    made in ``record``, on the same view, so that its memory and random numbers come out as they
    were; the recorded moves are played whatever the bots answer.  Returns how many answers
    differed from the record (0 for bots that depend only on their seed and what they saw)."""
    asked = [bot is not None and not bot.game.real_time and not is_search_bot(bot) for bot in bots]
    if not any(asked):
        return 0
    differed = 0
    for state, seat, action, when in _positions(record):
        bot = bots[seat] if 0 <= seat < len(bots) else None
        if bot is None or not asked[seat]:
            continue
        answer = bot.act(SeatView(state, seat, when or 0.0))
        if str(answer) != action:
            differed += 1
    return differed


@dataclass
class Resumed:
    """A game taken up again: everything :class:`~ratgames.tui.play.PlayApp` needs."""

    game: Game
    state: State
    bots: list[Bot | None]
    names: list[str]
    seeds: list[int | None]
    clock: float
    level: str | None
    path: Path | None
    differed: int = 0
    """How many of the bots' answers, asked again, differed from the recorded moves."""

    @property
    def people(self) -> list[int]:
        """The seats taken by people."""
        return [s for s, b in enumerate(self.bots) if b is None]


def resume(source: str | Path | Mapping[str, Any]) -> Resumed:
    """Take up the game of a record (a path, a JSON text or a dict) where it stopped.

    Raises :class:`RecordError` for a corrupt record, a finished game, or one in which no seat
    was taken by a person.
    """
    data = load_record(source)
    path = Path(source) if isinstance(source, str | Path) and not _is_json(source) else None
    if not is_unfinished(data):
        where = f" ({path})" if path else ""
        raise RecordError(f"that game is over{where}: 'ratgames replay' steps through it")
    state = rebuild_state(data)
    game = state.game
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != game.players:
        raise RecordError(f"the record's 'seats' must list the {game.players} players")
    record_seed = data.get("seed")
    base_seed = record_seed if isinstance(record_seed, int) and record_seed is not True else 0
    bots: list[Bot | None] = []
    names: list[str] = []
    seeds: list[int | None] = []
    saved_random: list[list[int] | None] = []
    for s, entry in enumerate(seats):
        if not isinstance(entry, dict):
            raise RecordError(f"seat {s + 1} of the record is not an object")
        name, player = entry.get("name"), entry.get("player")
        names.append(name if isinstance(name, str) and name else game.seat_name(s))
        if player == HUMAN:
            bots.append(None)
            seeds.append(None)
            saved_random.append(None)
            continue
        if not isinstance(player, str):
            raise RecordError(f"seat {s + 1} of the record names no player")
        seed = entry.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = base_seed + s  # how ratgames play seeded bots before seeds were saved
        try:
            bot = make_bot(game, player, seed=seed)
        except RatgamesError as exc:
            raise RecordError(f"seat {s + 1}'s bot {player!r} cannot be made: {exc}") from None
        bot.new_game(s)
        bots.append(bot)
        seeds.append(seed)
        saved_random.append(_random_list(entry.get("random")))
    if all(b is not None for b in bots):
        raise RecordError("no seat of that game was taken by a person: there is nothing to resume")
    differed = feed_history(data, bots)
    for made, states in zip(bots, saved_random, strict=True):
        if made is not None and states is not None:
            set_random_states(made, states)
    play = data.get("play") if isinstance(data.get("play"), dict) else {}
    assert isinstance(play, dict)
    clock = play.get("clock")
    if not isinstance(clock, int | float) or isinstance(clock, bool) or not clock >= 0:
        clock = _last_time(data)
    level = play.get("level") if isinstance(play.get("level"), str) else None
    return Resumed(game, state, bots, names, seeds, float(clock), level, path, differed=differed)


def _is_json(source: str | Path) -> bool:
    return isinstance(source, str) and source.lstrip().startswith("{")


def _random_list(value: Any) -> list[int] | None:
    if not isinstance(value, list):
        return None
    out = []
    for item in value:
        if not isinstance(item, str) or not item.isdigit() or len(item) > 20:
            return None
        out.append(int(item))
    return out


def _last_time(data: Mapping[str, Any]) -> float:
    times = [
        e["time"]
        for e in data["events"]
        if isinstance(e, dict) and isinstance(e.get("time"), int | float)
    ]
    return float(max(times)) if times else 0.0


def command(env: Mapping[str, str] | None = None) -> str:
    """How the user typed ``ratgames``, to print commands they can type again: ``ratgames``, or
    ``uv run ratgames`` (``python3 -m uv run ratgames`` when uv was started through Python) when
    ``uv run`` started it in a checkout of the project.

    uv sets ``UV_RUN_RECURSION_DEPTH`` in what ``uv run`` starts and ``VIRTUAL_ENV`` to the
    environment it uses, which in a checkout lies beside ``pyproject.toml``; ``uv`` run as a
    Python module also sets ``UV_INTERNAL__PARENT_INTERPRETER`` to that Python.

    >>> command({})
    'ratgames'
    """
    env = os.environ if env is None else env
    venv = env.get("VIRTUAL_ENV")
    if not env.get("UV_RUN_RECURSION_DEPTH") or not venv:
        return "ratgames"
    if not (Path(venv).parent / "pyproject.toml").is_file():
        return "ratgames"  # uvx and the like: an environment of its own, not a checkout
    python = env.get("UV_INTERNAL__PARENT_INTERPRETER")
    uv = f"{Path(python).name} -m uv" if python else "uv"
    return f"{uv} run ratgames"


def default_record_dir() -> Path:
    """Where ``ratgames play`` saves records: $RATGAMES_HOME/records, or ~/.ratgames/records."""
    home = os.environ.get("RATGAMES_HOME")
    return (Path(home) if home else Path.home() / ".ratgames") / "records"
