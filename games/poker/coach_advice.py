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

from .rules import JOKER, LINES
from .rules.coach import choose_cell, choose_joker, evaluate_lines


def line_label(index: int) -> str:
    """A line in words: "row 2", "column 4", "the main diagonal"."""
    if index < 5:
        return _("row %(number)d") % {"number": index + 1}
    if index < 10:
        return _("column %(number)d") % {"number": index - 4}
    if index == 10:
        return _("the main diagonal")
    return _("the anti-diagonal")


def cell_label(cell: int) -> str:
    return _("row %(row)d, column %(column)d") % {"row": cell // 5 + 1, "column": cell % 5 + 1}


def built_line(
    cells: Sequence[int | None], cell: int, value: int, *, table: str, seen: Sequence[int]
) -> int:
    """The line through ``cell`` whose expected score ``value`` there raises most
    (the coach's own line values before and after the placement)."""
    before = evaluate_lines(cells, table=table, seen=seen)
    after_cells = list(cells)
    after_cells[cell] = value
    after = evaluate_lines(after_cells, table=table, seen=seen)
    through = [index for index, line in enumerate(LINES) if cell in line]
    return max(through, key=lambda index: (after[index] - before[index], -index))


def _placement(
    cells: Sequence[int | None], cell: int, value: int, *, table: str, seen: Sequence[int]
) -> dict[str, Any]:
    line = built_line(cells, cell, value, table=table, seen=seen)
    return {"cell": cell, "value": value, "line": line, "line_label": line_label(line)}


def hint(
    cells: Sequence[int | None],
    hand: int | None,
    *,
    table: str,
    seen: Sequence[int],
    kept: int = 0,
) -> dict[str, Any]:
    """The coach's advice for this position.

    ``hand``: the card in hand (``JOKER`` for a joker) or ``None`` between
    cards with kept jokers; ``seen``: every card dealt before the one in hand;
    ``kept``: jokers in the reserve. Returns ``{"action": "place" | "use" |
    "keep" | "draw", "cell", "value", "line", "line_label", "reason"}``.
    """
    if hand is not None and hand != JOKER:
        cell = choose_cell(cells, hand, table=table, seen=seen)
        advice = {
            "action": "place",
            **_placement(cells, cell, hand, table=table, seen=[*seen, hand]),
        }
        advice["reason"] = _("Put the %(value)d in %(cell)s: it builds toward %(line)s.") % {
            "value": hand,
            "cell": cell_label(cell),
            "line": advice["line_label"],
        }
        return advice
    if hand is None and kept == 0:
        return {"action": "draw", "reason": _("Draw the next number.")}
    others = kept if hand == JOKER else kept - 1
    choice = choose_joker(cells, table=table, seen=seen, kept=others)
    if choice["action"] == "keep":
        return {
            "action": "keep" if hand == JOKER else "draw",
            "reason": _("Keep the joker for later: a better place for it may still come.")
            if hand == JOKER
            else _("Keep your joker for now and draw the next number."),
        }
    cell, value = int(choice["cell"]), int(choice["value"])
    advice = {"action": "use", **_placement(cells, cell, value, table=table, seen=seen)}
    advice["reason"] = _("Use the joker as %(value)d in %(cell)s: it builds toward %(line)s.") % {
        "value": value,
        "cell": cell_label(cell),
        "line": advice["line_label"],
    }
    return advice
