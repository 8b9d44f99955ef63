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

from .rules import JOKER, LINES
from .rules.coach import choose_cell, choose_joker, evaluate_lines

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


def _placement(
    cells: Sequence[int | None], cell: int, value: int, *, table: str, seen: Sequence[int]
) -> dict[str, Any]:
    gains = line_gains(cells, cell, value, table=table, seen=seen)
    line = max(gains, key=lambda index: (gains[index], -index))
    return {
        "cell": cell,
        "value": value,
        "line": line,
        "line_label": line_label(line),
        "builds": gains[line] > GAIN,
    }


def _reason(advice: dict[str, Any], *, joker: bool) -> str:
    """One true sentence: the line the move builds, or -- when it builds none (the
    number is parked) -- that it costs the least there."""
    words = {
        "value": advice["value"],
        "cell": target_cell(advice["cell"]),
        "line": helped_line(advice["line"]) if advice["builds"] else advice["line_label"],
    }
    if advice["builds"]:
        if joker:
            return _("Use the joker as %(value)d at %(cell)s: it helps %(line)s.") % words
        return _("Put the %(value)d at %(cell)s: it helps %(line)s.") % words
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
) -> dict[str, Any]:
    """The coach's advice for this position.

    ``hand``: the card in hand (``JOKER`` for a joker) or ``None`` between
    cards with kept jokers; ``seen``: every card dealt before the one in hand;
    ``kept``: jokers in the reserve. Returns ``{"action": "place" | "use" |
    "keep" | "draw", "cell", "value", "line", "line_label", "builds", "reason"}``:
    ``builds`` says whether the move raises the named line's expected score; when
    it does not, the number is parked where the named line loses least.
    """
    if hand is not None and hand != JOKER:
        cell = choose_cell(cells, hand, table=table, seen=seen)
        advice = {
            "action": "place",
            **_placement(cells, cell, hand, table=table, seen=[*seen, hand]),
        }
        advice["reason"] = _reason(advice, joker=False)
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
    advice["reason"] = _reason(advice, joker=True)
    return advice
