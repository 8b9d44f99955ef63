"""Abaku robot decision time on the product's pure-Python rules (issue 42: every level <= 1 s p95).

Run from the project root (one bench process at a time, under ``nice -n 19``
on the shared machine):

    nice -n 19 .venv/bin/python bench/abaku_level_time.py --games 5 --seed 5600000 \\
        --level strong --level greedy --level advanced --level easy10_11

Every position of GAMES seeded two-player games (from the first move to the
last, each with the rack the player on turn really holds, jokers as the bag
gives them; seat 0 plays the first level, seat 1 the second) is answered by
every named level, each with the same inputs a table's robot gets
(``rules.robot_action``: the bag count and the opponent's rack size, so
``strong`` looks ahead in the endgame). Each level goes through the games in
the order they were played with the rules' caches emptied before its first
game -- as warm as a server process that has played the game so far, never
warmed by another level's answer to the same position (``--cold``: emptied
before every decision, a fresh process). Each decision's CPU time
(``time.process_time``: the machine is shared, so CPU is the figure that says
what the code costs) and wall time are recorded; the report gives p50, p95
and max per level and the load average.

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

from games.abaku.rules import (  # noqa: E402
    LEVELS,
    GameState,
    apply,
    movegen,
    new_game,
    robot_action,
    solver,
)
from games.abaku.rules.examples import read_example  # noqa: E402


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def clear_caches() -> None:
    read_example.cache_clear()
    solver._plans_for_shape.cache_clear()
    solver._cost_for_shape.cache_clear()


def positions(levels: list[str], games: int, first_seed: int) -> list[list[GameState]]:
    """Every state of each seeded game, seat 0 playing the first level, seat 1 the second."""
    players = (levels + levels[:1])[:2]
    played = []
    for seed in range(first_seed, first_seed + games):
        state = new_game(["0", "1"], seed=seed, turn_seconds=None)
        states = []
        while not state.finished:
            states.append(state)
            rng = random.Random(seed * 1000 + len(states))
            state, _ = apply(state, robot_action(state, players[state.turn], rng))
        played.append(states)
    return played


def run(levels: list[str], games: int, first_seed: int, cold: bool) -> dict:
    """Each level answers every position, game by game in the order played, its
    caches emptied before its first game: as warm as a server process that has
    played the game so far (``cold``: emptied before every decision)."""
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    wall: dict[str, list[float]] = {level: [] for level in levels}
    loads = []
    played = positions(levels, games, first_seed)
    for level in levels:
        clear_caches()
        for states in played:
            for turn, state in enumerate(states):
                if cold:
                    clear_caches()
                rng = random.Random(turn)
                start_cpu, start_wall = time.process_time(), time.perf_counter()
                robot_action(state, level, rng)
                cpu[level].append(time.process_time() - start_cpu)
                wall[level].append(time.perf_counter() - start_wall)
                loads.append(os.getloadavg()[0])
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
