"""THE OLD MOVE GENERATOR, FROZEN AS A TEST ORACLE -- tests only, never imported by the product.

This is Abaku's move generator as it was before the speed work of issues 26
and 31 (``games/abaku/rules/movegen.py``, ``solver.py`` and ``ReplySearch`` of
``reply.py`` at commit a611db1a05b9), copied unchanged into one module (only the
imports are merged). ``tests/abaku/test_movegen_equivalence.py`` compares the
fast generator with it move by move: same moves, same order, same scores.
Do not "fix" or speed up this file; it is the definition of the right answer.
It still reads lines with the product's ``moves.counted_stretches`` /
``contact_error`` and ``examples.is_example`` (the rules themselves, which the
speed work does not change).
"""

# ruff: noqa

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations, product
from math import comb, isqrt, perm
from typing import NamedTuple

from games.abaku.rules.board import Board, Placed
from games.abaku.rules.data import BOARD_SIZE, CENTRE, JOKER
from games.abaku.rules.errors import IllegalMove
from games.abaku.rules.examples import SHORT, feasible_splits, is_example
from games.abaku.rules.moves import (
    COLUMN,
    ROW,
    Stretch,
    contact_error,
    counted_stretches,
    stretch_points,
)

Cell = tuple[int, int]

# ---- solver.py ----------------------------------------------------------


def _exact_root(value: int, power: int) -> int | None:
    if value < 0:
        return None
    root = isqrt(value) if power == 2 else round(value ** (1 / 3))
    for guess in (root - 1, root, root + 1):
        if guess >= 0 and guess**power == value:
            return guess
    return None


def _exact_quotient(top: int, bottom: int) -> int | None:
    if bottom <= 0 or top % bottom:
        return None
    return top // bottom


def _compute(op: str, k: int, n: Sequence[int]) -> int | None:
    """Number ``k`` of an example of ``op`` (a, b, c; or a, b for the two-number
    operations) from the other numbers in ``n`` (its own place is ignored)."""
    if op == "add":  # a + b = c
        return (n[2] - n[1], n[2] - n[0], n[0] + n[1])[k]
    if op == "sub":  # a - b = c
        return (n[1] + n[2], n[0] - n[2], n[0] - n[1])[k]
    if op == "mul":  # a × b = c
        if k == 2:
            return n[0] * n[1]
        return _exact_quotient(n[2], n[1 - k])
    if op == "div":  # a : b = c, that is a = b × c
        if k == 0:
            return n[1] * n[2]
        return _exact_quotient(n[0], n[3 - k])
    power = 2 if op in ("square", "sqrt") else 3
    if op in ("square", "cube"):  # a^power = b
        return n[0] ** power if k == 1 else _exact_root(n[1], power)
    return n[1] ** power if k == 0 else _exact_root(n[0], power)  # root of a = b


class _Plan(NamedTuple):
    """One split of a run into numbers, and how to search it."""

    ops: tuple[str, ...]
    regions: tuple[tuple[int, int], ...]
    target: int  # the region whose number is computed
    others: tuple[int, ...]  # the regions whose free squares are tried
    starts: frozenset[int]  # first squares of those: never 0
    ends: tuple[int, ...]  # last squares of those: their last digits
    order: tuple[int, ...]  # free squares to try, free last squares first
    first: int  # how many of ``order`` are last squares


# A plan costs a little to set up even when it tries nothing; in fillings.
PLAN_OVERHEAD = 4


def _plans(pattern: Sequence[str | None]) -> tuple[tuple[_Plan, ...], tuple[int, ...]]:
    """The plans for a run and its free squares. They depend only on where the
    free squares and the zeros are, so they are cached by that shape."""
    return _plans_for_shape(_shape(pattern))


def _shape(pattern: Sequence[str | None]) -> tuple[str, ...]:
    return tuple("_" if ch is None else "0" if ch == "0" else "x" for ch in pattern)


@lru_cache(maxsize=4096)
def _plans_for_shape(shape: tuple[str, ...]) -> tuple[tuple[_Plan, ...], tuple[int, ...]]:
    n = len(shape)
    plans = []
    for la, options in enumerate(feasible_splits(n)):
        for j, ops in options:
            regions = ((0, la), (la, n)) if j == 0 else ((0, la), (la, j), (j, n))
            if any(shape[start] == "0" for start, _ in regions):
                continue
            free = [shape[a:b].count("_") for a, b in regions]
            target = max(range(len(regions)), key=lambda k: (free[k], k))
            others = tuple(k for k in range(len(regions)) if k != target)
            ends = tuple(regions[k][1] - 1 for k in others)
            first = [p for p in ends if shape[p] == "_"]
            rest = [
                p for k in others for p in range(*regions[k]) if shape[p] == "_" and p not in ends
            ]
            plans.append(
                _Plan(
                    ops,
                    regions,
                    target,
                    others,
                    frozenset(regions[k][0] for k in others),
                    ends,
                    tuple(first + rest),
                    len(first),
                )
            )
    return tuple(plans), tuple(p for p in range(n) if shape[p] == "_")


def fillings(size: int, reals: int, jokers: int) -> int:
    """At most how many ways ``size`` free squares can be filled from a rack of
    ``reals`` digit stones and ``jokers`` jokers (a joker shows any of ten)."""
    return sum(
        comb(size, used) * 10**used * perm(reals, size - used)
        for used in range(min(jokers, size) + 1)
    )


def solve_cost(pattern: Sequence[str | None], reals: int, jokers: int) -> int:
    """Roughly how many partial arrangements :func:`solve` will try."""
    return _cost_for_shape(_shape(pattern), reals, jokers)


@lru_cache(maxsize=8192)
def _cost_for_shape(shape: tuple[str, ...], reals: int, jokers: int) -> int:
    plans, _ = _plans_for_shape(shape)
    return sum(fillings(len(plan.order), reals, jokers) + PLAN_OVERHEAD for plan in plans)


def solve(
    pattern: Sequence[str | None],
    allowed: Sequence[frozenset[str] | None],
    reals: dict[str, int],
    jokers: int,
) -> set[str]:
    """Digit strings for the free squares (``None``) of ``pattern`` that make it
    read as an example, using the rack's digits (``reals``) and jokers, each free
    square limited to ``allowed[k]`` (``None``: any digit)."""
    found: set[str] = set()
    plans, slots = _plans(pattern)
    rank = {p: k for k, p in enumerate(slots)}
    low, high = _digit_bounds(pattern, allowed, reals, jokers, rank)
    for plan in plans:
        ops = _ops_in_range(plan, low, high)
        if ops:
            _solve_split(
                pattern, allowed, dict(reals), jokers, plan._replace(ops=ops), slots, rank, found
            )
    return found


def _digit_bounds(
    pattern: Sequence[str | None],
    allowed: Sequence[frozenset[str] | None],
    reals: dict[str, int],
    jokers: int,
    rank: dict[int, int],
) -> tuple[list[int], list[int]]:
    """The smallest and largest digit each square of ``pattern`` can show."""
    rack = "0123456789" if jokers else "".join(sorted(d for d, n in reals.items() if n))
    low, high = [], []
    for p, ch in enumerate(pattern):
        if ch is not None:
            low.append(int(ch))
            high.append(int(ch))
            continue
        options = allowed[rank[p]]
        usable = [d for d in rack if options is None or d in options] or ["0"]
        low.append(int(usable[0]))
        high.append(int(usable[-1]))
    return low, high


def _number_range(low: list[int], high: list[int], a: int, b: int) -> tuple[int, int]:
    """Bounds of the number on squares a..b-1 (its first digit is never 0)."""
    lo = hi = 0
    for p in range(a, b):
        lo = lo * 10 + (max(low[p], 1) if p == a else low[p])
        hi = hi * 10 + high[p]
    return lo, hi


def _ops_in_range(plan: _Plan, low: list[int], high: list[int]) -> tuple[str, ...]:
    """The plan's operations that the numbers' bounds allow at all: the leading
    digits of old stones often rule a whole split out before any search."""
    (alo, ahi), (blo, bhi), *rest = (_number_range(low, high, a, b) for a, b in plan.regions)
    clo, chi = rest[0] if rest else (0, 0)
    kept = []
    for op in plan.ops:
        if op == "add":
            ok = alo + blo <= chi and clo <= ahi + bhi
        elif op == "sub":
            ok = blo + clo <= ahi and alo <= bhi + chi
        elif op == "mul":
            ok = alo * blo <= chi and clo <= ahi * bhi
        elif op == "div":
            ok = blo * clo <= ahi and alo <= bhi * chi
        elif op in ("square", "cube"):
            power = 2 if op == "square" else 3
            ok = alo**power <= bhi and blo <= ahi**power
        else:
            power = 2 if op == "sqrt" else 3
            ok = blo**power <= ahi and alo <= bhi**power
        if ok:
            kept.append(op)
    return tuple(kept)


def _units_ok(op: str, x: int, y: int, z: int) -> bool:
    """Whether the last digits x, y, z of a, b, c (z unused by the two-number
    operations, whose y is b's) can belong to an example of ``op``."""
    if op == "add":
        return (x + y - z) % 10 == 0
    if op == "sub":
        return (y + z - x) % 10 == 0
    if op == "mul":
        return (x * y - z) % 10 == 0
    if op == "div":
        return (y * z - x) % 10 == 0
    if op == "square":
        return (x * x - y) % 10 == 0
    if op == "cube":
        return (x**3 - y) % 10 == 0
    if op == "sqrt":
        return (y * y - x) % 10 == 0
    return (y**3 - x) % 10 == 0


# _UNITS[op][target][(last digits of the other numbers)] -> the target's possible
# last digits: a number's last digit follows from the others' (mod 10), which
# prunes a search long before whole numbers are known.
_UNITS: dict[str, dict[int, dict[tuple[int, ...], frozenset[str]]]] = {
    op: {
        target: {
            known: frozenset(
                str(d)
                for d in range(10)
                if _units_ok(op, *(known[:target] + (d,) + known[target:] + (0,))[:3])
            )
            for known in product(range(10), repeat=size - 1)
        }
        for target in range(size)
    }
    for op, size in (
        ("add", 3),
        ("sub", 3),
        ("mul", 3),
        ("div", 3),
        ("square", 2),
        ("cube", 2),
        ("sqrt", 2),
        ("cbrt", 2),
    )
}


def _solve_split(
    pattern: Sequence[str | None],
    allowed: Sequence[frozenset[str] | None],
    reals: dict[str, int],
    jokers: int,
    plan: _Plan,
    slots: tuple[int, ...],
    rank: dict[int, int],
    found: set[str],
) -> None:
    """Try every filling of the free squares outside the plan's target region
    and compute that region's number from the others.

    The last squares of the other numbers are filled first: once they are
    known, the target's last digit is too (mod 10), and operations whose last
    digit cannot be placed there are dropped before going deeper."""
    ops, regions, target, others, starts, ends, free, first = plan[:8]
    digits = list(pattern)
    other_regions = [regions[k] for k in others]
    t0, t1 = regions[target]
    width = t1 - t0
    # the target region square by square: the fixed digit, or the allowed digits
    shape = [
        (pattern[p], None if pattern[p] is not None else allowed[rank[p]]) for p in range(t0, t1)
    ]
    fixed_last, last_options = shape[-1]
    numbers = [0] * len(regions)
    alive = list(ops)

    def finish(jokers_left: int) -> None:
        for k, (a, b) in zip(others, other_regions, strict=True):
            numbers[k] = int("".join(digits[a:b]))  # type: ignore[arg-type]
        for op in alive:
            value = _compute(op, target, numbers)
            if value is None or value < 1:
                continue
            text = str(value)
            if len(text) != width:
                continue
            need: dict[str, int] = {}
            for ch, (fixed, options) in zip(text, shape, strict=True):
                if fixed is None:
                    if options is not None and ch not in options:
                        break
                    need[ch] = need.get(ch, 0) + 1
                elif fixed != ch:
                    break
            else:
                short = 0
                for ch, n in need.items():
                    if n > reals.get(ch, 0):
                        short += n - reals.get(ch, 0)
                if short <= jokers_left:
                    full = list(digits)
                    full[t0:t1] = text
                    found.add("".join(full[p] for p in slots))  # type: ignore[misc]

    def prune(jokers_left: int) -> bool:
        """Keep in ``alive`` the operations whose last digit fits; False if none."""
        known = tuple(int(digits[p]) for p in ends)  # type: ignore[arg-type]
        alive.clear()
        for op in ops:
            lasts = _UNITS[op][target][known]
            if fixed_last is not None:
                fits = fixed_last in lasts
            else:
                fits = any(
                    (last_options is None or d in last_options) and (jokers_left or reals.get(d, 0))
                    for d in lasts
                )
            if fits:
                alive.append(op)
        return bool(alive)

    def extend(index: int, jokers_left: int) -> None:
        if index == first and not prune(jokers_left):
            return
        if index == len(free):
            finish(jokers_left)
            return
        p = free[index]
        options = allowed[rank[p]]
        for ch in "0123456789" if jokers_left else [d for d, n in reals.items() if n]:
            if (options is not None and ch not in options) or (ch == "0" and p in starts):
                continue
            digits[p] = ch
            if reals.get(ch, 0):
                reals[ch] -= 1
                extend(index + 1, jokers_left)
                reals[ch] += 1
            else:
                extend(index + 1, jokers_left - 1)
        digits[p] = None

    extend(0, jokers)


# ---- movegen.py ---------------------------------------------------------

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


# ---- reply.py (ReplySearch) ----------------------------------------------


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
        counts = self.counts
        moves: list[Move] = []
        if not counts:
            return moves
        pos = _Position(board)
        full = range(BOARD_SIZE)
        rows, cols = (set(full), set(full)) if lines is None else lines
        if not board.is_empty:
            _single_stone_moves(pos, counts, moves, (rows, cols))
        max_stones = sum(counts.values())
        for step, chosen in ((ROW, rows), (COLUMN, cols)):
            for line in sorted(chosen):
                if board.is_empty and line != (CENTRE[0] if step == ROW else CENTRE[1]):
                    continue
                for slots in _slot_sets(pos, step, line, max_stones):
                    cells = [_square(step, line, k) for k in slots]
                    _moves_on(pos, self.search, step, cells, moves)
        return moves


def near_moves(board: Board, rack: Sequence[int], cells: Iterable[Cell]) -> list[Move]:
    """The legal moves of ``rack`` on ``board`` lying on the lines near ``cells``
    (a subset of :func:`movegen.all_moves`, same scores)."""
    return ReplySearch(rack).near_moves(board, cells)
