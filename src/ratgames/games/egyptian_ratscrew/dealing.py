"""How Egyptian Ratscrew is dealt: the shuffled deal, an explicit deal read and checked
(:func:`read_deal`), and deals written in the face-card notation of Beggar-my-neighbour records
(:func:`face_deal`).  A stack is a list with its *bottom* first and its top card last."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ratgames import cards as _cards
from ratgames.core.errors import DealError, IllegalAction
from ratgames.core.game import JSON
from ratgames.core.rng import Rng

from .cards import CHANCES, TEXT

if TYPE_CHECKING:
    from .rules import EgyptianRatscrew


def shuffled_deal(game: EgyptianRatscrew, rng: Rng) -> list[list[int]]:
    """The deck shuffled by ``rng`` and dealt one card at a time to the seats dealt in (the
    newcomers, the last seats, get none), each stack bottom first."""
    n = game.players
    dealt = n - game.newcomers
    deck = sorted(game.deck())
    rng.shuffle(deck)
    stacks: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(deck):
        stacks[i % dealt].append(card)
    return stacks


_FACE_LETTERS = {"J": _cards.JACK, "Q": _cards.QUEEN, "K": _cards.KING, "A": _cards.ACE}


def face_deal(*hands: object, jokers: object = 0) -> dict[str, JSON]:
    """A deal (for ``new_state(deal=...)``) from the face-card notation of Beggar-my-neighbour
    records: one string per seat, its top card first, ``J``/``Q``/``K``/``A`` for a face card
    and ``-`` for any other card (spaces are ignored).  The number cards (and any jokers) fill
    the ``-`` places in deck order (2C, 2D, 2H, 2S, 3C, ...), the face cards theirs suit by
    suit: without slaps only the face cards matter.  An empty string is a seat dealt no cards.

    >>> deal = face_deal("K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--")
    >>> deal["stacks"][0][:4], deal["stacks"][1][:4]
    (['KC', '2C', 'KD', 'KH'], ['6C', '6D', '6H', 'QD'])
    >>> face_deal("KQ", "J-")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ratgames.core.errors.DealError: the hands hold jacks: 1, queens: 1, kings: 1, aces: 0, ...
    """
    if isinstance(jokers, bool) or not isinstance(jokers, int) or not 0 <= jokers <= 2:
        raise DealError(f"jokers must be 0, 1 or 2, not {jokers!r}")
    patterns: list[str] = []
    for i, hand in enumerate(hands):
        if not isinstance(hand, str):
            raise DealError(f"hand {i + 1} must be text such as 'K-Q--A', not {hand!r}")
        pattern = "".join(hand.split())
        bad = sorted(set(pattern) - set("-JQKA"))
        if bad:
            raise DealError(
                f"hand {i + 1} holds {bad[0]!r}: write J, Q, K or A for a face card and - for "
                "any other card"
            )
        patterns.append(pattern)
    counts = Counter("".join(patterns))
    numbers = [c for c in _cards.standard_deck(jokers) if not CHANCES[c]]
    if any(counts[f] != 4 for f in "JQKA") or counts["-"] != len(numbers):
        raise DealError(
            f"the hands hold jacks: {counts['J']}, queens: {counts['Q']}, kings: "
            f"{counts['K']}, aces: {counts['A']}, other cards: {counts['-']}; a "
            f"{52 + jokers}-card deck needs 4 of each face and {len(numbers)} other cards"
        )
    faces = {f: [_cards.make_card(r, s) for s in range(4)] for f, r in _FACE_LETTERS.items()}
    others = iter(numbers)
    stacks = [
        [TEXT[next(others) if ch == "-" else faces[ch].pop(0)] for ch in pattern]
        for pattern in patterns
    ]
    return {"stacks": stacks}


def read_deal(game: EgyptianRatscrew, deal: Mapping[str, Any]) -> list[list[int]]:
    """The stacks (bottom first) of an explicit deal, or :class:`DealError`."""
    n = game.players
    form = 'a deal is {"stacks": [[cards of seat 1, top first], ...]} with one list per seat'
    if not isinstance(deal, Mapping) or list(deal) != ["stacks"]:
        raise DealError(form)
    raw = deal["stacks"]
    if not isinstance(raw, list) or len(raw) != n:
        raise DealError(f"the deal's 'stacks' must be a list of {n} lists of cards; {form}")
    deck = game.deck()
    stacks: list[list[int]] = []
    for seat, texts in enumerate(raw):
        if not isinstance(texts, list):
            raise DealError(
                f"the deal of {game.seat_name(seat)} must be a list of cards (text such as "
                f"'10H'), not {type(texts).__name__}"
            )
        top_first: list[int] = []
        for text in texts:
            if not isinstance(text, str):
                raise DealError(
                    f"the deal of {game.seat_name(seat)}: a card is written as text such as "
                    f"'10H' or 'QS', not {text!r}"
                )
            try:
                card = _cards.parse_card(text)
            except IllegalAction as exc:
                raise DealError(f"the deal of {game.seat_name(seat)}: {exc}") from None
            if card not in deck:
                raise DealError(
                    f"the deal of {game.seat_name(seat)}: {text!r} is not in this game's deck "
                    f"(option jokers is {game.options['jokers']})"
                )
            top_first.append(card)
        stacks.append(top_first[::-1])
    counts = Counter(c for s in stacks for c in s)
    twice = sorted(c for c, k in counts.items() if k > 1)
    if twice:
        raise DealError(f"the deal holds {TEXT[twice[0]]} more than once")
    missing = sorted(set(deck) - set(counts))
    if missing:
        raise DealError(
            f"the deal must hold every card of the {len(deck)}-card deck once; "
            f"{TEXT[missing[0]]} is missing"
            + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
        )
    for seat in range(n - game.newcomers, n):
        if stacks[seat]:
            raise DealError(
                f"{game.seat_name(seat)} is a newcomer (option newcomers) and is dealt no cards"
            )
    if sum(1 for s in stacks if s) < 2:
        raise DealError("the deal must give cards to at least 2 players")
    return stacks
