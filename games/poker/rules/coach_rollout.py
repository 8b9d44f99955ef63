"""The coach's rollouts: its own quick policy played to the end over sampled futures.

Issue 42 §2. For a number in hand the rollout coach takes the best few empty
cells by the static value (the learned line values, ``coach.Model``) and, for
each, plays the *same* ``n`` futures to a full board: a future is an order of
the cards still needed, drawn from the multiset of the UNSEEN cards (never from
the deck, whose order the coach does not know). Each card of a future goes to
the cell whose static value rises most (``policy_cell``: the coach without its
look-ahead, about 0.05 ms a card); the full board is scored exactly. The cell
with the highest mean final score wins; the same futures for every candidate
make the comparison paired, so far fewer futures separate two cells.

Deterministic: the futures come from a ``random.Random`` seeded by the position
(board, card in hand, unseen counts), so the same position always gets the same
answer, and reordering the undrawn part of the deck changes nothing.

Futures hold numbers only: on the joker tables a joker still in the deck is
left out of them (as the one-card look-ahead leaves it out).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Sequence
from operator import itemgetter

from .scoring import CELLS, LINES, LINES_THROUGH_CELL, MAX_VALUE, MIN_VALUE

#: ``line_value(line_index, line, remaining, empty_cells) -> float`` (``coach.Model``).
LineValue = Callable[[int, Sequence[int | None], Sequence[int], int], float]

_NONES: tuple[tuple[None, ...], ...] = tuple((None,) * k for k in range(6))
_GETTERS = tuple(itemgetter(*line) for line in LINES)
_EMPTY_MARK = MAX_VALUE + 1


def futures(
    board: Sequence[int | None], card: int, remaining: Sequence[int], count: int, length: int
) -> list[list[int]]:
    """``count`` orders of ``length`` unseen numbers, drawn without replacement
    from the unseen multiset ``remaining`` (index 1..13); seeded by the position."""
    pool = [value for value in range(MIN_VALUE, MAX_VALUE + 1) for _ in range(remaining[value])]
    length = min(length, len(pool))
    seed = bytes(_EMPTY_MARK if c is None else c for c in board) + bytes([card, *remaining])
    rng = random.Random(seed)
    return [rng.sample(pool, length) for _ in range(count)]


def _play_free(
    line_value: LineValue,
    cells: list[int | None],
    remaining: list[int],
    future: Sequence[int],
    empty: int,
) -> float:
    """A rollout on a table whose lines ignore order (``matematico``, ``school``):
    a line is its sorted values, so a card's effect on a line does not depend
    on the cell. Returns the exact final score of the board."""
    lines = [tuple(sorted(v for v in getter(cells) if v is not None)) for getter in _GETTERS]
    free = [cell for cell in range(CELLS) if cells[cell] is None]
    through = LINES_THROUGH_CELL
    gains = [0.0] * len(LINES)
    for card in future:
        remaining[card] -= 1
        empty -= 1
        for index, values in enumerate(lines):
            filled = len(values)
            if filled == 5:
                continue
            old = line_value(index, values + _NONES[5 - filled], remaining, empty)
            grown = list(values)
            insort(grown, card)
            gains[index] = line_value(index, (*grown, *_NONES[4 - filled]), remaining, empty) - old
        best_cell, best = free[0], float("-inf")
        for cell in free:  # ascending: ties go to the first cell
            gain = 0.0
            for index in through[cell]:
                gain += gains[index]
            if gain > best + 1e-9:
                best_cell, best = cell, gain
        free.remove(best_cell)
        for index in through[best_cell]:
            grown = list(lines[index])
            insort(grown, card)
            lines[index] = tuple(grown)
            gains[index] = 0.0
    return sum(line_value(index, values, remaining, 0) for index, values in enumerate(lines))


def _play_ordered(
    line_value: LineValue,
    cells: list[int | None],
    remaining: list[int],
    future: Sequence[int],
    empty: int,
) -> float:
    """A rollout on a table where order counts (``contiguous``): each empty
    cell's lines are valued with the card in that cell."""
    through = LINES_THROUGH_CELL
    free = [cell for cell in range(CELLS) if cells[cell] is None]
    for card in future:
        remaining[card] -= 1
        empty -= 1
        old = [line_value(i, getter(cells), remaining, empty) for i, getter in enumerate(_GETTERS)]
        best_cell, best = free[0], float("-inf")
        for cell in free:
            cells[cell] = card
            gain = 0.0
            for index in through[cell]:
                gain += line_value(index, _GETTERS[index](cells), remaining, empty) - old[index]
            cells[cell] = None
            if gain > best + 1e-9:
                best_cell, best = cell, gain
        free.remove(best_cell)
        cells[best_cell] = card
    return sum(line_value(i, getter(cells), remaining, 0) for i, getter in enumerate(_GETTERS))


def judge(
    line_value: LineValue,
    *,
    ordered: bool,
    board: Sequence[int | None],
    card: int,
    remaining: Sequence[int],
    candidates: Sequence[int],
    budget: int,
    most: int = 400,
) -> list[tuple[float, int]]:
    """Mean final score of each candidate cell for ``card`` over the same
    futures, best first (ties keep the candidates' order).

    ``remaining`` counts the unseen cards with ``card`` already taken out;
    ``budget`` is the number of rollout placements to spend (the futures per
    cell are ``budget // (cells * placements per future)``, at least 2, at
    most ``most``): a budget, not a clock, so the answer is deterministic.
    """
    empty_after = list(board).count(None) - 1
    per_future = max(1, empty_after)
    count = max(2, min(most, budget // (len(candidates) * per_future)))
    drawn = futures(board, card, remaining, count, empty_after)
    play = _play_ordered if ordered else _play_free
    judged = []
    for cell in candidates:
        cells = list(board)
        cells[cell] = card
        total = 0.0
        for future in drawn:
            total += play(line_value, list(cells), list(remaining), future, empty_after)
        judged.append((total / len(drawn), cell))
    judged.sort(key=lambda item: -round(item[0], 9))
    return judged
