"""The invariants every registered game must keep, checked on random games.

Every game registered in :mod:`ratgames.games` runs through this suite for each player count it
allows (smallest, default, largest) and each of its declared option ``variants``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ratgames
from ratgames.core.errors import IllegalAction, RatgamesError
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
