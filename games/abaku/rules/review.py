"""Hints and the after-game review (issue 19, item 5): pure functions on top of
the complete move generator, for a UI to show on the board.

* :func:`best_move` is the hint: the highest-scoring legal move for a rack.
* :func:`review` replays a game from its first state and the actions applied
  to it and says, for every turn, what was played and the best move that was
  available with the rack the player held then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .board import Board
from .game import Action, GameState, apply
from .movegen import Move, all_moves


def best_move(board: Board, rack: Sequence[int]) -> Move | None:
    """The highest-scoring legal move for ``rack`` on ``board`` (``None`` if there
    is none). Among equal scores the one with the fewest jokers wins (a hint
    should not spend a joker for nothing), then the generator's fixed order, so
    the same position always gets the same hint."""
    best: Move | None = None
    best_key: tuple[int, int] | None = None
    for move in all_moves(board, rack):
        key = (move.score, -sum(p.joker for p in move.placements))
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


def _placements(move: Move | None) -> list[list[Any]] | None:
    if move is None:
        return None
    return [[p.row, p.col, p.digit, p.joker] for p in move.placements]


def review(initial: GameState, actions: Iterable[Action]) -> list[dict[str, Any]]:
    """Per turn: who was on turn, what they did and scored, and the best move
    they had. ``initial`` is the game's first state (``new_game``) and
    ``actions`` the actions applied to it in order (place, exchange, skip,
    timeout); replaying them gives back every rack, which the public events do
    not show.

    Each entry (JSON-safe): ``move_number``, ``player``, ``action`` (the action's
    type), ``placements`` and ``score`` of the move played (``None`` and 0 for an
    exchange or an empty turn), ``best`` (placements as ``[row, col, digit,
    joker]``, or ``None`` when no move was possible) and ``best_score``, and
    ``missed`` = ``best_score - score``. Raises ``IllegalMove`` if an action does
    not apply (the actions do not belong to this game).
    """
    state = initial
    turns: list[dict[str, Any]] = []
    for action in actions:
        if state.finished:
            break
        seat = state.turn
        best = best_move(state.board, state.players[seat].rack)
        state, events = apply(state, action)
        score = 0
        placements = None
        for event in events:
            if event["type"] == "placed" and event["player"] == seat:
                score = event["score"]
                placements = [list(p) for p in event["placements"]]
        best_score = best.score if best is not None else 0
        turns.append(
            {
                "move_number": len(turns) + 1,
                "player": seat,
                "action": action.get("type"),
                "placements": placements,
                "score": score,
                "best": _placements(best),
                "best_score": best_score,
                "missed": best_score - score,
            }
        )
    return turns
