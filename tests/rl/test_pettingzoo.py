"""PettingZoo: every game passes PettingZoo's own API and seed tests; Egyptian Ratscrew's ticks
pass the parallel API test."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from ratgames.rl.encoding import EncodingError
from ratgames.rl.pettingzoo import env, parallel_env

CASES = [
    ("caged-rats", {}),
    ("rats", {"players": 3, "options": {"jokers": 2}}),
    ("rat-a-tat-cat", {"players": 3}),
    ("egyptian-ratscrew", {"players": 3}),
]

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("game_id", "kwargs"), CASES)
def test_api(game_id: str, kwargs: dict[str, Any]) -> None:
    api_test(env(game_id, **kwargs), num_cycles=200)


@pytest.mark.parametrize(("game_id", "kwargs"), CASES)
def test_seed(game_id: str, kwargs: dict[str, Any]) -> None:
    seed_test(lambda: env(game_id, **kwargs), num_cycles=60)


def test_parallel_api() -> None:
    parallel_api_test(parallel_env(players=3), num_cycles=300)


def test_whole_game_rewards_and_render() -> None:
    e = env("rats", players=2, render_mode="ansi")
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    steps = 0
    finals = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            finals[agent] = reward
            e.step(None)
            continue
        assert obs["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 10
    assert sorted(finals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    winners = e.state_.outcome().winners
    assert all(finals[f"player_{s}"] > 0 for s in winners) or len(winners) == 2
    text = e.render()
    assert isinstance(text, str) and "Rats" in text


def test_illegal_id_is_refused_and_changes_nothing() -> None:
    e = env("caged-rats")
    e.reset(seed=2)
    obs, *_ = e.last()
    before = e.state_.snapshot()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(EncodingError):
        e.step(illegal)
    assert e.state_.snapshot() == before


def test_ticks_time_and_truncation() -> None:
    e = parallel_env(players=2, tick=0.25, max_steps=5)
    obs, _ = e.reset(seed=1)
    for _ in range(5):
        acts = {a: 1 if o["action_mask"][1] else 0 for a, o in obs.items()}
        obs, _, terms, truncs, _ = e.step(acts)
    assert all(truncs.values()) and not any(terms.values()) and e.agents == []
    # The first play came at the first tick (0.25 s), the next ones a tick apart.
    times = [entry[3] for entry in e.ticks.state.events() if entry[0] == "action"]
    assert times[:2] == [0.25, 0.5]
