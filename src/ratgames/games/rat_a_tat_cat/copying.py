# ratgames: compiled
"""Rat-a-Tat Cat's copy of a state written out field by field, for the compiled build.

The state's fields are declared once (:attr:`RatState._fields`), and the core could copy them
from that declaration; but the core's copy is plain Python, which costs a compiled state about
three times a written-out copy, and search copies a state at every iteration.  So the compiled
build copies through :func:`copy_fields`, which ``tests/core/test_fields.py`` holds to the
declaration: every declared field equal in the copy, a new list where its policy copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import RatState


def copy_fields(s: RatState, c: RatState) -> None:
    """Set every field of the copy ``c`` from ``s`` as the declaration's policies say."""
    c.rnd = s.rnd
    c.dealer = s.dealer
    c.first = s.first
    c.turn = s.turn
    c.phase = s.phase
    c.extra = s.extra
    c.knocker = s.knocker
    c.closer = s.closer
    c.hands = s.hands[:]
    c.origin = s.origin[:]
    c.pool = s.pool
    c.in_draw = s.in_draw
    c.draw = s.draw[:]
    c.discard = s.discard[:]
    c.held = s.held
    c.held_pub = s.held_pub
    c.faceup = s.faceup[:]
    c.active = s.active
    c.elim = s.elim
    c.totals = s.totals
    c.turns = s.turns
    c.rturns = s.rturns
    c.clock = s.clock
    c.knocks = s.knocks
    c.knocker_won = s.knocker_won
    c.cap_fired = s.cap_fired
    c.score_sum = s.score_sum
    c.score_n = s.score_n
    c.round_cap_fired = s.round_cap_fired
    c.results = s.results
    c.known = s.known[:]
    c.outcome_ = s.outcome_
    c.deal0 = s.deal0
    c._plan = s._plan
