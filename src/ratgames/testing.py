"""A tiny game for testing the engine core, search bots and tools (not registered by default).

High Card: each player holds two of the cards 0-9; a turn plays one face up and draws from the
pile; after ``turns`` turns the highest total of played cards wins.  An empty draw pile is
refilled by reshuffling the played cards (a recorded chance event).  Register it to use it by
name, with its parts (:data:`PARTS`: the text picture and event sentences from this module, the
research encoder and deal plan from :mod:`ratgames.testing_rl`)::

    register_high_card()  # register_game(HighCard.id, HighCard, parts=PARTS)

It is the worked example of ``docs/adding-a-game.md``: everything a built-in game gets (a server
table, the browser's generic table, an encoder for the research environments) it gets from these
two modules alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .core import (
    Bot,
    Chance,
    DealError,
    Game,
    InvalidNotation,
    Option,
    Outcome,
    Rng,
    SeatView,
    SnapshotError,
    State,
    fields,
)
from .core.events import CARD, Event, event_json
from .core.registry import GameParts, register_game


class HighCard(Game):
    """Each player holds two cards; a turn plays one face up and draws; highest total wins.

    An empty draw pile is refilled from the played cards (a recorded reshuffle)."""

    id = "test-high-card"
    title = "High Card"
    summary = "a small game for testing the core"
    min_players = 2
    max_players = 3
    default_players = 2
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("turns", 12, "turns in all", minimum=2, maximum=40),
        Option(
            "edition", "plain", "preset", choices=("plain", "long"), presets={"long": {"turns": 30}}
        ),
    )

    def _new_state(self, chance: Chance, deal: Mapping[str, Any] | None) -> State:
        if deal is None:
            cards = list(range(10))
            chance.rng.shuffle(cards)
            hands = [cards[2 * s : 2 * s + 2] for s in range(self.players)]
            pile = cards[2 * self.players :]
        else:
            hands_in, pile_in = deal.get("hands"), deal.get("pile")
            if not isinstance(hands_in, list) or not all(isinstance(h, list) for h in hands_in):
                raise DealError("a deal needs 'hands': a list of lists of cards 0-9")
            if not isinstance(pile_in, list):
                raise DealError("a deal needs 'pile': a list of cards 0-9")
            hands = [[self.parse_card(c) for c in h] for h in hands_in]
            pile = [self.parse_card(c) for c in pile_in]
            if (
                sorted([c for h in hands for c in h] + pile) != list(range(10))
                or len(hands) != self.players
            ):
                raise DealError("a deal must place the cards 0-9 exactly once")
        return HighCardState(self, chance, hands, pile)

    def parse_action(self, text: str) -> Any:
        word, _, arg = text.strip().partition(" ")
        if word != "play" or arg not in _DIGITS:
            raise InvalidNotation(f"{text!r} is not an action; write 'play N' with a card 0-9")
        return Play(int(arg))

    def canonical_action(self, action: object) -> Any:
        if type(action) is Play and len(action) == 1 and type(action[0]) is int:
            return action
        return None

    def not_an_action(self, action: object) -> str:
        return f"{action!r} is not an action; an action is 'play N' with a card 0-9"

    def parse_card(self, text: object) -> int:
        if isinstance(text, int) and not isinstance(text, bool) and 0 <= text <= 9:
            return text
        if isinstance(text, str) and text in _DIGITS:
            return int(text)
        raise DealError(f"{text!r} is not a card; the cards are 0-9")

    def rules(self) -> str:
        return "Play a card. Options: `turns`, `edition`."

    def deck(self) -> list[int]:
        return list(range(10))

    def card_text(self, card: int) -> str:
        return str(card)

    def describe_event(self, event: Mapping[str, Any], viewer: int | None = None) -> str:
        return describe_event(self, event, viewer)

    def action_space(self) -> list[Play]:
        return list(_PLAYS)


_DIGITS = frozenset("0123456789")
_CARD_TEXTS = tuple("0123456789")


def describe_event(game: Game, event: Mapping[str, Any], viewer: int | None = None) -> str:
    """One event of High Card as a sentence (the game's ``render`` part)."""
    who = "You" if event["seat"] == viewer else game.seat_name(event["seat"])
    return f"{who} played {event['card']}"


def render(game: Game, view: Mapping[str, Any]) -> str:
    """The text picture of an observation or a spectator view (the game's ``render`` part).

    >>> state = HighCard().new_state(seed=1)
    >>> print(render(state.game, state.observation(0)))
    Seat 1 to play, 6 cards in the pile
    Seat 1 played: -
    Seat 2 played: -
    Your hand: 0 2
    """
    lines = [f"{game.seat_name(view['turn'])} to play, {view['pile']} cards in the pile"]
    for seat, played in enumerate(view["played"]):
        lines.append(f"{game.seat_name(seat)} played: {' '.join(map(str, played)) or '-'}")
    if "hand" in view:
        lines.append(f"Your hand: {' '.join(map(str, view['hand']))}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A seat played a card face up."""

    kind: ClassVar[str] = "played"
    seat: int
    card: int = field(metadata=CARD)


class Play(tuple[int]):
    __slots__ = ()

    def __new__(cls, card: int) -> Play:
        return super().__new__(cls, (card,))

    def __getnewargs__(self) -> tuple[int]:
        return (self[0],)  # pickles as Play(card), not Play((card,))

    def __str__(self) -> str:
        return f"play {self[0]}"


_SEAT = fields.Seat()
_CARD = fields.Card(_CARD_TEXTS)
_EVENTS = fields.Events((Played,), {"seat": _SEAT, "card": _CARD})


class HighCardState(State[Play]):
    __slots__ = ("deal", "hands", "pile", "played", "turn", "turns_done")
    _fields = fields.StateFields(
        fields.Field("hands", fields.ROWS, fields.Rows(fields.Cards(_CARD_TEXTS))),
        fields.Field("pile", fields.LIST, fields.Cards(_CARD_TEXTS)),
        fields.Field("played", fields.ROWS, fields.Rows(fields.Cards(_CARD_TEXTS))),
        fields.Field("turn", snap=_SEAT),
        fields.Field("turns_done", snap=fields.Whole(0, 999)),
        fields.Field("deal"),
        extra=("log",),
    )

    def __init__(self, game: Game, chance: Chance, hands: list[list[int]], pile: list[int]):
        self._init_core(game, chance)
        self.hands = hands
        self.pile = pile
        self.played: list[list[int]] = [[] for _ in hands]
        self.turn = 0
        self.turns_done = 0
        self.deal = {"hands": [list(h) for h in hands], "pile": list(pile)}

    def seats_to_act(self) -> list[int]:
        return [] if self.is_over() else [self.turn]

    def _legal_actions(self, seat: int) -> list[Play]:
        if seat != self.turn or self.is_over():
            return []
        return [Play(c) for c in sorted(self.hands[seat])]

    def _problem(self, seat: int, action: Play) -> str | None:
        if seat != self.turn:
            return self._not_to_act(seat)
        if action[0] not in self.hands[seat]:
            return f"card {action[0]} is not in your hand"
        return None

    def _apply(self, seat: int, action: Play, time: float | None) -> None:
        self._log_event(Played, (seat, action[0]))
        self.hands[seat].remove(action[0])
        self.played[seat].append(action[0])
        if not self.pile:
            table = [c for p in self.played for c in p]
            for p in self.played:
                p.clear()
            self._shuffle(table, "refill")
            self.pile = table
        if self.pile:
            self.hands[seat].append(self.pile.pop())
        self.turn = (self.turn + 1) % self.game.players
        self.turns_done += 1

    def is_over(self) -> bool:
        return bool(self.turns_done >= self.game.options["turns"])

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        totals = [float(sum(p)) for p in self.played]
        best = max(totals)
        return Outcome(
            tuple(s for s, t in enumerate(totals) if t == best),
            tuple(totals),
            Outcome.places_from(totals, lower_is_better=False),
            "turns",
            details={"length": self.turns_done},
        )

    def observation(self, seat: int, events: bool = True) -> dict[str, Any]:
        self._check_seat(seat)
        view = self.spectator_view()
        if not events:
            view["events"] = []
        return {"seat": seat, "hand": sorted(self.hands[seat]), **view}

    def spectator_view(self) -> dict[str, Any]:
        return {
            "played": [list(p) for p in self.played],
            "pile": len(self.pile),
            "turn": self.turn,
            "events": [event_json(self.game, e) for e in self._logged_events()],
        }

    def sample_consistent(self, seat: int, rng: Rng) -> HighCardState:
        self._check_seat(seat)
        c = self.clone()
        unknown = sorted(self.pile + [x for s, h in enumerate(self.hands) if s != seat for x in h])
        rng.shuffle(unknown)
        for s in range(self.game.players):
            if s != seat:
                c.hands[s] = [unknown.pop() for _ in self.hands[s]]
        c.pile = unknown
        c._forget_origin(rng)
        return c

    def _snapshot_extra(self) -> dict[str, Any]:
        return {"log": [event_json(self.game, e) for e in self._logged_events()]}

    def _restored(self, snapshot: Mapping[str, Any]) -> None:
        for kind, values in _EVENTS.read(snapshot["log"], "log", self.game):
            self._log_event(kind, values)
        held = [c for h in self.hands for c in h] + self.pile + [c for p in self.played for c in p]
        if sorted(held) != list(range(10)):
            raise SnapshotError("a position holds each of the cards 0-9 exactly once")
        self.deal = {"hands": [list(h) for h in self.hands], "pile": list(self.pile)}

    def cards(self) -> list[int]:
        return [c for h in self.hands for c in h] + self.pile + [c for p in self.played for c in p]

    def _initial_deal(self) -> dict[str, Any]:
        return self.deal


HighCard.state_class = HighCardState
_PLAYS = tuple(Play(c) for c in range(10))

PARTS = GameParts(
    render="ratgames.testing",
    encoder="ratgames.testing_rl:HighCardEncoder",
    deal_plan="ratgames.testing_rl:HighCardDealPlan",
)
"""High Card's parts: its text picture and sentences here, its encoder and deal plan in
:mod:`ratgames.testing_rl` (imported only when asked for: it needs numpy)."""


def register_high_card() -> None:
    """Register High Card under its id with its parts (:data:`PARTS`)."""
    register_game(HighCard.id, HighCard, parts=PARTS)


class HighestBot(Bot):
    name = "highest"
    params = (Option("spite", False, "a parameter for testing"),)

    def act(self, view: SeatView) -> Any:
        return view.legal_actions()[-1]


class LowestBot(Bot):
    """Plays its lowest card (the worst play: a bot of known weakness)."""

    name = "lowest"

    def act(self, view: SeatView) -> Any:
        return view.legal_actions()[0]
