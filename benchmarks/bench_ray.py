"""Simulation throughput on the local process pool and on Ray: games per second for the same
games, and what starting or reaching Ray costs.

Run:  uv run python benchmarks/bench_ray.py [--games 20000] [--cpus 2] [--repeat 3]
      [--address ADDRESS] [--json FILE]

For each study below, the same run (seed 0) is timed on the wall clock:

* ``ray, first run``: on Ray (``simulate --backend ray``), a Ray started on this machine with
  ``--cpus`` CPUs or the cluster at ``--address`` (then all its CPUs); the first run also starts
  Ray's worker processes;
* then ``--repeat`` times in turn: ``local``, in ``--cpus`` worker processes (``simulate -w N``),
  and ``ray`` again.  The table gives the fastest of the repeats of each (other load on a shared
  machine only ever slows a run down); the machine's load average is printed with it.

Starting Ray (or connecting to the cluster) is timed apart.  Every Ray run's figures are checked
against the local run's: they must be the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from ratgames.distributed import RayBackend
from ratgames.sim import SimConfig, SimResult, simulate

STUDIES: list[tuple[str, str, int, dict[str, Any], tuple[str, ...], float]] = [
    # (label, game, players, options, bots, share of --games)
    ("Rat-a-Tat Cat rounds", "rat-a-tat-cat", 2, {"mode": "round"}, ("heuristic", "random"), 1.0),
    ("Caged Rats deals", "caged-rats", 2, {"single_deal": True}, ("heuristic", "random"), 1.0),
    ("Rats whole games", "rats", 4, {}, ("heuristic", "random"), 0.1),
]


def _figures(result: SimResult) -> dict[str, Any]:
    return {**result.to_json(), "seconds": 0, "games_per_second": 0}


def _timed(config: SimConfig, **kwargs: Any) -> tuple[SimResult, float]:
    began = time.perf_counter()
    result = simulate(config, **kwargs)
    return result, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games of the quick studies")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each backend")
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--address", default=None, help="an existing Ray cluster's address")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()

    rows: list[dict[str, Any]] = []
    began = time.perf_counter()
    cpus = None if args.address else args.cpus
    with RayBackend(address=args.address, cpus=cpus) as backend:
        start_seconds = time.perf_counter() - began
        where = backend.describe()
        for label, game, players, options, bots, share in STUDIES:
            games = max(1, int(args.games * share))
            config = SimConfig(game, players, options, bots, games, seed=0)
            first, first_s = _timed(config, backend=backend)
            local_s = again_s = float("inf")
            for _ in range(args.repeat):
                local, seconds = _timed(config, workers=args.cpus)
                local_s = min(local_s, seconds)
                again, seconds = _timed(config, backend=backend)
                again_s = min(again_s, seconds)
                if not _figures(first) == _figures(again) == _figures(local):
                    raise SystemExit(f"{label}: Ray and the local pool played different games")
            rows.append(
                {
                    "study": label,
                    "games": games,
                    "local_games_per_second": games / local_s,
                    "ray_games_per_second": games / again_s,
                    "ray_first_run_games_per_second": games / first_s,
                }
            )

    console = Console()
    table = Table(title=f"Games per second: {args.cpus} local processes vs {where}")
    for column in ("study", "games", "local", "ray", "ray, first run"):
        table.add_column(column, justify="left" if column == "study" else "right")
    for row in rows:
        table.add_row(
            row["study"],
            str(row["games"]),
            f"{row['local_games_per_second']:,.0f}",
            f"{row['ray_games_per_second']:,.0f}",
            f"{row['ray_first_run_games_per_second']:,.0f}",
        )
    console.print(table)
    what = "Connecting to the cluster" if args.address else "Starting Ray on this machine"
    console.print(f"{what} took {start_seconds:.1f} s.")
    load = os.getloadavg()
    console.print(f"Load average during the run: {load[0]:.1f} (1 min), {load[1]:.1f} (5 min).")
    if args.json:
        payload = {"ray": where, "start_seconds": start_seconds, "studies": rows}
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(payload, out, indent=1)


if __name__ == "__main__":
    main()
