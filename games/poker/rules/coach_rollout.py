"""The coach's rollouts: its own quick policy played to the end over sampled futures.

Issue 42 §2. For a number in hand the rollout coach takes the best few empty
cells by the static value (the learned line values, ``coach.Model``) and, for
each, plays the *same* futures to a full board: a future is an order of the
cards still needed, drawn from the multiset of the UNSEEN cards (never from
the deck, whose order the coach does not know). Each card of a future goes to
the cell whose static value rises most (the coach without its look-ahead); the
full board is scored exactly. The cell with the highest mean final score wins;
the same futures for every candidate make the comparison paired, so far fewer
futures separate two cells.

The futures are played in rounds. After each round a candidate whose paired
difference to the leader is more than ``PRUNE_Z`` standard errors behind is
dropped, and the rest of the budget (a number of rollout placements, not a
clock) goes to the candidates still in the race; when one is left the coach
stops early.

A line's gain from a card (its learned value with the card minus without) is
memoised per line content, card, stage of the game and the unseen counts of
exactly the values it depends on (``LineModel.relevant_values``), so a
rollout placement is mostly dictionary lookups.

Deterministic: the futures come from a ``random.Random`` seeded by the position
(board, card in hand, unseen counts), so the same position always gets the same
answer, and reordering the undrawn part of the deck changes nothing.

Futures hold numbers only: on the joker tables a joker still in the deck is
left out of them (as the one-card look-ahead leaves it out).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Protocol

from .scoring import CELLS, DIAGONALS, LINES, LINES_THROUGH_CELL, MAX_VALUE, MIN_VALUE

Line = tuple[int | None, ...]
Counts = Callable[[Sequence[int]], object]
#: A memo entry: the getter of the counts a gain reads, the line's empty cells, the gains.
Entry = tuple[Counts, int, dict[object, float]]


class LineModel(Protocol):
    """What the rollouts need of ``coach.Model``."""

    #: The rollouts' memo (see ``_gain``); the model owns it so it lives as long.
    rollout_memo: dict[object, Entry]
    #: The table's name (the lines' getters are memoised per table).
    table: str

    def line_value(
        self, line_index: int, line: Sequence[int | None], remaining: Sequence[int], empty: int
    ) -> float: ...

    def direct_value(
        self, line_index: int, line: Line, remaining: Sequence[int], empty: int
    ) -> float: ...

    def relevant_split(
        self, line: Sequence[int | None]
    ) -> tuple[frozenset[int], frozenset[int]]: ...


_NONES: tuple[tuple[None, ...], ...] = tuple((None,) * k for k in range(6))
_GETTERS = tuple(itemgetter(*line) for line in LINES)
_EMPTY_MARK = MAX_VALUE + 1
#: A line's diagonal bonus is all its index changes in its value.
_DIAGONAL = tuple(int(index in DIAGONALS) for index in range(len(LINES)))
#: A representative line index for each ``_DIAGONAL`` flag.
_INDEX = (0, min(DIAGONALS))
#: For each cell, (line index, position of the cell in that line).
_SLOTS = tuple(
    tuple((index, LINES[index].index(cell)) for index in LINES_THROUGH_CELL[cell])
    for cell in range(CELLS)
)
#: Lines as integers: an order-free line is its count of each value in base 6
#: (``_SIX[v]`` per copy of ``v``), a line in order its values in base 14 by
#: position (``_FOURTEEN[at]``, 0 = empty). A card added is one addition.
_SIX = tuple(6 ** (v - 1) if v else 0 for v in range(MAX_VALUE + 1))
_FOURTEEN = tuple(14**at for at in range(5))
#: A candidate this many paired standard errors behind the leader is dropped.
PRUNE_Z = 2.5
#: ... and only once each has played this many futures (heavy tails: one
#: special hand can be worth hundreds of points).
MIN_FUTURES = 12
_MEMO_LIMIT = 400_000


def _nothing(remaining: Sequence[int]) -> tuple[()]:
    return ()


#: Decoded lines by code (a few thousand contents at most: pure functions' memos).
_FREE_LINES: dict[int, Line] = {}
_ORDERED_LINES: dict[int, Line] = {}
#: The counts getters by table and lines (``_getter``).
_GETTERS_BY_LINES: dict[tuple[str, tuple[tuple[int, ...], ...]], Counts] = {}


def _free_line(code: int) -> Line:
    line = _FREE_LINES.get(code)
    if line is None:
        values = [v for v in range(MAX_VALUE, 0, -1) for _ in range(code // _SIX[v] % 6)][::-1]
        line = _FREE_LINES[code] = (*values, *_NONES[5 - len(values)])
    return line


def _ordered_line(code: int) -> Line:
    line = _ORDERED_LINES.get(code)
    if line is None:
        if len(_ORDERED_LINES) > _MEMO_LIMIT:
            _ORDERED_LINES.clear()
        line = _ORDERED_LINES[code] = tuple(code // _FOURTEEN[at] % 14 or None for at in range(5))
    return line


def _getter(model: LineModel, lines: tuple[Line, ...]) -> Counts:
    """The getter of what the learned values of ``lines`` read of the unseen
    counts (see ``_counts``), the first line's empty cells capping the counts
    (memoised by the table and the lines: it depends on nothing else)."""
    # What a line's value reads depends on its multiset of values alone
    # (``relevant_split``), so lines in order share the getters of their values.
    memo_key = (model.table, tuple(tuple(sorted(v for v in line if v)) for line in lines))
    getter = _GETTERS_BY_LINES.get(memo_key)
    if getter is None:
        if len(_GETTERS_BY_LINES) > _MEMO_LIMIT:
            _GETTERS_BY_LINES.clear()
        getter = _GETTERS_BY_LINES[memo_key] = _new_getter(model, lines)
    return getter


def _new_getter(model: LineModel, lines: tuple[Line, ...]) -> Counts:
    counted: set[int] = set()
    present: set[int] = set()
    for line in lines:
        more_counted, more_present = model.relevant_split(line)
        counted |= more_counted
        present |= more_present
    wanted = [*sorted(counted), *(14 + v for v in sorted(present - counted))]
    return itemgetter(*wanted) if wanted else _nothing


def _remember(model: LineModel, key: object, getter: Counts, line: Line) -> Entry:
    memo = model.rollout_memo
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    entry = memo[key] = (getter, line.count(None), {})
    return entry


def _value(
    model: LineModel,
    key: int,
    line: Line,
    remaining: Sequence[int],
    counts: Sequence[Sequence[int]],
    empty: int,
) -> float:
    """One line's learned value, memoised like the gains (``key`` names the
    line, the stage and, by its parity, the diagonal; wrapped in a tuple so it
    is not a gain's key)."""
    if None not in line:
        return model.line_value(_INDEX[abs(key) & 1], line, remaining, empty)
    memo_key = (key,)
    entry = model.rollout_memo.get(memo_key)
    if entry is None:
        entry = _remember(model, memo_key, _getter(model, (line,)), line)
    found = entry[0](counts[entry[1]])
    value = entry[2].get(found)
    if value is None:
        value = entry[2][found] = model.direct_value(_INDEX[abs(key) & 1], line, remaining, empty)
    return value


def _gain(
    model: LineModel,
    key: int,
    old: Line,
    new: Line,
    remaining: Sequence[int],
    counts: Sequence[Sequence[int]],
    empty: int,
    keys: tuple[int, int],
) -> float:
    """The change of one line's learned value when a card turns ``old`` into
    ``new`` (both with ``empty`` cells left on the board and ``remaining``
    unseen), for a key the memo does not hold yet; ``keys`` name the two lines
    for ``_value``."""
    entry = model.rollout_memo.get(key)
    if entry is None:
        entry = _remember(model, key, _getter(model, (old, new)), old)
    gain = _value(model, keys[1], new, remaining, counts, empty) - _value(
        model, keys[0], old, remaining, counts, empty
    )
    entry[2][entry[0](counts[entry[1]])] = gain
    return gain


#: The counts getters of order-free lines by table and line codes (``_gain_free``).
_CODE_GETTERS: dict[tuple[str, int, int], Counts] = {}


def _code_getter(model: LineModel, code: int, grown: int) -> Counts:
    memo_key = (model.table, code, grown)
    getter = _CODE_GETTERS.get(memo_key)
    if getter is None:
        if len(_CODE_GETTERS) > _MEMO_LIMIT:
            _CODE_GETTERS.clear()
        lines = (_free_line(code),) if code == grown else (_free_line(code), _free_line(grown))
        getter = _CODE_GETTERS[memo_key] = _new_getter(model, lines)
    return getter


def _value_free(
    model: LineModel,
    code: int,
    tail: int,
    remaining: Sequence[int],
    counts: Sequence[Sequence[int]],
    empty: int,
) -> float:
    """``_value`` of the order-free line ``code`` (``tail``: the stage and the
    diagonal flag, as the rollouts make it): the same memo, fewer steps."""
    memo = model.rollout_memo
    memo_key = (code * 16 + tail,)
    entry = memo.get(memo_key)
    if entry is None:
        line = _free_line(code)
        if None not in line:
            full_key = (model.table, code, tail & 1)
            value = _FULL.get(full_key)
            if value is None:
                if len(_FULL) > _MEMO_LIMIT:
                    _FULL.clear()
                value = _FULL[full_key] = model.line_value(_INDEX[tail & 1], line, (), 0)
            return value
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        entry = memo[memo_key] = (_code_getter(model, code, code), line.count(None), {})
    found = entry[0](counts[entry[1]])
    value = entry[2].get(found)
    if value is None:
        line = _free_line(code)
        value = entry[2][found] = model.direct_value(_INDEX[tail & 1], line, remaining, empty)
    return value


def _gain_free(
    model: LineModel,
    key: int,
    code: int,
    grown: int,
    remaining: Sequence[int],
    counts: Sequence[Sequence[int]],
    empty: int,
    tail: int,
) -> float:
    """``_gain`` for an order-free line (``code`` grows to ``grown``): the same
    memo entries and floats, with the getters memoised by the codes."""
    memo = model.rollout_memo
    entry = memo.get(key)
    if entry is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        old_empty = 5 - sum(code // _SIX[v] % 6 for v in range(1, MAX_VALUE + 1))
        entry = memo[key] = (_code_getter(model, code, grown), old_empty, {})
    gain = _value_free(model, grown, tail, remaining, counts, empty) - _value_free(
        model, code, tail, remaining, counts, empty
    )
    entry[2][entry[0](counts[entry[1]])] = gain
    return gain


def _counts(remaining: Sequence[int], k: int) -> list[int]:
    """The unseen counts as the memo reads them with ``k`` empty cells in the
    line: each capped at ``k``, then each capped at 1 (index 14 + value).

    The learned value reads no more: a count up to the line's empty cells for
    the values in the line (pairs and more; the special hands' 1s and 13s need
    at most the empty cells), and for the others whether one is still unseen
    (straights, the 1-10-11-12-13 hand) -- so equal keys give equal gains."""
    return [min(c, k) for c in remaining] + [min(c, 1) for c in remaining]


def _all_counts(remaining: Sequence[int]) -> list[list[int]]:
    return [_counts(remaining, k) for k in range(6)]


def _draw(remaining: list[int], counts: list[list[int]], card: int) -> None:
    left = remaining[card] = remaining[card] - 1
    for k in range(1, 6):
        row = counts[k]
        if left < k:
            row[card] = left
        if left < 1:
            row[14 + card] = left


def futures(
    board: Sequence[int | None], card: int, remaining: Sequence[int], count: int, length: int
) -> list[list[int]]:
    """``count`` orders of ``length`` unseen numbers, drawn without replacement
    from the unseen multiset ``remaining`` (index 1..13); seeded by the position.
    The first ``k`` futures do not depend on ``count``."""
    pool = [value for value in range(MIN_VALUE, MAX_VALUE + 1) for _ in range(remaining[value])]
    length = min(length, len(pool))
    seed = bytes(_EMPTY_MARK if c is None else c for c in board) + bytes([card, *remaining])
    rng = random.Random(seed)
    return [rng.sample(pool, length) for _ in range(count)]


def _final(model: LineModel, lines: Sequence[Line], remaining: Sequence[int]) -> float:
    value = model.line_value
    return sum(value(index, line, remaining, 0) for index, line in enumerate(lines))


#: A full line's exact value by table, line code (negative: in order) and
#: diagonal flag: a pure function's memo (at most a few thousand codes a table).
_FULL: dict[tuple[str, int, int], float] = {}


def _final_codes(model: LineModel, codes: Sequence[int], ordered: bool) -> float:
    """``_final`` of the full board whose lines are ``codes`` (the same floats,
    summed in the same order), each line's value memoised by its code."""
    full = _FULL
    table = model.table
    total = 0.0
    for index, code in enumerate(codes):
        key = (table, -code - 1 if ordered else code, _DIAGONAL[index])
        value = full.get(key)
        if value is None:
            if len(full) > _MEMO_LIMIT:
                full.clear()
            line = _ordered_line(code) if ordered else _free_line(code)
            value = full[key] = model.line_value(index, line, (), 0)
        total += value
    return total


#: For each cell, its lines padded to four with a line index whose gain is
#: always 0.0 (``len(LINES)``), so a cell's gain is four lookups and three
#: additions, summed in ``LINES_THROUGH_CELL``'s order (the same float).
_NO_LINE = len(LINES)
_THROUGH4 = tuple((*lines, *(_NO_LINE,) * (4 - len(lines))) for lines in LINES_THROUGH_CELL)


def _leaf(
    model: LineModel,
    codes: Sequence[int],
    ordered: bool,
    remaining: Sequence[int],
    counts: Sequence[Sequence[int]],
    empty: int,
) -> float:
    """Where a rollout stops: a full board's exact score, or (a rollout cut at
    its horizon) the learned value of the board, line by line."""
    if not empty:
        return _final_codes(model, codes, ordered)
    full = _FULL
    table = model.table
    tail = (empty >> 2) * 2
    total = 0.0
    for index, code in enumerate(codes):
        line = _ordered_line(code) if ordered else _free_line(code)
        if None in line:
            # ``_value``'s keys as the rollouts make them (stage and diagonal in the tail).
            key = code * 16 + tail + _DIAGONAL[index]
            total += _value(model, -key - 16 if ordered else key, line, remaining, counts, empty)
            continue
        memo_key = (table, -code - 1 if ordered else code, _DIAGONAL[index])
        value = full.get(memo_key)
        if value is None:
            value = full[memo_key] = model.line_value(index, line, (), 0)
        total += value
    return total


#: What a rollout from one board starts from (``_free_start``, ``_ordered_start``):
#: the lines' codes, their filled cells and the free cells.
Start = tuple[list[int], list[int], list[int]]


def _free_start(cells: Sequence[int | None]) -> Start:
    six = _SIX
    codes = [sum(six[v] for v in getter(cells) if v is not None) for getter in _GETTERS]
    filled = [sum(v is not None for v in getter(cells)) for getter in _GETTERS]
    return codes, filled, [cell for cell in range(CELLS) if cells[cell] is None]


def _play_free(
    model: LineModel,
    cells: list[int | None],
    remaining: list[int],
    future: Sequence[int],
    empty: int,
    start: Start | None = None,
    counts: list[list[int]] | None = None,
) -> float:
    """A rollout on a table whose lines ignore order (``matematico``, ``school``):
    a line is its multiset of values, so a card's effect on a line does not
    depend on the cell. Returns the exact final score of the board.

    ``start`` (``_free_start(cells)``) and ``counts`` (``_all_counts(remaining)``)
    may come precomputed for many futures from one board; they are copied."""
    six = _SIX
    if start is None:
        start = _free_start(cells)
    codes, filled, free = list(start[0]), list(start[1]), list(start[2])
    open_lines = [index for index in range(len(LINES)) if filled[index] < 5]
    # Each line's memo key without the card and the stage (kept as it grows).
    bases = [code * 224 + flag for code, flag in zip(codes, _DIAGONAL, strict=True)]
    through = _THROUGH4
    memo = model.rollout_memo
    get = memo.get
    counts = _all_counts(remaining) if counts is None else [row[:] for row in counts]
    gains = [0.0] * (len(LINES) + 1)
    minus_infinity = float("-inf")
    for card in future:
        _draw(remaining, counts, card)
        empty -= 1
        shift = card * 16 + (empty >> 2) * 2
        for index in open_lines:
            key = bases[index] + shift
            entry = get(key)
            gain = None
            if entry is not None:
                gain = entry[2].get(entry[0](counts[entry[1]]))
            if gain is None:
                code = codes[index]
                tail = (empty >> 2) * 2 + _DIAGONAL[index]
                gain = _gain_free(
                    model, key, code, code + six[card], remaining, counts, empty, tail
                )
            gains[index] = gain
        best_cell, best = free[0], minus_infinity
        for cell in free:  # ascending: ties go to the first cell
            a, b, c, d = through[cell]
            gain = gains[a] + gains[b] + gains[c] + gains[d]
            if gain > best + 1e-9:
                best_cell, best = cell, gain
        free.remove(best_cell)
        grow = six[card]
        for index in LINES_THROUGH_CELL[best_cell]:
            codes[index] += grow
            bases[index] += grow * 224
            filled[index] += 1
            gains[index] = 0.0
            if filled[index] == 5:
                open_lines.remove(index)
    return _leaf(model, codes, False, remaining, counts, empty)


def _ordered_start(cells: Sequence[int | None]) -> Start:
    fourteen = _FOURTEEN
    codes = [
        sum((v or 0) * fourteen[at] for at, v in enumerate(getter(cells))) for getter in _GETTERS
    ]
    return codes, [], [cell for cell in range(CELLS) if cells[cell] is None]


def _play_ordered(
    model: LineModel,
    cells: list[int | None],
    remaining: list[int],
    future: Sequence[int],
    empty: int,
    start: Start | None = None,
    counts: list[list[int]] | None = None,
) -> float:
    """A rollout on a table where order counts (``contiguous``): each empty
    cell's lines are valued with the card in that cell. Fills ``cells``
    (``start`` and ``counts`` as for ``_play_free``)."""
    slots = _SLOTS
    fourteen = _FOURTEEN
    diagonal = _DIAGONAL
    if start is None:
        start = _ordered_start(cells)
    codes, free = list(start[0]), list(start[2])
    memo = model.rollout_memo
    counts = _all_counts(remaining) if counts is None else [row[:] for row in counts]
    for card in future:
        _draw(remaining, counts, card)
        empty -= 1
        shift = card * 16 + (empty >> 2) * 2
        best_cell, best = free[0], float("-inf")
        for cell in free:
            gain = 0.0
            for index, at in slots[cell]:
                code = codes[index]
                key = -((code * 5 + at) * 224 + shift + diagonal[index])  # < 0: not a free key
                entry = memo.get(key)
                part = None
                if entry is not None:
                    part = entry[2].get(entry[0](counts[entry[1]]))
                if part is None:
                    grown = code + card * fourteen[at]
                    old, new = _ordered_line(code), _ordered_line(grown)
                    tail = (empty >> 2) * 2 + diagonal[index]
                    keys = (-(code * 16 + tail) - 16, -(grown * 16 + tail) - 16)
                    part = _gain(model, key, old, new, remaining, counts, empty, keys)
                gain += part
            if gain > best + 1e-9:
                best_cell, best = cell, gain
        free.remove(best_cell)
        cells[best_cell] = card
        for index, at in slots[best_cell]:
            codes[index] += card * fourteen[at]
    return _leaf(model, codes, True, remaining, counts, empty)


def _behind(leader: list[float], other: list[float]) -> bool:
    """Is ``other`` clearly worse than ``leader`` over the same futures?"""
    n = len(leader)
    diffs = [a - b for a, b in zip(leader, other, strict=True)]
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    spread = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean * mean * n > PRUNE_Z * PRUNE_Z * spread


def judge(
    model: LineModel,
    *,
    ordered: bool,
    board: Sequence[int | None],
    card: int,
    remaining: Sequence[int],
    candidates: Sequence[int],
    budget: int,
    most: int = 400,
    rounds: int = 1,
    horizon: int = 0,
) -> list[tuple[float, int]]:
    """Mean final score of each candidate cell for ``card`` over the same
    futures, best first (ties keep the candidates' order; dropped candidates
    follow, the last dropped first).

    ``remaining`` counts the unseen cards with ``card`` already taken out;
    ``budget`` is the number of rollout placements to spend at most. With
    ``rounds == 1`` every candidate gets an even share of the futures (at least
    2, at most ``most``). With more, the first round gives every candidate
    ``1 / rounds`` of an even share, each later round as many futures again to
    the candidates still in the race (one ``PRUNE_Z`` standard errors behind
    the leader, after at least ``MIN_FUTURES``, is dropped), until the budget,
    ``most`` futures or a single candidate is left. A budget, not a clock, so
    the answer is deterministic.
    """
    empty_after = list(board).count(None) - 1
    length = min(horizon, empty_after) if horizon > 0 else empty_after
    per_future = max(1, length)
    step = max(2, min(most, budget // (len(candidates) * per_future * rounds)))
    count = step if rounds == 1 else max(step, min(most, budget // (2 * per_future)))
    drawn = futures(board, card, remaining, count, length)
    play = _play_ordered if ordered else _play_free
    begin = _ordered_start if ordered else _free_start
    counts = _all_counts(remaining)
    scores: dict[int, list[float]] = {cell: [] for cell in candidates}
    alive = list(candidates)
    dropped: list[int] = []
    used = spent = 0
    while used < len(drawn) and len(alive) > 1:
        batch = drawn[used : used + step]
        if used and spent + len(alive) * len(batch) * per_future > budget:
            break
        for cell in alive:
            after = list(board)
            after[cell] = card
            start = begin(after)
            played = scores[cell]
            for future in batch:
                played.append(
                    play(model, list(after), list(remaining), future, empty_after, start, counts)
                )
        used += len(batch)
        spent += len(alive) * len(batch) * per_future
        mean = {cell: sum(scores[cell]) / used for cell in alive}
        leader = max(alive, key=lambda cell: round(mean[cell], 9))
        if rounds == 1 or used < MIN_FUTURES:
            continue
        for cell in list(alive):
            if cell != leader and _behind(scores[leader], scores[cell]):
                alive.remove(cell)
                dropped.append(cell)
    judged = [(sum(scores[cell]) / used, cell) for cell in alive]
    judged.sort(key=lambda item: -round(item[0], 9))
    judged += [(sum(scores[cell]) / len(scores[cell]), cell) for cell in reversed(dropped)]
    return judged
