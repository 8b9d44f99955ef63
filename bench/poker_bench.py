"""Poker engine speed and strength of two simple strategies.

Run from the project root:  python -m bench.poker_bench  [--games 2000]

Prints a Markdown block for bench/RESULTS.md: µs per ``score_board`` on full and
half-full boards, µs per full ``preview`` (every empty cell of a half-full
board, and of an empty board), and the average final score of random and
greedy placement over seeded games per table. The same games, with the same
seeds and tie-breaks, are replayed by bench/poker_bench.mjs; equal averages
mean the JavaScript twin deals and scores exactly as the server does.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

from games.poker.rules import (
    JOKER,
    TABLE_NAMES,
    PokerGame,
    preview,
    randbelow,
    score_board,
    seeded_deck,
    shuffle,
)

BOARDS = 500
BENCH_SEED = 2026


def boards(table: str, filled: int) -> list[list[int | None]]:
    """Seeded boards as games produce them: dealt values, jokers as random values."""
    rng = random.Random(BENCH_SEED)
    result = []
    for _ in range(BOARDS):
        deck = seeded_deck(rng.getrandbits(32), table)[:filled]
        values = [1 + randbelow(rng, 13) if card == JOKER else card for card in deck]
        cells: list[int | None] = [None] * 25
        for cell, value in zip(shuffle(range(25), rng), values, strict=False):
            cells[cell] = value
        result.append(cells)
    return result


def per_call_us(calls: list[Callable[[], object]], repeat: int = 7) -> float:
    """Best of ``repeat`` passes over ``calls``, in µs per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for call in calls:
            call()
        best = min(best, time.perf_counter() - start)
    return best / len(calls) * 1e6


def choose_greedy(
    cells: list[int | None], card: int, table: str, rng: random.Random
) -> tuple[int, int]:
    """Largest immediate gain; ties (and an all-zero preview) broken at random.

    A joker is tried with every value. Options are listed value by value, cell
    by cell, so the JavaScript bench can draw the same tie-break.
    """
    values = range(1, 14) if card == JOKER else (card,)
    best, options = 0, []
    for value in values:
        for cell, gain in preview(cells, value, table).items():
            if gain > best:
                best, options = gain, [(cell, value)]
            elif gain == best:
                options.append((cell, value))
    if not options:
        value = 1 if card == JOKER else card
        options = [(cell, value) for cell, occupant in enumerate(cells) if occupant is None]
    return options[randbelow(rng, len(options))]


def choose_random(
    cells: list[int | None], card: int, table: str, rng: random.Random
) -> tuple[int, int]:
    empty = [cell for cell, occupant in enumerate(cells) if occupant is None]
    cell = empty[randbelow(rng, len(empty))]
    return cell, (1 + randbelow(rng, 13) if card == JOKER else card)


def speed_row(table: str) -> str:
    full, half = boards(table, 25), boards(table, 13)
    value_rng = random.Random(BENCH_SEED)
    values = [1 + randbelow(value_rng, 13) for _ in half]
    full_us = per_call_us([lambda b=b: score_board(b, table) for b in full])
    half_us = per_call_us([lambda b=b: score_board(b, table) for b in half])
    preview_us = per_call_us(
        [lambda b=b, v=v: preview(b, v, table) for b, v in zip(half, values, strict=True)]
    )
    empty_us = per_call_us([lambda v=v: preview([None] * 25, v, table) for v in values])
    return f"| {table} | {full_us:.1f} | {half_us:.1f} | {preview_us:.1f} | {empty_us:.1f} |"


STRATEGIES = {"random": choose_random, "greedy": choose_greedy}


def play(seed: int, table: str, strategy: str) -> int:
    """One easy game with its own seeded deck; jokers are always used at once."""
    game = PokerGame.new(table=table, deck=seeded_deck(seed, table), now=0.0)
    rng = random.Random(seed)
    choose = STRATEGIES[strategy]
    while not game.over:
        card = game.hand
        assert card is not None
        cell, value = choose(game.cells, card, table, rng)
        if card == JOKER:
            game.use_joker(cell, value, now=0.0)
        else:
            game.place(cell, now=0.0)
    return game.score().total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="seeded games per table")
    args = parser.parse_args()

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    print()
    print("| table | score_board full µs | score_board half-full µs | preview half-full µs "
          "| preview empty µs |")  # fmt: skip
    print("|---|---:|---:|---:|---:|")
    for table in TABLE_NAMES:
        print(speed_row(table))
    print()
    print(f"| table | random avg ({args.games} games) | greedy avg ({args.games} games) |")
    print("|---|---:|---:|")
    for table in TABLE_NAMES:
        averages = [
            sum(play(seed, table, strategy) for seed in range(args.games)) / args.games
            for strategy in ("random", "greedy")
        ]
        print(f"| {table} | {averages[0]:.2f} | {averages[1]:.2f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
