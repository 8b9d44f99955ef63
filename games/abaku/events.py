"""Abaku's room protocol: what players send and what a table emits.

Attached to ``AbakuTable`` (and so to solo practice); see
``games/rooms/schemas.py``. Seats are numbered from 0 in the order of play;
rows and columns from 0; a stone kind is its digit 0-9 (10 is the joker).
After every step each human also gets a private ``view`` with their own rack,
and the room a public one without racks.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictInt

from games.rooms.schemas import ABSENT, Event, Message, Shape, by_union

Placement = list[StrictInt | StrictBool]


class PlaceMessage(Message):
    """Lay stones on the board."""

    type: Literal["place"]
    placements: list[Placement] = Field(
        description="[row, col, digit] or [row, col, digit, joker] per stone"
    )


class ExchangeMessage(Message):
    """Swap stones of your rack for stones from the bag."""

    type: Literal["exchange"]
    stones: list[StrictInt] = Field(description="the kinds to give back")


class SkipMessage(Message):
    """Pass this turn."""

    type: Literal["skip"]


AbakuMessage = Annotated[PlaceMessage | ExchangeMessage | SkipMessage, Field(discriminator="type")]
"""Every message an Abaku player sends, told apart by ``type``."""

MESSAGES = by_union(AbakuMessage)


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


# --- what a player sees ---------------------------------------------------------------


class Settings(Shape):
    table_size: int
    robot_level: str
    turn_seconds: float | None = Field(description="null: no clock")
    layout: str
    robot_delay_ms: int


class Board(Shape):
    layout: str
    stones: list[list[int | bool]] = Field(description="[row, col, digit, joker]")


class PlayerView(Shape):
    name: str
    score: int
    rack: list[int] = Field(
        default=ABSENT, description="only your own (everyone's once the game is over)"
    )
    rack_count: int
    empty_turns: int
    status: str = Field(description="active or forfeited")


class Result(Shape):
    reason: str
    closer: int | None
    adjustments: list[int]
    scores: list[int]
    winners: list[int]
    standings: list[int] = Field(description="seats, best first")


class GameView(Shape):
    """The engine's view (``games.abaku.rules.view``): no bag order, no seed."""

    version: int
    board: Board
    players: list[PlayerView]
    bag_count: int
    turn: int = Field(description="the seat on turn")
    move_number: int
    rack_size: int
    turn_seconds: float | None
    turn_started: float | None
    finished: bool
    result: Result | None
    history: list[dict[str, Any]] = Field(
        default=ABSENT, description="the engine's events so far: only in a `sync` snapshot"
    )
    you: int | None = Field(description="your seat, null for a spectator")
    deadline: float | None = Field(description="seconds since the epoch, null: no clock")


class AbakuView(Shape):
    """What one player sees of an Abaku table (`sync` and `view` events)."""

    phase: str = Field(description="playing, finished or ended")
    you: int | None = Field(description="your seat, null for a spectator")
    seats: list[Seat]
    settings: Settings
    robot_due: str | None = Field(description="ISO 8601: when a robot plays next")
    game: GameView


class StartedEvent(Event):
    """Who sits where, robots included."""

    type: Literal["started"]
    seats: list[Seat]


class PlacedEvent(Event):
    """Stones were laid and scored."""

    type: Literal["placed"]
    player: int = Field(description="the seat number")
    placements: list[list[int | bool]] = Field(description="[row, col, digit, joker]")
    examples: list[Example]
    score: int
    drew: int = Field(description="stones drawn from the bag")


class ExchangedEvent(Event):
    """Stones were swapped with the bag."""

    type: Literal["exchanged"]
    player: int = Field(description="the seat number")
    count: int


class SkippedEvent(Event):
    """An empty turn."""

    type: Literal["skipped"]
    player: int = Field(description="the seat number")
    reason: str = Field(description="skip or timeout")


class ForfeitedEvent(Event):
    """A seat is out (three empty turns, or the player left)."""

    type: Literal["forfeited"]
    player: int = Field(description="the seat number")
    reason: str = Field(default=ABSENT, description="'left' when the player left")


class TurnEvent(Event):
    """A seat is on turn."""

    type: Literal["turn"]
    player: int = Field(description="the seat number")
    deadline: float | None = Field(description="seconds since the epoch, null: no clock")


class GameOverEvent(Event):
    """The game is over: the end adjustment and the standings."""

    type: Literal["game_over"]
    reason: str
    closer: int | None
    adjustments: list[int]
    scores: list[int]
    winners: list[int]
    standings: list[int] = Field(description="seats, best first")


class ViewEvent(Event):
    """The table after the step (public: no racks; private: with your rack)."""

    type: Literal["view"]
    view: AbakuView


AbakuEvent = Annotated[
    StartedEvent
    | PlacedEvent
    | ExchangedEvent
    | SkippedEvent
    | ForfeitedEvent
    | TurnEvent
    | GameOverEvent
    | ViewEvent,
    Field(discriminator="type"),
]
"""Every event an Abaku table emits, told apart by ``type``."""

EVENTS = by_union(AbakuEvent)
