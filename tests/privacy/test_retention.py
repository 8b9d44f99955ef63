"""Retention does what the privacy page says (issue 17 §1), through the real database
with time moved forward (``now`` passed in).

"A room past its expiry is refused at join and at every move even while Celery
is down (today an overdue lobby accepts joins and an overdue game accepts moves
until beat runs)."
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection, connections
from django.utils import timezone

from accounts import retention
from accounts import services as accounts_services
from accounts.models import Browser, PlayerProfile, User
from games.models import GameRecord, GameResult
from games.rooms import lifecycle
from games.rooms import privacy as rooms_privacy
from games.rooms import services as rooms
from games.rooms.errors import RoomError
from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat
from tests.rooms import testgame

testgame.register()
DAY = timedelta(days=1)


def _player(nickname: str) -> PlayerProfile:
    return accounts_services.create_profile(browser_token=None, nickname=nickname)[0]


def _finished_room(host, guest) -> Room:
    room = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={"target": 3})
    rooms.join_room(room=room, player=guest)
    rooms.start_room(room=room, actor=host)
    rooms.submit(room_id=room.pk, player=host, client_id="m1", message={"type": "add", "n": 3})
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    return room


def test_the_lobby_lifetime_is_the_tables_number():
    assert lifecycle.ROOM_LIFETIME == timedelta(hours=settings.RETENTION["unfinished_room_hours"])


@pytest.mark.django_db
def test_ended_rooms_go_after_the_period_and_class_results_stay():
    host, guest = _player("Hostitel"), _player("Host Druhý")
    finished = _finished_room(host, guest)
    lobby = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
    now = timezone.now()
    ended_days = settings.RETENTION["ended_room_days"]

    # Within the period nothing is deleted, and the lobby is still live.
    soon = now + timedelta(hours=1)
    assert retention.apply_retention(now=soon) == dict.fromkeys(retention.kinds(), 0)
    assert Room.objects.filter(pk=finished.pk).exists()

    # Downtime: the first run long after the period catches up on both rooms.
    later = now + timedelta(days=ended_days * 3)
    counts = retention.apply_retention(now=later)
    assert counts["expired_rooms"] == 1  # the lobby, expired first ...
    assert counts["deleted_rooms"] == 1  # ... and deleted only once its own period passed
    assert not Room.objects.filter(pk=finished.pk).exists()
    assert not Seat.objects.filter(room_id=finished.pk).exists()
    assert not RoomEvent.objects.filter(room_id=finished.pk).exists()
    assert GameRecord.objects.count() == 1
    assert GameResult.objects.filter(player=host).count() == 1
    assert Room.objects.get(pk=lobby.pk).status == Room.Status.EXPIRED

    even_later = later + timedelta(days=ended_days, seconds=1)
    assert retention.apply_retention(now=even_later)["deleted_rooms"] == 1
    assert retention.apply_retention(now=even_later)["deleted_rooms"] == 0  # idempotent
    assert not Room.objects.exists()


@pytest.mark.django_db
def test_deletion_runs_in_batches(settings):
    settings.RETENTION_BATCH = 3
    host = _player("Dávkový Hráč")
    created = [
        rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
        for _ in range(10)
    ]
    Room.objects.filter(pk__in=[r.pk for r in created]).update(
        status=Room.Status.FINISHED, finished_at=timezone.now() - timedelta(days=400)
    )
    statements = []

    def count_deletes(execute, sql, params, many, context):
        if sql.startswith('DELETE FROM "rooms_room" '):
            statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count_deletes):
        assert rooms_privacy.delete_ended_rooms(timezone.now()) == 10
    assert len(statements) == 4  # 3 + 3 + 3 + 1 rows, one transaction each


@pytest.mark.django_db
def test_idempotency_answers_go_after_a_day():
    host, guest = _player("Hráč Jedna"), _player("Hráč Dva")
    room = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
    rooms.join_room(room=room, player=guest)
    rooms.start_room(room=room, actor=host)
    now = timezone.now()
    rooms.submit(room_id=room.pk, player=host, client_id="a", message={"type": "add", "n": 1})
    assert ProcessedMessage.objects.count() == 1
    assert rooms_privacy.delete_processed_messages(now + timedelta(hours=23)) == 0
    assert rooms_privacy.delete_processed_messages(now + DAY + timedelta(minutes=1)) == 1
    assert not ProcessedMessage.objects.exists()


@pytest.mark.django_db
def test_expired_sessions_go():
    store = SessionStore()
    store["x"] = 1
    store.create()
    assert retention.delete_expired_sessions(timezone.now()) == 0
    later = timezone.now() + timedelta(days=settings.RETENTION["session_days"], minutes=1)
    assert retention.delete_expired_sessions(later) == 1
    assert not Session.objects.exists()


@pytest.mark.django_db
def test_unused_browsers_and_guest_profiles_go_after_thirteen_months():
    old = _player("Stará Liška")
    recent = _player("Nová Liška")
    teacher_profile = _player("Učitelův Profil")
    User.objects.create_user("u@skola.cz", "Heslo-ucitele-1", player=teacher_profile)
    now = timezone.now()
    months = timedelta(days=settings.RETENTION["unused_profile_days"])
    PlayerProfile.objects.filter(pk__in=[old.pk, teacher_profile.pk]).update(
        last_seen_at=now - months - DAY
    )
    Browser.objects.filter(profiles=old).update(last_seen_at=now - months - DAY)
    counts = retention.apply_retention(now=now)
    assert counts["profiles"] == 1 and counts["browsers"] == 1
    assert set(PlayerProfile.objects.values_list("nickname", flat=True)) == {
        "Nová Liška",
        "Učitelův Profil",  # a teacher's own profile lives as long as the account
    }
    assert Browser.objects.filter(profiles=recent).exists()
    assert retention.apply_retention(now=now) == dict.fromkeys(retention.kinds(), 0)


@pytest.mark.django_db
def test_an_overdue_room_is_refused_at_join_and_at_every_move_before_beat_runs():
    host, guest, late = _player("Včasný"), _player("Druhý"), _player("Pozdní")
    lobby = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
    running = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
    rooms.join_room(room=running, player=guest)
    rooms.start_room(room=running, actor=host)
    group = rooms.create_room(game=testgame.GAME, mode="group", host=host, settings={})
    rooms.join_room(room=group, player=guest)
    rooms.start_room(room=group, actor=host)
    past = timezone.now() - timedelta(seconds=1)
    Room.objects.filter(pk__in=[lobby.pk, running.pk, group.pk]).update(expires_at=past)
    # Nobody ran expire_stale_rooms: the rooms still say lobby / running.
    assert Room.objects.filter(status=Room.Status.EXPIRED).count() == 0
    with pytest.raises(RoomError) as refused:
        rooms.join_room(room=lobby, player=late)
    assert refused.value.code == "room_expired"
    with pytest.raises(RoomError) as refused:
        rooms.submit(
            room_id=running.pk, player=guest, client_id="x", message={"type": "add", "n": 1}
        )
    assert refused.value.code == "room_expired"
    with pytest.raises(RoomError) as refused:  # a per-seat move (its own lock path)
        rooms.submit(
            room_id=group.pk, player=guest, client_id="y", message={"type": "place", "n": 1}
        )
    assert refused.value.code == "room_expired"
    with pytest.raises(RoomError) as refused:
        rooms.start_room(room=lobby, actor=host)
    assert refused.value.code == "room_expired"
    assert not Seat.objects.filter(player=late).exists()
    assert Room.objects.get(pk=running.pk).state["total"] == 0


@pytest.mark.django_db(transaction=True)
def test_one_run_at_a_time_on_several_workers():
    """A second worker finds the advisory lock taken and does nothing; rows another
    transaction holds are skipped (SKIP LOCKED) and deleted by a later run."""
    host = _player("Souběžný")
    created = [
        rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={}) for _ in range(5)
    ]
    Room.objects.filter(pk__in=[r.pk for r in created]).update(
        status=Room.Status.FINISHED, finished_at=timezone.now() - timedelta(days=400)
    )
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [retention.ADVISORY_KEY])
        assert retention.apply_retention() is None
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [retention.ADVISORY_KEY])
        other.set_autocommit(False)
        with other.cursor() as cursor:
            cursor.execute("SELECT id FROM rooms_room WHERE id = %s FOR UPDATE", [created[0].pk])
        assert retention.apply_retention()["deleted_rooms"] == 4
        other.rollback()
    finally:
        other.close()
    counts = []

    def worker():
        counts.append(retention.apply_retention())
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(c["deleted_rooms"] for c in counts if c) == 1
    assert not Room.objects.exists()


@pytest.mark.django_db
def test_the_retention_task_is_scheduled():
    entry = settings.CELERY_BEAT_SCHEDULE["privacy-apply-retention"]
    assert entry["task"] == "privacy.apply_retention"
    from accounts import tasks

    assert tasks.apply_retention.name == "privacy.apply_retention"
    assert tasks.apply_retention.apply().get()["deleted_rooms"] == 0


def test_the_privacy_page_shows_the_tables_numbers(client, settings, db):
    settings.RETENTION = {**settings.RETENTION, "ended_room_days": 11, "unused_profile_days": 397}
    html = client.get("/privacy/", headers={"accept-language": "en"}).content.decode()
    assert "11 days" in html
    assert "397 days" in html
    assert f"{settings.RETENTION['unfinished_room_hours']} hours" in html
    assert "six hours" not in html


@pytest.mark.django_db
def test_login_records_go_after_the_period():
    from axes.models import AccessAttempt, AccessLog

    now = timezone.now()
    old = now - timedelta(days=settings.RETENTION["login_record_days"], hours=1)
    for username in ("a@skola.cz", "b@skola.cz"):
        AccessAttempt.objects.create(
            username=username, ip_address="10.0.0.1", failures_since_start=1
        )
        AccessLog.objects.create(username=username, ip_address="10.0.0.1")
    AccessAttempt.objects.filter(username="a@skola.cz").update(attempt_time=old)
    AccessLog.objects.filter(username="a@skola.cz").update(attempt_time=old)
    assert retention.apply_retention(now=now)["login_records"] == 2
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"b@skola.cz"}
    assert set(AccessLog.objects.values_list("username", flat=True)) == {"b@skola.cz"}


def test_the_privacy_page_names_the_controller_and_contact(client, settings, db):
    settings.DATA_CONTROLLER_NAME = "ZŠ Matiční, Brno"
    settings.DATA_CONTROLLER_CONTACT = "poverenec@zs-maticni.cz"
    html = client.get("/privacy/", headers={"accept-language": "en"}).content.decode()
    assert "The data controller is ZŠ Matiční, Brno." in html
    assert "poverenec@zs-maticni.cz" in html
    assert f"{settings.RETENTION['login_record_days']} days" in html


@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_runs_the_retention_task(celery_worker_process):
    from accounts import tasks

    host = _player("Pracovitý")
    room = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
    Room.objects.filter(pk=room.pk).update(
        status=Room.Status.FINISHED, finished_at=timezone.now() - timedelta(days=400)
    )
    counts = tasks.apply_retention.delay().get(timeout=60)
    assert counts["deleted_rooms"] == 1
    assert not Room.objects.filter(pk=room.pk).exists()


@pytest.mark.django_db
def test_a_class_games_room_is_stripped_not_deleted_so_reports_keep_departures():
    from classrooms.models import Classroom
    from classrooms.selectors import departures

    teacher = User.objects.create_user("t@skola.cz", "Heslo-ucitele-1")
    classroom = Classroom.objects.create(name="5.A", teacher=teacher, join_code="RET234")
    host, pupil, leaver = _player("Třídní Host"), _player("Žák Jeden"), _player("Žák Dva")
    room = rooms.create_room(
        game=testgame.GAME, mode="group", host=host, settings={}, classroom=classroom
    )
    rooms.join_room(room=room, player=pupil)
    rooms.join_room(room=room, player=leaver)
    rooms.start_room(room=room, actor=host)
    rooms.submit(room_id=room.pk, player=pupil, client_id="p", message={"type": "place", "n": 1})
    rooms.kick(room=room, actor=host, player_id=leaver.pk)
    rooms.end_room(room=room, actor=host)
    room.refresh_from_db()
    before = departures([room.record_id])
    assert before == {(room.record_id, leaver.pk): "kicked"}
    later = timezone.now() + timedelta(days=settings.RETENTION["ended_room_days"] + 1)
    counts = retention.apply_retention(now=later)
    assert counts["stripped_class_rooms"] == 1 and counts["deleted_rooms"] == 0
    room.refresh_from_db()
    assert room.state == {}
    assert not RoomEvent.objects.filter(room=room).exists()
    assert not ProcessedMessage.objects.filter(room=room).exists()
    assert all(seat.state == {} for seat in Seat.objects.filter(room=room))
    assert departures([room.record_id]) == before  # the report still marks the removed pupil
    assert retention.apply_retention(now=later)["stripped_class_rooms"] == 0  # idempotent


@pytest.mark.django_db(transaction=True)
def test_the_run_lock_is_transaction_scoped_so_it_works_behind_pgbouncer():
    """Issue 30: behind PgBouncer in transaction mode a session-level advisory lock
    stays on whichever server connection took it ("you don't own a lock" at the
    unlock). The run's lock belongs to an open transaction -- its holder is 'idle
    in transaction' while the run works -- and nothing is left after the run."""
    from accounts import privacy

    seen = []

    def probe(now):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT a.state, l.granted FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
                " WHERE l.locktype = 'advisory' AND l.objsubid = 1"
                " AND (l.classid::bigint << 32 | l.objid::bigint) = %s",
                [retention.ADVISORY_KEY],
            )
            seen.extend(cursor.fetchall())
        return {"probe": 0}

    privacy.register(privacy.PrivacyHooks(app="probe", apply_retention=probe))
    try:
        assert retention.apply_retention() is not None
    finally:
        privacy.unregister("probe")
    assert seen == [("idle in transaction", True)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
        assert cursor.fetchone()[0] == 0
    assert retention.apply_retention() is not None  # free for the next run
