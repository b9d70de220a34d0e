# ratgames: compiled
"""Rat-a-Tat Cat bots.

``heuristic`` plays from its seat's observation only (through the :class:`SeatView`): it values
every slot at the card it remembers there, or at the average of the cards it has not seen; it
keeps low cards, throws high ones, peeks at unknown slots, swaps a known high card of its own for
an opponent's known low card, and knocks when its estimated sum is at most ``knock`` and not above
what it estimates for every opponent minus ``margin``.

``memory`` (0 to 1) is the chance that the bot keeps each thing it sees (a card at a place); a bot
with ``memory=0.6`` forgets like a child does.  Perfect memory (1.0) is the default.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, TypeVar

from ratgames.core.bots import Bot, SeatView, bot_params_from, register_belief, register_bot
from ratgames.core.game import Action, Game, State
from ratgames.core.options import Option
from ratgames.core.rng import Rng

from .action import DISCARD, DRAW, END, KNOCK, NOSWAP, PEEKS, REPLACE, SWAPS, TAKE
from .cards import CARD_TEXT, DECK, PEEK, SLOTS
from .rules import RatATatCat, RatState

POWER_VALUE: Final = 5.0
"""What a power card left in a row is worth: it is replaced by a random number card (mean 5)."""

_VALUE = {t: (float(i) if i < PEEK else POWER_VALUE) for i, t in enumerate(CARD_TEXT)}
_DECK_COUNTS: dict[str, int] = {}
for _c in DECK:
    _DECK_COUNTS[CARD_TEXT[_c]] = _DECK_COUNTS.get(CARD_TEXT[_c], 0) + 1

Slot = tuple[int, int]
_K = TypeVar("_K")
_V = TypeVar("_V")


def _round_start(events: list[dict[str, Any]]) -> int:
    """Where the events of the round in progress start in an observation's list of events:
    at its last deal (the list may begin inside the round, then all of it is this round's)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i]["kind"] == "deal":
            return i
    return 0


def _swap_places(table: dict[_K, _V], x: _K, y: _K) -> None:
    """What ``table`` holds for places ``x`` and ``y`` trades places, as the cards did."""
    vx, vy = table.pop(x, None), table.pop(y, None)
    if vx is not None:
        table[y] = vx
    if vy is not None:
        table[x] = vy


_OBS_KEYS = (
    "phase",
    "round",
    "slots",
    "events",
    "events_start",
    "discard",
    "discard_top",
    "held",
    "draws_left",
    "face_up",
    "in_round",
)
"""The entries of its observation the heuristic bot reads."""


class HeuristicBot(Bot):
    """Keeps low cards, peeks at unknown ones, swaps high for low, knocks on a low estimate."""

    name = "heuristic"
    params: ClassVar[tuple[Option, ...]] = (
        Option(
            "memory",
            1.0,
            "Chance (0 to 1) to remember each card it sees; 1 is perfect memory.",
            minimum=0.0,
            maximum=1.0,
        ),
        Option(
            "knock",
            9.0,
            "Knock when the estimated sum of its row is at most this.",
            minimum=0.0,
            maximum=60.0,
        ),
        Option(
            "margin",
            1.0,
            "Knock only when its estimate is at least this much below every opponent's estimate.",
            minimum=-60.0,
            maximum=60.0,
        ),
    )

    def __init__(self, game: Game, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed, **params)
        full = bot_params_from(type(self), params)
        self.memory = float(full["memory"])
        self.knock = float(full["knock"])
        self.margin = float(full["margin"])
        self.seat = 0
        self._round = -1
        self._next_event = 0
        self._mem: dict[Slot, str] = {}
        self._forgot: dict[Slot, str] = {}

    def new_game(self, seat: int) -> None:
        self.seat = seat
        self._round = -1
        self._next_event = 0
        self._mem = {}
        self._forgot = {}

    # --- memory ---------------------------------------------------------------------------------

    def _remembered(self, obs: dict[str, Any]) -> dict[Slot, str]:
        """The cards it remembers at each place: all it saw with perfect memory, else a subset."""
        slots = obs["slots"]
        if self.memory >= 1.0:
            return {
                (o, i): card
                for o, row in enumerate(slots)
                for i, card in enumerate(row)
                if card is not None
            }
        if obs["round"] != self._round:
            self._round = obs["round"]
            self._mem = {}
            self._forgot = {}
        events = obs["events"]
        start = obs["events_start"]
        for i in range(_round_start(events), len(events)):
            if start + i < self._next_event:
                continue
            event = events[i]
            kind = event["kind"]
            if kind == "swap":
                x: Slot = (event["seat"], event["slot"] - 1)
                y: Slot = (event["other"], event["other_slot"] - 1)
                _swap_places(self._mem, x, y)
                _swap_places(self._forgot, x, y)
            elif kind == "replace":
                place: Slot = (event["seat"], event["slot"] - 1)
                self._mem.pop(place, None)
                self._forgot.pop(place, None)
        self._next_event = max(self._next_event, start + len(events))
        for o, row in enumerate(slots):
            for i, card in enumerate(row):
                place = (o, i)
                if card is None:
                    self._mem.pop(place, None)
                    continue
                if self._mem.get(place) == card or self._forgot.get(place) == card:
                    continue
                if self.rng.random() < self.memory:
                    self._mem[place] = card
                    self._forgot.pop(place, None)
                else:
                    self._forgot[place] = card
                    self._mem.pop(place, None)
        return dict(self._mem)

    # --- estimates ------------------------------------------------------------------------------

    @staticmethod
    def _unknown_value(obs: dict[str, Any], known: dict[Slot, str]) -> float:
        """The mean value of the cards it cannot place (a power card counts as its replacement)."""
        counts = dict(_DECK_COUNTS)
        for card in obs["discard"]:
            counts[card] -= 1
        for card in known.values():
            counts[card] -= 1
        held = obs.get("held")
        if held not in (None, "hidden"):
            counts[held] -= 1
        total = sum(max(0, n) for n in counts.values())
        if total <= 0:
            return POWER_VALUE
        return sum(_VALUE[c] * max(0, n) for c, n in counts.items()) / total

    def _row_values(
        self, obs: dict[str, Any], known: dict[Slot, str], seat: int, unknown: float
    ) -> list[float]:
        return [_VALUE[known[(seat, i)]] if (seat, i) in known else unknown for i in range(SLOTS)]

    # --- deciding -------------------------------------------------------------------------------

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = view.observation_part(_OBS_KEYS, events=self.memory < 1.0)
        me = view.seat
        known = self._remembered(obs)
        unknown = self._unknown_value(obs, known)
        mine = self._row_values(obs, known, me, unknown)
        phase = obs["phase"]
        extra = obs["draws_left"]
        if phase == "start":
            top = obs["discard_top"]
            if TAKE in legal and top is not None:
                value = _VALUE[top]
                worst = max(range(SLOTS), key=lambda i: (mine[i], (me, i) not in known))
                if mine[worst] - value >= 2.5 or (value <= 1 and mine[worst] - value >= 1.5):
                    return TAKE
            return DRAW
        if phase in ("holding", "taken"):
            value = _VALUE[obs["held"]]
            # Prefer replacing a known high card; an unknown slot is worth its estimate.
            best = max(range(SLOTS), key=lambda i: (mine[i] - value, (me, i) in known))
            gain = mine[best] - value
            if phase == "taken":
                return REPLACE[best]
            need = 2.5 if extra else 1.0
            if (me, best) not in known:
                need += 0.5
            if gain >= need:
                return REPLACE[best]
            return DISCARD
        if phase == "peek":
            for i in range(SLOTS):
                if (me, i) not in known and not obs["face_up"][me][i]:
                    return PEEKS[i]
            return DISCARD if DISCARD in legal else PEEKS[0]
        if phase == "swap":
            return self._swap(obs, legal, known, mine, unknown)
        if phase == "knock":
            return KNOCK if self._should_knock(obs, known, mine, unknown) else END
        return legal[self.rng.randbelow(len(legal))]

    def _swap(
        self,
        obs: dict[str, Any],
        legal: list[Action],
        known: dict[Slot, str],
        mine: list[float],
        unknown: float,
    ) -> Action:
        me = self.seat
        legal_set = set(legal)
        best: tuple[float, Action] | None = None
        for i in range(SLOTS):
            for (o, j), card in known.items():
                if o == me:
                    continue
                action = SWAPS.get((i, o, j))
                if action is None or action not in legal_set:
                    continue
                gain = mine[i] - _VALUE[card]
                if (me, i) not in known:
                    gain -= 1.0  # giving away an unknown card is a gamble
                if best is None or gain > best[0]:
                    best = (gain, action)
        if best is not None and best[0] >= 2.0:
            return best[1]
        return DISCARD if DISCARD in legal_set else NOSWAP

    def _should_knock(
        self, obs: dict[str, Any], known: dict[Slot, str], mine: list[float], unknown: float
    ) -> bool:
        estimate = sum(mine)
        if estimate > self.knock:
            return False
        others = [
            sum(self._row_values(obs, known, s, unknown))
            for s in range(len(obs["slots"]))
            if s != self.seat and obs["in_round"][s]
        ]
        return not others or estimate <= min(others) - self.margin


# --- the opponent model for search -------------------------------------------------------------

KEEP_MARGIN: Final = 1
"""A player keeps a card from the draw pile in a slot only if it is at least this much lower than
what it expects there: the card it knew, or an unknown card's worth."""

UNKNOWN_WORTH: Final = 5
"""What a player expects of a card it has not seen (the deck's mean, rounded up)."""

UNLIKELY: Final = 0.15
"""How much less likely a deal is for every move of an opponent it would make unreasonable."""

TRIES: Final = 24
"""Samples drawn at most for one accepted sample (then the last is used)."""


class KeptCards:
    """Search's opponent model: what the other seats' moves say about their hidden cards.

    Reading the public moves of the round, it keeps an upper bound for each hidden card at the
    table that some move told about:

    * a card a player put in its row from the draw pile is lower than the card it threw out
      (or than an unknown card's worth, if it did not know that card), by ``KEEP_MARGIN``; and
      it is a number card (a drawn power card is used, never kept: the samples of
      ``sample_consistent`` already respect that, the model checks it again);
    * the player threw out its worst card: every other card of its row that it knew is at most
      the one thrown out;
    * a player who threw away a drawn card saw no use for it: every card of its row that it knew
      is at most that card plus ``KEEP_MARGIN``.

    Bounds move with the cards when slots are swapped.  A sample from
    :meth:`~ratgames.core.bots.SeatView.sample_consistent` is kept with probability
    ``UNLIKELY`` to the power of the bounds it breaks, so deals that explain the moves are drawn
    more often, and none is ruled out (people are not always reasonable).
    """

    def __init__(self, view: SeatView) -> None:
        self.view = view
        game = view.game
        assert isinstance(game, RatATatCat)
        self.bounds, self.kept = self._bounds(view.observation(), view.seat, game.swap_look)

    @staticmethod
    def _bounds(obs: dict[str, Any], me: int, swap_look: bool) -> tuple[dict[int, int], set[int]]:
        """The upper bound of each hidden card (by place: seat * 4 + slot) that the round's
        moves tell about, and the places that hold a card kept from the draw pile."""
        players = len(obs["slots"])
        bound: dict[int, int] = {}
        kept: set[int] = set()
        # Which slots each player knows: its outer cards from the deal, then what it placed,
        # peeked at or was given by a swap.
        theirs = {s * SLOTS + i for s in range(players) for i in (0, SLOTS - 1)}

        def tighten(place: int, value: int) -> None:
            if value < bound.get(place, 99):
                bound[place] = value

        events = obs["events"]
        for event in events[_round_start(events) :]:
            kind = event["kind"]
            seat = event.get("seat")
            if kind == "replace":
                place = seat * SLOTS + event["slot"] - 1
                old = int(_VALUE[event["discarded"]])
                for i in range(SLOTS):
                    other = seat * SLOTS + i
                    if other != place and other in theirs:
                        tighten(other, old)
                bound.pop(place, None)
                kept.discard(place)
                if event["placed"] is None:
                    worth = old if place in theirs else max(old, UNKNOWN_WORTH)
                    tighten(place, worth - KEEP_MARGIN)
                    kept.add(place)
                theirs.add(place)
            elif kind == "discard" and seat != me:
                top = int(_VALUE[event["card"]]) + KEEP_MARGIN
                for i in range(SLOTS):
                    if seat * SLOTS + i in theirs:
                        tighten(seat * SLOTS + i, top)
            elif kind == "peek":
                theirs.add(seat * SLOTS + event["slot"] - 1)
            elif kind == "swap":
                x = seat * SLOTS + event["slot"] - 1
                y = event["other"] * SLOTS + event["other_slot"] - 1
                _swap_places(bound, x, y)
                if (x in kept) != (y in kept):
                    kept ^= {x, y}
                theirs.difference_update((x, y))
                if swap_look:
                    theirs.update((x, y))
        # Only what this seat cannot see is sampled.
        slots = obs["slots"]
        hidden = {
            place
            for place in bound
            if place // SLOTS != me and slots[place // SLOTS][place % SLOTS] is None
        }
        return {p: bound[p] for p in hidden}, kept & hidden

    def __call__(self, rng: Rng) -> State:
        view = self.view
        sample = view.sample_consistent(Rng(rng.next64()))
        if not self.bounds:
            return sample
        kept = self.kept
        for _ in range(TRIES - 1):
            assert isinstance(sample, RatState)
            keep = 1.0
            for place, top in self.bounds.items():
                card = sample.card_in(place // SLOTS, place % SLOTS)  # the seat's own hypothesis
                if _NUMBER[card] > top or (card >= PEEK and place in kept):
                    keep *= UNLIKELY
            if keep >= 1.0 or rng.random() < keep:
                break
            sample = view.sample_consistent(Rng(rng.next64()))
        return sample


_NUMBER: Final = tuple(int(_VALUE[t]) for t in CARD_TEXT)

register_belief(RatATatCat.id, KeptCards)


LEVELS = {
    "easy": "heuristic:memory=0.5",
    "normal": "heuristic",
    "hard": "pimc:iterations=400,score=estimate,confidence=2",
    "expert": "pimc:seconds=1.5,score=estimate,confidence=2",
}
"""The difficulty levels: a forgetful heuristic, the heuristic, then paired play-outs that
overrule the heuristic's move only on clear evidence (they win about 60% of whole games against
the heuristic at 400 play-outs a move)."""

register_bot(
    "heuristic",
    HeuristicBot,
    "keeps low cards, peeks at unknown ones, swaps high for low, knocks on a low estimate "
    "(memory=0..1, knock=sum, margin=points)",
    RatATatCat.id,
)

__all__ = ["END", "HeuristicBot"]
