"""Homework benchmark (issue 28): a homework evening of pupils playing the poker
assignment against the production configuration, and the teacher's class table.

Play (the default). One command starts throwaway PostgreSQL and Redis
(tools/services.py, via bench/rooms_fanout.py), migrates, makes one class of
``max(--pupils)`` pupils and starts uvicorn the way ``platform/Dockerfile``
does (``config.asgi``, ``config.settings.prod``, ``--proxy-headers``, the
shipped log config; ``--workers`` = ``--processes``), optionally behind
PgBouncer in transaction mode (``--pgbouncer``, tests/scale/topology.py, as
issue 30 ran several processes). Then, for every pupil count of ``--pupils``,
a new homework and an evening:

* pupils arrive spread evenly at random over ``--ramp`` seconds (60: a class
  opening the homework after dinner; ``--ramp 5`` is the burst variant), each
  on its own HTTP/1.1 connection with its own identity cookie, behind one of
  ``pupils / 30`` school addresses (``X-Forwarded-For`` from the trusted
  proxy, ``X-Forwarded-Proto: https``);
* each starts the homework game (``POST /poker/api/games/``
  ``{"mode": "assignment"}``) and places its cards at a human pace: a card
  every ``--think`` seconds (uniform, 3-10 s), up to ``--moves`` cards (25 = the
  whole board, so the finishing path -- score, attempt, homework -- runs too);
  in the hard game (``--seconds-per-card``) the server's clock runs as well;
  with ``--duration`` no pupil takes a new card after that many seconds (an
  overloaded evening then ends in minutes, its rate and latencies measured);
* a ``503 identity_unavailable`` is tried again after its ``Retry-After``, as
  the pages do; a keep-alive connection idle for 4 s is reopened first
  (uvicorn closes them after 5 s, as phones find).

Recorded per evening: placements/s (accepted placements over the span from
the first to the last answer, and in the busiest 10 s), placement and start
latency p50/p95/p99 as the pupil waits for it (retries included), answers by
code, CPU seconds per placement of the servers and PostgreSQL, the load
average. Then the database is checked: every game the server answered 201 for
exists once, every accepted (2xx) placement is stored exactly once in its
game's moves (no placement lost, none doubled), and each started game has
exactly one attempt.

    nice -n 10 .venv/bin/python bench/homework_bench.py --pupils 250 500 1000
    nice -n 10 .venv/bin/python bench/homework_bench.py --pupils 1000 --ramp 5
    nice -n 10 .venv/bin/python bench/homework_bench.py --pupils 1000 --processes 2 --pgbouncer

Teacher's pages (``--pages-only``): in this process through the Django test
client under the test settings (server time: view, selectors and template, no
network), a class of ``--table-pupils`` pupils with ``--assignments``
homework, every pupil having finished each: the class page, one homework's
class table, its .xlsx and JSON -- median and p95 over ``--renders``. It is a
separate run so the play never imports the URL tree in this process (a
half-written module of someone else's once killed a long run there).

CPU per request of the HTTP handler (``--in-process``, issue 28): Django's own
``ASGIHandler`` and config/handlers.py's one-thread handler take turns for
``--rounds`` rounds in this process under ``config.settings.prod``, each round
a new homework that ``--pupils`` pupils play through the ASGI application
itself (no network), ``--concurrency`` at once; process CPU per request.
``--django-handler`` runs the evening itself with Django's handler::

    nice -n 10 .venv/bin/python bench/homework_bench.py --in-process --pupils 32 --rounds 3
    nice -n 10 .venv/bin/python bench/homework_bench.py --pupils 100 --ramp 5 --think 0.5 1.5 --django-handler
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench import rooms_fanout as fanout  # noqa: E402
from bench.poker_group_bench import cpu_seconds, postgres_pids  # noqa: E402
from tools.services import free_port, throwaway  # noqa: E402

CSRF = "b" * 32
RETRIES = 6
JOKER = 0
#: uvicorn closes a keep-alive connection idle for 5 s (--timeout-keep-alive).
IDLE_REOPEN_S = 4.0
PUPILS_PER_ADDRESS = 30
SECRET_KEY = "bench-only-" + secrets.token_urlsafe(48)


def percentile(values: list[float], fraction: float) -> float:
    return fanout.percentile(values, fraction) if values else float("nan")


def ms(values: list[float]) -> dict[str, float]:
    return {
        name: round(percentile(values, q) * 1000, 1)
        for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
    } | {"max": round(max(values) * 1000, 1) if values else float("nan")}


class Pupil:
    """One phone: a keep-alive HTTP/1.1 connection with the pupil's cookies,
    behind its school's address."""

    def __init__(self, address: str, cookie: str, school: str) -> None:
        self.host, port = address.split(":")
        self.port = int(port)
        self.cookie = cookie
        self.school = school
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0

    async def connect(self) -> None:
        self.close()
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.last_used = time.monotonic()

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], str]:
        if self.writer is None or time.monotonic() - self.last_used > IDLE_REOPEN_S:
            await self.connect()
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nX-CSRFToken: {CSRF}\r\n"
            f"Origin: https://localhost\r\nX-Forwarded-Proto: https\r\n"
            f"X-Forwarded-For: {self.school}\r\n"
            f"Cookie: csrftoken={CSRF}; {self.cookie}\r\nAccept-Language: cs\r\n\r\n"
        )
        assert self.writer is not None and self.reader is not None
        self.writer.write(head.encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed before an answer")
        status = int(status_line.split()[1])
        length, retry_after = 0, ""
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "retry-after":
                retry_after = value.strip()
        payload = await self.reader.readexactly(length)
        self.last_used = time.monotonic()
        try:
            return status, json.loads(payload or b"{}"), retry_after
        except ValueError:  # an error page, not the API's JSON
            return status, {"code": f"not_json_{status}"}, retry_after

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.writer = self.reader = None


class Evening:
    """What the pupils saw: latencies, answers by code, accepted placements per game."""

    def __init__(self) -> None:
        self.starts: list[float] = []
        self.placements: list[float] = []
        self.answered_at: list[float] = []  # monotonic time of each accepted placement
        self.answers: Counter[str] = Counter()
        self.retried: Counter[str] = Counter()
        self.accepted: dict[str, int] = {}  # game id -> accepted placements
        self.games: dict[str, int] = {}  # game id -> pupil number (201 answers)
        self.continued = 0
        self.stop_at = float("inf")  # no new card after this (``--duration``)

    async def send(
        self, pupil: Pupil, path: str, body: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """As the pages do: a 503 is tried again after its Retry-After, at most
        ``RETRIES`` times; a connection the server closed before answering is
        reopened and the request sent again (nothing was applied)."""
        status, answer = 0, {"code": "no_answer"}
        for _attempt in range(RETRIES):
            try:
                status, answer, retry_after = await pupil.post(path, body)
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as error:
                self.retried[f"reconnect:{type(error).__name__}"] += 1
                pupil.close()
                await asyncio.sleep(1)
                continue
            if status != 503:
                return status, answer
            self.retried[f"503:{answer.get('code', '')}"] += 1
            await asyncio.sleep(float(retry_after or 5))
        return status, answer

    async def pupil(
        self,
        number: int,
        pupil: Pupil,
        assignment_id: int,
        *,
        arrive: float,
        think: tuple[float, float],
        moves: int,
        rng: random.Random,
    ) -> None:
        await asyncio.sleep(arrive)
        began = time.monotonic()
        status, body = await self.send(
            pupil, "/poker/api/games/", {"mode": "assignment", "assignment": assignment_id}
        )
        self.starts.append(time.monotonic() - began)
        self.answers[f"start {status} {body.get('code', '')}".strip()] += 1
        if status not in (200, 201):
            return
        game = body["game"]
        if status == 201:
            self.games[game["id"]] = number
        else:
            self.continued += 1
        self.accepted.setdefault(game["id"], 0)
        for _ in range(moves):
            if game["over"]:
                break
            await asyncio.sleep(rng.uniform(*think))
            if time.monotonic() > self.stop_at:
                break
            free = [i for i, cell in enumerate(game["cells"]) if cell is None]
            cell = rng.choice(free)
            action = (
                {"type": "use_joker", "cell": cell, "value": 7}
                if game["hand"] == JOKER
                else {"type": "place", "cell": cell}
            )
            began = time.monotonic()
            status, body = await self.send(pupil, f"/poker/api/games/{game['id']}/actions/", action)
            self.placements.append(time.monotonic() - began)
            self.answers[f"place {status} {body.get('code', '')}".strip()] += 1
            if status == 200:
                self.accepted[game["id"]] += 1
                self.answered_at.append(time.monotonic())
                game = body["game"]
            elif status == 409 and "game" in body:  # refused by the rules: the game goes on
                game = body["game"]
            else:
                break
        pupil.close()


async def evening(
    pupils: list[Pupil], assignment_id: int, args: argparse.Namespace, seed: int
) -> tuple[Evening, float]:
    seen = Evening()
    if args.duration:
        seen.stop_at = time.monotonic() + args.duration
    rng = random.Random(seed)
    arrivals = sorted(rng.uniform(0, args.ramp) for _ in pupils)
    rng.shuffle(arrivals)
    began = time.monotonic()
    await asyncio.gather(
        *(
            seen.pupil(
                n,
                pupil,
                assignment_id,
                arrive=arrivals[n],
                think=(args.think[0], args.think[1]),
                moves=args.moves,
                rng=random.Random(seed * 100_003 + n),
            )
            for n, pupil in enumerate(pupils)
        )
    )
    return seen, time.monotonic() - began


def new_homework(teacher: Any, classroom: Any, args: argparse.Namespace, title: str) -> Any:
    from django.utils import timezone

    from homework import services as homework_services

    settings: dict[str, Any] = {"table": "matematico", "difficulty": "easy"}
    if args.seconds_per_card:
        settings = {**settings, "difficulty": "hard", "seconds_per_card": args.seconds_per_card}
    return homework_services.create_assignment(
        classroom=classroom,
        user=teacher,
        game="poker",
        title=title,
        settings=settings,
        opens_at=None,
        due_at=timezone.now() + timedelta(days=2),
        attempts="best",
    )


def production_env(services: Any, workdir: Path, database_url: str | None) -> dict[str, str]:
    """``config.settings.prod`` with throwaway secrets, as tests/production/test_smoke.py."""
    env = services.env(
        "config.settings.prod",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="localhost",
        SITE_URL="https://localhost",
        STATIC_ROOT=str(workdir / "static"),
        EMAIL_URL=f"smtp://127.0.0.1:{free_port()}",
    )
    for name in ("DJANGO_ALLOW_ASYNC_UNSAFE", "FORWARDED_ALLOW_IPS", "SENTRY_DSN", "EMAIL_BACKEND"):
        env.pop(name, None)
    if database_url:
        env.update(DATABASE_URL=database_url, DATABASE_POOLER="pgbouncer")
    return env


def __getattr__(name: str) -> Any:
    """``bench.homework_bench:django_handler_app`` (``--django-handler``): the
    site as shipped but HTTP through Django's own ``ASGIHandler`` instead of
    config/handlers.py, for before/after measurements of the thread hops."""
    if name != "django_handler_app":
        raise AttributeError(name)
    from channels.routing import ProtocolTypeRouter
    from django.core.handlers.asgi import ASGIHandler

    import config.asgi

    return ProtocolTypeRouter(
        {**config.asgi.application.application_mapping, "http": ASGIHandler()}
    )


def start_uvicorn(
    env: dict[str, str], processes: int, log: Path, *, django_handler: bool = False
) -> tuple[subprocess.Popen, str]:
    """The Dockerfile's CMD, read from it (only --host/--port/--workers changed;
    ``django_handler``: the application above instead of ``config.asgi``'s)."""
    from tests.production import shipped

    port = free_port()
    argv = shipped.dockerfile_cmd()
    assert argv[0] == "uvicorn", argv
    if django_handler:
        argv[argv.index("config.asgi:application")] = "bench.homework_bench:django_handler_app"
    for flag, value in (
        ("--host", "127.0.0.1"),
        ("--port", str(port)),
        ("--workers", str(processes)),
    ):
        argv[argv.index(flag) + 1] = value
    argv = [sys.executable, "-m", *argv]
    process = subprocess.Popen(
        argv, cwd=BASE_DIR, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT
    )
    address = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 300  # a busy shared machine starts Django slowly
    answered = 0
    while answered < 4 * processes:  # every worker up, not just the first
        try:
            with urllib.request.urlopen(f"http://{address}/livez", timeout=5) as response:
                answered += response.status == 200
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn did not start, see {log}") from None
            time.sleep(0.5)
    if processes > 1:
        time.sleep(5)
    return process, address


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants (uvicorn's supervisor and its workers)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def check_database(seen: Evening, assignment: Any) -> dict[str, Any]:
    """Every 201 game stored once, every accepted placement stored exactly once."""
    from games.poker.models import SoloGame
    from homework.models import Attempt

    stored = {
        str(pk): moves
        for pk, moves in SoloGame.objects.filter(pk__in=list(seen.accepted)).values_list(
            "pk", "moves"
        )
    }
    attempts = Counter(Attempt.objects.filter(assignment=assignment).values_list("ref", flat=True))
    missing_games = [gid for gid in seen.accepted if gid not in stored]
    lost = sum(max(0, n - len(stored.get(gid, []))) for gid, n in seen.accepted.items())
    extra = sum(max(0, len(stored.get(gid, [])) - n) for gid, n in seen.accepted.items())
    doubled_cells = sum(
        len(moves) - len({m["cell"] for m in moves if "cell" in m}) for moves in stored.values()
    )
    return {
        "games_answered_201": len(seen.games),
        "games_missing_in_db": len(missing_games),
        "attempts_in_db": sum(attempts.values()),
        "games_without_exactly_one_attempt": sum(
            1 for gid in seen.games if attempts.get(gid, 0) != 1
        ),
        "accepted_placements": sum(seen.accepted.values()),
        "stored_placements": sum(len(moves) for moves in stored.values()),
        "accepted_but_not_stored": lost,
        "stored_but_not_accepted": extra,
        "cells_placed_twice": doubled_cells,
        "ok": not missing_games and lost == 0 and extra == 0 and doubled_cells == 0,
    }


def busiest(times: list[float], window: float = 10.0) -> float:
    """Accepted placements per second in the busiest ``window`` seconds."""
    ordered, best, low = sorted(times), 0, 0
    for high, moment in enumerate(ordered):
        while moment - ordered[low] > window:
            low += 1
        best = max(best, high - low + 1)
    return best / window


def run_evening(
    teacher: Any,
    classroom: Any,
    pupils: list[Pupil],
    args: argparse.Namespace,
    server_pids: list[int],
    workdir: Path,
    title: str,
) -> dict[str, Any]:
    assignment = new_homework(teacher, classroom, args, title)
    load_before = os.getloadavg()
    cpu_before = {pid: cpu_seconds(pid) for pid in server_pids}
    pg_before = {pid: cpu_seconds(pid) for pid in postgres_pids(workdir)}
    seen, wall = asyncio.run(evening(pupils, assignment.pk, args, seed=args.seed + len(pupils)))
    load_after = os.getloadavg()
    server_cpu = sum(cpu_seconds(pid) - cpu_before.get(pid, 0.0) for pid in server_pids)
    pg_cpu = sum(cpu_seconds(pid) - pg_before.get(pid, 0.0) for pid in postgres_pids(workdir))
    accepted = sum(seen.accepted.values())
    span = (max(seen.answered_at) - min(seen.answered_at)) if len(seen.answered_at) > 1 else 1.0
    requests = len(seen.starts) + len(seen.placements)
    row = {
        "pupils": len(pupils),
        "ramp_s": args.ramp,
        "think_s": list(args.think),
        "moves": args.moves,
        "duration_s": args.duration,
        "seconds_per_card": args.seconds_per_card,
        "wall_s": round(wall, 1),
        "placements_accepted": accepted,
        "placements_per_s": round(accepted / span, 1),
        "placements_per_s_busiest_10s": round(busiest(seen.answered_at), 1),
        "offered_per_s_steady": round(len(pupils) / (sum(args.think) / 2), 1),
        "placement_ms": ms(seen.placements),
        "start_ms": ms(seen.starts),
        "answers": dict(sorted(seen.answers.items())),
        "retried": dict(seen.retried),
        "continued_games": seen.continued,
        "cpu_ms_per_request": {
            "servers": round(server_cpu * 1000 / max(requests, 1), 2),
            "postgres": round(pg_cpu * 1000 / max(requests, 1), 2),
        },
        "load_1min_before_after": [round(load_before[0], 1), round(load_after[0], 1)],
        "load_5min_after": round(load_after[1], 1),
        "database": check_database(seen, assignment),
    }
    print("evening:", json.dumps(row, ensure_ascii=False), file=sys.stderr, flush=True)
    return row


def play(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {
        "command": " ".join(["bench/homework_bench.py", *sys.argv[1:]]),
        "machine": fanout.machine(f"{os.getloadavg()[0]:.1f}"),
        "processes": args.processes,
        "pgbouncer": args.pgbouncer,
        "http_handler": "django" if args.django_handler else "config.handlers",
        "evenings": [],
    }
    with throwaway("matika-homework-bench-") as services:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            check=True,
            cwd=BASE_DIR,
            env=services.env(),
        )
        bouncer = None
        database_url = None
        if args.pgbouncer:
            from tests.scale.topology import PgBouncer

            bouncer = PgBouncer(services.postgres.port, pool_size=args.pgbouncer_pool)
            bouncer.start()
            database_url = bouncer.url(services.database)
        env = production_env(services, services.workdir, database_url)
        # this process writes the class and reads the check straight from PostgreSQL
        os.environ.update(production_env(services, services.workdir, None))
        import django

        django.setup()
        began = time.monotonic()
        teacher, classroom, cookies = make_pupils(max(args.pupils))
        results["setup_s"] = round(time.monotonic() - began, 1)
        results["db_pool_max_size"] = env.get("DB_POOL_MAX_SIZE", "16 (default)")
        server, address = start_uvicorn(
            env,
            args.processes,
            services.workdir / "uvicorn.log",
            django_handler=args.django_handler,
        )
        try:
            pids = process_tree(server.pid)
            spy = None
            if args.py_spy:  # sampling profile of the server's workers (--format raw)
                spy = subprocess.Popen(
                    [
                        args.py_spy,
                        "record",
                        "--pid",
                        str(server.pid),
                        "--subprocesses",
                        "--nonblocking",
                        "--gil",  # CPU: only samples that hold the GIL (not waits)
                        "--rate",
                        "50",
                        "--format",
                        "raw",
                        "-o",
                        args.py_spy_out,
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            for n, count in enumerate(args.pupils):
                pupils = [
                    Pupil(address, cookie, f"10.28.{k // PUPILS_PER_ADDRESS}.1")
                    for k, cookie in enumerate(cookies[:count])
                ]
                row = run_evening(
                    teacher, classroom, pupils, args, pids, services.workdir, f"Večer {n + 1}"
                )
                results["evenings"].append(row)
                if args.out:
                    Path(args.out).write_text(json.dumps(results, ensure_ascii=False, indent=2))
            if spy is not None:
                spy.send_signal(signal.SIGINT)
                spy.wait(timeout=120)
        finally:
            fanout.stop_server(server)
            if bouncer is not None:
                bouncer.stop()
            log = services.workdir / "uvicorn.log"
            errors = [
                line for line in log.read_text(errors="replace").splitlines() if "ERROR" in line
            ]
            results["server_error_lines"] = len(errors)
            results["server_error_sample"] = errors[:3]
    return results


def make_pupils(count: int) -> tuple[Any, Any, list[str]]:
    """A teacher and a class of ``count`` pupils, each with a profile and an
    identity cookie, made through the services as the pages do."""
    from django.conf import settings
    from django.core import signing

    from accounts import services as account_services
    from accounts.identity import SALT
    from accounts.models import User
    from classrooms import services as class_services
    from classrooms.models import Membership

    teacher = User.objects.create_user(
        f"bench{time.monotonic_ns()}@skola.cz", "Bench-heslo-123", name="Bench"
    )
    if hasattr(teacher, "email_verified_at"):  # a proved address may set homework (issue 38)
        from django.utils import timezone

        teacher.email_verified_at = timezone.now()
        teacher.save(update_fields=["email_verified_at"])
    classroom = class_services.create_classroom(teacher=teacher, name="Bench", school_year="")
    cookies = []
    for n in range(count):
        profile, token = account_services.create_profile(browser_token=None, nickname=f"Žák{n}")
        Membership.objects.create(classroom=classroom, player=profile, roster_name=f"Žák {n:04d}")
        cookies.append(f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=SALT)}")
    return teacher, classroom, cookies


def make_class(pupils: int, *, tag: str, assignments: int = 1, finished: bool = False):
    """A class of ``pupils`` members with profiles, and ``assignments`` poker homework."""
    from django.utils import timezone

    from accounts import services as account_services
    from accounts.identity import SALT
    from accounts.models import User
    from classrooms import services as class_services
    from classrooms.models import Membership
    from homework import services as homework_services
    from homework.models import Attempt

    teacher = User.objects.create_user(
        f"bench{time.monotonic_ns()}@skola.cz", "Bench-heslo-123", name="Bench"
    )
    if hasattr(teacher, "email_verified_at"):  # a proved address may set homework (issue 38)
        from django.utils import timezone

        teacher.email_verified_at = timezone.now()
        teacher.save(update_fields=["email_verified_at"])
    classroom = class_services.create_classroom(teacher=teacher, name="Bench", school_year="")
    cookies, members = [], []
    from django.conf import settings
    from django.core import signing

    for n in range(pupils):
        profile, token = account_services.create_profile(
            browser_token=None, nickname=f"Žák{tag}{n}"
        )
        members.append(
            Membership.objects.create(
                classroom=classroom, player=profile, roster_name=f"Žák {n:04d}"
            )
        )
        cookies.append(f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=SALT)}")
    made = []
    now = timezone.now()
    for n in range(assignments):
        assignment = homework_services.create_assignment(
            classroom=classroom,
            user=teacher,
            game="poker",
            title=f"Úkol {n + 1}",
            settings={"table": "matematico", "difficulty": "easy"},
            opens_at=None,
            due_at=now + timedelta(days=2),
            attempts="best",
        )
        made.append(assignment)
        if finished:
            Attempt.objects.bulk_create(
                Attempt(
                    assignment=assignment,
                    member=member,
                    player=member.player,
                    ref=f"bench-{n}-{member.pk}",
                    counted=True,
                    started_at=now - timedelta(minutes=30),
                    finished_at=now - timedelta(minutes=10),
                    score=random.Random(member.pk * 31 + n).randint(40, 400),
                    duration_s=300.0,
                )
                for member in members
            )
    return teacher, classroom, made, cookies


def render_times(teacher, classroom, assignment, renders: int, profile: bool = False) -> dict:
    from django.test import Client

    client = Client(headers={"accept-language": "cs"}, HTTP_HOST="localhost")
    client.force_login(teacher)
    urls = {
        "class page": f"/classes/{classroom.pk}/",
        "homework class table": f"/classes/{classroom.pk}/homework/{assignment.pk}/",
        "results.xlsx": f"/api/assignments/{assignment.pk}/results.xlsx",
        "results JSON": f"/api/assignments/{assignment.pk}/results/",
    }
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    found = {}
    for name, url in urls.items():
        times = []
        for _ in range(renders + 2):
            began = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        times = times[2:]  # the first two warm caches and connections
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        found[name] = {
            "median_ms": round(statistics.median(times), 1),
            "p95_ms": round(percentile(times, 0.95), 1),
            "max_ms": round(max(times), 1),
            "queries": len(queries),
        }
        if profile and name == "class page":
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(5):
                client.get(url)
            profiler.disable()
            stats = pstats.Stats(profiler, stream=sys.stderr)
            stats.sort_stats("cumulative").print_stats(r"/work/main/(?!\.venv)", 60)
            stats.sort_stats("tottime").print_stats(30)
    found["homework card of the class page (alone)"] = card_times(teacher, classroom, renders)
    return found


def card_times(teacher, classroom, renders: int) -> dict:
    """The homework card alone: what homework adds to the class page."""
    from django.template import Context, Template
    from django.test import RequestFactory

    template = Template("{% load homework %}{% homework_section classroom %}")
    request = RequestFactory().get(f"/classes/{classroom.pk}/")
    request.user, request.player = teacher, None
    times = []
    for _ in range(renders + 2):
        began = time.perf_counter()
        template.render(Context({"request": request, "classroom": classroom}))
        times.append((time.perf_counter() - began) * 1000)
    times = times[2:]
    return {
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
    }


def pages(args: argparse.Namespace) -> dict[str, Any]:
    load_before = f"{os.getloadavg()[0]:.1f}"
    with fanout.bench_services("matika-homework-pages-") as (_workdir, env, _servers):
        os.environ.update(env)
        import django

        django.setup()
        teacher, classroom, table_assignments, _c = make_class(
            args.table_pupils, tag="B", assignments=args.assignments, finished=True
        )
        found = render_times(
            teacher, classroom, table_assignments[0], args.renders, profile=args.profile
        )
    return {
        "command": " ".join(["bench/homework_bench.py", *sys.argv[1:]]),
        "machine": fanout.machine(load_before),
        "class_table": {
            "pupils": args.table_pupils,
            "assignments": args.assignments,
            "server_ms": found,
        },
    }


async def asgi_post(app: Any, path: str, body: dict[str, Any], cookie: str) -> tuple[int, Any]:
    """One POST straight to an ASGI application, as uvicorn hands it over."""
    data = json.dumps(body).encode()
    headers = [
        (b"host", b"localhost"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
        (b"x-csrftoken", CSRF.encode()),
        (b"origin", b"https://localhost"),
        (b"x-forwarded-proto", b"https"),
        (b"cookie", f"csrftoken={CSRF}; {cookie}".encode()),
        (b"accept-language", b"cs"),
    ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "https",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("10.28.0.1", 40000),
        "server": ("localhost", 443),
    }
    delivered, answer = False, {"body": b""}

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": data, "more_body": False}
        await asyncio.Event().wait()
        return {}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer["status"], json.loads(answer["body"] or b"{}")


async def play_in_process(
    app: Any, cookies: list[str], assignment_id: int, concurrency: int
) -> int:
    """Every pupil plays the whole board back to back, ``concurrency`` at once."""
    gate, requests = asyncio.Semaphore(concurrency), 0

    async def pupil(number: int, cookie: str) -> None:
        nonlocal requests
        rng = random.Random(number)
        async with gate:
            body = {"mode": "assignment", "assignment": assignment_id}
            status, answer = await asgi_post(app, "/poker/api/games/", body, cookie)
            assert status in (200, 201), (status, answer)
            game, requests = answer["game"], requests + 1
            while not game["over"]:
                cell = rng.choice([i for i, value in enumerate(game["cells"]) if value is None])
                action = (
                    {"type": "use_joker", "cell": cell, "value": 7}
                    if game["hand"] == JOKER
                    else {"type": "place", "cell": cell}
                )
                path = f"/poker/api/games/{game['id']}/actions/"
                status, answer = await asgi_post(app, path, action, cookie)
                assert status == 200, (status, answer)
                game, requests = answer["game"], requests + 1

    await asyncio.gather(*(pupil(n, cookie) for n, cookie in enumerate(cookies)))
    return requests


def in_process(args: argparse.Namespace) -> dict[str, Any]:
    """CPU per request of the two HTTP handlers, driven in this process through
    the ASGI application itself (no network, no client process), under
    ``config.settings.prod``: the handlers take turns, round after round, on
    the same database and the same load, so the machine's drift falls on both."""
    rows: list[dict[str, Any]] = []
    with throwaway("matika-homework-inprocess-") as services:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            check=True,
            cwd=BASE_DIR,
            env=services.env(),
        )
        os.environ.update(production_env(services, services.workdir, None))
        import django

        django.setup()
        import logging

        logging.disable(logging.WARNING)
        from django.core.handlers.asgi import ASGIHandler
        from django.db import connection
        from psycopg_pool import ConnectionPool

        from config import dbpool
        from config.handlers import OneThreadASGIHandler

        class WithoutLeanRoutes(OneThreadASGIHandler):
            """The one-thread handler as before the lean routes (issue 41, fifth pass)."""

            async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
                await ASGIHandler.__call__(self, scope, receive, send)

        handlers = {
            "django": ASGIHandler(),
            "one-thread, no lean route": WithoutLeanRoutes(),
            "config.handlers": OneThreadASGIHandler(),
        }
        if args.handlers:
            handlers = {name: app for name, app in handlers.items() if name in args.handlers}
        teacher, classroom, cookies = make_pupils(args.pupils[0])
        for round_ in range(args.rounds):
            for name, app in handlers.items():
                assignment = new_homework(teacher, classroom, args, f"{name} {round_}")
                # the pool's check as each handler's process has it: the shipped
                # web process lends a quiet connection without a round trip
                # (config/dbpool.py, installed by get_asgi_application)
                pool = connection.pool
                pool._check = (
                    dbpool.check_connection
                    if name == "config.handlers"
                    else ConnectionPool.check_connection
                )
                load = os.getloadavg()[0]
                cpu = time.process_time()
                requests = asyncio.run(
                    play_in_process(app, cookies, assignment.pk, args.concurrency)
                )
                row = {
                    "handler": name,
                    "round": round_,
                    "requests": requests,
                    "cpu_ms_per_request": round((time.process_time() - cpu) * 1000 / requests, 2),
                    "load_1min_before_after": [round(load, 1), round(os.getloadavg()[0], 1)],
                }
                print("in-process:", json.dumps(row), file=sys.stderr, flush=True)
                rows.append(row)
    return {
        "command": " ".join(["bench/homework_bench.py", *sys.argv[1:]]),
        "machine": fanout.machine(f"{os.getloadavg()[0]:.1f}"),
        "pupils": args.pupils[0],
        "concurrency": args.concurrency,
        "rows": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, nargs="+", default=[1000])
    parser.add_argument("--ramp", type=float, default=60.0, help="seconds over which pupils arrive")
    parser.add_argument(
        "--think", type=float, nargs=2, default=[3.0, 10.0], help="seconds between cards"
    )
    parser.add_argument("--moves", type=int, default=25, help="cards each pupil places")
    parser.add_argument(
        "--duration",
        type=float,
        default=0,
        help="seconds of the evening measured: no new card after it (0: every pupil plays --moves)",
    )
    parser.add_argument(
        "--seconds-per-card", type=int, default=None, help="the hard game with this clock"
    )
    parser.add_argument("--processes", type=int, default=1, help="uvicorn --workers")
    parser.add_argument("--pgbouncer", action="store_true", help="servers behind PgBouncer")
    parser.add_argument(
        "--django-handler",
        action="store_true",
        help="HTTP through Django's own ASGIHandler (before config/handlers.py)",
    )
    parser.add_argument("--pgbouncer-pool", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--py-spy", help="py-spy binary: profile the server while it plays")
    parser.add_argument("--py-spy-out", default="homework-server.txt", help="its raw stacks")
    parser.add_argument("--out", help="write the results here after every evening")
    parser.add_argument("--pages-only", action="store_true", help="only the teacher's pages")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="CPU per request of Django's and our ASGI handler, in this process",
    )
    parser.add_argument("--rounds", type=int, default=3, help="--in-process: rounds")
    parser.add_argument("--concurrency", type=int, default=16, help="--in-process: at once")
    parser.add_argument(
        "--handlers",
        nargs="+",
        help="--in-process: only these (django, 'one-thread, no lean route', config.handlers)",
    )
    parser.add_argument("--table-pupils", type=int, default=30)
    parser.add_argument("--assignments", type=int, default=20)
    parser.add_argument("--renders", type=int, default=20)
    parser.add_argument("--profile", action="store_true", help="cProfile of the class page")
    args = parser.parse_args()
    if args.in_process:
        result = in_process(args)
    else:
        result = pages(args) if args.pages_only else play(args)
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
