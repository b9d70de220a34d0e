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
(``kernel.c``) compiled with the system C compiler into a cache folder the first time it is
needed and loaded with :mod:`ctypes` (see :func:`load_kernel`).  Neither keeps a memory of
positions on its fast path: a game still going after ``limit`` cards (longer than any known
finite game) is played again from its deal with a memory of every position, which settles it
exactly as finite or as a cycle.

Deals are numbered: deal ``i`` of a hunt with seed ``s`` depends only on ``(s, i)`` (its own
SplitMix64 stream), so a hunt gives the same results however it is split among processes or
machines, stopped and resumed.  Every deal the hunt reports is checked against the general
engine (:func:`engine_figures`).

The package's modules: :mod:`~ratgames.hunt.deals` (the notation, numbered deals, the
play-outs and the engine's check), :mod:`~ratgames.hunt.kernel` (the Python loop and the C
kernel over many deals), :mod:`~ratgames.hunt.search` (a hunt, its state and checkpoint, on
processes or Ray) and :mod:`~ratgames.hunt.cli` (the ``ratgames hunt`` command).  The names
below are the ones to use from Python:

>>> from ratgames.hunt import parse_deal, play
>>> play(parse_deal("------------KAQ----J------/-JQQK---K----JK--QA-A-JA--"))
Figures(cards=4791, tricks=670, winner=0, cycle=False)
"""

from __future__ import annotations

from .deals import (
    DEFAULT_LIMIT,
    HAND,
    EngineMismatch,
    Figures,
    HuntError,
    check_with_engine,
    deal_at,
    deal_text,
    engine_figures,
    parse_deal,
    play,
    play_exact,
    play_fast,
)
from .kernel import CKernel, Kernel, KernelError, PythonKernel, build_kernel, load_kernel
from .search import (
    ChunkResult,
    Found,
    HuntInterrupted,
    HuntSpec,
    HuntState,
    load_checkpoint,
    run_chunk,
    run_hunt,
)

__all__ = [
    "DEFAULT_LIMIT",
    "HAND",
    "CKernel",
    "ChunkResult",
    "EngineMismatch",
    "Figures",
    "Found",
    "HuntError",
    "HuntInterrupted",
    "HuntSpec",
    "HuntState",
    "Kernel",
    "KernelError",
    "PythonKernel",
    "build_kernel",
    "check_with_engine",
    "deal_at",
    "deal_text",
    "engine_figures",
    "load_checkpoint",
    "load_kernel",
    "parse_deal",
    "play",
    "play_exact",
    "play_fast",
    "run_chunk",
    "run_hunt",
]
