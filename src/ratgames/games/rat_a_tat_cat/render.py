"""Rat-a-Tat Cat in words: events as sentences and a plain-text picture of a view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ratgames.core.game import Game

from .cards import CARD_NAME, CARD_TEXT

_NAME = dict(zip(CARD_TEXT, CARD_NAME, strict=True))


def _count(n: int, thing: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _a(card: str) -> str:
    return ("an " if card == "8" else "a ") + card


def describe_event(game: Game, event: Mapping[str, Any], viewer: int | None = None) -> str:
    """One event (its JSON form) as a sentence, as seat ``viewer`` sees it ("You ..." for its
    own moves; None for a spectator).

    >>> from ratgames.games.rat_a_tat_cat.rules import RatATatCat
    >>> describe_event(RatATatCat(players=2), {"kind": "peek", "seat": 1, "slot": 3}, viewer=1)
    'You peeked at your slot 3'
    """
    kind = event["kind"]
    seat = event.get("seat")

    def who(s: int) -> str:
        return "You" if s == viewer else game.seat_name(s)

    def whose(s: int) -> str:
        return "your" if s == viewer else f"{game.seat_name(s)}'s"

    you = seat is not None and seat == viewer
    name = who(seat) if seat is not None else ""
    its = "your" if you else "its"
    if kind == "deal":
        dealer = event["dealer"]
        returned = event.get("returned") or []
        back = "".join(f"; {card} was turned up and shuffled back" for card in returned)
        return (
            f"Round {event['round']}: {who(dealer)} dealt{back}; the discard pile starts with "
            f"{event['first_discard']}"
        )
    if kind == "draw":
        return f"{name} drew a card from the draw pile"
    if kind == "power":
        return f"{name} drew {_NAME[event['card']]} and discarded it to use its power"
    if kind == "take":
        return f"{name} took the {event['card']} from the discard pile"
    if kind == "replace":
        placed = event["placed"]
        what = f"the {placed}" if placed is not None else "the card"
        return (
            f"{name} put {what} in slot {event['slot']} and discarded the "
            f"{event['discarded']} from there"
        )
    if kind == "discard":
        return f"{name} discarded the {event['card']} drawn"
    if kind == "pass":
        return f"{name} passed on the {_NAME[event['card']]} to draw again"
    if kind == "peek":
        return f"{name} peeked at {its} slot {event['slot']}"
    if kind == "swap":
        other = event["other"]
        return (
            f"{name} swapped {its} slot {event['slot']} with {whose(other)} slot "
            f"{event['other_slot']}"
        )
    if kind == "noswap":
        return f"{name} chose not to swap"
    if kind == "knock":
        return f"{name} knocked: Rat-a-Tat Cat! Everyone else has one more turn"
    if kind == "reshuffle":
        cards = _count(len(event["cards"]), "card")
        return f"The discard pile was shuffled into a new draw pile of {cards}"
    if kind == "cap":
        return (
            f"The round reached its turn cap ({event['turns']} turns) and nobody knocked: as if "
            f"{'you' if you else game.seat_name(event['seat'])} had knocked, everyone else has "
            "one more turn"
        )
    if kind == "fix":
        owner = "Your" if you else whose(event["seat"])
        return (
            f"{owner} {_NAME[event['card']]} in slot {event['slot']} was replaced by "
            f"{_a(event['replacement'])}"
        )
    if kind == "round":
        return f"Round {event['round']} is over; the lowest sum is {event['low']}"
    if kind == "out":
        verb = "are" if you else "is"
        return f"{name} {verb} out of the game with {event['total']} points"
    return f"({kind})"


def card_box(card: str | None, face_up: bool = False) -> str:
    """One slot: ``[ 7 ]`` for a known card, ``[ ? ]`` for an unknown one; ``( 7 )`` if face up."""
    text = "?" if card is None else card
    return f"({text:^5})" if face_up else f"[{text:^5}]"


def render(game: Game, view: dict[str, Any], *, events: int = 8) -> str:
    """The table as ``view`` (an observation or a spectator view) shows it."""
    seat = view.get("seat")
    players = view["players"]
    lines = []
    turn = view["turn"]
    whose = "game over" if turn is None else f"{game.seat_name(turn)} to play ({view['phase']})"
    head = f"Rat-a-Tat Cat, round {view['round']} ({game.seat_name(view['dealer'])} dealt): {whose}"
    lines.append(head)
    if turn is not None:
        if view["knocker"] is not None:
            lines.append(f"{game.seat_name(view['knocker'])} knocked: this is the last turn round.")
        elif view.get("closer") is not None:
            lines.append("The turn cap was reached: this is the last turn round.")
    discard = view["discard"]
    under = f" (under it: {' '.join(discard[1:6])}{' ...' if len(discard) > 6 else ''})"
    lines.append(
        f"Draw pile: {_count(view['draw_pile'], 'card')}   Discard: {view['discard_top'] or '-'}"
        + (under if len(discard) > 1 else "")
    )
    if view.get("draw_holds") and turn is not None:
        lines.append(f"Known to be in the draw pile: {', '.join(view['draw_holds'])}")
    if view["held"] is not None and turn is not None:
        source = "drawn" if view["held_from"] == "draw" else "taken from the discard"
        lines.append(f"{game.seat_name(turn)} holds a card {source}: {view['held']}")
    if view["draws_left"]:
        lines.append(f"Draw 2: {_count(view['draws_left'], 'more draw')}")
    width = max(len(game.seat_name(s)) for s in range(players)) + 6
    for s in range(players):
        name = game.seat_name(s) + (" (you)" if s == seat else "")
        if view["out"][s] and not view["in_round"][s]:
            row = "out of the game"
        else:
            cards, ups = view["slots"][s], view["face_up"][s]
            row = " ".join(card_box(card, up) for card, up in zip(cards, ups, strict=True))
        marks = "  knocked" if view["knocker"] == s else ""
        lines.append(f"{name:<{width}} {row}   total {view['totals'][s]}{marks}")
    if view["results"]:
        last = view["results"][-1]
        sums = ", ".join(
            f"{game.seat_name(s)} {v}" for s, v in enumerate(last["sums"]) if v is not None
        )
        winners = ", ".join(game.seat_name(w) for w in last["winners"])
        lines.append(f"Round {last['round']}: {sums}; won by {winners}")
    recent = view["events"][-events:] if events else []
    if recent:
        lines.append("Recent:")
        lines.extend(f"  {describe_event(game, e, seat)}" for e in recent)
    outcome = view.get("outcome")
    if outcome is not None:
        winners = ", ".join(game.seat_name(w) for w in outcome["winners"])
        lines.append(f"Game over ({outcome['reason']}): {winners} won.")
    return "\n".join(lines)
