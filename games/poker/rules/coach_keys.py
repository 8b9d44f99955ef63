"""The coach's line abstraction as tuples, for the order-free tables (issue 42 §2).

``coach.line_keys`` names a line's abstraction with strings (the keys of
``coach_values.json``). Building those strings is most of what a rollout pays
for a line it has not met before, and a fresh process meets thousands. Here the
same abstraction is a tuple, computed from a per-line *plan* (what the line's
values are, which straights and special hands it can still make) that depends
on the line alone and is built once per line content; the learned values are
re-keyed by the same tuples when a table is loaded. ``Lines.value`` answers
exactly ``coach.Model.line_value`` (the same float; a test compares them on
random lines and unseen counts).

Matematico and school only: on ``contiguous`` a line's order counts and the
string keys stay (``coach.Model.line_value``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

Line = tuple[int | None, ...]
#: A line's plan: its empty cells, its value groups ``(count, value, is a 1 on
#: matematico)``, the missing values of each straight window it can still
#: make, the missing values of 1-10-11-12-13 (or None), the 1s and 13s still
#: needed for three 1s and two 13s (or None), and the filled values.
Plan = tuple[
    int,
    tuple[tuple[int, int, int], ...],
    tuple[tuple[int, ...], ...],
    tuple[int, ...] | None,
    tuple[int, int] | None,
    tuple[int, ...],
]
_SPECIAL = (1, 10, 11, 12, 13)


def _plan(matematico: bool, line: Line) -> Plan:
    filled = tuple(v for v in line if v is not None)
    counts: dict[int, int] = {}
    for v in filled:
        counts[v] = counts.get(v, 0) + 1
    groups = tuple((c, v, int(matematico and v == 1)) for v, c in counts.items())
    distinct = len(counts) == len(filled)
    windows: tuple[tuple[int, ...], ...] = ()
    if distinct and filled:
        low, high = min(filled), max(filled)
        if high - low <= 4:
            windows = tuple(
                tuple(v for v in range(start, start + 5) if v not in counts)
                for start in range(max(1, high - 4), min(low, 9) + 1)
            )
    special: tuple[int, ...] | None = None
    ones_thirteens: tuple[int, int] | None = None
    if matematico:
        if distinct and all(v in _SPECIAL for v in filled):
            special = tuple(v for v in _SPECIAL if v not in counts)
        ones, thirteens = counts.get(1, 0), counts.get(13, 0)
        if ones + thirteens == len(filled) and ones <= 3 and thirteens <= 2:
            ones_thirteens = (3 - ones, 2 - thirteens)
    return 5 - len(filled), groups, windows, special, ones_thirteens, filled


def parse(key: str, matematico: bool) -> tuple[object, ...]:
    """A ``coach_values.json`` key (fine or coarse) as ``Lines`` builds it."""
    if key[0] == "E":
        return ("E", int(key[1:])) if len(key) > 1 else ("E",)
    parts = key.split("/")
    shape = parts[0]
    pairs = [(int(shape[i]), int(shape[i + 1])) for i in range(0, len(shape) - 1, 2)]
    empties = int(shape[-1])
    if len(parts) == 2:  # coarse: shape / straight possible + special
        flags = parts[1]
        special = int(flags[-1]) if matematico else 0
        return (tuple(pairs), empties, int(flags[0]), special)
    avail, flags, stage = parts[1], parts[2], int(parts[3])
    groups = tuple((c, int(r), o) for (c, o), r in zip(pairs, avail, strict=True))
    straights = int(flags[:-1]) if matematico else int(flags)
    special = int(flags[-1]) if matematico else 0
    return (groups, empties, straights, special, stage)


class Lines:
    """The learned values of one order-free table, keyed by tuples."""

    def __init__(
        self,
        matematico: bool,
        fine: Mapping[str, tuple[float, float]],
        coarse: Mapping[str, tuple[float, float]],
        points: Callable[..., int],
        diagonal_bonus: int,
    ) -> None:
        self.matematico = matematico
        self.fine = {parse(k, matematico): v for k, v in fine.items()}
        self.coarse = {parse(k, matematico): v for k, v in coarse.items()}
        self.points = points
        self.bonus = diagonal_bonus
        self.plans: dict[Line, Plan] = {}

    def value(
        self, diagonal: bool, line: Line, remaining: Sequence[int], empty_cells: int
    ) -> float:
        """``coach.Model.line_value`` of a line that is not full."""
        bonus = self.bonus if diagonal else 0
        plan = self.plans.get(line)
        if plan is None:
            if len(self.plans) > 100_000:
                self.plans.clear()
            plan = self.plans[line] = _plan(self.matematico, line)
        empties, groups, windows, special, ones_thirteens, filled = plan
        stage = empty_cells // 4
        if not groups:
            found = self.fine.get(("E", stage)) or self.coarse.get(("E",))
        else:
            ranked = sorted(
                [(c, e if (e := remaining[v]) < empties else empties, o) for c, v, o in groups],
                reverse=True,
            )
            straights = 0
            for missing in windows:
                for v in missing:
                    if remaining[v] <= 0:
                        break
                else:
                    straights += 1
            extra = 0
            if special is not None:
                for v in special:
                    if remaining[v] <= 0:
                        break
                else:
                    extra = 1
            if ones_thirteens is not None and (
                remaining[1] >= ones_thirteens[0] and remaining[13] >= ones_thirteens[1]
            ):
                extra += 2
            shape = tuple(ranked)
            found = self.fine.get((shape, empties, straights, extra, stage))
            if found is None:
                pairs = tuple((c, o) for c, _, o in ranked)
                found = self.coarse.get((pairs, empties, min(straights, 1), extra))
        if found is None:
            points = self.points(*line)
            return float(points + bonus) if points else 0.0
        mean, scoring = found
        return mean + bonus * scoring
