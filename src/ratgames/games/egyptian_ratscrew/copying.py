# ratgames: compiled
"""Egyptian Ratscrew's copy of a state written out field by field, for the compiled build.

The state's fields are declared once (:attr:`RatscrewState._fields`), and the core could copy
them from that declaration; but the core's copy is plain Python, which costs a compiled state
about three times a written-out copy.  So the compiled build copies through
:func:`copy_fields`, which ``tests/core/test_fields.py`` holds to the declaration: every declared
field equal in the copy, a new list where its policy copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import RatscrewState


def copy_fields(s: RatscrewState, c: RatscrewState) -> None:
    """Set every field of the copy ``c`` from ``s`` as the declaration's policies say."""
    c.stacks = [st[:] for st in s.stacks]
    c.pile = s.pile[:]
    c.burned = s.burned[:]
    c.version = s.version
    c.turn = s.turn
    c.phase = s.phase
    c.challenger = s.challenger
    c.chances = s.chances
    c.collector = s.collector
    c.status = s.status[:]
    c.last_slap = s.last_slap[:]
    c.disrupt = s.disrupt
    c.played = s.played
    c.piles_won = s.piles_won
    c.slaps = s.slaps
    c.bad = s.bad
    c.late = s.late
    c.end_reason = s.end_reason
    c.capped = s.capped
    c.cycle = s.cycle
    c.winner = s.winner
    c.rule = s.rule
    c.n_holders = s.n_holders
    c.slap_hist = s.slap_hist
    c.history = s.history.copy()
    c.deal = s.deal
    c.log_from = s.log_from
    c.ev_json = s.ev_json
