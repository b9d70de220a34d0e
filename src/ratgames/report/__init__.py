"""Reports people would rather look at than read: ``ratgames report`` turns the JSON of a
simulation, a sweep or a tournament into an HTML page with plots (PNG, or SVG or PDF for papers).

Only this subpackage draws, and only :mod:`ratgames.report.plots` imports matplotlib (an optional
extra: ``pip install 'ratgames[report]'``); reading and checking the input files
(:func:`load_input`) needs nothing beyond ratgames itself.

>>> from ratgames.report import detect_kind
>>> detect_kind({"sweep": "knock", "runs": []}), detect_kind([1, 2])
('sweep', None)
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .data import ReportInput, ReportInputError, detect_kind, load_input, parse

if TYPE_CHECKING:
    from .build import Report

__all__ = [
    "DEFAULT_DPI",
    "DPI_RANGE",
    "FORMATS",
    "MissingDependency",
    "ReportInput",
    "ReportInputError",
    "build_report",
    "detect_kind",
    "load_input",
    "parse",
]

INSTALL_HINT = (
    "ratgames report draws its plots with matplotlib, which is not installed: "
    "install ratgames[report] (pip install 'ratgames[report]', or uv sync --extra report)"
)


class MissingDependency(RuntimeError):
    """The report extra (matplotlib) is not installed."""


FORMATS = ("png", "svg", "pdf")
"""The formats of the plot files (``ratgames report --format``)."""
DEFAULT_DPI = 150
"""Pixels per inch of a PNG plot unless told (an 8-inch-wide plot is 1,200 pixels wide)."""
DPI_RANGE = (50, 1200)
"""The resolutions ``--dpi`` accepts."""


def build_report(
    inputs: Sequence[ReportInput],
    folder: Path,
    title: str | None = None,
    *,
    format: str = "png",
    dpi: int | None = None,
) -> Report:
    """Write ``folder/index.html`` and its plots (see :mod:`ratgames.report.build`): ``format``
    is ``png``, ``svg`` or ``pdf``, ``dpi`` the resolution of a PNG (150 unless given) and of
    the raster parts of a vector file.

    Raises :class:`MissingDependency` when matplotlib is not installed, and ``ValueError`` for
    a format or dpi it does not know."""
    if importlib.util.find_spec("matplotlib") is None:
        raise MissingDependency(INSTALL_HINT)
    from .build import build_report as build
    from .plots import Output

    return build(inputs, folder, title, Output(format, DEFAULT_DPI if dpi is None else dpi))
