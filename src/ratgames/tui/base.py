"""What a game's terminal panel is, and how it finds the game's panel and text picture."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widget import Widget

from ratgames.cards import SUIT_SYMBOLS, parse_card, pretty
from ratgames.core.errors import RatgamesError

if TYPE_CHECKING:
    from ratgames.core.game import Action, Game


class Host(Protocol):
    """What a panel may ask of the app that hosts it."""

    def submit(self, action: Action, seat: int | None = None) -> None:
        """Offer an action for the panel's seat (or for ``seat``, one of the panel's
        ``people``); a refused one is reported to the player in the status line."""

    def say(self, message: str) -> None:
        """Show a line in the message log."""

    def refuse(self, message: str) -> None:
        """A key that does nothing now: say why in the status line (and the log), with a bell."""


class GamePanel(Widget, can_focus=True):
    """The table as one seat sees it.  Subclasses draw it and bind keys to actions.

    The app calls :meth:`show` after every change with the seat's observation, its legal actions
    and the seats that may act.  To act, a panel calls ``self.host.submit(action)``; for a key
    that does nothing now it calls ``self.host.refuse(why)``, which the status line shows.  (A
    key that reaches the app unhandled is reported as doing nothing: a panel that handles keys
    in its own ``on_key`` calls ``event.stop()`` on those it uses.)

    Several people at one keyboard (hot-seat): in a turn-based game the app gives each person a
    panel of their own and covers the table between them.  In a real-time game everyone plays at
    once on one panel: a panel class that can take ``max_people`` people (each with their own
    keys) gets their seats as ``people`` (``people[0]`` is ``seat``) and submits with
    ``self.host.submit(action, seat)``.
    """

    max_people: ClassVar[int] = 1
    """How many people this panel lets play at once in a real-time game (keys for each)."""

    stage_word: ClassVar[str] = "Round"
    """What the game calls the parts it is scored in (``Round``, ``Deal``), for the screen
    between them."""

    shows_stage_end: ClassVar[bool] = False
    """True for a game whose next round is dealt by the very action that ends the last one, so
    that no observation holds the round's end: the app then plays that action again on a copy
    that stops at the round's end (:meth:`~ratgames.core.game.State.only_scored_after`) and
    gives its observation to :meth:`stage_over`.  The game's state must stop there, not deal
    on."""

    DEFAULT_CSS = """
    GamePanel { height: auto; min-height: 12; padding: 0 1; }
    """

    def __init__(self, game: Game, seat: int, host: Host, *, memory_aid: bool = False) -> None:
        super().__init__()
        self.game = game
        self.seat = seat
        self.host = host
        self.memory_aid = memory_aid
        self.people: list[int] = [seat]

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        """Redraw for a new observation."""
        raise NotImplementedError

    def help_line(self) -> str:
        """One line naming the keys."""
        return ""

    def stage_over(self, observation: dict[str, Any]) -> None:
        """The seat's observation at the very end of a round, before the next is dealt (only
        with :attr:`shows_stage_end`): report what happened since the last :meth:`show`."""

    def is_out(self, observation: dict[str, Any]) -> bool:
        """True once the seat can never act again in this game (out of it), so that nothing
        waits for its key any more."""
        return False

    def refusal(self, action: Action, reason: str) -> str:
        """What the status line says when ``action`` is refused for ``reason`` (the rules'
        words, which name actions in their notation): a panel may say it with its keys."""
        return f"Not allowed: {reason}"

    def round_summary(self, observation: dict[str, Any]) -> Text | str | None:
        """What the reveal between rounds shows, given the seat's observation just after a
        round ended (everyone's cards and the scores); None lets the app tell the round's last
        events in words."""
        return None


class ObservingPanel(GamePanel):
    """A panel that keeps what it was last shown: the observation as ``obs`` (None until the first
    :meth:`show`), the legal actions as ``legal`` and the seats to act as ``to_act``.

    :meth:`show` stores them and asks for a redraw.  The redraw happens after ``show`` returns, so
    a subclass's ``show`` may call this one first and then follow the new observation (report its
    events, update a prompt) with ``self.obs`` already up to date.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.obs: dict[str, Any] | None = None
        self.legal: list[Action] = []
        self.to_act: list[int] = []

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        self.obs = observation
        self.legal = legal
        self.to_act = to_act
        self.refresh(layout=True)


class HandPanel(ObservingPanel):
    """A panel for a game where you hold a hand of cards: a cursor moves along it, cards get marked.

    ``left``/``right`` move the cursor, wrapping around the hand; :meth:`action_mark` marks or
    unmarks the card under it (subclasses bind it, usually to ``space``, with their own label).
    :meth:`show` keeps what :class:`ObservingPanel` keeps; it drops marks on cards that left the
    hand and keeps the cursor in the hand.  A subclass that reports events does so in its own
    ``show`` and then calls this one.  :meth:`append_hand` draws the hand with the cursor in
    reverse video and marked cards bracketed in green.  The observation must give the hand as
    ``observation["hand"]``, a list of card texts.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cursor = 0
        self.marked: set[str] = set()

    def show(self, observation: dict[str, Any], legal: list[Action], to_act: list[int]) -> None:
        hand = observation["hand"]
        self.marked &= set(hand)
        self.cursor = max(0, min(self.cursor, len(hand) - 1))
        super().show(observation, legal, to_act)

    def current_card(self) -> str | None:
        """The card under the cursor, or None with no hand."""
        if not self.obs or not self.obs["hand"]:
            return None
        return str(self.obs["hand"][self.cursor])

    def append_hand(self, text: Text) -> None:
        """Add the line ``Your hand: ...`` with the cursor and the marks."""
        assert self.obs is not None
        text.append("Your hand: ")
        for i, card in enumerate(self.obs["hand"]):
            shown = pretty(parse_card(card))
            marked = card in self.marked
            label = f"[{shown}]" if marked else f" {shown} "
            style = "reverse" if i == self.cursor else ""
            if marked:
                style += " bold green"
            text.append(label, style=style.strip() or None)
        if not self.obs["hand"]:
            text.append("(empty)")
        text.append("\n")

    def action_move(self, step: int) -> None:
        """Move the cursor ``step`` cards along the hand."""
        if self.obs and self.obs["hand"]:
            self.cursor = (self.cursor + step) % len(self.obs["hand"])
            self.refresh()

    def action_mark(self) -> None:
        """Mark the card under the cursor, or unmark it."""
        card = self.current_card()
        if card is not None:
            self.marked.symmetric_difference_update({card})
            self.refresh()


_CARD_TEXT = re.compile(r"\b(10|[2-9JQKA])([CDHS])\b")
_SYMBOL = dict(zip("CDHS", SUIT_SYMBOLS, strict=True))


def suit_symbols(text: str) -> str:
    """``text`` with every card written in notation (``10H``, ``QS``) given its suit symbol, as
    the terminal shows cards.

    >>> suit_symbols("9S does not top 10H; you could top with JS")
    '9♠ does not top 10♥; you could top with J♠'
    """
    return _CARD_TEXT.sub(lambda m: m.group(1) + _SYMBOL[m.group(2)], text)


def player_rules(markdown: str) -> str:
    r"""A game's rules as players read them: without the section whose heading starts with
    ``Notation`` (how programs and records write actions, cards and deals).

    >>> player_rules("# Game\n\nPlay.\n\n## Notation\n`play`\n\n## Tips\nHave fun.\n")
    '# Game\n\nPlay.\n\n## Tips\nHave fun.\n'
    """
    out: list[str] = []
    skipping = False
    for line in markdown.splitlines(keepends=True):
        if line.startswith("## "):
            skipping = line[3:].startswith("Notation")
        if not skipping:
            out.append(line)
    return "".join(out).rstrip("\n") + "\n"


def notation_rules(markdown: str) -> str:
    """The section of a game's rules whose heading starts with ``Notation`` (empty if none)."""
    out: list[str] = []
    taking = False
    for line in markdown.splitlines(keepends=True):
        if line.startswith("## "):
            taking = line[3:].startswith("Notation")
        if taking:
            out.append(line)
    return "".join(out)


class NoTerminal(RatgamesError):
    """The terminal app was asked for where no terminal is (input or output redirected)."""


def check_terminal(what: str, headless: bool = False, instead: str = "") -> None:
    """Raise :class:`NoTerminal` unless standard input and output are a terminal (Textual would
    wait for keys that never come); a headless run needs none.  ``instead`` ends the message
    (what to do without a terminal)."""
    if headless:
        return
    problem = ""
    if not (sys.stdout is not None and sys.stdout.isatty()):
        problem = "its output is not a terminal"
    if not (sys.stdin is not None and sys.stdin.isatty()):
        problem = "its input is not a terminal"
    if problem:
        raise NoTerminal(f"{what} needs a terminal to play in, and {problem}{instead}")


def panel_class(game: Game) -> type[GamePanel]:
    """The game's terminal panel: its ``tui`` part (declared where the game is registered,
    :class:`ratgames.core.registry.GameParts`)."""
    from ratgames.core.registry import required_part

    panel: type[GamePanel] = required_part(game.id, "tui", "the terminal table")
    return panel


def render_view(game: Game, view: dict[str, Any]) -> str:
    """The game's text picture of an observation or spectator view (its ``render`` part)."""
    from ratgames.core.registry import required_part

    text: str = required_part(game.id, "render", "the text picture").render(game, view)
    return text
