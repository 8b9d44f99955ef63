"""CPU per acknowledged placement of the group poker game (issue 41), from /proc.

One command starts throwaway PostgreSQL (with ``pg_stat_statements``) and
Redis, migrates, seats L lobbies x P players and starts one uvicorn process
(the same start as bench/rooms_fanout.py), then plays bench/poker_group_bench.py's
game: the hosts draw every ``--interval`` seconds, every player places every
number after a random delay (up to ``--max-delay``). Measured from outside:

* the CPU seconds (user + system, all threads, ``/proc/<pid>/stat``) of the web
  process and of every PostgreSQL process (postmaster, backends, autovacuum,
  checkpointer...) over the whole game phase -- from the last socket connected
  to the end of the games, draws and their fan-out included -- divided by the
  acknowledged placements;
* before the game, ``--idle`` seconds with every socket open and nothing
  played: the CPU the process spends just holding the sockets (its timers, the
  channel layer's receive loop), reported beside the figure, not subtracted;
* losses (must be 0): draws a player never received, placements never answered,
  acknowledged placements missing from the boards read back from PostgreSQL,
  duplicated events, sockets the server closed;
* PostgreSQL's own view of the game phase: the top statements of
  ``pg_stat_statements`` (calls, mean time, rows, buffers) and, per table, how
  many row updates were HOT (``pg_stat_user_tables``).

Every run appends one JSON line to ``--out`` and prints a Markdown row with the
load average before and after. Before/after comparisons: run this script from
two trees (``git archive <commit> | tar -x -C /tmp/before``) taking turns in the
same hour; the CPU seconds are robust to a busy machine, the latencies are not.

    nice -n 19 .venv/bin/python bench/placement_cpu.py --lobbies 5 --players 50 --label today
    # switches side by side on one set of services (bench/placement_settings.py):
    .venv/bin/python bench/placement_cpu.py --settings bench.placement_settings --max-draws 12 \
        --variant "sansio:UVICORN_ARGS=--ws websockets-sansio" --variant "threads3:BENCH_DB_THREADS=3"
    .venv/bin/python bench/placement_cpu.py --lobbies 40 --players 50 --label 40x50  # quiet machine

Results: bench/RESULTS-placement-cpu.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

import poker_group_bench as group  # noqa: E402
import rooms_fanout as fanout  # noqa: E402

from tools.services import throwaway  # noqa: E402

TOP_STATEMENTS_SQL = """
SELECT calls, plans, round(total_plan_time::numeric, 1),
       round(total_exec_time::numeric, 1), round(mean_exec_time::numeric, 3),
       rows, shared_blks_hit, shared_blks_read, shared_blks_dirtied, wal_records,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 160)
FROM pg_stat_statements
WHERE query NOT ILIKE '%%pg_stat_statements%%'
ORDER BY total_exec_time DESC LIMIT %s
"""
HOT_SQL = """
SELECT relname, n_tup_upd, n_tup_hot_upd, n_tup_ins, n_dead_tup, autovacuum_count
FROM pg_stat_user_tables WHERE n_tup_upd + n_tup_ins > 0 ORDER BY n_tup_upd + n_tup_ins DESC
"""


def user_system(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of one process, all its threads, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def enable_pg_stat_statements(services) -> None:
    """Preload pg_stat_statements (a restart) and create the extension."""
    import psycopg

    postgres = services.postgres
    with open(postgres.data_dir / "postgresql.conf", "a") as conf:
        conf.write(
            "shared_preload_libraries = 'pg_stat_statements'\n"
            "pg_stat_statements.track = 'all'\npg_stat_statements.track_planning = on\n"
            "track_io_timing = on\n"
        )
    postgres.stop()
    postgres.start()
    with psycopg.connect(postgres.url(services.database), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")


def pg_reset(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_statements_reset()")
        conn.execute("SELECT pg_stat_reset()")


def pg_report(url: str, top: int) -> dict:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_force_next_flush()")
        statements = conn.execute(TOP_STATEMENTS_SQL, [top]).fetchall()
        tables = conn.execute(HOT_SQL).fetchall()
        total_calls = conn.execute(
            "SELECT sum(calls), round(sum(total_exec_time)::numeric, 1),"
            " sum(plans), round(sum(total_plan_time)::numeric, 1) FROM pg_stat_statements"
            " WHERE query NOT ILIKE '%%pg_stat_statements%%'"
        ).fetchone()
    return {
        "all_statements": {
            "calls": int(total_calls[0] or 0),
            "exec_ms": float(total_calls[1]),
            "plans": int(total_calls[2] or 0),
            "plan_ms": float(total_calls[3] or 0),
        },
        "top_statements": [
            {
                "calls": row[0],
                "plans": row[1],
                "plan_ms": float(row[2]),
                "total_ms": float(row[3]),
                "mean_ms": float(row[4]),
                "rows": row[5],
                "blks_hit": row[6],
                "blks_read": row[7],
                "blks_dirtied": row[8],
                "wal_records": row[9],
                "query": row[10],
            }
            for row in statements
        ],
        "tables": [
            {
                "table": row[0],
                "updates": row[1],
                "hot_updates": row[2],
                "inserts": row[3],
                "dead": row[4],
                "autovacuums": row[5],
            }
            for row in tables
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lobbies", type=int, default=5)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between draws")
    parser.add_argument("--max-delay", type=float, default=1.5, help="players' random delay")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle sockets first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--settings", default=group.SETTINGS)
    parser.add_argument("--uvicorn-arg", action="append", default=[], help="e.g. --ws-...")
    parser.add_argument("--top", type=int, default=8, help="pg_stat_statements rows to keep")
    parser.add_argument("--label", default="")
    parser.add_argument("--out", help="append the result (one JSON line) here")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME:KEY=VALUE,...",
        help="a server variant (environment switches, bench/placement_settings.py); "
        "several run in turn against the same services, each on its own lobbies",
    )
    parser.add_argument("--rounds", type=int, default=1, help="turns of all variants")
    parser.add_argument("--max-draws", type=int, default=0, help="end each game after N draws")
    parser.add_argument(
        "--start-at",
        metavar="HH:MM",
        help="set up first (services, lobbies), then wait until this UTC time to play "
        "(a quiet window measures the games, not the setup)",
    )
    parser.add_argument(
        "--last-start", metavar="HH:MM", help="start no turn after this UTC time (window end)"
    )
    parser.add_argument(
        "--wait-for",
        metavar="PATH",
        help="after --start-at, also wait until PATH exists (another tree's run ended: "
        "two trees in one quiet window, one after the other)",
    )
    args = parser.parse_args()
    variants = [_variant(text) for text in args.variant] or [(args.label, {})]
    turns = [v for _ in range(args.rounds) for v in variants]
    with throwaway("matika-placement-cpu-") as services:
        enable_pg_stat_statements(services)
        env = services.env(
            settings=args.settings, DB_CONN_MAX_AGE="60", ALLOWED_HOSTS="127.0.0.1,localhost"
        )
        env["ROOM_SOCKETS_PER_ADDRESS"] = str(10 * (args.lobbies + 1) * (args.players + 1))
        fanout.migrate(env)
        os.environ.update(env)
        lobbies = fanout.make_rooms(args.lobbies * len(turns), args.players, game="poker")
        url = services.postgres.url(services.database)
        if args.start_at:
            _wait_until(args.start_at)
        while args.wait_for and not os.path.exists(args.wait_for):
            time.sleep(1)
        for index, (label, switches) in enumerate(turns):
            if args.last_start and _seconds_until(args.last_start) < 0:
                print(f"{args.last_start} UTC passed: turn {label!r} not run", flush=True)
                break
            mine = lobbies[index * args.lobbies : (index + 1) * args.lobbies]
            row = run_one(args, services, {**env, **switches}, url, mine, label or args.label)
            row["switches"] = switches
            print(json.dumps(fanout.rounded(row), indent=1), flush=True)
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(fanout.rounded(row)) + "\n")
            print(markdown_row(row), flush=True)
    return 0


def _seconds_until(hh_mm: str) -> int:
    hour, minute = (int(part) for part in hh_mm.split(":"))
    now = time.gmtime()
    return (hour * 60 + minute) * 60 - (now.tm_hour * 3600 + now.tm_min * 60 + now.tm_sec)


def _wait_until(hh_mm: str) -> None:
    wait = _seconds_until(hh_mm)
    print(f"set up; waiting {max(0, wait)} s for {hh_mm} UTC", flush=True)
    time.sleep(max(0, wait))


def _variant(text: str) -> tuple[str, dict[str, str]]:
    name, _, pairs = text.partition(":")
    switches = dict(pair.split("=", 1) for pair in pairs.split(",") if pair)
    return name, switches


def run_one(args, services, env: dict, url: str, lobbies: list[dict], label: str) -> dict:
    """One server with ``env``, one game on ``lobbies``: the measured row."""
    load_before = os.getloadavg()
    # A variant may add uvicorn flags of its own ("UVICORN_ARGS=--ws websockets").
    extra = [*args.uvicorn_arg, *env.get("UVICORN_ARGS", "").split()]
    servers = fanout.start_servers(env, 1, extra_args=extra)
    pid = servers[0][0].pid
    meter = group.CpuMeter(services.workdir, [pid])
    idle: dict = {}
    split: list[tuple[float, float]] = []
    lags: list[float] = []

    async def before_game() -> None:
        asyncio.get_running_loop().create_task(loop_lag(lags))
        meter.start()
        await asyncio.sleep(args.idle)
        idle.update(meter.stop())
        await asyncio.to_thread(pg_reset, url)
        meter.start()
        split.append(user_system(pid))

    try:
        result = asyncio.run(
            group.play(
                lobbies,
                [servers[0][1]],
                interval=args.interval,
                max_delay=args.max_delay,
                seed=args.seed,
                before_game=before_game,
                max_draws=args.max_draws,
            )
        )
        cpu = meter.stop()
        split.append(user_system(pid))
        postgres = pg_report(url, args.top)
    finally:
        fanout.stop_server(servers[0][0])
    placed = max(1, result["placements"])
    result["acked_but_missing_on_boards"] = group.check_boards(lobbies, result.pop("_acked"))
    return {
        "label": label,
        "commit": _commit(),
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": " ".join(["bench/placement_cpu.py", *sys.argv[1:]]),
        "load_before_after": [round(load_before[0], 1), round(os.getloadavg()[0], 1)],
        "cpu_s": cpu,
        "cpu_ms_per_placement": {part: 1000 * s / placed for part, s in cpu.items()},
        "server_user_system_ms_per_placement": [
            1000 * (split[1][0] - split[0][0]) / placed,
            1000 * (split[1][1] - split[0][1]) / placed,
        ],
        "idle_cpu_s_per_s": {part: s / args.idle for part, s in idle.items()},
        "statements_per_placement": postgres["all_statements"]["calls"] / placed,
        # How late the bench's own event loop ran (a 10 ms timer): the clients'
        # share of the measured latencies (they all live in this one process).
        "client_loop_lag_ms": [1000 * fanout.percentile(lags, q) for q in (0.5, 0.95, 0.99)],
        **result,
        "postgres": postgres,
    }


async def loop_lag(lags: list[float], tick: float = 0.01) -> None:
    """Record how late a ``tick`` timer fires on this loop, until cancelled."""
    while True:
        due = time.monotonic() + tick
        await asyncio.sleep(tick)
        lags.append(max(0.0, time.monotonic() - due))


def markdown_row(row: dict) -> str:
    cpu, idle = row["cpu_ms_per_placement"], row["idle_cpu_s_per_s"]
    lost = (
        row["draws_lost"]
        + row["placements_unanswered"]
        + row["acked_but_missing_on_boards"]
        + row["duplicated_events"]
    )
    return (
        f"| {row['label']} | `{row['commit']}` | {row['sockets']} | {row['placements']} "
        f"| **{cpu['server']:.2f}** | **{cpu['postgres']:.2f}** | {cpu['clients']:.2f} "
        f"| {row['statements_per_placement']:.2f} "
        f"| {100 * idle['server']:.1f} % / {100 * idle['postgres']:.1f} % "
        f"| {row['draw_fanout_ms'][2]:.0f} | {row['placement_ack_ms'][2]:.0f} "
        f"| {row['client_loop_lag_ms'][2]:.0f} "
        f"| {lost} / {row['sockets_dropped_by_server']} "
        f"| {row['load_before_after'][0]} → {row['load_before_after'][1]} |"
    )


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return (
            (BASE_DIR / ".commit").read_text().strip() if (BASE_DIR / ".commit").exists() else "?"
        )


if __name__ == "__main__":
    sys.exit(main())
