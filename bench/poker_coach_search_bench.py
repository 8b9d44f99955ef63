"""Poker coach: the strong search (issue 42) against today's quick coach, same decks.

Run from the project root (nice: the machine is shared):

    nice -n 10 python -m bench.poker_coach_search_bench --games 200 --tables matematico

For each game *i* the deck is ``seeded_deck(SEED + i, table)``; the quick coach
(``coach.QUICK``: one card ahead for the best 3 cells, the coach before issue
42) and the strong one (``coach.STRONG``) play exactly that deck through
``PokerGame`` (every move checked by the rules). Both see only the cards already
dealt. Each decision (one ``choose_cell`` or ``choose_joker``) is timed twice:
CPU time of the process (``time.process_time``, fair on a busy machine) and
wall time (``time.perf_counter``). The load average is printed at the start and
at the end. Prints a Markdown block for ``bench/RESULTS-poker-coach.md``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time

from games.poker.rules import JOKER, TABLE_NAMES, PokerGame, coach, seeded_deck

#: Far from the other poker benches (1,000,000+, 2,000,000+) and training (50,000,000+).
SEED = 7_000_000
#: The searches a run can set against today's coach (``--against``).
CHALLENGERS = {
    "strong": coach.STRONG,
    "rollout": coach.ROLLOUT,
    # Issue 42, fourth pass: 4 cells in rounds, a clearly worse one dropped.
    "rounds": coach.Search(cells=4, rollouts=1_500, rounds=4),
    # Issue 42, fifth pass: the look-ahead for the first six cards and the
    # last but one, rollouts with a larger budget in between.
    "late": coach.Search(cells=3, rollouts=2_000, rollout_from=18, rollout_to=2),
    # ... and twice ROLLOUT's budget on every card but the last but one.
    "double": coach.Search(cells=3, rollouts=3_000, rollout_to=2),
    # ... with a fourth candidate cell (the same futures a cell as "double").
    "double4": coach.Search(cells=4, rollouts=4_000, rollout_to=2),
    # Issue 42, sixth pass: rollouts cut after a horizon of cards, the board's
    # learned value counted there (more, shorter futures at the first cards).
    "h12": coach.Search(cells=3, rollouts=3_000, rollout_to=2, horizon=12),
    "h8": coach.Search(cells=3, rollouts=3_000, rollout_to=2, horizon=8),
}
SEARCHES = {"quick": coach.QUICK, "strong": coach.STRONG}


def play(seed: int, table: str, search: coach.Search) -> dict:
    coach.model_for(table)  # load the values once per process, outside the timings
    game = PokerGame.new(table=table, deck=seeded_deck(seed, table), now=0.0)
    cpu: list[float] = []
    wall: list[float] = []

    def timed(call, *args, **kwargs):
        c, w = time.process_time(), time.perf_counter()
        result = call(*args, **kwargs)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        return result

    while not game.over:
        seen = game.sequence[: game.handled]
        if game.kept_jokers:
            kept = game.kept_jokers - 1
            decision = timed(
                coach.choose_joker, game.cells, table=table, seen=seen, kept=kept, search=search
            )
            if decision["action"] == "use":
                game.place_kept_joker(decision["cell"], decision["value"], now=0.0)
                continue
        if game.hand == JOKER:
            decision = timed(
                coach.choose_joker,
                game.cells,
                table=table,
                seen=seen,
                kept=game.kept_jokers,
                search=search,
            )
            if decision["action"] == "use":
                game.use_joker(decision["cell"], decision["value"], now=0.0)
            else:
                game.keep_joker(now=0.0)
        else:
            cell = timed(
                coach.choose_cell, game.cells, game.hand, table=table, seen=seen, search=search
            )
            game.place(cell, now=0.0)
    return {"score": game.score().total, "cpu": cpu, "wall": wall}


def _one(args: tuple[int, str, str]) -> dict:
    seed, table, against = args
    return {
        "quick": play(seed, table, coach.QUICK),
        "strong": play(seed, table, CHALLENGERS[against]),
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(
    table: str,
    games: int,
    workers: int,
    against: str = "strong",
    first: int = 0,
    jsonl: str | None = None,
) -> dict:
    """Plays the decks; with ``jsonl`` each deck's result is appended to that
    file as soon as it is played (a stopped run keeps the decks it finished)."""
    seeds = [(SEED + i, table, against) for i in range(first, first + games)]
    start = time.perf_counter()
    results = []
    with multiprocessing.Pool(workers) as pool:
        for (seed, _, _), result in zip(seeds, pool.imap(_one, seeds, chunksize=1), strict=True):
            results.append(result)
            if jsonl:
                with open(jsonl, "a", encoding="utf-8") as out:
                    record = {"table": table, "seed": seed, "against": against, **result}
                    out.write(json.dumps(record) + "\n")
    row: dict = {"table": table, "games": games, "wall_s": time.perf_counter() - start}
    return summary(row, results)


def summary(row: dict, results: list[dict]) -> dict:
    games = row["games"] = len(results)
    for name in SEARCHES:
        scores = [r[name]["score"] for r in results]
        cpu = [t for r in results for t in r[name]["cpu"]]
        wall = [t for r in results for t in r[name]["wall"]]
        row[name] = {
            "mean": statistics.fmean(scores),
            "se": statistics.stdev(scores) / games**0.5,
            "median": statistics.median(scores),
            "decisions": len(cpu),
            "cpu_p50": percentile(cpu, 0.5) * 1000,
            "cpu_p95": percentile(cpu, 0.95) * 1000,
            "cpu_max": max(cpu) * 1000,
            "wall_p50": percentile(wall, 0.5) * 1000,
            "wall_p95": percentile(wall, 0.95) * 1000,
            "wall_max": max(wall) * 1000,
        }
    diffs = [r["strong"]["score"] - r["quick"]["score"] for r in results]
    row["diff"] = statistics.fmean(diffs)
    row["diff_se"] = statistics.stdev(diffs) / games**0.5
    row["better"] = sum(d > 0 for d in diffs)
    row["worse"] = sum(d < 0 for d in diffs)
    return row


def markdown(rows: list[dict]) -> str:
    out = [
        "| table | games | quick mean ± SE | median | strong mean ± SE | median "
        "| strong − quick ± SE (paired) | strong better / worse | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        q, s = r["quick"], r["strong"]
        out.append(
            f"| {r['table']} | {r['games']} | {q['mean']:.1f} ± {q['se']:.1f} | {q['median']:.0f} "
            f"| {s['mean']:.1f} ± {s['se']:.1f} | {s['median']:.0f} "
            f"| {r['diff']:+.1f} ± {r['diff_se']:.1f} | {r['better']} / {r['worse']} "
            f"| {s['mean'] / q['mean']:.3f} |"
        )
    out += [
        "",
        "| table | coach | decisions | CPU p50 ms | CPU p95 ms | CPU max ms "
        "| wall p50 ms | wall p95 ms | wall max ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        for name in SEARCHES:
            t = r[name]
            out.append(
                f"| {r['table']} | {name} | {t['decisions']} | {t['cpu_p50']:.1f} "
                f"| {t['cpu_p95']:.1f} | {t['cpu_max']:.1f} | {t['wall_p50']:.1f} "
                f"| {t['wall_p95']:.1f} | {t['wall_max']:.1f} |"
            )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tables", default=",".join(TABLE_NAMES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--against", choices=sorted(CHALLENGERS), default="strong")
    parser.add_argument("--first", type=int, default=0, help="first deck: SEED + first")
    parser.add_argument("--jsonl", help="append each deck's result to this file as it finishes")
    parser.add_argument("--summarise", help="only print the tables of a --jsonl file's decks")
    args = parser.parse_args()
    if args.summarise:
        records = [json.loads(line) for line in open(args.summarise, encoding="utf-8")]
        tables = dict.fromkeys(r["table"] for r in records)
        rows = [
            summary({"table": t, "games": 0}, [r for r in records if r["table"] == t])
            for t in tables
        ]
        print(markdown(rows))
        return
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{multiprocessing.cpu_count()} CPUs, {args.workers} workers, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.1f}, "
        f"strong = {args.against}: {CHALLENGERS[args.against]}"
    )
    rows = []
    for table in [t for t in args.tables.split(",") if t]:
        rows.append(bench(table, args.games, args.workers, args.against, args.first, args.jsonl))
        print(f"done {table} {time.strftime('%H:%M')}", file=sys.stderr, flush=True)
    print(f"end {time.strftime('%H:%M')}, load average {os.getloadavg()[0]:.1f}")
    print()
    print(markdown(rows))


if __name__ == "__main__":
    main()
