"""The scoring tables as pages show them: translated names, rows and points.

The tables themselves live in ``rules/tables.json``; this module only names
their English labels once more as literals so the translation tools find them.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from accounts import consent
from accounts.requests import PlayerRequest

from .rules import DEFAULT_TABLE, TABLE_NAMES, get_table
from .rules.state import MAX_SECONDS, MIN_SECONDS

#: Every label of ``tables.json`` (tests check the list is complete).
LABELS = {
    "Next to each other": _("Next to each other"),
    "School": _("School"),
    "Matematico": _("Matematico"),
    "five of a kind (needs a joker)": _("five of a kind (needs a joker)"),
    "four, contiguous": _("four, contiguous"),
    "sorted straight": _("sorted straight"),
    "four, scattered": _("four, scattered"),
    "straight, any order": _("straight, any order"),
    "full house, contiguous": _("full house, contiguous"),
    "full house": _("full house"),
    "two pairs, contiguous": _("two pairs, contiguous"),
    "two pairs": _("two pairs"),
    "three, contiguous": _("three, contiguous"),
    "three": _("three"),
    "pair, contiguous": _("pair, contiguous"),
    "pair": _("pair"),
    "four of a kind": _("four of a kind"),
    "straight": _("straight"),
    "three of a kind": _("three of a kind"),
    "straight (1 is low only)": _("straight (1 is low only)"),
    "three 1s and two 13s": _("three 1s and two 13s"),
    "the values 1, 10, 11, 12, 13": _("the values 1, 10, 11, 12, 13"),
    "four of a kind (value other than 1)": _("four of a kind (value other than 1)"),
    "four 1s": _("four 1s"),
}


def label(text: str) -> str:
    return str(LABELS[text]) if text in LABELS else text


def table_context() -> list[dict[str, Any]]:
    """All tables in their canonical order, ready for templates."""
    tables = []
    for name in TABLE_NAMES:
        table = get_table(name)
        tables.append(
            {
                "name": name,
                "label": label(table.label),
                "jokers": table.jokers,
                "diagonal_bonus": table.diagonal_bonus,
                "rows": [{"label": label(row.label), "points": row.points} for row in table.rows],
            }
        )
    return tables


def page_context(request: PlayerRequest) -> dict[str, Any]:
    """What every solo poker page (play, scoresheet, review, ...) shows: the tables,
    the time limits, the board's shape and the consent question."""
    return {
        "server_led": bool(request.storage_enabled and request.player),
        "min_seconds": MIN_SECONDS,
        "max_seconds": MAX_SECONDS,
        "table_names": TABLE_NAMES,
        "default_table": DEFAULT_TABLE,
        "tables": table_context(),
        "board_rows": [list(range(row * 5, row * 5 + 5)) for row in range(5)],
        "line_columns": [5, 6, 7, 8, 9],
        "values": list(range(1, 14)),
        # The play page holds the consent dialog of ranked and daily games too.
        "consent_question": consent.question(),
        "consent_age_statement": consent.age_statement(),
    }
