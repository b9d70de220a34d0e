"""OpenSpiel: every game registered as a Python game (``pyspiel.register_game``).

>>> import pyspiel
>>> import ratgames.rl.openspiel  # registers the games
>>> game = pyspiel.load_game("python_ratgames_caged_rats")
>>> game.num_distinct_actions(), game.get_type().dynamics.name
(860, 'SEQUENTIAL')

Every game that declares an encoder and a deal plan (its ``encoder`` and ``deal_plan`` parts,
:class:`ratgames.core.registry.GameParts`) is registered, as ``python_ratgames_`` and its id
with ``_`` for ``-`` (:func:`short_name`); parameters ``players`` (int) and ``options`` (the
game's options as a JSON object in a string, percent-escaped as :func:`load` does it), and for a
real-time game ``tick`` (seconds) and ``max_ticks`` (the game is stopped there, a draw).

Game types: imperfect information, explicit chance, zero-sum, terminal rewards
(:func:`ratgames.rl.table.returns`); the turn-based games are sequential, a real-time game is
simultaneous (every player chooses an id at every tick, wait among them, :mod:`ratgames.rl.table`).
Chance is explicit: the deal is dealt one card at a time (:mod:`ratgames.rl.deals`), and so is
every shuffle during play (a reshuffled draw pile, Rats' reserves, the deals of later rounds):
when a move leads to a shuffle, chance nodes deal the shuffled cards one at a time before the
move takes effect (the game is then replayed with those outcomes, through the public
``new_state(deal=..., chance_script=...)``).

Tensors and strings: the observation tensor and the information-state tensor are the encoder's
vector of the player's observation (:mod:`ratgames.rl.encoding`); the observation string is that
observation as JSON (without the play-by-play events), the information-state string is the JSON
observation with its events and the ids the player has picked of a two-step choice.

``resample_from_infostate(player, sampler)`` deals the cards the player cannot see at random
(``sample_consistent``, seeded from ``sampler``).  A resampled state is a hypothesis, not a game:
its later shuffles are drawn at once (no chance nodes) and it is not serialized by replay.
Serialization of a real game keeps its deal, chance outcomes and moves, and replays them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable
from typing import Any
from urllib.parse import quote, unquote

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import ratgames
from ratgames.core.game import Game, State
from ratgames.core.registry import game_ids, game_parts
from ratgames.core.rng import Rng

from .bounds import max_decisions
from .deals import DealPlan, deal_plan_for
from .encoding import Encoder, EncodingError, encoder_for
from .table import DEFAULT_TICK, Ticks, returns

DEFAULT_MAX_TICKS = 50_000


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a ratgames game."""
    return "python_ratgames_" + game_id.replace("-", "_")


def _game_from_params(game_id: str, params: dict[str, Any]) -> Game:
    options = json.loads(unquote(params.get("options", "{}") or "{}"))
    if not isinstance(options, dict):
        raise EncodingError("the 'options' parameter is a JSON object")
    return ratgames.get_game(game_id, players=int(params["players"]), options=options)


class _Core:
    """Everything a state holds (one object, so that OpenSpiel's clone copies it fast and its
    serialization pickles what replays the game)."""

    def __init__(self, pygame: RatgamesGame) -> None:
        self.g = pygame
        self.deal_chosen: list[int] = []
        self.state: State | None = None
        self.script: list[tuple[str, Any]] = []
        self.actions: list[tuple[int, str, float | None]] = []
        self.pending: tuple[int, ...] = ()
        self.waiting: tuple[int, Hashable] | None = None
        """A move that is waiting for its shuffle to be dealt (seat, action)."""
        self.shuffle_what = ""
        self.shuffle_pool: list[int] = []
        self.shuffle_chosen: list[int] = []
        self.sampled = False
        self.ticks_count = 0
        self.picked: dict[int, list[int]] = {}

    def copy(self) -> _Core:
        c = _Core.__new__(_Core)
        c.__dict__.update(self.__dict__)
        c.deal_chosen = self.deal_chosen[:]
        c.state = self.state.clone() if self.state is not None else None
        c.script = self.script[:]
        c.actions = self.actions[:]
        c.shuffle_pool = self.shuffle_pool[:]
        c.shuffle_chosen = self.shuffle_chosen[:]
        c.picked = {k: v[:] for k, v in self.picked.items()}
        return c

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["g"] = (self.g.game_id, self.g.params_dict)
        if not self.sampled:
            d["state"] = None
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        game_id, params = d["g"]
        self.__dict__.update(d)
        self.g = pyspiel.load_game(short_name(game_id), params)
        if not self.sampled and self.deal_chosen and self.g.plan.outcomes(self.deal_chosen) is None:
            # A move waiting for its shuffle is not applied yet.
            done = self.actions[:-1] if self.waiting is not None else self.actions
            self.state = self.g.rebuild(self.deal_chosen, self.script, done)


class RatgamesGame(pyspiel.Game):  # type: ignore[misc]
    """A ratgames game as an OpenSpiel game."""

    game_id: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = _SPECS[self.game_id]
        params = {**spec.parameter_specification, **(params or {})}
        self.params_dict = dict(params)
        self.rgame = _game_from_params(self.game_id, params)
        self.encoder: Encoder = encoder_for(self.rgame)
        self.plan: DealPlan = deal_plan_for(self.rgame)
        self.tick = float(params.get("tick", DEFAULT_TICK))
        self.max_ticks = int(params.get("max_ticks", DEFAULT_MAX_TICKS))
        if not (math.isfinite(self.tick) and self.tick > 0):
            raise ValueError(f"tick must be a positive number of seconds, not {self.tick!r}")
        if self.max_ticks < 1:
            raise ValueError(
                f"max_ticks must be a whole number of ticks from 1, not {self.max_ticks}"
            )
        n = self.rgame.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=self.plan.max_outcomes,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_decisions(self.rgame, self.max_ticks),
        )
        super().__init__(spec, info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        # Loaded again by name and parameters, as OpenSpiel's own games are.
        return (pyspiel.load_game, (short_name(self.game_id), dict(self.params_dict)))

    def new_initial_state(self) -> RatgamesState:
        return RatgamesState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(self, iig_obs_type)

    def rebuild(
        self,
        deal_chosen: list[int],
        script: list[tuple[str, Any]],
        actions: list[tuple[int, str, float | None]],
    ) -> State:
        """The game from its deal, chance outcomes and moves (replayed)."""
        game = self.rgame
        state = game.new_state(seed=0, deal=self.plan.deal(deal_chosen), chance_script=script)
        for seat, text, time in actions:
            state.apply(seat, game.parse_action(text), time=time)
        return state


def _chance_entries(state: State) -> list[tuple[str, Any]]:
    return [(e[1], e[2]) for e in state.events() if e[0] == "chance"]


class RatgamesState(pyspiel.State):  # type: ignore[misc]
    """A moment of a ratgames game, as OpenSpiel sees it."""

    def __init__(self, game: RatgamesGame) -> None:
        super().__init__(game)
        self._c = _Core(game)
        self._maybe_start()

    # --- helpers --------------------------------------------------------------------------------

    @property
    def core(self) -> _Core:
        """What the state holds (see :class:`_Core`)."""
        return self._c

    @property
    def ratgames_state(self) -> State | None:
        """The ratgames state (None while the first deal is being dealt)."""
        return self._c.state

    def _maybe_start(self) -> None:
        c = self._c
        if c.state is None and c.g.plan.outcomes(c.deal_chosen) is None:
            c.state = c.g.rebuild(c.deal_chosen, [], [])
            if c.g.rgame.real_time:
                c.ticks_count = 0

    def _in_chance(self) -> bool:
        c = self._c
        return c.state is None or c.waiting is not None

    def _to_act(self) -> int:
        state = self._c.state
        assert state is not None
        seats = state.seats_to_act()
        return seats[0] if seats else -1

    def _over(self) -> bool:
        c = self._c
        if c.state is None or c.waiting is not None:
            return False
        if c.state.is_over():
            return True
        return c.g.rgame.real_time and c.ticks_count >= c.g.max_ticks

    # --- OpenSpiel API --------------------------------------------------------------------------

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._in_chance():
            return int(pyspiel.PlayerId.CHANCE)
        if self._c.g.rgame.real_time:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return self._to_act()

    def _legal_actions(self, player: int) -> list[int]:
        c = self._c
        if self._over() or self._in_chance():
            return []
        assert c.state is not None
        if c.g.rgame.real_time:
            if c.state.is_over():
                return [0]
            return c.g.encoder.next_ids(c.state.legal_actions(player))
        if player != self._to_act():
            return []
        return c.g.encoder.next_ids(c.state.legal_actions(player), c.pending)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._c
        if c.state is None:
            got = c.g.plan.outcomes(c.deal_chosen)
            assert got is not None
            return got
        left = list(c.shuffle_pool)
        for k in c.shuffle_chosen:
            left.remove(k)
        counts: dict[int, int] = {}
        for k in left:
            counts[k] = counts.get(k, 0) + 1
        return [(k, v / len(left)) for k, v in sorted(counts.items())]

    def _apply_action(self, action: int) -> None:
        c = self._c
        if c.state is None:
            c.deal_chosen.append(int(action))
            self._maybe_start()
            return
        if c.waiting is not None:
            c.shuffle_chosen.append(int(action))
            if len(c.shuffle_chosen) == len(c.shuffle_pool):
                cards = c.g.plan.cards
                order = tuple(cards[k] for k in c.shuffle_chosen)
                c.script.append((c.shuffle_what, order))
                self._settle()
            return
        seat = self._to_act()
        ids = (*c.pending, int(action))
        move = c.g.encoder.complete(c.state.legal_actions(seat), ids)
        if move is None:
            c.pending = ids
            return
        c.pending = ()
        self._play(seat, move, None)

    def _apply_actions(self, actions: list[int]) -> None:
        c = self._c
        assert c.state is not None
        c.ticks_count += 1
        if c.state.is_over():
            return
        ticks = Ticks(c.g.rgame, c.g.encoder, c.g.tick)
        ticks.state = c.state
        ticks.count = c.ticks_count - 1
        choices = {p: int(a) for p, a in enumerate(actions)}
        for seat, move in ticks.step(choices):
            c.actions.append((seat, str(move), ticks.count * ticks.tick))

    def _play(self, seat: int, move: Hashable, time: float | None) -> None:
        """Apply a whole move; when it leads to a shuffle, wait for chance to deal it."""
        c = self._c
        assert c.state is not None
        if c.sampled:
            c.state.apply(seat, move, time=time)
            return
        trial = c.state.clone()
        trial.apply(seat, move, time=time)
        done = len(c.script)
        found = _chance_entries(trial)
        if len(found) == done:
            c.state = trial
            c.actions.append((seat, str(move), time))
            return
        c.waiting = (seat, move)
        c.actions.append((seat, str(move), time))
        self._ask_shuffle(found[done])

    def _ask_shuffle(self, entry: tuple[str, Any]) -> None:
        c = self._c
        what, outcome = entry
        if not isinstance(outcome, tuple):
            raise EncodingError(f"chance outcome {what!r} is not a shuffle: not supported")
        index = c.g.plan.index
        c.shuffle_what = what
        c.shuffle_pool = sorted(index[card] for card in outcome)
        c.shuffle_chosen = []
        if len(set(c.shuffle_pool)) <= 1:
            c.script.append((what, tuple(outcome)))
            self._settle()

    def _settle(self) -> None:
        """Replay the game with the chance outcomes dealt so far; ask for the next shuffle the
        waiting move leads to, or finish the move."""
        c = self._c
        state = c.g.rebuild(c.deal_chosen, c.script, c.actions)
        found = _chance_entries(state)
        if len(found) > len(c.script):
            self._ask_shuffle(found[len(c.script)])
            return
        c.state = state
        c.waiting = None
        c.shuffle_pool = []
        c.shuffle_chosen = []

    def _action_to_string(self, player: int, action: int) -> str:
        c = self._c
        if player == pyspiel.PlayerId.CHANCE:
            if c.state is None:
                return c.g.plan.outcome_text(c.deal_chosen, action)
            return f"card {c.g.plan.text[action]}"
        return c.g.encoder.id_text(action)

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        c = self._c
        if not self._over():
            return [0.0] * c.g.rgame.players
        assert c.state is not None
        return returns(c.g.rgame, c.state.outcome())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RatgamesState:
        """A state the player cannot tell from this one, its hidden cards dealt at random."""
        c = self._c
        if c.state is None or c.waiting is not None:
            raise EncodingError("resampling is for decision nodes, not while cards are dealt")
        seed = int(probability_sampler() * 2.0**52)
        out = RatgamesState(c.g)
        core = out._c
        core.state = c.state.sample_consistent(player_id, Rng(seed))
        core.sampled = True
        core.deal_chosen = c.deal_chosen[:]
        core.pending = c.pending if player_id == self._to_act() else ()
        core.ticks_count = c.ticks_count
        return out

    def information_state(self, player: int) -> str:
        """The player's information-state string (see the module docstring)."""
        return self._string(player, events=True)

    def _string(self, player: int, events: bool) -> str:
        c = self._c
        if c.state is None:
            return f"p{player} dealing {len(c.deal_chosen)}"
        obs = c.state.observation(player, events=events)
        head = f"p{player}"
        if events and c.pending and player == self._to_act():
            head += f" picked {list(c.pending)}"
        if c.waiting is not None:
            head += f" shuffling {len(c.shuffle_chosen)}"
        return head + " " + json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def __str__(self) -> str:
        c = self._c
        if c.state is None:
            return f"dealing {c.deal_chosen}"
        snap = json.dumps(c.state.snapshot(), sort_keys=True, separators=(",", ":"))
        return f"pending={list(c.pending)} waiting={c.waiting} ticks={c.ticks_count} {snap}"


class Observer:
    """The observer OpenSpiel asks for tensors and strings (PyObserver interface)."""

    def __init__(self, game: RatgamesGame, iig_obs_type: Any) -> None:
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or (
            not obs_type.public_info
        ):
            raise ValueError("only the observation of a single player is offered")
        self.game = game
        self.perfect_recall = bool(obs_type.perfect_recall)
        self.tensor = np.zeros(game.encoder.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RatgamesState, player: int) -> None:
        c = state.core
        if c.state is None:
            self.tensor.fill(0.0)
            return
        pending = c.pending if not c.g.rgame.real_time and player == state._to_act() else ()
        self.tensor[:] = c.g.encoder.observe(c.state, player, pending)

    def string_from(self, state: RatgamesState, player: int) -> str:
        return state._string(player, events=self.perfect_recall)


def _game_type(game_id: str) -> Any:
    cls = ratgames.get_game(game_id).__class__
    params: dict[str, Any] = {"players": cls.default_players, "options": "{}"}
    if cls.real_time:
        params["tick"] = DEFAULT_TICK
        params["max_ticks"] = DEFAULT_MAX_TICKS
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"ratgames {cls.title}",
        dynamics=dynamics.SIMULTANEOUS if cls.real_time else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


_SPECS: dict[str, Any] = {}
GAME_CLASSES: dict[str, type[RatgamesGame]] = {}
"""The game class of each game id registered, a module-level class named after the game
(``CagedRatsGame`` for ``caged-rats``), so that games and states pickle."""


def covered_ids() -> list[str]:
    """The ids of the games that declare an encoder and a deal plan (nothing imported)."""
    out = []
    for game_id in game_ids():
        parts = game_parts(game_id)
        if parts.encoder is not None and parts.deal_plan is not None:
            out.append(game_id)
    return out


def _class_name(game_id: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in game_id.split("-")) + "Game"


def register() -> None:
    """Register every covered game with OpenSpiel (done on import; again registers the games
    registered since)."""
    for game_id in covered_ids():
        if game_id in _SPECS:
            continue
        name = _class_name(game_id)
        cls = type(
            name,
            (RatgamesGame,),
            {
                "game_id": game_id,
                "__module__": __name__,
                "__qualname__": name,
                "__doc__": f"{game_id} for OpenSpiel (``{short_name(game_id)}``).",
            },
        )
        globals()[name] = cls
        GAME_CLASSES[game_id] = cls
        _SPECS[game_id] = _game_type(game_id)
        pyspiel.register_game(_SPECS[game_id], cls)


def load(game_id: str, players: int | None = None, **options: Any) -> Any:
    """The OpenSpiel game of ``game_id`` with ``players`` and the game's ``options``."""
    # Percent-escaped: OpenSpiel's game strings cannot hold "=", "," or brackets in a value.
    params: dict[str, Any] = {"options": quote(json.dumps(options, sort_keys=True), safe="")}
    if game_id not in _SPECS:
        register()  # a game registered since this module was imported
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(short_name(game_id), params)


def from_ratgames(game: Any, state: State) -> RatgamesState:
    """An OpenSpiel state around a ratgames ``state`` of the same game (for bots that take a
    position from ratgames): it is treated as a hypothesis, as a resampled state is."""
    out = game.new_initial_state()
    core = out.core
    core.state = state.clone()
    core.sampled = True
    core.deal_chosen = [0]
    return out  # type: ignore[no-any-return]


register()
