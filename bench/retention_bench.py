"""Retention at scale: deleting many ended rooms with their seats and logs in batches.

One command starts a throwaway PostgreSQL and Redis (tools/services.py),
migrates, fills ``--rooms`` finished rooms (2 seats and ``--events`` log
entries each) and as many old idempotency answers with SQL ``generate_series``,
then runs the real ``accounts.retention`` functions and reports the total
time, the number of batches and the slowest single batch (statement time of
the batch's DELETEs: how long one transaction holds its rows), while a second
thread keeps writing new live rooms and reports its slowest insert (does
retention block the rooms table?).

    .venv/bin/python bench/retention_bench.py --rooms 100000 --events 5
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from tools.services import throwaway  # noqa: E402

FILL = """
INSERT INTO accounts_playerprofile (nickname, nickname_skeleton, code, is_active,
                                    nickname_hidden, created_at, last_seen_at)
SELECT 'p' || i, 'p ' || i, 'R' || lpad(i::text, 9, '0'), true, false, now(), now()
FROM generate_series(1, 2000) AS i;
CREATE TEMP TABLE bench_ids AS SELECT min(id) AS first FROM accounts_playerprofile;

INSERT INTO rooms_room (code, game, mode, settings, host_id, status, locked, state, seq,
                        rng_seed, created_at, finished_at, expires_at)
SELECT 'B' || lpad((i %% 99999)::text, 5, '0'), 'poker', 'duel', '{}'::jsonb,
       (SELECT first FROM bench_ids) + (i %% 2000), 'finished', false,
       '{"players": [1, 2]}'::jsonb, %(events)s, i, now() - interval '30 days',
       now() - interval '30 days', now() - interval '29 days'
FROM generate_series(1, %(rooms)s) AS i;

INSERT INTO rooms_seat (room_id, player_id, role, status, state, joined_at)
SELECT r.id, (SELECT first FROM bench_ids) + ((r.id + k) %% 2000),
       CASE WHEN k = 0 THEN 'host' ELSE 'player' END, 'joined', '{}'::jsonb, r.created_at
FROM rooms_room r CROSS JOIN generate_series(0, 1) AS k;

INSERT INTO rooms_roomevent (room_id, seq, kind, actor_id, action, public, private, created_at)
SELECT r.id, s, 'move', r.host_id, '{"type": "place", "cell": 3}'::jsonb,
       '[{"type": "placed", "player_id": 1, "nickname": "p1"}]'::jsonb, '{}'::jsonb,
       r.created_at
FROM rooms_room r CROSS JOIN generate_series(1, %(events)s) AS s;

INSERT INTO rooms_processedmessage (room_id, player_id, client_id, response, created_at)
SELECT r.id, r.host_id, 'm' || r.id, '{"type": "ack"}'::jsonb, now() - interval '30 days'
FROM rooms_room r;
"""


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    from accounts import retention
    from games.rooms.models import Room

    settings.RETENTION_BATCH = args.batch
    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(FILL, {"rooms": args.rooms, "events": args.events})
        cursor.execute("ANALYZE")
    print(f"filled in {time.perf_counter() - began:.1f} s", flush=True)
    with connection.cursor() as cursor:
        for table in ("rooms_room", "rooms_seat", "rooms_roomevent", "rooms_processedmessage"):
            cursor.execute(f"SELECT count(*) FROM {table}")
            print(f"  {table}: {cursor.fetchone()[0]}")

    batch_times: list[float] = []

    def timed(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            if sql.startswith("DELETE"):
                batch_times.append(time.perf_counter() - start)

    stop = threading.Event()
    inserts: list[float] = []

    def writer() -> None:
        from django.db import connection as own

        host_id = Room.objects.values_list("host_id", flat=True).first()
        n = 0
        while not stop.is_set():
            n += 1
            start = time.perf_counter()
            Room.objects.create(
                code=f"L{n:05d}"[-6:],
                game="poker",
                mode="duel",
                host_id=host_id,
                rng_seed=n,
                expires_at=timezone.now() + timezone.timedelta(hours=6),
            )
            inserts.append(time.perf_counter() - start)
            time.sleep(0.01)
        own.close()

    thread = threading.Thread(target=writer)
    thread.start()
    now = timezone.now()
    with connection.execute_wrapper(timed):
        start = time.perf_counter()
        rooms = retention.delete_ended_rooms(now)
        rooms_s = time.perf_counter() - start
        deletes_rooms = len(batch_times)
        start = time.perf_counter()
        answers = retention.delete_processed_messages(now)
        answers_s = time.perf_counter() - start
    stop.set()
    thread.join()
    room_batches = -(-rooms // args.batch)
    print(
        f"\nended rooms deleted: {rooms} in {rooms_s:.1f} s, {room_batches} batches of "
        f"{args.batch} ({rooms / rooms_s:.0f} rooms/s); DELETE statements {deletes_rooms}, "
        f"slowest DELETE {max(batch_times[:deletes_rooms]) * 1000:.0f} ms"
    )
    print(f"idempotency answers deleted: {answers} in {answers_s:.1f} s (already gone with rooms)")
    inserts.sort()
    print(
        f"live-room inserts meanwhile: {len(inserts)}, median "
        f"{inserts[len(inserts) // 2] * 1000:.1f} ms, max {inserts[-1] * 1000:.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=5)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    with throwaway("matika-bench-") as services:
        os.environ.update(services.env())
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            check=True,
            cwd=BASE_DIR,
            env=dict(os.environ),
        )
        print(
            f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"load {os.getloadavg()[0]:.1f}; {args.rooms} rooms x ({args.events} events + 2 seats)",
            flush=True,
        )
        run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
