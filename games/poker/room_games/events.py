"""The poker rooms' protocol: what players send and what the group game and the duel emit.

Attached to the adapters (``GroupGame.messages``/``events``, ``DuelGame...``);
see ``games/rooms/schemas.py`` for how the runtime and the tests use them.
Cells are 0-24 row by row; cards and values are 1-13 (card 0 is the joker).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictInt

from games.rooms.schemas import ABSENT, Event, Message, Shape, by_union

# --- client messages -----------------------------------------------------------------


class PlaceMessage(Message):
    """Put the number in hand into a cell."""

    type: Literal["place"]
    cell: StrictInt = Field(description="0-24")


class UseJokerMessage(Message):
    """Place the joker in hand as a number."""

    type: Literal["use_joker"]
    cell: StrictInt = Field(description="0-24")
    value: StrictInt = Field(description="1-13")


class KeepJokerMessage(Message):
    """Put the joker in hand into the reserve."""

    type: Literal["keep_joker"]


class PlaceKeptJokerMessage(Message):
    """Place a joker from the reserve as a number."""

    type: Literal["place_kept_joker"]
    cell: StrictInt = Field(description="0-24")
    value: StrictInt = Field(description="1-13")


class DrawMessage(Message):
    """Group: the host draws the next number. Duel: draw early (empty hand)."""

    type: Literal["draw"]


class QuitMessage(Message):
    """Duel: give up the duel."""

    type: Literal["quit"]


BoardMessage = Annotated[
    PlaceMessage | UseJokerMessage | KeepJokerMessage | PlaceKeptJokerMessage,
    Field(discriminator="type"),
]
"""A move on a player's own board (group game: per seat)."""

BOARD_MESSAGES = by_union(BoardMessage)

# --- shapes ------------------------------------------------------------------------------


class Settings(Shape):
    table: str
    difficulty: Literal["easy", "hard"]
    seconds: int | None = Field(description="per number in hard mode, else null")


class GroupSettings(Settings):
    host_plays: bool
    coach_seat: bool = Field(default=False, description="the coach robot plays a board too")
    previous_room: int = Field(default=ABSENT, description="the round before, if any")


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


class PokerBoard(Shape):
    """A board as ``PokerGame.to_dict()`` stores it (``games.poker.rules.state``)."""

    version: int
    table: str
    mode: str
    seconds_per_card: float | None
    cells: list[int | None] = Field(description="25 cells, row by row")
    joker_cells: list[int]
    sequence: list[int]
    dealt_at: list[float]
    handled: int
    handled_at: float | None
    kept_jokers: int
    forfeited: int
    deck: list[int] | None
    closed: bool
    started_at: float | None
    finished_at: float | None


class DuelFinal(Shape):
    """How a duel ended (``duel_over`` carries the same)."""

    ranking: list[RankedBoard]
    recorded: bool
    reason: Literal["quit", "ended", "idle"] | None
    quit_by: int | None


class GroupView(Shape):
    """What one person sees of a group game."""

    kind: Literal["group"]
    settings: GroupSettings
    host_id: int
    players: list[Player]
    sequence: list[int]
    dealt_at: list[float]
    closed: bool
    ended: bool
    server_now: float = Field(description="server time, seconds since the epoch")
    you_play: bool
    game: PokerBoard | None = Field(description="your board, null when you do not play")
    missed: int = Field(default=ABSENT, description="for a player: numbers drawn before joining")


class DuelView(Shape):
    """What one person sees of a duel."""

    kind: Literal["duel"]
    settings: Settings
    players: list[Player]
    server_now: float = Field(description="server time, seconds since the epoch")
    dealt: int
    closed: bool
    progress: dict[str, BoardPublic] = Field(description="by player id")
    game: PokerBoard | None = Field(description="your board, null for a spectator")
    ended: bool
    final: DuelFinal = Field(default=ABSENT, description="once the duel is over")


# The engine's events on a player's own board (``games.poker.rules.state``).


class PlacedEvent(Event):
    """A number went into a cell."""

    type: Literal["placed"]
    cell: int
    value: int
    joker: bool
    kept: bool
    at: float


class KeptJokerEvent(Event):
    """The joker went into the reserve."""

    type: Literal["kept_joker"]
    index: int
    at: float


class DealtEvent(Event):
    """A card reached the board."""

    type: Literal["dealt"]
    index: int
    card: int
    at: float


class ForfeitedEvent(Event):
    """Hard mode: time ran out for a number."""

    type: Literal["forfeited"]
    index: int
    card: int
    at: float


class JokerExpiredEvent(Event):
    """Hard mode: time ran out for a joker."""

    type: Literal["joker_expired"]
    index: int
    at: float


class GameOverEvent(Event):
    """The board is decided."""

    type: Literal["game_over"]
    completed: bool
    score: int
    at: float


BoardEvent = Annotated[
    PlacedEvent | KeptJokerEvent | DealtEvent | ForfeitedEvent | JokerExpiredEvent | GameOverEvent,
    Field(discriminator="type"),
]
"""What happened on a player's own board, told apart by ``type``."""


class DrawnEvent(Event):
    """The next card of the shared sequence."""

    type: Literal["drawn"]
    index: int
    card: int = Field(description="1-13, 0 for the joker")
    at: float = Field(description="server time, seconds since the epoch")
    closed: bool = Field(description="the sequence is complete")


# --- per mode ------------------------------------------------------------------------------


class GroupStartedEvent(Event):
    """The group game started: everything public about it."""

    type: Literal["poker_started"]
    kind: Literal["group"]
    settings: GroupSettings
    host_id: int
    players: list[Player]
    sequence: list[int]
    dealt_at: list[float]
    closed: bool
    ended: bool


class LatecomerEvent(Event):
    """A player joined the running game; the numbers drawn before the one in hand count as missed on their board."""

    type: Literal["latecomer"]
    player_id: int


class NextRoundEvent(Event):
    """After the end: the host opened the next round; every page still open goes there (its players are already seated in it)."""

    type: Literal["next_round"]
    code: str = Field(description="the new lobby's join code")


class GroupBoardEvent(Event):
    """Private: time decided something on the way (hard mode); the stored board."""

    type: Literal["board"]
    game: PokerBoard = Field(description="the board as `PokerGame.to_dict()`")
    events: list[BoardEvent]


GroupMessage = Annotated[
    DrawMessage | PlaceMessage | UseJokerMessage | KeepJokerMessage | PlaceKeptJokerMessage,
    Field(discriminator="type"),
]
"""Every message of the group game, told apart by ``type``."""

GroupEvent = Annotated[
    GroupStartedEvent | DrawnEvent | LatecomerEvent | NextRoundEvent | GroupBoardEvent,
    Field(discriminator="type"),
]
"""Every event of the group game, told apart by ``type``."""

GROUP_MESSAGES = by_union(GroupMessage)
GROUP_EVENTS = by_union(GroupEvent)


class DuelStartedEvent(Event):
    """The duel started."""

    type: Literal["poker_started"]
    kind: Literal["duel"]


class DuelProgressEvent(Event):
    """Both boards' public progress, after every step."""

    type: Literal["duel_progress"]
    progress: dict[str, BoardPublic] = Field(description="by player id")


class DuelQuitEvent(Event):
    """A player gave up (or left)."""

    type: Literal["duel_quit"]
    player_id: int


class DuelOverEvent(Event):
    """The duel is over: the ranking and whether it counts."""

    type: Literal["duel_over"]
    ranking: list[RankedBoard]
    recorded: bool
    reason: Literal["quit", "ended", "idle"] | None
    quit_by: int | None


class DuelBoardEvent(Event):
    """Private: your board after every step."""

    type: Literal["board"]
    game: PokerBoard = Field(description="the board as `PokerGame.to_dict()`")


DuelMessage = Annotated[
    PlaceMessage
    | UseJokerMessage
    | KeepJokerMessage
    | PlaceKeptJokerMessage
    | DrawMessage
    | QuitMessage,
    Field(discriminator="type"),
]
"""Every message of the duel, told apart by ``type``."""

DuelEvent = Annotated[
    DuelStartedEvent
    | DrawnEvent
    | DuelProgressEvent
    | DuelQuitEvent
    | DuelOverEvent
    | DuelBoardEvent,
    Field(discriminator="type"),
]
"""Every event of the duel, told apart by ``type``."""

DUEL_MESSAGES = by_union(DuelMessage)
DUEL_EVENTS = by_union(DuelEvent)
