"""Fictitious self-play in numpy alone, over :class:`ratgames.rl.vector.SelfPlayBatch`.

For imperfect-information games a policy that beats one fixed bot can be beaten in turn;
fictitious play aims at the average of the policies played so far instead.  Here (as in PSRO
with a uniform meta-strategy, and in the spirit of NFSP's average policy) the learner is trained
with PPO as a best response to a *pool* of its own earlier snapshots: every game of the batch
seats the learner in one seat (game ``g`` in seat ``g mod players``) and, in every other seat,
a snapshot drawn uniformly from the pool when the game starts.  Every ``snapshot_every``
updates the learner's current weights join the pool.  The policy returned is the last learner;
the pool's mixture is the average strategy.

Only whole games are learned from: a game's decisions wait until it ends (its reward is the
learner's final reward), so advantages need no bootstrapping across updates.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ratgames.rl.vector import SelfPlayBatch

from .network import Adam, Network, masked_softmax, one_blas_thread
from .ppo import PpoConfig, Progress, initial_network, ppo_epochs, sample


@dataclass
class SelfPlayConfig(PpoConfig):
    """A PPO configuration plus the pool's settings (``opponents`` is unused)."""

    snapshot_every: int = 5
    pool_size: int = 20


def _copy(net: Network) -> Network:
    twin = Network(net.obs_size, net.num_actions, net.hidden)
    twin.params = {k: v.copy() for k, v in net.params.items()}
    return twin


def train_selfplay(
    config: SelfPlayConfig, on_update: Callable[[Progress], None] | None = None
) -> tuple[Network, list[Progress]]:
    """Train by fictitious self-play (see the module docstring); ``win_rate`` in the progress is
    the learner's against the pool."""
    with one_blas_thread():
        return _train_selfplay(config, on_update)


def _train_selfplay(
    config: SelfPlayConfig, on_update: Callable[[Progress], None] | None
) -> tuple[Network, list[Progress]]:
    rng = np.random.default_rng(config.seed)
    batch = SelfPlayBatch(config.game, config.envs, config.players, config.options)
    batch.reset(seed=config.seed * 1_000_003)
    enc = batch.encoder
    net = initial_network(config, batch.game, enc.obs_size, enc.num_actions)
    opt = Adam(net.params, lr=config.lr)
    pool = [_copy(net)]
    E, P = config.envs, batch.players
    learner_seat = np.arange(E) % P
    opponent = rng.integers(0, len(pool), size=E)
    # the decisions of each game in progress: obs, mask, action, logp, value
    open_games: list[list[tuple[Any, ...]]] = [[] for _ in range(E)]
    per_update = config.horizon * E
    history: list[Progress] = []
    steps = 0
    start = time.perf_counter()
    update = 0
    while steps < config.steps:
        update += 1
        done_games: list[tuple[list[tuple[Any, ...]], float]] = []
        collected = 0
        while collected < per_update:
            mine = batch.to_act == learner_seat
            actions = np.zeros(E, dtype=np.int64)
            if mine.any():
                rows = np.flatnonzero(mine)
                logits, values, _ = net.forward(batch.obs[rows])
                probs, logp = masked_softmax(logits, batch.masks[rows])
                picked = sample(probs, rng)
                actions[rows] = picked
                for j, g in enumerate(rows):
                    a = picked[j]
                    open_games[g].append(
                        (batch.obs[g].copy(), batch.masks[g].copy(), a, logp[j, a], values[j])
                    )
                collected += len(rows)
            for k in np.unique(opponent[~mine]):
                rows = np.flatnonzero(~mine & (opponent == k))
                logits, _, _ = pool[k].forward(batch.obs[rows])
                probs, _ = masked_softmax(logits, batch.masks[rows])
                actions[rows] = sample(probs, rng)
            batch.step(actions)
            for g in np.flatnonzero(batch.terminated | batch.truncated):
                if open_games[g]:
                    done_games.append((open_games[g], float(batch.rewards[g, learner_seat[g]])))
                open_games[g] = []
                opponent[g] = rng.integers(0, len(pool))
        obs, masks, acts, logps, advs, rets = [], [], [], [], [], []
        for game, reward in done_games:
            values = np.array([d[4] for d in game], dtype=np.float32)
            adv = np.zeros(len(game), dtype=np.float32)
            gae = 0.0
            for t in reversed(range(len(game))):
                nxt = values[t + 1] if t + 1 < len(game) else 0.0
                r = reward if t == len(game) - 1 else 0.0
                delta = r + config.gamma * nxt - values[t]
                gae = delta + config.gamma * config.lam * gae
                adv[t] = gae
            for d in game:
                obs.append(d[0])
                masks.append(d[1])
                acts.append(d[2])
                logps.append(d[3])
            advs.append(adv)
            rets.append(adv + values)
        steps += collected
        entropies: list[float] = []
        vlosses: list[float] = []
        if done_games:
            f_obs, f_mask = np.array(obs), np.array(masks)
            f_act = np.array(acts, dtype=np.int64)
            f_logp = np.array(logps, dtype=np.float32)
            f_adv, f_ret = np.concatenate(advs), np.concatenate(rets)
            entropies, vlosses = ppo_epochs(
                net, opt, config, rng, f_obs, f_mask, f_act, f_logp, f_adv, f_ret
            )
        if update % config.snapshot_every == 0:
            pool.append(_copy(net))
            if len(pool) > config.pool_size:
                pool.pop(1)  # keep the first (random-like) policy and the latest ones
        finished = [r for _, r in done_games]
        progress = Progress(
            update=update,
            steps=steps,
            seconds=round(time.perf_counter() - start, 2),
            games=len(finished),
            mean_return=float(np.mean(finished)) if finished else float("nan"),
            win_rate=float(np.mean([r > 0 for r in finished])) if finished else float("nan"),
            entropy=float(np.mean(entropies)) if entropies else float("nan"),
            value_loss=float(np.mean(vlosses)) if vlosses else float("nan"),
        )
        history.append(progress)
        if on_update is not None:
            on_update(progress)
    return net, history
