"""Three real ``ratgames serve`` processes over one PostgreSQL (``RATGAMES_TEST_POSTGRES``)
behind the real HAProxy with the shipped configuration (``deploy/haproxy.cfg``), on loopback:
tables spread over the processes, every process lists all of them and hears their changes, a
spectator through the balancer reaches the owner, a SIGKILL is survived with the clients
playing on, a SIGTERM hands the tables over at once, and a slap race open at a SIGKILL is
settled once."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ratgames
from ratgames.core.registry import get_game
from ratgames.server import store
from ratgames.server.client import ClientError, TableClient, ahttp_json, http_json

from .conftest import run
from .processes import HAPROXY, Balancer, ServeProcess, balancer_address, free_port, player
from .test_postgres import pg_url  # noqa: F401  (the fixture)

LEASE = 2.0


class Cluster:
    """Three processes and the balancer in front of them."""

    def __init__(self, url: str, work: Path, lease: float = LEASE) -> None:
        self.url = url
        self.port = free_port()
        self.servers = [
            ServeProcess(url, work / f"s{i}", lease=lease, advertise=balancer_address(self.port, i))
            for i in range(3)
        ]
        """Each advertising its address through the balancer, as deploy/serve-cluster.sh
        starts them."""
        self.balancer: Balancer | None = None
        self.work = work

    def start(self) -> None:
        # the schema once, before the processes start together
        engine = store.make_engine(self.url)
        store.upgrade(engine)
        engine.dispose()
        for server in self.servers:
            server.start()
        self.balancer = Balancer(self.servers, self.work, self.port)

    @property
    def entry(self) -> str:
        assert self.balancer is not None
        return self.balancer.base

    def stop(self) -> None:
        if self.balancer is not None:
            self.balancer.stop()
        for server in self.servers:
            server.stop()

    def live(self) -> list[ServeProcess]:
        return [s for s in self.servers if s.proc is not None and s.proc.poll() is None]

    async def owner_of(self, code: str) -> ServeProcess:
        """The live process holding table ``code`` (the others send the request on to it with
        a 307, not followed here)."""
        for server in self.live():
            if await asyncio.to_thread(holds, server.base, code):
                return server
        raise AssertionError(f"no live process holds table {code}")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def holds(base: str, code: str) -> bool:
    """Whether the process at ``base`` answers for table ``code`` itself."""
    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(f"{base}/api/tables/{code}", timeout=10) as answer:
            return int(answer.status) == 200
    except urllib.error.HTTPError as exc:
        if exc.code in (307, 409):
            return False
        raise
    except OSError:
        return False


@pytest.fixture
def cluster(pg_url: str, tmp_path: Path) -> Iterator[Cluster]:  # noqa: F811
    if HAPROXY is None:
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy; .ci/run does)")
    running = Cluster(pg_url, tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.stop()


async def listing(base: str) -> dict[str, dict[str, Any]]:
    page: list[dict[str, Any]] = await ahttp_json(base, "/api/tables?limit=500")
    return {t["code"]: t for t in page}


async def until(check: Any, within: float, what: str) -> Any:
    """Poll the coroutine function ``check`` until it gives something true (which is
    returned), at most ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        got = await check()
        if got:
            return got
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.1)


async def create(base: str, game: str = "rats", **body: Any) -> dict[str, Any]:
    options = {"rats": {"max_rounds": 6}, "rat-a-tat-cat": {"mode": "rounds=4"}}.get(game, {})
    created: dict[str, Any] = await ahttp_json(
        base,
        "/api/tables",
        {
            "game": game,
            "seats": [{"kind": "open"}, {"kind": "bot"}],
            "options": options,
            "name": "P",
            **body,
        },
    )
    return created


def check_stored(url: str, acked: dict[str, list[tuple[int, str]]], finished: bool) -> None:
    """Every acknowledged action is stored at its seq, none twice."""
    engine = store.make_engine(url)
    try:
        for code, done in acked.items():
            stored = store.load_table(engine, code)
            assert stored is not None
            seqs = [seq for seq, _ in done]
            assert len(seqs) == len(set(seqs)), "an action was acknowledged twice"
            for seq, text in done:
                assert stored.actions[seq - 1][1] == text, (code, seq, text)
            if finished:
                assert stored.row.status == "finished"
                record = store.get_record(engine, stored.row.record_id or -1)
                assert record is not None
                assert ratgames.replay(record).is_over()
    finally:
        engine.dispose()


def test_tables_spread_and_every_lobby_lists_them(cluster: Cluster) -> None:
    """Tables created through the balancer land on every process; each process (and so the
    balancer's one address) lists all of them, a seat taken or a spectator arriving at one
    shows at the others, and a spectator sent by the balancer reaches the owner."""

    async def main() -> None:
        two = [{"kind": "open"}, {"kind": "open"}]
        codes = [(await create(cluster.entry, seats=two))["table"]["code"] for _ in range(6)]
        owners = {code: await cluster.owner_of(code) for code in codes}
        assert {s.port for s in owners.values()} == {s.port for s in cluster.servers}, (
            "the balancer did not spread the tables over the three processes"
        )
        for server in cluster.servers:
            await until(
                lambda b=server.base: _lists(b, codes), 5, f"{server.base} does not list all"
            )
        assert await _lists(cluster.entry, codes)

        # a seat taken at the owner: the other processes' lobbies show it
        code = codes[0]
        owner = owners[code]
        others = [s for s in cluster.servers if s is not owner]
        await ahttp_json(owner.advertise, f"/api/tables/{code}/join", {"name": "Ann"})
        for other in others:
            await until(lambda b=other.base: _seat_name(b, code, "Ann"), 5, "the seat did not show")

        # spectators through the balancer: routed by the code, sent on to the owner (4009)
        watchers = []
        for target in codes[:3]:
            watcher = TableClient(cluster.entry, target)
            await watcher.connect()
            await watcher.wait(lambda c: c.table is not None, timeout=10)
            # reached directly (the code hashed to the owner) or sent on once by another, to
            # the owner's address through the balancer
            assert (watcher.moves, watcher.base) in (
                (0, cluster.entry),
                (1, owners[target].advertise),
            )
            await until(
                lambda b=owners[target].base, c=target: _spectators(b, c, 1), 5, "not watched"
            )
            watchers.append(watcher)
        for other in others:
            await until(
                lambda b=other.base: _spectators(b, code, 1), 5, "the spectator did not show"
            )
        for watcher in watchers:
            await watcher.close()

    run(main(), timeout=120)


async def _lists(base: str, codes: list[str]) -> bool:
    page = await listing(base)
    return all(c in page for c in codes)


async def _seat_name(base: str, code: str, name: str) -> bool:
    page = await listing(base)
    return code in page and any(s["name"] == name for s in page[code]["seats"])


async def _spectators(base: str, code: str, count: int) -> bool:
    page = await listing(base)
    return code in page and page[code]["spectators"] == count


def test_sigkill_of_one_of_three_with_clients_playing_on(cluster: Cluster) -> None:
    """Games on every process, their clients connected through the balancer; one process is
    killed with SIGKILL: within 10 s its games go on at the others (and are listed there), all
    games play to their end, every acknowledged action stored once."""
    acked: dict[str, list[tuple[int, str]]] = {}

    async def main() -> None:
        clients: list[TableClient] = []
        for i in range(6):
            created = await create(cluster.entry, "rats" if i % 2 else "rat-a-tat-cat")
            code = created["table"]["code"]
            acked[code] = []
            client = TableClient(
                cluster.entry, code, created["token"], created["host_token"], reconnect=True
            )
            await client.connect()
            client.host("start")
            clients.append(client)
        owners = {c.code: await cluster.owner_of(c.code) for c in clients}
        victim = owners[clients[0].code]
        theirs = [c for c in clients if owners[c.code] is victim]
        stop = asyncio.Event()
        players = [
            asyncio.create_task(player(c, random.Random(i), acked[c.code], stop))
            for i, c in enumerate(clients)
        ]
        await asyncio.sleep(0.6)
        assert not any(c.over for c in theirs), "a game ended before the kill"
        before = {code: len(done) for code, done in acked.items()}
        await asyncio.to_thread(victim.kill)
        killed = time.monotonic()
        while any(len(acked[c.code]) <= before[c.code] and not c.over for c in theirs):
            await asyncio.sleep(0.05)
            assert time.monotonic() - killed < 10, "play did not go on within 10 s"
        back_in = time.monotonic() - killed
        survivors = cluster.live()
        # the tables taken over are listed by every live process
        live_codes = [c.code for c in theirs if not c.over]
        for server in survivors:
            await until(
                lambda b=server.base: _lists(b, live_codes), 10, "a table taken over is unlisted"
            )
        await asyncio.wait_for(asyncio.gather(*players), 120)
        for client in clients:
            assert client.over
            await client.close()
        print(f"three processes: play went on {back_in:.2f} s after the SIGKILL")

    run(main(), timeout=200)
    check_stored(cluster.url, acked, finished=True)


def test_sigterm_hands_tables_over_before_the_exit(pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    """With a lease of 10 s, a process stopped with SIGTERM gives its tables up before it
    exits: its clients (through the balancer) play on at another process within a few
    seconds, far sooner than the lease would run out."""
    if HAPROXY is None:
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy; .ci/run does)")
    lease = 10.0
    cluster = Cluster(pg_url, tmp_path, lease=lease)
    acked: dict[str, list[tuple[int, str]]] = {}
    timings: dict[str, float] = {}
    try:
        cluster.start()

        async def main() -> None:
            owner = cluster.servers[0]
            clients: list[TableClient] = []
            for i in range(3):
                created = await create(owner.base, "rats" if i % 2 else "rat-a-tat-cat")
                code = created["table"]["code"]
                acked[code] = []
                client = TableClient(
                    cluster.entry, code, created["token"], created["host_token"], reconnect=True
                )
                await client.connect()
                assert client.base in (cluster.entry, owner.advertise)
                client.host("start")
                clients.append(client)
            stop = asyncio.Event()
            players = [
                asyncio.create_task(player(c, random.Random(i), acked[c.code], stop))
                for i, c in enumerate(clients)
            ]
            await asyncio.sleep(0.6)
            assert not any(c.over for c in clients), "a game ended before the stop"
            before = {code: len(done) for code, done in acked.items()}
            began = time.monotonic()
            code = await asyncio.to_thread(owner.terminate)
            timings["exit"] = time.monotonic() - began
            # uvicorn ends by raising the signal again once it has stopped cleanly
            assert code in (0, -signal.SIGTERM), owner.log()[-2000:]
            while any(len(acked[c.code]) <= before[c.code] and not c.over for c in clients):
                await asyncio.sleep(0.05)
                assert time.monotonic() - began < lease / 2, (
                    "play did not go on well before the lease ran out",
                    [(len(acked[c.code]), before[c.code], c.over, c.base) for c in clients],
                )
            timings["back"] = time.monotonic() - began
            assert "tables handed over" in owner.log()
            await asyncio.wait_for(asyncio.gather(*players), 120)
            for client in clients:
                # (its address through the balancer may stay /p/s0: with s0 gone, the balancer
                # sends it on like any other request)
                assert client.over
                assert client.connections >= 2
                await client.close()

        run(main(), timeout=200)
    finally:
        cluster.stop()
    check_stored(pg_url, acked, finished=True)
    print(f"SIGTERM: exited in {timings['exit']:.2f} s, play went on {timings['back']:.2f} s")


ALL_SLAPS = {
    "top_bottom": True,
    "tens": True,
    "marriage": True,
    "divorce": True,
    "run": True,
    "max_cards": 2000,
    "burn": 0,
}


def test_a_slap_race_open_at_a_sigkill_is_settled_once(cluster: Cluster) -> None:
    """Two people race for a slappable pile of Egyptian Ratscrew; the table's process is killed
    with SIGKILL just after their slaps went out: once another process holds the table, the
    pile is taken by one slap of that version, never two, and every acknowledged action is
    stored once."""
    acked: dict[str, list[tuple[int, str]]] = {}
    raced: list[int] = []

    async def main() -> None:
        created = await create(
            cluster.entry,
            "egyptian-ratscrew",
            seats=[{"kind": "open"}, {"kind": "open"}],
            options=ALL_SLAPS,
        )
        code = created["table"]["code"]
        owner = await cluster.owner_of(code)
        joined = await ahttp_json(owner.base, f"/api/tables/{code}/join", {"name": "Q"})
        near = TableClient(
            cluster.entry, code, created["token"], created["host_token"], reconnect=True
        )
        far = TableClient(cluster.entry, code, joined["token"], reconnect=True)
        await near.connect()
        await far.connect()
        acked[code] = []
        near.host("start")
        # play the turns (never slapping) until both see a slappable pile
        version = -1
        for _ in range(400):
            await near.wait(lambda c: c.state is not None, timeout=10)
            await far.wait(
                lambda c: c.state is not None and c.state["seq"] == near.state["seq"],  # type: ignore[index]
                timeout=10,
            )
            assert near.state is not None
            obs = near.state["observation"]
            if obs["slappable"] and f"slap@{obs['pile_version']}" in near.state["legal"]:
                version = obs["pile_version"]
                break
            for client in (near, far):
                assert client.state is not None
                moves = [a for a in client.state["legal"] if not a.startswith("slap")]
                if moves:
                    with contextlib.suppress(ClientError):  # the state moved on meanwhile
                        seq = await client.act(moves[0], timeout=10)
                        acked[code].append((seq, moves[0]))
                    break
            else:
                await asyncio.sleep(0.05)
        assert version >= 0, "no slappable pile came"
        raced.append(version)
        slap = f"slap@{version}"

        async def press(client: TableClient) -> None:
            with contextlib.suppress(ClientError, TimeoutError):
                acked[code].append((await client.act(slap, timeout=20), slap))

        presses = [asyncio.create_task(press(c)) for c in (near, far)]
        await asyncio.sleep(0.005)  # the race is open (it waits for the slower round trip)
        connections = {id(c): c.connections for c in (near, far)}
        await asyncio.to_thread(owner.kill)
        for client in (near, far):
            client.state = None  # the next one comes from the process that took the table
        await asyncio.gather(*presses)
        raced.append(sum(1 for _, text in acked[code] if text == slap))  # acked before
        for client in (near, far):
            await client.wait(
                lambda c: c.connections > connections[id(c)] and c.state is not None,
                timeout=20,
            )
        # whoever's press was not stored presses again, as a person would at the same pile
        await asyncio.sleep(0.5)
        again = [
            asyncio.create_task(press(c))
            for c in (near, far)
            if c.state is not None and slap in c.state["legal"]
        ]
        await asyncio.gather(*again)
        new_owner = await cluster.owner_of(code)
        assert new_owner is not owner
        await near.close()
        await far.close()

    run(main(), timeout=150)
    code = next(iter(acked))
    engine = store.make_engine(cluster.url)
    stored = store.load_table(engine, code)
    engine.dispose()
    assert stored is not None and stored.row.seed is not None
    check_stored(cluster.url, acked, finished=False)
    # replayed, the pile of the raced version was taken by exactly one slap
    game = get_game("egyptian-ratscrew", players=2, options=stored.row.options)
    state = game.new_state(seed=stored.row.seed)
    takes = 0
    for seat, action, t in stored.actions:
        before = state.observation(0)["event_count"]
        state.apply(seat, action, time=t)
        if action == f"slap@{raced[0]}":
            obs = state.observation(0)
            fresh = obs["events"][len(obs["events"]) - (obs["event_count"] - before) :]
            takes += sum(1 for e in fresh if e["kind"] == "slap")
    assert takes == 1, f"the race for pile {raced[0]} was settled {takes} times"
    after = sum(1 for _, text in acked[code] if text == f"slap@{raced[0]}") - raced[1]
    print(f"slaps acknowledged before the kill: {raced[1]}, after it: {after}")


def test_the_balancer_answers_health_and_each_process_its_metrics(cluster: Cluster) -> None:
    """Behind the balancer each process keeps its own /metrics, scraped at its own port."""
    for server in cluster.servers:
        text = http_text(server.base + "/metrics")
        assert "ratgames_tables" in text and "process_cpu_seconds_total" in text
    assert http_json(cluster.entry, "/readyz")["ready"] is True


def http_text(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as answer:
        return str(answer.read().decode())
