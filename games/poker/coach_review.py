"""The coach's review of a finished server-led solo game, and the coach's own game.

Built from the game's move log (``SoloGame.moves``: each accepted move with
the card in hand and how many cards were behind the player) and the stored
deck, through the pure coach's public API only. For each placement: the
coach's choice for the same position and the expected points the player's
choice cost (``evaluate`` after the coach's placement minus ``evaluate`` after
the player's, never below zero); the three costliest moves; and the coach's
score playing the very same cards in the same order.

Computed once, the first time the review is asked for, and stored on the
game row (``SoloGame.review``); a game whose moves predate the move log gets
a review without the move list. ``REVIEW_VERSION`` lets a later coach
recompute.
"""

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from .coach_advice import cell_label
from .rules import JOKER, score_board
from .rules.coach import choose_cell, choose_joker, evaluate

REVIEW_VERSION = 1
#: How many of the costliest moves the review names.
COSTLIEST = 3


def coach_game(deck: Sequence[int], table: str) -> dict[str, Any]:
    """The coach plays ``deck`` in order like an easy game: the score and the board.

    Kept jokers are offered to the coach before every number (``choose_joker``
    decides whether to place one now) and once more when the deck runs out.
    """
    cells: list[int | None] = [None] * 25
    kept = 0
    seen: list[int] = []

    def offer_kept() -> None:
        nonlocal kept
        while kept and None in cells:
            choice = choose_joker(cells, table=table, seen=seen, kept=kept - 1)
            if choice["action"] != "use":
                return
            cells[int(choice["cell"])] = int(choice["value"])
            kept -= 1

    for card in deck:
        offer_kept()
        if None not in cells:
            break
        if card == JOKER:
            choice = choose_joker(cells, table=table, seen=seen, kept=kept)
            if choice["action"] == "use":
                cells[int(choice["cell"])] = int(choice["value"])
            else:
                kept += 1
        else:
            cells[choose_cell(cells, card, table=table, seen=seen)] = card
        seen.append(card)
    offer_kept()
    return {"score": score_board(cells, table).total, "cells": cells}


def _with(cells: Sequence[int | None], cell: int, value: int) -> list[int | None]:
    board = list(cells)
    board[cell] = value
    return board


def _step(
    number: int, move: dict[str, Any], cells: list[int | None], *, table: str, sequence: list[int]
) -> dict[str, Any]:
    """One move of the player beside the coach's choice in the same position."""
    seen = sequence[: move["handled"]]
    kind = move["type"]
    step: dict[str, Any] = {
        "number": number,
        "type": kind,
        "card": move["card"],
        "cell": move.get("cell"),
        "value": move.get("value"),
        "coach_cell": None,
        "coach_value": None,
        "coach_keeps": False,
        "cost": None,
    }
    if kind == "place":
        card = move["card"]
        coach = choose_cell(cells, card, table=table, seen=seen)
        step.update(coach_cell=coach, coach_value=card)
        after = [*seen, card]
        if coach == move["cell"]:
            step["cost"] = 0.0
        else:
            best = evaluate(_with(cells, coach, card), table=table, seen=after)
            mine = evaluate(_with(cells, move["cell"], card), table=table, seen=after)
            step["cost"] = round(max(0.0, best - mine), 1)
        return step
    others = move["kept"] if kind != "place_kept_joker" else move["kept"] - 1
    choice = choose_joker(cells, table=table, seen=seen, kept=max(0, others))
    if choice["action"] == "keep":
        step["coach_keeps"] = True
        if kind == "keep_joker":
            step["cost"] = 0.0
        return step
    coach, value = int(choice["cell"]), int(choice["value"])
    step.update(coach_cell=coach, coach_value=value)
    if kind != "keep_joker":
        if (coach, value) == (move["cell"], move["value"]):
            step["cost"] = 0.0
        else:
            best = evaluate(_with(cells, coach, value), table=table, seen=seen)
            mine = evaluate(_with(cells, move["cell"], move["value"]), table=table, seen=seen)
            step["cost"] = round(max(0.0, best - mine), 1)
    return step


def build_review(*, moves: list[dict[str, Any]], state: dict[str, Any], table: str) -> dict:
    """The stored review (plain JSON): steps, the costliest moves, the coach's game."""
    sequence = list(state["sequence"])
    deck = sequence + list(state.get("deck") or [])
    cells: list[int | None] = [None] * 25
    steps = []
    for number, move in enumerate(moves, start=1):
        step = _step(number, move, cells, table=table, sequence=sequence)
        if move["type"] != "keep_joker":
            cells[move["cell"]] = move["value"]
        step["cells"] = list(cells)
        steps.append(step)
    costly = sorted(
        (step for step in steps if step["cost"]), key=lambda step: (-step["cost"], step["number"])
    )[:COSTLIEST]
    coach = coach_game(deck, table)
    return {
        "version": REVIEW_VERSION,
        "table": table,
        "score": score_board(state["cells"], table).total,
        "coach_score": coach["score"],
        "coach_cells": coach["cells"],
        "steps": steps,
        "costliest": [step["number"] for step in costly],
        "lost": round(sum(step["cost"] or 0.0 for step in steps), 1),
    }


def step_text(step: dict[str, Any], *, pupil: bool = False) -> str:
    """One move in words, for the replay and the move table (the page's language);
    ``pupil``: told to a teacher about a pupil's move, not to the player."""
    kind = step["type"]
    if kind == "keep_joker":
        mine = _("The pupil's move: the joker kept.") if pupil else _("You kept the joker.")
    elif kind == "place":
        mine = (
            _("The pupil's move: %(value)d in %(cell)s.")
            if pupil
            else _("You put the %(value)d in %(cell)s.")
        ) % {"value": step["value"], "cell": cell_label(step["cell"])}
    else:
        mine = (
            _("The pupil's move: a joker as %(value)d in %(cell)s.")
            if pupil
            else _("You used a joker as %(value)d in %(cell)s.")
        ) % {"value": step["value"], "cell": cell_label(step["cell"])}
    if step["coach_keeps"]:
        coach = _("The coach would keep the joker.")
    elif step["coach_cell"] is None:
        coach = ""
    elif step["coach_cell"] == step["cell"] and step["coach_value"] == step["value"]:
        coach = _("The coach agrees.")
    else:
        coach = _("The coach would put the %(value)d in %(cell)s.") % {
            "value": step["coach_value"],
            "cell": cell_label(step["coach_cell"]),
        }
    return f"{mine} {coach}".strip()
