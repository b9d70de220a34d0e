"""The Rats table in the terminal (Textual).

Your hand is shown sorted (2 low to ace high, clubs < diamonds < hearts < spades within a rank).
Move along it with ``left``/``right``, mark cards with ``space``, then ``enter`` plays the marked
cards as a combination (three cards of one natural card and both jokers play as three of a kind;
``r`` plays them as a run) and ``d`` discards them face up (lowest first).  ``c`` clears the
marks.  A refused play is explained in the message log.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ratgames.cards import parse_card
from ratgames.core.errors import IllegalAction
from ratgames.core.game import Action
from ratgames.tui.base import HandPanel
from ratgames.tui.base import suit_symbols as with_symbols

from .action import DISCARD, DISCARD1
from .render import count_of, describe_event, seat_label, suit_symbols, trick_lines


class Panel(HandPanel):
    """The seats with hand and reserve sizes, the trick so far, your hand with a cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "mark", "Mark card"),
        Binding("enter", "play('')", "Play"),
        Binding("r", "play('run')", "Play as run", show=False),
        Binding("d", "discard", "Discard"),
        Binding("c", "clear", "Clear marks"),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_event = 0

    def help_line(self) -> str:
        return (
            "left/right move · space mark a card · enter play the marked cards · r play them as "
            "a run · d discard them · c clear marks · ctrl+q quit"
        )

    # --- drawing --------------------------------------------------------------------------------

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        # The events are the latest ones, numbered up to n_events: say those not said yet
        # (your own plays too, so that what follows them follows something).
        events = observation["events"]
        first = observation["n_events"] - len(events) + 1
        for number, event in enumerate(events, start=first):
            if number > self.last_event:
                self.host.say(describe_event(self.game, event, self.seat, symbols=True))
        self.last_event = max(self.last_event, observation["n_events"])
        super().show(observation, legal, to_act)

    def refusal(self, action: Action | None, reason: str) -> str:
        """A refused play, its cards written as the table writes them (with suit symbols)."""
        return f"Not allowed: {with_symbols(reason)}"

    def is_out(self, observation: dict[str, Any]) -> bool:
        return bool(observation["out"][self.seat])

    def round_summary(self, observation: dict[str, Any]) -> Text:
        """Between rounds: how the round ended, the cards everyone holds now (the score of
        Rats: the last player with cards wins) and those of theirs everyone has seen, and the
        round's last trick."""
        game = self.game
        text = Text()
        events = observation["events"]
        ends = [i for i, e in enumerate(events) if e["kind"] == "round_end"]
        if ends:
            text.append(describe_event(game, events[ends[-1]], self.seat) + "\n", style="bold")
        text.append("\nCards held (hand + reserve):\n", style="bold")
        width = max(len(seat_label(game, s, self.seat)) for s in range(observation["players"]))
        for s in range(observation["players"]):
            label = f"  {seat_label(game, s, self.seat):<{width}}  "
            if observation["out"][s]:
                text.append(label + f"out since round {observation['out_round'][s]}\n", "dim")
                continue
            held = observation["hand_sizes"][s] + observation["reserve_sizes"][s]
            text.append(label + count_of(held, "card"), style="bold" if s == self.seat else "")
            known = observation["holdings_known"][s]
            if known and s != self.seat:
                text.append(f" (seen: {suit_symbols(' '.join(known))})")
            text.append("\n")
        if ends:
            start = ends[-1]
            while start > 0 and events[start - 1]["kind"] != "trick":
                start -= 1
            first = start - 1
            while first > 0 and events[first - 1]["kind"] == "play":
                first -= 1
            trick = [describe_event(game, e, self.seat, symbols=True) for e in events[first:start]]
            if trick:
                text.append("\nThe round's last trick:\n", style="bold")
                for line in trick:
                    text.append(f"  {line}\n")
        return text

    def render(self) -> Text:
        obs = self.obs
        text = Text()
        if obs is None:
            return text
        game = self.game
        if obs["over"]:
            status, style = "Game over", "bold"
        elif self.seat in self.to_act:
            status, style = "Your turn", "bold yellow"
        else:
            status, style = f"{game.seat_name(self.to_act[0])} to play", "bold"
        text.append(f"Round {obs['round']}", style="bold")
        text.append(f" · hands of {obs['hand_size']} · trick {obs['trick_number']} · ")
        text.append(status + "\n", style=style)
        for s in range(obs["players"]):
            name = game.seat_name(s) + (" (you)" if s == self.seat else "")
            if obs["out"][s]:
                text.append(f"  {name}: out since round {obs['out_round'][s]}\n", style="dim")
                continue
            line = f"  {name}: hand {obs['hand_sizes'][s]}, reserve {obs['reserve_sizes'][s]}"
            text.append(line + ("  <-" if s in self.to_act else "") + "\n")
        if obs["stock"]:
            stock = count_of(obs["stock"], "card")
            text.append(f"  Stock: {stock} for the winner of the round's last trick\n")
        for line in trick_lines(game, obs, symbols=True):
            text.append(line + "\n")
        self.append_hand(text)
        if self.marked:
            text.append("Marked: " + suit_symbols(" ".join(self._marked_cards())) + "\n")
        hint = self._hint()
        if hint:
            text.append(hint + "\n", style="cyan")
        reserve = count_of(len(obs["reserve_known"]) + obs["reserve_unknown"], "card")
        text.append(f"Your reserve: {reserve}\n", style="dim")
        return text

    def _hint(self) -> str:
        """What the player may do now, in a line."""
        obs = self.obs
        if obs is None or obs["over"] or self.seat not in self.to_act:
            return ""
        trick = obs["trick"]
        if trick is None:
            return "You lead: mark a single, a pair, three or four of a kind, or a run; enter"
        if trick["discarding"]:
            left = trick["count"] - len(trick["discarding"])
            more = count_of(left, "more card")
            return f"Finish your discard: {more}, higher than the last; d"
        beats = [a for a in self.legal if getattr(a, "kind", DISCARD) != DISCARD]
        count = trick["count"]
        if not beats:
            return (
                f"Nothing of yours beats it: mark {count_of(count, 'card')} to discard and press d"
            )
        shown = ", ".join(suit_symbols(str(a)) for a in beats[:6])
        shown += ", ..." if len(beats) > 6 else ""
        return f"Plays that beat: {shown} (or discard {count})"

    # --- keys -----------------------------------------------------------------------------------

    def _marked_cards(self) -> list[str]:
        assert self.obs is not None
        return [c for c in self.obs["hand"] if c in self.marked]

    def _chosen_cards(self) -> list[str]:
        """The marked cards, or else the card under the cursor."""
        card = self.current_card()
        return self._marked_cards() or ([] if card is None else [card])

    def action_clear(self) -> None:
        self.marked.clear()
        self.refresh()

    def action_play(self, reading: str) -> None:
        cards = self._chosen_cards()
        if not cards:
            return
        text = " ".join(cards)
        try:
            action = self.game.parse_action(f"{text} {reading}".strip())
        except IllegalAction as exc:
            if reading or "set' or 'run" not in str(exc):
                self.host.say(self.refusal(None, str(exc)))
                return
            action = self.game.parse_action(f"{text} set")
        self.marked.clear()
        self.host.submit(action)

    def action_discard(self) -> None:
        cards = self._chosen_cards()
        self.marked.clear()
        for card in sorted(cards, key=parse_card):
            self.host.submit(DISCARD1[parse_card(card)])
            if self.obs is None or card in self.obs["hand"]:
                break
        self.refresh()
