"""The command-line side: ``ratgames join`` (the Textual client), ``ratgames bot`` (a bot
process at a remote table), ``ratgames db upgrade`` and ``ratgames export``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ratgames
from ratgames.cli import app as cli_app
from ratgames.server import store
from ratgames.server.client import ClientError, TableClient, ahttp_json
from ratgames.server.remote_bot import play_remote
from ratgames.server.remote_tui import RemoteApp

from .conftest import Running, run
from .helpers import connect, create, play_out


def test_a_remote_bot_plays_a_seat(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "rat-a-tat-cat", [{"kind": "open"}, {"kind": "open"}])
        code = created["table"]["code"]
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bot"})
        host = await connect(server.base, created)
        game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "rounds=2"})
        remote = asyncio.create_task(
            play_remote(server.base, code, joined["token"], game, "heuristic", seed=3)
        )
        await host.wait(lambda c: c.table is not None and c.table["seats"][1]["connected"])
        host.host("start")
        await play_out(host, random.Random(2))
        outcome = await asyncio.wait_for(remote, 30)
        assert outcome == host.state["outcome"]  # type: ignore[index]
        record = await ahttp_json(server.base, f"/api/records/{host.state['record_id']}")  # type: ignore[index]
        assert any(e.get("seat") == 1 for e in record["events"] if "action" in e)
        await host.close()

    run(main())


def test_a_remote_search_bot_plays_with_the_servers_samples(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ratgames bot CODE --bot ismcts``: a search bot asks the server for an honest sample
    each turn it thinks, restores it, and searches from it."""
    asked: list[int] = []
    fetch = TableClient.sample

    async def counting(self: TableClient, timeout: float = 15.0) -> dict[str, Any]:
        answer = await fetch(self, timeout)
        asked.append(answer["seq"])
        return answer

    monkeypatch.setattr(TableClient, "sample", counting)

    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        code = created["table"]["code"]
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Searcher"})
        host = await connect(server.base, created)
        game = ratgames.get_game("caged-rats", options={"single_deal": True})
        remote = asyncio.create_task(
            play_remote(server.base, code, joined["token"], game, "ismcts:iterations=40", seed=3)
        )
        await host.wait(lambda c: c.table is not None and c.table["seats"][1]["connected"])
        host.host("start")
        await play_out(host, random.Random(2))
        outcome = await asyncio.wait_for(remote, 60)
        assert outcome == host.state["outcome"]  # type: ignore[index]
        record = await ahttp_json(server.base, f"/api/records/{host.state['record_id']}")  # type: ignore[index]
        moves = [e for e in record["events"] if "action" in e and e.get("seat") == 1]
        assert moves
        await host.close()

    run(main(), timeout=120)
    assert len(asked) >= 3, "the search bot never asked for samples"
    assert len(set(asked)) == len(asked), "one sample is asked once per position"


def test_join_app_plays_through_the_server(server: Running) -> None:
    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "bot"}])
        code = created["table"]["code"]
        host = TableClient(server.base, code, None, created["host_token"])  # hosts, no seat
        await host.connect()
        info = await ahttp_json(server.base, f"/api/tables/{code}")
        joined_app = RemoteApp(server.base, code, info, seat=0, token=created["token"])
        async with joined_app.run_test() as pilot:
            host.host("start")
            for _ in range(100):
                await pilot.pause(0.05)
                state = joined_app.client.state
                if state is not None and state["legal"]:
                    break
            state = joined_app.client.state
            assert state is not None and state["legal"], joined_app.client.errors
            panel = joined_app.panel
            assert panel is not None and getattr(panel, "obs", None) == state["observation"]
            seq = state["seq"]
            joined_app.submit(joined_app.game.parse_action(state["legal"][0]))
            for _ in range(100):
                await pilot.pause(0.05)
                if joined_app.client.acked > seq:
                    break
            assert joined_app.client.acked > seq
            await joined_app.client.close()
        await host.close()

    run(main())


def test_db_upgrade_and_export(server: Running, tmp_path: Path) -> None:
    runner = CliRunner()
    fresh = tmp_path / "fresh.db"
    result = runner.invoke(cli_app, ["db", "upgrade", "--db", str(fresh)])
    assert result.exit_code == 0, result.output
    assert "upgraded from nothing to 0003" in result.output
    result = runner.invoke(cli_app, ["db", "upgrade", "--db", str(fresh)])
    assert "already at revision 0003" in result.output

    async def game() -> None:
        created = await create(
            server.base,
            "caged-rats",
            [{"kind": "open"}, {"kind": "bot"}],
        )
        client = await connect(server.base, created)
        client.host("start")
        await play_out(client, random.Random(9))
        await client.wait(lambda c: c.state is not None and c.state["record_id"] is not None)
        await client.close()

    run(game())
    out = tmp_path / "export"
    result = runner.invoke(cli_app, ["export", "--db", server.url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.json"))
    assert len(files) == 1 and "1 record written" in result.output
    record = json.loads(files[0].read_text())
    assert ratgames.replay(record).is_over()
    engine = store.make_engine(server.url)
    assert store.current_revision(engine) == "0003"
    engine.dispose()


def test_serve_checks_its_database_url() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--db", "mysql://x/y"])
    assert result.exit_code != 0
    assert "unsupported database URL" in str(result.exception) + result.output


def test_client_reports_an_unreachable_server() -> None:
    async def main() -> None:
        client = TableClient("http://127.0.0.1:9", "ABCDEF")
        try:
            await client.connect(timeout=5)
        except Exception as exc:
            assert "connect" in str(exc)
        else:
            raise AssertionError("connected to nothing")

    run(main())


def test_ratgames_bot_seats_a_search_bot_from_the_command_line(
    server: Running, tmp_path: Path
) -> None:
    """``ratgames bot CODE --bot ismcts...``, as a bot author runs it: it takes the open seat,
    plays it to the end and prints the outcome."""
    import os
    import subprocess
    import sys

    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        code = created["table"]["code"]
        host = await connect(server.base, created)
        env = {**os.environ, "RATGAMES_HOME": str(tmp_path)}
        command = [sys.executable, "-c", "from ratgames.cli import app; app()", "bot", code]
        command += ["--server", server.base, "--bot", "ismcts:iterations=30", "--seed", "4"]
        process = await asyncio.create_subprocess_exec(
            *command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        await host.wait(
            lambda c: c.table is not None and c.table["seats"][1]["connected"], timeout=60
        )
        host.host("start")
        await play_out(host, random.Random(5))
        out, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, err.decode()
        assert json.loads(out) == host.state["outcome"]  # type: ignore[index]
        assert f"plays seat 2 of table {code}" in err.decode()
        await host.close()

    run(main(), timeout=150)


def test_bots_from_one_account_take_seats_of_their_own_and_say_what_happens(
    server: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ``ratgames bot`` processes run from the account where ``ratgames join`` saved a
    seat: each takes a seat of its own, the saved seat stays as it was, and each bot prints one
    line per change of state (waiting, playing, finished with the result)."""
    import os
    import subprocess
    import sys

    from ratgames.server import cli as server_cli

    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))

    async def main() -> None:
        seats = [{"kind": "open"}] * 4
        created = await create(server.base, "rat-a-tat-cat", seats)
        code = created["table"]["code"]
        host = await connect(server.base, created)
        # what 'ratgames join CODE' saves: seat 2 (index 1) for Ann
        saved = await asyncio.to_thread(server_cli._take_seat, server.base, code, "Ann", None)
        assert saved[0] == 1
        before = (tmp_path / "seats.json").read_text()
        env = {**os.environ, "RATGAMES_HOME": str(tmp_path)}
        processes = []
        for seed in (1, 2):
            command = [sys.executable, "-c", "from ratgames.cli import app; app()", "bot", code]
            command += ["--server", server.base, "--bot", "random", "--seed", str(seed)]
            processes.append(
                await asyncio.create_subprocess_exec(
                    *command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
                )
            )
        try:
            await host.wait(
                lambda c: c.table is not None and all(s["connected"] for s in c.table["seats"][2:]),
                timeout=60,
            )
        except TimeoutError:
            for process in processes:
                if process.returncode is None:
                    process.kill()
            raise AssertionError(
                [(await p.communicate())[1].decode() for p in processes], host.table
            ) from None
        assert (tmp_path / "seats.json").read_text() == before
        ann = TableClient(server.base, code, saved[1])
        await ann.connect()
        assert ann.seat == 1
        host.host("start")

        async def play_ann() -> None:
            await play_out(ann, random.Random(3))

        await asyncio.gather(play_out(host, random.Random(5)), play_ann())
        errs = []
        for process in processes:
            _out, err = await asyncio.wait_for(process.communicate(), 60)
            assert process.returncode == 0, err.decode()
            errs.append(err.decode())
        assert {f"plays seat {n} of table {code}" in e for e in errs for n in (3, 4)} >= {True}
        assert sorted(next(n for n in (3, 4) if f"plays seat {n} " in e) for e in errs) == [3, 4]
        for err in errs:
            lines = [line for line in err.splitlines() if line.startswith(f"table {code}: ")]
            assert lines[0].startswith(f"table {code}: waiting for the host to start the game")
            assert f"table {code}: playing" in lines
            assert lines[-1].startswith(f"table {code}: finished: ")
            assert "won (" in lines[-1]
            assert len(lines) == len(set(lines)), "one line per change"
        await ann.close()
        await host.close()

    run(main(), timeout=150)


def test_seats_count_from_1_on_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    for command in ("join", "bot"):
        result = runner.invoke(
            cli_app, [command, "K7QX2M", "--seat", "0"], env={"RATGAMES_HOME": str(tmp_path)}
        )
        assert result.exit_code == 2, result.output
        assert "seats count from 1 (seat 1 is the first), not 0" in result.output


def test_ratgames_host_makes_a_table_and_join_sits_its_host_back_down(
    server: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ratgames host GAME`` (a process, as a terminal user runs it) makes a private table
    with the seats asked for, prints its code and link and keeps the host's tokens, so that
    ``ratgames join CODE`` sits the host back down with the start key; mistakes are one line
    with exit code 2, before any table is made."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "RATGAMES_HOME": str(tmp_path)}
    command = [sys.executable, "-c", "from ratgames.cli import main; main()", "host"]
    args = ["rats", "-n", "3", "-o", "max_rounds=2", "--bots", "easy", "--name", "Ann"]
    done = subprocess.run(
        [*command, *args, "--server", server.base, "--no-play"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    code = first.split()[1].rstrip(":")
    assert len(code) == 12 and "private" in first  # private unless --public
    assert f"Invite link: {server.base}/t/{code}" in done.stdout
    info = run(ahttp_json(server.base, f"/api/tables/{code}"))
    assert info["options"]["max_rounds"] == 2 and not info["public"]
    kinds = [(s["kind"], s["name"]) for s in info["seats"]]
    assert kinds[0] == ("person", "Ann") and kinds[1][0] == "open" and kinds[2][0] == "bot"
    saved = json.loads((tmp_path / "seats.json").read_text())[f"{server.base}/t/{code}"]
    assert saved["seat"] == 0 and saved["host_token"] and saved["token"]

    public = subprocess.run(
        [*command, "caged-rats", "--public", "--server", server.base, "--no-play"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert public.returncode == 0, public.stderr
    assert len(public.stdout.split()[1].rstrip(":")) == 6

    for args, words in (
        (["rats", "--bots", "nonsense"], "unknown bot 'nonsense'"),
        (["rats", "-o", "nonsense=1"], "unknown option 'nonsense'"),
        (["rats", "-n", "2", "--bots", "easy", "hard"], "at most 1 bots, not 2"),
        (["no-such-game"], "no-such-game"),
    ):
        bad = subprocess.run(
            [*command, *args, "--server", server.base, "--no-play"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert bad.returncode == 2, (args, bad.stderr)
        assert words in bad.stderr and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert len(run(ahttp_json(server.base, "/api/tables"))) == 1  # only the public one listed

    # 'ratgames join CODE' from this account: Ann's seat, with the host's start key
    from ratgames.server import cli as server_cli

    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    assert server_cli._take_seat(server.base, code, "Ann", None) == (0, saved["token"])


def test_the_host_reissues_a_seat_link_and_the_old_one_stops_working(server: Running) -> None:
    """A player who lost their seat link (a new browser, cleared storage) gets a new one from
    the host: the seat's new token takes the seat back, the old token stops working at once
    (its connection told and closed), and only the host may ask."""

    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        code = created["table"]["code"]
        host = await connect(server.base, created)
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bo"})
        bo = TableClient(server.base, code, joined["token"])
        await bo.connect()
        bo.send({"type": "reissue", "v": 1, "seat": 0})
        await bo.wait(lambda c: bool(c.errors))
        assert bo.errors[-1]["code"] == "not_host"
        host.host("reissue", seat=1)
        await host.wait(lambda c: 1 in c.seat_links)
        new_token = host.seat_links[1]
        assert new_token != joined["token"]
        await bo.wait(lambda c: any(e["code"] == "bad_token" for e in c.errors))
        assert "re-issued" in bo.errors[-1]["message"]
        stale = TableClient(server.base, code, joined["token"])
        try:
            await stale.connect()
            raise AssertionError("the old seat token still works")
        except ClientError as exc:
            assert exc.code == "bad_token"
        await stale.close()
        back = TableClient(server.base, code, new_token)
        assert (await back.connect())["seat"] == 1
        host.host("reissue", seat=5)
        await host.wait(lambda c: any("has no person" in e["message"] for e in c.errors))
        for client in (bo, back, host):
            await client.close()

    run(main())


def test_join_takes_a_seat_from_its_seat_link(
    server: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ratgames join 'LINK#seat=TOKEN'`` on another computer: the seat of the link,
    remembered for the next time; a link whose token was re-issued, or a malformed one, is one
    line and exit code 2."""
    from ratgames.server import cli as server_cli

    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    created = run(create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}]))
    code = created["table"]["code"]
    joined = run(ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bo"}))
    link = f"{server.base}/t/{code}#seat={joined['token']}"
    text, token = server_cli._split_seat_link(link)
    assert (text, token) == (f"{server.base}/t/{code}", joined["token"])
    assert server_cli._seat_from_link(server.base, code, joined["token"]) == (1, joined["token"])
    assert server_cli._take_seat(server.base, code, "Bo", None) == (1, joined["token"])
    runner = CliRunner()
    for bad, words in (
        (f"{server.base}/t/{code}#seat=x!", "a seat link ends in '#seat='"),
        (f"{server.base}/t/{code}#seat={'A' * 43}", "does not open a seat"),
    ):
        result = runner.invoke(cli_app, ["join", bad])
        assert result.exit_code == 2, result.output
        assert words in result.output


def test_a_remote_bot_that_loses_its_seat_stops_and_says_why(server: Running) -> None:
    """The host gives out a new link to a bot process's seat: the bot stops with the reason
    instead of knocking again and again with its dead token."""

    async def main() -> None:
        created = await create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}])
        code = created["table"]["code"]
        host = await connect(server.base, created)
        joined = await ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bot"})
        from ratgames.core.registry import get_game

        game = get_game("caged-rats", options={"single_deal": True})
        task = asyncio.create_task(
            play_remote(server.base, code, joined["token"], game, "random", 1)
        )
        await host.wait(lambda c: c.table is not None and c.table["seats"][1]["connected"])
        host.host("reissue", seat=1)
        with pytest.raises(ClientError, match="lost its seat"):
            await asyncio.wait_for(task, 20)
        await host.close()

    run(main())


def test_the_host_gives_out_a_new_seat_link_from_the_terminal(
    server: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ratgames join CODE --new-link 2``, run where the table was made: prints the seat's new
    link (the old token stops working); anyone else, or a seat with no person, is one line
    with exit code 2."""
    from ratgames.server import cli as server_cli

    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    created = run(create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}]))
    code = created["table"]["code"]
    entry = {"seat": 0, "token": created["token"], "name": "Host"}
    server_cli._remember(server.base, code, {**entry, "host_token": created["host_token"]})
    joined = run(ahttp_json(server.base, f"/api/tables/{code}/join", {"name": "Bo"}))
    runner = CliRunner()
    where = ["--server", server.base]
    result = runner.invoke(cli_app, ["join", code, *where, "--new-link", "2"])
    assert result.exit_code == 0, result.output
    link = result.output.strip()
    assert link.startswith(f"{server.base}/t/{code}#seat=")
    new_token = link.split("#seat=", 1)[1]

    async def check() -> None:
        stale = TableClient(server.base, code, joined["token"])
        with pytest.raises(ClientError):
            await stale.connect()
        await stale.close()
        fresh = TableClient(server.base, code, new_token)
        assert (await fresh.connect())["seat"] == 1
        await fresh.close()

    run(check())
    for args, words in (
        (["--new-link", "0"], "seats count from 1"),
        (["--new-link", "3"], "seat 3 has no person in it; the people's seats are 1, 2"),
    ):
        bad = runner.invoke(cli_app, ["join", code, *where, *args])
        assert bad.exit_code == 2 and words in bad.output, bad.output
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path / "elsewhere"))
    bad = runner.invoke(cli_app, ["join", code, *where, "--new-link", "2"])
    assert bad.exit_code == 2 and "only the host of table" in bad.output, bad.output


def test_seats_named_on_the_command_line_are_checked_from_1(
    server: Running, tmp_path: Path
) -> None:
    created = run(create(server.base, "caged-rats", [{"kind": "open"}, {"kind": "open"}]))
    code = created["table"]["code"]
    runner = CliRunner()
    env = {"RATGAMES_HOME": str(tmp_path)}
    where = ["--server", server.base]
    for command, seat, words in (
        ("join", "3", f"table {code} has seats 1 to 2, not 3"),
        ("bot", "1", "seat 1 is not open; the open seats are 2"),
        ("join", "1", "seat 1 is not open; the open seats are 2"),
    ):
        result = runner.invoke(cli_app, [command, code, *where, "--seat", seat], env=env)
        assert result.exit_code == 2, result.output
        assert words in result.output, result.output


def test_a_reconnect_refused_for_its_rate_tries_again_until_welcomed(db_url: str) -> None:
    """A reconnecting client whose hello is refused for its rate (everyone behind a balancer
    coming back at once) leaves that connection and tries again after a growing pause: it is
    back as soon as the address may say hello again, not when the server closes the silent
    connection (a 30-second idle limit here)."""
    from ratgames.server.limits import Rate
    from ratgames.server.tables import Settings

    from .conftest import start_server

    settings = Settings(
        bot_pause=0.0,
        ping_interval=0.5,
        warm_pool=False,
        idle_timeout=30.0,
        hello_rate=Rate(2, 1.0, 2),
    )
    running = start_server(db_url, settings)

    async def main() -> None:
        created = await create(running.base, "rats", [{"kind": "open"}, {"kind": "bot"}])
        code = created["table"]["code"]
        client = await connect(running.base, created, reconnect=True)
        await client.wait(lambda c: c.table is not None)
        # Others at the same address use up its hellos.
        watchers = []
        for _ in range(3):
            watcher = TableClient(running.base, code)
            watchers.append(watcher)
            with contextlib.suppress(ClientError):
                await watcher.connect()
        assert any(e["code"] == "rate_limited" for w in watchers for e in w.errors)
        before = client.connections
        await client.drop()
        loop = asyncio.get_running_loop()
        start = loop.time()
        await client.wait(lambda c: c.connections > before + 1, timeout=10)  # it tried again
        await client.wait(lambda c: c.welcomed, timeout=10)
        assert loop.time() - start < 8.0  # back well before the idle limit closes anything
        client.host("start")
        assert await client.my_turn_or_end()
        await client.close()
        for watcher in watchers:
            await watcher.close()

    try:
        run(main())
    finally:
        running.stop()
