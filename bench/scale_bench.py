"""Scale benchmark: how group-poker throughput grows from one to two and four web processes.

One command starts throwaway PostgreSQL and Redis, then for each process count
plays the same fixed load -- L lobbies x P players, the host drawing every
``--interval`` seconds, every player placing each number after a random delay
up to ``--max-delay`` -- with the sockets spread round-robin over the uvicorn
processes (bench/poker_group_bench.py's game, the real consumer, services,
PostgreSQL and channel layer):

    .venv/bin/python bench/scale_bench.py --processes 1 2 4 --lobbies 4 --players 25

Recorded per process count: placements per second, placement ack p50/p99,
draw fan-out p99, losses (must be 0), and the CPU seconds per placement of the
servers, PostgreSQL and the clients. Results: bench/RESULTS-scale.md.

At a fixed offered load the placements per second stay the same as long as the
servers keep up: what grows with the process count is the *headroom* -- the
p99 times and how much CPU one placement costs -- and the load at which the
p99 breaks. ``--interval`` smaller raises the load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

import poker_group_bench as group  # noqa: E402
import rooms_fanout as fanout  # noqa: E402


def fresh_start() -> None:
    """Every run on empty tables (the rooms' nicknames repeat from run to run)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT string_agg(format('%I', tablename), ', ') FROM pg_tables"
            " WHERE schemaname = 'public' AND tablename NOT LIKE 'django_%'"
            " AND tablename NOT LIKE 'auth_%'"
        )
        tables = cursor.fetchone()[0]
        cursor.execute(f"TRUNCATE {tables} CASCADE")
    connection.close()


def run_one(env: dict, workdir: Path, processes: int, args) -> dict:
    import django

    django.setup()
    fresh_start()
    lobbies = fanout.make_rooms(args.lobbies, args.players, game="poker")
    servers = []  # one at a time: each gets the full start-up patience on a busy machine
    for _ in range(processes):
        servers += fanout.start_servers(env, 1)
    try:
        meter = group.CpuMeter(workdir, [process.pid for process, _address in servers])
        result = asyncio.run(
            group.play(
                lobbies,
                [address for _process, address in servers],
                interval=args.interval,
                max_delay=args.max_delay,
                seed=args.seed,
                on_connected=meter.start,
            )
        )
        cpu = meter.stop()
    finally:
        for process, _address in servers:
            fanout.stop_server(process)
    placed = max(1, result["placements"])
    result["acked_but_missing_on_boards"] = group.check_boards(lobbies, result.pop("_acked"))
    return {
        "processes": processes,
        "sockets": result["sockets"],
        "placements": result["placements"],
        "placements_per_s": result["placements_per_s"],
        "placement_ack_ms": result["placement_ack_ms"],
        "draw_fanout_ms": result["draw_fanout_ms"],
        "draws_lost": result["draws_lost"],
        "placements_unanswered": result["placements_unanswered"],
        "placements_refused": result["placements_refused"],
        "acked_but_missing_on_boards": result["acked_but_missing_on_boards"],
        "cpu_ms_per_placement": {part: 1000 * s / placed for part, s in cpu.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--lobbies", type=int, default=4)
    parser.add_argument("--players", type=int, default=25)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between draws")
    parser.add_argument("--max-delay", type=float, default=0.8, help="players' random delay")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load_before = f"{os.getloadavg()[0]:.1f}"
    rows = []
    with fanout.bench_services("matika-scale-bench-") as (workdir, env, _servers):
        env["ROOM_SOCKETS_PER_ADDRESS"] = str(10 * args.lobbies * (args.players + 1))
        # Each process's pool: the rooms' DB threads are half of it.
        env.setdefault("DB_POOL_MAX_SIZE", "16")
        os.environ.update(env)
        for processes in args.processes:
            began = time.monotonic()
            row = run_one(env, workdir, processes, args)
            row["wall_s"] = time.monotonic() - began
            rows.append(row)
            print(json.dumps(fanout.rounded(row)), flush=True)
    print()
    print(
        "| processes | sockets | placements/s | placement ack p50 / p99 ms | draw fan-out p99 ms "
        "| lost / unanswered / missing | CPU ms per placement (servers, PostgreSQL, clients) |"
    )
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        cpu = row["cpu_ms_per_placement"]
        print(
            f"| {row['processes']} | {row['sockets']} | {row['placements_per_s']:.1f} "
            f"| {row['placement_ack_ms'][0]:.0f} / {row['placement_ack_ms'][2]:.0f} "
            f"| {row['draw_fanout_ms'][2]:.0f} "
            f"| {row['draws_lost']} / {row['placements_unanswered']} / "
            f"{row['acked_but_missing_on_boards']} "
            f"| {cpu['server']:.2f}, {cpu['postgres']:.2f}, {cpu['clients']:.2f} |"
        )
    print(
        f"\n`{' '.join(['bench/scale_bench.py', *sys.argv[1:]])}` -- {fanout.machine(load_before)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
