"""Caged Rats positions restored from their snapshots (``Game.restore``): the same position from
real games and from samples, in every variant; a restored sample serves the search bots; and a
snapshot that is not a position the rules reach is refused with a SnapshotError saying why."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.json_paths import json_at, json_paths

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import SnapshotError
from ratgames.core.game import Game, State
from ratgames.core.rng import Rng
from ratgames.games.caged_rats.deck import TEXT
from ratgames.games.caged_rats.rules import CagedRats, CagedRatsState

from .test_caged_rats_rules import new, play


def _snap(state: State) -> Any:
    return json.loads(json.dumps(state.snapshot()))


def _bot_positions(game: Game, seed: int, every: int) -> list[State]:
    """Positions met along a game between two heuristic bots (every ``every`` actions, and the
    end)."""
    bots = [make_bot(game, "heuristic", seed=seed + s) for s in range(game.players)]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    state = game.new_state(seed=seed)
    out: list[State] = []
    step = 0
    while not state.is_over():
        if step % every == 0:
            out.append(state.clone())
        seat = state.seats_to_act()[0]
        state.apply(seat, bots[seat].act(SeatView(state, seat)))
        step += 1
    out.append(state)
    return out


def _same_from_here(a: State, b: State, rng: Rng, steps: int) -> None:
    """``a`` and ``b`` agree now and along the same ``steps`` random moves."""
    for _ in range(steps):
        assert _snap(a) == _snap(b)
        for seat in range(a.game.players):
            assert a.observation(seat) == b.observation(seat)
            assert a.legal_actions(seat) == b.legal_actions(seat)
        assert a.outcome() == b.outcome()
        if a.is_over():
            return
        seat = a.seats_to_act()[0]
        legal = a.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        a.apply(seat, action)
        b.apply(seat, action)


@pytest.mark.parametrize("variant", range(len(CagedRats.variants)))
def test_positions_of_bot_games_restore_in_every_variant(variant: int) -> None:
    options = dict(CagedRats.variants[variant])
    if variant == 0:
        options["target"] = 60  # a shorter rubber, still several deals
    game = ratgames.get_game("caged-rats", options=options)
    rng = Rng(variant)
    positions = _bot_positions(game, 40 + variant, 7 if options.get("single_deal") else 23)
    assert positions[-1].is_over() and len(positions) > 5
    for state in positions:
        originals = [state]
        if not state.is_over():
            originals += [state.sample_consistent(s, Rng(rng.next64())) for s in (0, 1)]
        for original in originals:
            key = rng.next64()
            restored = game.restore(json.loads(json.dumps(original.snapshot())), Rng(key))
            assert restored.sampled and restored.seed is None and restored.events() == []
            assert sorted(restored.cards()) == game.deck()
            reference = original.clone()
            reference._forget_origin(Rng(key))
            _same_from_here(reference, restored, Rng(rng.next64()), 40)


def test_a_restored_sample_serves_the_search_bot() -> None:
    """A server's honest sample for a seat, sent as JSON and restored, is what a remote search
    bot decides on: it draws its own samples from it and plays on."""
    game = ratgames.get_game("caged-rats")
    state = _bot_positions(game, 5, 31)[2]
    rng = Rng(11)
    for _ in range(6):
        seat = state.seats_to_act()[0]
        sent = json.dumps(state.sample_consistent(seat, Rng(rng.next64())).snapshot())
        restored = game.restore(json.loads(sent), Rng(rng.next64()))
        view = SeatView(restored, seat)
        assert view.observation() == state.observation(seat)
        again = view.sample_consistent(Rng(rng.next64()))
        assert again.observation(seat) == state.observation(seat)
        bot = make_bot(game, "ismcts:iterations=60", seed=rng.next64() % 1000)
        bot.new_game(seat)
        action = bot.act(view)
        assert state.is_legal(seat, action)
        restored.apply(seat, action)
        state.apply(seat, action)
        # Public play goes on alike (the seat's own draws come from a stock order it never knew).
        assert restored.spectator_view() == state.spectator_view()


def test_a_hidden_reshuffle_is_another_valid_position() -> None:
    """Cards a player cannot see may be anywhere among their places: a snapshot with two of the
    black hand and stock cards exchanged restores to exactly that position."""
    state = new()
    play(state, "cage 2H 3D", "cage 2C 3S", "offer 4H", "bid QH", "throw 4C")
    snap = _snap(state)
    hand, stock = snap["hands"][1], snap["stocks_top_first"][1]
    hand[0], stock[2] = stock[2], hand[0]
    hand.sort(key=ratgames.get_game("caged-rats").parse_card)
    restored = state.game.restore(snap, Rng(1))
    assert _snap(restored) == snap
    assert restored.observation(0) == state.observation(0)


def _position() -> tuple[CagedRatsState, dict[str, Any]]:
    """A position in the second deal (one deal in the history), mid-lead."""
    state = new({"target": 500})
    rng = Rng(1)  # a first deal won 26 to 9
    while state.deals == 0:
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    for _ in range(9):
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state, _snap(state)


def _refused(state: State, snap: Any, match: str) -> None:
    with pytest.raises(SnapshotError, match=match):
        state.game.restore(snap, Rng(1))


def test_every_card_once() -> None:
    state, snap = _position()
    state.game.restore(snap, Rng(1))
    moved = json.loads(json.dumps(snap))
    moved["pile"].append(moved["hands"][0][0])
    _refused(state, moved, "exactly once")
    lost = json.loads(json.dumps(snap))
    card = lost["stocks_top_first"][1].pop()
    _refused(state, lost, f"lacks {card}")
    wrong = json.loads(json.dumps(snap))
    wrong["hands"][0][0] = "11H"
    _refused(
        state, wrong, r"hands\[0\]\[0\] must be a card of the 52-card deck, no jokers, .*not '11H'"
    )
    jokers = json.loads(json.dumps(snap))
    jokers["pile"].append("BJ")
    _refused(state, jokers, "no jokers")


def test_entries_and_their_ranges() -> None:
    state, snap = _position()
    for key, value, match in [
        ("phase", "dance", "phase must be one of cage, offer"),
        ("actor", 2, "actor must be a seat from 0 to 1 or null"),
        ("dealer", True, "dealer must be a seat from 0 to 1"),
        ("lead_no", 17, "lead_no"),
        ("rubber_no", 0, "rubber_no"),
        ("deals", -1, "deals"),
        ("capped", 0, "capped must be true or false"),
        ("from_stock", None, "from_stock"),
        ("scores", [1, 2, 3], "scores must be a list of 2 whole numbers"),
        ("rubber_wins", [0, 3], r"rubber_wins\[1\]"),
        ("rats", [["2H"], []], "no rat or two"),
        ("fed", [[], [], []], "fed must be a list of 4 lists"),
        ("history", [], "history is a list of the 1 deals"),
        ("deal_events", [], "starts with the deal's start"),
        ("deal_events", [{"kind": "nap"}], "whose kind is one of"),
    ]:
        _refused(state, {**snap, key: value}, match)
    _refused(state, {**snap, "extra": 1}, "unknown: 'extra'")
    _refused(state, {k: v for k, v in snap.items() if k != "pile"}, "missing: pile")


def test_the_position_must_be_one_the_rules_reach() -> None:
    state, snap = _position()

    def changed(path: tuple[Any, ...], value: Any) -> Any:
        out = json.loads(json.dumps(snap))
        node = out
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return out

    assert snap["history"][0]["points"] == [26, 9] and snap["dealer"] == 0
    # The earlier deal: its figures, and the scores and dealer it leads to.
    _refused(state, changed(("history", 0, "points", 0), 3), "no deal gives Red 3 points")
    _refused(state, changed(("scores", 0), 27), "scores is")
    _refused(state, changed(("dealer",), 1), "dealer: after the deals in history Red deals")
    # The game would have ended with the earlier deal under a low target.
    low = ratgames.get_game("caged-rats", options={"target": 1})
    with pytest.raises(SnapshotError, match="the game ends after deal 1"):
        low.restore(snap, Rng(1))
    # The current deal's events are played again with the rules' checks.
    events = snap["deal_events"]
    swapped = [events[0], events[2], events[1], *events[3:]]
    _refused(state, {**snap, "deal_events": swapped}, "cannot happen there")
    draw = max(i for i, e in enumerate(events) if e["kind"] == "draw")
    dropped = events[:draw] + events[draw + 1 :]
    _refused(state, {**snap, "deal_events": dropped}, f"deal_events\\[{draw}\\] is .* makes it")
    bid = max(i for i, e in enumerate(events) if e["kind"] == "bid")
    _refused(
        state,
        {**snap, "deal_events": events[:bid] + events[bid + 1 :]},
        f"{events[bid]['card']} is missing",
    )
    _refused(state, changed(("lead_no",), snap["lead_no"] + 1), "lead_no is")
    _refused(state, changed(("leads_total",), snap["leads_total"] + 16), "leads_total is")
    # A card played this deal by the wrong player.
    first_bid = next(i for i, e in enumerate(events) if e["kind"] == "bid")
    seat = events[first_bid]["seat"]
    _refused(state, changed(("deal_events", first_bid, "seat"), 1 - seat), "deal_events")


# --- random damage ----------------------------------------------------------------------------

_POSITIONS: list[tuple[Game, Any]] = []


def _damage_targets() -> list[tuple[Game, Any]]:
    if not _POSITIONS:
        for variant in CagedRats.variants:
            game = ratgames.get_game("caged-rats", options=dict(variant))
            for state in _bot_positions(game, 9, 37)[::2]:
                _POSITIONS.append((game, _snap(state)))
                if not state.is_over():
                    _POSITIONS.append((game, _snap(state.sample_consistent(1, Rng(3)))))
    return _POSITIONS


_ODD = st.one_of(
    st.sampled_from(
        [None, True, False, 0, -1, 1, 2, 3, 16, 17, 10**9, 2.0, "", "AH", "2C", "KS", "10D"]
    ),
    st.sampled_from(TEXT),
    st.lists(st.sampled_from(TEXT), max_size=3),
    st.dictionaries(st.sampled_from(["kind", "seat", "card"]), st.integers(-1, 2), max_size=2),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_snapshots_are_refused_or_are_positions(data: st.DataObject) -> None:
    """Whatever is dropped, replaced, duplicated or exchanged in a snapshot, restore either
    refuses it with a SnapshotError or gives a position of the whole deck whose snapshot is
    exactly the one given."""
    targets = _damage_targets()
    game, good = targets[data.draw(st.integers(0, len(targets) - 1))]
    snap = json.loads(json.dumps(good))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = json_paths(snap)
        path = data.draw(st.sampled_from(paths))
        parent, key = json_at(snap, path[:-1]), path[-1]
        how = data.draw(st.sampled_from(["drop", "replace", "duplicate", "swap", "shift"]))
        if how == "drop":
            del parent[key]
        elif how == "replace":
            parent[key] = data.draw(_ODD)
        elif how == "duplicate":
            if isinstance(parent, list):
                parent.insert(key, parent[key])
            else:
                parent[key] = [parent[key], parent[key]]
        elif how == "swap":
            texts = [
                p for p in paths if isinstance(json_at(snap, p), str) and json_at(snap, p) in TEXT
            ]
            if len(texts) >= 2:
                a = data.draw(st.sampled_from(texts))
                b = data.draw(st.sampled_from(texts))
                pa, pb = json_at(snap, a[:-1]), json_at(snap, b[:-1])
                pa[a[-1]], pb[b[-1]] = pb[b[-1]], pa[a[-1]]
        else:
            value = parent[key]
            if type(value) is int:
                parent[key] = value + data.draw(st.sampled_from([-20, -1, 1, 2, 200]))
    try:
        state = game.restore(snap, Rng(7))
    except SnapshotError as exc:
        assert str(exc)
        event("refused: " + str(exc).split(":")[0][:30])
        return
    event("accepted")
    assert sorted(state.cards()) == game.deck()
    assert _snap(state) == snap


def test_the_state_declares_each_of_its_fields_once() -> None:
    state, _ = _position()
    fields = CagedRatsState._fields
    assert fields is not None
    if "__slots__" in vars(CagedRatsState):  # the Python class (a compiled one lists no slots)
        fields.check(state)
    copy = state.clone()
    assert copy.hands is not state.hands and copy.hands[0] is not state.hands[0]
    assert copy.stocks[1] is not state.stocks[1] and copy.history is state.history
    assert copy.snapshot() == state.snapshot()
