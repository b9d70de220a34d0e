"""Rat-a-Tat Cat positions restored from their snapshots (``RatATatCat.restore``).

A restored position is the same position: the same snapshot, observations (with and without
their events), spectator view, legal moves and samples, and play goes on the same.  A snapshot
that is not a position of the game is refused with a :class:`SnapshotError` naming the entry.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import RatgamesError, SnapshotError
from ratgames.core.rng import Rng
from ratgames.games.rat_a_tat_cat.cards import CARD_TEXT, DECK
from ratgames.games.rat_a_tat_cat.events import EVENT_TYPES
from ratgames.games.rat_a_tat_cat.rules import RatATatCat, RatState
from ratgames.games.rat_a_tat_cat.snapshot import EVENTS
from ratgames.games.rat_a_tat_cat.views import OBSERVATION_PARTS

ID = "rat-a-tat-cat"
VARIANTS = RatATatCat.variants
CONFIGS = [
    pytest.param(v, players, id=f"v{v}-{players}p")
    for v in range(len(VARIANTS))
    for players in range(RatATatCat.min_players, RatATatCat.max_players + 1)
]


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _game(variant: int, players: int) -> RatATatCat:
    game = ratgames.get_game(ID, players=players, options=dict(VARIANTS[variant]))
    assert isinstance(game, RatATatCat)
    return game


@functools.cache
def _bot_game(variant: int, players: int) -> tuple[RatState, ...]:
    """Every position of a whole game between heuristic bots (each a clone), the end last."""
    game = _game(variant, players)
    bots = [make_bot(game, "heuristic:memory=0.8", seed=s) for s in range(players)]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    state = game.new_state(seed=900 + 10 * variant + players)
    assert isinstance(state, RatState)
    out: list[RatState] = []
    while not state.is_over():
        out.append(state.clone())
        seat = state.seats_to_act()[0]
        state.apply(seat, bots[seat].act(SeatView(state, seat)))
    out.append(state)
    return tuple(out)


def _spread(positions: tuple[RatState, ...], n: int) -> list[RatState]:
    """``n`` positions spread over a game (the first and the end among them)."""
    last = len(positions) - 1
    return [positions[last * i // (n - 1)] for i in range(n)]


def _restore(state: RatState, k: int) -> RatState:
    restored = state.game.restore(_json(state.snapshot()), Rng(k))
    assert isinstance(restored, RatState)
    return restored


def _assert_same(a: RatState, b: RatState, rng: Rng) -> None:
    """``a`` and ``b`` are the same position to every seat, and give the same samples."""
    players = a.game.players
    assert _json(a.snapshot()) == _json(b.snapshot())
    assert a.seats_to_act() == b.seats_to_act()
    assert a.spectator_view() == b.spectator_view()
    assert a.outcome() == b.outcome()
    assert a.stage() == b.stage() and a.win_estimate() == b.win_estimate()
    for seat in range(players):
        for events in (True, False):
            assert a.observation(seat, events) == b.observation(seat, events), seat
            assert a.observation_part(seat, list(OBSERVATION_PARTS), events) == (
                b.observation_part(seat, list(OBSERVATION_PARTS), events)
            )
        assert a.legal_actions(seat) == b.legal_actions(seat)
        if not a.is_over():
            r = rng.next64()
            sa, sb = a.sample_consistent(seat, Rng(r)), b.sample_consistent(seat, Rng(r))
            assert _json(sa.snapshot()) == _json(sb.snapshot()), f"seat {seat}'s samples"


def _play_on(a: RatState, b: RatState, rng: Rng, moves: int) -> None:
    """The same random moves on ``a`` and ``b``, which stay the same position."""
    for _ in range(moves):
        if a.is_over():
            break
        seat = a.seats_to_act()[0]
        legal = a.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        a.apply(seat, action)
        b.apply(seat, action)
        _assert_same(a, b, rng)


# --- positions from bot games, in every variant and player count ---------------------------------


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_positions_of_bot_games_restore_to_the_same_position(variant: int, players: int) -> None:
    """Every few moves of a whole game (and its end), the real position and every seat's sample
    restore to the same position, which plays on the same (chance events included: the
    restored state draws from the generator it was given, as a sample of the original does)."""
    rng = Rng(variant * 10 + players)
    for n, state in enumerate(_spread(_bot_game(variant, players), 12)):
        originals = [state]
        if not state.is_over():
            originals += [state.sample_consistent(s, Rng(rng.next64())) for s in range(players)]
        for original in originals:
            k = rng.next64()
            restored = _restore(original, k)
            assert restored.sampled and restored.seed is None and restored.events() == []
            with pytest.raises(RatgamesError):
                restored.initial_deal()
            assert sorted(restored.cards()) == list(DECK)
            reference = original.clone()
            reference._forget_origin(Rng(k))
            _assert_same(reference, restored, Rng(rng.next64()))
            if n % 3 == 0:
                _play_on(reference, restored, Rng(rng.next64()), 20)


def _features(state: RatState) -> set[str]:
    snap = state.snapshot()
    found = set()
    if snap["pool"]:
        found.add("reshuffled")
    if snap["in_draw"]:
        found.add("power cards known in the draw pile")
    if any(o & 1 for o in snap["origin"]):
        found.add("cards kept from the draw pile")
    if snap["phase"] == "over":
        found.add("over")
    else:
        found.add(f"phase {snap['phase']}")
        if any(snap["faceup"]):
            found.add("face-up cards")
        if not all(snap["active"]):
            found.add("a seat out of the game")
        if snap["closer"] is not None:
            found.add("last turns after a knock")
    return found


def test_the_bot_games_reach_every_kind_of_position() -> None:
    """The positions restored above include the hard cases: reshuffles, power cards known to be
    in the draw pile, kept cards, face-up cards, seats out of the game, every phase."""
    found: set[str] = set()
    for variant in range(len(VARIANTS)):
        for players in range(RatATatCat.min_players, RatATatCat.max_players + 1):
            for state in _bot_game(variant, players):
                found |= _features(state)
    phases = {f"phase {p}" for p in ("start", "holding", "taken", "peek", "swap", "draw2", "knock")}
    wanted = {
        "reshuffled",
        "power cards known in the draw pile",
        "cards kept from the draw pile",
        "over",
        "face-up cards",
        "a seat out of the game",
        "last turns after a knock",
        *phases,
    }
    assert wanted <= found, f"never reached: {sorted(wanted - found)}"


def test_the_reader_knows_every_event_and_entry() -> None:
    """The snapshot reader reads every kind of event, every field of each, and every entry; the
    state declares every field it has."""
    assert {cls.kind for cls in EVENT_TYPES} == set(EVENTS.kinds)
    state = _bot_game(0, 4)[3]
    fields = RatState._fields
    assert fields is not None
    fields.check(state)  # every slot of the state is a declared field
    assert list(state.snapshot()) == list(fields.entries)


# --- a restored sample in a search bot's hands ----------------------------------------------------


@pytest.mark.parametrize("spec", ["pimc:iterations=30", "ismcts:iterations=60"])
def test_a_restored_sample_serves_a_search_bot(spec: str) -> None:
    """What a remote bot does: the server sends a seat's honest sample as JSON, the client
    restores it and its search bot plays from it, drawing further samples of the restored
    state; the move is one the real game allows, and the samples play on to an end."""
    game = _game(0, 3)
    rng = Rng(5)
    for state in _spread(_bot_game(0, 3), 6)[1:-1]:
        seat = state.seats_to_act()[0]
        sample = state.sample_consistent(seat, Rng(rng.next64()))
        wire = json.dumps(sample.snapshot())
        restored = game.restore(json.loads(wire), Rng(rng.next64()))
        view = SeatView(restored, seat)
        assert view.observation() == state.observation(seat)
        bot = make_bot(game, spec, seed=rng.next64() % 1000)
        bot.new_game(seat)
        action = bot.act(view)
        assert state.is_legal(seat, action)
        again = view.sample_consistent(Rng(rng.next64()))
        assert again.observation(seat) == state.observation(seat)
        moves = 0
        while not again.is_over() and moves < 3000:
            s = again.seats_to_act()[0]
            legal = again.legal_actions(s)
            again.apply(s, legal[rng.randbelow(len(legal))])
            moves += 1
        assert again.is_over()
        assert sorted(again.cards()) == list(DECK)


# --- refused snapshots ----------------------------------------------------------------------------


def _snapshot(variant: int, players: int, index: int = 5) -> dict[str, Any]:
    snap: dict[str, Any] = _json(_bot_game(variant, players)[index].snapshot())
    return snap


def _changed(snap: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    copy: dict[str, Any] = _json(snap)
    change(copy)
    return copy


def _first_hidden(snap: dict[str, Any], seat: int) -> int:
    return next(i for i, c in enumerate(snap["known"][seat]) if c is None and snap["hands"][i])


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], object]:
    def change(snap: dict[str, Any]) -> None:
        node: Any = snap
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


BAD: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("missing entry", lambda s: s.pop("origin"), "missing: origin"),
    ("unknown entry", _set(("tempo",), 3), "unknown: 'tempo'"),
    ("phase name", _set(("phase",), "nap"), "phase must be one of"),
    ("bool for a seat", _set(("turn",), True), "turn must be a seat from 0 to 2"),
    ("seat out of range", _set(("dealer",), 3), "dealer must be a seat from 0 to 2, not 3"),
    ("round cap", _set(("round",), 201), "round must be a whole number from 1 to 200"),
    ("card text", _set(("draw", 0), "10"), "draw[0] must be a card"),
    ("card case", _set(("draw", 0), "peek"), "draw[0] must be a card"),
    ("int for a card", _set(("discard", 0), 5), "discard[0] must be a card"),
    ("a card twice", lambda s: s["draw"].append(s["draw"][0]), "54 cards once each"),
    ("a card missing", lambda s: s["draw"].pop(), "54 cards once each"),
    ("short row", lambda s: s["hands"].pop(), "hands must be a list of 12 cards or nulls"),
    ("half a row", _set(("hands", 0), None), "four cards or four nulls"),
    ("known wrong", lambda s: s["known"][0].__setitem__(_first_hidden(s, 0), "DRAW2"), "known[0]"),
    ("too few known rows", lambda s: s["known"].pop(), "known must be a list of 4 rows"),
    ("faceup without younger", _set(("faceup", 1), True), "faceup[1] must be false"),
    (
        "even origin",
        lambda s: (s.update(pool=1), s["origin"].__setitem__(0, 2)),
        "origin[0] must be 0 (dealt) or 2k+1",
    ),
    ("origin beyond the pool", _set(("origin", 0), 99), "origin[0] must be 0 (dealt) or 2k+1"),
    ("pool without reshuffles", _set(("pool",), 1), "pool must be 0"),
    ("clock", _set(("clock",), -1.0), "clock must be a number of at least 0"),
    ("clock nan", _set(("clock",), float("nan")), "clock must be a number of at least 0"),
    ("count type", _set(("knocks",), "1"), "knocks must be a whole number"),
    ("count", _set(("knocks",), 9), "knocks must be 1, as the round results count"),
    ("totals", _set(("totals", 0), 999), "totals must be the totals"),
    ("rturns above turns", _set(("rturns",), 150), "rturns"),
    ("extra in phase", _set(("extra",), 2), "extra must be"),
    ("outcome during play", _set(("outcome",), {"winners": [0]}), "outcome must be null"),
    ("events not a list", _set(("events",), {"kind": "deal"}), "events must be a list"),
    ("event kind", _set(("events", 1, "kind"), "dance"), "events[1] must be an event"),
    (
        "event field",
        lambda s: s["events"][0].pop("dealer"),
        "events[0] (a 'deal' event) has exactly",
    ),
    ("event seat", _set(("events", 0, "dealer"), 5), "events[0].dealer must be"),
    ("event round", _set(("events", 0, "round"), 9), "events[0].round must be"),
    ("no first deal", lambda s: s["events"].pop(0), "must be the first deal"),
    ("event card", _set(("events", 0, "first_discard"), "X"), "first_discard must be a card"),
    ("held in start", _set(("held",), "3"), "held must be a card in the phases"),
    ("in_draw not a power", _set(("in_draw",), ["3"]), "in_draw must list power cards"),
    ("result missing", _set(("results",), []), "results must hold the 1 rounds"),
    ("result sum", _set(("results", 0, "sums", 0), 0), "results[0].sums[0]"),
    ("result winners", _set(("results", 0, "winners"), [0, 1, 2]), "winners must be"),
    ("result entry", lambda s: s["results"][0].pop("capped"), "missing: capped"),
]


def _a_position_to_spoil() -> dict[str, Any]:
    """A position of the second round, at the start of a turn, no reshuffle yet."""
    for state in _bot_game(0, 3):
        snap = state.snapshot()
        if (
            snap["round"] == 2
            and snap["phase"] == "start"
            and snap["pool"] == 0
            and (snap["rturns"] >= 3 and not snap["in_draw"])
        ):
            spoiled: dict[str, Any] = _json(snap)
            return spoiled
    raise AssertionError("no such position in the game")


@pytest.mark.parametrize(("change", "message"), [pytest.param(c, m, id=i) for i, c, m in BAD])
def test_bad_snapshots_name_the_wrong_entry(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    good = _a_position_to_spoil()
    game = _game(0, 3)
    game.restore(good, Rng(1))
    with pytest.raises(SnapshotError, match=re.escape(message)):
        game.restore(_changed(good, change), Rng(1))


def test_snapshots_of_other_tables_are_refused() -> None:
    """A position of another player count or other options is not one of this game's."""
    four = _snapshot(0, 4)
    with pytest.raises(SnapshotError, match=r"dealer|hands|active"):
        _game(0, 3).restore(four, Rng(1))
    younger = _json(
        next(s for s in _bot_game(2, 2) if any(s.faceup) and not s.is_over()).snapshot()
    )
    _game(2, 2).restore(younger, Rng(1))
    with pytest.raises(SnapshotError, match="faceup"):
        _game(0, 2).restore(younger, Rng(1))


def test_an_ended_game_must_agree_with_its_outcome() -> None:
    """The outcome of an ended game is what its rows, totals and counters give; every row is
    then shown face up to everybody."""
    end = _bot_game(0, 3)[-1]
    game = end.game
    good = _json(end.snapshot())
    assert game.restore(good, Rng(1)).outcome() == end.outcome()
    spoiled = [
        (_set(("outcome", "winners"), [0, 1, 2]), "outcome must be the outcome"),
        (_set(("outcome", "reason"), "luck"), "outcome must be the outcome"),
        (_set(("outcome",), None), "outcome must be the outcome"),
        (_set(("faceup", 0), False), "faceup[0] must be true"),
        (_set(("known", 0, 5), None), "known must show every card"),
        (_set(("results",), good["results"][:-1]), "results must hold the"),
    ]
    for change, message in spoiled:
        with pytest.raises(SnapshotError, match=re.escape(message)):
            game.restore(_changed(good, change), Rng(1))


# --- random damage -------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.integers(min_value=-2, max_value=60)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(CARD_TEXT)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


def _card_places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every card text in ``node``."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _card_places(v, (*path, k))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _card_places(v, (*path, i))]
    return [path] if isinstance(node, str) and node in CARD_TEXT else []


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def _mutate(node: Any, data: st.DataObject, depth: int = 0) -> Any:
    """``node`` with one random change somewhere inside it: an entry dropped, replaced or
    duplicated, a value replaced (by a card, a number out of range, anything)."""
    children: list[Any] = []
    if isinstance(node, dict):
        children = list(node)
    elif isinstance(node, list):
        children = list(range(len(node)))
    how = data.draw(st.integers(0, 11))
    if not children or (how < 2 and depth > 0) or depth > 6:  # the snapshot itself stays an object
        return data.draw(JSON_VALUES)
    key = data.draw(st.sampled_from(children))
    if how == 2:
        del node[key]
    elif how == 3 and isinstance(node, list):
        node.insert(key, node[key] if data.draw(st.booleans()) else data.draw(JSON_VALUES))
    elif how == 4 and isinstance(node, list) and len(node) > 1:
        other = data.draw(st.sampled_from(children))
        node[key], node[other] = node[other], node[key]
    elif how == 5 and isinstance(node[key], int) and not isinstance(node[key], bool):
        node[key] += data.draw(st.sampled_from([-100, -2, -1, 1, 2, 7, 10**6]))
    else:
        node[key] = _mutate(node[key], data, depth + 1)
    return node


def _swap_cards(snap: Any, data: st.DataObject) -> None:
    """Two card texts anywhere in the snapshot trade places."""
    places = [p for p in _card_places(snap) if p]
    if not places:
        return
    a, b = data.draw(st.sampled_from(places)), data.draw(st.sampled_from(places))
    pa, pb = _get(snap, a[:-1]), _get(snap, b[:-1])
    pa[a[-1]], pb[b[-1]] = pb[b[-1]], pa[a[-1]]


@functools.cache
def _bases() -> tuple[tuple[int, int, str], ...]:
    """Snapshots to damage (as JSON text): positions of every variant and phase, samples, ends."""
    out: list[tuple[int, int, str]] = []
    rng = Rng(11)
    for variant in range(len(VARIANTS)):
        players = 2 + variant
        for state in _spread(_bot_game(variant, players), 10):
            out.append((variant, players, json.dumps(state.snapshot())))
            if not state.is_over():
                sample = state.sample_consistent(rng.randbelow(players), Rng(rng.next64()))
                out.append((variant, players, json.dumps(sample.snapshot())))
    return tuple(out)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_damaged_snapshots_are_refused_or_restore_to_a_playable_position(
    data: st.DataObject,
) -> None:
    """Whatever the damage, restore raises SnapshotError or gives a position with the game's
    54 cards, which every seat can observe and sample and which plays on under the rules."""
    variant, players, text = data.draw(st.sampled_from(_bases()))
    snap = json.loads(text)
    for _ in range(data.draw(st.integers(1, 3))):
        if data.draw(st.integers(0, 3)) == 0:
            _swap_cards(snap, data)
        else:
            snap = _mutate(snap, data)
    game = _game(variant, players)
    try:
        state = game.restore(snap, Rng(3))
    except SnapshotError as exc:
        # Refused by the checks, each naming the entry (no stray error caught).
        named = RatState._fields.entries if RatState._fields is not None else ()
        assert str(exc).startswith(("a Rat-a-Tat Cat snapshot", *named)), str(exc)
        return
    assert isinstance(state, RatState)
    assert sorted(state.cards()) == list(DECK)
    assert _json(state.snapshot()) == _json(snap)  # nothing was read differently
    rng = Rng(data.draw(st.integers(0, 2**32)))
    for seat in range(players):
        json.dumps(state.observation(seat))
        if not state.is_over():
            sample = state.sample_consistent(seat, Rng(rng.next64()))
            assert sample.observation(seat) == state.observation(seat)
    json.dumps(state.spectator_view())
    for _ in range(200):
        if state.is_over():
            break
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        assert legal
        state.apply(seat, legal[rng.randbelow(len(legal))])
        assert sorted(state.cards()) == list(DECK)
