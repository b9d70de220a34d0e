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
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
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
from ratgames.server.client import ClientError, TableClient, ahttp_json, http_json

GAME = "rat-a-tat-cat"
OPTIONS = {"mode": "rounds=1000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    db: str, home: Path, profile: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
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

    def __init__(self, client: TableClient, rng: random.Random, think: float) -> None:
        self.client = client
        self.rng = rng
        self.think = think
        self.acked: list[tuple[int, str]] = []
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
            self.latencies.append(time.monotonic() - sent)
            self.acked.append((seq, text))


async def _seat_tables(base: str, codes: list[int], think: float) -> dict[str, list[Player]]:
    """Create the tables numbered ``codes`` and connect their four players."""
    by_table: dict[str, list[Player]] = {}
    gate = asyncio.Semaphore(16)

    async def seat_table(t: int) -> None:
        async with gate:
            created = await ahttp_json(
                base,
                "/api/tables",
                {"game": GAME, "players": 4, "options": OPTIONS, "name": "P0", "public": False},
            )
            code = created["table"]["code"]
            tokens = [created["token"]]
            for i in range(1, 4):
                joined = await ahttp_json(base, f"/api/tables/{code}/join", {"name": f"P{i}"})
                tokens.append(joined["token"])
            seats = []
            for i, token in enumerate(tokens):
                client = TableClient(
                    base,
                    code,
                    token,
                    created["host_token"] if i == 0 else None,
                    open_timeout=60,
                )
                await client.connect(timeout=120)
                seats.append(Player(client, random.Random(t * 4 + i), think))
            by_table[code] = seats

    await asyncio.gather(*(seat_table(t) for t in codes))
    return by_table


async def _client_process(
    base: str, codes: list[int], think: float, seconds: float, ready: Any, go: Any
) -> dict[str, Any]:
    by_table = await _seat_tables(base, codes, think)
    ready.put(len(by_table) * 4)
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
        "latencies": [x for p in everyone for x in p.latencies],
        "errors": sum(p.errors for p in everyone),
        "elapsed": elapsed,
        "cpu": cpu,
        "by_table": {code: [a for p in seats for a in p.acked] for code, seats in by_table.items()},
    }


def _client_main(
    base: str, codes: list[int], think: float, seconds: float, ready: Any, go: Any, out: Any
) -> None:
    # The load generator's own garbage collector must not pause it for hundreds of ms (it
    # holds a thousand connections too): it would be counted as the server's latency.
    quiet_garbage_collector()
    try:
        out.put(asyncio.run(_client_process(base, codes, think, seconds, ready, go)))
    except BaseException as exc:  # reported to the parent, which stops the run
        ready.put(-1)
        out.put({"failed": repr(exc)})


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) used so far by process ``pid`` (Linux), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(
    players: int, seconds: float, think: float, base: str, server_pid: int, processes: int
) -> dict[str, Any]:
    """Seat the players in ``processes`` client processes, play, and gather the figures."""
    tables = max(1, players // 4)
    ctx = multiprocessing.get_context("spawn")
    ready, go, out = ctx.Queue(), ctx.Event(), ctx.Queue()
    shares = [list(range(k, tables, processes)) for k in range(processes)]
    shares = [s for s in shares if s]
    began = time.monotonic()
    procs = [
        ctx.Process(target=_client_main, args=(base, share, think, seconds, ready, go, out))
        for share in shares
    ]
    for proc in procs:
        proc.start()
    seated = 0
    for _ in procs:
        n = ready.get(timeout=600)
        if n < 0:
            go.set()
            raise SystemExit(f"a client process failed: {out.get(timeout=30)}")
        seated += n
        print(f"  {seated} players connected", file=sys.stderr)
    setup = time.monotonic() - began
    health = http_json(base, "/api/health")
    cpu0 = cpu_seconds(server_pid)
    go.set()
    parts = [out.get(timeout=seconds + 600) for _ in procs]
    cpu1 = cpu_seconds(server_pid)
    for proc in procs:
        proc.join(timeout=60)
    failed = [p["failed"] for p in parts if "failed" in p]
    if failed:
        raise SystemExit(f"a client process failed: {failed[0]}")
    elapsed = max(p["elapsed"] for p in parts)
    latencies = sorted(x for p in parts for x in p["latencies"])
    actions = len(latencies)
    server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    return {
        "players": players,
        "tables": tables,
        "connected": health["connections"],
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
    }


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
    args = parser.parse_args()
    players = max(4, min(4000, args.players))
    seconds = max(1.0, min(600.0, args.seconds))
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        proc, base = start_server(db, Path(tmp), args.profile)
        try:
            result = run(
                players, seconds, args.think, base, proc.pid, max(1, args.client_processes)
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


if __name__ == "__main__":
    main()
