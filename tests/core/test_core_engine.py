"""The engine core on a small game made for the purpose (it knows no real game)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from ratgames.core import (
    Bot,
    Chance,
    Game,
    IllegalAction,
    Option,
    OptionError,
    Outcome,
    RecordError,
    Rng,
    SeatView,
    State,
    UnknownNameError,
    make_bot,
    play_game,
    register_bot,
    register_game,
    replay,
)
from ratgames.core.bots import parse_bot_spec


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
        return self.turns_done >= self.game.options["turns"]

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

    def observation(self, seat: int) -> dict[str, Any]:
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


register_game(HighCard.id, HighCard)


class HighestBot(Bot):
    name = "highest"
    params = (Option("spite", False, "a parameter for testing"),)

    def act(self, view: SeatView) -> Any:
        return view.legal_actions()[-1]


register_bot("highest", HighestBot, "plays its highest card", HighCard.id)


def test_options_validate_and_presets_apply() -> None:
    assert HighCard().options == {"turns": 12, "edition": "plain"}
    assert HighCard(options={"edition": "long"}).options["turns"] == 30
    assert HighCard(options={"edition": "long", "turns": "5"}).options["turns"] == 5
    with pytest.raises(OptionError, match="option 'turns': 99 is not allowed; use a whole number"):
        HighCard(options={"turns": 99})
    with pytest.raises(OptionError, match=r"'edition'.*one of 'plain', 'long'"):
        HighCard(options={"edition": "short"})
    with pytest.raises(OptionError, match="unknown option 'turn'; the options are: turns, edition"):
        HighCard(options={"turn": 3})
    with pytest.raises(OptionError, match="2 to 3 players, not 5"):
        HighCard(players=5)


def test_illegal_actions_leave_the_state_untouched() -> None:
    state = HighCard().new_state(seed=3)
    before = state.snapshot()
    not_held = next(c for c in range(10) if c not in state.hands[0])
    for seat, action, reason in [
        (0, Play(not_held), f"card {not_held} is not in your hand"),
        (1, state.legal_actions(0)[0], "not Seat 2's turn; waiting for Seat 1"),
        (5, state.legal_actions(0)[0], "no seat 5"),
        (0, "pass", "'pass' is not an action"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(seat, action)
        assert state.snapshot() == before
    assert isinstance(IllegalAction("x"), ValueError)
    assert state.events() == []


def test_same_seed_same_game_and_records_replay_exactly() -> None:
    game = HighCard(options={"turns": 30})
    bots = [make_bot(game, "random", seed=1), make_bot(game, "highest")]
    a = play_game(game, bots, seed=42)
    b = play_game(game, [make_bot(game, "random", seed=1), make_bot(game, "highest")], seed=42)
    assert a.snapshot() == b.snapshot()
    record = json.loads(json.dumps(a.record([{"name": "A", "player": "random"}] * 2)))
    assert any("chance" in e for e in record["events"]), "30 turns must reshuffle"
    again = replay(record)
    assert again.snapshot() == a.snapshot() and again.outcome() == a.outcome()
    # Replay does not depend on the seed: the record holds the deal and every chance outcome.
    record["seed"] = 999
    assert replay(record).snapshot() == a.snapshot()
    partial = replay(record, upto=5)
    assert len(list(partial.actions())) == 5


def test_corrupt_and_newer_records_give_clear_errors() -> None:
    game = HighCard()
    state = play_game(game, [make_bot(game, "random")] * 2, seed=1)
    good = state.record()
    with pytest.raises(RecordError, match="not valid JSON"):
        replay("{not json")
    with pytest.raises(RecordError, match="not a ratgames game record"):
        replay({"hello": 1})
    with pytest.raises(RecordError, match="rules version 9"):
        replay({**good, "rules_version": 9})
    with pytest.raises(RecordError, match="format version 7"):
        replay({**good, "format_version": 7})
    with pytest.raises(RecordError, match="deal is not valid"):
        replay({**good, "deal": {"hands": [[1]], "pile": []}})
    events = [dict(e) for e in good["events"]]
    events[0]["action"] = "play 77"
    with pytest.raises(RecordError, match="event 1 of the record"):
        replay({**good, "events": events})
    with pytest.raises(RecordError, match="outcome differs"):
        replay({**good, "outcome": {**good["outcome"], "winners": [5]}})
    with pytest.raises(RecordError, match="cannot read record"):
        replay("/nonexistent/record.json")


def test_bots_by_name_with_parameters() -> None:
    game = HighCard()
    assert parse_bot_spec("highest:spite=true") == ("highest", {"spite": "true"})
    bot = make_bot(game, "highest:spite=yes")
    assert bot.settings == {"spite": True} and bot.describe() == "highest:spite=true"
    with pytest.raises(UnknownNameError, match=r"unknown bot 'best'.*highest, random"):
        make_bot(game, "best")
    with pytest.raises(OptionError, match="no parameter 'speed'; its parameters: spite"):
        make_bot(game, "highest:speed=3")
    with pytest.raises(OptionError, match="not of the form name=value"):
        make_bot(game, "highest:spite")


def test_the_highest_bot_beats_random() -> None:
    game = HighCard(options={"turns": 6})  # no reshuffle: the played cards all count
    wins = sum(
        0
        in play_game(game, [make_bot(game, "highest"), make_bot(game, "random", seed=s)], seed=s)
        .outcome()
        .winners  # type: ignore[union-attr]
        for s in range(200)
    )
    assert wins > 120


def test_clone_is_independent() -> None:
    state = HighCard().new_state(seed=5)
    copy = state.clone()
    copy.apply(0, copy.legal_actions(0)[0])
    assert state.turns_done == 0 and copy.turns_done == 1
    assert state.events() == [] and len(copy.events()) == 1


def test_seat_view_hides_the_state() -> None:
    state = HighCard().new_state(seed=5)
    view = SeatView(state, 0)
    assert not hasattr(view, "state") and not hasattr(view, "_state")
    assert view.observation()["hand"] == sorted(state.hands[0])
    sample = view.sample_consistent(Rng(1))
    assert sample.observation(0) == state.observation(0)
