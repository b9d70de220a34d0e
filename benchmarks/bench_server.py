"""Load on the online server: N simulated players at N/4 tables, on loopback.

    uv run python benchmarks/bench_server.py --players 2000 --seconds 30
    uv run python benchmarks/bench_server.py --players 400 --db postgresql+psycopg://u:pw@127.0.0.1/db

A server (``ratgames serve``) is started in a subprocess on a free port with a fresh database
(SQLite in a temporary folder unless ``--db`` names a PostgreSQL database, which is emptied of
earlier runs' tables by its own fresh codes).  Every player gets its own WebSocket; four players
sit at each table of Rat-a-Tat Cat and act like bots: each waits ``--think`` seconds (default
0.8, the server's pause for its own bots) and plays a random legal move.

Reported: players connected, actions per second, and the action-to-observation latency (from
sending an action to receiving the state that shows it) at the 50th and 99th percentiles, and
the server's CPU time per action and its share of one core (from ``/proc``, so the figure holds
even when the machine is busy with other work).  The players are spread over
``--client-processes`` processes so that the load generator's own event loop does not become the
bottleneck being measured.  At the end every action a client saw acknowledged is compared with
the database: none may be lost, none stored twice.  The run is bounded by ``--seconds`` (and at
most 4,000 players).

The server runs with its default limits (``docs/server.md``, "Limits"): each table's players
connect from an address of their own (127.1.x.y: on Linux every 127.x.y.z is the loopback), as
players at different tables would.

``--attack`` adds hostile clients, on loopback only and bounded in number and time, while the
players play:

* amplification: ``--spectators`` connections (at most 1,000) from four addresses watch the
  first table, each saying ``hello`` again and chatting ten times a second, reconnecting when
  refused or closed;
* replays: ``--replayers`` clients (at most 64) fetch the replay pages of a long finished game
  (played by bots before the run) as fast as they are answered.

Reported then: the unrelated tables' latencies (``p50_ms``, ``p99_ms``; the goal is a p99 under
100 ms), the attacked table's own, its players' errors, and what the attackers got.

    uv run python benchmarks/bench_server.py --players 400 --seconds 20 --attack

``--processes N`` runs N ``ratgames serve`` processes over one PostgreSQL behind HAProxy with
the configuration shipped in deploy/ (``haproxy.cfg``), on loopback, instead of the one
process: ``--db`` names the PostgreSQL server, where the run makes a database of its own and
drops it at the end.  The players reach every process through the balancer's one address
(tables are created round robin; a table's WebSocket goes where its code hashes to, and a
process that does not hold the table sends the client on to the one that does).  Behind a
balancer a process sees the balancer's address, not the players': so that the per-address
limits do not throttle the load test, the balancer reaches each process from several loopback
addresses (one ``server`` line each, the first one health-checked, the others tracking it), at
most ``LINE_PLAYERS`` players' worth each.  Reported besides: the processes' CPU together, the
balancer's, and every table's share of processes.  ``--kill-after S`` kills the first process
with SIGKILL S seconds into the play: reported then is the failover time, from the kill until
every table played on (its next acknowledged action).

    uv run python benchmarks/bench_server.py --processes 2 --players 1000 --seconds 30 \
        --db postgresql+psycopg://USER:PW@127.0.0.1/postgres
    uv run python benchmarks/bench_server.py --processes 2 --players 400 --kill-after 10 \
        --db postgresql+psycopg://USER:PW@127.0.0.1/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import json
import math
import multiprocessing
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ratgames.server import store
from ratgames.server.cli import quiet_garbage_collector
from ratgames.server.client import ClientError, TableClient, http_json

GAME = "rat-a-tat-cat"
DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
LINE_PLAYERS = 4
"""Players' worth of connections the balancer makes to a process from one loopback address:
a process's per-address limits (connections, hellos, messages a second) see the balancer's
address, and at tens of players an address, the players reconnecting after a failover had
their hellos refused for the rate (measured with 20 players an address: 11 to 15 s before
every table played on, against 4 s with one; docs/server.md)."""
LEASE = 5.0
"""The processes' lease with ``--processes`` (seconds; ``ratgames serve``'s default)."""
OPTIONS = {"mode": "rounds=1000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def address_of_table(t: int) -> str:
    """The loopback address the players of table ``t`` connect from."""
    return f"127.1.{t // 250}.{t % 250 + 1}"


def http_from(local: str | None, base: str, path: str, body: Any = None) -> tuple[int, Any]:
    """(status, JSON answer) of GET (or POST ``body``) ``base + path`` from address ``local``."""
    host, _, port = base.removeprefix("http://").partition(":")
    conn = http.client.HTTPConnection(
        host, int(port), timeout=30, source_address=(local, 0) if local else None
    )
    try:
        data = None if body is None else json.dumps(body).encode("utf-8")
        conn.request(
            "GET" if body is None else "POST",
            path,
            body=data,
            headers={"content-type": "application/json"},
        )
        answer = conn.getresponse()
        raw = answer.read()
        return answer.status, json.loads(raw) if raw else None
    finally:
        conn.close()


async def ahttp_from(local: str | None, base: str, path: str, body: Any = None) -> Any:
    status, answer = await asyncio.to_thread(http_from, local, base, path, body)
    if status >= 300:  # a 307 too: the table is another process's (not followed here)
        detail = answer.get("detail") if isinstance(answer, dict) else answer
        raise ClientError(str(status), str(detail))
    return answer


def start_server(
    db: str,
    home: Path,
    profile: str | None = None,
    extra: tuple[str, ...] = (),
    port: int | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    port = port or free_port()
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    proc = subprocess.Popen(
        [
            sys.executable,
            *profiler,
            "-m",
            "ratgames.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-pause",
            "0",
            "--workers",
            "1",
            "--log-level",
            "warning",
            *extra,
        ],
        env={**os.environ, "RATGAMES_HOME": str(home)},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            http_json(base, "/api/health", timeout=1)
            return proc, base
        except (OSError, ClientError):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


class Player:
    """One simulated player: acts when it may, records acknowledgements and latencies."""

    def __init__(
        self, client: TableClient, rng: random.Random, think: float, attacked: bool = False
    ) -> None:
        self.attacked = attacked
        """This player's table is the one under attack."""
        self.client = client
        self.rng = rng
        self.think = think
        self.acked: list[tuple[int, str]] = []
        self.acked_at: list[float] = []
        """When each acknowledged action's state arrived (the monotonic clock, which every
        process of the machine shares)."""
        self.latencies: list[float] = []
        self.errors = 0

    async def play(self, until: float) -> None:
        client = self.client
        while time.monotonic() < until:
            try:
                left = until - time.monotonic()
                if not await client.my_turn_or_end(timeout=max(0.1, left)):
                    return
            except TimeoutError:
                return
            if self.think:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            if time.monotonic() >= until:
                return
            text = self.rng.choice(client.legal)
            sent = time.monotonic()
            try:
                seq = await client.act(text, timeout=30)
                await client.wait(lambda c, s=seq: c.state is not None and c.state["seq"] >= s, 30)
            except (ClientError, TimeoutError):
                self.errors += 1
                continue
            now = time.monotonic()
            self.latencies.append(now - sent)
            self.acked.append((seq, text))
            self.acked_at.append(now)


async def join_at_owner(local: str, base: str, code: str, name: str) -> Any:
    """Join table ``code`` through the balancer at ``base``: a request that reaches a process
    other than the table's is sent on (307, to the owner's path at the balancer, which would
    put every player behind the balancer's one address), so it is asked again here, reaching
    the next process (the balancer sends requests without a table code round robin)."""
    for _ in range(64):
        try:
            return await ahttp_from(local, base, f"/api/tables/{code}/join", {"name": name})
        except ClientError as exc:
            if exc.code not in ("307", "409") or "another server process" not in exc.message:
                raise
    raise ClientError("409", f"no process behind {base} took the join of table {code}")


async def _seat_tables(
    base: str, codes: list[int], think: float, attack: bool, reconnect: bool = False
) -> dict[str, list[Player]]:
    """Create the tables numbered ``codes`` and connect their four players (from the table's
    own address).  With ``attack``, table 0 is the one attacked.  With ``reconnect``, a
    player whose connection is lost (its process killed) connects again."""
    by_table: dict[str, list[Player]] = {}
    gate = asyncio.Semaphore(16)

    async def seat_table(t: int) -> None:
        local = address_of_table(t)
        async with gate:
            created = await ahttp_from(
                local,
                base,
                "/api/tables",
                {"game": GAME, "players": 4, "options": OPTIONS, "name": "P0", "public": False},
            )
            code = created["table"]["code"]
            tokens = [created["token"]]
            for i in range(1, 4):
                if reconnect:
                    joined = await join_at_owner(local, base, code, f"P{i}")
                else:
                    joined = await ahttp_from(
                        local, base, f"/api/tables/{code}/join", {"name": f"P{i}"}
                    )
                tokens.append(joined["token"])
            seats = []
            for i, token in enumerate(tokens):
                client = TableClient(
                    base,
                    code,
                    token,
                    created["host_token"] if i == 0 else None,
                    open_timeout=60,
                    local_host=local,
                    reconnect=reconnect,
                )
                await client.connect(timeout=120)
                seats.append(Player(client, random.Random(t * 4 + i), think, attack and t == 0))
            by_table[code] = seats

    await asyncio.gather(*(seat_table(t) for t in codes))
    return by_table


async def _client_process(
    base: str,
    codes: list[int],
    think: float,
    seconds: float,
    ready: Any,
    go: Any,
    attack: bool,
    reconnect: bool = False,
) -> dict[str, Any]:
    by_table = await _seat_tables(base, codes, think, attack, reconnect)
    attacked = [code for code, seats in by_table.items() if seats[0].attacked]
    ready.put((len(by_table) * 4, attacked[0] if attacked else None))
    await asyncio.get_running_loop().run_in_executor(None, go.wait)
    for seats in by_table.values():
        seats[0].client.host("start")
    start = time.monotonic()
    cpu = time.process_time()
    until = start + seconds
    everyone = [p for seats in by_table.values() for p in seats]
    await asyncio.gather(*(p.play(until) for p in everyone))
    elapsed = time.monotonic() - start
    cpu = time.process_time() - cpu
    for p in everyone:
        await p.client.close()
    return {
        "latencies": [x for p in everyone if not p.attacked for x in p.latencies],
        "attacked_latencies": [x for p in everyone if p.attacked for x in p.latencies],
        "attacked_errors": sum(p.errors for p in everyone if p.attacked),
        "attacked_connections": sum(p.client.connections for p in everyone if p.attacked),
        "errors": sum(p.errors for p in everyone),
        "elapsed": elapsed,
        "cpu": cpu,
        "by_table": {code: [a for p in seats for a in p.acked] for code, seats in by_table.items()},
        "acked_at": {
            code: sorted(t for p in seats for t in p.acked_at) for code, seats in by_table.items()
        },
        "direct": sum(p.client.base != base for p in everyone),
    }


def _client_main(
    base: str,
    codes: list[int],
    think: float,
    seconds: float,
    ready: Any,
    go: Any,
    out: Any,
    attack: bool,
    reconnect: bool = False,
) -> None:
    # The load generator's own garbage collector must not pause it for hundreds of ms (it
    # holds a thousand connections too): it would be counted as the server's latency.
    quiet_garbage_collector()
    try:
        out.put(
            asyncio.run(_client_process(base, codes, think, seconds, ready, go, attack, reconnect))
        )
    except BaseException as exc:  # reported to the parent, which stops the run
        ready.put((-1, None))
        out.put({"failed": repr(exc)})


# --- the attack ----------------------------------------------------------------------------------

SPECTATOR_ADDRESSES = [f"127.3.0.{i}" for i in range(1, 5)]
REPLAY_ADDRESSES = [f"127.4.0.{i}" for i in range(1, 9)]


def play_long_game(base: str) -> int:
    """A long game played by the server's own bots at a public table; its record id."""

    async def main() -> int:
        local = "127.5.0.1"
        created = await ahttp_from(
            local,
            base,
            "/api/tables",
            {
                "game": GAME,
                "options": {"mode": "rounds=40"},
                "seats": [{"kind": "bot", "bot": "easy"}] * 4,
                "sit": False,
                "public": True,
            },
        )
        code = created["table"]["code"]
        host = TableClient(base, code, None, created["host_token"], local_host=local)
        await host.connect()
        host.host("start")
        await host.wait(
            lambda c: c.state is not None and c.state["record_id"] is not None, timeout=300
        )
        record_id = int(host.state["record_id"])  # type: ignore[index]
        await host.close()
        return record_id

    return asyncio.run(main())


async def _attack(
    base: str, code: str, record_id: int, spectators: int, replayers: int, seconds: float
) -> dict[str, Any]:
    import websockets

    stats: collections.Counter[str] = collections.Counter()
    until = time.monotonic() + seconds
    url = base.replace("http://", "ws://") + "/ws"

    async def spectator(i: int) -> None:
        local = SPECTATOR_ADDRESSES[i % len(SPECTATOR_ADDRESSES)]
        hello = json.dumps({"type": "hello", "v": 1, "table": code})
        while time.monotonic() < until:
            try:
                async with websockets.connect(
                    url, local_addr=(local, 0), open_timeout=5, ping_interval=None
                ) as ws:
                    stats["connections"] += 1

                    async def read() -> None:
                        async for raw in ws:
                            frame = json.loads(raw)
                            stats[f"got {frame['type']}"] += 1
                            if frame["type"] == "error":
                                stats[f"error {frame['code']}"] += 1

                    reader = asyncio.create_task(read())
                    try:
                        while time.monotonic() < until and not reader.done():
                            await ws.send(hello)
                            await ws.send(json.dumps({"type": "chat", "v": 1, "text": f"spam {i}"}))
                            stats["sent"] += 2
                            await asyncio.sleep(0.1)
                    finally:
                        reader.cancel()
                    stats["closed by the server"] += 1 if reader.done() else 0
            except (OSError, TimeoutError, websockets.WebSocketException):
                stats["refused or dropped"] += 1
            await asyncio.sleep(0.5)

    async def replayer(j: int) -> None:
        local = REPLAY_ADDRESSES[j % len(REPLAY_ADDRESSES)]
        rng = random.Random(j)
        while time.monotonic() < until:
            start = rng.choice([0, 0, 200, 1000, 3000])
            try:
                status, _ = await asyncio.to_thread(
                    http_from, local, base, f"/api/records/{record_id}/replay?start={start}"
                )
                stats[f"replay {status}"] += 1
                if status >= 400:
                    await asyncio.sleep(0.05)
            except OSError:
                stats["replay failed"] += 1
                await asyncio.sleep(0.1)

    await asyncio.gather(
        *(spectator(i) for i in range(spectators)), *(replayer(j) for j in range(replayers))
    )
    return dict(stats)


def _attack_main(
    base: str, code: str, record_id: int, spectators: int, replayers: int, seconds: float, out: Any
) -> None:
    quiet_garbage_collector()
    # On the same machine the attack would otherwise take the server's CPU for itself, which a
    # remote attacker does not: it runs at the lowest priority, and says how much it sent.
    os.nice(19)
    try:
        began, cpu = time.monotonic(), time.process_time()
        stats = asyncio.run(_attack(base, code, record_id, spectators, replayers, seconds))
        elapsed = time.monotonic() - began
        stats["messages_per_s"] = round(stats.get("sent", 0) / elapsed, 1)
        stats["replays_per_s"] = round(
            sum(v for k, v in stats.items() if k.startswith("replay ")) / elapsed, 1
        )
        stats["cpu_share"] = round((time.process_time() - cpu) / elapsed, 2)
        out.put(stats)
    except BaseException as exc:
        out.put({"failed": repr(exc)})


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) used so far by process ``pid`` (Linux), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(
    players: int,
    seconds: float,
    think: float,
    base: str,
    server_pid: int,
    processes: int,
    attack: tuple[int, int] | None = None,
    cluster: Cluster | None = None,
    kill_after: float | None = None,
) -> dict[str, Any]:
    """Seat the players in ``processes`` client processes, play, and gather the figures.  With
    ``attack`` (spectators, replayers), the first table is attacked meanwhile.  With
    ``cluster`` (several server processes behind the balancer at ``base``), their figures
    together; ``kill_after`` seconds into the play, its first process is killed."""
    tables = max(1, players // 4)
    ctx = multiprocessing.get_context("spawn")
    ready, go, out = ctx.Queue(), ctx.Event(), ctx.Queue()
    shares = [list(range(k, tables, processes)) for k in range(processes)]
    shares = [s for s in shares if s]
    began = time.monotonic()
    procs = [
        ctx.Process(
            target=_client_main,
            args=(base, share, think, seconds, ready, go, out, attack is not None, bool(cluster)),
        )
        for share in shares
    ]
    for proc in procs:
        proc.start()
    seated = 0
    target: str | None = None
    for _ in procs:
        n, code = ready.get(timeout=600)
        if n < 0:
            go.set()
            raise SystemExit(f"a client process failed: {out.get(timeout=30)}")
        seated += n
        target = target or code
        print(f"  {seated} players connected", file=sys.stderr)
    attacker = None
    attack_out = ctx.Queue()
    if attack is not None and target is not None:
        record_id = play_long_game(base)
        print(f"  a long game stored (record {record_id}); attacking {target}", file=sys.stderr)
        attacker = ctx.Process(
            target=_attack_main,
            args=(base, target, record_id, attack[0], attack[1], seconds, attack_out),
        )
        attacker.start()
    setup = time.monotonic() - began
    if cluster is not None:
        connected = sum(http_json(b, "/api/health")["connections"] for b in cluster.bases)
        pids = [proc.pid for proc in cluster.servers]
        cluster_cpu0 = [cpu_seconds(pid) for pid in pids]
        assert cluster.balancer is not None
        balancer_pid = cluster.balancer.pid
        balancer_cpu0 = cpu_seconds(balancer_pid)
    else:
        connected = http_json(base, "/api/health")["connections"]
    cpu0 = cpu_seconds(server_pid)
    go.set()
    killed: float | None = None
    if cluster is not None and kill_after is not None:
        time.sleep(kill_after)
        last = cpu_seconds(pids[0])  # its CPU until it died
        cluster.servers[0].send_signal(signal.SIGKILL)
        killed = time.monotonic()
        cluster.servers[0].wait()
        print(f"  process 1 killed with SIGKILL after {kill_after:g} s", file=sys.stderr)
    parts = [out.get(timeout=seconds + 600) for _ in procs]
    cpu1 = cpu_seconds(server_pid)
    cluster_cpu1 = [cpu_seconds(pid) for pid in pids] if cluster is not None else []
    balancer_cpu1 = cpu_seconds(balancer_pid) if cluster is not None else None
    attacked_by: dict[str, Any] | None = None
    if attacker is not None:
        attacked_by = attack_out.get(timeout=120)
        attacker.join(timeout=60)
    for proc in procs:
        proc.join(timeout=60)
    failed = [p["failed"] for p in parts if "failed" in p]
    if failed:
        raise SystemExit(f"a client process failed: {failed[0]}")
    elapsed = max(p["elapsed"] for p in parts)
    cluster_cpu: float | None = None
    extra: dict[str, Any] = {}
    if cluster is not None:
        if killed is not None:
            cluster_cpu1[0] = last
        cluster_cpu = total(cluster_cpu1, cluster_cpu0)
        extra["processes"] = len(cluster.servers)
        extra["balancer_cpu_share"] = (
            None
            if balancer_cpu0 is None or balancer_cpu1 is None
            else round((balancer_cpu1 - balancer_cpu0) / elapsed, 2)
        )
        extra["players_sent_on"] = sum(p["direct"] for p in parts)
        if killed is not None:
            extra.update(failover(killed, [p["acked_at"] for p in parts]))
    latencies = sorted(x for p in parts for x in p["latencies"])
    attacked = sorted(x for p in parts for x in p["attacked_latencies"])
    actions = len(latencies) + len(attacked)
    server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    if cluster is not None:
        server_cpu = cluster_cpu
    if attack is not None:
        extra = {
            "attacked_table": {
                "actions": len(attacked),
                "p50_ms": percentile_ms(attacked, 0.5),
                "p99_ms": percentile_ms(attacked, 0.99),
                "errors": sum(p["attacked_errors"] for p in parts),
                "connections": sum(p["attacked_connections"] for p in parts),
            },
            "attackers": attacked_by,
        }
    return {
        "players": players,
        "tables": tables,
        "connected": connected,
        "client_processes": len(procs),
        "setup_s": round(setup, 1),
        "seconds": round(elapsed, 1),
        "actions": actions,
        "actions_per_s": round(actions / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1)
        if latencies
        else None,
        "server_cpu_share": None if server_cpu is None else round(server_cpu / elapsed, 2),
        "client_cpu_share": round(sum(p["cpu"] for p in parts) / elapsed, 2),
        "server_cpu_ms_per_action": None
        if server_cpu is None or not actions
        else round(1000 * server_cpu / actions, 2),
        "errors": sum(p["errors"] for p in parts),
        "by_table": {code: acked for p in parts for code, acked in p["by_table"].items()},
        **extra,
    }


def total(after: list[float | None], before: list[float | None]) -> float | None:
    """The sum of ``after - before`` (CPU seconds of several processes), or None if any is
    unknown."""
    if any(x is None for x in after + before):
        return None
    return sum((a or 0.0) - (b or 0.0) for a, b in zip(after, before, strict=True))


def failover(killed: float, parts: list[dict[str, list[float]]]) -> dict[str, Any]:
    """From the kill (``killed``, monotonic) to each table's next acknowledged action: the
    longest wait (the failover time, the players' own pause included), how many tables waited
    more than 2 s (those of the killed process) and how many never played on."""
    waits: list[float] = []
    stalled = 0
    for acked_at in parts:
        for times in acked_at.values():
            if not times or times[0] > killed:
                continue  # not in play at the kill
            after = [t for t in times if t >= killed]
            if after:
                waits.append(after[0] - killed)
            else:
                stalled += 1
    return {
        "failover_s": round(max(waits), 2) if waits else None,
        "tables_paused_over_2_s": sum(w > 2.0 for w in waits),
        "tables_stalled": stalled,
    }


def percentile_ms(sorted_values: list[float], q: float) -> float | None:
    if not sorted_values:
        return None
    return round(1000 * sorted_values[int(q * (len(sorted_values) - 1))], 1)


def check_stored(db: str, by_table: dict[str, list[tuple[int, str]]]) -> tuple[int, int]:
    """(lost, duplicated) acknowledged actions, comparing the clients' acks with the database."""
    engine = store.make_engine(db)
    lost = duplicated = 0
    for code, acked in by_table.items():
        stored = store.load_table(engine, code)
        rows = stored.actions if stored is not None else []
        seqs = [seq for seq, _ in acked]
        duplicated += len(seqs) - len(set(seqs))
        for seq, text in acked:
            if seq > len(rows) or rows[seq - 1][1] != text:
                lost += 1
        duplicated += max(0, len(rows) - len(acked))  # stored but never acknowledged
    engine.dispose()
    return lost, duplicated


# --- several processes behind the balancer ------------------------------------------------------


class Cluster:
    """``count`` ``ratgames serve`` processes over PostgreSQL database ``db`` behind HAProxy
    (deploy/haproxy.cfg), on loopback; the balancer's address is :attr:`base`."""

    def __init__(self, db: str, home: Path, count: int, players: int) -> None:
        haproxy = shutil.which("haproxy") or (
            "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
        )
        if haproxy is None:
            raise SystemExit("--processes needs HAProxy (Debian: apt-get install haproxy)")
        self.servers: list[subprocess.Popen[bytes]] = []
        self.bases: list[str] = []
        self.balancer: subprocess.Popen[bytes] | None = None
        try:
            for i in range(count):
                port = free_port()
                proc, base = start_server(
                    db,
                    home / f"p{i + 1}",
                    extra=("--lease", str(LEASE), "--advertise", f"http://127.0.0.1:{port}"),
                    port=port,
                )
                self.servers.append(proc)
                self.bases.append(base)
            # Several loopback addresses per process (127.2.i.j), each at most LINE_PLAYERS
            # players' worth: the process's per-address limits see these, not the players'.
            per_process = max(1, math.ceil(players / LINE_PLAYERS / count))
            lines = []
            for i, base in enumerate(self.bases):
                at = base.removeprefix("http://")
                for j in range(per_process):
                    check = "" if j == 0 else f" no-check track s{i + 1}x0"
                    lines.append(
                        f"    server s{i + 1}x{j} {at} source 127.2.{i + 1}.{j + 1}{check}\n"
                    )
            config = home / "haproxy.cfg"
            config.write_text((DEPLOY / "haproxy.cfg").read_text() + "".join(lines))
            port = free_port()
            self.base = f"http://127.0.0.1:{port}"
            self.balancer = subprocess.Popen(
                [haproxy, "-db", "-f", str(config)],
                env={**os.environ, "RATGAMES_BIND": f"127.0.0.1:{port}"},
                stdout=subprocess.DEVNULL,
                stderr=(home / "haproxy.log").open("ab"),
            )
            deadline = time.monotonic() + 30
            while True:
                try:
                    if http_json(self.base, "/api/health", timeout=1)["ok"]:
                        break
                except (OSError, ClientError):
                    pass
                if self.balancer.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(
                        "the balancer did not start: " + (home / "haproxy.log").read_text()
                    )
                time.sleep(0.1)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the balancer, then the processes (SIGINT: they give their tables up)."""
        if self.balancer is not None and self.balancer.poll() is None:
            self.balancer.terminate()
            self.balancer.wait(timeout=10)
        for proc in self.servers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in self.servers:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def fresh_database(server: str) -> tuple[str, str]:
    """A new, empty database on the PostgreSQL server of URL ``server``: (its URL, its name)."""
    import sqlalchemy as sa

    name = f"ratgames_bench_{secrets.token_hex(6)}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    url = sa.engine.make_url(server).set(database=name).render_as_string(hide_password=False)
    return url, name


def drop_database(server: str, name: str) -> None:
    import sqlalchemy as sa

    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def check_stored_cluster(
    db: str, by_table: dict[str, list[tuple[int, str]]]
) -> tuple[int, int, int]:
    """(lost, duplicated, unacknowledged): acknowledged actions missing from the database or
    stored otherwise, action numbers acknowledged twice, and actions stored whose
    acknowledgement never came (sent as their process was killed: their players were told the
    connection went, not that the action failed, and no action is sent again by itself)."""
    engine = store.make_engine(db)
    lost = duplicated = unacknowledged = 0
    for code, acked in by_table.items():
        stored = store.load_table(engine, code)
        rows = stored.actions if stored is not None else []
        seqs = {seq for seq, _ in acked}
        duplicated += len(acked) - len(seqs)
        lost += sum(seq > len(rows) or rows[seq - 1][1] != text for seq, text in acked)
        unacknowledged += sum(seq not in seqs for seq in range(1, len(rows) + 1))
    engine.dispose()
    return lost, duplicated, unacknowledged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.8)
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    parser.add_argument("--json", default=None, help="also write the figures here")
    parser.add_argument(
        "--client-processes",
        type=int,
        default=2,
        help="processes that play the simulated players (default 2)",
    )
    parser.add_argument(
        "--profile",
        default=None,
        metavar="FILE",
        help="run the server under cProfile and write its statistics to FILE (read them with "
        "python -m pstats FILE)",
    )
    parser.add_argument(
        "--attack",
        action="store_true",
        help="attack the first table meanwhile (spectator flood and replay fetching); the "
        "figures of the other tables are the ones to watch",
    )
    parser.add_argument("--spectators", type=int, default=200, help="attacking spectators")
    parser.add_argument("--replayers", type=int, default=8, help="clients fetching replays")
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="N",
        help="N server processes over PostgreSQL (--db names its server) behind HAProxy "
        "with deploy/haproxy.cfg, instead of one process alone (default)",
    )
    parser.add_argument(
        "--kill-after",
        type=float,
        default=None,
        metavar="S",
        help="with --processes: kill the first process with SIGKILL S seconds into the play "
        "and report the failover time",
    )
    args = parser.parse_args()
    players = max(4, min(4000, args.players))
    seconds = max(1.0, min(600.0, args.seconds))
    if args.processes:
        main_cluster(args, players, seconds)
        return
    if args.kill_after is not None:
        parser.error("--kill-after goes with --processes N")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        proc, base = start_server(db, Path(tmp), args.profile)
        try:
            attack = (
                (max(0, min(1000, args.spectators)), max(0, min(64, args.replayers)))
                if args.attack
                else None
            )
            result = run(
                players,
                seconds,
                args.think,
                base,
                proc.pid,
                max(1, args.client_processes),
                attack,
            )
        finally:
            # SIGINT: uvicorn shuts down cleanly (and cProfile, if used, writes its file).
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        lost, duplicated = check_stored(db, result.pop("by_table"))
    result["database"] = "postgresql" if db.startswith("postgresql") else "sqlite"
    result["lost"] = lost
    result["duplicated"] = duplicated
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


def main_cluster(args: argparse.Namespace, players: int, seconds: float) -> None:
    """The run with ``--processes N`` (see the module's description)."""
    if not 1 <= args.processes <= 16:
        raise SystemExit(f"--processes must be 1 to 16, not {args.processes}")
    if not (args.db or "").startswith("postgresql"):
        raise SystemExit(
            "--processes N shares one PostgreSQL among the processes: give its server with "
            "--db postgresql+psycopg://USER:PW@HOST/DB (a database of the run's own is made "
            f"there and dropped at the end), not {args.db!r}"
        )
    if args.attack or args.profile:
        raise SystemExit("--attack and --profile go with one process, not --processes")
    if args.kill_after is not None and not 0 < args.kill_after < seconds:
        raise SystemExit(f"--kill-after must be between 0 and --seconds ({seconds:g})")
    if args.kill_after is not None and args.processes < 2:
        raise SystemExit("--kill-after needs --processes 2 or more (one to take over)")
    db, name = fresh_database(args.db)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            cluster = Cluster(db, Path(tmp), args.processes, players)
            try:
                result = run(
                    players,
                    seconds,
                    args.think,
                    cluster.base,
                    cluster.servers[0].pid,
                    max(1, args.client_processes),
                    cluster=cluster,
                    kill_after=args.kill_after,
                )
            finally:
                cluster.stop()
        lost, duplicated, unacknowledged = check_stored_cluster(db, result.pop("by_table"))
    finally:
        drop_database(args.db, name)
    result["database"] = "postgresql"
    result["lost"] = lost
    result["duplicated"] = duplicated
    result["stored_unacknowledged"] = unacknowledged
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
