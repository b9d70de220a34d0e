"""Fair slaps over a network: with one client 20 ms away and another 150 ms away (each way),
the player who reacted faster wins the race, whatever the latency; a client that holds its pongs
back and claims fast reactions wins no more races than an honest one; and a press that comes
sooner than anyone can react after the pile changed on a screen is judged at the pile before
(too late, not a bad slap)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ratgames.server import fairness
from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.server.fairness import (
    CLAIM_SLACK,
    MIN_REACTION,
    TRANSPORT_SLACK,
    Clock,
    reaction_credit,
)

from .conftest import Running, run
from .helpers import FAST_ER_BOT, connect, create

SIMULATED_RTT: dict[int, float] = {}
"""The round trip (seconds) of the network each test client simulates, by its local port."""


@pytest.fixture
def simulated_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, float]]:
    """The clients here simulate their latency in the program (they hold their messages back),
    so the kernel of this machine measures a loopback round trip for all of them: the server's
    transport measure is replaced by the network the clients simulate (``SIMULATED_RTT``, by
    client port; a client not listed is on the loopback)."""

    def probe(ws: Any) -> Callable[[], float | None]:
        port = ws.client.port if ws.client is not None else -1
        return lambda: SIMULATED_RTT.get(port, 0.0005)

    SIMULATED_RTT.clear()
    monkeypatch.setattr(fairness, "transport_probe", probe)
    yield SIMULATED_RTT
    SIMULATED_RTT.clear()


def simulate(client: TableClient) -> None:
    """Tell the simulated network the round trip of a connected client (2 x its latency)."""
    ws = client._ws
    assert ws is not None
    SIMULATED_RTT[ws.local_address[1]] = 2 * client.latency


RACES = 40
ALL_SLAPS = {
    "top_bottom": True,
    "tens": True,
    "marriage": True,
    "divorce": True,
    "run": True,
    "max_cards": 2000,
    "burn": 0,
}
"""Every slap rule on, so that races come often."""


def _valid_slap(event: dict[str, Any]) -> bool:
    """A slap that took the pile (the game's event ``slap``)."""
    return event.get("kind") == "slap" and event.get("result", "valid") == "valid"


async def racer(
    client: TableClient,
    plan: dict[int, tuple[float, float]],
    me: int,
    rng: random.Random,
    done: asyncio.Event,
) -> None:
    """Play when it is our turn and the pile cannot be slapped; slap every slappable pile after
    the reaction the plan gives us (from when this client saw it)."""
    slapped: set[int] = set()
    last = -1
    tasks: set[asyncio.Task[Any]] = set()

    async def slap(version: int, seen: float, reaction: float) -> None:
        await asyncio.sleep(reaction / 1000.0)
        with contextlib.suppress(ClientError):
            await client.act(f"slap@{version}", pressed_at=seen + reaction, seen_at=seen)

    while not done.is_set() and not client.over:
        await client.wait(
            lambda c, n=last: (
                c.over  # type: ignore[misc]
                or done.is_set()
                or (c.state is not None and c.state["seq"] != n)
            ),
            60,
        )
        if client.over or done.is_set():
            break
        state = client.state
        assert state is not None
        last = state["seq"]
        obs = state["observation"]
        version = obs["pile_version"]
        if obs["slappable"] and version not in slapped and f"slap@{version}" in state["legal"]:
            slapped.add(version)
            if version not in plan:
                fast = rng.randrange(2)
                base = rng.uniform(150.0, 300.0)
                gap = rng.uniform(60.0, 120.0)
                plan[version] = (base, base + gap) if fast == 0 else (base + gap, base)
            task = asyncio.create_task(slap(version, client.seen_at[last], plan[version][me]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        elif not obs["slappable"]:
            moves = [a for a in state["legal"] if not a.startswith("slap")]
            if moves:
                with contextlib.suppress(ClientError):
                    await client.act(moves[0])
    for task in tasks:
        task.cancel()


async def race_table(server: Running, seed: int) -> list[tuple[int, int]]:
    """One game between a 20 ms and a 150 ms client that race for every slappable pile, with
    reactions 60-120 ms apart: (the faster reactor's seat, the winner's seat) for each race,
    until RACES races or the end of the game."""
    created = await create(
        server.base,
        "egyptian-ratscrew",
        [{"kind": "open"}, {"kind": "open"}],
        options=ALL_SLAPS,
    )
    code = created["table"]["code"]
    joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Far"})
    near = await connect(server.base, created, latency=0.020)
    far = TableClient(server.base, code, joined["token"], latency=0.150)
    await far.connect()
    simulate(near)
    simulate(far)
    await asyncio.sleep(1.2)  # a few pings: the server measures both connections
    winners: dict[int, int] = {}
    """The seat that won the race for each pile version."""
    done = asyncio.Event()
    version = [0]

    def watch(msg: dict[str, Any]) -> None:
        if msg["type"] == "state":
            for item in msg["events"]:
                if _valid_slap(item["event"]):
                    winners[version[0]] = item["event"]["seat"]
                    if len(winners) >= RACES:
                        done.set()
            version[0] = msg["observation"]["pile_version"]

    near.on_message = watch
    near.host("start")
    plan: dict[int, tuple[float, float]] = {}
    await asyncio.gather(
        racer(near, plan, 0, random.Random(2 * seed + 1), done),
        racer(far, plan, 1, random.Random(2 * seed + 2), done),
    )
    await near.close()
    await far.close()
    return [(0 if plan[v][0] < plan[v][1] else 1, winners[v]) for v in plan if v in winners]


def test_the_faster_reactor_wins_despite_latency(
    server: Running, simulated_network: dict[int, float]
) -> None:
    async def main() -> None:
        # A game may end before RACES races (a player runs out of cards): play more tables.
        pairs: list[tuple[int, int]] = []
        tables = 0
        while len(pairs) < RACES and tables < 6:
            pairs += await race_table(server, tables)
            tables += 1
        assert len(pairs) >= RACES, (tables, pairs)
        right = sum(1 for f, w in pairs if f == w)
        assert right >= 0.95 * len(pairs), (right, len(pairs), pairs)
        # the far client was the faster one in many races, and won them
        assert sum(1 for f, w in pairs if f == w == 1) >= 3

    run(main(), timeout=300)


# --- a client that cheats against the expert bot --------------------------------------------------

REACTION = 0.250
"""The real reaction of the clients racing the expert bot (which slaps in 150 ms)."""


class CheatingClient(TableClient):
    """A modified client: it answers every ping 550 ms late with a made-up clock (to look far
    away), and says of every slap that it was pressed the moment the pile was shown."""

    pong_delay = 0.550

    def _receive(self, text: str) -> None:
        msg = json.loads(text)
        if msg.get("type") == "ping":
            pong = {"type": "pong", "v": 1, "id": msg["id"], "client_time": self.clock() + 9e5}
            asyncio.get_running_loop().call_later(self.pong_delay, self._queue_out, pong)
            return
        super()._receive(text)


async def races_against_the_bot(
    server: Running, make: Callable[[str, str, str], TableClient], cheat: bool, wanted: int
) -> tuple[int, int]:
    """Games of one client against the expert bot, the client slapping every slappable pile
    ``REACTION`` after it showed it: (races run, races the client won)."""
    races = wins = 0
    for _ in range(4):
        if races >= wanted:
            break
        created = await create(
            server.base,
            "egyptian-ratscrew",
            [{"kind": "open"}, {"kind": "bot", "bot": FAST_ER_BOT}],
            options=ALL_SLAPS,
        )
        client = make(server.base, created["table"]["code"], created["token"])
        client.host_token = created["host_token"]
        await client.connect()
        await asyncio.sleep(1.2)  # pings: the server measures the connection
        slapped: set[int] = set()
        winners: dict[int, int] = {}
        version = [0]
        appeared: dict[int, float] = {}

        def watch(
            msg: dict[str, Any],
            winners: dict[int, int] = winners,
            version: list[int] = version,
            appeared: dict[int, float] = appeared,
        ) -> None:
            if msg["type"] == "state":
                for item in msg["events"]:
                    # A pile taken sooner than the bot reacts was taken by a slap at an older
                    # pile that landed on it (a slap is valid at any slappable pile): no race.
                    quick = time.monotonic() - appeared.get(version[0], 0.0) < 0.12
                    if _valid_slap(item["event"]) and not quick:
                        winners[version[0]] = item["event"]["seat"]
                version[0] = msg["observation"]["pile_version"]
                appeared.setdefault(version[0], time.monotonic())

        client.on_message = watch
        client.host("start")
        tasks: set[asyncio.Task[Any]] = set()

        async def slap(v: int, seen: float, client: TableClient = client) -> None:
            await asyncio.sleep(REACTION)
            state = client.state
            if state is None or state["observation"]["pile_version"] != v:
                return  # the pile changed meanwhile: this press would land on another one
            pressed = seen if cheat else seen + REACTION * 1000.0
            with contextlib.suppress(ClientError):
                await client.act(f"slap@{v}", pressed_at=pressed, seen_at=seen)

        last = -1
        while not client.over and len(slapped) + races < wanted:
            await client.wait(
                lambda c, n=last: c.over or (c.state is not None and c.state["seq"] != n), 60
            )
            if client.over:
                break
            state = client.state
            assert state is not None
            last = state["seq"]
            obs = state["observation"]
            v = obs["pile_version"]
            if obs["slappable"] and v not in slapped and f"slap@{v}" in state["legal"]:
                slapped.add(v)
                task = asyncio.create_task(slap(v, client.seen_at[last]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            elif not obs["slappable"] and "play" in state["legal"]:
                with contextlib.suppress(ClientError):
                    await client.act("play")
            elif not obs["slappable"] and "collect" in state["legal"]:
                with contextlib.suppress(ClientError):
                    await client.act("collect")
        await asyncio.sleep(REACTION + 0.8)  # the last race settles
        for task in tasks:
            task.cancel()
        await client.close()
        decided = [v for v in slapped if v in winners]
        races += len(decided)
        wins += sum(1 for v in decided if winners[v] == 0)
    return races, wins


def test_holding_pongs_back_and_claiming_fast_reactions_wins_nothing(server: Running) -> None:
    """The expert bot reacts in 150 ms, both clients in 250 ms: the honest client loses every
    race, and so does the cheat (before the transport bound and the floor, the cheat won all)."""

    def honest(base: str, code: str, token: str) -> TableClient:
        return TableClient(base, code, token)

    def cheating(base: str, code: str, token: str) -> TableClient:
        return CheatingClient(base, code, token)

    async def main() -> None:
        races, honest_wins = await races_against_the_bot(server, honest, False, 12)
        assert races >= 12, races
        races, cheat_wins = await races_against_the_bot(server, cheating, True, 12)
        assert races >= 12, races
        assert cheat_wins <= honest_wins, (cheat_wins, honest_wins)
        # the cheat's pongs did make it look far away: only the bound stopped it
        conns = [c for c in server.lobby.conns]
        assert all(c.clock.rtt is None or c.clock.credited_rtt() <= 0.1 for c in conns)

    run(main(), timeout=240)


# --- presses that come too soon after the pile changed -------------------------------------------


def sent_on(server: Running, code: str, seat: int, seq: int) -> float | None:
    """When the server wrote the state of ``seq`` to the connection of ``seat`` at table
    ``code`` (ms on this process's monotonic clock, the clients' clock), or None."""
    table = server.lobby.tables.get(code)
    if table is None:
        return None
    for conn in list(table.conns):
        if conn.seat == seat and seq in conn.sent_at:
            return conn.sent_at[seq] * 1000.0
    return None


async def quick_presses(
    server: Running, trials: list[tuple[int, bool]], rng: random.Random
) -> list[tuple[int, bool, str, int]]:
    """One game of two clients: at each slappable pile one of them (at random) takes it, or
    covers it when it is their turn; the other presses the next of ``trials`` (delay in ms,
    whether the client sends its times) after the new pile reached their screen, naming it.
    Returns (delay, timed, the presser's verdict event kind, cards burned) per trial run."""
    options = {**ALL_SLAPS, "burn": 1}
    created = await create(
        server.base, "egyptian-ratscrew", [{"kind": "open"}, {"kind": "open"}], options=options
    )
    code = created["table"]["code"]
    joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bob"})
    ann = await connect(server.base, created)
    bob = TableClient(server.base, code, joined["token"])
    await bob.connect()
    await asyncio.sleep(0.8)
    players = [ann, bob]
    verdicts: dict[int, tuple[str, int]] = {}
    current: list[tuple[int, int]] = []
    """(trial, presser seat) of the trial under way."""

    def watch(msg: dict[str, Any]) -> None:
        if msg["type"] != "state" or not current:
            return
        t, presser = current[0]
        for item in msg["events"]:
            e = item["event"]
            if e.get("seat") == presser and e["kind"] in ("late_slap", "bad_slap", "slap"):
                verdicts.setdefault(t, (e["kind"], int(e.get("burned", 0))))

    ann.on_message = watch
    ann.host("start")
    done = 0
    while done < len(trials):
        await ann.wait(
            lambda c: c.state is not None and (c.over or any(p.legal for p in players)), 30
        )
        state = ann.state
        assert state is not None
        if ann.over:
            break
        obs = state["observation"]
        version = obs["pile_version"]
        if obs["slappable"]:
            seq = state["seq"]
            for c in players:
                await c.wait(lambda c, s=seq: c.state is not None and c.state["seq"] >= s)
            taker = rng.randrange(2)
            presser = players[1 - taker]
            tstate = players[taker].state
            assert tstate is not None
            cover = "play" in tstate["legal"] and rng.random() < 0.5
            await asyncio.sleep(0.15)  # the taker's own reaction: the pile is seen a while
            try:
                await players[taker].act("play" if cover else f"slap@{version}")
            except ClientError:
                # Refused (the pile moved on meanwhile, or the taker pressed too often):
                # no new pile from this one, look again.
                await asyncio.sleep(0.5)
                continue
            try:
                await presser.wait(
                    lambda c, v=version: (
                        c.over
                        or (c.state is not None and c.state["observation"]["pile_version"] > v)
                    )
                )
            except TimeoutError:
                continue  # the new pile never reached the presser: no trial here
            pstate = presser.state
            assert pstate is not None
            pobs = pstate["observation"]
            if presser.over or pobs["slappable"] or pobs["pile_version"] != version + 1:
                continue  # the new pile can be slapped too: no trial here
            if f"slap@{version + 1}" not in pstate["legal"]:
                continue  # the presser may not slap (out of cards, waiting for a pile)
            seen = presser.seen_at[pstate["seq"]]
            d, timed = trials[done]
            current[:] = [(done, 1 - taker)]
            await asyncio.sleep(d / 1000.0)
            times = {"pressed_at": seen + d, "seen_at": seen} if timed else {}
            try:
                await presser.act(f"slap@{version + 1}", **times)
            except ClientError as exc:
                if "over" in exc.message:
                    break
                raise
            answered = presser.clock()
            await ann.wait(lambda c, t=done: t in verdicts or c.over, 10)
            # The server and the clients share this process's monotonic clock: when the new
            # pile went out on the presser's connection, by the server's own record.
            went = sent_on(server, code, 1 - taker, pstate["seq"])
            if not timed and (went is None or answered - went > d + 80):  # ms
                # No times sent: the server judges by the time from sending the pile to the
                # press arriving, and this round trip took long (a busy machine held the pile
                # or the press up somewhere, before the client saw it or after it pressed):
                # no trial of a quick press, do it again (and take no later event of this
                # player's, such as a slap of theirs as the next taker, for its verdict).
                verdicts.pop(done, None)
                current.clear()
                continue
            done += 1
            continue
        for c in players:
            legal = c.legal
            move = "collect" if "collect" in legal else "play" if "play" in legal else None
            if move is not None:
                with contextlib.suppress(ClientError):
                    await c.act(move)
                break
        else:
            await asyncio.sleep(0.01)
    await ann.close()
    await bob.close()
    return [(*trials[t], *verdicts[t]) for t in sorted(verdicts)]


def test_a_press_too_soon_after_the_pile_changed_is_judged_at_the_pile_before(
    server: Running,
) -> None:
    """One player takes (or covers) a slappable pile; the other presses 0, 20, 50, 90 or 150 ms
    after the new pile reached their screen, naming the pile they saw.  Nobody reacts in under
    100 ms, so the first four are aimed at the pile before, which was slappable and is gone:
    too late, no card lost.  At 150 ms the presser could have seen the new pile: a bad slap,
    one card burned.  A client that sends no times is judged by the server's own measure."""
    trials = [(d, True) for d in (0, 20, 50, 90, 150)] * 2 + [(0, False), (150, False)]

    async def main() -> None:
        rng = random.Random(5)
        results: list[tuple[int, bool, str, int]] = []
        for _ in range(6):
            if len(results) >= len(trials):
                break
            results += await quick_presses(server, trials[len(results) :], rng)
        assert len(results) == len(trials), results
        for d, timed, kind, burned in results:
            want = ("late_slap", 0) if d < 100 else ("bad_slap", 1)
            assert (kind, burned) == want, (d, timed, results)

    run(main(), timeout=180)


# --- the bounds ---------------------------------------------------------------------------------


def test_credit_is_bounded() -> None:
    """No credit comes sooner than the minimum reaction after the state was shown, whatever the
    client claims or however early its action arrived; a claim may move a reaction only a
    little below what the arrival shows; latency cancels out."""
    common = {"shown": 10.0, "offset": None}
    # a 40 ms reaction claimed, the arrival showing 480 ms: only CLAIM_SLACK is forgiven
    credit = reaction_credit(
        sent=10.0, rtt=0.02, arrival=10.5, pressed_at=5.04, seen_at=5.0, **common
    )
    assert abs(credit - (10.0 + 0.48 - CLAIM_SLACK)) < 1e-9
    # an action arriving 30 ms after the state went out, claiming 20 ms: the floor holds
    credit = reaction_credit(
        sent=10.0, rtt=0.01, arrival=10.03, pressed_at=5.02, seen_at=5.0, **common
    )
    assert abs(credit - (10.0 + MIN_REACTION)) < 1e-9
    # a round trip larger than the time the action took to come back: still the floor
    credit = reaction_credit(
        sent=10.0, rtt=0.6, arrival=10.25, pressed_at=None, seen_at=None, **common
    )
    assert abs(credit - (10.0 + MIN_REACTION)) < 1e-9
    # the same 250 ms reaction over a near and a far connection gets the same credit
    near = reaction_credit(
        sent=10.0, rtt=0.04, arrival=10.29, pressed_at=1.25, seen_at=1.0, **common
    )
    far = reaction_credit(sent=10.0, rtt=0.3, arrival=10.55, pressed_at=7.25, seen_at=7.0, **common)
    assert abs(near - far) < 1e-9 and abs(near - 10.25) < 1e-9
    # without client times: the arrival less the round trip
    credit = reaction_credit(
        sent=10.0, rtt=0.3, arrival=10.7, pressed_at=None, seen_at=None, **common
    )
    assert abs(credit - (10.0 + 0.4)) < 1e-9


def test_a_late_pong_does_not_make_a_connection_look_farther() -> None:
    """Pongs held back 550 ms: the round trip the server makes up for stays within its own
    measure of the connection (plus a little), or the configured maximum without one."""
    clock = Clock()
    clock.probe = lambda: 0.004
    for i in range(8):
        clock.sample(float(i), float(i) + 0.55, 0.0)
    assert clock.rtt is not None and clock.rtt > 0.5
    assert abs(clock.credited_rtt() - (0.004 + TRANSPORT_SLACK)) < 1e-9
    # a reading the kernel cannot give yet (no segment timed) keeps the last one
    clock.probe = lambda: None
    clock.sample(9.0, 9.55, 0.0)
    assert clock.transport == 0.004
    blind = Clock(max_rtt=0.2)
    blind.sample(0.0, 0.55, 0.0)
    assert blind.credited_rtt() == 0.2
    honest = Clock()
    honest.probe = lambda: 0.150
    honest.sample(0.0, 0.160, 0.0)
    assert abs(honest.credited_rtt() - 0.160) < 1e-9


def test_the_terminal_client_sends_when_it_showed_the_pile_it_slaps() -> None:
    """``ratgames join``: the panel names the pile that was on the screen 100 ms before the
    key press (maybe not the latest); the client sends the moment that pile was shown, not the
    moment of the latest state (which would claim a reaction far quicker than the real one)."""
    from ratgames.server.remote_tui import RemoteApp

    info = {"game": "egyptian-ratscrew", "players": 2, "options": {}}
    app = RemoteApp("http://127.0.0.1:9", "ABCD", info, seat=0, token=None)
    shown = {3: (7, 1000.0), 4: (7, 1040.0), 5: (8, 1300.0)}
    """seq: (pile version, when the state came)"""
    for seq, (version, at) in shown.items():
        app.client.seen_at[seq] = at
        app.note_race({"type": "state", "seq": seq, "race_version": version})
    app.client.state = {"seq": 5, "race_version": 8}
    assert app.seen_for("slap@7") == 1000.0  # the first state that showed pile 7
    assert app.seen_for("slap@8") == 1300.0
    assert app.seen_for("play") == 1300.0


def test_late_pongs_do_not_hold_races_open() -> None:
    """A race waits for the longest round trip at the table as the server bounds it: a client
    answering pings 550 ms late on a near connection keeps a race open about 60 ms, not 600."""
    from types import SimpleNamespace

    from ratgames.server.fairness import MARGIN, Offer, RaceDesk

    cheat = Clock()
    cheat.probe = lambda: 0.004
    for i in range(4):
        cheat.sample(float(i), float(i) + 0.55, 0.0)
    honest = Clock()
    honest.probe = lambda: 0.02
    honest.sample(0.0, 0.021, 0.0)
    seats = [
        SimpleNamespace(kind="person", conn=SimpleNamespace(clock=c), away_bot=None)
        for c in (cheat, honest)
    ]
    desk = RaceDesk(SimpleNamespace(seats=seats))  # type: ignore[arg-type]
    desk.first_arrival = 100.0
    desk.pending.append(Offer(0, "slap@3", 100.0, 100.0, 1, None, None))
    end = desk._window_end()
    assert abs(end - (100.0 + 0.004 + TRANSPORT_SLACK + MARGIN)) < 1e-9, end


def test_the_round_trip_bounds_follow_the_settings(db_url: str) -> None:
    """By default each connection's round trip is bounded by the kernel's TCP measure (read on
    this machine's loopback: a few ms); ``--rtt-from-pings`` (behind a reverse proxy) drops
    that bound and keeps ``--max-rtt-ms`` alone."""
    from ratgames.server.tables import Settings

    from .conftest import start_server

    async def clocks(server: Running) -> list[Clock]:
        created = await create(
            server.base, "egyptian-ratscrew", [{"kind": "open"}, {"kind": "open"}]
        )
        client = await connect(server.base, created)
        await client.wait(lambda c: c.rtt_ms is not None, 30)
        found = [c.clock for c in server.lobby.conns]
        for _ in range(200):  # the server has taken a few samples (read in its own thread)
            if found and all(len(c.samples) >= 3 for c in found):
                break
            await asyncio.sleep(0.05)
            found = [c.clock for c in server.lobby.conns]
        await client.close()
        return found

    default = start_server(db_url)
    try:
        found = run(clocks(default))
        assert len(found) == 1, found
        clock = found[0]
        assert clock.probe is not None and clock.max_rtt == 0.3
        assert clock.transport is not None and 0 < clock.transport < 0.25, clock.transport
        assert clock.rtt_limit() == min(0.3, clock.transport + TRANSPORT_SLACK)
    finally:
        default.stop()
    proxied = start_server(
        db_url,
        Settings(
            bot_pause=0.0, ping_interval=0.5, warm_pool=False, max_rtt=0.2, transport_rtt=False
        ),
    )
    try:
        found = run(clocks(proxied))
        assert len(found) == 1, found
        clock = found[0]
        assert clock.probe is None and clock.transport is None
        assert clock.rtt_limit() == 0.2
    finally:
        proxied.stop()


def test_the_kernel_round_trip_is_read_from_any_event_loop_transport() -> None:
    """The server's own measure of a connection is read through whatever transport the event
    loop gives (uvloop's are not asyncio's classes): were it not found, a client holding its
    pongs back would be bounded by nothing."""
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    served, _ = listener.accept()

    class OtherLoopsTransport:  # the methods a transport has, but not asyncio's class
        def get_extra_info(self, name: str) -> Any:
            return served if name == "socket" else None

        def is_closing(self) -> bool:
            return False

    class Protocol:
        transport = OtherLoopsTransport()

        async def send(self, message: Any) -> None:
            pass

    class WebSocket:
        _send = Protocol().send

    try:
        client.sendall(b"x")
        served.recv(1)
        served.sendall(b"y")
        client.recv(1)
        probe = fairness.transport_probe(WebSocket())
        assert probe is not None
        rtt = probe()
        assert rtt is not None and 0 < rtt < 1
    finally:
        for sock in (client, served, listener):
            sock.close()
