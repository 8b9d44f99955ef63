"""Matematici's room protocol: what players send and what a table emits.

Attached to ``TheoremsTable``; see ``games/rooms/schemas.py``. Seats are
numbered from 0 in the order of play; cards are catalogue ids. The engine's
log reaches the room as ``log`` events, one typed entry per thing that
happened; each human gets a private ``view`` after every step.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, JsonValue, StrictStr

from games.rooms.schemas import MessageShape, Shape, by_type, event, message


class Action(MessageShape):
    """One engine action; the server adds the sender's seat."""

    type: StrictStr = Field(description="define, draw, play, prove, use, end_turn or choose")
    card: StrictStr = Field(default=None, description="for define, play, prove and use")
    choice: JsonValue = Field(default=None, description="for choose: one of the offered options")


MESSAGES = by_type(
    message(
        "deck",
        "Setup: play with this deck (a starter deck or a saved one, checked by the engine).",
        name=(StrictStr, Field(description="1-60 characters")),
        mathematician=(StrictStr, Field(description="the mathematician card")),
        cards=(list[StrictStr], Field(description="10-20 card ids")),
    ),
    message("action", "Play: one action of the player the engine waits for.", action=(Action, ...)),
)


class Seat(Shape):
    seat: int
    player_id: int | None = Field(description="null for a robot")
    nickname: str | None
    robot: int | bool = Field(description="the robot's number, false for a human")
    ready: bool = Field(description="the seat has a deck")
    deck_name: str | None
    mathematician: str | None = Field(description="shown once the cards are dealt")
    left: bool = Field(default=None, description="only present (true) for a player who left")


_SEAT = (int, Field(description="the seat number"))
_CARD = (str, ...)


def _entry(kind: str, doc: str, **fields: Any) -> Any:
    return event(kind, doc, player=_SEAT, **fields)


_LOG_ENTRIES = [
    event("game_over", "The game is over.", winners=(list[int], ...)),
    _entry("lost", "The seat is out: too bored."),
    _entry("left", "The seat is out: the player left."),
    _entry("turn", "The seat's turn begins.", turn=(int, ...)),
    _entry("define", "A free definition at the start of the turn.", card=_CARD),
    _entry("draw", "Cards drawn.", count=(int, ...)),
    _entry("play", "A card played.", card=_CARD),
    _entry("prove", "A proof worked on.", card=_CARD),
    _entry("use", "A tool used.", card=_CARD),
    _entry("end_turn", "The turn ended."),
    _entry("boredom", "Boredom changed.", amount=(int, ...), boredom=(int, ...)),
    _entry("reshuffle", "The discard pile became the draw pile.", count=(int, ...)),
    _entry("free_reshuffle", "A reshuffle that costs no boredom."),
    _entry("proven", "A theorem is proven.", card=_CARD),
    _entry("progress", "A proof advanced.", card=_CARD, amount=(int, ...), progress=(int, ...)),
    _entry("no_target", "An effect found nothing to act on.", card=_CARD),
    _entry("actions", "Actions gained or lost.", amount=(int, ...), left=(int, ...)),
    _entry("patience", "Patience changed.", amount=(int, ...)),
    _entry("ambition", "Ambition changed.", amount=(int, ...)),
    _entry("difficulty", "A theorem's difficulty changed.", card=_CARD, amount=(int, ...)),
    _entry("discard", "A card discarded.", card=_CARD),
    _entry("steal", "A card taken from another seat.", victim=_SEAT, card=(str | None, ...)),
    _entry("repeat", "An event card repeated.", card=_CARD),
    _entry("fetch", "A card fetched from a pile.", pile=(str, ...), card=(str | None, ...)),
    _entry("burn", "A card burnt.", card=_CARD),
]
LOG_ENTRIES = by_type(*_LOG_ENTRIES)


def _log_entry_union() -> Any:
    union = _LOG_ENTRIES[0]
    for model in _LOG_ENTRIES[1:]:
        union = union | model
    return Annotated[union, Field(discriminator="type")]


EVENTS = by_type(
    event("table", "Who sits where, robots included.", seats=(list[Seat], ...)),
    event("deck_chosen", "A seat chose its deck.", seat=_SEAT),
    event("dealt", "Every seat has a deck: the cards are dealt.", seats=(list[Seat], ...)),
    event("seat_left", "A player left the table.", seat=_SEAT),
    event(
        "log",
        "What happened since the last step, entry by entry.",
        entries=(list[_log_entry_union()], ...),
    ),
    event("view", "Private: the table as you see it, with your hand.", view=(dict[str, Any], ...)),
)
