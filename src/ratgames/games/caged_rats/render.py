"""A plain-text picture of a Caged Rats observation or spectator view."""

from __future__ import annotations

from typing import Any

from ratgames.core.game import Game

NAMES = ("Red", "Black")


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
    lines.append(
        f"Dealer: {NAMES[view['dealer']]}   lead {view['lead']}/{view['leads_per_deal']}   "
        f"phase: {view['phase']}"
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
        lines.extend(f"  {e['text']}" for e in events[-8:])
    return "\n".join(lines)
