"""PettingZoo environments for every game.

>>> from ratgames.rl.pettingzoo import env
>>> e = env("caged-rats")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape, int(obs["action_mask"].sum())
(['action_mask', 'observation'], (493,), 28)

:func:`env` gives an AEC environment (``pettingzoo.AECEnv``) for any game; agents are
``player_0``, ``player_1``... by seat.  Each observation is a dict with ``"observation"`` (the
encoder's float32 vector, see :mod:`ratgames.rl.encoding`) and ``"action_mask"`` (int8, 1 for each
id the agent may choose), as in PettingZoo's classic card games.  Rewards come at the end (see
:func:`ratgames.rl.table.returns`).

Turn-based games pass the turn as the game does (one agent to act at a time; in Rats a run with
jokers takes the same agent two steps).  Egyptian Ratscrew is played in ticks
(:mod:`ratgames.rl.table`): in the AEC environment every agent chooses in turn and the tick is
played once the last has chosen; :func:`parallel_env` offers the same ticks as a
``ParallelEnv``.  ``render_mode`` ``"ansi"`` returns the table as text, ``"human"`` prints it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

import ratgames
from ratgames.core.game import Game

from .encoding import Encoder, EncodingError, encoder_for
from .table import DEFAULT_TICK, Table, Ticks

RENDER_MODES = ["human", "ansi"]


def _spaces(encoder: Encoder) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (encoder.obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (encoder.num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(encoder.num_actions)


def _seed(seed: int | None) -> int:
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    return int(seed)


def _render(game: Game, state: Any, mode: str | None) -> str | None:
    if mode is None:
        return None
    from ratgames.tui.base import render_view

    text = render_view(game, state.spectator_view())
    if mode == "human":
        print(text)
        return None
    return text


class RatgamesAEC(AECEnv):  # type: ignore[misc]
    """An AEC environment of one ratgames game (see the module docstring)."""

    metadata = {"render_modes": RENDER_MODES, "name": "ratgames", "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        tick: float = DEFAULT_TICK,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.game = ratgames.get_game(game_id, players=players, options=options)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": f"ratgames_{self.game.id}"}
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space, act_space = _spaces(self.encoder)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.real_time = self.game.real_time
        self.table: Table | None = None if self.real_time else Table(self.game, self.encoder)
        self.ticks: Ticks | None = Ticks(self.game, self.encoder, tick) if self.real_time else None
        self._choices: dict[int, int] = {}
        self._steps = 0
        self._reset_dicts()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_dicts(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._choices = {}
        self._steps = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        s = _seed(seed)
        if self.table is not None:
            self.table.reset(s)
        else:
            assert self.ticks is not None
            self.ticks.reset(s)
        self._reset_dicts()
        self.agent_selection = self._next_agent()

    @property
    def state_(self) -> Any:
        """The ratgames state being played (for tests and tools; agents use observations)."""
        return self.table.state if self.table is not None else self.ticks.state  # type: ignore[union-attr]

    def _next_agent(self) -> str:
        if self.table is not None:
            seat = self.table.to_act()
            return self.possible_agents[max(seat, 0)]
        live = [a for a in self.possible_agents if a in self.agents]
        for a in live:
            if self._seat[a] not in self._choices:
                return a
        return live[0]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        if self.table is not None:
            return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}
        assert self.ticks is not None
        return {"observation": self.ticks.observe(seat), "action_mask": self.ticks.mask(seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if self.table is not None:
            self.table.step(int(action))
            over = self.table.is_over()
            final = self.table.returns()
        else:
            assert self.ticks is not None
            if int(action) not in self.ticks.legal_ids(seat):
                raise EncodingError(f"{agent} may not choose {action!r} now")
            self._choices[seat] = int(action)
            if len(self._choices) < len(self.agents):
                self.agent_selection = self._next_agent()
                return
            self.ticks.step(self._choices)
            self._choices = {}
            over = self.ticks.is_over()
            final = self.ticks.returns()
        self._steps += 1
        if over:
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()
        self.agent_selection = self._next_agent()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return _render(self.game, self.state_, self.render_mode)

    def close(self) -> None:
        pass


class RatgamesParallel(ParallelEnv):  # type: ignore[misc]
    """Egyptian Ratscrew in ticks as a ``ParallelEnv``: every agent chooses at every tick."""

    metadata = {"render_modes": RENDER_MODES, "name": "ratgames_egyptian_ratscrew"}

    def __init__(
        self,
        game_id: str = "egyptian-ratscrew",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        tick: float = DEFAULT_TICK,
        max_steps: int | None = None,
    ) -> None:
        self.game = ratgames.get_game(game_id, players=players, options=options)
        if not self.game.real_time:
            raise EncodingError(f"{self.game.title} is turn-based: use env() (AEC)")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.ticks = Ticks(self.game, self.encoder, tick)
        self.max_steps = max_steps
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self.agents = self.possible_agents[:]
        obs_space, act_space = _spaces(self.encoder)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _obs(self) -> dict[str, dict[str, Any]]:
        return {
            a: {"observation": self.ticks.observe(s), "action_mask": self.ticks.mask(s)}
            for s, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.ticks.reset(_seed(seed))
        self.agents = self.possible_agents[:]
        self._steps = 0
        return self._obs(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        seats = {a: i for i, a in enumerate(self.possible_agents)}
        choices = {seats[a]: int(v) for a, v in actions.items() if a in self.agents}
        self.ticks.step(choices)
        self._steps += 1
        over = self.ticks.is_over()
        final = self.ticks.returns()
        truncated = not over and self.max_steps is not None and self._steps >= self.max_steps
        obs = self._obs()
        rewards = {a: final[seats[a]] for a in self.agents}
        terms = {a: over for a in self.agents}
        truncs = {a: truncated for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        return _render(self.game, self.ticks.state, self.render_mode)

    def close(self) -> None:
        pass


def env(
    game_id: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> RatgamesAEC:
    """The AEC environment of ``game_id`` (``tick=`` seconds for Egyptian Ratscrew,
    ``max_steps=`` to truncate long games)."""
    return RatgamesAEC(game_id, players, options, render_mode, **kwargs)


def raw_env(
    game_id: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> RatgamesAEC:
    """The same as :func:`env` (PettingZoo's naming)."""
    return env(game_id, players, options, render_mode, **kwargs)


def parallel_env(
    game_id: str = "egyptian-ratscrew",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> RatgamesParallel:
    """The ticks of Egyptian Ratscrew as a ``ParallelEnv``."""
    return RatgamesParallel(game_id, players, options, render_mode, **kwargs)
