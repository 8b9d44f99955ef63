"""The end of a teacher session reaches the room sockets acting by it at once.

A room socket that acts by a teacher's session (the teacher's own profile,
host rights from the login: ``admission.admit_by_session``) joins two
channel-layer groups at admission and leaves them at disconnect:

- ``session_group(session_key)``: named from a keyed hash of the session key
  (the raw key is a credential and never leaves the web process, not even as a
  Redis channel name);
- ``teacher_group(user_id)``: every session socket of that account.

When a session ends (logout, the idle timeout found on a page request, a login
that replaces it, ``cycle_key``, ``clearsessions``: whatever deletes the
session row) ``session_ended`` tells its sockets to answer ``session_ended``
and close with 4403. When other sessions of an account may have ended without
their rows being deleted (a password change or reset leaves them with a stale
hash; a deleted account leaves them without a user) ``recheck_teacher`` asks
every socket of the account to check its own session and close if it is gone.
``host_rights_ended`` closes a teacher's sockets in given rooms (a co-teacher
taken off a class), with ``not_class_teacher``.

Everything is sent after the commit (``transaction.on_commit``; at once outside
a transaction), through ``delivery.send``. A failed send is logged by the
delivery; the socket's next action still re-checks the session, as before.
The signal receivers are connected in ``RoomsConfig.ready``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.crypto import salted_hmac

from games.rooms import delivery

SESSION_ENDED = "room.session_ended"  # -> RoomConsumer.room_session_ended
SESSION_CHECK = "room.session_check"  # -> RoomConsumer.room_session_check
_SALT = "games.rooms.hostsessions.session_group"


def session_group(session_key: str) -> str:
    """The group of the sockets acting by ``session_key`` (never the key itself)."""
    digest: str = salted_hmac(_SALT, session_key, algorithm="sha256").hexdigest()
    return "session." + digest[:40]


def teacher_group(user_id: int) -> str:
    return f"teacher.{int(user_id)}"


def session_ended(session_key: str | None) -> None:
    """Close every room socket acting by this session (after the commit)."""
    if not session_key:
        return
    group = session_group(session_key)
    transaction.on_commit(lambda: delivery.send(group, {"type": SESSION_ENDED}))


def recheck_teacher(user_id: int | None) -> None:
    """Ask every session socket of the account to check its session (after the commit)."""
    if user_id is None:
        return
    group = teacher_group(user_id)
    transaction.on_commit(lambda: delivery.send(group, {"type": SESSION_CHECK}))


def host_rights_ended(room_ids: Iterable[int], player_id: int) -> None:
    """Close the sockets by which the teacher whose own profile is ``player_id``
    acts in these rooms (after the commit). Pupils never act as a teacher's own
    profile, so the player's group in a room holds only session sockets."""
    deliveries = [
        (delivery.player_group(room_id, player_id), {"type": SESSION_ENDED, "reason": "class"})
        for room_id in room_ids
    ]
    if deliveries:
        transaction.on_commit(lambda: delivery.deliver(deliveries))


def class_rights_ended(*, classroom_id: int, player_id: int) -> None:
    """A teacher (own profile ``player_id``) is no longer a teacher of the class:
    close their sockets in its rooms that are not expired (hosting, seated, or
    the projector of a room just ended)."""
    from django.db.models import Q

    from games.rooms.models import Room

    rooms = (
        Room.objects.filter(classroom_id=classroom_id)
        .exclude(status=Room.Status.EXPIRED)
        .filter(Q(host_id=player_id) | Q(seats__player_id=player_id))
        .values_list("pk", flat=True)
        .distinct()
    )
    host_rights_ended(list(rooms), player_id)


# --- signal receivers (connected in RoomsConfig.ready) ------------------------------


def on_user_logged_out(
    sender: object, request: object = None, user: object = None, **kwargs: Any
) -> None:
    """Logout, also the idle timeout the middleware finds on a page request.

    With database sessions the row's deletion right after sends it again; the
    socket acts on the first message and ignores the rest."""
    session = getattr(request, "session", None)
    session_ended(getattr(session, "session_key", None))


def on_session_deleted(sender: object, instance: Any = None, **kwargs: Any) -> None:
    """A session row deleted: logout (flush), a login replacing the session,
    ``cycle_key`` (a password change keeps the browser logged in under a new
    key; a socket holding the old key is closed, a reload opens one with the new
    key), the account's deletion. Rows already past their expiry (the retention
    task deletes them in batches) are skipped: nothing acts by them."""
    from django.utils import timezone

    if instance is None or (instance.expire_date and instance.expire_date < timezone.now()):
        return
    session_ended(instance.session_key)


def on_user_saved(
    sender: object, instance: Any = None, created: bool = False, **kwargs: Any
) -> None:
    """A new password (changed, reset, set by an admin) leaves the account's other
    sessions logged out without deleting them (their stored hash is stale); a
    deactivated account is logged out everywhere. Django keeps the new raw
    password in ``_password`` until ``save`` has finished."""
    if created or instance is None:
        return
    if getattr(instance, "_password", None) is not None or not instance.is_active:
        recheck_teacher(instance.pk)


def on_user_deleted(sender: object, instance: Any = None, **kwargs: Any) -> None:
    if instance is not None:
        recheck_teacher(instance.pk)
