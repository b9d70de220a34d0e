"""Rats positions restored from their snapshots (``Rats.restore``), as a bot playing over the
network rebuilds the sample the server sent: the same position, checked entry by entry.

A restored position plays on exactly as the original (same moves, observations, samples, and
reserve shuffles from the same generator); a snapshot that is not a Rats position, however it
is broken, is refused with a :class:`SnapshotError` naming what is wrong.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.json_paths import json_at, json_paths

import ratgames
from ratgames.cards import parse_card, standard_deck
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import SnapshotError
from ratgames.core.rng import Rng
from ratgames.games.rats.rules import Rats, RatsState

SNAPSHOT_KEYS = RatsState._fields.entries if RatsState._fields else ()
CARD_TEXTS = [ratgames.get_game("rats").card_text(c) for c in range(52)] + ["BJ", "RJ"]


def rats(players: int, **options: Any) -> Rats:
    game = ratgames.get_game("rats", players=players, options=options)
    assert isinstance(game, Rats)
    return game


def table(hands: list[str], dealer: int = 0, jokers: int = 0) -> RatsState:
    """A game dealt ``hands`` (one text of cards per player); every other card is the stock."""
    game = rats(len(hands), jokers=jokers)
    dealt = [h.split() for h in hands]
    used = {parse_card(c) for h in dealt for c in h}
    stock = [game.card_text(c) for c in standard_deck(jokers) if c not in used]
    state = game.new_state(seed=5, deal={"dealer": dealer, "hands": dealt, "stock": stock})
    assert isinstance(state, RatsState)
    return state


def play(state: RatsState, *moves: str) -> None:
    for move in moves:
        state.apply(state.seats_to_act()[0], move)


def through_json(state: RatsState) -> dict[str, Any]:
    snap: dict[str, Any] = json.loads(json.dumps(state.snapshot()))
    return snap


def restore(game: Rats, snap: Any, seed: int = 1) -> RatsState:
    state = game.restore(snap, Rng(seed))
    assert isinstance(state, RatsState)
    return state


def bot_game_positions(game: Rats, seed: int, count: int) -> list[RatsState]:
    """``count`` positions spread over a game the heuristic bot plays for every seat but one,
    which plays at random (so that discards and odd plays come up too), and its end."""
    bots = [
        make_bot(game, "random" if s == seed % game.players else "heuristic", seed=seed + s)
        for s in range(game.players)
    ]
    state = game.new_state(seed=seed)
    assert isinstance(state, RatsState)
    every = [state.clone()]
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, bots[seat].act(SeatView(state, seat)))
        every.append(state.clone())
    step = max(1, len(every) // count)
    return [*every[:-1:step][:count], every[-1]]


def same_play(a: RatsState, b: RatsState, rng: Rng, steps: int) -> None:
    """``a`` and ``b`` agree now and after each of the same ``steps`` random moves."""
    for _ in range(steps + 1):
        assert a.snapshot() == b.snapshot()
        for seat in range(a.game.players):
            assert a.observation(seat) == b.observation(seat)
            assert a.legal_actions(seat) == b.legal_actions(seat)
        assert a.spectator_view() == b.spectator_view()
        assert a.outcome() == b.outcome()
        if a.is_over():
            return
        seat = a.seats_to_act()[0]
        legal = a.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        a.apply(seat, action)
        b.apply(seat, action)


# --- positions from bot games, every variant and player count -----------------------------------


@pytest.mark.parametrize("options", [dict(v) for v in Rats.variants], ids=str)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_positions_of_bot_games_restore_to_the_same_position(
    players: int, options: dict[str, Any]
) -> None:
    game = rats(players, **options)
    rng = Rng(players * 31 + options.get("jokers", 0))
    kinds = {"pending": 0, "later round": 0, "over": 0, "sample": 0}
    for seed in range(2):
        for state in bot_game_positions(game, 100 * players + seed, 12):
            originals = [state]
            if not state.is_over():
                originals += [state.sample_consistent(s, Rng(rng.next64())) for s in range(players)]
                kinds["sample"] += 1
            kinds["pending"] += bool(state.pending)
            kinds["later round"] += state.round > 1
            kinds["over"] += state.is_over()
            for original in originals:
                k = rng.next64()
                restored = restore(game, through_json(original), k)
                assert restored.sampled and restored.seed is None and restored.events() == []
                # Restoring again gives the same snapshot: nothing is lost on the way.
                assert restore(game, through_json(restored)).snapshot() == original.snapshot()
                # Later samples of a seat are the ones the original gives (they depend only on
                # what the seat knows, and all of that travels).
                if not original.is_over():
                    for seat in range(players):
                        r = rng.next64()
                        want = original.sample_consistent(seat, Rng(r)).snapshot()
                        assert restored.sample_consistent(seat, Rng(r)).snapshot() == want
                reference = original.clone()
                reference._forget_origin(Rng(k))
                # The same moves, and the same reserve shuffles at a round's end.
                same_play(reference, restored, Rng(rng.next64()), 40)
    assert all(kinds.values()), f"the games did not reach every kind of position: {kinds}"


def test_a_discard_under_way_is_restored_with_its_constraint() -> None:
    # Seat 1 lays the KS as the first card of a discard of two: it must still lay the AS.
    state = table(["7C 7D AC AD AH 2C", "KS AS 3C 4D 5H 6S"])
    play(state, "7C 7D", "discard KS")
    snap = through_json(state)
    assert snap["pending"] == ["KS"] and snap["trick"] == [[0, "7C 7D"]]
    restored = restore(state.game, snap)
    assert [str(a) for a in restored.legal_actions(1)] == ["discard AS"]
    for r in range(20):
        sample = restored.sample_consistent(0, Rng(r))
        assert [str(a) for a in sample.legal_actions(1)] == ["discard AS"]
    # A snapshot in which seat 1 could not finish its discard is no position of the rules.
    snap["hands"][1] = ["2D", "3C", "4D", "5H", "6S"]
    snap["stock"][snap["stock"].index("2D")] = "AS"
    with pytest.raises(SnapshotError, match=r"pending: seat 1 must hold the 1 card\(s\) above KS"):
        restore(state.game, snap)


def test_a_joker_lead_keeps_the_hand_it_showed() -> None:
    state = table(["BJ RJ", "2C 3C", "4D 5D"], jokers=2)
    play(state, "BJ")
    snap = through_json(state)
    assert snap["known_hand"][0] == ["RJ"] and snap["trick"] == [[0, "BJ"]]
    restored = restore(state.game, snap)
    for seat in (1, 2):
        assert restored.sample_consistent(seat, Rng(seat)).hands[0] == state.hands[0]
    snap["known_hand"][0] = snap["known"][0] = []
    with pytest.raises(SnapshotError, match=r"known_hand\[0\] must be hands\[0\]"):
        restore(state.game, snap)


# --- a restored sample is what the search bot plays from ----------------------------------------


@pytest.mark.parametrize(("players", "jokers"), [(3, 1), (2, 2), (5, 0)])
def test_the_search_bot_plays_from_a_restored_sample(players: int, jokers: int) -> None:
    game = rats(players, jokers=jokers)
    state = bot_game_positions(game, players + jokers, 4)[2]  # mid-game
    assert not state.is_over()
    seat = state.seats_to_act()[0]
    # What the server sends, and what the client makes of it.
    sent = json.dumps(state.sample_consistent(seat, Rng(7)).snapshot())
    restored = restore(game, json.loads(sent), 8)
    assert restored.observation(seat) == state.observation(seat)
    assert restored.legal_actions(seat) == state.legal_actions(seat)
    view = SeatView(restored, seat)
    again = view.sample_consistent(Rng(9))
    assert again.observation(seat) == state.observation(seat)
    assert sorted(again.cards()) == sorted(game.deck())
    bot = make_bot(game, "ismcts:iterations=60", seed=3)
    bot.new_game(seat)
    action = bot.act(view)
    assert state.is_legal(seat, action), "the move chosen on the sample is legal in the game"
    # The restored position plays on to its end, the search bot moving for its seat.
    others = [make_bot(game, "heuristic", seed=s) for s in range(players)]
    moves = 0
    while not restored.is_over():
        who = restored.seats_to_act()[0]
        player = bot if who == seat and moves < 12 else others[who]
        restored.apply(who, player.act(SeatView(restored, who)))
        assert sorted(restored.cards()) == sorted(game.deck())
        moves += 1
    assert restored.outcome() is not None


# --- snapshots that are not positions ------------------------------------------------------------


def a_position() -> RatsState:
    """Three players, jokers, well into the first round with a pair led."""
    state = table(["7C 7D 2C 9H BJ", "7H 7S 3D 4D 10C", "8C 8D 5S 6S JH"], jokers=1)
    play(state, "2C", "discard 3D", "discard 5S", "9H", "discard 4D", "discard 6S")
    play(state, "7C 7D", "discard 7H", "discard 7S")  # a tie does not beat: seat 1 discards
    return state


def test_the_snapshot_is_the_position_in_card_notation() -> None:
    state = a_position()
    snap = through_json(state)
    assert tuple(snap) == SNAPSHOT_KEYS
    assert snap["hands"][0] == ["BJ"] and snap["trick"] == [[0, "7C 7D"], [1, "discard 7H 7S"]]
    assert snap["history"][0] == [
        "trick",
        1,
        0,
        [[0, "2C"], [1, "discard 3D"], [2, "discard 5S"]],
        0,
    ]
    assert snap["won_round"][0] == ["2C", "3D", "4D", "5S", "6S", "9H"]
    restored = restore(state.game, snap)
    assert restored.snapshot() == state.snapshot()


def wrong(snap: dict[str, Any], *path: Any, value: Any = None, drop: bool = False) -> Any:
    """A copy of ``snap`` with the value at ``path`` replaced (or dropped)."""
    out = json.loads(json.dumps(snap))
    node = out
    for key in path[:-1]:
        node = node[key]
    if drop:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("round",), True, "round must be a whole number from 1 to 200, not True"),
        (("turn",), 3, "turn must be a seat from 0 to 2, not 3"),
        (("over",), 0, "over must be true or false, not 0"),
        (("hands", 0, 0), "RJ", r"hands\[0\]\[0\]: 'RJ' is not in this deck"),
        (("hands", 0, 0), 52, r"hands\[0\]\[0\] must be a card such as '10H'"),
        (("hands", 2, 0), "10C", "twice: 10C; missing: 8C"),
        (("hands", 2), ["8C", "8D", "8C"], r"hands\[2\] names 8C twice"),
        (("hands",), [[], []], "hands must be a list of 3 lists of cards"),
        (("trick", 1, 1), "7H 7S", r"trick\[1\]: 7H 7S does not beat the best pair so far"),
        (("trick", 1, 1), "7H 7S 2D", r"trick\[1\]\[1\]: .*is not a combination"),
        (("trick", 1, 0), 2, r"trick\[1\]: play goes round the seats still in, so seat 1"),
        (("trick", 0, 0), 1, r"trick\[1\]: play goes round the seats still in, so seat 2"),
        (("history", 0, 4), 1, r"history\[0\]\[4\]: seat 0 won this trick, not 1"),
        (("history", 0, 0), "lead", r"history\[0\] must be \['trick', round, leader"),
        (("history",), [], "history must hold every trick of the round under way"),
        (("won_round", 0), ["2C", "3D", "5S"], "round_seen must be the cards of the tricks won"),
        (("known_hand", 0), ["BJ"], r"known_hand\[0\] must be jokers of hands\[0\] also in"),
        (("stock_taker",), 2, "stock_taker must be null until the first round ends"),
        (("stock_taker",), -1, "stock_taker must be a seat from 0 to 2 or null, not -1"),
        (("n_events",), 3, "n_events must be a whole number from 10 to"),
        (("alive", 2), False, r"out_round\[2\] must be the round seat 2 went out"),
    ],
)
def test_each_wrong_entry_is_named(path: tuple[Any, ...], value: Any, message: str) -> None:
    state = a_position()
    with pytest.raises(SnapshotError, match=message):
        restore(state.game, wrong(through_json(state), *path, value=value))


def test_only_a_joker_lead_shows_a_hand() -> None:
    state = a_position()
    snap = wrong(through_json(state), "known_hand", 0, value=["BJ"])
    snap["known"][0].append("BJ")
    with pytest.raises(SnapshotError, match=r"known_hand\[0\] must be empty: only a joker led"):
        restore(state.game, snap)


def test_missing_unknown_and_foreign_snapshots_are_refused() -> None:
    state = a_position()
    snap = through_json(state)
    with pytest.raises(SnapshotError, match="missing: history"):
        restore(state.game, wrong(snap, "history", drop=True))
    with pytest.raises(SnapshotError, match="unknown: 'initial_hands', 7"):
        restore(state.game, {**snap, "initial_hands": [], 7: 1})
    # Another table size, another deck.
    with pytest.raises(SnapshotError, match="hands must be a list of 4 lists of cards"):
        restore(rats(4, jokers=1), snap)
    with pytest.raises(SnapshotError, match="'BJ' is not in this deck"):
        restore(rats(3), snap)
    with pytest.raises(SnapshotError, match="a snapshot is a mapping"):
        restore(state.game, [snap])


# --- any corruption: refused, or a position that plays on ----------------------------------------


@cache
def _bases() -> tuple[tuple[Rats, str], ...]:
    """Snapshots (as JSON text) of real positions and samples: a discard under way, joker leads,
    later rounds, finished games."""
    out: list[tuple[Rats, str]] = []
    for players, jokers in ((2, 2), (3, 1), (4, 0), (5, 2)):
        game = rats(players, jokers=jokers)
        for state in bot_game_positions(game, 11 * players, 8):
            out.append((game, json.dumps(state.snapshot())))
            if not state.is_over():
                sample = state.sample_consistent(players - 1, Rng(players))
                out.append((game, json.dumps(sample.snapshot())))
    state = a_position()
    out.append((state.game, json.dumps(state.snapshot())))
    return tuple(out)


ODD_VALUES = st.one_of(
    st.integers(min_value=-3, max_value=60),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.sampled_from([*CARD_TEXTS, "1H", "ZZ", "", "10h", "discard", "trick", "round"]),
    st.text(max_size=6),
    st.lists(st.sampled_from(CARD_TEXTS), max_size=4),
    st.lists(st.integers(min_value=-1, max_value=5), max_size=3),
    st.just({"x": 1}),
)


def _mutate(data: st.DataObject, pick: random.Random, snap: dict[str, Any]) -> None:
    """One random change to ``snap``, anywhere inside it (``pick`` chooses where, uniformly)."""
    paths = json_paths(snap)
    kind = pick.choice(["drop", "replace", "duplicate", "swap", "move", "move", "nudge"])
    if kind in ("swap", "move"):
        # Two card texts trade places: anywhere, or (a move) between hands, reserves and stock.
        where: tuple[str, ...] = tuple(snap)
        if kind == "move":
            where = pick.choice([("hands",), ("hands", "reserves", "stock")])
        cards = [
            p
            for p in paths
            if p[0] in where
            and isinstance(json_at(snap, p), str)
            and json_at(snap, p) in CARD_TEXTS
        ]
        if len(cards) >= 2:
            a, b = pick.sample(cards, 2)
            pa, pb = json_at(snap, a[:-1]), json_at(snap, b[:-1])
            pa[a[-1]], pb[b[-1]] = json_at(snap, b), json_at(snap, a)
            return
        kind = "replace"
    path = pick.choice(paths)
    parent, key = json_at(snap, path[:-1]), path[-1]
    if kind == "drop":
        del parent[key]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    elif kind == "nudge" and type(parent[key]) is int:
        parent[key] += pick.choice([-1, 1, 2, 13, 100, -100, 2**70])
    else:
        parent[key] = data.draw(ODD_VALUES)


@settings(
    max_examples=600,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_corrupt_snapshots_are_refused_or_play_on(data: st.DataObject) -> None:
    """A snapshot mutated at random (entries dropped, replaced, duplicated, card texts swapped,
    numbers moved out of range) is refused with a SnapshotError, never another error; one that
    is accepted is a position: every card of the deck once, the same snapshot when restored
    again, a legal move for whoever is to act, samples for every seat, and it plays on."""
    pick = random.Random(data.draw(st.integers(min_value=0, max_value=2**64)))
    game, text = pick.choice(_bases())
    snap = json.loads(text)
    for _ in range(pick.randint(1, 3)):
        _mutate(data, pick, snap)
    try:
        state = restore(game, snap)
    except SnapshotError as exc:
        assert str(exc)
        return
    assert sorted(state.cards()) == sorted(game.deck())
    assert restore(game, through_json(state)).snapshot() == state.snapshot()
    rng = Rng(5)
    for _ in range(30):
        if state.is_over():
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to act with no legal move"
        for s in range(game.players):
            sample = state.sample_consistent(s, Rng(rng.next64()))
            assert sample.observation(s) == state.observation(s)
        state.apply(seat, legal[rng.randbelow(len(legal))])
        assert sorted(state.cards()) == sorted(game.deck())


def test_every_slot_of_the_state_is_a_declared_field() -> None:
    assert RatsState._fields is not None
    RatsState._fields.check(a_position())


def test_the_written_out_copy_is_the_declared_one() -> None:
    fields = RatsState._fields
    assert fields is not None
    for state in bot_game_positions(rats(3, jokers=1), 7, 6):
        copy = state.clone()
        for field in fields.fields:
            mine, theirs = getattr(state, field.name), getattr(copy, field.name)
            assert mine == theirs, field.name
            if field.copy == "list":
                assert mine is not theirs, field.name
            elif field.copy == "shared" and not isinstance(mine, int):
                # (a compiled state keeps an int unboxed: each read makes a new object)
                assert mine is theirs, field.name
