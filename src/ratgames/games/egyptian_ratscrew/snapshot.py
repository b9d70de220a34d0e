"""Egyptian Ratscrew positions as JSON.

The state's fields are declared once (:attr:`RatscrewState._fields`, with the codecs here); the
core writes each as a snapshot entry and reads it back with its shape checked.  This module
writes the entries that are no single field (:func:`extra_entries`: which stack and burned cards
everybody knows, the slappable pile versions a slap may still name, the positions a cycle could
come back to, the latest events, the event count and the clock) and checks, on restoring
(:func:`restored`), what ties the fields together: every card once, the phase with who plays,
challenges or collects, a challenge's chances with the pile, the counts with the pile version,
slapping with the options, the end with the stacks.  The restored state's snapshot must then be
exactly the one given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ratgames.core import snapshots
from ratgames.core.errors import SnapshotError
from ratgames.core.fields import Codec, Custom, Events, Number, OneOf, Seat, Whole
from ratgames.core.game import JSON
from ratgames.core.snapshots import flag as _flag
from ratgames.core.snapshots import items as _list
from ratgames.core.snapshots import short as _short
from ratgames.core.snapshots import whole as _whole

from . import views
from .cards import CHANCES as _CHANCES
from .cards import FACE_MARK, STACK_SEP, TEXT, card_of, is_known, known
from .events import EVENT_TYPES, EVENTS_SHOWN
from .phases import (
    COLLECT,
    DOUBLES,
    FINAL,
    IN,
    OUT,
    OVER,
    PLAY,
    RULE_NAMES,
    STATUS_NAMES,
    WAITING,
)

if TYPE_CHECKING:
    from .rules import EgyptianRatscrew, RatscrewState

EXTRA = (
    "stacks_known",
    "burned_known",
    "slappable_versions",
    "positions_seen",
    "events",
    "event_count",
    "time",
)
"""The snapshot's entries that are no single field of the state (:func:`extra_entries`)."""


class DeckCards(Codec):
    """A list of cards of the game's deck (with the jokers its options add), written as their
    texts; a stack entry is written as its card (whether everybody knows it is an entry of its
    own)."""

    def write(self, value: Any) -> JSON:
        return [TEXT[card_of(c)] for c in value]

    def read(self, value: object, entry: str, game: Any) -> Any:
        return _Cards(game).cards(value, entry)


class Reason(Codec):
    """Why the game ended: text ('' while it goes on)."""

    def write(self, value: Any) -> JSON:
        return value

    def read(self, value: object, entry: str, game: Any) -> Any:
        if type(value) is not str:
            raise SnapshotError(
                f"{entry} is the reason the game ended ('' while it goes on), not {_short(value)}"
            )
        return value


def extra_entries(state: RatscrewState) -> dict[str, JSON]:
    """The entries of a snapshot that are no single field: which cards of the stacks and under
    the pile everybody knows (a flag per card), the slappable pile versions a slap may still
    name (newest first), the positions remembered since the last slap
    (:func:`positions_json`), the latest events, how many there were and the clock (``time``,
    the last action's)."""
    n = state.game.players
    last = state.last_slap
    status = state.status
    # A slap names a version above its seat's last slap, so older versions no longer matter.
    floor = min([last[s] for s in range(n) if status[s] != OUT], default=state.version)
    slappable_versions: list[int] = []
    node = state.slap_hist
    while node is not None and node[0] > floor:
        slappable_versions.append(node[0])
        node = node[1]
    return {
        "stacks_known": [[is_known(c) for c in st] for st in state.stacks],
        "burned_known": [is_known(c) for c in state.burned],
        "slappable_versions": slappable_versions,
        "positions_seen": positions_json(state),
        "events": views.events_json(state),
        "event_count": state.event_count,
        "time": float(state._time),
    }


def positions_json(state: RatscrewState) -> list[JSON]:
    """The positions remembered since the last slap (a cycle is one of them coming back):
    who plays next and each stack bottom first, in card notation, or without slaps in
    face-card notation (``J``, ``Q``, ``K``, ``A``, ``-`` for any other card), in the
    order of their keys."""
    faces = not state.game.slaps
    out: list[JSON] = []
    for key in sorted(state.history):
        stacks: list[JSON] = []
        for part in key[1:].split(STACK_SEP):
            if faces:
                stacks.append("".join([FACE_MARK[b] for b in part]))
            else:
                stacks.append([TEXT[b] for b in part])
        out.append({"turn": key[0], "stacks": stacks})
    return out


REASON_LAST = "the last player with cards"
REASON_CYCLE = "cycle: the same position came back with no slap in between"


class _Cards:
    """Reads card texts of one game's deck (with jokers as the options say)."""

    def __init__(self, game: EgyptianRatscrew) -> None:
        self.of_text = {TEXT[c]: c for c in game.deck()}
        jokers = game.options["jokers"]
        self.deck_help = f"the {len(self.of_text)}-card deck" + (
            f" with {jokers} joker(s) (BJ, RJ)" if jokers else ", no jokers"
        )

        self.card_help = f"a card of {self.deck_help}, written as in '10H', 'QS' or 'AD'"

    def card(self, value: object, entry: str) -> int:
        return snapshots.card(value, entry, self.of_text, self.card_help)

    def cards(self, value: object, entry: str) -> list[int]:
        return snapshots.card_list(value, entry, self.of_text, self.card_help)


def _marked(cards: list[int], flags_value: object, entry: str, known_entry: str) -> list[int]:
    """Stack entries: ``cards`` with the ``KNOWN`` flag where ``flags_value`` (a list of as many
    flags) says everybody knows the card."""
    flags = _list(flags_value, known_entry, f"{len(cards)} flags, one per card of {entry}")
    if len(flags) != len(cards):
        raise SnapshotError(
            f"{known_entry} has one flag per card of {entry}: {len(cards)}, not {len(flags)}"
        )
    return [
        known(c) if _flag(f, f"{known_entry}[{i}]") else c
        for i, (c, f) in enumerate(zip(cards, flags, strict=True))
    ]


class DeckCard(Codec):
    """A card of the game's deck (with the jokers its options add), written as its text."""

    def write(self, value: Any) -> JSON:
        return TEXT[value]

    def read(self, value: object, entry: str, game: Any) -> Any:
        return _Cards(game).card(value, entry)


def _slap_rule(value: object, entry: str, game: Any) -> str:
    """A slap rule the game plays with (doubles always)."""
    rules = [RULE_NAMES[DOUBLES]] + [r for r in RULE_NAMES[2:] if getattr(game, r)]
    if value not in rules:
        raise SnapshotError(
            f"{entry} is a slap rule of this game ({', '.join(rules)}), not {_short(value)}"
        )
    return value


EVENTS = Events(
    EVENT_TYPES,
    {
        "seat": Seat(),
        "card": DeckCard(),
        "cards": Whole(1, lambda game: len(game.deck())),
        "burned": Whole(0, lambda game: game.burn),
        "rule": Custom(str, _slap_rule),
        "why": OneOf(("cap", "cycle"), as_text=True),
    },
)
"""Each event's fields, read by what they hold."""


def _position_key(game: EgyptianRatscrew, cards: _Cards, value: object, entry: str) -> bytes:
    """A remembered position of ``positions_seen`` as the state keys it: who plays next, then
    each stack bottom first (card numbers, or without slaps the chances each card gives)."""
    n = game.players
    position = snapshots.entries(value, ("turn", "stacks"), entry)
    turn = _whole(position["turn"], f"{entry}.turn", 0, n - 1)
    rows = _list(position["stacks"], f"{entry}.stacks", "stacks, one per seat", n)
    parts: list[bytes] = []
    if game.slaps:
        seen: list[int] = []
        for i, row in enumerate(rows):
            stack = cards.cards(row, f"{entry}.stacks[{i}]")
            seen.extend(stack)
            parts.append(bytes(stack))
        if sorted(seen) != sorted(cards.of_text.values()):
            raise SnapshotError(
                f"{entry}: a position remembered after a pile was taken holds every card of "
                f"{cards.deck_help} in the stacks, each once"
            )
    else:
        marks = ""
        for i, row in enumerate(rows):
            if type(row) is not str or any(ch not in FACE_MARK for ch in row):
                raise SnapshotError(
                    f"{entry}.stacks[{i}] is a stack in face-card notation (J, Q, K, A, or - "
                    f"for any other card), not {_short(row)}"
                )
            marks += row
            parts.append(bytes([FACE_MARK.index(ch) for ch in row]))
        others = len(cards.of_text) - 16
        if sorted(marks) != sorted("JQKA" * 4 + "-" * others):
            raise SnapshotError(
                f"{entry}: a position remembered after a pile was taken holds 4 jacks, queens, "
                f"kings and aces and {others} other cards in the stacks"
            )
    return bytes((turn,)) + STACK_SEP.join(parts)


_TIME = Number(0.0)


def restored(state: RatscrewState, snap: Mapping[str, Any]) -> None:
    """Completes ``state``, whose declared fields were read from ``snap`` (each of the right
    shape), from the other entries, and checks that everything agrees as it does in play,
    else :class:`SnapshotError` naming what is wrong."""
    game = state.game
    n = game.players
    cards = _Cards(game)
    known_rows = _list(snap["stacks_known"], "stacks_known", "lists of flags, one per seat", n)
    stacks = state.stacks = [
        _marked(stack, known_rows[s], f"stacks[{s}]", f"stacks_known[{s}]")
        for s, stack in enumerate(state.stacks)
    ]
    burned = state.burned = _marked(state.burned, snap["burned_known"], "burned", "burned_known")
    pile = state.pile
    places = [(f"stacks[{s}]", [card_of(c) for c in stacks[s]]) for s in range(n)]
    places += [("pile", pile), ("burned", [card_of(c) for c in burned])]
    snapshots.each_once(
        places, sorted(cards.of_text.values()), TEXT, cards.deck_help, "stacks, pile, burned"
    )
    state._time = _TIME.read(snap["time"], "time", game)
    version, phase, turn = state.version, state.phase, state.turn
    challenger, chances, collector = state.challenger, state.chances, state.collector
    status, last_slap, disrupt = state.status, state.last_slap, state.disrupt
    played, piles_won, slaps, bad, late = (
        state.played,
        state.piles_won,
        state.slaps,
        state.bad,
        state.late,
    )
    reason, capped, cycle, winner = state.end_reason, state.capped, state.cycle, state.winner
    for s, v in enumerate(last_slap):
        if v > version:
            raise SnapshotError(
                f"last_slap[{s}] is a pile version up to the pile's ({version}), not {v}"
            )
    versions = [
        _whole(v, f"slappable_versions[{i}]", 0, version)
        for i, v in enumerate(
            _list(snap["slappable_versions"], "slappable_versions", "pile versions")
        )
    ]
    n_events = _whole(snap["event_count"], "event_count", 0, 2**62)
    newcomer = n - game.newcomers
    for s in range(n):
        if status[s] == WAITING and s < newcomer:
            raise SnapshotError(
                f"status[{s}]: only a newcomer's seat (option newcomers, the last "
                f"{game.newcomers}) waits to slap in"
            )
        if status[s] != IN and stacks[s]:
            raise SnapshotError(
                f"status[{s}]: a seat that is {STATUS_NAMES[status[s]]} holds no cards"
            )
    if not game.slaps and (versions or slaps or bad or late or disrupt or max(last_slap) >= 0):
        raise SnapshotError(
            "slappable_versions, last_slap, disrupt, slaps, bad_slaps, late_slaps: nobody "
            "slaps in this game (option slaps is false)"
        )
    if disrupt != slaps + bad:
        raise SnapshotError(
            f"disrupt counts the valid and the bad slaps ({slaps} + {bad}), not {disrupt}"
        )
    if slaps > piles_won:
        raise SnapshotError(f"slaps: {slaps} valid slaps took more piles than the {piles_won} won")
    over = phase == OVER
    taken = version - played - piles_won
    if taken != 0 and not (over and taken == 1):
        raise SnapshotError(
            f"version grows with each card played ({played}) and each pile taken ({piles_won}): "
            f"{played + piles_won}"
            + (
                f" (or one more once the game is over), not {version}"
                if over
                else f", not {version}"
            )
        )
    if played > game.max_cards or (played == game.max_cards and not over):
        raise SnapshotError(
            f"played: the game stops at {game.max_cards} cards played (option max_cards), "
            f"so {played} cards played is a game "
            + ("over" if played == game.max_cards else "that never was")
        )
    events = _list(snap["events"], "events", "events")
    if len(events) != min(n_events, EVENTS_SHOWN):
        raise SnapshotError(
            f"events holds the latest {EVENTS_SHOWN} of the {n_events} events (event_count), all "
            "of them if fewer"
        )
    if n_events < played + piles_won + bad + late:
        raise SnapshotError(
            f"event_count: each card played, pile won, bad and late slap is an event: at least "
            f"{played + piles_won + bad + late}, not {n_events}"
        )
    holders = [s for s in range(n) if stacks[s]]
    faces = [i for i, c in enumerate(pile) if _CHANCES[c]]
    left = _CHANCES[pile[faces[-1]]] - (len(pile) - 1 - faces[-1]) if faces else 0
    if phase == PLAY:
        if turn < 0 or not stacks[turn]:
            raise SnapshotError("turn: in the play phase the player to play holds cards")
        if collector != -1:
            raise SnapshotError("collector is null in the play phase")
        if faces and (challenger < 0 or challenger == turn or left < 1 or chances != left):
            raise SnapshotError(
                "challenger, chances: a face card on the pile is a challenge, by another player "
                f"than the one to play, with the chances its cards leave ({left})"
            )
        if not faces and (challenger != -1 or chances != 0):
            raise SnapshotError(
                "challenger, chances: with no face card on the pile there is no challenge "
                "(challenger null, chances 0)"
            )
    elif phase == COLLECT:
        if turn != -1 or collector < 0 or challenger != collector or not faces or chances != left:
            raise SnapshotError(
                "turn, collector, challenger, chances: a pile won by a face card waits for its "
                "challenger to collect it (turn null, collector and challenger that player), with "
                f"the chances its cards left ({left})"
            )
    elif phase == FINAL:
        if not game.slaps or turn != -1 or challenger != -1 or collector < 0:
            raise SnapshotError(
                "turn, collector, challenger: in the final phase (with slaps only) the last "
                "player with cards is the collector (turn and challenger null)"
            )
        if any(s != collector for s in holders):
            raise SnapshotError("stacks: in the final phase only the collector holds cards")
    if over:
        if turn != -1 or collector != -1 or challenger != -1 or winner < 0:
            raise SnapshotError(
                "turn, collector, challenger, winner: once the game is over nobody plays, "
                "challenges or collects, and winner names the winner"
            )
        if capped and cycle:
            raise SnapshotError("capped, cycle: a game ends by the cap or as a cycle, not both")
        if capped or cycle:
            sizes = [len(st) for st in stacks]
            expected = f"safety cap: {played} cards played" if capped else REASON_CYCLE
            if capped and played != game.max_cards:
                raise SnapshotError(
                    f"capped: the cap stops a game at {game.max_cards} cards played, not {played}"
                )
            if reason != expected or winner != sizes.index(max(sizes)):
                raise SnapshotError(
                    "end_reason, winner: a game stopped "
                    f"{'by the cap' if capped else 'as a cycle'} ends for the reason "
                    f"{expected!r}, won by the first seat with the most cards"
                )
        elif reason != REASON_LAST or pile or burned or holders != [winner]:
            raise SnapshotError(
                f"end_reason, winner: a game won outright ends for the reason {REASON_LAST!r}, "
                "its winner holding every card"
            )
    elif reason or capped or cycle or winner != -1:
        raise SnapshotError(
            "end_reason, capped, cycle, winner are '', false, false and null while the game goes on"
        )

    state.n_holders = len(holders)
    state.rule = state._compute_rule() if game.slaps else 0
    node: tuple[Any, ...] | None = None
    for v in reversed(versions):
        node = (v, node)
    state.slap_hist = node
    if game.slaps and (state.rule != 0) != (version in versions):
        raise SnapshotError(
            f"slappable_versions lists the pile's version {version} exactly when the pile can "
            "be slapped" + (f" (by {RULE_NAMES[state.rule]})" if state.rule else " (it cannot)")
        )
    if any(versions[i] <= versions[i + 1] for i in range(len(versions) - 1)):
        raise SnapshotError("slappable_versions lists pile versions newest first, each once")
    seen = _list(snap["positions_seen"], "positions_seen", "positions")
    if len(seen) > piles_won:
        raise SnapshotError(
            f"positions_seen: a position is remembered when a pile is taken, so at most "
            f"{piles_won} of them, not {len(seen)}"
        )
    state.history = {
        _position_key(game, cards, p, f"positions_seen[{i}]") for i, p in enumerate(seen)
    }
    state.deal = ()
    state.ev_json = None
    for i, event in enumerate(events):
        state._log_event(*EVENTS.read_one(event, f"events[{i}]", game))
    state._event_count = n_events
    state.log_from = n_events - len(events)
    if game.slaps and not over and len(holders) < 2 and phase != FINAL:
        claim = collector if phase != PLAY else challenger
        if claim < 0 or claim == state._next_holder(n - 1):
            raise SnapshotError(
                "stacks: with fewer than two players holding cards the game is over, unless "
                "another player's face card still has a pile to win"
            )
    snapshots.agree(
        {**snap, "time": state._time},
        state.snapshot(),
        state._fields.entries if state._fields is not None else (),
        "in the position the other entries describe",
    )
