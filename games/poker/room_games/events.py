"""The poker rooms' protocol: what players send and what the group game and the duel emit.

Attached to the adapters (``GroupGame.messages``/``events``, ``DuelGame...``);
see ``games/rooms/schemas.py`` for how the runtime and the tests use them.
Cells are 0-24 row by row; cards and values are 1-13 (card 0 is the joker).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictInt

from games.rooms.schemas import Shape, by_type, event, message

# --- client messages -----------------------------------------------------------------

PLACE = message(
    "place",
    "Put the number in hand into a cell.",
    cell=(StrictInt, Field(description="0-24")),
)
USE_JOKER = message(
    "use_joker",
    "Place the joker in hand as a number.",
    cell=(StrictInt, Field(description="0-24")),
    value=(StrictInt, Field(description="1-13")),
)
KEEP_JOKER = message("keep_joker", "Put the joker in hand into the reserve.")
PLACE_KEPT_JOKER = message(
    "place_kept_joker",
    "Place a joker from the reserve as a number.",
    cell=(StrictInt, Field(description="0-24")),
    value=(StrictInt, Field(description="1-13")),
)
DRAW = message("draw", "Group: the host draws the next number. Duel: draw early (empty hand).")
QUIT = message("quit", "Duel: give up the duel.")

BOARD_MESSAGES = by_type(PLACE, USE_JOKER, KEEP_JOKER, PLACE_KEPT_JOKER)

# --- shapes ------------------------------------------------------------------------------


class Settings(Shape):
    table: str
    difficulty: Literal["easy", "hard"]
    seconds: int | None = Field(description="per number in hard mode, else null")


class GroupSettings(Settings):
    host_plays: bool
    coach_seat: bool = Field(default=False, description="the coach robot plays a board too")
    previous_room: int = Field(default=None, description="the round before, if any")


class Player(Shape):
    player_id: int
    nickname: str


class BoardPublic(Shape):
    """What everyone may know of a board while the game runs: no cells."""

    score: int
    filled: int
    handled: int
    forfeited: int
    kept_jokers: int
    over: bool
    completed: bool


class RankedBoard(BoardPublic):
    """A finished duel board in the final ranking."""

    player_id: int
    nickname: str
    cells: list[int | None]
    joker_cells: list[int]
    lines: list[int] = Field(description="the 12 line scores")
    rank: int
    opponent: int
    outcome: Literal["win", "loss", "draw"]


# The engine's events on a player's own board (``games.poker.rules.state``).
_BOARD_EVENTS = [
    event(
        "placed",
        "A number went into a cell.",
        cell=(int, ...),
        value=(int, ...),
        joker=(bool, ...),
        kept=(bool, ...),
        at=(float, ...),
    ),
    event("kept_joker", "The joker went into the reserve.", index=(int, ...), at=(float, ...)),
    event("dealt", "A card reached the board.", index=(int, ...), card=(int, ...), at=(float, ...)),
    event(
        "forfeited",
        "Hard mode: time ran out for a number.",
        index=(int, ...),
        card=(int, ...),
        at=(float, ...),
    ),
    event(
        "joker_expired", "Hard mode: time ran out for a joker.", index=(int, ...), at=(float, ...)
    ),
    event(
        "game_over",
        "The board is decided.",
        completed=(bool, ...),
        score=(int, ...),
        at=(float, ...),
    ),
]
BoardEvent = Annotated[
    _BOARD_EVENTS[0]
    | _BOARD_EVENTS[1]
    | _BOARD_EVENTS[2]
    | _BOARD_EVENTS[3]
    | _BOARD_EVENTS[4]
    | _BOARD_EVENTS[5],
    Field(discriminator="type"),
]

DRAWN = event(
    "drawn",
    "The next card of the shared sequence.",
    index=(int, ...),
    card=(int, Field(description="1-13, 0 for the joker")),
    at=(float, Field(description="server time, seconds since the epoch")),
    closed=(bool, Field(description="the sequence is complete")),
)

# --- per mode ------------------------------------------------------------------------------

GROUP_MESSAGES = {**by_type(DRAW), **BOARD_MESSAGES}
GROUP_EVENTS = by_type(
    event(
        "poker_started",
        "The group game started: everything public about it.",
        kind=(Literal["group"], ...),
        settings=(GroupSettings, ...),
        host_id=(int, ...),
        players=(list[Player], ...),
        sequence=(list[int], ...),
        dealt_at=(list[float], ...),
        closed=(bool, ...),
        ended=(bool, ...),
    ),
    DRAWN,
    event(
        "latecomer",
        "A player joined the running game; the numbers drawn before the one in hand"
        " count as missed on their board.",
        player_id=(int, ...),
    ),
    event(
        "next_round",
        "After the end: the host opened the next round; every page still open goes"
        " there (its players are already seated in it).",
        code=(str, Field(description="the new lobby's join code")),
    ),
    event(
        "board",
        "Private: time decided something on the way (hard mode); the stored board.",
        game=(dict[str, Any], Field(description="the board as `PokerGame.to_dict()`")),
        events=(list[BoardEvent], ...),
    ),
)

DUEL_MESSAGES = {**BOARD_MESSAGES, **by_type(DRAW, QUIT)}
DUEL_EVENTS = by_type(
    event("poker_started", "The duel started.", kind=(Literal["duel"], ...)),
    DRAWN,
    event(
        "duel_progress",
        "Both boards' public progress, after every step.",
        progress=(dict[str, BoardPublic], Field(description="by player id")),
    ),
    event("duel_quit", "A player gave up (or left).", player_id=(int, ...)),
    event(
        "duel_over",
        "The duel is over: the ranking and whether it counts.",
        ranking=(list[RankedBoard], ...),
        recorded=(bool, ...),
        reason=(Literal["quit", "ended", "idle"] | None, ...),
        quit_by=(int | None, ...),
    ),
    event(
        "board",
        "Private: your board after every step.",
        game=(dict[str, Any], Field(description="the board as `PokerGame.to_dict()`")),
    ),
)
