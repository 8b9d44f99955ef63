"""Abaku move generator speed: ``all_moves`` on a fixed, seeded set of positions.

Run from the project root (the machine is shared, so always niced):

    nice -n 10 .venv/bin/python bench/abaku_movegen_bench.py [--games 4] [--every 3]
        [--reference] [--robot-games 2] [--repeat 1]

Positions come from real robot games: seeded greedy-vs-greedy games
(``new_game(seed=1..N)``), keeping the board and the rack of the player on turn
at every ``--every``-th move number (from the empty board to the nearly full
one, jokers whenever the bag dealt them). The set is generated with the
generator under test; it is the same set for any correct generator, because the
move list (and so every greedy choice) is identical.

Every time is CPU time of this process (``time.process_time``), not wall time:
on a shared machine wall time mostly measures the neighbours. The load average
(1, 5, 15 minutes) is printed before and after.

``--reference`` also times the frozen old generator of
``tests/abaku/movegen_reference.py`` on the same positions in the same run (so
both see the same load) and checks that both give the same list.
``--robot-games N`` times N whole greedy-vs-greedy games and N strong-vs-greedy
games (the strong robot's reply search included).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.abaku.rules import (  # noqa: E402
    JOKER,
    Board,
    GameState,
    all_moves,
    apply,
    movegen,
    new_game,
    robot,
    robot_action,
    solver,
)
from games.abaku.rules.examples import read_example  # noqa: E402
from games.abaku.rules.reply import ReplySearch  # noqa: E402

Position = tuple[int, Board, tuple[int, ...]]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def clear_caches() -> None:
    """Forget the rules' caches between calls, as in a fresh process (the
    tables built at import stay)."""
    movegen.clear_caches()
    read_example.cache_clear()
    solver._plans_for_shape.cache_clear()
    solver._cost_for_shape.cache_clear()


def positions(games: int, every: int) -> list[Position]:
    """(move number, board, rack on turn) from seeded greedy-vs-greedy games."""
    found: list[Position] = []
    for seed in range(1, games + 1):
        state: GameState = new_game(["greedy", "greedy"], seed=seed, turn_seconds=None)
        rng = random.Random(seed)
        while not state.finished:
            if state.move_number % every == 0:
                found.append((state.move_number, state.board, state.players[state.turn].rack))
            state, _ = apply(state, robot_action(state, "greedy", rng))
    return found


def time_calls(
    call: Callable[[Board, tuple[int, ...]], list], chosen: list[Position], cold: bool
) -> list[float]:
    """CPU seconds of ``call`` on each position. ``cold``: every cache emptied
    before each call (a fresh process). Otherwise the caches of pure functions
    stay warm from a first pass over all positions (a running server or robot
    game), but no call reuses the kept search of another call's rack."""
    if not cold:
        for _, board, rack in chosen:
            call(board, rack)
    times = []
    for _, board, rack in chosen:
        if cold:
            clear_caches()
        else:
            movegen.clear_searches()
        start = time.process_time()
        call(board, rack)
        times.append(time.process_time() - start)
    return times


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"| {name} | {len(times)} | {statistics.median(times) * 1000:.1f} ms "
        f"| {p95 * 1000:.1f} ms | {max(times) * 1000:.1f} ms | {sum(times):.2f} s |"
    )


def robot_game(seed: int, levels: list[str]) -> tuple[float, int]:
    """CPU seconds and moves of one whole seeded robot game."""
    state = new_game(levels, seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    start = time.process_time()
    moves = 0
    while not state.finished:
        state, _ = apply(state, robot_action(state, levels[state.turn], rng))
        moves += 1
    return time.process_time() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--reference", action="store_true")
    parser.add_argument("--robot-games", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.reference:
        from tests.abaku import movegen_reference as reference

    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"nice: {os.nice(0)}; load average at start: {load()}")
    chosen = positions(args.games, args.every)
    jokers = sum(1 for _, _, rack in chosen if JOKER in rack)
    sizes = [len(all_moves(board, rack)) for _, board, rack in chosen]
    stones = [len(board) for _, board, _ in chosen]
    print(
        f"{len(chosen)} positions from {args.games} greedy-vs-greedy games (every {args.every}th "
        f"move), {jokers} racks with a joker, {min(stones)}-{max(stones)} stones on the board, "
        f"{min(sizes)}-{max(sizes)} legal moves (median {statistics.median(sizes):.0f}), "
        f"{sum(sizes)} in all"
    )
    print()
    print("| generator | positions | median | p95 | max | total |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for _ in range(args.repeat):
        for cold in (False, True):
            mode = "cold" if cold else "warm"
            ours = time_calls(all_moves, chosen, cold)
            print(summary(f"all_moves (now), {mode}", ours))
            print(
                summary(
                    f"ReplySearch.all_moves (now), {mode}",
                    time_calls(reply_all_moves, chosen, cold),
                )
            )
            if args.reference:

                def old_call(board: Board, rack: tuple[int, ...], cold: bool = cold) -> list:
                    if cold:
                        reference._plans_for_shape.cache_clear()
                        reference._cost_for_shape.cache_clear()
                    return reference.all_moves(board, rack)

                old = time_calls(old_call, chosen, cold)
                print(summary(f"all_moves (frozen old), {mode}", old))
                ratios.append(
                    f"{mode}: median {statistics.median(old) / statistics.median(ours):.1f}x, "
                    f"total {sum(old) / sum(ours):.1f}x"
                )
    if args.reference:
        for _, board, rack in chosen:
            assert all_moves(board, rack) == reference.all_moves(board, rack)
        print()
        print(f"CPU per all_moves, old / now (identical lists on all {len(chosen)} positions):")
        for line in ratios:
            print(f"- {line}")
    if args.robot_games:
        print()
        print("| game | games | CPU per game | moves per game |")
        print("|---|---|---|---|")
        generators = [("now", movegen.all_moves, ReplySearch)]
        if args.reference:
            generators.append(("frozen old", reference.all_moves, reference.ReplySearch))
        for name, generate, reply_search in generators:
            # the robots call the generator through the robot module
            robot.all_moves, robot.ReplySearch = generate, reply_search
            for levels in (["greedy", "greedy"], ["strong", "greedy"]):
                clear_caches()
                results = [robot_game(seed, levels) for seed in range(1, args.robot_games + 1)]
                cpu = statistics.mean(s for s, _ in results)
                moves = statistics.mean(m for _, m in results)
                print(
                    f"| {' vs '.join(levels)}, {name} | {len(results)} | {cpu:.2f} s "
                    f"| {moves:.1f} |"
                )
        robot.all_moves, robot.ReplySearch = movegen.all_moves, ReplySearch
    print()
    print(f"load average at end: {load()}")


def reply_all_moves(board: Board, rack: tuple[int, ...]) -> list:
    return ReplySearch(rack).all_moves(board)


if __name__ == "__main__":
    main()
