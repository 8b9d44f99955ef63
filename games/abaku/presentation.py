"""What the Abaku pages draw: the premium layout and the seed's worked example.

The worked example's squares are the seed's six turns (premiums off); the
examples and scores shown are computed by the rules engine, never typed in.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .rules import DEFAULT_LEVEL, LEVEL_TABLE, LEVELS, Board, evaluate_move
from .rules.data import BOARD_SIZE, LAYOUTS

# The seed's six turns: where the stones go (row, col, digit); scores 6, 10, 18, 42, 22, 66.
SEED_TURNS: tuple[tuple[tuple[int, int, int], ...], ...] = (
    ((7, 7, 2), (7, 8, 4)),
    ((7, 6, 1), (7, 9, 3)),
    ((6, 8, 6), (8, 8, 2)),
    ((9, 7, 7), (9, 8, 4), (9, 9, 9)),
    ((8, 5, 1), (8, 6, 0), (8, 7, 5)),
    ((10, 8, 8), (10, 9, 3), (10, 10, 5)),
)
# The part of the board the example uses (rows and columns, inclusive).
WINDOW = (5, 11, 4, 11)

# The robots' names and what each is like come from the rules' level table
# (``rules.robot.LEVEL_TABLE``, easiest first; English there, translated here):
# the hub's ladder and the class page's choices, and the board's seat names
# (sent with the page). A child reads the descriptions: they say "ty".


def robot_levels() -> list[tuple[str, str]]:
    """(id, name) of every robot level in the engine's order."""
    return [(level.id, gettext(level.name)) for level in LEVEL_TABLE]


def next_level(level: str) -> str | None:
    """The level one step above ``level`` (``None`` at the top or for an unknown id)."""
    if level not in LEVELS:
        return None
    index = LEVELS.index(level) + 1
    return LEVELS[index] if index < len(LEVELS) else None


def suggested_level(beaten: set[str]) -> str:
    """The level to try next: one step above the highest level beaten on one's
    own (the top level once that is beaten), level 1 before any win."""
    highest = next((level for level in reversed(LEVELS) if level in beaten), None)
    if highest is None:
        return DEFAULT_LEVEL
    return next_level(highest) or highest


def robot_level_choices(beaten: set[str] | None = None) -> list[dict[str, Any]]:
    """Every robot level in the engine's order for the ladder:
    ``{id, number, name, description, beaten}``."""
    beaten = beaten or set()
    return [
        {
            "id": level.id,
            "number": number,
            "name": gettext(level.name),
            "description": gettext(level.description),
            "beaten": level.id in beaten,
        }
        for number, level in enumerate(LEVEL_TABLE, start=1)
    ]


def robot_level_names() -> dict[str, str]:
    return dict(robot_levels())


DEFAULT_ROBOT_LEVEL = DEFAULT_LEVEL

PREMIUM_NAMES = {
    "d": _("digit ×2"),
    "t": _("digit ×3"),
    "D": _("example ×2"),
    "T": _("example ×3"),
    "*": _("centre: example ×2"),
}


def layout_rows(layout: str = "standard") -> list[list[str]]:
    return [list(row) for row in LAYOUTS[layout]]


def worked_example() -> list[dict[str, Any]]:
    """Each turn: the board window after it (new stones marked), examples, score."""
    board = Board.empty("plain")
    steps = []
    top, bottom, left, right = WINDOW
    for number, placements in enumerate(SEED_TURNS, start=1):
        result = evaluate_move(board, placements)
        board = board.place(placements)
        new = {(r, c) for r, c, _d in placements}
        rows = []
        for r in range(top, bottom + 1):
            row = []
            for c in range(left, right + 1):
                stone = board.stone(r, c)
                row.append(
                    {
                        "digit": None if stone is None else stone.digit,
                        "new": (r, c) in new,
                        "centre": (r, c) == (7, 7),
                    }
                )
            rows.append(row)
        steps.append(
            {
                "number": number,
                "rows": rows,
                "examples": [(e.text, e.points) for e in result.examples],
                "score": result.score,
            }
        )
    return steps


def rules_context() -> dict[str, Any]:
    return {
        "steps": worked_example(),
        "layout": layout_rows(),
        "premium_names": PREMIUM_NAMES,
        "board_size": BOARD_SIZE,
    }
