"""A tiny game for testing the engine core, search bots and tools (not registered by default).

High Card: each player holds two of the cards 0-9; a turn plays one face up and draws from the
pile; after ``turns`` turns the highest total of played cards wins.  An empty draw pile is
refilled by reshuffling the played cards (a recorded chance event).  Register it to use it by
name::

    register_game(HighCard.id, HighCard)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .core import Bot, Chance, Game, IllegalAction, Option, Outcome, Rng, SeatView, State


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
            try:
                hands = [[int(c) for c in h] for h in deal["hands"]]
                pile = [int(c) for c in deal["pile"]]
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"a deal needs 'hands' and 'pile': {exc}") from None
            if (
                sorted([c for h in hands for c in h] + pile) != list(range(10))
                or len(hands) != self.players
            ):
                raise ValueError("a deal must place the cards 0-9 exactly once")
        return HighCardState(self, chance, hands, pile)

    def parse_action(self, text: str) -> Any:
        word, _, arg = text.strip().partition(" ")
        if word != "play" or not arg.isdigit():
            raise IllegalAction(f"{text!r} is not an action; write 'play N' with a card 0-9")
        return Play(int(arg))

    def parse_card(self, text: str) -> int:
        return int(text)

    def rules(self) -> str:
        return "Play a card. Options: `turns`, `edition`."

    def deck(self) -> list[int]:
        return list(range(10))

    def card_text(self, card: int) -> str:
        return str(card)


class Play(tuple[int]):
    __slots__ = ()

    def __new__(cls, card: int) -> Play:
        return super().__new__(cls, (card,))

    def __str__(self) -> str:
        return f"play {self[0]}"


class HighCardState(State):
    __slots__ = ("deal", "hands", "pile", "played", "turn", "turns_done")

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

    def legal_actions(self, seat: int) -> list[Any]:
        if seat != self.turn or self.is_over():
            return []
        return [Play(c) for c in sorted(self.hands[seat])]

    def why_illegal(self, seat: int, action: Any) -> str:
        if seat != self.turn:
            return super().why_illegal(seat, action)
        return f"card {action[0]} is not in your hand"

    def _apply(self, seat: int, action: Any) -> None:
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
        return {"hand": sorted(self.hands[seat]), **self.spectator_view()}

    def spectator_view(self) -> dict[str, Any]:
        return {"played": [list(p) for p in self.played], "pile": len(self.pile), "turn": self.turn}

    def clone(self) -> HighCardState:
        c = HighCardState.__new__(HighCardState)
        self._copy_core_to(c)
        c.hands = [list(h) for h in self.hands]
        c.pile = list(self.pile)
        c.played = [list(p) for p in self.played]
        c.turn, c.turns_done, c.deal = self.turn, self.turns_done, self.deal
        return c

    def sample_consistent(self, seat: int, rng: Rng) -> HighCardState:
        c = self.clone()
        unknown = sorted(self.pile + [x for s, h in enumerate(self.hands) if s != seat for x in h])
        rng.shuffle(unknown)
        for s in range(self.game.players):
            if s != seat:
                c.hands[s] = [unknown.pop() for _ in self.hands[s]]
        c.pile = unknown
        c._chance = Chance(rng.next64())
        return c

    def snapshot(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "pile": self.pile,
            "played": self.played,
            "turn": self.turn,
            "turns_done": self.turns_done,
        }

    def cards(self) -> list[int]:
        return [c for h in self.hands for c in h] + self.pile + [c for p in self.played for c in p]

    def initial_deal(self) -> dict[str, Any]:
        return self.deal


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
