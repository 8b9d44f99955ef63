"""Client messages and server events checked against their schemas (``games.rooms.schemas``).

``parse_message`` is the runtime's one gate for what a client sends: the shape
is checked before any adapter sees the message, and what comes out -- only the
fields the schema defines -- is what the adapter gets and what the event log
stores (``RoomEvent.action``), so a client cannot park arbitrary JSON in it.

``frame_problems`` checks what the server sends, the `sync` snapshot's view
included (``RoomGame.view_model``); the tests run it on every event they produce
(``tests/rooms/schema_check.py``) and on every frame of a game of every mode.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from pydantic import BaseModel, ValidationError

from games.rooms import schemas
from games.rooms.errors import RoomError
from games.rooms.registry import RoomGame

# pydantic names the member of a union it tried in an error's location; people
# only need the path through the message.
_UNION_TAGS = frozenset({"int", "bool", "str", "float", "none", "list", "dict"})


def message_schema(adapter: RoomGame, kind: object) -> type[BaseModel] | None:
    """The schema of a message ``type`` in this room, or None when it has none."""
    if not isinstance(kind, str):
        return None
    return schemas.MESSAGES.get(kind) or adapter.messages.get(kind)


def field_path(error: ValidationError) -> str:
    """``placements.0.2``: where in the message the first problem is."""
    location = error.errors()[0]["loc"]
    parts = [str(part) for part in location if not (isinstance(part, str) and _is_tag(part))]
    return ".".join(parts) or "type"


def _is_tag(part: str) -> bool:
    return part in _UNION_TAGS or "[" in part


def parse_message(adapter: RoomGame, message: dict[str, Any]) -> dict[str, Any]:
    """The message as its schema defines it, or RoomError (``unknown_type``, ``bad_message``).

    Extra keys are dropped, not refused: an older or newer client may add some.
    The result is what the adapter gets and what the log stores.
    """
    kind = message.get("type")
    model = message_schema(adapter, kind)
    if model is None:
        if not adapter.messages and kind in adapter.message_types | adapter.seat_message_types:
            # A game that declares no schemas at all (a plug-in not typed yet) gets its
            # messages whole, as before; every game of the project is typed (tested).
            return dict(message)
        raise RoomError("unknown_type", _("Unknown message type."))
    try:
        parsed = model.model_validate(message)
    except ValidationError as error:
        path = field_path(error)
        if error.errors()[0]["type"] == "missing":
            text = _("This message lacks the field %(field)s.") % {"field": path}
        else:
            text = _("The field %(field)s of this message has the wrong type.") % {"field": path}
        raise RoomError("bad_message", text) from None
    return parsed.model_dump(mode="json", exclude_unset=True)


def event_schemas(adapter: RoomGame | None, kind: str) -> list[type[BaseModel]]:
    """The schemas an event ``type`` may follow: the runtime's and the game's.

    Both may exist for one name (a game's ``started`` may list the seats; the
    runtime's ``started`` right before it carries nothing).
    """
    found = [schemas.EVENTS.get(kind)]
    if adapter is not None:
        found.append(adapter.events.get(kind))
    return [model for model in found if model is not None]


def event_problem(adapter: RoomGame | None, event: Any) -> str | None:
    """What is wrong with one event of a step, or None when a schema accepts it."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        return f"an event without a type: {event!r}"
    models = event_schemas(adapter, event["type"])
    if not models:
        return f"undeclared event type {event['type']!r}"
    errors = []
    for model in models:
        try:
            model.model_validate(event)
            return None
        except ValidationError as error:
            errors.append(str(error))
    return "\n".join(errors)


def view_problem(adapter: RoomGame | None, view: Any) -> str | None:
    """What is wrong with a `sync` snapshot's ``view``, or None when its model accepts it.

    In the lobby (and for a game that declares no ``view_model``) the view is not checked
    beyond being an object; ``{}`` is the lobby's view.
    """
    if not isinstance(view, dict):
        return f"a view that is not an object: {view!r}"
    model = adapter.view_model if adapter is not None else None
    if model is None or not view:
        return None
    try:
        model.model_validate(view)
    except ValidationError as error:
        return str(error)
    return None


def frame_problems(adapter: RoomGame | None, frame: Any) -> list[str]:
    """Everything wrong with one frame the server sent (empty when it is well typed)."""
    if not isinstance(frame, dict) or frame.get("type") not in schemas.FRAMES:
        return [f"undeclared frame: {frame!r}"]
    try:
        schemas.FRAMES[frame["type"]].model_validate(frame)
    except ValidationError as error:
        return [str(error)]
    problems = []
    if frame["type"] == "sync":
        problem = view_problem(adapter, frame["view"])
        if problem is not None:
            problems.append(problem)
    for event in frame.get("events", []):
        problem = event_problem(adapter, event)
        if problem is not None:
            problems.append(problem)
    return problems
