"""EXPLAIN (ANALYZE, BUFFERS) of the statements of one group-poker placement (issue 41).

Starts throwaway PostgreSQL and Redis, migrates, seats one lobby of
``--players`` players, draws once, and then, for the statements a placement
runs (games/rooms/moves.py: the unlocked read and the checked step; the
room-wide intent's lock for comparison), prints PostgreSQL's plan with
buffers, planning and execution time. Writes run inside a transaction that is
rolled back, so every plan sees the same rows. ``--repeat`` executes each
statement that many times first (warm caches, as a server's connection is).

    .venv/bin/python bench/placement_explain.py --players 50

Results: bench/RESULTS-placement-cpu.md ("PostgreSQL review").
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

import rooms_fanout as fanout  # noqa: E402

from tools.services import throwaway  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with throwaway("matika-placement-explain-") as services:
        env = services.env(ALLOWED_HOSTS="127.0.0.1,localhost")
        fanout.migrate(env)
        os.environ.update(env)
        lobby = fanout.make_rooms(1, args.players, game="poker")[0]
        explain(lobby, args.repeat)
    return 0


def explain(lobby: dict, repeat: int) -> None:
    from django.db import connection
    from django.utils import timezone
    from psycopg.types.json import Jsonb

    from accounts.models import PlayerProfile
    from games.rooms import moves, services
    from games.rooms.models import Seat

    host = PlayerProfile.objects.get(seats__room_id=lobby["id"], seats__role="host")
    services.submit(room_id=lobby["id"], player=host, client_id="d1", message={"type": "draw"})
    player = PlayerProfile.objects.get(pk=lobby["players"][0]["id"])
    seat = Seat.objects.get(room_id=lobby["id"], player=player)
    now = timezone.now()
    read = {
        "room": lobby["id"],
        "player": player.pk,
        "client_id": "x1",
        "now": now,
        "room_version": None,
    }
    row = _one(connection, "SELECT seq, status FROM rooms_room WHERE id = %s", [lobby["id"]])
    version = _one(connection, "SELECT xmin::text FROM rooms_seat WHERE id = %s", [seat.pk])[0]
    step = {
        "seat": seat.pk,
        "state": Jsonb(seat.state),
        "room": lobby["id"],
        "player": player.pk,
        "client_id": "x1",
        "action": Jsonb({"type": "place", "cell": 0}),
        "private": Jsonb({}),
        "now": now,
        "room_seq": row[0],
        "room_status": row[1],
        "seat_version": version,
        "joined": Seat.Status.JOINED,
    }
    statements = [
        ("unlocked read (per placement)", moves._sql("seat_read", moves._SEAT_READ_SQL), read),
        (
            "checked step (per placement)",
            moves._sql("checked_step", moves._CHECKED_SEAT_STEP_SQL),
            step,
        ),
        (
            "room-wide intent's lock (per draw)",
            moves._sql("lock_for_intent", moves._LOCK_FOR_INTENT_SQL),
            {"room": lobby["id"], "player": host.pk, "client_id": "d2"},
        ),
    ]
    import psycopg

    raw = connection.connection if connection.connection else None
    if raw is None:
        connection.ensure_connection()
        raw = connection.connection
    for title, sql, params in statements:
        cursor = psycopg.Cursor(raw)  # server-side binding, as prepared.SeatCursor
        with raw.transaction(force_rollback=True):
            for _ in range(repeat):
                with raw.transaction(force_rollback=True):
                    cursor.execute(sql, params)
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, SETTINGS, WAL) " + sql, params)
            plan = "\n".join(r[0] for r in cursor.fetchall())
        print(f"### {title}\n\n```\n{plan}\n```\n", flush=True)
        with raw.cursor() as plain:  # the generic plan, as prepared.SeatCursor runs it
            plain.execute("EXPLAIN (GENERIC_PLAN) " + _numbered(sql))
            generic = "\n".join(r[0] for r in plain.fetchall())
        print(f"generic plan:\n\n```\n{generic}\n```\n", flush=True)
    with raw.cursor() as cursor:
        cursor.execute(
            "SELECT indexrelid::regclass, pg_relation_size(indexrelid) FROM pg_index"
            " WHERE indrelid IN ('rooms_seat'::regclass, 'rooms_roomevent'::regclass,"
            " 'rooms_processedmessage'::regclass, 'rooms_room'::regclass) ORDER BY 1"
        )
        print("### indexes written by the placement tables\n")
        for name, size in cursor.fetchall():
            print(f"- {name} ({size} bytes)")
        cursor.execute(
            "SELECT relname, reloptions FROM pg_class WHERE relname IN"
            " ('rooms_seat', 'rooms_room', 'rooms_roomevent', 'rooms_processedmessage')"
        )
        print("\nreloptions:", cursor.fetchall())


def _numbered(sql: str) -> str:
    """``%(name)s`` placeholders as ``$1, $2...`` (first appearance), for GENERIC_PLAN."""
    import re

    names: list[str] = []

    def number(found: re.Match) -> str:
        if found.group(1) not in names:
            names.append(found.group(1))
        return f"${names.index(found.group(1)) + 1}"

    return re.sub(r"%\((\w+)\)s", number, sql)


def _one(connection, sql: str, params: list):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


if __name__ == "__main__":
    sys.exit(main())
