"""The compiled build against the Python modules on many seeded random games: the same games,
move for move, and how much faster.

Run:  python3 -m uv run python benchmarks/check_compiled.py [--games 20000] [--game ID ...]
      [--json FILE]

It needs a compiled build of these sources (``python3 -m uv run ratgames compile
build``).  For every game, each player count the generic tests use with the default
options and each option variant at the smallest table, it plays ``--games`` seeded random games
twice, in a process that runs the Python modules (``RATGAMES_COMPILED=off``) and in one that
runs the compiled build (``RATGAMES_COMPILED=require``), and compares digests of everything a
caller can see: every legal list and action (their hashes, PYTHONHASHSEED fixed), every seat's
final observation, the outcome, and the cards of a sample (``sample_consistent``) every 25
moves, in the order the sample deals them.
Even seeds play through the checked ``apply``, odd seeds through ``apply_trusted``.  Any
difference is reported with the first chunk of seeds where it shows, and the exit code is 1.

Times are CPU time of each worker process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import time
from typing import Any

CHUNK = 2000
"""Games per worker run (a difference is located to one chunk of seeds)."""


def play_chunk(gid: str, players: int, options: dict[str, Any], start: int, count: int) -> dict:
    """Worker: the digest of games ``start`` .. ``start + count - 1`` of one configuration."""
    import ratgames
    from ratgames import compiled
    from ratgames.core.rng import Rng

    game = ratgames.get_game(gid, players=players, options=options)
    digest = hashlib.blake2b(digest_size=16)
    actions = 0
    cpu = time.process_time()
    for seed in range(start, start + count):
        rng = Rng(seed ^ 0xC0FFEE)
        state = game.new_state(seed=seed)
        state.set_recording(False)
        apply = state.apply if seed % 2 == 0 else state.apply_trusted
        step = 0
        while not state.is_over():
            to_act = state.seats_to_act()
            seat = to_act[rng.randbelow(len(to_act))] if len(to_act) > 1 else to_act[0]
            legal = state.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
            # hash() of the actions (the same in both workers: PYTHONHASHSEED is fixed).
            digest.update(struct.pack("<qqq", seat, hash(tuple(legal)), hash(action)))
            if step % 25 == 12:
                sample = state.sample_consistent(seat, Rng(seed * 1000 + step))
                digest.update(bytes(c & 255 for c in sample.cards()))
            apply(seat, action)
            step += 1
        actions += step
        outcome = state.outcome()
        assert outcome is not None
        final = [state.observation(s) for s in range(players)]
        digest.update(json.dumps([outcome.to_json(), final], sort_keys=True).encode())
    return {
        "digest": digest.hexdigest(),
        "actions": actions,
        "cpu": time.process_time() - cpu,
        "compiled": compiled.active is not None,
    }


def configs(only: list[str] | None) -> list[tuple[str, str, int, dict[str, Any]]]:
    import ratgames
    from ratgames.core.registry import game_class

    out = []
    for gid in ratgames.game_ids():
        if gid.startswith("test-") or (only and gid not in only):
            continue
        cls = game_class(gid)
        for players in sorted({cls.min_players, cls.default_players, cls.max_players}):
            out.append((f"{gid}/{players}p", gid, players, dict(cls.variants[0])))
        for i, opts in enumerate(cls.variants[1:], start=1):
            out.append((f"{gid}/{cls.min_players}p/v{i}", gid, cls.min_players, dict(opts)))
    return out


def run_worker(mode: str, gid: str, players: int, options: dict, start: int, count: int) -> dict:
    env = {**os.environ, "RATGAMES_COMPILED": mode, "PYTHONHASHSEED": "0"}
    args = [gid, str(players), json.dumps(options), str(start), str(count)]
    done = subprocess.run(
        [sys.executable, __file__, "--worker", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"worker ({mode}) failed:\n{done.stderr.strip()[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        gid, players, options, start, count = sys.argv[2:7]
        print(
            json.dumps(play_chunk(gid, int(players), json.loads(options), int(start), int(count)))
        )
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20_000, help="games per configuration")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    from rich.console import Console
    from rich.table import Table

    import ratgames
    from ratgames import compiled

    unknown = [g for g in args.game or () if g not in ratgames.game_ids()]
    if unknown:
        parser.error(
            f"unknown game {unknown[0]!r}; the games are: {', '.join(ratgames.game_ids())}"
        )
    status = compiled.status()
    if compiled.active is None and "a build is in" not in status:
        parser.error(f"{status}")
    console = Console()
    table = Table(title=f"Compiled build against the Python modules, {args.games:,} games each")
    for col in ("configuration", "games", "actions", "Python s", "compiled s", "speed-up", "same"):
        table.add_column(col, justify="right")
    rows = []
    differences = 0
    for label, gid, players, options in configs(args.game):
        totals = {"off": [0, 0.0], "require": [0, 0.0]}
        same = True
        first_bad = None
        for start in range(0, args.games, CHUNK):
            count = min(CHUNK, args.games - start)
            got = {m: run_worker(m, gid, players, options, start, count) for m in totals}
            if not got["require"]["compiled"] or got["off"]["compiled"]:
                raise SystemExit("the workers did not run the builds asked for")
            for m, r in got.items():
                totals[m][0] += r["actions"]
                totals[m][1] += r["cpu"]
            if got["off"]["digest"] != got["require"]["digest"] and same:
                same, first_bad = False, start
        differences += not same
        py, cc = totals["off"][1], totals["require"][1]
        row = {
            "configuration": label,
            "games": args.games,
            "actions": totals["off"][0],
            "python_cpu_s": py,
            "compiled_cpu_s": cc,
            "same": same,
            "first_different_chunk": first_bad,
        }
        rows.append(row)
        table.add_row(
            label,
            f"{args.games:,}",
            f"{row['actions']:,}",
            f"{py:.1f}",
            f"{cc:.1f}",
            f"{py / cc:.2f}x" if cc > 0 else "-",
            "✓" if same else f"✗ (seeds from {first_bad})",
        )
        console.print(f"{label}: {'same' if same else 'DIFFERENT'} ({py:.1f} s / {cc:.1f} s)")
    console.print(table)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
