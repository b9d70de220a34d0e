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
        (
            "log",
            [
                {"kind": "played", "seat": 0, "card": "0"},
                {"kind": "played", "seat": 5, "card": "1"},
            ],
            "log[1].seat must be a seat from 0 to 2, not 5",
        ),
        (
            "log",
            [{"kind": "played", "seat": 0}],
            "log[0] (a 'played' event) has exactly the entries kind, seat, card; missing: card",
        ),
        (
            "log",
            [{"kind": "slapped", "seat": 0}],
            "log[0] must be an event: an object whose kind is one of played, not",
        ),
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


def _states_of_every_game() -> list[object]:
    """A few positions of every registered game that declares its state, played at random."""
    import ratgames
    from ratgames.core.registry import game_class

    found: list[object] = []
    for game_id in ratgames.game_ids():
        cls = game_class(game_id)
        game = cls()
        if cls.state_class is None or cls.state_class._fields is None:
            continue
        rng = Rng(11)
        for seed in range(3):
            state = game.new_state(seed=seed)
            for _ in range(rng.randbelow(120)):
                if state.is_over():
                    break
                seat = state.seats_to_act()[0]
                legal = state.legal_actions(seat)
                state.apply_trusted(seat, legal[rng.randbelow(len(legal))])
            found.append(state)
    return found


def test_every_game_declares_its_state_and_its_copies_follow_the_declaration() -> None:
    """Each declared field of a copy is equal to the original's, a new list where the field's
    policy copies (so a game's own faster clone, if it has one, is held to its declaration), and
    the declaration names every slot of the state (where the class keeps __slots__)."""
    states = _states_of_every_game()
    assert len({type(s) for s in states}) >= 4  # the built-in games all declare theirs
    for state in states:
        declared = type(state)._fields  # type: ignore[attr-defined]
        if "__slots__" in type(state).__dict__:
            declared.check(state)
        copy = state.clone()  # type: ignore[attr-defined]
        for field in declared.fields:
            mine, theirs = getattr(state, field.name), getattr(copy, field.name)
            assert theirs == mine, f"{type(state).__name__}.{field.name} differs in a copy"
            if field.copy != fields.SHARED:
                assert theirs is not mine, f"{type(state).__name__}.{field.name} is shared"
            if field.copy == fields.ROWS:
                assert all(a is not b for a, b in zip(theirs, mine, strict=True))
        assert copy.snapshot() == state.snapshot()  # type: ignore[attr-defined]
