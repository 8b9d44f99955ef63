"""Abaku's own writes on a room (beside the rooms runtime's moves).

One transaction per intent on the locked room row (``games.rooms.steps.locked_room``),
like every move of the runtime, so a hint and a move never overwrite each other.
"""

from __future__ import annotations

from django.db import transaction

from games.rooms.steps import locked_room
from games.rooms.turntable import seat_of

from . import review as table_review
from .review import HINTS_KEY, hints_used


def give_hint(*, room_id: int, player_id: int) -> dict:
    """The best move for the player on turn (``review.hint``), counted on the game.

    A hint that shows a move is remembered per seat in the room's state: the
    game's result then says it was played with hints (``adapter.result_details``:
    ``hints``, ``assisted``), so a win with hints never counts as beating the
    robot level. A refused hint (``RoomError``) and a hint without a move store
    nothing. The answer carries ``hints``: the seat's count so far."""
    with transaction.atomic():
        room = locked_room(room_id)
        state = room.state or {}
        answer = table_review.hint(state, player_id=player_id)
        seat = seat_of(state, player_id)
        if answer["placements"] is not None:
            counts = dict(state.get(HINTS_KEY) or {})
            counts[str(seat)] = hints_used(state, seat) + 1
            room.state = {**state, HINTS_KEY: counts}
            room.save(update_fields=["state"])
        return {**answer, "hints": hints_used(room.state, seat)}
