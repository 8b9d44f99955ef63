"""Quick screening of the strong Abaku robot against greedy (tuning runs).

Run from the project root, one core:
    .venv/bin/python bench/abaku_strong_screen.py GAMES FIRST_SEED [NAME=json ...]

Games are paired: each seed is played twice, the strong robot first and then
second, so the luck of the deal cancels in part. ``NAME=value`` overrides a
constant of ``games.abaku.rules.robot`` for the run (e.g. ``PROBE_RACKS=2``).
Prints the win rate (ties ½) with its 95 % Wilson interval, the mean point
margin with its standard error, and the strong robot's CPU decision times. The
confirmation runs use ``bench/abaku_robot_levels.py`` on seeds not used here.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from abaku_robot_levels import pct, wilson  # noqa: E402

import games.abaku.rules.robot as robot  # noqa: E402
from games.abaku.rules import apply, new_game, robot_action  # noqa: E402


def play(seed: int, strong_first: bool) -> tuple[float, int, list[float]]:
    seats = ["strong", "greedy"] if strong_first else ["greedy", "strong"]
    state = new_game(["A", "B"], seed=seed, turn_seconds=None)
    rng = random.Random(seed * 7 + strong_first)
    times = []
    while not state.finished:
        level = seats[state.turn]
        start = time.process_time()
        action = robot_action(state, level, rng)
        if level == "strong":
            times.append(time.process_time() - start)
        state, _ = apply(state, action)
    seat = seats.index("strong")
    winners = state.result["winners"]
    win = 1.0 if winners == [seat] else 0.5 if seat in winners else 0.0
    scores = state.result["scores"]
    return win, scores[seat] - scores[1 - seat], times


def main() -> None:
    games, first_seed = int(sys.argv[1]), int(sys.argv[2])
    overrides = sys.argv[3:]
    for item in overrides:
        name, value = item.split("=", 1)
        if not hasattr(robot, name):
            raise SystemExit(f"robot has no {name}")
        setattr(robot, name, json.loads(value))
    wins, margins, times = 0.0, [], []
    start = time.time()
    for k in range(games):
        win, margin, spent = play(first_seed + k // 2, k % 2 == 0)
        wins += win
        margins.append(margin)
        times += spent
    low, high = wilson(wins, games)
    print(
        f"{' '.join(overrides) or 'as committed'}: {games} games from seed {first_seed}: "
        f"strong {wins:g} = {wins / games:.0%} (95 % CI {low:.0%}-{high:.0%}), margin "
        f"{statistics.mean(margins):+.0f} (SE {statistics.pstdev(margins) / games**0.5:.0f}); "
        f"decision p50 {statistics.median(times) * 1000:.0f} ms, p95 "
        f"{pct(times, 0.95) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; "
        f"{time.time() - start:.0f} s wall"
    )


if __name__ == "__main__":
    main()
