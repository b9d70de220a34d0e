# ratgames: compiled
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
  rout: less noise per play-out, where the game's scores say how close it was);
* ``confidence``: compare the seat's own moves with the game's heuristic move instead of on
  their own (0: off).  Each iteration then picks one of the other moves at the root (by UCB on
  its gain so far), and plays both it and the heuristic's move out on the same sample with the
  same random numbers (common random numbers, one of the variance reductions for Monte Carlo
  tree search of Veness, Lanctot and Bowling 2011): the move's gain on that sample is the
  difference, and the luck of the sample cancels out of it.  The heuristic's move is kept unless
  another move's mean gain is at least ``confidence`` standard errors above nothing.  An
  iteration costs two play-outs.  The pairing is closest with ``tree=1``: deeper, the move's
  branch is searched while the heuristic's is only played out.
"""

from __future__ import annotations

import math
import time
from typing import Any, ClassVar, Final

from ratgames.core._mypyc import mypyc_attr
from ratgames.core.bots import (
    Bot,
    Sampler,
    SeatView,
    belief_for,
    bot_entries,
    bot_params_from,
    make_bot,
    register_bot,
)
from ratgames.core.errors import OptionError
from ratgames.core.game import Action, Game, State
from ratgames.core.options import Option
from ratgames.core.rng import Rng

_LOGS: Final[list[float]] = [math.log(n) if n else 0.0 for n in range(4096)]
"""``math.log(n)`` for the availability counts of most nodes (index 0 is never read)."""


def _log(n: int) -> float:
    """``math.log(n)`` for ``n`` >= 1 (from a table when it is small)."""
    return _LOGS[n] if n < 4096 else math.log(n)


class Node:
    """A node of the search tree: statistics of the action that led here."""

    __slots__ = ("available", "children", "gain", "gain2", "reward", "seat", "visits")

    def __init__(self, seat: int = -1) -> None:
        self.seat = seat  # who chose the action that led here (-1 at the root)
        # The children by who acts, then by what they do (in the order they were added).
        self.children: dict[int, dict[Action, Node]] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed reward of the seat that chose the action leading here
        # With a paired baseline (``confidence``): the summed gain over the baseline's play-out
        # on the same samples, and the sum of its squares.
        self.gain = 0.0
        self.gain2 = 0.0


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


@mypyc_attr(allow_interpreted_subclasses=True)
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
        Option(
            "confidence",
            0.0,
            "pair each move with the game's heuristic move on the same samples and keep the "
            "heuristic's move unless another gains on it by at least this many standard errors "
            "(0: off; an iteration then costs two play-outs)",
            minimum=0.0,
            maximum=10.0,
        ),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        if "rollout" not in params and "heuristic" not in {e.name for e in bot_entries(game.id)}:
            params["rollout"] = "random"  # a game without a heuristic bot plays out at random
        super().__init__(game, seed, **params)
        # A subclass that leaves out some of the tree search's parameters gets their defaults.
        values = {**bot_params_from(IsmctsBot, {}), **bot_params_from(type(self), params)}
        self.iterations: int = values["iterations"]
        self.seconds: float = values["seconds"]
        self.c: float = values["c"]
        self.rollout: str = values["rollout"]
        self.depth: int = values["depth"]
        self.horizon: str = values["horizon"]
        self.tree: int = values["tree"]
        self.score_estimate = values["score"] == "estimate"
        self._belief = belief_for(game.id) if values["belief"] == "model" else None
        self.confidence: float = float(values["confidence"])
        self.last_iterations = 0
        has_heuristic = "heuristic" in {e.name for e in bot_entries(game.id)}
        self._rollout_bots: list[Bot] | None = None
        if self.rollout == "heuristic":
            self._rollout_bots = [
                make_bot(game, "heuristic", seed=seed + 1 + s) for s in range(game.players)
            ]
        # The heuristic bot whose move ``confidence`` keeps unless the evidence says otherwise.
        self._own: Bot | None = None
        if self.confidence > 0:
            if not has_heuristic:
                raise OptionError(
                    f"bot {self.name!r}: confidence={self.confidence:g} compares moves with the "
                    f"game's heuristic bot, and {game.id} has none; use confidence=0"
                )
            self._own = make_bot(game, "heuristic", seed=seed + 1 + game.players)

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = Node()
        rng = self.rng
        me = view.seat
        default = self.heuristic_move(view) if self._own is not None else None
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
            if self._rollout_bots is None:  # nothing reads a sample's events: only scored
                state.set_event_log(False)
            if by_round is None:
                by_round = self._by_round(state)
            if by_round:
                state.only_scored_after(state.stage())
            if default is None:
                self._iterate(root, state, rng, by_round)
            else:
                self._iterate_paired(root, state, rng, by_round, default)
            done += 1
        self.last_iterations = done
        if default is not None:
            return self._confident_choice(root, me, default)
        best: Action | None = None
        best_key: tuple[int, float] = (-1, 0.0)
        for action, child in root.children.get(me, {}).items():
            if action not in legal:
                continue
            key = (child.visits, child.reward / max(1, child.visits))
            if key > best_key:
                best, best_key = action, key
        return best if best is not None else legal[rng.randbelow(len(legal))]

    def heuristic_move(self, view: SeatView) -> Action:
        """The game's heuristic bot's move in this position: what ``confidence`` keeps unless
        the search finds a clear gain on it."""
        assert self._own is not None
        self._own.new_game(view.seat)
        return self._own.act(view)

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
        # Where the iteration stops: the end of the stage in play, if the game can judge it.
        stage = state.stage() if by_round else -1
        path: list[Node] = []
        self._descend(root, state, rng, stage, path)
        self._playout(state, rng, stage)
        rewards = win_shares(state, state.game.players, self.score_estimate)
        for child in path:
            child.visits += 1
            child.reward += rewards[child.seat]

    def _iterate_paired(
        self, root: Node, state: State, rng: Rng, by_round: bool, default: Action
    ) -> None:
        """One iteration against the heuristic's move: pick another root move by UCB on its
        gain, play both out on this sample with the same random numbers, credit the difference."""
        stage = state.stage() if by_round else -1
        me = state.seats_to_act()[0]
        others = [a for a in state.legal_actions(me) if a != default]
        child, action, _ = self._select(root, me, others, rng, paired=True)
        players = state.game.players
        seed = rng.next64()
        baseline = state.clone()
        baseline.apply_trusted(me, default)
        self._reseed_rollout(seed)
        self._playout(baseline, Rng(seed), stage)
        base = win_shares(baseline, players, self.score_estimate)[me]
        state.apply_trusted(me, action)
        path = [child]
        self._descend(child, state, rng, stage, path)
        self._reseed_rollout(seed)
        self._playout(state, Rng(seed), stage)
        rewards = win_shares(state, players, self.score_estimate)
        for node in path:
            node.visits += 1
            node.reward += rewards[node.seat]
        gain = rewards[me] - base
        child.gain += gain
        child.gain2 += gain * gain

    def _confident_choice(self, root: Node, me: int, default: Action) -> Action:
        """The move with the best mean gain on the heuristic's move among those whose gain is at
        least ``confidence`` standard errors above nothing; the heuristic's move if none is."""
        best, best_mean = default, 0.0
        for action, child in root.children.get(me, {}).items():
            n = child.visits
            if n < 2:
                continue
            mean = child.gain / n
            if mean <= best_mean:
                continue
            var = max(0.0, (child.gain2 - n * mean * mean) / (n - 1))
            if mean > self.confidence * math.sqrt(var / n):
                best, best_mean = action, mean
        return best

    def _descend(self, node: Node, state: State, rng: Rng, stage: int, path: list[Node]) -> None:
        """Selection and expansion from ``node``: walk the tree by UCB, add one new node, and
        leave ``state`` where the play-out starts (``path`` gets each node)."""
        limit = self.tree or 1 << 30
        while not state.is_over() and (stage < 0 or state.stage() == stage) and len(path) < limit:
            seat = state.seats_to_act()[0]
            child, action, new = self._select(node, seat, state.legal_actions(seat), rng)
            state.apply_trusted(seat, action)
            path.append(child)
            if new:
                return
            node = child

    def _select(
        self, node: Node, seat: int, actions: list[Action], rng: Rng, paired: bool = False
    ) -> tuple[Node, Action, bool]:
        """The child of ``node`` for ``seat``'s next move among ``actions``, and whether it is new:
        an untried action first (at random), else the best UCB score on the mean reward (on the
        mean gain over the heuristic's move when ``paired``).  Counts every tried action as
        available."""
        children = node.children.get(seat)
        if children is None:
            children = node.children[seat] = {}
        # One look-up per action: the tried ones (all of them, or else the untried ones).
        known: list[Node] = []
        unexplored: list[Action] | None = None
        for a in actions:
            child = children.get(a)
            if child is None:
                if unexplored is None:
                    unexplored = [a]
                else:
                    unexplored.append(a)
            else:
                child.available += 1
                if unexplored is None:
                    known.append(child)
        if unexplored is not None:
            action = unexplored[rng.randbelow(len(unexplored))]
            child = Node(seat)
            child.available = 1
            children[action] = child
            return child, action, True
        c = self.c
        best_score = -math.inf
        best = -1
        for i, child in enumerate(known):
            total = child.gain if paired else child.reward
            score = total / child.visits + c * math.sqrt(_log(child.available) / child.visits)
            if score > best_score:
                best_score, best = score, i
        return known[best], actions[best], False

    def _reseed_rollout(self, seed: int) -> None:
        """The same random numbers for every play-out of one sample (the pairing)."""
        for seat, bot in enumerate(self._rollout_bots or ()):
            bot.rng = Rng(seed + 1 + seat)

    def _playout(self, state: State, rng: Rng, stage: int) -> None:
        bots = self._rollout_bots
        if bots is None:
            state.random_playout(rng, self.depth, stage, True)  # then only scored
            return
        for seat, bot in enumerate(bots):
            bot.new_game(seat)
        steps = 0
        depth = self.depth
        is_over, stage_now, to_act = state.is_over, state.stage, state.seats_to_act
        apply = state.apply_trusted
        while not is_over() and steps < depth and (stage < 0 or stage_now() == stage):
            seat = to_act()[0]
            apply(seat, bots[seat].act(SeatView(state, seat)))
            steps += 1


register_bot(
    "ismcts",
    IsmctsBot,
    "information-set Monte Carlo tree search over samples of the hidden cards",
)
