"""Hints and the after-game review of an Abaku table (issue 19, item 5).

Beside the engine, not in the adapter: both read a table's state and ask the
rules (``best_move``, ``rules.review``); neither changes anything.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.rooms.errors import RoomError
from games.rooms.turntable import PLAYING, seat_of

from .engine import refusal
from .rules import GameState, IllegalMove, apply, best_move, review
from .rules.game import remove_player

#: The robot level that always takes the highest score (rules/robot.py).
GREEDY = "greedy"
#: Where a table's state keeps the hints each seat was given: ``{"<seat>": count}``
#: (written by ``services.give_hint``).
HINTS_KEY = "hints"


def hints_used(state: dict, seat: int) -> int:
    """How many hints the seat ``seat`` was given in this game."""
    counts = state.get(HINTS_KEY) if isinstance(state, dict) else None
    value = counts.get(str(seat), 0) if isinstance(counts, dict) else 0
    return max(0, value) if isinstance(value, int) and not isinstance(value, bool) else 0


def _other_humans(state: dict, seat: int) -> bool:
    return any(
        s["player_id"] is not None and index != seat for index, s in enumerate(state["seats"])
    )


def hint(state: dict, *, player_id: int) -> dict:
    """The best move for the player on turn: ``{"placements": [[row, col, digit,
    joker], ...] or None, "score": int}``. Only in games without other people
    (practice alone, against robots): elsewhere it would help one player against
    another (``hint_not_allowed``). Read-only: nothing is stored."""
    if not state or state.get("phase") != PLAYING:
        raise refusal(IllegalMove("game_over"))
    seat = seat_of(state, player_id)
    if _other_humans(state, seat):
        raise RoomError(
            "hint_not_allowed",
            _("Hints are only for games alone or against robots."),
        )
    game = GameState.from_dict(state["game"])
    if game.turn != seat:
        raise refusal(IllegalMove("not_your_turn"))
    move = best_move(game.board, game.players[seat].rack)
    if move is None:
        return {"placements": None, "score": 0}
    placements = [[p.row, p.col, p.digit, p.joker] for p in move.placements]
    return {"placements": placements, "score": move.score}


def game_review(state: dict, *, player_id: int) -> list[dict]:
    """After the game, per turn what was played and the best move there was
    (``rules.review``), replayed from the first state and the action log.

    A seat that left mid-game is taken out where it happened, as in the game.
    The best moves of other people's turns are left out (``best`` None): they
    would show what was on their racks; robots' turns and the own are shown."""
    if not state or state.get("phase") == PLAYING:
        raise RoomError("not_finished", _("The review is there once the game is over."))
    if "initial" not in state:
        raise RoomError("no_review", _("This game was played before reviews were kept."))
    seat = seat_of(state, player_id)
    game = GameState.from_dict(state["initial"])
    turns: list[dict] = []
    segment: list[dict] = []

    def flush(game: GameState) -> None:
        for turn in review(game, segment):
            turns.append({**turn, "move_number": len(turns) + 1})

    try:
        for action in state["actions"]:
            if action.get("type") != "removed":
                segment.append(action)
                continue
            flush(game)
            for earlier in segment:
                game, _events = apply(game, earlier)
            segment = []
            if not game.finished:
                game, _events = remove_player(game, action["player"], now=action.get("now"))
        flush(game)
    except IllegalMove as error:  # a log that does not replay (never expected): no review
        raise RoomError("no_review", _("This game cannot be reviewed.")) from error
    for turn in turns:
        owner = state["seats"][turn["player"]]
        if owner["player_id"] is not None and turn["player"] != seat:
            turn["best"], turn["best_score"], turn["missed"] = None, None, None
        level = owner.get("robot") if owner["player_id"] is None else None
        if level and level != GREEDY and turn.get("missed"):
            # Every level but greedy leaves the top score on purpose: the lower ones
            # to be beatable, the strong one for the stones it keeps and the reply
            # it allows. The review says so instead of calling it missed points.
            turn["on_purpose"] = level
    return turns
