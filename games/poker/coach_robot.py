"""The robot opponent of a solo "vs robot" game: three levels on the player's numbers.

The robot plays the very same numbers in the same order as the player, one
number after the player has handled it (it never sees a number before the
player does). Its board lives on the game row (``SoloGame.robot``) as
``{"level", "cells", "kept", "handled"}``; this module is pure apart from the
coach it calls.

Levels:

* ``beginner`` -- random-ish but sensible: half of the time the greedy cell,
  otherwise a random cell among the better half by the score preview (seeded
  by the game, so a reload replays the same robot);
* ``greedy`` -- today's preview habit: the cell that gains most right now
  (ties to the first cell), a joker placed at once with its best value;
* ``coach`` -- the coach (``games.poker.rules.coach``), with the live search
  (``coach.LIVE``) for the number it answers move by move; numbers it plays
  in bulk (the rest of the deck after the player's end) get the quick search,
  so one request never waits for many deep searches.
"""

import random
from typing import Any

from .rules import JOKER, preview, score_board
from .rules.coach import LIVE, QUICK, Search, choose_cell, choose_joker
from .rules.scoring import MAX_VALUE, MIN_VALUE

LEVELS = ("beginner", "greedy", "coach")


def new_robot(level: str) -> dict[str, Any]:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    return {"level": level, "cells": [None] * 25, "kept": 0, "handled": 0}


def _greedy(cells: list[int | None], value: int, table: str) -> tuple[int, int]:
    gains = preview(cells, value, table)
    empty = [c for c in range(25) if cells[c] is None]
    best = max(empty, key=lambda c: (gains.get(c, 0), -c))
    return best, gains.get(best, 0)


def _greedy_joker(cells: list[int | None], table: str) -> tuple[int, int]:
    best = max(
        ((*_greedy(cells, value, table), value) for value in range(MIN_VALUE, MAX_VALUE + 1)),
        key=lambda choice: (choice[1], -choice[0], -choice[2]),
    )
    return best[0], best[2]


def _beginner(cells: list[int | None], value: int, table: str, rng: random.Random) -> int:
    if rng.random() < 0.5:
        return _greedy(cells, value, table)[0]
    gains = preview(cells, value, table)
    empty = sorted((c for c in range(25) if cells[c] is None), key=lambda c: (-gains.get(c, 0), c))
    return rng.choice(empty[: max(1, (len(empty) + 1) // 2)])


def _place(
    robot: dict[str, Any], card: int, *, table: str, seen: list[int], seed: int, search: Search
) -> None:
    cells = robot["cells"]
    level = robot["level"]
    rng = random.Random(f"{seed}:{robot['handled']}")
    if card == JOKER:
        if level == "coach":
            choice = choose_joker(cells, table=table, seen=seen, kept=robot["kept"], search=search)
            if choice["action"] == "keep":
                robot["kept"] += 1
                return
            cells[int(choice["cell"])] = int(choice["value"])
            return
        cell, value = _greedy_joker(cells, table)
        cells[cell] = value
        return
    if level == "coach":
        cell = choose_cell(cells, card, table=table, seen=seen, search=search)
    elif level == "greedy":
        cell = _greedy(cells, card, table)[0]
    else:
        cell = _beginner(cells, card, table, rng)
    cells[cell] = card


def _offer_kept(
    robot: dict[str, Any], *, table: str, seen: list[int], search: Search = QUICK
) -> None:
    cells = robot["cells"]
    while robot["kept"] and None in cells:
        choice = choose_joker(cells, table=table, seen=seen, kept=robot["kept"] - 1, search=search)
        if choice["action"] != "use":
            return
        cells[int(choice["cell"])] = int(choice["value"])
        robot["kept"] -= 1


def catch_up(
    robot: dict[str, Any], sequence: list[int], upto: int, *, table: str, seed: int
) -> dict[str, Any]:
    """The robot handles the numbers ``sequence[robot.handled:upto]`` (mutates it):
    one number (the usual step after the player's move) with the live search,
    several at once with the quick one."""
    end = min(upto, len(sequence))
    search = LIVE if end - robot["handled"] <= 1 else QUICK
    while robot["handled"] < end and None in robot["cells"]:
        seen = sequence[: robot["handled"]]
        _offer_kept(robot, table=table, seen=seen, search=search)
        if None not in robot["cells"]:
            break
        _place(robot, sequence[robot["handled"]], table=table, seen=seen, seed=seed, search=search)
        robot["handled"] += 1
    return robot


def finish(robot: dict[str, Any], deck: list[int], *, table: str, seed: int) -> dict[str, Any]:
    """After the player's end: the robot plays on with the same deck until its board is full."""
    catch_up(robot, deck, len(deck), table=table, seed=seed)
    _offer_kept(robot, table=table, seen=deck[: robot["handled"]])
    return robot


def score(robot: dict[str, Any], table: str) -> Any:
    return score_board(robot["cells"], table)
