# ratgames: compiled
"""Bots with reflexes for Egyptian Ratscrew.

Nothing in this game is a choice except *when* to act: the cards are played blind.  So the bot
is a reaction-time profile:

* ``reaction_ms`` / ``spread_ms``: how fast it slaps after a pile shows (normal distribution,
  never faster than the minimum human reaction time of the rules, 100 ms, so that a bot's slap,
  like a person's key press, names a pile that was on the table at least that long before);
* ``miss``: the chance it does not notice a slappable pile at all;
* ``false_slap``: the chance it slaps a pile that cannot be slapped (once per pile it sees);
* ``play_ms``: its pace when it plays a card or collects a won pile (a human pace, +-20%).

Named ``level``\\ s set all four; any parameter given explicitly overrides its level's value, so
``heuristic:level=fast,miss=0.2`` or a sweep over ``reaction_ms`` work as expected.  A bot
decides once per pile version it sees, measures its delay from the moment it first saw that
pile, and draws every random number from its own ``self.rng``.
"""

from __future__ import annotations

from typing import Any

from ratgames.core.bots import Bot, Reaction, SeatView, bot_params_from, register_bot
from ratgames.core.game import Action, Game
from ratgames.core.options import Option

from .action import Move, Slap
from .rules import MIN_REACTION, EgyptianRatscrew

GAME_ID = EgyptianRatscrew.id

LEVEL_PROFILES: dict[str, dict[str, float]] = {
    # reaction_ms, spread_ms, false_slap, miss
    "easy": {"reaction_ms": 600.0, "spread_ms": 150.0, "false_slap": 0.03, "miss": 0.25},
    "normal": {"reaction_ms": 400.0, "spread_ms": 100.0, "false_slap": 0.01, "miss": 0.08},
    "fast": {"reaction_ms": 250.0, "spread_ms": 50.0, "false_slap": 0.005, "miss": 0.02},
    "perfect": {"reaction_ms": 150.0, "spread_ms": 0.0, "false_slap": 0.0, "miss": 0.0},
}
"""The named reaction-time profiles."""

MIN_REACTION_MS = MIN_REACTION * 1000.0
"""A bot never slaps sooner than this after the pile it reacts to appeared (the rules' minimum
human reaction time)."""
MIN_DELAY = 0.001
"""Never answer with a zero delay: Textual's timers (the terminal app) fail on an interval of 0."""

LEVELS = {
    "easy": "heuristic:level=easy",
    "normal": "heuristic:level=normal",
    "hard": "heuristic:level=fast",
    "expert": "heuristic:level=perfect",
}
"""The project's difficulty levels mapped to reaction profiles."""


def _from_level(name: str, text: str, maximum: float) -> Option:
    return Option(name, -1.0, f"{text} (-1: from the level)", minimum=-1.0, maximum=maximum)


class ReflexBot(Bot):
    """Plays at a human pace and slaps with a reaction-time profile."""

    name = "heuristic"
    params = (
        Option(
            "level",
            "normal",
            "Reaction profile: easy, normal, fast or perfect.",
            choices=tuple(LEVEL_PROFILES),
        ),
        _from_level("reaction_ms", "Mean reaction time to a pile, in ms", 10_000.0),
        _from_level("spread_ms", "Standard deviation of the reaction time, in ms", 10_000.0),
        _from_level("false_slap", "Chance of slapping a pile that cannot be slapped", 1.0),
        _from_level("miss", "Chance of not noticing a slappable pile", 1.0),
        Option(
            "play_ms",
            600.0,
            "Pace of playing a card or collecting a won pile, in ms (+-20%).",
            minimum=0.0,
            maximum=60_000.0,
        ),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        values = bot_params_from(type(self), params)
        profile = dict(LEVEL_PROFILES[str(values["level"])])
        for key in profile:
            value = float(values[key])
            if value >= 0:
                profile[key] = value
        self.reaction = profile["reaction_ms"] / 1000.0
        self.spread = profile["spread_ms"] / 1000.0
        self.false_slap = profile["false_slap"]
        self.miss = profile["miss"]
        self.play_pace = float(values["play_ms"]) / 1000.0
        self._version = -1
        self._seen_at = 0.0
        self._slap = False
        self._slap_delay = 0.0
        self._play_delay = 0.0

    def new_game(self, seat: int) -> None:
        self._version = -1

    def _reaction_time(self) -> float:
        delay = self.rng.gauss(self.reaction, self.spread) if self.spread else self.reaction
        return max(MIN_REACTION_MS / 1000.0, delay)

    def react(self, view: SeatView) -> Reaction | None:
        legal = view.legal_actions()
        if not legal:
            return None
        move: Action | None = legal[0] if type(legal[0]) is Move else None
        slap = legal[-1] if type(legal[-1]) is Slap else None
        seen = view.observation(events=False)  # the bot reads the table, not the play-by-play
        version = slap.version if slap is not None else int(seen["pile_version"])
        if version != self._version:
            # A new pile: decide once what to do about it, timed from now.
            self._version = version
            self._seen_at = view.now
            rng = self.rng
            if slap is not None and seen["slappable"] is not None:
                self._slap = rng.random() >= self.miss
            else:
                self._slap = slap is not None and rng.random() < self.false_slap
            self._slap_delay = self._reaction_time() if self._slap else 0.0
            self._play_delay = self.play_pace * (0.8 + 0.4 * rng.random())
        waited = view.now - self._seen_at
        if self._slap and slap is not None:
            return Reaction(slap, max(MIN_DELAY, self._slap_delay - waited))
        if move is not None:
            return Reaction(move, max(MIN_DELAY, self._play_delay - waited))
        return None

    def act(self, view: SeatView) -> Action:
        """Outside real time: slap a slappable pile, else play or collect, else slap."""
        legal = view.legal_actions()
        if len(legal) > 1 and view.observation(events=False)["slappable"] is not None:
            return legal[-1]
        return legal[0]


register_bot(
    "heuristic",
    ReflexBot,
    "reflexes: a reaction-time profile (level easy/normal/fast/perfect, or reaction_ms, "
    "spread_ms, false_slap, miss) and a human pace (play_ms)",
    GAME_ID,
)
