"""Leaderboard speed with a million ranked results (docs/leaderboards.md).

One command starts a throwaway PostgreSQL (tools/services.py), migrates,
and fills it with ``--results`` finished ranked games of ``--players`` players
spread over the last ``--days`` days (SQL ``generate_series``: fast). The
maintained table ``poker_leaderboardentry`` is then filled from them with the
same rule the service's upsert keeps (best per player and period: higher
score, shorter game, earlier finish), since a million upserts one by one only
measure the Python loop. Then it times, through the real code:

- ``selectors.leaderboard`` (top 100 + the player's own row) per period,
  "cold" (the cached higher-score count cleared before every call) and "warm",
- the own-rank count of a player far down the all-time board,
- ``services.leaderboards.upsert_entries`` for new results (the write on every finish),
- the cold numbers again after those upserts (pages no longer all-visible:
  index-only scans then visit the heap until autovacuum runs),

and prints ``EXPLAIN (ANALYZE, BUFFERS)`` of the top-100 and the rank counts.

    .venv/bin/python bench/leaderboard_bench.py --results 1000000 --players 100000
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from tools.services import throwaway  # noqa: E402

FILL = """
INSERT INTO accounts_playerprofile (nickname, code, is_active, nickname_hidden, created_at,
                                    last_seen_at)
SELECT 'p' || i, 'B' || lpad(i::text, 9, '0'), true, false, now(), now()
FROM generate_series(1, %(players)s) AS i;

CREATE TEMP TABLE bench_ids AS SELECT min(id) AS first FROM accounts_playerprofile;

INSERT INTO poker_sologame (id, player_id, mode, difficulty, "table", seconds_per_card, state,
                            created_at, updated_at, finished_at, replay, published,
                            leaderboard_hidden)
SELECT md5(i::text || 'g')::uuid,
       (SELECT first FROM bench_ids) + (i %% %(players)s),
       'ranked', CASE WHEN i %% 3 = 0 THEN 'hard' ELSE 'easy' END, 'contiguous',
       CASE WHEN i %% 3 = 0 THEN 20 END, '{}'::jsonb,
       f - make_interval(secs => 60 + (i::bigint * 7919) %% 840),
       f, f, false, true, false
FROM (
    SELECT i, now() - make_interval(secs => (i::bigint * 104729) %% (%(days)s * 86400)) AS f
    FROM generate_series(1, %(results)s) AS i
) AS moments;

CREATE TEMP TABLE bench_results AS
SELECT g.id AS game_id, g.player_id, g.finished_at, g.difficulty,
       ((hashtext(g.id::text) & 2147483647) %% 360) + 20 AS score,
       (extract(epoch FROM g.finished_at - g.created_at) * 1000)::int AS duration_ms,
       timezone('Europe/Bratislava', g.finished_at)::date AS local_day
FROM poker_sologame g;
"""

PERIOD_KEYS = {
    "day": "'day:' || to_char(local_day, 'YYYY-MM-DD')",
    "week": "'week:' || to_char(date_trunc('week', local_day), 'YYYY-MM-DD')",
    "month": "'month:' || to_char(local_day, 'YYYY-MM')",
    "all": "'all'",
}

ENTRIES = """
INSERT INTO poker_leaderboardentry (period, player_id, game_id, score, duration_ms,
                                    finished_at, difficulty)
SELECT DISTINCT ON (period, player_id) period, player_id, game_id, score, duration_ms,
       finished_at, difficulty
FROM (SELECT {key} AS period, * FROM bench_results) AS keyed
ORDER BY period, player_id, score DESC, duration_ms, finished_at
"""


def timed(function, repeat: int) -> tuple[float, float]:
    """Median and max wall time of ``repeat`` calls, in milliseconds."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def explain(sql: str, params: list) -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql, params)
        return "\n".join("    " + row[0] for row in cursor.fetchall())


def run(args: argparse.Namespace) -> None:
    import django

    django.setup()
    from django.db import connection

    from accounts.models import PlayerProfile
    from games.poker import selectors
    from games.poker.models import LeaderboardEntry, SoloGame
    from games.poker.periods import period_key
    from games.poker.services import leaderboards

    began = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(FILL, {"players": args.players, "results": args.results, "days": args.days})
        for period, key in PERIOD_KEYS.items():
            cursor.execute(ENTRIES.format(key=key))
            print(f"entries for {period}: {cursor.rowcount}", flush=True)
        cursor.execute("VACUUM ANALYZE poker_leaderboardentry")
        cursor.execute("ANALYZE poker_sologame")
    print(f"filled in {time.perf_counter() - began:.0f} s", flush=True)
    print(f"leaderboard rows: {LeaderboardEntry.objects.count()}")

    from django.core.cache import cache

    now = datetime.now(UTC)
    sample_player = PlayerProfile.objects.order_by("pk")[args.players // 2]
    entries = LeaderboardEntry.objects.filter(period="all")
    last = entries.order_by("score", "-duration_ms").first()
    middle = entries.order_by("-score")[entries.count() // 2]

    def table(title: str) -> None:
        print(f"\n{title}\n\n| query | median ms | max ms |\n|---|---|---|")
        for period in ("day", "week", "month", "all"):
            for label, clear in (("cold", True), ("warm", False)):

                def read(p: str = period, clear: bool = clear) -> None:
                    if clear:
                        cache.clear()
                    selectors.leaderboard(period=p, now=now, player=sample_player)

                median, worst = timed(read, 20)
                print(
                    f"| leaderboard({period}) top 100 + own row, {label} | {median:.2f} | "
                    f"{worst:.2f} |"
                )
        for name, entry in (("last", last), ("middle", middle)):
            median, worst = timed(lambda e=entry: selectors.rank_in(entries, e), 10)
            print(
                f"| exact rank count, {name} (rank {selectors.rank_in(entries, entry)}) | "
                f"{median:.2f} | {worst:.2f} |"
            )

    table("After VACUUM ANALYZE:")
    ahead_sql, ahead_params = (
        entries.filter(score__gt=last.score).values("pk").query.sql_with_params()
    )
    count_sql = f"SELECT count(*) FROM ({ahead_sql}) AS ahead"
    print("\nEXPLAIN rank count (score > mine) of the last player, after VACUUM:")
    print(explain(count_sql, list(ahead_params)))

    games = list(SoloGame.objects.order_by("?")[: args.upserts])
    from django.db import transaction

    start = time.perf_counter()
    for game in games:
        with transaction.atomic():
            leaderboards.upsert_entries(game=game, score=400, duration_ms=30_000)
    per = (time.perf_counter() - start) * 1000 / len(games)
    print(f"\nupsert of one result into its 4 periods: {per:.2f} ms (mean of {len(games)})")
    table(f"After {len(games)} upserts (no vacuum since):")

    key = period_key("all", now)
    top_sql, top_params = entries.order_by("-score", "duration_ms", "finished_at", "pk")[
        :100
    ].query.sql_with_params()
    print("\nEXPLAIN top 100 of all time:\n" + explain(top_sql, list(top_params)))
    print("\nEXPLAIN rank count (score > mine) of the last player, after the upserts:")
    print(explain(count_sql, list(ahead_params)))
    print(f"\nperiod key for now: {key}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--upserts", type=int, default=500)
    args = parser.parse_args()
    # A terminated run still stops its PostgreSQL and Redis (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    with throwaway("matika-bench-") as services:
        os.environ.update(services.env())
        import subprocess

        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            check=True,
            cwd=BASE_DIR,
            env=dict(os.environ),
        )
        print(
            f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"load {os.getloadavg()[0]:.1f}; {args.results} results, {args.players} players, "
            f"{args.days} days",
            flush=True,
        )
        run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
