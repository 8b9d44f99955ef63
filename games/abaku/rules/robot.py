"""Robot opponents (spec section 6): beginner, greedy and strong.

All three choose among :func:`all_moves`, so they also make the first move.
``beginner`` plays a random legal move; ``greedy`` the highest-scoring one (the
true best, since the move list is complete); ``strong`` weighs the best moves
by what they leave on the rack and whether they open an example ×3 square to
the opponent.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .board import Board
from .data import BOARD_SIZE, JOKER, LAYOUTS
from .errors import IllegalMove
from .game import GameState
from .movegen import Move, all_moves

LEVELS = ("beginner", "greedy", "strong")

# How much keeping a stone is worth to the strong robot, in points. Jokers fit
# anywhere; 1 and 2 fit into many examples (1×n=n, n:1=n, 2²=4); 0 only lives
# inside numbers; big digits make long results. Tuned by robot-vs-robot games.
LEAVE_VALUE = {
    JOKER: 6.0,
    0: -2.0,
    1: 1.5,
    2: 1.5,
    3: 0.5,
    4: 0.5,
    5: 0,
    6: 0,
    7: -1.0,
    8: -0.5,
    9: -1.0,
}
DUPLICATE_PENALTY = 1.5
OPENED_TRIPLE_PENALTY = 6.0
STRONG_CANDIDATES = 40


def choose_move(board: Board, rack: Sequence[int], level: str, rng: random.Random) -> Move | None:
    """The move the robot of ``level`` plays, or ``None`` if it has none."""
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level!r}")
    moves = all_moves(board, rack)
    if not moves:
        return None
    if level == "beginner":
        return rng.choice(moves)
    if level == "greedy":
        best = max(m.score for m in moves)
        return rng.choice([m for m in moves if m.score == best])
    moves.sort(key=lambda m: -m.score)
    candidates = moves[:STRONG_CANDIDATES]
    open_before = _open_triples(board)
    values = [_strong_value(board, rack, m, open_before) for m in candidates]
    return candidates[values.index(max(values))]


def robot_action(state: GameState, level: str, rng: random.Random) -> dict[str, Any]:
    """The action the robot on turn sends to :func:`game.apply`.

    Without a move it exchanges its whole rack (as much as the bag allows); after
    two turns in a row without placing it skips instead, so a hopeless robot
    lets the game end (three empty turns) rather than exchanging forever.
    """
    if state.finished:
        raise IllegalMove("game_over", "the game has ended")
    seat = state.turn
    rack = state.players[seat].rack
    move = choose_move(state.board, rack, level, rng)
    if move is not None:
        return {"type": "place", "player": seat, "placements": [list(p) for p in move.placements]}
    idle = 0
    for event in reversed(state.history):
        if event.get("player") != seat or event["type"] not in ("placed", "exchanged", "skipped"):
            continue
        if event["type"] == "placed":
            break
        idle += 1
    if state.bag and idle < 2:
        give = _worst_stones(rack, min(len(rack), len(state.bag)))
        return {"type": "exchange", "player": seat, "stones": give}
    return {"type": "skip", "player": seat}


def _worst_stones(rack: Sequence[int], count: int) -> list[int]:
    return sorted(rack, key=lambda k: LEAVE_VALUE[k])[:count]


def _leave_value(leave: Sequence[int]) -> float:
    counts = Counter(leave)
    return sum(LEAVE_VALUE[k] for k in leave) - DUPLICATE_PENALTY * sum(
        n - 1 for n in counts.values() if n > 1
    )


def _strong_value(board: Board, rack: Sequence[int], move: Move, open_before: set) -> float:
    leave = list(rack)
    for p in move.placements:
        leave.remove(JOKER if p.joker else p.digit)
    opened = _open_triples(board.place(move.placements)) - open_before
    return move.score + _leave_value(leave) - OPENED_TRIPLE_PENALTY * len(opened)


def _open_triples(board: Board) -> set[tuple[int, int]]:
    """Free example ×3 squares a stone reaches in a straight empty line of at
    most three squares: the next player can easily build an example over them."""
    layout = LAYOUTS[board.layout]
    found = set()
    for r in range(BOARD_SIZE):
        for c in range(BOARD_SIZE):
            if layout[r][c] != "T" or board.stone(r, c) is not None:
                continue
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                for k in range(1, 4):
                    rr, cc = r + dr * k, c + dc * k
                    if not (0 <= rr < BOARD_SIZE and 0 <= cc < BOARD_SIZE):
                        break
                    if board.stone(rr, cc) is not None:
                        found.add((r, c))
                        break
    return found
