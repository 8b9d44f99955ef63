"""Every legal move of a position: complete, and fast enough for a web request.

The generator tries every set of empty squares a move could cover (one row or
column, no gaps, touching the old stones, or through the centre on the first
move) and every arrangement of the rack on them, but it never judges a line by
itself: each line is read by :func:`moves.counted_stretches` (which first
asks the short-example table) and :func:`moves.contact_error`, the functions :func:`moves.evaluate_move`
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
  (:data:`examples.SHORT_EXAMPLES`): a stretch of that length with old digits
  in it is matched against the short examples showing those digits on those
  squares (an index by square and digit, built at import), so only the
  arrangements that complete one are kept, without reading the others; split
  plans of longer stretches whose numbers cannot meet are dropped by their
  bounds before the solver tries any digit;
* what depends only on a line's digits (cross verdicts, the short examples a
  run can become) is remembered for the process, and the search of each of
  the last few racks is kept between calls (a rack asked about again, as in
  the strong robot's look-ahead, starts from what is known).

The order of the moves is part of the contract (robots, hints and reviews
pick from the list): ``tests/abaku/test_movegen_equivalence.py`` compares the
list element by element with the old generator, frozen as a test oracle.

Jokers are placed as every digit; a legal arrangement is then emitted once for
each way of taking its digits from the rack (real stones and jokers), scored
once with real stones and then lowered by each joker's digit times its weight.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from itertools import combinations, permutations
from threading import Lock
from typing import Any, NamedTuple

from .board import Board, Placed
from .data import BOARD_SIZE, CENTRE, JOKER
from .errors import IllegalMove
from .examples import SHORT, SHORT_EXAMPLES, is_example
from .moves import COLUMN, ROW, contact_error, counted_stretches
from .solver import solve, solve_cost

DIGITS = "0123456789"
_DIGIT_TEXT = tuple(DIGITS)
_DIGIT_VALUE = {ch: int(ch) for ch in DIGITS}
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
_Arrangement = tuple[str, list[tuple[int, int]], bool]


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
    """The board prepared for fast look-ups: digits, values, which empty squares
    touch a stone, and cross tables."""

    def __init__(self, board: Board) -> None:
        self.board = board
        size = BOARD_SIZE
        cells = board._cells
        self.digit: list[list[str | None]] = [
            [None if (s := cells[r * size + c]) is None else _DIGIT_TEXT[s[0]] for c in range(size)]
            for r in range(size)
        ]
        self.value = [
            [0 if (s := cells[r * size + c]) is None or s[1] else s[0] for c in range(size)]
            for r in range(size)
        ]
        digit = self.digit
        touch = [[False] * size for _ in range(size)]
        for r in range(size):
            row = digit[r]
            for c in range(size):
                if row[c] is None:
                    continue
                if r > 0:
                    touch[r - 1][c] = True
                if r + 1 < size:
                    touch[r + 1][c] = True
                if c > 0:
                    touch[r][c - 1] = True
                if c + 1 < size:
                    touch[r][c + 1] = True
        # an occupied square "touches" nothing: only empty squares are asked about
        for r in range(size):
            row, trow = digit[r], touch[r]
            for c in range(size):
                if row[c] is not None:
                    trow[c] = False
        self.touch = touch
        # the rows and the columns as lists of digits (None: empty)
        self.rows = digit
        self.cols = [[digit[r][c] for r in range(size)] for c in range(size)]
        self._cross: dict[tuple[int, int, tuple[int, int]], _Cross | None] = {}
        self._allowed: dict[tuple[int, int, tuple[int, int]], frozenset[str] | None] = {}

    def occupied(self, r: int, c: int) -> bool:
        return 0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE and self.digit[r][c] is not None

    def touches(self, r: int, c: int) -> bool:
        return self.touch[r][c]

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
        try:
            return self._cross[key]
        except KeyError:
            pass
        before = self.run(r, c, step, -1)[::-1]
        after = self.run(r, c, step, 1)
        table = None
        if before or after:
            prefix = "".join(self.digit[a][b] for a, b in before)  # type: ignore[misc]
            suffix = "".join(self.digit[a][b] for a, b in after)  # type: ignore[misc]
            verdicts = _cross_verdicts(prefix, suffix)
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

    def allowed(self, r: int, c: int, step: tuple[int, int]) -> frozenset[str] | None:
        """The digits the line along ``step`` allows on empty square (r, c)
        (``None``: that line has no old stone next to it, any digit)."""
        key = (r, c, step)
        try:
            return self._allowed[key]
        except KeyError:
            pass
        table = self.cross(r, c, step)
        found = (
            None
            if table is None
            else _ALLOWED_SETS[tuple(d for d in range(10) if table.allowed[d])]
        )
        self._allowed[key] = found
        return found


def _arrangements(counts: Counter[int], allowed: Sequence[frozenset[str] | None]) -> list[str]:
    """Distinct digit strings the rack can show on squares allowing ``allowed``.

    A joker stands for any digit. A real stone is used whenever the rack has one
    (a joker could only replace it), so each string is produced exactly once.
    """
    reals = {str(d): n for d, n in counts.items() if d != JOKER and n}
    jokers = counts.get(JOKER, 0)
    size = len(allowed)
    if not jokers:
        # Without a joker the strings are the distinct orderings of ``size``
        # of the rack's stones, the rack's kinds ranked by first appearance:
        # itertools gives the orderings of the stones (same kinds side by
        # side) in that order, and the first copy of each string keeps it.
        pool = [d for d, n in reals.items() for _ in range(n)]
        if size > len(pool):
            return []
        return list(dict.fromkeys(map("".join, permutations(pool, size))))
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
        self._arrangement_sets: dict[tuple[frozenset[str] | None, ...], set[str]] = {}
        self._examples: dict[int, set[str]] = {}
        self._solved: dict[tuple[object, ...], set[str]] = {}
        self._jokers: dict[str, list[tuple[bool, ...]]] = {}
        # Lines that look alike (same old digits around the same free squares,
        # the same cross restrictions) have the same legal arrangements.
        self.legal: dict[
            tuple[tuple[str | None, ...], tuple[frozenset[str] | None, ...]], list[_Arrangement]
        ] = {}

    def arrangements(self, allowed: tuple[frozenset[str] | None, ...]) -> list[str]:
        found = self._arrangements.get(allowed)
        if found is None:
            if self.jokers or all(options is None for options in allowed):
                found = _arrangements(self.counts, allowed)
            else:
                # the unrestricted list, filtered, keeps its order
                found = self.arrangements((None,) * len(allowed))
                for k, options in enumerate(allowed):
                    if options is not None:
                        found = [text for text in found if text[k] in options]
            self._arrangements[allowed] = found
        return found

    def arrangement_set(self, allowed: tuple[frozenset[str] | None, ...]) -> set[str]:
        found = self._arrangement_sets.get(allowed)
        if found is None:
            found = self._arrangement_sets[allowed] = set(self.arrangements(allowed))
        return found

    def examples(self, size: int) -> set[str]:
        """Arrangements of ``size`` stones that are an example on their own."""
        found = self._examples.get(size)
        if found is None:
            everything = self.arrangements((None,) * size)
            found = self._examples[size] = {x for x in everything if is_example(x)}
        return found

    def solve(
        self, pattern: Sequence[str | None], allowed: tuple[frozenset[str] | None, ...]
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
        self, chars: Sequence[str | None], allowed: tuple[frozenset[str] | None, ...]
    ) -> list[str]:
        """Arrangements for the free squares (``None``) of a line segment such that
        some stretch over all of them reads as an example.

        Each candidate stretch is handled the cheapest way: one of up to
        ``SHORT`` squares is looked up among the short examples that fit its old
        digits (:func:`_short_completions`); a longer one is solved
        (:mod:`solver`) when its estimated tries are fewer than arrangements ×
        stretch length (reading costs grow with the length), and read one by
        one otherwise. Every way gives exactly the arrangements that make the
        stretch an example, so the choice never changes the result.
        """
        arrangements = self.arrangements(allowed)
        if not arrangements:
            return arrangements
        slots = [p for p, ch in enumerate(chars) if ch is None]
        first, last = slots[0], slots[-1]
        n = len(chars)
        found: set[str] = set()
        scan = []
        present = None
        for i in range(first + 1):
            for j in range(max(last, i + 1), n):
                size = j + 1 - i
                if i == first and j == last and size == len(slots):
                    found.update(self.examples(size).intersection(arrangements))
                elif size <= SHORT:
                    pattern = tuple(chars[i : j + 1])
                    matches = _short_matches(pattern)
                    if not matches:
                        continue
                    if len(matches) * 2 < len(arrangements):
                        if present is None:
                            present = self.arrangement_set(allowed)
                        free = [p for p, ch in enumerate(pattern) if ch is None]
                        for text in matches:
                            shown = "".join([text[p] for p in free])
                            if shown in present:
                                found.add(shown)
                    else:
                        fmt = "".join("{}" if ch is None else ch for ch in pattern).format
                        for shown in arrangements:
                            if shown not in found and fmt(*shown) in matches:
                                found.add(shown)
                elif (
                    solve_cost(stretch := chars[i : j + 1], self.stones, self.jokers)
                    < SOLVE_BIAS * len(arrangements) * size
                ):
                    found |= self.solve(stretch, allowed)
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
        if not found:
            return []
        return [x for x in arrangements if x in found]


# Runs of up to SHORT squares with some digits known: for each length, square
# and digit, the short examples showing that digit there (built at import from
# SHORT_EXAMPLES in a few milliseconds); a run's examples are the intersection
# over its known squares, remembered per run.
_SHORT_AT: dict[int, dict[tuple[int, str], frozenset[str]]] = {}


def _index_short_examples() -> None:
    grouped: dict[int, dict[tuple[int, str], set[str]]] = {}
    for text in SHORT_EXAMPLES:
        at = grouped.setdefault(len(text), {})
        for p, ch in enumerate(text):
            at.setdefault((p, ch), set()).add(text)
    for size, at in grouped.items():
        _SHORT_AT[size] = {key: frozenset(texts) for key, texts in at.items()}


_index_short_examples()
_SHORT_PATTERNS: dict[tuple[str | None, ...], frozenset[str]] = {}
_NOTHING: frozenset[str] = frozenset()


def _short_matches(pattern: tuple[str | None, ...]) -> frozenset[str]:
    """The short examples a run of at most ``SHORT`` squares, some of them
    known (the others ``None``), can become (any digits, no rack)."""
    found = _SHORT_PATTERNS.get(pattern)
    if found is not None:
        return found
    at = _SHORT_AT.get(len(pattern), {})
    known = sorted(
        (at.get((p, ch), _NOTHING) for p, ch in enumerate(pattern) if ch is not None), key=len
    )
    found = known[0].intersection(*known[1:])
    if len(_SHORT_PATTERNS) > _MEMO_LIMIT:
        _SHORT_PATTERNS.clear()
    _SHORT_PATTERNS[pattern] = found
    return found


# Module-wide memos of pure functions of a line's digits are emptied when they
# grow past this many entries (a long-running server sees many boards).
_MEMO_LIMIT = 1 << 16
_VERDICTS: dict[tuple[str, str], list[tuple[bool, list[tuple[int, int]]]]] = {}


def _cross_verdicts(prefix: str, suffix: str) -> list[tuple[bool, list[tuple[int, int]]]]:
    """For a new stone between old digits ``prefix`` and ``suffix`` (one line),
    per digit 0-9: whether the contacts are legal, and the counted stretches."""
    key = (prefix, suffix)
    verdicts = _VERDICTS.get(key)
    if verdicts is not None:
        return verdicts
    new = [False] * len(prefix) + [True] + [False] * len(suffix)
    verdicts = []
    for d in DIGITS:
        digits = prefix + d + suffix
        counted = counted_stretches(digits, new)
        ok = contact_error(digits, new, counted) is None
        verdicts.append((ok, [(i, j) for i, j, _ in counted]))
    if len(_VERDICTS) > _MEMO_LIMIT:
        _VERDICTS.clear()
    _VERDICTS[key] = verdicts
    return verdicts


class _AllowedSets(dict[Any, Any]):
    """Allowed digit sets by the digits (as numbers) they hold, each made once."""

    def __missing__(self, key: tuple[int, ...]) -> frozenset[str]:
        found = self[key] = frozenset(DIGITS[d] for d in key)
        return found


_ALLOWED_SETS = _AllowedSets()


def all_moves(board: Board, rack: Sequence[int]) -> list[Move]:
    """Every legal move placing stones from ``rack`` on ``board``, with its score.

    ``rack`` lists stone kinds: digits 0-9 and ``JOKER``. A joker appears once
    for every digit it may show. Each move is exactly what :func:`evaluate_move`
    accepts, with the same score; moves are in a fixed order for a given input.
    """
    counts = _check_rack(rack)
    if not counts:
        return []
    return _generate(_Position(board), counts, _search_for(counts), None)


# The searches of the last few racks, kept between calls: what a search learns
# depends only on the rack (its kinds in order of first appearance) and on line
# patterns, so the same rack on another board (the robot's look-ahead, a hint
# and then the review of the same turn) starts from what is known.
_SEARCHES: OrderedDict[tuple[tuple[int, int], ...], _Search] = OrderedDict()
_SEARCHES_KEPT = 8
# a kept search forgets its lines when it has judged this many
_SEARCH_LINES = 40_000
_SEARCHES_LOCK = Lock()


def _search_for(counts: Counter[int]) -> _Search:
    key = tuple(counts.items())
    with _SEARCHES_LOCK:
        search = _SEARCHES.get(key)
        if search is None or len(search.legal) > _SEARCH_LINES:
            search = _SEARCHES[key] = _Search(counts)
            if len(_SEARCHES) > _SEARCHES_KEPT:
                _SEARCHES.popitem(last=False)
        else:
            _SEARCHES.move_to_end(key)
    return search


def clear_searches() -> None:
    """Forget the kept searches of earlier racks."""
    with _SEARCHES_LOCK:
        _SEARCHES.clear()


def clear_caches() -> None:
    """Forget everything kept between calls (as in a fresh process): the kept
    searches and the memos of line verdicts and short examples."""
    with _SEARCHES_LOCK:
        _SEARCHES.clear()
    _VERDICTS.clear()
    _SHORT_PATTERNS.clear()


def _generate(
    pos: _Position,
    counts: Counter[int],
    search: _Search,
    lines: tuple[set[int], set[int]] | None,
) -> list[Move]:
    """The moves on every line, or only on the given (rows, columns)."""
    moves: list[Move] = []
    board = pos.board
    if not board.is_empty:
        _single_stone_moves(pos, counts, moves, lines)
    max_stones = sum(counts.values())
    rows, cols = (None, None) if lines is None else lines
    for step, chosen in ((ROW, rows), (COLUMN, cols)):
        for line in range(BOARD_SIZE) if chosen is None else sorted(chosen):
            if board.is_empty and line != (CENTRE[0] if step == ROW else CENTRE[1]):
                continue
            _line_moves(pos, search, step, line, max_stones, moves)
    return moves


def _square(step: tuple[int, int], line: int, k: int) -> tuple[int, int]:
    return (line, k) if step == ROW else (k, line)


def _slot_sets(
    pos: _Position, step: tuple[int, int], line: int, max_stones: int
) -> list[list[int]]:
    """Sets of two or more empty squares of one line a move could cover: each is
    the first few empty squares from some empty square on, so there is no gap."""
    chars = pos.rows[line] if step == ROW else pos.cols[line]
    sets = []
    for start in range(BOARD_SIZE):
        if chars[start] is not None:
            continue
        slots: list[int] = []
        for k in range(start, BOARD_SIZE):
            if chars[k] is None:
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
    touch = pos.touch
    for r in range(BOARD_SIZE):
        trow = touch[r]
        for c in range(BOARD_SIZE):
            if not trow[c]:
                continue
            if lines is not None and r not in lines[0] and c not in lines[1]:
                continue
            tables = [t for t in (pos.cross(r, c, ROW), pos.cross(r, c, COLUMN)) if t]
            for d in range(10):
                if not all(t.allowed[d] for t in tables):
                    continue
                if not any(t.examples[d] for t in tables):
                    continue
                if counts.get(d, 0):
                    score = sum(t.points(d, d) for t in tables)
                    moves.append(_new_move((_new_placed((r, c, d, False)),), score))
                if jokers:
                    score = sum(t.points(d, 0) for t in tables)
                    moves.append(_new_move((_new_placed((r, c, d, True)),), score))


def _new_move(placed: tuple[Placed, ...], score: int) -> Move:
    return _tuple_new(Move, (placed, score))


def _new_placed(fields: tuple[int, int, int, bool]) -> Placed:
    return _tuple_new(Placed, fields)


_tuple_new = tuple.__new__


def _line_moves(
    pos: _Position,
    search: _Search,
    step: tuple[int, int],
    line: int,
    max_stones: int,
    moves: list[Move],
) -> None:
    """All moves of two or more stones on one line, slot set by slot set (in
    the order of :func:`_slot_sets`)."""
    chars = pos.rows[line] if step == ROW else pos.cols[line]
    row = step == ROW
    across = COLUMN if row else ROW
    first_move = pos.board.is_empty
    touch = pos.touch
    touching = [
        chars[k] is None and (touch[line][k] if row else touch[k][line]) for k in range(BOARD_SIZE)
    ]
    allowed_at: list[Any] = [None] * BOARD_SIZE
    allowed_known = [False] * BOARD_SIZE
    last = BOARD_SIZE - 1
    for start in range(BOARD_SIZE):
        if chars[start] is not None:
            continue
        slots: list[int] = []
        touched = False
        for k in range(start, BOARD_SIZE):
            if chars[k] is not None:
                continue
            slots.append(k)
            touched = touched or touching[k]
            if len(slots) >= 2:
                if first_move:
                    ok = CENTRE[1] in slots if row else CENTRE[0] in slots
                else:
                    ok = touched
                if ok:
                    for q in slots:
                        if not allowed_known[q]:
                            allowed_at[q] = (
                                pos.allowed(line, q, across)
                                if row
                                else pos.allowed(q, line, across)
                            )
                            allowed_known[q] = True
                    allowed = tuple([allowed_at[q] for q in slots])
                    if not any(a is not None and not a for a in allowed):
                        lo = slots[0]
                        while lo > 0 and chars[lo - 1] is not None:
                            lo -= 1
                        hi = k
                        while hi < last and chars[hi + 1] is not None:
                            hi += 1
                        _moves_on(pos, search, row, line, lo, hi, slots, allowed, moves)
            if len(slots) == max_stones:
                break


def _moves_on(
    pos: _Position,
    search: _Search,
    row: bool,
    line: int,
    lo: int,
    hi: int,
    slots: list[int],
    allowed: tuple[frozenset[str] | None, ...],
    moves: list[Move],
) -> None:
    """All moves covering exactly the empty squares ``slots`` of one line, whose
    segment of occupied squares after the move is ``lo``..``hi``."""
    chars = pos.rows[line] if row else pos.cols[line]
    seg_chars = tuple(chars[lo : hi + 1])
    key = (seg_chars, allowed)
    legal = search.legal.get(key)
    if legal is None:
        legal = search.legal[key] = _legal_arrangements(search, seg_chars, allowed)
    if not legal:
        return
    board = pos.board
    across = COLUMN if row else ROW
    if row:
        cells = [(line, k) for k in slots]
        seg_values = pos.value[line][lo : hi + 1]
    else:
        cells = [(k, line) for k in slots]
        seg_values = [pos.value[k][line] for k in range(lo, hi + 1)]
    crosses = [pos.cross(r, c, across) for r, c in cells]
    slot_index = [k - lo for k in slots]
    size = hi + 1 - lo
    digit_mult = [1] * size
    example_mult = [1] * size
    for (r, c), index in zip(cells, slot_index, strict=True):
        digit_mult[index], example_mult[index] = board.multipliers(r, c)
    first_move = board.is_empty
    # per counted span: the old stones' points, the example multiplier, and
    # the (slot, digit multiplier) of the new stones in it
    spans: dict[tuple[int, int], tuple[int, int, list[tuple[int, int]]]] = {}
    count = len(slots)
    cross_weight = [0] * count
    for k, cross in enumerate(crosses):
        if cross is not None:
            cross_weight[k] = cross.digit_mult * cross.example_mult
    for shown, counted, joins_old in legal:
        digits = [_DIGIT_VALUE[ch] for ch in shown]
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
        weight = [0] * count
        score = 0
        for i, j in counted:
            span = spans.get((i, j))
            if span is None:
                # old stones have multipliers 1; empty squares have value 0
                old = sum(seg_values[i : j + 1])
                factor = 1
                for q in range(i, j + 1):
                    factor *= example_mult[q]
                inside = [
                    (k, digit_mult[index]) for k, index in enumerate(slot_index) if i <= index <= j
                ]
                span = spans[(i, j)] = (old, factor, inside)
            old, factor, inside = span
            total = old
            for k, dm in inside:
                total += digits[k] * dm
                weight[k] += dm * factor
            score += total * factor
        for k, cross in enumerate(crosses):
            if cross is not None:
                d = digits[k]
                score += cross.points(d, d)
                weight[k] += cross.examples[d] * cross_weight[k]
        for jokers in search.joker_choices(shown):
            placed = tuple(
                [
                    _tuple_new(Placed, (cell[0], cell[1], d, joker))
                    for cell, d, joker in zip(cells, digits, jokers, strict=True)
                ]
            )
            lost = 0
            for d, w, joker in zip(digits, weight, jokers, strict=True):
                if joker:
                    lost += d * w
            moves.append(_tuple_new(Move, (placed, score - lost)))


def _legal_arrangements(
    search: _Search,
    chars: tuple[str | None, ...],
    allowed: tuple[frozenset[str] | None, ...],
) -> list[_Arrangement]:
    """The digit strings for the new stones that make the move's own line legal,
    with the stretches that then count there and whether one of them holds an
    old stone."""
    legal: list[_Arrangement] = []
    covering = search.covering(chars, allowed)
    if not covering:
        return legal
    new = [ch is None for ch in chars]
    template = "".join("{}" if ch is None else ch for ch in chars)
    fmt = template.format
    for shown in covering:
        digits = fmt(*shown)
        counted = counted_stretches(digits, new)
        if not contact_error(digits, new, counted):
            joins_old = any(not all(new[i : j + 1]) for i, j, _ in counted)
            legal.append((shown, [(i, j) for i, j, _ in counted], joins_old))
    return legal
