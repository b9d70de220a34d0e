"""The Caged Rats table in the terminal (Textual).

Your hand is shown sorted with a cursor.  ``left``/``right`` move it.  To cage, mark two cards
with ``space`` and press ``enter`` (or mark one and press ``enter`` on the other).  Otherwise
``enter`` does the card's natural move now: offer it, bid it, or top the bid with it; ``x``
throws the card under the cursor face down when you respond.  When a capture may feed either of
two rats, ``1`` or ``2`` chooses the rat.  What both players do appears in the message log.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ratgames.cards import parse_card, pretty
from ratgames.core.game import Action
from ratgames.tui.base import HandPanel, suit_symbols

from .render import describe_event, score_line

NAMES = ("Red", "Black")
STATE_STYLE = {"hungry": "yellow", "satisfied": "bold green", "overfed": "red"}


class Panel(HandPanel):
    """Score and rubber, both cages with what each rat needs, the capture and bids, your hand."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "mark", "Mark (cage)"),
        Binding("enter", "main", "Cage/offer/bid/top"),
        Binding("x", "throw", "Throw"),
        Binding("1", "feed(1)", "Feed rat 1", show=False),
        Binding("2", "feed(2)", "Feed rat 2", show=False),
    ]

    stage_word = "Deal"
    shows_stage_end = True  # the last lead of a deal scores it and deals the next at once

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen_events: tuple[int, int] = (0, 0)
        self.deal_end: dict[str, Any] | None = None
        """The observation at the end of the last deal (its last lead, final cages)."""
        self.end_reported = 0
        """The deal whose end :meth:`stage_over` has reported."""

    def help_line(self) -> str:
        return (
            "left/right move · space mark a rat · enter cage/offer/bid/top with the card · "
            "x throw it face down · 1/2 feed rat 1 or 2 · ctrl+q quit"
        )

    # --- drawing --------------------------------------------------------------------------------

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        deal, count = self.seen_events
        events = observation["events"]
        if observation["deal"] != deal:
            count = 0
            last = observation.get("last_deal")
            if last and deal and self.end_reported != deal:
                pts = last["points"]
                self.host.say(f"Deal {deal} scored: Red {pts[0]}, Black {pts[1]}")
        for event in events[count:]:
            self.host.say(self.describe(event))
        self.seen_events = (observation["deal"], len(events))
        super().show(observation, legal, to_act)

    def describe(self, event: dict[str, Any]) -> str:
        """An event in words, as this seat sees it, with the cards' suit symbols."""
        return suit_symbols(describe_event(self.game, event, self.seat))

    def refusal(self, action: Action, reason: str) -> str:
        """A refused move with the keys for what is allowed now (the rules name moves in
        their notation, such as 'offer QH')."""
        phase = self.obs["phase"] if self.obs is not None else ""
        if "is not allowed now:" in reason and self._prompt(phase):
            return f"Not now: {self._prompt(phase)}."
        return f"Not allowed: {suit_symbols(reason)}"

    def stage_over(self, observation: dict[str, Any]) -> None:
        """The deal's end: its last lead and its score in the log, its final table kept for the
        screen between deals."""
        deal, count = self.seen_events
        events = observation["events"]
        for event in events[count:]:
            self.host.say(self.describe(event))
        self.seen_events = (deal, len(events))
        self.deal_end = observation
        self.end_reported = deal

    def round_summary(self, observation: dict[str, Any]) -> Text | None:
        """Between deals: the deal's points and the score, both cages as the deal left them,
        and its last lead."""
        end = self.deal_end
        if end is None:
            return None
        text = Text()
        last = observation.get("last_deal") or {}
        points = last.get("points")
        if points:
            text.append(f"This deal: Red {points[0]}, Black {points[1]}\n", style="bold")
        text.append(score_line(observation) + "\n\n")
        for s in (0, 1):
            who = NAMES[s] + (" (you)" if s == self.seat else "")
            text.append(f"{who}: {end['deal_points'][s]} points this deal\n", style="bold")
            for i, rat in enumerate(end["cages"][s]):
                text.append(f"  rat {i + 1}: {pretty(parse_card(rat['rat']))} ")
                text.append(
                    f"{rat['captures']}/{rat['needs']} {rat['suit']} {rat['state']}\n",
                    style=STATE_STYLE[rat["state"]],
                )
        events = end["events"]
        offers = [i for i, e in enumerate(events) if e["kind"] == "offer"]
        if offers:
            text.append("\nThe last lead:\n", style="bold")
            for event in events[offers[-1] :]:
                if event["kind"] in ("score", "rubber"):
                    continue
                text.append("  " + self.describe(event) + "\n")
        return text

    def render(self) -> Text:
        obs = self.obs
        text = Text()
        if obs is None:
            return text
        text.append(score_line(obs) + "\n", style="bold")
        phase = obs["phase"]
        if phase == "over":
            status, style = "Game over", "bold"
        elif self.seat in self.to_act:
            status, style = f"Your turn: {self._prompt(phase)}", "bold yellow"
        else:
            status, style = f"{NAMES[self.to_act[0]]} to {phase}", "bold"
        text.append(
            f"Dealer {NAMES[obs['dealer']]} · lead {obs['lead']}/{obs['leads_per_deal']} · "
        )
        text.append(status + "\n", style=style)
        for s in (0, 1):
            who = NAMES[s] + (" (you)" if s == self.seat else "")
            text.append(
                f"  {who}: hand {obs['hand_sizes'][s]}, stock {obs['stock_sizes'][s]}, "
                f"deal points {obs['deal_points'][s]}\n"
            )
            if not obs["cages"][s]:
                text.append("     cage: no rats yet\n", style="dim")
            for i, rat in enumerate(obs["cages"][s]):
                text.append(f"     rat {i + 1}: {pretty(parse_card(rat['rat']))} ")
                text.append(
                    f"{rat['captures']}/{rat['needs']} {rat['suit']} {rat['state']}\n",
                    style=STATE_STYLE[rat["state"]],
                )
        if obs["offer"] is not None:
            leader = obs["leader"]
            src = " from the stock" if obs["offer_from_stock"] else ""
            text.append(
                f"  Capture on offer: {pretty(parse_card(obs['offer']))}{src} "
                f"(led by {NAMES[leader]})",
                style="bold",
            )
            if obs["bid"] is not None:
                text.append(f" · bid {pretty(parse_card(obs['bid']))}", style="bold")
            text.append("\n")
        self.append_hand(text)
        if obs["your_throws"]:
            thrown = suit_symbols(" ".join(obs["your_throws"]))
            text.append(f"You threw: {thrown}\n", style="dim")
        return text

    @staticmethod
    def _prompt(phase: str) -> str:
        return {
            "cage": "mark two rats (space) and press enter",
            "offer": "enter offers the card as a capture",
            "bid": "enter bids the card",
            "respond": "enter tops the bid with the card, x throws it",
            "feed": "1 or 2 chooses the rat to feed",
        }.get(phase, "")

    # --- keys -----------------------------------------------------------------------------------

    def action_main(self) -> None:
        obs = self.obs
        card = self.current_card()
        if obs is None or card is None:
            return
        phase = obs["phase"]
        if phase == "cage":
            rats = sorted(self.marked | {card}) if len(self.marked) < 2 else sorted(self.marked)
            if len(rats) != 2:
                self.host.say("Mark two cards with space to cage them as your rats.")
                return
            self.marked.clear()
            self.host.submit(self.game.parse_action(f"cage {rats[0]} {rats[1]}"))
            return
        verb = {"offer": "offer", "bid": "bid", "respond": "top"}.get(phase)
        if verb is None:
            self.host.say("Choose the rat with 1 or 2." if phase == "feed" else "Not now.")
            return
        self.host.submit(self.game.parse_action(f"{verb} {card}"))

    def action_throw(self) -> None:
        card = self.current_card()
        if card is not None:
            self.host.submit(self.game.parse_action(f"throw {card}"))

    def action_feed(self, rat: int) -> None:
        self.host.submit(self.game.parse_action(f"feed {rat}"))
