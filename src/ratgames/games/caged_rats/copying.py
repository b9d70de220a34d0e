# ratgames: compiled
"""Caged Rats' copy of a state written out field by field, for the compiled build.

The state's fields are declared once (:attr:`CagedRatsState._fields`), and the core could copy
them from that declaration; but the core's copy is plain Python, which costs a compiled state
about three times a written-out copy, and search copies a state at every iteration.  So the
compiled build copies through :func:`copy_fields`, which ``tests/core/test_fields.py`` holds to
the declaration: every declared field equal in the copy, a new list where its policy copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import CagedRatsState


def copy_fields(s: CagedRatsState, c: CagedRatsState) -> None:
    """Set every field of the copy ``c`` from ``s`` as the declaration's policies say."""
    c.phase = s.phase
    c.actor = s.actor
    c.dealer = s.dealer
    c.lead_no = s.lead_no
    c.offer = s.offer
    c.from_stock = s.from_stock
    c.bid = s.bid
    h = s.hands
    c.hands = [h[0][:], h[1][:]]
    st = s.stocks
    c.stocks = [st[0][:], st[1][:]]
    c.rats = s.rats
    c.fed = s.fed
    c.pile = s.pile
    c.thrown = s.thrown
    c.scores = s.scores
    c.rubber_wins = s.rubber_wins
    c.rubber_no = s.rubber_no
    c.deals = s.deals
    c.leads_total = s.leads_total
    c.history = s.history
    c.capped = s.capped
    c.initial = s.initial
