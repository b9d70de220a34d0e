"""The Egyptian Ratscrew table in the terminal (Textual), in real time.

Keys: ``space`` plays your top card when it is your turn (or collects a pile you have won),
``s`` slaps the pile at any moment, ``c`` collects.  The bots play at a human pace and slap with
their reflexes on the wall clock; every slap is reported (valid, bad with its burn, too late).
Whether the pile can be slapped is for you to spot: the panel does not say.

A key press is judged against the pile you could have reacted to: the one on the screen at
least :data:`~ratgames.games.egyptian_ratscrew.rules.MIN_REACTION` (0.1 s) before the press.
So when a bot takes a slappable pile and you press ``s`` a moment later, your slap is too late
(no penalty), exactly as a bot's late slap is, instead of a bad slap at the empty table that
replaced the pile under your finger.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ratgames.core.game import Action
from ratgames.tui.base import ObservingPanel

from .action import COLLECT_ACTION, PLAY_ACTION, slap
from .render import PILE_SHOWN, challenge_text, count_cards, describe_event
from .rules import MIN_REACTION

clock: Callable[[], float] = time.monotonic
"""The panel's clock (seconds); tests replace it to time key presses exactly."""

SHOWN_KEPT = 32
"""How many of the latest pile versions the panel remembers with the moment it showed them."""


class Panel(ObservingPanel):
    """The stacks, the pile's top cards, the challenge in progress, whose move it is."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "play", "Play card"),
        Binding("s", "slap", "Slap!"),
        Binding("c", "collect", "Collect"),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events_seen = 0
        self.shown: list[tuple[float, int]] = []
        """(when it was first shown, pile version), oldest first."""

    # --- drawing --------------------------------------------------------------------------------

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        super().show(observation, legal, to_act)
        version = int(observation["pile_version"])
        if not self.shown or self.shown[-1][1] != version:
            self.shown.append((clock(), version))
            del self.shown[:-SHOWN_KEPT]
        events = observation["events"]
        new = int(observation["event_count"]) - self.events_seen
        for event in events[len(events) - min(new, len(events)) :]:
            self._notice(event)
        self.events_seen = int(observation["event_count"])

    def _notice(self, event: dict[str, Any]) -> None:
        """A line in the log for everything but plain plays (the pile shows those)."""
        if event["kind"] == "play":
            return
        self.host.say(describe_event(self.game, event, self.seat))

    def who(self, seat: int) -> str:
        return "You" if seat == self.seat else self.game.seat_name(seat)

    def status(self) -> tuple[str, str]:
        """The headline and its style."""
        obs = self.obs
        assert obs is not None
        me = self.seat
        if obs["result"] is not None:
            winners = ", ".join(self.who(w) for w in obs["result"]["winners"])
            return f"Game over: {winners} won ({obs['result']['reason']})", "bold"
        if obs["phase"] == "play":
            if obs["turn"] == me:
                return "Your turn: space to play your top card", "bold yellow"
            return f"{self.who(obs['turn'])} to play", "bold"
        if obs["collector"] == me:
            return "You won the pile: space (or c) to collect it", "bold yellow"
        return f"{self.who(obs['collector'])} to collect the pile", "bold"

    def render(self) -> Text:
        obs = self.obs
        text = Text()
        if obs is None:
            return text
        headline, style = self.status()
        text.append(headline + "\n", style=style)
        for seat, stack in enumerate(obs["stacks"]):
            label = self.game.seat_name(seat) + (" (you)" if seat == self.seat else "")
            mover = (obs["phase"] == "play" and obs["turn"] == seat) or (
                obs["phase"] in ("collect", "final") and obs["collector"] == seat
            )
            text.append(("> " if mover else "  ") + f"{label:<14}", style="bold" if mover else "")
            size = stack["size"]
            text.append(f"{size:>3} card" + (" " if size == 1 else "s"))
            if stack["status"] == "out":
                text.append("  out", style="red")
            elif stack["status"] == "waiting":
                text.append("  waiting to slap in", style="dim")
            elif stack["size"] == 0:
                text.append("  no cards: slap in!", style="magenta")
            text.append("\n")
        pile = obs["pile"]
        shown = pile[-PILE_SHOWN:]
        text.append("\nPile: ")
        if len(pile) > len(shown):
            text.append(f"({len(pile) - len(shown)} under) ", style="dim")
        if not shown:
            text.append("(empty)", style="dim")
        for i, card in enumerate(shown):
            top = i == len(shown) - 1
            text.append(f"[{card:>3}]", style="bold reverse" if top else "")
            text.append(" ")
        if obs["burned"]:
            text.append(f" +{len(obs['burned'])} burned", style="dim")
        text.append(f"\n{count_cards(len(pile))} on the pile\n")
        challenge = challenge_text(self.game, obs, direct=True)
        if challenge:
            text.append(challenge + "\n")
        if obs["may_slap"]:
            text.append("s: slap the pile", style="italic")
        me = self.seat
        if obs["result"] is None and obs["stacks"][me]["status"] == "waiting":
            holders = sum(1 for st in obs["stacks"] if st["size"] > 0)
            text.append("\n")
            if holders >= 5:
                text.append(
                    "You wait to come in: five players hold cards, so nobody comes in until one "
                    "of them runs out.",
                    style="magenta",
                )
            else:
                text.append(
                    "You have no cards yet: slap (s) a pile that can be slapped to come in with "
                    "it.  A bad slap puts you out for good.",
                    style="magenta",
                )
        return text

    def refusal(self, action: Action, reason: str) -> str:
        """A refused key in the words of this table: slaps by their key, not their notation
        (``slap@12`` names the pile a slap was aimed at)."""
        reason = re.sub(r"slap \(slap@\d+\)", "slap (s)", reason)
        reason = re.sub(r"\s*\((?:now )?slap@\d+\)", "", reason)
        return f"Not allowed: {reason}"

    def help_line(self) -> str:
        if not self.game.options.get("slaps", True):
            return "space play / collect · c collect · ctrl+q quit"
        return "space play / collect · s slap (any time) · c collect · ctrl+q quit"

    # --- keys -----------------------------------------------------------------------------------

    def action_play(self) -> None:
        obs = self.obs
        if obs is None:
            return
        if obs["phase"] in ("collect", "final") and obs["collector"] == self.seat:
            self.host.submit(COLLECT_ACTION)
        else:
            self.host.submit(PLAY_ACTION)

    def action_collect(self) -> None:
        self.host.submit(COLLECT_ACTION)

    def reaction_version(self, now: float) -> int:
        """The pile version a key press at ``now`` is judged against: the latest one shown at
        least ``MIN_REACTION`` before it (the first one shown, if none is that old)."""
        cutoff = now - MIN_REACTION
        version = self.shown[0][1]
        for when, shown in self.shown:
            if when > cutoff:
                break
            version = shown
        return version

    def action_slap(self) -> None:
        obs = self.obs
        if obs is None or not self.shown:
            return
        version = self.reaction_version(clock())
        if version <= int(obs["last_slap"]):
            self.host.say("You already slapped this pile.")
            return
        self.host.submit(slap(version))
