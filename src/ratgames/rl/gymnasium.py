"""Gymnasium: one seat learns, ratgames bots play the others.

>>> from ratgames.rl.gymnasium import RatgamesEnv
>>> env = RatgamesEnv("caged-rats", opponents="heuristic")
>>> obs, info = env.reset(seed=3)
>>> obs.shape, obs.dtype.name, int(info["action_mask"].sum()) > 0
((493,), 'float32', True)

Every game is registered with Gymnasium (:mod:`ratgames.rl.registration`), so ``gym.make``
makes the same environment, with the same keywords:

>>> import gymnasium as gym
>>> env = gym.make("ratgames/Rats-v0", players=3, options={"jokers": 1}, opponents="random")
>>> env.unwrapped.game.players, int(env.action_space.n)
(3, 709)

The observation is the encoder's vector (:mod:`ratgames.rl.encoding`), the action an id of its
action space.  ``info["action_mask"]`` (and :meth:`RatgamesEnv.action_masks`, as
sb3-contrib's ``MaskablePPO`` expects) says which ids are legal.  The reward comes at the end
(:func:`ratgames.rl.table.returns`: +1 for a win and -1 for a loss with two players).  An id that
is not legal ends the episode as a loss (``illegal="lose"``, the default, with
``info["illegal"]`` set) or raises (``illegal="raise"``).

``opponents`` is a bot spec for every other seat (``"heuristic"``, ``"ismcts:iterations=50"``)
or a list with one spec per other seat; ``seat`` is the learner's seat.  Egyptian Ratscrew runs
in ticks (:mod:`ratgames.rl.table`): the learner chooses wait, move or slap at every tick and the
bots' reaction delays become ticks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import ratgames
from ratgames.core.bots import SeatView, make_bot

from .encoding import EncodingError, Vector, encoder_for
from .registration import register_gymnasium
from .table import DEFAULT_TICK, Table, Ticks


class RatgamesEnv(gym.Env[Vector, np.int64]):
    """One seat of a ratgames game against bots (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        opponents: str | Sequence[str] = "heuristic",
        seat: int = 0,
        render_mode: str | None = None,
        *,
        illegal: str = "lose",
        tick: float = DEFAULT_TICK,
        max_steps: int | None = None,
    ) -> None:
        self.game = ratgames.get_game(game_id, players=players, options=options)
        n = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat from 0 to {n - 1}, not {seat!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{self.game.title} with {n} players needs {n - 1} opponent specs")
        for spec in specs:
            make_bot(self.game, spec)  # a bad spec fails here, with the bot's own message
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.seat = seat
        self.specs = specs
        self.illegal = illegal
        self.max_steps = max_steps
        self.encoder = encoder_for(self.game)
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.obs_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.encoder.num_actions)
        others = [s for s in range(n) if s != seat]
        self._others = others
        self.tick = tick
        self.table: Table | None = None
        self.ticks: Ticks | None = None
        self._bots: dict[int, Any] = {}
        self._steps = 0
        self._mask = np.zeros(self.encoder.num_actions, dtype=np.int8)

    # --- helpers --------------------------------------------------------------------------------

    def _make_bots(self, seed: int) -> None:
        self._bots = {
            s: make_bot(self.game, spec, seed=seed + 1 + i)
            for i, (s, spec) in enumerate(zip(self._others, self.specs, strict=True))
        }

    def _bots_play(self) -> None:
        table = self.table
        assert table is not None
        while not table.is_over() and table.to_act() != self.seat:
            seat = table.to_act()
            table.play(seat, self._bots[seat].act(SeatView(table.state, seat)))

    def _observe(self) -> tuple[Vector, dict[str, Any]]:
        if self.table is not None:
            obs = self.table.observe(self.seat)
            self._mask = self.table.mask(self.seat)
        else:
            assert self.ticks is not None
            obs = self.ticks.observe(self.seat)
            self._mask = self.ticks.mask(self.seat)
        return obs, {"action_mask": self._mask.copy()}

    def _state(self) -> Any:
        return self.table.state if self.table is not None else self.ticks.state  # type: ignore[union-attr]

    # --- the Gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        # Gymnasium seeds np_random from ``seed`` (or at random on the first reset without one).
        game_seed = int(self.np_random.integers(0, 2**62))
        self._make_bots(game_seed)
        self._steps = 0
        if self.game.real_time:
            self.ticks = Ticks(self.game, self.encoder, self.tick, bots=self._bots)
            self.ticks.reset(game_seed)
        else:
            self.table = Table(self.game, self.encoder)
            self.table.reset(game_seed)
            for s, bot in self._bots.items():
                bot.new_game(s)
            self._bots_play()
        return self._observe()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids now, as booleans (for sb3-contrib's ``MaskablePPO``)."""
        return self._mask.astype(bool)

    def step(self, action: Any) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        a = int(action)
        if not 0 <= a < self.encoder.num_actions or not self._mask[a]:
            if self.illegal == "raise":
                raise EncodingError(f"id {a} is not legal now")
            obs, info = self._observe()
            info["illegal"] = True
            return obs, -1.0, True, False, info
        if self.table is not None:
            self.table.step(a)
            if not self.table.pending:
                self._bots_play()
            over = self.table.is_over()
            final = self.table.returns()
        else:
            assert self.ticks is not None
            self.ticks.step({self.seat: a})
            over = self.ticks.is_over()
            final = self.ticks.returns()
        self._steps += 1
        truncated = not over and self.max_steps is not None and self._steps >= self.max_steps
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, final[self.seat] if over else 0.0, over, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from ratgames.tui.base import render_view

        text = render_view(self.game, self._state().spectator_view())
        if self.render_mode == "human":
            print(text)
            return None
        return text


register_gymnasium()
