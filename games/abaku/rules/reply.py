"""The strong robot's look at the opponent's answer, made cheap.

After a candidate move most of the board is unchanged: the opponent's moves far
from the new stones are the ones they had before. :func:`near_moves` generates
only the moves on the lines around the new stones (the rows and columns of the
move's bounding box grown by one square), with the move generator's own parts,
so each move listed is legal with its true score; the robot combines their best
with the best "far" move of the old board that the candidate does not touch.
Moves far away whose cross line runs into the new stones are not seen (rare).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .board import Board
from .data import BOARD_SIZE
from .movegen import Move, _check_rack, _generate, _Position, _Search

Cell = tuple[int, int]


def near_lines(cells: Iterable[Cell]) -> tuple[set[int], set[int]]:
    """Rows and columns within one square of the bounding box of ``cells``."""
    cells = list(cells)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    near_rows = {r for r in range(min(rows) - 1, max(rows) + 2) if 0 <= r < BOARD_SIZE}
    near_cols = {c for c in range(min(cols) - 1, max(cols) + 2) if 0 <= c < BOARD_SIZE}
    return near_rows, near_cols


class ReplySearch:
    """One rack's move search, reused over many boards.

    What the move generator learns about a rack (its arrangements, which of them
    make examples, the verdicts on line patterns) depends only on the rack and
    the pattern of a line, never on the rest of the board, so one search serves
    the old board and every candidate's new board: lines the candidate did not
    change are answered from the cache.
    """

    def __init__(self, rack: Sequence[int]) -> None:
        self.counts = _check_rack(rack)
        self.search = _Search(self.counts)

    def all_moves(self, board: Board) -> list[Move]:
        """:func:`movegen.all_moves` of the rack on ``board`` (same moves, same order)."""
        return self._moves(board, None)

    def near_moves(self, board: Board, cells: Iterable[Cell]) -> list[Move]:
        """The legal moves on the lines near ``cells`` (a subset of ``all_moves``)."""
        if board.is_empty:
            return []
        return self._moves(board, near_lines(cells))

    def _moves(self, board: Board, lines: tuple[set[int], set[int]] | None) -> list[Move]:
        if not self.counts:
            return []
        return _generate(_Position(board), self.counts, self.search, lines)


def near_moves(board: Board, rack: Sequence[int], cells: Iterable[Cell]) -> list[Move]:
    """The legal moves of ``rack`` on ``board`` lying on the lines near ``cells``
    (a subset of :func:`movegen.all_moves`, same scores)."""
    return ReplySearch(rack).near_moves(board, cells)
