"""OpenSpiel: every game passes OpenSpiel's random simulation test with serialization, has the
right game type, and resamples from a player's information state."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import ratgames
from ratgames.rl.deals import deal_plan_for
from ratgames.rl.encoding import encoder_for
from ratgames.rl.openspiel import load, short_name

CASES = [
    ("caged-rats", 2, {"target": 30}),
    ("rats", 2, {}),
    ("rats", 3, {"jokers": 2}),
    ("rat-a-tat-cat", 3, {"mode": "rounds=2"}),
    ("rat-a-tat-cat", 2, {"first_discard": "keep_turning", "mode": "rounds=2"}),
    ("egyptian-ratscrew", 2, {}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_random_simulation_with_serialization(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = load(game_id, players, **options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", ["caged-rats", "rats", "rat-a-tat-cat", "egyptian-ratscrew"])
def test_game_type(game_id: str) -> None:
    game = pyspiel.load_game(short_name(game_id))
    kind = game.get_type()
    real_time = ratgames.get_game(game_id).real_time
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.dynamics == (
        pyspiel.GameType.Dynamics.SIMULTANEOUS
        if real_time
        else pyspiel.GameType.Dynamics.SEQUENTIAL
    )
    enc = encoder_for(ratgames.get_game(game_id))
    assert game.num_distinct_actions() == enc.num_actions
    assert game.observation_tensor_shape() == [enc.obs_size]
    assert game.information_state_tensor_shape() == [enc.obs_size]


def _deal(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1.0) < 1e-9
        state.apply_action(rng.choices(outcomes, probs)[0])


@pytest.mark.parametrize(("game_id", "players"), [("caged-rats", 2), ("rats", 3)])
def test_resample_from_infostate(game_id: str, players: int) -> None:
    game = load(game_id, players)
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(30):
        _deal(state, rng)
        state.apply_action(rng.choice(state.legal_actions()))
    _deal(state, rng)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = set()
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        assert np.array_equal(sample.observation_tensor(player), state.observation_tensor(player))
        seen.add(str(sample))
        while not sample.is_terminal():  # a sample plays on to the end, chance drawn at once
            assert not sample.is_chance_node()
            sample.apply_action(rng.choice(sample.legal_actions()))
    assert len(seen) > 1


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("caged-rats", 2, {}), ("rats", 4, {}), ("egyptian-ratscrew", 3, {"newcomers": 1}),
     ("rat-a-tat-cat", 3, {}), ("rat-a-tat-cat", 2, {"first_discard": "keep_turning"})],
)  # fmt: skip
def test_deal_plans_give_valid_deals(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    plan = deal_plan_for(game)
    rng = random.Random(5)
    for _ in range(20):
        chosen: list[int] = []
        while (outcomes := plan.outcomes(chosen)) is not None:
            ks, ps = zip(*outcomes, strict=True)
            assert abs(sum(ps) - 1.0) < 1e-9
            chosen.append(rng.choices(ks, ps)[0])
        state = game.new_state(seed=1, deal=plan.deal(chosen))
        assert sorted(state.cards()) == sorted(game.deck())


def test_shuffle_back_deals_a_number_card_first() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    plan = deal_plan_for(game)
    chosen = [plan.index[c] for c in sorted(game.deck())[:8]]
    outcomes = plan.outcomes(chosen)
    assert outcomes is not None
    assert {plan.text[k] for k, _ in outcomes} <= set("0123456789")


def test_open_spiel_ismcts_plays_a_move() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("caged-rats", single_deal=True)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    _deal(state, random.Random(1))
    assert bot.step(state) in state.legal_actions()


SIM_CASES = [
    ("caged-rats", 2, {"single_deal": True}),
    ("rats", 3, {"jokers": 2, "max_rounds": 3}),
    ("rat-a-tat-cat", 4, {"mode": "rounds=2"}),
    ("egyptian-ratscrew", 3, {}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), SIM_CASES)
def test_open_spiel_games_sim_test(game_id: str, players: int, options: dict[str, Any]) -> None:
    """OpenSpiel's own games_sim_test simulation: pickling of the game, its type and states,
    serialize/deserialize and clones along a random game."""
    from open_spiel.python.tests import games_sim_test

    np.random.seed(7)  # sim_game draws its moves from numpy's global generator
    case = games_sim_test.GamesSimTest("test_pig")
    case.sim_game(load(game_id, players, **options))


def test_egyptian_ratscrew_as_a_turn_based_game() -> None:
    """games_sim_test's check of a simultaneous game through OpenSpiel's turn-based wrapper."""
    from open_spiel.python.tests import games_sim_test

    np.random.seed(3)
    game = pyspiel.load_game_as_turn_based(short_name("egyptian-ratscrew"), {"max_ticks": 400})
    games_sim_test.GamesSimTest("test_pig").sim_game(game)


@pytest.mark.parametrize(("game_id", "players", "options"), SIM_CASES)
def test_games_and_states_pickle(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = load(game_id, players, **options)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and type(again) is type(game)
    assert again.max_game_length() == game.max_game_length()
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        _random_step(state, rng)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    same_game, same_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(same_game) == str(game) and str(same_state) == str(state)
    # The copies play on as the original does.
    for other in (copy, same_state):
        a, b = random.Random(9), random.Random(9)
        s1, s2 = state.clone(), other
        while not s1.is_terminal():
            _random_step(s1, a)
            _random_step(s2, b)
        assert str(s1) == str(s2) and s1.returns() == s2.returns()


def _random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    elif state.is_simultaneous_node():
        players = range(state.num_players())
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("game_id", "players", "options", "bound"),
    [
        ("caged-rats", 2, {"single_deal": True}, 66),
        ("caged-rats", 2, {"max_deals": 3}, 3 * 66),
        ("rats", 3, {"max_rounds": 2}, 2 * 52),
        ("rats", 2, {"jokers": 2, "max_rounds": 3}, 3 * 54),
        ("rat-a-tat-cat", 2, {"turn_cap": 4, "round_cap": 2}, 27 * 5 * 2),
        ("rat-a-tat-cat", 5, {"mode": "round", "turn_cap": 6}, 27 * 10),
        ("egyptian-ratscrew", 2, {}, 50_000),
    ],
)
def test_max_game_length_is_a_real_bound(
    game_id: str, players: int, options: dict[str, Any], bound: int
) -> None:
    """The bound follows from the rules and caps (ratgames.rl.bounds), and no random game goes
    past it (decisions counted as OpenSpiel counts them: chance steps apart, a tick one)."""
    game = load(game_id, players, **options)
    assert game.max_game_length() == bound
    rng = random.Random(11)
    games = 3 if game_id == "egyptian-ratscrew" else 25
    longest = 0
    for _ in range(games):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            decisions += not state.is_chance_node()
            _random_step(state, rng)
        assert state.move_number() >= decisions
        longest = max(longest, decisions)
    assert 0 < longest <= bound


def test_max_ticks_bounds_egyptian_ratscrew() -> None:
    game = pyspiel.load_game(short_name("egyptian-ratscrew"), {"max_ticks": 40})
    assert game.max_game_length() == 40
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        _random_step(state, rng)
    assert state.core.ticks_count == 40  # random play ends no game of 2 x 26 cards this soon


def test_bad_tick_parameters_are_refused() -> None:
    name = short_name("egyptian-ratscrew")
    with pytest.raises(ValueError, match="max_ticks must be a whole number of ticks from 1, not 0"):
        pyspiel.load_game(name, {"max_ticks": 0})
    with pytest.raises(ValueError, match=r"tick must be a positive number of seconds, not -0\.5"):
        pyspiel.load_game(name, {"tick": -0.5})


def test_every_game_with_an_encoder_and_a_deal_plan_is_registered_by_its_parts() -> None:
    from ratgames.core.registry import game_ids, game_parts
    from ratgames.rl import openspiel

    declared = [g for g in game_ids() if game_parts(g).encoder and game_parts(g).deal_plan]
    assert set(declared) <= set(openspiel.GAME_CLASSES)
    for game_id in declared:
        cls = openspiel.GAME_CLASSES[game_id]
        # module-level, so that games and states pickle
        assert getattr(openspiel, cls.__name__) is cls and cls.game_id == game_id
    assert openspiel.GAME_CLASSES["caged-rats"].__name__ == "CagedRatsGame"
