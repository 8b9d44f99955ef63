"""The coach's advice for players: a hint for the card in hand, with one sentence why.

Calls only the public API of the pure coach (``games.poker.rules.coach``):
``choose_cell``, ``choose_joker`` and ``evaluate_lines``. Where hints are
allowed (easy solo games and the scoresheet, never ranked, daily, group or
duel) is decided by the callers in ``services``/``views``; this module only
explains a position.
"""

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .rules import JOKER, LINES, get_table
from .rules.coach import LIVE, Search, choose_cell, choose_joker, evaluate_lines

#: A gain below this is no gain (the coach's line values are floats).
GAIN = 1e-9

# Czech and Slovak put a line in a different case in each sentence ("pomůže
# hlavní úhlopříčce", "hlavní úhlopříčka ztratí"), so a sentence never takes
# the bare label: each slot has its own translation context. The contexts are
# written out as literals at each call: the message extractor only sees those.


def line_label(index: int) -> str:
    """A line in words: "row 2", "column 4", "the main diagonal"."""
    if index < 5:
        return _("row %(number)d") % {"number": index + 1}
    if index < 10:
        return _("column %(number)d") % {"number": index - 4}
    if index == 10:
        return _("the main diagonal")
    return _("the anti-diagonal")


def helped_line(index: int) -> str:
    """The line as the object of "it helps …" (dative in Czech and Slovak)."""
    if index < 5:
        return pgettext("coach: the line a move helps", "row %(number)d") % {"number": index + 1}
    if index < 10:
        return pgettext("coach: the line a move helps", "column %(number)d") % {"number": index - 4}
    if index == 10:
        return pgettext("coach: the line a move helps", "the main diagonal")
    return pgettext("coach: the line a move helps", "the anti-diagonal")


def cell_label(cell: int) -> str:
    return _("row %(row)d, column %(column)d") % {"row": cell // 5 + 1, "column": cell % 5 + 1}


def target_cell(cell: int) -> str:
    """The cell as the place a number goes to ("na pole ve 2. řádku a 3. sloupci")."""
    return pgettext("coach: the cell a number goes to", "row %(row)d, column %(column)d") % {
        "row": cell // 5 + 1,
        "column": cell % 5 + 1,
    }


def line_gains(
    cells: Sequence[int | None], cell: int, value: int, *, table: str, seen: Sequence[int]
) -> dict[int, float]:
    """How much ``value`` at ``cell`` changes the coach's expected score of each
    line through that cell (positive: the move builds the line)."""
    before = evaluate_lines(cells, table=table, seen=seen)
    after_cells = list(cells)
    after_cells[cell] = value
    after = evaluate_lines(after_cells, table=table, seen=seen)
    return {index: after[index] - before[index] for index, line in enumerate(LINES) if cell in line}


#: Why a number serves a line, judged from the cards alone (never from the
#: coach's values): it matches a number already in the line, a straight is
#: still possible there, or (matematico) a special hand is.
MATCH, STRAIGHT, HIGH_HAND, ONES_THIRTEENS = "match", "straight", "high_hand", "ones_thirteens"
#: Only the numbers 1, 10, 11, 12, 13: matematico's 150-point hand.
HIGH_VALUES = frozenset({1, 10, 11, 12, 13})


def unseen_counts(table: str, seen: Sequence[int]) -> list[int]:
    """Unseen copies of each number 1..13 (index 0 unused)."""
    spec = get_table(table)
    counts = [0] + [spec.copies] * spec.values
    for card in seen:
        if card != JOKER:
            counts[card] = max(0, counts[card] - 1)
    return counts


def serves(table: str, others: Sequence[int], value: int, unseen: Sequence[int]) -> str | None:
    """Why ``value`` serves a line already holding ``others`` (the numbers of its
    other cells; the rest empty), or None: the reason comes from the cards alone."""
    if value in others:
        return MATCH
    held = {*others, value}
    if len(held) == len(others) + 1:  # all different: a straight may still come
        for low in range(1, 10):  # 1 is low only: 1-5 .. 9-13
            window = range(low, low + 5)
            if held <= set(window) and all(v in held or unseen[v] > 0 for v in window):
                return STRAIGHT
        if table == "matematico" and held <= HIGH_VALUES:
            if all(v in held or unseen[v] > 0 for v in HIGH_VALUES):
                return HIGH_HAND
    if table == "matematico" and held <= {1, 13}:
        ones = sum(1 for v in others if v == 1) + (value == 1)
        thirteens = len(others) + 1 - ones
        if ones <= 3 and thirteens <= 2 and unseen[1] >= 3 - ones and unseen[13] >= 2 - thirteens:
            return ONES_THIRTEENS
    return None


def _placement(
    cells: Sequence[int | None], cell: int, value: int, *, table: str, seen: Sequence[int]
) -> dict[str, Any]:
    """The line a placement serves and why. The line is chosen first among those
    the number serves (``serves``), then among still empty lines it starts,
    and only then it is a parked number; the coach's line values only break
    ties between lines of the same kind."""
    gains = line_gains(cells, cell, value, table=table, seen=seen)
    unseen = unseen_counts(table, seen)
    why: dict[int, str | None] = {}
    empty: dict[int, bool] = {}
    for index in gains:
        others = [cells[c] for c in LINES[index] if c != cell and cells[c] is not None]
        empty[index] = not others
        # An empty line is "started", not "helped": any number keeps its chances.
        why[index] = None if not others else serves(table, others, value, unseen)  # type: ignore[arg-type]
    served = [index for index in gains if why[index]]
    started = [index for index in gains if empty[index]]
    pool = served or started or list(gains)
    line = max(pool, key=lambda index: (gains[index], -index))
    return {
        "cell": cell,
        "value": value,
        "line": line,
        "line_label": line_label(line),
        "builds": bool(served),
        "why": why[line] if served else ("starts" if started else None),
    }


def _why(advice: dict[str, Any]) -> str:
    """The second sentence: why the number serves the named line."""
    why = advice["why"]
    if why == MATCH:
        return _("That line already holds a %(value)d.") % {"value": advice["value"]}
    if why == STRAIGHT:
        return _("A straight is still possible there.")
    if why == HIGH_HAND:
        return _("The numbers 1, 10, 11, 12 and 13 are still possible there.")
    return _("Three 1s and two 13s are still possible there.")


def _reason(advice: dict[str, Any], *, joker: bool) -> str:
    """True sentences, checked from the cards alone: the line the number serves
    and why; or the empty line it starts; or -- when it serves none (the number
    is parked) -- that it costs the least there."""
    words = {
        "value": advice["value"],
        "cell": target_cell(advice["cell"]),
        "line": helped_line(advice["line"]) if advice["builds"] else advice["line_label"],
    }
    if advice["builds"]:
        if joker:
            first = _("Use the joker as %(value)d at %(cell)s: it helps %(line)s.") % words
        else:
            first = _("Put the %(value)d at %(cell)s: it helps %(line)s.") % words
        return f"{first} {_why(advice)}"
    if advice["why"] == "starts":
        if joker:
            return (
                _("Use the joker as %(value)d at %(cell)s: it starts an empty line, %(line)s.")
                % words
            )
        return _("Put the %(value)d at %(cell)s: it starts an empty line, %(line)s.") % words
    if joker:
        return (
            _("Use the joker as %(value)d at %(cell)s: no line gains, and %(line)s loses least.")
            % words
        )
    return (
        _("Put the %(value)d at %(cell)s: it helps no line, and %(line)s loses least there.")
        % words
    )


def hint(
    cells: Sequence[int | None],
    hand: int | None,
    *,
    table: str,
    seen: Sequence[int],
    kept: int = 0,
    search: Search = LIVE,
) -> dict[str, Any]:
    """The coach's advice for this position.

    ``hand``: the card in hand (``JOKER`` for a joker) or ``None`` between
    cards with kept jokers; ``seen``: every card dealt before the one in hand;
    ``kept``: jokers in the reserve; ``search``: how far the coach looks ahead
    (``coach.LIVE`` unless a caller needs another). Returns ``{"action": "place" | "use" |
    "keep" | "draw", "cell", "value", "line", "line_label", "builds", "why",
    "reason"}``: ``builds`` says whether the number serves the named line (``why``:
    ``match``, ``straight``, ``high_hand`` or ``ones_thirteens``, judged from the
    cards alone); otherwise it starts an empty line (``why`` = ``starts``) or
    is parked where the named line loses least (``why`` = None).
    """
    if hand is not None and hand != JOKER:
        cell = choose_cell(cells, hand, table=table, seen=seen, search=search)
        advice = {
            "action": "place",
            **_placement(cells, cell, hand, table=table, seen=[*seen, hand]),
        }
        advice["reason"] = _reason(advice, joker=False)
        return advice
    if hand is None and kept == 0:
        return {"action": "draw", "reason": _("Draw the next number.")}
    others = kept if hand == JOKER else kept - 1
    choice = choose_joker(cells, table=table, seen=seen, kept=others, search=search)
    if choice["action"] == "keep":
        return {
            "action": "keep" if hand == JOKER else "draw",
            "reason": _("Keep the joker for later: a better place for it may still come.")
            if hand == JOKER
            else _("Keep your joker for now and draw the next number."),
        }
    cell, value = int(choice["cell"]), int(choice["value"])
    advice = {"action": "use", **_placement(cells, cell, value, table=table, seen=seen)}
    advice["reason"] = _reason(advice, joker=True)
    return advice
