"""Abaku speed and strength benchmark: move generation and robots.

Run from the project root:  .venv/bin/python bench/abaku_bench.py [--games N] [--out FILE]
It prints a Markdown report and writes it to bench/RESULTS-abaku.md.

Positions are mid-game boards (40-60 stones) reached by robot-vs-robot play
from seeded deals, with the rack the player on turn really holds (5 stones,
jokers as often as the bag gives them). Times are CPU time per call (on an idle
machine that is the wall time; a shared one stretches wall time); "cold" means
the example reader's cache was emptied first (a fresh server process), "warm"
is the same call repeated.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.abaku.rules import (  # noqa: E402
    JOKER,
    LEVELS,
    STONE_SET,
    GameState,
    all_moves,
    apply,
    choose_move,
    new_game,
    robot_action,
    solver,  # noqa: E402
)
from games.abaku.rules.examples import SHORT, _short_examples, read_example  # noqa: E402


def clear_caches() -> None:
    """Forget everything the rules cache between calls, as in a fresh process
    (the table of short examples is built at import and stays)."""
    read_example.cache_clear()
    solver._plans_for_shape.cache_clear()
    solver._cost_for_shape.cache_clear()


def mid_game_positions(seed: int, low: int = 40, high: int = 60) -> Iterator[GameState]:
    """States of one greedy-vs-beginner game while 40-60 stones are on the board."""
    state = new_game(["greedy", "beginner"], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    while not state.finished and len(state.board) <= high:
        if len(state.board) >= low:
            yield state
        state, _ = apply(state, robot_action(state, state.players[state.turn].name, rng))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timed(call, *args):  # noqa: ANN001, ANN202
    """CPU seconds of this process for one call, and its result. CPU time, not
    wall time: on a shared machine wall time mostly measures the neighbours."""
    start = time.process_time()
    result = call(*args)
    return time.process_time() - start, result


def row(name: str, values: list[float], unit: str = "ms", scale: float = 1000) -> str:
    return (
        f"| {name} | {len(values)} | {statistics.median(values) * scale:.0f} {unit} "
        f"| {percentile(values, 0.95) * scale:.0f} {unit} | {max(values) * scale:.0f} {unit} |"
    )


def bench_all_moves(states: list[GameState]) -> list[str]:
    cold, warm, counts, joker_warm, plain_warm = [], [], [], [], []
    for state in states:
        rack = state.players[state.turn].rack
        clear_caches()
        seconds, moves = timed(all_moves, state.board, rack)
        cold.append(seconds)
        seconds, moves = timed(all_moves, state.board, rack)
        warm.append(seconds)
        (joker_warm if JOKER in rack else plain_warm).append(seconds)
        counts.append(len(moves))
    lines = [
        "## all_moves on mid-game positions (40-60 stones, the real 5-stone rack)",
        "",
        "| measure | positions | p50 | p95 | max |",
        "|---|---|---|---|---|",
        row("time, cold cache", cold),
        row("time, warm cache", warm),
        row("time, warm, racks without joker", plain_warm),
    ]
    if joker_warm:
        lines.append(row("time, warm, racks with a joker", joker_warm))
    lines.append(row("legal moves", [float(c) for c in counts], unit="", scale=1))
    return lines


def bench_robots(states: list[GameState], rack_size: int, sample: int) -> list[str]:
    rng = random.Random(5)
    stones = [k for k, n in STONE_SET.items() for _ in range(n)]
    lines = [
        "",
        f"## Robot move time, mid-game, {rack_size}-stone racks drawn at random "
        f"({sample} positions, cold cache each time)",
        "",
        "| level | positions | p50 | p95 | max |",
        "|---|---|---|---|---|",
    ]
    picks = rng.sample(states, min(sample, len(states)))
    racks = [rng.sample(stones, rack_size) for _ in picks]
    for level in LEVELS:
        times = []
        for state, rack in zip(picks, racks, strict=True):
            clear_caches()
            seconds, _ = timed(choose_move, state.board, rack, level, random.Random(1))
            times.append(seconds)
        lines.append(row(level, times))
    return lines


def play(levels: list[str], seed: int) -> GameState:
    state = new_game(levels, seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    while not state.finished:
        state, _ = apply(state, robot_action(state, levels[state.turn], rng))
    return state


def bench_strength(pairs: list[tuple[str, str]], games: int) -> list[str]:
    lines = [
        "",
        f"## Robot against robot ({games} games per pairing, seats alternate)",
        "",
        "| pairing | wins A : B : ties | A points/game | B points/game "
        "| A points/move | B points/move | moves/game |",
        "|---|---|---|---|---|---|---|",
    ]
    for a, b in pairs:
        wins = [0, 0, 0]
        points = {a: [], b: []}
        per_move = {a: [], b: []}
        moves_per_game = []
        for game in range(games):
            levels = [a, b] if game % 2 == 0 else [b, a]
            seat_a = levels.index(a) if a != b else game % 2
            seat_b = 1 - seat_a
            state = play(levels, seed=1000 + game)
            scores = state.result["scores"]
            winners = state.result["winners"]
            if len(winners) != 1:
                wins[2] += 1
            else:
                wins[0 if winners[0] == seat_a else 1] += 1
            placed = [e for e in state.history if e["type"] == "placed"]
            moves_per_game.append(len(placed))
            for level, seat in ((a, seat_a), (b, seat_b)):
                points[level].append(scores[seat])
                mine = [e["score"] for e in placed if e["player"] == seat]
                per_move[level].extend(mine)
        lines.append(
            f"| {a} (A) vs {b} (B) | {wins[0]} : {wins[1]} : {wins[2]} "
            f"| {statistics.mean(points[a]):.0f} | {statistics.mean(points[b]):.0f} "
            f"| {statistics.mean(per_move[a]):.1f} | {statistics.mean(per_move[b]):.1f} "
            f"| {statistics.mean(moves_per_game):.1f} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="games to take positions from")
    parser.add_argument("--games", type=int, default=10, help="robot games per pairing")
    parser.add_argument("--robot-positions", type=int, default=20)
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS-abaku.md")))
    args = parser.parse_args()

    states = [s for seed in range(args.seeds) for s in mid_game_positions(seed)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# Abaku benchmark results",
        "",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; load average at start {load:.1f}. "
        "Times are CPU time of the benchmark process (see the module docstring).",
        f"Command: `.venv/bin/python bench/abaku_bench.py --seeds {args.seeds} "
        f"--games {args.games} --robot-positions {args.robot_positions}`",
        "",
    ]
    start = time.process_time()
    _short_examples(SHORT)
    lines += [
        f"Building the table of short examples at import: "
        f"{(time.process_time() - start) * 1000:.0f} ms.",
        "",
    ]
    lines += bench_all_moves(states)
    lines += bench_robots(states, 5, args.robot_positions)
    lines += bench_robots(states, 7, args.robot_positions)
    lines += bench_strength([("greedy", "beginner"), ("strong", "greedy")], args.games)
    report = "\n".join(lines) + "\n"
    print(report)
    Path(args.out).write_text(report)


if __name__ == "__main__":
    main()
