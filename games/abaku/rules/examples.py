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


def all_readings(digits: str) -> list[Reading]:
    """Every reading of ``digits`` (a string of 0-9), simplest first.

    Used by tests and the rules page; the engine itself only needs
    :func:`read_example`.
    """
    found: list[tuple[int, int, int, Reading]] = []
    n = len(digits)
    if n < 2 or digits[0] == "0":
        return []
    for i in range(1, n):
        if digits[i] == "0":
            continue
        a = int(digits[:i])
        rest = digits[i:]
        b_all = int(rest)
        # Two numbers: a op b, split after i digits.
        if a * a == b_all:
            found.append((_RANK["square"], i, 0, Reading("square", (a, b_all))))
        if a * a * a == b_all:
            found.append((_RANK["cube"], i, 0, Reading("cube", (a, b_all))))
        if b_all * b_all == a:
            found.append((_RANK["sqrt"], i, 0, Reading("sqrt", (a, b_all))))
        if b_all * b_all * b_all == a:
            found.append((_RANK["cbrt"], i, 0, Reading("cbrt", (a, b_all))))
        # Three numbers: a op b = c, second split after j digits.
        for j in range(i + 1, n):
            if digits[j] == "0":
                continue
            b = int(digits[i:j])
            c = int(digits[j:])
            nums = (a, b, c)
            if a + b == c:
                found.append((_RANK["add"], i, j, Reading("add", nums)))
            if a - b == c:
                found.append((_RANK["sub"], i, j, Reading("sub", nums)))
            if a * b == c:
                found.append((_RANK["mul"], i, j, Reading("mul", nums)))
            if b * c == a:
                found.append((_RANK["div"], i, j, Reading("div", nums)))
    found.sort(key=lambda item: item[:3])
    return [item[3] for item in found]


@lru_cache(maxsize=1 << 18)
def read_example(digits: str) -> Reading | None:
    """The reading shown for ``digits``, or ``None`` if it is no example.

    Ties between readings of the same operation go to the shortest first number,
    then the shortest second number. Cached because move generation asks about
    the same short runs over and over; the function is pure, so the cache is
    invisible.
    """
    readings = all_readings(digits)
    return readings[0] if readings else None
