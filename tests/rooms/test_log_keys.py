"""The log's and the answers' keys are Django's to keep, not PostgreSQL's (issue 41).

A placement wrote two rows whose four foreign keys PostgreSQL checked with a
query each; those checks are gone (migration rooms.0004), and what they guarded
still holds: the rows go with their room and their player.
"""

from __future__ import annotations

import pytest
from django.db import connection

from accounts import services as accounts_services
from games.rooms import services
from games.rooms.models import ProcessedMessage, Room, RoomEvent
from tests.poker_room.live import rig_deck

pytestmark = [pytest.mark.django_db(transaction=True)]


def _profile(nickname: str):
    profile, _code = accounts_services.create_profile(browser_token=None, nickname=nickname)
    return profile


@pytest.fixture
def placed():
    host, ana = _profile("Učitelka"), _profile("Ana")
    room = services.create_room(game="poker", mode="group", host=host, settings={})
    services.join_room(room=room, player=ana)
    services.start_room(room=room, actor=host)
    rig_deck(room, [2, 3])
    services.submit(room_id=room.pk, player=host, client_id="d1", message={"type": "draw"})
    answer = services.submit(
        room_id=room.pk, player=ana, client_id="p1", message={"type": "place", "cell": 0}
    )
    assert answer["type"] == "ack"
    return room, host, ana


def test_a_placement_s_rows_have_no_key_checks_in_postgresql():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text FROM pg_constraint WHERE contype = 'f'"
            " AND conrelid IN ('rooms_roomevent'::regclass, 'rooms_processedmessage'::regclass)"
        )
        assert cursor.fetchall() == []


def test_a_deleted_player_takes_their_answers_and_leaves_the_log_anonymous(placed):
    room, _host, ana = placed
    ana_id = ana.pk
    assert ProcessedMessage.objects.filter(player_id=ana_id).exists()
    ana.delete()
    assert not ProcessedMessage.objects.filter(player_id=ana_id).exists()
    assert not RoomEvent.objects.filter(actor_id=ana_id).exists()
    assert RoomEvent.objects.filter(room=room, kind="seat", actor=None).exists()


def test_a_deleted_room_takes_its_log_and_answers(placed):
    room, _host, _ana = placed
    Room.objects.filter(pk=room.pk).delete()
    assert not RoomEvent.objects.filter(room_id=room.pk).exists()
    assert not ProcessedMessage.objects.filter(room_id=room.pk).exists()
