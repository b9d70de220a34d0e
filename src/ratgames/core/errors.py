"""The errors ratgames raises for bad input.

Every error a user can cause is a subclass of :class:`RatgamesError`, and every one of them is also
a :class:`ValueError`, so callers that only know the standard library can still catch them.
"""

from __future__ import annotations


class RatgamesError(ValueError):
    """Base class of every error caused by bad input (an action, an option, a record, a name)."""


class IllegalAction(RatgamesError):
    """An action that cannot be applied now; the state it was offered to is left exactly as it was.

    >>> str(IllegalAction("it is seat 2's turn, not seat 0's"))
    "it is seat 2's turn, not seat 0's"
    """


class InvalidNotation(IllegalAction):
    """Text (or an action object) that is not an action of the game at all, as opposed to a
    well-formed action that the rules do not allow now (a plain :class:`IllegalAction`)."""


class OptionError(RatgamesError):
    """An unknown option, or a value an option does not allow."""


class RecordError(RatgamesError):
    """A game record that cannot be read or replayed (corrupt, from a newer rules version, ...)."""


class DealError(RatgamesError):
    """An explicit deal that does not place every card of the game exactly once, or is malformed."""


class SnapshotError(RatgamesError):
    """A position (:meth:`State.snapshot`) that cannot be restored: malformed, of another game or
    player count, or not a position the rules can reach with the game's cards."""


class UnknownNameError(RatgamesError):
    """An unknown game, bot or level name."""
