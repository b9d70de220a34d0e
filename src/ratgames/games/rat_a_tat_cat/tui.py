"""The Rat-a-Tat Cat table in the terminal (Textual).

Your four cards lie face down; a card is shown only while you look at it (the opening look at
your outer cards, a Peek, the card a Swap gives you), until your next key, unless the game's
``memory_aid`` option is on, in which case every card you have seen stays visible.

Keys: ``d`` draw, ``t`` take the discard, ``1``-``4`` choose a slot (replace / peek), ``x``
discard the drawn card, ``s`` then your slot, a seat and its slot to swap, ``n`` no swap, ``k``
knock, ``e`` end the turn, ``escape`` cancel a swap being typed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ratgames.core.game import Action
from ratgames.tui.base import ObservingPanel

from .action import DISCARD, DRAW, END, KNOCK, NOSWAP, PEEKS, REPLACE, SWAPS, TAKE
from .cards import SLOTS

OWN_MOVES = frozenset(
    {"draw", "power", "take", "replace", "discard", "pass", "peek", "swap", "noswap", "knock"}
)
"""The events of a seat's own moves (after each, the cards it was looking at are hidden)."""


class Panel(ObservingPanel):
    """Your row, the other rows, the piles, whose turn it is, the scores, what just happened."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "act('draw')", "Draw"),
        Binding("t", "act('take')", "Take discard"),
        Binding("x", "act('discard')", "Discard"),
        Binding("s", "swap", "Swap"),
        Binding("n", "act('noswap')", "No swap"),
        Binding("k", "act('knock')", "Knock"),
        Binding("e", "act('end')", "End turn"),
        Binding("escape", "cancel", "Cancel", show=False),
        *[Binding(str(n), f"digit({n})", f"{n}", show=False) for n in range(1, 7)],
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.looking: set[int] = set()
        self.drawn: str | None = None
        """The number card you drew and hold (None when not known to this panel)."""
        self.next_event = 0  # the number of the first event not reported yet
        self.swap_keys: list[int] | None = None
        self.prompt = ""

    # --- drawing --------------------------------------------------------------------------------

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        super().show(observation, legal, to_act)
        events = observation["events"]
        start = observation["events_start"]
        for i, event in enumerate(events):
            if start + i >= self.next_event:
                self._notice(event, latest=i == len(events) - 1)
        self.next_event = max(self.next_event, start + len(events))
        if self.swap_keys is not None and not self._can_swap():
            self.swap_keys = None
        self.prompt = self._prompt()

    def _notice(self, event: dict[str, Any], latest: bool = False) -> None:
        """Follow what happened: what you are looking at now, and a line for the log (your own
        moves too, with the card you drew while you hold it: ``latest`` is the newest event)."""
        me = self.seat
        kind = event["kind"]
        if kind in OWN_MOVES and event["seat"] == me:
            # A look lasts until your next move: so it is when a resumed game's panel goes over
            # the moves again, which must not give a second look at what you saw before.
            self.looking = set()
        if kind == "deal":
            self.looking = {0, SLOTS - 1}
        elif kind == "peek" and event["seat"] == me:
            self.looking = {event["slot"] - 1}
        elif kind == "swap" and self.game.options.get("swap_look"):
            if event["seat"] == me:
                self.looking = {event["slot"] - 1}
            elif event["other"] == me:
                self.looking = {event["other_slot"] - 1}
        if kind == "round" and self.obs is not None and self.obs["results"]:
            self.host.say(self._round_text(self.obs["results"][-1]))
            return
        line = self.describe(event)
        held = self.obs["held"] if self.obs is not None else None
        if kind == "draw" and event["seat"] == me:
            # Only you see what you drew: said while you hold it, and where it goes.
            self.drawn = held if latest else None
            if self.drawn is not None:
                line += f": {'an' if held == '8' else 'a'} {held}"
        elif kind == "replace" and event["seat"] == me and event["placed"] is None and self.drawn:
            line = line.replace("You put the card ", f"You put the {self.drawn} ", 1)
        self.host.say(line)

    def who(self, seat: int) -> str:
        return "you" if seat == self.seat else self.game.seat_name(seat)

    def describe(self, event: dict[str, Any]) -> str:
        """An event in words, with "you" for your seat."""
        return self.game.describe_event(event, self.seat)

    def _round_text(self, result: dict[str, Any]) -> str:
        parts = []
        for s, row in enumerate(result["hands"]):
            if row is None:
                continue
            parts.append(f"{self.who(s)}: {' '.join(row)} = {result['sums'][s]}")
        winners = ", ".join(self.who(w) for w in result["winners"])
        return f"Round {result['round']} over. " + "; ".join(parts) + f". Won by {winners}."

    def _visible(self, owner: int, slot: int, card: str | None, face_up: bool) -> str | None:
        if card is None:
            return None
        if face_up or self.memory_aid or self.obs is None or self.obs["over"]:
            return card
        if owner == self.seat and slot in self.looking:
            return card
        return None

    def render(self) -> Text:
        obs = self.obs
        text = Text()
        if obs is None:
            return text
        game = self.game
        turn = obs["turn"]
        if turn is None:
            status = "Game over"
        elif turn == self.seat:
            status = "Your turn"
        else:
            status = f"{game.seat_name(turn)} to play"
        text.append(f"Round {obs['round']}", style="bold")
        text.append(f" · {game.seat_name(obs['dealer'])} dealt · ")
        text.append(status + "\n", style="bold yellow" if turn == self.seat else "bold")
        if obs["knocker"] is not None and turn is not None:
            text.append(f"{self.who(obs['knocker']).capitalize()} knocked: last turns!\n", "red")
        elif obs["closer"] is not None and turn is not None:
            text.append("The turn cap was reached: last turns!\n", "red")
        pile = obs["draw_pile"]
        text.append(f"Draw pile: {pile} card{'' if pile == 1 else 's'}    Discard: ")
        text.append(f"[{obs['discard_top'] or '-':^5}]\n", style="bold")
        if obs["held"] is not None and turn is not None:
            who = "You hold" if turn == self.seat else f"{game.seat_name(turn)} holds"
            text.append(f"{who}: {obs['held']}\n", style="bold cyan")
        if obs["draws_left"]:
            left = obs["draws_left"]
            text.append(f"Draw 2: {left} more draw{'' if left == 1 else 's'}\n")
        width = max(len(game.seat_name(s)) for s in range(obs["players"])) + 6
        text.append(" " * (width + 1) + "".join(f"   {i + 1}    " for i in range(SLOTS)) + "\n")
        for s in range(obs["players"]):
            label = game.seat_name(s) + (" (you)" if s == self.seat else "")
            style = "bold" if s == turn else ""
            text.append(f"{label:<{width}} ", style=style)
            if obs["out"][s] and not obs["in_round"][s]:
                text.append("out of the game")
            else:
                for i in range(SLOTS):
                    up = obs["face_up"][s][i]
                    card = self._visible(s, i, obs["slots"][s][i], up)
                    shown = f"{card:^5}" if card is not None else "  ?  "
                    box = f"({shown})" if up else f"[{shown}]"
                    text.append(box + " ", style="green" if card is not None else "")
            text.append(f"  total {obs['totals'][s]}")
            if obs["knocker"] == s:
                text.append("  KNOCKED", style="red")
            text.append("\n")
        if self.prompt:
            text.append(self.prompt, style="italic")
        return text

    def _prompt(self) -> str:
        if self.obs is None or self.seat not in self.to_act:
            return ""
        phase = self.obs["phase"]
        extra = " (x: discard and draw again)" if self.obs["draws_left"] else ""
        if phase == "start":
            take = " or t to take the discard" if TAKE in self.legal else ""
            return f"Press d to draw{take}."
        if phase == "holding":
            return "Press 1-4 to put the card in that slot, or x to discard it."
        if phase == "taken":
            return "Press 1-4: the card you took must replace one of yours."
        if phase == "draw2":
            return "Draw 2: press d to draw."
        if phase == "peek":
            return "Peek: press 1-4 to look at one of your cards" + extra + "."
        if phase == "swap":
            if self.swap_keys is None:
                no = "x to pass and draw again" if self.obs["draws_left"] else "n for no swap"
                return f"Swap: press s, then your slot, the seat and its slot; or {no}."
            asked = ("your slot (1-4)", "the seat number", "that seat's slot (1-4)")
            typed = "".join(f" {k}" for k in self.swap_keys)
            return f"Swap{typed}: now {asked[len(self.swap_keys)]} (escape cancels)."
        if phase == "knock":
            return "Your turn is done: k to knock (Rat-a-Tat Cat!) or e to end your turn."
        return ""

    def is_out(self, observation: dict[str, Any]) -> bool:
        return bool(observation["out"][self.seat])

    def refusal(self, action: Action, reason: str) -> str:
        """A refused move in the words of this table: what the rules say (without the list of
        moves allowed, which is in notation) and the keys that do what is allowed now."""
        why = reason.split("; allowed now:")[0]
        if self.obs is None or self.seat not in self.to_act:
            return f"Not allowed: {why}."
        phase = self.obs["phase"]
        if phase == "start" and "is not how a turn starts" in why:
            why = "your turn starts with a draw"
        elif phase == "swap" and why.startswith(("a Swap ", "your slot ", "slot ", "seat ")):
            pass  # why that swap cannot be made, in plain words
        elif phase in ("holding", "taken", "peek", "swap", "draw2", "knock"):
            why = self._phase_words()
        keys = self._keys_now()
        return f"Not allowed: {why}. {keys}" if keys else f"Not allowed: {why}."

    def _phase_words(self) -> str:
        """Why the phase of the turn allows only some moves, in plain words."""
        obs = self.obs
        assert obs is not None
        held = obs["held"]
        return {
            "holding": f"you hold the {held} you drew",
            "taken": f"the {held} taken from the discard pile must replace one of your cards",
            "peek": "you drew a PEEK",
            "swap": "you drew a SWAP",
            "draw2": "Draw 2: you must draw the next card",
            "knock": "your turn is done",
        }[obs["phase"]]

    def _keys_now(self) -> str:
        """The keys for the moves allowed now, as a sentence."""
        obs = self.obs
        assert obs is not None
        phase = obs["phase"]
        again = obs["draws_left"]
        if phase == "start":
            return "Press d to draw" + (" or t to take the discard." if TAKE in self.legal else ".")
        if phase == "holding":
            return "Press 1-4 to put it in that slot, or x to discard it."
        if phase == "taken":
            return "Press 1-4 for the slot it replaces."
        if phase == "draw2":
            return "Press d to draw."
        if phase == "peek":
            return "Press 1-4 to look at that card" + (", or x to pass on it." if again else ".")
        if phase == "swap":
            no = "x to pass on it and draw again" if again else "n for no swap"
            return f"Press s, then your slot, the seat and its slot; or {no}."
        if phase == "knock":
            return "Press k to knock (Rat-a-Tat Cat!) or e to end your turn."
        return ""

    def help_line(self) -> str:
        return (
            "d draw · t take discard · 1-4 slot · x discard · s swap · n no swap · "
            "k knock · e end turn · ctrl+q quit"
        )

    # --- keys -----------------------------------------------------------------------------------

    def _submit(self, action: Action) -> None:
        self.looking = set()
        self.swap_keys = None
        self.host.submit(action)

    def _can_swap(self) -> bool:
        return self.obs is not None and self.obs["phase"] == "swap" and bool(self.legal)

    def action_act(self, what: str) -> None:
        actions = {
            "draw": DRAW,
            "take": TAKE,
            "discard": DISCARD,
            "noswap": NOSWAP,
            "knock": KNOCK,
            "end": END,
        }
        action = actions[what]
        if what == "end" and self.obs is not None and self.obs["phase"] != "knock":
            self.host.say("You can end your turn only once it is done.")
            return
        self._submit(action)

    def action_swap(self) -> None:
        if not self._can_swap():
            self.host.say("You can swap only right after drawing a SWAP.")
            return
        self.swap_keys = []
        self.prompt = self._prompt()
        self.refresh(layout=True)

    def action_cancel(self) -> None:
        if self.swap_keys is not None:
            self.swap_keys = None
            self.prompt = self._prompt()
            self.refresh(layout=True)

    def action_digit(self, n: int) -> None:
        obs = self.obs
        if obs is None:
            return
        phase = obs["phase"]
        if self.swap_keys is not None:
            self.swap_keys.append(n)
            if len(self.swap_keys) < 3:
                self.prompt = self._prompt()
                self.refresh(layout=True)
                return
            a, p, b = self.swap_keys
            self.swap_keys = None
            action = SWAPS.get((a - 1, p - 1, b - 1))
            if action is None or n > SLOTS:
                self.host.say("A swap is your slot (1-4), a seat, and its slot (1-4).")
                self.prompt = self._prompt()
                self.refresh(layout=True)
                return
            self._submit(action)
            return
        if n > SLOTS:
            self.host.say("Slots are numbered 1 to 4.")
            return
        if phase == "peek":
            self._submit(PEEKS[n - 1])
        elif phase == "swap":
            self.swap_keys = [n]
            self.prompt = self._prompt()
            self.refresh(layout=True)
        else:
            self._submit(REPLACE[n - 1])
