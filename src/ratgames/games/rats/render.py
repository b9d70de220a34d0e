"""Rats in words: an event as a sentence, and a plain-text picture of an observation or a
spectator view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ratgames.cards import SUIT_NAMES, SUITS, pretty
from ratgames.core.game import Game

from .action import CARD_INDEX


def seat_label(game: Game, seat: int, me: int | None) -> str:
    """``Seat 2`` or ``Seat 2 (you)``."""
    return game.seat_name(seat) + (" (you)" if seat == me else "")


def suit_symbols(text: str) -> str:
    """Every card of ``text`` written with its suit symbol, as the terminal shows cards.

    >>> suit_symbols("discard 3C 10H")
    'discard 3♣ 10♥'
    """
    return " ".join(pretty(CARD_INDEX[w]) if w in CARD_INDEX else w for w in text.split(" "))


def count_of(n: int, thing: str) -> str:
    """``1 card``, ``2 cards``.

    >>> count_of(1, "card"), count_of(3, "more card")
    ('1 card', '3 more cards')
    """
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _plain(text: str) -> str:
    return text


def describe_event(
    game: Game, event: Mapping[str, Any], viewer: int | None = None, *, symbols: bool = False
) -> str:
    """One event (its JSON form, see :mod:`ratgames.games.rats.events`) as a sentence, as seat
    ``viewer`` sees it (None: a spectator): ``Seat 2 leads 7H 7S``, ``You discard 2C 9D``,
    ``Seat 3 wins the trick (8 cards)``, ``Round 2 ends; Seat 1 out; next hands: 6 cards``.
    With ``symbols`` the cards have their suit symbols (``7♥ 7♠``), as in the terminal."""
    kind = event["kind"]
    show = suit_symbols if symbols else _plain
    if kind == "play":
        you = event["seat"] == viewer
        who = "You" if you else game.seat_name(event["seat"])
        cards = show(" ".join(event["cards"]))
        if event["combination"] == "discard":
            return f"{who} {'discard' if you else 'discards'} {cards}"
        if event["leads"]:
            verb = "lead" if you else "leads"
        elif event["beats"]:
            verb = "beat with" if you else "beats with"
        else:
            verb = "play" if you else "plays"
        return f"{who} {verb} {show(event['play'])}"
    if kind == "trick":
        you = event["winner"] == viewer
        who = "You" if you else game.seat_name(event["winner"])
        return f"{who} {'win' if you else 'wins'} the trick ({count_of(event['count'], 'card')})"
    parts = [f"Round {event['round']} ends"]
    stock_to = event["stock_to"]
    if stock_to is not None:
        parts.append(
            f"the stock goes to {'you' if stock_to == viewer else game.seat_name(stock_to)}"
        )
    others = [game.seat_name(s) for s in event["out"] if s != viewer]
    if others:
        parts.append(" and ".join(others) + (" are out" if len(others) > 1 else " is out"))
    if viewer in event["out"]:
        parts.append("you are out")
    if event["next_hand_size"]:
        parts.append(f"next hands: {count_of(event['next_hand_size'], 'card')}")
    return "; ".join(parts)


def trick_lines(game: Game, view: dict[str, Any], *, symbols: bool = False) -> list[str]:
    """The trick on the table, one line per play (``symbols``: cards with suit symbols)."""
    show = suit_symbols if symbols else _plain
    me = view.get("seat")
    trick = view["trick"]
    if trick is None:
        return ["Trick: none yet; " + seat_label(game, view["leader"], me) + " leads"]
    led = trick["suit_led"]
    suit = f", suit led {SUIT_NAMES[SUITS.index(led)]}" if led else ""
    out = [f"Trick: a {trick['combination']} led by {seat_label(game, view['leader'], me)}{suit}"]
    for play in trick["plays"]:
        mark = "  <- best" if play["seat"] == trick["best_seat"] and not play["discard"] else ""
        out.append(f"  {seat_label(game, play['seat'], me)}: {show(play['play'])}{mark}")
    if trick["discarding"]:
        seat = view["to_act"][0] if view["to_act"] else None
        who = seat_label(game, seat, me) if seat is not None else "?"
        out.append(f"  {who}: discarding {show(' '.join(trick['discarding']))} ...")
    return out


def render(game: Game, view: dict[str, Any]) -> str:
    """The table as ``view`` (an observation or a spectator view) shows it."""
    me = view.get("seat")
    players = view["players"]
    lines = [
        f"Rats, round {view['round']}: hands of {view['hand_size']} "
        f"(first hands {view['initial_hand_size']}), trick {view['trick_number']}"
    ]
    for s in range(players):
        label = seat_label(game, s, me)
        if view["out"][s]:
            lines.append(f"  {label}: out (round {view['out_round'][s]})")
            continue
        turn = "  <- to play" if s in view["to_act"] else ""
        lines.append(
            f"  {label}: hand {view['hand_sizes'][s]}, reserve {view['reserve_sizes'][s]}{turn}"
        )
    if view["stock"]:
        stock = count_of(view["stock"], "card")
        lines.append(f"Stock: {stock} (to the winner of this round's last trick)")
    elif view["stock_taker"] is not None:
        lines.append(f"Stock: taken by {seat_label(game, view['stock_taker'], me)}")
    lines.extend(trick_lines(game, view))
    if view["round_tricks"]:
        last = view["round_tricks"][-1]
        plays = ", ".join(f"{p['play']}" for p in last["plays"])
        lines.append(f"Last trick: {plays}; won by {seat_label(game, last['winner'], me)}")
    if me is not None:
        lines.append("Your hand: " + (" ".join(view["hand"]) or "(empty)"))
        known = view["reserve_known"]
        unknown = view["reserve_unknown"]
        extra = f" and {unknown} unseen" if unknown else ""
        lines.append(
            f"Your reserve: {count_of(len(known) + unknown, 'card')}"
            + (f" ({' '.join(known)}{extra})" if known else extra and f" ({unknown} unseen)")
        )
    if view["events"]:
        lines.append(
            "Recently: " + "; ".join(describe_event(game, e, me) for e in view["events"][-4:])
        )
    if view["over"]:
        lines.append("The game is over.")
    return "\n".join(lines)
