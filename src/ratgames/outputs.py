"""Where the commands write their files: one rule, checked before any work starts, for every
output path (``--json``, ``--out``, ``--checkpoint``, ``--record-dir``...), so that a long run
never ends in an error that loses it and every command answers a bad path in the same words.

The rule: an output *file*'s folder must exist already, and an output *folder* is made if
missing, but not its missing parents: a mistyped path is refused, not silently made.  The
places ratgames chooses itself (``~/.ratgames/records``) are made with their parents.

>>> import tempfile
>>> from pathlib import Path
>>> base = Path(tempfile.mkdtemp())
>>> check_output_file(base / "results.json", "--json")
>>> check_output_file(base / "nowhere" / "results.json", "--json")
Traceback (most recent call last):
...
ratgames.outputs.OutputError: cannot write to ...: the folder ... does not exist ...
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from .core.errors import RatgamesError


class OutputError(RatgamesError):
    """An output path that cannot be written; the message names the path and the option."""


_REASONS = {
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "the disk is full",
    errno.ENAMETOOLONG: "the name is too long",
}


def _reason(exc: OSError) -> str:
    """Why an :class:`OSError` happened, in words."""
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


def _blocker(path: Path) -> Path | None:
    """The first of ``path`` and its parents that exists as something other than a folder."""
    for above in (path, *path.parents):
        if above.exists():
            return None if above.is_dir() else above
    return None


def _folder_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path()


def _require_folder(folder: Path, target: Path, what: str) -> None:
    """Refuse ``target`` unless ``folder`` (where it goes) is an existing folder."""
    if folder.is_dir():
        return
    blocker = _blocker(folder)
    if blocker is not None:
        raise OutputError(f"cannot write to {target} ({what}): {blocker} is a file, not a folder")
    raise OutputError(
        f"cannot write to {target} ({what}): the folder {folder} does not exist "
        "(make it first, or give another path)"
    )


def _probe(folder: Path, target: Path, what: str) -> None:
    """Refuse ``target`` unless a file can be made in ``folder``."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".ratgames-check-"):
            pass
    except OSError as exc:
        raise OutputError(f"cannot write to {target} ({what}): {_reason(exc)}") from None


def check_output_file(path: Path, what: str) -> None:
    """Refuse now, in one sentence naming ``what`` (the option), a file that could not be
    written later: a folder, a file in a folder that does not exist (or runs through a file),
    or one that may not be written."""
    if path.is_dir():
        raise OutputError(f"{what} {path} is a folder: give a file name")
    _require_folder(_folder_of(path), path, what)
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"cannot write to {path} ({what}): permission denied")
    _probe(_folder_of(path), path, what)


def check_output_folder(folder: Path, what: str, *, make_parents: bool = False) -> None:
    """Make ``folder`` if it is missing (its missing parents too only with ``make_parents``,
    for the places ratgames chooses itself) and refuse now, in one sentence naming ``what``,
    one that could not be written to."""
    blocker = _blocker(folder)
    if blocker == folder:
        raise OutputError(f"cannot write to {folder} ({what}): it is a file, not a folder")
    if not make_parents:
        _require_folder(_folder_of(folder), folder, what)
    elif blocker is not None:
        raise OutputError(f"cannot write to {folder} ({what}): {blocker} is a file, not a folder")
    try:
        folder.mkdir(parents=make_parents, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write to {folder} ({what}): {_reason(exc)}") from None
    _probe(folder, folder, what)
