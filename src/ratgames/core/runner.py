"""Playing whole games between bots, with a simulated clock for real-time games.

Turn-based games ask the one seat to act for its action.  Real-time games (any seat may act at any
moment) run on a simulated clock: after every change of the state, each seat's bot is asked for a
:class:`~ratgames.core.bots.Reaction` (an action and its delay); the earliest arrival is applied
first.  An action already on its way stays on its way after the state changes as long as the
state would still accept it (a slap that is now too late, for example), so races happen the way
they do at a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .bots import Bot, SeatView

if TYPE_CHECKING:
    from .game import Action, Game, State

DEFAULT_MAX_ACTIONS = 1_000_000


class RunawayGame(RuntimeError):
    """A game went past the runner's action limit (a bug: every game has its own safety cap)."""


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int | None = None,
    *,
    state: State | None = None,
    record: bool = True,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> State:
    """Play one game to its end between ``bots`` (one per seat) and return the final state."""
    if len(bots) != game.players:
        raise ValueError(f"{game.title} with {game.players} players needs {game.players} bots")
    if state is None:
        state = game.new_state(seed=seed)
    state.set_recording(record)
    for seat, bot in enumerate(bots):
        bot.new_game(seat)
    if game.real_time:
        _play_real_time(state, bots, max_actions)
    else:
        _play_turns(state, bots, max_actions)
    return state


def _play_turns(state: State, bots: Sequence[Bot], max_actions: int) -> None:
    count = 0
    while not state.is_over():
        seat = state.seats_to_act()[0]
        action = bots[seat].act(SeatView(state, seat))
        state.apply(seat, action)
        count += 1
        if count > max_actions:
            raise RunawayGame(f"{state.game.id}: no end after {max_actions} actions")


def _play_real_time(state: State, bots: Sequence[Bot], max_actions: int) -> None:
    now = 0.0
    pending: dict[int, tuple[float, int, Action]] = {}
    order = 0  # breaks ties between equal arrival times in the order they were decided
    count = 0
    while not state.is_over():
        for seat in list(pending):
            if not state.is_legal(seat, pending[seat][2]):
                del pending[seat]
        for seat in state.seats_to_act():
            if seat in pending:
                continue
            reaction = bots[seat].react(SeatView(state, seat, now))
            if reaction is not None:
                order += 1
                pending[seat] = (now + max(0.0, reaction.delay), order, reaction.action)
        if not pending:
            raise RunawayGame(f"{state.game.id}: nobody acts and the game is not over")
        seat = min(pending, key=lambda s: pending[s][:2])
        arrival, _, action = pending.pop(seat)
        now = max(now, arrival)
        state.apply(seat, action, time=now)
        count += 1
        if count > max_actions:
            raise RunawayGame(f"{state.game.id}: no end after {max_actions} actions")
