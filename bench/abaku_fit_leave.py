"""Fit the strong Abaku robot's rack-leave values from greedy self-play.

Run from the project root (one core, a few minutes per 100 games):
    .venv/bin/python bench/abaku_fit_leave.py --games 300 --seed 900000 \
        --data /tmp/leave_data.json --write games/abaku/rules/leave_table.py
    # refit from saved samples without replaying:
    .venv/bin/python bench/abaku_fit_leave.py --from-data /tmp/leave_data.json --write ...

Greedy plays both seats. After every placed move we record the stones the
player kept (the leave) and the points of that player's next move; a least-
squares fit of next points ~ intercept + sum over kinds of (value of kind ×
how many are kept) + duplicate penalty × (stones repeating a kind) gives, per
stone kind, what keeping it is worth against a freshly drawn stone. Moves made
while the bag is nearly empty are left out (the next move there is about the
endgame, not the rack). ``--write`` stores the fitted values as a generated
Python module (the rules engine does no I/O), read by
``games/abaku/rules/robot.py``; ``tests/abaku/test_abaku_strong_robot.py``
checks it covers every stone kind.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.abaku.rules import JOKER, apply, new_game, robot_action  # noqa: E402

KINDS = [*range(10), JOKER]
MIN_BAG = 10  # ignore moves after which fewer stones than this are left in the bag


def samples(seed: int) -> list[tuple[list[int], int]]:
    """(leave, next move's points of the same player) for one greedy game."""
    state = new_game(["A", "B"], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    pending: dict[int, list[int]] = {}
    out = []
    while not state.finished:
        seat = state.turn
        rack = list(state.players[seat].rack)
        act = robot_action(state, "greedy", rng)
        state, events = apply(state, act)
        placed = next((e for e in events if e["type"] == "placed"), None)
        if seat in pending:
            out.append((pending.pop(seat), placed["score"] if placed else 0))
        if placed is None:
            continue
        leave = list(rack)
        for p in placed["placements"]:
            leave.remove(JOKER if len(p) > 3 and p[3] else p[2])
        if len(state.bag) >= MIN_BAG:
            pending[seat] = leave
    return out


def fit(data: list[tuple[list[int], int]]) -> dict[str, float]:
    """Least squares over [1, counts per kind, duplicates] by the normal equations."""
    rows, ys = [], []
    for leave, y in data:
        counts = Counter(leave)
        dup = sum(n - 1 for n in counts.values() if n > 1)
        rows.append([1.0] + [float(counts.get(k, 0)) for k in KINDS] + [float(dup)])
        ys.append(float(y))
    n = len(rows[0])
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    aty = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(n)]
    for i in range(n):  # a little ridge keeps rare kinds (jokers) sane
        ata[i][i] += 1e-6 if i == 0 else 20.0
    coef = _solve(ata, aty)
    values = {str(k): round(coef[1 + i], 2) for i, k in enumerate(KINDS)}
    return {"values": values, "duplicate_penalty": round(-coef[-1], 2), "intercept": coef[0]}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=900000)
    parser.add_argument("--data", help="also dump the raw samples to this JSON file")
    parser.add_argument("--from-data", help="fit the samples saved by --data, play no games")
    parser.add_argument("--write", help="write the fitted table as a Python module here")
    args = parser.parse_args()
    if args.from_data:
        saved = json.loads(Path(args.from_data).read_text())
        data, args.games, args.seed = saved["samples"], saved["games"], saved["first_seed"]
    else:
        data = []
        for k in range(args.games):
            data.extend(samples(args.seed + k))
            if (k + 1) % 25 == 0:
                print(f"{k + 1} games, {len(data)} samples", flush=True)
    if args.data:
        payload = {"games": args.games, "first_seed": args.seed, "samples": data}
        Path(args.data).write_text(json.dumps(payload))
    result = fit(data)
    result["games"] = args.games
    result["samples"] = len(data)
    result["first_seed"] = args.seed
    print(json.dumps(result, indent=1))
    if args.write:
        Path(args.write).write_text(module_text(result))


def module_text(result: dict) -> str:
    values = "".join(f"    {k}: {v},\n" for k, v in result["values"].items())
    return (
        '"""Rack-leave values of the strong Abaku robot: GENERATED, do not edit.\n\n'
        "Regenerate with ``bench/abaku_fit_leave.py`` (see its docstring): a least-squares\n"
        "fit of a player's next-move points on the stones they kept, over greedy\n"
        f"self-play ({result['games']} games from seed {result['first_seed']}, "
        f"{result['samples']} samples).\n"
        "Keys are stone kinds (10 = joker), values points against a fresh stone.\n"
        '"""\n\n'
        f"LEAVE_VALUES: dict[int, float] = {{\n{values}}}\n"
        f"DUPLICATE_PENALTY = {result['duplicate_penalty']}\n"
        f"GAMES = {result['games']}\n"
        f"FIRST_SEED = {result['first_seed']}\n"
        f"SAMPLES = {result['samples']}\n"
    )


if __name__ == "__main__":
    main()
