"""Write operations on rooms: the public service functions, one transaction per intent.

The work is split by job; this module re-exports what callers use:

- ``games.rooms.lifecycle``: create, join, leave, kick, lock, start, end;
- ``games.rooms.moves``: ``submit`` -- room-wide and per-seat moves, idempotency;
- ``games.rooms.expiry``: expiring stale rooms, evaluating passed deadlines;
- ``games.rooms.delivery``: channel-layer groups and after-commit sends;
- ``games.rooms.steps``: the event log and helpers every write shares.
"""

from games.rooms.delivery import OUTBOX, player_group, room_group
from games.rooms.errors import RoomError
from games.rooms.expiry import expire_stale_rooms, tick_due_rooms, tick_room
from games.rooms.lifecycle import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ROOM_LIFETIME,
    create_and_start,
    create_room,
    end_room,
    hand_over_lobbies,
    join_room,
    kick,
    leave_room,
    normalise_code,
    rematch,
    set_locked,
    start_room,
)
from games.rooms.moves import submit
from games.rooms.steps import seat_public

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "OUTBOX",
    "ROOM_LIFETIME",
    "RoomError",
    "create_and_start",
    "create_room",
    "end_room",
    "expire_stale_rooms",
    "hand_over_lobbies",
    "join_room",
    "kick",
    "leave_room",
    "normalise_code",
    "rematch",
    "player_group",
    "room_group",
    "seat_public",
    "set_locked",
    "start_room",
    "submit",
    "tick_due_rooms",
    "tick_room",
]
