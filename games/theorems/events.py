"""Matematici's room protocol: what players send and what a table emits.

Attached to ``TheoremsTable``; see ``games/rooms/schemas.py``. Seats are
numbered from 0 in the order of play; cards are catalogue ids. The engine's
log reaches the room as ``log`` events, one typed entry per thing that
happened; each human gets a private ``view`` after every step.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue, StrictStr

from games.rooms.schemas import ABSENT, Event, Message, MessageShape, Shape, by_union


class Action(MessageShape):
    """One engine action; the server adds the sender's seat."""

    type: StrictStr = Field(description="define, draw, play, prove, use, end_turn or choose")
    card: StrictStr = Field(default=ABSENT, description="for define, play, prove and use")
    choice: JsonValue = Field(default=ABSENT, description="for choose: one of the offered options")


class DeckMessage(Message):
    """Setup: play with this deck (a starter deck or a saved one, checked by the engine)."""

    type: Literal["deck"]
    name: StrictStr = Field(description="1-60 characters")
    mathematician: StrictStr = Field(description="the mathematician card")
    cards: list[StrictStr] = Field(description="10-20 card ids")


class ActionMessage(Message):
    """Play: one action of the player the engine waits for."""

    type: Literal["action"]
    action: Action


TheoremsMessage = Annotated[DeckMessage | ActionMessage, Field(discriminator="type")]
"""Every message a Matematici player sends, told apart by ``type``."""

MESSAGES = by_union(TheoremsMessage)


class Seat(Shape):
    seat: int
    player_id: int | None = Field(description="null for a robot")
    nickname: str | None
    robot: int | bool = Field(description="the robot's number, false for a human")
    ready: bool = Field(description="the seat has a deck")
    deck_name: str | None
    mathematician: str | None = Field(description="shown once the cards are dealt")
    left: bool = Field(default=ABSENT, description="only present (true) for a player who left")


class GameOverEvent(Event):
    """The game is over."""

    type: Literal["game_over"]
    winners: list[int]


class LostEvent(Event):
    """The seat is out: too bored."""

    type: Literal["lost"]
    player: int = Field(description="the seat number")


class LeftEvent(Event):
    """The seat is out: the player left."""

    type: Literal["left"]
    player: int = Field(description="the seat number")


class TurnEvent(Event):
    """The seat's turn begins."""

    type: Literal["turn"]
    player: int = Field(description="the seat number")
    turn: int


class DefineEvent(Event):
    """A free definition at the start of the turn."""

    type: Literal["define"]
    player: int = Field(description="the seat number")
    card: str


class DrawEvent(Event):
    """Cards drawn."""

    type: Literal["draw"]
    player: int = Field(description="the seat number")
    count: int


class PlayEvent(Event):
    """A card played."""

    type: Literal["play"]
    player: int = Field(description="the seat number")
    card: str


class ProveEvent(Event):
    """A proof worked on."""

    type: Literal["prove"]
    player: int = Field(description="the seat number")
    card: str


class UseEvent(Event):
    """A tool used."""

    type: Literal["use"]
    player: int = Field(description="the seat number")
    card: str


class EndTurnEvent(Event):
    """The turn ended."""

    type: Literal["end_turn"]
    player: int = Field(description="the seat number")


class BoredomEvent(Event):
    """Boredom changed."""

    type: Literal["boredom"]
    player: int = Field(description="the seat number")
    amount: int
    boredom: int


class ReshuffleEvent(Event):
    """The discard pile became the draw pile."""

    type: Literal["reshuffle"]
    player: int = Field(description="the seat number")
    count: int


class FreeReshuffleEvent(Event):
    """A reshuffle that costs no boredom."""

    type: Literal["free_reshuffle"]
    player: int = Field(description="the seat number")


class ProvenEvent(Event):
    """A theorem is proven."""

    type: Literal["proven"]
    player: int = Field(description="the seat number")
    card: str


class ProgressEvent(Event):
    """A proof advanced."""

    type: Literal["progress"]
    player: int = Field(description="the seat number")
    card: str
    amount: int
    progress: int


class NoTargetEvent(Event):
    """An effect found nothing to act on."""

    type: Literal["no_target"]
    player: int = Field(description="the seat number")
    card: str


class ActionsEvent(Event):
    """Actions gained or lost."""

    type: Literal["actions"]
    player: int = Field(description="the seat number")
    amount: int
    left: int


class PatienceEvent(Event):
    """Patience changed."""

    type: Literal["patience"]
    player: int = Field(description="the seat number")
    amount: int


class AmbitionEvent(Event):
    """Ambition changed."""

    type: Literal["ambition"]
    player: int = Field(description="the seat number")
    amount: int


class DifficultyEvent(Event):
    """A theorem's difficulty changed."""

    type: Literal["difficulty"]
    player: int = Field(description="the seat number")
    card: str
    amount: int


class DiscardEvent(Event):
    """A card discarded."""

    type: Literal["discard"]
    player: int = Field(description="the seat number")
    card: str


class StealEvent(Event):
    """A card taken from another seat."""

    type: Literal["steal"]
    player: int = Field(description="the seat number")
    victim: int = Field(description="the seat number")
    card: str | None


class RepeatEvent(Event):
    """An event card repeated."""

    type: Literal["repeat"]
    player: int = Field(description="the seat number")
    card: str


class FetchEvent(Event):
    """A card fetched from a pile."""

    type: Literal["fetch"]
    player: int = Field(description="the seat number")
    pile: str
    card: str | None


class BurnEvent(Event):
    """A card burnt."""

    type: Literal["burn"]
    player: int = Field(description="the seat number")
    card: str


LogEntry = Annotated[
    GameOverEvent
    | LostEvent
    | LeftEvent
    | TurnEvent
    | DefineEvent
    | DrawEvent
    | PlayEvent
    | ProveEvent
    | UseEvent
    | EndTurnEvent
    | BoredomEvent
    | ReshuffleEvent
    | FreeReshuffleEvent
    | ProvenEvent
    | ProgressEvent
    | NoTargetEvent
    | ActionsEvent
    | PatienceEvent
    | AmbitionEvent
    | DifficultyEvent
    | DiscardEvent
    | StealEvent
    | RepeatEvent
    | FetchEvent
    | BurnEvent,
    Field(discriminator="type"),
]
"""One entry of the engine's log, told apart by ``type``."""

LOG_ENTRIES = by_union(LogEntry)


# --- what a player sees ---------------------------------------------------------------


class Decision(Shape):
    player: int = Field(description="the seat that decides")
    kind: str
    source: str | None
    options: list[JsonValue] = Field(default=ABSENT, description="only for the seat that decides")


class Theorem(Shape):
    card: str
    progress: int
    difficulty: int
    difficulty_delta: int


class PlayerView(Shape):
    seat: int
    mathematician: str
    boredom: int
    patience: int
    ambition: int
    hand_limit: int
    hand_count: int
    draw_pile_count: int
    discard_pile: list[str] = Field(description="sorted")
    theorems: list[Theorem]
    tools: list[str]
    definition: str | None
    proven: list[str]
    resolving: list[str]
    reshuffles: int
    lost: bool
    hand: list[str] = Field(default=ABSENT, description="only your own")


class GameView(Shape):
    """The engine's view (``games.theorems.rules.view``): no other hand, no pile order."""

    status: str
    winners: list[int]
    current: int
    to_act: int | None
    start_player: int
    turn_number: int
    actions_left: int
    free_definition: bool
    proved_this_turn: list[str]
    tools_used: list[str]
    events_played: list[str]
    burn: bool
    decision: Decision | None
    players: list[PlayerView]
    log: list[LogEntry] = Field(default=ABSENT, description="only in a `sync` snapshot")
    legal_actions: list[dict[str, JsonValue]] = Field(
        description="the engine's actions, only for the seat to act"
    )


class MyDeck(Shape):
    name: str
    mathematician: str
    cards: list[str]


class TheoremsView(Shape):
    """What one player sees of a Matematici table (`sync` and `view` events)."""

    phase: str = Field(description="setup, playing, finished or ended")
    you: int | None = Field(description="your seat, null for a spectator")
    seats: list[Seat]
    burn: bool
    robot_delay_ms: int
    game: GameView | None = Field(description="null until the cards are dealt")
    my_deck: MyDeck | None = Field(default=ABSENT, description="absent for a spectator")


class TableEvent(Event):
    """Who sits where, robots included."""

    type: Literal["table"]
    seats: list[Seat]


class DeckChosenEvent(Event):
    """A seat chose its deck."""

    type: Literal["deck_chosen"]
    seat: int = Field(description="the seat number")


class DealtEvent(Event):
    """Every seat has a deck: the cards are dealt."""

    type: Literal["dealt"]
    seats: list[Seat]


class SeatLeftEvent(Event):
    """A player left the table."""

    type: Literal["seat_left"]
    seat: int = Field(description="the seat number")


class LogEvent(Event):
    """What happened since the last step, entry by entry."""

    type: Literal["log"]
    entries: list[LogEntry]


class ViewEvent(Event):
    """Private: the table as you see it, with your hand."""

    type: Literal["view"]
    view: TheoremsView


TheoremsEvent = Annotated[
    TableEvent | DeckChosenEvent | DealtEvent | SeatLeftEvent | LogEvent | ViewEvent,
    Field(discriminator="type"),
]
"""Every event a Matematici table emits, told apart by ``type``."""

EVENTS = by_union(TheoremsEvent)
