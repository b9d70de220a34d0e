"""The Ray backend of simulate and tournament, on a real Ray cluster started here: a head node and
two more nodes on loopback, one CPU each (one test kills a node mid-run).

The cluster's processes are started by this module, each node in a session of its own, and
stopped by killing the processes of those sessions (never ``ray stop``, which would stop every Ray
on the machine).  Only one such cluster runs at a time on the machine (a file lock), whichever
pytest-xdist worker runs these tests.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ratgames import sim
from ratgames.checkpoint import RunCheckpoint
from ratgames.cli import main
from ratgames.core import Option, RandomBot, SeatView
from ratgames.core import bots as bot_registry
from ratgames.distributed import BackendError, RayBackend, check_reachable, import_ray
from ratgames.sim import SimConfig, simulate
from ratgames.tournament import run_tournament

pytestmark = pytest.mark.xdist_group("ray-cluster")  # together under --dist loadgroup

# As the backend does, before anything imports Ray in this process: no copying of the uv
# environment to the workers (see ratgames.distributed.import_ray).
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")

RAY = str(Path(sys.executable).with_name("ray"))
STARTUP_SECONDS = 120.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cluster_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("RAY_ADDRESS", None)
    env.update(
        RAY_AUTH_MODE="disabled",
        RAY_USAGE_STATS_ENABLED="0",
        RAY_ENABLE_UV_RUN_RUNTIME_ENV="0",
        # A killed node is noticed within a couple of seconds (the default takes half a minute).
        RAY_health_check_period_ms="500",
        RAY_health_check_timeout_ms="1000",
        RAY_health_check_failure_threshold="3",
        # A loaded machine can take long to register a node.
        RAY_raylet_start_wait_time_s="120",
    )
    return env


class Cluster:
    """A Ray cluster of processes started here, each node with one CPU: the head, a worker node
    and a third node, the one a test kills."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[subprocess.Popen[bytes]] = []

    def start_node(self) -> subprocess.Popen[bytes]:
        head = not self.nodes
        args = [RAY, "start", "--block", "--num-cpus", "1", "--node-ip-address", "127.0.0.1"]
        args += ["--temp-dir", str(self.folder), "--disable-usage-stats"]
        args += ["--object-store-memory", str(100 * 1024 * 1024)]
        args += ["--dashboard-agent-listen-port", str(_free_port())]
        if head:
            args += ["--head", "--port", str(self.port), "--include-dashboard", "false"]
            args += ["--dashboard-port", str(_free_port())]
        else:
            args += ["--address", self.address]
        log = open(self.folder / f"node{len(self.nodes)}.log", "wb")  # noqa: SIM115
        node = subprocess.Popen(
            args, env=_cluster_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        self.nodes.append(node)
        return node

    def start(self, nodes: int) -> None:
        """Start the head, then the other nodes one by one (nodes that start together on one
        machine can miss their registration), connected to the cluster."""
        deadline = time.monotonic() + STARTUP_SECONDS
        self.start_node()
        while True:
            with contextlib.suppress(BackendError):
                check_reachable(self.address, timeout=1.0)
                break
            self._check_running(deadline)
            time.sleep(0.2)
        self.connect()
        ray = import_ray()
        for count in range(2, nodes + 1):
            self.start_node()
            while ray.cluster_resources().get("CPU", 0) < count:
                self._check_running(deadline)
                time.sleep(0.2)

    def connect(self) -> None:
        """Connect this process to the cluster (and stay connected: the backends use the
        connection they find)."""
        import_ray().init(address=self.address, log_to_driver=False, logging_level=logging.WARNING)

    def _check_running(self, deadline: float) -> None:
        for i, node in enumerate(self.nodes):
            if node.poll() is not None:
                log = (self.folder / f"node{i}.log").read_text(errors="replace")
                raise RuntimeError(f"ray node {i} stopped:\n{log[-3000:]}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Ray cluster did not start in {STARTUP_SECONDS:.0f} s")

    @staticmethod
    def kill(node: subprocess.Popen[bytes]) -> None:
        """Kill a node: every process of its session (its raylet, workers and agents) at once,
        as a machine that fails would.  A node killed before (and waited for) is left alone:
        its number may be another process's session by now, such as another test's server."""
        if node.returncode is not None:
            return
        for _ in range(2):  # a process started meanwhile goes in the second round
            for name in os.listdir("/proc"):
                if name.isdigit():
                    with contextlib.suppress(OSError):
                        if os.getsid(int(name)) == node.pid:
                            os.kill(int(name), signal.SIGKILL)
        node.wait(timeout=30)

    def stop(self) -> None:
        import_ray().shutdown()
        for node in reversed(self.nodes):
            self.kill(node)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    lock_path = tmp_path_factory.getbasetemp().parent / "ratgames-ray-cluster.lock"
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Ray's socket paths must stay short: a folder right under /tmp.
        folder = Path(tempfile.mkdtemp(prefix="rg-ray-", dir="/tmp"))
        cluster = Cluster(folder)
        try:
            cluster.start(nodes=3)
            yield cluster
        finally:
            cluster.stop()
            shutil.rmtree(folder, ignore_errors=True)
            fcntl.flock(lock, fcntl.LOCK_UN)


def _figures(result: sim.SimResult) -> dict[str, Any]:
    """A run's figures without its timing."""
    return {**result.to_json(), "seconds": 0, "games_per_second": 0}


WHERE = re.compile(r"the Ray cluster at 127\.0\.0\.1:\d+: [23] CPUs on [23] nodes")


def test_simulate_on_the_cluster_plays_the_local_games(cluster: Cluster) -> None:
    config = SimConfig("rat-a-tat-cat", 3, {"mode": "round"}, ("heuristic", "random"), 400, seed=9)
    local = simulate(config, workers=1, keep_games=True)
    reports: list[int] = []
    with RayBackend(cluster.address) as backend:
        assert WHERE.fullmatch(backend.describe())
        on_ray = simulate(config, backend=backend, on_progress=reports.append, keep_games=True)
    assert on_ray.summaries == local.summaries
    assert _figures(on_ray) == _figures(local)
    assert on_ray.first_shares == local.first_shares
    # Progress came chunk by chunk as the games finished, every game once.
    assert sum(reports) == 400 and 1 < len(reports) < 400


def test_a_tournament_on_the_cluster_is_the_local_tournament(cluster: Cluster) -> None:
    bots = ["random", "heuristic", "heuristic:ambition=2"]
    kwargs: dict[str, Any] = {"players": 2, "options": {"single_deal": True}, "seed": 4}
    local = run_tournament("caged-rats", bots, 40, workers=1, **kwargs)
    done: list[int] = []
    with RayBackend(cluster.address) as backend:
        on_ray = run_tournament(
            "caged-rats", bots, 40, backend=backend, on_progress=done.append, **kwargs
        )
    assert on_ray.to_json() == local.to_json()
    assert on_ray.markdown() == local.markdown()
    assert sum(done) == 3 * 40


def test_the_command_line_runs_on_the_cluster_with_clean_output(
    cluster: Cluster,
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "caged-rats", "-g", "100", "-b", "heuristic", "random", "-s", "3"]
    main([*args, "-w", "1", "--json", "local.json"])
    local_out, _ = capfd.readouterr()
    # The command connects on its own (and disconnects), as it does in a shell.
    import_ray().shutdown()
    try:
        main([*args, "--backend", "ray", "--address", cluster.address, "--json", "ray.json"])
    finally:
        cluster.connect()
    out, err = capfd.readouterr()
    untimed = {"seconds": 0, "games_per_second": 0}
    local_figures = json.loads((tmp_path / "local.json").read_text()) | untimed
    assert json.loads((tmp_path / "ray.json").read_text()) | untimed == local_figures

    def results(text: str) -> list[str]:
        return [line for line in text.splitlines() if "games/s" not in line]

    assert results(out) == results(local_out.replace("local.json", "ray.json"))
    # stderr holds the backend's two lines and the progress, none of Ray's own logging.
    lines = err.splitlines()
    assert lines[0] == f"Connecting to the Ray cluster at {cluster.address}..."
    assert WHERE.fullmatch(lines[1].removeprefix("Playing on "))
    assert all(line.startswith("caged-rats simulation: ") for line in lines[2:]), err
    assert lines[-1].startswith("caged-rats simulation: 100/100 games (100%)")


class CrashOnceBot(RandomBot):
    """A random bot whose first move anywhere but in the process ``spare`` kills its own process
    (as the kernel's OOM killer or a failing machine would), once: it leaves a marker first."""

    name = "crash-once"
    params = (
        Option("marker", "", "the file that says the crash has happened"),
        Option("spare", 0, "the process never to kill (the test's own)"),
    )

    def act(self, view: SeatView) -> Any:
        marker, spare = self.settings["marker"], self.settings["spare"]
        if os.getpid() != spare:
            with contextlib.suppress(FileExistsError):
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                os.kill(os.getpid(), signal.SIGKILL)
        return super().act(view)


class SlowBot(RandomBot):
    """A random bot that, anywhere but in the process ``spare``, notes in ``log`` the session
    (the Ray node, here) and seed of each game it starts, then takes ``seconds`` to start it, or
    ten minutes in the session ``hang`` (a node about to fail)."""

    name = "slow"
    params = (
        Option("seconds", 0.0, "how long to think before a game", minimum=0.0),
        Option("log", "", "the file that lists the games started"),
        Option("spare", 0, "the process where it is not slow (the test's own)"),
        Option("hang", 0, "the session where a game never starts"),
    )

    def __init__(self, game: Any, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seed=seed, **params)
        self.seed = seed

    def new_game(self, seat: int) -> None:
        if os.getpid() != self.settings["spare"]:
            with open(self.settings["log"], "a") as log:
                log.write(f"{os.getsid(0)} {self.seed}\n")
            hangs = os.getsid(0) == self.settings["hang"]
            time.sleep(600 if hangs else self.settings["seconds"])


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two bots above, registered for one test; the backend sends them to the workers."""
    # Workers cannot import this test module: its classes travel by value.
    import_ray().cloudpickle.register_pickle_by_value(sys.modules[__name__])
    for cls in (CrashOnceBot, SlowBot):
        entry = bot_registry.BotEntry(cls.name, cls, "for the Ray tests", None)
        monkeypatch.setitem(bot_registry._BOTS, (None, cls.name), entry)


def test_a_killed_worker_process_has_its_games_played_again_and_counted_once(
    cluster: Cluster, test_bots: None, tmp_path: Path
) -> None:
    marker = tmp_path / "crashed"
    crashing = f"crash-once:marker={marker},spare={os.getpid()}"
    config = SimConfig("caged-rats", 2, {"single_deal": True}, (crashing, "random"), 300, seed=2)
    reports: list[int] = []
    with RayBackend(cluster.address) as backend:
        on_ray = simulate(config, backend=backend, on_progress=reports.append, keep_games=True)
    assert marker.exists(), "a worker process was killed mid-chunk"
    local = simulate(config, workers=1, keep_games=True)
    assert on_ray.games == sum(reports) == 300
    assert on_ray.summaries == local.summaries
    assert _figures(on_ray) == _figures(local)


def test_a_node_that_dies_mid_run_has_its_games_played_elsewhere(
    cluster: Cluster, test_bots: None, tmp_path: Path
) -> None:
    victim = cluster.nodes[-1]
    log = tmp_path / "started"
    log.touch()
    # Games slow enough that every node is needed (the victim too) while the run is young.
    slow = f"slow:seconds=0.05,log={log},spare={os.getpid()},hang={victim.pid}"
    config = SimConfig("caged-rats", 2, {"single_deal": True}, (slow, "random"), 150, seed=5)
    stop = threading.Event()

    def kill_the_victim_once_it_plays() -> None:
        # The node dies in the middle of a chunk: its first game there never ends.
        while not stop.wait(0.05):
            if f"{victim.pid} " in log.read_text():
                Cluster.kill(victim)
                return

    killer = threading.Thread(target=kill_the_victim_once_it_plays)
    killer.start()
    reports: list[int] = []
    try:
        with RayBackend(cluster.address) as backend:
            on_ray = simulate(config, backend=backend, on_progress=reports.append, keep_games=True)
    finally:
        stop.set()
        killer.join()
    starts: dict[str, set[int]] = {}
    for line in log.read_text().splitlines():
        node, seed = line.split()
        starts.setdefault(seed, set()).add(int(node))
    lost = {seed for seed, nodes in starts.items() if victim.pid in nodes}
    assert lost and victim.returncode is not None, "the node was killed while it played"
    assert all(starts[seed] - {victim.pid} for seed in lost), "its games were played elsewhere"
    local = simulate(config, workers=1, keep_games=True)
    assert on_ray.summaries == local.summaries
    assert _figures(on_ray) == _figures(local)
    assert sum(reports) == 150


class BrokenBot(RandomBot):
    """A bot with a bug: it fails on its first move."""

    name = "broken"

    def act(self, view: SeatView) -> Any:
        raise ArithmeticError("the bot's own bug")


def test_an_error_in_a_game_stops_the_run_as_it_would_locally(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_ray().cloudpickle.register_pickle_by_value(sys.modules[__name__])
    entry = bot_registry.BotEntry("broken", BrokenBot, "for the Ray tests", None)
    monkeypatch.setitem(bot_registry._BOTS, (None, "broken"), entry)
    config = SimConfig("caged-rats", 2, {}, ("broken", "random"), 20)
    with pytest.raises(ArithmeticError, match="the bot's own bug"):
        simulate(config, workers=1)
    with RayBackend(cluster.address) as backend, pytest.raises(ArithmeticError, match="own bug"):
        simulate(config, backend=backend)


# Without a cluster: the seam, and the errors a user can meet.


def test_a_run_stopped_on_the_cluster_goes_on_there_from_its_checkpoint(
    cluster: Cluster, tmp_path: Path
) -> None:
    # After the tests that kill workers and a node: stopping the run cancels its tasks by
    # killing their worker processes, which would keep the victim node busy restarting them.
    config = SimConfig("caged-rats", 2, {"single_deal": True}, ("heuristic", "random"), 300, seed=2)
    local = simulate(config, workers=1)
    checkpoint = RunCheckpoint.open(tmp_path / "run.ckpt", "simulate", [config])

    def stop(k: int) -> None:
        raise KeyboardInterrupt  # Ctrl-C as the first chunk comes in

    with RayBackend(cluster.address) as backend, pytest.raises(KeyboardInterrupt):
        simulate(
            config,
            backend=backend,
            on_progress=stop,
            checkpoint=lambda r: checkpoint.save(config, r),
        )
    again = RunCheckpoint.open(tmp_path / "run.ckpt", "simulate", [config])
    start = again.start(config)
    assert start is not None and start.games < config.games
    done = start.games
    played: list[int] = []
    with RayBackend(cluster.address) as backend:
        resumed = simulate(config, backend=backend, start=start, on_progress=played.append)
    assert sum(played) == config.games - done
    assert _figures(resumed) == _figures(local)
    assert resumed.first_shares == local.first_shares


class TwiceOutOfOrder:
    """A backend that hands in every chunk twice, the last chunks first."""

    def play(self, config: SimConfig, receive: Any) -> None:
        chunks = [(start, min(config.games, start + 7)) for start in range(0, config.games, 7)]
        for start, stop in reversed(chunks):
            part = [sim.play_one(config, i) for i in range(start, stop)]
            receive(start, part)
            receive(start, list(part))


def test_chunks_are_counted_in_game_order_and_each_once() -> None:
    config = SimConfig("caged-rats", 2, {"single_deal": True}, ("heuristic", "random"), 50, seed=1)
    reports: list[int] = []
    twice = simulate(config, backend=TwiceOutOfOrder(), on_progress=reports.append, keep_games=True)
    local = simulate(config, workers=1, keep_games=True)
    assert twice.summaries == local.summaries
    assert _figures(twice) == _figures(local)
    assert sum(reports) == 50


class Short:
    def play(self, config: SimConfig, receive: Any) -> None:
        receive(0, [sim.play_one(config, 0)])


def test_a_backend_that_loses_games_is_an_error() -> None:
    config = SimConfig("caged-rats", 2, {}, ("random",), 3)
    with pytest.raises(RuntimeError, match="played 1 of 3 games"):
        simulate(config, backend=Short())


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def test_backend_mistakes_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, "simulate", "rats", "-g", "5", "--address", "auto")
    assert code == 2 and "--address is the Ray cluster to use: give it with --backend ray" in err
    code, err = _run(capsys, "tournament", "rats", "-b", "random", "heuristic", "--backend", "dask")
    assert code == 2 and "'dask' is not one of 'local', 'ray'" in err
    code, err = _run(
        capsys, "simulate", "rats", "--backend", "ray", "--address", "127.0.0.1:1", "-w", "2"
    )
    assert code == 2 and "a Ray cluster (--address or RAY_ADDRESS) uses all its CPUs" in err
    code, err = _run(capsys, "simulate", "rats", "--backend", "ray", "--address", "cluster")
    assert code == 2 and "the Ray address 'cluster' is not HOST:PORT" in err
    port = _free_port()  # nothing listens there
    code, err = _run(capsys, "simulate", "rats", "--backend", "ray", "--address", f":{port}")
    assert code == 2 and "is not HOST:PORT" in err
    code, err = _run(capsys, "simulate", "rats", "--backend", "ray", "--address", f"[::1]:{port}")
    assert code == 2 and f"nothing answers at the Ray address [::1]:{port}" in err
    code, err = _run(
        capsys, "simulate", "rats", "--backend", "ray", "--address", f"127.0.0.1:{port}"
    )
    assert code == 2 and f"nothing answers at the Ray address 127.0.0.1:{port}" in err
    assert "Traceback" not in err


def test_without_ray_installed_the_error_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    code, err = _run(capsys, "simulate", "rats", "-g", "5", "--backend", "ray")
    assert code == 2
    assert "the ray backend needs Ray, which is not installed: install ratgames[ray]" in err
    # The local backend does not need it.
    code, err = _run(capsys, "simulate", "caged-rats", "-g", "5", "-w", "1")
    assert code == 0


def test_the_backend_must_be_opened_and_takes_an_address_or_cpus() -> None:
    with pytest.raises(ValueError, match="give an address or cpus, not both"):
        RayBackend("auto", cpus=2)
    with pytest.raises(RuntimeError, match="open the backend first"):
        RayBackend().cluster_cpus()
    config = SimConfig("caged-rats", 2, {}, ("random",), 3)
    with pytest.raises(RuntimeError, match="open the backend first"):
        RayBackend().play(config, lambda start, part: None)
