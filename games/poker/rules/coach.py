"""The poker coach: a strong automatic player and the value behind its advice.

Pure Python, deterministic, no Django. Public API:

* ``choose_cell(cells, card, *, table, seen) -> int`` — the coach's cell for
  the number in hand;
* ``choose_joker(cells, *, table, seen, kept) -> dict`` — for a joker:
  ``{"action": "use", "cell": c, "value": v}`` or ``{"action": "keep"}``;
* ``evaluate(cells, *, table, seen) -> float`` — the coach's expected final
  score of a position (``evaluate_lines`` gives it per line, for explanations).

How it decides (see ``docs/rules/poker.md``, "Coach"): the value of a board is
the sum over the 12 lines of a *learned* expected final score of each line.
A line is reduced to an abstraction — which cells hold equal values (or, for
order-free tables, the multiset shape), how many copies of those values are
still unseen, whether a straight and the table's special hands are still
possible with unseen cards, and how many empty cells the board has left — and
``coach_values.json`` holds the average final score of lines with that
abstraction over self-play games (``bench/poker_coach_bench.py --train``). A
full line is worth exactly its score. The coach then looks one card ahead:
for the best few cells by this value it averages, over every value the next
card can have (weighted by how many copies are unseen), the value after the
best reply, and picks the cell with the highest expectation. With
``search=STRONG`` (issue 42) the best of those are judged two cards ahead
(``_deep``); with ``search=ROLLOUT`` the best cells are judged by the static
policy played to the end over sampled futures (``coach_rollout``); ``QUICK``,
the default, is the coach before that.

The coach knows the table's deck composition and the cards dealt so far
(``seen``), never the future order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from operator import itemgetter
from pathlib import Path
from typing import Required, TypedDict

from . import coach_keys, coach_rollout
from .deck import JOKER
from .scoring import (
    _COMPILED,
    CELLS,
    DIAGONALS,
    LINES,
    LINES_THROUGH_CELL,
    MAX_VALUE,
    MIN_VALUE,
    _check_cells,
    _line_points,
)
from .tables import get_table

VALUES_FILE = Path(__file__).with_name("coach_values.json")

#: Tables whose combinations depend on the order of the cells in a line.
POSITIONAL = frozenset({"contiguous"})

_VALUES = tuple(range(MIN_VALUE, MAX_VALUE + 1))
#: Each line's cells read in one call (a tuple, in the line's order).
_LINE_GETTERS = tuple(itemgetter(*line) for line in LINES)
_LETTERS = "abcde"


# --- line abstraction ----------------------------------------------------------


def _straight_windows(filled: Sequence[int], remaining: Sequence[int]) -> int:
    """Straights (5 consecutive values, 1 low only) still reachable by a line
    holding the distinct values ``filled``, with every missing value unseen."""
    low, high = min(filled), max(filled)
    if high - low > 4:
        return 0
    windows = 0
    for start in range(max(1, high - 4), min(low, 9) + 1):
        if all(remaining[v] > 0 or v in filled for v in range(start, start + 5)):
            windows += 1
    return windows


def _sorted_straights(line: Sequence[int | None], remaining: Sequence[int]) -> int:
    """Sorted straights (+1 or -1 at every step) still reachable by ``line``."""
    ways = 0
    for step in (1, -1):
        base = None
        ok = True
        for i, v in enumerate(line):
            if v is None:
                continue
            b = v - step * i
            if base is None:
                base = b
            elif b != base:
                ok = False
                break
        if not ok or base is None:
            continue
        if not (MIN_VALUE <= base <= MAX_VALUE and MIN_VALUE <= base + 4 * step <= MAX_VALUE):
            continue
        if all(line[i] is not None or remaining[base + step * i] > 0 for i in range(len(line))):
            ways += 1
    return ways


def _stage(empty_cells: int) -> int:
    return empty_cells // 4


def _relevant_values(table: str, line: Sequence[int | None]) -> tuple[int, ...]:
    """The values whose unseen copies (capped at the line's empty cells) decide
    ``line_keys`` of this line, whatever the rest of the deck holds."""
    filled = {v for v in line if v is not None}
    relevant = set(filled)
    if filled and len(filled) == sum(v is not None for v in line):
        low, high = min(filled), max(filled)
        if high - low <= 4:
            relevant.update(range(max(MIN_VALUE, high - 4), min(MAX_VALUE, low + 4) + 1))
    if table == "matematico" and filled <= {1, 10, 11, 12, 13}:
        relevant.update((1, 10, 11, 12, 13))
    return tuple(sorted(relevant))


def line_keys(
    table: str, line: Sequence[int | None], remaining: Sequence[int], empty_cells: int
) -> tuple[str, str]:
    """The fine and the coarse abstraction of a line that is not full.

    ``remaining`` counts the unseen copies of each value (index 1..13);
    ``empty_cells`` is how many cells of the whole board are still empty.
    """
    filled = [v for v in line if v is not None]
    empties = 5 - len(filled)
    if not filled:
        return f"E{_stage(empty_cells)}", "E"
    matematico = table == "matematico"
    if table in POSITIONAL:
        labels: dict[int, str] = {}
        pattern = []
        for v in line:
            if v is None:
                pattern.append("_")
            else:
                if v not in labels:
                    labels[v] = _LETTERS[len(labels)]
                pattern.append(labels[v])
        shape = "".join(pattern)
        avail = "".join(str(min(remaining[v], empties)) for v in labels)
        extra = str(_sorted_straights(line, remaining))
        distinct = len(labels) == len(filled)
    else:
        counts: dict[int, int] = {}
        for v in filled:
            counts[v] = counts.get(v, 0) + 1
        groups = sorted(
            (
                (c, min(remaining[v], empties), int(matematico and v == 1))
                for v, c in counts.items()
            ),
            reverse=True,
        )
        shape = "".join(f"{c}{o}" for c, _, o in groups) + str(empties)
        avail = "".join(str(r) for _, r, _ in groups)
        distinct = len(counts) == len(filled)
        extra = ""
        if matematico:
            special = 0
            if distinct and all(v in (1, 10, 11, 12, 13) for v in filled):
                if all(remaining[v] > 0 for v in (1, 10, 11, 12, 13) if v not in counts):
                    special = 1
            ones, thirteens = counts.get(1, 0), counts.get(13, 0)
            if (
                ones + thirteens == len(filled)
                and ones <= 3
                and thirteens <= 2
                and remaining[1] >= 3 - ones
                and remaining[13] >= 2 - thirteens
            ):
                special += 2
            extra = str(special)
    straights = _straight_windows(filled, remaining) if distinct else 0
    coarse = f"{shape}/{min(straights, 1)}{extra}"
    fine = f"{shape}/{avail}/{straights}{extra}/{_stage(empty_cells)}"
    return fine, coarse


# --- the value model -------------------------------------------------------------

_Reads = tuple[Callable[[Sequence[int]], object], tuple[int, ...], tuple[int, ...], int]


class Model:
    """Learned line values of one table: ``fine`` and ``coarse`` map an
    abstraction to ``(expected final line score, probability it scores)``."""

    def __init__(
        self,
        table: str,
        fine: dict[str, tuple[float, float]] | None = None,
        coarse: dict[str, tuple[float, float]] | None = None,
    ) -> None:
        self.table = table
        self.spec = get_table(table)
        self.compiled = _COMPILED[table]
        self.fine = fine or {}
        self.coarse = coarse or {}
        self._cache: dict[tuple[object, ...], float] = {}  # a pure function's memo
        self._shared: dict[tuple[object, ...], float] = {}  # by the counts as read
        # Per line content: the getter of the unseen counts its value reads, and
        # the values it reads capped at the line's empty cells / only whether
        # one is unseen, and the line's empty cells.
        self._relevant: dict[tuple[object, ...], _Reads] = {}
        self.rollout_memo: dict[object, coach_rollout.Entry] = {}
        self._splits: dict[tuple[object, ...], tuple[frozenset[int], frozenset[int]]] = {}
        # The abstraction as tuples (order-free tables): a miss costs a few
        # tuple operations instead of ``line_keys``' strings.
        self.lines = (
            None
            if table in POSITIONAL
            else coach_keys.Lines(
                table == "matematico",
                self.fine,
                self.coarse,
                partial(_line_points, self.compiled),
                self.compiled.diagonal_bonus,
            )
        )

    def relevant_split(self, line: Sequence[int | None]) -> tuple[frozenset[int], frozenset[int]]:
        """The values whose unseen counts this line's learned value reads:
        ``(counted, present)`` -- of the first it reads the count up to the
        line's empty cells (``line_keys``: pairs and more, the special hands'
        1s and 13s), of the second only whether one is still unseen (straights,
        the 1-10-11-12-13 hand)."""
        key = tuple(line)
        split = self._splits.get(key)
        if split is None:
            filled = {v for v in line if v is not None}
            counted = set(filled)
            if self.table == "matematico" and filled and filled <= {1, 13}:
                counted |= {1, 13}
            present = set(_relevant_values(self.table, line)) - counted if filled else set()
            if len(self._splits) > 200_000:
                self._splits.clear()
            split = self._splits[key] = (frozenset(counted), frozenset(present))
        return split

    def direct_value(
        self,
        line_index: int,
        line: tuple[int | None, ...],
        remaining: Sequence[int],
        empty_cells: int,
    ) -> float:
        """``line_value`` without its memos (for callers that keep their own)."""
        lines = self.lines
        if None not in line:
            return self.line_value(line_index, line, remaining, empty_cells)
        if lines is not None:
            return lines.value(line_index in DIAGONALS, line, remaining, empty_cells)
        bonus = self.compiled.diagonal_bonus if line_index in DIAGONALS else 0
        fine, coarse = line_keys(self.table, line, remaining, empty_cells)
        found = self.fine.get(fine) or self.coarse.get(coarse)
        if found is None:
            points = _line_points(self.compiled, *line)
            return float(points + bonus) if points else 0.0
        mean, scoring = found
        return mean + bonus * scoring

    def line_value(
        self,
        line_index: int,
        line: Sequence[int | None],
        remaining: Sequence[int],
        empty_cells: int,
    ) -> float:
        bonus = self.compiled.diagonal_bonus if line_index in DIAGONALS else 0
        filled = tuple(line)
        if None not in filled:
            points = _line_points(self.compiled, *filled)
            return float(points + bonus) if points else 0.0
        reads = self._relevant.get(filled)
        if reads is None:
            counted, present = self.relevant_split(filled)
            both = sorted(counted | present)
            reads = self._relevant[filled] = (
                itemgetter(*both) if both else _nothing,
                tuple(sorted(counted)),
                tuple(sorted(present)),
                filled.count(None),
            )
        # Two memos: the first keyed by the raw unseen counts the value reads
        # (cheap to build: the look-ahead's repeated calls hit it), the second
        # by those counts exactly as the abstraction reads them
        # (``relevant_split``: capped at the line's empty cells, or only whether
        # one is unseen), so positions that differ only in what the value
        # ignores share an entry (the rollouts' new positions mostly hit it).
        raw_getter, counted_values, present_values, empties = reads
        stage = empty_cells // 4
        raw_key = (bonus, filled, stage, raw_getter(remaining))
        cache = self._cache
        value = cache.get(raw_key)
        if value is not None:
            return value
        shared_key = (
            bonus,
            filled,
            stage,
            *[min(remaining[v], empties) for v in counted_values],
            *[remaining[v] > 0 for v in present_values],
        )
        shared = self._shared
        value = shared.get(shared_key)
        if value is None:
            if self.lines is not None:
                value = self.lines.value(bool(bonus), filled, remaining, empty_cells)
            else:
                fine, coarse = line_keys(self.table, filled, remaining, empty_cells)
                found = self.fine.get(fine) or self.coarse.get(coarse)
                if found is None:
                    points = _line_points(self.compiled, *filled)
                    value = float(points + bonus) if points else 0.0
                else:
                    mean, scoring = found
                    value = mean + bonus * scoring
            if len(shared) > 500_000:
                shared.clear()
            shared[shared_key] = value
        if len(cache) > 500_000:
            cache.clear()
        cache[raw_key] = value
        return value


def _nothing(remaining: Sequence[int]) -> tuple[()]:
    return ()


def _load_models() -> dict[str, Model]:
    data = json.loads(VALUES_FILE.read_text(encoding="utf-8")) if VALUES_FILE.exists() else {}
    models = {}
    for name, tables in data.get("tables", {}).items():
        models[name] = Model(
            name,
            {k: tuple(v) for k, v in tables["fine"].items()},
            {k: tuple(v) for k, v in tables["coarse"].items()},
        )
    return models


@lru_cache(maxsize=1)
def _models() -> dict[str, Model]:
    return _load_models()


def model_for(table: str) -> Model:
    get_table(table)
    return _models().get(table) or Model(table)


# --- the position --------------------------------------------------------------


def _remaining(table: str, seen: Sequence[int], extra: Sequence[int] = ()) -> list[int]:
    """Unseen copies of each value 1..13 (index 0 counts unseen jokers)."""
    spec = get_table(table)
    if isinstance(seen, str | bytes) or not isinstance(seen, Sequence):
        raise ValueError("seen must be a list of the cards dealt so far")
    remaining = [spec.jokers] + [spec.copies] * spec.values
    for card in (*seen, *extra):
        if type(card) is not int or not 0 <= card <= MAX_VALUE:
            raise ValueError(f"seen: expected cards 0..13 (0 = joker), got {card!r}")
        if card == JOKER and spec.jokers == 0:
            raise ValueError(f"seen: the {table} deck has no jokers")
        remaining[card] = max(0, remaining[card] - 1)
    return remaining


class _Position:
    """A board under evaluation: lines, their values, and cheap deltas."""

    def __init__(self, model: Model, cells: list[int | None], remaining: list[int]) -> None:
        self.model = model
        self.cells = cells
        self.remaining = remaining
        self.empty = cells.count(None)

    def line(self, index: int) -> tuple[int | None, ...]:
        values: tuple[int | None, ...] = _LINE_GETTERS[index](self.cells)
        return values

    def line_values(self, empty_cells: int) -> list[float]:
        value = self.model.line_value
        return [value(i, self.line(i), self.remaining, empty_cells) for i in range(len(LINES))]

    def total(self) -> float:
        return sum(self.line_values(self.empty))

    def deltas(self, value: int, base: list[float], empty_after: int) -> dict[int, float]:
        """For every empty cell, the change of the board value when ``value`` goes there."""
        cells = self.cells
        line_value = self.model.line_value
        remaining = self.remaining
        result = {}
        for cell in range(CELLS):
            if cells[cell] is not None:
                continue
            cells[cell] = value
            delta = 0.0
            for li in LINES_THROUGH_CELL[cell]:
                line = _LINE_GETTERS[li](cells)
                delta += line_value(li, line, remaining, empty_after) - base[li]
            cells[cell] = None
            result[cell] = delta
        return result


def _best(deltas: dict[int, float]) -> tuple[int, float]:
    best_cell, best = -1, float("-inf")
    for cell, delta in deltas.items():  # ascending cells: ties go to the first
        if delta > best + 1e-9:
            best_cell, best = cell, delta
    return best_cell, best


def _ranked(deltas: dict[int, float]) -> list[int]:
    return sorted(deltas, key=lambda cell: (-round(deltas[cell], 9), cell))


def _lookahead(position: _Position, cell: int, value: int) -> float:
    """Expected board value after ``value`` goes to ``cell`` and the best reply
    to the next card (averaged over the unseen cards)."""
    cells = position.cells
    remaining = position.remaining
    cells[cell] = value
    try:
        empty = cells.count(None)
        if empty == 0:
            return position.total()
        unseen_numbers = sum(remaining[1:])
        if unseen_numbers == 0:
            return sum(position.line_values(empty))
        expected = 0.0
        for nxt in _VALUES:
            copies = remaining[nxt]
            if not copies:
                continue
            remaining[nxt] -= 1
            base = position.line_values(empty - 1)
            _, best = _best(position.deltas(nxt, base, empty - 1))
            expected += copies * (sum(base) + best)
            remaining[nxt] += 1
        return expected / unseen_numbers
    finally:
        cells[cell] = None


def _check_card(card: object) -> int:
    if type(card) is not int or not MIN_VALUE <= card <= MAX_VALUE:
        raise ValueError(f"card: expected a number 1..13, got {card!r}")
    return card


def _board(cells: Sequence[int | None]) -> list[int | None]:
    board = _check_cells(cells, CELLS, "a board")
    if None not in board:
        raise ValueError("the board is full: there is no empty cell")
    return board


def _deep(position: _Position, cell: int, value: int) -> float:
    """Two cards ahead: ``value`` goes to ``cell``; for every next card (weighted
    by its unseen copies) the reply the static value prefers is judged by the
    one-card look-ahead (``_lookahead``) -- an expectimax with the reply pruned
    to the static favourite."""
    cells = position.cells
    remaining = position.remaining
    cells[cell] = value
    try:
        empty = cells.count(None)
        unseen_numbers = sum(remaining[1:])
        if empty <= 1 or unseen_numbers == 0:
            cells[cell] = None
            return _lookahead(position, cell, value)
        expected = 0.0
        for nxt in _VALUES:
            copies = remaining[nxt]
            if not copies:
                continue
            remaining[nxt] -= 1
            base = position.line_values(empty - 1)
            reply, _ = _best(position.deltas(nxt, base, empty - 1))
            expected += copies * _lookahead(position, reply, nxt)
            remaining[nxt] += 1
        return expected / unseen_numbers
    finally:
        cells[cell] = None


@dataclass(frozen=True)
class Search:
    """How hard the coach looks ahead (a budget, not a clock: the same position
    always gets the same answer).

    ``cells``: how many of the best cells by the static value get the one-card
    look-ahead; ``deep``: a budget of cell evaluations for the two-card look-ahead
    (``_deep``) of the best of those -- at least two cells get it when the budget
    is not 0, more as the board fills and each costs less; ``rollouts``: a
    budget of rollout placements (``coach_rollout``) that judges the best
    ``cells`` cells for a number instead of the look-ahead (jokers keep it);
    ``rounds``: 1 splits the rollouts evenly among those cells, more plays them
    in rounds and drops a clearly worse cell after each (``coach_rollout.judge``)."""

    cells: int = 3
    deep: int = 0
    rollouts: int = 0
    rounds: int = 1
    #: Rollouts judge a number only while the empty cells left after it are
    #: within ``[rollout_to, rollout_from]``; outside, the look-ahead does (at
    #: the first cards a rollout is long and its few futures are noisy; with one
    #: cell left the look-ahead is exact).
    rollout_from: int = CELLS - 1
    rollout_to: int = 1
    #: A rollout plays at most this many cards (0: to the end) and then counts
    #: the board's learned value instead of its exact score: more, shorter
    #: futures at the first cards, where the far future is mostly noise.
    horizon: int = 0

    def deep_cells(self, empty: int) -> int:
        if not self.deep or empty < 2:
            return 0
        # One two-card look-ahead evaluates about 13 * 14 * empty cells; two
        # at least, or it could not change the choice.
        return max(2, self.deep // (182 * empty))


#: The coach before issue 42: one card ahead for the best 3 cells (about 10 ms
#: a decision). The review and the tests use it; it stays the default.
QUICK = Search()
#: The two-card search of issue 42: one card ahead for the best 6 cells, two
#: cards ahead for the best of them (CPU p95 178 ms on the busy 2-core machine,
#: see bench/RESULTS-poker-coach.md).
STRONG = Search(cells=6, deep=4_400)
#: The rollout coach of issue 42 (``coach_rollout``): the best 3 cells by the
#: static value, each judged by the coach's static policy played to the end
#: over the same sampled futures, 1,500 rollout placements a decision (750 in
#: cell order), split evenly.
ROLLOUT = Search(cells=3, rollouts=1_500)
#: The search of the live callers (hint, robot, coach seat). Measured on 100
#: fresh matematico decks, STRONG scored +1.6 ± 7.3 over QUICK for about 9x the
#: CPU; ROLLOUT +24.0 ± 8.0 on 120 decks (school, contiguous about +36 on 12),
#: but at a CPU p95 of 217-235 ms on the busy machine (contiguous 578 ms), over
#: the 200 ms budget (bench/RESULTS-poker-coach.md; with the cheaper rollouts of
#: the fourth pass 174-242 ms on matematico, contiguous still far over). The
#: callers stay on QUICK until a search measurably wins within 200 ms p95 (and
#: reaches 66 % of the clairvoyant bound); switching is this line.
LIVE = QUICK


def _choose_value_cell(
    model: Model,
    board: list[int | None],
    remaining: list[int],
    values: Sequence[int],
    search: Search = QUICK,
) -> tuple[int, int, float]:
    """Best (cell, value) for one of ``values`` placed now, with the look-ahead;
    returns its expected board value too."""
    empty_after = board.count(None) - 1
    if (
        search.rollouts
        and len(values) == 1
        and max(1, search.rollout_to) <= empty_after <= search.rollout_from
    ):
        return _rollout_cell(model, board, remaining, values[0], search)
    candidates: list[tuple[float, int, int]] = []
    for value in values:
        # The value in hand is no longer in the deck.
        position = _Position(model, board, remaining)
        base = position.line_values(empty_after)
        deltas = position.deltas(value, base, empty_after)
        total = sum(base)
        for cell in _ranked(deltas)[: search.cells]:
            candidates.append((total + deltas[cell], cell, value))
    if empty_after == 0 or len(candidates) == 1:
        static, cell, value = max(candidates, key=lambda c: (round(c[0], 9), -c[1], -c[2]))
        return cell, value, static
    candidates.sort(key=lambda c: (-round(c[0], 9), c[1], c[2]))
    if len(values) > 1:
        candidates = candidates[: search.cells]
    position = _Position(model, board, remaining)
    judged = [(_lookahead(position, cell, value), cell, value) for _, cell, value in candidates]
    # Stable sorts: equal expectations keep the static value's order.
    judged.sort(key=lambda c: -round(c[0], 9))
    deep = search.deep_cells(empty_after)
    if deep and len(judged) > 1:
        judged = [(_deep(position, cell, value), cell, value) for _, cell, value in judged[:deep]]
        judged.sort(key=lambda c: -round(c[0], 9))
    expected, cell, value = judged[0]
    return cell, value, expected


def _rollout_cell(
    model: Model, board: list[int | None], remaining: list[int], value: int, search: Search
) -> tuple[int, int, float]:
    """The rollout coach's cell for the number ``value`` (see ``coach_rollout``)."""
    empty_after = board.count(None) - 1
    position = _Position(model, board, remaining)
    base = position.line_values(empty_after)
    deltas = position.deltas(value, base, empty_after)
    ranked = _ranked(deltas)[: search.cells]
    if len(ranked) == 1:
        return ranked[0], value, sum(base) + deltas[ranked[0]]
    ordered = model.table in POSITIONAL
    judged = coach_rollout.judge(
        model,
        ordered=ordered,
        board=board,
        card=value,
        remaining=remaining,
        candidates=ranked,
        # A placement in cell order values every free cell's lines: about twice the work.
        budget=search.rollouts // 2 if ordered else search.rollouts,
        rounds=search.rounds,
        horizon=search.horizon,
    )
    expected, cell = judged[0]
    return cell, value, expected


# --- public API ----------------------------------------------------------------


def _check_search(search: object) -> Search:
    if not isinstance(search, Search):
        raise ValueError(f"search: expected a coach.Search, got {search!r}")
    return search


def choose_cell(
    cells: Sequence[int | None],
    card: int,
    *,
    table: str,
    seen: Sequence[int],
    search: Search = QUICK,
) -> int:
    """The coach's empty cell for the number ``card`` in hand.

    ``seen`` is every card dealt before this one in this game (jokers as 0);
    ``search`` how far it looks ahead (``QUICK``, ``STRONG`` or ``ROLLOUT``).
    Deterministic: the same arguments always give the same cell.
    """
    model = model_for(table)
    board = _board(cells)
    value = _check_card(card)
    search = _check_search(search)
    remaining = _remaining(table, seen, (value,))
    cell, _, _ = _choose_value_cell(model, board, remaining, (value,), search)
    return cell


#: A joker is kept unless using it now raises the expected score by this much
#: (points), or no free cell can be spared for it any more.
JOKER_USE_GAIN = 40.0


class JokerChoice(TypedDict, total=False):
    """``choose_joker``'s answer: ``use`` (with the cell and value) or ``keep``."""

    action: Required[str]
    cell: int
    value: int


def choose_joker(
    cells: Sequence[int | None],
    *,
    table: str,
    seen: Sequence[int],
    kept: int,
    search: Search = QUICK,
) -> JokerChoice:
    """Use a joker now (``{"action": "use", "cell": c, "value": v}``) or keep it
    (``{"action": "keep"}``).

    Asked for the joker in hand (``kept`` = jokers already in the reserve) or
    for a kept joker between cards (then ``kept`` counts the *other* kept
    jokers). ``seen`` is every card dealt so far except a joker in hand;
    ``search`` how far the placement looks ahead (keeping is judged statically).
    """
    model = model_for(table)
    board = _board(cells)
    search = _check_search(search)
    if type(kept) is not int or kept < 0:
        raise ValueError(f"kept must be a non-negative int, got {kept!r}")
    spec = get_table(table)
    if spec.jokers == 0:
        raise ValueError(f"the {table} table is played without jokers")
    remaining = _remaining(table, seen)
    free = board.count(None)
    if free > kept + 1:
        # Keeping is free: use the joker now only for a large immediate gain
        # of the static value (cheap; the look-ahead only picks where).
        position = _Position(model, board, remaining)
        base = position.line_values(free - 1)
        best = max(max(position.deltas(v, base, free - 1).values()) for v in _VALUES)
        if best < JOKER_USE_GAIN:
            return {"action": "keep"}
    cell, value, _ = _choose_value_cell(model, board, remaining, _VALUES, search)
    return {"action": "use", "cell": cell, "value": value}


def evaluate(cells: Sequence[int | None], *, table: str, seen: Sequence[int]) -> float:
    """The coach's expected final score of the position (exact for a full board)."""
    return sum(evaluate_lines(cells, table=table, seen=seen))


def evaluate_lines(cells: Sequence[int | None], *, table: str, seen: Sequence[int]) -> list[float]:
    """``evaluate`` line by line, in the canonical line order (row0..row4,
    col0..col4, main diagonal, anti-diagonal); a hint can name the line whose
    expectation a move raises most."""
    model = model_for(table)
    board = _check_cells(cells, CELLS, "a board")
    remaining = _remaining(table, seen)
    position = _Position(model, board, remaining)
    return position.line_values(position.empty)
