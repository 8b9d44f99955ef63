"""When does a sent board "match" a competitive game? False refusals and evasion.

Run from the project root:

    python -m bench.poker_hint_match_bench --pairs 4000 --attacks 300

``POST /poker/api/hint/`` refuses a board that matches one of the caller's
unfinished competitive games (``games.poker.selectors.Position``): the same card
in hand and nearly the same numbers anywhere on the board. This measures, on
seeded decks and seeded random placements (the same numbers on every run):

1. **false refusals**: how often an unrelated practice board matches an open
   competitive board after the same number of moves (the chance per hint and
   per open competitive game of the caller);
2. **evasion**: how many numbers an attacker must change so the board no longer
   matches, and how often the coach then still advises the cell it would advise
   on the true board (how much help slips through).

No timing is measured. Results go to ``bench/RESULTS-poker-hint-match.md``.
"""

from __future__ import annotations

import argparse
import os
import random

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
django.setup()

from collections import Counter  # noqa: E402

from games.poker.rules import JOKER, seeded_deck  # noqa: E402
from games.poker.rules.coach import choose_cell  # noqa: E402
from games.poker.selectors import Position  # noqa: E402

TABLE = "contiguous"
MOVES = (0, 3, 6, 10, 15, 20)


def board_after(seed: int, moves: int) -> tuple[list[int | None], int, list[int]]:
    """A game after ``moves`` numbers placed at random cells: (cells, card in hand, seen)."""
    rng = random.Random(seed)
    deck = [card for card in seeded_deck(seed, TABLE) if card != JOKER]
    cells: list[int | None] = [None] * 25
    free = list(range(25))
    rng.shuffle(free)
    for index in range(moves):
        cells[free[index]] = deck[index]
    return cells, deck[moves], deck[:moves]


def position(cells: list[int | None], hand: int) -> Position:
    return Position(Counter(v for v in cells if v is not None), hand)


def false_refusals(pairs: int) -> list[tuple[int, float, float]]:
    rows = []
    for moves in MOVES:
        same_card = matched = 0
        for pair in range(pairs):
            game, game_hand, _seen = board_after(10_000 + pair, moves)
            practice, practice_hand, _ = board_after(90_000 + pair, moves)
            if practice_hand == game_hand:
                same_card += 1
            if position(game, game_hand).matches(practice, practice_hand):
                matched += 1
        rows.append((moves, same_card / pairs, matched / pairs))
    return rows


def evasion(attacks: int) -> list[tuple[int, int, float]]:
    rows = []
    for moves in MOVES[1:]:
        needed = []
        same_advice = 0
        for attack in range(attacks):
            cells, hand, seen = board_after(200_000 + attack, moves)
            truth = position(cells, hand)
            rng = random.Random(attack)
            forged = list(cells)
            filled = [index for index, value in enumerate(forged) if value is not None]
            rng.shuffle(filled)
            changed = 0
            while truth.matches(forged, hand) and changed < len(filled):
                index = filled[changed]
                forged[index] = (forged[index] - 1 + rng.randrange(1, 13)) % 13 + 1
                changed += 1
            needed.append(changed)
            advice = choose_cell(forged, hand, table=TABLE, seen=seen)
            if advice == choose_cell(cells, hand, table=TABLE, seen=seen):
                same_advice += 1
        rows.append((moves, round(sum(needed) / len(needed)), same_advice / attacks))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4000)
    parser.add_argument("--attacks", type=int, default=300)
    args = parser.parse_args()
    print(f"False refusals ({args.pairs} pairs per row, table {TABLE})\n")
    print("| numbers on both boards | same card in hand | refused (match) |")
    print("|---:|---:|---:|")
    for moves, card, matched in false_refusals(args.pairs):
        print(f"| {moves} | {card:.1%} | {matched:.2%} |")
    print(f"\nEvasion ({args.attacks} attacked positions per row)\n")
    print(
        "| numbers on the board | numbers changed to slip through (mean) | coach still advises the true cell |"
    )
    print("|---:|---:|---:|")
    for moves, needed, same in evasion(args.attacks):
        print(f"| {moves} | {needed} | {same:.0%} |")


if __name__ == "__main__":
    main()
