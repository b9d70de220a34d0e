"""Rat-a-Tat Cat's options: the editions' presets, the house rules, how the game ends
(``mode``) and the safety caps."""

from __future__ import annotations

from typing import Any

from ratgames.core.options import Option

MODE_ALLOWED = "round, rounds=N, minutes=N or elimination=N (N a whole number of at least 1)"
SECONDS_PER_TURN = 10.0
"""The clock of ``mode=minutes=N`` for a turn whose last action carries no time."""


def parse_mode(value: Any) -> str:
    """The ``mode`` option read (spaces and case forgiven), or ValueError naming the modes."""
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not allowed; use {MODE_ALLOWED}")
    text = "".join(value.split()).lower()
    if text == "round":
        return text
    kind, sep, number = text.partition("=")
    if sep and kind in ("rounds", "minutes", "elimination") and number.isdigit():
        n = int(number)
        if 1 <= n <= 100_000:
            return f"{kind}={n}"
    raise ValueError(f"{value!r} is not allowed; use {MODE_ALLOWED}")


def mode_parts(mode: str) -> tuple[str, int]:
    """The kind of ``mode`` (round, rounds, minutes, elimination) and its number (1 for round)."""
    kind, _, number = mode.partition("=")
    return kind, int(number) if number else 1


OPTIONS: tuple[Option, ...] = (
    Option(
        "edition",
        "gamewright",
        "Rule sheet the defaults follow: gamewright (English) or forlago (Swedish).",
        choices=("gamewright", "forlago"),
        presets={
            "gamewright": {"first_discard": "shuffle_back", "swap_look": True},
            "forlago": {"first_discard": "keep_turning", "swap_look": False},
        },
    ),
    Option(
        "first_discard",
        "shuffle_back",
        "A power card turned up to start the discard pile: shuffle_back (into the draw pile, "
        "then turn again) or keep_turning (leave it and turn the next card).",
        choices=("shuffle_back", "keep_turning"),
    ),
    Option(
        "swap_look",
        True,
        "After a Swap, both players look at the card they received.",
    ),
    Option(
        "younger",
        False,
        "For younger players: outer cards lie face up; Swap only moves face-down cards.",
    ),
    Option(
        "mode",
        "elimination=100",
        "How the game ends: round, rounds=N, minutes=N or elimination=N.",
        parse=parse_mode,
        allowed=MODE_ALLOWED,
    ),
    Option(
        "memory_aid",
        False,
        "Front ends keep the cards you have seen visible (the rules are unchanged).",
    ),
    Option(
        "turn_cap",
        200,
        "Safety cap: the turn that reaches this many turns in a round counts as a knock if its "
        "player does not knock; the others still have their last turn.",
        minimum=1,
        maximum=100_000,
    ),
    Option(
        "round_cap",
        200,
        "Safety cap: the game ends after this many rounds (the lowest total wins).",
        minimum=1,
        maximum=100_000,
    ),
)
