"""The Beggar-my-neighbour record hunt: a dedicated play-out, and a search of many deals for the
longest games and for games that never end.

Beggar-my-neighbour is Egyptian Ratscrew without slaps (``slaps=false``): the deal decides
everything, and only where the face cards lie matters.  A deal here is 52 bytes, the *rank
classes* of the first player's 26 cards (top card first) and then the second player's: 0 for a
number card, 1 to 4 for a jack, queen, king or ace (the cards the other player must pay).  Its
text is the face-card notation of the published records, the two hands joined by ``/``::

    K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--

A game's length follows the convention of the published records (the engine's ``cards`` and
``tricks``): the cards played, and the tricks (piles won, the last one included).  A game that
never ends is a *cycle*: the position (who leads, and the face cards' places in both stacks)
after a trick comes back; its figures are those at the moment the position first comes back, as
the engine reports them.

Two play-outs give the same figures for every deal: a pure-Python loop, and an optional C kernel
(``hunt_kernel.c``) compiled with the system C compiler into a cache folder the first time it is
needed and loaded with :mod:`ctypes` (see :func:`load_kernel`).  Neither keeps a memory of
positions on its fast path: a game still going after ``limit`` cards (longer than any known
finite game) is played again from its deal with a memory of every position, which settles it
exactly as finite or as a cycle.

Deals are numbered: deal ``i`` of a hunt with seed ``s`` depends only on ``(s, i)`` (its own
SplitMix64 stream), so a hunt gives the same results however it is split among processes or
machines, stopped and resumed.  Every deal the hunt reports is checked against the general
engine (:func:`engine_figures`).
"""

from __future__ import annotations

import ctypes
import hashlib
import heapq
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from ratgames.checkpoint import write_json_atomic
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

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_STREAM = 0xD1B54A32D192ED03

FINISHED_FIRST, FINISHED_SECOND, UNRESOLVED = 0, 1, 2
"""Status of a fast play-out: the winner, or past the limit (to be settled exactly)."""


class HuntError(RatgamesError):
    """A hunt that cannot run as asked (bad deal text, checkpoint of another hunt, ...)."""


class KernelError(HuntError):
    """The C kernel cannot be built or loaded, or gives other figures than the Python loop."""


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
    ratgames.games.egyptian_ratscrew.hunt.HuntError: a deal is two hands of 26 cards joined by ...
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
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def deal_at(seed: int, index: int, near: bytes | None = None, swaps: int = 2) -> bytes:
    """Deal ``index`` of the hunt with ``seed``: a shuffled deck, or (``near``) that deal with 1
    to ``swaps`` swaps of two cards of different classes.  The C kernel's ``bmn_deal`` twin.

    >>> deal_text(deal_at(0, 0))
    '---K--Q------KA-A--A--K-JJ/Q-QK---J---------A--J---Q-'
    """
    state = _mix64((_mix64(seed & _MASK) + index * _STREAM) & _MASK)
    if near is None:
        # Where the 16 face cards go: a partial Fisher-Yates shuffle of the 52 places (two
        # swaps from each 64-bit output), the n-th place drawn getting _FACES[n].
        places = list(range(DECK_SIZE))
        for i in range(0, 16, 2):
            state = (state + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
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
    state = (state + _GAMMA) & _MASK
    k = 1 + (((_mix64(state) >> 32) * swaps) >> 32)
    for _ in range(k):
        while True:
            state = (state + _GAMMA) & _MASK
            p = ((_mix64(state) >> 32) * DECK_SIZE) >> 32
            state = (state + _GAMMA) & _MASK
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
            return turn ^ 1, cards, tricks + 1
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
                    return challenger, cards, tricks
                if cards > limit:
                    return UNRESOLVED, cards, tricks
                turn = challenger
                challenger = -1
        else:
            turn ^= 1


def play_exact(deal: bytes) -> Figures:
    """Play ``deal`` to its end, or to the first repeat of a position after a trick (a cycle),
    remembering every such position: the engine's figures, exactly."""
    a = deque(deal[:HAND])
    b = deque(deal[HAND:])
    hands = (a, b)
    pile: list[int] = []
    seen: set[tuple[int, bytes, bytes]] = set()
    turn = cards = tricks = owed = 0
    challenger = -1
    while True:
        hand = hands[turn]
        if not hand:
            return Figures(cards, tricks + 1, turn ^ 1)
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
                    return Figures(cards, tricks, challenger)
                key = (challenger, bytes(a), bytes(b))
                if key in seen:
                    return Figures(cards, tricks, -1, cycle=True)
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
    from .rules import EgyptianRatscrew, RatscrewState, face_deal

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


# --- kernels -------------------------------------------------------------------------------------

Listed = tuple[int, int, int, int]
"""A listed game of a chunk: ``(index, cards, tricks, status)``."""


class Kernel(Protocol):
    """A play-out of many numbered deals (the Python loop or the C kernel)."""

    name: str

    def play(self, deal: bytes, limit: int) -> tuple[int, int, int]:
        """``(status, cards, tricks)``, as :func:`play_fast`."""
        ...

    def deal(self, seed: int, index: int, near: bytes | None, swaps: int) -> bytes:
        """Deal ``index``, as :func:`deal_at`."""
        ...

    def chunk(
        self,
        seed: int,
        start: int,
        count: int,
        near: bytes | None,
        swaps: int,
        limit: int,
        floor: int,
    ) -> tuple[list[Listed], tuple[int, int, int, int]]:
        """Play deals ``start`` to ``start + count - 1``: the games of ``floor`` cards or more
        and the unresolved ones, and the totals of the finished games (cards, tricks, games,
        first player's wins)."""
        ...


class PythonKernel:
    """The pure-Python play-out (always available)."""

    name = "python"

    def play(self, deal: bytes, limit: int) -> tuple[int, int, int]:
        return play_fast(deal, limit)

    def deal(self, seed: int, index: int, near: bytes | None, swaps: int) -> bytes:
        return deal_at(seed, index, near, swaps)

    def chunk(
        self,
        seed: int,
        start: int,
        count: int,
        near: bytes | None,
        swaps: int,
        limit: int,
        floor: int,
    ) -> tuple[list[Listed], tuple[int, int, int, int]]:
        listed: list[Listed] = []
        sum_cards = sum_tricks = finished = first_wins = 0
        for index in range(start, start + count):
            status, cards, tricks = play_fast(deal_at(seed, index, near, swaps), limit)
            if status != UNRESOLVED:
                sum_cards += cards
                sum_tricks += tricks
                finished += 1
                first_wins += status == FINISHED_FIRST
            if status == UNRESOLVED or cards >= floor:
                listed.append((index, cards, tricks, status))
        return listed, (sum_cards, sum_tricks, finished, first_wins)


_P = ctypes.c_void_p


class CKernel:
    """The C play-out (``hunt_kernel.c``), loaded from a compiled shared library."""

    name = "c"

    def __init__(self, path: Path) -> None:
        lib = ctypes.CDLL(str(path))
        self._play = lib.bmn_play
        self._play.restype = ctypes.c_int32
        self._play.argtypes = [_P, ctypes.c_int32, _P, _P]
        self._deal = lib.bmn_deal
        self._deal.restype = None
        self._deal.argtypes = [ctypes.c_int32, ctypes.c_uint64, ctypes.c_uint64, _P]
        self._deal.argtypes += [ctypes.c_int32, _P]
        self._chunk = lib.bmn_chunk
        self._chunk.restype = ctypes.c_int64
        self._chunk.argtypes = [ctypes.c_int32, ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64]
        self._chunk.argtypes += [_P, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32]
        self._chunk.argtypes += [_P, _P, _P, _P, _P]
        self.path = path

    @staticmethod
    def _base(near: bytes | None) -> ctypes.Array[ctypes.c_uint8]:
        return (ctypes.c_uint8 * DECK_SIZE).from_buffer_copy(near or bytes(DECK_SIZE))

    def play(self, deal: bytes, limit: int) -> tuple[int, int, int]:
        if len(deal) != DECK_SIZE:
            raise ValueError(f"a deal has {DECK_SIZE} cards, not {len(deal)}")
        cards = ctypes.c_int32()
        tricks = ctypes.c_int32()
        buf = (ctypes.c_uint8 * DECK_SIZE).from_buffer_copy(deal)
        status = self._play(buf, _clamp32(limit), ctypes.byref(cards), ctypes.byref(tricks))
        return int(status), cards.value, tricks.value

    def deal(self, seed: int, index: int, near: bytes | None, swaps: int) -> bytes:
        out = (ctypes.c_uint8 * DECK_SIZE)()
        self._deal(
            0 if near is None else 1, seed & _MASK, index & _MASK, self._base(near), swaps, out
        )
        return bytes(out)

    def chunk(
        self,
        seed: int,
        start: int,
        count: int,
        near: bytes | None,
        swaps: int,
        limit: int,
        floor: int,
    ) -> tuple[list[Listed], tuple[int, int, int, int]]:
        index = (ctypes.c_int64 * count)()
        cards = (ctypes.c_int32 * count)()
        tricks = (ctypes.c_int32 * count)()
        status = (ctypes.c_int8 * count)()
        totals = (ctypes.c_int64 * 4)()
        n = self._chunk(
            0 if near is None else 1,
            seed & _MASK,
            start,
            count,
            self._base(near),
            swaps,
            _clamp32(limit),
            _clamp32(floor),
            index,
            cards,
            tricks,
            status,
            totals,
        )
        listed = [(index[i], cards[i], tricks[i], status[i]) for i in range(n)]
        return listed, (totals[0], totals[1], totals[2], totals[3])


def _clamp32(value: int) -> int:
    return max(0, min(value, 2**31 - 1))


def cache_dir() -> Path:
    """Where the compiled kernel is kept: ``$RATGAMES_HOME/cache``, else ``~/.ratgames/cache``."""
    home = os.environ.get("RATGAMES_HOME")
    return (Path(home) if home else Path.home() / ".ratgames") / "cache"


_CFLAGS = ("-O3", "-shared", "-fPIC", "-std=c99")


def build_kernel(folder: Path | None = None) -> Path:
    """Compile ``hunt_kernel.c`` with the system C compiler (``$CC``, else ``cc``) into
    ``folder`` (default :func:`cache_dir`) unless it is there already; return the library's
    path.  Raises :class:`KernelError` if it cannot."""
    source = (
        resources.files("ratgames.games.egyptian_ratscrew").joinpath("hunt_kernel.c").read_bytes()
    )
    compiler = os.environ.get("CC", "cc")
    key = hashlib.sha256(
        b"\0".join(
            [
                source,
                compiler.encode(),
                " ".join(_CFLAGS).encode(),
                platform.machine().encode(),
                sys.platform.encode(),
            ]
        )
    ).hexdigest()[:16]
    folder = folder or cache_dir()
    suffix = ".dll" if sys.platform == "win32" else ".so"
    target = folder / f"bmn-kernel-{key}{suffix}"
    if target.exists():
        return target
    found = shutil.which(compiler)
    if found is None:
        raise KernelError(f"no C compiler: {compiler!r} is not on PATH (set CC to use another)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder, prefix=".build-") as tmp:
            c_file = Path(tmp) / "hunt_kernel.c"
            c_file.write_bytes(source)
            built = Path(tmp) / f"kernel{suffix}"
            done = subprocess.run(
                [found, *_CFLAGS, "-o", str(built), str(c_file)],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            if done.returncode != 0:
                lines = (done.stderr or done.stdout).strip().splitlines()
                why = lines[0] if lines else f"exit code {done.returncode}"
                raise KernelError(f"{compiler} failed on the hunt kernel: {why}")
            os.replace(built, target)  # atomic: other processes see the whole file or none
    except OSError as exc:
        raise KernelError(f"cannot build the hunt kernel in {folder}: {exc}") from exc
    except subprocess.TimeoutExpired as exc:
        raise KernelError(f"{compiler} took too long on the hunt kernel") from exc
    return target


# Deals whose figures every kernel must reproduce before it is used: the 2022 record and a deal
# that goes past a small limit (played with limit 100 too).
_SELF_CHECK = (
    ("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---", 8344, 1164, 1),
    ("------------KAQ----J------/-JQQK---K----JK--QA-A-JA--", 4791, 670, 0),
)

_KERNELS: dict[str, Kernel] = {}


def load_kernel(name: str = "auto") -> Kernel:
    """The play-out named ``name``: ``python``, ``c`` (raises :class:`KernelError` if it cannot
    be built or loaded) or ``auto`` (C if possible, else Python).  A C kernel is used only
    after it gives the Python loop's figures on known deals and deal numbers."""
    if name not in ("auto", "c", "python"):
        raise HuntError(f"unknown kernel {name!r}: choose auto, c or python")
    if name in _KERNELS:
        return _KERNELS[name]
    kernel: Kernel
    if name == "python":
        kernel = PythonKernel()
    else:
        try:
            kernel = _load_c()
        except KernelError:
            if name == "c":
                raise
            kernel = load_kernel("python")
    _KERNELS[name] = kernel
    return kernel


def _load_c() -> CKernel:
    path = build_kernel()
    try:
        kernel = CKernel(path)
    except (OSError, AttributeError) as exc:
        raise KernelError(f"cannot load the hunt kernel {path}: {exc}") from exc
    for text, cards, tricks, winner in _SELF_CHECK:
        deal = parse_deal(text)
        for limit in (DEFAULT_LIMIT, 100):
            if kernel.play(deal, limit) != play_fast(deal, limit):
                raise KernelError(f"the C kernel ({path}) plays {text} unlike the Python loop")
        if play_fast(deal) != (winner, cards, tricks):
            raise KernelError(f"the Python loop plays {text} wrongly")  # pragma: no cover
    for seed, index, near in ((0, 0, None), (7, 123456789, None), (3, 5, parse_deal(text))):
        if kernel.deal(seed, index, near, 3) != deal_at(seed, index, near, 3):
            raise KernelError(f"the C kernel ({path}) deals unlike the Python loop")
    return kernel


# --- a hunt --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HuntSpec:
    """What a hunt looks at: random deals (``near`` None) or deals ``near`` a given one (1 to
    ``swaps`` swaps), numbered from ``seed``; it keeps the ``top`` longest games."""

    seed: int = 0
    near: bytes | None = None
    swaps: int = 2
    top: int = 10
    limit: int = DEFAULT_LIMIT

    def __post_init__(self) -> None:
        if not 0 <= self.seed <= _MASK:
            raise HuntError(f"the seed must be a whole number from 0 to 2**64-1, not {self.seed}")
        if self.near is not None and (
            len(self.near) != DECK_SIZE or sorted(self.near) != sorted(DECK)
        ):
            raise HuntError("the deal to search near is not a deck of 52 cards")
        if not 1 <= self.swaps <= MAX_SWAPS:
            raise HuntError(f"swaps must be from 1 to {MAX_SWAPS}, not {self.swaps}")
        if not 1 <= self.top <= 1000:
            raise HuntError(f"top must be from 1 to 1000, not {self.top}")
        if self.limit < 100:
            raise HuntError(f"the limit must be at least 100 cards, not {self.limit}")

    def deal(self, index: int) -> bytes:
        return deal_at(self.seed, index, self.near, self.swaps)

    def describe(self) -> dict[str, Any]:
        """The hunt's identity, as stored in checkpoints and results."""
        return {
            "seed": self.seed,
            "near": None if self.near is None else deal_text(self.near),
            "swaps": self.swaps if self.near is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Found:
    """A deal the hunt keeps: its number, the deal and its figures."""

    index: int
    deal: bytes
    figures: Figures

    def key(self) -> tuple[int, int, int]:
        """Longest first: most cards, then most tricks, then the lowest deal number."""
        return (-self.figures.cards, -self.figures.tricks, self.index)

    def to_json(self) -> dict[str, Any]:
        f = self.figures
        return {
            "index": self.index,
            "deal": deal_text(self.deal),
            "cards": f.cards,
            "tricks": f.tricks,
            "winner": f.winner + 1 if not f.cycle else None,
            "cycle": f.cycle,
        }

    @staticmethod
    def from_json(data: Any) -> Found:
        figures = Figures(
            int(data["cards"]),
            int(data["tricks"]),
            -1 if data["cycle"] else int(data["winner"]) - 1,
            bool(data["cycle"]),
        )
        return Found(int(data["index"]), parse_deal(data["deal"]), figures)


def merge_top(a: list[Found], b: list[Found], k: int) -> list[Found]:
    """The ``k`` longest distinct deals of both lists (a deal found twice counts once, under
    its lowest number)."""
    best: dict[bytes, Found] = {}
    for f in (*a, *b):
        old = best.get(f.deal)
        if old is None or f.index < old.index:
            best[f.deal] = f
    return heapq.nsmallest(k, best.values(), key=Found.key)


def merge_cycles(a: list[Found], b: list[Found]) -> list[Found]:
    """The distinct cycle deals of both lists with the lowest numbers (at most
    :data:`CYCLES_KEPT`)."""
    best: dict[bytes, Found] = {}
    for f in (*a, *b):
        old = best.get(f.deal)
        if old is None or f.index < old.index:
            best[f.deal] = f
    return heapq.nsmallest(CYCLES_KEPT, best.values(), key=lambda f: f.index)


@dataclass
class ChunkResult:
    """What one chunk of deals (``start`` to ``stop - 1``) gave."""

    start: int
    stop: int
    cards: int
    tricks: int
    finished: int
    first_wins: int
    cycles: int
    top: list[Found]
    cycle_deals: list[Found]
    kernel: str
    seconds: float


def run_chunk(
    spec: HuntSpec, start: int, stop: int, floor: int = 0, kernel: str = "auto"
) -> ChunkResult:
    """Play deals ``start`` to ``stop - 1`` of ``spec``'s hunt (in this process): what a worker
    does.  Games shorter than ``floor`` cards are only counted (the hunt already has ``top``
    longer ones)."""
    began = time.perf_counter()
    k = load_kernel(kernel)
    listed, (cards, tricks, finished, first_wins) = k.chunk(
        spec.seed, start, stop - start, spec.near, spec.swaps, spec.limit, floor
    )
    finished_games: list[tuple[int, int, int, int]] = []  # (-cards, -tricks, index, winner)
    cycle_deals: list[Found] = []
    cycles = 0
    for index, n_cards, n_tricks, status in listed:
        if status == UNRESOLVED:
            deal = spec.deal(index)
            figures = play_exact(deal)
            if figures.cycle:
                cycles += 1
                if deal != spec.near:
                    cycle_deals.append(Found(index, deal, figures))
                continue
            cards += figures.cards
            tricks += figures.tricks
            finished += 1
            first_wins += figures.winner == FINISHED_FIRST
            finished_games.append((-figures.cards, -figures.tricks, index, figures.winner))
        else:
            finished_games.append((-n_cards, -n_tricks, index, status))
    # The longest first; a deal found twice (near a deal) counts once, under its lowest number,
    # and the deal searched near is not one of those found.
    finished_games.sort()
    top: list[Found] = []
    seen: set[bytes] = {spec.near} if spec.near is not None else set()
    for neg_cards, neg_tricks, index, winner in finished_games:
        if len(top) == spec.top:
            break
        deal = spec.deal(index)
        if deal not in seen:
            seen.add(deal)
            top.append(Found(index, deal, Figures(-neg_cards, -neg_tricks, winner)))
    return ChunkResult(
        start,
        stop,
        cards,
        tricks,
        finished,
        first_wins,
        cycles,
        top,
        merge_cycles([], cycle_deals),
        k.name,
        time.perf_counter() - began,
    )


CHECKPOINT_FORMAT = "ratgames-hunt-checkpoint"


@dataclass
class HuntState:
    """A hunt's results so far: which deals are done (index intervals), totals, the longest
    deals and the cycles.  It depends only on which deals are done, not on the order."""

    spec: HuntSpec
    done: list[tuple[int, int]] = field(default_factory=list)
    cards: int = 0
    tricks: int = 0
    finished: int = 0
    first_wins: int = 0
    cycles: int = 0
    top: list[Found] = field(default_factory=list)
    cycle_deals: list[Found] = field(default_factory=list)
    seconds: float = 0.0
    kernels: dict[str, int] = field(default_factory=dict)

    @property
    def deals(self) -> int:
        return sum(stop - start for start, stop in self.done)

    def floor(self) -> int:
        """The fewest cards a game needs to enter the top list (0 until it is full)."""
        if len(self.top) < self.spec.top:
            return 0
        return self.top[-1].figures.cards

    def add(self, chunk: ChunkResult) -> None:
        self._mark_done(chunk.start, chunk.stop)
        self.cards += chunk.cards
        self.tricks += chunk.tricks
        self.finished += chunk.finished
        self.first_wins += chunk.first_wins
        self.cycles += chunk.cycles
        self.top = merge_top(self.top, chunk.top, self.spec.top)
        self.cycle_deals = merge_cycles(self.cycle_deals, chunk.cycle_deals)
        self.kernels[chunk.kernel] = self.kernels.get(chunk.kernel, 0) + chunk.stop - chunk.start

    def _mark_done(self, start: int, stop: int) -> None:
        for a, b in self.done:
            if a < stop and start < b:
                raise HuntError(f"deals {start} to {stop - 1} were already counted")
        spans = sorted([*self.done, (start, stop)])
        merged: list[tuple[int, int]] = []
        for a, b in spans:
            if merged and merged[-1][1] == a:
                merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        self.done = merged

    def todo(self, total: int | None, size: int) -> Iterator[tuple[int, int]]:
        """The deals not done yet, in order, as ranges of at most ``size`` deals: up to deal
        ``total - 1``, or for ever."""
        position = 0
        for a, b in [*self.done, (None, None)]:
            end = total if a is None else (a if total is None else min(a, total))
            while end is None or position < end:
                stop = position + size if end is None else min(end, position + size)
                yield position, stop
                position = stop
            if b is None:
                return
            position = max(position, b)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "format_version": 1,
            "hunt": {**self.spec.describe(), "top": self.spec.top, "limit": self.spec.limit},
            "done": [list(span) for span in self.done],
            "deals": self.deals,
            "cards": self.cards,
            "tricks": self.tricks,
            "finished": self.finished,
            "first_wins": self.first_wins,
            "cycles": self.cycles,
            "seconds": round(self.seconds, 3),
            "kernels": dict(sorted(self.kernels.items())),
            "top": [f.to_json() for f in self.top],
            "cycle_deals": [f.to_json() for f in self.cycle_deals],
        }

    @staticmethod
    def from_json(data: Any, spec: HuntSpec) -> HuntState:
        """A hunt's state from its checkpoint, which must be of the hunt ``spec`` describes
        (the same seed, mode and swaps, and a top list at least as long)."""
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise HuntError("it is not a ratgames hunt checkpoint")
        if data.get("format_version") != 1:
            raise HuntError(f"unknown checkpoint version {data.get('format_version')!r}")
        try:
            saved = data["hunt"]
            mine = spec.describe()
            for name, value in mine.items():
                if saved[name] != value:
                    raise HuntError(
                        f"it is of another hunt ({name} {saved[name]!r}, not {value!r}); use "
                        "another checkpoint file or the same settings"
                    )
            if saved["limit"] != spec.limit:
                raise HuntError(f"it is of another hunt (limit {saved['limit']}, not {spec.limit})")
            if int(saved["top"]) < spec.top:
                raise HuntError(
                    f"it keeps the top {saved['top']} deals, fewer than the {spec.top} asked"
                )
            state = HuntState(spec)
            for start, stop in data["done"]:
                if not (isinstance(start, int) and isinstance(stop, int) and 0 <= start < stop):
                    raise HuntError(f"bad range of deals {start!r}..{stop!r}")
                state._mark_done(start, stop)
            for name in ("cards", "tricks", "finished", "first_wins", "cycles"):
                value = data[name]
                if not isinstance(value, int) or value < 0:
                    raise HuntError(f"bad {name} {value!r}")
                setattr(state, name, value)
            state.seconds = float(data["seconds"])
            state.kernels = {str(k): int(v) for k, v in data["kernels"].items()}
            state.top = merge_top([], [Found.from_json(f) for f in data["top"]], spec.top)
            state.cycle_deals = merge_cycles([], [Found.from_json(f) for f in data["cycle_deals"]])
        except HuntError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise HuntError(f"it is damaged ({type(exc).__name__}: {exc})") from exc
        if state.finished + state.cycles != state.deals:
            raise HuntError(
                f"it is damaged: {state.finished} finished games and {state.cycles} cycles "
                f"for {state.deals} deals"
            )
        return state


def load_checkpoint(path: Path, spec: HuntSpec) -> HuntState | None:
    """The state saved in ``path`` (None if there is no such file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise HuntError(f"cannot read the checkpoint {path}: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HuntError(f"the checkpoint {path} is not JSON ({exc})") from exc
    try:
        return HuntState.from_json(data, spec)
    except HuntError as exc:
        raise HuntError(f"the checkpoint {path}: {exc}") from exc


def chunk_size(kernel: str) -> int:
    """Deals per task: some tenths of a second of work for the kernel."""
    return 100_000 if kernel == "c" else 4_000


class HuntInterrupted(HuntError):
    """The hunt was stopped (Ctrl-C) before it finished; its state holds what was done."""

    def __init__(self, state: HuntState) -> None:
        super().__init__("the hunt was interrupted")
        self.state = state


def run_hunt(
    spec: HuntSpec,
    *,
    deals: int | None = None,
    seconds: float | None = None,
    workers: int = 1,
    kernel: str = "auto",
    backend: str = "local",
    address: str | None = None,
    state: HuntState | None = None,
    checkpoint: Path | None = None,
    checkpoint_every: float = 30.0,
    on_chunk: Callable[[HuntState, ChunkResult], None] | None = None,
    chunk: int | None = None,
) -> HuntState:
    """Hunt until deal ``deals - 1`` is done (counting those done before, from ``state``) or
    for ``seconds`` more (whichever comes first; one of them is needed), in ``workers``
    processes or on a Ray cluster (``backend='ray'``, at ``address`` or a local one).  Saves
    the state to ``checkpoint`` every ``checkpoint_every`` seconds and at the end; on Ctrl-C
    saves it and raises :class:`HuntInterrupted`."""
    if deals is None and seconds is None:
        raise HuntError("give a number of deals or of seconds")
    if backend not in ("local", "ray"):
        raise HuntError(f"unknown backend {backend!r}: choose local or ray")
    state = state or HuntState(spec)
    if state.spec != spec:
        raise HuntError("the state is of another hunt")
    main_kernel = load_kernel(kernel)
    size = chunk or chunk_size(main_kernel.name)
    worker_kernel = kernel if backend == "ray" else main_kernel.name
    todo = state.todo(deals, size)
    began = time.perf_counter()
    session_start = state.seconds
    deadline = None if seconds is None else began + seconds
    last_saved = began

    def save() -> None:
        state.seconds = session_start + time.perf_counter() - began
        if checkpoint is not None:
            write_json_atomic(checkpoint, state.to_json())

    def take(result: ChunkResult) -> None:
        nonlocal last_saved
        state.add(result)
        state.seconds = session_start + time.perf_counter() - began
        if on_chunk:
            on_chunk(state, result)
        if checkpoint is not None and time.perf_counter() - last_saved >= checkpoint_every:
            save()
            last_saved = time.perf_counter()

    def more() -> tuple[int, int] | None:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        return next(todo, None)

    try:
        if backend == "ray":
            _run_ray(spec, more, take, state.floor, address, workers, worker_kernel)
        elif workers <= 1:
            while (span := more()) is not None:
                take(run_chunk(spec, span[0], span[1], state.floor(), worker_kernel))
        else:
            _run_pool(spec, more, take, state.floor, workers, worker_kernel)
    except KeyboardInterrupt:
        save()
        raise HuntInterrupted(state) from None
    save()
    return state


def _ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C to the main process, which stops the hunt cleanly."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_pool(
    spec: HuntSpec,
    more: Callable[[], tuple[int, int] | None],
    take: Callable[[ChunkResult], None],
    floor: Callable[[], int],
    workers: int,
    kernel: str,
) -> None:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    pending: set[Future[ChunkResult]] = set()
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * workers:
                span = more()
                if span is None:
                    exhausted = True
                    break
                pending.add(pool.submit(run_chunk, spec, span[0], span[1], floor(), kernel))
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(finished, key=lambda f: f.result().start):
                take(fut.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _chunk_task(spec: HuntSpec, start: int, stop: int, floor: int, kernel: str) -> ChunkResult:
    """:func:`run_chunk` with every argument given (as a Ray task)."""
    return run_chunk(spec, start, stop, floor, kernel)


def _run_ray(
    spec: HuntSpec,
    more: Callable[[], tuple[int, int] | None],
    take: Callable[[ChunkResult], None],
    floor: Callable[[], int],
    address: str | None,
    workers: int,
    kernel: str,
) -> None:
    """Chunks as Ray tasks, about two per CPU of the cluster in flight (the CPUs are read again
    every few seconds, so a cluster that grows gets more).  A task whose worker or node dies is
    run again by Ray; each chunk's result is taken once."""
    from ratgames.distributed import BackendError, open_ray

    try:
        ray, close = open_ray(address or None, None if address else workers)
    except BackendError as exc:
        raise HuntError(str(exc)) from exc
    try:
        remote = ray.remote(num_cpus=1, max_retries=5)(_chunk_task)
        pending: set[Any] = set()
        exhausted = False
        cpus, checked = 1, -1e9
        while True:
            if time.monotonic() - checked >= 10:
                found = ray.cluster_resources().get("CPU", 1)
                cpus, checked = max(1, int(found)), time.monotonic()
            while not exhausted and len(pending) < 2 * cpus:
                span = more()
                if span is None:
                    exhausted = True
                    break
                pending.add(remote.remote(spec, span[0], span[1], floor(), kernel))
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=10)
            for ref in ready:
                pending.discard(ref)
                take(ray.get(ref))
    finally:
        if close is not None:
            close()
