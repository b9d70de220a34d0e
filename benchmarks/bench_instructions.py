"""Instructions per action of random play, counted by valgrind: the same count on every run.

Run:  python3 -m uv run python benchmarks/bench_instructions.py [--game ID ...]
      [--build python|compiled|both] [--mode checked|trusted|recording ...] [--vs DIR]
      [--json FILE]

Timings on a shared machine spread by 20-30% from one run to the next, too much to tell a
change of a few per cent.  This counts the instructions the processor runs instead (valgrind's
cachegrind with ``--cache-sim=no``), which do not depend on what else the machine does: the
instructions of a process that plays N seeded random games through the public API, less those
of one that plays none (the imports and the set-up), divided by the actions played.

Each game is played much as ``bench_games.py`` plays it: a random seat among those to act, a
random legal action (``random.Random(1)``), through the checked ``apply``, ``apply_trusted``, or the
checked ``apply`` keeping the record.  ``--build`` picks the Python modules
(``RATGAMES_COMPILED=off``), the compiled build (``RATGAMES_COMPILED=require``: build it first
with ``ratgames compile build``), or both.

``--vs DIR`` counts the same in another checkout (another commit in a worktree, with its own
``.venv``: ``git worktree add /tmp/before REV && (cd /tmp/before && python3 -m uv sync)``) and
prints after/before for each row; for the compiled build both builds must be in the cache
(``$RATGAMES_HOME/cache/compiled``, which keeps the four newest; or set ``--vs-home`` to the
other checkout's own ``RATGAMES_HOME``).

Instructions are not time: they leave out the waits for memory (the collector's walks are
counted, the cache misses they cause are not).  They tell what a change adds or takes away.
It needs valgrind (Debian: ``apt install valgrind``); a run of one game takes some seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

from rich.console import Console
from rich.table import Table

GAMES = {
    # game: (players, games played: some 10,000-20,000 actions)
    "caged-rats": (2, 20),
    "rat-a-tat-cat": (4, 200),
    "rats": (4, 80),
    "egyptian-ratscrew": (2, 100),
}
MODES = ("checked", "trusted", "recording")

CHILD = """
import random, sys
import ratgames
game_id, players, n, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = ratgames.get_game(game_id, players=players)
rng = random.Random(1)
actions = 0
for seed in range(n):
    state = game.new_state(seed=seed)
    state.set_recording(mode == "recording")
    apply = state.apply_trusted if mode == "trusted" else state.apply
    while not state.is_over():
        to_act = state.seats_to_act()
        seat = to_act[rng.randrange(len(to_act))]
        legal = state.legal_actions(seat)
        apply(seat, legal[rng.randrange(len(legal))])
        actions += 1
print("actions", actions, file=sys.stderr)
"""
"""The process counted: plays ``n`` seeded random games of a game (only the public API, so
that it runs in any checkout)."""


def fail(message: str) -> NoReturn:
    """Say what is wrong and stop with exit code 2 (bad input, or something missing)."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def count(tree: Path, build: str, home: str | None, args: list[str]) -> tuple[int, int]:
    """(instructions, actions) of the child process run in ``tree`` with ``args``."""
    python = tree / ".venv" / "bin" / "python"
    if not python.exists():
        fail(f"{python} not found: run `python3 -m uv sync` in {tree} first")
    env = dict(os.environ)
    env["RATGAMES_COMPILED"] = "off" if build == "python" else "require"
    if home is not None:
        env["RATGAMES_HOME"] = home
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            str(python),
            "-c",
            CHILD,
            *args,
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    played = re.search(r"^actions (\d+)$", done.stderr, re.MULTILINE)
    if done.returncode != 0 or refs is None or played is None:
        tail = "\n".join(done.stderr.strip().splitlines()[-6:])
        fail(f"the counted process failed in {tree} ({build}):\n{tail}")
    return int(refs.group(1).replace(",", "")), int(played.group(1))


def per_action(tree: Path, build: str, home: str | None, game: str, mode: str) -> float:
    """Instructions per action of ``game`` played in ``mode``, the set-up left out."""
    players, games = GAMES[game]
    base, _ = count(tree, build, home, [game, str(players), "0", mode])
    total, actions = count(tree, build, home, [game, str(players), str(games), mode])
    return (total - base) / actions


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="repeatable")
    parser.add_argument("--build", choices=("python", "compiled", "both"), default="both")
    parser.add_argument("--mode", action="append", choices=MODES, help="repeatable")
    parser.add_argument(
        "--vs", type=Path, help="another checkout (with its .venv) to compare with: before"
    )
    parser.add_argument(
        "--vs-home", help="RATGAMES_HOME of the other checkout's compiled build, if its own"
    )
    parser.add_argument("--json", type=Path, help="write the rows here too")
    opts = parser.parse_args()
    if shutil.which("valgrind") is None:
        fail("valgrind not found: install it (Debian: sudo apt install valgrind)")
    if opts.vs is not None and not (opts.vs / "src" / "ratgames").is_dir():
        fail(f"--vs {opts.vs}: not a ratgames checkout (no src/ratgames there)")
    here = Path(__file__).resolve().parent.parent
    home = os.environ.get("RATGAMES_HOME")
    builds = ("python", "compiled") if opts.build == "both" else (opts.build,)
    games = opts.game or list(GAMES)
    modes = opts.mode or list(MODES)
    console = Console()
    table = Table(title="Instructions per action (valgrind, the set-up left out)")
    for name in ("game", "build", "mode", "this checkout"):
        table.add_column(name, justify="right")
    if opts.vs is not None:
        table.add_column(f"{opts.vs}", justify="right")
        table.add_column("this/that", justify="right")
    rows = []
    with console.status("counting (some seconds a row)...") as status:
        for build in builds:
            for game in games:
                for mode in modes:
                    status.update(f"counting {game}, {build}, {mode}...")
                    now = per_action(here, build, home, game, mode)
                    row: dict[str, object] = {
                        "game": game,
                        "build": build,
                        "mode": mode,
                        "instructions_per_action": now,
                    }
                    cells = [game, build, mode, f"{now:,.0f}"]
                    if opts.vs is not None:
                        then = per_action(opts.vs, build, opts.vs_home or home, game, mode)
                        row["vs_instructions_per_action"] = then
                        cells += [f"{then:,.0f}", f"{now / then:.3f}"]
                    rows.append(row)
                    table.add_row(*cells)
    console.print(table)
    if opts.json is not None:
        opts.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
