"""The invariants every registered game must keep, checked on random games.

Every game registered in :mod:`ratgames.games` runs through this suite for each player count it
allows (smallest, default, largest) and each of its declared option ``variants``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ratgames
from ratgames.core.errors import IllegalAction, RatgamesError, RecordError
from ratgames.core.game import Game, State
from ratgames.core.registry import game_class
from ratgames.core.rng import Rng


def _configs() -> list[Any]:
    out = []
    for gid in ratgames.game_ids():
        cls = game_class(gid)
        counts = sorted({cls.min_players, cls.default_players, cls.max_players})
        # Every player count with the default options; each further variant at the smallest
        # table (the variants change the rules, not how the seats are handled).
        for players in counts:
            out.append(pytest.param(gid, players, dict(cls.variants[0]), id=f"{gid}-{players}p"))
        for i, opts in enumerate(cls.variants[1:], start=1):
            players = cls.min_players
            out.append(pytest.param(gid, players, dict(opts), id=f"{gid}-{players}p-v{i}"))
    return out


CONFIGS = _configs()
GARBAGE = ["", " ", "xyzzy", "42", "-1", "play play", "\x00", "slot=9999", "🐀", "a" * 300]


def _snap(state: State) -> Any:
    """A frozen copy of the state's snapshot (a snapshot may share lists with the state)."""
    return json.loads(json.dumps(state.snapshot()))


def _check_hidden(state: State, rng: Rng, seats: range) -> int:
    """Reshuffling what a seat cannot see never changes its observation; samples depend only on
    what the seat knows.  Returns how many samples differed from the true state."""
    changed = 0
    real = _snap(state)
    spectator = state.spectator_view()
    for seat in seats:
        obs = state.observation(seat)
        other = state.sample_consistent(seat, Rng(rng.next64()))
        assert other.observation(seat) == obs, f"seat {seat}: a reshuffle changed its observation"
        assert other.spectator_view() == spectator
        assert sorted(other.cards()) == sorted(state.cards())
        if seat in state.seats_to_act():
            assert other.legal_actions(seat) == state.legal_actions(seat)
        # Every other seat's view in the sample is a valid, serializable observation.
        for s in seats:
            json.dumps(other.observation(s))
        r = rng.next64()
        a = state.sample_consistent(seat, Rng(r))
        b = other.sample_consistent(seat, Rng(r))
        assert _snap(a) == _snap(b), (
            f"seat {seat}: sample_consistent depends on cards the seat cannot see"
        )
        changed += _snap(other) != real
    return changed


def _check_illegal(state: State, game: Game, seat: int, action: Any) -> None:
    before = _snap(state)
    with pytest.raises(IllegalAction):
        state.apply(seat, action)
    assert _snap(state) == before, f"a refused {action!r} by seat {seat} changed the state"


def play_random_game(game: Game, seed: int, *, hidden_every: int = 11) -> tuple[State, int]:
    """Play one random game, checking the invariants along the way."""
    rng = Rng(seed ^ 0x5EED)
    state = game.new_state(seed=seed)
    deck = sorted(game.deck())
    seats = range(game.players)
    pool: list[Any] = []
    steps = 0
    changed = 0
    stage = 0
    while not state.is_over():
        assert sorted(state.cards()) == deck, "cards were not conserved"
        to_act = state.seats_to_act()
        assert to_act, "the game is not over but nobody may act"
        assert state.outcome() is None
        for s in seats:
            obs = state.observation(s)
            json.dumps(obs)
            if steps % 7 == 0:
                quick = state.observation(s, events=False)
                assert quick.get("events", []) == []
                assert quick.keys() == obs.keys()
                for key, value in quick.items():
                    # Only play-by-play lists may be left empty; every other entry is the same.
                    assert value == obs[key] or value == [], f"events=False changed {key!r}"
        json.dumps(state.spectator_view())
        assert state.stage() >= stage, "the stage went back"
        stage = state.stage()
        estimate = state.win_estimate()
        if estimate is not None:
            assert len(estimate) == game.players and abs(sum(estimate) - 1) < 1e-9
            assert all(0 <= e <= 1 for e in estimate)
        if steps % hidden_every == 0:
            changed += _check_hidden(state, rng, seats)
        seat = to_act[rng.randbelow(len(to_act))]
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is asked to act but has no legal action"
        assert len(set(legal)) == len(legal), "an action is listed twice"
        for a in legal:
            assert game.parse_action(str(a)) == a, f"{a!r} does not round-trip through {str(a)!r}"
        # Every legal action applies (a few of them, on clones).
        for a in [legal[rng.randbelow(len(legal))] for _ in range(min(3, len(legal)))]:
            trial = state.clone()
            trial.apply(seat, a)
            assert sorted(trial.cards()) == deck
        # Illegal actions are refused and change nothing.
        if steps % 5 == 0:
            for cand in [pool[rng.randbelow(len(pool))] for _ in range(min(4, len(pool)))]:
                for s in seats:
                    if not state.is_legal(s, cand):
                        _check_illegal(state, game, s, cand)
            for bad_seat in (-1, game.players, True, "0"):
                _check_illegal(state, game, bad_seat, legal[0])  # type: ignore[arg-type]
            for text in GARBAGE:
                before = _snap(state)
                with pytest.raises(IllegalAction):
                    state.apply(seat, text)
                assert _snap(state) == before
        if len(pool) < 400:
            pool.extend(legal[:5])
        action = legal[rng.randbelow(len(legal))]
        snapshot = _snap(state)
        copy = state.clone()
        state.apply(seat, action)
        assert _snap(copy) == snapshot, "apply on a state changed its clone"
        steps += 1
    outcome = state.outcome()
    assert outcome is not None
    assert state.seats_to_act() == []
    assert all(0 <= w < game.players for w in outcome.winners) and outcome.winners
    assert len(outcome.points) == len(outcome.places) == game.players
    json.dumps(outcome.to_json())
    with pytest.raises(IllegalAction):
        state.apply(0, GARBAGE[2])
    return state, changed


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_random_games_keep_every_invariant(
    game_id: str, players: int, options: dict[str, Any], seed: int
) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    state, _ = play_random_game(game, seed)
    # The record replays exactly, through JSON.
    record = json.loads(json.dumps(state.record()))
    replayed = ratgames.replay(record)
    assert _snap(replayed) == _snap(state)
    assert replayed.outcome() == state.outcome()
    # The same seed and actions give the same game.
    again = game.new_state(seed=state.seed)
    for seat, action in state.actions():
        again.apply(seat, action)
    assert _snap(again) == _snap(state)


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_samples_really_reshuffle(game_id: str) -> None:
    """The hidden-information check above could pass by never reshuffling; make sure it does."""
    game = ratgames.get_game(game_id)
    changed = sum(play_random_game(game, seed, hidden_every=3)[1] for seed in range(2))
    assert changed > 0


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_bad_options_and_player_counts_are_refused(game_id: str) -> None:
    cls = game_class(game_id)
    with pytest.raises(RatgamesError, match="no_such_option"):
        ratgames.get_game(game_id, options={"no_such_option": 1})
    with pytest.raises(RatgamesError, match="players"):
        ratgames.get_game(game_id, players=cls.max_players + 1)
    for spec in cls.option_specs:
        with pytest.raises(RatgamesError, match=spec.name):
            ratgames.get_game(game_id, options={spec.name: object()})


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_rules_name_every_option(game_id: str) -> None:
    game = ratgames.get_game(game_id)
    text = game.rules()
    for spec in game.option_specs:
        assert f"`{spec.name}`" in text, f"the rules do not explain option {spec.name}"


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_explicit_deal_round_trips(game_id: str) -> None:
    game = ratgames.get_game(game_id)
    state = game.new_state(seed=11)
    again = game.new_state(deal=state.initial_deal(), seed=11)
    assert _snap(again) == _snap(state)
    with pytest.raises(RatgamesError):
        game.new_state(deal={"nonsense": True})


# --- the engine's contract, for every game (samples, action objects, records, recording) ---------


def _positions(game: Game, seed: int, count: int, *, timed: bool = False) -> list[State]:
    """Up to ``count`` states met along one random game (each a clone), the last one over."""
    rng = Rng(seed)
    state = game.new_state(seed=seed)
    out: list[State] = []
    step, clock = 0, 0.0
    every = 1 + rng.randbelow(9)
    while not state.is_over():
        if step % every == 0 and len(out) < count:
            out.append(state.clone())
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))]
        legal = state.legal_actions(seat)
        clock += 0.25 + rng.randbelow(4)
        state.apply(seat, legal[rng.randbelow(len(legal))], time=clock if timed else None)
        step += 1
    out.append(state)
    return out


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_samples_reveal_nothing_and_are_reachable(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """A sample keeps no seed, log, initial deal or record of the real game; drawn from the
    real state or from another the seat cannot tell apart, the same random numbers give the
    same sample; every seat the sample asks to act has a legal move, and the sample plays on
    to an end under the rules."""
    game = ratgames.get_game(game_id, players=players, options=options)
    rng = Rng(0xC0FFEE)
    for n, state in enumerate(_positions(game, 77 + players, 8)):
        if state.is_over():
            continue
        for seat in range(players):
            sample = state.sample_consistent(seat, Rng(rng.next64()))
            assert sample.sampled and not state.sampled
            assert sample.seed is None, "a sample keeps the real seed"
            assert sample.events() == [], "a sample keeps the real log"
            with pytest.raises(RatgamesError):
                sample.initial_deal()
            with pytest.raises(RatgamesError):
                sample.record()
            assert sample.observation(seat) == state.observation(seat)
            # From a state the seat cannot tell apart (other hidden cards), the same samples.
            r = rng.next64()
            twin = sample.sample_consistent(seat, Rng(rng.next64()))
            assert _snap(state.sample_consistent(seat, Rng(r))) == _snap(
                twin.sample_consistent(seat, Rng(r))
            ), f"seat {seat}: samples depend on what the seat cannot see"
            # A reachable position: whoever is to act can act, and play goes on to an end.
            for s in sample.seats_to_act():
                assert sample.legal_actions(s), f"a sample leaves seat {s} with no legal move"
            if n % 3 == 0:
                play = sample.clone()
                deck = sorted(play.cards())
                moves = 0
                while not play.is_over() and moves < 3000:
                    s = play.seats_to_act()[0]
                    legal = play.legal_actions(s)
                    assert legal, f"a sample's play-out leaves seat {s} with no legal move"
                    play.apply(s, legal[rng.randbelow(len(legal))])
                    assert sorted(play.cards()) == deck
                    moves += 1


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_every_query_refuses_a_bad_seat(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    state = game.new_state(seed=5)
    action = state.legal_actions(state.seats_to_act()[0])[0]
    before = _snap(state)
    for bad in (-1, players, True, False, "0", 0.0, None):
        with pytest.raises(IllegalAction, match="seat"):
            state.observation(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="seat"):
            state.legal_actions(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="seat"):
            state.sample_consistent(bad, Rng(1))  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="seat"):
            state.is_legal(bad, action)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match="seat"):
            state.apply(bad, action)  # type: ignore[arg-type]
    assert _snap(state) == before


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_action_times_are_checked(game_id: str) -> None:
    game = ratgames.get_game(game_id)
    state = game.new_state(seed=9)
    seat = state.seats_to_act()[0]
    action = state.legal_actions(seat)[0]
    state.apply(seat, action, time=2.5)
    before = _snap(state)
    seat = state.seats_to_act()[0]
    action = state.legal_actions(seat)[0]
    huge = 10**400  # too large for a float: refused, not an OverflowError
    for bad in ("abc", float("nan"), float("inf"), -1, -0.00001, True, 1.0, [3], huge, -huge):
        with pytest.raises(IllegalAction, match="time"):
            state.apply(seat, action, time=bad)  # type: ignore[arg-type]
        assert _snap(state) == before
    with pytest.raises(IllegalAction, match="not a number of about 401 digits"):
        state.apply(seat, action, time=huge)
    with pytest.raises(IllegalAction, match=r"an int or a float\), not True"):
        state.apply(seat, action, time=True)
    state.apply(seat, action, time=2.5)  # the same time again is fine
    record = json.loads(json.dumps(state.record(), allow_nan=False))
    assert _snap(ratgames.replay(record)) == _snap(state)
    # The same times in a record: a RecordError naming the event, never an OverflowError.
    for bad in (huge, -1, "abc", True):
        broken = json.loads(json.dumps(record))
        last = [e for e in broken["events"] if "action" in e][-1]
        last["time"] = bad
        with pytest.raises(RecordError, match="does not replay: an action's time"):
            ratgames.replay(broken)


@pytest.mark.parametrize("game_id", [g for g in ratgames.game_ids() if game_class(g).real_time])
def test_bot_played_real_time_games_replay_to_the_same_snapshot(game_id: str) -> None:
    """The README's ``replay(record).snapshot() == state.snapshot()`` holds for games played by
    bots on the simulated clock, whose reaction times have many decimals."""
    game = ratgames.get_game(game_id)
    for seed in range(6):
        bots = [ratgames.make_bot(game, "heuristic", seed=seed * 10 + s) for s in range(2)]
        bots += [ratgames.make_bot(game, "random", seed=s) for s in range(2, game.players)]
        state = ratgames.play_game(game, bots, seed=seed)
        record = json.loads(json.dumps(state.record(), allow_nan=False))
        assert ratgames.replay(record).snapshot() == state.snapshot(), f"seed {seed}"


TIMES = st.floats(min_value=0, max_value=3, allow_nan=False) | st.sampled_from(
    [0, 0.00004, 0.00005, 0.00006, 1e-9, 0.12345678]
)
"""Steps between action times: whole, finer than the clock's 0.1 ms, or none."""


@pytest.mark.parametrize("game_id", ratgames.game_ids())
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), data=st.data())
def test_random_times_replay_exactly(game_id: str, seed: int, data: st.DataObject) -> None:
    """Whatever the action times (any number of decimals, steps finer than the clock), a record
    replays to the very state the live game reached, and the replayed game accepts or refuses
    each next time exactly as the live one does."""
    game = ratgames.get_game(game_id)
    rng = Rng(seed)
    state = game.new_state(seed=seed)
    clock = 0.0
    steps = 0
    while not state.is_over() and steps < 60:
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))]
        legal = state.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        # Mostly forward; now and then a little back, which both games must judge alike.
        back = data.draw(st.sampled_from([0.0, 0.0, 0.0, 0.00002, 0.00007, 0.5]))
        clock = max(0.0, clock + data.draw(TIMES) - back)
        replayed = ratgames.replay(json.loads(json.dumps(state.record(), allow_nan=False)))
        assert _snap(replayed) == _snap(state)
        verdicts = []
        for copy in (state, replayed):
            try:
                copy.apply(seat, action, time=clock)
                verdicts.append("accepted")
            except IllegalAction as exc:
                verdicts.append(str(exc))
        assert verdicts[0] == verdicts[1], f"at {clock!r} s the live game and its replay differ"
        if verdicts[0] != "accepted":
            clock += 1  # past the refused time: play on
            state.apply(seat, action, time=clock)
        steps += 1
    assert _snap(ratgames.replay(state.record())) == _snap(state)


def _action_objects(game: Game) -> Any:
    """The game's hypothesis strategy of directly built action objects (see the tests of each
    game: ``tests/games/<package>/action_objects.py``)."""
    module = type(game).__module__
    base = Path(__file__).parent
    if module.startswith("ratgames.games."):
        path = base / "games" / module.split(".")[2] / "action_objects.py"
    else:
        path = base / "core" / "action_objects.py"
    spec = importlib.util.spec_from_file_location(f"action_objects_{game.id}", path)
    assert spec is not None and spec.loader is not None, f"no {path}"
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.action_objects(game)


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), data=st.data())
def test_action_objects_are_checked_like_text(
    game_id: str, players: int, options: dict[str, Any], seed: int, data: st.DataObject
) -> None:
    """An action object built directly, with any field values of any type, is refused with
    :class:`IllegalAction` and changes nothing unless it equals a legal action; an accepted one
    replays through its notation to the same state."""
    game = ratgames.get_game(game_id, players=players, options=options)
    objects = _action_objects(game)
    positions = _positions(game, seed, 3)
    for state in positions:
        before = _snap(state)
        seats = state.seats_to_act() or [0]
        for _ in range(8):
            obj = data.draw(objects)
            seat = data.draw(st.sampled_from(seats))
            trial = state.clone()
            try:
                trial.apply(seat, obj)
            except IllegalAction:
                assert _snap(trial) == before, f"a refused {obj!r} changed the state"
                continue
            # (A real-time game may accept more than it lists: a slap at an older pile.)
            assert state.is_legal(seat, obj), f"{obj!r} was accepted but is not legal"
            again = state.clone()
            parsed = game.parse_action(str(obj))
            assert parsed == obj, f"{obj!r} does not round-trip through {str(obj)!r}"
            again.apply(seat, parsed)
            assert _snap(again) == _snap(trial)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def _mutate(node: Any, data: st.DataObject, depth: int = 0) -> Any:
    """``node`` with one random change somewhere inside it."""
    children: list[Any] = []
    if isinstance(node, dict):
        children = list(node)
    elif isinstance(node, list):
        children = list(range(len(node)))
    how = data.draw(st.integers(0, 9))
    if not children or how < 2 or depth > 6:
        return data.draw(JSON_VALUES)
    key = data.draw(st.sampled_from(children))
    if how == 2:
        del node[key]
    elif how == 3 and isinstance(node, list):
        node.insert(key, data.draw(JSON_VALUES))
    elif how == 4 and isinstance(node, list) and len(node) > 1:
        other = data.draw(st.sampled_from(children))
        node[key], node[other] = node[other], node[key]
    else:
        node[key] = _mutate(node[key], data, depth + 1)
    return node


@pytest.mark.parametrize("game_id", ratgames.game_ids())
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_records_replay_or_raise_record_error(game_id: str, data: st.DataObject) -> None:
    game = ratgames.get_game(game_id)
    record = _RECORDS.setdefault(
        game_id, json.dumps(_positions(game, 3, 1, timed=True)[-1].record())
    )
    mutated = _mutate(json.loads(record), data)
    with contextlib.suppress(RecordError):
        ratgames.replay(mutated)


_RECORDS: dict[str, str] = {}


def test_corrupt_record_files_raise_record_error(tmp_path: Path) -> None:
    game = ratgames.get_game("test-high-card")
    good = _positions(game, 1, 1, timed=True)[-1].record()
    cases = {
        "latin1.json": json.dumps(good).replace("Seat", "S\u00e9at").encode("latin-1"),
        "deep.json": b'{"format": "ratgames-record", "x": '
        + b"[" * 100_000
        + b"]" * 100_000
        + b"}",
        "bigint.json": json.dumps({**good, "seed": 0})
        .replace('"seed": 0', '"seed": ' + "9" * 5000)
        .encode(),
        "nan.json": json.dumps({**good, "events": [{"seat": 0, "action": "play 1", "time": 1}]})
        .replace('"time": 1', '"time": NaN')
        .encode(),
        "chance3.json": json.dumps(
            {**good, "events": [{"chance": "refill", "outcome": "3"}]}
        ).encode(),
        "empty.json": b"",
    }
    timed = dict(good)
    timed["events"] = [dict(e) for e in good["events"]]
    first = next(e for e in timed["events"] if "action" in e)
    first["time"] = "abc"
    cases["timeabc.json"] = json.dumps(timed).encode()
    for name, blob in cases.items():
        path = tmp_path / name
        path.write_bytes(blob)
        with pytest.raises(RecordError):
            ratgames.replay(path)
    # A text that is neither JSON nor a name the system can open (a NUL in it).
    with pytest.raises(RecordError, match=r"cannot read record '\\x00': embedded null byte"):
        ratgames.replay("\x00")


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_recording_on_or_off_gives_the_same_game(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    final = _positions(game, 21, 1, timed=True)[-1]
    quiet = game.new_state(seed=final.seed)
    quiet.set_recording(False)
    loud = game.new_state(seed=final.seed)
    for event in final.events():
        if event[0] == "action":
            _, seat, action, time = event
            quiet.apply(seat, action, time=time)
            loud.apply(seat, action, time=time)
    assert _snap(quiet) == _snap(loud) == _snap(final)
    assert quiet.outcome() == final.outcome()


RECORDS_BEFORE = sorted((Path(__file__).parent / "data" / "records-before").glob("*.json"))


@pytest.mark.parametrize("path", RECORDS_BEFORE, ids=[p.stem for p in RECORDS_BEFORE])
def test_records_made_before_still_replay_to_the_same_outcome(path: Path) -> None:
    """Seeded games recorded before the engine's contract was tightened play the same now."""
    record = json.loads(path.read_text(encoding="utf-8"))
    state = ratgames.replay(record)  # checks that the outcome is the recorded one
    assert state.is_over()


# --- positions restored from snapshots (how an honest sample travels to a remote bot) ----------


def _same_play(a: State, b: State, rng: Rng, steps: int, timed: bool) -> None:
    """``a`` and ``b`` agree now and after each of ``steps`` random moves (the same for both)."""
    players = a.game.players
    clock = a._time
    for _ in range(steps + 1):
        assert _snap(a) == _snap(b)
        assert a.seats_to_act() == b.seats_to_act()
        for seat in range(players):
            assert a.observation(seat) == b.observation(seat), f"seat {seat}'s observation"
            assert a.legal_actions(seat) == b.legal_actions(seat), f"seat {seat}'s moves"
        assert a.spectator_view() == b.spectator_view()
        assert a.outcome() == b.outcome()
        if a.is_over():
            return
        to_act = a.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))]
        legal = a.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        clock += 0.25 + rng.randbelow(4)
        a.apply(seat, action, time=clock if timed else None)
        b.apply(seat, action, time=clock if timed else None)


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_snapshots_restore_to_the_same_position(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """A real state or a seat's sample, restored from its snapshot (through JSON), is the same
    position: the same snapshot, seats to act, legal moves, observations and outcome, now and
    along a random continuation.  The restored state is a sample (it keeps no origin) whose later
    chance events come from the generator it was given."""
    game = ratgames.get_game(game_id, players=players, options=options)
    timed = game.real_time
    rng = Rng(0x5EED + players)
    for state in _positions(game, 31 + players, 5, timed=timed):
        originals = [state]
        if not state.is_over():
            originals += [state.sample_consistent(s, Rng(rng.next64())) for s in range(players)]
        for original in originals:
            k = rng.next64()
            restored = game.restore(json.loads(json.dumps(original.snapshot())), Rng(k))
            assert restored.sampled and restored.seed is None
            with pytest.raises(RatgamesError):
                restored.record()
            reference = original.clone()
            reference._forget_origin(Rng(k))
            _same_play(reference, restored, Rng(rng.next64()), 60, timed)


_WRONG_TYPES: list[Any] = ["🐀", -7, 2.5, True, [["x"]], {"x": 1}]


@pytest.mark.parametrize("game_id", ratgames.game_ids())
def test_bad_snapshots_are_refused_with_a_reason(game_id: str) -> None:
    """Every malformed snapshot raises SnapshotError (never another error): not a mapping, a
    missing entry, an unknown entry, an entry of the wrong type, or another game's position."""
    from ratgames.core.errors import SnapshotError

    game = ratgames.get_game(game_id)
    state = game.new_state(seed=3)
    for _ in range(7):  # a position a few moves in
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    good = _snap(state)
    game.restore(good, Rng(1))
    for bad in (None, "x", [good], 3):
        with pytest.raises(SnapshotError):
            game.restore(bad, Rng(1))  # type: ignore[arg-type]
    for key in good:
        missing = {k: v for k, v in good.items() if k != key}
        with pytest.raises(SnapshotError, match=key):
            game.restore(missing, Rng(1))
        for wrong in _WRONG_TYPES:
            if good[key] is None or type(wrong) is type(good[key]):
                continue
            with pytest.raises(SnapshotError):
                game.restore({**good, key: wrong}, Rng(1))
    with pytest.raises(SnapshotError, match="surprise"):
        game.restore({**good, "surprise": 1}, Rng(1))
    for other_id in ratgames.game_ids():
        if other_id != game_id:
            other = ratgames.get_game(other_id).new_state(seed=3)
            with pytest.raises(SnapshotError):
                game.restore(_snap(other), Rng(1))
