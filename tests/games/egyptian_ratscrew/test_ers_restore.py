"""Egyptian Ratscrew positions restored from their snapshots (``Game.restore``): the same position
from bot games and from samples, in every variant and player count, with the same clock and the
same judgement of every later slap (valid, too late or bad); a restored sample plays on with the
game's bots; and a snapshot that is not a position of the game is refused with a SnapshotError
saying why."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from tests.json_paths import json_at, json_paths

import ratgames
from ratgames.core.bots import Bot, SeatView, make_bot
from ratgames.core.errors import IllegalAction, SnapshotError
from ratgames.core.game import Game, State
from ratgames.core.rng import Rng
from ratgames.core.runner import play_game
from ratgames.games.egyptian_ratscrew.action import Slap
from ratgames.games.egyptian_ratscrew.rules import EgyptianRatscrew, RatscrewState, face_deal

from .helpers import game as make_game
from .helpers import table

GID = "egyptian-ratscrew"
NEVER_ENDING = ("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA")


def _snap(state: State) -> Any:
    return json.loads(json.dumps(state.snapshot()))


def _configs() -> list[Any]:
    cls = EgyptianRatscrew
    out = [(players, {}) for players in (2, 3, 8)]
    out += [(2, dict(v)) for v in cls.variants[1:]]
    out.append((4, {"newcomers": 2}))
    return [pytest.param(p, o, id=f"{p}p-{i}") for i, (p, o) in enumerate(out)]


def _bot_positions(game: Game, seed: int, count: int) -> list[RatscrewState]:
    """Positions met along a game between the game's bots on the simulated clock (replayed
    from its record with the same action times), about ``count`` of them, and the end."""
    bots = [
        make_bot(game, "heuristic:level=fast,false_slap=0.05", seed=seed + s)
        for s in range(game.players)
    ]
    final = play_game(game, bots, seed=seed)
    actions = [e for e in final.events() if e[0] == "action"]
    every = max(1, len(actions) // count)
    state = game.new_state(seed=seed)
    out: list[RatscrewState] = []
    for i, (_, seat, action, time) in enumerate(actions):
        if i % every == 0:
            clone = state.clone()
            assert isinstance(clone, RatscrewState)
            out.append(clone)
        state.apply(seat, action, time=time)
    assert _snap(state) == _snap(final)
    assert isinstance(state, RatscrewState)
    out.append(state)
    return out


def _slaps_judged_alike(a: RatscrewState, b: RatscrewState) -> None:
    """Every slap any seat may still make, at any pile version, has the same effect on both."""
    for seat in range(a.game.players):
        for version in range(max(0, a.last_slap[seat] + 1), a.version + 1):
            x, y = a.clone(), b.clone()
            ok = x.is_legal(seat, Slap(version))
            assert ok == y.is_legal(seat, Slap(version))
            if ok:
                x.apply(seat, Slap(version), time=a._time)
                y.apply(seat, Slap(version), time=b._time)
                assert _snap(x) == _snap(y), f"seat {seat}'s slap@{version}"


def _same_from_here(a: RatscrewState, b: RatscrewState, rng: Rng, steps: int) -> None:
    """``a`` and ``b`` agree now and along the same random actions, timed, some of them slaps
    at older pile versions (too late or bad)."""
    clock = a._time
    for _ in range(steps):
        assert _snap(a) == _snap(b)
        for seat in range(a.game.players):
            assert a.observation(seat) == b.observation(seat)
            assert a.legal_actions(seat) == b.legal_actions(seat)
        assert a.outcome() == b.outcome()
        if a.is_over():
            return
        to_act = a.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))]
        legal = a.legal_actions(seat)
        action: Any = legal[rng.randbelow(len(legal))]
        low = a.last_slap[seat] + 1
        if a.game.slaps and rng.randbelow(4) == 0 and a.is_legal(seat, Slap(low)):
            action = Slap(low + rng.randbelow(a.version - low + 1))
        clock += rng.randbelow(3) * 0.25
        a.apply(seat, action, time=clock)
        b.apply(seat, action, time=clock)


@pytest.mark.parametrize(("players", "options"), _configs())
def test_positions_of_bot_games_restore_with_the_same_judgement(
    players: int, options: dict[str, Any]
) -> None:
    game = ratgames.get_game(GID, players=players, options=options)
    rng = Rng(players)
    positions = _bot_positions(game, 60 + players, 10)
    assert positions[-1].is_over()
    for state in positions:
        originals: list[RatscrewState] = [state]
        if not state.is_over():
            originals += [state.sample_consistent(s, Rng(rng.next64())) for s in (0, players - 1)]
        for original in originals:
            key = rng.next64()
            restored = game.restore(json.loads(json.dumps(original.snapshot())), Rng(key))
            assert isinstance(restored, RatscrewState)
            assert restored.sampled and restored.seed is None and restored.events() == []
            assert sorted(restored.cards()) == sorted(game.deck())
            assert restored._time == original._time
            reference = original.clone()
            reference._forget_origin(Rng(key))
            if not original.is_over():
                _slaps_judged_alike(reference, restored)
            _same_from_here(reference, restored, Rng(rng.next64()), 60)


def test_the_clock_is_restored() -> None:
    """An action timed before the last one is refused by the restored position as by the real
    one; one at the same time is taken by both."""
    game = make_game(2)
    state = _bot_positions(game, 3, 6)[3]
    assert state._time > 1
    restored = game.restore(_snap(state), Rng(1))
    seat = state.seats_to_act()[0]
    action = state.legal_actions(seat)[0]
    for s in (state, restored):
        with pytest.raises(IllegalAction, match="cannot go back"):
            s.apply(seat, action, time=state._time - 0.5)
        s.apply(seat, action, time=state._time)
    assert _snap(state) == _snap(restored)


def test_a_late_slap_at_an_old_pile_stays_late() -> None:
    """A seat that saw a slappable pile long ago (many versions back) and slaps it now is too
    late, not bad, in the restored position too: the snapshot keeps every slappable version a
    slap may still name."""
    game = make_game(2)
    state = table(game, "5C 9D 3H 4S 6H 7D", "5D 2C 8S 10H JS")
    state.apply(0, "play", time=1.0)
    state.apply(1, "play", time=2.0)  # 5C 5D: doubles at version 2
    assert state.spectator_view()["slappable"] == "doubles"
    for t in range(3, 9):
        state.apply(state.turn, "play", time=t)
    restored = game.restore(_snap(state), Rng(1))
    for s in (state, restored):
        assert isinstance(s, RatscrewState)
        s.apply(1, Slap(2), time=10.0)
        assert s.observation(1)["events"][-1] == {"kind": "late_slap", "seat": 1}
        s.apply(0, Slap(3), time=10.0)
        assert s.observation(0)["events"][-1]["kind"] == "bad_slap"
    assert _snap(state) == _snap(restored)


def test_a_restored_sample_plays_on_with_the_game_bots() -> None:
    """A seat's honest sample, sent as JSON and restored, is what a remote bot reacts to: it
    draws further samples from it, and the bots play it to the end on the simulated clock."""
    game = make_game(3)
    state = _bot_positions(game, 8, 5)[2]
    rng = Rng(4)
    sent = json.dumps(state.sample_consistent(1, Rng(rng.next64())).snapshot())
    restored = game.restore(json.loads(sent), Rng(rng.next64()))
    assert isinstance(restored, RatscrewState)
    view = SeatView(restored, 1, restored._time)
    assert view.observation() == state.observation(1)
    again = view.sample_consistent(Rng(rng.next64()))
    assert again.observation(1) == state.observation(1)
    bots = [make_bot(game, "heuristic", seed=s) for s in range(3)]
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    _play_out(restored, bots)
    assert restored.is_over() and sorted(restored.cards()) == sorted(game.deck())


def _play_out(state: RatscrewState, bots: list[Bot]) -> None:
    """The runner's real-time loop, its clock starting at the position's."""
    now = state._time
    pending: dict[int, tuple[float, int, Any]] = {}
    order = 0
    for _ in range(100_000):
        if state.is_over():
            return
        for seat in list(pending):
            if not state.is_legal(seat, pending[seat][2]):
                del pending[seat]
        for seat in state.seats_to_act():
            if seat not in pending:
                reaction = bots[seat].react(SeatView(state, seat, now))
                if reaction is not None:
                    order += 1
                    pending[seat] = (now + reaction.delay, order, reaction.action)
        seat = min(pending, key=lambda s: pending[s][:2])
        arrival, _, action = pending.pop(seat)
        now = max(now, arrival)
        state.apply(seat, action, time=now)
    raise AssertionError("the restored game did not end")


def test_remembered_positions_end_a_cycle_at_the_same_card() -> None:
    """Without slaps, a restored position remembers the positions it may come back to, so the
    never-ending deal ends as a cycle at the same card as the real game."""
    game = make_game(2, slaps=False)
    state = game.new_state(seed=0, deal=face_deal(*NEVER_ENDING))
    for _ in range(300):
        state.apply(state.seats_to_act()[0], state.legal_actions(state.seats_to_act()[0])[0])
    snap = _snap(state)
    assert snap["positions_seen"] and all(
        isinstance(stack, str) for p in snap["positions_seen"] for stack in p["stacks"]
    )
    restored = game.restore(snap, Rng(1))
    for s in (state, restored):
        while not s.is_over():
            seat = s.seats_to_act()[0]
            s.apply(seat, s.legal_actions(seat)[0])
    assert restored.outcome() == state.outcome()
    out = state.outcome()
    assert out is not None and out.details["cycle"] == 1
    # Forgetting them, the game would go round again: a real difference.
    forgetful = game.restore({**snap, "positions_seen": []}, Rng(1))
    for _ in range(5):
        seat = forgetful.seats_to_act()[0]
        forgetful.apply(seat, forgetful.legal_actions(seat)[0])


# --- refusals -------------------------------------------------------------------------------------


def _mid_game() -> tuple[EgyptianRatscrew, dict[str, Any]]:
    game = make_game(3, burn=2)
    state = _bot_positions(game, 12, 8)[4]
    return game, _snap(state)


def _refused(game: Game, snap: Any, match: str) -> None:
    with pytest.raises(SnapshotError, match=match):
        game.restore(snap, Rng(1))


def _changed(snap: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(snap))
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def test_cards_are_in_notation_and_each_once() -> None:
    game, snap = _mid_game()
    game.restore(snap, Rng(1))
    stack = next(s for s in snap["stacks"] if s)
    seat = snap["stacks"].index(stack)
    _refused(game, _changed(snap, ("stacks", seat, 0), "BJ"), "must be a card of the 52-card deck")
    _refused(game, _changed(snap, ("stacks", seat, 0), 5), "must be a card")
    _refused(game, _changed(snap, ("pile",), [*snap["pile"], stack[0]]), "exactly once")
    short = _changed(snap, ("stacks", seat), stack[1:])
    short["stacks_known"][seat] = short["stacks_known"][seat][1:]
    _refused(game, short, f"lacks {stack[0]}")
    _refused(game, _changed(snap, ("stacks_known", seat), []), "one flag per card")
    _refused(game, _changed(snap, ("stacks_known", seat, 0), 1), "true or false")


def test_entries_their_types_and_ranges() -> None:
    game, snap = _mid_game()
    for key, value, match in [
        ("phase", "nap", "phase must be one of play, collect, final, over"),
        ("phase", 0, "phase must be one of"),
        ("turn", 3, "turn must be a seat from 0 to 2 or null, not 3"),
        ("turn", -1, "turn must be a seat"),
        ("chances", 5, "chances"),
        ("status", ["in", "in", "asleep"], r"status\[2\] must be one of in, waiting, out"),
        ("status", ["in", "in"], "status must be a list of 3"),
        ("last_slap", [0, 0, 10**9], r"last_slap\[2\]"),
        ("played", -1, "played must be a whole number"),
        ("bad_slaps", 2.0, "bad_slaps must be a whole number"),
        ("capped", 0, "capped must be true or false"),
        ("end_reason", 1, "end_reason is the reason the game ended"),
        ("winner", 3, "winner must be a seat from 0 to 2 or null"),
        ("event_count", "many", "event_count must be a whole number"),
        ("time", -1.0, "time must be a number of at least 0"),
        ("time", float("nan"), "time"),
        ("time", "now", "time"),
        ("events", "many", "events"),
        (
            "positions_seen",
            [{"turn": 0}],
            r"positions_seen\[0\] has exactly the entries turn, stacks; missing: stacks",
        ),
    ]:
        _refused(game, {**snap, key: value}, match)
    _refused(game, {**snap, "extra": 1}, "unknown: 'extra'")
    _refused(game, {k: v for k, v in snap.items() if k != "time"}, "missing: time")


def test_the_entries_must_agree_as_in_play() -> None:
    game, snap = _mid_game()
    played = snap["played"]
    _refused(game, _changed(snap, ("version",), snap["version"] + 1), "version grows")
    _refused(game, _changed(snap, ("played",), played + 1), "version grows")
    _refused(game, _changed(snap, ("disrupt",), snap["disrupt"] + 1), "disrupt counts")
    _refused(game, _changed(snap, ("status", 0), "waiting"), "only a newcomer's seat")
    _refused(game, {**snap, "end_reason": "the last player with cards", "winner": 0}, "end_reason")
    _refused(game, _changed(snap, ("events", 0, "seat"), 7), r"events\[0\].seat")
    _refused(
        game, _changed(snap, ("events", 0), {"kind": "nap", "seat": 0}), "whose kind is one of"
    )
    _refused(game, _changed(snap, ("event_count",), 2), "events")
    # A challenge must agree with the pile.
    state = table(make_game(2), "KC 2C 3C", "4D 5D 6D")
    state.apply(0, "play")
    state.apply(1, "play")  # KC 4D: two chances left
    good = _snap(state)
    assert good["challenger"] == 0 and good["chances"] == 2
    _refused(state.game, _changed(good, ("chances",), 3), "chances its cards leave")
    _refused(state.game, _changed(good, ("challenger",), None), "challenge")
    _refused(state.game, _changed(good, ("turn",), 0), "challenge")
    # The slappable pile's version is listed exactly when the pile can be slapped.
    doubles = table(make_game(2), "5C 9C", "5D 9D")
    doubles.apply(0, "play")
    doubles.apply(1, "play")
    snap2 = _snap(doubles)
    assert snap2["slappable_versions"] == [2]
    _refused(
        doubles.game, {**snap2, "slappable_versions": []}, "exactly when the pile can be slapped"
    )
    no_slaps = make_game(2, slaps=False)
    plain = _snap(no_slaps.new_state(seed=1))
    _refused(no_slaps, {**plain, "last_slap": [0, -1]}, "nobody slaps in this game")


def test_another_games_or_another_tables_position_is_refused() -> None:
    game, snap = _mid_game()
    _refused(make_game(2), snap, "a list of 2")
    _refused(make_game(3, jokers=1, burn=2), snap, "lacks BJ")
    caged = _snap(ratgames.get_game("caged-rats").new_state(seed=1))
    _refused(game, caged, "missing")


# --- random damage --------------------------------------------------------------------------------

_POSITIONS: list[tuple[Game, Any]] = []


def _damage_targets() -> list[tuple[Game, Any]]:
    if not _POSITIONS:
        for players, options in [
            (2, {}),
            (3, {"newcomers": 1}),
            (2, dict(EgyptianRatscrew.variants[1])),
            (2, {"slaps": False}),
        ]:
            game = ratgames.get_game(GID, players=players, options=options)
            for state in _bot_positions(game, 5, 6):
                _POSITIONS.append((game, _snap(state)))
                if not state.is_over():
                    _POSITIONS.append((game, _snap(state.sample_consistent(0, Rng(3)))))
    return _POSITIONS


_TEXTS = ["2C", "5D", "10H", "JS", "QC", "KD", "AH", "BJ", "RJ"]
_ODD = st.one_of(
    st.sampled_from(
        [None, True, False, 0, -1, 1, 2, 3, 4, 5, 8, 10**9, 2.5, float("inf"), "", "play"]
    ),
    st.sampled_from(["play", "collect", "final", "over", "in", "out", "waiting", *_TEXTS]),
    st.lists(st.sampled_from(_TEXTS), max_size=3),
    st.lists(st.booleans(), max_size=3),
    st.dictionaries(
        st.sampled_from(["kind", "seat", "card", "turn", "stacks"]), st.integers(-1, 3), max_size=2
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_snapshots_are_refused_or_are_positions_that_play_on(data: st.DataObject) -> None:
    """Whatever is dropped, replaced, duplicated, exchanged or shifted in a snapshot, restore
    either refuses it with a SnapshotError or gives a position of the whole deck whose snapshot
    is exactly the one given, and which plays on under the rules."""
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
            same = [p for p in paths if type(json_at(snap, p)) is type(parent[key])]
            other = data.draw(st.sampled_from(same))
            there = json_at(snap, other[:-1])
            parent[key], there[other[-1]] = there[other[-1]], parent[key]
        else:
            value = parent[key]
            if type(value) is int:
                parent[key] = value + data.draw(st.sampled_from([-20, -1, 1, 2, 200]))
    try:
        state = game.restore(snap, Rng(7))
    except SnapshotError as exc:
        assert str(exc)
        event("refused")
        return
    event("accepted")
    assert sorted(state.cards()) == sorted(game.deck())
    assert _snap(state) == snap
    rng = Rng(data.draw(st.integers(0, 2**32)))
    clock = state._time
    for _ in range(300):
        if state.is_over():
            break
        to_act = state.seats_to_act()
        assert to_act
        seat = to_act[rng.randbelow(len(to_act))]
        legal = state.legal_actions(seat)
        clock += 0.5
        state.apply(seat, legal[rng.randbelow(len(legal))], time=clock)
        assert sorted(state.cards()) == sorted(game.deck())
