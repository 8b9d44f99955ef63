"""Screening of Abaku robot-level candidates (issue 31): percentile ranges against
the bench players, before a level is fixed in the rules' ``LEVEL_TABLE``.

Run from the project root:
    .venv/bin/python bench/abaku_ladder_screen.py GAMES FIRST_SEED A:B [A:B ...]

A player is ``uLOW-HIGH`` (a random percentile of the legal moves by score,
drawn uniformly from LOW..HIGH each move, as the percentile levels play),
``sLOW-HIGH`` (the move nearest r x the best score, r drawn from LOW..HIGH
each move, as a ``share`` level plays), ``pX`` (always percentile X: ``p0.5`` the median player, ``p0.9`` the
90th-percentile one) or a robot level id (``greedy``, ``strong``). Seats
alternate with the seed; two processes. Prints A's wins (ties half), the win
rate and both sides' points per game. The runs of issue 31 are recorded in
bench/RESULTS-abaku.md; confirmation runs use ``bench/abaku_robot_levels.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.abaku.rules import all_moves, apply, new_game, robot_action  # noqa: E402
from games.abaku.rules.robot import percentile_move, share_move  # noqa: E402


def parse(spec: str) -> tuple:
    if spec.startswith("s"):
        low, high = spec[1:].split("-")
        return ("s", float(low), float(high))
    if spec.startswith("u"):
        low, high = spec[1:].split("-")
        return ("u", float(low), float(high))
    if spec.startswith("p"):
        return ("u", float(spec[1:]), float(spec[1:]))
    return ("robot", spec)


def act(state, spec: str, rng: random.Random) -> dict:  # noqa: ANN001
    kind = parse(spec)
    if kind[0] in ("u", "s"):
        seat = state.turn
        moves = all_moves(state.board, state.players[seat].rack)
        if moves:
            pick = percentile_move if kind[0] == "u" else share_move
            move = pick(moves, rng.uniform(kind[1], kind[2]), rng)
            return {
                "type": "place",
                "player": seat,
                "placements": [list(p) for p in move.placements],
            }
        return robot_action(state, "greedy", rng)  # no move: the robots' exchange/skip
    return robot_action(state, kind[1], rng)


def play(job: tuple[str, str, int]) -> tuple[float, int, int]:
    a, b, seed = job
    seats = [a, b] if seed % 2 == 0 else [b, a]
    state = new_game(["A" if s == a else "B" for s in seats], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    while not state.finished:
        state, _ = apply(state, act(state, seats[state.turn], rng))
    seat_a = seats.index(a)
    winners = state.result["winners"]
    win = 1.0 if winners == [seat_a] else 0.5 if seat_a in winners else 0.0
    return win, state.result["scores"][seat_a], state.result["scores"][1 - seat_a]


def main() -> None:
    games, first_seed = int(sys.argv[1]), int(sys.argv[2])
    for pair in sys.argv[3:]:
        a, b = pair.split(":")
        start = time.time()
        with Pool(2) as pool:
            results = pool.map(play, [(a, b, first_seed + k) for k in range(games)], chunksize=1)
        wins = sum(r[0] for r in results)
        print(
            f"{a} vs {b}: {wins}/{games} = {wins / games:.0%}  points "
            f"{statistics.mean(r[1] for r in results):.0f}/"
            f"{statistics.mean(r[2] for r in results):.0f}  {time.time() - start:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
