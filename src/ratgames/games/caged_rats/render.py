"""Caged Rats in words: events as sentences, and a plain-text picture of an observation or
spectator view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ratgames.core.game import Game

NAMES = ("Red", "Black")


def _who(seat: int, viewer: int | None, verb: str) -> str:
    """``"Red bids"`` or, for the viewer's own event, ``"You bid"``."""
    if seat == viewer:
        return f"You {verb.removesuffix('s')}"
    return f"{NAMES[seat]} {verb}"


def describe_event(game: Game, event: Mapping[str, Any], viewer: int | None = None) -> str:
    """One event (its JSON form) as a sentence, as seat ``viewer`` sees it (None: a spectator).

    >>> import ratgames
    >>> game = ratgames.get_game("caged-rats")
    >>> describe_event(game, {"kind": "throw", "seat": 1, "card": "QS"}, viewer=1)
    'You throw QS face down'
    >>> describe_event(game, {"kind": "throw", "seat": 1, "card": None}, viewer=0)
    'Black throws a card face down'
    """
    kind = event["kind"]
    if kind == "deal":
        dealer = "you deal" if event["dealer"] == viewer else f"{NAMES[event['dealer']]} deals"
        return f"Deal {event['deal']} (rubber {event['rubber']}): {dealer}"
    if kind == "score":
        points, totals = event["points"], event["totals"]
        return (
            f"Deal scored: Red {points[0]}, Black {points[1]} (rubber {totals[0]} to {totals[1]})"
        )
    if kind == "rubber":
        totals = event["totals"]
        who = _who(event["seat"], viewer, "wins")
        return f"{who} rubber {event['rubber']}, {totals[0]} to {totals[1]}"
    seat = event["seat"]
    if kind == "cage":
        low, high = event["rats"]
        return f"{_who(seat, viewer, 'cages')} {low} and {high}"
    if kind == "offer":
        source = ""
        if event["from_stock"]:
            source = (
                " from the top of your stock" if seat == viewer else " from the top of her stock"
            )
        return f"{_who(seat, viewer, 'offers')} {event['card']}{source}"
    if kind == "bid":
        return f"{_who(seat, viewer, 'bids')} {event['card']}"
    if kind == "top":
        return f"{_who(seat, viewer, 'tops')} with {event['card']} and the capture is discarded"
    if kind == "lost":
        return f"{_who(seat, viewer, 'loses')} the capture {event['card']}"
    if kind == "throw":
        card = event.get("card")
        return f"{_who(seat, viewer, 'throws')} {card or 'a card'} face down"
    if kind == "unfed":
        return (
            f"{_who(seat, viewer, 'wins')} {event['card']} but "
            f"{'have' if seat == viewer else 'has'} no rat of its suit: discarded"
        )
    if kind == "feed":
        captures, needs = event["captures"], event["needs"]
        state = "satisfied" if captures == needs else ("overfed" if captures > needs else "fed")
        return (
            f"{_who(seat, viewer, 'wins')} {event['card']} and "
            f"{'feed' if seat == viewer else 'feeds'} rat {event['rat']} ({event['rat_card']}): "
            f"{captures}/{needs}, {state}"
        )
    if kind == "draw":
        whose = "your" if seat == viewer else "her"
        return f"{_who(seat, viewer, 'draws')} {event['count']} from {whose} stock"
    return f"{kind}: " + ", ".join(f"{k} {v}" for k, v in event.items() if k != "kind")


def rat_line(rat: dict[str, Any], index: int) -> str:
    """One rat: ``rat 1  5H  2/5 hungry``."""
    return f"rat {index + 1} {rat['rat']:>3}  {rat['captures']}/{rat['needs']} {rat['state']}"


def score_line(view: dict[str, Any]) -> str:
    """The running score, the rubber and the deal."""
    scores = view["scores"]
    parts = [
        f"Score Red {scores[0]} - Black {scores[1]} (rubber to {view['target']})",
        f"deal {view['deal']}",
    ]
    if view.get("single_deal"):
        parts[0] = "Single deal"
    elif view.get("match"):
        won = view["rubbers_won"]
        parts.append(f"rubber {view['rubber']} of the match (rubbers Red {won[0]}, Black {won[1]})")
    return ", ".join(parts)


def table_lines(view: dict[str, Any]) -> list[str]:
    """The table as lines: scores, both cages, the capture on offer and the bids."""
    seat = view.get("seat")
    lines = [score_line(view)]
    phase = f"   phase: {view['phase']}" if view["to_act"] or view["phase"] == "over" else ""
    lines.append(
        f"Dealer: {NAMES[view['dealer']]}   lead {view['lead']}/{view['leads_per_deal']}{phase}"
    )
    for s in (0, 1):
        who = NAMES[s] + (" (you)" if s == seat else "")
        cage = view["cages"][s]
        rats = "; ".join(rat_line(r, i) for i, r in enumerate(cage)) or "no rats caged yet"
        lines.append(
            f"{who:<12} hand {view['hand_sizes'][s]}, stock {view['stock_sizes'][s]}, "
            f"deal points {view['deal_points'][s]}: {rats}"
        )
    if view["offer"] is not None:
        src = " (from the stock)" if view["offer_from_stock"] else ""
        bid = view["bid"] or "-"
        leader = view["leader"]
        who = NAMES[leader] if leader is not None else "?"
        lines.append(f"On offer: {view['offer']}{src} led by {who}; bid: {bid}")
    if view["phase"] == "over":
        lines.append("The game is over.")
    elif view["to_act"]:
        lines.append(f"To act: {NAMES[view['to_act'][0]]}")
    return lines


def render(game: Game, view: dict[str, Any]) -> str:
    """The observation (or spectator view) ``view`` of a Caged Rats game as text."""
    lines = [f"{game.title}", *table_lines(view)]
    if view.get("hand") is not None:
        lines.append("Your hand: " + (" ".join(view["hand"]) or "(empty)"))
        if view.get("your_throws"):
            lines.append("You threw face down: " + " ".join(view["your_throws"]))
    if view.get("last_deal"):
        pts = view["last_deal"]["points"]
        lines.append(f"Last deal: Red {pts[0]}, Black {pts[1]}")
    events = view.get("events", [])
    if events:
        lines.append("This deal:")
        viewer = view.get("seat")
        lines.extend(f"  {describe_event(game, e, viewer)}" for e in events[-8:])
    return "\n".join(lines)
