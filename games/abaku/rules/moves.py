"""Judging and scoring one move (spec sections 3 and 4).

The rules for a single line live in :func:`counted_stretches` and
:func:`contact_error`; :func:`evaluate_move` applies them to every line a move
touches, and the move generator (``movegen``) reuses the same two functions, so
legality and scoring are written down once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .board import Board, Cell, Placed, Placement, normalise
from .data import BOARD_SIZE, CENTRE
from .errors import IllegalMove
from .examples import SHORT, SHORT_EXAMPLES, Reading, read_example

ROW = (0, 1)
COLUMN = (1, 0)

Stretch = tuple[int, int, Reading]


class Example(NamedTuple):
    """One example a move creates: its squares in reading order, text and points."""

    cells: tuple[Cell, ...]
    text: str
    points: int
    reading: Reading


class MoveResult(NamedTuple):
    """A legal move: the stones placed, its score and the examples it created."""

    placements: tuple[Placed, ...]
    score: int
    examples: tuple[Example, ...]


def counted_stretches(digits: str, new: Sequence[bool]) -> list[Stretch]:
    """The stretches of one line segment that score, as ``(start, end, reading)``.

    ``digits`` is a maximal run of occupied squares, ``new[k]`` tells whether the
    stone at ``k`` was placed in this move. A stretch counts if it has at least
    one new stone and reads as an example (shown with its simplest reading),
    except a stretch lying inside a longer such stretch that is built from the
    same numbers (seed: "početní operaci složenou ze stejných čísel hra
    započítá pouze jednu", see :func:`same_numbers_inside`).
    """
    n = len(digits)
    news = [k for k in range(n) if new[k]]
    if not news:
        return []
    candidates: list[Stretch] = []
    for i in range(news[-1] + 1):
        if digits[i] == "0":
            continue
        # the stretch must reach the first new stone at or after i
        low = next(p for p in news if p >= i)
        for j in range(max(low, i + 1), n):
            run = digits[i : j + 1]
            # a short run is an example only if the table of short ones has it
            if j - i < SHORT and run not in SHORT_EXAMPLES:
                continue
            reading = read_example(run)
            if reading is not None:
                candidates.append((i, j, reading))
    if len(candidates) < 2:
        return candidates
    return [
        stretch
        for stretch in candidates
        if not any(same_numbers_inside(stretch, other) for other in candidates)
    ]


def same_numbers_inside(inner: Stretch, outer: Stretch) -> bool:
    """Whether ``inner`` lies strictly inside ``outer`` and is built from the same
    numbers (the same set of values): then only ``outer`` counts.

    ``2 2 4``: 2²=4 inside 2+2=4, both of 2 and 4; ``4 4 1 6``: 4²=16 inside
    4×4=16. But √4=2 inside 6-4=2 (seed turn 3) and 7²=49 inside 42+7=49 use
    different numbers and both count. Such an inner stretch always reads with
    two numbers (a power or a root) and the outer with three (+ − × :), so the
    one kept is always the simpler operation, as the seed asks.
    """
    i, j, reading = inner
    a, b, other = outer
    return a <= i and j <= b and (a, b) != (i, j) and set(reading.numbers) == set(other.numbers)


def contact_error(digits: str, new: Sequence[bool], counted: Sequence[Stretch]) -> str | None:
    """Why the contacts in one line segment are not allowed, or ``None``.

    Every new stone next to an old one must share a counted stretch with it,
    except a new 0 (spec 1, "Zero"). A 0 that is the only new stone of the line
    and sits between two old stones must share one with both of them.
    """
    n = len(digits)
    news = [k for k in range(n) if new[k]]

    def covered(lo: int, hi: int) -> bool:
        return any(i <= lo and hi <= j for i, j, _ in counted)

    for p in news:
        if digits[p] == "0":
            continue
        if p > 0 and not new[p - 1] and not covered(p - 1, p):
            return "contact_without_example"
        if p + 1 < n and not new[p + 1] and not covered(p, p + 1):
            return "contact_without_example"
    if len(news) == 1:
        p = news[0]
        if digits[p] == "0" and 0 < p < n - 1 and not covered(p - 1, p + 1):
            return "zero_between"
    return None


def stretch_points(
    lo: int, hi: int, values: Sequence[int], digit_mult: Sequence[int], example_mult: Sequence[int]
) -> int:
    """Points of one example: its stones' values (digit premiums applied) times the
    example premiums under its new stones. Old stones carry multipliers of 1."""
    total = 0
    factor = 1
    for k in range(lo, hi + 1):
        total += values[k] * digit_mult[k]
        factor *= example_mult[k]
    return total * factor


def _segment(after: Board, cell: Cell, step: tuple[int, int]) -> list[Cell]:
    """The maximal run of occupied squares through ``cell`` along ``step``."""
    dr, dc = step
    r, c = cell
    while 0 <= r - dr and 0 <= c - dc and after.stone(r - dr, c - dc) is not None:
        r, c = r - dr, c - dc
    run = []
    while r < BOARD_SIZE and c < BOARD_SIZE and after.stone(r, c) is not None:
        run.append((r, c))
        r, c = r + dr, c + dc
    return run


def _neighbours(cell: Cell) -> Iterable[Cell]:
    r, c = cell
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < BOARD_SIZE and 0 <= nc < BOARD_SIZE:
            yield nr, nc


def evaluate_move(board: Board, placements: Iterable[Placement]) -> MoveResult:
    """Judge and score placing ``placements`` on ``board``.

    Returns the score and the examples; raises :class:`IllegalMove` with one of
    the codes ``no_stones``, ``bad_placement``, ``off_board``, ``bad_digit``,
    ``duplicate_cell``, ``occupied``, ``not_in_line``, ``first_move_too_short``,
    ``off_centre``, ``gap``, ``not_connected``, ``no_example``,
    ``contact_without_example``, ``zero_between``, ``no_old_stone_in_example``.
    """
    placed = normalise(placements)
    if not placed:
        raise IllegalMove("no_stones", "a move places at least one stone")
    cells = [p.cell for p in placed]
    if len(set(cells)) != len(cells):
        raise IllegalMove("duplicate_cell", "two stones on one square")
    for r, c in cells:
        if board.stone(r, c) is not None:
            raise IllegalMove("occupied", f"({r}, {c}) already holds a stone")
    steps: tuple[tuple[int, int], ...]
    if len(placed) == 1:
        steps = (ROW, COLUMN)
    elif len({r for r, _ in cells}) == 1:
        steps = (ROW,)
    elif len({c for _, c in cells}) == 1:
        steps = (COLUMN,)
    else:
        raise IllegalMove("not_in_line", "all new stones go in one row or one column")
    first_move = board.is_empty
    if first_move:
        if len(placed) < 2:
            raise IllegalMove("first_move_too_short", "the first move places two or more stones")
        if CENTRE not in cells:
            raise IllegalMove("off_centre", "the first move covers the centre square")
    after = board.place(placed)
    if len(placed) > 1:
        dr, dc = steps[0]
        lo, hi = min(cells), max(cells)
        r, c = lo
        while (r, c) != hi:
            r, c = r + dr, c + dc
            if after.stone(r, c) is None:
                raise IllegalMove("gap", f"({r}, {c}) between the new stones is empty")
    if not first_move and not any(
        board.stone(*n) is not None for cell in cells for n in _neighbours(cell)
    ):
        raise IllegalMove("not_connected", "a move touches a stone already on the board")

    new_cells = set(cells)
    # Lines to read: the move's own line(s), then the line across each new stone.
    lines: list[tuple[Cell, tuple[int, int]]] = [(cells[0], step) for step in steps]
    if len(placed) > 1:
        across = COLUMN if steps[0] == ROW else ROW
        lines += [(cell, across) for cell in sorted(cells)]

    examples: list[Example] = []
    errors: list[str] = []
    covering = False
    for index, (anchor, step) in enumerate(lines):
        run = _segment(after, anchor, step)
        stones = [after.stone(*cell) for cell in run]
        digits = "".join(str(s.digit) for s in stones)  # type: ignore[union-attr]
        new = [cell in new_cells for cell in run]
        counted = counted_stretches(digits, new)
        error = contact_error(digits, new, counted)
        if error:
            errors.append(error)
        if len(placed) == 1 or index == 0:
            positions = [k for k, is_new in enumerate(new) if is_new]
            covering = covering or any(
                i <= positions[0] and positions[-1] <= j for i, j, _ in counted
            )
        values = [s.value for s in stones]  # type: ignore[union-attr]
        mults = [
            board.multipliers(*cell) if is_new else (1, 1)
            for cell, is_new in zip(run, new, strict=True)
        ]
        digit_mult = [m[0] for m in mults]
        example_mult = [m[1] for m in mults]
        for i, j, reading in counted:
            points = stretch_points(i, j, values, digit_mult, example_mult)
            examples.append(Example(tuple(run[i : j + 1]), reading.text, points, reading))
    if not covering:
        raise IllegalMove("no_example", "the new stones together must form one example")
    if errors:
        code = errors[0]
        raise IllegalMove(code, "every contact with an old stone must be part of a new example")
    if not first_move and not any(
        any(cell not in new_cells for cell in example.cells) for example in examples
    ):
        # Seed rule 4: "aby alespoň jeden z nových a jeden ze starých utvořil nový
        # příklad". The zero exemption waives the examples a new 0's contacts would
        # form, never this: touching the old stones only through a 0 is not enough.
        raise IllegalMove(
            "no_old_stone_in_example",
            "at least one new example must contain a stone already on the board",
        )
    return MoveResult(placed, sum(e.points for e in examples), tuple(examples))
