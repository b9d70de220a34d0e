"""Many games stepped in one call, writing into preallocated numpy arrays.

Two interfaces:

* :class:`SelfPlayBatch`: ``num_games`` games of a turn-based game in self-play.  At every step
  each game has one seat to act (``to_act``); ``step(actions)`` takes one id per game.  After a
  step the arrays hold, per game, the observation and mask of the seat to act now, and (with
  ``all_seats=True``) every seat's observation, each exactly the vector that seat's own
  environment would show it (its pending ids only for the seat to act).
* :class:`RatgamesVectorEnv`: a ``gymnasium.vector.VectorEnv`` of ``num_envs`` copies of
  :class:`ratgames.rl.gymnasium.RatgamesEnv`: one seat learns, ratgames bots play the others
  (every game, Egyptian Ratscrew in ticks).

**Autoreset: same step.**  A game that ends in a step reports its rewards and ``terminated``
(or ``truncated``) in that step's arrays, and its row of the observations and masks already
holds the first observation of the next game (Gymnasium's ``AutoresetMode.SAME_STEP``).  The
vector environment puts each finished game's last observation in ``info["final_obs"]`` (with
``info["_final_obs"]`` saying which games ended) as Gymnasium specifies; the self-play batch
keeps nothing of a finished game but its rewards (``rewards[g, seat]`` for every seat).

**Seeds.**  Game ``g`` of a batch reset with ``seed`` is the game of the single environment
reset with ``seed + g``: :class:`SelfPlayBatch` plays the PettingZoo AEC environment's game
(``env(...).reset(seed=seed + g)``) and later games of that row take the seeds
``seed + g + k * num_games`` (``k = 1, 2...``); :class:`RatgamesVectorEnv`'s environment ``g``
is ``RatgamesEnv`` reset with ``seed + g`` and then reset without a seed after every game, as
Gymnasium's own vector environments do.  The same seed gives the same games, batched or single
(``tests/rl/test_vector.py`` checks every observation, mask and reward against the single
environments).

The arrays are the batch's own (``obs``, ``masks``...): they are overwritten by the next step, so
copy what you keep.  Encoding reads each seat's observation only (``state.observation``), as the
single environments do, and writes it straight into its row.
"""

from __future__ import annotations

import gc
import struct
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import wraps
from typing import Any, TypeVar

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import ratgames
from ratgames.core.bots import Bot, RandomBot, make_bot
from ratgames.core.game import Game, State

from .encoding import WAIT, Encoder, EncodingError, ListEncoder, encoder_for
from .encoding.base import Writer, unpack_bits
from .rows import Rows, bots_play
from .table import DEFAULT_TICK, Ticks, returns

IntArray = npt.NDArray[np.int64]
F = TypeVar("F", bound=Callable[..., Any])


def _gc_paused(method: F) -> F:
    """Run ``method`` with the cyclic garbage collector paused (turned on again after it, if it
    was on).  A batch's games are many long-lived objects made while they are played, and the
    collector's passes walked them all several times a step: Caged Rats' batch of 256 games
    spent more than half its time there (11.0 against 4.9 us a game step for the engine alone,
    collections after the steps counted).

    What the call leaves is then placed straight in the collector's oldest generation (an
    empty ``gc.freeze`` and ``gc.unfreeze``: two splices of its lists), where the full passes
    still collect whatever becomes garbage: a step's survivors are the games' state, kept for
    many steps, and walking them again in the young generations' passes after every step
    cost Caged Rats' batch about a sixth of its time.  The batches make no cyclic garbage
    (``tests/rl/test_vector.py`` checks it), so nothing waits longer to be freed.  This is
    done only when nothing is set aside with ``gc.freeze`` already (that is left alone); the
    collector is left on or off as it was, with its thresholds, and objects the caller made
    since the last pass move to the oldest generation with the batch's."""

    @wraps(method)
    def paused(*args: Any, **kwargs: Any) -> Any:
        if not gc.isenabled():
            return method(*args, **kwargs)
        gc.disable()
        try:
            return method(*args, **kwargs)
        finally:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()

    return paused  # type: ignore[return-value]


def _check_count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
    return int(value)


class _Gather:
    """Gathers the observation vectors and masks of many rows, then writes them into their
    arrays at once (:meth:`flush`): one numpy assignment per array and step, instead of a
    few per row.  A game whose encoder reads its state directly (``encoder.features``,
    compiled with the engine) appends its values through :class:`ratgames.rl.rows.Rows`
    without building the seat's observation; another game's rows are written one by one
    from the observation.  Each row is written at most once between two flushes."""

    def __init__(self, encoder: Encoder, obs: Any, masks: Any) -> None:
        self.encoder = encoder
        self.layout = encoder.layout
        self.size = encoder.obs_size
        self.num_actions = encoder.num_actions
        known = list(zip(encoder.actions, range(encoder.num_actions), strict=True)) if (
            isinstance(encoder, ListEncoder)
        ) else []  # fmt: skip
        self.rows = Rows(encoder.features, self.size, self.num_actions, encoder.action_ids, known)
        self.fast = encoder.features is not None
        self.bit_width = encoder.features.bit_width if encoder.features is not None else 0
        self.bit_runs: list[tuple[int, int, int]] = []
        """The features' bit sections as runs of adjacent ones: (start, end) in the vector and
        where the run starts among the unpacked bits of a row."""
        for k, start in enumerate(encoder.features.bit_starts if encoder.features else []):
            runs = self.bit_runs
            if runs and runs[-1][1] == start:
                runs[-1] = (runs[-1][0], start + self.bit_width, runs[-1][2])
            else:
                runs.append((start, start + self.bit_width, k * self.bit_width))
        scales = getattr(encoder.features, "scales", None)
        self.scales = None if scales is None else np.asarray(scales, dtype=np.float64)
        """The features' divisors of the counts they give as values, by position (None: they
        give the values themselves)."""
        self.obs = obs
        self.flat = obs.reshape(-1)
        self.masks = masks
        self.flat_masks = masks.reshape(-1)

    def obs_row(self, state: State, seat: int, pending: Sequence[int], row: int) -> None:
        """Row ``row`` of the observations (counted in vectors): ``seat``'s vector."""
        if self.fast:
            self.rows.observe(state, seat, pending[0] if pending else -1, row)
            return
        w = Writer(self.layout, self.flat[row * self.size : (row + 1) * self.size])
        w.out[:] = 0.0
        self.encoder._write(state.observation(seat, events=False), w, pending)
        w.done()

    def mask_row(self, legal: Sequence[Hashable], pending: Sequence[int], row: int) -> None:
        """Row ``row`` of the masks: the ids that continue a legal action after ``pending``."""
        if pending:
            self.rows.mask_ids(self.encoder.next_ids(legal, pending), row)
        else:
            self.rows.mask(list(legal), row, None)

    def tick_mask(self, state: State, seat: int, row: int) -> None:
        """Row ``row`` of the masks of a game in ticks: wait and ``seat``'s legal ids."""
        self.rows.tick_mask(state, seat, row)

    def flush(self, every_row: bool = False) -> None:
        """Write what was gathered (the rows named are zeroed first; all of them with
        ``every_row``, when every row was gathered)."""
        ones, at, values, bits, obs_rows, ones_count, at_count, mask_at, mask_rows, mask_count = (
            self.rows.take()
        )
        if every_row:
            self.flat[:] = 0.0
            self.flat_masks[:] = 0
        else:
            if obs_rows:
                self.obs.reshape(-1, self.size)[obs_rows] = 0.0
            if mask_rows:
                self.masks.reshape(-1, self.num_actions)[mask_rows] = 0
        if bits:
            # Each row's bit sections, unpacked, in runs of adjacent sections.
            block = unpack_bits(bits, self.bit_width).reshape(len(obs_rows), -1)
            rows = _ints(obs_rows)
            by_row = self.obs.reshape(-1, self.size)
            for start, end, column in self.bit_runs:
                by_row[rows, start:end] = block[:, column : column + end - start]
        if ones:
            self.flat[_placed(ones, ones_count, obs_rows, self.size)] = 1.0
        if at:
            if self.scales is None:
                self.flat[_placed(at, at_count, obs_rows, self.size)] = values
            else:
                local = _ints(at)
                x = _ints(values) / self.scales[local]
                np.minimum(x, 1.0, out=x)  # np.clip takes some microseconds more
                np.maximum(x, 0.0, out=x)
                self.flat[_placed(at, at_count, obs_rows, self.size, local)] = x
        if mask_at:
            self.flat_masks[_placed(mask_at, mask_count, mask_rows, self.num_actions)] = 1


def _ints(values: list[int]) -> IntArray:
    """``values`` as an array (read-only): :mod:`struct` reads a list's ints about twice as
    fast as ``np.fromiter``, which packs each in turn through numpy's general conversion."""
    return np.frombuffer(struct.pack(f"<{len(values)}q", *values), dtype="<i8")


def _placed(
    positions: list[int],
    counts: list[int],
    rows: list[int],
    size: int,
    local: IntArray | None = None,
) -> IntArray:
    """Positions within rows of ``size`` (``counts[k]`` of them, in turn, row ``rows[k]``'s) as
    positions in the flat array (``local``, when given, is ``positions`` as an array
    already)."""
    if local is None:
        local = _ints(positions)
    return local + np.repeat(_ints(rows) * size, _ints(counts))


class SelfPlayBatch:
    """``num_games`` turn-based games in self-play (see the module docstring).

    Arrays (rows are games): ``obs`` (float32, games x obs size) and ``masks`` (int8, games x
    ids) for the seat to act, ``to_act`` (its seat), ``rewards`` (float32, games x seats: the
    final rewards of a game that ended in the last step, else 0), ``terminated`` and
    ``truncated`` (bool), ``seat_obs`` (games x seats x obs size, with ``all_seats=True``).
    ``max_steps`` truncates a game after that many ids (rewards 0).
    """

    def __init__(
        self,
        game_id: str,
        num_games: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        all_seats: bool = False,
        max_steps: int | None = None,
    ) -> None:
        self.num_games = _check_count("num_games", num_games)
        if max_steps is not None:
            max_steps = _check_count("max_steps", max_steps)
        self.game: Game = ratgames.get_game(game_id, players=players, options=options)
        if self.game.real_time:
            raise ValueError(
                f"{self.game.title} is played in ticks: use RatgamesVectorEnv (one seat against "
                "bots) or the PettingZoo parallel environment for self-play"
            )
        self.encoder = encoder_for(self.game)
        self.players = self.game.players
        self.max_steps = max_steps
        n, p = self.num_games, self.players
        self.num_actions = self.encoder.num_actions
        self.obs_size = self.encoder.obs_size
        self.obs = np.zeros((n, self.obs_size), dtype=np.float32)
        self.masks = np.zeros((n, self.num_actions), dtype=np.int8)
        self.to_act = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, p), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        self.all_seats = all_seats
        self.seat_obs = np.zeros((n, p, self.obs_size), dtype=np.float32) if all_seats else None
        self._gather = _Gather(
            self.encoder, self.obs if self.seat_obs is None else self.seat_obs, self.masks
        )
        self._states: list[State] = []
        self._legal: list[list[Hashable]] = [[] for _ in range(n)]
        self._first_ids: list[list[int]] = [[] for _ in range(n)]
        self._seats = [0] * n
        self._pending: list[tuple[int, ...]] = [() for _ in range(n)]
        self._steps = [0] * n
        self._next_seed = [0] * n
        self._rows = np.arange(n)
        self._games = list(range(n))
        # Every action one id, and the vectors read from the state: the compiled loop plays.
        self._compiled = self._gather.fast and self.encoder.max_ids_per_action == 1

    def _start(self, g: int) -> None:
        state = self.game.new_state(seed=self._next_seed[g])
        state.set_recording(False)
        state.set_event_log(False)  # the vectors and masks read the state, not its log
        self._next_seed[g] += self.num_games
        if len(self._states) <= g:
            self._states.append(state)
        else:
            self._states[g] = state
        self._pending[g] = ()
        self._steps[g] = 0
        self._refresh(g)

    def _refresh(self, g: int) -> None:
        """Gather game ``g``'s mask and observations (written by :meth:`_flush`)."""
        state = self._states[g]
        pending = self._pending[g]
        gather = self._gather
        if self._compiled:
            gather.rows.refresh(
                state,
                g,
                self.players,
                self.seat_obs is not None,
                self._seats,
                self._legal,
                self._first_ids,
            )
            return
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        self._legal[g] = legal
        self._seats[g] = seat
        gather.mask_row(legal, pending, g)
        if self.seat_obs is None:
            gather.obs_row(state, seat, pending, g)
            return
        p = self.players
        for s in range(p):
            gather.obs_row(state, s, pending if s == seat else (), g * p + s)

    def _flush(self) -> None:
        self._gather.flush(every_row=True)
        self.to_act[:] = self._seats
        if self.seat_obs is not None:
            self.obs[:] = self.seat_obs[self._rows, self.to_act]

    @_gc_paused
    def reset(self, seed: int = 0) -> None:
        """Start every game afresh: game ``g`` from ``seed + g``."""
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        self._next_seed = [int(seed) + g for g in range(self.num_games)]
        self._states = []
        for g in range(self.num_games):
            self._start(g)
        self._flush()
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False

    @_gc_paused
    def step(self, actions: npt.ArrayLike) -> None:
        """Every game's seat to act chooses its id in ``actions`` (one per game).  An id outside
        its game's mask raises :class:`EncodingError` naming the game, and nothing is played."""
        if not self._states:
            raise EncodingError("reset() the batch before stepping it")
        ids = np.asarray(actions)
        if ids.shape != (self.num_games,) or not np.issubdtype(ids.dtype, np.integer):
            raise EncodingError(
                f"actions must be {self.num_games} whole-number ids (one per game), not an "
                f"array of shape {ids.shape} and type {ids.dtype}"
            )
        inside = (ids >= 0) & (ids < self.num_actions)
        legal = inside & (self.masks[self._rows, np.where(inside, ids, 0)] == 1)
        if not legal.all():
            g = int(np.flatnonzero(~legal)[0])
            raise EncodingError(
                f"game {g}: id {int(ids[g])} is not legal now (legal: "
                f"{np.flatnonzero(self.masks[g]).tolist()})"
            )
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        chosen: list[int] = ids.tolist()
        steps, max_steps = self._steps, self.max_steps
        games = self._games
        if max_steps is not None:
            for g in games:
                steps[g] += 1
            games = [g for g in games if steps[g] < max_steps]
        if self._compiled:
            ended = self._gather.rows.play(
                self._states,
                chosen,
                games,
                self._seats,
                self._legal,
                self._first_ids,
                self.players,
                self.seat_obs is not None,
            )
            for g in ended:
                self._end(g)
            if len(games) < self.num_games:
                playing = set(games)
                for g in self._games:
                    if g not in playing:
                        self._play(g, chosen[g])
        else:
            for g in self._games:
                self._play(g, chosen[g])
        self._flush()

    def _play(self, g: int, a: int) -> None:
        """Game ``g`` plays id ``a`` (one game at a time, in Python)."""
        state = self._states[g]
        pending = self._pending[g]
        encoder = self.encoder
        if pending or not isinstance(encoder, ListEncoder):
            action = encoder.complete(self._legal[g], (*pending, a))
            if action is None:
                self._pending[g] = (*pending, a)
                if self.max_steps is None:
                    self._steps[g] += 1
                self._refresh(g)  # truncated only after a whole action, as the AEC game
                return
            self._pending[g] = ()
        else:
            action = encoder.actions[a]
        state.apply_trusted(self._seats[g], action)
        if self.max_steps is None:
            self._steps[g] += 1
        if state.is_over():
            self._end(g)
        elif self.max_steps is not None and self._steps[g] >= self.max_steps:
            self.truncated[g] = True
            self._start(g)
        else:
            self._refresh(g)

    def _end(self, g: int) -> None:
        """Game ``g`` is over: its rewards, and the next game in its row."""
        self.rewards[g] = returns(self.game, self._states[g].outcome())
        self.terminated[g] = True
        self._start(g)


class RatgamesVectorEnv(gym.vector.VectorEnv):
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` games, one seat learning against
    ratgames bots (the arguments of :class:`ratgames.rl.gymnasium.RatgamesEnv`, with
    ``num_envs`` second; see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        opponents: str | Sequence[str] = "heuristic",
        seat: int = 0,
        *,
        tick: float = DEFAULT_TICK,
        max_steps: int | None = None,
    ) -> None:
        self.num_envs = _check_count("num_envs", num_envs)
        if max_steps is not None:
            max_steps = _check_count("max_steps", max_steps)
        self.game = ratgames.get_game(game_id, players=players, options=options)
        n = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat from 0 to {n - 1}, not {seat!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{self.game.title} with {n} players needs {n - 1} opponent specs")
        # Bots that read only their legal actions let the games drop their event logs
        # (State.set_event_log); others may read the events in their observations.
        self._drop_events = all(type(make_bot(self.game, spec)) is RandomBot for spec in specs)
        self.specs = specs
        self.seat = seat
        self.tick = tick
        self.max_steps = max_steps
        self.encoder = encoder_for(self.game)
        self._others = [s for s in range(n) if s != seat]
        obs_size, num_actions = self.encoder.obs_size, self.encoder.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, (obs_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        e = self.num_envs
        self.obs = np.zeros((e, obs_size), dtype=np.float32)
        self.masks = np.zeros((e, num_actions), dtype=np.int8)
        self.rewards = np.zeros(e, dtype=np.float64)
        self.terminated = np.zeros(e, dtype=bool)
        self.truncated = np.zeros(e, dtype=bool)
        self._rngs: list[np.random.Generator] = []
        self._states: list[State] = []
        self._ticks: list[Ticks | None] = []
        self._bots: list[dict[int, Bot]] = []
        self._legal: list[list[Hashable]] = [[] for _ in range(e)]
        self._pending: list[tuple[int, ...]] = [() for _ in range(e)]
        self._steps = [0] * e
        self._rows = np.arange(e)
        self._gather = _Gather(self.encoder, self.obs, self.masks)

    # --- one environment --------------------------------------------------------------

    def _start(self, i: int) -> None:
        game_seed = int(self._rngs[i].integers(0, 2**62))
        bots = {
            s: make_bot(self.game, spec, seed=game_seed + 1 + k)
            for k, (s, spec) in enumerate(zip(self._others, self.specs, strict=True))
        }
        ticks: Ticks | None = None
        if self.game.real_time:
            ticks = Ticks(self.game, self.encoder, self.tick, bots=bots)
            ticks.reset(game_seed)
            state = ticks.state
            state.set_recording(False)
        else:
            state = self.game.new_state(seed=game_seed)
            state.set_recording(False)
            for s, bot in bots.items():
                bot.new_game(s)
        if self._drop_events:
            state.set_event_log(False)
        if len(self._states) <= i:
            self._states.append(state)
            self._ticks.append(ticks)
            self._bots.append(bots)
        else:
            self._states[i], self._ticks[i], self._bots[i] = state, ticks, bots
        self._pending[i] = ()
        self._steps[i] = 0
        if ticks is None:
            self._bots_play(i)
        self._refresh(i)

    def _bots_play(self, i: int) -> None:
        bots_play(self._states[i], self._bots[i], self.seat)

    def _refresh(self, i: int) -> None:
        """Gather environment ``i``'s observation and mask (written by ``_gather.flush``)."""
        state, me = self._states[i], self.seat
        ticks = self._ticks[i]
        if ticks is not None:
            legal = [] if state.is_over() else state.legal_actions(me)
        else:
            over = state.is_over()
            legal = [] if over or state.seats_to_act()[0] != me else state.legal_actions(me)
        self._legal[i] = legal
        pending = self._pending[i]
        self._gather.obs_row(state, me, pending, i)
        if ticks is not None:
            self._gather.tick_mask(state, me, i)
        else:
            self._gather.mask_row(legal, pending, i)

    # --- the vector API ------------------------------------------------------------

    @_gc_paused
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [
                None if seed is None else seed + i for i in range(self.num_envs)
            ]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset needs {self.num_envs} seeds, not {len(seeds)}")
        self._rngs = [seeding.np_random(s)[0] for s in seeds]
        self._states, self._ticks, self._bots = [], [], []
        for i in range(self.num_envs):
            self._start(i)
        self._gather.flush()
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        return self.obs, {"action_mask": self.masks}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every environment's legal ids now, as booleans."""
        return self.masks.astype(bool)

    @_gc_paused
    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        ids = np.asarray(actions)
        e = self.num_envs
        if ids.shape != (e,) or not np.issubdtype(ids.dtype, np.integer):
            raise EncodingError(
                f"actions must be {e} whole-number ids (one per environment), not an array "
                f"of shape {ids.shape} and type {ids.dtype}"
            )
        inside = (ids >= 0) & (ids < self.encoder.num_actions)
        legal = inside & (self.masks[self._rows, np.where(inside, ids, 0)] == 1)
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise EncodingError(
                f"environment {i}: id {int(ids[i])} is not legal now (legal: "
                f"{np.flatnonzero(self.masks[i]).tolist()})"
            )
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        final_obs: list[Any] = [None] * e
        ended = np.zeros(e, dtype=bool)
        encoder, me = self.encoder, self.seat
        if encoder.max_ids_per_action == 1 and self._gather.fast:
            # Every action one id, and the vectors read from the state: the compiled loop plays.
            over = self._gather.rows.step_envs(
                self._states,
                self._ticks,
                self._bots,
                ids.tolist(),
                self._legal,
                me,
                self._steps,
                self.max_steps or 0,
            )
            for i in over:
                state = self._states[i]
                if state.is_over():
                    self.rewards[i] = returns(self.game, state.outcome())[me]
                    self.terminated[i] = True
                else:
                    self.truncated[i] = True
                final_obs[i] = encoder.observe(state, me, ())
                ended[i] = True
                self._start(i)
            return self._flush_step(final_obs, ended)
        single = encoder.max_ids_per_action == 1  # every action one id: found by the rows
        for i in range(e):
            state = self._states[i]
            a = int(ids[i])
            ticks = self._ticks[i]
            if ticks is not None:
                action = None if a == WAIT else self._gather.rows.choose(self._legal[i], a)
                ticks.play({} if action is None else {me: action})
            else:
                pending = (*self._pending[i], a)
                if single:
                    action = self._gather.rows.choose(self._legal[i], a)
                else:
                    action = encoder.complete(self._legal[i], pending)
                if action is None:
                    self._pending[i] = pending
                else:
                    self._pending[i] = ()
                    state.apply_trusted(me, action)
                    self._bots_play(i)
            self._steps[i] += 1
            if state.is_over():
                self.rewards[i] = returns(self.game, state.outcome())[me]
                self.terminated[i] = True
            elif self.max_steps is not None and self._steps[i] >= self.max_steps:
                self.truncated[i] = True
            if self.terminated[i] or self.truncated[i]:
                final_obs[i] = encoder.observe(state, me, self._pending[i])
                ended[i] = True
                self._start(i)
            else:
                self._refresh(i)
        return self._flush_step(final_obs, ended)

    def _flush_step(
        self, final_obs: list[Any], ended: npt.NDArray[np.bool_]
    ) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Write what the step gathered; what :meth:`step` returns."""
        self._gather.flush()
        info: dict[str, Any] = {"action_mask": self.masks}
        if ended.any():
            info["final_obs"] = np.array(final_obs, dtype=object)
            info["_final_obs"] = ended
            info["final_info"] = {}
            info["_final_info"] = ended
        return self.obs, self.rewards, self.terminated, self.truncated, info
