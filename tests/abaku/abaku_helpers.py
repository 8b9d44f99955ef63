"""Shared helpers for the Abaku tests: positions reached by random legal play."""

import random

from games.abaku.rules import JOKER, STONE_SET, Board, all_moves

ALL_STONES = [kind for kind, n in STONE_SET.items() for _ in range(n)]


def random_position(seed: int, moves: int, layout: str = "standard") -> Board:
    """A board after up to ``moves`` random legal moves from random 5-stone racks."""
    rng = random.Random(seed)
    board = Board.empty(layout)
    for _ in range(moves):
        for _attempt in range(5):
            rack = rng.sample([s for s in ALL_STONES if s != JOKER], 5)
            options = all_moves(board, rack)
            if options:
                board = board.place(rng.choice(options).placements)
                break
    return board


def key(placements) -> frozenset:  # noqa: ANN001
    """A move's identity: the set of its placements, order ignored."""
    return frozenset((p[0], p[1], p[2], bool(p[3]) if len(p) > 3 else False) for p in placements)
