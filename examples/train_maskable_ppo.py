"""Train an agent for Caged Rats (one deal) against the heuristic and plot its win rate.

    uv run --extra rl --with sb3-contrib --with matplotlib \
        python examples/train_maskable_ppo.py --steps 200000 --every 20000 --games 200

The agent is sb3-contrib's ``MaskablePPO`` (PyTorch) on the Gymnasium environment
:class:`ratgames.rl.gymnasium.RatgamesEnv`, which gives it the legal-action mask through
``action_masks()``.  Every ``--every`` steps it plays ``--games`` deals against the heuristic
(seats alternating) and the win rate goes to ``win_rate.csv`` and ``win_rate.png``.

Only :func:`train` needs PyTorch; the environment, the evaluation and the plot are plain
functions (the project's tests run them with a random policy).
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Callable
from typing import Any

import numpy as np

from ratgames.rl.gymnasium import RatgamesEnv

GAME = "caged-rats"
OPTIONS = {"single_deal": True}
Policy = Callable[[np.ndarray, np.ndarray], int]
"""A policy: (observation, legal-action mask) -> id."""


def make_env(seat: int = 0, opponent: str = "heuristic") -> RatgamesEnv:
    """The training environment: one seat against ``opponent``."""
    return RatgamesEnv(GAME, options=OPTIONS, opponents=opponent, seat=seat)


def evaluate(policy: Policy, games: int, seed: int = 0, opponent: str = "heuristic") -> float:
    """The policy's share of wins over ``games`` deals, seats alternating (a tie counts half)."""
    points = 0.0
    for i in range(games):
        env = make_env(seat=i % 2, opponent=opponent)
        obs, info = env.reset(seed=seed + i)
        while True:
            obs, reward, term, trunc, info = env.step(policy(obs, info["action_mask"]))
            if term or trunc:
                break
        points += (float(reward) + 1.0) / 2.0
    return points / games


def random_policy(seed: int = 0) -> Policy:
    """A uniformly random legal policy (the baseline, and what the tests run)."""
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def write_csv(history: list[tuple[int, float]], path: str) -> None:
    """The win rates by training step."""
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["steps", "win_rate"])
        writer.writerows(history)


def plot(history: list[tuple[int, float]], path: str, baseline: float | None = None) -> None:
    """The win rate against the heuristic over training (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([s for s, _ in history], [w for _, w in history], marker="o", label="MaskablePPO")
    if baseline is not None:
        ax.axhline(baseline, linestyle="--", color="grey", label="random policy")
    ax.axhline(0.5, linestyle=":", color="black", linewidth=0.8)
    ax.set_xlabel("training steps")
    ax.set_ylabel("win rate vs heuristic")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)


def train(steps: int, every: int, games: int, seed: int = 0) -> list[tuple[int, float]]:
    """Train MaskablePPO and evaluate it every ``every`` steps (needs sb3-contrib)."""
    from sb3_contrib import MaskablePPO

    model: Any = MaskablePPO("MlpPolicy", make_env(), seed=seed, verbose=0)

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    history = [(0, evaluate(policy, games, seed=10_000))]
    done = 0
    while done < steps:
        model.learn(every, reset_num_timesteps=False)
        done += every
        history.append((done, evaluate(policy, games, seed=10_000)))
        print(f"{done} steps: win rate {history[-1][1]:.1%}", flush=True)
    return history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--every", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    baseline = evaluate(random_policy(args.seed), args.games, seed=10_000)
    print(f"random policy: win rate {baseline:.1%}")
    history = train(args.steps, args.every, args.games, args.seed)
    write_csv(history, "win_rate.csv")
    plot(history, "win_rate.png", baseline)


if __name__ == "__main__":
    main()
