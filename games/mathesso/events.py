"""Mathesso's room protocol: what players send and what a table emits.

Attached to ``MathessoTable`` (and so to solo practice); see
``games/rooms/schemas.py``. Players are profile ids as strings, tiles are
indexes into the table's layout. Every event is public: the faces of tiles
face down never leave the server.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue, StrictInt

from games.rooms.schemas import ABSENT, Event, Message, Shape, by_union


class FlipMessage(Message):
    """Turn a tile face up (to decide the order, or in your turn)."""

    type: Literal["flip"]
    tile: StrictInt = Field(description="the tile's index on the table")


class EndTurnMessage(Message):
    """End your turn after one flip, or decline an offered extra turn."""

    type: Literal["end_turn"]


MathessoMessage = Annotated[FlipMessage | EndTurnMessage, Field(discriminator="type")]
"""Every message a Mathesso player sends, told apart by ``type``."""

MESSAGES = by_union(MathessoMessage)


class Digit(Shape):
    digit: str
    colours: list[str] = Field(description="one colour, or two halves")


class Tie(Shape):
    players: list[str] = Field(description="in seat order")
    value: int = Field(description="the coloured number they all found")


class Picture(Shape):
    """What a tile's coloured side shows, exactly as it is drawn (`tiles.Picture`)."""

    value: int
    digits: list[Digit]
    background: str
    background_hex: list[str]
    behind: int | None = Field(description="a zero's translucent number behind the 0")
    dots: int = Field(description="marks under a zero's 0")
    hint: str | None = Field(description="a factorial's small n!")
    design: int | None = Field(description="CJV design I or II")


# --- what a player sees ---------------------------------------------------------------


class BoardSize(Shape):
    width: float
    height: float


class Tile(Shape):
    """A tile on the table: its face only while it is face up or taken."""

    id: int
    bw: int | str = Field(description="the black-and-white side: a number, or '!'")
    x: float
    y: float
    rot: float
    up: bool
    owner: str | None
    face: str = Field(default=ABSENT, description="face up or taken")
    group: str = Field(default=ABSENT, description="face up or taken")
    value: int = Field(default=ABSENT, description="face up or taken")
    picture: Picture = Field(default=ABSENT, description="face up: what to draw")


class PlayerView(Shape):
    id: str
    pairs: list[str] = Field(description="one face per pair taken")
    score: int
    turns: int
    sheldons: int
    extra_turns: int
    gone: bool


class Ordering(Shape):
    """Deciding the order of play."""

    waiting: list[str]
    draws: dict[str, list[int]] = Field(description="tiles each player flipped, by player")
    again: list[Tie]
    notice: str = Field(default=ABSENT, description="what this viewer is told about a tie")


class Turn(Shape):
    player: str
    flips: list[int]
    extra: bool
    offer: bool


class Result(Shape):
    scores: dict[str, int] = Field(description="by player")
    winners: list[str]
    draw: bool
    breakdown: dict[str, dict[str, JsonValue]] = Field(
        description="by player: `scoring.score_breakdown`"
    )


class MathessoView(Shape):
    """What one player sees of a Mathesso table (every player sees the same board)."""

    game: Literal["mathesso"]
    variant: str
    extensions: list[str]
    points: bool
    phase: str = Field(description="order, play or over")
    round: int
    board: BoardSize
    tiles: list[Tile]
    players: list[PlayerView]
    ordering: Ordering | None
    turn: Turn | None
    shown: list[int]
    result: Result | None
    you: str | None = Field(description="your profile id, null for a spectator")
    actions: list[str] = Field(description="the message types you may send now")
    ended: bool = Field(description="the host ended the game")


class GameStartedEvent(Event):
    """The table is laid out."""

    type: Literal["game_started"]
    variant: str


class TurnStartedEvent(Event):
    """A player is on turn."""

    type: Literal["turn_started"]
    player: str = Field(description="the player's profile id")
    round: int
    extra: bool = Field(default=False, description="an extra turn")


class OrderTieEvent(Event):
    """Deciding the order: these players flip another 1 tile, tie by tie."""

    type: Literal["order_tie"]
    players: list[str]
    groups: list[Tie]


class OrderLotsEvent(Event):
    """A tie the lot decided, in this order."""

    type: Literal["order_lots"]
    players: list[str]


class OrderDecidedEvent(Event):
    """The order of play."""

    type: Literal["order_decided"]
    order: list[str]


class TurnedBackEvent(Event):
    """These tiles are face down again."""

    type: Literal["turned_back"]
    tiles: list[int]


class FlippedEvent(Event):
    """A tile was turned face up."""

    type: Literal["flipped"]
    player: str = Field(description="the player's profile id")
    tile: int
    bw: int | str = Field(description="the black-and-white side: a number, or '!'")
    face: str
    group: str
    value: int
    picture: Picture = Field(default=ABSENT, description="what to draw")


class ExtraTurnOfferedEvent(Event):
    """The player may take an extra turn."""

    type: Literal["extra_turn_offered"]
    player: str = Field(description="the player's profile id")


class ExtraTurnTakenEvent(Event):
    """The player took the extra turn."""

    type: Literal["extra_turn_taken"]
    player: str = Field(description="the player's profile id")


class ExtraTurnDeclinedEvent(Event):
    """The player declined the extra turn."""

    type: Literal["extra_turn_declined"]
    player: str = Field(description="the player's profile id")


class PairTakenEvent(Event):
    """Two equal faces: the player keeps the pair."""

    type: Literal["pair_taken"]
    player: str = Field(description="the player's profile id")
    tiles: list[int]
    face: str


class SheldonEvent(Event):
    """The player completed a Sheldon."""

    type: Literal["sheldon"]
    player: str = Field(description="the player's profile id")


class NoPairEvent(Event):
    """The two faces differ."""

    type: Literal["no_pair"]
    player: str = Field(description="the player's profile id")
    tiles: list[int]


class TurnEndedEvent(Event):
    """The player's turn is over."""

    type: Literal["turn_ended"]
    player: str = Field(description="the player's profile id")


class PlayerGoneEvent(Event):
    """A player left the table for good."""

    type: Literal["player_gone"]
    player: str = Field(description="the player's profile id")


class GameOverEvent(Event):
    """The game is over."""

    type: Literal["game_over"]
    scores: dict[str, int] = Field(description="by player")
    winners: list[str]
    draw: bool


MathessoEvent = Annotated[
    GameStartedEvent
    | TurnStartedEvent
    | OrderTieEvent
    | OrderLotsEvent
    | OrderDecidedEvent
    | TurnedBackEvent
    | FlippedEvent
    | ExtraTurnOfferedEvent
    | ExtraTurnTakenEvent
    | ExtraTurnDeclinedEvent
    | PairTakenEvent
    | SheldonEvent
    | NoPairEvent
    | TurnEndedEvent
    | PlayerGoneEvent
    | GameOverEvent,
    Field(discriminator="type"),
]
"""Every event a Mathesso table emits, told apart by ``type``."""

EVENTS = by_union(MathessoEvent)
