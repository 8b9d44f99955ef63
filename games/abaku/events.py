"""Abaku's room protocol: what players send and what a table emits.

Attached to ``AbakuTable`` (and so to solo practice); see
``games/rooms/schemas.py``. Seats are numbered from 0 in the order of play;
rows and columns from 0; a stone kind is its digit 0-9 (10 is the joker).
After every step each human also gets a private ``view`` with their own rack,
and the room a public one without racks.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, StrictBool, StrictInt

from games.rooms.schemas import Shape, by_type, event, message

Placement = list[StrictInt | StrictBool]

MESSAGES = by_type(
    message(
        "place",
        "Lay stones on the board.",
        placements=(
            list[Placement],
            Field(description="[row, col, digit] or [row, col, digit, joker] per stone"),
        ),
    ),
    message(
        "exchange",
        "Swap stones of your rack for stones from the bag.",
        stones=(list[StrictInt], Field(description="the kinds to give back")),
    ),
    message("skip", "Pass this turn."),
)


class Seat(Shape):
    seat: int
    player_id: int | None = Field(description="null for a robot")
    nickname: str | None
    robot: str | None = Field(description="the robot's level, null for a human")
    left: bool


class Example(Shape):
    text: str
    points: int
    cells: list[list[int]] = Field(description="[row, col] pairs")


_SEAT = (int, Field(description="the seat number"))

EVENTS = by_type(
    event("started", "Who sits where, robots included.", seats=(list[Seat], ...)),
    event(
        "placed",
        "Stones were laid and scored.",
        player=_SEAT,
        placements=(list[list[int | bool]], Field(description="[row, col, digit, joker]")),
        examples=(list[Example], ...),
        score=(int, ...),
        drew=(int, Field(description="stones drawn from the bag")),
    ),
    event("exchanged", "Stones were swapped with the bag.", player=_SEAT, count=(int, ...)),
    event(
        "skipped",
        "An empty turn.",
        player=_SEAT,
        reason=(str, Field(description="skip or timeout")),
    ),
    event(
        "forfeited",
        "A seat is out (three empty turns, or the player left).",
        player=_SEAT,
        reason=(str, Field(default=None, description="'left' when the player left")),
    ),
    event(
        "turn",
        "A seat is on turn.",
        player=_SEAT,
        deadline=(float | None, Field(description="seconds since the epoch, null: no clock")),
    ),
    event(
        "game_over",
        "The game is over: the end adjustment and the standings.",
        reason=(str, ...),
        closer=(int | None, ...),
        adjustments=(list[int], ...),
        scores=(list[int], ...),
        winners=(list[int], ...),
        standings=(list[int], Field(description="seats, best first")),
    ),
    event(
        "view",
        "The table after the step (public: no racks; private: with your rack).",
        view=(dict[str, Any], ...),
    ),
)
