"""Poker coach: training of its line values, and its strength and speed.

Run from the project root:

    python -m bench.poker_coach_bench --games 2000            # benchmark, all tables
    python -m bench.poker_coach_bench --games 300 --tables matematico
    python -m bench.poker_coach_bench --train --rounds 4 --train-games 20000

The benchmark plays the SAME uniformly shuffled games (``seeded_deck(seed)`` for
seeds ``BASE_SEED + i``) with the coach (``games.poker.rules.coach``, through
``PokerGame`` so every move is checked by the rules) and with greedy (largest
immediate gain, ties to the first cell; a joker is used at once with its best
value), and prints a Markdown block for ``bench/RESULTS-poker-coach.md``.

Training (``--train``) is Monte Carlo self-play: play games with the current
values (one card, no look-ahead, a little exploration), record every line's
abstraction after every placement together with the line's final score, and
average. Each round plays with the values of the previous one; older rounds are
down-weighted. The result goes to ``games/poker/rules/coach_values.json``.
Training uses seeds far away from the benchmark's.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import random
import statistics
import sys
import time
from collections import defaultdict

from games.poker.rules import JOKER, TABLE_NAMES, PokerGame, coach, preview, seeded_deck
from games.poker.rules.coach import (
    VALUES_FILE,
    Model,
    _Position,
    _remaining,
    line_keys,
    model_for,
)
from games.poker.rules.scoring import _COMPILED, LINES, _line_points

BASE_SEED = 1_000_000
TRAIN_SEED = 50_000_000
WORKERS = 2
SHRINK = 3.0


# --- greedy (the preview habit) -------------------------------------------------


def greedy_move(cells: list[int | None], card: int, table: str) -> tuple[int, int]:
    """Largest immediate gain, ties to the first cell (and the lowest value)."""
    values = range(1, 14) if card == JOKER else (card,)
    best = (0, -1, 0)
    for value in values:
        for cell, gain in preview(cells, value, table).items():
            if gain > best[0] or (gain == best[0] and best[1] >= 0 and cell < best[1]):
                best = (gain, cell, value)
    if best[1] < 0:
        return cells.index(None), (1 if card == JOKER else card)
    return best[1], best[2]


def play_greedy(seed: int, table: str) -> int:
    game = PokerGame.new(table=table, deck=seeded_deck(seed, table), now=0.0)
    while not game.over:
        card = game.hand
        cell, value = greedy_move(game.cells, card, table)
        if card == JOKER:
            game.use_joker(cell, value, now=0.0)
        else:
            game.place(cell, now=0.0)
    return game.score().total


# --- the coach through the public API --------------------------------------------


def play_coach(seed: int, table: str) -> dict:
    model_for(table)  # load the values once per process, outside the timings
    game = PokerGame.new(table=table, deck=seeded_deck(seed, table), now=0.0)
    times: list[float] = []
    jokers = {"kept": 0, "used_in_hand": 0, "used_from_reserve": 0, "lost": 0}
    joker_cells: list[int] = []
    start = time.perf_counter()
    while not game.over:
        seen = game.sequence[: game.handled]
        if game.kept_jokers:
            t = time.perf_counter()
            decision = coach.choose_joker(
                game.cells, table=table, seen=seen, kept=game.kept_jokers - 1
            )
            times.append(time.perf_counter() - t)
            if decision["action"] == "use":
                game.place_kept_joker(decision["cell"], decision["value"], now=0.0)
                jokers["used_from_reserve"] += 1
                joker_cells.append(decision["cell"])
                continue
        card = game.hand
        t = time.perf_counter()
        if card == JOKER:
            decision = coach.choose_joker(game.cells, table=table, seen=seen, kept=game.kept_jokers)
            times.append(time.perf_counter() - t)
            if decision["action"] == "use":
                game.use_joker(decision["cell"], decision["value"], now=0.0)
                jokers["used_in_hand"] += 1
                joker_cells.append(decision["cell"])
            else:
                game.keep_joker(now=0.0)
                jokers["kept"] += 1
        else:
            cell = coach.choose_cell(game.cells, card, table=table, seen=seen)
            times.append(time.perf_counter() - t)
            game.place(cell, now=0.0)
    elapsed = time.perf_counter() - start
    jokers["lost"] = game.kept_jokers
    score = game.score()
    # What the jokers were worth: the final score minus the best score with
    # each joker cell emptied again (a lower bound of what it brought).
    joker_value = 0.0
    if joker_cells:
        cells = list(game.cells)
        for cell in joker_cells:
            cells[cell] = None
        from games.poker.rules import score_board

        joker_value = score.total - score_board(cells, table).total
    return {
        "score": score.total,
        "times": times,
        "game_time": elapsed,
        "jokers": jokers,
        "joker_value": joker_value,
        "joker_count": len(joker_cells),
    }


# --- training ----------------------------------------------------------------------

_WORKER_MODEL: Model | None = None


def _init_worker(table: str, fine: dict, coarse: dict) -> None:
    global _WORKER_MODEL
    _WORKER_MODEL = Model(table, fine, coarse)


def _one_ply(model, cells, value, remaining, rng, explore):
    position = _Position(model, cells, remaining)
    empty_after = cells.count(None) - 1
    base = position.line_values(empty_after)
    deltas = position.deltas(value, base, empty_after)
    if explore and rng.random() < explore:
        cell = rng.choice(sorted(deltas))
        return cell, deltas[cell]
    best_cell, best = -1, float("-inf")
    for cell, delta in deltas.items():
        if delta > best + 1e-9:
            best_cell, best = cell, delta
    return best_cell, best


def _train_game(args: tuple[int, float]) -> list[tuple[str, str, int]]:
    """One self-play game; returns (fine, coarse, final line score) samples."""
    seed, explore = args
    model = _WORKER_MODEL
    table = model.table
    compiled = _COMPILED[table]
    rng = random.Random(seed ^ 0x5EED)
    deck = seeded_deck(seed, table)
    cells: list[int | None] = [None] * 25
    seen: list[int] = []
    kept = 0
    records: list[tuple[int, str, str]] = []

    def record() -> None:
        remaining = _remaining(table, seen)
        empty = cells.count(None)
        for li, line_cells in enumerate(LINES):
            line = [cells[c] for c in line_cells]
            if None in line:
                fine, coarse = line_keys(table, line, remaining, empty)
                records.append((li, fine, coarse))

    def place_joker_best() -> None:
        remaining = _remaining(table, seen)
        best = None
        for value in range(1, 14):
            cell, delta = _one_ply(model, cells, value, remaining, rng, 0.0)
            if best is None or delta > best[0] + 1e-9:
                best = (delta, cell, value)
        cells[best[1]] = best[2]
        return best[0]

    for card in deck:
        free = cells.count(None)
        if free == 0:
            break
        if kept and free <= kept:
            place_joker_best()
            kept -= 1
            record()
            free -= 1
            if free == 0:
                break
        if card == JOKER:
            if free > kept + 1:
                kept += 1
                seen.append(card)
                continue
            place_joker_best()
            seen.append(card)
            record()
            continue
        remaining = _remaining(table, seen, (card,))
        cell, _ = _one_ply(model, cells, card, remaining, rng, explore)
        cells[cell] = card
        seen.append(card)
        record()
    finals = []
    for line_cells in LINES:
        finals.append(_line_points(compiled, *[cells[c] for c in line_cells]))
    return [(fine, coarse, finals[li]) for li, fine, coarse in records]


def _stats_to_model(table, fine_stats, coarse_stats):
    coarse = {}
    for key, (n, total, pos) in coarse_stats.items():
        if n > 0:
            coarse[key] = (round(total / n, 3), round(pos / n, 4))
    fine = {}
    for key, (n, total, pos, ckey) in fine_stats.items():
        if n <= 0:
            continue
        prior = coarse.get(ckey, (total / n, pos / n))
        fine[key] = (
            round((total + SHRINK * prior[0]) / (n + SHRINK), 3),
            round((pos + SHRINK * prior[1]) / (n + SHRINK), 4),
        )
    return fine, coarse


def train(table: str, rounds: int, games: int, explore: float, decay: float) -> dict:
    existing = model_for(table)
    fine, coarse = dict(existing.fine), dict(existing.coarse)
    fine_stats: dict = {}
    coarse_stats: dict = {}
    for r in range(rounds):
        start = time.perf_counter()
        for stats in (fine_stats, coarse_stats):
            for value in stats.values():
                value[0] *= decay
                value[1] *= decay
                value[2] *= decay
        seeds = [(TRAIN_SEED + r * 1_000_000 + i, explore) for i in range(games)]
        finals = []
        with multiprocessing.Pool(
            WORKERS, initializer=_init_worker, initargs=(table, fine, coarse)
        ) as pool:
            for samples in pool.imap_unordered(_train_game, seeds, chunksize=50):
                game_total = 0
                for fkey, ckey, score in samples:
                    f = fine_stats.get(fkey)
                    if f is None:
                        f = fine_stats[fkey] = [0.0, 0.0, 0.0, ckey]
                    f[0] += 1
                    f[1] += score
                    f[2] += score > 0
                    c = coarse_stats.get(ckey)
                    if c is None:
                        c = coarse_stats[ckey] = [0.0, 0.0, 0.0]
                    c[0] += 1
                    c[1] += score
                    c[2] += score > 0
                finals.append(game_total)
        fine, coarse = _stats_to_model(table, fine_stats, coarse_stats)
        print(
            f"{table} round {r}: {games} games in {time.perf_counter() - start:.0f} s, "
            f"{len(fine)} fine / {len(coarse)} coarse keys",
            flush=True,
        )
    return {"fine": fine, "coarse": coarse}


def save_values(models: dict[str, dict]) -> None:
    data = json.loads(VALUES_FILE.read_text()) if VALUES_FILE.exists() else {"tables": {}}
    data.setdefault("tables", {}).update(models)
    data["about"] = (
        "Learned line values of the poker coach: abstraction -> [mean final line "
        "score, probability the line scores]. Built by bench/poker_coach_bench.py --train."
    )
    VALUES_FILE.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")


# --- benchmark ---------------------------------------------------------------------


def _bench_one(args: tuple[int, str]) -> dict:
    seed, table = args
    result = play_coach(seed, table)
    result["greedy"] = play_greedy(seed, table)
    result["seed"] = seed
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(table: str, games: int, workers: int) -> dict:
    seeds = [(BASE_SEED + i, table) for i in range(games)]
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(_bench_one, seeds, chunksize=10)
    else:
        results = [_bench_one(s) for s in seeds]
    wall = time.perf_counter() - start
    coach_scores = [r["score"] for r in results]
    greedy_scores = [r["greedy"] for r in results]
    diffs = [c - g for c, g in zip(coach_scores, greedy_scores, strict=True)]
    times = [t for r in results for t in r["times"]]
    game_times = [r["game_time"] for r in results]
    jokers = defaultdict(int)
    for r in results:
        for k, v in r["jokers"].items():
            jokers[k] += v
    joker_values = [r["joker_value"] / r["joker_count"] for r in results if r["joker_count"]]
    n = len(results)
    return {
        "table": table,
        "games": n,
        "wall": wall,
        "coach_mean": statistics.fmean(coach_scores),
        "coach_se": statistics.stdev(coach_scores) / n**0.5 if n > 1 else 0.0,
        "coach_median": statistics.median(coach_scores),
        "coach_sd": statistics.stdev(coach_scores) if n > 1 else 0.0,
        "greedy_mean": statistics.fmean(greedy_scores),
        "greedy_se": statistics.stdev(greedy_scores) / n**0.5 if n > 1 else 0.0,
        "greedy_median": statistics.median(greedy_scores),
        "greedy_sd": statistics.stdev(greedy_scores) if n > 1 else 0.0,
        "diff_mean": statistics.fmean(diffs),
        "diff_se": statistics.stdev(diffs) / n**0.5 if n > 1 else 0.0,
        "coach_wins": sum(d > 0 for d in diffs),
        "decisions": len(times),
        "p50_ms": percentile(times, 0.5) * 1000,
        "p95_ms": percentile(times, 0.95) * 1000,
        "max_ms": max(times) * 1000,
        "game_p50_s": percentile(game_times, 0.5),
        "game_p95_s": percentile(game_times, 0.95),
        "game_max_s": max(game_times),
        "jokers": dict(jokers),
        "joker_value": statistics.fmean(joker_values) if joker_values else None,
    }


def markdown(rows: list[dict]) -> str:
    out = [
        "| table | games | coach mean ± SE | median | sd | greedy mean ± SE | median | sd "
        "| coach − greedy ± SE | coach better in |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['table']} | {r['games']} | {r['coach_mean']:.1f} ± {r['coach_se']:.1f} "
            f"| {r['coach_median']:.0f} | {r['coach_sd']:.1f} "
            f"| {r['greedy_mean']:.1f} ± {r['greedy_se']:.1f} | {r['greedy_median']:.0f} "
            f"| {r['greedy_sd']:.1f} | {r['diff_mean']:+.1f} ± {r['diff_se']:.1f} "
            f"| {100 * r['coach_wins'] / r['games']:.0f} % |"
        )
    out += [
        "",
        "| table | decisions | decision p50 ms | p95 ms | max ms | game p50 s | p95 s | max s "
        "| wall s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['table']} | {r['decisions']} | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} "
            f"| {r['max_ms']:.1f} | {r['game_p50_s']:.2f} | {r['game_p95_s']:.2f} "
            f"| {r['game_max_s']:.2f} | {r['wall']:.0f} |"
        )
    joker_rows = [r for r in rows if r["jokers"].get("kept") or r["jokers"].get("used_in_hand")]
    if joker_rows:
        out += [
            "",
            "| table | jokers kept | used at once | kept ones placed later | kept ones lost "
            "| avg points a placed joker brought |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for r in joker_rows:
            j = r["jokers"]
            value = f"{r['joker_value']:.1f}" if r["joker_value"] is not None else "—"
            out.append(
                f"| {r['table']} | {j.get('kept', 0)} | {j.get('used_in_hand', 0)} "
                f"| {j.get('used_from_reserve', 0)} | {j.get('lost', 0)} | {value} |"
            )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--tables", default=",".join(TABLE_NAMES))
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--train", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--train-games", type=int, default=10000)
    parser.add_argument("--explore", type=float, default=0.03)
    parser.add_argument("--decay", type=float, default=0.5)
    args = parser.parse_args()
    tables = [t for t in args.tables.split(",") if t]
    if args.train:
        for table in tables:
            values = train(table, args.rounds, args.train_games, args.explore, args.decay)
            save_values({table: values})
        return
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{multiprocessing.cpu_count()} CPUs, {args.workers} workers, "
        f"{time.strftime('%Y-%m-%d %H:%M')}"
    )
    rows = []
    for table in tables:
        rows.append(bench(table, args.games, args.workers))
        print(f"done {table}", file=sys.stderr, flush=True)
    print()
    print(markdown(rows))


if __name__ == "__main__":
    main()
