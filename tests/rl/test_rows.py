"""The batched environments' compiled loop (:mod:`ratgames.rl.rows`): its table of actions by
identity, and the values of features that give counts."""

from __future__ import annotations

from ratgames.rl import rows
from ratgames.rl.rows import Rows, scaled


class Act:
    """An action that is equal to another of the same name (as a game's actions are), so
    that the table must tell them apart by identity."""

    def __init__(self, name: int) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Act) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def _rows(known: list[Act], asked: list[Act]) -> Rows:
    def action_ids(action: Act) -> tuple[int, ...]:
        asked.append(action)
        return (action.name % 10,)

    return Rows(None, 4, 10, action_ids, [(a, a.name) for a in known])


def test_known_actions_are_found_without_asking() -> None:
    known = [Act(i) for i in range(10)]
    asked: list[Act] = []
    r = _rows(known, asked)
    assert [r.first_id(a) for a in known] == list(range(10))
    assert asked == []


def test_other_objects_are_asked_once_and_the_table_starts_afresh_when_full() -> None:
    known = [Act(i) for i in range(10)]
    asked: list[Act] = []
    r = _rows(known, asked)
    kept = [Act(i) for i in range(100)]
    assert [r.first_id(a) for a in kept] == [i % 10 for i in range(100)]
    assert [r.first_id(a) for a in kept] == [i % 10 for i in range(100)]
    assert asked == kept  # each asked once, then found by identity
    many = [Act(i) for i in range(rows._CACHED + 50)]
    assert [r.first_id(a) for a in many] == [i % 10 for i in range(len(many))]
    assert r.cached <= rows._CACHED
    asked.clear()
    assert [r.first_id(a) for a in known] == list(range(10))  # kept when it starts afresh
    assert asked == []


def test_scaled_divides_and_clips() -> None:
    scales = [1.0, 4.0, 13.0, 50.0]
    assert scaled([1, 2, 26, -3], [0, 1, 2, 3], scales) == [1.0, 0.5, 1.0, 0.0]
    assert scaled([3], [2], scales) == [3 / 13.0]
