"""Matematici robots, engine only: the planning robot against the simple one.

Each game seats two robots with the two starter decks; every pair of games
swaps the decks and the seats, so neither deck nor seat favours a robot. Every
decision of each robot is timed (CPU time of this process: on a shared machine
wall time mostly measures the neighbours). A game that reaches the action cap
counts as a draw.

    .venv/bin/python bench/theorems_robot_bench.py --games 200 --workers 2
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.theorems.rules import STARTER_DECKS, apply, new_game  # noqa: E402
from games.theorems.rules.robot import ROBOTS  # noqa: E402

ACTION_CAP = 1000


def play(
    game: int, first: str, second: str, seed_base: int = 10_000
) -> tuple[str | None, dict[str, list[float]], dict[str, list[float]]]:
    """One game: the winning robot's name (None for a draw), decision CPU and wall times."""
    decks = list(STARTER_DECKS)
    robots = [first, second]
    if game % 2:
        robots.reverse()
    if (game // 2) % 2:
        decks.reverse()
    state = new_game([d.player() for d in decks], seed=seed_base + game)
    rngs = [random.Random(f"bench:{game}:{seat}") for seat in range(2)]
    times: dict[str, list[float]] = {first: [], second: []}
    walls: dict[str, list[float]] = {first: [], second: []}
    for _ in range(ACTION_CAP):
        if state.status != "running":
            break
        seat = state.to_act
        started, wall = time.process_time(), time.perf_counter()
        action = ROBOTS[robots[seat]](state, rngs[seat])
        times[robots[seat]].append(time.process_time() - started)
        walls[robots[seat]].append(time.perf_counter() - wall)
        state = apply(state, action)
    winners = state.winners if state.status != "running" else []
    return (robots[winners[0]] if len(winners) == 1 else None), times, walls


def _play_args(args: tuple[int, str, str, int]):  # noqa: ANN202
    return play(*args)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2, help="at most 2 on the shared machine")
    parser.add_argument("--robot", default="planner")
    parser.add_argument("--against", default="simple")
    parser.add_argument("--seed-base", type=int, default=10_000, help="engine seed of game 0")
    args = parser.parse_args()
    started = datetime.now(UTC)
    load = os.getloadavg()[0]
    jobs = [(g, args.robot, args.against, args.seed_base) for g in range(args.games)]
    with ProcessPoolExecutor(max_workers=min(2, args.workers)) as pool:
        results = list(pool.map(_play_args, jobs, chunksize=4))
    wins = sum(1 for winner, _, _ in results if winner == args.robot)
    losses = sum(1 for winner, _, _ in results if winner == args.against)
    draws = args.games - wins - losses
    score = wins + draws / 2
    low, high = wilson(score, args.games)
    print(
        f"# {args.robot} vs {args.against}: {args.games} games (engine seeds "
        f"{args.seed_base}+), {started:%Y-%m-%d %H:%M} UTC"
    )
    print(f"- wins {wins}, losses {losses}, draws {draws}")
    print(
        f"- {args.robot} scores {score / args.games:.1%} (draws count half); "
        f"95 % Wilson interval {low:.1%} – {high:.1%}"
    )
    for name in (args.robot, args.against):
        times = [t for _, per, _ in results for t in per[name]]
        walls = [t for _, _, per in results for t in per[name]]
        print(
            f"- {name}: {len(times)} decisions, CPU p50 {percentile(times, 0.5) * 1000:.2f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms; "
            f"wall p50 {percentile(walls, 0.5) * 1000:.2f} ms, "
            f"p95 {percentile(walls, 0.95) * 1000:.2f} ms"
        )
    print(
        f"- machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; shared with other work, load average {load:.1f} "
        f"at start; {min(2, args.workers)} worker processes; CPU time per decision"
    )


if __name__ == "__main__":
    main()
