"""The batched environments against the single ones: same seeds, same games, same arrays."""

from __future__ import annotations

import gc
from collections.abc import Callable

import numpy as np
import pytest

from ratgames.rl.encoding import EncodingError
from ratgames.rl.gymnasium import RatgamesEnv
from ratgames.rl.pettingzoo import env as aec_env
from ratgames.rl.vector import RatgamesVectorEnv, SelfPlayBatch

TURN_BASED = [
    ("caged-rats", 2, {"single_deal": True}),
    ("rats", 3, {"max_rounds": 1}),
    ("rats", 2, {"max_rounds": 1, "jokers": 2}),
    ("rat-a-tat-cat", 3, {"mode": "round"}),
]


def _pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(("game_id", "players", "options"), TURN_BASED)
def test_self_play_batch_matches_the_aec_environment(
    game_id: str, players: int, options: dict[str, object]
) -> None:
    n, seed = 3, 11
    batch = SelfPlayBatch(game_id, n, players, options, all_seats=True)
    batch.reset(seed=seed)
    singles = [aec_env(game_id, players=players, options=options) for _ in range(n)]
    for g, e in enumerate(singles):
        e.reset(seed=seed + g)
    games_ended = [0] * n
    rng = np.random.default_rng(0)
    for _ in range(400):
        for g, e in enumerate(singles):
            seat = int(batch.to_act[g])
            assert e.agent_selection == f"player_{seat}"
            obs = e.observe(e.agent_selection)
            np.testing.assert_array_equal(batch.obs[g], obs["observation"])
            np.testing.assert_array_equal(batch.masks[g], obs["action_mask"])
            for s in range(players):
                np.testing.assert_array_equal(
                    batch.seat_obs[g, s], e.observe(f"player_{s}")["observation"]
                )
        actions = np.array([_pick(rng, batch.masks[g]) for g in range(n)])
        batch.step(actions)
        for g, e in enumerate(singles):
            e.step(int(actions[g]))
            if all(e.terminations.values()):
                assert batch.terminated[g]
                for s in range(players):
                    assert batch.rewards[g, s] == pytest.approx(e.rewards[f"player_{s}"])
                games_ended[g] += 1
                e.reset(seed=seed + g + games_ended[g] * n)
            else:
                assert not batch.terminated[g]
                assert not batch.rewards[g].any()
    assert sum(games_ended) >= 2


def test_self_play_rewards_are_zero_sum_and_games_restart() -> None:
    batch = SelfPlayBatch("caged-rats", 4, options={"single_deal": True})
    batch.reset(seed=3)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        batch.step(np.array([_pick(rng, m) for m in batch.masks]))
        finished += int(batch.terminated.sum())
        assert np.allclose(batch.rewards.sum(axis=1), 0.0)
        assert (batch.masks.sum(axis=1) > 0).all()
    assert finished > 0


def test_self_play_refuses_bad_actions_and_changes_nothing() -> None:
    batch = SelfPlayBatch("caged-rats", 2)
    batch.reset(seed=0)
    before = batch.obs.copy()
    illegal = int(np.flatnonzero(batch.masks[1] == 0)[0])
    good = _pick(np.random.default_rng(0), batch.masks[0])
    with pytest.raises(EncodingError, match=f"game 1: id {illegal} is not legal now"):
        batch.step(np.array([good, illegal]))
    with pytest.raises(EncodingError, match="one per game"):
        batch.step(np.array([good]))
    np.testing.assert_array_equal(batch.obs, before)
    with pytest.raises(ValueError, match="num_games must be a whole number of at least 1"):
        SelfPlayBatch("caged-rats", 0)
    with pytest.raises(ValueError, match="played in ticks"):
        SelfPlayBatch("egyptian-ratscrew", 2)


def test_self_play_truncates_at_max_steps() -> None:
    batch = SelfPlayBatch("rats", 2, players=2, max_steps=5)
    batch.reset(seed=0)
    rng = np.random.default_rng(0)
    for step in range(1, 11):
        batch.step(np.array([_pick(rng, m) for m in batch.masks]))
        assert batch.truncated.all() == (step % 5 == 0)


VECTOR = [
    ("caged-rats", 2, {"single_deal": True}, "heuristic"),
    ("caged-rats", 2, {"single_deal": True}, "random"),
    ("rats", 2, {"max_rounds": 1, "jokers": 1}, "random"),
    ("rat-a-tat-cat", 2, {"mode": "round"}, "heuristic"),
    ("rat-a-tat-cat", 3, {"mode": "round"}, "random"),
    ("egyptian-ratscrew", 2, {}, "heuristic"),
    ("egyptian-ratscrew", 2, {}, "random"),
]
"""Against random bots the vector environment's games keep no event log (the single
environments keep theirs), against heuristic bots they keep it."""


@pytest.mark.parametrize(("game_id", "players", "options", "bots"), VECTOR)
def test_vector_env_matches_the_gymnasium_environment(
    game_id: str, players: int, options: dict[str, object], bots: str
) -> None:
    n, seed = 2, 5
    venv = RatgamesVectorEnv(game_id, n, players, options, opponents=bots, seat=1, max_steps=300)
    singles = [
        RatgamesEnv(game_id, players, options, opponents=bots, seat=1, max_steps=300)
        for _ in range(n)
    ]
    obs, info = venv.reset(seed=seed)
    single = [e.reset(seed=seed + i) for i, e in enumerate(singles)]
    rng = np.random.default_rng(2)
    ends = 0
    for _ in range(600):
        for i in range(n):
            np.testing.assert_array_equal(obs[i], single[i][0])
            np.testing.assert_array_equal(info["action_mask"][i], single[i][1]["action_mask"])
        actions = np.array([_pick(rng, info["action_mask"][i]) for i in range(n)])
        obs, rewards, terms, truncs, info = venv.step(actions)
        for i, e in enumerate(singles):
            o, r, term, trunc, inf = e.step(actions[i])
            assert (float(rewards[i]), bool(terms[i]), bool(truncs[i])) == (r, term, trunc)
            if term or trunc:
                ends += 1
                np.testing.assert_array_equal(info["final_obs"][i], o)
                single[i] = e.reset()
            else:
                single[i] = (o, inf)
    assert ends >= 2


ALL_GAMES = [*TURN_BASED, ("egyptian-ratscrew", 2, {})]


@pytest.mark.parametrize(("game_id", "players", "options"), ALL_GAMES)
def test_batched_games_drop_their_event_logs_only_where_nothing_reads_them(
    game_id: str, players: int, options: dict[str, object]
) -> None:
    """The self-play batch and the vector environment against random bots play games that
    keep no event log but count their events (the tests above compare their vectors, masks and
    rewards with the single environments', which keep the log); against bots that may read
    the events, the vector environment's games keep it."""
    rng = np.random.default_rng(4)
    batches: list[tuple[object, bool]] = []
    if game_id != "egyptian-ratscrew":
        batch = SelfPlayBatch(game_id, 2, players, options)
        batch.reset(seed=1)
        for _ in range(30):
            batch.step(np.array([_pick(rng, m) for m in batch.masks]))
        batches.append((batch, False))
    for bots, kept in (("random", False), ("heuristic", True)):
        venv = RatgamesVectorEnv(game_id, 2, players, options, opponents=bots)
        _, info = venv.reset(seed=1)
        for _ in range(30):
            info = venv.step(np.array([_pick(rng, m) for m in info["action_mask"]]))[4]
        batches.append((venv, kept))
    for b, kept in batches:
        for state in b._states:  # type: ignore[attr-defined]
            assert state._keep_events is kept
            if not kept:
                assert state._event_log is None
            assert state.event_count > 0


def test_vector_env_passes_gymnasiums_checks() -> None:
    import gymnasium as gym

    venv = RatgamesVectorEnv("caged-rats", 3, options={"single_deal": True}, opponents="random")
    assert isinstance(venv, gym.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    obs, _ = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    assert venv.action_masks().shape == (3, 860)
    with pytest.raises(EncodingError, match="environment 0: id 859 is not legal now"):
        venv.step(np.array([859, 0, 0]))


@pytest.mark.parametrize(("game_id", "players", "options"), ALL_GAMES)
def test_batches_make_no_cyclic_garbage(
    game_id: str, players: int, options: dict[str, object]
) -> None:
    """A batch's step places what it leaves straight in the collector's oldest generation,
    where only the rare full passes look: that is sound only while its games leave no cycles
    for the collector to free (refcounting frees all they drop)."""
    rng = np.random.default_rng(5)
    runs: list[Callable[[], object]] = []
    if game_id != "egyptian-ratscrew":
        batch = SelfPlayBatch(game_id, 4, players, options)
        batch.reset(seed=2)
        runs.append(lambda: batch.step(np.array([_pick(rng, m) for m in batch.masks])))
    venv = RatgamesVectorEnv(game_id, 4, players, options, opponents="random")
    _, info = venv.reset(seed=2)
    masks = [info["action_mask"]]
    runs.append(
        lambda: masks.append(
            venv.step(np.array([_pick(rng, m) for m in masks[-1]]))[4]["action_mask"]
        )
    )
    for run in runs:
        gc.collect()
        gc.disable()
        try:
            for _ in range(300):
                run()
            assert gc.collect() == 0
        finally:
            gc.enable()


def test_batches_leave_the_collector_as_they_found_it() -> None:
    """On or off, its thresholds, and what someone else set aside with ``gc.freeze`` stays so."""
    batch = SelfPlayBatch("caged-rats", 2, options={"single_deal": True})
    batch.reset(seed=0)
    rng = np.random.default_rng(0)
    thresholds = gc.get_threshold()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    batch.step(np.array([_pick(rng, m) for m in batch.masks]))
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert gc.get_threshold() == thresholds
    gc.disable()
    try:
        batch.step(np.array([_pick(rng, m) for m in batch.masks]))
        assert not gc.isenabled()
    finally:
        gc.enable()
    kept = [[k] for k in range(100)]
    gc.freeze()
    try:
        assert gc.get_freeze_count() > 0
        batch.step(np.array([_pick(rng, m) for m in batch.masks]))
        assert gc.get_freeze_count() > 0  # not unfrozen (some set aside were freed since)
        assert gc.isenabled()
    finally:
        gc.unfreeze()
    assert kept
