"""``mypyc_attr`` for classes of the modules :mod:`ratgames.compiled` compiles, without needing
mypy installed: where ``mypy_extensions`` is missing the decorator changes nothing (and nothing is
compiled then anyway)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

try:
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # pragma: no cover - mypy (and so mypyc) is not installed

    def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[T], T]:  # type: ignore[misc]
        """Does nothing: the class is not compiled."""
        return lambda cls: cls
