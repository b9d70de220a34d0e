"""Masked PPO in numpy alone, over :class:`ratgames.rl.vector.RatgamesVectorEnv`.

One policy learns every seat against ratgames bots (``envs`` games split evenly among the
seats).  Each update collects ``horizon`` steps of every one of
``envs`` games (same-step autoreset), computes advantages with GAE (the reward comes at the end
of a game, so ``gamma`` is 1 unless given), then runs ``epochs`` passes of minibatch PPO with the
clipped objective, a value loss and an entropy bonus over the legal ids only.

The whole run is fixed by its seed: the network's initial weights, the games' seeds, the
bots' seeds and every sampled action.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

import ratgames
from ratgames.rl.vector import RatgamesVectorEnv

from .network import Adam, Network, masked_softmax, one_blas_thread


@dataclass
class PpoConfig:
    """Everything that decides a PPO run (saved with the weights)."""

    game: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    opponents: str = "random"
    steps: int = 200_000
    envs: int = 32
    horizon: int = 64
    epochs: int = 4
    minibatches: int = 4
    lr: float = 3e-4
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    hidden: tuple[int, ...] = (128, 128)
    seed: int = 0
    init: str | None = None
    """Weights to start from (a file ``ratgames train`` wrote for the same game), or None."""


@dataclass
class Progress:
    """One update's figures, as the learning curve keeps them."""

    update: int
    steps: int
    seconds: float
    games: int
    mean_return: float
    win_rate: float
    entropy: float
    value_loss: float


def sample(probs: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """One id per row, drawn from each row's probabilities."""
    cum = probs.cumsum(axis=1)
    u = rng.random(len(probs))[:, None] * cum[:, -1:]
    picked = (cum <= u).sum(axis=1)
    out: np.ndarray[Any, Any] = np.minimum(picked, probs.shape[1] - 1).astype(np.int64)
    return out


def initial_network(config: PpoConfig, game: Any, obs_size: int, num_actions: int) -> Network:
    """The network a run starts from: ``config.init``'s weights (a copy), or fresh ones."""
    if config.init is None:
        return Network(obs_size, num_actions, config.hidden, seed=config.seed)
    from .policy import load_policy

    loaded = load_policy(config.init, game)
    net = Network(loaded.obs_size, loaded.num_actions, loaded.hidden)
    net.params = {k: v.copy() for k, v in loaded.params.items()}  # the loaded one is shared
    config.hidden = loaded.hidden
    return net


class _SeatsEnv:
    """One vector environment per seat, the learner's games split evenly among the seats (so the
    policy learns every seat), stepped as one batch."""

    def __init__(self, config: PpoConfig) -> None:
        game = ratgames.get_game(config.game, players=config.players, options=config.options)
        n = game.players
        if config.envs % n:
            raise ValueError(
                f"envs must be a multiple of the {n} players (the games are split among the "
                f"seats), not {config.envs}"
            )
        self.envs = [
            RatgamesVectorEnv(
                config.game,
                config.envs // n,
                config.players,
                config.options,
                opponents=config.opponents,
                seat=s,
            )
            for s in range(n)
        ]
        self.encoder = self.envs[0].encoder
        self.game = game
        self.size = config.envs // n

    def reset(self, seed: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        got = [e.reset(seed=seed + 7919 * s) for s, e in enumerate(self.envs)]
        return np.concatenate([o for o, _ in got]), np.concatenate(
            [i["action_mask"] for _, i in got]
        )

    def step(self, actions: np.ndarray[Any, Any]) -> tuple[Any, Any, Any, Any]:
        k = self.size
        got = [e.step(actions[s * k : (s + 1) * k]) for s, e in enumerate(self.envs)]
        obs = np.concatenate([g[0] for g in got])
        masks = np.concatenate([g[4]["action_mask"] for g in got])
        rewards = np.concatenate([g[1] for g in got])
        done = np.concatenate([g[2] | g[3] for g in got])
        return obs, masks, rewards, done


def train(
    config: PpoConfig, on_update: Callable[[Progress], None] | None = None
) -> tuple[Network, list[Progress]]:
    """Train a policy; ``on_update`` is told every update's progress."""
    with one_blas_thread():
        return _train(config, on_update)


def _train(
    config: PpoConfig, on_update: Callable[[Progress], None] | None
) -> tuple[Network, list[Progress]]:
    rng = np.random.default_rng(config.seed)
    env = _SeatsEnv(config)
    enc = env.encoder
    net = initial_network(config, env.game, enc.obs_size, enc.num_actions)
    opt = Adam(net.params, lr=config.lr)
    obs, masks = env.reset(seed=config.seed * 1_000_003)
    E, T = config.envs, config.horizon
    buf_obs = np.zeros((T, E, enc.obs_size), dtype=np.float32)
    buf_mask = np.zeros((T, E, enc.num_actions), dtype=np.int8)
    buf_act = np.zeros((T, E), dtype=np.int64)
    buf_logp = np.zeros((T, E), dtype=np.float32)
    buf_val = np.zeros((T, E), dtype=np.float32)
    buf_rew = np.zeros((T, E), dtype=np.float32)
    buf_done = np.zeros((T, E), dtype=np.float32)
    history: list[Progress] = []
    steps = 0
    start = time.perf_counter()
    update = 0
    while steps < config.steps:
        update += 1
        finished: list[float] = []
        for t in range(T):
            buf_obs[t] = obs
            buf_mask[t] = masks
            logits, values, _ = net.forward(obs)
            probs, logp = masked_softmax(logits, masks)
            actions = sample(probs, rng)
            buf_act[t] = actions
            buf_logp[t] = logp[np.arange(E), actions]
            buf_val[t] = values
            obs, masks, rewards, done = env.step(actions)
            buf_rew[t] = rewards
            buf_done[t] = done
            finished.extend(float(r) for r in rewards[done])
        steps += T * E
        _, last_values, _ = net.forward(obs)
        adv = np.zeros((T, E), dtype=np.float32)
        gae = np.zeros(E, dtype=np.float32)
        for t in reversed(range(T)):
            nxt = last_values if t == T - 1 else buf_val[t + 1]
            live = 1.0 - buf_done[t]
            delta = buf_rew[t] + config.gamma * nxt * live - buf_val[t]
            gae = delta + config.gamma * config.lam * live * gae
            adv[t] = gae
        ret = adv + buf_val
        n = T * E
        f_obs = buf_obs.reshape(n, -1)
        f_mask = buf_mask.reshape(n, -1)
        f_act, f_logp = buf_act.reshape(n), buf_logp.reshape(n)
        f_adv, f_ret = adv.reshape(n), ret.reshape(n)
        entropies, vlosses = ppo_epochs(
            net, opt, config, rng, f_obs, f_mask, f_act, f_logp, f_adv, f_ret
        )
        progress = Progress(
            update=update,
            steps=steps,
            seconds=round(time.perf_counter() - start, 2),
            games=len(finished),
            mean_return=float(np.mean(finished)) if finished else float("nan"),
            win_rate=float(np.mean([r > 0 for r in finished])) if finished else float("nan"),
            entropy=float(np.mean(entropies)),
            value_loss=float(np.mean(vlosses)),
        )
        history.append(progress)
        if on_update is not None:
            on_update(progress)
    return net, history


def ppo_epochs(
    net: Network,
    opt: Adam,
    config: PpoConfig,
    rng: np.random.Generator,
    *data: np.ndarray[Any, Any],
) -> tuple[list[float], list[float]]:
    """PPO's update over collected ``data`` (observations, masks, actions, log-probabilities,
    advantages, returns: one row per step): ``config.epochs`` passes in shuffled minibatches.
    Returns each minibatch's entropy and value loss."""
    entropies: list[float] = []
    vlosses: list[float] = []
    n = len(data[2])
    size = max(1, n // config.minibatches)
    for _ in range(config.epochs):
        order = rng.permutation(n)
        for lo in range(0, n, size):
            idx = order[lo : lo + size]
            ent, vl = _ppo_step(net, opt, config, *(d[idx] for d in data))
            entropies.append(ent)
            vlosses.append(vl)
    return entropies, vlosses


def _ppo_step(
    net: Network,
    opt: Adam,
    config: PpoConfig,
    obs: np.ndarray[Any, Any],
    masks: np.ndarray[Any, Any],
    actions: np.ndarray[Any, Any],
    old_logp: np.ndarray[Any, Any],
    adv: np.ndarray[Any, Any],
    ret: np.ndarray[Any, Any],
) -> tuple[float, float]:
    """One minibatch update; returns the policy's mean entropy and the value loss."""
    b = len(obs)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    logits, values, acts = net.forward(obs)
    probs, logp_all = masked_softmax(logits, masks)
    rows = np.arange(b)
    logp = logp_all[rows, actions]
    ratio = np.exp(logp - old_logp)
    # d(-min(r A, clip(r) A))/d logp: -A r where the unclipped term is the smaller one
    clipped = ((adv > 0) & (ratio > 1 + config.clip)) | ((adv < 0) & (ratio < 1 - config.clip))
    dlogp = np.where(clipped, 0.0, -adv * ratio) / b
    onehot = np.zeros_like(probs)
    onehot[rows, actions] = 1.0
    dlogits = dlogp[:, None] * (onehot - probs)
    # entropy H = -sum p log p; dH/dz_j = -p_j (log p_j + H); the loss takes -coef * H
    plogp = probs * logp_all
    entropy = -plogp.sum(axis=1)
    dH = -(plogp + probs * entropy[:, None])
    dlogits -= config.entropy_coef * dH / b
    dvalues = config.value_coef * (values - ret) / b
    grads = net.backward(acts, dlogits.astype(np.float32), dvalues.astype(np.float32))
    opt.step(grads)
    return float(entropy.mean()), float(0.5 * ((values - ret) ** 2).mean())


def config_meta(config: PpoConfig, history: list[Progress], command: str) -> dict[str, Any]:
    """What a weights file keeps of its training."""
    conf = asdict(config)
    conf["hidden"] = list(config.hidden)
    game = ratgames.get_game(config.game, players=config.players, options=config.options)
    return {
        "game": game.id,
        "players": game.players,
        "options": dict(game.options),
        "trained": {
            "method": "selfplay" if hasattr(config, "pool_size") else "ppo",
            "config": conf,
            "command": command,
            "steps": history[-1].steps if history else 0,
            "seconds": history[-1].seconds if history else 0.0,
        },
    }


def curve_rows(history: list[Progress]) -> list[Mapping[str, Any]]:
    """The learning curve as plain rows (for CSV or JSON)."""
    return [asdict(p) for p in history]
