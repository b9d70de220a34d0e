"""Information-set Monte Carlo tree search (single-observer ISMCTS).

The bot never sees the true state.  Each iteration asks its :class:`SeatView` for a full state
consistent with what its seat knows (``sample_consistent``), walks one tree shared by all those
samples (children keyed by who acts and what they do, chosen by UCB with availability counts,
as in Cowling, Powley and Whitehouse 2012), plays the rest of the game out with the rollout
policy, and credits every seat on the path with its share of the win.

Parameters (``ismcts:iterations=2000,c=0.7,rollout=heuristic``):

* ``iterations``: iterations per move (ignored when ``seconds`` is set);
* ``seconds``: a time budget per move instead;
* ``c``: the exploration constant;
* ``rollout``: ``heuristic`` (the game's heuristic bot plays the rest out; the default where
  the game has one) or ``random``;
* ``depth``: the most actions a rollout plays before it stops and scores the position;
* ``tree``: the deepest level the tree grows to (0: no limit).  ``tree=1`` searches only the
  seat's own move and lets the rollout policy play the rest, which keeps every statistic about
  a decision the seat really faces: deeper nodes mix positions the seat would tell apart (after
  a draw, say), and in these games that costs more than the deeper look gains;
* ``horizon``: ``round`` stops each iteration when the round (or deal) in play ends and scores
  the position with the game's :meth:`~ratgames.core.game.State.win_estimate`; ``game`` plays
  every iteration to the end of the game.  Games without an estimate always play to the end;
* ``belief``: ``model`` deals the hidden cards of each sample by the game's opponent model
  where it has one (see :func:`~ratgames.core.bots.register_belief`: in Rat-a-Tat Cat, a card
  a player kept from the draw pile is most likely lower than the one it replaced), ``uniform``
  deals them all alike;
* ``score``: how a finished game is scored: ``result`` (1 for a win, a share for a tie, else 0)
  or ``estimate`` (the game's estimate from the final scores, which tells a narrow loss from a
  rout: less noise per play-out, where the game's scores say how close it was).
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar

from ratgames.core.bots import (
    Bot,
    Sampler,
    SeatView,
    belief_for,
    bot_entries,
    make_bot,
    register_bot,
)
from ratgames.core.game import Action, Game, State
from ratgames.core.options import Option
from ratgames.core.rng import Rng


class Node:
    """A node of the search tree: statistics of the action that led here."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[tuple[int, Action], Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed reward of the seat that chose the action leading here


def win_shares(state: State, players: int, estimate: bool = False) -> list[float]:
    """Each seat's share of the win (1 for a sole winner, 1/k for a shared win, else 0); for a
    game still going on, or with ``estimate`` always, the game's estimate from the scores (even
    shares if it has none)."""
    outcome = state.outcome()
    if outcome is None or estimate:
        shares = state.win_estimate()
        if shares is not None or outcome is None:
            return shares or [1.0 / players] * players
    share = 1.0 / len(outcome.winners)
    rewards = [0.0] * players
    for w in outcome.winners:
        rewards[w] = share
    return rewards


class IsmctsBot(Bot):
    """Information-set Monte Carlo tree search over samples of what the seat cannot see."""

    name = "ismcts"
    turn_based_only = True
    params: ClassVar[tuple[Option, ...]] = (
        Option("iterations", 1000, "iterations per move", minimum=1, maximum=10_000_000),
        Option(
            "seconds",
            0.0,
            "time budget per move in seconds (0: use iterations)",
            minimum=0.0,
            maximum=3600.0,
        ),
        Option("c", 0.7, "exploration constant", minimum=0.0, maximum=10.0),
        Option(
            "rollout",
            "heuristic",
            "how samples are played out (heuristic: the game's heuristic bot plays every seat; "
            "random where the game has none)",
            choices=("random", "heuristic"),
        ),
        Option("depth", 2000, "most actions in one rollout", minimum=1, maximum=1_000_000),
        Option(
            "tree",
            0,
            "deepest level of the tree (0: no limit); below it the rollout policy plays",
            minimum=0,
            maximum=1000,
        ),
        Option(
            "horizon",
            "round",
            "where an iteration stops: the end of the round in play, or of the game",
            choices=("round", "game"),
        ),
        Option(
            "belief",
            "model",
            "how hidden cards are dealt in the samples: model (weighted by what the other "
            "seats' moves say, where the game has an opponent model) or uniform",
            choices=("model", "uniform"),
        ),
        Option(
            "score",
            "result",
            "how a finished game is scored: result (who won) or estimate (the game's win "
            "estimate from the final scores, which tells a near miss from a rout)",
            choices=("result", "estimate"),
        ),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        if "rollout" not in params and "heuristic" not in {e.name for e in bot_entries(game.id)}:
            params["rollout"] = "random"  # a game without a heuristic bot plays out at random
        super().__init__(game, seed, **params)
        values = {p.name: params.get(p.name, p.default) for p in self.params}
        self.iterations: int = values["iterations"]
        self.seconds: float = values["seconds"]
        self.c: float = values.get("c", 0.7)
        self.rollout: str = values["rollout"]
        self.depth: int = values["depth"]
        self.horizon: str = values["horizon"]
        self.tree: int = values.get("tree", 0)
        self.score_estimate = values.get("score", "result") == "estimate"
        self._belief = belief_for(game.id) if values.get("belief", "model") == "model" else None
        self.last_iterations = 0
        self._rollout_bots: list[Bot] | None = None
        if self.rollout == "heuristic":
            self._rollout_bots = [
                make_bot(game, "heuristic", seed=seed + 1 + s) for s in range(game.players)
            ]

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = Node()
        rng = self.rng
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done = 0
        by_round: bool | None = None
        sample = self.sampler(view)
        while True:
            if deadline is not None:
                if done and time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
            state = sample(Rng(rng.next64()))
            state.set_recording(False)
            if by_round is None:
                by_round = self._by_round(state)
            self._iterate(root, state, rng, by_round)
            done += 1
        self.last_iterations = done
        me = view.seat
        best: Action | None = None
        best_key: tuple[int, float] = (-1, 0.0)
        for (seat, action), child in root.children.items():
            if seat != me or action not in legal:
                continue
            key = (child.visits, child.reward / max(1, child.visits))
            if key > best_key:
                best, best_key = action, key
        return best if best is not None else legal[rng.randbelow(len(legal))]

    def sampler(self, view: SeatView) -> Sampler:
        """How this decision's samples are drawn: the game's opponent model, if it has one and
        ``belief=model``; else every state consistent with the view, equally likely."""
        if self._belief is not None:
            return self._belief(view)
        return view.sample_consistent

    def _by_round(self, state: State) -> bool:
        """Whether play-outs stop at the end of the round: asked for, and the game can judge it."""
        return self.horizon == "round" and state.win_estimate() is not None

    def _iterate(self, root: Node, state: State, rng: Rng, by_round: bool) -> None:
        players = state.game.players
        path: list[tuple[Node, int]] = []
        node = root
        c = self.c
        # Where the iteration stops: the end of the stage in play, if the game can judge it.
        stage = state.stage() if by_round else -1
        # Selection and expansion.
        limit = self.tree or 1 << 30
        while not state.is_over() and (stage < 0 or state.stage() == stage) and len(path) < limit:
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            children = node.children
            unexplored = [a for a in legal if (seat, a) not in children]
            for a in legal:
                child = children.get((seat, a))
                if child is not None:
                    child.available += 1
            if unexplored:
                action = unexplored[rng.randbelow(len(unexplored))]
                child = Node()
                child.available = 1
                children[(seat, action)] = child
                state.apply(seat, action)
                path.append((child, seat))
                break
            best_score = -1.0
            chosen: tuple[Node, Action] | None = None
            for a in legal:
                child = children[(seat, a)]
                score = child.reward / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if score > best_score:
                    best_score, chosen = score, (child, a)
            assert chosen is not None
            state.apply(seat, chosen[1])
            path.append((chosen[0], seat))
            node = chosen[0]
        # Rollout.
        self._playout(state, rng, stage)
        rewards = win_shares(state, players, self.score_estimate)
        for child, seat in path:
            child.visits += 1
            child.reward += rewards[seat]

    def _playout(self, state: State, rng: Rng, stage: int) -> None:
        bots = self._rollout_bots
        if bots is not None:
            for seat, bot in enumerate(bots):
                bot.new_game(seat)
        steps = 0
        while not state.is_over() and steps < self.depth and (stage < 0 or state.stage() == stage):
            seat = state.seats_to_act()[0]
            if bots is None:
                legal = state.legal_actions(seat)
                action = legal[rng.randbelow(len(legal))]
            else:
                action = bots[seat].act(SeatView(state, seat))
            state.apply(seat, action)
            steps += 1


register_bot(
    "ismcts",
    IsmctsBot,
    "information-set Monte Carlo tree search over samples of the hidden cards",
)
