"""Game records: a JSON document from which a game replays exactly.

A record holds the game id and rules version, the options and number of players, who sat where,
the initial deal (every card's place), every action with its seat and time, every chance outcome
after the deal (reshuffles and the like), and the outcome::

    {
      "format": "ratgames-record", "format_version": 1,
      "game": "rat-a-tat-cat", "rules_version": 1,
      "players": 2, "options": {...},
      "seats": [{"name": "You", "player": "human"}, {"name": "Bot", "player": "heuristic"}],
      "seed": 7,
      "deal": {...},
      "events": [{"seat": 0, "action": "draw", "time": 1.2},
                 {"chance": "reshuffle", "outcome": [...]}, ...],
      "outcome": {...}
    }
"""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import IllegalAction, RatgamesError, RecordError

if TYPE_CHECKING:
    from .game import State

FORMAT = "ratgames-record"
FORMAT_VERSION = 1
MAX_RECORD_CHARS = 64_000_000
"""The longest record text read (a long game's record is a few megabytes)."""


def build_record(
    state: State, seats: Sequence[Mapping[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    """The record of ``state`` from its start up to now."""
    game = state.game
    deal = state.initial_deal()
    if seats is None:
        seats = [{"name": game.seat_name(s), "player": "unknown"} for s in range(game.players)]
    if len(seats) != game.players:
        raise ValueError(f"a record needs {game.players} seats, got {len(seats)}")
    events: list[dict[str, Any]] = []
    for event in state.events():
        if event[0] == "action":
            entry: dict[str, Any] = {"seat": event[1], "action": str(event[2])}
            if event[3] is not None:  # as the engine keeps it (to 0.1 ms): replays exactly
                entry["time"] = event[3]
            events.append(entry)
        else:
            outcome = event[2]
            if isinstance(outcome, tuple):
                outcome = [game.card_text(c) for c in outcome]
            events.append({"chance": event[1], "outcome": outcome})
    outcome = state.outcome()
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.id,
        "rules_version": game.rules_version,
        "players": game.players,
        "options": dict(game.options),
        "seats": [dict(s) for s in seats],
        "seed": state.seed,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "deal": deal,
        "events": events,
        "outcome": outcome.to_json() if outcome is not None else None,
    }
    record.update(extra)
    return record


def save_record(record: Mapping[str, Any], path: str | Path, *, overwrite: bool = False) -> Path:
    """Write ``record`` as JSON to ``path`` (parent folders are made) and return where it went.

    The file appears whole or not at all: the JSON goes to a temporary file in the same folder,
    which is then moved into place, so a reader never sees a half-written record.  An existing
    file is never overwritten unless ``overwrite`` is true (for a record that is saved again as
    its game goes on): the record goes to the first free name ``stem-2.json``, ``stem-3.json``...
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record, indent=1, allow_nan=False) + "\n"
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if overwrite:
            os.replace(tmp, path)
            return path
        for n in itertools.count(1):
            target = path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
            try:
                os.link(tmp, target)  # fails if the name is taken, atomically
            except FileExistsError:
                continue
            return target
        raise AssertionError("unreachable")  # pragma: no cover
    finally:
        tmp.unlink(missing_ok=True)


def load_record(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """Read a record from a path, a JSON text or a dict, checking its outer form."""
    if isinstance(source, Mapping):
        data: Any = dict(source)
    else:
        text = str(source)
        if not text.lstrip().startswith("{"):
            path = Path(text)
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise RecordError(f"cannot read record {path}: {exc.strerror or exc}") from None
            except UnicodeDecodeError as exc:
                raise RecordError(
                    f"record {path} is not UTF-8 text (byte {exc.start} cannot be read)"
                ) from None
            except ValueError as exc:  # a name the system cannot take, such as one with a NUL
                raise RecordError(f"cannot read record {text!r}: {exc}") from None
        data = _parse_json(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("this is not a ratgames game record (no 'format': 'ratgames-record')")
    version = data.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise RecordError(
            f"the record has format version {version!r}; this ratgames reads version "
            f"{FORMAT_VERSION} and older: upgrade ratgames to read it"
        )
    for key, kind in (
        ("game", str),
        ("rules_version", int),
        ("players", int),
        ("options", dict),
        ("deal", dict),
        ("events", list),
    ):
        if not isinstance(data.get(key), kind):
            raise RecordError(f"the record's {key!r} is missing or not a {kind.__name__}")
    return data


def _reject_constant(name: str) -> Any:
    raise RecordError(f"the record is not strict JSON: it holds {name}")


def _parse_json(text: str) -> Any:
    """``text`` as JSON, or :class:`RecordError` naming what is wrong."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(
            f"the record is {len(text):,} characters long; records are at most {MAX_RECORD_CHARS:,}"
        )
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record is not valid JSON: {exc}") from None
    except RecursionError:
        raise RecordError(
            "the record is not a game record: its JSON is nested too deeply"
        ) from None
    except ValueError as exc:  # an integer too long to read
        raise RecordError(f"the record is not a game record: {exc}") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _chance_script(game: Any, events: list[Any]) -> list[tuple[str, Any]]:
    script: list[tuple[str, Any]] = []
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise RecordError(f"event {i + 1} of the record is not an object")
        if "chance" in event:
            what, outcome = event["chance"], event.get("outcome")
            if not isinstance(what, str):
                raise RecordError(
                    f"event {i + 1} of the record: a chance event is named by text, "
                    f"not {_short(what)}"
                )
            if isinstance(outcome, list):
                outcome = tuple(_parse_card(game, c, i) for c in outcome)
            elif isinstance(outcome, bool) or not isinstance(outcome, int):
                raise RecordError(
                    f"event {i + 1} of the record: the chance outcome {_short(outcome)} is "
                    f"neither a list of cards nor a whole number"
                )
            script.append((what, outcome))
    return script


def _parse_card(game: Any, text: Any, index: int) -> int:
    parse = getattr(game, "parse_card", None)
    if parse is None:
        raise RecordError(
            f"event {index + 1} of the record lists cards, but {game.id} records none"
        )
    if not isinstance(text, str):
        raise RecordError(
            f"event {index + 1} of the record: a card is written as text, not {_short(text)}"
        )
    try:
        return int(parse(text))
    except RatgamesError:
        raise RecordError(
            f"event {index + 1} of the record names an unknown card {_short(text)}"
        ) from None


def replay(
    source: str | Path | Mapping[str, Any], *, upto: int | None = None, check_outcome: bool = True
) -> State:
    """Rebuild the exact state a record describes (after its first ``upto`` actions if given).

    Raises :class:`RecordError` for a corrupt record, one from a newer rules version, or one
    whose actions do not replay.
    """
    from .registry import get_game

    data = load_record(source)
    try:
        game = get_game(data["game"], players=data["players"], options=data["options"])
    except RatgamesError as exc:
        raise RecordError(f"the record's game cannot be set up: {exc}") from None
    if data["rules_version"] > game.rules_version:
        raise RecordError(
            f"the record was written under rules version {data['rules_version']} of "
            f"{game.id}, newer than this ratgames knows ({game.rules_version}): upgrade ratgames"
        )
    events = data["events"]
    script = _chance_script(game, events)
    seed = data.get("seed")
    try:
        state = game.new_state(
            seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else 0,
            deal=data["deal"],
            chance_script=script,
        )
    except RecordError:
        raise
    except RatgamesError as exc:
        raise RecordError(f"the record's deal is not valid: {exc}") from None
    applied = 0
    for i, event in enumerate(events):
        if "chance" in event:
            continue
        if upto is not None and applied >= upto:
            break
        seat, action, time = event.get("seat"), event.get("action"), event.get("time")
        if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(action, str):
            raise RecordError(
                f"event {i + 1} of the record needs a 'seat' (a whole number) and an "
                f"'action' (its notation)"
            )
        try:
            state.apply(seat, action, time=time)
        except IllegalAction as exc:
            raise RecordError(
                f"event {i + 1} of the record ({_short(action)}) does not replay: {exc}"
            ) from None
        except RecordError as exc:  # a chance outcome of the record that does not fit
            raise RecordError(f"event {i + 1} of the record: {exc}") from None
        applied += 1
    if upto is None and state._chance.pos < len(script):
        raise RecordError(
            f"the record holds {len(script)} chance outcomes but the game used only "
            f"{state._chance.pos}"
        )
    if upto is None and check_outcome and data.get("outcome") is not None:
        outcome = state.outcome()
        if outcome is None or outcome.to_json() != data["outcome"]:
            raise RecordError("the record's outcome differs from the replayed game's outcome")
    return state
