"""OpenSpiel's search bots as ratgames bots, so that they meet this project's bots on equal terms
(``ratgames tournament``, :func:`ratgames.tournament.run_tournament`).

Importing this module registers, for every turn-based game:

* ``openspiel-ismcts``: OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.
  ismcts.ISMCTSBot``) with random roll-outs, playing through the OpenSpiel registration
  (:mod:`ratgames.rl.openspiel`); its samples come from ``resample_from_infostate``;
* ``openspiel-mcts``: MCTS with determinization: OpenSpiel's ``MCTSBot`` searches ``worlds``
  deals of the hidden cards (each a ``sample_consistent`` of the seat's view) and the move with the
  most visits over all of them is played.

Both take ``seconds`` (a time budget per move: the number of simulations is adjusted after every
move so that a move takes that long; 0 uses ``simulations`` as given), ``simulations`` and ``c``
(the UCT constant).  The bots see only their seat's view, as every ratgames bot does.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Hashable
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from ratgames.core.bots import Bot, SeatView, register_bot
from ratgames.core.game import Game
from ratgames.core.options import Option

from .encoding import encoder_for
from .openspiel import RatgamesState, from_ratgames, load

_GAMES: dict[str, Any] = {}


def _open_spiel_game(game: Game) -> Any:
    key = json.dumps([game.id, game.players, game.options], sort_keys=True)
    got = _GAMES.get(key)
    if got is None:
        got = _GAMES[key] = load(game.id, game.players, **game.options)
    return got


_PARAMS = (
    Option(
        "seconds",
        0.0,
        "time budget per move in seconds (0: use simulations)",
        minimum=0.0,
        maximum=600.0,
    ),
    Option(
        "simulations",
        100,
        "simulations per move (the first move's when seconds is set)",
        minimum=1,
        maximum=10_000_000,
    ),
    Option("c", 2.0, "UCT exploration constant", minimum=0.0, maximum=100.0),
)


class _OpenSpielBot(Bot):
    turn_based_only = True

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        self.seconds = float(params.get("seconds", 0.0))
        self.sims = int(params.get("simulations", 100))
        self.c = float(params.get("c", 2.0))
        self.os_game = _open_spiel_game(game)
        self.encoder = encoder_for(game)
        self.np_rng = np.random.RandomState(seed % 2**32)
        self.evaluator = mcts.RandomRolloutEvaluator(1, self.np_rng)

    def _sample(self, view: SeatView, ids: list[int]) -> RatgamesState:
        state = from_ratgames(self.os_game, view.sample_consistent(self.rng))
        for i in ids:
            state.apply_action(i)
        return state

    def _choose(self, view: SeatView, ids: list[int]) -> int:
        raise NotImplementedError

    def act(self, view: SeatView) -> Hashable:
        start = time.perf_counter()
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]  # nothing to think about (and no time to learn from)
        ids: list[int] = []
        while True:
            ids.append(self._choose(view, ids))
            action = self.encoder.complete(legal, ids)
            if action is not None:
                break
        if self.seconds > 0:
            # At most twice as many simulations as last time: a quick move (few choices) must
            # not set the next, harder one a count that takes many times the budget.
            took = max(1e-6, time.perf_counter() - start)
            wanted = round(self.sims * self.seconds / took)
            self.sims = max(4, min(2 * self.sims, 1_000_000, wanted))
        return action


class OpenSpielIsmctsBot(_OpenSpielBot):
    """OpenSpiel's IS-MCTS through the OpenSpiel registration."""

    name = "openspiel-ismcts"
    params = _PARAMS

    def _choose(self, view: SeatView, ids: list[int]) -> int:
        bot = ismcts.ISMCTSBot(
            self.os_game, self.evaluator, self.c, self.sims, random_state=self.np_rng
        )
        rng = self.rng
        # A fresh random number for every resample (OpenSpiel's default sampler repeats).
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
        return int(bot.step(self._sample(view, ids)))


class OpenSpielMctsBot(_OpenSpielBot):
    """OpenSpiel's MCTS over several determinizations (dealt from the seat's view)."""

    name = "openspiel-mcts"
    params = (
        *_PARAMS,
        Option("worlds", 4, "determinizations searched per move", minimum=1, maximum=1000),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        self.worlds = int(params.get("worlds", 4))

    def _choose(self, view: SeatView, ids: list[int]) -> int:
        visits: dict[int, int] = defaultdict(int)
        per_world = max(2, self.sims // self.worlds)
        for _ in range(self.worlds):
            bot = mcts.MCTSBot(
                self.os_game, self.c, per_world, self.evaluator, random_state=self.np_rng
            )
            root = bot.mcts_search(self._sample(view, ids))
            for child in root.children:
                visits[int(child.action)] += int(child.explore_count)
        return max(sorted(visits), key=lambda a: visits[a])


register_bot(
    "openspiel-ismcts",
    OpenSpielIsmctsBot,
    "OpenSpiel's IS-MCTS with random roll-outs, through the OpenSpiel registration",
)
register_bot(
    "openspiel-mcts",
    OpenSpielMctsBot,
    "OpenSpiel's MCTS over determinized deals, through the OpenSpiel registration",
)
