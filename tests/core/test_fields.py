"""The state declared once (ratgames.core.fields): the copies, snapshots and restore checks the
core derives from a game's field declaration."""

from __future__ import annotations

import pytest

from ratgames.core import SnapshotError, fields
from ratgames.core.rng import Rng
from ratgames.testing import HighCard, HighCardState


def _played(turns: int = 5) -> HighCardState:
    state = HighCard(players=3).new_state(seed=4)
    for _ in range(turns):
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert isinstance(state, HighCardState)
    return state


def test_the_declaration_names_every_slot_of_the_state_once() -> None:
    state = _played()
    assert HighCardState._fields is not None
    HighCardState._fields.check(state)


def test_a_derived_clone_copies_lists_and_shares_values() -> None:
    state = _played()
    copy = state.clone()
    assert copy.snapshot() == state.snapshot()
    assert copy.hands is not state.hands and copy.hands[0] is not state.hands[0]
    assert copy.pile is not state.pile and copy.deal is state.deal
    seat = copy.seats_to_act()[0]
    copy.apply(seat, copy.legal_actions(seat)[0])
    assert copy.snapshot() != state.snapshot()
    assert state.snapshot() == _played().snapshot()


def test_a_snapshot_restores_to_the_same_position() -> None:
    state = _played()
    game = state.game
    again = game.restore(state.snapshot(), Rng(1))
    assert again.snapshot() == state.snapshot()
    assert again.legal_actions(again.seats_to_act()[0]) == state.legal_actions(
        state.seats_to_act()[0]
    )


@pytest.mark.parametrize(
    ("entry", "value", "message"),
    [
        ("turn", 3, "turn must be a seat from 0 to 2, not 3"),
        ("turn", True, "turn must be a seat from 0 to 2, not True"),
        ("hands", [[], []], "hands must be a list of 3 items, not"),
        ("pile", ["0", "x"], "pile[1] must be a card (such as '0'), not 'x'"),
        ("turns_done", -1, "turns_done must be a whole number from 0 to 999, not -1"),
        ("log", [[0, "0"], [5, "1"]], "log[1][0] must be a seat from 0 to 2, not 5"),
    ],
)
def test_a_bad_entry_is_named_with_what_it_must_be(entry: str, value: object, message: str) -> None:
    state = _played()
    snap = state.snapshot()
    snap[entry] = value
    with pytest.raises(
        SnapshotError,
        match="^"
        + message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]"),
    ):
        state.game.restore(snap, Rng(1))


def test_missing_and_unknown_entries_are_named() -> None:
    snap = _played().snapshot()
    del snap["pile"]
    snap["extra"] = 1
    with pytest.raises(SnapshotError, match="missing: pile; unknown: 'extra'"):
        HighCard(players=3).restore(snap, Rng(1))


def test_the_game_checks_what_ties_the_fields_together() -> None:
    snap = _played().snapshot()
    snap["pile"] = snap["pile"][:-1]
    with pytest.raises(SnapshotError, match="each of the cards 0-9 exactly once"):
        HighCard(players=3).restore(snap, Rng(1))


def test_a_field_is_declared_once_with_a_known_copy_policy() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        fields.StateFields(fields.Field("a"), fields.Field("a"))
    with pytest.raises(ValueError, match="copy is one of shared, list, rows"):
        fields.Field("a", copy="deep")


def test_a_list_of_cards_says_what_a_card_must_be() -> None:
    codec = fields.Cards(("A", "B"), what="a letter card, A or B")
    assert codec.read(["B", "A"], "row", None) == [1, 0]
    with pytest.raises(SnapshotError, match=r"^row\[1\] must be a letter card, A or B, not 'C'$"):
        codec.read(["A", "C"], "row", None)


def test_a_copy_policy_field_is_copied_with_its_own_copy_method() -> None:
    class Memo:
        __slots__ = ("seen", "size")

    copier = fields.StateFields(
        fields.Field("seen", copy=fields.COPY), fields.Field("size")
    ).copy_into
    state, copy = Memo(), Memo()
    state.seen, state.size = {b"a"}, 1
    copier(state, copy)
    copy.seen.add(b"b")
    assert state.seen == {b"a"} and copy.seen == {b"a", b"b"} and copy.size == 1
