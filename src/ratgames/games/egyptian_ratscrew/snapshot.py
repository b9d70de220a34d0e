"""Egyptian Ratscrew positions as JSON: :func:`write` gives a state's snapshot (everything,
hidden cards included) and :func:`restore_position` reads one back, checked: every entry's shape,
every card once, and the entries agreeing with each other as they do in play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ratgames.core import snapshots
from ratgames.core.errors import SnapshotError
from ratgames.core.events import Event
from ratgames.core.game import JSON, Chance
from ratgames.core.snapshots import flag as _flag
from ratgames.core.snapshots import items as _list
from ratgames.core.snapshots import short as _short
from ratgames.core.snapshots import whole as _whole

from .action import MAX_VERSION as _MAX_VERSION
from .cards import CHANCES as _CHANCES
from .cards import FACE_MARK, STACK_SEP, TEXT, card_of, is_known, known
from .events import (
    EVENTS_SHOWN,
    BadSlap,
    Claimed,
    Collected,
    Ended,
    Joined,
    LateSlap,
    Out,
    Played,
    Slapped,
    Won,
)
from .phases import (
    COLLECT,
    DOUBLES,
    FINAL,
    IN,
    OUT,
    OVER,
    PHASE_NAMES,
    PLAY,
    RULE_NAMES,
    STATUS_NAMES,
    WAITING,
)

if TYPE_CHECKING:
    from .rules import EgyptianRatscrew, RatscrewState


def write(state: RatscrewState) -> dict[str, JSON]:
    """Everything, cards in notation: each stack, the burned cards and the pile bottom first
    (with which stack and burned cards everybody knows), the clock (``time``, the last
    action's), the slappable pile versions a slap may still name (newest first) and the
    positions a cycle could come back to (:func:`positions_json`)."""
    text = TEXT
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
        "stacks": [[text[card_of(c)] for c in st] for st in state.stacks],
        "stacks_known": [[is_known(c) for c in st] for st in state.stacks],
        "pile": [text[c] for c in state.pile],
        "burned": [text[card_of(c)] for c in state.burned],
        "burned_known": [is_known(c) for c in state.burned],
        "version": state.version,
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "challenger": state.challenger,
        "chances": state.chances,
        "collector": state.collector,
        "status": [STATUS_NAMES[x] for x in status],
        "last_slap": last[:],
        "slappable_versions": slappable_versions,
        "positions_seen": positions_json(state),
        "disrupt": state.disrupt,
        "counts": [
            state.played,
            state.piles_won,
            state.slaps,
            state.bad,
            state.late,
            state.n_events,
        ],
        "events": state._events_json(),
        "end": [state.end_reason, state.capped, state.cycle, state.winner],
        "time": float(state._time),
    }


def positions_json(state: RatscrewState) -> list[JSON]:
    """The positions remembered since the last slap (a cycle is one of them coming back):
    who plays next and each stack bottom first, in card notation, or without slaps in
    face-card notation (``J``, ``Q``, ``K``, ``A``, ``-`` for any other card), in the
    order of their keys."""
    disrupt = state.disrupt
    faces = not state.game.slaps
    out: list[JSON] = []
    for key in sorted(k for k, v in state.history.items() if v == disrupt):
        stacks: list[JSON] = []
        for part in key[1:].split(STACK_SEP):
            if faces:
                stacks.append("".join([FACE_MARK[b] for b in part]))
            else:
                stacks.append([TEXT[b] for b in part])
        out.append({"turn": key[0], "stacks": stacks})
    return out


SNAPSHOT_KEYS: tuple[str, ...] = (
    "stacks",
    "stacks_known",
    "pile",
    "burned",
    "burned_known",
    "version",
    "turn",
    "phase",
    "challenger",
    "chances",
    "collector",
    "status",
    "last_slap",
    "slappable_versions",
    "positions_seen",
    "disrupt",
    "counts",
    "events",
    "end",
    "time",
)
"""The entries of :meth:`RatscrewState.snapshot`, each required by :func:`restore_position`."""

COUNT_NAMES = ("cards played", "piles won", "valid slaps", "bad slaps", "late slaps", "events")
"""What each number of the snapshot's ``counts`` is."""

REASON_LAST = "the last player with cards"
REASON_CYCLE = "cycle: the same position came back with no slap in between"

_EVENT_FIELDS: dict[str, tuple[type[Event], tuple[tuple[str, str], ...]]] = {
    "play": (Played, (("seat", "seat"), ("card", "card"))),
    "collect": (Collected, (("seat", "seat"), ("cards", "cards"))),
    "claim": (Claimed, (("seat", "seat"),)),
    "slap": (Slapped, (("seat", "seat"), ("rule", "rule"), ("cards", "cards"))),
    "late_slap": (LateSlap, (("seat", "seat"),)),
    "bad_slap": (BadSlap, (("seat", "seat"), ("burned", "burned"))),
    "join": (Joined, (("seat", "seat"),)),
    "out": (Out, (("seat", "seat"),)),
    "win": (Won, (("seat", "seat"),)),
    "end": (Ended, (("why", "why"),)),
}
"""Each event kind's class and fields (name, what the field holds)."""

_EVENT_KINDS = tuple(_EVENT_FIELDS)


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


def _read_event(game: EgyptianRatscrew, cards: _Cards, value: object, entry: str) -> list[Any]:
    """One event of ``events``: ``[EventClass, *fields]`` (as the state keeps it)."""
    if not isinstance(value, Mapping):
        raise SnapshotError(f"{entry} is an event object, not {_short(value)}")
    kind = _EVENT_KINDS[snapshots.one_of(value.get("kind"), f"{entry}.kind", _EVENT_KINDS)]
    cls, fields = _EVENT_FIELDS[kind]
    names = ("kind", *[name for name, _ in fields])
    snapshots.entries(value, names, f"{entry} (a {kind!r} event)")
    out: list[Any] = [cls]
    n = game.players
    for name, what in fields:
        field_value = value[name]
        where = f"{entry}.{name}"
        if what == "seat":
            out.append(_whole(field_value, where, 0, n - 1))
        elif what == "card":
            out.append(cards.card(field_value, where))
        elif what == "cards":
            out.append(_whole(field_value, where, 1, len(cards.of_text)))
        elif what == "burned":
            out.append(_whole(field_value, where, 0, game.burn))
        elif what == "rule":
            rules = [RULE_NAMES[DOUBLES]] + [
                r for r, on in zip(RULE_NAMES[2:], game.rules_on, strict=False) if on
            ]
            if field_value not in rules:
                raise SnapshotError(
                    f"{where} is a slap rule of this game ({', '.join(rules)}), not "
                    f"{_short(field_value)}"
                )
            out.append(field_value)
        else:
            if field_value not in ("cap", "cycle"):
                raise SnapshotError(f"{where} is 'cap' or 'cycle', not {_short(field_value)}")
            out.append(field_value)
    return out


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


def restore_position(game: EgyptianRatscrew, snap: Mapping[str, Any]) -> RatscrewState:
    """The state whose snapshot is ``snap``, or :class:`SnapshotError` naming what is wrong.

    Beyond the shape of each entry and every card once, the entries must agree as they do in
    play: the phase with who plays, challenges or collects; a challenge's chances with the pile;
    the counts with the pile version; slapping with the options; the end with the stacks.  The
    rest (the slappable pile and who holds cards) is worked out from the cards, and the
    restored state's snapshot must be exactly ``snap``.
    """
    snapshots.entries(snap, SNAPSHOT_KEYS, "an Egyptian Ratscrew snapshot")
    n = game.players
    cards = _Cards(game)

    # The cards: every card of the deck once, in the stacks, the pile or burned under it.
    rows = _list(snap["stacks"], "stacks", "stacks, one per seat", n)
    known_rows = _list(snap["stacks_known"], "stacks_known", "lists of flags, one per seat", n)
    stacks = [
        _marked(
            cards.cards(rows[s], f"stacks[{s}]"),
            known_rows[s],
            f"stacks[{s}]",
            f"stacks_known[{s}]",
        )
        for s in range(n)
    ]
    pile = cards.cards(snap["pile"], "pile")
    burned = _marked(
        cards.cards(snap["burned"], "burned"), snap["burned_known"], "burned", "burned_known"
    )
    places = [(f"stacks[{s}]", [card_of(c) for c in stacks[s]]) for s in range(n)]
    places += [("pile", pile), ("burned", [card_of(c) for c in burned])]
    snapshots.each_once(
        places, sorted(cards.of_text.values()), TEXT, cards.deck_help, "stacks, pile, burned"
    )

    # The numbers.
    version = _whole(snap["version"], "version", 0, _MAX_VERSION - 1)
    phase = snapshots.one_of(snap["phase"], "phase", PHASE_NAMES)
    turn = _whole(snap["turn"], "turn", -1, n - 1)
    challenger = _whole(snap["challenger"], "challenger", -1, n - 1)
    chances = _whole(snap["chances"], "chances", 0, 4)
    collector = _whole(snap["collector"], "collector", -1, n - 1)
    status = [
        snapshots.one_of(name, f"status[{s}]", STATUS_NAMES)
        for s, name in enumerate(_list(snap["status"], "status", "seat statuses", n))
    ]
    last_slap = [
        _whole(v, f"last_slap[{s}]", -1, version)
        for s, v in enumerate(_list(snap["last_slap"], "last_slap", "pile versions", n))
    ]
    versions = [
        _whole(v, f"slappable_versions[{i}]", 0, version)
        for i, v in enumerate(
            _list(snap["slappable_versions"], "slappable_versions", "pile versions")
        )
    ]
    disrupt = _whole(snap["disrupt"], "disrupt", 0, _MAX_VERSION)
    raw_counts = _list(snap["counts"], "counts", "numbers: " + ", ".join(COUNT_NAMES), 6)
    counts = [
        _whole(v, f"counts[{i}] ({COUNT_NAMES[i]})", 0, _MAX_VERSION)
        for i, v in enumerate(raw_counts)
    ]
    played, piles_won, slaps, bad, late, n_events = counts
    end = _list(snap["end"], "end", "entries: the reason, capped, cycle, the winner", 4)
    reason = end[0]
    if type(reason) is not str:
        raise SnapshotError("end[0] is the reason the game ended ('' while it goes on)")
    capped = _flag(end[1], "end[1] (capped)")
    cycle = _flag(end[2], "end[2] (cycle)")
    winner = _whole(end[3], "end[3] (the winner)", -1, n - 1)
    clock = snap["time"]
    if (
        type(clock) not in (int, float) or not 0 <= clock <= 1e18  # also refuses NaN
    ):
        raise SnapshotError(
            f"time is the last action's time in seconds (a number from 0), not {_short(clock)}"
        )
    time = float(clock)

    # How the entries agree in play.
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
            "slappable_versions, last_slap, disrupt, counts: nobody slaps in this game (option "
            "slaps is false)"
        )
    if disrupt != slaps + bad:
        raise SnapshotError(
            f"disrupt counts the valid and the bad slaps ({slaps} + {bad}), not {disrupt}"
        )
    if slaps > piles_won:
        raise SnapshotError(f"counts: {slaps} valid slaps took more piles than the {piles_won} won")
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
            f"counts[0]: the game stops at {game.max_cards} cards played (option max_cards), "
            f"so {played} cards played is a game "
            + ("over" if played == game.max_cards else "that never was")
        )
    if len(_list(snap["events"], "events", "events")) != min(n_events, EVENTS_SHOWN):
        raise SnapshotError(
            f"events holds the latest {EVENTS_SHOWN} of the {n_events} events (counts[5]), all "
            "of them if fewer"
        )
    if n_events < played + piles_won + bad + late:
        raise SnapshotError(
            f"counts[5]: each card played, pile won, bad and late slap is an event: at least "
            f"{played + piles_won + bad + late}, not {n_events}"
        )
    holders = [s for s in range(n) if stacks[s]]
    faces = [i for i, c in enumerate(pile) if _CHANCES[c]]
    left = _CHANCES[pile[faces[-1]]] - (len(pile) - 1 - faces[-1]) if faces else 0
    if phase == PLAY:
        if turn < 0 or not stacks[turn]:
            raise SnapshotError("turn: in the play phase the player to play holds cards")
        if collector != -1:
            raise SnapshotError("collector is -1 in the play phase")
        if faces and (challenger < 0 or challenger == turn or left < 1 or chances != left):
            raise SnapshotError(
                "challenger, chances: a face card on the pile is a challenge, by another player "
                f"than the one to play, with the chances its cards leave ({left})"
            )
        if not faces and (challenger != -1 or chances != 0):
            raise SnapshotError(
                "challenger, chances: with no face card on the pile there is no challenge "
                "(challenger -1, chances 0)"
            )
    elif phase == COLLECT:
        if turn != -1 or collector < 0 or challenger != collector or not faces or chances != left:
            raise SnapshotError(
                "turn, collector, challenger, chances: a pile won by a face card waits for its "
                "challenger to collect it (turn -1, collector and challenger that player), with "
                f"the chances its cards left ({left})"
            )
    elif phase == FINAL:
        if not game.slaps or turn != -1 or challenger != -1 or collector < 0:
            raise SnapshotError(
                "turn, collector, challenger: in the final phase (with slaps only) the last "
                "player with cards is the collector (turn and challenger -1)"
            )
        if any(s != collector for s in holders):
            raise SnapshotError("stacks: in the final phase only the collector holds cards")
    if over:
        if turn != -1 or collector != -1 or challenger != -1 or winner < 0:
            raise SnapshotError(
                "turn, collector, challenger, end: once the game is over nobody plays, "
                "challenges or collects, and end names the winner"
            )
        if capped and cycle:
            raise SnapshotError("end: a game ends by the cap or as a cycle, not both")
        if capped or cycle:
            sizes = [len(st) for st in stacks]
            expected = f"safety cap: {played} cards played" if capped else REASON_CYCLE
            if capped and played != game.max_cards:
                raise SnapshotError(
                    f"end: the cap stops a game at {game.max_cards} cards played, not {played}"
                )
            if reason != expected or winner != sizes.index(max(sizes)):
                raise SnapshotError(
                    f"end: a game stopped {'by the cap' if capped else 'as a cycle'} ends for "
                    f"the reason {expected!r}, won by the first seat with the most cards"
                )
        elif reason != REASON_LAST or pile or burned or holders != [winner]:
            raise SnapshotError(
                f"end: a game won outright ends for the reason {REASON_LAST!r}, its winner "
                "holding every card"
            )
    elif reason or capped or cycle or winner != -1:
        raise SnapshotError("end is ['', false, false, -1] while the game goes on")

    # The state.
    from .rules import RatscrewState

    state = RatscrewState.__new__(RatscrewState)
    state._init_core(game, Chance(0))
    state._time = time
    state.stacks = stacks
    state.deal = ()
    state.pile = pile
    state.burned = burned
    state.version = version
    state.turn = turn
    state.phase = phase
    state.challenger = challenger
    state.chances = chances
    state.collector = collector
    state.status = status
    state.last_slap = last_slap
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
        _position_key(game, cards, p, f"positions_seen[{i}]"): disrupt for i, p in enumerate(seen)
    }
    state.hist_shared = False
    state.disrupt = disrupt
    state.played = played
    state.piles_won = piles_won
    state.slaps = slaps
    state.bad = bad
    state.late = late
    chain: list[Any] | None = None
    events = _list(snap["events"], "events", "events")
    for i, event in enumerate(events):
        chain = [chain, None, *_read_event(game, cards, event, f"events[{i}]")]
    state.ev = chain
    state.ev_len = len(events)
    state.n_events = n_events
    state.end_reason = reason
    state.capped = capped
    state.cycle = cycle
    state.winner = winner
    if game.slaps and not over and len(holders) < 2 and phase != FINAL:
        claim = collector if phase != PLAY else challenger
        if claim < 0 or claim == state._next_holder(n - 1):
            raise SnapshotError(
                "stacks: with fewer than two players holding cards the game is over, unless "
                "another player's face card still has a pile to win"
            )
    snapshots.agree(
        {**snap, "time": time},
        state.snapshot(),
        SNAPSHOT_KEYS,
        "in the position the other entries describe",
    )
    return state
