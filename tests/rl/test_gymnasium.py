"""Gymnasium: every game passes Gymnasium's env checker with ratgames bots in the other seats."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ratgames
from ratgames.core.bots import make_bot
from ratgames.rl.encoding import EncodingError
from ratgames.rl.gymnasium import RatgamesEnv
from ratgames.rl.table import Ticks

CASES = [
    ("caged-rats", {}),
    ("rats", {"players": 3, "options": {"jokers": 2}}),
    ("rat-a-tat-cat", {"players": 3, "opponents": ["heuristic", "random"]}),
    ("egyptian-ratscrew", {"players": 2, "max_steps": 3000}),
]


@pytest.mark.parametrize(("game_id", "kwargs"), CASES)
def test_check_env(game_id: str, kwargs: dict[str, Any]) -> None:
    check_env(RatgamesEnv(game_id, **kwargs), skip_render_check=True)


@pytest.mark.parametrize(("game_id", "kwargs"), CASES)
def test_whole_episode(game_id: str, kwargs: dict[str, Any]) -> None:
    env = RatgamesEnv(game_id, **kwargs)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(1)
    total = 0.0
    for _ in range(20_000):
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        total += float(reward)
        if term or trunc:
            break
    assert term or trunc
    if term:
        assert total in (-1.0, -0.5, 0.0, 0.5, 1.0) and not info.get("illegal")


def test_same_seed_same_episode() -> None:
    def run() -> list[float]:
        env = RatgamesEnv("rats", players=2)
        obs, info = env.reset(seed=9)
        out = [float(obs.sum())]
        for _ in range(30):
            obs, _, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            out.append(float(obs.sum()))
            if term:
                break
        return out

    assert run() == run()


def test_illegal_id() -> None:
    env = RatgamesEnv("caged-rats")
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(bad)
    assert reward == -1.0 and term and info["illegal"]
    strict = RatgamesEnv("caged-rats", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(EncodingError):
        strict.step(bad)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        RatgamesEnv("rats", players=3, opponents=["heuristic"])
    with pytest.raises(ValueError):
        RatgamesEnv("rats", seat=7)
    with pytest.raises(ratgames.UnknownNameError):
        RatgamesEnv("rats", opponents="nobody")


def test_bot_delays_become_ticks() -> None:
    game = ratgames.get_game("egyptian-ratscrew", players=2)
    tick = 0.1
    bots = {s: make_bot(game, "heuristic:level=perfect,play_ms=450", seed=s) for s in (0, 1)}
    ticks = Ticks(game, tick=tick, bots=bots)
    ticks.reset(seed=3)
    for _ in range(400):
        if ticks.is_over():
            break
        ticks.step({})
    times = [e[3] for e in ticks.state.events() if e[0] == "action"]
    assert len(times) > 30
    # Every action lands on a tick; a play paced 360-540 ms arrives 4-6 ticks after the last.
    assert all(math.isclose(t / tick, round(t / tick)) for t in times)
    assert times[0] in (0.4, 0.5, 0.6)


GYM_CASES = [
    ("ratgames/CagedRats-v0", "caged-rats", {"options": {"single_deal": True}}),
    ("ratgames/Rats-v0", "rats", {"players": 3, "options": {"jokers": 1}}),
    ("ratgames/RatATatCat-v0", "rat-a-tat-cat", {"players": 4, "opponents": "random"}),
    ("ratgames/EgyptianRatscrew-v0", "egyptian-ratscrew", {"players": 2, "max_steps": 2000}),
]


@pytest.mark.parametrize(("env_id", "game_id", "kwargs"), GYM_CASES)
def test_gym_make(env_id: str, game_id: str, kwargs: dict[str, Any]) -> None:
    import gymnasium as gym

    env = gym.make(env_id, **kwargs)
    assert env.spec is not None and env.spec.id == env_id
    inner = env.unwrapped
    assert isinstance(inner, RatgamesEnv) and inner.game.id == game_id
    assert inner.game.players == kwargs.get("players", inner.game.players)
    assert inner.game.options == ratgames.get_game(game_id, **_game_kwargs(kwargs)).options
    check_env(inner, skip_render_check=True)
    # The wrapped environment (with Gymnasium's checker and order enforcing) plays a whole
    # episode the same way from the same seed.
    episodes = []
    for _ in range(2):
        _, info = env.reset(seed=12)
        rng = np.random.default_rng(0)
        rewards = []
        while True:
            _, reward, term, trunc, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
            rewards.append(float(reward))
            if term or trunc:
                break
        episodes.append(rewards)
    assert episodes[0] == episodes[1] and len(episodes[0]) > 3
    env.close()


def _game_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if k in ("players", "options")}


def _run(code: str) -> str:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_registers_without_importing_gymnasium() -> None:
    """`import ratgames.rl` (which every ratgames command does through its plugin) leaves
    Gymnasium unimported, and the ids are there once it is imported."""
    out = _run(
        "import sys, ratgames.rl\n"
        "print('gymnasium' in sys.modules)\n"
        "import gymnasium as gym\n"
        "print(sorted(i for i in gym.registry if i.startswith('ratgames/')))\n"
        "print(gym.make('ratgames/Rats-v0', players=4).unwrapped.game.players)"
    )
    assert out.splitlines() == [
        "False",
        "['ratgames/CagedRats-v0', 'ratgames/EgyptianRatscrew-v0', 'ratgames/RatATatCat-v0',"
        " 'ratgames/Rats-v0']",
        "4",
    ]


def test_gymnasium_module_form_needs_no_import() -> None:
    out = _run(
        "import gymnasium as gym\n"
        "env = gym.make('ratgames.rl:ratgames/CagedRats-v0')\n"
        "print(env.reset(seed=1)[0].shape)"
    )
    assert out == "(493,)"
