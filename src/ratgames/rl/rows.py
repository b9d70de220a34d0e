# ratgames: compiled
"""The per-game loop of the batched environments (:mod:`ratgames.rl.vector`), compiled with the
engine: each game's action applied, its seat to act, legal actions, mask ids and observation
values gathered as positions in lists, which the batch then writes into its arrays at once.

It imports no numpy and nothing of the research libraries (the compiled build needs neither):
the game's :class:`~ratgames.rl.encoding.base.Features` and the encoder's ``action_ids`` come
in as objects.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from ratgames.core.bots import Bot, SeatView
from ratgames.core.game import State

_SLOTS: Final = 1 << 16
"""The slots of :class:`Rows`' table of actions by identity (a power of two)."""
_CACHED: Final = _SLOTS // 2
"""The most actions whose first id :class:`Rows` keeps (then it starts afresh)."""


class Rows:
    """Gathers observation rows and mask rows (see the module docstring).

    ``features`` is the game's reader of the observation vector from the state
    (``write(state, seat, pending, ones, at, values)``, positions in the vector), ``action_ids``
    the encoder's id sequence of an action, ``known`` actions with their first ids to start from
    (every action of a fixed action space).

    What a step gathers is positions within a row, with the rows they belong to and where
    each row's positions end (:meth:`take`); the caller adds each row's start.  The positions
    are int objects shared by every row (the features' and :attr:`ids`), not new ones: made
    anew, each would be an object made, kept and freed again at every step."""

    def __init__(
        self,
        features: Any,
        obs_size: int,
        num_actions: int,
        action_ids: Callable[[Any], tuple[int, ...]],
        known: list[tuple[Any, int]],
    ) -> None:
        self.features = features
        self.obs_size = obs_size
        self.num_actions = num_actions
        self.action_ids = action_ids
        self.known = known
        self.ids: list[Any] = list(range(num_actions))
        """Every id as an int object (see the class docstring)."""
        self.slot_action: list[Any] = []
        """A table of actions by identity (open addressing, the slot from the object's address,
        the next slot on a collision): the action in each slot (None: free), kept there so
        that its identity cannot pass to another object while it is here ..."""
        self.slot_id: list[Any] = []
        """... and its first id (an object of :attr:`ids`).  Compiled, a slot is found without
        making an object: a dictionary by ``id(action)`` made an int object of each address and
        hashed it (addresses, multiples of 16, collide there), some 600 instructions an action
        against some 60."""
        self.cached = 0
        self._clear()
        self.ones: list[int] = []
        self.at: list[int] = []
        self.values: list[float] = []
        self.mask_at: list[int] = []
        self.bits: list[int] = []
        self.obs_rows: list[int] = []
        self.ones_count: list[int] = []
        self.at_count: list[int] = []
        self.mask_rows: list[int] = []
        self.mask_count: list[int] = []

    def take(self) -> tuple[list[Any], ...]:
        """What was gathered, and start afresh: the positions of ones, other positions and
        their values, the bit masks of the features' bit sections (every row's, in turn), the
        observation rows with how many of those ones and other positions are each row's, then
        the mask positions, the mask rows and how many of them are each row's.  (Counts, not
        where each row ends in the lists: a count is mostly below 257, an int object Python
        shares, where an end would be a new object at every row.)"""
        out = (
            self.ones,
            self.at,
            self.values,
            self.bits,
            self.obs_rows,
            self.ones_count,
            self.at_count,
            self.mask_at,
            self.mask_rows,
            self.mask_count,
        )
        self.ones, self.at, self.values, self.mask_at, self.bits = [], [], [], [], []
        self.obs_rows, self.ones_count, self.at_count = [], [], []
        self.mask_rows, self.mask_count = [], []
        return out

    def _clear(self) -> None:
        """Empty the table of actions but for :attr:`known`."""
        self.slot_action = [None] * _SLOTS
        self.slot_id = [None] * _SLOTS
        self.cached = 0
        for a, i in self.known:
            self._put(a, self.ids[i])

    def _put(self, action: Any, i: Any) -> None:
        mask = _SLOTS - 1
        k = (id(action) >> 4) & mask
        slots = self.slot_action
        while slots[k] is not None:
            if slots[k] is action:
                return
            k = (k + 1) & mask
        slots[k] = action
        self.slot_id[k] = i
        self.cached += 1

    def first_object(self, action: Any) -> Any:
        """The first id of ``action``, as an object of :attr:`ids`."""
        mask = _SLOTS - 1
        k = (id(action) >> 4) & mask
        slots = self.slot_action
        while True:
            a = slots[k]
            if a is action:
                return self.slot_id[k]
            if a is None:
                break
            k = (k + 1) & mask
        i = self.ids[self.action_ids(action)[0]]
        if self.cached >= _CACHED:
            self._clear()
        self._put(action, i)
        return i

    def first_id(self, action: Any) -> int:
        """The first id of ``action``."""
        i: int = self.first_object(action)
        return i

    def mask(self, legal: list[Any], row: int, ids: list[int] | None) -> None:
        """Row ``row`` of the masks: the first id of each of ``legal`` (appended to ``ids``
        too when given)."""
        at = self.mask_at
        for a in legal:
            i = self.first_object(a)
            at.append(i)
            if ids is not None:
                ids.append(i)
        self.mask_rows.append(row)
        self.mask_count.append(len(legal))

    def tick_mask(self, state: State[Any, Any], seat: int, row: int) -> None:
        """Row ``row`` of the masks in a game played in ticks: wait (id 0), and the first id of
        each of ``seat``'s legal actions unless the game is over."""
        self.mask_at.append(self.ids[0])
        if not state.is_over():
            self.mask(state.legal_actions(seat), row, None)
            self.mask_count[-1] += 1
        else:
            self.mask_rows.append(row)
            self.mask_count.append(1)

    def choose(self, legal: list[Any], chosen: int) -> Any:
        """The first of ``legal`` whose first id is ``chosen`` (None if none is)."""
        for a in legal:
            if self.first_id(a) == chosen:
                return a
        return None

    def mask_ids(self, ids: list[int], row: int) -> None:
        """Row ``row`` of the masks: ``ids``."""
        at = self.mask_at
        for i in ids:
            at.append(self.ids[i])
        self.mask_rows.append(row)
        self.mask_count.append(len(ids))

    def observe(self, state: State[Any, Any], seat: int, pending: int, row: int) -> None:
        """Row ``row`` of the observations: ``seat``'s vector (``pending``: the first id of a
        two-step choice under way, else -1)."""
        ones, at = self.ones, self.at
        n_ones, n_at = len(ones), len(at)
        self.features.write(state, seat, pending, ones, at, self.values, self.bits)
        self.obs_rows.append(row)
        self.ones_count.append(len(ones) - n_ones)
        self.at_count.append(len(at) - n_at)

    def refresh(
        self,
        state: State[Any, Any],
        g: int,
        players: int,
        all_seats: bool,
        seats: list[int],
        legals: list[list[Any]],
        first_ids: list[list[int]],
    ) -> None:
        """Game ``g`` with nothing pending: its seat to act (into ``seats``), its legal actions
        (``legals``) and their first ids (``first_ids``), its mask row and its observation row
        (every seat's, rows ``g * players + seat``, with ``all_seats``)."""
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        seats[g] = seat
        legals[g] = legal
        ids: list[int] = []
        self.mask(legal, g, ids)
        first_ids[g] = ids
        if all_seats:
            for s in range(players):
                self.observe(state, s, -1, g * players + s)
        else:
            self.observe(state, seat, -1, g)

    def play(
        self,
        states: list[State[Any, Any]],
        chosen: list[int],
        games: list[int],
        seats: list[int],
        legals: list[list[Any]],
        first_ids: list[list[int]],
        players: int,
        all_seats: bool,
    ) -> list[int]:
        """Each game of ``games`` plays the legal action whose first id it ``chosen`` (every
        action one id), then is refreshed (:meth:`refresh`) unless it is over; returns the games
        that ended."""
        ended: list[int] = []
        for g in games:
            state = states[g]
            legal = legals[g]
            ids = first_ids[g]
            a = chosen[g]
            k = 0
            while ids[k] != a:
                k += 1
            state.apply_trusted(seats[g], legal[k])
            if state.is_over():
                ended.append(g)
            else:
                self.refresh(state, g, players, all_seats, seats, legals, first_ids)
        return ended

    def step_envs(
        self,
        states: list[State[Any, Any]],
        ticks: list[Any],
        bots: list[dict[int, Bot]],
        chosen: list[int],
        legals: list[list[Any]],
        me: int,
        steps: list[int],
        max_steps: int,
    ) -> list[int]:
        """A step of the vector environment's games, whose actions are one id each: in each
        game seat ``me`` plays the legal action whose first id it ``chosen`` (in a game played
        in ticks, ``ticks[i]`` (a :class:`ratgames.rl.table.Ticks`) plays a tick, id 0 being
        to wait; in a turn-based game its ``bots`` then play until ``me`` is to act).  Each game
        counts the step (``steps``) and, unless it is over or has played ``max_steps`` (0: no
        limit), has its legal actions (``legals``), observation row and mask row gathered;
        returns the games that ended."""
        ended: list[int] = []
        for i in range(len(states)):
            a = chosen[i]
            t = ticks[i]
            if t is not None:
                action = None if a == 0 else self.choose(legals[i], a)
                wanted: dict[int, Any] = {} if action is None else {me: action}
                count: int = t.count + 1
                t.count = count
                applied: list[tuple[int, Any]] = []
                t._order = play_tick(
                    t.state, count, t.tick, wanted, t.pending, t.bots, t._order, applied
                )
                state = states[i]
            else:
                state = states[i]
                state.apply_trusted(me, self.choose(legals[i], a))
                bots_play(state, bots[i], me)
            n = steps[i] + 1
            steps[i] = n
            if state.is_over() or (max_steps > 0 and n >= max_steps):
                ended.append(i)
                continue
            legal = state.legal_actions(me)
            legals[i] = legal
            self.observe(state, me, -1, i)
            if t is not None:
                self.mask_at.append(self.ids[0])
            self.mask(legal, i, None)
            if t is not None:
                self.mask_count[-1] += 1
        return ended


def play_tick(
    state: State[Any, Any],
    count: int,
    tick: float,
    wanted: dict[int, Any],
    pending: dict[int, tuple[int, int, Any]],
    bots: dict[int, Bot],
    order: int,
    applied: list[tuple[int, Any]],
) -> int:
    """Tick number ``count`` of a real-time game (:class:`ratgames.rl.table.Ticks`, whose
    module docstring says how a tick plays): the actions ``wanted`` now by the seats not
    played by bots and those of ``pending`` (the bots', each with its arrival tick and order)
    that arrive, applied in seat order from ``count mod players`` (appended to ``applied``);
    then pending actions no longer legal are dropped and the bots with nothing on the way are
    asked.  Returns the order number of the last bot action queued."""
    n = state.game.players
    now = count * tick
    for seat in list(pending):
        arrival, _, action = pending[seat]
        if arrival <= count:
            del pending[seat]
            wanted[seat] = action
    start = count % n
    for i in range(n):
        seat = (start + i) % n
        action = wanted.get(seat)
        if action is None or state.is_over() or not state.is_legal(seat, action):
            continue
        state.apply(seat, action, time=now)
        applied.append((seat, action))
    over = state.is_over()
    for seat in list(pending):
        if over or not state.is_legal(seat, pending[seat][2]):
            del pending[seat]
    if over:
        return order
    for seat, bot in bots.items():
        if seat in pending or not state.legal_actions(seat):
            continue
        reaction = bot.react(SeatView(state, seat, now))
        if reaction is None:
            continue
        delay: float = reaction.delay
        ticks = max(1, math.ceil(max(0.0, delay) / tick - 1e-9))
        order += 1
        pending[seat] = (count + ticks, order, reaction.action)
    return order


def bots_play(state: State[Any, Any], bots: dict[int, Bot], me: int) -> None:
    """The bots of a turn-based game play (``bots[seat].act``) until seat ``me`` is to act or
    the game is over."""
    while not state.is_over():
        seat = state.seats_to_act()[0]
        if seat == me:
            return
        state.apply(seat, bots[seat].act(SeatView(state, seat)))


def scaled(counts: list[int], at: list[int], scales: list[float]) -> list[float]:
    """The values of features that give counts (see ``Features.write``): each of ``counts``
    divided by the divisor at its position in ``at``, clipped to [0, 1]."""
    out: list[float] = []
    for k in range(len(counts)):
        x = counts[k] / scales[at[k]]
        out.append(1.0 if x > 1.0 else (x if x > 0.0 else 0.0))
    return out
