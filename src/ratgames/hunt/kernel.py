"""The hunt's play-outs of many numbered deals: the pure-Python loop and the C kernel
(``kernel.c`` beside this module), compiled with the system C compiler into a cache folder the
first time it is needed and loaded with :mod:`ctypes` (see :func:`load_kernel`)."""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Protocol

from .deals import (
    DECK_SIZE,
    DEFAULT_LIMIT,
    FINISHED_FIRST,
    MASK64,
    UNRESOLVED,
    HuntError,
    deal_at,
    parse_deal,
    play_fast,
)


class KernelError(HuntError):
    """The C kernel cannot be built or loaded, or gives other figures than the Python loop."""


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
    """The C play-out (``kernel.c``), loaded from a compiled shared library."""

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
            0 if near is None else 1, seed & MASK64, index & MASK64, self._base(near), swaps, out
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
            seed & MASK64,
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
    """Compile ``kernel.c`` with the system C compiler (``$CC``, else ``cc``) into
    ``folder`` (default :func:`cache_dir`) unless it is there already; return the library's
    path.  Raises :class:`KernelError` if it cannot."""
    source = resources.files("ratgames.hunt").joinpath("kernel.c").read_bytes()
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
            c_file = Path(tmp) / "kernel.c"
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
