"""The server's two guards against pauses: SQLite checkpoints in a thread of their own (no
commit waits for the disk's flush), and a garbage collector whose full passes walk only newer
objects."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from ratgames.server import store


@pytest.mark.parametrize("inline", [True, False], ids=["on-the-loop", "in-a-thread"])
def test_commits_leave_checkpoints_to_the_writers_own_thread(tmp_path: Path, inline: bool) -> None:
    """Commits (on the event loop, SQLite's default, or in a writer thread) go to the WAL; a
    thread of the writer's own copies it back."""
    path = tmp_path / "t.db"
    engine = store.make_engine(f"sqlite:///{path}", background_checkpoints=True)
    store.upgrade(engine)
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    row = store.TableRow(
        "ABCDEF", "rats", 2, {}, True, "playing", "h" * 64, {"policy": "wait"}, 7, 1,
        None, None, None, "2026-01-01T00:00:00+00:00",
    )  # fmt: skip

    async def main() -> int:
        writer = store.Writer(engine, inline=inline)
        assert writer.inline is inline
        await writer.run(store.op_save_table(row, [store.SeatRow(0, "open")]))
        for n in range(1, 301):
            await writer.run(store.op_add_actions("ABCDEF", [(n, 0, f"a{n}", None)]))
        wal = path.with_name("t.db-wal").stat().st_size
        assert wal > 0  # the commits went to the WAL and were not copied back by themselves
        writer.close()  # a last checkpoint
        return writer.checkpoints

    assert asyncio.run(main()) >= 1
    stored = store.load_table(engine, "ABCDEF")
    assert stored is not None and len(stored.actions) == 300
    engine.dispose()
    # Another engine (a command such as `ratgames export`) keeps SQLite's own checkpoints.
    other = store.make_engine(f"sqlite:///{path}")
    with other.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    other.dispose()


def test_young_objects_are_set_aside_and_now_and_then_everything_is_looked_at() -> None:
    code = """
import gc, time, weakref
from ratgames.server.cli import quiet_garbage_collector

class Node:
    pass

quiet_garbage_collector(unfreeze_every=1.5, freeze_every=0.05)
frozen = gc.get_freeze_count()
assert frozen > 10_000, frozen
passes = sum(s["collections"] for s in gc.get_stats())
gc.disable()  # no pass of its own: what follows is the thread's doing
keep = [[i] for i in range(50_000)]
time.sleep(0.3)
# set aside unwalked: no pass ran, and the young generation is empty again
assert sum(s["collections"] for s in gc.get_stats()) == passes
assert gc.get_freeze_count() >= frozen + 50_000, gc.get_freeze_count() - frozen
assert len(gc.get_objects(generation=0)) < 1_000
# a cycle set aside is not freed by a pass of the young generations...
a, b = Node(), Node()
a.other, b.other = b, a
dead = weakref.ref(a)
del a, b
time.sleep(0.3)
gc.collect(1)
assert dead() is not None
# ...but by the pass that walks everything, which the thread runs now and then
deadline = time.monotonic() + 10
while dead() is not None and time.monotonic() < deadline:
    time.sleep(0.05)
assert dead() is None
time.sleep(0.2)
assert gc.get_freeze_count() >= 50_000  # and what lives on is set aside again
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
