"""Poker group game benchmark: lobbies of 50 players playing real games over WebSockets.

One command starts throwaway PostgreSQL and Redis, migrates, starts uvicorn and
plays R lobbies x P players through the real consumer, services and database:

    .venv/bin/python bench/poker_group_bench.py --lobbies 1 --players 50
    .venv/bin/python bench/poker_group_bench.py --lobbies 20 --players 50 --interval 2

Each lobby's host draws every ``--interval`` seconds until the sequence closes
(25 numbers); every player, on hearing a draw, waits a random delay (up to
``--max-delay``) and places it on their own board (jokers are used as 1s). All
clients share this process's monotonic clock.

Measured: draw fan-out (host's send -> the last player of the lobby received
the draw) p50/p95/p99; placement ack (send -> own ack) p50/p95/p99; losses:
draws a player never received, placements not acknowledged, and -- read back
from PostgreSQL after the run -- acknowledged placements missing from the
boards (must all be 0). The "simultaneous" phase first has 50 players of one
lobby place the same number at the same moment.

CPU: the seconds of CPU the server process(es), the PostgreSQL cluster and this
client process used during the game phase (from /proc; from the moment every
socket is connected to the end of the games), per acknowledged placement -- on a shared, busy machine a steadier measure than latency.

``--profile PY_SPY`` samples the (first) server with py-spy during the game
phase (only the thread holding the GIL: where its Python CPU goes) and prints
the hottest frames (install py-spy anywhere,
e.g. ``pip install --target /tmp/pyspy py-spy``, and pass its binary).

Uses bench/rooms_fanout.py for services, servers and the socket client.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

import rooms_fanout as fanout  # noqa: E402

# The project's test settings: its channel layer, and config/urls.py routes the
# poker room pages.
SETTINGS = "config.settings.test"


class Player(fanout.Client):
    """A socket that also queues the draws it hears, to place them in order."""

    def __init__(self, address: str, code: str, cookie: str, player_id: int) -> None:
        super().__init__(address, code, cookie)
        self.player_id = player_id
        self.cards: asyncio.Queue = asyncio.Queue()
        self.next_cell = 0
        self.acked: list[dict] = []

    async def read(self) -> None:
        async for raw in self.ws:
            now = time.monotonic()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "event":
                if message["seq"] in self.arrivals:
                    self.duplicates += 1
                    continue
                self.arrivals[message["seq"]] = now
                for event in message["events"]:
                    if event["type"] == "drawn":
                        self.cards.put_nowait(event)
            elif kind in ("ack", "error"):
                future = self.answers.pop(message.get("id"), None)
                if future and not future.done():
                    future.set_result((now, message))

    def move(self, card: int) -> dict:
        cell = self.next_cell
        if card == 0:
            return {"type": "use_joker", "cell": cell, "value": 1}
        return {"type": "place", "cell": cell}


async def play(
    lobbies,
    addresses,
    *,
    interval: float,
    max_delay: float,
    seed: int,
    on_connected=None,
    before_game=None,
    max_draws: int = 0,
) -> dict:
    rng = random.Random(seed)
    hosts, groups = [], []
    gate = asyncio.Semaphore(50)

    async def opened(client):
        async with gate:
            await client.open()
        return client

    index = 0
    for lobby in lobbies:
        hosts.append(Player(addresses[index % len(addresses)], lobby["code"], lobby["host"], 0))
        index += 1
        group = []
        for seat in lobby["players"]:
            address = addresses[index % len(addresses)]
            group.append(Player(address, lobby["code"], seat["cookie"], seat["id"]))
            index += 1
        groups.append(group)
    began = time.monotonic()
    await asyncio.gather(*(opened(c) for c in [*hosts, *(p for g in groups for p in g)]))
    connect_s = time.monotonic() - began
    if on_connected is not None:
        on_connected()  # the CPU meter and the profiler cover the game, not the connects
    if before_game is not None:
        await before_game()  # e.g. measure the idle sockets first (bench/placement_cpu.py)

    draws: list[tuple[int, int, float]] = []  # (lobby, seq, sent)
    draw_acks: list[float] = []
    place_acks: list[float] = []
    refused: list[dict] = []
    host_refused: list[dict] = []
    unanswered = 0

    async def player_loop(player: Player, stop: asyncio.Event) -> None:
        nonlocal unanswered
        while True:
            getter = asyncio.create_task(player.cards.get())
            stopper = asyncio.create_task(stop.wait())
            done, _pending = await asyncio.wait(
                {getter, stopper}, return_when=asyncio.FIRST_COMPLETED
            )
            if getter not in done:
                getter.cancel()
                return
            stopper.cancel()
            event = getter.result()
            if player.next_cell >= 25:
                continue  # the board is full: later cards are dealt to it, nothing to place
            await asyncio.sleep(rng.uniform(0, max_delay))
            try:
                sent, answered, answer = await player.request(player.move(event["card"]))
            except Exception:  # noqa: BLE001 - timeout or a dropped socket: counted as lost
                unanswered += 1
                continue
            if answer["type"] == "ack":
                place_acks.append(answered - sent)
                player.acked.append(player.move(event["card"]))
                player.next_cell += 1
            else:
                refused.append(answer)

    async def host_loop(r: int, host, players: list[Player]) -> None:
        await asyncio.sleep(interval * r / max(1, len(hosts)))  # spread the lobbies
        stop = asyncio.Event()
        workers = [asyncio.create_task(player_loop(p, stop)) for p in players]
        closed = False
        while not closed:
            try:
                sent, answered, answer = await host.request({"type": "draw"})
            except (TimeoutError, OSError, Exception) as error:  # noqa: BLE001 - counted
                host_refused.append({"error": repr(error)})
                break
            if answer["type"] != "ack":
                host_refused.append(answer)
                break
            draws.append((r, answer["seq"], sent))
            draw_acks.append(answered - sent)
            waited = 0.0
            while host.cards.empty() and waited < 30:  # the host hears its own draw too
                await asyncio.sleep(0.01)
                waited += 0.01
            if host.cards.empty():
                host_refused.append({"error": "the host never heard its draw"})
                break
            closed = host.cards.get_nowait()["closed"]
            if max_draws and sum(1 for d in draws if d[0] == r) >= max_draws:
                closed = True  # a shorter game (bench/placement_cpu.py --max-draws)
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - sent)))
        await asyncio.sleep(max_delay + 3)  # the last placements
        stop.set()
        await asyncio.gather(*workers)

    began = time.monotonic()
    await asyncio.gather(
        *(host_loop(r, h, g) for r, (h, g) in enumerate(zip(hosts, groups, strict=True)))
    )
    elapsed = time.monotonic() - began
    fan, lost = [], 0
    for r, seq, sent in draws:
        arrivals = [p.arrivals.get(seq) for p in groups[r]]
        lost += sum(1 for a in arrivals if a is None)
        got = [a for a in arrivals if a is not None]
        if got:
            fan.append(max(got) - sent)
    dropped = sum(1 for g in groups for p in g if p.reader.done())
    for client in [*hosts, *(p for g in groups for p in g)]:
        try:
            await client.close()
        except Exception:  # noqa: BLE001 - a socket the server already dropped
            pass
    return {
        "sockets_dropped_by_server": dropped,
        "sockets": len(hosts) + sum(len(g) for g in groups),
        "connect_all_s": connect_s,
        "elapsed_s": elapsed,
        "draws": len(draws),
        "draw_fanout_ms": [1000 * fanout.percentile(fan, q) for q in (0.5, 0.95, 0.99)],
        "draw_ack_ms": [1000 * fanout.percentile(draw_acks, q) for q in (0.5, 0.95, 0.99)],
        "placements": len(place_acks),
        "placement_ack_ms": [1000 * fanout.percentile(place_acks, q) for q in (0.5, 0.95, 0.99)],
        "placements_per_s": len(place_acks) / elapsed,
        "draws_lost": lost,
        "placements_refused": len(refused),
        "refusal_codes": dict(Counter(r.get("code") for r in refused)),
        "draws_refused": len(host_refused),
        "placements_unanswered": unanswered,
        "duplicated_events": sum(p.duplicates for g in groups for p in g),
        "_acked": {p.player_id: len(p.acked) for g in groups for p in g},
    }


async def simultaneous(lobby: dict, address: str) -> dict:
    """50 players of a fresh lobby place the same number at the same moment."""
    host = fanout.Client(address, lobby["code"], lobby["host"])
    players = [Player(address, lobby["code"], s["cookie"], s["id"]) for s in lobby["players"]]
    for client in [host, *players]:
        await client.open()
    _s, _a, answer = await host.request({"type": "draw"})
    card = None
    while card is None:
        await asyncio.sleep(0.05)
        if not players[0].cards.empty():
            card = players[0].cards.get_nowait()["card"]
    first = time.monotonic()
    results = await asyncio.gather(*(p.request(p.move(card)) for p in players))
    acks = [answered - sent for sent, answered, _a in results]
    ok = sum(1 for _s, _a, a in results if a["type"] == "ack")
    own = sum(1 for p, (_s, _a, a) in zip(players, results, strict=True) if a["id"].startswith("b"))
    for client in [host, *players]:
        await client.close()
    return {
        "players": len(players),
        "acked": ok,
        "own_acks": own,
        "all_acked_ms": 1000 * (max(answered for _s, answered, _a in results) - first),
        "ack_ms": [1000 * fanout.percentile(acks, q) for q in (0.5, 0.95, 0.99)],
    }


def check_boards(lobbies: list[dict], acked: dict[int, int]) -> int:
    """Acknowledged placements that are not on the stored boards (must be 0)."""
    from django.db import connection

    from games.rooms.models import Seat

    missing = 0
    ids = [s["id"] for lobby in lobbies for s in lobby["players"]]
    for seat in Seat.objects.filter(player_id__in=ids, room_id__in=[x["id"] for x in lobbies]):
        filled = sum(1 for value in seat.state.get("cells", []) if value is not None)
        missing += max(0, acked.get(seat.player_id, 0) - filled)
    connection.close()
    return missing


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (all its threads), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_pids(workdir: Path) -> list[int]:
    """The postmaster and its backends (they come and go; measured at both ends)."""
    try:
        postmaster = int((workdir / "postgres" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    pids = [postmaster]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == postmaster:
            pids.append(int(stat.parent.name))
    return pids


class CpuMeter:
    """CPU used by the servers, PostgreSQL and this client between start() and stop().

    PostgreSQL backends that exit in between are missed (their time goes to
    nobody we can read), so its figure is a lower bound; the pool keeps most
    backends for the whole run.
    """

    def __init__(self, workdir: Path, server_pids: list[int]) -> None:
        self.workdir, self.server_pids = workdir, server_pids

    def _read(self) -> dict[str, dict[int, float]]:
        return {
            "server": {pid: cpu_seconds(pid) for pid in self.server_pids},
            "postgres": {pid: cpu_seconds(pid) for pid in postgres_pids(self.workdir)},
            "clients": {os.getpid(): cpu_seconds(os.getpid())},
        }

    def start(self) -> None:
        self.before = self._read()

    def stop(self) -> dict[str, float]:
        after = self._read()
        return {
            part: sum(t - self.before[part].get(pid, 0.0) for pid, t in after[part].items())
            for part in after
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lobbies", type=int, default=1)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between draws")
    parser.add_argument("--max-delay", type=float, default=1.5, help="players' random delay")
    parser.add_argument("--servers", type=int, default=1, help="uvicorn processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="PY_SPY", help="py-spy binary: profile the server")
    parser.add_argument("--profile-raw", metavar="PATH", help="keep py-spy's raw stacks here")
    args = parser.parse_args()
    load_before = f"{os.getloadavg()[0]:.1f}"
    with fanout.bench_services("matika-poker-bench-") as (workdir, env, servers):
        env["DJANGO_SETTINGS_MODULE"] = SETTINGS
        # A thousand simulated phones connect from one loopback address.
        env["ROOM_SOCKETS_PER_ADDRESS"] = str(10 * (args.lobbies + 1) * (args.players + 1))
        os.environ.update(env)
        began = time.monotonic()
        lobbies = fanout.make_rooms(args.lobbies + 1, args.players, game="poker")
        setup_s = time.monotonic() - began
        servers += fanout.start_servers(env, args.servers)
        addresses = [address for _p, address in servers]
        together = asyncio.run(simultaneous(lobbies[0], addresses[0]))
        meter = CpuMeter(workdir, [process.pid for process, _address in servers])
        profiling: list = []

        def connected() -> None:
            profiling.append(start_profile(args.profile, servers[0][0].pid, workdir))
            meter.start()

        result = asyncio.run(
            play(
                lobbies[1:],
                addresses,
                interval=args.interval,
                max_delay=args.max_delay,
                seed=args.seed,
                on_connected=connected,
            )
        )
        profiler = profiling[0] if profiling else None
        cpu = meter.stop()
        result["cpu_s"] = cpu
        placed = max(1, result["placements"])
        result["cpu_ms_per_placement"] = {part: 1000 * s / placed for part, s in cpu.items()}
        if profiler is not None:
            result["profile"] = stop_profile(profiler, workdir)
            if args.profile_raw and (workdir / "profile.raw").exists():
                shutil.copy(workdir / "profile.raw", args.profile_raw)
        result["acked_but_missing_on_boards"] = check_boards(lobbies[1:], result.pop("_acked"))
        result["simultaneous"] = together
        result["setup_s"] = setup_s
        result["command"] = " ".join(["bench/poker_group_bench.py", *sys.argv[1:]])
        result["machine"] = fanout.machine(load_before)
        report(result, args)
    return 0


def start_profile(py_spy: str | None, pid: int, workdir: Path) -> subprocess.Popen | None:
    if not py_spy:
        return None
    return subprocess.Popen(
        [py_spy, "record", "--pid", str(pid), "--rate", "50", "--format", "raw", "--gil"]
        # e.g. BENCH_PY_SPY_ARGS=--native: native frames too (a C call's own time)
        + [*os.environ.get("BENCH_PY_SPY_ARGS", "").split(), "--nonblocking"]
        + ["--output", str(workdir / "profile.raw")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop_profile(profiler: subprocess.Popen, workdir: Path, top: int = 25) -> dict:
    """Stop py-spy (it writes on SIGINT) and summarise: the share of samples in
    each project function (inclusive) and in each innermost frame (self)."""
    import signal

    profiler.send_signal(signal.SIGINT)
    profiler.wait(timeout=60)
    samples: Counter = Counter()
    project: Counter = Counter()
    leaf: Counter = Counter()
    raw = workdir / "profile.raw"
    for line in raw.read_text().splitlines() if raw.exists() else []:
        stack, _, count = line.rpartition(" ")
        frames, n = stack.split(";"), int(count)
        samples["all"] += n
        leaf[_frame(frames[-1])] += n
        for name in {_frame(f) for f in frames if _in_project(f)}:
            project[name] += n
    total = max(1, samples["all"])
    return {
        "samples": samples["all"],
        # Inclusive: the share of samples with this project function on the stack.
        "project_functions_pct": {
            k: round(100 * v / total, 1) for k, v in project.most_common(top)
        },
        "by_innermost_frame_pct": {k: round(100 * v / total, 1) for k, v in leaf.most_common(top)},
    }


PROJECT_PACKAGES = ("games/", "accounts/", "classrooms/", "config/", "tests/")


def _in_project(frame: str) -> bool:
    """A frame of the project's code (py-spy shortens paths to the package's)."""
    return frame.partition(" (")[2].startswith(PROJECT_PACKAGES)


def _frame(frame: str) -> str:
    name, _, where = frame.partition(" (")
    where = where.rstrip(")").rsplit(":", 1)[0]
    for marker in ("site-packages/", "python3.11/", str(BASE_DIR) + "/"):
        if marker in where:
            where = where.split(marker, 1)[1]
    return f"{name} ({where})"


def report(result: dict, args) -> None:
    print(json.dumps(fanout.rounded(result), indent=2), flush=True)
    together = result["simultaneous"]
    print(
        f"\n{args.lobbies} x {args.players}: draw fan-out p50/p95/p99 = "
        + "/".join(f"{v:.0f}" for v in result["draw_fanout_ms"])
        + " ms; placement ack p50/p95/p99 = "
        + "/".join(f"{v:.0f}" for v in result["placement_ack_ms"])
        + f" ms; lost draws {result['draws_lost']}, refused {result['placements_refused']}, "
        + f"unanswered {result['placements_unanswered']}, "
        + f"missing on boards {result['acked_but_missing_on_boards']}; "
        + f"{together['players']} at once: all acked in {together['all_acked_ms']:.0f} ms, "
        + f"own acks {together['own_acks']}; CPU ms per placement: "
        + ", ".join(f"{k} {v:.2f}" for k, v in result["cpu_ms_per_placement"].items()),
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
