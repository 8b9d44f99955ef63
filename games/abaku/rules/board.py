"""The Abaku board: an immutable 15x15 grid of stones over a premium layout.

A premium square works only in the turn it is first covered (spec section 4), and
stones never leave the board, so "premium used up" is simply "square covered":
the board needs no separate record of spent premiums.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from .data import BOARD_SIZE, LAYOUTS, PREMIUMS
from .errors import IllegalMove

Cell = tuple[int, int]
# (row, col, digit) or (row, col, digit, is_joker), as lists too when they come from JSON.
Placement = Sequence[Any]


class Stone(NamedTuple):
    """A stone on the board: the digit it shows and whether it is a joker."""

    digit: int
    joker: bool = False

    @property
    def value(self) -> int:
        """Points the stone is worth: its digit, a joker nothing."""
        return 0 if self.joker else self.digit


class Placed(NamedTuple):
    """One normalised placement: where, which digit, joker or not."""

    row: int
    col: int
    digit: int
    joker: bool = False

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)

    @property
    def stone(self) -> Stone:
        return Stone(self.digit, self.joker)


def normalise(placements: Iterable[Placement]) -> tuple[Placed, ...]:
    """Turn tuples or JSON lists into :class:`Placed`, checking their shape.

    Raises ``IllegalMove("bad_placement")`` for anything that is not
    ``(row, col, digit[, joker])`` with whole numbers, and ``off_board`` /
    ``bad_digit`` for values out of range.
    """
    result = []
    for item in placements:
        if not isinstance(item, (tuple, list)) or len(item) not in (3, 4):
            raise IllegalMove("bad_placement", f"not (row, col, digit[, joker]): {item!r}")
        row, col, digit = item[0], item[1], item[2]
        joker = bool(item[3]) if len(item) == 4 else False
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col, digit)):
            raise IllegalMove("bad_placement", f"not whole numbers: {item!r}")
        if not (0 <= row < BOARD_SIZE and 0 <= col < BOARD_SIZE):
            raise IllegalMove("off_board", f"({row}, {col}) is not on the board")
        if not 0 <= digit <= 9:
            raise IllegalMove("bad_digit", f"{digit} is not a digit")
        result.append(Placed(row, col, digit, joker))
    return tuple(result)


class Board:
    """An immutable board; :meth:`place` returns a new one."""

    __slots__ = ("layout", "_cells", "_count")

    def __init__(self, layout: str, cells: tuple[Stone | None, ...]) -> None:
        if layout not in LAYOUTS:
            raise IllegalMove("bad_layout", f"unknown layout {layout!r}")
        if len(cells) != BOARD_SIZE * BOARD_SIZE:
            raise ValueError("a board has exactly 225 cells")
        self.layout = layout
        self._cells = cells
        self._count = sum(1 for stone in cells if stone is not None)

    @classmethod
    def empty(cls, layout: str = "standard") -> Board:
        """A board with no stones; ``layout`` is ``"standard"`` or ``"plain"``."""
        return cls(layout, (None,) * (BOARD_SIZE * BOARD_SIZE))

    def place(self, placements: Iterable[Placement]) -> Board:
        """A new board with the stones added (their premium squares used up).

        Only checks that the squares exist and are free; whether the move is
        legal is :func:`evaluate_move`'s business.
        """
        placed = normalise(placements)
        cells = list(self._cells)
        for p in placed:
            index = p.row * BOARD_SIZE + p.col
            if cells[index] is not None:
                raise IllegalMove("occupied", f"({p.row}, {p.col}) already holds a stone")
            cells[index] = p.stone
        return Board(self.layout, tuple(cells))

    def stone(self, row: int, col: int) -> Stone | None:
        """The stone on a square, or ``None``."""
        return self._cells[row * BOARD_SIZE + col]

    def premium(self, row: int, col: int) -> str:
        """The premium letter still active on a square ("." once covered)."""
        if self._cells[row * BOARD_SIZE + col] is not None:
            return "."
        return LAYOUTS[self.layout][row][col]

    def multipliers(self, row: int, col: int) -> tuple[int, int]:
        """(digit multiplier, example multiplier) a stone placed here now gets."""
        return PREMIUMS[self.premium(row, col)]

    @property
    def is_empty(self) -> bool:
        return self._count == 0

    def __len__(self) -> int:
        """The number of stones on the board."""
        return self._count

    def stones(self) -> Iterator[tuple[int, int, Stone]]:
        """Every stone with its square, row by row."""
        for index, stone in enumerate(self._cells):
            if stone is not None:
                yield index // BOARD_SIZE, index % BOARD_SIZE, stone

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the layout and the stones as ``[row, col, digit, joker]``."""
        return {
            "layout": self.layout,
            "stones": [[r, c, s.digit, s.joker] for r, c, s in self.stones()],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Board:
        return cls.empty(data["layout"]).place(data["stones"])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.layout == other.layout and self._cells == other._cells

    def __hash__(self) -> int:
        return hash((self.layout, self._cells))

    def __str__(self) -> str:
        """Rows of digits, "." for empty squares and jokers shown as their digit."""
        return "\n".join(
            "".join(
                "." if (s := self._cells[r * BOARD_SIZE + c]) is None else str(s.digit)
                for c in range(BOARD_SIZE)
            )
            for r in range(BOARD_SIZE)
        )

    def __repr__(self) -> str:
        return f"<Board {self.layout} with {self._count} stones>"
