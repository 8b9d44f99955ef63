"""Mathesso's room protocol: what players send and what a table emits.

Attached to ``MathessoTable`` (and so to solo practice); see
``games/rooms/schemas.py``. Players are profile ids as strings, tiles are
indexes into the table's layout. Every event is public: the faces of tiles
face down never leave the server.
"""

from __future__ import annotations

from pydantic import Field, StrictInt

from games.rooms.schemas import Shape, by_type, event, message

MESSAGES = by_type(
    message(
        "flip",
        "Turn a tile face up (to decide the order, or in your turn).",
        tile=(StrictInt, Field(description="the tile's index on the table")),
    ),
    message("end_turn", "End your turn after one flip, or decline an offered extra turn."),
)

_PLAYER = (str, Field(description="the player's profile id"))


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


EVENTS = by_type(
    event("game_started", "The table is laid out.", variant=(str, ...)),
    event(
        "turn_started",
        "A player is on turn.",
        player=_PLAYER,
        round=(int, ...),
        extra=(bool, Field(default=False, description="an extra turn")),
    ),
    event(
        "order_tie",
        "Deciding the order: these players flip another 1 tile, tie by tie.",
        players=(list[str], ...),
        groups=(list[Tie], ...),
    ),
    event("order_lots", "A tie the lot decided, in this order.", players=(list[str], ...)),
    event("order_decided", "The order of play.", order=(list[str], ...)),
    event("turned_back", "These tiles are face down again.", tiles=(list[int], ...)),
    event(
        "flipped",
        "A tile was turned face up.",
        player=_PLAYER,
        tile=(int, ...),
        bw=(int | str, Field(description="the black-and-white side: a number, or '!'")),
        face=(str, ...),
        group=(str, ...),
        value=(int, ...),
        picture=(Picture, Field(default=None, description="what to draw")),
    ),
    event("extra_turn_offered", "The player may take an extra turn.", player=_PLAYER),
    event("extra_turn_taken", "The player took the extra turn.", player=_PLAYER),
    event("extra_turn_declined", "The player declined the extra turn.", player=_PLAYER),
    event(
        "pair_taken",
        "Two equal faces: the player keeps the pair.",
        player=_PLAYER,
        tiles=(list[int], ...),
        face=(str, ...),
    ),
    event("sheldon", "The player completed a Sheldon.", player=_PLAYER),
    event("no_pair", "The two faces differ.", player=_PLAYER, tiles=(list[int], ...)),
    event("turn_ended", "The player's turn is over.", player=_PLAYER),
    event("player_gone", "A player left the table for good.", player=_PLAYER),
    event(
        "game_over",
        "The game is over.",
        scores=(dict[str, int], Field(description="by player")),
        winners=(list[str], ...),
        draw=(bool, ...),
    ),
)
