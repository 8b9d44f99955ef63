"""Finding the digits that turn a partly known run into an example.

Move generation meets runs like ``3138 5290 _ _ _ _ _ _``: old stones with room
for new ones. Trying every arrangement of the rack and reading each result is
slow when the run is long. Instead, for every way to split the run into
numbers (``examples.feasible_splits``) and every operation, the digits of all
numbers but one are tried and the last number is *computed*: the one with the
most free squares, since any of the three follows from the other two
(a+b=c gives a=c-b, a:b=c gives a=b×c, and so on). Only its digits are then
checked against the run and the rack.

The result is a superset filter: every arrangement it returns still goes
through the real reader (:func:`examples.read_example`) and the line rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from math import comb, isqrt, perm
from typing import NamedTuple

from .examples import feasible_splits


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
    if not plans:
        return found
    rank = {p: k for k, p in enumerate(slots)}
    low, high = _digit_bounds(pattern, allowed, reals, jokers, rank)
    ranges: dict[tuple[int, int], tuple[int, int]] = {}
    counts = dict(reals)
    for plan in plans:
        ops = _ops_in_range(plan, low, high, ranges)
        if not ops:
            continue
        if plan.order:
            _solve_split(pattern, allowed, counts, jokers, plan, ops, slots, rank, found)
        else:
            _solve_known(pattern, allowed, counts, jokers, plan, ops, slots, rank, found)
    return found


def _solve_known(
    pattern: Sequence[str | None],
    allowed: Sequence[frozenset[str] | None],
    reals: dict[str, int],
    jokers: int,
    plan: _Plan,
    ops: tuple[str, ...],
    slots: tuple[int, ...],
    rank: dict[int, int],
    found: set[str],
) -> None:
    """:func:`_solve_split` for a plan whose other numbers are all old digits:
    the target's number follows from them at once."""
    regions, target, others = plan.regions, plan.target, plan.others
    t0, t1 = regions[target]
    last = pattern[t1 - 1]
    known = tuple([_DIGIT_VALUE[pattern[regions[k][1] - 1]] for k in others])  # type: ignore[index]
    numbers = [0] * len(regions)
    for k in others:
        a, b = regions[k]
        numbers[k] = int("".join(pattern[a:b]))  # type: ignore[arg-type]
    width = t1 - t0
    for op in ops:
        lasts = _UNITS[op][target][known]
        if last is not None and last not in lasts:
            continue
        value = _compute(op, target, numbers)
        if value is None or value < 1:
            continue
        text = str(value)
        if len(text) != width:
            continue
        if _fits(text, _target_shape(pattern, allowed, rank, t0, t1), reals, jokers):
            full = list(pattern)
            full[t0:t1] = text
            found.add("".join([full[p] for p in slots]))  # type: ignore[misc]


def _target_shape(
    pattern: Sequence[str | None],
    allowed: Sequence[frozenset[str] | None],
    rank: dict[int, int],
    t0: int,
    t1: int,
) -> list[tuple[str | None, frozenset[str] | None]]:
    """The target region square by square: the old digit, or the allowed digits."""
    return [
        (pattern[p], None if pattern[p] is not None else allowed[rank[p]]) for p in range(t0, t1)
    ]


def _fits(
    text: str,
    shape: list[tuple[str | None, frozenset[str] | None]],
    reals: dict[str, int],
    jokers: int,
) -> bool:
    """Whether the computed number ``text`` fits its squares (their old digits,
    the digits allowed there) and the rack (real stones, then jokers)."""
    need: dict[str, int] = {}
    for ch, (fixed, options) in zip(text, shape, strict=True):
        if fixed is None:
            if options is not None and ch not in options:
                return False
            need[ch] = need.get(ch, 0) + 1
        elif fixed != ch:
            return False
    short = 0
    for ch, n in need.items():
        have = reals.get(ch, 0)
        if n > have:
            short += n - have
    return short <= jokers


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


def _ops_in_range(
    plan: _Plan,
    low: list[int],
    high: list[int],
    ranges: dict[tuple[int, int], tuple[int, int]] | None = None,
) -> tuple[str, ...]:
    """The plan's operations that the numbers' bounds allow at all: the leading
    digits of old stones often rule a whole split out before any search.
    ``ranges`` remembers the bounds of each region for the other plans."""
    bounds = []
    for region in plan.regions:
        found = None if ranges is None else ranges.get(region)
        if found is None:
            found = _number_range(low, high, *region)
            if ranges is not None:
                ranges[region] = found
        bounds.append(found)
    (alo, ahi), (blo, bhi), *rest = bounds
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
    ops: tuple[str, ...],
    slots: tuple[int, ...],
    rank: dict[int, int],
    found: set[str],
) -> None:
    """Try every filling of the free squares outside the plan's target region
    and compute that region's number from the others.

    The last squares of the other numbers are filled first: once they are
    known, the target's last digit is too (mod 10), and operations whose last
    digit cannot be placed there are dropped before going deeper. ``reals``
    is used as scratch and left as it came."""
    regions, target, others, starts, ends, free, first = plan[1:8]
    digits = list(pattern)
    other_regions = [(k, regions[k]) for k in others]
    t0, t1 = regions[target]
    width = t1 - t0
    shape = _target_shape(pattern, allowed, rank, t0, t1)
    fixed_last, last_options = shape[-1]
    numbers = [0] * len(regions)
    alive = list(ops)
    units = [_UNITS[op][target] for op in ops]
    size = len(free)
    options_at = [allowed[rank[p]] for p in free]

    def finish(jokers_left: int) -> None:
        for k, (a, b) in other_regions:
            numbers[k] = int("".join(digits[a:b]))  # type: ignore[arg-type]
        for op in alive:
            value = _compute(op, target, numbers)
            if value is None or value < 1:
                continue
            text = str(value)
            if len(text) != width:
                continue
            if _fits(text, shape, reals, jokers_left):
                full = list(digits)
                full[t0:t1] = text
                found.add("".join([full[p] for p in slots]))  # type: ignore[misc]

    def prune(jokers_left: int) -> bool:
        """Keep in ``alive`` the operations whose last digit fits; False if none."""
        known = tuple([_DIGIT_VALUE[digits[p]] for p in ends])  # type: ignore[index]
        alive.clear()
        for op, table in zip(ops, units, strict=True):
            lasts = table[known]
            if fixed_last is not None:
                fits = fixed_last in lasts
            else:
                fits = False
                for d in lasts:
                    if (last_options is None or d in last_options) and (
                        jokers_left or reals.get(d, 0)
                    ):
                        fits = True
                        break
            if fits:
                alive.append(op)
        return bool(alive)

    def extend(index: int, jokers_left: int) -> None:
        if index == first and not prune(jokers_left):
            return
        if index == size:
            finish(jokers_left)
            return
        p = free[index]
        options = options_at[index]
        leading = p in starts
        for ch in "0123456789" if jokers_left else [d for d, n in reals.items() if n]:
            if (options is not None and ch not in options) or (ch == "0" and leading):
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


_DIGIT_VALUE = {str(d): d for d in range(10)}
