"""A browser at a table that moves between server processes: two ``ratgames serve`` processes
over one PostgreSQL (``RATGAMES_TEST_POSTGRES``) behind the real HAProxy with the shipped
configuration (deploy/haproxy.cfg), on loopback, each process advertising its own path at the
balancer (``/p/sN``, as deploy/serve-cluster.sh starts them).  The page, opened through the
balancer, puts its table's code in the WebSocket URL; the process the balancer routes that code
to does not hold the table and closes with 4009 naming the owner's path, which the page follows
(its own origin, as its Content-Security-Policy requires) and plays there.  The owner is killed
with SIGKILL mid-game: the page comes back through the balancer to the process that takes the
table over and plays on within 10 s, and every action the page saw acknowledged is stored, each
once."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.server.processes import (
    HAPROXY,
    Balancer,
    ServeProcess,
    balancer_address,
    free_port,
)
from tests.server.test_postgres import pg_url  # noqa: F401  (the fixture)

import ratgames
from ratgames.server import store
from ratgames.server.client import TableClient, ahttp_json

from .helpers import Player
from .test_games import ratatat_move

T = TypeVar("T")

BACK_WITHIN = 10.0
"""Seconds within which the page must play on after the SIGKILL (the issue's promise)."""


LEASE = 2.0
"""The processes' lease (seconds): a dead process's tables are back 2 to 3 s after it died."""


@pytest.fixture
def cluster_of_two(
    pg_url: str,  # noqa: F811
    tmp_path: Path,
) -> Iterator[tuple[ServeProcess, ServeProcess, Balancer]]:
    """Two processes over one PostgreSQL behind HAProxy, each advertising its path there."""
    if HAPROXY is None:
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy; .ci/run does)")
    port = free_port()
    a, b = (
        ServeProcess(pg_url, tmp_path / f"s{i}", lease=LEASE, advertise=balancer_address(port, i))
        for i in range(2)
    )
    balancer: Balancer | None = None
    try:
        a.start()
        b.start()
        balancer = Balancer([a, b], tmp_path, port)
        yield a, b, balancer
    finally:
        if balancer is not None:
            balancer.stop()
        a.stop()
        b.stop()


def table_sent_on(a: ServeProcess, entry: str) -> tuple[str, str, str]:
    """A table of Rat-a-Tat Cat (an open seat and a bot) made at ``a`` whose code the balancer
    at ``entry`` routes to the other process, which sends a client on to ``a`` with a 4009
    close: its code, the open seat's token and the host token."""

    async def main() -> tuple[str, str, str]:
        for _ in range(8):  # the chance of missing eight times in a row: 1 in 256
            created = await ahttp_json(
                a.base,
                "/api/tables",
                {
                    "game": "rat-a-tat-cat",
                    "seats": [{"kind": "open"}, {"kind": "bot"}],
                    "options": {"mode": "rounds=3"},
                    "name": "Ann",
                },
            )
            code = str(created["table"]["code"])
            probe = TableClient(entry, code)  # a spectator: where does the balancer send it?
            await probe.connect()
            moved = probe.moves > 0
            await probe.close()
            if moved:
                return code, str(created["token"]), str(created["host_token"])
        raise AssertionError("the balancer routed all of eight tables' codes to their owner")

    return aside(main())


def start_as_host(entry: str, code: str, host_token: str) -> None:
    async def main() -> None:
        host = TableClient(entry, code, None, host_token)
        await host.connect()
        host.host("start")
        await host.wait(lambda c: c.state is not None, timeout=30)
        await host.close()

    aside(main())


def aside(coro: Coroutine[Any, Any, T]) -> T:
    """Run a client coroutine on a loop of its own in another thread (Playwright's own loop
    runs in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, 120)).result()


class Wire:
    """What one page's WebSockets carried: where each went, the actions sent (by id) and
    the acknowledgements received (id, seq)."""

    def __init__(self, player: Player) -> None:
        self.urls: list[str] = []
        self.sent: dict[int, str] = {}
        self.acks: list[tuple[int, int]] = []
        player.page.on("websocket", self._watch)

    def _watch(self, ws: Any) -> None:
        self.urls.append(ws.url)
        ws.on("framesent", self._sent)
        ws.on("framereceived", self._received)

    def _sent(self, payload: str | bytes) -> None:
        msg = ratgames_json(payload)
        if msg.get("type") == "action":
            self.sent[int(msg["id"])] = str(msg["action"])

    def _received(self, payload: str | bytes) -> None:
        msg = ratgames_json(payload)
        if msg.get("type") == "ack":
            self.acks.append((int(msg["id"]), int(msg["seq"])))

    def acked(self) -> list[tuple[int, str]]:
        """(seq, action) of every acknowledged action."""
        return [(seq, self.sent[ref]) for ref, seq in self.acks]


def ratgames_json(payload: str | bytes) -> dict[str, Any]:
    text = payload if isinstance(payload, str) else payload.decode()
    got = json.loads(text)
    return got if isinstance(got, dict) else {}


def test_the_page_follows_its_table_and_plays_on_after_its_process_is_killed(
    cluster_of_two: tuple[ServeProcess, ServeProcess, Balancer],
    pg_url: str,  # noqa: F811
    browser: Browser,
) -> None:
    a, _, balancer = cluster_of_two
    entry = balancer.base
    code, token, host_token = table_sent_on(a, entry)
    ann = Player(browser, entry, "Ann")
    wire = Wire(ann)
    here = entry.replace("http:", "ws:")
    try:
        ann.page.goto(f"{entry}/t/{code}#seat={token}")
        expect(ann.page.get_by_test_id("seats")).to_contain_text("Ann (you)")
        # routed by its code to the other process, sent on to the owner's path at the balancer
        assert wire.urls == [f"{here}/ws?table={code}", f"{here}/p/s0/ws?table={code}"], wire.urls
        start_as_host(entry, code, host_token)
        expect(ann.page.get_by_test_id("board")).to_be_visible()
        back_in = play_killing_the_owner(ann, wire, a, kill_after=4)
        assert len(wire.urls) > 2, "the page did not connect again after the SIGKILL"
        assert not ann.page_errors, ann.page_errors
    finally:
        ann.close()
    acked = wire.acked()
    seqs = [seq for seq, _ in acked]
    assert len(seqs) == len(set(seqs)), "an action was acknowledged twice"
    engine = store.make_engine(pg_url)
    try:
        stored = store.load_table(engine, code)
        assert stored is not None and stored.row.status == "finished"
        for seq, text in acked:
            assert stored.actions[seq - 1][1] == text, (seq, text)
        record = store.get_record(engine, stored.row.record_id or -1)
        assert record is not None and ratgames.replay(record).is_over()
    finally:
        engine.dispose()
    print(f"the page played on {back_in:.2f} s after the SIGKILL of its table's process")


def play_killing_the_owner(
    p: Player, wire: Wire, owner: ServeProcess, kill_after: int, timeout: float = 150
) -> float:
    """Play the page's moves to the end of the game; after ``kill_after`` of them, kill the
    table's process with SIGKILL.  The seconds from the kill until the page showed a new state
    and one of its own actions after the kill was acknowledged (checked below BACK_WITHIN)."""
    deadline = time.monotonic() + timeout
    killed: float | None = None
    seq_at_kill = -1
    acks_at_kill = 0
    back_in: float | None = None
    while not p.over():
        now = time.monotonic()
        assert now < deadline, "the game did not end in time"
        if killed is None and p.moves >= kill_after:
            assert not p.over(), "the game ended before the kill"
            owner.kill()
            killed = time.monotonic()
            seq_at_kill = p.seq()
            acks_at_kill = len(wire.acks)
        if killed is not None and back_in is None:
            if p.seq() > seq_at_kill and len(wire.acks) > acks_at_kill:
                back_in = time.monotonic() - killed
            else:
                assert now - killed < BACK_WITHIN, (
                    f"the page did not play on within {BACK_WITHIN:.0f} s of the SIGKILL",
                    p.page.get_by_test_id("connection").inner_text(),
                )
        if p.my_turn():
            seq = p.seq()
            try:
                ratatat_move(p)
            except PlaywrightTimeout:
                p.stale_moves += 1
                continue
            p.moves += 1
            # a move sent while the connection was down, or refused, shows nothing new
            with contextlib.suppress(PlaywrightTimeout):
                p.wait_past(seq, timeout=1.0)
        else:
            time.sleep(0.05)
    expect(p.page.get_by_test_id("outcome")).to_be_visible()
    assert killed is not None, "the game ended before the kill"
    assert back_in is not None, "the page did not act again after the kill"
    return back_in
