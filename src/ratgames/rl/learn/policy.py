"""A bot that plays from a trained policy: ``--bots policy:file=WEIGHTS.npz``.

The weights file (:meth:`ratgames.rl.learn.network.Network.save`, written by ``ratgames
train``) names the game, its players and options; the bot refuses a table they do not fit.
``file`` is a path, or the name of a policy that comes with ratgames (:data:`SHIPPED`, e.g.
``policy:file=caged-rats``).  The bot encodes its seat's observation as the environments do,
masks the illegal ids and plays the most probable id (``greedy=true``, the default) or samples
one from the policy's probabilities with its own seeded generator (``greedy=false``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

import ratgames
from ratgames.core.bots import Bot, SeatView
from ratgames.core.errors import OptionError
from ratgames.core.game import Action, Game
from ratgames.core.options import Option

from ..encoding import encoder_for
from .network import Network, PolicyError, masked_softmax

POLICY_DIR = Path(__file__).parent / "policies"
"""Where the policies that come with ratgames are."""


def shipped() -> dict[str, Path]:
    """The policies that come with ratgames, by name (the file name without ``.npz``)."""
    return {p.stem: p for p in sorted(POLICY_DIR.glob("*.npz"))}


def resolve(file: str) -> Path:
    """The weights file ``file`` names: a shipped policy's name, or a path."""
    known = shipped()
    if file in known:
        return known[file]
    path = Path(file).expanduser()
    if not path.is_file():
        names = ", ".join(known) or "none"
        raise OptionError(
            f"policy file {file!r} does not exist; give the path of a .npz written by "
            f"'ratgames train' or a policy that comes with ratgames: {names}"
        )
    return path


@lru_cache(maxsize=32)
def _load(path: str, mtime: float) -> tuple[Network, dict[str, Any]]:
    return Network.load(path)


def load_policy(file: str, game: Game) -> Network:
    """The network of ``file``, checked against ``game`` (its id, players and options)."""
    path = resolve(file)
    try:
        net, meta = _load(str(path), path.stat().st_mtime)
    except PolicyError as exc:
        raise OptionError(str(exc)) from None
    try:
        trained = ratgames.get_game(meta["game"], players=meta["players"], options=meta["options"])
    except (KeyError, ratgames.RatgamesError) as exc:
        raise OptionError(f"policy {file}: its game cannot be set up ({exc})") from None
    if (trained.id, trained.players, trained.options) != (game.id, game.players, game.options):
        raise OptionError(
            f"policy {file} was trained for {trained.title} with {trained.players} players and "
            f"options {_opts(trained)}, not {game.title} with {game.players} players and "
            f"options {_opts(game)}"
        )
    enc = encoder_for(game)
    if (net.obs_size, net.num_actions) != (enc.obs_size, enc.num_actions):
        raise OptionError(
            f"policy {file} takes {net.obs_size} observation values and {net.num_actions} ids; "
            f"this game has {enc.obs_size} and {enc.num_actions}"
        )
    return net


def _opts(game: Game) -> str:
    changed = {
        o.name: game.options[o.name]
        for o in game.option_specs
        if game.options.get(o.name) != o.default
    }
    return ", ".join(f"{k}={v}" for k, v in changed.items()) or "the defaults"


class PolicyBot(Bot):
    """Plays the ids a trained policy prefers (see the module docstring)."""

    name = "policy"
    turn_based_only = True
    params = (
        Option(
            "file",
            "",
            "weights (.npz from 'ratgames train') or a shipped policy's name",
            builtin_names=lambda: list(shipped()),
        ),
        Option("greedy", True, "play the most probable id (false: sample from the policy)"),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        file = str(params.get("file", ""))
        if not file:
            names = ", ".join(shipped()) or "none"
            raise OptionError(
                f"bot 'policy' needs file=WEIGHTS.npz (from 'ratgames train') or a shipped "
                f"policy's name: {names}"
            )
        self.greedy = bool(params.get("greedy", True))
        self.net = load_policy(file, game)
        self.encoder = encoder_for(game)

    def probabilities(self, view: SeatView, pending: tuple[int, ...] = ()) -> np.ndarray[Any, Any]:
        """The policy's probability of every id at this decision."""
        enc = self.encoder
        obs = enc.encode(view.observation(events=False), pending)
        mask = enc.mask(view.legal_actions(), pending)
        logits, _, _ = self.net.forward(obs[None, :])
        probs: np.ndarray[Any, Any] = masked_softmax(logits, mask[None, :])[0][0]
        return probs

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        pending: tuple[int, ...] = ()
        while True:
            probs = self.probabilities(view, pending)
            if self.greedy:
                pick = int(np.argmax(probs))
            else:
                cum = np.cumsum(probs, dtype=np.float64)
                pick = int(np.searchsorted(cum, self.rng.random() * cum[-1], side="right"))
                pick = min(pick, len(probs) - 1)
                while probs[pick] == 0.0:  # only at the very end of the cumulative sums
                    pick -= 1
            pending = (*pending, pick)
            action = self.encoder.complete(legal, pending)
            if action is not None:
                return action
