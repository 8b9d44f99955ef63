"""Abaku robot decision time on the product's pure-Python rules (issue 42: every level <= 1 s p95).

Run from the project root (one bench process at a time, under ``nice -n 19``
on the shared machine):

    nice -n 19 .venv/bin/python bench/abaku_level_time.py --games 5 --seed 5600000 \\
        --level strong --level greedy --level advanced --level easy10_11

Every position of GAMES seeded two-player games (from the first move to the
last, each with the rack the player on turn really holds, jokers as the bag
gives them) is answered by every named level in turn, each with the same
inputs a table's robot gets (``rules.robot_action``: the bag count and the
opponent's rack size, so ``strong`` looks ahead in the endgame), and the
game goes on with one of the answers (seat 0 plays the first level's, seat 1
the second's). Each decision's CPU time (``time.process_time``: the machine is
shared, so CPU is the figure that says what the code costs) and wall time are
recorded; the report gives p50, p95 and max per level and the load average.
The rules' caches are as in a long-running server process (warm within the
run); ``--cold`` empties them before every decision (a fresh process).

The product modules are imported (never ``bench/abaku_native.py``'s compiled
copy): the script refuses to run if the move generator is not pure Python.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.abaku.rules import LEVELS, apply, movegen, new_game, robot_action, solver  # noqa: E402
from games.abaku.rules.examples import read_example  # noqa: E402


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def clear_caches() -> None:
    read_example.cache_clear()
    solver._plans_for_shape.cache_clear()
    solver._cost_for_shape.cache_clear()


def run(levels: list[str], games: int, first_seed: int, cold: bool) -> dict:
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    wall: dict[str, list[float]] = {level: [] for level in levels}
    loads = []
    players = (levels + levels[:1])[:2]
    for seed in range(first_seed, first_seed + games):
        state = new_game(["0", "1"], seed=seed, turn_seconds=None)
        turn = 0
        while not state.finished:
            answers = {}
            for level in levels:
                if cold:
                    clear_caches()
                rng = random.Random(seed * 1000 + turn)
                start_cpu, start_wall = time.process_time(), time.perf_counter()
                answers[level] = robot_action(state, level, rng)
                cpu[level].append(time.process_time() - start_cpu)
                wall[level].append(time.perf_counter() - start_wall)
            loads.append(os.getloadavg()[0])
            state, _ = apply(state, answers[players[state.turn]])
            turn += 1
    return {"cpu": cpu, "wall": wall, "loads": loads}


def report(result: dict, command: str) -> str:
    loads = result["loads"]
    lines = [
        f"Command: `{command}`; load average {min(loads):.1f}-{max(loads):.1f} "
        f"(mean {statistics.mean(loads):.1f}); pure-Python rules ({Path(movegen.__file__).name}).",
        "",
        "| level | decisions | CPU p50 | CPU p95 | CPU max | wall p50 | wall p95 | wall max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for level, cpu in result["cpu"].items():
        wall = result["wall"][level]
        lines.append(
            f"| `{level}` | {len(cpu)} | {statistics.median(cpu) * 1000:.0f} ms "
            f"| {pct(cpu, 0.95) * 1000:.0f} ms | {max(cpu) * 1000:.0f} ms "
            f"| {statistics.median(wall) * 1000:.0f} ms | {pct(wall, 0.95) * 1000:.0f} ms "
            f"| {max(wall) * 1000:.0f} ms |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=5_600_000, help="first game seed")
    parser.add_argument("--level", action="append", default=[], help="a level id (repeatable)")
    parser.add_argument("--cold", action="store_true", help="empty the caches before each call")
    args = parser.parse_args()
    if not movegen.__file__ or not movegen.__file__.endswith(".py"):
        sys.exit(f"the move generator is not the pure-Python product module: {movegen.__file__}")
    levels = args.level or ["strong", "greedy", "advanced"]
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        sys.exit(f"not levels: {unknown}")
    result = run(levels, args.games, args.seed, args.cold)
    print(report(result, "python bench/abaku_level_time.py " + " ".join(sys.argv[1:])))


if __name__ == "__main__":
    main()
