"""OpenSpiel: every game passes OpenSpiel's random simulation test with serialization, has the
right game type, and resamples from a player's information state."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import ratgames
from ratgames.rl.deals import DealPlan
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
    plan = DealPlan(game)
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
    plan = DealPlan(game)
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
