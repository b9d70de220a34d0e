"""Drivers that the environments share: a turn-based game played by ids (:class:`Table`), and
real time turned into ticks (:class:`Ticks`).

Rewards are zero-sum and come only at the end (:func:`returns`): with ``n`` seats and ``k``
winners, a winner gets ``(n / k - 1) / (n - 1)`` and every other seat ``-1 / (n - 1)``; so with
two players a win is +1, a loss -1 and a shared win 0.

**Ticks** (a real-time game).  Time runs in ticks of ``tick`` seconds (0.1 s unless given).  At
every tick each seat chooses an id of the game's encoder (id 0,
:data:`~ratgames.rl.encoding.WAIT`, is always allowed) having seen the table as it was when the
tick began; an action that answers a position (a slap) names the position of that moment.  The
actions of one tick are applied at time ``tick_number * tick`` in seat order, starting with seat
``tick_number mod players`` (so no seat always wins the ties); an action the table no longer
accepts when its turn comes (a play after someone else took the pile) is dropped.
A ratgames bot in the game answers with a reaction delay in seconds: it is asked at every tick
where it has nothing on the way, and its action arrives ``max(1, ceil(delay / tick))`` ticks
later (as at a table, an action on its way stays on its way while the table still accepts it).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

from ratgames.core.bots import Bot, SeatView
from ratgames.core.game import Game, Outcome, State

from .encoding import WAIT, Encoder, EncodingError, encoder_for
from .rows import play_tick

DEFAULT_TICK = 0.1
"""Seconds per tick in a real-time game."""


def returns(game: Game, outcome: Outcome | None) -> list[float]:
    """Each seat's final reward (see the module docstring); zeros while the game goes on."""
    n = game.players
    if outcome is None:
        return [0.0] * n
    k = len(outcome.winners)
    win = (n / k - 1.0) / (n - 1)
    lose = -1.0 / (n - 1)
    return [win if s in outcome.winners else lose for s in range(n)]


class Table:
    """A turn-based game played one id at a time (see :mod:`ratgames.rl.encoding.base`)."""

    def __init__(self, game: Game, encoder: Encoder | None = None) -> None:
        if game.real_time:
            raise EncodingError(f"{game.title} is played in ticks (ratgames.rl.table.Ticks)")
        self.game = game
        self.encoder = encoder or encoder_for(game)
        self.state: State = game.new_state(seed=0)
        self.pending: tuple[int, ...] = ()

    def reset(self, seed: int) -> None:
        """A new game from ``seed``."""
        self.state = self.game.new_state(seed=seed)
        self.pending = ()

    def to_act(self) -> int:
        """The seat to act (-1 once the game is over)."""
        seats = self.state.seats_to_act()
        return seats[0] if seats else -1

    def legal(self) -> list[Hashable]:
        """The legal actions of the seat to act."""
        seat = self.to_act()
        return [] if seat < 0 else list(self.state.legal_actions(seat))

    def legal_ids(self) -> list[int]:
        """The ids the seat to act may choose now."""
        return self.encoder.next_ids(self.legal(), self.pending)

    def observe(self, seat: int) -> Any:
        """``seat``'s observation vector (with its pending ids if it is to act)."""
        pending = self.pending if seat == self.to_act() else ()
        return self.encoder.observe(self.state, seat, pending)

    def mask(self, seat: int) -> Any:
        """``seat``'s legal-id mask (all zeros unless it is to act)."""
        if seat != self.to_act():
            return self.encoder.mask([])
        return self.encoder.mask(self.legal(), self.pending)

    def step(self, action_id: int) -> Hashable | None:
        """The seat to act chooses ``action_id``: returns the action applied, or None when the
        id begins a two-step choice.  An id that is not legal raises :class:`EncodingError` and
        changes nothing."""
        seat = self.to_act()
        if seat < 0:
            raise EncodingError("the game is over")
        ids = (*self.pending, int(action_id))
        action = self.encoder.complete(self.legal(), ids)
        if action is None:
            self.pending = ids
            return None
        self.state.apply(seat, action)
        self.pending = ()
        return action

    def play(self, seat: int, action: Hashable) -> None:
        """Apply a whole action (from a ratgames bot) for the seat to act."""
        if self.pending:
            raise EncodingError("a two-step choice is under way")
        self.state.apply(seat, action)

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_over()

    def returns(self) -> list[float]:
        """Final rewards (zeros while the game goes on)."""
        return returns(self.game, self.state.outcome())


class Ticks:
    """A real-time game stepped in ticks (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        encoder: Encoder | None = None,
        tick: float = DEFAULT_TICK,
        bots: Mapping[int, Bot] | None = None,
    ) -> None:
        if not game.real_time:
            raise EncodingError(f"{game.title} is turn-based (ratgames.rl.table.Table)")
        if not (isinstance(tick, int | float) and math.isfinite(tick) and tick > 0):
            raise ValueError(f"tick must be a positive number of seconds, not {tick!r}")
        self.game = game
        self.encoder = encoder or encoder_for(game)
        self.tick = float(tick)
        self.bots = dict(bots or {})
        self.state: State = game.new_state(seed=0)
        self.count = 0
        self.pending: dict[int, tuple[int, int, Hashable]] = {}
        self._order = 0

    def reset(self, seed: int) -> None:
        """A new game from ``seed`` (bots are told a new game starts)."""
        self.state = self.game.new_state(seed=seed)
        self.count = 0
        self.pending = {}
        self._order = 0
        for seat, bot in self.bots.items():
            bot.new_game(seat)
        self._ask_bots(0.0)

    def legal_ids(self, seat: int) -> list[int]:
        """The ids ``seat`` may choose at this tick (wait is always among them)."""
        if self.state.is_over():
            return [WAIT]
        return self.encoder.next_ids(self.state.legal_actions(seat))

    def mask(self, seat: int) -> Any:
        """``seat``'s legal-id mask at this tick."""
        m = self.encoder.mask([])
        for i in self.legal_ids(seat):
            m[i] = 1
        return m

    def observe(self, seat: int) -> Any:
        """``seat``'s observation vector."""
        return self.encoder.observe(self.state, seat)

    def _ask_bots(self, now: float) -> None:
        state = self.state
        for seat, bot in self.bots.items():
            if seat in self.pending or not state.legal_actions(seat):
                continue
            reaction = bot.react(SeatView(state, seat, now))
            if reaction is None:
                continue
            ticks = max(1, math.ceil(max(0.0, reaction.delay) / self.tick - 1e-9))
            self._order += 1
            self.pending[seat] = (self.count + ticks, self._order, reaction.action)

    def step(self, choices: Mapping[int, int]) -> list[tuple[int, Hashable]]:
        """Play one tick: ``choices`` maps seats (not played by bots) to ids.  Returns the
        actions applied, in order.  An id the seat may not choose raises :class:`EncodingError`
        before anything is applied."""
        state = self.state
        if state.is_over():
            raise EncodingError("the game is over")
        wanted: dict[int, Hashable] = {}
        for seat, action_id in choices.items():
            if seat in self.bots:
                raise EncodingError(f"seat {seat} is played by a bot")
            legal = state.legal_actions(seat)
            if int(action_id) not in self.encoder.next_ids(legal):
                raise EncodingError(
                    f"seat {seat} may not choose {self.encoder.id_text(int(action_id))} now"
                )
            action = self.encoder.complete(legal, (int(action_id),))
            if action is not None:
                wanted[seat] = action
        return self.play(wanted)

    def play(self, wanted: dict[int, Hashable]) -> list[tuple[int, Hashable]]:
        """Play one tick with the actions ``wanted`` by the seats not played by bots (taken from
        their legal actions at this tick; each is applied if the table still accepts it when its
        turn comes); returns the actions applied, in order."""
        self.count += 1
        applied: list[tuple[int, Hashable]] = []
        self._order = play_tick(
            self.state, self.count, self.tick, wanted, self.pending, self.bots, self._order, applied
        )
        return applied

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_over()

    def returns(self) -> list[float]:
        """Final rewards (zeros while the game goes on)."""
        return returns(self.game, self.state.outcome())
