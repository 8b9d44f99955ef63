"""Abaku ladder design (issue 42): the scores of every legal move on real positions.

Run from the project root (under ``nice -n 19`` on the shared machine):
    nice -n 19 .venv/bin/python bench/abaku_ladder_positions.py record GAMES FIRST_SEED OUT.jsonl A:B ...
    .venv/bin/python bench/abaku_ladder_positions.py model OUT.jsonl SPEC ...
    .venv/bin/python bench/abaku_ladder_positions.py fit OUT.jsonl GAMES.jsonl

``record`` plays GAMES games of each pair (players as in
``bench/abaku_robot_levels.py``: level ids, ``median``/``p75``/``p90``,
``uLOW-HIGH``, ``sLOW-HIGH``) and writes, for every turn, the multiset of the
legal moves' scores of the player on turn (one complete move list), as one
JSON line. ``model`` then gives every candidate policy's expected points per
move on those same positions (no rack luck between the candidates: they are
compared on the same boards and racks), which places candidate levels evenly
before games are played. It leaves out what a move does to the opponent's next
turn, so played games (``abaku_robot_levels.py``) confirm the ladder.

``fit`` reads the played games of an ``abaku_robot_levels.py --log`` file and
pools them: every game's margin is modelled as kappa x (the two players'
difference in expected points a move on the recorded positions) x the moves a
player makes in a game, with one kappa for all pairs (what the positions leave
out: a move also opens or blocks squares for the opponent) and a spread
proportional to the points of the game. Each pair then gets the win rate the
model gives it with a 95 % interval from kappa's standard error -- every game
of every pair informs every pair, which the few games a pair on the shared
machine cannot do alone. A model: the per-pair counts stay the measurement.
"""

from __future__ import annotations

import bisect
import json
import random
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.abaku_robot_levels import action  # noqa: E402
from games.abaku.rules import all_moves, apply, new_game  # noqa: E402


def record_game(job: tuple[str, str, int]) -> list[dict]:
    a, b, seed = job
    seats = [a, b] if seed % 2 == 0 else [b, a]
    state = new_game(["A", "B"], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    rows = []
    while not state.finished:
        seat = state.turn
        moves = all_moves(state.board, state.players[seat].rack)
        if moves:
            counts = Counter(m.score for m in moves)
            rows.append(
                {
                    "pair": f"{a}:{b}",
                    "seed": seed,
                    "player": seats[seat],
                    "bag": len(state.bag),
                    "scores": sorted(counts.items()),
                }
            )
        state, _ = apply(state, action(state, seats[seat], rng))
    return rows


def record(games: int, first_seed: int, out: Path, pairs: list[str]) -> None:
    jobs = [(*p.split(":"), first_seed + k) for k in range(games) for p in pairs]
    with Pool(2) as pool, out.open("a") as f:
        for rows in pool.imap_unordered(record_game, jobs):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            f.flush()


class Position:
    """One position's move scores, sorted ascending with repeats (as the rank
    of ``percentile_move`` sees them) and the distinct scores."""

    def __init__(self, pairs: list[list[int]]) -> None:
        self.sorted = [s for s, n in pairs for _ in range(n)]
        self.distinct = [s for s, _ in pairs]
        self.best = self.distinct[-1]

    def percentile(self, share: float) -> int:
        return self.sorted[min(len(self.sorted) - 1, int(share * len(self.sorted)))]

    def share(self, r: float) -> int:
        target = r * self.best
        i = bisect.bisect_left(self.distinct, target)
        near = [self.distinct[j] for j in (i - 1, i) if 0 <= j < len(self.distinct)]
        return min(near, key=lambda s: (abs(s - target), -s))


def expected(pos: Position, kind: str, low: float, high: float, steps: int = 41) -> float:
    grid = [low + (high - low) * k / (steps - 1) for k in range(steps)] if high > low else [low]
    pick = pos.percentile if kind in "up" else pos.share
    return sum(pick(r) for r in grid) / len(grid)


def model(path: Path, specs: list[str]) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    positions = [Position(r["scores"]) for r in rows]
    print(f"{len(positions)} positions from {len({(r['pair'], r['seed']) for r in rows})} games")
    for spec in specs:
        kind, rest = spec[0], spec[1:]
        low, _, high = rest.partition("-")
        lo, hi = float(low), float(high or low)
        value = sum(expected(p, kind, lo, hi) for p in positions) / len(positions)
        print(f"{spec:>14}  {value:7.2f} points a move")


def spec_value(positions: list[Position], player: str) -> float | None:
    """Expected points a move of ``player`` (a bench player, a level id or a
    ``u``/``s`` candidate) on ``positions``; ``None`` for ``strong``."""
    from bench.abaku_robot_levels import FIXED, candidate
    from games.abaku.rules.robot import LEVEL_BY_ID

    level = LEVEL_BY_ID.get(player)
    if player in FIXED:
        kind, low, high = "u", FIXED[player], FIXED[player]
    elif player == "greedy":
        kind, low, high = "s", 1.0, 1.0
    elif level is not None and level.play in ("percentile", "share"):
        kind = "u" if level.play == "percentile" else "s"
        low, high = level.percentiles if kind == "u" else level.shares
    elif candidate(player):
        kind, low, high = candidate(player)  # type: ignore[misc]
    else:
        return None
    return sum(expected(p, kind, low, high, 21) for p in positions) / len(positions)


def fit(path: Path, log: Path) -> None:
    import math
    import statistics

    from bench.abaku_robot_levels import TARGETS, level_name, wilson

    positions = [Position(json.loads(line)["scores"]) for line in path.read_text().splitlines()]
    games = [json.loads(line) for line in log.read_text().splitlines()]
    cache: dict[str, float | None] = {}
    rows = []
    for g in games:
        a, b = level_name(g["a"]), level_name(g["b"])
        for name in (a, b):
            if name not in cache:
                cache[name] = spec_value(positions, name)
        if cache[a] is None or cache[b] is None:
            continue
        moves = (len(g["times_a"]) + len(g["times_b"])) / 2
        x = (cache[a] - cache[b]) * moves  # type: ignore[operator]
        margin = g["points"][0] - g["points"][1]
        rows.append((a, b, x, margin, sum(g["points"]) / 2, g["win_a"]))
    # weighted least squares (the spread grows with the points of the game)
    sxx = sum((x / p) ** 2 for _, _, x, _, p, _ in rows)
    kappa = sum((x / p) * (m / p) for _, _, x, m, p, _ in rows) / sxx
    spread = math.sqrt(
        sum(((m - kappa * x) / p) ** 2 for _, _, x, m, p, _ in rows) / (len(rows) - 1)
    )
    se = spread / math.sqrt(sxx)
    cdf = statistics.NormalDist().cdf
    print(
        f"{len(rows)} games; kappa {kappa:.2f} ± {se:.2f} (SE); "
        f"margin spread {spread:.3f} x points a game"
    )
    print("| pairing | games | A wins | count 95 % | model win rate (95 %) | target |")
    print("|---|---|---|---|---|---|")
    for a, b in dict.fromkeys((a, b) for a, b, *_ in rows):
        mine = [r for r in rows if (r[0], r[1]) == (a, b)]
        wins = sum(r[5] for r in mine)
        low, high = wilson(wins, len(mine))
        x = statistics.mean(r[2] / r[4] for r in mine)  # the pair's difference per point of game
        rate = [cdf(k * x / spread) for k in (kappa, kappa - 1.96 * se, kappa + 1.96 * se)]
        target = TARGETS.get((a, b))
        band = f"{target[0]:.0%}–{target[1]:.0%}" if target else "—"
        print(
            f"| {a} vs {b} | {len(mine)} | {wins:g} | {low:.0%}–{high:.0%} "
            f"| {rate[0]:.0%} ({min(rate[1:]):.0%}–{max(rate[1:]):.0%}) | {band} |"
        )


def main() -> None:
    if sys.argv[1] == "fit":
        fit(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    if sys.argv[1] == "record":
        record(int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]), sys.argv[5:])
    else:
        model(Path(sys.argv[2]), sys.argv[3:])


if __name__ == "__main__":
    main()
