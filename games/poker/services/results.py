"""The finished solo game written where profile stats and class reports read."""

from typing import Any

from games import services as results_service
from games.models import GameResult

from .. import coach_robot
from ..models import SoloGame
from ..rules import PokerGame
from .clock import moment


def _duration(engine: PokerGame) -> float:
    started = engine.started_at if engine.started_at is not None else engine.finished_at
    return round((engine.finished_at or 0.0) - (started or 0.0), 3)


def record(*, game: SoloGame, engine: PokerGame) -> GameResult:
    """Write the finished game where profile stats and class reports read
    (``details`` conventions: docs/decisions.md and docs/poker-api.md)."""
    started = engine.started_at if engine.started_at is not None else engine.finished_at
    assert started is not None  # a game that is over has a finish (and so a start)
    details: dict[str, Any] = {
        "table": game.table,
        "difficulty": game.difficulty,
        "duration_s": _duration(engine),
        "forfeited": engine.forfeited,
        "cells": engine.cells,
        "joker_cells": engine.joker_cells,
    }
    if game.day is not None:
        details["day"] = game.day.isoformat()
    if game.robot is not None:
        # Counted with the duels as "vs robot" (stats.py), never on a public table.
        mine, robot = engine.score().total, coach_robot.score(game.robot, game.table).total
        details.update(
            robot=game.robot["level"],
            robot_score=robot,
            outcome="win" if mine > robot else "loss" if mine < robot else "draw",
        )
    _record, (result,) = results_service.record_game(
        game="poker",
        mode=game.mode,
        settings={
            "table": game.table,
            "difficulty": game.difficulty,
            "seconds_per_card": game.seconds_per_card,
        },
        started_at=moment(started),
        finished_at=game.finished_at,
        results=[
            results_service.Result(
                player_id=game.player_id,
                score=engine.score().total,
                completed=engine.completed,
                details=details,
            )
        ],
    )
    return result
