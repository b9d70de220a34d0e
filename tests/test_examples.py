"""Every example the command line prints or the README shows runs (with tiny game counts and
search budgets, and the game screen left at once)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ratgames
from ratgames.cli import bot_example, main
from ratgames.levels import levels_for

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SUBCOMMANDS = (
    "games",
    "rules",
    "play",
    "bots",
    "simulate",
    "tournament",
    "replay",
    "stats",
    "report",
    "hunt",
)


ONLINE = ("serve", "host", "join", "bot", "export", "db")
"""The online commands, which tests/server runs against a real server instead."""


def readme_commands(online: bool = False) -> Iterator[str]:
    """The ratgames commands of the README: its shell blocks, and the tables' commands (which
    follow ``ratgames`` with ``-n 2``).  With ``online``, only the online commands."""
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("#") or "ratgames " not in line:
                continue
            command = line[line.index("ratgames ") + len("ratgames ") :]
            if (command.split()[0] in ONLINE) != online:
                continue  # needs a server: tests/server runs these against a real one
            yield command
    if online:
        return
    for span in re.findall(r"`((?:simulate|tournament) [^`]+)`", README):
        command = " ".join(span.split())
        yield command if " -n " in command else command.replace(" ", " -n 2 ", 1)


def help_commands(capsys: pytest.CaptureFixture[str]) -> Iterator[str]:
    """The examples in the help of ``ratgames`` and of every command."""
    for args in (["--help"], *[[c, "--help"] for c in SUBCOMMANDS]):
        out = run(capsys, args)[1]
        for line in out.splitlines():
            stripped = line.strip()
            if stripped.startswith("ratgames ") and not stripped.startswith("ratgames [OPTIONS]"):
                yield re.split(r"\s{2,}", stripped)[0][len("ratgames ") :]


def run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def shrink(command: str, tmp: Path, record: Path) -> list[str]:
    """The command with tiny budgets: 1 game, 2 search iterations, files in ``tmp``."""
    command = command.replace("~/.ratgames/records/rat-a-tat-cat-....json", str(record))
    command = command.replace("~/.ratgames/records", str(record.parent))
    command = re.sub(r"iterations=\d+", "iterations=2", command)
    command = re.sub(r"seconds=[\d.]+", "seconds=0.01", command)
    command = command.split("   (")[0]  # a remark after the command in a help text
    args = shlex.split(command)
    out: list[str] = []
    it = iter(args)
    for arg in it:
        if arg in ("-g", "--games"):
            out += [arg, "1"]
            next(it)
        elif arg in ("--json", "--out", "--checkpoint"):
            out += [arg, str(tmp / Path(next(it)).name)]
        elif arg == "--deals":
            out += [arg, "2000"]
            next(it)
        elif arg == "--seconds":
            out += [arg, "1"]
            next(it)
        else:
            out.append(arg)
    if out[0] in ("simulate", "tournament") and "rats" in out[1:4]:
        out += ["-o", "max_rounds=1"]  # search tries every move of a round: one round is enough
    if out[0] == "simulate" and "caged-rats" in out[1:4] and "single_deal=true" not in out:
        out += ["-o", "single_deal=true"]
    if out[0] in ("simulate", "tournament") and "-w" not in out:
        out += ["-w", "1"]
    if out[0] == "tournament" and "--out" not in out:
        out += ["--out", str(tmp / "tournament")]
    return out


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ratgames home with one finished and one unfinished game of yours; the game screen
    leaves at once."""
    from ratgames.core.bots import make_bot
    from ratgames.tui.play import PlayApp
    from ratgames.tui.replay import ReplayApp
    from ratgames.tui.session import seat_entries

    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(PlayApp, "run", lambda self: None)
    monkeypatch.setattr(ReplayApp, "run", lambda self: None)
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    bots = [None, make_bot(game, "heuristic", seed=1)]
    records = tmp_path / "home" / "records"
    state = game.new_state(seed=1)
    ratgames.save_record(state.record(seat_entries(bots, ["You", "Bot"])), records / "open.json")
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    ratgames.save_record(state.record(seat_entries(bots, ["You", "Bot"])), records / "done.json")
    monkeypatch.chdir(tmp_path)
    return records / "done.json"


REPORT_INPUTS = {
    "knock": "simulate rat-a-tat-cat -n 2 -o mode=round -g 2 -w 1 -b heuristic --sweep knock=9,12",
    "": "simulate rats -g 2 -w 1 -o max_rounds=1 -b heuristic random --per-game",
}
"""Runs that write the JSON a ``report`` example reads (by the start of its file name)."""


def check(capsys: pytest.CaptureFixture[str], command: str, tmp: Path, record: Path) -> None:
    args = shrink(command, tmp, record)
    backend = args[args.index("--backend") + 1] if "--backend" in args[:-1] else "local"
    if "--address" in args or backend == "ray":
        return  # a Ray cluster: tests/test_ray_backend.py runs these against a real one
    if args[0] == "report":
        for name in [a for a in args[1:] if a.endswith(".json") and not Path(a).exists()]:
            maker = next(m for key, m in REPORT_INPUTS.items() if name.startswith(key))
            code, out, err = run(capsys, [*shlex.split(maker), "--json", name])
            assert code == 0, f"ratgames {maker}\n{out}\n{err}"
    code, out, err = run(capsys, args)
    assert code == 0, f"ratgames {' '.join(args)}\n{out}\n{err}"


README_COMMANDS = sorted(set(readme_commands()))


def test_the_readme_has_the_examples_this_test_runs() -> None:
    assert len(README_COMMANDS) > 20
    for sub in ("play", "simulate", "tournament", "replay", "stats", "rules", "games"):
        assert any(c.startswith(sub) for c in README_COMMANDS), sub
    assert "play --resume" in README_COMMANDS


@pytest.mark.parametrize("command", README_COMMANDS)
def test_every_readme_command_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, home: Path, command: str
) -> None:
    check(capsys, command, tmp_path, home)


def test_every_example_in_the_help_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, home: Path
) -> None:
    commands = sorted(set(help_commands(capsys)))
    assert "play --resume" in commands and "stats" in commands and len(commands) >= 8
    for command in commands:
        check(capsys, command, tmp_path, home)


@pytest.mark.parametrize("game_id", [g for g in ratgames.game_ids() if not g.startswith("test")])
def test_the_bots_listing_suggests_bots_that_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game_id: str
) -> None:
    code, out, _ = run(capsys, ["bots", game_id])
    assert code == 0
    example = bot_example(game_id)
    assert f"--bots {example}" in " ".join(out.split())
    specs = [example, *levels_for(game_id).values()]
    for spec in specs:
        args = shrink(f"simulate {game_id} -g 1 -b {spec} random", tmp_path, tmp_path)
        code, out, err = run(capsys, args)
        assert code == 0, f"{spec}: {err}"


def test_the_readme_python_example_runs() -> None:
    [code] = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if "ratgames" in b]
    namespace: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["state"].is_over()


def _parse_only(args: list[str]) -> None:
    """Parse ``ratgames ARGS`` as the command line would, without running the command: a
    mistyped option or an argument too many raises :class:`click.UsageError`."""
    import click

    from ratgames.cli import app, expand_multi_values

    args = expand_multi_values(args)  # as main() does: --bots a b means --bots a --bots b
    ctx = click.Context(app, info_name="ratgames")
    command: click.Command | None = app
    while isinstance(command, click.Group):
        name, args = args[0], args[1:]
        command = command.get_command(ctx, name)
        assert command is not None, f"no command {name!r}"
    with command.make_context(command.name or "", args, parent=ctx):
        pass


def test_the_online_examples_are_commands_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's and the help's examples of the online commands (which need a server, run
    in tests/server) at least parse: every option and argument is one the command takes."""
    commands = list(readme_commands(online=True))
    for name in ONLINE:
        out = run(capsys, [*name.split(), "--help"])[1]
        for line in out.splitlines():
            stripped = line.strip()
            if stripped.startswith("ratgames ") and not stripped.startswith("ratgames [OPTIONS]"):
                commands.append(re.split(r"\s{2,}", stripped)[0][len("ratgames ") :])
    assert any(c.startswith("export") for c in commands) and len(commands) >= 8
    for command in commands:
        _parse_only(shlex.split(command.split("   #")[0]))


def test_every_command_a_message_suggests_is_a_command() -> None:
    """Each 'ratgames ...' that an error, a hint or a help text of the package tells the user to
    type (GAME, FILE, TABLE standing for one) is a command as written: its options and
    arguments are ones it takes.  (A mention such as 'ratgames play --level' may leave out
    what follows.)"""
    import click

    package = ROOT / "src" / "ratgames"
    found: dict[str, str] = {}
    for path in sorted(package.rglob("*.py")):
        for command in re.findall(r"'ratgames ([a-z][^']*)'", path.read_text(encoding="utf-8")):
            found.setdefault(command, str(path.relative_to(ROOT)))
    assert "join TABLE --watch" in found and "play --resume" in found and len(found) >= 10
    names = {"GAME": "rats", "FILE": "x.json", "TABLE": "K7QX2M", "RECORD": "x.json"}
    for command, where in found.items():
        words = [names.get(w, w) for w in shlex.split(command)]
        try:
            _parse_only(words)
        except (click.MissingParameter, click.BadOptionUsage):
            pass  # a mention of a command, not all of it
        except click.UsageError as exc:
            raise AssertionError(f"{where}: 'ratgames {command}': {exc.format_message()}") from None
