"""Kicks, expiry, deadlines, per-seat moves and replay, through the real servers."""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import retention
from games.rooms import selectors, services, tasks
from games.rooms.errors import RoomError
from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live]


@pytest.fixture
def lobby(transactional_db, make_player):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    return room, host, guest


def test_a_kicked_player_is_told_disconnected_and_cannot_reconnect(lobby, server, open_socket):
    room, host, guest = lobby
    host_socket, guest_socket = (open_socket(server, room.code, p) for p in (host, guest))
    host_socket.recv(), guest_socket.recv()
    assert host_socket.request({"type": "kick", "player_id": guest.id})["type"] == "ack"
    told = guest_socket.recv_until(lambda m: m["type"] == "kicked")
    assert told["message"] == "The host removed you from this room."
    again = open_socket(server, room.code, guest).recv()
    assert again["code"] == "kicked"
    assert host_socket.event("player_kicked")["events"] == [
        {"type": "player_kicked", "player_id": guest.id}
    ]


def test_expiry_after_six_hours_tells_connected_players(lobby, server, open_socket):
    room, host, guest = lobby
    socket = open_socket(server, room.code, guest)
    socket.recv()
    assert services.expire_stale_rooms(now=timezone.now()) == 0
    later = timezone.now() + timedelta(hours=6, seconds=1)
    assert services.expire_stale_rooms(now=later) == 1
    told = socket.event("expired")
    assert told["seq"] == Room.objects.get(pk=room.pk).seq
    assert Room.objects.get(pk=room.pk).status == "expired"
    assert services.expire_stale_rooms(now=later) == 0  # idempotent
    with pytest.raises(RoomError) as refused:
        services.join_room(room=room, player=host.profile)
    assert refused.value.code == "room_expired"


def test_expiry_catches_up_on_many_rooms_and_is_safe_on_parallel_workers(
    transactional_db, make_player
):
    host = make_player()
    rooms = [
        services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
        for _ in range(130)
    ]
    Room.objects.filter(pk__in=[r.pk for r in rooms]).update(
        expires_at=timezone.now() - timedelta(days=2)
    )
    counts = []

    def worker():
        counts.append(services.expire_stale_rooms())
        from django.db import connection

        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(counts) == 130
    assert not selectors.live_rooms().exists()
    assert RoomEvent.objects.filter(kind="expire").count() == 130


def test_the_celery_worker_runs_the_expiry_task(lobby, celery_worker_process):
    room, host, guest = lobby
    Room.objects.filter(pk=room.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert tasks.expire_stale_rooms.delay().get(timeout=30) == 1
    assert Room.objects.get(pk=room.pk).status == "expired"


def test_the_expiry_task_is_scheduled_in_celery_beat(db):
    """The data migration's schedule (re-applied: other tests truncate the tables)."""
    import importlib

    from django.apps import apps
    from django_celery_beat.models import PeriodicTask

    migration = importlib.import_module("games.rooms.migrations.0002_periodic_tasks")
    migration.create_tasks(apps, None)
    migration.create_tasks(apps, None)  # idempotent
    assert PeriodicTask.objects.filter(task="rooms.expire_stale_rooms").count() == 1
    ours = PeriodicTask.objects.filter(enabled=True, task__startswith="rooms.")
    scheduled = {t.task: t.interval.every for t in ours}
    assert scheduled["rooms.expire_stale_rooms"] == 60
    assert "rooms.tick_due_rooms" in scheduled


def test_deadlines_are_enforced_from_stored_time(lobby, server, open_socket):
    room, host, guest = lobby
    services.start_room(room=room, actor=host.profile)
    host_socket = open_socket(server, room.code, host)
    host_socket.recv()
    host_socket.request({"type": "deal"})
    room.refresh_from_db()
    assert room.next_tick_at is not None
    assert services.tick_due_rooms(now=room.next_tick_at - timedelta(seconds=1)) == 0
    assert services.tick_due_rooms(now=room.next_tick_at + timedelta(seconds=1)) == 1
    assert host_socket.event("timeout")["events"] == [{"type": "timeout", "timeouts": 1}]
    room.refresh_from_db()
    assert room.state["timeouts"] == 1 and room.next_tick_at is None


def test_a_seq_gap_is_resolved_by_sync(lobby, server, open_socket):
    room, host, guest = lobby
    services.start_room(room=room, actor=host.profile)
    socket = open_socket(server, room.code, guest)
    seen = socket.recv()["seq"]
    socket.close()  # missed events while away
    for _ in range(3):
        services.submit(
            room_id=room.pk, player=host.profile, client_id=f"h{_}", message={"type": "add", "n": 1}
        )
    socket = open_socket(server, room.code, guest)
    snapshot = socket.request({"type": "sync"})
    assert snapshot["seq"] == seen + 3
    assert snapshot["view"]["total"] == 3


def test_per_seat_moves_lock_only_their_seat_and_are_all_kept(
    transactional_db, make_player, server, open_socket
):
    host = make_player("Dealer")
    room = services.create_room(game=GAME, mode="group", host=host.profile, settings={})
    players = [make_player() for _ in range(8)]
    for player in players:
        services.join_room(room=room, player=player.profile)
    services.start_room(room=room, actor=host.profile)
    watcher = open_socket(server, room.code, host)
    start_seq = watcher.recv()["seq"]
    sockets = [open_socket(server, room.code, p) for p in players]
    for socket in sockets:
        socket.recv()
    ids = [socket.send({"type": "place", "n": 3}) for socket in sockets]
    answers = [socket.answer_to(i) for socket, i in zip(sockets, ids, strict=True)]
    assert all(a["type"] == "ack" for a in answers)
    assert sorted(a["seq"] for a in answers) == list(range(start_seq + 1, start_seq + 9))
    for socket in sockets:
        assert socket.event("placed")["type"] == "private"
    seats = Seat.objects.filter(room=room, role="player")
    assert all(seat.state == {"placed": [3]} for seat in seats)
    progress = [watcher.event("progress")["seq"] for _ in players]
    assert sorted(progress) == list(range(start_seq + 1, start_seq + 9))


def test_the_state_can_be_rebuilt_from_the_event_log(lobby, make_player):
    room, host, guest = lobby
    services.start_room(room=room, actor=host.profile)
    for number, who in enumerate([guest, host, guest, host]):
        services.submit(
            room_id=room.pk,
            player=who.profile,
            client_id=f"r{number}",
            message={"type": "add", "n": number + 1},
        )
    services.submit(room_id=room.pk, player=host.profile, client_id="d", message={"type": "deal"})
    room.refresh_from_db()
    services.tick_room(room_id=room.pk, now=room.next_tick_at + timedelta(seconds=1))
    room.refresh_from_db()
    state, _seats = selectors.rebuild_state(room)
    assert state == room.state
    assert state["total"] == 10 and state["timeouts"] == 1


def test_event_seq_is_gapless_and_unique_per_room(lobby):
    room, host, guest = lobby
    services.start_room(room=room, actor=host.profile)
    services.submit(
        room_id=room.pk, player=guest.profile, client_id="a", message={"type": "add", "n": 1}
    )
    seqs = list(RoomEvent.objects.filter(room=room).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_answers_to_message_ids_are_forgotten_a_day_after_the_room_closed(lobby):
    room, host, guest = lobby
    services.submit(room_id=room.pk, player=host.profile, client_id="L1", message={"type": "lock"})
    assert ProcessedMessage.objects.filter(room=room).count() == 1
    services.end_room(room=room, actor=host.profile)
    # settings.RETENTION["processed_message_days"], applied by accounts/retention.py
    retention.apply_retention(now=timezone.now() + timedelta(hours=1))
    assert ProcessedMessage.objects.filter(room=room).count() == 1
    retention.apply_retention(now=timezone.now() + timedelta(days=1, hours=1))
    assert ProcessedMessage.objects.filter(room=room).count() == 0
    assert RoomEvent.objects.filter(room=room, kind="lock").exists()  # the log stays


def test_per_seat_moves_are_idempotent_and_private_ones_take_no_seq(
    transactional_db, make_player, server, open_socket
):
    host, player = make_player("Dealer"), make_player()
    room = services.create_room(game=GAME, mode="group", host=host.profile, settings={})
    services.join_room(room=room, player=player.profile)
    services.start_room(room=room, actor=host.profile)
    socket = open_socket(server, room.code, player)
    socket.recv()
    first = socket.request({"id": "p1", "type": "place", "n": 4})
    assert socket.request({"id": "p1", "type": "place", "n": 4}) == first
    assert Seat.objects.get(room=room, player=player.profile).state == {"placed": [4]}
    peek = socket.request({"type": "peek"})
    assert peek["seq"] is None
    assert socket.event("board")["events"] == [{"type": "board", "placed": [4]}]
    assert RoomEvent.objects.filter(room=room, kind="seat", seq__isnull=True).count() == 1
    assert socket.request({"type": "place", "n": 0})["code"] == "bad_number"
    assert Seat.objects.get(room=room, player=player.profile).state == {"placed": [4]}


def test_a_client_can_trigger_the_evaluation_of_a_passed_deadline(
    transactional_db, make_player, server, open_socket
):
    host, guest = make_player(), make_player()
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={"seconds": 0})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    services.submit(room_id=room.pk, player=host.profile, client_id="d", message={"type": "deal"})
    socket = open_socket(server, room.code, guest)
    socket.recv()
    answer = socket.request({"type": "tick"})
    assert answer["type"] == "ack" and answer["seq"] is not None
    assert socket.event("timeout")["seq"] == answer["seq"]
    assert socket.request({"type": "tick"})["seq"] is None  # nothing due any more
    assert Room.objects.get(pk=room.pk).state["timeouts"] == 1
