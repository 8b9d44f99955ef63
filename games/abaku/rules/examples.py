"""Reading a run of digits as an arithmetic example (spec section 1).

A run is split into two or three whole numbers, the result last; no number may
start with 0 (which also forbids a lone 0). Eight operations exist; when a run
has several readings the simplest one is shown, in the order of ``OPERATIONS``.
"""

from functools import lru_cache
from typing import NamedTuple

# Simplest first: the order decides which reading of an ambiguous run is shown.
OPERATIONS: tuple[str, ...] = ("add", "sub", "mul", "div", "square", "cube", "sqrt", "cbrt")
_RANK = {op: rank for rank, op in enumerate(OPERATIONS)}


class Reading(NamedTuple):
    """One way a run of digits reads as an example: the operation and its numbers."""

    op: str
    numbers: tuple[int, ...]

    @property
    def text(self) -> str:
        """The example as people write it, e.g. ``12:4=3`` or ``√9=3``."""
        n = self.numbers
        if self.op == "add":
            return f"{n[0]}+{n[1]}={n[2]}"
        if self.op == "sub":
            return f"{n[0]}-{n[1]}={n[2]}"
        if self.op == "mul":
            return f"{n[0]}×{n[1]}={n[2]}"
        if self.op == "div":
            return f"{n[0]}:{n[1]}={n[2]}"
        if self.op == "square":
            return f"{n[0]}²={n[1]}"
        if self.op == "cube":
            return f"{n[0]}³={n[1]}"
        if self.op == "sqrt":
            return f"√{n[0]}={n[1]}"
        return f"∛{n[0]}={n[1]}"


def _feasible_splits(n: int) -> tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]:
    """For a run of ``n`` digits and a first number of ``i`` digits, which splits
    and operations the lengths alone allow.

    A sum has as many digits as its longer term or one more, a product as many as
    its factors together or one fewer, a square twice its root's or one fewer, a
    cube three times or up to two fewer; subtraction and division are a sum and a
    product read backwards. Entry ``[i]`` lists ``(j, ops)``: ``j`` is where the
    third number starts, or 0 for the two-number operations.
    """
    table: list[tuple[tuple[int, tuple[str, ...]], ...]] = [()]
    for la in range(1, n):
        options: list[tuple[int, tuple[str, ...]]] = []
        lb = n - la
        two = tuple(
            op
            for op, fits in (
                ("square", lb in (2 * la - 1, 2 * la)),
                ("cube", 3 * la - 2 <= lb <= 3 * la),
                ("sqrt", la in (2 * lb - 1, 2 * lb)),
                ("cbrt", 3 * lb - 2 <= la <= 3 * lb),
            )
            if fits
        )
        if two:
            options.append((0, two))
        for j in range(la + 1, n):
            lb, lc = j - la, n - j
            three = tuple(
                op
                for op, fits in (
                    ("add", lc in (max(la, lb), max(la, lb) + 1)),
                    ("sub", la in (max(lb, lc), max(lb, lc) + 1)),
                    ("mul", lc in (la + lb - 1, la + lb)),
                    ("div", la in (lb + lc - 1, lb + lc)),
                )
                if fits
            )
            if three:
                options.append((j, three))
        table.append(tuple(options))
    return tuple(table)


# Runs longer than the board is wide never occur.
_SPLITS = tuple(_feasible_splits(n) for n in range(16))


def feasible_splits(n: int) -> tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]:
    """The splits of a run of ``n`` digits the lengths allow (see above)."""
    return _SPLITS[n] if n < len(_SPLITS) else _feasible_splits(n)


def all_readings(digits: str) -> list[Reading]:
    """Every reading of ``digits`` (a string of 0-9), simplest first.

    Ties between readings of the same operation go to the shortest first
    number, then the shortest second number.
    """
    n = len(digits)
    if n < 2 or digits[0] == "0":
        return []
    splits = feasible_splits(n)
    found: list[tuple[int, int, int, Reading]] = []
    for i in range(1, n):
        if digits[i] == "0":
            continue
        a = int(digits[:i])
        for j, ops in splits[i]:
            if j == 0:
                b = int(digits[i:])
                for op in ops:
                    if (
                        (op == "square" and a * a == b)
                        or (op == "cube" and a * a * a == b)
                        or (op == "sqrt" and b * b == a)
                        or (op == "cbrt" and b * b * b == a)
                    ):
                        found.append((_RANK[op], i, 0, Reading(op, (a, b))))
                continue
            if digits[j] == "0":
                continue
            b = int(digits[i:j])
            c = int(digits[j:])
            for op in ops:
                if (
                    (op == "add" and a + b == c)
                    or (op == "sub" and a - b == c)
                    or (op == "mul" and a * b == c)
                    or (op == "div" and b * c == a)
                ):
                    found.append((_RANK[op], i, j, Reading(op, (a, b, c))))
    found.sort(key=lambda item: item[:3])
    return [item[3] for item in found]


# Runs up to this long are looked up in SHORT_EXAMPLES instead of being read.
SHORT = 6


def _short_examples(limit: int) -> frozenset[str]:
    """Every run of at most ``limit`` digits that reads as an example, built from
    the arithmetic (all numbers are 1 or more: none may start with 0) rather than
    by reading all 10**limit runs. About 13 000 runs, built in a few milliseconds.
    """
    found: set[str] = set()

    def keep(*numbers: int) -> None:
        text = "".join(map(str, numbers))
        if len(text) <= limit:
            found.add(text)

    def width(n: int) -> int:
        return len(str(n))

    # a+b=c and a×b=c, with the subtractions and divisions they imply
    for a in range(1, 10 ** (limit - 2)):
        for b in range(1, 10 ** (limit - 2)):
            if 2 * width(a) + 2 * width(b) - 1 > limit + 1:
                break
            c = a + b
            if width(a) + width(b) + width(c) <= limit:
                keep(a, b, c)  # a+b=c
                keep(c, b, a)  # c-b=a
            p = a * b
            if width(a) + width(b) + width(p) <= limit:
                keep(a, b, p)  # a×b=p
                keep(p, b, a)  # p:b=a
    # a²=b, a³=b and the roots read backwards
    for a in range(1, 10 ** (limit // 2)):
        for power in (2, 3):
            b = a**power
            if width(a) + width(b) <= limit:
                keep(a, b)  # a²=b or a³=b
                keep(b, a)  # √b=a or ∛b=a
    return frozenset(found)


SHORT_EXAMPLES: frozenset[str] = _short_examples(SHORT)


def is_example(digits: str) -> bool:
    """Whether ``digits`` reads as an example: a set look-up for short runs."""
    if len(digits) <= SHORT:
        return digits in SHORT_EXAMPLES
    return read_example(digits) is not None


@lru_cache(maxsize=1 << 16)
def read_example(digits: str) -> Reading | None:
    """The reading shown for ``digits``, or ``None`` if it is no example.

    Cached because move generation asks about
    the same short runs over and over; the function is pure, so the cache is
    invisible. 65 536 entries stay around 10 MB per process. Short runs that
    are no example are answered from the table without reading them.
    """
    if len(digits) <= SHORT and digits not in SHORT_EXAMPLES:
        return None
    readings = all_readings(digits)
    return readings[0] if readings else None
