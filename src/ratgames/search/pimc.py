# ratgames: compiled
"""Determinized Monte Carlo with paired rollouts (``pimc``).

Each sample is a full state consistent with what the seat knows (``sample_consistent``, never the
true state).  On that one sample, every legal action is tried and played out by the same rollout
policy with the same random numbers, including every later shuffle, so the actions are compared
in the same world and the luck of the sample cancels out of the comparison.  The action with the
best mean result over the samples is chosen.

Where single samples are noisy (a round of Rat-a-Tat Cat depends on the draws), pairing makes a
few hundred rollouts enough to tell close actions apart, which plain Monte Carlo cannot.

Parameters (``pimc:iterations=400,rollout=heuristic``):

* ``iterations``: rollouts per move, shared out among the legal actions (at least one sample);
* ``seconds``: a time budget per move instead;
* ``rollout``: ``heuristic`` (the game's heuristic bot plays every seat) or ``random``;
* ``depth``, ``horizon``, ``belief``, ``score``: as for ``ismcts``;
* ``confidence``: keep the game's heuristic move unless another move beats it on the same
  samples by at least this many standard errors.  Most positions have several moves within a
  hair of each other; picking the best mean among them trades the heuristic's sound choice for
  noise, so a search that only overrules it on evidence is never worse than the heuristic and
  better where the evidence is clear.
"""

from __future__ import annotations

import math
import time
from typing import ClassVar

from ratgames.core.bots import SeatView, register_bot
from ratgames.core.game import Action
from ratgames.core.options import Option
from ratgames.core.rng import Rng

from .ismcts import IsmctsBot, win_shares


class PimcBot(IsmctsBot):
    """Every legal action tried on the same samples with the same rollouts; the best mean wins."""

    name = "pimc"
    # The budget counts rollouts here; the other settings are the tree search's own.
    params: ClassVar[tuple[Option, ...]] = (
        Option("iterations", 400, "rollouts per move", minimum=1, maximum=10_000_000),
        *(
            p
            for p in IsmctsBot.params
            if p.name in ("seconds", "rollout", "depth", "horizon", "belief", "score")
        ),
        Option(
            "confidence",
            0.0,
            "keep the heuristic's own move unless another beats it on the same samples by at "
            "least this many standard errors (0: play the best mean)",
            minimum=0.0,
            maximum=10.0,
        ),
    )

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        me = view.seat
        rng = self.rng
        results: list[list[float]] = [[] for _ in legal]
        samples = max(1, self.iterations // len(legal))
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done = 0
        by_round: bool | None = None
        draw = self.sampler(view)
        last = 0.0  # how long the last sample took: the next one must fit in the budget too
        while True:
            started = time.perf_counter()
            if deadline is not None:
                if done and started + last >= deadline:
                    break
            elif done >= samples:
                break
            sample = draw(Rng(rng.next64()))
            sample.set_recording(False)
            if self._rollout_bots is None:  # nothing reads a sample's events: only scored
                sample.set_event_log(False)
            players = sample.game.players
            if by_round is None:
                by_round = self._by_round(sample)
            stage = sample.stage() if by_round else -1
            sample.only_scored_after(stage)
            seed = rng.next64()
            for i, action in enumerate(legal):
                state = sample.clone()
                state.apply_trusted(me, action)
                self._reseed_rollout(seed)
                self._playout(state, Rng(seed), stage)
                results[i].append(win_shares(state, players, self.score_estimate)[me])
            done += 1
            last = time.perf_counter() - started
        self.last_iterations = done * len(legal)
        totals = [sum(r) for r in results]
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))
        if self._own is None:
            return legal[best]
        return legal[self._confident_best(results, legal.index(self.heuristic_move(view)))]

    def _confident_best(self, results: list[list[float]], own: int) -> int:
        """The action with the best mean among those that beat action ``own`` by at least
        ``confidence`` standard errors of the paired difference; ``own`` if none does."""
        base = results[own]
        n = len(base)
        if n < 2:
            return own
        best, best_mean = own, 0.0
        for i, r in enumerate(results):
            if i == own:
                continue
            diffs = [a - b for a, b in zip(r, base, strict=True)]
            mean = sum(diffs) / n
            if mean <= best_mean:
                continue
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > self.confidence * math.sqrt(var / n):
                best, best_mean = i, mean
        return best


register_bot(
    "pimc",
    PimcBot,
    "determinized Monte Carlo: every action tried on the same samples with paired rollouts",
)
