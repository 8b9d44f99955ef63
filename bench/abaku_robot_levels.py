"""Abaku robot levels: is each level a climb a child can make (spec 6, issues 19 and 31)?

Run from the project root:
    .venv/bin/python bench/abaku_robot_levels.py [--games 200] [--procs 2] [--append]

The pairings come from the rules' level table (``LEVEL_TABLE``): every level
against ``beaten_by``, the player one step up, who should win 50-70 % of the
games (issue 31). Seats alternate, every game its own seed. The bench players:

* ``median`` always plays the median-scoring legal move (level 1 is measured
  against it);
* ``p90`` plays the 90th-percentile move (level 2);
* ``greedy`` and ``strong`` are the robots of levels 4 and 5 (level 3 is
  measured against greedy, level 4 against strong).

Win rates count a tie as half a win and carry a 95 % Wilson interval. Decision
times are CPU seconds of one robot move (``robot_action``), so a busy shared
machine stretches them less than wall time. ``--append`` adds a dated section
to bench/RESULTS-abaku.md.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.abaku.rules import (  # noqa: E402
    LEVEL_TABLE,
    LEVELS,
    all_moves,
    apply,
    new_game,
    robot_action,
)
from games.abaku.rules.robot import percentile_move  # noqa: E402

# Bench-only players: a fixed percentile of the legal moves by score.
FIXED = {"median": 0.5, "p90": 0.9}
# Every level against the player one step up, who should win 50-70 % of the games.
PAIRINGS = [(level.beaten_by, level.id) for level in LEVEL_TABLE if level.beaten_by]
TARGETS = {pair: (0.5, 0.7) for pair in PAIRINGS}


def action(state, player: str, rng: random.Random) -> dict:  # noqa: ANN001
    if player in FIXED:
        seat = state.turn
        moves = all_moves(state.board, state.players[seat].rack)
        if moves:
            move = percentile_move(moves, FIXED[player], rng)
            return {
                "type": "place",
                "player": seat,
                "placements": [list(p) for p in move.placements],
            }
        return robot_action(state, "greedy", rng)  # no move: the robots' exchange/skip
    return robot_action(state, player, rng)


def play(job: tuple[str, str, int]) -> dict:
    """One game of ``a`` against ``b``; ``a`` sits first on even seeds."""
    a, b, seed = job
    seats = [a, b] if seed % 2 == 0 else [b, a]
    state = new_game(["A" if s == a else "B" for s in seats], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    times: dict[int, list[float]] = {0: [], 1: []}
    while not state.finished:
        seat = state.turn
        start = time.process_time()
        act = action(state, seats[seat], rng)
        times[seat].append(time.process_time() - start)
        state, _ = apply(state, act)
    seat_a = seats.index(a)
    winners = state.result["winners"]
    score_a = 1.0 if winners == [seat_a] else 0.5 if seat_a in winners else 0.0
    return {
        "win_a": score_a,
        "points": (state.result["scores"][seat_a], state.result["scores"][1 - seat_a]),
        "reason": state.result["reason"],
        "times_a": times[seat_a],
        "times_b": times[1 - seat_a],
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def match(a: str, b: str, games: int, procs: int, first_seed: int) -> dict:
    jobs = [(a, b, first_seed + k) for k in range(games)]
    if procs > 1:
        with Pool(procs) as pool:
            results = pool.map(play, jobs, chunksize=1)
    else:
        results = [play(job) for job in jobs]
    wins = sum(r["win_a"] for r in results)
    return {
        "a": a,
        "b": b,
        "games": games,
        "wins": wins,
        "ci": wilson(wins, games),
        "points_a": statistics.mean(r["points"][0] for r in results),
        "points_b": statistics.mean(r["points"][1] for r in results),
        "margin_sd": statistics.pstdev(r["points"][0] - r["points"][1] for r in results),
        "times": {
            a: [t for r in results for t in r["times_a"]],
            b: [t for r in results for t in r["times_b"]],
        },
        "reasons": {
            reason: sum(1 for r in results if r["reason"] == reason)
            for reason in sorted({r["reason"] for r in results})
        },
    }


def report(matches: list[dict], command: str, wall: float) -> list[str]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## Robot levels (issues 19, 31): {now}",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, shared with other engineers' work (load average "
        f"{load:.1f} at the end); {wall / 60:.0f} min wall time.",
        f"Command: `{command}`",
        "",
        "| pairing | games | A wins (ties ½) | A win rate | 95 % CI | target | A / B points per game "
        "| margin SD | end reasons |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    timing: dict[str, list[float]] = {}
    for m in matches:
        target = TARGETS.get((m["a"], m["b"]))
        low, high = m["ci"]
        rate = m["wins"] / m["games"]
        verdict = (
            "—"
            if target is None
            else f"{target[0]:.0%}–{target[1]:.0%} "
            + ("met" if target[0] <= rate <= target[1] else "MISSED")
        )
        reasons = ", ".join(f"{k} {v}" for k, v in m["reasons"].items())
        lines.append(
            f"| {m['a']} (A) vs {m['b']} (B) | {m['games']} | {m['wins']:g} | {rate:.0%} "
            f"| {low:.0%}–{high:.0%} | {verdict} | {m['points_a']:.0f} / {m['points_b']:.0f} "
            f"| {m['margin_sd']:.0f} | {reasons} |"
        )
        for player, values in m["times"].items():
            if player in LEVELS:
                timing.setdefault(player, []).extend(values)
    lines += [
        "",
        "Robot decision time (CPU, every decision of every game above):",
        "",
        "| level | decisions | p50 | p95 | max |",
        "|---|---|---|---|---|",
    ]
    for level in LEVELS:
        if level in timing:
            values = timing[level]
            lines.append(
                f"| {level} | {len(values)} | {statistics.median(values) * 1000:.0f} ms "
                f"| {pct(values, 0.95) * 1000:.0f} ms | {max(values) * 1000:.0f} ms |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--procs", type=int, default=2, help="at most 2 on the shared machine")
    parser.add_argument("--seed", type=int, default=5000, help="first game seed")
    parser.add_argument(
        "--pair", action="append", default=[], help="A:B, e.g. strong:greedy (repeatable)"
    )
    parser.add_argument("--append", action="store_true", help="append to RESULTS-abaku.md")
    args = parser.parse_args()
    pairs = [tuple(p.split(":")) for p in args.pair] or PAIRINGS
    start = time.time()
    matches = [match(a, b, args.games, min(args.procs, 2), args.seed) for a, b in pairs]
    command = "python bench/abaku_robot_levels.py " + " ".join(sys.argv[1:])
    text = "\n".join(report(matches, command.strip(), time.time() - start)) + "\n"
    print(text)
    if args.append:
        path = Path(__file__).with_name("RESULTS-abaku.md")
        path.write_text(path.read_text() + "\n" + text)


if __name__ == "__main__":
    main()
