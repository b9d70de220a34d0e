"""Table leases and fencing in the store, on SQLite and on a real PostgreSQL
(``RATGAMES_TEST_POSTGRES``, as in ``test_postgres.py``): a table is taken by one process at a
time, and a process whose lease ran out or was taken over can write no action of it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ratgames.server import store

from .test_postgres import pg_url  # noqa: F401  (the fixture)


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'leases.db'}"
    else:
        url = request.getfixturevalue("pg_url")
    made = store.make_engine(url)
    store.upgrade(made)
    row = store.TableRow(
        "ABCDEF", "rats", 2, {}, True, "playing", "h" * 64, {"policy": "wait"}, 7, 1, None,
        None, None, "2026-11-26T00:00:00Z",
    )  # fmt: skip
    with made.begin() as conn:
        store.op_save_table(row, [store.SeatRow(0, "bot", "a", "random"), store.SeatRow(1, "bot")])(
            conn
        )
    yield made
    made.dispose()


def commit(engine: Engine, lease: store.Lease, n: int) -> bool:
    """Store action ``n`` under ``lease`` (guard then insert, one transaction): whether it
    committed."""
    try:
        with engine.begin() as conn:
            store.op_guard("ABCDEF", lease)(conn)
            store.op_add_actions("ABCDEF", [(n, n % 2, f"act{n}", None)])(conn)
    except (store.LeaseLost, sa.exc.IntegrityError):
        return False
    return True


def claim(engine: Engine, owner: str, seconds: float) -> store.Lease | None:
    with engine.begin() as conn:
        return store.op_claim("ABCDEF", owner, f"http://{owner}", seconds)(conn)


def stored(engine: Engine) -> list[tuple[int, str]]:
    with engine.connect() as conn:
        return [
            (r.n, r.action)
            for r in conn.execute(sa.select(store.actions).order_by(store.actions.c.n))
        ]


def test_one_owner_at_a_time(engine: Engine) -> None:
    a = claim(engine, "a", 30)
    assert a == store.Lease("a", 1)
    assert claim(engine, "b", 30) is None, "a live lease is not taken over"
    held = store.holder(engine, "ABCDEF")
    assert held == store.Holder("a", "http://a", True, 1)
    assert commit(engine, a, 1)
    with engine.begin() as conn:
        assert store.op_renew("a", {"ABCDEF": 1}, 30)(conn) == []
        assert store.op_renew("b", {"ABCDEF": 1}, 30)(conn) == ["ABCDEF"]
        assert store.op_release("ABCDEF", a)(conn)
    b = claim(engine, "b", 30)
    assert b == store.Lease("b", 2), "a released table is taken at once, its fence bumped"
    assert not commit(engine, a, 2), "the old owner writes nothing after a release"
    assert commit(engine, b, 2)
    assert stored(engine) == [(1, "act1"), (2, "act2")]
    assert store.orphans(engine) == []


def test_lapsed_owner_is_refused(engine: Engine) -> None:
    a = claim(engine, "a", 0.2)
    assert a is not None
    assert commit(engine, a, 1)
    time.sleep(0.5)
    assert store.orphans(engine) == ["ABCDEF"]
    assert not commit(engine, a, 2), "a commit under a lease that ran out is refused"
    with engine.begin() as conn:
        assert store.op_renew("a", {"ABCDEF": a.fence}, 30)(conn) == ["ABCDEF"]
    b = claim(engine, "b", 30)
    assert b == store.Lease("b", 2)
    assert not commit(engine, a, 2)
    assert commit(engine, b, 2)
    assert stored(engine) == [(1, "act1"), (2, "act2")]


def test_two_owners_racing_cannot_both_commit_action_n(engine: Engine) -> None:
    """Process a held the table, its lease ran out and b took it over, while a still thinks it
    owns it: both commit actions 1..40 at the same time, each action n from both at once.
    Only b's land, each once."""
    a = claim(engine, "a", 0.2)
    time.sleep(0.5)
    b = claim(engine, "b", 60)
    assert a is not None and b is not None and b.fence == a.fence + 1
    won: dict[str, list[int]] = {"a": [], "b": []}
    for n in range(1, 41):
        gate = threading.Barrier(2)

        def write(lease: store.Lease, n: int = n, gate: threading.Barrier = gate) -> None:
            gate.wait()
            if commit(engine, lease, n):
                won[lease.owner].append(n)

        threads = [threading.Thread(target=write, args=(lease,)) for lease in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert won == {"a": [], "b": list(range(1, 41))}
    assert [n for n, _ in stored(engine)] == list(range(1, 41))


def test_claims_racing_give_one_owner(engine: Engine) -> None:
    """Eight processes claim an orphaned table at once: exactly one gets it."""
    gate = threading.Barrier(8)
    got: list[store.Lease] = []

    def take(i: int) -> None:
        gate.wait()
        lease = claim(engine, f"p{i}", 30)
        if lease is not None:
            got.append(lease)

    threads = [threading.Thread(target=take, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 1 and got[0].fence == 1
