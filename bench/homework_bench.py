"""Homework benchmark (issue 28): pupils playing assignment games at once against
one server process, and the teacher's class table.

One command starts throwaway PostgreSQL and Redis (bench/rooms_fanout.py),
migrates, makes a class of ``--pupils`` pupils with one poker homework, starts
one uvicorn process and lets every pupil -- each its own keep-alive HTTP
connection, all at once -- start the homework game (``POST /poker/api/games/``
``{"mode": "assignment"}``) and place ``--moves`` numbers through the real
poker API, services and database:

    .venv/bin/python bench/homework_bench.py --pupils 1000 --moves 25

Measured: placements per second over the whole run (first start sent to last
answer received), start and placement latency p50/p95/p99, refusals (must be
0). Then, in this process through the Django test client (server time: the
view, the selectors and the template, no network), the teacher's pages of a
class of ``--table-pupils`` pupils with ``--assignments`` homework, every
pupil having finished each one: the class page (with its homework card), one
homework's class table, and its .xlsx -- median and p95 over ``--renders``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench import rooms_fanout as fanout  # noqa: E402

CSRF = "b" * 32
RETRIES = 6
JOKER = 0


def percentile(values: list[float], fraction: float) -> float:
    return fanout.percentile(values, fraction) if values else float("nan")


class Pupil:
    """One phone: a keep-alive HTTP/1.1 connection with the pupil's cookies."""

    def __init__(self, address: str, cookie: str) -> None:
        self.host, port = address.split(":")
        self.port = int(port)
        self.cookie = cookie
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def post(self, path: str, body: dict) -> tuple[int, dict]:
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nX-CSRFToken: {CSRF}\r\n"
            f"Cookie: csrftoken={CSRF}; {self.cookie}\r\nAccept-Language: en\r\n\r\n"
        )
        assert self.writer is not None and self.reader is not None
        self.writer.write(head.encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        try:
            return status, json.loads(payload or b"{}")
        except ValueError:  # an error page, not the API's JSON
            return status, {"code": f"not_json_{status}"}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def play(pupils: list[Pupil], assignment_id: int, moves: int, seed: int, ramp: float) -> dict:
    starts: list[float] = []
    placements: list[float] = []
    refused: list[tuple[int, str]] = []
    await asyncio.gather(*(pupil.connect() for pupil in pupils))
    go = asyncio.Event()

    retried: list[str] = []

    async def send(pupil: Pupil, path: str, body: dict) -> tuple[int, dict]:
        """As the pages do: a 503 identity_unavailable is tried again after
        its Retry-After (5 s), at most ``RETRIES`` times."""
        status, answer = 0, {"code": "no_answer"}
        for _attempt in range(RETRIES):
            try:
                status, answer = await pupil.post(path, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                # the server closed the idle keep-alive connection: a new one
                retried.append("reconnect")
                pupil.close()
                await pupil.connect()
                continue
            if status != 503:
                return status, answer
            retried.append(answer.get("code", ""))
            await asyncio.sleep(5)
            pupil.close()  # uvicorn closes keep-alive connections idle 5 s
            await pupil.connect()
        return status, answer

    async def one(pupil: Pupil, rng: random.Random) -> None:
        await go.wait()
        await asyncio.sleep(rng.random() * ramp)  # pupils press Start within ``ramp`` seconds
        began = time.monotonic()
        status, body = await send(
            pupil, "/poker/api/games/", {"mode": "assignment", "assignment": assignment_id}
        )
        starts.append(time.monotonic() - began)
        if status not in (200, 201):
            refused.append((status, body.get("code", "")))
            return
        game = body["game"]
        for _ in range(moves):
            if game["over"]:
                break
            free = [i for i, cell in enumerate(game["cells"]) if cell is None]
            cell = rng.choice(free)
            action = (
                {"type": "use_joker", "cell": cell, "value": 7}
                if game["hand"] == JOKER
                else {"type": "place", "cell": cell}
            )
            began = time.monotonic()
            status, body = await send(pupil, f"/poker/api/games/{game['id']}/actions/", action)
            placements.append(time.monotonic() - began)
            if status != 200:
                refused.append((status, body.get("code", "")))
                return
            game = body["game"]

    tasks = [
        asyncio.create_task(one(pupil, random.Random(seed * 100_003 + n)))
        for n, pupil in enumerate(pupils)
    ]
    began = time.monotonic()
    go.set()
    await asyncio.gather(*tasks)
    wall = time.monotonic() - began
    for pupil in pupils:
        pupil.close()
    return {
        "wall_s": wall,
        "starts": starts,
        "placements": placements,
        "refused": refused,
        "retried": retried,
    }


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=25, help="numbers each pupil places")
    parser.add_argument("--table-pupils", type=int, default=30)
    parser.add_argument("--assignments", type=int, default=20)
    parser.add_argument("--renders", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ramp", type=float, default=5.0, help="seconds over which pupils start")
    parser.add_argument(
        "--pages-only", action="store_true", help="only the teacher's pages (no pupils playing)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="cProfile of the class page on stderr"
    )
    args = parser.parse_args()
    load_before = f"{os.getloadavg()[0]:.1f}"
    with fanout.bench_services("matika-homework-bench-") as (_workdir, env, servers):
        os.environ.update(env)
        import django

        django.setup()
        began = time.monotonic()
        if args.pages_only:
            args.pupils = 0
        _teacher, _classroom, assignments, cookies = make_class(args.pupils, tag="A")
        setup_s = time.monotonic() - began
        if args.pages_only:
            played = {"wall_s": 1.0, "starts": [], "placements": [], "refused": [], "retried": []}
        else:
            servers += fanout.start_servers(env, 1)
            address = servers[0][1]
            pupils = [Pupil(address, cookie) for cookie in cookies]
            played = asyncio.run(play(pupils, assignments[0].pk, args.moves, args.seed, args.ramp))
        summary = {
            "wall_s": round(played["wall_s"], 1),
            "placements": len(played["placements"]),
            "placement_p99_ms": round(percentile(played["placements"], 0.99) * 1000, 1),
            "refused": dict(Counter(code for _status, code in played["refused"])),
            "retried": dict(Counter(played["retried"])),
        }
        print("played:", json.dumps(summary), file=sys.stderr, flush=True)
        teacher, classroom, table_assignments, _c = make_class(
            args.table_pupils, tag="B", assignments=args.assignments, finished=True
        )
        pages = render_times(
            teacher, classroom, table_assignments[0], args.renders, profile=args.profile
        )
        placements = played["placements"]
        result = {
            "command": " ".join(["bench/homework_bench.py", *sys.argv[1:]]),
            "machine": fanout.machine(load_before),
            "setup_s": round(setup_s, 1),
            "pupils": args.pupils,
            "wall_s": round(played["wall_s"], 1),
            "placements": len(placements),
            "placements_per_s": round(len(placements) / played["wall_s"], 1),
            "placement_ms": {
                "p50": round(percentile(placements, 0.5) * 1000, 1),
                "p95": round(percentile(placements, 0.95) * 1000, 1),
                "p99": round(percentile(placements, 0.99) * 1000, 1),
            },
            "start_ms": {
                "p50": round(percentile(played["starts"], 0.5) * 1000, 1),
                "p99": round(percentile(played["starts"], 0.99) * 1000, 1),
            },
            "refused_codes": dict(Counter(code for _status, code in played["refused"])),
            "refused_count": len(played["refused"]),
            "retried": dict(Counter(played["retried"])),
            "db_pool_max_size": os.environ.get("DB_POOL_MAX_SIZE", "16 (default)"),
            "class_table": {
                "pupils": args.table_pupils,
                "assignments": args.assignments,
                "server_ms": pages,
            },
        }
        print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
