"""Scoring of lines and boards, and the score preview.

Every combination is defined once, literally after the spec (§2), as a
predicate on a line of five cells. Scoring a line by running all predicates is
too slow for the live preview (hundreds of lines per keystroke on the server),
so each table is *compiled* once at import into three small lookups that give
exactly the same answer:

* combinations that ignore order depend only on the multiset of filled values;
  a multiset is keyed by the product of one prime per value (unique
  factorisation makes the key exact), and all 8,568 multisets of at most five
  values from 1..13 are scored in advance;
* the "contiguous" combinations depend only on which neighbouring cells are
  equal, four bits, so 16 patterns are scored in advance;
* the sorted straight is the one test that needs the ordered values; it is
  checked directly and only when it could raise the score.

A line's score is the maximum of the three. The predicates stay the definition;
the lookups are a cache of them built from the same code, and the test suite
compares both on random lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from types import MappingProxyType

from .tables import DEFAULT_TABLE, TABLES, get_table

Line = Sequence[int | None]

BOARD_SIZE = 5
CELLS = BOARD_SIZE * BOARD_SIZE
MIN_VALUE = 1
MAX_VALUE = 13

#: The 12 scored lines in the canonical order: rows 0..4 left to right,
#: columns 0..4 top to bottom, the main diagonal, the anti-diagonal (both
#: read from the top row down).
LINES: tuple[tuple[int, ...], ...] = (
    *(tuple(5 * row + col for col in range(5)) for row in range(5)),
    *(tuple(5 * row + col for row in range(5)) for col in range(5)),
    (0, 6, 12, 18, 24),
    (4, 8, 12, 16, 20),
)
LINE_NAMES: tuple[str, ...] = (
    *(f"row{i}" for i in range(5)),
    *(f"col{i}" for i in range(5)),
    "main_diagonal",
    "anti_diagonal",
)
DIAGONALS = frozenset({10, 11})
#: For each cell, the indexes of the lines that pass through it (2 to 4 lines).
LINES_THROUGH_CELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if cell in line) for cell in range(CELLS)
)


# --- the combinations, as the spec defines them ------------------------------


def _filled(v: Line) -> list[int]:
    return [x for x in v if x is not None]


def _counts(v: Line) -> dict[int, int]:
    counts: dict[int, int] = {}
    for x in _filled(v):
        counts[x] = counts.get(x, 0) + 1
    return counts


def _is_full(v: Line) -> bool:
    return None not in v


def _longest_run(v: Line) -> int:
    """Longest stretch of equal neighbours; an empty cell breaks a run."""
    best = run = 0
    previous = None
    for x in v:
        if x is None:
            run = 0
        elif x == previous:
            run += 1
        else:
            run = 1
        previous = x
        best = max(best, run)
    return best


def _adjacent_pairs(v: Line) -> int:
    """Greedy scan from the left: an equal, filled neighbour pair counts once and
    is skipped, so ``3 3 3`` is one pair and ``3 3 3 3`` two."""
    pairs = 0
    i = 0
    while i < len(v) - 1:
        if v[i] is not None and v[i] == v[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


def _is_straight(v: Line) -> bool:
    """Five distinct values spanning exactly five; 1 is low only (no wrap)."""
    if not _is_full(v):
        return False
    values = _filled(v)
    return len(set(values)) == 5 and max(values) - min(values) == 4


def _is_sorted_straight(v: Line) -> bool:
    if not _is_straight(v):
        return False
    steps = {b - a for a, b in zip(v, v[1:], strict=False)}  # type: ignore[operator]
    return steps in ({1}, {-1})


def _is_full_house(v: Line) -> bool:
    return _is_full(v) and sorted(_counts(v).values()) == [2, 3]


def _is_full_house_contiguous(v: Line) -> bool:
    a, b, c, d, e = v
    return _is_full_house(v) and ((a == b == c and d == e) or (a == b and c == d == e))


def _max_count(v: Line) -> int:
    return max(_counts(v).values(), default=0)


#: How each combination can be evaluated; see the module docstring.
MULTISET, ADJACENCY, ORDER = "multiset", "adjacency", "order"

COMBINATIONS: MappingProxyType[str, tuple[str, Callable[[Line], bool]]] = MappingProxyType(
    {
        "five_of_a_kind": (MULTISET, lambda v: _max_count(v) == 5),
        "four_of_a_kind": (MULTISET, lambda v: _max_count(v) >= 4),
        "four_ones": (MULTISET, lambda v: _counts(v).get(1, 0) >= 4),
        "straight": (MULTISET, _is_straight),
        "full_house": (MULTISET, _is_full_house),
        "two_pairs": (MULTISET, lambda v: sum(n >= 2 for n in _counts(v).values()) >= 2),
        "three_of_a_kind": (MULTISET, lambda v: _max_count(v) >= 3),
        "pair": (MULTISET, lambda v: _max_count(v) >= 2),
        "three_ones_two_thirteens": (
            MULTISET,
            lambda v: _counts(v) == {1: 3, 13: 2},
        ),
        "one_and_ten_to_thirteen": (MULTISET, lambda v: sorted(_filled(v)) == [1, 10, 11, 12, 13]),
        "four_contiguous": (ADJACENCY, lambda v: _longest_run(v) >= 4),
        "full_house_contiguous": (ADJACENCY, _is_full_house_contiguous),
        "two_pairs_contiguous": (ADJACENCY, lambda v: _adjacent_pairs(v) >= 2),
        "three_contiguous": (ADJACENCY, lambda v: _longest_run(v) >= 3),
        "pair_contiguous": (ADJACENCY, lambda v: _longest_run(v) >= 2),
        "sorted_straight": (ORDER, _is_sorted_straight),
    }
)


def holding_combinations(values: Line) -> list[str]:
    """Names of all combinations the line holds (for the rules page and tests)."""
    line = _check_line(values)
    return [name for name, (_, test) in COMBINATIONS.items() if test(line)]


# --- compiled lookups --------------------------------------------------------

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
#: Multiset key factor of a cell; an empty cell contributes nothing.
_FACTOR: MappingProxyType[int | None, int] = MappingProxyType(
    {None: 1, **{value: _PRIMES[value - 1] for value in range(MIN_VALUE, MAX_VALUE + 1)}}
)


def _adjacency_bits(
    a: int | None, b: int | None, c: int | None, d: int | None, e: int | None
) -> int:
    return (
        (a is not None and a == b)
        | (b is not None and b == c) << 1
        | (c is not None and c == d) << 2
        | (d is not None and d == e) << 3
    )


def _line_for_bits(bits: int) -> tuple[int, ...]:
    """A full line whose equal-neighbour pattern is ``bits``."""
    line = [1]
    for i in range(4):
        line.append(line[-1] if bits >> i & 1 else line[-1] + 1)
    return tuple(line)


@dataclass(frozen=True, slots=True)
class _Compiled:
    by_multiset: MappingProxyType[int, int]
    by_adjacency: tuple[int, ...]
    sorted_straight: int
    diagonal_bonus: int


def _multiset_lines() -> dict[int, tuple[int, ...]]:
    """Every multiset of at most five values, keyed by its prime product."""
    lines = {}
    for size in range(BOARD_SIZE + 1):
        for values in combinations_with_replacement(range(MIN_VALUE, MAX_VALUE + 1), size):
            key = 1
            for value in values:
                key *= _FACTOR[value]
            lines[key] = values
    return lines


def _compile_all() -> dict[str, _Compiled]:
    multisets = _multiset_lines()
    holding = {
        key: {
            name
            for name, (kind, test) in COMBINATIONS.items()
            if kind == MULTISET and test(values + (None,) * (BOARD_SIZE - len(values)))
        }
        for key, values in multisets.items()
    }
    adjacency_lines = [_line_for_bits(bits) for bits in range(16)]
    compiled = {}
    for table in TABLES.values():
        points_by_kind: dict[str, dict[str, int]] = {MULTISET: {}, ADJACENCY: {}, ORDER: {}}
        for row in table.rows:
            kind, _ = COMBINATIONS[row.combination]
            points_by_kind[kind][row.combination] = row.points
        if set(points_by_kind[ORDER]) - {"sorted_straight"}:
            raise ValueError("only the sorted straight is compiled as an order combination")
        multiset_points = points_by_kind[MULTISET]
        adjacency_points = points_by_kind[ADJACENCY]
        compiled[table.name] = _Compiled(
            by_multiset=MappingProxyType(
                {
                    key: max((multiset_points.get(name, 0) for name in names), default=0)
                    for key, names in holding.items()
                }
            ),
            by_adjacency=tuple(
                max(
                    (
                        points
                        for name, points in adjacency_points.items()
                        if COMBINATIONS[name][1](line)
                    ),
                    default=0,
                )
                for line in adjacency_lines
            ),
            sorted_straight=points_by_kind[ORDER].get("sorted_straight", 0),
            diagonal_bonus=table.diagonal_bonus,
        )
    return compiled


_COMPILED: MappingProxyType[str, _Compiled] = MappingProxyType(_compile_all())


def _line_points(
    compiled: _Compiled,
    a: int | None,
    b: int | None,
    c: int | None,
    d: int | None,
    e: int | None,
) -> int:
    factor = _FACTOR
    points = compiled.by_multiset[factor[a] * factor[b] * factor[c] * factor[d] * factor[e]]
    adjacency = compiled.by_adjacency[_adjacency_bits(a, b, c, d, e)]
    if adjacency > points:
        points = adjacency
    sorted_straight = compiled.sorted_straight
    if (
        sorted_straight > points
        and None not in (a, b, c, d, e)
        and (
            (b - a == c - b == d - c == e - d == 1)  # type: ignore[operator]
            or (b - a == c - b == d - c == e - d == -1)  # type: ignore[operator]
        )
    ):
        points = sorted_straight
    return points


def _line_total(compiled: _Compiled, cells: Sequence[int | None], line_index: int) -> int:
    p, q, r, s, t = LINES[line_index]
    points = _line_points(compiled, cells[p], cells[q], cells[r], cells[s], cells[t])
    if points and line_index in DIAGONALS:
        points += compiled.diagonal_bonus
    return points


# --- validation --------------------------------------------------------------


def _check_value(value: object, where: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not MIN_VALUE <= value <= MAX_VALUE:
        raise ValueError(
            f"{where}: expected an int {MIN_VALUE}..{MAX_VALUE} or None, got {value!r}"
        )
    return value


def _check_cells(cells: Sequence[int | None], size: int, what: str) -> list[int | None]:
    if isinstance(cells, str | bytes) or not isinstance(cells, Sequence):
        raise ValueError(f"{what} must be a list of {size} cells, got {type(cells).__name__}")
    if len(cells) != size:
        raise ValueError(f"{what} must have exactly {size} cells, got {len(cells)}")
    return [_check_value(value, f"cell {i}") for i, value in enumerate(cells)]


def _check_line(values: Line) -> list[int | None]:
    return _check_cells(values, BOARD_SIZE, "a line")


def _compiled(table: str) -> _Compiled:
    get_table(table)
    return _COMPILED[table]


# --- public API --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardScore:
    """The score of a board: its total and the 12 line scores in canonical order
    (each including its diagonal bonus, so ``total == sum(lines)``)."""

    total: int
    lines: list[int]

    def to_dict(self) -> dict[str, object]:
        return {"total": self.total, "lines": list(self.lines)}


def score_line(values: Line, table: str = DEFAULT_TABLE, *, diagonal: bool = False) -> int:
    """Score one line of five cells (``None`` = empty).

    ``diagonal=True`` adds the table's diagonal bonus to a line that scores, as
    ``score_board`` does for the two diagonals.
    """
    compiled = _compiled(table)
    a, b, c, d, e = _check_line(values)
    points = _line_points(compiled, a, b, c, d, e)
    if points and diagonal:
        points += compiled.diagonal_bonus
    return points


def score_board(cells: Sequence[int | None], table: str = DEFAULT_TABLE) -> BoardScore:
    """Score a 5×5 board given row-major as 25 cells (int 1..13 or ``None``)."""
    compiled = _compiled(table)
    board = _check_cells(cells, CELLS, "a board")
    lines = [_line_total(compiled, board, i) for i in range(len(LINES))]
    return BoardScore(total=sum(lines), lines=lines)


def preview(cells: Sequence[int | None], value: int, table: str = DEFAULT_TABLE) -> dict[int, int]:
    """Points that placing ``value`` would add right now, per empty cell.

    Only cells where the gain is positive are listed; the gain is exactly
    ``score_board`` after minus before (only the lines through the cell change).
    """
    compiled = _compiled(table)
    board = _check_cells(cells, CELLS, "a board")
    if _check_value(value, "value") is None:
        raise ValueError("value: expected an int 1..13, got None")
    current = [_line_total(compiled, board, i) for i in range(len(LINES))]
    gains: dict[int, int] = {}
    for cell, occupant in enumerate(board):
        if occupant is not None:
            continue
        board[cell] = value
        gain = 0
        for line_index in LINES_THROUGH_CELL[cell]:
            gain += _line_total(compiled, board, line_index) - current[line_index]
        board[cell] = None
        if gain > 0:
            gains[cell] = gain
    return gains
