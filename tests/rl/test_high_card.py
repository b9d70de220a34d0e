"""The test game, High Card, gets the research environments from its own modules alone: its
encoder and deal plan are its parts (``ratgames.testing.PARTS``), and PettingZoo, Gymnasium and
OpenSpiel take it as they take a built-in game."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

import ratgames
from ratgames.core import registry
from ratgames.rl.deals import deal_plan_for
from ratgames.rl.encoding import encoder_for
from ratgames.rl.gymnasium import RatgamesEnv
from ratgames.rl.pettingzoo import env
from ratgames.rl.registration import gymnasium_ids
from ratgames.testing import HighCard, register_high_card

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(autouse=True)
def high_card() -> Iterator[None]:
    ratgames.game_ids()
    games, parts = dict(registry._GAMES), dict(registry._PARTS)
    register_high_card()
    yield
    registry._GAMES.clear()
    registry._GAMES.update(games)
    registry._PARTS.clear()
    registry._PARTS.update(parts)


def test_the_encoder_reads_every_position() -> None:
    game = ratgames.get_game(HighCard.id, players=3)
    enc = encoder_for(game)
    assert (enc.num_actions, enc.obs_size) == (10, 10 + 30 + 3 + 1)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        vec = enc.observe(state, seat)
        hand = state.observation(seat)["hand"]
        assert [i for i in range(10) if vec[i]] == hand
        assert vec[40 + 0] == 1.0  # "turn": the seat to play is the observer, counted from it
        legal = state.legal_actions(seat)
        ids = enc.next_ids(legal)
        assert ids == sorted(enc.action_ids(a)[0] for a in legal)
        state.apply(seat, enc.complete(legal, [rng.choice(ids)]))


def test_the_deal_plan_deals_what_the_game_deals() -> None:
    game = ratgames.get_game(HighCard.id)
    plan = deal_plan_for(game)
    chosen: list[int] = []
    rng = random.Random(2)
    while (outcomes := plan.outcomes(chosen)) is not None:
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        chosen.append(rng.choice([k for k, _ in outcomes]))
    deal = plan.deal(chosen)
    state = game.new_state(seed=0, deal=deal)
    assert state.initial_deal() == game.new_state(seed=0, deal=deal).initial_deal()
    assert sorted(state.cards()) == list(range(10))


def test_pettingzoo_api() -> None:
    api_test(env(HighCard.id, players=3), num_cycles=100)


def test_gymnasium_env_plays_a_game() -> None:
    assert gymnasium_ids()[HighCard.id] == "ratgames/TestHighCard-v0"
    e = RatgamesEnv(HighCard.id, opponents="random")
    _, info = e.reset(seed=1)
    done = False
    steps = 0
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = e.step(action)
        done = terminated or truncated
        steps += 1
    assert steps == 6 and reward in (-1.0, 0.0, 1.0)


def test_openspiel_random_simulation() -> None:
    from ratgames.rl.openspiel import GAME_CLASSES, load

    game = load(HighCard.id, 2, turns=14)  # long enough that the pile is reshuffled
    assert GAME_CLASSES[HighCard.id].__name__ == "TestHighCardGame"
    assert game.max_game_length() == 14
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
