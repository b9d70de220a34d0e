"""Rat-a-Tat Cat's options: the editions' presets, the house rules, how the game ends
(``mode``) and the safety caps."""

from __future__ import annotations

from ratgames.core.options import Form, Option

SECONDS_PER_TURN = 10.0
"""The clock of ``mode=minutes=N`` for a turn whose last action carries no time."""

MODES = (
    Form("round", "One round"),
    Form("rounds", "A number of rounds", number=True, start=3),
    Form("minutes", "Rounds until a number of minutes", number=True, start=15),
    Form("elimination", "Out at a total (the last player in wins)", number=True, start=100),
)
"""How a game may end (``mode``): one round, N rounds, N minutes, or out at a total of N."""


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
        "How the game ends: one round, N rounds, rounds until N minutes have passed, or "
        "elimination (a player whose total reaches N is out; the last player in wins).",
        forms=MODES,
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
