"""A plain-text picture of an Egyptian Ratscrew observation or spectator view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ratgames.core.game import Game

PILE_SHOWN = 6
"""How many of the pile's top cards the picture shows."""


def seat_label(game: Game, view: dict[str, Any], seat: int) -> str:
    """``Seat 2`` or ``Seat 2 (you)``."""
    name = game.seat_name(seat)
    return f"{name} (you)" if view.get("seat") == seat else name


def describe_event(game: Game, event: Mapping[str, Any], viewer: int | None = None) -> str:
    """One public event (its JSON form) in words, as seat ``viewer`` sees it ("You ..." for the
    viewer's own events; None: a spectator)."""
    kind = event["kind"]
    if kind == "end":
        return "The game ends: " + ("the safety cap" if event["why"] == "cap" else "a cycle") + "."
    you = viewer is not None and viewer == event["seat"]
    who = "You" if you else game.seat_name(event["seat"])

    def verb(third: str, second: str) -> str:
        return second if you else third

    if kind == "play":
        return f"{who} {verb('plays', 'play')} {event['card']}."
    if kind == "collect":
        return f"{who} {verb('takes', 'take')} the pile ({count_cards(event['cards'])})."
    if kind == "claim":
        return f"{who} {verb('collects', 'collect')} the table."
    if kind == "join":
        return f"{who} {verb('slaps', 'slap')} in and {verb('joins', 'join')} the game."
    if kind == "out":
        return f"{who} {verb('is', 'are')} out."
    if kind == "win":
        return f"{who} {verb('wins', 'win')} the game."
    slaps = verb("slaps", "slap")
    if kind == "slap":
        rule = str(event["rule"]).replace("_", "-")
        takes = f"{who} {verb('takes', 'take')} the pile ({count_cards(event['cards'])})"
        return f"{who} {slaps}: {rule}! {takes}."
    if kind == "late_slap":
        return f"{who} {slaps} too late (no penalty)."
    if kind == "bad_slap":
        burned = event["burned"]
        cost = f"{verb('burns', 'burn')} {count_cards(burned)}" if burned else "no burn"
        return f"{who} {slaps} a pile that cannot be slapped: {cost}."
    raise ValueError(f"no such event in {game.title}: {kind!r}")


def count_cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def challenge_text(game: Game, view: dict[str, Any], *, direct: bool = False) -> str:
    """The challenge in progress (or the pile waiting to be collected) in words.  ``direct``
    speaks to the view's seat as "you" (``You have 2 chances``) instead of ``Seat 2 (you)``."""
    me = view.get("seat") if direct else None

    def name(seat: int, first: bool = True) -> str:
        if seat == me:
            return "You" if first else "you"
        return seat_label(game, view, seat)

    def verb(seat: int, third: str, second: str) -> str:
        return second if seat == me else third

    collector = view["collector"]
    if view["phase"] == "final":
        holds = verb(collector, "holds", "hold")
        return (
            f"{name(collector)} {holds} every other card: collect the table to win, unless "
            "someone slaps first"
        )
    if view["phase"] == "collect":
        return (
            f"{name(collector)} {verb(collector, 'has', 'have')} won the pile (collect, or slap!)"
        )
    ch = view.get("challenge")
    if not ch:
        return ""
    left = ch["chances_left"]
    answering = ch["answering"]
    if answering is None:
        answer = "nobody answers it"
    else:
        has = verb(answering, "has", "have")
        answer = f"{name(answering)} {has} {left} chance{'s' if left != 1 else ''}"
        answer += " to play a face card"
    return f"Challenge: {ch['card']} by {name(ch['by'], first=False)}; {answer}"


def render(game: Game, view: dict[str, Any]) -> str:
    """The table: stacks, the pile's top cards, the challenge, recent events, the result."""
    lines = [
        f"{game.title}: {count_cards(view['cards_played'])} played, piles won: {view['piles_won']}"
    ]
    for seat, stack in enumerate(view["stacks"]):
        marks = []
        if view["phase"] == "play" and view["turn"] == seat:
            marks.append("to play")
        if view["phase"] in ("collect", "final") and view["collector"] == seat:
            marks.append("to collect")
        if stack["status"] != "in":
            marks.append(stack["status"])
        known = [c for c in stack["known"] if c is not None]
        knowledge = f", {len(known)} known" if known else ""
        extra = f"  [{', '.join(marks)}]" if marks else ""
        size = count_cards(stack["size"])
        lines.append(f"  {seat_label(game, view, seat):<16} {size:>8}{knowledge}{extra}")
    pile = view["pile"]
    shown = pile[-PILE_SHOWN:]
    more = f"({len(pile) - len(shown)} more) " if len(pile) > len(shown) else ""
    burned = len(view["burned"])
    under = f"  + {burned} burned under" if burned else ""
    lines.append(f"Pile: {more}{' '.join(shown) if shown else '(empty)'}  <- top{under}")
    if view["slappable"]:
        lines.append(f"Slappable: {view['slappable'].replace('_', '-')}")
    text = challenge_text(game, view)
    if text:
        lines.append(text)
    for event in view["events"][-5:]:
        lines.append("  " + describe_event(game, event, view.get("seat")))
    result = view.get("result")
    if result:
        winners = ", ".join(seat_label(game, view, w) for w in result["winners"])
        lines.append(f"Game over ({result['reason']}): {winners} won.")
    return "\n".join(lines)
