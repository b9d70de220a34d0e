"""A plain-text picture of a Rat-a-Tat Cat observation or spectator view."""

from __future__ import annotations

from typing import Any

from ratgames.core.game import Game


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
    if view["knocker"] is not None and turn is not None:
        lines.append(f"{game.seat_name(view['knocker'])} knocked: this is the last turn round.")
    discard = view["discard"]
    under = f" (under it: {' '.join(discard[1:6])}{' ...' if len(discard) > 6 else ''})"
    lines.append(
        f"Draw pile: {view['draw_pile']} cards   Discard: {view['discard_top'] or '-'}"
        + (under if len(discard) > 1 else "")
    )
    if view["held"] is not None and turn is not None:
        source = "drawn" if view["held_from"] == "draw" else "taken from the discard"
        lines.append(f"{game.seat_name(turn)} holds a card {source}: {view['held']}")
    if view["draws_left"]:
        lines.append(f"Draw 2: {view['draws_left']} draw(s) left")
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
        lines.extend(f"  {e['text']}" for e in recent)
    outcome = view.get("outcome")
    if outcome is not None:
        winners = ", ".join(game.seat_name(w) for w in outcome["winners"])
        lines.append(f"Game over ({outcome['reason']}): {winners} won.")
    return "\n".join(lines)
