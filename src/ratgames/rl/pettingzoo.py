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
``ParallelEnv``, and every turn-based game too (only the agent to act chooses; what the others
send is ignored).  ``render_mode`` ``"ansi"`` returns the table as text, ``"human"`` prints it.

``flatten=True`` makes each observation the bare float32 vector (a ``Box``, as SuperSuit's
padding wrappers and most libraries expect) and puts the mask in ``info["action_mask"]`` (where
PettingZoo's own tests and ``TerminateIllegalWrapper`` look for it when the observation is not a
dict).

An id outside the agent's mask ends the game as PettingZoo's classic environments do: -1 for the
agent that chose it, 0 for every other agent, ``info["illegal"]`` set for it (``illegal="lose"``,
the default); ``illegal="raise"`` raises :class:`~ratgames.rl.encoding.EncodingError` instead and
changes nothing.  An id that is not in the action space at all always raises.

``state()`` is the global state (``state_space`` its ``Box``): every seat's observation vector,
in seat order (``player_0`` first), each with its own hidden cards, so it holds what no single
agent may know.  It is meant for centralised training (a critic), never as a policy's input.
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


ILLEGAL = ("lose", "raise")


def _spaces(encoder: Encoder, flatten: bool) -> tuple[spaces.Space[Any], spaces.Discrete]:
    vector = spaces.Box(0.0, 1.0, (encoder.obs_size,), dtype=np.float32)
    obs: spaces.Space[Any] = vector
    if not flatten:
        obs = spaces.Dict(
            {
                "observation": vector,
                "action_mask": spaces.Box(0, 1, (encoder.num_actions,), dtype=np.int8),
            }
        )
    return obs, spaces.Discrete(encoder.num_actions)


def _state_space(encoder: Encoder, players: int) -> spaces.Box:
    return spaces.Box(0.0, 1.0, (players * encoder.obs_size,), dtype=np.float32)


def _check_options(render_mode: str | None, illegal: str, flatten: bool) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
    if not isinstance(flatten, bool):
        raise ValueError(f"flatten must be True or False, not {flatten!r}")


def _action_id(encoder: Encoder, agent: str, action: Any) -> int:
    """``action`` as an id of the action space, or :class:`EncodingError`."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        a = -1
    if isinstance(action, bool) or a != action or not 0 <= a < encoder.num_actions:
        raise EncodingError(
            f"{agent}: {action!r} is not an action id (ids are 0 to {encoder.num_actions - 1})"
        )
    return a


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
        flatten: bool = False,
        illegal: str = "lose",
    ) -> None:
        super().__init__()
        _check_options(render_mode, illegal, flatten)
        self.game = ratgames.get_game(game_id, players=players, options=options)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.flatten = flatten
        self.illegal = illegal
        self.metadata = {**self.metadata, "name": f"ratgames_{self.game.id}"}
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space, act_space = _spaces(self.encoder, flatten)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = _state_space(self.encoder, self.game.players)
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
        self._update_masks()

    def state(self) -> Any:
        """The global state: every seat's observation vector in seat order (hidden cards
        included: for centralised training, never a policy's input)."""
        return np.concatenate([self._vector(s) for s in range(self.game.players)])

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

    def _vector(self, seat: int) -> Any:
        if self.table is not None:
            return self.table.observe(seat)
        assert self.ticks is not None
        return self.ticks.observe(seat)

    def _mask(self, seat: int) -> Any:
        if self.table is not None:
            return self.table.mask(seat)
        assert self.ticks is not None
        return self.ticks.mask(seat)

    def _update_masks(self) -> None:
        """With ``flatten``, every live agent's mask in its info."""
        if self.flatten:
            for a in self.agents:
                self.infos[a]["action_mask"] = self._mask(self._seat[a])

    def observe(self, agent: str) -> Any:
        seat = self._seat[agent]
        if self.flatten:
            return self._vector(seat)
        return {"observation": self._vector(seat), "action_mask": self._mask(seat)}

    def _lose_for_illegal(self, agent: str) -> None:
        """``agent`` chose an id outside its mask: the game ends, -1 for it, 0 for the rest."""
        for a in self.agents:
            self.rewards[a] = -1.0 if a == agent else 0.0
            self.terminations[a] = True
        self.infos[agent]["illegal"] = True
        self._choices = {}
        self._accumulate_rewards()
        self.agent_selection = agent

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        a_id = _action_id(self.encoder, agent, action)
        if self.table is not None:
            try:
                self.table.step(a_id)  # an id outside the mask raises and changes nothing
            except EncodingError:
                if self.illegal == "raise":
                    raise EncodingError(
                        f"{agent} may not choose {self.encoder.id_text(a_id)} now"
                    ) from None
                self._lose_for_illegal(agent)
                return
            over = self.table.is_over()
            final = self.table.returns()
        else:
            assert self.ticks is not None
            if a_id not in self.ticks.legal_ids(seat):
                if self.illegal == "raise":
                    raise EncodingError(f"{agent} may not choose {self.encoder.id_text(a_id)} now")
                self._lose_for_illegal(agent)
                return
            self._choices[seat] = a_id
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
        self._update_masks()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return _render(self.game, self.state_, self.render_mode)

    def close(self) -> None:
        pass


class RatgamesParallel(ParallelEnv):  # type: ignore[misc]
    """A game as a ``ParallelEnv``: every live agent sends an action at every step.

    In a real-time game (ticks) every agent chooses at every tick.  In a turn-based game only
    the agent to act chooses: the others' masks are all zeros and whatever they send is
    ignored (it must still be an id of the action space)."""

    metadata = {"render_modes": RENDER_MODES, "name": "ratgames"}

    def __init__(
        self,
        game_id: str = "egyptian-ratscrew",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        tick: float = DEFAULT_TICK,
        max_steps: int | None = None,
        flatten: bool = False,
        illegal: str = "lose",
    ) -> None:
        _check_options(render_mode, illegal, flatten)
        self.game = ratgames.get_game(game_id, players=players, options=options)
        self.render_mode = render_mode
        self.flatten = flatten
        self.illegal = illegal
        self.encoder = encoder_for(self.game)
        self.metadata = {**self.metadata, "name": f"ratgames_{self.game.id}"}
        self.ticks: Ticks | None = None
        self.table: Table | None = None
        if self.game.real_time:
            self.ticks = Ticks(self.game, self.encoder, tick)
        else:
            self.table = Table(self.game, self.encoder)
        self.max_steps = max_steps
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self.agents = self.possible_agents[:]
        obs_space, act_space = _spaces(self.encoder, flatten)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.state_space = _state_space(self.encoder, self.game.players)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_(self) -> Any:
        """The ratgames state being played (for tests and tools; agents use observations)."""
        return self.table.state if self.table is not None else self.ticks.state  # type: ignore[union-attr]

    def _vector(self, seat: int) -> Any:
        if self.table is not None:
            return self.table.observe(seat)
        assert self.ticks is not None
        return self.ticks.observe(seat)

    def _mask(self, seat: int) -> Any:
        if self.table is not None:
            return self.table.mask(seat)
        assert self.ticks is not None
        return self.ticks.mask(seat)

    def _obs(self) -> dict[str, Any]:
        if self.flatten:
            return {a: self._vector(self._seat[a]) for a in self.agents}
        return {
            a: {"observation": self._vector(s), "action_mask": self._mask(s)}
            for s, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def _infos(self) -> dict[str, dict[str, Any]]:
        if self.flatten:
            return {a: {"action_mask": self._mask(self._seat[a])} for a in self.agents}
        return {a: {} for a in self.agents}

    def state(self) -> Any:
        """The global state: every seat's observation vector in seat order (hidden cards
        included: for centralised training, never a policy's input)."""
        return np.concatenate([self._vector(s) for s in range(self.game.players)])

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if self.table is not None:
            self.table.reset(_seed(seed))
        else:
            assert self.ticks is not None
            self.ticks.reset(_seed(seed))
        self.agents = self.possible_agents[:]
        self._steps = 0
        return self._obs(), self._infos()

    def _wrong(self, choices: Mapping[int, int]) -> list[str]:
        """The agents whose id is outside their mask (agents not choosing now are ignored)."""
        if self.table is not None:
            seat = self.table.to_act()
            agent = self.possible_agents[seat]
            if seat not in choices:
                raise EncodingError(f"{agent} is to act: the actions must include its id")
            return [] if choices[seat] in self.table.legal_ids() else [agent]
        assert self.ticks is not None
        ticks = self.ticks
        return [self.possible_agents[s] for s, a in choices.items() if a not in ticks.legal_ids(s)]

    def step(self, actions: Mapping[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        seats = self._seat
        choices = {
            seats[a]: _action_id(self.encoder, a, v) for a, v in actions.items() if a in self.agents
        }
        wrong = self._wrong(choices)
        if wrong and self.illegal == "raise":
            seat = seats[wrong[0]]
            raise EncodingError(
                f"{wrong[0]} may not choose {self.encoder.id_text(choices[seat])} now"
            )
        if wrong:
            # As PettingZoo's classic games: -1 for each agent that chose outside its mask,
            # 0 for the others, and the game ends.
            obs = self._obs()
            rewards = {a: -1.0 if a in wrong else 0.0 for a in self.agents}
            terms = {a: True for a in self.agents}
            truncs = {a: False for a in self.agents}
            infos = self._infos()
            for a in wrong:
                infos[a]["illegal"] = True
            self.agents = []
            return obs, rewards, terms, truncs, infos
        if self.table is not None:
            self.table.step(choices[self.table.to_act()])
            over = self.table.is_over()
            final = self.table.returns()
        else:
            assert self.ticks is not None
            self.ticks.step(choices)
            over = self.ticks.is_over()
            final = self.ticks.returns()
        self._steps += 1
        truncated = not over and self.max_steps is not None and self._steps >= self.max_steps
        obs = self._obs()
        rewards = {a: final[seats[a]] for a in self.agents}
        terms = {a: over for a in self.agents}
        truncs = {a: truncated for a in self.agents}
        infos = self._infos()
        if over or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        return _render(self.game, self.state_, self.render_mode)

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
    ``max_steps=`` to truncate long games, ``flatten=True`` for bare vectors with the mask in
    ``info``, ``illegal="raise"`` to raise on an id outside the mask)."""
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
    """A game as a ``ParallelEnv``: Egyptian Ratscrew's ticks (every agent chooses at every
    tick), or a turn-based game where only the agent to act chooses (see
    :class:`RatgamesParallel`)."""
    return RatgamesParallel(game_id, players, options, render_mode, **kwargs)
