"""A position of Rats as a snapshot and back: the codecs of the fields a snapshot writes in its
own way (sets of cards, the plays of the trick), the history it keeps (the notes observations
still show), and what ties the fields read back together (:func:`restored`): every card once,
who is in, what is known, the trick under way and the history replayed through the rules.  The
state declares its fields once (:attr:`RatsState._fields`); the core reads each of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from ratgames.cards import is_joker, suit_of
from ratgames.core.errors import IllegalAction, SnapshotError
from ratgames.core.fields import Codec, Custom
from ratgames.core.game import JSON
from ratgames.core.snapshots import items as _items
from ratgames.core.snapshots import short as _short
from ratgames.core.snapshots import whole as _whole

from .action import (
    CARD_TEXT,
    DISCARD,
    SINGLE,
    RatsAction,
    action_text,
    play_value,
    texts,
    trick_kind_name,
)
from .combos import beating_singles, cards_of, mask_of
from .events import Note, RoundNote, TrickNote
from .views import latest_notes

if TYPE_CHECKING:
    from .rules import Rats, RatsState


def history_entry(s: RatsState) -> JSON:
    """The snapshot's ``history``: the notes of the game's history, oldest first, that the
    observations still show (the latest events and every trick of the round under way)::

        ["trick", round, leader, [[seat, play], ...], winner]
        ["round", round, stock_to (-1: none), [seats out], next hand size (0: game over)]
    """
    return [_note_json(note) for note in reversed(_kept_notes(s))]


def _kept_notes(s: RatsState) -> list[Note]:
    """The notes of the history a snapshot keeps, newest first: those that hold the latest
    events and every trick of the round under way (what observations show, now and later)."""
    keep = len(latest_notes(s))
    this_round = 0
    note = s.history
    if isinstance(note, RoundNote) and note.round == s.round:
        note = note.older
        this_round = 1
    while isinstance(note, TrickNote) and note.round == s.round:
        this_round += 1
        note = note.older
    keep = max(keep, this_round)
    out: list[Note] = []
    note = s.history
    while note is not None and len(out) < keep:
        out.append(note)
        note = note.older
    return out


def _plays_json(plays: tuple[tuple[int, RatsAction], ...]) -> list[JSON]:
    """The plays of a trick as ``[seat, play]`` with the play's notation."""
    return [[seat, action_text(a)] for seat, a in plays]


def _note_json(note: Note) -> list[JSON]:
    """A note of the history in the form of :meth:`RatsState.snapshot`."""
    if isinstance(note, TrickNote):
        return ["trick", note.round, note.leader, _plays_json(note.plays), note.winner]
    return ["round", note.round, note.stock_to, list(note.out), note.size]


# --- positions restored from snapshots (Rats.restore) ------------------------------------------


_JOKER_MASK: Final = 3 << 52
_CARD_EXAMPLE = "a card such as '10H', 'QS' or 'BJ'"


def _card_list(game: Rats, value: object, where: str) -> list[int]:
    """The cards of a list of card texts of ``game``'s deck, each named once."""
    out: list[int] = []
    mask = 0
    for i, text in enumerate(_items(value, where, "cards such as '10H', 'QS' or 'BJ'")):
        if not isinstance(text, str):
            raise SnapshotError(f"{where}[{i}] must be {_CARD_EXAMPLE}, not {_short(text)}")
        try:
            card = game.parse_card(text)
        except IllegalAction as exc:
            raise SnapshotError(f"{where}[{i}]: {exc}") from None
        if mask >> card & 1:
            raise SnapshotError(f"{where} names {CARD_TEXT[card]} twice")
        mask |= 1 << card
        out.append(card)
    return out


def _play(game: Rats, value: object, where: str) -> tuple[int, RatsAction]:
    """A ``[seat, play]`` pair, the play in notation."""
    if not isinstance(value, list) or len(value) != 2:
        raise SnapshotError(
            f"{where} must be [seat, play] such as [0, '7H 7S'], not {_short(value)}"
        )
    seat = _whole(value[0], f"{where}[0] (a seat)", 0, game.players - 1)
    text = value[1]
    if not isinstance(text, str):
        raise SnapshotError(
            f"{where}[1] must be a play in notation such as '7H 7S' or 'discard 2C', "
            f"not {_short(text)}"
        )
    try:
        action = game.parse_action(text)
    except IllegalAction as exc:
        raise SnapshotError(f"{where}[1]: {exc}") from None
    return seat, action


def _plays(game: Rats, value: object, where: str) -> list[tuple[int, RatsAction]]:
    items = _items(value, where, "plays [seat, play]")
    return [_play(game, v, f"{where}[{i}]") for i, v in enumerate(items)]


def _read_note(game: Rats, value: object, where: str, last_round: int, size: int) -> Note:
    """A note of the history (its link to the one before is set later), of a round up to
    ``last_round``, a next hand size up to ``size``."""
    n = game.players
    if not isinstance(value, list) or len(value) != 5 or value[0] not in ("trick", "round"):
        raise SnapshotError(
            f"{where} must be ['trick', round, leader, plays, winner] or "
            f"['round', round, stock_to, seats out, next hand size], not {_short(value)}"
        )
    rnd = _whole(value[1], f"{where}[1] (a round)", 1, last_round)
    if value[0] == "trick":
        leader = _whole(value[2], f"{where}[2] (the leader)", 0, n - 1)
        plays = _plays(game, value[3], f"{where}[3]")
        if not plays:
            raise SnapshotError(f"{where}[3]: a trick won has plays")
        winner = _whole(value[4], f"{where}[4] (the winner)", 0, n - 1)
        return TrickNote(rnd, leader, tuple(plays), winner, None)
    stock_to = _whole(value[2], f"{where}[2] (stock_to)", -1, n - 1)
    out: list[int] = []
    for i, v in enumerate(_items(value[3], f"{where}[3]", "seats that went out")):
        seat = _whole(v, f"{where}[3][{i}]", 0, n - 1)
        if seat in out:
            raise SnapshotError(f"{where}[3] names seat {seat} twice")
        out.append(seat)
    next_size = _whole(value[4], f"{where}[4] (the next hand size)", 0, size)
    return RoundNote(rnd, stock_to, tuple(out), next_size, None)


def _replay_trick(
    plays: list[tuple[int, RatsAction]] | tuple[tuple[int, RatsAction], ...], where: str
) -> tuple[int, int, int, int, int]:
    """The kind, size, best value, best seat and suit led (-1: none) of a trick with ``plays``,
    each of which the rules must allow after the ones before it."""
    _, lead = plays[0]
    kind = lead.kind
    if kind == DISCARD:
        raise SnapshotError(
            f"{where}[0]: a trick is led with a single, a set or a run, not a discard "
            f"({action_text(lead)})"
        )
    count = len(lead.cards)
    best_seat = plays[0][0]
    suit = -1
    best = play_value(kind, lead.cards)
    if kind == SINGLE and not is_joker(lead.cards[0]):
        suit = suit_of(lead.cards[0])
    what = trick_kind_name(kind, count)
    for i in range(1, len(plays)):
        seat, action = plays[i]
        text = action_text(action)
        here = f"{where}[{i}]"
        if len(action.cards) != count:
            raise SnapshotError(
                f"{here}: {text} has {len(action.cards)} card(s); every play to a trick led "
                f"with a {what} has {count}"
            )
        if action.kind == DISCARD:
            if kind == SINGLE and suit == -1 and action.cards[0] < 52:
                raise SnapshotError(
                    f"{here}: after a joker lead the first natural card beats it; "
                    f"{text} is not allowed"
                )
            continue
        if action.kind != kind:
            raise SnapshotError(
                f"{here}: {text} is not a {what}; a play to this trick is a {what} that beats "
                "the best so far, or a discard"
            )
        if kind == SINGLE:
            c = action.cards[0]
            if not beating_singles(suit, best) >> c & 1:
                raise SnapshotError(f"{here}: {text} does not beat the best single so far")
            suit = suit_of(c)
            best = play_value(SINGLE, action.cards)
        else:
            value = play_value(kind, action.cards)
            if value <= best:
                raise SnapshotError(f"{here}: {text} does not beat the best {what} so far")
            best = value
        best_seat = seat
    return kind, count, best, best_seat, suit


def _check_order(
    plays: list[tuple[int, RatsAction]] | tuple[tuple[int, RatsAction], ...],
    seats: list[int],
    where: str,
    complete: bool,
) -> None:
    """The plays go round ``seats`` (the seats in the round) from the first one's seat, one
    play each; a trick won has a play by each of them, a trick under way fewer."""
    first = plays[0][0]
    if first not in seats:
        raise SnapshotError(f"{where}[0]: seat {first} was out and could not lead")
    k = len(seats)
    if complete and len(plays) != k:
        raise SnapshotError(
            f"{where}: a trick won has a play by each of the {k} seats in the round, "
            f"not {len(plays)}"
        )
    if not complete and len(plays) >= k:
        raise SnapshotError(
            f"{where}: a trick under way has fewer plays than the {k} seats in the round "
            "(the last play ends it)"
        )
    start = seats.index(first)
    for i in range(len(plays)):
        expected = seats[(start + i) % k]
        if plays[i][0] != expected:
            raise SnapshotError(
                f"{where}[{i}]: play goes round the seats still in, so seat {expected} plays "
                f"here, not seat {plays[i][0]}"
            )


def _texts_of(mask: int) -> str:
    return " ".join(texts(cards_of(mask))) or "none"


class CardSet(Codec):
    """A set of cards of the game's deck, kept as a bit mask and written as the cards' notation
    in card order; read back, each a card of this deck named once."""

    def write(self, value: Any) -> JSON:
        return texts(cards_of(value))

    def read(self, value: object, entry: str, game: Any) -> Any:
        return mask_of(_card_list(game, value, entry))


class CardRow(Codec):
    """Cards of the game's deck in the order laid (a discard under way), kept as a tuple."""

    def write(self, value: Any) -> JSON:
        return texts(value)

    def read(self, value: object, entry: str, game: Any) -> Any:
        return tuple(_card_list(game, value, entry))


def _write_plays(plays: Any) -> JSON:
    return _plays_json(plays)


def _read_plays(value: object, entry: str, game: Any) -> Any:
    return tuple(_plays(game, value, entry))


PLAYS: Final[Custom] = Custom(_write_plays, _read_plays)
"""The plays of the trick under way, ``[seat, play]`` with the play's notation."""


def restored(s: RatsState, snap: Mapping[str, Any]) -> None:
    """Checks that ``s``, whose fields were read from ``snap`` (each of the right shape), is a
    position the rules can reach, and sets what a snapshot does not hold: the history, the state
    of the trick under way (replayed through the rules) and its cards (see
    :meth:`Rats.restore`)."""
    game = s.game
    n = game.players
    deck = game.deck()
    max_rounds: int = game.options["max_rounds"]
    rnd = s.round
    initial_size = s.initial_size
    hand_size = s.hand_size
    if hand_size > initial_size:
        raise SnapshotError(
            f"hand_size must be at most initial_size ({initial_size}), not {hand_size}"
        )
    if rnd == 1 and hand_size != initial_size:
        raise SnapshotError(
            f"hand_size must be initial_size ({initial_size}) in the first round, not {hand_size}"
        )
    over = s.over
    cap_fired = s.cap_fired
    trick_count = s.trick_count
    if trick_count > hand_size:
        raise SnapshotError(
            f"trick_count must be at most hand_size ({hand_size}), not {trick_count}"
        )
    tricks = s.tricks
    low, high = trick_count + rnd - 1, trick_count + (rnd - 1) * initial_size
    if not low <= tricks <= high:
        raise SnapshotError(f"tricks must be a whole number from {low} to {high}, not {tricks}")
    dealer, leader, turn, stock_taker = s.dealer, s.leader, s.turn, s.stock_taker
    alive, out_round = s.alive, s.out_round
    for p in range(n):
        if out_round[p] > rnd:
            raise SnapshotError(f"out_round[{p}] must be a round up to {rnd}, not {out_round[p]}")
    hand_m, res_m, stock_m = s.hand_masks, s.reserves, s.stock
    hands = [cards_of(m) for m in hand_m]
    reserves = [cards_of(m) for m in res_m]
    stock = cards_of(stock_m)
    known, known_hand, won_round = s.known, s.known_hand, s.won_round
    trick = list(s.trick)
    pending = list(s.pending)
    seen, round_seen = s.seen, s.round_seen
    history = [
        _read_note(game, v, f"history[{i}]", rnd, initial_size)
        for i, v in enumerate(_items(snap["history"], "history", "notes of tricks and rounds"))
    ]

    # --- every card once ------------------------------------------------------------------
    trick_cards = [c for _, a in trick for c in a.cards]
    placed = [c for h in hands for c in h] + [c for r in reserves for c in r]
    placed += stock + trick_cards + pending
    if sorted(placed) != sorted(deck):
        twice = sorted({c for c in placed if placed.count(c) > 1})
        lost = sorted(set(deck) - set(placed))
        raise SnapshotError(
            f"hands, reserves, stock, trick and pending must hold each of the {len(deck)} cards "
            f"of the deck ({game.options['jokers']} jokers) once: "
            f"twice: {_texts_of(mask_of(twice))}; missing: {_texts_of(mask_of(lost))}"
        )
    hand_m = [mask_of(h) for h in hands]
    res_m = [mask_of(r) for r in reserves]
    stock_m = mask_of(stock)

    # --- who is in ----------------------------------------------------------------------------
    for p in range(n):
        if alive[p] and out_round[p]:
            raise SnapshotError(
                f"out_round[{p}] must be 0 for a seat still in (alive[{p}]), not {out_round[p]}"
            )
        if not alive[p]:
            if not out_round[p] or (out_round[p] == rnd and not over):
                raise SnapshotError(
                    f"out_round[{p}] must be the round seat {p} went out at the end of (before "
                    f"round {rnd} while the game goes on), not {out_round[p]}"
                )
            if hand_m[p] or res_m[p] or known[p] or known_hand[p] or won_round[p]:
                raise SnapshotError(
                    f"seat {p} is out: hands[{p}], reserves[{p}], known[{p}], known_hand[{p}] "
                    f"and won_round[{p}] must be empty"
                )
    living = [p for p in range(n) if alive[p]]
    if not living:
        raise SnapshotError("alive: at least one seat is still in")
    if over:
        if cap_fired != (len(living) > 1):
            raise SnapshotError(
                "cap_fired must be true exactly when the game is over with more than one seat "
                "still in (the round cap ended it)"
            )
        if cap_fired and rnd != max_rounds:
            raise SnapshotError(
                f"cap_fired: the round cap ends a game at round {max_rounds} (max_rounds), "
                f"not {rnd}"
            )
        for p in living:
            if not res_m[p]:
                raise SnapshotError(f"reserves[{p}]: a seat still in at the end holds cards")
    else:
        if cap_fired:
            raise SnapshotError("cap_fired must be false while the game goes on")
        if len(living) < 2:
            raise SnapshotError("alive: a game that goes on has two seats still in at least")
    if not alive[leader] or not alive[turn]:
        raise SnapshotError("leader and turn must be seats still in (alive)")

    # --- what is known, the stock ---------------------------------------------------------
    for p in range(n):
        if known_hand[p] & ~(hand_m[p] & known[p] & _JOKER_MASK):
            raise SnapshotError(
                f"known_hand[{p}] must be jokers of hands[{p}] also in known[{p}] (only a joker "
                "led alone shows a hand, of jokers)"
            )
        if known[p] & ~(hand_m[p] | res_m[p]):
            raise SnapshotError(f"known[{p}] must be cards of hands[{p}] or reserves[{p}]")
        if known[p] & ~known_hand[p] & ~seen:
            raise SnapshotError(
                f"known[{p}]: a card known to be held was seen played (seen) or shown by a "
                f"joker lead (known_hand[{p}])"
            )
        if won_round[p] & ~(res_m[p] & known[p]):
            raise SnapshotError(f"won_round[{p}] must be cards of reserves[{p}] also in known[{p}]")
    all_won = 0
    for w in won_round:
        all_won |= w
    if round_seen != all_won:
        raise SnapshotError(
            "round_seen must be the cards of the tricks won this round (won_round together)"
        )
    if round_seen & ~seen:
        raise SnapshotError("round_seen must be part of seen")
    if seen & stock_m:
        raise SnapshotError("seen and stock share no card: the stock is never played")
    undealt = len(deck) - n * initial_size
    if rnd == 1 and not over:
        if len(stock) != undealt:
            raise SnapshotError(
                f"stock must hold the {undealt} card(s) not dealt ({len(deck)} cards, {n} hands "
                f"of {initial_size}) until the first round ends, not {len(stock)}"
            )
        if stock_taker != -1:
            raise SnapshotError("stock_taker must be null until the first round ends")
        for p in range(n):
            if res_m[p] != won_round[p]:
                raise SnapshotError(
                    f"reserves[{p}] must be won_round[{p}] in the first round (a reserve holds "
                    "only the tricks won)"
                )
    else:
        if stock:
            raise SnapshotError("stock must be empty once the first round has ended")
        if (stock_taker == -1) != (undealt == 0):
            raise SnapshotError(
                f"stock_taker must be the seat that took the {undealt} card(s) of the stock "
                "(null when there were none)"
            )

    # --- the trick under way and the hands --------------------------------------------------
    kind_d, n_d, best_d, best_seat_d, suit_d = -1, 0, -1, -1, -1
    played: set[int] = set()
    if over:
        if trick or pending:
            raise SnapshotError("trick and pending must be empty once the game is over")
        if any(hand_m):
            raise SnapshotError("hands must be empty once the game is over (it ends a round)")
        if turn != leader:
            raise SnapshotError("turn must be leader (the last trick's winner) once it is over")
        h = 0
    elif not trick:
        if pending:
            raise SnapshotError("pending must be empty with no trick under way")
        if turn != leader:
            raise SnapshotError("turn must be leader while no trick is under way")
        h = len(hands[leader])
        if not h:
            raise SnapshotError(
                f"hands[{leader}]: the seat to lead holds cards (a round ends when hands are empty)"
            )
    else:
        _check_order(trick, living, "trick", False)
        if trick[0][0] != leader:
            raise SnapshotError(f"leader must be seat {trick[0][0]}, the first to play to trick")
        nxt = living[(living.index(leader) + len(trick)) % len(living)]
        if turn != nxt:
            raise SnapshotError(f"turn must be seat {nxt}, the next seat still in after trick")
        kind_d, n_d, best_d, best_seat_d, suit_d = _replay_trick(trick, "trick")
        if pending:
            if len(pending) >= n_d:
                raise SnapshotError(
                    f"pending: a discard under way has laid fewer cards than the {n_d} of a "
                    "play to this trick"
                )
            if pending != sorted(pending):
                raise SnapshotError("pending: a discard is laid lowest card first (jokers last)")
            left = n_d - len(pending)
            if sum(1 for c in hands[turn] if c > pending[-1]) < left:
                raise SnapshotError(
                    f"pending: seat {turn} must hold the {left} card(s) above "
                    f"{CARD_TEXT[pending[-1]]} it has still to discard"
                )
        h = len(hands[turn]) + len(pending)
        played = {seat for seat, _ in trick}
        lead = trick[0][1]
        if lead.kind == SINGLE and lead.cards[0] >= 52 and hand_m[leader] & ~_JOKER_MASK:
            raise SnapshotError(f"hands[{leader}]: a joker is led alone only from a hand of jokers")
    for p in living:
        want = h - n_d if p in played else h
        have = len(hands[p]) + (len(pending) if p == turn else 0)
        if have != want:
            raise SnapshotError(
                f"hands[{p}] must hold {want - (len(pending) if p == turn else 0)} card(s): "
                f"every seat still in holds {h} at the start of the trick and lays {n_d} to it"
            )

    # --- the history ----------------------------------------------------------------------
    events = len(trick)
    prev: Note | None = None
    last_winner = -1
    round_cards: dict[int, int] = {}
    trick_notes = 0
    for i, note in enumerate(history):
        where = f"history[{i}]"
        if isinstance(note, TrickNote):
            events += len(note.plays) + 1
            trick_notes += 1
            if isinstance(prev, TrickNote) and note.round != prev.round:
                raise SnapshotError(
                    f"{where}: a trick of round {note.round} after one of round {prev.round} "
                    "with no end of round between"
                )
            if isinstance(prev, RoundNote) and note.round != prev.round + 1:
                raise SnapshotError(
                    f"{where}: the end of round {prev.round} is followed by tricks of round "
                    f"{prev.round + 1}, not {note.round}"
                )
            seats = [p for p in range(n) if alive[p] or out_round[p] >= note.round]
            _check_order(note.plays, seats, f"{where}[3]", True)
            if note.leader != note.plays[0][0]:
                raise SnapshotError(f"{where}[2]: the leader is the first to play to the trick")
            if last_winner >= 0 and note.leader != last_winner:
                raise SnapshotError(
                    f"{where}[2]: the winner of a trick leads the next: seat {last_winner}"
                )
            winner = _replay_trick(note.plays, f"{where}[3]")[3]
            if note.winner != winner:
                raise SnapshotError(f"{where}[4]: seat {winner} won this trick, not {note.winner}")
            cards = 0
            for _, a in note.plays:
                cards |= mask_of(a.cards)
            if round_cards.get(note.round, 0) & cards:
                raise SnapshotError(f"{where}: a card is played twice in round {note.round}")
            if cards & ~seen:
                raise SnapshotError(f"{where}: every card of a trick won is in seen")
            round_cards[note.round] = round_cards.get(note.round, 0) | cards
            last_winner = winner
        else:
            events += 1
            if prev is not None and not isinstance(prev, TrickNote):
                raise SnapshotError(f"{where}: a round's end comes after its tricks")
            if prev is not None and note.round != prev.round:
                raise SnapshotError(
                    f"{where}: the end of round {note.round} after a trick of round {prev.round}"
                )
            if note.round == rnd and not over:
                raise SnapshotError(f"{where}: round {rnd} is under way, it has not ended")
            final = note.round == rnd
            if final != (note.size == 0) or (note.round == rnd - 1 and note.size != hand_size):
                raise SnapshotError(
                    f"{where}[4]: the next hand size is 0 once the game is over, else at least "
                    f"1 (hand_size, {hand_size}, after the last round ended)"
                )
            if note.stock_to != (stock_taker if note.round == 1 else -1) or (
                note.stock_to >= 0 and isinstance(prev, TrickNote) and prev.winner != note.stock_to
            ):
                raise SnapshotError(
                    f"{where}[2]: the stock goes to the winner of the first round's last trick "
                    "(stock_taker; -1 for none and in later rounds)"
                )
            if sorted(note.out) != [p for p in range(n) if out_round[p] == note.round]:
                raise SnapshotError(
                    f"{where}[3]: the seats out at the end of round {note.round} are those whose "
                    "out_round it is"
                )
        prev = note
    if over and not (isinstance(prev, RoundNote) and prev.round == rnd):
        raise SnapshotError(f"history must end with the end of round {rnd} once the game is over")
    if not over and isinstance(prev, TrickNote) and prev.round != rnd:
        raise SnapshotError(f"history: round {prev.round} has not ended (no end of round)")
    if trick_notes > tricks:
        raise SnapshotError(f"tricks must count the {trick_notes} tricks of history at least")
    if last_winner >= 0 and leader != last_winner:
        raise SnapshotError(f"leader must be seat {last_winner}, the last trick's winner")
    current: list[TrickNote] = []
    j = len(history) - 1 - (1 if over else 0)
    while j >= 0:
        note = history[j]
        if not isinstance(note, TrickNote) or note.round != rnd:
            break
        current.append(note)
        j -= 1
    current.reverse()
    if len(current) != trick_count:
        raise SnapshotError(
            f"history must hold every trick of the round under way: trick_count is "
            f"{trick_count}, history has {len(current)} of round {rnd}"
        )
    if rnd == 1 and (current[0].leader if current else leader) != dealer:
        raise SnapshotError(f"the dealer (seat {dealer}) leads the first trick")
    won = [0] * n
    laid = 0
    jokers_led: set[int] = set()
    for tn in current:
        for _, a in tn.plays:
            won[tn.winner] |= mask_of(a.cards)
        lead_play = tn.plays[0][1]
        laid += len(lead_play.cards)
        if lead_play.kind == SINGLE and lead_play.cards[0] >= 52:
            jokers_led.add(tn.leader)
    if trick and trick[0][1].kind == SINGLE and trick[0][1].cards[0] >= 52:
        jokers_led.add(leader)
    for p in range(n):
        if won[p] != won_round[p]:
            raise SnapshotError(
                f"won_round[{p}] must be the cards of the tricks seat {p} won this round "
                f"(history): {_texts_of(won[p])}"
            )
        if p in jokers_led:
            if hand_m[p] & ~_JOKER_MASK or known_hand[p] != hand_m[p]:
                raise SnapshotError(
                    f"known_hand[{p}] must be hands[{p}], jokers only: seat {p} led a joker "
                    "alone this round, which shows the rest of its hand"
                )
        elif known_hand[p]:
            raise SnapshotError(
                f"known_hand[{p}] must be empty: only a joker led alone this round shows a hand"
            )
    if laid + h != hand_size:
        raise SnapshotError(
            f"hand_size must be {laid + h}: this round's tricks (history) took {laid} card(s) "
            f"from each hand, which holds {h} at the start of the trick under way"
        )
    top = tricks * (n + 1) + rnd + len(trick)
    s._event_count = _whole(snap["n_events"], "n_events", events, top)

    # --- what the snapshot does not hold ------------------------------------------------------
    s.initial_hands = ()
    s.trick_kind = kind_d
    s.trick_n = n_d
    s.trick_mask = mask_of(trick_cards) | mask_of(pending)
    s.best = best_d
    s.best_seat = best_seat_d
    s.suit_led = suit_d
    chain: Note | None = None
    for note in history:
        if isinstance(note, TrickNote):
            chain = TrickNote(note.round, note.leader, note.plays, note.winner, chain)
        else:
            chain = RoundNote(note.round, note.stock_to, note.out, note.size, chain)
    s.history = chain
