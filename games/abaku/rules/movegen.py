"""Every legal move of a position: complete, and fast enough for a web request.

The generator tries every set of empty squares a move could cover (one row or
column, no gaps, touching the old stones, or through the centre on the first
move) and every arrangement of the rack on them, but it never judges a line by
itself: each line is read by :func:`moves.counted_stretches` and
:func:`moves.contact_error`, the same functions :func:`moves.evaluate_move`
uses. What makes it fast is only *when* it asks:

* the line across each new stone holds exactly one new stone, so its verdict
  and points depend only on the square and the digit; they are worked out once
  per square for the ten digits ("cross tables") and prune the arrangements;
* along the move's own line, some stretch over all new stones must be an
  example; the arrangements that achieve it are looked up (stretches of new
  stones only), solved for (:mod:`solver`, stretches with old digits) or read
  one by one, whichever is cheaper, and only those are read in full;
* lines that look alike anywhere on the board are judged once per call;
* runs of up to six digits are looked up in the table of all short examples
  (:data:`examples.SHORT_EXAMPLES`), so reading them one by one is cheap even
  in a fresh process, and split plans whose numbers cannot meet are dropped
  by their bounds before the solver tries any digit.

Jokers are placed as every digit; a legal arrangement is then emitted once for
each way of taking its digits from the rack (real stones and jokers), scored
once with real stones and then lowered by each joker's digit times its weight.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

from .board import Board, Placed
from .data import BOARD_SIZE, CENTRE, JOKER
from .errors import IllegalMove
from .examples import SHORT, is_example
from .moves import COLUMN, ROW, Stretch, contact_error, counted_stretches, stretch_points
from .solver import solve, solve_cost

DIGITS = "0123456789"
# Solve a stretch rather than read every arrangement when the solver's estimated
# tries are below this many times (arrangements × stretch length). Tried 0.3 to
# 10 on mid-game positions: flat between 1 and 3.
SOLVE_BIAS = 1


class Move(NamedTuple):
    """A legal move: its placements (row, col, digit, joker) and its score."""

    placements: tuple[Placed, ...]
    score: int


# A legal arrangement of a move's own line: the digits of the new stones, the
# stretches that then count there, whether one of them holds an old stone.
_Arrangement = tuple[str, list[Stretch], bool]


class _Cross(NamedTuple):
    """What the line across a square gives for each digit placed there.

    ``allowed[d]`` whether the contacts are legal, ``examples[d]`` how many examples
    the digit creates there, ``old_sum[d]`` the old stones' value in them; with
    the square's multipliers that is the points for any stone value.
    """

    allowed: tuple[bool, ...]
    examples: tuple[int, ...]
    old_sum: tuple[int, ...]
    digit_mult: int
    example_mult: int

    def points(self, digit: int, value: int) -> int:
        count = self.examples[digit]
        if not count:
            return 0
        return (self.old_sum[digit] + count * value * self.digit_mult) * self.example_mult


def _check_rack(rack: Sequence[int]) -> Counter[int]:
    counts = Counter(rack)
    for kind in counts:
        if not (isinstance(kind, int) and (0 <= kind <= 9 or kind == JOKER)):
            raise IllegalMove("bad_rack", f"{kind!r} is not a stone")
    return counts


class _Position:
    """The board prepared for fast look-ups: digits, values and cross tables."""

    def __init__(self, board: Board) -> None:
        self.board = board
        size = BOARD_SIZE
        self.digit = [
            [None if (s := board.stone(r, c)) is None else str(s.digit) for c in range(size)]
            for r in range(size)
        ]
        self.value = [
            [0 if (s := board.stone(r, c)) is None else s.value for c in range(size)]
            for r in range(size)
        ]
        self._cross: dict[tuple[int, int, tuple[int, int]], _Cross | None] = {}
        self._line_memo: dict[tuple[str, str], list[tuple[bool, list[tuple[int, int]]]]] = {}

    def occupied(self, r: int, c: int) -> bool:
        return 0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE and self.digit[r][c] is not None

    def touches(self, r: int, c: int) -> bool:
        return (
            self.occupied(r - 1, c)
            or self.occupied(r + 1, c)
            or self.occupied(r, c - 1)
            or self.occupied(r, c + 1)
        )

    def run(self, r: int, c: int, step: tuple[int, int], sign: int) -> list[tuple[int, int]]:
        """Occupied squares next to (r, c) going one way, nearest first."""
        dr, dc = step[0] * sign, step[1] * sign
        cells = []
        r, c = r + dr, c + dc
        while self.occupied(r, c):
            cells.append((r, c))
            r, c = r + dr, c + dc
        return cells

    def cross(self, r: int, c: int, step: tuple[int, int]) -> _Cross | None:
        """The cross table of empty square (r, c) for the line along ``step``;
        ``None`` when that line holds no old stone next to the square."""
        key = (r, c, step)
        if key in self._cross:
            return self._cross[key]
        before = self.run(r, c, step, -1)[::-1]
        after = self.run(r, c, step, 1)
        table = None
        if before or after:
            prefix = "".join(self.digit[a][b] for a, b in before)  # type: ignore[misc]
            suffix = "".join(self.digit[a][b] for a, b in after)  # type: ignore[misc]
            verdicts = self._line_memo.get((prefix, suffix))
            if verdicts is None:
                new = [False] * len(prefix) + [True] + [False] * len(suffix)
                verdicts = []
                for d in DIGITS:
                    digits = prefix + d + suffix
                    counted = counted_stretches(digits, new)
                    ok = contact_error(digits, new, counted) is None
                    verdicts.append((ok, [(i, j) for i, j, _ in counted]))
                self._line_memo[(prefix, suffix)] = verdicts
            values = (
                [self.value[a][b] for a, b in before] + [0] + [self.value[a][b] for a, b in after]
            )
            old_sums = tuple(sum(sum(values[i : j + 1]) for i, j in spans) for _, spans in verdicts)
            dm, em = self.board.multipliers(r, c)
            table = _Cross(
                tuple(ok for ok, _ in verdicts),
                tuple(len(spans) for _, spans in verdicts),
                old_sums,
                dm,
                em,
            )
        self._cross[key] = table
        return table


def _arrangements(counts: Counter[int], allowed: Sequence[frozenset[str] | None]) -> list[str]:
    """Distinct digit strings the rack can show on squares allowing ``allowed``.

    A joker stands for any digit. A real stone is used whenever the rack has one
    (a joker could only replace it), so each string is produced exactly once.
    """
    reals = {str(d): n for d, n in counts.items() if d != JOKER and n}
    jokers = counts.get(JOKER, 0)
    size = len(allowed)
    found: list[str] = []
    shown: list[str] = []

    def extend(k: int, jokers: int) -> None:
        if k == size:
            found.append("".join(shown))
            return
        options = allowed[k]
        for d in DIGITS if jokers else reals:
            if options is not None and d not in options:
                continue
            if reals.get(d, 0):
                reals[d] -= 1
                shown.append(d)
                extend(k + 1, jokers)
                shown.pop()
                reals[d] += 1
            elif jokers:
                shown.append(d)
                extend(k + 1, jokers - 1)
                shown.pop()

    extend(0, jokers)
    return found


def _joker_choices(shown: str, counts: Counter[int]) -> list[tuple[bool, ...]]:
    """Every way to take the digits ``shown`` from the rack: which are jokers."""
    jokers = counts.get(JOKER, 0)
    if not jokers:
        return [(False,) * len(shown)]
    options = []
    for used in range(min(jokers, len(shown)) + 1):
        for chosen in combinations(range(len(shown)), used):
            left = Counter(int(ch) for k, ch in enumerate(shown) if k not in chosen)
            if all(counts.get(d, 0) >= n for d, n in left.items()):
                options.append(tuple(k in chosen for k in range(len(shown))))
    return options


class _Search:
    """What one :func:`all_moves` call learns and reuses: the rack, and verdicts
    on arrangements and lines that recur all over the board."""

    def __init__(self, counts: Counter[int]) -> None:
        self.counts = counts
        self.reals = {str(d): n for d, n in counts.items() if d != JOKER and n}
        self.jokers = counts.get(JOKER, 0)
        self.stones = sum(self.reals.values())
        self._arrangements: dict[tuple[frozenset[str] | None, ...], list[str]] = {}
        self._examples: dict[int, set[str]] = {}
        self._solved: dict[tuple, set[str]] = {}
        self._jokers: dict[str, list[tuple[bool, ...]]] = {}
        # Lines that look alike (same old digits around the same free squares,
        # the same cross restrictions) have the same legal arrangements.
        self.legal: dict[tuple[str, tuple[frozenset[str] | None, ...]], list[_Arrangement]] = {}

    def arrangements(self, allowed: tuple[frozenset[str] | None, ...]) -> list[str]:
        found = self._arrangements.get(allowed)
        if found is None:
            found = self._arrangements[allowed] = _arrangements(self.counts, allowed)
        return found

    def examples(self, size: int) -> set[str]:
        """Arrangements of ``size`` stones that are an example on their own."""
        found = self._examples.get(size)
        if found is None:
            everything = self.arrangements((None,) * size)
            found = self._examples[size] = {x for x in everything if is_example(x)}
        return found

    def solve(
        self, pattern: list[str | None], allowed: tuple[frozenset[str] | None, ...]
    ) -> set[str]:
        key = (tuple(pattern), allowed)
        found = self._solved.get(key)
        if found is None:
            found = self._solved[key] = solve(pattern, allowed, self.reals, self.jokers)
        return found

    def joker_choices(self, shown: str) -> list[tuple[bool, ...]]:
        found = self._jokers.get(shown)
        if found is None:
            found = self._jokers[shown] = _joker_choices(shown, self.counts)
        return found

    def covering(
        self, chars: list[str | None], allowed: tuple[frozenset[str] | None, ...]
    ) -> list[str]:
        """Arrangements for the free squares (``None``) of a line segment such that
        some stretch over all of them reads as an example.

        Each candidate stretch is handled the cheapest way: a stretch of new
        stones only is looked up among the rack's own examples; one with old
        digits is solved (:mod:`solver`) when its estimated tries are fewer
        than arrangements × stretch length (reading costs grow with the
        length), and read one by one otherwise.
        """
        arrangements = self.arrangements(allowed)
        slots = [p for p, ch in enumerate(chars) if ch is None]
        first, last = slots[0], slots[-1]
        found: set[str] = set()
        scan = []
        for i in range(first + 1):
            for j in range(max(last, i + 1), len(chars)):
                pattern = chars[i : j + 1]
                if i == first and j == last and len(pattern) == len(slots):
                    found.update(self.examples(len(slots)).intersection(arrangements))
                elif len(pattern) > SHORT and solve_cost(
                    pattern, self.stones, self.jokers
                ) < SOLVE_BIAS * len(arrangements) * (1 + j - i):
                    found |= self.solve(pattern, allowed)
                else:
                    scan.append((i, j + 1))
        if scan:
            template = "".join("{}" if ch is None else ch for ch in chars)
            fmt = template.format
            for shown in arrangements:
                if shown in found:
                    continue
                digits = fmt(*shown)
                for i, j in scan:
                    if digits[i] != "0" and is_example(digits[i:j]):
                        found.add(shown)
                        break
        return [x for x in arrangements if x in found]


def all_moves(board: Board, rack: Sequence[int]) -> list[Move]:
    """Every legal move placing stones from ``rack`` on ``board``, with its score.

    ``rack`` lists stone kinds: digits 0-9 and ``JOKER``. A joker appears once
    for every digit it may show. Each move is exactly what :func:`evaluate_move`
    accepts, with the same score; moves are in a fixed order for a given input.
    """
    counts = _check_rack(rack)
    moves: list[Move] = []
    if not counts:
        return moves
    pos = _Position(board)
    if not board.is_empty:
        _single_stone_moves(pos, counts, moves)
    max_stones = sum(counts.values())
    search = _Search(counts)
    for step in (ROW, COLUMN):
        for line in range(BOARD_SIZE):
            if board.is_empty and line != (CENTRE[0] if step == ROW else CENTRE[1]):
                continue
            for slots in _slot_sets(pos, step, line, max_stones):
                _moves_on(pos, search, step, [_square(step, line, k) for k in slots], moves)
    return moves


def _square(step: tuple[int, int], line: int, k: int) -> tuple[int, int]:
    return (line, k) if step == ROW else (k, line)


def _slot_sets(
    pos: _Position, step: tuple[int, int], line: int, max_stones: int
) -> list[list[int]]:
    """Sets of two or more empty squares of one line a move could cover: each is
    the first few empty squares from some empty square on, so there is no gap."""
    sets = []
    for start in range(BOARD_SIZE):
        r, c = _square(step, line, start)
        if pos.digit[r][c] is not None:
            continue
        slots: list[int] = []
        for k in range(start, BOARD_SIZE):
            r, c = _square(step, line, k)
            if pos.digit[r][c] is None:
                slots.append(k)
                if len(slots) >= 2:
                    sets.append(list(slots))
                if len(slots) == max_stones:
                    break
    return sets


def _single_stone_moves(
    pos: _Position,
    counts: Counter[int],
    moves: list[Move],
    lines: tuple[set[int], set[int]] | None = None,
) -> None:
    """One-stone moves, on every square or only on the given (rows, columns)."""
    jokers = counts.get(JOKER, 0)
    for r in range(BOARD_SIZE):
        for c in range(BOARD_SIZE):
            if lines is not None and r not in lines[0] and c not in lines[1]:
                continue
            if pos.digit[r][c] is not None or not pos.touches(r, c):
                continue
            tables = [t for t in (pos.cross(r, c, ROW), pos.cross(r, c, COLUMN)) if t]
            for d in range(10):
                if not all(t.allowed[d] for t in tables):
                    continue
                if not any(t.examples[d] for t in tables):
                    continue
                if counts.get(d, 0):
                    score = sum(t.points(d, d) for t in tables)
                    moves.append(Move((Placed(r, c, d, False),), score))
                if jokers:
                    score = sum(t.points(d, 0) for t in tables)
                    moves.append(Move((Placed(r, c, d, True),), score))


def _moves_on(
    pos: _Position,
    search: _Search,
    step: tuple[int, int],
    cells: list[tuple[int, int]],
    moves: list[Move],
) -> None:
    """All moves covering exactly the empty squares ``cells`` of one line."""
    board = pos.board
    if board.is_empty:
        if CENTRE not in cells:
            return
    elif not any(pos.touches(r, c) for r, c in cells):
        return
    across = COLUMN if step == ROW else ROW
    crosses = [pos.cross(r, c, across) for r, c in cells]
    allowed = tuple(
        None if t is None else frozenset(DIGITS[d] for d in range(10) if t.allowed[d])
        for t in crosses
    )
    if any(a is not None and not a for a in allowed):
        return
    left = pos.run(*cells[0], step, -1)[::-1]
    right = pos.run(*cells[-1], step, 1)
    (r0, c0), (r1, c1) = cells[0], cells[-1]
    span = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
    seg = left + span + right
    slot_set = set(cells)
    new = [cell in slot_set for cell in seg]
    seg_chars = [
        None if is_new else pos.digit[a][b] for (a, b), is_new in zip(seg, new, strict=True)
    ]
    key = ("".join("{}" if ch is None else ch for ch in seg_chars), allowed)
    legal = search.legal.get(key)
    if legal is None:
        legal = search.legal[key] = _legal_arrangements(search, seg_chars, new, allowed)
    if not legal:
        return
    slot_index = [i for i, is_new in enumerate(new) if is_new]
    seg_values = [pos.value[a][b] for a, b in seg]
    mults = [
        board.multipliers(a, b) if is_new else (1, 1)
        for (a, b), is_new in zip(seg, new, strict=True)
    ]
    digit_mult = [m[0] for m in mults]
    example_mult = [m[1] for m in mults]
    first_move = board.is_empty
    for shown, counted, joins_old in legal:
        digits = [int(ch) for ch in shown]
        # Seed rule 4: some new example holds an old stone. An example across a
        # new stone always does (it has one new stone); along the line, only
        # if ``joins_old``.
        if not (
            first_move
            or joins_old
            or any(t is not None and t.examples[d] for t, d in zip(crosses, digits, strict=True))
        ):
            continue
        # Score with every stone real; a joker then loses its digit's value
        # times that square's weight (every example through it, with premiums).
        values = list(seg_values)
        for k, d in enumerate(digits):
            values[slot_index[k]] = d
        weight = [0] * len(cells)
        score = 0
        for i, j, _ in counted:
            score += stretch_points(i, j, values, digit_mult, example_mult)
            factor = 1
            for k in range(i, j + 1):
                factor *= example_mult[k]
            for k, index in enumerate(slot_index):
                if i <= index <= j:
                    weight[k] += digit_mult[index] * factor
        for k, cross in enumerate(crosses):
            if cross is not None:
                score += cross.points(digits[k], digits[k])
                weight[k] += cross.examples[digits[k]] * cross.digit_mult * cross.example_mult
        for jokers in search.joker_choices(shown):
            placed = tuple(
                Placed(cell[0], cell[1], d, joker)
                for cell, d, joker in zip(cells, digits, jokers, strict=True)
            )
            lost = sum(d * w for d, w, joker in zip(digits, weight, jokers, strict=True) if joker)
            moves.append(Move(placed, score - lost))


def _legal_arrangements(
    search: _Search,
    chars: list[str | None],
    new: list[bool],
    allowed: tuple[frozenset[str] | None, ...],
) -> list[_Arrangement]:
    """The digit strings for the new stones that make the move's own line legal,
    with the stretches that then count there and whether one of them holds an
    old stone."""
    template = "".join("{}" if ch is None else ch for ch in chars)
    legal: list[_Arrangement] = []
    for shown in search.covering(chars, allowed):
        digits = template.format(*shown)
        counted = counted_stretches(digits, new)
        if not contact_error(digits, new, counted):
            joins_old = any(not all(new[i : j + 1]) for i, j, _ in counted)
            legal.append((shown, counted, joins_old))
    return legal
