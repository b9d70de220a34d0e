"""A small policy-and-value network in numpy alone: a multilayer perceptron with hand-written
backpropagation and Adam, masked softmax over the legal ids, and its weights in one ``.npz``.

The network maps an observation vector to the logits of every id and a value:
``obs -> [Linear -> tanh] x layers -> (Linear -> logits, Linear -> value)``.  Illegal ids get a
logit of ``-1e9`` before the softmax, so they have probability 0 and no gradient.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float32]
MASKED = np.float32(-1e9)
FORMAT = "ratgames-policy"
FORMAT_VERSION = 1


def one_blas_thread() -> contextlib.AbstractContextManager[Any]:
    """Run numpy's BLAS on one thread inside the ``with`` block (through threadpoolctl, which
    the rl extra installs; nothing without it).  These matrices are small: more threads only
    wait on each other, 20 times slower on a busy 2-core machine."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:
        return contextlib.nullcontext()
    limits: contextlib.AbstractContextManager[Any] = threadpool_limits(limits=1, user_api="blas")
    return limits


class PolicyError(ValueError):
    """A weights file that cannot be read or does not fit the game."""


class Network:
    """Weights and the forward and backward passes (see the module docstring)."""

    def __init__(
        self, obs_size: int, num_actions: int, hidden: Sequence[int] = (128, 128), seed: int = 0
    ) -> None:
        self.obs_size = int(obs_size)
        self.num_actions = int(num_actions)
        self.hidden = tuple(int(h) for h in hidden)
        rng = np.random.default_rng(seed)
        sizes = (self.obs_size, *self.hidden)
        self.params: dict[str, Array] = {}
        for i, (a, b) in enumerate(itertools.pairwise(sizes)):
            self.params[f"w{i}"] = _orthogonal(rng, a, b, np.sqrt(2.0))
            self.params[f"b{i}"] = np.zeros(b, dtype=np.float32)
        last = sizes[-1]
        self.params["wp"] = _orthogonal(rng, last, self.num_actions, 0.01)
        self.params["bp"] = np.zeros(self.num_actions, dtype=np.float32)
        self.params["wv"] = _orthogonal(rng, last, 1, 1.0)
        self.params["bv"] = np.zeros(1, dtype=np.float32)

    # --- passes --------------------------------------------------------------------------------

    def forward(self, obs: Array) -> tuple[Array, Array, list[Array]]:
        """Logits (unmasked), values and the activations the backward pass needs."""
        acts = [obs]
        h = obs
        for i in range(len(self.hidden)):
            h = np.tanh(h @ self.params[f"w{i}"] + self.params[f"b{i}"])
            acts.append(h)
        logits = h @ self.params["wp"] + self.params["bp"]
        values = (h @ self.params["wv"] + self.params["bv"])[:, 0]
        return logits, values, acts

    def backward(self, acts: list[Array], dlogits: Array, dvalues: Array) -> dict[str, Array]:
        """Gradients of every parameter from those of the logits and values."""
        p = self.params
        grads: dict[str, Array] = {}
        h = acts[-1]
        grads["wp"] = h.T @ dlogits
        grads["bp"] = dlogits.sum(axis=0)
        dv = dvalues[:, None]
        grads["wv"] = h.T @ dv
        grads["bv"] = dv.sum(axis=0)
        dh = dlogits @ p["wp"].T + dv @ p["wv"].T
        for i in reversed(range(len(self.hidden))):
            dz = dh * (1.0 - acts[i + 1] ** 2)
            grads[f"w{i}"] = acts[i].T @ dz
            grads[f"b{i}"] = dz.sum(axis=0)
            if i:
                dh = dz @ p[f"w{i}"].T
        return grads

    def probabilities(self, obs: Array, masks: npt.NDArray[Any]) -> Array:
        """The policy's probabilities of every id (0 for ids outside the masks)."""
        logits, _, _ = self.forward(obs)
        return masked_softmax(logits, masks)[0]

    # --- files ---------------------------------------------------------------------------------

    def save(self, path: str | Path, meta: Mapping[str, Any]) -> Path:
        """Write the weights and ``meta`` (the game, its players and options, how it was
        trained) to ``path`` (``.npz``)."""
        path = Path(path)
        header = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
            "hidden": list(self.hidden),
            **meta,
        }
        arrays = {k: v.astype(np.float32) for k, v in self.params.items()}
        with path.open("wb") as f:
            savez(f, meta=np.array(json.dumps(header, sort_keys=True)), **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> tuple[Network, dict[str, Any]]:
        """The network and its meta from a file :meth:`save` wrote."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {
                    k: np.asarray(data[k], dtype=np.float32) for k in data.files if k != "meta"
                }
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise PolicyError(f"cannot read policy weights {path}: {exc}") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise PolicyError(f"{path} is not a ratgames policy file (no 'format': '{FORMAT}')")
        if meta.get("format_version", 0) > FORMAT_VERSION:
            raise PolicyError(f"{path} is a newer policy format: upgrade ratgames to read it")
        net = cls(meta["obs_size"], meta["num_actions"], meta["hidden"])
        for name, value in net.params.items():
            got = arrays.get(name)
            if got is None or got.shape != value.shape:
                raise PolicyError(f"{path}: weights {name!r} missing or of the wrong shape")
            net.params[name] = got
        return net, meta


def savez(file: Any, **arrays: Any) -> None:
    """``np.savez_compressed`` (typed loosely: every keyword is an array)."""
    save: Any = np.savez_compressed
    save(file, **arrays)


def _orthogonal(rng: np.random.Generator, rows: int, cols: int, gain: float) -> Array:
    a = rng.standard_normal((max(rows, cols), min(rows, cols)))
    q, r = np.linalg.qr(a)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return (gain * q[:rows, :cols]).astype(np.float32)


def masked_softmax(logits: Array, masks: npt.NDArray[Any]) -> tuple[Array, Array]:
    """Probabilities and log-probabilities over the ids a mask allows (rows of ``masks``), in
    the logits' own precision; both are 0 outside the mask."""
    legal = masks > 0
    z = np.where(legal, logits, MASKED).astype(logits.dtype)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z) * legal
    total = e.sum(axis=1, keepdims=True)
    probs = e / total
    logp = np.where(legal, z - np.log(total), 0.0).astype(logits.dtype)
    return probs, logp


class Adam:
    """Adam over a network's parameters, with gradients clipped by their global norm."""

    def __init__(self, params: dict[str, Array], lr: float = 3e-4, max_norm: float = 0.5) -> None:
        self.params = params
        self.lr = lr
        self.max_norm = max_norm
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, grads: Mapping[str, Array]) -> float:
        """Apply one update; returns the gradients' norm before clipping."""
        norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
        scale = min(1.0, self.max_norm / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1 = 1.0 - b1**self.t
        c2 = 1.0 - b2**self.t
        for k, g in grads.items():
            g = g * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            step = self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-8)
            self.params[k] -= step.astype(np.float32)
        return norm
