"""Named options (house rules and settings) and their validation.

A game declares its options as :class:`Option` objects.  Values arrive from Python (``True``,
``3``) or from the command line (``"true"``, ``"3"``); both go through :meth:`Option.coerce`,
which names the option and lists what is allowed when a value is refused.

>>> burn = Option("burn", 1, "Cards a bad slap costs.", minimum=0, maximum=3)
>>> burn.coerce("2")
2
>>> burn.coerce(7)
Traceback (most recent call last):
...
ratgames.core.errors.OptionError: option 'burn': 7 is not allowed; use a whole number from 0 to 3
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Form:
    """One shape a structured option's value may take: a word alone (``round``) or a word and a
    whole number (``rounds=N``, N from ``minimum`` to ``maximum``).  ``help`` says it in words
    for a form control ("A number of rounds"), which offers ``start`` when this form is chosen."""

    word: str
    help: str
    number: bool = False
    minimum: int = 1
    maximum: int = 100_000
    start: int = 1

    def text(self) -> str:
        return f"{self.word}=N" if self.number else self.word


def _forms_allowed(forms: tuple[Form, ...]) -> str:
    shapes = [f.text() for f in forms]
    words = shapes[0] if len(shapes) == 1 else ", ".join(shapes[:-1]) + " or " + shapes[-1]
    numbered = {(f.minimum, f.maximum) for f in forms if f.number}
    if len(numbered) == 1:
        lo, hi = numbered.pop()
        words += f" (N {_range_words('a whole number', lo, hi)})"
    elif numbered:
        ranges = [
            f"{f.word}: {_range_words('a whole number', f.minimum, f.maximum)}"
            for f in forms
            if f.number
        ]
        words += " (" + "; ".join(ranges) + ")"
    return words


def _parse_form(forms: tuple[Form, ...], value: Any) -> str:
    """``value`` as one of ``forms`` (spaces and case forgiven), or ValueError naming them."""
    refused = ValueError(f"{_show(value)} is not allowed; use {_forms_allowed(forms)}")
    if not isinstance(value, str):
        raise refused
    text = "".join(value.split()).lower()
    word, sep, number = text.partition("=")
    for form in forms:
        if form.word != word or bool(sep) != form.number:
            continue
        if not form.number:
            return word
        if number.isdigit() and form.minimum <= int(number) <= form.maximum:
            return f"{word}={int(number)}"
    raise refused


@dataclass(frozen=True)
class Option:
    """One named option: its default, what it means and which values it allows.

    The kind of value is taken from the default (``bool``, ``int``, ``float`` or ``str``).
    ``choices`` limits a value to a list; ``minimum``/``maximum`` bound a number; ``parse`` is a
    custom converter for structured values (it raises :class:`ValueError` with what is allowed).
    ``presets`` makes this option a preset: for each of its values, the defaults it gives to
    other options (an option the user names explicitly still wins).  ``forms`` makes a text
    option structured: its value is one of the :class:`Form` shapes (``round``, ``rounds=3``).
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    parse: Callable[[Any], Any] | None = None
    allowed: str | None = None
    presets: Mapping[Any, Mapping[str, Any]] = field(default_factory=dict)
    builtin_names: Callable[[], Iterable[str]] | None = None
    """For an option whose value may be a path to a file on the machine that runs the bot (a
    weights file): the names it takes that read no file of the user's (those that come with
    ratgames).  A server accepts only these from its clients."""
    forms: tuple[Form, ...] = ()

    def describe_allowed(self) -> str:
        """Words for the values this option takes."""
        if self.allowed:
            return self.allowed
        if self.forms:
            return _forms_allowed(self.forms)
        if self.choices is not None:
            return "one of " + ", ".join(_show(c) for c in self.choices)
        kind = type(self.default)
        if kind is bool:
            return "true or false"
        if kind is int:
            return _range_words("a whole number", self.minimum, self.maximum)
        if kind is float:
            return _range_words("a number", self.minimum, self.maximum)
        return "any text"

    def _refuse(self, value: Any) -> OptionError:
        return OptionError(
            f"option {self.name!r}: {_show(value)} is not allowed; use {self.describe_allowed()}"
        )

    def coerce(self, value: Any) -> Any:
        """Turn ``value`` (Python or text) into this option's value, or raise OptionError."""
        if self.parse is not None or self.forms:
            try:
                return self.parse(value) if self.parse else _parse_form(self.forms, value)
            except (ValueError, TypeError) as exc:
                raise OptionError(f"option {self.name!r}: {exc}") from None
        kind = type(self.default)
        result: Any
        if kind is bool:
            if isinstance(value, bool):
                result = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                result = value.strip().lower() in _TRUE
            else:
                raise self._refuse(value)
        elif kind is int:
            if isinstance(value, bool):
                raise self._refuse(value)
            if isinstance(value, int):
                result = value
            elif isinstance(value, str):
                try:
                    result = int(value.strip())
                except ValueError:
                    raise self._refuse(value) from None
            else:
                raise self._refuse(value)
        elif kind is float:
            if isinstance(value, bool):
                raise self._refuse(value)
            if not isinstance(value, int | float | str):
                raise self._refuse(value)
            try:
                result = float(value)
            except ValueError:
                raise self._refuse(value) from None
            if not math.isfinite(result):
                raise self._refuse(value)
        else:
            if not isinstance(value, str):
                raise self._refuse(value)
            result = value.strip()
        if self.choices is not None and result not in self.choices:
            raise self._refuse(value)
        if self.minimum is not None and result < self.minimum:
            raise self._refuse(value)
        if self.maximum is not None and result > self.maximum:
            raise self._refuse(value)
        return result


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _range_words(what: str, lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"{what} from {_num(lo)} to {_num(hi)}"
    if lo is not None:
        return f"{what} of at least {_num(lo)}"
    if hi is not None:
        return f"{what} of at most {_num(hi)}"
    return what


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def resolve_options(specs: Iterable[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate ``given`` against ``specs`` and fill in every default (presets included).

    >>> specs = [Option("edition", "a", "", choices=("a", "b"),
    ...                 presets={"a": {"look": True}, "b": {"look": False}}),
    ...          Option("look", True, "")]
    >>> resolve_options(specs, {"edition": "b"})
    {'edition': 'b', 'look': False}
    >>> resolve_options(specs, {"edition": "b", "look": "yes"})
    {'edition': 'b', 'look': True}
    >>> resolve_options(specs, {"colour": 1})
    Traceback (most recent call last):
    ...
    ratgames.core.errors.OptionError: unknown option 'colour'; the options are: edition, look
    """
    spec_list = list(specs)
    by_name = {s.name: s for s in spec_list}
    given = dict(given or {})
    for name in given:
        if name not in by_name:
            known = ", ".join(by_name) or "(this game has no options)"
            raise OptionError(f"unknown option {name!r}; the options are: {known}")
    values: dict[str, Any] = {}
    for spec in spec_list:
        values[spec.name] = spec.coerce(given[spec.name]) if spec.name in given else spec.default
    for spec in spec_list:
        if spec.presets:
            for other, value in spec.presets.get(values[spec.name], {}).items():
                if other not in given:
                    values[other] = value
    return values


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """Read ``key=value`` texts (as typed after ``--option``) into a dict.

    >>> parse_option_pairs(["burn=2", "mode=rounds=3"])
    {'burn': '2', 'mode': 'rounds=3'}
    """
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} is not of the form name=value")
        out[key.strip()] = value.strip()
    return out
