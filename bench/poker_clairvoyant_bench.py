"""Poker: the clairvoyant bound -- the best board of a deck known in advance (issue 42 §2).

Run from the project root (under ``nice -n 19`` on the shared machine):

    nice -n 19 .venv/bin/python -m bench.poker_clairvoyant_bench --games 40 --tables matematico

A player who knew the whole deck could put each of the 25 cards dealt on any
square, so its best score is the best arrangement of those 25 cards on the
board (the order of the deal no longer matters). That arrangement is searched
by simulated annealing over swaps of two squares (only the lines through the
two squares are rescored), several restarts, then a hill climb over every swap
until none gains: a local search, so the figure is a lower bound of the true
optimum (``--check`` runs a second, independently seeded search per deck and
counts how often both find the same score). On the tables with jokers a joker
is a square whose value the search also chooses (1..13), and the deal is the
deck's first 25 cards -- an approximation: there a kept joker changes which
cards are dealt.

The coach (``coach.LIVE``, what the hint, the robot and the coach seat use)
plays the same decks through ``PokerGame`` (``bench.poker_coach_search_bench.play``,
seeing only the cards dealt); the table gives both means and the coach's share
of the bound (ratio of the means, and the mean of the per-deck ratios).
Decks: ``seeded_deck(SEED + i, table)``, the decks of ``poker_coach_search_bench``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import statistics
import time

from games.poker.rules import JOKER, coach, seeded_deck
from games.poker.rules.scoring import CELLS, LINES, LINES_THROUGH_CELL, _compiled, _line_total

from .poker_coach_search_bench import SEED, play

ITERATIONS = 20_000
RESTARTS = 4
T_START, T_END = 25.0, 0.3


def _total(compiled, cells: list[int]) -> list[int]:  # noqa: ANN001
    return [_line_total(compiled, cells, i) for i in range(len(LINES))]


def best_arrangement(
    cards: list[int], table: str, rng: random.Random, iterations: int = ITERATIONS
) -> tuple[int, list[int]]:
    """The best board found for ``cards`` (25 values; jokers as ``JOKER``)."""
    compiled = _compiled(table)
    best_score, best_cells = -1, list(cards)
    for _ in range(RESTARTS):
        cells = list(cards)
        rng.shuffle(cells)
        joker_cells = [i for i, card in enumerate(cells) if card == JOKER]
        for i in joker_cells:
            cells[i] = rng.randint(1, 13)
        wild = joker_cells  # squares holding a joker: their value is free
        lines = _total(compiled, cells)
        score = sum(lines)
        for step in range(iterations):
            temperature = T_START * (T_END / T_START) ** (step / iterations)
            if wild and rng.random() < 0.1:
                k = rng.randrange(len(wild))
                i = j = wild[k]
                old_value = cells[i]
                cells[i] = rng.randint(1, 13)
                touched: tuple[int, ...] = LINES_THROUGH_CELL[i]
            else:
                i, j = rng.randrange(CELLS), rng.randrange(CELLS)
                if cells[i] == cells[j]:
                    continue
                cells[i], cells[j] = cells[j], cells[i]
                touched = tuple(set(LINES_THROUGH_CELL[i]) | set(LINES_THROUGH_CELL[j]))
            new = {line: _line_total(compiled, cells, line) for line in touched}
            delta = sum(new[line] - lines[line] for line in touched)
            if delta >= 0 or rng.random() < math.exp(delta / temperature):
                for line, points in new.items():
                    lines[line] = points
                score += delta
                if score > best_score:
                    best_score, best_cells = score, list(cells)
            elif i == j:
                cells[i] = old_value
            else:
                cells[i], cells[j] = cells[j], cells[i]
                continue
            if i != j:
                # a swap moves a joker's freedom with it
                wild = [j if w == i else i if w == j else w for w in wild]
        # hill climb from the best board of this restart: every swap until none gains
        cells = list(best_cells)
        improved = True
        while improved:
            improved = False
            base = sum(_total(compiled, cells))
            for i in range(CELLS):
                for j in range(i + 1, CELLS):
                    if cells[i] == cells[j]:
                        continue
                    cells[i], cells[j] = cells[j], cells[i]
                    gain = sum(_total(compiled, cells)) - base
                    if gain > 0:
                        base += gain
                        improved = True
                    else:
                        cells[i], cells[j] = cells[j], cells[i]
        if base > best_score:
            best_score, best_cells = base, list(cells)
    return best_score, best_cells


def one(args: tuple[int, str, bool]) -> dict:
    seed, table, check = args
    cards = seeded_deck(seed, table)[:CELLS]
    start = time.process_time()
    bound, _cells = best_arrangement(cards, table, random.Random(seed))
    cpu = time.process_time() - start
    again = best_arrangement(cards, table, random.Random(seed + 1))[0] if check else None
    coached = play(seed, table, coach.LIVE)["score"]
    return {"seed": seed, "bound": bound, "again": again, "coach": coached, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tables", nargs="+", default=["matematico"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="a second search per deck")
    parser.add_argument("--first", type=int, default=0, help="first deck: SEED + first")
    args = parser.parse_args()
    print(f"load average at start {os.getloadavg()[0]:.1f}")
    print(
        "| table | decks | bound mean ± SE | coach mean ± SE | coach / bound (means) "
        "| mean of per-deck ratios ± SE | second search equal | search CPU p50 / max |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for table in args.tables:
        jobs = [(SEED + i, table, args.check) for i in range(args.first, args.first + args.games)]
        with multiprocessing.Pool(args.workers) as pool:
            rows = pool.map(one, jobs, chunksize=1)
        bounds = [r["bound"] for r in rows]
        coached = [r["coach"] for r in rows]
        ratios = [c / b for c, b in zip(coached, bounds, strict=True)]
        n = len(rows)

        def se(values: list[float]) -> float:
            return statistics.stdev(values) / math.sqrt(len(values))

        same = (
            f"{sum(r['again'] == r['bound'] for r in rows)} of {n}, "
            f"mean gap {statistics.mean(abs(r['again'] - r['bound']) for r in rows):.1f}"
            if args.check
            else "—"
        )
        cpu = sorted(r["cpu"] for r in rows)
        print(
            f"| {table} | {n} | {statistics.mean(bounds):.1f} ± {se(bounds):.1f} "
            f"| {statistics.mean(coached):.1f} ± {se(coached):.1f} "
            f"| {statistics.mean(coached) / statistics.mean(bounds):.1%} "
            f"| {statistics.mean(ratios):.1%} ± {se(ratios):.1%} | {same} "
            f"| {statistics.median(cpu):.1f} s / {cpu[-1]:.1f} s |",
            flush=True,
        )
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
