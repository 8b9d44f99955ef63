"""What the Abaku pages draw: the premium layout and the seed's worked example.

The worked example's squares are the seed's six turns (premiums off); the
examples and scores shown are computed by the rules engine, never typed in.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .rules import DEFAULT_LEVEL, LEVELS, Board, evaluate_move
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

# The robots' names and what each is like, keyed by the rules' level table
# (``rules.robot.LEVEL_TABLE``, easiest first) -- the one place they are named:
# the hub's and the class page's choices, and the board's seat names (sent with
# the page). A child reads the descriptions: they say "ty".
ROBOT_LEVEL_NAMES = {
    "easy": pgettext_lazy("Abaku robot", "beginner"),
    "medium": pgettext_lazy("Abaku robot", "learner"),
    "advanced": pgettext_lazy("Abaku robot", "advanced"),
    "greedy": pgettext_lazy("Abaku robot", "greedy"),
    "strong": pgettext_lazy("Abaku robot", "strong"),
}
ROBOT_LEVEL_DESCRIPTIONS = {
    "easy": _("Plays simple examples and often leaves points lying. Start here."),
    "medium": _("Often finds a good move, but seldom the best one."),
    "advanced": _(
        "Nearly always finds a move worth many points. Try it once you beat the learner."
    ),
    "greedy": _("Always plays the move worth the most points right now."),
    "strong": _(
        "Plays for many points and thinks ahead: which stones to keep and what you could answer."
    ),
}


def robot_levels() -> list[tuple[str, str]]:
    """(id, name) of every robot level in the engine's order."""
    return [(level, str(ROBOT_LEVEL_NAMES.get(level, level))) for level in LEVELS]


def robot_level_choices() -> list[dict[str, Any]]:
    """Every robot level in the engine's order for a level picker:
    ``{id, number, name, description}``."""
    return [
        {
            "id": level,
            "number": number,
            "name": str(ROBOT_LEVEL_NAMES.get(level, level)),
            "description": str(ROBOT_LEVEL_DESCRIPTIONS.get(level, "")),
        }
        for number, level in enumerate(LEVELS, start=1)
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
