"""Every room event a test produces is checked against its schema.

``room_events_match_their_schemas`` is an autouse fixture (imported by
``tests/conftest.py``): after each test that uses the database it reads every
room event the test wrote -- the event log is exactly what was delivered, public
parts to the room and private parts to their players, whichever process wrote
it (the uvicorn test servers, Celery, the test itself) -- and fails the test when
an event does not match a schema of its game and mode (``games.rooms.protocol``).
It also checks that each stored move keeps only the fields its schema defines.
"""

from __future__ import annotations

import pytest

DATABASE_FIXTURES = ("db", "transactional_db", "django_db_reset_sequences", "django_db_serialized")


def _database_fixture(request) -> str | None:
    names = set(request.fixturenames)
    marker = request.node.get_closest_marker("django_db")
    if "transactional_db" in names or (marker and marker.kwargs.get("transaction")):
        return "transactional_db"
    if names & set(DATABASE_FIXTURES) or marker is not None:
        return "db"
    return None


def stored_problems(after_id: int = 0) -> list[str]:
    """What is wrong with the room events stored after ``after_id``."""
    from games.rooms import protocol, registry
    from games.rooms.errors import RoomError
    from games.rooms.models import RoomEvent

    problems = []
    events = RoomEvent.objects.filter(id__gt=after_id).select_related("room").order_by("id")
    for stored in events:
        room = stored.room
        try:
            adapter = registry.get(room.game, room.mode)
        except RoomError:  # a game only some other test registers: nothing to check against
            continue
        where = f"room {room.game}/{room.mode} seq {stored.seq} ({stored.kind})"
        parts = [("public", stored.public)] + [
            (f"private to {player}", events) for player, events in stored.private.items()
        ]
        for part, listed in parts:
            for event in listed:
                problem = protocol.event_problem(adapter, event)
                if problem is not None:
                    problems.append(f"{where}, {part}: {problem}")
        if stored.kind in ("move", "seat") and adapter.messages:
            try:
                defined = protocol.parse_message(adapter, stored.action)
            except RoomError as error:
                problems.append(f"{where}: stored move {stored.action!r} refused: {error.code}")
                continue
            if defined != stored.action:
                problems.append(f"{where}: stored move {stored.action!r} is not {defined!r}")
    return problems


@pytest.fixture(autouse=True)
def room_events_match_their_schemas(request):
    fixture = _database_fixture(request)
    if fixture is None:
        yield
        return
    # Set the database up from here, so that it is torn down after the check below.
    request.getfixturevalue(fixture)
    from games.rooms.models import RoomEvent

    before = RoomEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    yield
    problems = stored_problems(before)
    if problems:
        pytest.fail(
            "room events that do not match their schemas (declare new fields in the game's"
            " events.py, then run python -m games.rooms.protocol_doc):\n" + "\n".join(problems[:20])
        )
