"""PettingZoo: every game passes PettingZoo's own API and seed tests; Egyptian Ratscrew's ticks
pass the parallel API test."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

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
    e = env("caged-rats", illegal="raise")
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


PARALLEL = [
    *[("egyptian-ratscrew", n) for n in range(2, 9)],
    ("caged-rats", 2),
    *[("rats", n) for n in range(2, 6)],
    *[("rat-a-tat-cat", n) for n in range(2, 7)],
]


@pytest.mark.parametrize(("game_id", "players"), PARALLEL)
def test_parallel_seed(game_id: str, players: int) -> None:
    """PettingZoo's parallel seed test samples ids without the mask: an id outside it ends the
    game as PettingZoo's classic games do, the same way from the same seed."""
    parallel_seed_test(lambda: parallel_env(game_id, players=players), num_cycles=100)


@pytest.mark.parametrize(("game_id", "kwargs"), CASES[:3])
def test_parallel_turn_based_plays_as_the_aec_game(game_id: str, kwargs: dict[str, Any]) -> None:
    """In a turn-based game only the agent to act chooses; what the others send is ignored.
    The same ids give the same game as the AEC environment."""
    par = parallel_env(game_id, **kwargs)
    aec = env(game_id, **kwargs)
    obs, _ = par.reset(seed=9)
    aec.reset(seed=9)
    rng = np.random.default_rng(4)
    steps = 0
    while par.agents:
        acting = [a for a, o in obs.items() if o["action_mask"].any()]
        assert acting == [aec.agent_selection]
        mine = int(rng.choice(np.flatnonzero(obs[acting[0]]["action_mask"])))
        others = {a: int(rng.integers(aec.encoder.num_actions)) for a in par.agents}
        obs, rewards, terms, _, _ = par.step({**others, acting[0]: mine})
        aec.step(mine)
        steps += 1
        assert par.state_.snapshot() == aec.state_.snapshot()
    assert steps > 10 and all(terms.values())
    assert rewards == {a: aec.rewards[a] for a in aec.possible_agents}
    assert abs(sum(rewards.values())) < 1e-9
    parallel_api_test(parallel_env(game_id, **kwargs), num_cycles=100)


def test_parallel_turn_based_needs_the_acting_agent() -> None:
    e = parallel_env("rats", players=3)
    obs, _ = e.reset(seed=1)
    acting = next(a for a, o in obs.items() if o["action_mask"].any())
    others = {a: 0 for a in e.agents if a != acting}
    with pytest.raises(EncodingError, match=f"{acting} is to act"):
        e.step(others)


@pytest.mark.parametrize("players", [2, 5])
def test_parallel_same_seed_same_game_with_masks(players: int) -> None:
    def run() -> list[Any]:
        e = parallel_env(players=players, options={"jokers": 2}, max_steps=400)
        obs, _ = e.reset(seed=4)
        rng = np.random.default_rng(1)
        seen = []
        while e.agents:
            acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
            obs, rewards, *_ = e.step(acts)
            seen.append((acts, rewards, e.ticks.state.snapshot()))
        return seen

    first = run()
    assert len(first) > 20 and first == run()


@pytest.mark.parametrize(("game_id", "kwargs"), CASES)
def test_id_outside_the_mask_loses(game_id: str, kwargs: dict[str, Any]) -> None:
    e = env(game_id, **kwargs)
    e.reset(seed=3)
    obs, *_ = e.last()
    while obs["action_mask"].all():  # Egyptian Ratscrew: the agent to play may do anything
        e.step(0)
        obs, *_ = e.last()
    agent = e.agent_selection
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards == {a: -1.0 if a == agent else 0.0 for a in e.possible_agents}
    assert e.infos[agent]["illegal"] is True
    for a in e.agent_iter():
        _, reward, term, _, _ = e.last()
        assert term and reward == (-1.0 if a == agent else 0.0)
        e.step(None)
    assert e.agents == []
    with pytest.raises(EncodingError, match="not an action id"):
        e.reset(seed=3)
        e.step(10**6)


def test_parallel_id_outside_the_mask_loses() -> None:
    e = parallel_env(players=3)
    obs, _ = e.reset(seed=2)
    assert not obs["player_1"]["action_mask"][1]  # not player_1's turn to play
    _, rewards, terms, truncs, infos = e.step({"player_0": 0, "player_1": 1, "player_2": 0})
    assert rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}
    assert all(terms.values()) and not any(truncs.values()) and e.agents == []
    assert infos["player_1"] == {"illegal": True} and infos["player_0"] == {}
    e = parallel_env(players=3, illegal="raise")
    e.reset(seed=2)
    before = e.ticks.state.snapshot()
    with pytest.raises(EncodingError, match="may not choose move"):
        e.step({"player_0": 0, "player_1": 1, "player_2": 0})
    assert e.ticks.state.snapshot() == before
    with pytest.raises(ValueError, match="illegal must be 'lose' or 'raise'"):
        parallel_env(illegal="ignore")


@pytest.mark.parametrize(("game_id", "kwargs"), CASES)
def test_state_is_every_seat_view(game_id: str, kwargs: dict[str, Any]) -> None:
    e = env(game_id, **kwargs)
    e.reset(seed=6)
    rng = np.random.default_rng(2)
    for _ in range(12):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = e.state()
    n = len(e.possible_agents)
    assert e.state_space.shape == (n * e.encoder.obs_size,) and e.state_space.contains(state)
    views = [e.observe(a)["observation"] for a in e.possible_agents]
    assert np.array_equal(state, np.concatenate(views))


def test_state_holds_every_hand() -> None:
    e = env("caged-rats")
    e.reset(seed=1)
    enc = e.encoder
    lo, hi = enc.layout.offsets["hand"]
    state = e.state()
    size = enc.obs_size
    for seat in range(2):
        got = set(np.flatnonzero(state[seat * size + lo : seat * size + hi]))
        want = {enc.card(t) for t in e.state_.observation(seat)["hand"]}
        assert got == want and len(want) == 8
    p = parallel_env(players=2)
    p.reset(seed=1)
    assert p.state_space.contains(p.state())
    assert np.array_equal(p.state(), np.concatenate([p.ticks.observe(s) for s in range(2)]))


@pytest.mark.parametrize(("game_id", "kwargs"), CASES)
def test_flatten_gives_boxes_with_the_mask_in_info(game_id: str, kwargs: dict[str, Any]) -> None:
    flat = env(game_id, flatten=True, **kwargs)
    plain = env(game_id, **kwargs)
    space = flat.observation_space("player_0")
    assert isinstance(space, spaces.Box) and space.shape == (flat.encoder.obs_size,)
    flat.reset(seed=8)
    plain.reset(seed=8)
    rng = np.random.default_rng(3)
    for _ in range(40):
        if not flat.agents:
            break
        obs, _, term, trunc, info = flat.last()
        want, *_ = plain.last()
        assert space.contains(obs) and np.array_equal(obs, want["observation"])
        assert np.array_equal(info["action_mask"], want["action_mask"])
        for a in flat.agents:  # every agent's info holds its mask now
            assert np.array_equal(flat.infos[a]["action_mask"], plain.observe(a)["action_mask"])
        action = None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"])))
        flat.step(action)
        plain.step(action)
    api_test(env(game_id, flatten=True, **kwargs), num_cycles=100)
    seed_test(lambda: env(game_id, flatten=True, **kwargs), num_cycles=40)


def test_flatten_parallel() -> None:
    e = parallel_env(players=4, flatten=True)
    obs, infos = e.reset(seed=5)
    box = e.observation_space("player_0")
    assert isinstance(box, spaces.Box)
    assert all(box.contains(o) for o in obs.values())
    assert all(i["action_mask"].shape == (3,) for i in infos.values())
    parallel_api_test(parallel_env(players=3, flatten=True), num_cycles=100)
    parallel_seed_test(lambda: parallel_env(players=3, flatten=True), num_cycles=50)
    with pytest.raises(ValueError, match="flatten must be True or False"):
        env("rats", flatten="yes")
