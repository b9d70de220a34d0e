"""Beggar-my-neighbour deals and their play-outs: the face-card notation, numbered random deals,
the fast play-out, the exact one that settles cycles, and the general engine's figures that
every reported deal is checked against (see :mod:`ratgames.hunt`)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ratgames.core.errors import RatgamesError

# --- deals ---------------------------------------------------------------------------------------

HAND = 26
DECK_SIZE = 52
LETTERS = "-JQKA"
"""A rank class's letter in the face-card notation (0: any number card)."""
DECK = bytes([0] * 36 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4)
"""The deck's rank classes."""
_FACES = DECK[36:]

DEFAULT_LIMIT = 20_000
"""Cards after which a game is settled with a memory of positions (the longest known finite
game lasts 8344 cards)."""

MAX_SWAPS = 20
CYCLES_KEPT = 1000
"""At most this many cycle deals are kept (those with the lowest numbers); all are counted."""

MASK64 = (1 << 64) - 1
"""Arithmetic modulo 2**64 (SplitMix64)."""
_GAMMA = 0x9E3779B97F4A7C15
_STREAM = 0xD1B54A32D192ED03

FINISHED_FIRST, FINISHED_SECOND, UNRESOLVED = 0, 1, 2
"""Status of a fast play-out: the winner, or past the limit (to be settled exactly)."""


class HuntError(RatgamesError):
    """A hunt that cannot run as asked (bad deal text, checkpoint of another hunt, ...)."""


class EngineMismatch(HuntError):
    """A play-out and the general engine disagree about a deal: a bug, never to be hidden."""


def parse_deal(text: str) -> bytes:
    """A deal from its face-card notation: two hands of 26 cards joined by ``/`` (top card
    first; ``J``, ``Q``, ``K``, ``A`` for a face card and ``-`` for any other card; spaces are
    ignored, lower case is read as upper case).

    >>> parse_deal("K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--")[:4]
    b'\\x03\\x00\\x03\\x03'
    >>> parse_deal("K-KK")
    Traceback (most recent call last):
    ...
    ratgames.hunt.deals.HuntError: a deal is two hands of 26 cards joined by ...
    """
    if not isinstance(text, str):
        raise HuntError(f"a deal must be text, not {text!r}")
    example = "K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--"
    hands = "".join(text.split()).upper().split("/")
    if len(hands) != 2:
        raise HuntError(
            f"a deal is two hands of 26 cards joined by '/' (e.g. {example}), not {text!r}"
        )
    for i, hand in enumerate(hands):
        bad = sorted(set(hand) - set(LETTERS))
        if bad:
            raise HuntError(
                f"hand {i + 1} holds {bad[0]!r}: write J, Q, K or A for a face card and - for "
                "any other card"
            )
        if len(hand) != HAND:
            raise HuntError(f"hand {i + 1} has {len(hand)} cards; each hand has {HAND}")
    joined = hands[0] + hands[1]
    counts = {letter: joined.count(letter) for letter in "JQKA"}
    if any(n != 4 for n in counts.values()):
        shown = ", ".join(f"{letter}: {n}" for letter, n in counts.items())
        raise HuntError(f"the hands hold {shown}; a deck has 4 of each face card")
    return bytes(LETTERS.index(ch) for ch in joined)


def deal_text(deal: bytes) -> str:
    """The face-card notation of a deal (the inverse of :func:`parse_deal`).

    >>> deal_text(parse_deal("------------KAQ----J------/-JQQK---K----JK--QA-A-JA--"))
    '------------KAQ----J------/-JQQK---K----JK--QA-A-JA--'
    """
    letters = "".join(LETTERS[c] for c in deal)
    return letters[:HAND] + "/" + letters[HAND:]


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def deal_at(seed: int, index: int, near: bytes | None = None, swaps: int = 2) -> bytes:
    """Deal ``index`` of the hunt with ``seed``: a shuffled deck, or (``near``) that deal with 1
    to ``swaps`` swaps of two cards of different classes.  The C kernel's ``bmn_deal`` twin.

    >>> deal_text(deal_at(0, 0))
    '---K--Q------KA-A--A--K-JJ/Q-QK---J---------A--J---Q-'
    """
    state = _mix64((_mix64(seed & MASK64) + index * _STREAM) & MASK64)
    if near is None:
        # Where the 16 face cards go: a partial Fisher-Yates shuffle of the 52 places (two
        # swaps from each 64-bit output), the n-th place drawn getting _FACES[n].
        places = list(range(DECK_SIZE))
        for i in range(0, 16, 2):
            state = (state + _GAMMA) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            j = i + (((z & 0xFFFFFFFF) * (DECK_SIZE - i)) >> 32)
            places[i], places[j] = places[j], places[i]
            j = i + 1 + (((z >> 32) * (DECK_SIZE - i - 1)) >> 32)
            places[i + 1], places[j] = places[j], places[i + 1]
        out = bytearray(DECK_SIZE)
        for i in range(16):
            out[places[i]] = _FACES[i]
        return bytes(out)
    out = bytearray(near)
    state = (state + _GAMMA) & MASK64
    k = 1 + (((_mix64(state) >> 32) * swaps) >> 32)
    for _ in range(k):
        while True:
            state = (state + _GAMMA) & MASK64
            p = ((_mix64(state) >> 32) * DECK_SIZE) >> 32
            state = (state + _GAMMA) & MASK64
            q = ((_mix64(state) >> 32) * DECK_SIZE) >> 32
            if out[p] != out[q]:
                out[p], out[q] = out[q], out[p]
                break
    return bytes(out)


# --- play-outs -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Figures:
    """How a deal plays out: ``cards`` played and ``tricks`` won (published convention), the
    ``winner`` (0 or 1; -1 for a cycle) and whether it is a ``cycle`` (figures at the first
    repeat of a position)."""

    cards: int
    tricks: int
    winner: int
    cycle: bool = False


def play_fast(deal: bytes, limit: int = DEFAULT_LIMIT) -> tuple[int, int, int]:
    """Play ``deal`` without a memory of positions: ``(status, cards, tricks)`` where status is
    the winner (0 or 1), or :data:`UNRESOLVED` once a trick ends past ``limit`` cards."""
    status, cards, tricks, _ = _play(deal, limit, None)
    return status, cards, tricks


def play_exact(deal: bytes) -> Figures:
    """Play ``deal`` to its end, or to the first repeat of a position after a trick (a cycle),
    remembering every such position: the engine's figures, exactly."""
    winner, cards, tricks, cycle = _play(deal, 0, set())
    return Figures(cards, tricks, winner, cycle)


def _play(
    deal: bytes, limit: int, seen: set[tuple[int, bytes, bytes]] | None
) -> tuple[int, int, int, bool]:
    """Play ``deal``: ``(winner, cards, tricks, cycle)``.  With ``seen`` (a set to fill), to its
    end or to the first repeat of a position after a trick (winner -1, cycle true); without,
    to its end or to the first trick that ends past ``limit`` cards (winner
    :data:`UNRESOLVED`)."""
    a = deque(deal[:HAND])
    b = deque(deal[HAND:])
    hands = (a, b)
    pile: list[int] = []
    turn = cards = tricks = owed = 0
    challenger = -1
    while True:
        hand = hands[turn]
        if not hand:
            # The player to play has no card: the other takes the pile (the last trick).
            return turn ^ 1, cards, tricks + 1, False
        c = hand.popleft()
        cards += 1
        pile.append(c)
        if c:
            challenger = turn
            owed = c
            turn ^= 1
        elif challenger >= 0:
            owed -= 1
            if owed == 0:
                hands[challenger].extend(pile)
                pile.clear()
                tricks += 1
                if not hand:
                    return challenger, cards, tricks, False
                if seen is None:
                    if cards > limit:
                        return UNRESOLVED, cards, tricks, False
                else:
                    key = (challenger, bytes(a), bytes(b))
                    if key in seen:
                        return -1, cards, tricks, True
                    seen.add(key)
                turn = challenger
                challenger = -1
        else:
            turn ^= 1


def play(deal: bytes, limit: int = DEFAULT_LIMIT) -> Figures:
    """How ``deal`` plays out (the fast loop, settled exactly past ``limit`` cards).

    >>> play(parse_deal("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"))
    Figures(cards=8344, tricks=1164, winner=1, cycle=False)
    """
    status, cards, tricks = play_fast(deal, limit)
    if status == UNRESOLVED:
        return play_exact(deal)
    return Figures(cards, tricks, status)


def engine_figures(deal: bytes, max_cards: int = 10_000_000) -> Figures:
    """How ``deal`` plays out in the general engine: Egyptian Ratscrew for 2 with ``slaps``
    off, played through the public API (slow: the reference the play-outs are checked
    against)."""
    from ratgames.games.egyptian_ratscrew.rules import EgyptianRatscrew, RatscrewState, face_deal

    first, second = deal_text(deal).split("/")
    game = EgyptianRatscrew(2, {"slaps": False, "max_cards": max_cards})
    state = game.new_state(seed=0, deal=face_deal(first, second))
    assert isinstance(state, RatscrewState)
    state.set_recording(False)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply_trusted(seat, state.legal_actions(seat)[0])
    out = state.outcome()
    assert out is not None
    if out.capped:
        raise EngineMismatch(
            f"the engine stopped at its cap of {max_cards} cards on {first}/{second}"
        )
    cycle = bool(out.details["cycle"])
    return Figures(
        out.details["cards"], out.details["tricks"], -1 if cycle else out.winners[0], cycle
    )


def check_with_engine(deal: bytes, figures: Figures) -> None:
    """Raise :class:`EngineMismatch` unless the engine plays ``deal`` as ``figures`` say."""
    expected = engine_figures(deal)
    if expected != figures:
        raise EngineMismatch(
            f"the play-out and the engine disagree on {deal_text(deal)}: play-out {figures}, "
            f"engine {expected}"
        )
